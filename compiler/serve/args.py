"""`rulespec serve`'s arguments: what building the command line imports of the browser form (argparse
only; Flask and the chapters are loaded by the command when it runs, compiler/serve/app.py)."""
from __future__ import annotations

import argparse


def port_number(text: str) -> int:
    """``--port``: 1 to 65535, or a usage error (exit 1) saying so."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"port {n} is out of range (a port is 1 to 65535)")
    return n


def cmd_serve(args) -> int:
    from compiler.serve.app import cmd_serve as run

    return run(args)


def register(sub) -> None:
    p = sub.add_parser("serve", help="fill in a Rules Submission in the browser (one page per chapter)",
                       description="A local web form per chapter, generated from its submission schema: live "
                                   "validation with the CLI's messages and §, the house edges of the selections, "
                                   "and downloads of the YAML, HTML and PDF documents.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port to listen on, 1 to 65535 (default 8000)")
    p.set_defaults(handler=cmd_serve)
