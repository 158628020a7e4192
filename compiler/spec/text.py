"""The one check of text that enters rulespec: specs, hand histories, Rules Submissions (all read
by :mod:`compiler.spec.loader`) and the form fields of ``rulespec serve``.

YAML refuses control characters written raw in a file, but its escapes make them: ``"\\0"`` is a
NUL, ``"\\e"`` an ESC, ``"\\u202e"`` a right-to-left override, ``"\\ud800"`` a lone surrogate (which no
UTF-8 file, HTML page or PDF can hold). Every string of the loaded data, keys included, is checked
here whatever way it was written. Refused (an allow-list of the rest: tab and line feed are the
only controls a text may hold, and one-line fields refuse those too, by their schema ``pattern``):

* C0 controls other than tab and line feed (NUL, ESC, CR ...), DEL and the C1 controls U+0080..U+009F;
* lone surrogates U+D800..U+DFFF and the non-characters U+FFFE, U+FFFF;
* the line and paragraph separators U+2028, U+2029 (line breaks to some readers, not to others);
* the bidirectional embeddings, overrides and isolates U+202A..U+202E and U+2066..U+2069, which
  make text display in another order than it is read (a figure or a name shown reversed).
"""
from __future__ import annotations

import re

FORBIDDEN_IN_TEXT = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u2028\u2029\u202a-\u202e\u2066-\u2069]")

_NAMES = {0: "NUL", 0x1B: "ESC", 0x0D: "carriage return", 0x7F: "DEL", 0x2028: "line separator",
          0x2029: "paragraph separator"}


def join_surrogate_pairs(s: str) -> str:
    """YAML's ``"\\ud83d\\ude00"`` (a surrogate pair written as two escapes, as JSON writes it) as the
    one character it stands for; lone surrogates stay (and are refused by :func:`text_problem`)."""
    if not any("\ud800" <= ch <= "\udfff" for ch in s):
        return s
    return re.sub("[\ud800-\udbff][\udc00-\udfff]",
                  lambda m: m.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"), s)


def describe(ch: str) -> str:
    """``U+202E (a bidirectional override)`` and the like."""
    n = ord(ch)
    if n in _NAMES:
        kind = _NAMES[n]
    elif 0xD800 <= n <= 0xDFFF:
        kind = "a lone surrogate"
    elif 0x202A <= n <= 0x202E or 0x2066 <= n <= 0x2069:
        kind = "a bidirectional override"
    elif n in (0xFFFE, 0xFFFF):
        kind = "a non-character"
    else:
        kind = "a control character"
    return f"U+{n:04X} ({kind})"


def text_problem(s: str) -> str | None:
    """Why *s* may not enter as text, or None. Names the first forbidden character and its index."""
    m = FORBIDDEN_IN_TEXT.search(s)
    if m is None:
        return None
    return (f"invalid character {describe(m.group())} at character {m.start() + 1} of the text "
            f"(control characters, lone surrogates and bidirectional overrides are not allowed in text, "
            f"escaped or not)")
