"""Line-oriented lexer stage for Bulletin and Code pages.

Why a hand-written lexer stage in front of the LALR grammars
(``compiler/lang/bulletin.lark``, ``compiler/lang/pacode.lark``):

* The web captures glue logical lines together: a flattened paytable is followed on
  the same physical line by the next subsection ("... 1 to 1 (d) A certificate holder")
  or the next section heading ("... 5 to 1 § 669a.13. Irregularities."); a chapter
  title runs into "Sec."; "[Saturday, April 10, 2010]The Pennsylvania ...".  Where a
  table row ends depends on how many payout columns the table's heading announced and on
  knowing the hand names -- a count-dependent, context-sensitive split that no regular
  terminal of a context-free lexer can express.
* Regulation prose may contain anything (parentheses, section signs, dashes), so it is
  one TEXT token per logical line; only the *start* of a logical line is structural.

So this stage cuts the input into logical lines, sets page furniture and editorial
notes apart (they never reach the grammar), and classifies each logical line into one
token whose position is its place in the original file.  The grammars then parse the
token sequence with LALR (strict); which *level* a label belongs to is decided after
parsing, from the sequence (see ``compiler/text/parser.py``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lark.lexer import Token

from .errors import TextError
from .hands import COLUMN_RE, HANDS_LONGEST_FIRST, PAYOUT_RE


@dataclass(frozen=True)
class Furniture:
    """Page furniture or an editorial note, kept apart from the regulation text."""

    kind: str
    text: str
    line: int
    column: int


@dataclass
class LexResult:
    tokens: list[Token]
    furniture: list[Furniture]
    format: str  # "bulletin" | "code"


WEEKDAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
SEC_NUM = r"\d+[a-z]?\.\d+[a-z]?"
LABEL_RE = re.compile(r"\(([A-Za-z]{1,5}|\d{1,3})\)\s+")
SECTION_HEAD_RE = re.compile(rf"§\s({SEC_NUM})\.\s+([A-Z].*?\.)\s*$")
SECTION_HEAD_MID_RE = re.compile(rf"\s§\s({SEC_NUM})\.\s+([A-Z][^§]*?\.)\s*$")
CHAPTER_RE = re.compile(r"CHAPTER\s+(\d+[a-z]?)\.\s+(.*)$")
SEC_ENTRY_RE = re.compile(rf"({SEC_NUM})\.\s")
ELISION_RE = re.compile(r"\*\s\*\s\*\s\*\s\*")
DEFINITION_RE = re.compile(r"([A-Z][A-Za-z0-9 ,'\-]{0,80}?)\u2014(.*)$")
TABLE_HEAD_RE = re.compile(r"Hand\s+((?:(?:" + COLUMN_RE.pattern + r")\s+)+)")

# Furniture of Bulletin pages.
BULLETIN_FURNITURE = [
    ("page_cite", re.compile(r"\[(\d+) Pa\.B\. (\d+)\]$")),
    ("continued", re.compile(r"\[Continued (?:from previous|on next) Web Page\]$")),
    ("doc_footer", re.compile(r"\[Pa\.B\. Doc\. No\. [^\]]*\]$")),
]
# Furniture of both kinds of web page.
SITE_FURNITURE = [
    ("disclaimer", re.compile(r"No part of the information on this site.*$")),
    ("disclaimer", re.compile(r"This material has been drawn directly from.*$")),
    ("disclaimer", re.compile(r"Disclaimer: .*$")),
    ("disclaimer", re.compile(r"This site is protected by reCAPTCHA.*$")),
]
CODE_FURNITURE = [
    ("site_header", re.compile(r"Pennsylvania Code$")),
    ("site_title", re.compile(r"Title \d+ - .*$")),
    ("site_part", re.compile(r"Part [IVXLC]+ - .*$")),
    ("site_subpart", re.compile(r"Subpart [A-Z]+ - .*$")),
    ("universal_citation", re.compile(r"Universal Citation: .*$")),
    ("current_through", re.compile(r"Current through Register .*$")),
    ("cited_in", re.compile(r"This section cited in .*$")),
]
SITE_CHAPTER_RE = re.compile(r"Chapter (\d+[a-z]?) - (.*)$")
SITE_SECTION_RE = re.compile(rf"Section ({SEC_NUM}) - (.*)$")
DOC_TITLE_RE = re.compile(r"Title \d+\u2014.*\[(\d+) Pa\.B\. (\d+)\]$")
DATE_RE = re.compile(rf"\[(?:{WEEKDAYS}), ([A-Z][a-z]+ \d{{1,2}}, \d{{4}})\]")
ANNEX_RE = re.compile(r"Annex ([A-Z])\b\s*")


class _Lexer:
    def __init__(self, text: str, path: str):
        self.text = text
        self.path = path
        self.lines = text.split("\n")
        self.starts = []
        pos = 0
        for ln in self.lines:
            self.starts.append(pos)
            pos += len(ln) + 1
        self.tokens: list[Token] = []
        self.furniture: list[Furniture] = []
        self.format = "bulletin"
        self.state = "front"         # front | preamble | body
        self.sec_list_open = False
        self.in_definitions = False

    # ------------------------------------------------------------------ helpers
    def tok(self, kind: str, value: str, lineno: int, col: int) -> None:
        """Add a token; ``col`` is the 0-based offset of ``value`` in physical line ``lineno``."""
        start = self.starts[lineno - 1] + col
        self.tokens.append(Token(kind, value, start, lineno, col + 1, lineno,
                                 col + 1 + len(value), start + len(value)))

    def furn(self, kind: str, value: str, lineno: int, col: int) -> None:
        self.furniture.append(Furniture(kind, value, lineno, col + 1))

    def error(self, msg: str, lineno: int, col: int) -> TextError:
        return TextError(msg, self.path, lineno, col + 1)

    # ------------------------------------------------------------------ driver
    def run(self) -> LexResult:
        text = self.text
        if "Pennsylvania Code" in text and "Pa.B." not in text[:2000]:
            self.format = "code"
        i = 0
        n = len(self.lines)
        while i < n:
            raw = self.lines[i]
            lineno = i + 1
            line = raw.rstrip("\r")
            stripped = line.strip()
            if not stripped:
                i += 1
                continue
            col = len(line) - len(line.lstrip())
            # a chapter title broken over two physical lines: "CHAPTER 670a. SIX-CARD FORTUNE" / "PAI GOW POKERSec."
            m = CHAPTER_RE.match(stripped)
            if (m and "Sec." not in stripped and "§" not in stripped and i + 1 < n
                    and self.lines[i + 1].rstrip().endswith("Sec.") and len(self.lines[i + 1]) < 120):
                self.chapter_line(stripped, lineno, col, cont=(self.lines[i + 1].rstrip(), lineno + 1))
                i += 2
                continue
            nxt = self.lines[i + 1].strip() if i + 1 < n else ""
            self.physical(stripped, lineno, col, nxt)
            i += 1
        return LexResult(self.tokens, self.furniture, self.format)

    def physical(self, s: str, lineno: int, col: int, nxt: str) -> None:
        # furniture first
        for kind, rx in BULLETIN_FURNITURE + SITE_FURNITURE + CODE_FURNITURE:
            if rx.match(s):
                self.furn(kind, s, lineno, col)
                return
        m = DOC_TITLE_RE.match(s)
        if m:
            self.furn("doc_title", s, lineno, col)
            self.state = "preamble"
            return
        m = DATE_RE.match(s)
        if m:
            self.furn("date", m.group(0), lineno, col)
            rest = s[m.end():]
            if rest.strip():
                self.physical(rest.strip(), lineno, col + m.end() + (len(rest) - len(rest.lstrip())), nxt)
            return
        m = SITE_CHAPTER_RE.match(s)
        if m:
            self.format = "code"
            self.furn("site_chapter", s, lineno, col)
            self.tok("SITE_CHAPTER", s, lineno, col)
            return
        m = SITE_SECTION_RE.match(s)
        if m:
            self.format = "code"
            self.furn("site_section", s, lineno, col)
            self.tok("SITE_SECTION", s, lineno, col)
            self.state = "body"
            self.in_definitions = m.group(2).strip().rstrip(".") == "Definitions"
            return
        m = ANNEX_RE.match(s)
        if m and self.state != "body":
            self.state = "body"
            self.tok("ANNEX", m.group(0).strip(), lineno, col)
            rest = s[m.end():]
            off = col + m.end()
            k = rest.find("CHAPTER ")
            hier = rest[:k] if k >= 0 else rest
            if hier.strip():
                self.tok("HIERARCHY", hier.strip(), lineno, off)
            if k >= 0:
                self.content(rest[k:], lineno, off + k, nxt)
            return
        if self.state in ("front", "preamble") and not (
                CHAPTER_RE.match(s) or SECTION_HEAD_RE.match(s) or LABEL_RE.match(s) and self.state == "front"):
            if self.state == "front" and self.format == "code":
                # text before any section on a Code page: not regulation text
                self.furn("site_text", s, lineno, col)
                return
            self.state = "preamble"
            self.preamble_line(s, lineno, col)
            return
        self.state = "body"
        self.content(s, lineno, col, nxt)

    def preamble_line(self, s: str, lineno: int, col: int) -> None:
        # "ChairpersonFiscal Note: 125-115. ..." (signature block glued to the fiscal note)
        m = re.match(r"(.*?[a-z])(Fiscal Note: .*)$", s)
        if m:
            self.preamble_line(m.group(1), lineno, col)
            self.preamble_line(m.group(2), lineno, col + m.start(2))
            return
        heading = (len(s) < 70 and not re.search(r"[.:;,]$", s) and not s.startswith("(")
                   and s[:1].isupper())
        self.tok("PRE_HEADING" if heading else "PRE_TEXT", s, lineno, col)

    # ------------------------------------------------------------------ content
    def chapter_line(self, s: str, lineno: int, col: int, cont: tuple[str, int] | None = None) -> None:
        m = CHAPTER_RE.match(s)
        assert m
        title = m.group(2)
        rest = ""
        rest_col = 0
        if cont is not None:
            ctext, cline = cont
            title = title.rstrip() + " " + ctext[: -len("Sec.")].strip()
            self.tok("CHAPTER_HEAD", f"CHAPTER {m.group(1)}. {title}", lineno, col)
            self.tok("SEC_LIST", "Sec.", cline, len(ctext) - 4)
            self.sec_list_open = True
            return
        k = title.find("Sec.")
        j = title.find("§ ")
        if k >= 0 and (j < 0 or k < j):
            head = title[:k].rstrip()
            self.tok("CHAPTER_HEAD", f"CHAPTER {m.group(1)}. {head}", lineno, col)
            self.tok("SEC_LIST", "Sec.", lineno, col + m.start(2) + k)
            self.sec_list_open = True
            rest = title[k + 4:]
            rest_col = col + m.start(2) + k + 4
        elif j >= 0:
            self.tok("CHAPTER_HEAD", f"CHAPTER {m.group(1)}. {title[:j].rstrip()}", lineno, col)
            rest = title[j:]
            rest_col = col + m.start(2) + j
        else:
            self.tok("CHAPTER_HEAD", f"CHAPTER {m.group(1)}. {title.rstrip()}", lineno, col)
        if rest.strip():
            lead = len(rest) - len(rest.lstrip())
            self.content(rest.strip(), lineno, rest_col + lead, "")

    def content(self, s: str, lineno: int, col: int, nxt: str) -> None:
        """Classify one logical line starting at ``col``; re-enter for glued remainders."""
        s = s.rstrip()
        if not s:
            return
        if CHAPTER_RE.match(s):
            self.in_definitions = False
            self.chapter_line(s, lineno, col)
            return
        if self.sec_list_open and SEC_ENTRY_RE.match(s):
            self.sec_entries(s, lineno, col)
            return
        self.sec_list_open = False
        m = SECTION_HEAD_RE.match(s)
        if m and len(m.group(2)) < 200:
            self.tok("SECTION_HEAD", s, lineno, col)
            self.in_definitions = m.group(2).strip() == "Definitions."
            return
        m = ELISION_RE.match(s)
        if m:
            self.tok("ELISION", m.group(0), lineno, col)
            rest = s[m.end():]
            if rest.strip():
                self.content(rest.strip(), lineno, col + m.end() + len(rest) - len(rest.lstrip()), nxt)
            return
        m = TABLE_HEAD_RE.match(s + " ")
        if m:
            self.table(s, lineno, col)
            return
        m = LABEL_RE.match(s)
        if m:
            self.tok("LABEL", f"({m.group(1)})", lineno, col)
            body = s[m.end():]
            self.text_with_heading(body, lineno, col + m.end(), "TEXT")
            return
        if self.in_definitions:
            m = DEFINITION_RE.match(s)
            if m:
                self.tok("TERM", m.group(1), lineno, col)
                self.text_with_heading(m.group(2), lineno, col + m.start(2), "TEXT", allow_empty=True)
                return
        if nxt and TABLE_HEAD_RE.match(nxt + " ") and len(s) < 100 and not s.endswith("."):
            self.tok("CAPTION", s, lineno, col)
            return
        self.text_with_heading(s, lineno, col, "UTEXT")

    def text_with_heading(self, s: str, lineno: int, col: int, kind: str, allow_empty: bool = True) -> None:
        """Text that may end with a glued section heading ("... the table. § 567.2. Heading.")."""
        m = SECTION_HEAD_MID_RE.search(s)
        if m and re.search(r"[.:)\]]$", s[: m.start()].rstrip()) and len(m.group(2)) < 120:
            self.tok(kind, s[: m.start()].rstrip(), lineno, col)
            self.content(s[m.start() + 1:], lineno, col + m.start() + 1, "")
            return
        self.tok(kind, s, lineno, col)

    def sec_entries(self, s: str, lineno: int, col: int) -> None:
        starts = [m.start() for m in re.finditer(rf"(?:(?<=^)|(?<=\.\s)){SEC_NUM}\.\s", s)]
        tail_at = None
        m = re.search(rf"(?<=\.)\s§\s{SEC_NUM}\.\s", s)
        if m:
            tail_at = m.start() + 1
            starts = [k for k in starts if k < tail_at]
        bounds = starts + [tail_at if tail_at is not None else len(s)]
        for a, b in zip(bounds, bounds[1:]):
            self.tok("SEC_ENTRY", s[a:b].strip(), lineno, col + a)
        if tail_at is not None:
            self.sec_list_open = False
            self.content(s[tail_at:], lineno, col + tail_at, "")

    def table(self, s: str, lineno: int, col: int) -> None:
        m = TABLE_HEAD_RE.match(s + " ")
        assert m
        self.tok("TABLE_HEAD", "Hand", lineno, col)
        columns = [c for c in COLUMN_RE.finditer(m.group(1))]
        for c in columns:
            self.tok("COLUMN", c.group(0), lineno, col + m.start(1) + c.start())
        ncols = len(columns)
        pos = m.end()
        if pos > len(s):
            raise self.error("paytable heading without rows", lineno, col + len(s))
        rows = 0
        while pos < len(s):
            rest = s[pos:]
            label = None
            for name in HANDS_LONGEST_FIRST:
                if rest.startswith(name + " ") and PAYOUT_RE.match(rest, len(name) + 1):
                    label = name
                    break
            if label is None and rows == 0:
                # a hand not in the list: take the words before the first payout
                pm = PAYOUT_RE.search(rest)
                if pm and pm.start() > 0 and not re.search(r"[()§]", rest[: pm.start()]):
                    label = rest[: pm.start()].strip()
            if label is None:
                break
            self.tok("HAND", label, lineno, col + pos)
            p = pos + len(label) + 1
            for k in range(ncols):
                cm = PAYOUT_RE.match(s, p)
                if not cm:
                    raise self.error(
                        f"paytable row {label!r} has {k} payouts, the heading announces {ncols}",
                        lineno, col + p)
                self.tok("CELL", cm.group(0), lineno, col + p)
                p = cm.end()
                if p < len(s) and s[p] == " ":
                    p += 1
            pos = p
            rows += 1
        if rows == 0:
            raise self.error("paytable without rows", lineno, col + pos)
        rest = s[pos:]
        if rest.strip():
            lead = len(rest) - len(rest.lstrip())
            self.content(rest.strip(), lineno, col + pos + lead, "")


def lex(text: str, path: str = "<input>") -> LexResult:
    if "\x00" in text:
        raise TextError("binary file, not a Bulletin or Code page", path, 1, 1)
    return _Lexer(text, path).run()
