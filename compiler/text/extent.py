"""A page's extent: where a page cut short stops, recorded when it is read (``Document.cut``).

A page is cut when its last regulation text
* ends mid-sentence or mid-word ("... one of the deal", "dealin");
* ends with a colon or a dash: what it introduces (an item list, a paytable, a definition's text) is
  not on the page;
* ends with "; and" / "; or" / ";": the next item of a list is not on the page;
* ends with a paytable group line ("Third card drawn:"): its rows are not on the page;
* ends at a full sentence or a whole paytable row on a page of a site that prints a footer (the official
  Code site: its disclaimer, or the section's Authority / Source / Cross References notes), with no
  footer after it: what followed is not known.
A page cut inside its furniture (a disclaimer, a note) has whole regulation text ("cut_furniture").
"""
from __future__ import annotations

import re
from typing import Optional

from .model import Notice, Pos

CLOSE = r"[\"\u201d\u2019')\]]*$"
FULL_STOP = re.compile(r"\." + CLOSE)
OPENS = re.compile(r"[:\u2014]" + CLOSE)
LIST_GOES_ON = re.compile(r"(?:;|[;,]\s+(?:and|or))" + CLOSE)
# "and"/"or" ends a text only as the end of a list item ("...; and"), never alone ("a flush or")
TERMINAL = re.compile(r"(?:[.:;\u2014]|[;,]\s+(?:and|or))" + CLOSE)
# what follows the regulation text on a page printed whole
FOOTER_KINDS = {"disclaimer", "authority", "source", "cross_references", "cited_in", "note_heading", "notation",
                "notes_of_decisions", "page_title", "doc_footer", "doc_no", "continued",
                "page_cite"}
TEXT_KINDS = ("TEXT", "UTEXT", "PRE_TEXT", "TERM")
CONTENT_KINDS = TEXT_KINDS + ("PRE_HEADING", "CELL", "HAND", "SEC_ENTRY", "GROUP")


def _prints_footer(furniture, fmt: str, first_line: int) -> bool:
    """Layouts that print something after the text of a whole page: the official Code site and Justia
    (a site header; the disclaimer or the section's notes at the end), pages titled "58 Pa. Code § N" above
    the text (the official page's notes, Casetext's closing "58 Pa. Code" line or notes); a Bulletin
    document ends with its "[Pa.B. Doc. No. ...]" line (or "[Continued on next Web Page]")."""
    return fmt == "bulletin" or any(f.kind in ("code_currency", "site_header")
                                    or f.kind == "page_title" and f.line < first_line for f in furniture)


def last_text_cut(tokens, furniture, problems, text: str, fmt: str = "code") -> Optional[Notice]:
    for kind, msg, line, col, txt in problems:
        if kind == "cut":
            return Notice("cut", msg, Pos(line, col), txt)
    last_tok = None
    for tok in tokens:
        if tok.type in CONTENT_KINDS and (tok.value or tok.type == "TEXT"):
            last_tok = tok
    if tokens and tokens[-1].type in ("SECTION_HEAD", "SITE_SECTION") \
            and not any(f.line > tokens[-1].line and f.kind in FOOTER_KINDS for f in furniture):
        head = tokens[-1]
        return Notice("cut", f"page cut short: it ends with the heading {head.value[:60]!r}; the section's text is "
                             "not on this page", Pos(head.line, head.column + len(head.value)), head.value)
    last_line = max((i + 1 for i, ln in enumerate(text.split("\n")) if ln.strip()), default=0)
    last_furn = max((f.line for f in furniture), default=0)
    footer = last_tok is not None and any(f.line > last_tok.end_line and f.kind in FOOTER_KINDS for f in furniture)
    if last_tok is not None and not footer and last_tok.end_line >= last_furn:
        # a token of a hard-wrapped page may run over several lines: its end is where the page stops
        at = Pos(last_tok.end_line, last_tok.end_column - (len(last_tok.value) - len(last_tok.value.rstrip())))
        value = last_tok.value.rstrip()
        why = None
        if last_tok.type in TEXT_KINDS:
            if not value:
                why = "the definition's text is not on this page"
            elif not TERMINAL.search(value):
                why = f"the text ends mid-sentence ({value[-30:]!r}); what follows is not on this page"
                if last_tok.end_line != last_line:
                    why = None
            elif OPENS.search(value):
                why = f"the text ends with {value[-1]!r} ({value[-30:]!r}); what it introduces is not on this page"
            elif LIST_GOES_ON.search(value):
                why = f"the text ends with {value[-5:].strip()!r}: the next item of its list is not on this page"
        elif last_tok.type == "GROUP":
            why = f"the page ends with the paytable line {value!r}: the rows under it are not on this page"
        first = next(t.line for t in tokens if t.type in CONTENT_KINDS)
        # (a Bulletin page's Annex may be followed by the next web page of the document: only its
        # preamble is held to the document's closing line)
        if why is None and last_tok.type != "SEC_ENTRY" and _prints_footer(furniture, fmt, first) \
                and (fmt != "bulletin" or last_tok.type in ("PRE_TEXT", "PRE_HEADING")):
            what = "a whole paytable row" if last_tok.type in ("CELL", "HAND") else "a full sentence"
            footer = ("the '[Pa.B. Doc. No. ...]' line that ends a Bulletin document" if fmt == "bulletin"
                      else "the disclaimer or notes its site prints after the text")
            why = f"the page ends at {what} ({value[-30:]!r}) without {footer}: what followed is not known"
        if why is not None:
            return Notice("cut", f"page cut short: {why}", at, value)
    refused = [f for f in furniture if f.kind == "refused_table"]
    if refused and refused[-1].line == last_line and refused[-1].line >= last_furn:
        # the page ends in a paytable that is refused (two side by side): it is cut there, or may be
        f = refused[-1]
        return Notice("cut", "page cut short: it ends in a refused paytable (its last line: "
                             f"{f.text.rstrip()[-30:]!r}); what follows is not known",
                      Pos(f.line, f.column + len(f.text.rstrip())), f.text)
    # cut inside the page furniture (a disclaimer, a note): the regulation text is whole
    for f in furniture:
        if f.line == last_line and f.kind in ("disclaimer", "cited_in", "cross_references") \
                and not TERMINAL.search(f.text.rstrip()):
            return Notice("cut_furniture", f"page cut short in its {f.kind.replace('_', ' ')} note "
                                           f"({f.text.rstrip()[-30:]!r}); the regulation text above is whole",
                          Pos(f.line, f.column + len(f.text.rstrip())), f.text)
    return None


def omitted_lists(chapters, cut: Optional[Pos]) -> list[Notice]:
    """Provisions that end with a colon or dash but are followed by no item, table or text of theirs:
    what they introduce is not on the page (a copy that drops nested lists).  The provision a cut page
    stops in is the cut, not this."""
    from .model import iter_provisions
    out = []
    for ch in chapters:
        for s in ch.sections:
            nodes = [p for d in s.definitions for p in iter_provisions(d.children)] + list(iter_provisions(s.children))
            for p in nodes:
                if p.elided or p.children or p.tables or p.after or not OPENS.search(p.text.rstrip()):
                    continue
                if cut is not None and p.pos.line <= cut.line and p is nodes[-1]:
                    continue
                out.append(Notice("omitted", f"{p.cite} ends with {p.text.rstrip()[-1]!r} but what it introduces is "
                                             "not on this page (the next provision follows it)", p.pos, p.cite))
    return out
