"""What ``rulespec diff`` finds: the sides compared, the changes by provision, the result."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from .flat import FlatItem

KINDS = ("added", "removed", "amended", "renumbered", "moved", "no substantive change", "unchanged", "elided",
         "cut")
# "elided": text printed as ``* * * * *`` by an amendment (the existing regulation it amends, not in the
# sources), or text of the other side standing where one side prints ``* * * * *``: not compared, never
# reported as added or removed.
# "cut": text a page cut short does not print (after the cut, or the cut provision where what it
# prints agrees with the other side): not compared, never reported as removed or added.
NOT_SUBSTANTIVE = ("unchanged", "no substantive change", "elided", "cut")
CUT_NOTE = "not compared: {side} is cut short here ({why})"
ELIDED_NOTE = "* * * * *: text of the base regulation the amendment leaves unchanged, not in the sources (not compared)"
# the executable parts of a rulespec, compared data path by data path and reported by provision
DATA_KEYS = ("table", "cards", "change_intervals", "rankings", "wagers", "payouts", "paytables", "options",
             "constraints", "meters", "procedure", "irregularities", "house_ways", "requirements")


@dataclass
class Side:
    path: str
    kind: str                      # bulletin | code | spec
    chapters: dict[str, list[FlatItem]]
    complete: dict[str, bool]
    headings: dict[str, dict[str, str]]
    spec: Optional[dict] = None
    cut: dict[str, str] = field(default_factory=dict)   # chapter -> key of the item a cut page stops in
    cut_why: Optional[str] = None                        # how the page is cut (its extent, as read)
    date: Optional[str] = None
    cite: Optional[str] = None


@dataclass
class Change:
    kind: str
    old_cite: Optional[str]
    new_cite: Optional[str]
    old_text: Optional[str] = None
    new_text: Optional[str] = None
    words: list = field(default_factory=list)       # [op, old, new]
    cells: list = field(default_factory=list)       # table changes: dicts
    section: str = ""
    old_tables: list = field(default_factory=list)  # TableData as printed (for reprinting a changed table)
    new_tables: list = field(default_factory=list)
    note: str = ""

    @property
    def cite(self) -> str:
        if self.old_cite and self.new_cite and self.old_cite != self.new_cite:
            return f"{self.old_cite} -> {self.new_cite}"
        return self.new_cite or self.old_cite or ""


@dataclass
class ChapterDiff:
    chapter: str
    scope: Optional[str]
    changes: list[Change]
    data: list[dict] = field(default_factory=list)
    impact: Optional[list[dict]] = None   # rulespec diff --impact: each wager's figures before -> after
    old_items: list[FlatItem] = field(default_factory=list)
    new_items: list[FlatItem] = field(default_factory=list)

    def summary(self) -> dict[str, int]:
        out = {k: 0 for k in KINDS}
        for c in self.changes:
            out[c.kind] += 1
        return out

    @property
    def substantive(self) -> bool:
        return any(c.kind not in NOT_SUBSTANTIVE for c in self.changes) or bool(self.data)


@dataclass
class DiffResult:
    old: str
    new: str
    chapters: list[ChapterDiff]


def _skey(number: str):
    m = re.match(r"(\d+)([a-z]?)\.(\d+)", number)
    return (int(m.group(1)), m.group(2), int(m.group(3))) if m else (0, "", 0)
