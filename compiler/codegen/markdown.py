"""Template filters for Markdown outputs: ``md`` (inert one-line text) and ``code`` (a code span).

Registered on both template environments of compiler/codegen/generate.py."""
from __future__ import annotations

import re

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
