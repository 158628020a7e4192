"""Paths and helpers shared by the text-tool tests."""
from __future__ import annotations

import subprocess
from pathlib import Path

from cli_run import run_in_process, run_rulespec  # noqa: F401 - run_rulespec: for the text tests

SOURCES = Path(__file__).resolve().parents[1] / "fixtures" / "sources"  # byte-for-byte copies of ../shared/sources
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "text"
BULLETIN_2015 = SOURCES / "45-PaB-4185_2015-08-01_ch669a-ch670a.txt"
BULLETIN_2010 = SOURCES / "40-PaB-1911_2010-04-10_ch535-ch567.txt"
CODE_669A9 = SOURCES / "58-PaCode_669a.9_2024-11-02.txt"
CODE_688A11 = SOURCES / "58-PaCode_688a.11.txt"
ALL_SOURCES = [BULLETIN_2015, BULLETIN_2010, CODE_669A9, CODE_688A11]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m compiler.text.commands ARGS``, in process (run_in_process)."""
    from compiler.text.commands import main

    return run_in_process(main, args)
