"""`rulespec submission FILE... [-o DIR] [--format text|json]`: check Rules Submissions (§ 601a.2).

Without ``-o`` it only checks each file (the generated schema of its chapter, the chapter's
bounds and conditions) and prints a summary table; with ``-o DIR`` it also writes the document
of each valid file in every format of compiler/submission/formats.py (``DIR/<stem>.md``, ``.html``,
``.pdf``). Exit status 1 when any file has
an error (diagnostics go to stderr as ``path:line:col: error: message [at /pointer]``).
"""
from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path

from compiler.render.table import text_table
from compiler.render.terminal import status
from compiler.spec.diagnostics import Diagnostic, DiagnosticError  # noqa: F401
from compiler.submission.check import check_files


def _jsonable(v):
    if isinstance(v, Decimal):
        return str(v)
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


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


def cmd_submission(args) -> int:
    from compiler.submission.document import document_context, figure_rows, render_formats, show_value

    results, spec_diags = check_files(args.files, rulespecs=getattr(args, "rulespec", None) or ())
    for d in spec_diags:
        print(d.format(), file=sys.stderr)
    ok = not spec_diags and all(sub is not None for _, sub, _ in results)
    written: dict[str, list[str]] = {}
    figures: dict[str, list[dict]] = {}
    if args.output:
        outdir = Path(args.output)
        outdir.mkdir(parents=True, exist_ok=True)

        for i, (f, sub, _) in enumerate(results, 1):
            if sub is None:
                continue
            status(f"documenting {f} ({i}/{len(results)})")  # on a terminal only
            stem = Path(f).stem
            for ext, content in render_formats(document_context(sub, str(f))).items():  # every format
                target = outdir / f"{stem}.{ext}"
                if isinstance(content, bytes):
                    target.write_bytes(content)
                else:
                    target.write_text(content, encoding="utf-8")
                written.setdefault(str(f), []).append(str(target))
            figures[str(f)] = figure_rows(sub)
        status(None)
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
    print(text_table(table))
    for f, paths in written.items():
        for p in paths:
            print(f"wrote {p}")
    return 0 if ok else 1
