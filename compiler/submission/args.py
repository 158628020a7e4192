"""The arguments of `rulespec submission` and `rulespec schedule`: what building the command line imports
of the Rules Submissions (argparse and the list of document formats only; the checks, the chapters and
the documents are loaded by the command when it runs: compiler/submission/commands.py, schedule.py)."""
from __future__ import annotations

from compiler.submission.formats import FORMATS


def cmd_submission(args) -> int:
    from compiler.submission.commands import cmd_submission as run

    return run(args)


def cmd_schedule(args) -> int:
    from compiler.submission.schedule import cmd_schedule as run

    return run(args)


def register_submission(sub) -> None:
    p = sub.add_parser("submission", help="check Rules Submissions (§ 601a.2) and write their documents",
                       description="Check Rules Submission files against the schema generated from their "
                                   "chapter's rulespec and the chapter's bounds and conditions; with -o DIR, "
                                   "write each document "
                                   "(Markdown, printable HTML and PDF; docs/submissions.md).")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", metavar="DIR",
                   help="write the documents: " + ", ".join(f"DIR/<name>.{f.ext}" for f in FORMATS))
    p.add_argument("--rulespec", metavar="FILE", action="append", default=[],
                   help="the rulespec of a chapter outside rulespecs/ (a draft, a test chapter): the submissions "
                        "naming its chapter are checked against it (repeatable)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    p.set_defaults(handler=cmd_submission)


def register_schedule(sub) -> None:
    p = sub.add_parser("schedule", help="equipment change schedule (decks, tiles, ...) of Rules Submissions",
                       description="Check Rules Submissions and print, per certificate holder and facility, how "
                                   "often each item of each game's equipment must be changed under the "
                                   "submission's selections, with its citation (docs/change-schedules.md).")
    p.add_argument("files", nargs="+", metavar="SUBMISSION")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    p.set_defaults(handler=cmd_schedule)
