"""Subcommands of the text tools: ``text``, ``diff``, ``import`` (owned by compiler/text).

    rulespec text parse FILE [--format text|json]
    rulespec text render SPEC.yaml [--format text|html] [-o OUT]
    rulespec text check SPEC.yaml SOURCE [--format text|json]
    rulespec import FILE [--chapter 669a] [-o rulespecs/NEW.yaml]
    rulespec diff OLD NEW [--chapter C] [--format text|json|html] [--amendment]

Errors are printed as ``path:line:col: error: message`` on stderr; exit status 1.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import TextError, read_input


def _fail(exc: Exception, path: str = "<input>") -> int:
    if isinstance(exc, TextError):
        print(str(exc), file=sys.stderr)
    else:
        print(f"{path}:1:1: error: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 1


def _write(text: str, out: str | None) -> None:
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


# ----------------------------------------------------------------------- handlers

def cmd_parse(args) -> int:
    from .model import to_jsonable
    from .outline import outline
    from .parser import parse_file

    try:
        doc = parse_file(args.file, strict=args.strict)
        if args.format == "json":
            _write(json.dumps(to_jsonable(doc), indent=1, ensure_ascii=False) + "\n", None)
        else:
            _write(outline(doc), None)
        # what could not be read: every one, with its position (exit 1); notes (page cut
        # short, no rule text) do not make the command fail
        for n in doc.errors:
            print(n.format(doc.path), file=sys.stderr)
        return 1 if doc.errors else 0
    except Exception as exc:  # noqa: BLE001 - every failure is reported, never a traceback
        return _fail(exc, args.file)


def cmd_amendment(args) -> int:
    """The markup of a Bulletin amendment read back: its changes, or one version's text."""
    from .markup import amendment_changes, has_markup, versions

    try:
        try:
            text = read_input(args.file).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TextError(f"cannot read file: {exc}", args.file, 1, 1) from None
        if text.lstrip()[:1] == "<":
            from .markup import html_to_text
            text = html_to_text(text)
        if not has_markup(text):
            raise TextError("no amendment markup on this page (no bold, no bracketed deletions in an Annex)",
                            args.file, 1, 1)
        if args.version:
            old, new = versions(text)
            _write(old if args.version == "old" else new, args.output)
            return 0
        changes = amendment_changes(text)
        bold_lost = "**" not in text
        if args.format == "json":
            _write(json.dumps({"file": args.file, "bold_known": not bold_lost, "changes": changes},
                              indent=1, ensure_ascii=False) + "\n", args.output)
        else:
            out = [f"{args.file}:{c['line']}: {c['change']}: "
                   + (f"{c['old']} -> {c['new']}" if c["change"] == "renumbered" else (c.get("old") or c.get("new")))
                   for c in changes]
            if bold_lost:
                out.append(f"{args.file}: note: a text capture: the bold of the additions is lost; "
                           "only bracketed deletions are marked")
            _write("\n".join(out) + "\n", args.output)
        return 0
    except Exception as exc:  # noqa: BLE001
        return _fail(exc, args.file)


def cmd_import(args) -> int:
    from .importer import dump_yaml, import_file

    try:
        spec = import_file(args.file, args.chapter)
        _write(dump_yaml(spec), args.output)
        for m in spec.get("missing") or []:
            print(f"{args.file}: note: not in the spec: {m['cite']}: {m['what']}", file=sys.stderr)
        return 0
    except Exception as exc:  # noqa: BLE001
        return _fail(exc, args.file)


def cmd_render(args) -> int:
    from .render import load_spec, render_html, render_text

    try:
        spec = load_spec(args.spec)
        _write(render_html(spec) if args.format == "html" else render_text(spec), args.output)
        return 0
    except Exception as exc:  # noqa: BLE001
        return _fail(exc, args.spec)


def cmd_check(args) -> int:
    from .parser import parse_file
    from .render import compare_to_source, load_spec

    try:
        spec = load_spec(args.spec)
        doc = parse_file(args.source)
        diffs = compare_to_source(spec, doc)
        if args.format == "json":
            _write(json.dumps([d.as_dict() for d in diffs], indent=1, ensure_ascii=False) + "\n", None)
        else:
            if not diffs:
                print(f"{args.spec}: matches {args.source}")
            for d in diffs:
                print(d.describe())
        return 0
    except Exception as exc:  # noqa: BLE001
        return _fail(exc, args.spec)


def cmd_diff(args) -> int:
    from compiler.submission.diff import cmd_diff_submissions, is_submission_file  # two Rules Submissions

    if is_submission_file(args.old) and is_submission_file(args.new):
        return cmd_diff_submissions(args)
    from .diff import diff_files, format_amendment, format_html, format_json, format_text

    try:
        result = diff_files(args.old, args.new, chapter=args.chapter)
        if getattr(args, "impact", False):
            with _impact_progress():
                _add_impact(args, result)
        if args.amendment:
            _write(format_amendment(result, html=args.format == "html", as_json=args.format == "json"),
                   args.output)
        elif args.format == "json":
            _write(format_json(result), args.output)
        elif args.format == "html":
            _write(format_html(result), args.output)
        else:
            _write(format_text(result), args.output)
        return 0
    except Exception as exc:  # noqa: BLE001
        path = getattr(exc, "path", None) or args.old
        return _fail(exc, path)


def _impact_progress():
    """The analyses of `diff --impact` (seconds to a minute) show their progress, on a terminal only:
    the time spent, or done/total with the rate and time left where an analysis knows its total."""
    from contextlib import ExitStack

    from compiler.analysis import progress
    from compiler.analysis.simulate import Progress
    from compiler.render.terminal import Ticker, raw_stream

    ticker = Ticker("computing the impact on the house edges")

    def bar(total: int, unit: str) -> Progress:
        ticker.paused = True
        return Progress(total, stream=raw_stream(sys.stderr), unit=unit)

    stack = ExitStack()
    stack.enter_context(ticker)
    stack.enter_context(progress.reporting(bar))
    return stack


def _add_impact(args, result) -> None:
    """The house edges before and after, beside each chapter of a diff."""
    from .impact import impact

    yamls = [str(p).endswith((".yaml", ".yml")) for p in (args.old, args.new)]
    if yamls == [True, False]:  # a rulespec, then a Bulletin or Code page: its numbers mapped onto the data
        from .page_impact import page_impact

        for cd in result.chapters:
            cd.impact = page_impact(args.old, args.new, decks=args.decks)
    elif not all(yamls):
        raise TextError("--impact compares a rulespec (YAML) with a rulespec or with a Bulletin or Code "
                        "page given second", args.new if yamls[0] else args.old)
    else:
        for cd in result.chapters:
            cd.impact = impact(args.old, args.new, cd.data, decks=args.decks)


def cmd_history(args) -> int:
    from .diff import format_json as diff_json, format_text as diff_text
    from .history import build, diff_dates, format_history, format_json

    try:
        h = build(args.files, args.map, args.chapter)
        if args.diff:
            d1, d2 = args.diff
            result = diff_dates(h, d1, d2)
            _write(diff_json(result) if args.format == "json" else diff_text(result), args.output)
        elif args.format == "json":
            _write(format_json(h), args.output)
        else:
            _write(format_history(h, args.provision, args.all), args.output)
        return 0
    except Exception as exc:  # noqa: BLE001
        path = getattr(exc, "path", None) or (args.files[0] if args.files else "<input>")
        return _fail(exc, path)


# ----------------------------------------------------------------------- argparse

def register(sub) -> None:
    text = sub.add_parser("text", help="regulation text tools (parse, render, check)")
    tsub = text.add_subparsers(dest="text_command", metavar="TEXT_COMMAND")
    tsub.required = True

    p = tsub.add_parser("parse", help="parse a Bulletin or Code page into a provision tree")
    p.add_argument("file")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--strict", action="store_true", help="stop at the first thing that cannot be read")
    p.set_defaults(handler=cmd_parse)

    p = tsub.add_parser("render", help="print a rulespec as Code-style text or HTML")
    p.add_argument("spec")
    p.add_argument("--format", choices=("text", "html"), default="text")
    p.add_argument("-o", "--output")
    p.set_defaults(handler=cmd_render)

    p = tsub.add_parser("check", help="compare a rulespec's text and paytables with a source page")
    p.add_argument("spec")
    p.add_argument("source")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=cmd_check)

    p = tsub.add_parser("amendment", help="read back a Bulletin amendment's markup ([deleted], **added**)")
    p.add_argument("file")
    p.add_argument("--version", choices=("old", "new"), help="print the page as it read before / after")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("-o", "--output")
    p.set_defaults(handler=cmd_amendment)

    p = sub.add_parser("import", help="write a rulespec skeleton from a Bulletin or Code page")
    p.add_argument("file")
    p.add_argument("--chapter", help="chapter to import (required when the file holds several)")
    p.add_argument("-o", "--output", help="output YAML file (default: stdout)")
    p.set_defaults(handler=cmd_import)

    p = sub.add_parser("diff", help="compare two versions of a chapter or section")
    p.add_argument("old", help="Bulletin page, Code page or rulespec YAML")
    p.add_argument("new", help="Bulletin page, Code page or rulespec YAML")
    p.add_argument("--chapter", help="chapter to compare when a side holds several")
    p.add_argument("--format", choices=("text", "json", "html"), default="text")
    p.add_argument("--amendment", action="store_true",
                   help="print the change as a Bulletin amendment (**new**, **[deleted]**, * * * * *)")
    p.add_argument("--impact", action="store_true",
                   help="two rulespecs: also each wager's house edge and hit frequency before -> after")
    p.add_argument("--decks", type=int, help="with --impact: decks in the dealing shoe (default: the spec's default)")
    p.add_argument("-o", "--output")
    p.set_defaults(handler=cmd_diff)

    p = sub.add_parser("history", help="each provision's versions across dated pages, and who changed it")
    p.add_argument("files", nargs="+", metavar="FILE[@YYYY-MM-DD]",
                   help="Bulletin pages, Code pages, rulespecs; @date for a page that prints none")
    p.add_argument("--chapter", help="chapter to follow (its current number) when the inputs hold several")
    p.add_argument("--provision", help="one provision (or section), e.g. '§ 669a.6(c)'")
    p.add_argument("--all", action="store_true", help="list unchanged provisions too")
    p.add_argument("--diff", nargs=2, metavar=("DATE1", "DATE2"), help="diff the text in force at two dates")
    p.add_argument("--map", help="renumbering data (default rulespecs/history/renumbering.yaml)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("-o", "--output")
    p.set_defaults(handler=cmd_history)


def main(argv=None) -> int:
    """Run the text-tool subcommands on their own (``python -m compiler.text.commands``)."""
    parser = argparse.ArgumentParser(prog="rulespec")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    register(sub)
    args = parser.parse_args(argv)
    return int(args.handler(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
