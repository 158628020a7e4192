"""``rulespec test [PATH ...]``: every hand history under the given folders settled against its
rulespec and compared with its ``expect:``, with a pytest-like summary (as ``openfisca test DIR``).

A hand history is a YAML file whose first key is ``rulespec_round``; its rulespec is the one its
``rulespec:`` names (relative to the file) or its chapter's in ``rulespecs/``. Each is settled by
``rulespec settle --check``'s own code, so the two never disagree.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path


DEFAULT_PATHS = ("rulespecs/rounds", "tests")


def find_rounds(paths: list[str]) -> tuple[list[Path], list[str]]:
    """(hand histories under ``paths``, in order; the paths that do not exist)."""
    from compiler.round_file import is_round

    found: list[Path] = []
    missing: list[str] = []
    for p in paths:
        q = Path(p)
        if q.is_file():
            found.append(q)
        elif q.is_dir():
            found.extend(f for f in sorted(q.rglob("*.y*ml")) if ".venv" not in f.parts and is_round(f))
        else:
            missing.append(p)
    return found, missing


def run_one(path: Path) -> tuple[bool, str]:
    """(passed, what settle --check said) for one hand history."""
    from compiler.game_commands import cmd_settle

    out, err = io.StringIO(), io.StringIO()
    args = argparse.Namespace(spec=str(path), round=None, check=True, submission=None, option=None, log=False,
                              format="text")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cmd_settle(args)
        except Exception as e:  # a defect of rulespec itself: reported as such, the run goes on
            rc = 1
            print(f"{path}:1:1: error: internal error while settling: {type(e).__name__}: {e}", file=sys.stderr)
    return rc == 0, (err.getvalue() if rc else out.getvalue()).strip()


def cmd_test(args) -> int:
    from compiler.pipeline import ROOT

    paths = args.paths or [str(ROOT / p) for p in DEFAULT_PATHS]
    rounds, missing = find_rounds(paths)
    for m in missing:
        print(f"{m}:1:1: error: no such file or folder", file=sys.stderr)
    results = []
    for f in rounds:
        ok, said = run_one(f)
        results.append((f, ok, said))
        if args.format == "text":
            if args.verbose:
                print(f"{_rel(f)} {'PASSED' if ok else 'FAILED'}")
            else:
                print("." if ok else "F", end="", flush=True)
    failed = [(f, said) for f, ok, said in results if not ok]
    if args.format == "json":
        print(json.dumps({"ok": not failed and not missing, "passed": len(results) - len(failed),
                          "failed": [{"round": _rel(f), "messages": said.splitlines()} for f, said in failed],
                          "missing": missing}, indent=2, ensure_ascii=False))
    else:
        if rounds and not args.verbose:
            print()
        for f, said in failed:
            print(f"FAILED {_rel(f)}\n" + "\n".join("  " + line for line in said.splitlines()), file=sys.stderr)
        n = len(results)
        summary = f"{n - len(failed)} passed" + (f", {len(failed)} failed" if failed else "")
        if not rounds:
            summary = "no hand histories found under " + ", ".join(paths)
        print(summary)
    return 1 if failed or missing or not rounds else 0


def _rel(p: Path) -> str:
    from compiler.pipeline import ROOT

    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return str(p)


def register(sub) -> None:
    p = sub.add_parser("test", help="settle every hand history under PATHs and compare it with its expect:",
                       description="Run every hand history (a YAML file starting with rulespec_round:) under the "
                                   "given files and folders against its rulespec (its `rulespec:`, or its chapter's "
                                   "in rulespecs/), compare the settlement with its `expect:` and print a summary; "
                                   "exit 1 on any difference. Default: " + " and ".join(DEFAULT_PATHS) + ".")
    p.add_argument("paths", nargs="*", metavar="PATH", help="hand histories or folders holding them")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per hand history")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=cmd_test)
