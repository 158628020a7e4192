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
import re
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

# C0 controls except tab and newline, DEL, C1 controls, U+2028/U+2029, bidi embeddings/overrides
# and isolates, the BOM / zero-width no-break space
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def visible(text: str) -> str:
    """``text`` with every character that could act on a terminal shown as an escape:
    ``\\x1b`` for a C0 control or DEL, ``\\u2028`` for the others (also a valid JSON string escape)."""
    def esc(m: re.Match) -> str:
        c = ord(m.group())
        return f"\\x{c:02x}" if c < 0x20 or c == 0x7f else f"\\u{c:04x}"

    return _UNSAFE.sub(esc, text)


def raw_stream(stream):
    """The stream under a :class:`VisibleStream` (for a renderer that escapes its own text)."""
    return stream._stream if isinstance(stream, VisibleStream) else stream


class VisibleStream:
    """A text stream that writes through :func:`visible`."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(visible(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)


class ArgumentParser(argparse.ArgumentParser):
    """argparse with the command line's exit status: a usage error exits 1, not 2."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
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
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = VisibleStream(sys.stdout), VisibleStream(sys.stderr)
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # --help (0) or a usage error (1)
            return 0 if e.code in (0, None) else 1
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:  # pragma: no cover
        return 1
    except BrokenPipeError:  # pragma: no cover
        return 0
    finally:
        sys.stdout, sys.stderr = saved


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
