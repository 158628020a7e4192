"""`rulespec build`: compile every rulespec into generated/, all or nothing, byte-identical.

Outputs per chapter (``slug`` = ``567-war``):

* ``generated/games/ch567_war.py``              the game module
* ``generated/text/567-war.txt`` / ``.html``     the regulation text, Code style
* ``generated/forms/567-war-rules-submission.md`` / ``.html``   the blank Rules Submission form
* ``generated/schemas/567-war-submission.schema.json``          the submission schema
and for the whole set: ``generated/interpretations.md`` (every interpretation recorded),
``generated/README.md`` (index).

Nothing is written unless every spec compiles without error; ``--check`` writes nothing and
names each stale or missing file.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from compiler.codegen.generate import HTML_ENV, PY_ENV, render_game_module
from compiler.ir.model import Chapter
from compiler.pipeline import ROOT, Compiled, compile_spec, spec_files
from compiler.runtime.money import parse_odds

MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#&])")


def md(value) -> str:
    """Inert Markdown text: one line, markup characters escaped."""
    if value is None:
        return ""
    s = " ".join(str(value).split())
    return MD_SPECIAL.sub(r"\\\1", s)


PY_ENV.filters["md"] = md
HTML_ENV.filters["md"] = md


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
    d = ch.data
    src = d["source"]
    options = [{"id": k, "title": v["title"], "allowed": _allowed(v), "default": _default(v), "cite": v["cite"]}
               for k, v in (d.get("options") or {}).items()]
    equipment = [{"item": e["item"], "when": e.get("when", "always"), "cite": e["cite"]}
                 for e in (d.get("table") or {}).get("equipment") or ()]
    paytables = []
    for k, t in (d.get("paytables") or {}).items():
        if not t.get("option"):
            continue
        paytables.append({"title": t.get("title", k), "cite": t["cite"], "header": t.get("header", "Hand"),
                          "columns": t["columns"],
                          "rows": [{"label": r["label"], "pays": r["pays"] if isinstance(r["pays"], list) else [r["pays"]]}
                                   for r in t["rows"]]})
    return {
        "spec_path": ch.spec_path, "chapter": ch.chapter, "title": ch.title, "slug": ch.slug,
        "source": src["citation"] + (f" ({src['date']})" if src.get("date") else ""),
        "options": options,
        "constraints": [{"message": c.message, "cite": c.cite} for c in ch.constraints],
        "equipment": equipment,
        "paytables": paytables,
        "interpretations": [{"id": i.id, "cites": list(i.cites), "chosen": i.chosen} for i in ch.interpretations],
    }


def option_schema(o: dict) -> dict:
    t = o["type"]
    out: dict = {"title": o["title"], "description": f"{o['title']} ({o['cite']})", "x-cite": o["cite"]}
    if t == "boolean":
        out["type"] = "boolean"
    elif t == "integer":
        out["type"] = "integer"
    elif t in ("money", "percent"):
        out["type"] = ["number", "string"]
        if t == "money":
            out["pattern"] = r"^\$?[0-9][0-9,]*(\.[0-9]{2})?$"
        else:
            out["pattern"] = r"^[0-9]+(\.[0-9]+)?%?$"
    elif t == "choice":
        out["enum"] = list(o["values"])
    elif t == "house_way":
        out["type"] = "array"
        # one rule of the casino's house way (docs/submissions.md): its words, the rule-language
        # condition on setting.cards, and the criteria that choose the setting
        crit = {"type": "object", "additionalProperties": False, "minProperties": 1, "maxProperties": 1,
                "properties": {"keep": {"type": "string"}, "max": {"type": "string"}, "min": {"type": "string"}}}
        out["items"] = {"type": "object", "required": ["rule", "choose"], "additionalProperties": False,
                        "properties": {"rule": {"type": "string"}, "when": {"type": "string"},
                                       "choose": {"type": "array", "minItems": 1, "items": crit},
                                       "note": {"type": "string"}}}
        out["minItems"] = 1
    else:
        out["type"] = "string"
    if "values" in o and t != "choice":
        out["enum"] = list(o["values"])
    if t in ("integer",):
        if "minimum" in o:
            out["minimum"] = o["minimum"]
        if "maximum" in o:
            out["maximum"] = o["maximum"]
    if "default" in o:
        out["default"] = o["default"] if not hasattr(o["default"], "as_tuple") else str(o["default"])
    return out


def submission_schema(ch: Chapter) -> dict:
    """The Rules Submission schema of one chapter: the common header, this chapter's selections."""
    import copy

    from compiler.submission.document import BASE_SCHEMA

    opts = (ch.data.get("options") or {})
    schema = copy.deepcopy(BASE_SCHEMA)
    schema["$id"] = f"https://rulespec.invalid/generated/schemas/{ch.slug}-submission.schema.json"
    schema["title"] = f"Rules Submission: Chapter {ch.chapter}. {ch.title}"
    schema["x-generated"] = f"@generated by rulespec from {ch.spec_path} - do not edit"
    props = schema["properties"]
    props["game"]["properties"]["chapter"] = {"const": ch.chapter}
    props["selections"] = {
        "type": "object",
        "additionalProperties": False,
        "required": [k for k, v in opts.items() if "default" not in v and "when" not in v],
        "properties": {k: option_schema(v) for k, v in opts.items()},
    }
    # key order of the generated file: header fields first, as before
    return {k: schema[k] for k in ("$schema", "$id", "title", "x-generated", "type", "additionalProperties",
                                   "required", "properties")}

def interpretations_md(chapters: list[Chapter]) -> str:
    lines = ["<!-- @generated by rulespec from rulespecs/*.yaml - do not edit -->",
             "# Interpretations recorded in the rulespecs", "",
             "Where a chapter's text is ambiguous or inconsistent, its rulespec records the reading the",
             "compiled game follows, with every provision involved.", ""]
    for ch in chapters:
        lines.append(f"## Chapter {ch.chapter}. {ch.title} ({ch.spec_path})")
        lines.append("")
        if not ch.interpretations:
            lines.append("None recorded.")
            lines.append("")
        for i in ch.interpretations:
            lines.append(f"### {i.id}  ({'; '.join(i.cites)})")
            lines.append("")
            lines.append(md(i.text))
            lines.append("")
            lines.append(f"**Chosen:** {md(i.chosen)}  ")
            lines.append(f"Source: {i.src.path}:{i.src.line}")
            lines.append("")
        missing = ch.data.get("missing") or []
        if missing:
            lines.append("Missing from the sources (not invented):")
            lines.append("")
            for m in missing:
                lines.append(f"- {m['cite']}: {md(m['what'])}")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def index_md(chapters: list[Chapter], files: dict[str, str]) -> str:
    lines = ["<!-- @generated by rulespec from rulespecs/*.yaml - do not edit -->", "# generated/", "",
             "Everything here is written by `make build` (`rulespec build`) from `rulespecs/`; do not edit.",
             "`rulespec build --check` fails when a file is stale.", ""]
    for ch in chapters:
        lines.append(f"- Chapter {ch.chapter}. {ch.title} ({ch.completeness if hasattr(ch, 'completeness') else ch.data['completeness']}):")
        for f in sorted(files):
            if f"/{ch.slug}" in f or f.endswith(f"/{ch.module_name}.py"):
                lines.append(f"  - `{f}`")
    return "\n".join(lines) + "\n"


def chapter_outputs(ch: Chapter) -> dict[str, str]:
    out: dict[str, str] = {}
    out[f"generated/games/{ch.module_name}.py"] = render_game_module(ch)
    try:
        from compiler.text.render import render_html, render_text
    except ImportError:  # pragma: no cover - text tools absent
        render_text = render_html = None
    if render_text is not None:
        stamp = f"@generated by rulespec from {md(ch.spec_path)} - do not edit"
        out[f"generated/text/{ch.slug}.txt"] = f"[{stamp}]\n\n" + render_text(ch.data)
        html = render_html(ch.data)
        head, sep, rest = html.partition("\n")
        if head.lower().startswith("<!doctype"):
            html = f"{head}\n<!-- {stamp} -->\n{rest}"
        else:
            html = f"<!-- {stamp} -->\n{html}"
        out[f"generated/text/{ch.slug}.html"] = html
    ctx = form_context(ch)
    out[f"generated/forms/{ch.slug}-rules-submission.md"] = PY_ENV.get_template(
        "rules-submission-form.md.jinja").render(**ctx)
    out[f"generated/forms/{ch.slug}-rules-submission.html"] = HTML_ENV.get_template(
        "rules-submission-form.html.jinja").render(**ctx)
    out[f"generated/schemas/{ch.slug}-submission.schema.json"] = json.dumps(
        submission_schema(ch), indent=2, ensure_ascii=False) + "\n"
    return out


@dataclass
class BuildResult:
    compiled: list[Compiled]
    files: dict[str, str]
    written: list[str]
    stale: list[str]
    extra: list[str]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.compiled)


def build(root: Path = ROOT, check: bool = False, paths: list[Path] | None = None) -> BuildResult:
    specs = paths or spec_files(root)
    compiled = []
    for p in specs:
        rel = p.relative_to(root) if p.is_absolute() and p.is_relative_to(root) else p
        compiled.append(compile_spec(str(rel) if not p.is_absolute() or p.is_relative_to(root) else str(p),
                                     p.read_text(encoding="utf-8") if p.exists() else None))
    if not all(c.ok for c in compiled):
        return BuildResult(compiled, {}, [], [], [])
    chapters = [c.chapter for c in compiled]
    files: dict[str, str] = {}
    for ch in chapters:
        files.update(chapter_outputs(ch))
    from compiler.spec.diagnostics import DiagnosticError
    from compiler.submission.build import submission_outputs  # after chapters: documents use them

    try:
        files.update(submission_outputs(root, {ch.chapter: ch for ch in chapters}))
        from compiler.render.pdf import filed_pdfs  # generated/submissions/<stem>.pdf: the documents fit to file

        files.update(filed_pdfs(files))
        from compiler.submission.build import schedule_outputs  # equipment change schedules per facility

        files.update(schedule_outputs(root, {ch.chapter: ch for ch in chapters}))
    except DiagnosticError as e:  # an example submission that does not validate fails the build
        from compiler.pipeline import Compiled

        return BuildResult(compiled + [Compiled("rulespecs/submissions", None, None, list(e.diagnostics))], {}, [], [], [])
    files["generated/interpretations.md"] = interpretations_md(chapters)
    files["generated/README.md"] = index_md(chapters, files)
    stale, written = [], []
    for rel, content in sorted(files.items()):
        target = root / rel
        current = target.read_bytes() if target.exists() else None
        data = content if isinstance(content, bytes) else content.encode("utf-8")  # bytes: a filed PDF
        if current != data:
            stale.append(rel)
            if not check:
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_suffix(target.suffix + ".tmp")
                tmp.write_bytes(data)
                tmp.replace(target)
                written.append(rel)
    gen = root / "generated"
    extra = sorted(str(p.relative_to(root)) for p in gen.rglob("*")
                   if p.is_file() and str(p.relative_to(root)) not in files and "__pycache__" not in p.parts) \
        if gen.exists() else []
    if not check:
        for rel in extra:
            (root / rel).unlink()
    return BuildResult(compiled, files, written, stale, extra)
