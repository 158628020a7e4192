"""`rulespec build --check` with nothing changed, timed as a user runs it (a new process, imports
included), beside its target (issue 11: at most 2 s). Never asserted in tests.

    python -m bench.build          # warm: the first run fills .cache/rulespec/ if needed, the next is timed
    python -m bench.build --cold   # also a run with --no-cache (every analysis recomputed: minutes)
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 2.0


def _run(*args: str) -> tuple[float, int, str]:
    cmd = [sys.executable, "-c", "import sys; from compiler.cli import main; sys.exit(main(sys.argv[1:]))",
           "build", "--check", *args]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - t0, p.returncode, (p.stdout + p.stderr).strip().splitlines()[-1:]


def report(cold: bool = False) -> None:
    first, rc, last = _run()
    if rc != 0:
        print(f"rulespec build --check failed ({last}); not timed")
        return
    warm, rc, _ = _run()
    verdict = "met" if warm <= TARGET_S else "NOT met"
    print(f"{'rulespec build --check, nothing changed (new process)':<58} {warm:8.3f} s"
          f"   target <= {TARGET_S:.0f} s: {verdict}")
    print(f"    (run before it, filling the cache if it was empty: {first:.3f} s)")
    if cold:
        t, rc, _ = _run("--no-cache")
        print(f"{'rulespec build --check --no-cache (every analysis)':<58} {t:8.3f} s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.build")
    ap.add_argument("--cold", action="store_true", help="also time --no-cache (minutes)")
    args = ap.parse_args(argv)
    from bench.analysis import machine

    print(machine())
    report(cold=args.cold)
    return 0


if __name__ == "__main__":
    sys.exit(main())
