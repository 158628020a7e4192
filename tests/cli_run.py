"""Running a command-line entry point in this process, as ``python -m`` runs it (shared test helper:
``tests`` is on the path, pyproject.toml)."""
from __future__ import annotations

import io
import os
import subprocess
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def run_rulespec(*args) -> subprocess.CompletedProcess:
    """``python -m compiler.cli ARGS`` (the ``rulespec`` command), in process (run_in_process)."""
    from compiler.cli import main

    return run_in_process(main, args)
