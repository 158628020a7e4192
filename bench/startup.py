"""Start-up of `rulespec` as a user runs it (a new process, imports included), beside the targets of
issue 28 item 4: `--version` and `--help` in 0.2 s or less, `validate` of one chapter in 1 s or less.
Never asserted in tests.

Each command runs ``RUNS`` times; the figure is the fastest wall time (the run the other helpers' load
disturbed least), with the median wall time and the CPU time (user + system, which load barely changes)
beside it. A bare ``python -c pass`` is timed the same way: the interpreter's own share.

Every command is timed twice: in this tree as the environment runs it (the sessions that work on the
project set ``PYTHONDONTWRITEBYTECODE=1`` and their trees hold no ``__pycache__``: every process then
compiles ``compiler/`` from source), and in a copy of the tree whose ``compiler/`` was compiled to
bytecode first (``compileall``), as an installed package or a checkout that has run once starts; the
copy reads and writes the same build cache (``RULESPEC_CACHE_DIR``) and is removed afterwards.

    python -m bench.startup            # 7 runs of each
    python -m bench.startup --runs 15
    python -m bench.startup --simulate # also `rulespec simulate` War 100,000 x 7 and the shuffle rate
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7
CLI = "import sys; from compiler.cli import main; sys.exit(main(sys.argv[1:]))"

NO_CACHE = {"RULESPEC_NO_CACHE": "1"}  # every parser and ranking built again: an edited chapter's first validate

# (label, arguments of `rulespec`, target in seconds, environment added)
COMMANDS = (
    ("rulespec --version", ["--version"], 0.2, {}),
    ("rulespec --help", ["--help"], 0.2, {}),
    *((f"rulespec validate rulespecs/{ch.split('-')[0]}-...", ["validate", f"rulespecs/{ch}.yaml"], 1.0, {}) for ch in (
        "535-pai-gow", "567-war", "669a-raise-it-up-stud-poker", "670a-six-card-fortune-pai-gow-poker",
        "688a-face-up-pai-gow-poker")),
    ("rulespec validate 670a-... (RULESPEC_NO_CACHE=1)",
     ["validate", "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"], 1.0, NO_CACHE),
)


def _once(argv: list[str], env: dict | None = None, cwd: Path = ROOT) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the child, exit status) of one new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, *argv], cwd=cwd, capture_output=True,
                       env={**os.environ, **env} if env else None)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.returncode


def measure(argv: list[str], runs: int = RUNS, env: dict | None = None,
            cwd: Path = ROOT) -> tuple[float, float, float, int]:
    """(fastest wall, median wall, median CPU, exit status) of ``runs`` new processes."""
    walls, cpus, status = [], [], 0
    for _ in range(runs):
        w, c, status = _once(argv, env, cwd)
        walls.append(w)
        cpus.append(c)
    return min(walls), statistics.median(walls), statistics.median(cpus), status


@contextmanager
def compiled_copy():
    """A copy of the tree (what `rulespec validate` reads) with ``compiler/`` compiled to bytecode."""
    tmp = Path(tempfile.mkdtemp(prefix="rulespec-bench-"))
    try:
        for d in ("compiler", "rulespecs", "schemas"):
            shutil.copytree(ROOT / d, tmp / d, ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run([sys.executable, "-m", "compileall", "-q", "compiler"], cwd=tmp, check=True,
                       capture_output=True)
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(runs: int = RUNS) -> None:
    from bench.analysis import figure

    base = measure(["-c", "pass"], runs)
    figure("python -c pass (the interpreter alone)", base[0], "s",
           note=f"median {base[1]:.3f} s wall, {base[2]:.3f} s CPU")
    cache_dir = {"RULESPEC_CACHE_DIR": os.environ.get("RULESPEC_CACHE_DIR") or str(ROOT / ".cache" / "rulespec")}
    with compiled_copy() as copy:
        for label, args, target, env in COMMANDS:
            for where, cwd, more in (("", ROOT, {}), (" [bytecode]", copy, cache_dir)):
                fastest, median, cpu, status = measure(["-c", CLI, *args], runs, {**env, **more}, cwd)
                figure(label + where, fastest, "s", target, "lower",
                       note=f"fastest of {runs}; median {median:.3f} s wall, {cpu:.3f} s CPU; exit {status}")


SIMULATE = ["simulate", "rulespecs/567-war.yaml", "--rounds", "100000", "--seats", "7", "--policy", "war"]


def simulate_report(runs: int = 2) -> None:
    """`rulespec simulate` of War, 100,000 rounds at 7 positions, as a user runs it (start-up, every
    core), and the fast path's shuffle: per-shuffle blocks of words against reading the whole buffer."""
    import random

    import numpy as np

    from bench.analysis import figure
    from compiler.fast.shoes import _MTShoes
    from compiler.runtime.shoe import CutRule, Shoe

    fastest, median, cpu, status = measure(["-c", CLI, *SIMULATE], runs)
    figure("rulespec simulate War 100,000 rounds x 7 (new process)", fastest, "s",
           note=f"fastest of {runs}; median {median:.2f} s wall, {cpu:.2f} s CPU (workers included); exit {status}")
    proto = Shoe(6, random.Random(0), cut=CutRule(min_from_edge=10))
    rows = np.arange(500)
    for label, how in (("per-shuffle block", "shuffle"), ("whole buffer (before)", "_shuffle_from_buffer")):
        shoes = _MTShoes(list(range(500)), proto)
        best = min(_seconds(getattr(shoes, how), rows) for _ in range(3))
        figure(f"fast path: 500 six-deck shoes shuffled, {label}", 500 / best, "shoes/s")


def _seconds(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.startup")
    ap.add_argument("--runs", type=int, default=RUNS)
    ap.add_argument("--simulate", action="store_true", help="also `rulespec simulate` of War and the shuffle")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from bench.analysis import machine

    print(machine())
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (figures are slower on a loaded machine)")
    report(args.runs)
    if args.simulate:
        simulate_report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
