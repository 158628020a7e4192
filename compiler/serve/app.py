"""``rulespec serve``: a Rules Submission form in the browser, one page per chapter.

Flask (a small, well-known WSGI framework; its development server is enough for one casino
officer on 127.0.0.1, and its test client needs no browser). Each page is generated from the
chapter's submission schema (``generated/schemas/<chapter>-submission.schema.json``): a field per
selection (options, paytable columns, payout odds, house way rules), each with its §. Every
change is checked by the same code as ``rulespec submission`` (compiler/submission/document.py)
on the YAML the form makes, so the messages are the CLI's, positioned in that YAML; the house
edges of the selections come from the submission document's analysis, computed in a worker
thread ("computing..." meanwhile). The YAML, HTML and PDF documents can be downloaded.

What it refuses (docs/security.md, "rulespec serve"): a Host header other than its own (421: a page
of another site resolving to 127.0.0.1 cannot read it); a POST without this server's token
(403: a form of another site cannot make it check or render anything); a body over
:data:`MAX_BODY` bytes (413); a body that is not a JSON object of the form's own fields, each text
without control characters (400, with a message). Analyses run in :data:`ANALYSIS_THREADS` worker
thread(s) with at most :data:`MAX_PENDING` waiting; at most :data:`MAX_EDGES` results are kept, and
nothing a visitor selects is written to the cache.
"""
from __future__ import annotations

import hmac
import json
import queue
import secrets
import socket
import sys
import threading
from collections import OrderedDict
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

from compiler import cache
from compiler.pipeline import ROOT
from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import load_document
from compiler.spec.text import text_problem
from compiler.serve.words import _rules_submission_cite
from compiler.submission.formats import BY_EXT, FORMATS

HEADER = ("certificate_holder", "facility", "effective_date")
CONTACT = ("name", "title", "phone", "email")
EXTRA = ("game.edition", "attachments")  # the schema's other fields: the edition followed, attachments (one a line)

MAX_BODY = 1_000_000  # bytes of a request body (a form is a few kilobytes)
ANALYSIS_THREADS = 1  # analyses are CPU-bound: one runs, the others wait
MAX_PENDING = 8  # analyses waiting; more distinct selections meanwhile are told to try again
MAX_EDGES = 64  # results kept (least recently asked for dropped first)
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
TOKEN_HEADER = "X-Rulespec-Token"
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


class BadRequest(Exception):
    """A request the server refuses with a 4xx and this message."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class _Dumper(yaml.SafeDumper):
    """YAML of loaded data: Decimal numbers as the numbers they are."""


_Dumper.add_representer(Decimal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:float", str(v)))


def dump_yaml(data) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


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


def examples(root: Path = ROOT) -> tuple[dict[str, dict], list[str]]:
    """Chapter -> its first example Rules Submission (rulespecs/submissions/*.yaml), and a message
    for each file skipped (one that does not load, or is not a submission): a malformed file costs
    only itself."""
    found: dict[str, dict] = {}
    skipped: list[str] = []
    for p in sorted((root / "rulespecs" / "submissions").glob("*.yaml")):
        shown = f"rulespecs/submissions/{p.name}"
        try:
            data = load_document(shown, p.read_bytes()).data
        except DiagnosticError as e:
            skipped.append(f"{e.diagnostics[0].format()} (skipped)")
            continue
        except OSError as e:
            skipped.append(f"{shown}:1:1: error: cannot read file: {e.strerror or e} (skipped)")
            continue
        game = data.get("game") if isinstance(data, dict) else None
        if not isinstance(game, dict) or not isinstance(game.get("chapter"), (str, int)):
            skipped.append(f"{shown}:1:1: error: not a Rules Submission (no game.chapter) (skipped)")
            continue
        found.setdefault(str(game["chapter"]), data)
    return found, skipped


def example_of(stem: str, root: Path = ROOT) -> dict | None:
    """The first example Rules Submission of this page's chapter."""
    return examples(root)[0].get(stem.split("-", 1)[0])


def form_values(data: dict | None) -> dict:
    """The form's values from a submission document (to start from an example)."""
    if not data:
        return {}
    v: dict[str, Any] = {k: str(data.get(k, "")) for k in HEADER}
    contact = data.get("contact") if isinstance(data.get("contact"), dict) else {}
    for k in CONTACT:
        v[f"contact.{k}"] = str(contact.get(k, ""))
    game = data.get("game") if isinstance(data.get("game"), dict) else {}
    v["game.edition"] = str(game.get("edition", "") or "")
    attachments = data.get("attachments") if isinstance(data.get("attachments"), dict) else {}
    v["attachments"] = "".join(f"{k}: {a}\n" for k, a in attachments.items())
    selections = data.get("selections") if isinstance(data.get("selections"), dict) else {}
    for oid, val in selections.items():
        if isinstance(val, bool):
            v[f"sel.{oid}"] = "true" if val else "false"
        elif isinstance(val, (list, dict)):
            v[f"sel.{oid}"] = dump_yaml(val)
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
    if values.get("game.edition", "").strip():
        d["game"]["edition"] = values["game.edition"].strip()
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
            try:  # the loader's limits and checks (no alias bombs, no deep nesting, no controls)
                sel[f["id"]] = load_document(f"sel.{f['id']}", raw).data
            except DiagnosticError as e:
                problems.append(f"{f['title']} ({f['cite']}): not usable YAML: {e.diagnostics[0].format()}")
        else:
            sel[f["id"]] = raw.strip()
    d["selections"] = sel
    attachments: dict[str, str] = {}
    for n, line in enumerate(str(values.get("attachments", "") or "").splitlines(), 1):
        if not line.strip():
            continue
        key, sep, what = line.partition(":")
        if not sep or not key.strip() or not what.strip():
            problems.append(f"Attachments, line {n}: write each attachment as 'A: what it is' ({line.strip()[:60]!r})")
            continue
        attachments[key.strip()] = what.strip()
    if attachments:
        d["attachments"] = attachments
    text = (f"# yaml-language-server: $schema=../../generated/schemas/{stem}-submission.schema.json\n"
            + dump_yaml(d))
    return text, problems


def _title(schema: dict) -> str:
    # the schema's title reads "Rules Submission: Chapter 567 War" or similar; the game's title follows the number
    t = schema.get("title", "")
    key = chapter_key(schema)
    i = t.find(key)
    return t[i + len(key):].strip(" .:") if i >= 0 else t


def field_names(schema: dict) -> set[str]:
    """The names of the form's fields: a request may send these and no others."""
    return ({*HEADER, *EXTRA} | {f"contact.{k}" for k in CONTACT} | {f"sel.{f['id']}" for f in fields_of(schema)})


def parse_values(text: str, schema: dict) -> dict[str, str]:
    """The form's values from the JSON of a request: an object of the form's own fields, each text
    (or null) without control characters; else :class:`BadRequest` saying what is wrong."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise BadRequest("the values are nested too deeply (a JSON object of form fields is flat)") from None
    except ValueError as e:
        raise BadRequest(f"the values are not JSON: {e}") from None
    if not isinstance(data, dict):
        kind = {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(type(data), "a number")
        raise BadRequest(f"the values must be a JSON object of form fields, not {kind}")
    known = field_names(schema)
    unknown = sorted(k for k in data if k not in known)
    if unknown:
        raise BadRequest("unknown form field" + ("s " if len(unknown) > 1 else " ")
                         + ", ".join(json.dumps(k)[:80] for k in unknown[:10]))
    out = {}
    for k, v in data.items():
        if v is None:
            v = ""
        if not isinstance(v, str):
            raise BadRequest(f"form field {k!r} must be text, not {type(v).__name__}")
        v = v.replace("\r\n", "\n")  # a textarea's line breaks as a form posts them
        problem = text_problem(v)
        if problem is not None:
            raise BadRequest(f"form field {k!r}: {problem}")
        out[k] = v
    return out


class Checker:
    """Checks submissions with the CLI's code; computes house edges in a fixed pool of worker threads."""

    def __init__(self, root: Path = ROOT):
        self.root = root
        self.schemas = schemas(root)
        self._chapters: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._jobs: queue.Queue = queue.Queue(maxsize=MAX_PENDING)
        self._workers: list[threading.Thread] = []
        self._edges: OrderedDict[str, dict] = OrderedDict()

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
        diags = [{"text": f"{name}: error: {p}", "severity": "error", "line": 0, "col": 0, "pointer": "", "plain": p}
                 for p in problems]
        try:
            doc = load_document(name, text)
        except DiagnosticError as e:
            return text, None, diags + [_diag(d, schema) for d in e.diagnostics]
        sub, more = check_submission(doc, self.chapters(chapter_key(schema)))
        if problems:
            sub = None
        return text, sub, diags + [_diag(d, schema) for d in more]

    def edges(self, sub) -> dict:
        """{"status": "computing"} until the analysis of these selections is done, then the rows;
        {"status": "busy"} when :data:`MAX_PENDING` analyses wait already (the page asks again).
        The workers are daemon threads: a page never waits for one, and stopping the server ends them."""
        key = sub.chapter.chapter + json.dumps(sorted((k, repr(v)) for k, v in sub.selections.items()))
        with self._lock:
            state = self._edges.get(key)
            if state is not None:
                self._edges.move_to_end(key)
                return dict(state)
            state = {"status": "computing"}
            try:
                self._jobs.put_nowait((sub, state))
            except queue.Full:
                return {"status": "busy", "note": "other selections are being analysed; trying again..."}
            self._edges[key] = state
            self._trim()
            while len(self._workers) < ANALYSIS_THREADS:
                t = threading.Thread(target=self._work, daemon=True, name=f"rulespec-analysis-{len(self._workers)}")
                self._workers.append(t)
                t.start()
        return dict(state)

    def _trim(self) -> None:
        """At most MAX_EDGES results: the least recently asked for finished ones go first."""
        for k in [k for k, st in self._edges.items() if st["status"] != "computing"]:
            if len(self._edges) <= MAX_EDGES:
                break
            del self._edges[k]

    def threads(self) -> int:
        """Worker threads started (never more than ANALYSIS_THREADS)."""
        return len(self._workers)

    def _work(self) -> None:
        with cache.read_only():  # a visitor's selections add nothing to the cache
            while True:
                sub, state = self._jobs.get()
                try:
                    self._analyse(sub, state)
                finally:
                    self._jobs.task_done()

    def _analyse(self, sub, state: dict) -> None:
        from compiler.submission.document import figure_rows

        try:
            rows = figure_rows(sub)
        except Exception as e:  # no figure rather than a wrong one
            state.update(status="none", note=f"no house edge could be computed: {e}")
            return
        keep = ("name", "policy", "house_edge_percent", "house_edge_fraction", "hit_frequency_percent", "kind")
        state.update(rows=[{k: r[k] for k in keep} for r in rows], status="done")


def _diag(d, schema: dict | None = None) -> dict:
    """A diagnostic for the page: the CLI's line, and the same in plain words with the § (compiler/serve/words.py)."""
    from compiler.serve.words import plain

    pointer = getattr(d, "pointer", "") or ""
    out = {"text": d.format(), "severity": d.severity, "line": d.line, "col": d.col, "pointer": pointer}
    if schema is not None:
        out["plain"] = plain(d.message, pointer, schema)
    return out


def host_allowed(host: str, server_port: str, names=LOCAL_HOSTS) -> bool:
    """Whether a Host header names this server: one of its names and the port it listens on
    (no port only for port 80)."""
    host = host.strip().lower()
    name, sep, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not sep:
        name, port = host, "80"
    return name in names and port == str(server_port)


def create_app(root: Path = ROOT, hosts: tuple[str, ...] = LOCAL_HOSTS):
    from flask import Flask

    app = Flask(__name__, template_folder=str(Path(__file__).parent / "templates"))
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    checker = Checker(root)
    app.config["checker"] = checker
    token = app.config["token"] = secrets.token_urlsafe(32)  # this server's: its own pages carry it
    names = tuple(h.lower() for h in hosts)
    _register_guards(app, token, names)
    _register_pages(app, checker, root, token)
    _register_api(app, checker)
    return app


def _register_guards(app, token: str, names: tuple[str, ...]) -> None:
    """What every request passes first (its Host, size, origin and token), the headers of every
    response, and how a refusal is answered (JSON under /api/, else plain text)."""
    from flask import Response, jsonify, request
    from werkzeug.exceptions import HTTPException

    @app.before_request
    def refuse_other_sites():
        if not host_allowed(request.host or "", request.environ.get("SERVER_PORT", ""), names):
            raise BadRequest(f"this server answers only its own address (Host: {', '.join(names)} with its "
                             f"port), not {request.host[:100]!r}", 421)
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise BadRequest(f"the body is larger than {MAX_BODY:,} bytes", 413)
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            origin = request.headers.get("Origin")
            if origin and origin != "null" and origin.split("://", 1)[-1].lower() != (request.host or "").lower():
                raise BadRequest(f"a request from another site ({origin[:100]!r}) is refused", 403)
            given = request.headers.get(TOKEN_HEADER) or (
                request.form.get("token", "") if request.mimetype in ("application/x-www-form-urlencoded",
                                                                      "multipart/form-data") else "")
            if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode()):
                raise BadRequest("this server's form token is missing or wrong: only its own pages may "
                                 "send it changes (reload the page)", 403)

    @app.after_request
    def no_outside_resources(response):
        # its pages and the documents it returns load nothing from elsewhere, are framed by no site,
        # and post only to this server (its own scripts and styles are inline)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.errorhandler(BadRequest)
    def bad_request(e):
        if request.path.startswith("/api/"):
            return jsonify({"error": str(e)}), e.status
        return Response(f"error: {e}\n", status=e.status, mimetype="text/plain")

    @app.errorhandler(HTTPException)
    def http_error(e):
        message = {413: f"the body is larger than {MAX_BODY:,} bytes"}.get(e.code, e.description or e.name)
        if request.path.startswith("/api/"):
            return jsonify({"error": message}), e.code
        return Response(f"error: {message}\n", status=e.code, mimetype="text/plain")


def _register_pages(app, checker: Checker, root: Path, token: str) -> None:
    """The pages: the index of chapters, and a chapter's form (from its example with ?example=1)."""
    from flask import abort, render_template, request

    @app.get("/")
    def index():
        pages = [{"stem": s, "chapter": chapter_key(sc), "title": _title(sc)} for s, sc in checker.schemas.items()]
        return render_template("index.html", pages=pages, skipped=examples(root)[1])

    @app.get("/chapter/<stem>")
    def chapter(stem):
        if stem not in checker.schemas:
            abort(404)
        sc = checker.schemas[stem]
        found, skipped = examples(root)
        example = found.get(chapter_key(sc))
        values = form_values(example) if request.args.get("example") == "1" else {}
        return render_template("chapter.html", stem=stem, chapter=chapter_key(sc), title=_title(sc),
                               fields=fields_of(sc), values=values, has_example=example is not None,
                               contact=CONTACT, formats=FORMATS, token=token, skipped=skipped,
                               rs_cite=_rules_submission_cite())


def _request_values(checker: Checker, stem: str) -> dict:
    """The form's values a POST sends: its JSON body, or the form field 'values' holding that JSON."""
    from flask import request

    if request.is_json:
        try:
            body = request.get_data(cache=True).decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest("the body is not UTF-8") from None
        return parse_values(body, checker.schemas[stem])
    if "values" not in request.form:
        raise BadRequest("missing the form field 'values' (a JSON object of the form's fields)")
    return parse_values(request.form["values"], checker.schemas[stem])


def _loaded_values(sc: dict, body) -> dict:
    """The answer of /api/load: a saved file's values the form holds, and the names of the rest."""
    if not isinstance(body, dict) or not isinstance(body.get("yaml"), str):
        raise BadRequest("send the saved file as {\"yaml\": \"...\"}")
    name = str(body.get("name") or "upload.yaml")[:100]
    try:
        data = load_document(name, body["yaml"]).data
    except DiagnosticError as e:
        raise BadRequest("; ".join(d.format() for d in e.diagnostics[:3])) from None
    game = data.get("game") if isinstance(data, dict) else None
    got = str(game.get("chapter")) if isinstance(game, dict) else None
    if got != chapter_key(sc):
        raise BadRequest(f"{name} is not a Rules Submission for Chapter {chapter_key(sc)}"
                         + (f" (it is for Chapter {got})" if got and got != "None" else " (no game.chapter)"))
    values = form_values(data)
    known = field_names(sc)
    left = [k for k in values if k not in known]  # a selection this chapter's form has no field for
    contact = data.get("contact") if isinstance(data.get("contact"), dict) else {}
    left += [f"contact.{k}" for k in contact if k not in CONTACT]
    left += [k for k in data if k not in (*HEADER, "rules_submission", "game", "contact", "selections",
                                           "attachments")]
    return {"values": {k: v for k, v in values.items() if k in known}, "left_out": sorted(left)}


def _register_api(app, checker: Checker) -> None:
    """The form's requests: check the values, load a saved file back, download the documents."""
    from flask import Response, abort, jsonify, request

    @app.post("/api/check/<stem>")
    def api_check(stem):
        if stem not in checker.schemas:
            abort(404)
        with cache.read_only():
            text, sub, diags = checker.check(stem, _request_values(checker, stem))
        out = {"yaml": text, "valid": sub is not None, "diagnostics": diags}
        if sub is not None:
            out["edges"] = checker.edges(sub)
        return jsonify(out)

    @app.post("/api/load/<stem>")
    def api_load(stem):
        """A saved Rules Submission (YAML, as downloaded) back into the form: its values, and what of
        it the form does not hold (said, not dropped silently)."""
        if stem not in checker.schemas:
            abort(404)
        return jsonify(_loaded_values(checker.schemas[stem], request.get_json(silent=True)))

    @app.post("/download/<stem>.<kind>")
    def download(stem, kind):
        if stem not in checker.schemas or (kind != "yaml" and kind not in BY_EXT):
            abort(404)
        with cache.read_only():
            text, sub, diags = checker.check(stem, _request_values(checker, stem))
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


def cmd_serve(args) -> int:
    import werkzeug.serving
    from werkzeug.serving import make_server

    if hasattr(werkzeug.serving, "_log_add_style"):  # plain request log lines (the CLI escapes ANSI codes)
        werkzeug.serving._log_add_style = False

    wildcard = args.host in ("0.0.0.0", "::", "")
    hosts = LOCAL_HOSTS + (() if wildcard or args.host in LOCAL_HOSTS else (args.host,))
    try:  # bound here first, so that a port in use or not allowed is one message (werkzeug exits)
        family = socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
        srv = make_server(args.host, args.port, create_app(hosts=hosts), threaded=True)
    except (OSError, SystemExit) as e:
        why = getattr(e, "strerror", None) or str(e)
        print(f"rulespec serve: error: cannot listen on {args.host}:{args.port}: {why}", file=sys.stderr)
        return 1
    print(f"rulespec serve: http://{args.host}:{srv.server_port}/ (Ctrl-C stops)", file=sys.stderr)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0
