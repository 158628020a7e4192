"""The ``rulespec`` command line.

Each group of subcommands lives beside the machinery it drives and exposes
``register(subparsers)``; every handler returns an exit status (0 ok, 1 error).
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from compiler import cli_extras
from compiler import commands as core_commands
from compiler.play import terminal as play_terminal
from compiler.serve import app as serve_app
from compiler.submission import commands as submission_commands
from compiler.submission import schedule as schedule_commands
from compiler.text import commands as text_commands

COMMAND_MODULES = (core_commands, submission_commands, text_commands, schedule_commands, play_terminal,
                   serve_app, cli_extras)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulespec",
        description="Compile Pennsylvania table-game chapters written as YAML rulespecs.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
    cli_extras.add_version(parser)  # --version, help on every option (compiler/cli_extras.py)
    cli_extras.fill_help(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:  # pragma: no cover
        return 1
    except BrokenPipeError:  # pragma: no cover
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
