"""``rulespec migrate``'s rule for the facts lint (``untie_facts`` in schemas/format-changes.yaml).

A rulespec written before compiler/lint/facts.py tied the data's numbers to the provision text may
give values its text does not state (a default, a bound the text leaves open); the lint makes each
an error unless it is declared in ``untied``. The rule declares every such value of the data, with a
why that says so and asks for a review, appending to the spec's ``untied`` list or adding one before
``provisions`` (or at the end). Wager names (a warning only) and the numbers of the text that no data
states (a warning without ``text_coverage: complete``) are left as they are.
"""
from __future__ import annotations

from typing import Any

import yaml

from compiler.spec.loader import Document
from compiler.spec.migrate import Change, Edit, Note, append_items, insert_member, newline, node_at, yaml_scalar

from .facts import _show, analyse

__all__ = ["UntieFacts"]

_BREAKS = "\r\n\x85\u2028\u2029"


def _line_start(text: str, i: int) -> int:
    while i > 0 and text[i - 1] not in _BREAKS:
        i -= 1
    return i


class UntieFacts:
    def __init__(self, change: Change):
        self.change = change

    def apply(self, doc: Document, root: Any) -> tuple[list[Edit], list[Note]]:
        if not isinstance(doc.data, dict) or not isinstance(root, yaml.MappingNode):
            return [], []
        res = analyse(doc.data)
        by_pointer: dict[str, list] = {}
        for f, cands in res.missing:
            if f.kind != "name":
                by_pointer.setdefault(f.pointer, []).append((f, cands))
        items, notes = [], []
        for ptr, found in by_pointer.items():
            f, cands = found[0]
            exact = {c.format() for c in f.cites}
            main = next((x for x in cands if x.cite in exact), cands[0])
            what = {"odds": "odds", "amount": "amount", "fraction": "fraction"}.get(f.kind, "number")
            values = ", ".join(dict.fromkeys(repr(_show(g)) for g, _ in found))
            why = (f"the text of {main.cite} does not state {values}; declared by rulespec migrate for a rulespec "
                   "written before the facts lint: review (say what the text leaves open, or make the data and the "
                   "text agree)")
            items.append("{at: " + yaml_scalar(ptr) + ", why: " + yaml_scalar(why) + "}")
            line, col = doc.position(ptr)
            notes.append(Note(line, col, ptr, f"declared in 'untied': the data gives {what}{'s' if len(found) > 1 else ''} {values} for "
                                              f"{f.cite_text}, which the text of {main.cite} does not state; "
                                              f"{self.change.why}"))
        if not items:
            return [], []
        text, nl = doc.text, newline(doc.text)
        if "untied" in doc.data:
            seq, _ = node_at(root, "/untied")
            if not isinstance(seq, yaml.SequenceNode):
                return [], []
            return [append_items(text, seq, items)], notes
        if root.flow_style:
            return [insert_member(text, root, "untied", "[" + ", ".join(items) + "]")], notes
        indent = root.value[0][0].start_mark.column
        pad = " " * indent
        block = (f"{pad}# data values the provision text does not state (declared by rulespec migrate: review each "
                 f"why){nl}{pad}untied:{nl}" + "".join(f"{pad}  - {it}{nl}" for it in items))
        prov = next((k for k, _ in root.value if getattr(k, "value", None) == "provisions"), None)
        if prov is None:  # at the end of the document
            end = len(text.rstrip(" \t" + _BREAKS))
            return [Edit(end, end, nl + nl + block.rstrip(_BREAKS))], notes
        # before 'provisions' and the comment lines just above it (they belong to it)
        pos = _line_start(text, prov.start_mark.index)
        while pos > 0:
            prev = _line_start(text, pos - 1)
            if not text[prev:pos].strip().startswith("#"):
                break
            pos = prev
        return [Edit(pos, pos, block + nl)], notes
