"""The ``rulespec`` command line.

Each group of subcommands lives beside the machinery it drives and exposes
``register(subparsers)``; every handler returns an exit status.

Exit status, for every subcommand: 0 success, 1 any error -- bad input, a failed check, and a
usage error (an unknown option, a missing argument) alike (argparse's 2 is not used).

All text the command line writes goes through :func:`visible`: control characters (ANSI
escapes, NUL, ...), line and paragraph separators and bidirectional overrides coming from a
spec, a hand history or a Rules Submission are shown as escapes, never sent raw to a terminal.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from compiler import cli_extras
from compiler import commands as core_commands
from compiler import round_tests
from compiler.play import args as play_args
from compiler.render.terminal import VisibleStream, raw_stream, visible  # noqa: F401  (re-exported)
from compiler.serve import args as serve_args
from compiler.submission import args as submission_args
from compiler.text import commands as text_commands

# every subcommand, in the order --help lists them; each registers its arguments only (argparse), its
# handler importing what it runs when called (docs/speed.md: start-up)
REGISTER = (core_commands.register, submission_args.register_submission, text_commands.register,
            submission_args.register_schedule, play_args.register, serve_args.register, round_tests.register,
            cli_extras.register)

class ArgumentParser(argparse.ArgumentParser):
    """argparse with the command line's exit status: a usage error exits 1, not 2."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        root = self._defaults.get("root_parser") or self
        self.exit(1, f"{self.prog}: error: {cli_extras.did_you_mean(message, root)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="rulespec",
        description="Compile Pennsylvania table-game chapters written as YAML rulespecs.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for register in REGISTER:
        register(sub)
    parser.set_defaults(root_parser=parser)  # `rulespec completion` reads the whole parser
    cli_extras.add_version(parser)  # --version, help on every option (compiler/cli_extras.py)
    cli_extras.fill_help(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    saved = sys.stdout, sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = cli_extras.wants_json(argv)  # errors too are JSON (on standard output), exit 1
    out, err = VisibleStream(sys.stdout), VisibleStream(sys.stderr)
    if as_json:
        out, err = cli_extras.Recorder(out), cli_extras.Recorder(err)
    sys.stdout, sys.stderr = out, err
    status = 1
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # --help (0) or a usage error (1)
            status = 0 if e.code in (0, None) else 1
        else:
            from compiler.pipeline import ROOT

            errors = cli_extras.resolve_chapters(args, ROOT)  # `rulespec play 567`
            for e in errors:
                print(e, file=sys.stderr)
            limits = _walk_limits(args)
            try:
                status = 1 if errors else int(args.handler(args) or 0)
            finally:  # a caller running main() in its process (tests, `rulespec serve`) keeps its own limits
                for var, token in limits:
                    var.reset(token)
        if as_json and status != 0 and not out.wrote:
            import json

            out.write(json.dumps(cli_extras.errors_json(err.text()), indent=2, ensure_ascii=False) + "\n")
        return status
    except KeyboardInterrupt:  # pragma: no cover
        return 1
    except BrokenPipeError:  # pragma: no cover
        return 0
    finally:
        sys.stdout, sys.stderr = saved


def _walk_limits(args) -> list:
    """The draw walk (blackjack) on the command line: every core, and the budget of a whole 6- or 8-deck shoe
    (``analyze --budget N`` another), so that analyses, Rules Submission documents and builds give one figure.
    The (variable, token) pairs that restore the caller's values."""
    import os

    from compiler.values import walk_limits

    given = getattr(args, "budget", None)
    return [(walk_limits.jobs, walk_limits.jobs.set(os.cpu_count() or 1)),
            (walk_limits.progress, walk_limits.progress.set(30.0)),
            (walk_limits.budget, walk_limits.budget.set(walk_limits.CLI_BUDGET if given is None else max(given, 0)))]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
