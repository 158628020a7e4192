"""The patterns the lexer of Bulletin and Code pages recognises: page furniture, headings, labels,
definitions, tables, notes; and what it returns (``Furniture``, ``LexResult``)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from lark.lexer import Token

from .hands import COLUMN_RE, PAYOUT_RE

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
    fragment: bool = False
    problems: list[tuple[str, str, int, int, str]] = field(default_factory=list)  # (kind, message, line, col, text)
    layouts: list[str] = field(default_factory=list)  # "Markdown", "hard-wrapped": what was brought to lines


WEEKDAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
SEC_NUM = r"\d+[a-z]?\.\d+[a-z]?"
LABEL_RE = re.compile(r"\(([A-Za-z]{1,5}|\d{1,3})\)\s+")
SECTION_HEAD_RE = re.compile(rf"§\s+({SEC_NUM})\.\s+([A-Z].*?\.)\s*$")
SECTION_HEAD_MID_RE = re.compile(rf"\s§\s+({SEC_NUM})\.\s+([A-Z][^§]*?\.)\s*$")
CHAPTER_RE = re.compile(r"CHAPTER\s+(\d+[a-z]?)\.\s+(.*)$")
SEC_ENTRY_RE = re.compile(rf"({SEC_NUM})\.\s")
ELISION_RE = re.compile(r"\*\s\*\s\*\s\*\s\*")
# "Term—text" (the Code) or "Term-Text" (third-party copies drop the em dash).  A term runs to the
# dash that ends it, with hyphens, apostrophes, digits and ampersands inside ("All-Six Bonus Wager",
# "Five-Card Envy Bonus"): the em dash when the line has one, else the first hyphen after which a
# sentence starts (a capitalised word and then a lower-case one: "Bonus-An additional ...").
TERM_CHARS = r"[A-Za-z0-9 ,'\u2019()/&\-]"
DEFINITION_EM_RE = re.compile(rf"([A-Z0-9]{TERM_CHARS}{{0,80}}?)\u2014(.*)$")
DEFINITION_HYPHEN_RE = re.compile(rf"([A-Z0-9]{TERM_CHARS}{{0,80}}?)\s?-(?=[A-Z][A-Za-z'\u2019]*[\s,]+[a-z(\d])(.*)$")


class _Definition:
    """Match of a definition line: ``group(1)`` the term, ``group(2)``/``start(2)`` the text."""

    def __init__(self, m: re.Match):
        self._m = m

    def group(self, k: int) -> str:
        return self._m.group(k)

    def start(self, k: int) -> int:
        return self._m.start(k)


class _DefinitionRE:
    """``DEFINITION_RE.match(line)``: the term to the dash that ends it (see above)."""

    @staticmethod
    def match(s: str):
        m = DEFINITION_EM_RE.match(s)
        if m is None and "\u2014" not in s[:84]:
            m = DEFINITION_HYPHEN_RE.match(s)
        return _Definition(m) if m else None


DEFINITION_RE = _DefinitionRE()
TERM_ONLY_RE = re.compile(rf"[A-Z]{TERM_CHARS}{{0,60}}[A-Za-z0-9)]$")
TABLE_HEAD_RE = re.compile(r"(Hand|Result)\s*((?:(?:" + COLUMN_RE.pattern + r")\s*)+)")
ROW_CELLS = rf"(?:{PAYOUT_RE.pattern})"
# a pipe-table line: two pipes at least (elaws: "Hand | Paytable A | Paytable B |"), or a heading of one payout
# column as `rulespec text render` prints it ("Hand | Payout"), so that the renderer's pages read back
PIPE_HEAD_RE = re.compile(r"[^|]{1,60} \| (?:" + COLUMN_RE.pattern + r")$")


def pipe_line(s: str) -> bool:
    return s.count("|") >= 2 or bool(PIPE_HEAD_RE.match(s))
# a label glued after the end of a sentence ("... in the set.(2) Each tile", ": (1) Each set")
GLUED_LABEL_RE = re.compile(r"(?<=[.:;])\s?\(([a-z]{1,2}|\d{1,3}|[ivx]{1,5}|[A-Z]{1,2}|[IVX]{1,5})\)\s(?=[A-Z\u2018\u201c'\"])")

# Furniture of Bulletin pages.
BULLETIN_FURNITURE = [
    ("page_cite", re.compile(r"\[(\d+) Pa\.B\. (\d+)\]$")),
    ("continued", re.compile(r"\[Continued (?:from previous|on next) Web Page\]$")),
    ("doc_footer", re.compile(r"\[Pa\.B\. Doc\. No\. [^\]]*\]$")),
    ("doc_no", re.compile(r"PA Bulletin, Doc\. No\. \S+$")),
]
# Furniture of both kinds of web page.
SITE_FURNITURE = [
    ("disclaimer", re.compile(r"No part of the information on this site.*$")),
    ("disclaimer", re.compile(r"This material has been drawn directly from.*$")),
    ("disclaimer", re.compile(r"Disclaimer: .*$")),
    ("disclaimer", re.compile(r"This site is protected by reCAPTCHA.*$")),
    ("site_header", re.compile(r"Pennsylvania Code & Bulletin$")),
    ("site_header", re.compile(r"COMMONWEALTH OF PENNSYLVANIA$")),
    ("site_notice", re.compile(r"\u2022 No statutes or acts will be found at this website\.$")),
    ("site_notice", re.compile(r"The Pennsylvania Bulletin website includes the following: .*$")),
    ("code_currency", re.compile(r"The Pennsylvania Code website reflects the Pennsylvania Code changes effective "
                                 r"through .*$")),
]
CODE_FURNITURE = [
    ("site_header", re.compile(r"Pennsylvania Code(?: \(Last Updated: [A-Z][a-z]+ \d{1,2}, \d{4}\))?\s*\|?$")),
    ("site_title", re.compile(r"Title \d+(?: -|\.) .*$")),
    ("site_part", re.compile(r"Part [IVXLC]+(?: -|\.) .*$", re.I)),
    ("site_subpart", re.compile(r"Subpart [A-Z]+(?: -|\.) .*$")),
    ("site_subchapter", re.compile(r"Subchapter [A-Z]+\. .*$")),
    ("subchapter_list", re.compile(r"Subch\.\s+Sec\.$")),
    ("subchapter_entry", re.compile(r"[A-Z]{1,3}\.\s+.*(?:\u2026|\.\.\.)\s*\d+[a-z]?\.\d+[a-z]?$")),
    ("universal_citation", re.compile(r"Universal Citation: .*$")),
    ("current_through", re.compile(r"Current through Register .*$")),
    ("cited_in", re.compile(r"This (?:section|chapter|subchapter) cited in .*$")),
    # "58 Pa. Code § 669a.1. Definitions." / "58 Pa. Code § 669a.6" / "58 Pa. Code" (page title lines)
    ("page_title", re.compile(rf"\d+ Pa\. Code(?:\s+§\s+{SEC_NUM}\.?(?:\s+.*)?)?$")),
    ("source", re.compile(r"Adopted by Pennsylvania Bulletin, .*$")),
    ("authority", re.compile(r"The (?:temporary )?provisions of this (?:§\s*\S+|Chapter \S+|Subchapter \S+)"
                             r" (?:issued|amended|added|adopted) under\b.*$")),
    ("source", re.compile(r"The (?:temporary )?provisions of this (?:§\s*\S+|Chapter \S+|Subchapter \S+)"
                          r" (?:adopted|amended|added|reserved|renumbered|rescinded|deleted)\b.*$")),
    ("toc_table", re.compile(r"Table \d+\.\s*\|?$")),
]
ALL_FURNITURE = BULLETIN_FURNITURE + SITE_FURNITURE + CODE_FURNITURE
# one pass to tell that a line is no furniture at all (most lines): the patterns, flags inline
FURNITURE_ANY = re.compile("|".join(f"(?{'i' if rx.flags & re.I else ''}:{rx.pattern})" if rx.flags & re.I
                                    else f"(?:{rx.pattern})" for _, rx in ALL_FURNITURE))
NOTE_HEADINGS = {"Authority": "authority", "Source": "source", "Cross References": "cross_references",
                 "Notation": "notation", "Notes of Decisions": "notes_of_decisions"}
NOTE_GLUED_RE = re.compile(r"(Authority|Source|Cross References)\s*(The\s.*|This\s.*)$")
# Cornell LII's title line: "58 Pa. Code § 633a.3 - Cards; number of decks; value of cards"
LII_SECTION_RE = re.compile(rf"\d+ Pa\. Code §\s+({SEC_NUM}) - ([A-Z].*?)\s*$")
SITE_CHAPTER_RE = re.compile(r"Chapter (\d+[a-z]?)(?: -|\.) (.*?)\s*\|?$")
SITE_SECTION_RE = re.compile(rf"Section ({SEC_NUM}) - (.*)$")
SITE_SECTION_GLUED_RE = re.compile(rf"Section ({SEC_NUM}) - (.*?)(?=\((?:a|1|i)\)\s[A-Z])")
SITE_SEC_ENTRY_RE = re.compile(rf"Section ({SEC_NUM})\. (.*?)\s*\|$")
# a chapter index without its "CHAPTER"/"Sec." lines (Justia): "- Section 623a.1 - Definitions"
LIST_SEC_ENTRY_RE = re.compile(rf"[-*\u2022]\s+Section ({SEC_NUM}) - (.*?)\s*$")
DOC_TITLE_RE = re.compile(r"Title \d+\u2014.*\[(\d+) Pa\.B\. (\d+)\]$")
DATE_RE = re.compile(rf"\[(?:{WEEKDAYS}), ([A-Z][a-z]+ \d{{1,2}}, \d{{4}})\]")
ANNEX_RE = re.compile(r"Annex ([A-Z])\b\s*")
# "[ 58 PA. CODE CHS. 465a, 583, ... AND 676a ]" (possibly over two lines); "[ 58 PA. CODE CH. 437a ]"
AFFECTS_RE = re.compile(r"\[\s*\d+ PA\. ?CODE CHS?\.\s+([^\]]*)\]?", re.I)
BULLETIN_MARK_RE = re.compile(r"^\s*(?:\[\d+ Pa\.B\. \d+\]\s*$|PA Bulletin, Doc\. No\.|Annex [A-Z]\b|"
                              r"\[Pa\.B\. Doc\. No\.|Title \d+\u2014.*\[\d+ Pa\.B\. \d+\])", re.M)
ANCHOR_RE = re.compile(rf"^\s*(?:§\s+{SEC_NUM}\.\s|Section {SEC_NUM}(?: -|\.) |CHAPTER \d|Chapter \d+[a-z]?(?: -|\.) |"
                       rf"{SEC_NUM}\.\s|\d+ Pa\. Code)", re.M)
TERMINAL_RE = re.compile(r"(?:[.:;\u2014]|\b(?:and|or))[\"\u201d\u2019')\]]*$|\|$")


def page_format(text: str) -> str:
    """A page is a Bulletin page when it prints a Bulletin page citation on a line of its
    own ("[45 Pa.B. 4185]"), a document number or an Annex; a Code page may cite a Bulletin
    issue in a sentence of its header ("effective through 54 Pa.B. 488") and stays a Code page."""
    return "bulletin" if BULLETIN_MARK_RE.search(text) else "code"
