"""Parse Bulletin and Code pages into a provision tree (see docs/text-tools.md).

Pipeline: ``lexer.lex`` (logical lines, furniture set apart) -> lark LALR grammar
(``compiler/lang/bulletin.lark`` or ``pacode.lark``) -> ``_Build`` transformer into the
frozen dataclasses of ``model`` -> levels decided by the label sequence -> cross
references parsed with ``compiler/lang/citation.lark`` and resolved.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Optional

from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput, VisitError
from lark.lexer import Lexer, Token

from .errors import TextError, read_input
from .extent import last_text_cut, omitted_lists
from .layouts import layout_name
from .hands import hand_id, read_odds
from .lexer import lex
from compiler.text.markup import amendment_changes, has_markup, html_to_text, versions
from .model import (
    Chapter,
    Document,
    FurnitureItem,
    Notice,
    Pos,
    PreambleLine,
    Row,
    SecEntry,
    Section,
    SourceEvent,
    Table,
)
from .crossrefs import _index, _refs, _resolve, _resolve_refs
from .nesting import _Item, _nest
from compiler.text.notes import affected_chapters, source_events

LANG = Path(__file__).resolve().parent.parent / "lang"


class _TokenListLexer(Lexer):
    """Feeds the tokens of the line-oriented lexer stage to lark."""

    def __init__(self, lexer_conf):  # noqa: D401 - lark interface
        pass

    def lex(self, data):
        yield from data


@lru_cache(maxsize=None)
def grammar(name: str) -> Lark:
    # strict=True: no shift/reduce conflicts allowed (terminals are %declare'd, so no
    # regex-collision check is needed).
    return Lark((LANG / name).read_text(encoding="utf-8"), parser="lalr", lexer=_TokenListLexer,
                strict=True, propagate_positions=True, maybe_placeholders=False)


def _pos(tok) -> Pos:
    return Pos(tok.line, tok.column)


def _shape(label: str) -> str:
    """A row label with its numbers and articles made alike: "Is an 8" and "Is a 9" -> "is a #"."""
    return re.sub(r"\ban\b", "a", re.sub(r"\d+", "#", label.lower()))


# ----------------------------------------------------------------- raw items

class _Build(Transformer):
    """Parse tree -> dataclasses. Sections are nested by ``_nest``."""

    def __init__(self, path: str, strict: bool = True, text: str = ""):
        super().__init__()
        self.path = path
        self.raw = text  # the page as read: every payout kept is checked against it at its position
        self.strict = strict
        self.problems: list[Notice] = []

    def problem(self, message: str, pos: Pos, text: str = "") -> None:
        if self.strict:
            raise TextError(message, self.path, pos.line, pos.column)
        self.problems.append(Notice("unread", message, pos, text))

    def duplicate(self, message: str, pos: Pos, text: str = "") -> None:
        """A term defined twice: an error (a rulespec cannot hold both), never read as two terms."""
        if self.strict:
            raise TextError(message, self.path, pos.line, pos.column)
        self.problems.append(Notice("duplicate", message, pos, text))

    # items
    def provision(self, c):
        return _Item("prov", c[0].value[1:-1], c[1].value, _pos(c[0]), (_pos(c[1]),))

    def definition(self, c):
        return _Item("def", c[0].value, c[1].value, _pos(c[0]), (_pos(c[1]),))

    def text(self, c):
        return _Item("text", "", c[0].value, _pos(c[0]), (_pos(c[0]),))

    def elision(self, c):
        return _Item("elision", pos=_pos(c[0]))

    def row(self, c):
        member = c[0].type == "GROUP_MEMBER"
        if member:
            c = c[1:]
        label = c[0].value
        pays = tuple(t.value for t in c[1:])
        doubt = next((d for d in (self.span_doubt(t) for t in c[1:]) if d), None)
        return Row(hand_id(label), label, pays, tuple(read_odds(p) for p in pays), _pos(c[0]),
                   "" if member else None, tuple(_pos(t) for t in c[1:]), doubt)

    def span_doubt(self, tok) -> Optional[str]:
        """A payout is kept only as a span of the page: the raw text at its position is the payout,
        and no digit runs on before or after it (so "1 to 100" is never read as "1 to 10")."""
        if not self.raw:
            return None
        a = tok.start_pos
        b = a + len(tok.value)
        if self.raw[a:b] != tok.value:
            return f"payout {tok.value!r} is not what the page prints at line {tok.line}, column {tok.column}"
        before = self.raw[a - 1] if a > 0 else " "
        after = self.raw[b] if b < len(self.raw) else " "
        if tok.value[:1].isdigit() and before.isdigit() or tok.value[-1:].isdigit() and after.isdigit():
            return f"payout {tok.value!r} at line {tok.line}, column {tok.column} runs on into a digit of the page"
        return None

    def group(self, c):
        return ("group", c[0])

    def table(self, c):
        caption = None
        if c[0].type == "CAPTION":
            caption = c[0].value
            c = c[1:]
        head = c[0]
        cols = tuple(t.value for t in c[1:] if getattr(t, "type", None) == "COLUMN")
        rows = []
        group = None
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "group":
                group = x[1].value
                rows.append(Row(hand_id(group.rstrip(":")), group, (), (), _pos(x[1]), None))
            elif isinstance(x, Row):
                if x.group is not None:
                    x = replace(x, group=group, hand=hand_id(f"{(group or '').rstrip(':')} {x.label}"))
                else:
                    group = None
                rows.append(x)
        shapes = {_shape(r.label) for r in rows}
        for k, r in enumerate(rows):
            if not (r.odds and r.odds[0].kind in ("to", "for") and r.odds[0].numerator >= 10):
                continue
            alt = f"{r.label} {r.pays[0][0]}"
            if re.search(r"\b(?:a|an|the)$", r.label) or _shape(alt) in shapes and _shape(r.label) not in shapes:
                # "Is a 96 to 1": the cells of a printed row are glued to its label, so "Is a 9" +
                # "6 to 1" and "Is a" + "96 to 1" read alike; the reader says it cannot tell, and the
                # row's payout is not certain (the import leaves it out)
                note = (f"paytable row '{r.label} {r.pays[0]}': read as '{r.label}' paying '{r.pays[0]}', but "
                        f"the label may end with a digit glued to the payout ('{alt}' paying '{r.pays[0][1:]}')")
                self.problems.append(Notice("ambiguous", note, r.pos, r.label))
                rows[k] = replace(r, doubt=r.doubt or note)
            if r.pays and len(r.pays) != len(cols) or not r.pays and not r.label.endswith(":"):
                self.problem(f"paytable row {r.label!r} has {len(r.pays)} payouts for {len(cols)} columns",
                             r.pos, r.label)
        rows = tuple(rows)
        return _Item("table", pos=_pos(c[0] if caption is None else head),
                     table=Table(head.value, cols, rows, caption, _pos(head)))

    # sections
    def section(self, c):
        head = c[0]
        m = re.match(r"§\s+(\S+)\.\s+(.*)$", head.value)
        return self._section(m.group(1), m.group(2).strip(), _pos(head), c[1:])

    def code_section(self, c):
        site = [t for t in c if getattr(t, "type", None) == "SITE_SECTION"]
        head = [t for t in c if getattr(t, "type", None) == "SECTION_HEAD"]
        items = [x for x in c if isinstance(x, _Item)]
        if head:
            m = re.match(r"§\s+(\S+)\.\s+(.*)$", head[0].value)
            number, heading, pos = m.group(1), m.group(2).strip(), _pos(head[0])
        elif site:
            m = re.match(r"Section (\S+) - (.*)$", site[0].value)
            # the site drops the heading's final period; the Code prints it
            heading = m.group(2).strip()
            number, heading, pos = m.group(1), heading if heading.endswith(".") else heading + ".", _pos(site[0])
        else:
            first = items[0].pos if items else Pos(1, 1)
            raise TextError("Code page without a section heading", self.path, first.line, first.column)
        return self._section(number, heading, pos, items)

    def _section(self, number, heading, pos, items):
        gap_ok = None if self.strict else (lambda m, p: self.problems.append(Notice("gap", m, p)))
        return _nest(self.path, number, heading, pos, [x for x in items if isinstance(x, _Item)], self.problem,
                     gap_ok, self.duplicate)

    def sec_list(self, c):
        out = []
        for t in c[1:]:
            m = re.match(r"(\S+?)\.\s+(.*)$", t.value)
            out.append(SecEntry(m.group(1), m.group(2).strip(), _pos(t)))
        return ("sec_list", tuple(out))

    def chapter(self, c):
        head = c[0]
        m = re.match(r"CHAPTER\s+(\S+)\.\s+(.*)$", head.value)
        sec_list = ()
        sections = []
        for x in c[1:]:
            if isinstance(x, tuple) and x and x[0] == "sec_list":
                sec_list = x[1]
            elif isinstance(x, Section):
                sections.append(x)
        return Chapter(m.group(1), m.group(2).strip(), sec_list, tuple(sections), _pos(head))

    def loose_sections(self, c):
        secs = tuple(x for x in c if isinstance(x, Section))
        if not secs:
            return None
        return Chapter(secs[0].number.split(".")[0], None, (), secs, secs[0].pos)

    def preamble(self, c):
        return ("preamble", tuple(PreambleLine("heading" if t.type == "PRE_HEADING" else "text",
                                               t.value, _pos(t)) for t in c))

    def annex(self, c):
        return ("annex", " ".join(t.value for t in c))


# ---------------------------------------------------------------------- entry points

MISDECODED_SECTION_SIGN = "\u0e22\u0e07"  # "§" (C2 A7) read as TIS-620: "ยง"


def _iso(date_text: str) -> Optional[str]:
    try:
        return datetime.strptime(date_text, "%B %d, %Y").date().isoformat()
    except ValueError:
        return None


NO_RULE_TEXT = ("no rule text on this page: {what} (the Annex with the regulation text is not here; "
                "find the page that continues it)")


def _grammar_for(tokens) -> str:
    heads = sum(1 for t in tokens if t.type == "SECTION_HEAD")
    if any(t.type in ("CHAPTER_HEAD", "PRE_HEADING", "PRE_TEXT", "ANNEX") for t in tokens) or heads > 1:
        return "bulletin.lark"
    return "pacode.lark"


def _site_chapter_as_head(tokens) -> list:
    """A third-party chapter page ("Chapter 661a. Three Dice Football |" and a list of its
    sections) is read as a chapter heading with its "Sec." list."""
    if not any(t.type == "SEC_LIST" for t in tokens) or any(t.type == "CHAPTER_HEAD" for t in tokens):
        return tokens
    out = []
    for t in tokens:
        if t.type == "SITE_CHAPTER":
            m = re.match(r"Chapter (\S+?)(?: -|\.) (.*?)\s*\|?$", t.value)
            t = Token.new_borrow_pos("CHAPTER_HEAD", f"CHAPTER {m.group(1)}. {m.group(2)}", t)
        out.append(t)
    return out


def parse_text(text: str, path: str = "<input>", strict: bool = False, version: str = "new") -> Document:
    """Read a page.  ``strict``: stop at the first thing that cannot be read (an error
    with its position); otherwise every such thing is a ``Notice`` of kind "unread" in
    ``Document.notices`` and the rest is read."""
    # CRLF line ends read as LF: every line and column stays what it is in the file
    text, marks = _amended(text.replace("\r\n", "\n"), version)
    lexed, tokens, fragment, has_rules = _tokens_of(text, path, strict)
    gname = _grammar_for(tokens)
    builder = _Build(path, strict, text)
    result, tokens = _parse_tokens(gname, tokens, builder, path, strict)
    preamble, annex, chapters = _parts(result, gname)
    fragments = ()
    if fragment:
        fragments = tuple(s for ch in chapters for s in ch.sections)
        chapters = []
    chapters = _resolve(tuple(chapters))

    # furniture, notes, metadata
    have = _index(chapters)
    sections = {s.number for ch in chapters for s in ch.sections}
    furniture, source_cite, date, history, title_no = _furniture(lexed.furniture, have, sections)
    affects = affected_chapters([f.text for f in lexed.furniture if f.kind in ("affects", "doc_title")])
    notices, cut = _notices(lexed, builder.problems, marks, tokens, text, chapters)
    if lexed.format == "code" and not fragment:
        source_cite = _code_cite(text, chapters, title_no, notices)
    if fragment:
        notices.append(Notice("fragment", "the page starts mid-section: no section heading above line "
                              f"{tokens[1].line}; its text is read as a fragment of a section it does not name "
                              "(Document.fragments), not as a chapter", Pos(tokens[1].line, tokens[1].column)))
        source_cite = None
    elif not chapters and not has_rules:
        what = f"{source_cite or 'this Bulletin document'} prints its preamble only"
        if affects:
            what += f" (it amends Chapters {', '.join(affects)})"
        last = preamble[-1].pos if preamble else Pos(1, 1)
        notices.append(Notice("no_rule_text", NO_RULE_TEXT.format(what=what), last))
    if preamble:
        preamble = tuple(replace(p, refs=_resolve_refs(_refs(p.text, "", (), p.pos), have, sections))
                         for p in preamble)
    return Document(path, lexed.format, source_cite, date, tuple(preamble), annex, tuple(chapters),
                    tuple(furniture), tuple(sorted(notices, key=lambda n: (n.pos.line, n.pos.column))),
                    tuple(history), tuple(affects),
                    cut.pos if cut is not None and cut.kind == "cut" else None, tuple(fragments))


def _amended(text: str, version: str) -> tuple[str, list[Notice]]:
    """A Bulletin amendment printed with its markup: read as it reads after the amendment (or
    before: version="old"); every marked change is a note with its line. (text read, notes)"""
    marks: list[Notice] = []
    if not has_markup(text):
        return text, marks
    bold_lost = "**" not in text
    for ch in amendment_changes(text):
        what = (f"renumbered {ch['old']} -> {ch['new']}" if ch["change"] == "renumbered"
                else f"{ch['change']}: {ch.get('old') or ch.get('new')}")
        marks.append(Notice("amendment", f"amendment markup: {what}", Pos(ch["line"], 1)))
    if bold_lost:
        marks.append(Notice("amendment", "amendment markup from a text capture: deletions are in brackets, "
                            "but the bold of the additions is lost, so the text before the amendment "
                            "cannot be told apart from what it added", Pos(1, 1)))
    old_text, new_text = versions(text)
    return (old_text if version == "old" else new_text), marks


def _tokens_of(text: str, path: str, strict: bool):
    """The page lexed, and its tokens for the grammar: (lex result, tokens, whether the page is a
    fragment of a section, whether it holds rule text). A page with no regulation text is an error."""
    lexed = lex(text, path)
    refused = [p for p in lexed.problems if p[0] == "refused"]
    if strict and refused:
        raise TextError(refused[0][1], path, refused[0][2], refused[0][3])
    tokens = _site_chapter_as_head(lexed.tokens)
    fragment = False
    if lexed.fragment and not any(t.type in ("SECTION_HEAD", "SITE_SECTION", "SEC_ENTRY") for t in tokens) \
            and any(t.type in ("LABEL", "TABLE_HEAD") for t in tokens):
        first = tokens[0]
        tokens = [Token.new_borrow_pos("SECTION_HEAD", "§ ?.?. Fragment.", first)] + tokens
        fragment = True
    has_rules = any(t.type in ("SECTION_HEAD", "SITE_SECTION", "SEC_ENTRY") for t in tokens)
    has_preamble = any(t.type in ("PRE_HEADING", "PRE_TEXT") for t in tokens)
    if not has_rules and not (lexed.format == "bulletin" and has_preamble):
        raise TextError("no regulation text found (no section heading such as '§ 567.1. Definitions.', "
                        "no chapter's list of sections, no Bulletin preamble) in this "
                        + layout_name(lexed.furniture, lexed.format, lexed.layouts), path, 1, 1)
    return lexed, tokens, fragment, has_rules


def _parse_tokens(gname: str, tokens: list, builder: _Build, path: str, strict: bool):
    """The tokens parsed with the grammar ``gname`` and built into the model: (the built tree, the
    tokens read). Not strict, a token the grammar does not expect is left out and reported (at most
    200), never dropped silently."""
    skipped: list[Notice] = []
    try:
        while True:
            try:
                tree = grammar(gname).parse(tokens)
                break
            except UnexpectedInput as exc:
                tok = getattr(exc, "token", None)
                line = getattr(tok, "line", None) or getattr(exc, "line", 1) or 1
                col = getattr(tok, "column", None) or getattr(exc, "column", 1) or 1
                what = getattr(tok, "type", "end of input")
                expected = sorted(getattr(exc, "expected", []) or [])
                message = (f"unexpected {_describe(what)} here"
                           + (f" (expected {', '.join(_describe(e) for e in expected[:4])})" if expected else ""))
                k = next((i for i, x in enumerate(tokens) if x is tok), None)
                if strict or k is None or len(skipped) >= 200:
                    raise TextError(message, path, line, col) from None
                # read on without it: the line is reported, never dropped silently
                skipped.append(Notice("unread", f"{message}: not read", Pos(line, col), str(tok.value)))
                tokens = tokens[:k] + tokens[k + 1:]
        result = builder.transform(tree)
        builder.problems.extend(skipped)
    except VisitError as exc:
        if isinstance(exc.orig_exc, TextError):
            raise exc.orig_exc from None
        raise
    return result, tokens


def _parts(result, gname: str) -> tuple[tuple, Optional[str], list[Chapter]]:
    """(preamble, Annex, chapters) of the built tree; a Code page is one section of its chapter."""
    preamble, annex, chapters = (), None, []
    if gname == "bulletin.lark":
        for x in result.children:
            if isinstance(x, tuple) and x[0] == "preamble":
                preamble = x[1]
            elif isinstance(x, tuple) and x[0] == "annex":
                annex = x[1]
            elif isinstance(x, Chapter):
                chapters.append(x)
    else:
        site_ch = [t for t in result.children if getattr(t, "type", None) == "SITE_CHAPTER"]
        sec = [x for x in result.children if isinstance(x, Section)][0]
        number = sec.number.split(".")[0]
        title = None
        if site_ch:
            m = re.match(r"Chapter (\S+?)(?: -|\.) (.*?)\s*\|?$", site_ch[0].value)
            number, title = m.group(1), m.group(2).strip()
        chapters.append(Chapter(number, title, (), (sec,), sec.pos))
    return preamble, annex, chapters


def _furniture(lexed_furniture, have, sections: set[str]):
    """The page's furniture with the citations it makes resolved, and what it tells of the page:
    (furniture, source citation, date, history of the source notes, the Title's number)."""
    furniture = []
    source_cite, date = None, None
    history: list[SourceEvent] = []
    title_no = None
    for f in lexed_furniture:
        text_f = f.text.replace(MISDECODED_SECTION_SIGN, "§")
        refs = ()
        if f.kind in ("cited_in", "universal_citation", "cross_references", "page_title"):
            refs = _resolve_refs(_refs(text_f, "", (), Pos(f.line, f.column)), have, sections)
        furniture.append(FurnitureItem(f.kind, f.text, Pos(f.line, f.column), refs))
        if f.kind in ("page_cite", "doc_title") and source_cite is None:
            m = re.search(r"\[(\d+) Pa\.B\. (\d+)\]", f.text)
            source_cite = f"{m.group(1)} Pa.B. {m.group(2)}"
        if f.kind == "date" and date is None:
            date = _iso(f.text.strip("[]").split(", ", 1)[1])
        if f.kind in ("current_through", "code_currency", "site_header") and date is None:
            m = re.search(r"([A-Z][a-z]+ \d{1,2}, \d{4})", f.text)
            if m:
                date = _iso(m.group(1))
        if f.kind in ("page_title", "universal_citation", "site_title") and title_no is None:
            m = re.match(r"(?:Universal Citation: |Title )?(\d+)(?: PA| Pa\.| -|\.)", f.text)
            if m:
                title_no = m.group(1)
        if f.kind in ("source", "notation"):
            history.extend(source_events(text_f, Pos(f.line, f.column)))
    return furniture, source_cite, date, history, title_no


def _notices(lexed, problems: list[Notice], marks: list[Notice], tokens, text: str, chapters) -> tuple[list, object]:
    """What the parser and the lexer noted (an unread thing with the page's layout), the cut of a page
    cut short and the lists it omits: (notices, the cut or None)."""
    layout = layout_name(lexed.furniture, lexed.format, lexed.layouts)
    notices: list[Notice] = [replace(n, message=f"{n.message} (page layout: {layout})") if n.kind == "unread" else n
                             for n in problems] + marks
    for kind, msg, line, col, txt in lexed.problems:
        if kind != "cut":
            notices.append(Notice(kind, msg, Pos(line, col), txt))
    cut = last_text_cut(tokens, lexed.furniture, lexed.problems, text, lexed.format)
    if cut is not None:
        # an incomplete last row or provision is the cut, not something unread
        notices = [n for n in notices if n.pos.line != cut.pos.line]
        notices.append(cut)
    notices.extend(omitted_lists(chapters, cut.pos if cut is not None and cut.kind == "cut" else None))
    return notices, cut


def _code_cite(text: str, chapters, title_no: Optional[str], notices: list[Notice]) -> str:
    """A Code page's citation: its Title when the page names it (its title line, its Universal
    Citation, a "58 Pa. Code" citation in its notes), else 58 for Part VII's chapter numbers (said in a
    notice), never another invented; then its one section, its one chapter, or the Code alone."""
    if title_no is None:
        m = re.search(r"\b(\d+) Pa\. Code\b", text)
        title_no = m.group(1) if m else None
    if title_no is None and chapters:
        lead = re.match(r"\d+", chapters[0].number)
        if lead and int(lead.group(0)) >= 401:
            title_no = "58"
            notices.append(Notice("assumed", "the page does not print its Title: 58 Pa. Code taken from the "
                                  f"chapter number ({chapters[0].number}: Part VII, Chapters 401a and up)",
                                  chapters[0].pos))
    code = f"{title_no} Pa. Code" if title_no else "Pa. Code"
    secs = [s for ch in chapters for s in ch.sections]
    if len(secs) == 1:
        return f"{code} {secs[0].cite}"
    if len(chapters) == 1:
        return f"{code} Chapter {chapters[0].number}"
    return code


def _describe(tok_type: str) -> str:
    return {
        "LABEL": "label", "SECTION_HEAD": "section heading", "CHAPTER_HEAD": "chapter heading",
        "TEXT": "text", "UTEXT": "text", "TERM": "definition", "TABLE_HEAD": "paytable",
        "HAND": "paytable row", "CELL": "payout", "COLUMN": "paytable column", "$END": "end of input",
        "SEC_LIST": "'Sec.' list", "SEC_ENTRY": "'Sec.' entry", "ELISION": "'* * * * *'",
        "CAPTION": "caption", "ANNEX": "'Annex'", "PRE_TEXT": "preamble text",
        "PRE_HEADING": "preamble heading", "SITE_CHAPTER": "site chapter header",
        "SITE_SECTION": "site section header", "GROUP": "paytable group line", "GROUP_MEMBER": "paytable row",
    }.get(tok_type, tok_type)


def parse_file(path: str | Path, strict: bool = False, version: str = "new") -> Document:
    data = read_input(path)  # at most MAX_INPUT_BYTES: /dev/zero is refused at once
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise TextError("not UTF-8 text", str(path), line, col) from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark is not part of the page
    if text.lstrip()[:1] == "<" and re.search(r"<(?:html|body|p|div|b)\b", text[:5000], re.I):
        text = html_to_text(text)
    return parse_text(text, str(path), strict, version)
