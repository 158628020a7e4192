"""`rulespec submission FILE... [-o DIR] [--format text|json]`: check Rules Submissions (§ 601a.2).

Without ``-o`` it only checks each file (the generated schema of its chapter, the chapter's
bounds and conditions) and prints a summary table; with ``-o DIR`` it also writes
``DIR/<stem>.md`` and ``DIR/<stem>.html`` for each valid file. Exit status 1 when any file has
an error (diagnostics go to stderr as ``path:line:col: error: message [at /pointer]``).
"""
from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path

from compiler.spec.diagnostics import Diagnostic, DiagnosticError


def _jsonable(v):
    if isinstance(v, Decimal):
        return str(v)
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


def check_files(files, root: Path | None = None):
    """[(file, Submission | None, [Diagnostic])] for each file, compiling the rulespecs they need."""
    from compiler.pipeline import ROOT
    from compiler.submission.document import chapter_of_file, check_submission, find_chapters
    from compiler.spec.loader import load_document

    root = root or ROOT
    wanted = {k for k in (chapter_of_file(f) for f in files) if k}
    chapters, spec_diags = find_chapters(root, wanted)
    out = []
    for f in files:
        try:
            doc = load_document(str(f))
        except DiagnosticError as e:
            out.append((f, None, list(e.diagnostics)))
            continue
        sub, diags = check_submission(doc, chapters)
        out.append((f, sub, diags))
    return out, spec_diags


def _row(f, sub, diags) -> dict:
    errors = [d for d in diags if d.is_error]
    data = sub.data if sub is not None else {}
    row = {"file": str(f), "valid": sub is not None,
           "errors": len(errors), "warnings": len(diags) - len(errors),
           "diagnostics": [d.to_dict() for d in diags]}
    if sub is not None:
        row.update({"chapter": sub.chapter.chapter, "title": sub.chapter.title,
                    "certificate_holder": data["certificate_holder"], "facility": data["facility"],
                    "effective_date": data["effective_date"], "selections": _jsonable(sub.selections),
                    "effective": _jsonable(sub.effective)})
    return row


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for j, r in enumerate(rows):
        lines.append("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cmd_submission(args) -> int:
    from compiler.submission.document import figure_rows, render_documents, show_value

    results, spec_diags = check_files(args.files)
    for d in spec_diags:
        print(d.format(), file=sys.stderr)
    ok = not spec_diags and all(sub is not None for _, sub, _ in results)
    written: dict[str, list[str]] = {}
    figures: dict[str, list[dict]] = {}
    if args.output:
        outdir = Path(args.output)
        outdir.mkdir(parents=True, exist_ok=True)
        for f, sub, _ in results:
            if sub is None:
                continue
            md_text, html_text = render_documents(sub, str(f))
            stem = Path(f).stem
            for ext, text in (("md", md_text), ("html", html_text)):
                target = outdir / f"{stem}.{ext}"
                target.write_text(text, encoding="utf-8")
                written.setdefault(str(f), []).append(str(target))
            from compiler.render.pdf import html_to_pdf  # the document fit to file

            (outdir / f"{stem}.pdf").write_bytes(html_to_pdf(html_text))
            written[str(f)].append(str(outdir / f"{stem}.pdf"))
            figures[str(f)] = figure_rows(sub)
    if args.format == "json":
        rows = []
        for f, sub, diags in results:
            row = _row(f, sub, diags)
            if str(f) in written:
                row["written"] = written[str(f)]
                row["figures"] = figures[str(f)]
            rows.append(row)
        print(json.dumps({"ok": ok, "submissions": rows,
                          "rulespec_diagnostics": [d.to_dict() for d in spec_diags]}, indent=2, ensure_ascii=False))
        return 0 if ok else 1
    for _, _, diags in results:
        for d in diags:
            print(d.format(), file=sys.stderr)
    table = [["FILE", "GAME", "CERTIFICATE HOLDER", "EFFECTIVE", "SELECTIONS", "RESULT"]]
    for f, sub, diags in results:
        n_err = sum(1 for d in diags if d.is_error)
        n_warn = len(diags) - n_err
        if sub is None:
            table.append([str(f), "", "", "", "", f"{n_err} error{'s' if n_err != 1 else ''}"])
            continue
        opts = sub.options
        sels = ", ".join(f"{k}={show_value(opts[k], v)}" for k, v in sub.selections.items() if k in opts
                         and opts[k]["type"] != "house_way")
        table.append([str(f), f"{sub.chapter.chapter} {sub.chapter.title}", str(sub.data["certificate_holder"]),
                      str(sub.data["effective_date"]), sels,
                      "valid" + (f" ({n_warn} warning{'s' if n_warn != 1 else ''})" if n_warn else "")])
    print(_table(table))
    for f, paths in written.items():
        for p in paths:
            print(f"wrote {p}")
    return 0 if ok else 1


def register(sub) -> None:
    p = sub.add_parser("submission", help="check Rules Submissions (§ 601a.2) and write their documents",
                       description="Check Rules Submission files against the schema generated from their "
                                   "chapter's rulespec and the chapter's bounds and conditions; with -o DIR, "
                                   "write each as Markdown and printable HTML (docs/submissions.md).")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", metavar="DIR", help="write DIR/<name>.md and DIR/<name>.html")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    p.set_defaults(handler=cmd_submission)
