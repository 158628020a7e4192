"""Paths and helpers shared by the text-tool tests."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SOURCES = Path(__file__).resolve().parents[1] / "fixtures" / "sources"  # byte-for-byte copies of ../shared/sources
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "text"
BULLETIN_2015 = SOURCES / "45-PaB-4185_2015-08-01_ch669a-ch670a.txt"
BULLETIN_2010 = SOURCES / "40-PaB-1911_2010-04-10_ch535-ch567.txt"
CODE_669A9 = SOURCES / "58-PaCode_669a.9_2024-11-02.txt"
CODE_688A11 = SOURCES / "58-PaCode_688a.11.txt"
ALL_SOURCES = [BULLETIN_2015, BULLETIN_2010, CODE_669A9, CODE_688A11]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compiler.text.commands", *map(str, args)],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
