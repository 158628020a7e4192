"""The formats of a Rules Submission document: the one list every writer reads.

``rulespec build`` (``generated/submissions/<stem>.<ext>``), ``rulespec submission -o DIR`` and
the download buttons of ``rulespec serve`` all iterate :data:`FORMATS`; adding a format is one
entry here (and its template, if it has one).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


def template_envs():
    """(Markdown/plain environment, HTML environment) of compiler/codegen/templates, with the
    ``md``/``code`` filters (compiler/codegen/markdown.py) registered."""
    from compiler.codegen.generate import HTML_ENV, PY_ENV

    return PY_ENV, HTML_ENV


@dataclass(frozen=True)
class Format:
    ext: str  # the file name's ending, and the download's
    title: str  # as a button or a message names it
    mimetype: str
    make: Callable[[dict, dict], "str | bytes"]  # (document context, the formats made before it) -> content
    needs: tuple[str, ...] = ()  # formats this one is made from


def _markdown(ctx: dict, made: dict) -> str:
    return template_envs()[0].get_template("rules-submission.md.jinja").render(**ctx)


def _html(ctx: dict, made: dict) -> str:
    return template_envs()[1].get_template("rules-submission.html.jinja").render(**ctx)


def _pdf(ctx: dict, made: dict) -> bytes:
    from compiler.render.pdf import filed_pdf  # the HTML printed: the document fit to file

    return filed_pdf(made["html"])


FORMATS: tuple[Format, ...] = (
    Format("md", "Markdown", "text/markdown; charset=utf-8", _markdown),
    Format("html", "HTML", "text/html; charset=utf-8", _html),
    Format("pdf", "PDF", "application/pdf", _pdf, needs=("html",)),
)
BY_EXT = {f.ext: f for f in FORMATS}


def render_formats(ctx: dict, wanted: "tuple[str, ...] | None" = None) -> dict[str, "str | bytes"]:
    """``{ext: content}`` of the document in every format (or the ``wanted`` ones), in list order."""
    need = set(BY_EXT if wanted is None else wanted)
    for f in reversed(FORMATS):
        if f.ext in need:
            need.update(f.needs)
    made: dict = {}
    for f in FORMATS:
        if f.ext in need:
            made[f.ext] = f.make(ctx, made)
    return {ext: made[ext] for ext in made if wanted is None or ext in wanted}
