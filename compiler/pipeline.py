"""The front end: YAML -> schema -> IR -> lint, collecting every diagnostic on the way."""
from __future__ import annotations

import types
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from compiler.ir.build import build_ir
from compiler.ir.model import Chapter
from compiler.lint.lint import lint
from compiler.spec.diagnostics import Diagnostic, DiagnosticError
from compiler.spec.loader import Document, load_document
from compiler.spec.validate import load_schema, schema_diagnostics

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "schemas" / "rulespec.schema.json"


@dataclass
class Compiled:
    path: str
    doc: Document | None
    chapter: Chapter | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def ok(self) -> bool:
        return self.chapter is not None and not self.errors


def _sort(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in sorted(diags, key=lambda d: (d.path, d.line, d.col, d.severity, d.message)):
        key = (d.path, d.line, d.col, d.severity, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def compile_spec(path: str | Path, text: str | None = None) -> Compiled:
    """Load, validate, build and lint one rulespec; never raises for bad input.

    Compiled once per process for each path and content (a rulespec read again, by a command run
    in-process or by another test, is not parsed again; a changed file is): the result is shared,
    so treat it as read-only."""
    path = str(path)
    if text is None:
        try:
            raw = Path(path).read_bytes()
        except OSError:
            return _compile(path, None)
        return _compiled(path, raw)
    return _compiled(path, text)


@lru_cache(maxsize=16)
def _compiled(path: str, content: "bytes | str") -> Compiled:
    return _compile(path, content if isinstance(content, str) else None)


def _compile(path: str, text: str | None) -> Compiled:
    try:
        doc = load_document(path, text)
    except DiagnosticError as e:
        return Compiled(path, None, None, _sort(list(e.diagnostics)))
    diags = list(schema_diagnostics(doc, load_schema(SCHEMA_PATH)))
    diags.extend(doc.coercion_warnings())
    if any(d.is_error for d in diags):
        return Compiled(path, doc, None, _sort(diags))
    ch, more, names = build_ir(doc)
    diags.extend(more)
    if ch is not None:
        diags.extend(lint(doc, ch, names))
    return Compiled(path, doc, ch if not any(d.is_error for d in diags) else None, _sort(diags))


def load_game(path: str | Path):
    """Compile a rulespec and load its generated game module (the source `rulespec build` writes, exec'd): for
    the tests that prove the generated modules. The compiler runs the game as it is translated from the IR
    (:func:`compiler.runtime.from_ir.load_game`); none of its modules calls this (tests/architecture)."""
    from compiler.codegen.generate import render_game_module

    c = compile_spec(path)
    if not c.ok:
        raise DiagnosticError(c.errors)
    return _module(c.chapter.module_name, render_game_module(c.chapter)), c


@lru_cache(maxsize=32)
def _module(name: str, source: str):
    mod = types.ModuleType(name)
    mod.__file__ = f"<generated {name}>"
    exec(compile(source, mod.__file__, "exec"), mod.__dict__)
    return mod


def spec_files(root: Path = ROOT) -> list[Path]:
    return sorted((root / "rulespecs").glob("*.yaml"))
