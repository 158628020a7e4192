"""`rulespec play`'s arguments: what building the command line imports of the terminal game (argparse
only; rich and the engine are loaded by the command when it runs, compiler/play/terminal.py)."""
from __future__ import annotations


def run(args) -> int:
    from compiler.play.terminal import run as play

    return play(args)


def register(sub) -> None:
    p = sub.add_parser("play", help="play rounds of a chapter at the terminal, with every ruling and its provision",
                       description="A terminal game driven by the compiled game module: the layout, the cards, every "
                                   "decision a player may make, each ruling with its provision and the running "
                                   "balance. Irregularities the chapter defines can be raised; each round can be "
                                   "saved as a hand history that `rulespec settle` reproduces.")
    p.add_argument("chapter", metavar="CHAPTER", help="the chapter's rulespec (rulespecs/NNN-*.yaml)")
    p.add_argument("--submission", metavar="FILE", help="play under this Rules Submission's selections")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set one option (repeatable)")
    p.add_argument("--seats", type=int, default=1, metavar="N", help="positions played, 1 to N (default 1)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="seed of the shuffle and the dice (default: unpredictable, as at a live table)")
    p.add_argument("--save", metavar="DIR", help="save every round in DIR (an existing directory) as "
                                                 "CHAPTER-round-NNN.yaml, numbered on from the rounds already "
                                                 "there (otherwise asked after each round)")
    p.set_defaults(handler=run)
