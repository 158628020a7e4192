"""Provision levels decided by the label sequence: (a), (1), (i), (A), (I) nested as the text reads."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from compiler.lang.citations import STYLES, is_first_label, label_index, label_style, label_styles, next_label

from .errors import TextError
from .model import LEVELS, Definition, Pos, Provision, Section
from .crossrefs import _refs


# ------------------------------------------------------------------------ nesting

class _Item:
    __slots__ = ("kind", "label", "text", "pos", "table")

    def __init__(self, kind, label="", text="", pos=Pos(0, 0), table=None):
        self.kind, self.label, self.text, self.pos, self.table = kind, label, text, pos, table


class _Node:
    __slots__ = ("label", "style", "text", "pos", "text_pos", "children", "tables", "after",
                 "elided", "is_def")

    def __init__(self, label, style, text="", pos=Pos(0, 0), text_pos=Pos(0, 0), elided=False, is_def=False):
        self.label, self.style, self.text, self.pos, self.text_pos = label, style, text, pos, text_pos
        self.children, self.tables, self.after = [], [], None
        self.elided, self.is_def = elided, is_def


def _opens_children(text: str) -> bool:
    return text.rstrip().endswith((":", "\u2014"))


def _place(stack: list[_Node], label: str, after_elision: bool) -> tuple[int, str] | None:
    """Where a label goes: (depth of its parent in ``stack`` -- -1 for the section --, style).

    Decided by the sequence: a label either continues an open level (the successor of
    that level's last label) or opens a level below the deepest open node (the first
    label of the next style).  ``(i)`` after ``(h)`` continues the subsections; ``(i)``
    after ``(3)`` opens subparagraphs."""
    siblings = []
    for depth in range(len(stack) - 1, -1, -1):
        node = stack[depth]
        if node.is_def or node.elided:
            continue
        if next_label(node.label, node.style) == label:
            siblings.append((depth - 1, node.style))
    child = None
    if stack:
        deepest = stack[-1]
        used = {n.style for n in stack}
        if deepest.is_def:
            style = label_style(label)
            if style and is_first_label(label, style):
                child = (len(stack) - 1, style)
        else:
            i = STYLES.index(deepest.style)
            natural = STYLES[i + 1] if i + 1 < len(STYLES) else None
            if natural and is_first_label(label, natural):
                child = (len(stack) - 1, natural)
            else:
                # an irregular deeper level (e.g. 688a.11(h)(3)(i)(B)(1)): a first label
                # of a style not open on the stack, when no sibling fits
                for style in label_styles(label):
                    if style not in used and is_first_label(label, style):
                        child = (len(stack) - 1, style)
                        break
                # below a clause the Code starts over with (1) (688a.11(h)(3)(i)(B)(1))
                if child is None and label == "1" and len(stack) >= 4 and deepest.style == "ALPHA":
                    child = (len(stack) - 1, "arabic")
    else:
        style = label_style(label)
        if style and (is_first_label(label, style) or after_elision):
            return (-1, style)
        for style in label_styles(label):
            if is_first_label(label, style):
                return (-1, style)
        return None
    if siblings and child:
        return child if _opens_children(stack[-1].text) else siblings[0]
    if siblings:
        return siblings[0]
    if child:
        return child
    if after_elision:
        # "* * * * * (e)": text before the label not reproduced; accept the label at the
        # open level of its style, else at the top
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth].style in label_styles(label):
                return (depth - 1, stack[depth].style)
        style = label_style(label)
        return (-1, style) if style else None
    return None


def _gap(stack: list[_Node], label: str) -> tuple[int, str] | None:
    """A label that skips some (``(c)`` after ``(a)``): a later label of an open level's style."""
    for depth in range(len(stack) - 1, -1, -1):
        node = stack[depth]
        if node.is_def or node.elided:
            continue
        if node.style in label_styles(label):
            a, b = label_index(node.label, node.style), label_index(label, node.style)
            if a is not None and b is not None and b > a:
                return (depth - 1, node.style)
    return None


def _nest(path: str, number: str, heading: str, pos: Pos, items: list[_Item], problem=None,
          gap_ok=None, duplicate=None) -> Section:
    if problem is None:
        def problem(message, p, text=""):
            raise TextError(message, path, p.line, p.column)
    if duplicate is None:
        duplicate = problem
    intro: Optional[str] = None
    intro_pos = pos
    top: list[_Node] = []
    defs: list[_Node] = []
    section_tables = []
    stack: list[_Node] = []
    after_elision = False
    pending_elisions: list[Pos] = []
    last_node: Optional[_Node] = None  # node that received the latest text or table

    for it in items:
        if it.kind == "elision":
            after_elision = True
            pending_elisions.append(it.pos)
            continue
        if it.kind == "def":
            node = _definition(defs, it, number, duplicate)
            stack = [node]
            last_node = node
            continue
        if it.kind == "prov":
            placed = _placed(stack, it, after_elision, number, problem, gap_ok)
            if placed is None:
                continue
            depth, style = placed
            node = _Node(it.label, style, it.text, it.pos, it.table[0])
            parent_list = top if depth < 0 else stack[depth].children
            for epos in pending_elisions:
                parent_list.append(_Node("", style, "", epos, epos, elided=True))
            pending_elisions = []
            after_elision = False
            parent_list.append(node)
            stack = stack[: depth + 1] + [node]
            last_node = node
            continue
        if it.kind == "table":
            if last_node is None:
                section_tables.append(it.table)
            else:
                if last_node.after is not None:
                    problem("a second table after text that follows a table: not read", it.pos)
                    continue
                last_node.tables.append(it.table)
            continue
        if it.kind == "text":
            if last_node is None and intro is None and not section_tables:
                intro, intro_pos = it.text, it.table[0]
            elif last_node is not None and (last_node.tables or last_node.is_def) and last_node.after is None:
                last_node.after = it.text
            elif len(stack) >= 2 and last_node is stack[-1] and not stack[-2].is_def and stack[-2].after is None \
                    and not last_node.tables and it.text[:1].islower():
                # text after a provision's items that goes on with its sentence ("(c) ... draws a third card: (1)
                # ... (5) ...; and stands with a total of 7."): the provision's closing words (``after``), as
                # `rulespec text render` prints them; a capital (a sentence or a label lost by the page) is not read
                stack[-2].after = it.text
                last_node = stack[-2]
                stack = stack[:-1]
            else:
                problem("unlabelled text inside the provisions of a section: not read", it.pos, it.text)
            continue
    for epos in pending_elisions:
        style = stack[0].style if stack and not stack[0].is_def else "alpha"
        top.append(_Node("", style, "", epos, epos, elided=True))
    return _section_of(number, heading, pos, intro, intro_pos, section_tables, defs, top)


def _definition(defs: list[_Node], it: _Item, number: str, duplicate) -> _Node:
    """The node of a defined term, added to ``defs``; a term defined before is reported as a duplicate."""
    first = next((d for d in defs if d.label.casefold() == it.label.casefold()), None)
    if first is not None:
        duplicate(f"duplicate term {it.label!r} in § {number}: first defined at line {first.pos.line}, "
                  "defined again here", it.pos, it.label)
    node = _Node(it.text and "" or "", None, it.text, it.pos, it.table[0], is_def=True)
    node.label = it.label  # the term
    defs.append(node)
    return node


def _placed(stack: list[_Node], it: _Item, after_elision: bool, number: str, problem, gap_ok) -> tuple[int, str] | None:
    """Where a provision's label goes (``_place``; a gap in the labels when ``gap_ok`` takes it), or
    None when it cannot follow the labels before it (reported to ``problem``)."""
    placed = _place(stack, it.label, after_elision)
    if placed is None and stack and gap_ok is not None:
        placed = _gap(stack, it.label)
        if placed is not None:
            gap_ok(f"label ({it.label}) follows ({stack[placed[0] + 1].label}): the labels between "
                   f"are not on the page", it.pos)
    if placed is None:
        where = stack[-1].label if stack else "the start of the section"
        problem(f"label ({it.label}) cannot follow ({where}) in § {number}: not read", it.pos,
                f"({it.label}) {it.text}")
    return placed


def _section_of(number: str, heading: str, pos: Pos, intro: Optional[str], intro_pos: Pos, section_tables: list,
                defs: list[_Node], top: list[_Node]) -> Section:
    """The section frozen from its nodes, with the references of its text."""
    section = Section(number, heading, intro, (), (), tuple(section_tables), (), pos)
    sec_refs = _refs(intro or "", number, (), intro_pos) if intro else ()
    definitions = tuple(
        Definition(d.label, d.text, tuple(_freeze(c, number, (), d.label) for c in d.children),
                   _refs(d.text, number, (), d.text_pos), d.pos)
        for d in defs)
    children = tuple(_freeze(n, number, (), None) for n in top)
    return replace(section, definitions=definitions, children=children, refs=sec_refs)


def _freeze(node: _Node, number: str, parent_path: tuple[str, ...], term: Optional[str]) -> Provision:
    if node.elided:
        return Provision("", LEVELS.get(node.style, "subsection"), f"§ {number}" + "".join(f"({p})" for p in parent_path),
                         "", pos=node.pos, elided=True)
    path = parent_path + (node.label,)
    cite = f"§ {number}" + "".join(f"({p})" for p in path)
    if term:
        cite = f"§ {number} {term}" + "".join(f"({p})" for p in path)
    refs = _refs(node.text, number, path, node.text_pos)
    if node.after:
        refs = refs + _refs(node.after, number, path, node.text_pos)
    return Provision(
        node.label, LEVELS.get(node.style, "subclause") if len(path) < 5 else "subclause", cite, node.text,
        tuple(_freeze(c, number, path, term) for c in node.children),
        tuple(node.tables), node.after, refs, node.pos)
