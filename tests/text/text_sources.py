"""Paths and helpers shared by the text-tool tests."""
from __future__ import annotations

import io
import os
import subprocess
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = Path(__file__).resolve().parents[1] / "fixtures" / "sources"  # byte-for-byte copies of ../shared/sources
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "text"
BULLETIN_2015 = SOURCES / "45-PaB-4185_2015-08-01_ch669a-ch670a.txt"
BULLETIN_2010 = SOURCES / "40-PaB-1911_2010-04-10_ch535-ch567.txt"
CODE_669A9 = SOURCES / "58-PaCode_669a.9_2024-11-02.txt"
CODE_688A11 = SOURCES / "58-PaCode_688a.11.txt"
ALL_SOURCES = [BULLETIN_2015, BULLETIN_2010, CODE_669A9, CODE_688A11]


def run_in_process(main, args) -> subprocess.CompletedProcess:
    """``main(args)`` run as ``python -m`` would run it, in this process (no interpreter start and no
    imports per call): stdout and stderr captured, the working directory the project root, a
    ``SystemExit`` turned into its status and an uncaught exception into its traceback on stderr and
    status 1, as the interpreter does."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as e:
                if e.code is None or isinstance(e.code, int):
                    status = e.code or 0
                else:
                    print(e.code, file=err)
                    status = 1
            except Exception:  # noqa: BLE001 - as the interpreter would report it
                traceback.print_exc(file=err)
                status = 1
    finally:
        os.chdir(cwd)
    return subprocess.CompletedProcess(argv, int(status or 0), out.getvalue(), err.getvalue())


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m compiler.text.commands ARGS``, in process (run_in_process)."""
    from compiler.text.commands import main

    return run_in_process(main, args)


def run_rulespec(*args: str) -> subprocess.CompletedProcess:
    """``python -m compiler.cli ARGS`` (the ``rulespec`` command), in process (run_in_process)."""
    from compiler.cli import main

    return run_in_process(main, args)
