"""The blank Rules Submission form of a chapter (``generated/forms/<slug>-rules-submission.md|.html``):
what the templates show of each option, equipment item and paytable."""
from __future__ import annotations

from compiler.ir.model import Chapter


def _allowed(o: dict) -> str:
    t = o["type"]
    if "values" in o:
        return ", ".join(str(v) for v in o["values"])
    if t == "boolean":
        return "yes or no"
    lo, hi = o.get("minimum"), o.get("maximum")
    unit = {"money": "$", "percent": "%"}.get(t, "")
    if lo is not None and hi is not None:
        return f"{unit if unit == '$' else ''}{lo}{unit if unit == '%' else ''} to {unit if unit == '$' else ''}{hi}{unit if unit == '%' else ''}"
    if lo is not None:
        return f"at least {unit if unit == '$' else ''}{lo}{unit if unit == '%' else ''}"
    if hi is not None:
        return f"at most {hi}"
    if t == "house_way":
        return "ordered rules in the rule language"
    return t


def _default(o: dict) -> str:
    if "default" not in o:
        return "none: must be given"
    v = o["default"]
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def form_context(ch: Chapter) -> dict:
    src = ch.source
    options = [{"id": k, "title": v.title, "allowed": _allowed(v.spec), "default": _default(v.spec), "cite": v.cite}
               for k, v in ch.options.items()]
    equipment = [{"item": e["item"], "when": e.get("when", "always"), "cite": e["cite"]}
                 for e in ch.table.get("equipment") or ()]
    paytables = [{"title": t.title, "cite": t.cite, "header": t.header, "columns": list(t.columns),
                  "rows": [{"label": r.label, "pays": list(r.pays)} for r in t.rows]}
                 for t in ch.paytables.values() if t.option]
    return {
        "spec_path": ch.spec_path, "chapter": ch.chapter, "title": ch.title, "slug": ch.slug,
        "source": src.citation + (f" ({src.date})" if src.date else ""),
        "options": options,
        "constraints": [{"message": c.message, "cite": c.cite} for c in ch.constraints],
        "equipment": equipment,
        "paytables": paytables,
        "interpretations": [{"id": i.id, "cites": list(i.cites), "chosen": i.chosen} for i in ch.interpretations],
    }
