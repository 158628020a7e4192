"""Line-oriented lexer stage for Bulletin and Code pages.

Why a hand-written lexer stage in front of the LALR grammars
(``compiler/lang/bulletin.lark``, ``compiler/lang/pacode.lark``):

* The web captures glue logical lines together: a flattened paytable is followed on
  the same physical line by the next subsection ("... 1 to 1 (d) A certificate holder")
  or the next section heading ("... 5 to 1 § 669a.13. Irregularities."); a chapter
  title runs into "Sec."; "[Saturday, April 10, 2010]The Pennsylvania ..."; a
  third-party copy prints a whole section on one line ("... in the set.(2) Each tile").
  Where a table row ends depends on how many payout columns the table's heading
  announced and on knowing the hand names -- a count-dependent, context-sensitive split
  that no regular terminal of a context-free lexer can express.
* Regulation prose may contain anything (parentheses, section signs, dashes), so it is
  one TEXT token per logical line; only the *start* of a logical line is structural.

So this stage cuts the input into logical lines, sets page furniture and editorial
notes apart (they never reach the grammar, but are kept with their positions), and
classifies each logical line into one token whose position is its place in the
original file.  The grammars then parse the token sequence with LALR (strict); which
*level* a label belongs to is decided after parsing, from the sequence (see
``compiler/text/parser.py``).

Layouts recognised (docs/text-tools.md): Bulletin pages (preamble, Annex, chapters);
official Code section and chapter pages (site header, "58 Pa. Code § N. Heading." title,
Authority / Source / Cross References notes, "Sec." list one entry per line, paytables
one row per line with cells glued to the hand); third-party copies (casetext, justia,
elaws: "Section N - Heading", "-" for the em dash in definitions, pipe tables, notes as
plain sentences, "Section N. Heading |" chapter lists); pages cut short.
"""
from __future__ import annotations

import re

from lark.lexer import Token

from compiler.lang.citations import label_at, label_index, label_styles
from .errors import TextError
from .layouts import Placer, unwrap
from .lexer_tables import SIDE_BY_SIDE_RE, _Tables
from .hands import PAYOUT_RE
from .lexer_patterns import (  # noqa: F401 - Furniture and LexResult are the lexer's results
    AFFECTS_RE,
    ALL_FURNITURE,
    ANCHOR_RE,
    ANNEX_RE,
    CHAPTER_RE,
    DATE_RE,
    DEFINITION_RE,
    DOC_TITLE_RE,
    ELISION_RE,
    FURNITURE_ANY,
    Furniture,
    GLUED_LABEL_RE,
    LABEL_RE,
    LII_SECTION_RE,
    LIST_SEC_ENTRY_RE,
    LexResult,
    NOTE_GLUED_RE,
    NOTE_HEADINGS,
    SECTION_HEAD_MID_RE,
    SECTION_HEAD_RE,
    SEC_ENTRY_RE,
    SEC_NUM,
    SITE_CHAPTER_RE,
    SITE_SECTION_GLUED_RE,
    SITE_SECTION_RE,
    SITE_SEC_ENTRY_RE,
    TABLE_HEAD_RE,
    TERM_ONLY_RE,
    page_format,
    pipe_line,
)

class _Lexer(_Tables):
    def __init__(self, text: str, path: str, page: str | None = None):
        self.text = text
        self.path = path
        # ``text`` is the page with its layout brought to lines (compiler/text/layouts.py, same offsets):
        # every position is given on the page as printed
        self.placer = Placer(page) if page is not None and page != text else None
        self.lines = text.split("\n")
        self.starts = []
        pos = 0
        for ln in self.lines:
            self.starts.append(pos)
            pos += len(ln) + 1
        self.tokens: list[Token] = []
        self.furniture: list[Furniture] = []
        self.problems: list[tuple[str, str, int, int, str]] = []
        self.format = "bulletin"
        self.state = "front"         # front | preamble | body
        self.sec_list_open = False
        self.in_definitions = False
        self.note: str | None = None  # open note block (Authority, Source, ...)
        self.table: dict | None = None  # open table printed one row per line
        self.affects_open: tuple[str, int, int] | None = None
        self.seen_labels: set[str] = set()

    # ------------------------------------------------------------------ helpers
    def tok(self, kind: str, value: str, lineno: int, col: int) -> None:
        """Add a token; ``col`` is the 0-based offset of ``value`` in physical line ``lineno``."""
        start = self.starts[lineno - 1] + col
        if self.placer is None:
            self.tokens.append(Token(kind, value, start, lineno, col + 1, lineno,
                                     col + 1 + len(value), start + len(value)))
            return
        (line, column), (end_line, end_col) = self.placer.place(start), self.placer.place(start + len(value))
        self.tokens.append(Token(kind, value, start, line, column, end_line, end_col, start + len(value)))

    def at(self, lineno: int, col: int) -> tuple[int, int]:
        """Line and 1-based column on the page of 0-based ``col`` of line ``lineno`` of the text read."""
        if self.placer is None:
            return lineno, col + 1
        return self.placer.place(self.starts[lineno - 1] + col)

    def furn(self, kind: str, value: str, lineno: int, col: int) -> None:
        self.furniture.append(Furniture(kind, value, *self.at(lineno, col)))

    def error(self, msg: str, lineno: int, col: int) -> TextError:
        return TextError(msg, self.path, *self.at(lineno, col))

    def problem(self, kind: str, msg: str, lineno: int, col: int, text: str = "") -> None:
        self.problems.append((kind, msg, *self.at(lineno, col), text))

    # ------------------------------------------------------------------ driver
    def run(self) -> LexResult:
        self.format = page_format(self.text)
        if self.format == "code" and not ANCHOR_RE.search(self.text):
            # no section heading, chapter or list of sections anywhere: an excerpt that starts
            # mid-section (read as a fragment, said so by the parser)
            self.state = "body"
            self.fragment = True
        i = 0
        n = len(self.lines)
        last = max((k for k in range(n) if self.lines[k].strip()), default=-1)
        while i < n:
            raw = self.lines[i]
            lineno = i + 1
            line = raw.rstrip("\r")
            stripped = line.strip()
            if not stripped:
                self.table = None
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
            # ... or "CHAPTER 9. PERSIAN GULF CONFLICT" / "VETERANS’ BENEFIT PROGRAM" (capitals, no "Sec.")
            if m and "Sec." not in stripped and "§" not in stripped and i + 1 < n:
                nxt_line = self.lines[i + 1].strip()
                if nxt_line and nxt_line.upper() == nxt_line and re.search(r"[A-Z]", nxt_line) \
                        and not re.match(r"(?:Sec\.|§|CHAPTER|\[)", nxt_line) and len(nxt_line) < 100:
                    self.chapter_line(stripped + " " + nxt_line, lineno, col)
                    i += 2
                    continue
            nxt = next((self.lines[k].strip() for k in range(i + 1, n) if self.lines[k].strip()), "")
            self.is_last = i == last
            self.physical(stripped, lineno, col, nxt)
            i += 1
        return LexResult(self.tokens, self.furniture, self.format, getattr(self, "fragment", False), self.problems)

    def furniture_kind(self, s: str) -> str | None:
        if not FURNITURE_ANY.match(s):
            return None
        for kind, rx in ALL_FURNITURE:
            if rx.match(s):
                return kind
        return None

    def physical(self, s: str, lineno: int, col: int, nxt: str) -> None:
        """One physical line (stripped; ``nxt``: the next non-blank one): furniture, notes, a row of an
        open paytable, the page's title lines and the Bulletin's front matter are taken in that order;
        what none of them takes is regulation text (``content``)."""
        for reader in (self.affects_line, self.lii_heading, self.furniture_line, self.note_line, self.open_table_row,
                       self.title_or_date, self.site_line, self.annex_line, self.front_line):
            if reader(s, lineno, col, nxt):
                return
        self.state = "body"
        self.content(s, lineno, col, nxt)

    def affects_line(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """The list of chapters a Bulletin document affects, on one line or continued on the next."""
        # a chapter list continued from the line before: "[ 58 PA. CODE CHS. 551, 553, 571, 573," / "635a ... ]"
        if self.affects_open is not None:
            text, aline, acol = self.affects_open
            self.affects_open = None
            if re.match(r"[\dA-Za-z,\s]+\]$", s):
                self.furn("affects", text + " " + s, aline, acol)
                self.state = "preamble" if self.state == "front" else self.state
                return True
            self.furn("affects", text, aline, acol)
        m = AFFECTS_RE.match(s)
        if m and self.state != "body":
            if "]" in s:
                self.furn("affects", s, lineno, col)
            else:
                self.affects_open = (s, lineno, col)
            return True
        return False

    def lii_heading(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        m = LII_SECTION_RE.match(s)
        if m and self.state != "body":
            # Cornell LII: the page's title line is its section heading (the Code's wording kept)
            self.format = "code"
            self.furn("site_section", s, lineno, col)
            self.tok("SITE_SECTION", f"Section {m.group(1)} - {m.group(2)}", lineno, col)
            self.state = "body"
            self.in_definitions = m.group(2).rstrip(".") == "Definitions"
            return True
        return False

    def furniture_line(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """Page furniture; a disclaimer goes on to the line that ends its sentence, a site's
        subchapter heading to its lines in capitals."""
        kind = self.furniture_kind(s)
        if kind is None and getattr(self, "disclaimer_open", False) and len(s) < 100:
            kind = "disclaimer"
        self.disclaimer_open = kind == "disclaimer" and not re.search(r"[.!?]$", s)
        if kind is not None:
            self.note = None
            self.table = None
            self.furn(kind, s, lineno, col)
            self.subchapter_open = kind == "site_subchapter"
            return True
        if getattr(self, "subchapter_open", False) and s.upper() == s and re.search(r"[A-Z]", s) \
                and not re.match(r"(?:Sec\.|§|CHAPTER|\(|\[)", s):
            # "Subchapter A. VETERANS’ EMERGENCY" / "ASSISTANCE PROGRAM": the heading goes on
            self.furn("site_subchapter", s, lineno, col)
            return True
        self.subchapter_open = False
        return False

    def note_line(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """Notes of Code pages: "Authority" / "Source" / "Cross References" / "Notation" headings,
        the paragraphs under them; glued "Authority The provisions ..."."""
        if s in NOTE_HEADINGS:
            self.note = NOTE_HEADINGS[s]
            self.table = None
            self.furn("note_heading", s, lineno, col)
            return True
        m = NOTE_GLUED_RE.match(s)
        if m and self.state == "body":
            self.note = None
            self.furn(NOTE_HEADINGS[m.group(1)], m.group(2), lineno, col + m.start(2))
            return True
        if self.note is not None and not (SECTION_HEAD_RE.match(s) or CHAPTER_RE.match(s) or LABEL_RE.match(s)):
            self.furn(self.note, s, lineno, col)
            return True
        self.note = None
        if getattr(self, "is_last", False) and any(h.startswith(s) and len(s) >= 4 and s != h for h in NOTE_HEADINGS):
            # "Cross Refer": a note heading cut by the end of the page
            self.furn("note_heading", s, lineno, col)
            self.problem("cut", f"page cut short in the note heading {s!r}", lineno, col + len(s), s)
            return True
        return False

    def open_table_row(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """A row of a paytable printed one row per line (or a line of a table refused)."""
        if self.table is not None and self.table.get("refused"):
            if not (LABEL_RE.match(s) or SECTION_HEAD_RE.match(s) or CHAPTER_RE.match(s)):
                self.furn("refused_table", s, lineno, col)
                return True
            self.table = None
        if self.table is not None:
            if self.table_row(s, lineno, col):
                return True
            self.table = None
        return False

    def title_or_date(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """A Bulletin document's title; its date (the rest of the line read on)."""
        m = DOC_TITLE_RE.match(s)
        if m:
            self.furn("doc_title", s, lineno, col)
            self.state = "preamble"
            return True
        m = DATE_RE.match(s)
        if m:
            self.furn("date", m.group(0), lineno, col)
            rest = s[m.end():]
            if rest.strip():
                self.physical(rest.strip(), lineno, col + m.end() + (len(rest) - len(rest.lstrip())), nxt)
            return True
        return False

    def site_line(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """A site's chapter header, an entry of its list of sections, its section header (the rest of
        the line read as content)."""
        m = SITE_CHAPTER_RE.match(s)
        if m and self.state != "body":
            self.format = "code"
            self.furn("site_chapter", s, lineno, col)
            self.tok("SITE_CHAPTER", s, lineno, col)
            return True
        m = SITE_SEC_ENTRY_RE.match(s) or LIST_SEC_ENTRY_RE.match(s)
        if m:
            # "Section 661a.1. Definitions |": an entry of a third-party chapter page
            if not any(t.type == "SEC_LIST" for t in self.tokens[-40:]) or not self.sec_list_open:
                self.tok("SEC_LIST", "", lineno, col)
                self.sec_list_open = True
            self.tok("SEC_ENTRY", f"{m.group(1)}. {m.group(2)}", lineno, col + m.start(1))
            return True
        m = SITE_SECTION_GLUED_RE.match(s) or SITE_SECTION_RE.match(s)
        if m:
            self.format = "code"
            head = s[: m.end()].rstrip()
            self.furn("site_section", head, lineno, col)
            self.tok("SITE_SECTION", head, lineno, col)
            self.state = "body"
            self.in_definitions = m.group(2).strip().rstrip(".") == "Definitions"
            rest = s[m.end():]
            if rest.strip():
                self.content(rest.strip(), lineno, col + m.end() + len(rest) - len(rest.lstrip()), nxt)
            return True
        return False

    def annex_line(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """"Annex A" and the hierarchy after it; a chapter heading glued to it read as content."""
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
            return True
        return False

    def front_line(self, s: str, lineno: int, col: int, nxt: str) -> bool:
        """A line before the regulation text: a Bulletin's preamble, or site text on a Code page."""
        if self.state in ("front", "preamble") and not (
                CHAPTER_RE.match(s) or SECTION_HEAD_RE.match(s) or LABEL_RE.match(s) and self.state == "front"):
            if self.state == "front" and self.format == "code":
                # text before any section on a Code page: not regulation text (kept as furniture)
                self.furn("site_text", s, lineno, col)
                return True
            self.state = "preamble"
            self.preamble_line(s, lineno, col)
            return True
        return False

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
        self.state = "body"
        self.in_definitions = False
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
            self.chapter_line(s, lineno, col)
            return
        if s == "Sec.":
            self.tok("SEC_LIST", "Sec.", lineno, col)
            self.sec_list_open = True
            return
        if self.sec_list_open and SEC_ENTRY_RE.match(s):
            self.sec_entries(s, lineno, col)
            return
        self.sec_list_open = False
        m = SECTION_HEAD_RE.match(s)
        if m and len(m.group(2)) < 200:
            self.tok("SECTION_HEAD", s, lineno, col)
            self.in_definitions = m.group(2).strip() == "Definitions."
            self.seen_labels = set()
            return
        m = ELISION_RE.match(s)
        if m:
            self.tok("ELISION", m.group(0), lineno, col)
            rest = s[m.end():]
            if rest.strip():
                self.content(rest.strip(), lineno, col + m.end() + len(rest) - len(rest.lstrip()), nxt)
            return
        if SIDE_BY_SIDE_RE.match(s):
            self.refuse_table(s, lineno, col, "the heading names the hand column twice")
            return
        m = TABLE_HEAD_RE.match(s + " ")
        if m and self.looks_like_table_head(s, m):
            self.table_head(s, lineno, col)
            return
        m = LABEL_RE.match(s)
        if m:
            self.tok("LABEL", f"({m.group(1)})", lineno, col)
            self.seen_labels.add(m.group(1))
            body = s[m.end():]
            self.text_with_heading(body, lineno, col + m.end(), "TEXT")
            return
        if pipe_line(s) and self.pipe_table(s, lineno, col):
            return
        if self.in_definitions:
            m = DEFINITION_RE.match(s)
            if m:
                self.tok("TERM", m.group(1), lineno, col)
                self.text_with_heading(m.group(2), lineno, col + m.start(2), "TEXT", allow_empty=True)
                return
            if TERM_ONLY_RE.match(s) and nxt and LABEL_RE.match(nxt):
                # "Active service" followed by "(i) ...": a term whose text is its items
                self.tok("TERM", s, lineno, col)
                self.tok("TEXT", "", lineno, col + len(s))
                return
        if nxt and (TABLE_HEAD_RE.match(nxt + " ") or pipe_line(nxt)) and len(s) < 100 \
                and not s.endswith((".", ":")):
            self.tok("CAPTION", s, lineno, col)
            return
        self.text_with_heading(s, lineno, col, "UTEXT")

    def looks_like_table_head(self, s: str, m: re.Match) -> bool:
        """"Hand Payout" or "ResultPayout Odds", alone or followed by rows -- not a sentence
        that happens to start with "Hand"."""
        rest = s[m.end():] if m.end() <= len(s) else ""
        return not rest.strip() or bool(PAYOUT_RE.search(rest))

    def text_with_heading(self, s: str, lineno: int, col: int, kind: str, allow_empty: bool = True) -> None:
        """Text that may end with a glued section heading ("... the table. § 567.2. Heading."),
        a glued label ("... in the set.(2) Each tile") or a glued pipe table ("...: Hand | Payout |")."""
        if self.state == "body" and "|" in s and s.count("|") >= 2:
            k = self.pipe_start(s)
            if k is not None and k > 0:
                self.text_with_heading(s[:k].rstrip(), lineno, col, kind, allow_empty)
                self.content(s[k:], lineno, col + k, "")
                return
        m = SECTION_HEAD_MID_RE.search(s)
        if m and re.search(r"[.:)\]]$", s[: m.start()].rstrip()) and len(m.group(2)) < 120:
            self.text_with_heading(s[: m.start()].rstrip(), lineno, col, kind, allow_empty)
            self.content(s[m.start() + 1:], lineno, col + m.start() + 1, "")
            return
        if self.state == "body":
            for g in GLUED_LABEL_RE.finditer(s):
                if self.plausible_label(g.group(1)):
                    k = g.start() + (1 if s[g.start()] == " " else 0)
                    self.tok(kind, s[: g.start()].rstrip(), lineno, col)
                    self.content(s[k:], lineno, col + k, "")
                    return
        self.tok(kind, s, lineno, col)

    def plausible_label(self, label: str) -> bool:
        """A label glued mid-line is taken as structure only if it starts a level or
        continues one seen in this section (so "(relating to ...)" and stray
        parentheses never are)."""
        for style in label_styles(label):
            idx = label_index(label, style)
            if idx == 0:
                return True
            if idx is not None and label_at(idx - 1, style) in self.seen_labels:
                return True
        return False

    def sec_entries(self, s: str, lineno: int, col: int) -> None:
        starts = [m.start() for m in re.finditer(rf"(?:(?<=^)|(?<=\.\s)){SEC_NUM}\.\s", s)]
        tail_at = None
        m = re.search(rf"(?<=\.)\s§\s{SEC_NUM}\.\s", s)
        if m:
            tail_at = m.start() + 1
            starts = [k for k in starts if k < tail_at]
        bounds = starts + [tail_at if tail_at is not None else len(s)]
        for a, b in zip(bounds, bounds[1:]):
            self.tok("SEC_ENTRY", re.sub(r"^(\S+)\s+", r"\1 ", s[a:b].strip()), lineno, col + a)
        if tail_at is not None:
            self.sec_list_open = False
            self.content(s[tail_at:], lineno, col + tail_at, "")


def lex(text: str, path: str = "<input>") -> LexResult:
    if "\x00" in text:
        raise TextError("binary file, not a Bulletin or Code page", path, 1, 1)
    read, layouts = unwrap(text)
    result = _Lexer(read, path, text).run()
    result.layouts = layouts
    return result
