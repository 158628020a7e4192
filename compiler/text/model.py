"""The provision tree of a parsed Bulletin or Code page: frozen dataclasses with positions."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Iterator, Optional

from .hands import Odds

LEVELS = {
    "alpha": "subsection",
    "arabic": "paragraph",
    "roman": "subparagraph",
    "ALPHA": "clause",
    "ROMAN": "subclause",
}


@dataclass(frozen=True)
class Pos:
    line: int
    column: int


@dataclass(frozen=True)
class CrossRef:
    """A citation found in the text, resolved against the document."""

    text: str                      # as printed: "§ 669a.12(b)—(d)", "subsection (b)(4)"
    targets: tuple[str, ...]       # canonical citations it covers, ranges expanded
    status: tuple[str, ...]        # per target: internal | external | missing
    relating_to: Optional[str]     # the "(relating to ...)" title when given
    pos: Pos

    @property
    def resolved(self) -> bool:
        return all(s == "internal" for s in self.status)

    @property
    def external(self) -> bool:
        return any(s == "external" for s in self.status)


@dataclass(frozen=True)
class Row:
    hand: str          # id
    label: str         # as printed
    pays: tuple[str, ...]
    odds: tuple[Odds, ...]
    pos: Pos
    group: Optional[str] = None   # the group line above it ("Third card drawn:"), as printed
    cells: tuple[Pos, ...] = ()   # where each payout is printed (a span of the page, checked against it)
    doubt: Optional[str] = None   # why a payout of the row is not certain (the import leaves the row out)


@dataclass(frozen=True)
class Table:
    header: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    caption: Optional[str]
    pos: Pos


@dataclass(frozen=True)
class Provision:
    label: str
    level: str
    cite: str              # "§ 670a.11(h)(3)(i)(B)(IV)"
    text: str
    children: tuple["Provision", ...] = ()
    tables: tuple[Table, ...] = ()
    after: Optional[str] = None
    refs: tuple[CrossRef, ...] = ()
    pos: Pos = Pos(0, 0)
    elided: bool = False   # "* * * * *" (label "" then)


@dataclass(frozen=True)
class Definition:
    term: str
    text: str
    children: tuple[Provision, ...] = ()
    refs: tuple[CrossRef, ...] = ()
    pos: Pos = Pos(0, 0)


@dataclass(frozen=True)
class Section:
    number: str            # "669a.12"
    heading: str           # "Payout odds; Envy Bonus; rate of progression."
    text: Optional[str]    # intro text
    definitions: tuple[Definition, ...]
    children: tuple[Provision, ...]
    tables: tuple[Table, ...] = ()
    refs: tuple[CrossRef, ...] = ()
    pos: Pos = Pos(0, 0)

    @property
    def cite(self) -> str:
        return f"§ {self.number}"


@dataclass(frozen=True)
class SecEntry:
    number: str
    heading: str
    pos: Pos


@dataclass(frozen=True)
class Chapter:
    number: str
    title: Optional[str]
    sec_list: tuple[SecEntry, ...]
    sections: tuple[Section, ...]
    pos: Pos = Pos(0, 0)

    def section(self, number: str) -> Optional[Section]:
        for s in self.sections:
            if s.number == number:
                return s
        return None

    @property
    def complete(self) -> bool:
        """Every section of the "Sec." list is here and nothing is elided."""
        if not self.sec_list:
            return False
        have = {s.number for s in self.sections}
        if any(e.number not in have for e in self.sec_list):
            return False
        return not any(p.elided for s in self.sections for p in iter_provisions(s.children))


@dataclass(frozen=True)
class PreambleLine:
    kind: str      # heading | text
    text: str
    pos: Pos
    refs: tuple["CrossRef", ...] = ()


# notices that are errors (``text parse`` exits 1): the rest are notes
ERROR_KINDS = ("unread", "duplicate", "refused")


@dataclass(frozen=True)
class Notice:
    """Something the reader could not read, or a fact about the page it must say
    (page cut short, preamble without rule text), with its position."""

    kind: str      # unread | cut | no_rule_text | ambiguous
    message: str
    pos: Pos
    text: str = ""

    def format(self, path: str) -> str:
        level = "error" if self.kind in ERROR_KINDS else "note"
        return f"{path}:{self.pos.line}:{self.pos.column}: {level}: {self.message}"


@dataclass(frozen=True)
class SourceEvent:
    """One entry of a Code page's Source note, or of a third-party copy's adoption line:
    ``amended August 15, 2014, effective August 16, 2014, 44 Pa.B. 5463``."""

    action: str                  # adopted | amended | added | reserved | renumbered | rescinded | ...
    date: Optional[str]          # ISO date of the action
    effective: Optional[str]     # ISO date it took effect
    expires: Optional[str]       # temporary regulations
    cite: Optional[str]          # "44 Pa.B. 5463" (or "54 Pa.B. (Vol. 54, No. 21)")
    scope: str                   # "§ 605a.1", "Chapter 661a"
    pos: Pos


@dataclass(frozen=True)
class FurnitureItem:
    kind: str
    text: str
    pos: Pos
    refs: tuple[CrossRef, ...] = ()


@dataclass(frozen=True)
class Document:
    path: str
    format: str                       # bulletin | code
    source_cite: Optional[str]        # "45 Pa.B. 4185", "58 Pa. Code § 669a.9"
    date: Optional[str]               # ISO date
    preamble: tuple[PreambleLine, ...]
    annex: Optional[str]
    chapters: tuple[Chapter, ...]
    furniture: tuple[FurnitureItem, ...]
    notices: tuple[Notice, ...] = ()
    history: tuple[SourceEvent, ...] = ()     # from Source notes
    affects: tuple[str, ...] = ()             # chapters a Bulletin document names in its header
    cut: Optional[Pos] = None                 # where a page cut short stops
    fragments: tuple[Section, ...] = ()       # text of an excerpt that starts mid-section (section unknown)

    @property
    def unread(self) -> tuple[Notice, ...]:
        return tuple(n for n in self.notices if n.kind == "unread")

    @property
    def errors(self) -> tuple[Notice, ...]:
        """What makes ``text parse`` fail: text not read, a term defined twice, a table refused."""
        return tuple(n for n in self.notices if n.kind in ERROR_KINDS)

    def chapter(self, number: str) -> Optional[Chapter]:
        for c in self.chapters:
            if c.number == number:
                return c
        return None


def iter_provisions(nodes, ) -> Iterator[Provision]:
    for n in nodes:
        yield n
        yield from iter_provisions(n.children)


def section_provisions(section: Section) -> Iterator[Provision]:
    for d in section.definitions:
        yield from iter_provisions(d.children)
    yield from iter_provisions(section.children)


def to_jsonable(obj: Any) -> Any:
    """Dataclasses to plain dicts (for ``--format json``)."""
    if isinstance(obj, Odds):
        return obj.as_dict()
    if isinstance(obj, CrossRef):
        return {"text": obj.text, "targets": list(obj.targets), "status": list(obj.status),
                "resolved": obj.resolved, "external": obj.external,
                "relating_to": obj.relating_to, "line": obj.pos.line, "column": obj.pos.column}
    if isinstance(obj, Pos):
        return {"line": obj.line, "column": obj.column}
    if is_dataclass(obj):
        out = {}
        for f in fields(obj):
            out[f.name] = to_jsonable(getattr(obj, f.name))
        if isinstance(obj, Section):
            out["cite"] = obj.cite
        return out
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(x) for x in obj]
    return obj
