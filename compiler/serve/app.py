"""``rulespec serve``: a Rules Submission form in the browser, one page per chapter.

Flask (a small, well-known WSGI framework; its development server is enough for one casino
officer on 127.0.0.1, and its test client needs no browser). Each page is generated from the
chapter's submission schema (``generated/schemas/<chapter>-submission.schema.json``): a field per
selection (options, paytable columns, payout odds, house way rules), each with its §. Every
change is checked by the same code as ``rulespec submission`` (compiler/submission/document.py)
on the YAML the form makes, so the messages are the CLI's, positioned in that YAML; the house
edges of the selections come from the submission document's analysis, computed in a worker
thread ("computing..." meanwhile). The YAML, HTML and PDF documents can be downloaded.
"""
from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import yaml

from compiler.pipeline import ROOT
from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import load_document
from compiler.submission.formats import BY_EXT, FORMATS

HEADER = ("certificate_holder", "facility", "effective_date")
CONTACT = ("name", "title", "phone")


def schemas(root: Path = ROOT) -> dict[str, dict]:
    """stem (e.g. ``567-war``) -> the chapter's generated submission schema."""
    out = {}
    for p in sorted((root / "generated" / "schemas").glob("*-submission.schema.json")):
        out[p.name[: -len("-submission.schema.json")]] = json.loads(p.read_text(encoding="utf-8"))
    return out


def chapter_key(schema: dict) -> str:
    return schema["properties"]["game"]["properties"]["chapter"]["const"]


def field_kind(prop: dict) -> str:
    """How a selection is entered: boolean, enum, integer, text, or yaml (lists and mappings)."""
    t = prop.get("type")
    if "enum" in prop:
        return "enum"
    if t == "boolean":
        return "boolean"
    if t == "integer":
        return "integer"
    if t in ("array", "object") or (isinstance(t, list) and ("array" in t or "object" in t)):
        return "yaml"
    return "text"


def fields_of(schema: dict) -> list[dict]:
    out = []
    for oid, prop in (schema["properties"]["selections"].get("properties") or {}).items():
        out.append({"id": oid, "title": prop.get("title", oid), "cite": prop.get("x-cite", ""),
                    "kind": field_kind(prop), "enum": prop.get("enum") or [], "default": prop.get("default"),
                    "minimum": prop.get("minimum"), "maximum": prop.get("maximum"),
                    "description": prop.get("description", "")})
    return out


def example_of(stem: str, root: Path = ROOT) -> dict | None:
    """The first example Rules Submission (rulespecs/submissions/*.yaml) of this page's chapter."""
    key = stem.split("-", 1)[0]
    for p in sorted((root / "rulespecs" / "submissions").glob("*.yaml")):
        try:
            data = yaml.safe_load(p.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if isinstance(data, dict) and str((data.get("game") or {}).get("chapter")) == key:
            return data
    return None


def form_values(data: dict | None) -> dict:
    """The form's values from a submission document (to start from an example)."""
    if not data:
        return {}
    v: dict[str, Any] = {k: str(data.get(k, "")) for k in HEADER}
    for k in CONTACT:
        v[f"contact.{k}"] = str((data.get("contact") or {}).get(k, ""))
    for oid, val in (data.get("selections") or {}).items():
        if isinstance(val, bool):
            v[f"sel.{oid}"] = "true" if val else "false"
        elif isinstance(val, (list, dict)):
            v[f"sel.{oid}"] = yaml.safe_dump(val, sort_keys=False, allow_unicode=True, width=100)
        else:
            v[f"sel.{oid}"] = str(val)
    return v


def submission_yaml(stem: str, schema: dict, values: dict) -> tuple[str, list[str]]:
    """The Rules Submission YAML the form's values make, and problems the YAML cannot express
    (a yaml field that does not parse)."""
    problems = []
    d: dict[str, Any] = {"rules_submission": 1}
    for k in HEADER[:2]:
        d[k] = values.get(k, "")
    d["game"] = {"chapter": chapter_key(schema), "title": _title(schema)}
    d["effective_date"] = values.get("effective_date", "")
    d["contact"] = {k: values.get(f"contact.{k}", "") for k in CONTACT if values.get(f"contact.{k}", "")}
    sel: dict[str, Any] = {}
    for f in fields_of(schema):
        raw = values.get(f"sel.{f['id']}", "")
        if raw is None or str(raw).strip() == "":
            continue  # not selected: the chapter's default applies
        raw = str(raw)
        if f["kind"] == "boolean":
            sel[f["id"]] = raw == "true"
        elif f["kind"] == "integer":
            try:
                sel[f["id"]] = int(raw.strip())
            except ValueError:
                sel[f["id"]] = raw  # the schema check names it
        elif f["kind"] == "yaml":
            try:
                sel[f["id"]] = yaml.safe_load(raw)
            except yaml.YAMLError as e:
                problems.append(f"{f['title']} ({f['cite']}): not YAML: {str(e).splitlines()[0]}")
        else:
            sel[f["id"]] = raw.strip()
    d["selections"] = sel
    text = (f"# yaml-language-server: $schema=../../generated/schemas/{stem}-submission.schema.json\n"
            + yaml.safe_dump(d, sort_keys=False, allow_unicode=True, width=100))
    return text, problems


def _title(schema: dict) -> str:
    # the schema's title reads "Rules Submission: Chapter 567 War" or similar; the game's title follows the number
    t = schema.get("title", "")
    key = chapter_key(schema)
    i = t.find(key)
    return t[i + len(key):].strip(" .:") if i >= 0 else t


class Checker:
    """Checks submissions with the CLI's code; computes house edges in the background."""

    def __init__(self, root: Path = ROOT):
        self.root = root
        self.schemas = schemas(root)
        self._chapters: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._one_at_a_time = threading.Semaphore(1)  # analyses are CPU-bound: one runs, the others wait
        self._edges: dict[str, dict] = {}

    def chapters(self, key: str) -> dict:
        from compiler.submission.document import find_chapters

        with self._lock:
            if key not in self._chapters:
                found, _ = find_chapters(self.root, {key})
                self._chapters.update(found)
            return dict(self._chapters)

    def check(self, stem: str, values: dict):
        """(yaml text, Submission | None, [diagnostic dicts])."""
        from compiler.submission.document import check_submission

        schema = self.schemas[stem]
        text, problems = submission_yaml(stem, schema, values)
        name = f"{stem}-submission.yaml"
        diags = [{"text": f"{name}: error: {p}", "severity": "error", "line": 0, "col": 0, "pointer": ""}
                 for p in problems]
        try:
            doc = load_document(name, text)
        except DiagnosticError as e:
            return text, None, diags + [_diag(d) for d in e.diagnostics]
        sub, more = check_submission(doc, self.chapters(chapter_key(schema)))
        if problems:
            sub = None
        return text, sub, diags + [_diag(d) for d in more]

    def edges(self, sub) -> dict:
        """{"status": "computing"} until the analysis of these selections is done, then the rows.
        Analyses run in daemon threads: a page never waits for one, and stopping the server ends them."""
        key = sub.chapter.chapter + json.dumps(sorted((k, repr(v)) for k, v in sub.selections.items()))
        with self._lock:
            state = self._edges.get(key)
            if state is None:
                state = self._edges[key] = {"status": "computing"}
                threading.Thread(target=self._analyse, args=(sub, state), daemon=True).start()
        return dict(state)

    def _analyse(self, sub, state: dict) -> None:
        from compiler.submission.document import figure_rows

        with self._one_at_a_time:
            try:
                rows = figure_rows(sub)
            except Exception as e:  # no figure rather than a wrong one
                state.update(status="none", note=f"no house edge could be computed: {e}")
                return
        keep = ("name", "policy", "house_edge_percent", "house_edge_fraction", "hit_frequency_percent", "kind")
        state.update(rows=[{k: r[k] for k in keep} for r in rows], status="done")


def _diag(d) -> dict:
    return {"text": d.format(), "severity": d.severity, "line": d.line, "col": d.col,
            "pointer": getattr(d, "pointer", "") or ""}


def create_app(root: Path = ROOT):
    from flask import Flask, Response, abort, jsonify, render_template, request

    app = Flask(__name__, template_folder=str(Path(__file__).parent / "templates"))
    checker = Checker(root)
    app.config["checker"] = checker

    @app.get("/")
    def index():
        pages = [{"stem": s, "chapter": chapter_key(sc), "title": _title(sc)} for s, sc in checker.schemas.items()]
        return render_template("index.html", pages=pages)

    @app.get("/chapter/<stem>")
    def chapter(stem):
        if stem not in checker.schemas:
            abort(404)
        sc = checker.schemas[stem]
        example = request.args.get("example") == "1"
        values = form_values(example_of(stem, root)) if example else {}

        return render_template("chapter.html", stem=stem, chapter=chapter_key(sc), title=_title(sc),
                               fields=fields_of(sc), values=values, has_example=example_of(stem, root) is not None,
                               contact=CONTACT, formats=FORMATS)

    def _values():
        if request.is_json:
            return request.get_json(force=True) or {}
        return json.loads(request.form.get("values", "{}"))

    @app.post("/api/check/<stem>")
    def api_check(stem):
        if stem not in checker.schemas:
            abort(404)
        text, sub, diags = checker.check(stem, _values())
        out = {"yaml": text, "valid": sub is not None, "diagnostics": diags}
        if sub is not None:
            out["edges"] = checker.edges(sub)
        return jsonify(out)

    @app.post("/download/<stem>.<kind>")
    def download(stem, kind):
        if stem not in checker.schemas or (kind != "yaml" and kind not in BY_EXT):
            abort(404)
        text, sub, diags = checker.check(stem, _values())
        name = f"{stem}-submission"
        if kind == "yaml":
            return Response(text, mimetype="application/yaml",
                            headers={"Content-Disposition": f'attachment; filename="{name}.yaml"'})
        if sub is None:
            return Response("\n".join(d["text"] for d in diags) + "\n", status=422, mimetype="text/plain")
        from compiler.submission.document import document_context, render_formats

        content = render_formats(document_context(sub, f"{name}.yaml"), (kind,))[kind]
        return Response(content, mimetype=BY_EXT[kind].mimetype,
                        headers={"Content-Disposition": f'attachment; filename="{name}.{kind}"'})

    return app


def cmd_serve(args) -> int:
    app = create_app()
    print(f"rulespec serve: http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    app.run(host=args.host, port=args.port, debug=False, use_reloader=False, threaded=True)
    return 0


def register(sub) -> None:
    p = sub.add_parser("serve", help="fill in a Rules Submission in the browser (one page per chapter)",
                       description="A local web form per chapter, generated from its submission schema: live "
                                   "validation with the CLI's messages and §, the house edges of the selections, "
                                   "and downloads of the YAML, HTML and PDF documents.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.set_defaults(handler=cmd_serve)
