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
from dataclasses import dataclass, field
from pathlib import Path

from compiler.codegen.generate import HTML_ENV, PY_ENV, render_game_module
from compiler.ir.model import Chapter
from compiler.render.pdf import filed_pdfs
from compiler.pipeline import ROOT, Compiled, compile_spec, spec_files
from compiler.runtime.money import parse_odds

MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#&])")


def md(value) -> str:
    """Inert Markdown text: one line, markup characters escaped."""
    if value is None:
        return ""
    s = " ".join(str(value).split())
    return MD_SPECIAL.sub(r"\\\1", s)


def code(value) -> str:
    """A Markdown code span of one line (``|`` escaped for tables); text holding a backtick, which
    would end the span, is written as escaped Markdown text instead."""
    if value is None:
        return ""
    s = " ".join(str(value).split())
    if "`" in s or not s or not s.isprintable():
        return md(s)
    return "`" + s.replace("|", "\\|") + "`"


PY_ENV.filters["md"] = md
HTML_ENV.filters["md"] = md
PY_ENV.filters["code"] = code


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
        lines.append(f"## Chapter {md(ch.chapter)}. {md(ch.title)} ({md(ch.spec_path)})")
        lines.append("")
        if not ch.interpretations:
            lines.append("None recorded.")
            lines.append("")
        for i in ch.interpretations:
            lines.append(f"### {md(i.id)}  ({md('; '.join(i.cites))})")
            lines.append("")
            lines.append(md(i.text))
            lines.append("")
            lines.append(f"**Chosen:** {md(i.chosen)}  ")
            lines.append(f"Source: {md(i.src.path)}:{i.src.line}")
            lines.append("")
        missing = ch.data.get("missing") or []
        if missing:
            lines.append("Missing from the sources (not invented):")
            lines.append("")
            for m in missing:
                lines.append(f"- {md(m['cite'])}: {md(m['what'])}")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def index_md(chapters: list[Chapter], files: dict[str, str]) -> str:
    lines = ["<!-- @generated by rulespec from rulespecs/*.yaml - do not edit -->", "# generated/", "",
             "Everything here is written by `make build` (`rulespec build`) from `rulespecs/`; do not edit.",
             "`rulespec build --check` fails when a file is stale.", ""]
    for ch in chapters:
        lines.append(f"- Chapter {md(ch.chapter)}. {md(ch.title)} ({md(ch.data.get('completeness'))}):")
        for f in sorted(files):
            if f"/{ch.slug}" in f or f.endswith(f"/{ch.module_name}.py"):
                lines.append(f"  - {code(f)}")
    return "\n".join(lines) + "\n"


def chapter_outputs(ch: Chapter) -> dict[str, str]:
    out: dict[str, str] = {}
    out[f"generated/games/{ch.module_name}.py"] = render_game_module(ch)
    try:
        from compiler.text.render import render_html, render_text
    except ImportError:  # pragma: no cover - text tools absent
        render_text = render_html = None
    if render_text is not None:
        import html as _html

        stamp = f"@generated by rulespec from {md(ch.spec_path)} - do not edit"
        out[f"generated/text/{ch.slug}.txt"] = f"[{stamp}]\n\n" + render_text(ch.data)
        stamp = f"@generated by rulespec from {_html.escape(ch.spec_path)} - do not edit"
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
    from_cache: bool = False  # --check answered from the build record (compiler/cache.py)
    checked: list[str] = field(default_factory=list)  # the files this build owns and compared

    @property
    def ok(self) -> bool:
        return self.from_cache or all(c.ok for c in self.compiled)


# A rulespec or Rules Submission file name: written into generated files and their names, so only
# these characters (anything else is refused with a positioned error, never quoted raw).
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.yaml$")
STAGING_PREFIX = ".generated.staging-"
OLD_PREFIX = ".generated.old-"


def shown_path(p) -> str:
    """A path as a message may show it: control characters and quotes escaped, one line."""
    from compiler.codegen.generate import comment

    return comment(str(p))


def _error(path, message: str) -> Compiled:
    from compiler.spec.diagnostics import Diagnostic

    return Compiled(str(path), None, None, [Diagnostic(str(path), 1, 1, "error", message)])


def resolve_specs(root: Path, paths: list[Path]) -> tuple[list[Path], list[Compiled]]:
    """The named rulespecs as files of ``root/rulespecs/`` (nothing outside it is read), or errors."""
    spec_dir = (root / "rulespecs").resolve()
    out, errors = [], []
    for p in paths:
        p = Path(p)
        full = (p if p.is_absolute() else root / p).resolve()  # relative: to the project root
        shown = shown_path(p)
        if full.parent != spec_dir:
            errors.append(_error(shown, "a rulespec to build must be a file directly in the project's "
                                        f"rulespecs/ ({shown_path(spec_dir)})"))
        elif not SAFE_NAME.match(full.name):
            errors.append(_error(shown, "a rulespec file name may hold only letters, digits, '.', '-' and '_' "
                                        "and must end in .yaml (at most 105 characters)"))
        elif not full.is_file():
            errors.append(_error(shown, "no such rulespec"))
        else:
            out.append(full)
    return out, errors


def _progress(message: str) -> None:
    """Progress of a long step, on stderr only when it is a terminal (nothing when piped)."""
    import sys

    if sys.stderr.isatty():
        print(f"\r\x1b[K{message}", end="", file=sys.stderr, flush=True)


def _progress_done() -> None:
    import sys

    if sys.stderr.isatty():
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def _inputs_key(root: Path, named: list[str] | None) -> str | None:
    """The content key of a whole build: every file under rulespecs/, the named specs, the compiler."""
    import hashlib

    from compiler import cache

    spec_dir = root / "rulespecs"
    if not spec_dir.is_dir():
        return None
    inputs = []
    for p in sorted(spec_dir.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            inputs.append((p.relative_to(root).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest()))
    return cache.key_of("build", inputs, named)


def _check_from_record(root: Path, record: dict) -> BuildResult:
    """--check against a build record: the files a build of these very inputs makes, compared byte
    for byte with the files on disk."""
    from compiler.spec.diagnostics import Diagnostic

    files = record["files"]
    stale = [rel for rel in record["checked"]
             if not (root / rel).is_file() or (root / rel).read_bytes() != _bytes(files[rel])]
    compiled = [Compiled(path, None, None, [Diagnostic(*d) for d in diags])
                for path, diags in record["diagnostics"].items()]
    extra = _extra(root, set(files)) if not record["partial"] else []
    return BuildResult(compiled, dict(files), [], stale, extra, from_cache=True, checked=list(record["checked"]))


def _extra(root: Path, files: set[str]) -> list[str]:
    gen = root / "generated"
    if not gen.exists():
        return []
    return sorted(p.relative_to(root).as_posix() for p in gen.rglob("*")
                  if p.is_file() and p.relative_to(root).as_posix() not in files and "__pycache__" not in p.parts)


def build(root: Path = ROOT, check: bool = False, paths: list[Path] | None = None,
          use_record: bool = False) -> BuildResult:
    """Compile the rulespecs into ``root/generated``; with ``paths``, write only those chapters'
    outputs (and the files computed over every chapter: README, interpretations, schedules).

    Every chapter is compiled either way, so the whole-set files are right; nothing is written
    unless everything compiles; the new tree is assembled in a staging directory and swapped in,
    so a build that fails at any point leaves ``generated/`` as it was.

    ``use_record`` (``rulespec build --check``): answer a check from the record of a build of these
    very inputs (compiler/cache.py) when there is one; its ``compiled`` then hold the diagnostics
    only, no chapters."""
    from compiler import cache

    root = Path(root)
    _recover(root)
    errors: list[Compiled] = []
    named: list[Path] | None = None
    if paths is not None:
        named, errors = resolve_specs(root, paths)
        if errors:
            return BuildResult(errors, {}, [], [], [])
    named_rel = sorted(p.relative_to(root.resolve()).as_posix() for p in named) if named is not None else None
    key = _inputs_key(root, named_rel) if cache.enabled() else None
    if key is not None and check and use_record:
        ok, record = cache.load(key)
        if ok:
            try:
                return _check_from_record(root, record)
            except (KeyError, TypeError, ValueError):  # a record of the wrong shape: build afresh
                pass
    res = _build(root, check, named_rel)
    if key is not None and res.ok:
        cache.store(key, {
            "partial": named_rel is not None, "checked": res.checked, "files": res.files,
            "diagnostics": {c.path: [[d.path, d.line, d.col, d.severity, d.message, d.pointer]
                                     for d in c.diagnostics] for c in res.compiled}})
    return res


def _build(root: Path, check: bool, named_rel: list[str] | None) -> BuildResult:
    from compiler.spec.diagnostics import DiagnosticError
    from compiler.submission.build import schedule_outputs, submission_files
    from compiler.submission.document import chapter_of_file, render_submission_files

    specs = spec_files(root)
    compiled: list[Compiled] = []
    for i, p in enumerate(specs, 1):
        rel = p.relative_to(root).as_posix()
        _progress(f"compiling {rel} ({i}/{len(specs)})")
        if not SAFE_NAME.match(p.name):
            compiled.append(_error(shown_path(rel), "a rulespec file name may hold only letters, digits, '.', "
                                                    "'-' and '_' and must end in .yaml (at most 105 characters)"))
            continue
        if p.resolve().parent != (root / "rulespecs").resolve() or not p.resolve().is_file():
            compiled.append(_error(rel, "a rulespec must be a file inside the project's rulespecs/ "
                                        "(this one is a link to elsewhere or not a file)"))
            continue
        compiled.append(compile_spec(rel, p.read_text(encoding="utf-8")))
    if not all(c.ok for c in compiled):
        _progress_done()
        return BuildResult(compiled, {}, [], [], [])
    chapters = [c.chapter for c in compiled]
    by_id = {ch.chapter: ch for ch in chapters}
    files: dict[str, str] = {}
    owner: dict[str, str | None] = {}  # file -> the spec path whose output it is (None: whole set)
    for ch in chapters:
        for rel, text in chapter_outputs(ch).items():
            files[rel], owner[rel] = text, ch.spec_path
    spec_of = {ch.chapter: ch.spec_path for ch in chapters}
    try:
        subs, bad = submission_files(root)
        if bad:
            _progress_done()
            return BuildResult(compiled + [_error(shown_path(b.relative_to(root).as_posix()),
                                                  "a Rules Submission file name may hold only letters, digits, "
                                                  "'.', '-' and '_' and must end in .yaml, and the file must be "
                                                  "inside rulespecs/submissions/") for b in bad],
                               {}, [], [], [])
        for i, p in enumerate(subs, 1):
            _progress(f"documenting {p.relative_to(root).as_posix()} ({i}/{len(subs)})")
            key = chapter_of_file(p)
            docs = render_submission_files(root, p, by_id)
            docs.update(filed_pdfs(docs))  # generated/submissions/<stem>.pdf: the documents fit to file
            for rel, text in docs.items():
                files[rel], owner[rel] = text, spec_of.get(key)
        _progress("change schedules")
        for rel, text in schedule_outputs(root, by_id).items():
            files[rel], owner[rel] = text, None
    except DiagnosticError as e:  # an example submission that does not validate fails the build
        _progress_done()
        return BuildResult(compiled + [Compiled("rulespecs/submissions", None, None, list(e.diagnostics))],
                           {}, [], [], [])
    files["generated/interpretations.md"] = interpretations_md(chapters)
    files["generated/README.md"] = index_md(chapters, files)
    owner["generated/interpretations.md"] = owner["generated/README.md"] = None
    _progress_done()
    mine = (set(files) if named_rel is None else
            {rel for rel in files if owner.get(rel) is None or owner[rel] in named_rel})
    stale = [rel for rel in sorted(mine)
             if not (root / rel).is_file() or (root / rel).read_bytes() != _bytes(files[rel])]
    extra = _extra(root, set(files)) if named_rel is None else []
    written: list[str] = []
    if not check and (stale or extra):
        try:
            _swap_in(root, {rel: files[rel] for rel in stale}, extra)
        except OSError as e:
            return BuildResult(compiled + [_error("generated", f"nothing written: {shown_path(e)}")],
                               {}, [], [], [])
        written = stale
    return BuildResult(compiled, files, written, stale, extra, checked=sorted(mine))


def _recover(root: Path) -> None:
    """Finish or undo a swap an interrupted build left half done; drop stale staging directories."""
    import os
    import shutil

    def dead(d: Path) -> bool:  # left by a build that no longer runs (a running one is left alone)
        pid = d.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or int(pid) == os.getpid():
            return True
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except OSError:
            return False
        return False

    gen = root / "generated"
    olds = [d for d in sorted(root.glob(OLD_PREFIX + "*")) if dead(d)]
    if not gen.exists() and olds:
        olds[-1].rename(gen)  # interrupted between the two renames: the old tree comes back
        olds = olds[:-1]
    for d in olds + [d for d in sorted(root.glob(STAGING_PREFIX + "*")) if dead(d)]:
        shutil.rmtree(d, ignore_errors=True)


def _bytes(content: str | bytes) -> bytes:
    """A generated file's bytes: text as UTF-8, a filed PDF as it is."""
    return content if isinstance(content, bytes) else content.encode("utf-8")


def _swap_in(root: Path, write: dict[str, str | bytes], remove: list[str]) -> None:
    """Write ``write`` and remove ``remove`` in a copy of generated/, then swap the copy in.

    Any failure before the swap leaves generated/ untouched (the staging copy is removed); the swap
    is two renames on one file system, undone if the second fails."""
    import os
    import shutil

    gen = root / "generated"
    stage = root / f"{STAGING_PREFIX}{os.getpid()}"
    old = root / f"{OLD_PREFIX}{os.getpid()}"
    try:
        if gen.exists():
            shutil.copytree(gen, stage, ignore=shutil.ignore_patterns("__pycache__"), symlinks=True)
        else:
            stage.mkdir()
        for rel, text in sorted(write.items()):
            target = stage / Path(rel).relative_to("generated")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.unlink(missing_ok=True)  # a symbolic link is replaced, never written through
            target.write_bytes(_bytes(text))
        for rel in remove:
            (stage / Path(rel).relative_to("generated")).unlink(missing_ok=True)
        if gen.exists():
            gen.rename(old)
        try:
            stage.rename(gen)
        except OSError:
            if old.exists():
                old.rename(gen)
            raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)
