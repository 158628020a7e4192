"""Layouts people copy pages from, brought to the lines the lexer reads -- without moving a character.

* Markdown captures: "## § 625a.3. Wagers." -- the heading marks become spaces.
* Hard-wrapped text (Justia, Cornell LII): a provision printed over several lines, a label alone on its
  line ("(5)" / "A flush, ..."), "§" and the section it cites on separate lines.  The line breaks inside
  a provision become spaces.

Every change keeps the text's length, so an offset in the result is the same offset in the page; the
lexer maps it back to the page's own line and column (``Placer``).  ``layout`` names what was done, for
the messages about what cannot be read.
"""
from __future__ import annotations

import bisect
import re

from .hands import PAYOUT_RE
from .lexer_patterns import FURNITURE_ANY, LABEL_RE, NOTE_HEADINGS, SECTION_HEAD_RE, TABLE_HEAD_RE, page_format

ENDS_WITH_PAYOUT = re.compile(rf"(?:{PAYOUT_RE.pattern})$")
MARKDOWN_HEADING = re.compile(r"(?m)^(#{1,6})(?=[ \t])")
ENDS_SENTENCE = re.compile(r"[.:;\u2014|][\"\u201d\u2019')\]]*$")
LABEL_ONLY = re.compile(r"\(([A-Za-z]{1,5}|\d{1,3})\)$")
STRUCTURAL = re.compile(r"(?:§\s+\d+[a-z]?\.\d+[a-z]?\.\s|Section \d|CHAPTER \d|Chapter \d|\d+ Pa\. Code|- Section \d|"
                        r"Current through|\[|\d+[a-z]?\.\d+[a-z]?\.\s|Sec\.$|\* \* \*)")


def _structural(s: str) -> bool:
    return bool(not s or FURNITURE_ANY.match(s) or s in NOTE_HEADINGS or SECTION_HEAD_RE.match(s)
                or STRUCTURAL.match(s) or TABLE_HEAD_RE.match(s + " ") or ENDS_WITH_PAYOUT.search(s))


def _joins(prev: str, cur: str, blank_separated: bool = False) -> bool:
    """``cur`` continues the provision on the line before it (on a page that separates its paragraphs
    with blank lines, any text line right under another does)."""
    if _structural(prev) or _structural(cur) or cur.count("|") >= 2 or prev.count("|") >= 2:
        return False
    if LABEL_ONLY.fullmatch(prev):
        return True                       # "(5)" alone, its text on the next line
    if LABEL_RE.match(cur + " ") and LABEL_RE.match(cur):
        return False                      # the next provision
    if ENDS_SENTENCE.search(prev) and cur[:1].isupper() and not blank_separated:
        return False                      # a new sentence on a new line: not joined (a term, a paragraph)
    return True


def unwrap(text: str) -> tuple[str, list[str]]:
    """The text with Markdown heading marks and hard wraps taken out (same length), and the layouts found."""
    layouts = []
    if MARKDOWN_HEADING.search(text):
        text = MARKDOWN_HEADING.sub(lambda m: " " * len(m.group(1)), text)
        layouts.append("Markdown")
    if page_format(text) != "code":
        return text, layouts           # a Bulletin page prints its preamble headings on lines of their own
    lines = text.split("\n")
    stripped = [ln.strip() for ln in lines]
    labelled = [k for k in range(1, len(lines)) if LABEL_RE.match(stripped[k])]
    blank_separated = len(labelled) >= 2 and sum(1 for k in labelled if not stripped[k - 1]) * 5 >= len(labelled) * 4
    joins = [k for k in range(1, len(lines)) if stripped[k - 1] and stripped[k]
             and _joins(stripped[k - 1], stripped[k], blank_separated)]
    wrapped = [k for k in joins if not ENDS_SENTENCE.search(stripped[k - 1])]
    if not blank_separated and (len(wrapped) < 3 or len(wrapped) * 4 < sum(1 for s in stripped if s)) \
            or blank_separated and not wrapped:
        return text, layouts
    chars = list(text)
    pos, starts = 0, []
    for ln in lines:
        starts.append(pos)
        pos += len(ln) + 1
    for k in joins:
        chars[starts[k] - 1] = " "
        if starts[k] >= 2 and chars[starts[k] - 2] == "\r":
            chars[starts[k] - 2] = " "
    layouts.append("hard-wrapped")
    return "".join(chars), layouts


class Placer:
    """Offsets of the unwrapped text back to the page's line and column (1-based)."""

    def __init__(self, page: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", page)]

    def place(self, offset: int) -> tuple[int, int]:
        k = bisect.bisect_right(self.starts, offset) - 1
        return k + 1, offset - self.starts[k] + 1


def layout_name(furniture, fmt: str, layouts: list[str]) -> str:
    """The layout a page is printed in, named for the messages about what cannot be read."""
    kinds = {f.kind: f.text for f in reversed(furniture)}
    if fmt == "bulletin":
        site = "Pennsylvania Bulletin page"
    elif kinds.get("site_section", "")[:1].isdigit():
        site = "Cornell LII copy"
    elif "universal_citation" in kinds or kinds.get("disclaimer", "").startswith("Disclaimer: These regulations"):
        site = "Justia copy"
    elif "current_through" in kinds:
        site = "Casetext copy"
    elif "code_currency" in kinds or kinds.get("site_header", "").startswith("Pennsylvania Code &"):
        site = "official Code page"
    else:
        site = "Code page"
    return ", ".join([site] + layouts)
