"""Text put inside a CSS string of a document (``content: "..."``), escaped by an allow-list.

A CSS string ends at its closing quote and, unclosed, at a line break; everything after that is
read as CSS (rules, ``@import``, ``url(...)``). In a ``<style>`` element the HTML parser also ends
the element at ``</style``, and autoescaping does not apply there (``&amp;`` would be shown as is).
So every character that is not a letter, a digit, a space or plain punctuation is written as a
CSS escape (``\\22 `` for ``"``, ``\\a `` for a line break, ``\\3c `` for ``<``): the value stays one
string whatever it holds, and its text reads the same in the printed page.
"""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

# kept as they are inside a double-quoted CSS string: none of them ends the string, starts an
# escape or a tag, or means anything to the HTML parser in a <style> element
_PLAIN_PUNCTUATION = frozenset(" ,.-_()'!?:;/§$%+=@#*[]")


def css_string(value: Any) -> Markup:
    """The body of a double-quoted CSS string showing ``str(value)`` (the quotes are the template's)."""
    out = []
    for ch in str(value):
        if (ch.isalnum() and ch.isprintable()) or ch in _PLAIN_PUNCTUATION:
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):x} ")
    return Markup("".join(out))
