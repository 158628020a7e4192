"""Render a rulespec as Code-style text or self-contained HTML; check it against a source.

    render_text(spec) -> str
    render_html(spec) -> str
    compare_to_source(spec, source_tree) -> list[Difference]

``spec`` is a loaded rulespec dict (docs/spec-format.md).  Paytables are drawn from the
spec's ``paytables`` data, never from prose.  Templates are files named after their
output in ``compiler/text/templates``.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

import jinja2

from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import load_document

from .errors import TextError
from .flat import TableData, flatten_document, flatten_section, flatten_spec, normalize
from .model import Document

TEMPLATES = Path(__file__).with_name("templates")


@lru_cache(maxsize=None)
def _env(autoescape: bool) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
    )


def load_spec(path: str) -> dict:
    """A rulespec's data read by the compiler's own loader (safe, duplicate keys and bad bytes refused,
    positioned); the first problem as a TextError (with how many more there are)."""
    try:
        data = load_document(path).data
    except DiagnosticError as exc:
        d = exc.diagnostics[0]
        more = len(exc.diagnostics) - 1
        raise TextError(d.message + (f" (and {more} more: rulespec validate lists them)" if more else ""),
                        d.path, d.line, d.col) from None
    if not isinstance(data, dict) or "provisions" not in data or "chapter" not in data:
        raise TextError("not a rulespec (needs 'chapter' and 'provisions')", path)
    return data


def _table_view(t: TableData) -> dict:
    return {"kind": "table", "caption": t.caption, "header": t.header, "columns": list(t.columns),
            "rows": [{"label": label, "pays": list(pays)} for label, pays in t.rows]}


def _view(spec: dict) -> dict:
    items = flatten_spec(spec)
    sections: list[dict] = []
    pending: list[tuple[int, dict]] = []  # the text printed after a provision's items: (its depth, the entry)
    for it in items:
        depth = it.depth or 1
        while pending and (it.kind == "heading" or pending[-1][0] >= depth):  # the provision's items are done
            sections[-1]["entries"].append(pending.pop()[1])
        if it.kind == "heading":
            sections.append({"number": it.section, "heading": it.text,
                             "anchor": re.sub(r"[^A-Za-z0-9]", "-", it.section), "entries": []})
            continue
        cur = sections[-1]["entries"]
        if it.kind == "intro":
            if it.text:
                cur.append({"kind": "text", "text": it.text, "depth": 1})
        elif it.kind == "definition":
            cur.append({"kind": "definition", "term": it.label, "text": it.text, "depth": 1})
        elif it.kind == "elided":
            cur.append({"kind": "elided", "depth": it.depth})
        else:
            cur.append({"kind": "provision", "label": it.label, "text": it.text, "depth": it.depth,
                        "anchor": re.sub(r"[^A-Za-z0-9]+", "-", it.cite.replace("§ ", "s")).strip("-")})
        for t in it.tables:
            cur.append(_table_view(t))
        if it.after:
            pending.append((depth, {"kind": "text", "text": it.after, "depth": depth}))
    while pending:
        sections[-1]["entries"].append(pending.pop()[1])
    title = str(spec.get("title") or "").upper()
    # an amendment prints only the amended sections, without the chapter's list of sections
    contents = spec.get("completeness") != "amendment"
    return {"chapter": str(spec.get("chapter")), "title": title, "sections": sections, "contents": contents}


def text_spec(ch) -> dict:
    """What the regulation text of a compiled chapter (the IR) is rendered from: the parts of a rulespec
    that :func:`render_text` reads (its provisions, and the paytables they print)."""
    return {"chapter": ch.chapter, "title": ch.title, "completeness": ch.completeness,
            "provisions": list(ch.provisions),
            "paytables": {t.id: {"header": t.header, "columns": list(t.columns),
                                 "rows": [{"label": r.label, "pays": list(r.pays)} for r in t.rows]}
                          for t in ch.paytables.values()}}


def render_text(spec: dict) -> str:
    return _env(False).get_template("chapter.txt.jinja").render(**_view(spec))


def render_html(spec: dict) -> str:
    return _env(True).get_template("chapter.html.jinja").render(**_view(spec))


# -------------------------------------------------------------------- comparison

@dataclass(frozen=True)
class Difference:
    cite: str
    kind: str             # missing_in_spec | missing_in_source | heading | text | table
    source: Optional[str]
    spec: Optional[str]

    def as_dict(self) -> dict:
        return asdict(self)

    def describe(self) -> str:
        return f"{self.cite}: {self.kind}: source {self.source!r} / spec {self.spec!r}"


def _cmp_tables(cite: str, a: list[TableData], b: list[TableData]) -> list[Difference]:
    out = []
    if len(a) != len(b):
        out.append(Difference(cite, "table", f"{len(a)} tables", f"{len(b)} tables"))
    for ta, tb in zip(a, b):
        if normalize(ta.caption or "") != normalize(tb.caption or ""):
            out.append(Difference(cite, "table", f"caption {ta.caption!r}", f"caption {tb.caption!r}"))
        if ta.columns != tb.columns:
            out.append(Difference(cite, "table", "columns " + " | ".join(ta.columns),
                                  "columns " + " | ".join(tb.columns)))
        ra, rb = dict(ta.rows), dict(tb.rows)
        for label in list(ra) + [x for x in rb if x not in ra]:
            if label not in rb:
                out.append(Difference(cite, "table", f"row {label!r}", None))
            elif label not in ra:
                out.append(Difference(cite, "table", None, f"row {label!r}"))
            else:
                for k, col in enumerate(ta.columns):
                    pa = ra[label][k] if k < len(ra[label]) else None
                    pb = rb[label][k] if k < len(rb[label]) else None
                    if pa != pb:
                        out.append(Difference(f"{cite} [{label} / {col}]", "table", pa, pb))
    return out


def compare_to_source(spec: dict, source_tree: Document) -> list[Difference]:
    """Section by section, after normalising whitespace and quote/dash typography.

    Only the sections the source holds are compared (a Code page of one section checks
    that section)."""
    chapter = str(spec.get("chapter"))
    ch = source_tree.chapter(chapter)
    if ch is None:
        raise TextError(f"the source has no chapter {chapter}", source_tree.path)
    spec_items = flatten_spec(spec)
    spec_secs = {it.section for it in spec_items}
    out: list[Difference] = []
    for s in ch.sections:
        if s.number not in spec_secs:
            out.append(Difference(s.cite, "missing_in_spec", s.heading, None))
            continue
        src = {it.key: it for it in flatten_section(s)}
        mine = {it.key: it for it in spec_items if it.section == s.number}
        for key, a in src.items():
            b = mine.get(key)
            if a.kind == "elided":
                continue
            if b is None:
                out.append(Difference(a.cite, "missing_in_spec", a.text, None))
                continue
            kind = "heading" if a.kind == "heading" else "text"
            if normalize(a.text) != normalize(b.text) or normalize(a.after or "") != normalize(b.after or ""):
                out.append(Difference(a.cite, kind, a.full_text, b.full_text))
            out.extend(_cmp_tables(a.cite, a.tables, b.tables))
        for key, b in mine.items():
            if key not in src and b.kind != "elided":
                out.append(Difference(b.cite, "missing_in_source", None, b.text))
    return out
