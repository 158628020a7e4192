"""``rulespec diff OLD NEW``: compare two versions of a chapter (or of one section).

Either side may be a Bulletin page, a Code page or a rulespec YAML.  Provisions are
matched by citation; renumbering and moves are found by text similarity; inside an
amended provision the changes are word by word; typography alone (quotes, '' vs ",
dashes, the mis-decoded section sign, line wrapping) is "no substantive change"; tables
are compared cell by cell (row = hand, column = paytable).  Two rulespecs are also
compared path by path over their ``paytables``, ``options``, ``cards`` and ``wagers``.
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Optional

from .errors import TextError
from .flat import FlatItem, TableData, flatten_document, flatten_spec, normalize
# the parts of ``rulespec diff``, importable from here as before
from .diff_amendment import format_amendment  # noqa: F401
from .diff_data import data_diff
from .diff_format import _words_text, format_html, format_json, format_text, to_dict  # noqa: F401
from .diff_model import (CUT_NOTE, DATA_KEYS, ELIDED_NOTE, KINDS, NOT_SUBSTANTIVE, ChapterDiff, Change,  # noqa: F401
                         DiffResult, Side, _skey)
from compiler.text.parser import parse_file
from compiler.text.render import load_spec

# ------------------------------------------------------------------------ loading

def load_side(path: str) -> Side:
    p = Path(path)
    if p.suffix in (".yaml", ".yml"):
        spec = load_spec(path)
        items = flatten_spec(spec)
        ch = str(spec["chapter"])
        src = spec.get("source") or {}
        return Side(path, "spec", {ch: items}, {ch: spec.get("completeness") == "complete"},
                    {ch: {it.section: it.text for it in items if it.kind == "heading"}}, spec,
                    date=src.get("date"), cite=src.get("citation"))

    doc = parse_file(path)
    return side_of_document(doc, path)


def side_of_document(doc, path: str) -> Side:
    chapters, complete, headings, cut = {}, {}, {}, {}
    for ch in doc.chapters:
        items = flatten_document(doc, ch.number)
        chapters[ch.number] = items
        complete[ch.number] = ch.complete and doc.cut is None
        headings[ch.number] = {it.section: it.text for it in items if it.kind == "heading"}
        if doc.cut is not None:
            body = [it for it in items if it.kind not in ("heading", "elided")]
            if body:
                cut[ch.number] = body[-1].key
    why = next((n.message.replace("page cut short: ", "", 1) for n in doc.notices if n.kind == "cut"), None)
    if why is not None:
        why = f"line {doc.cut.line}: {why}"
    return Side(path, doc.format, chapters, complete, headings, cut=cut, date=doc.date, cite=doc.source_cite,
                cut_why=why)


def diff_files(old: str, new: str, chapter: Optional[str] = None) -> DiffResult:
    a, b = load_side(old), load_side(new)
    if chapter:
        for side in (a, b):
            if chapter not in side.chapters:
                raise TextError(f"chapter {chapter} is not in this file (it has: {', '.join(side.chapters)})",
                                side.path)
        common = [chapter]
    else:
        common = [c for c in a.chapters if c in b.chapters]
        if not common:
            raise TextError(f"no chapter in common: {old} has {', '.join(a.chapters)}, "
                            f"{new} has {', '.join(b.chapters)}", new)
    return DiffResult(old, new, [diff_chapter(a, b, ch) for ch in common])


# ------------------------------------------------------------------------ matching

def _words(text: str) -> list[str]:
    return normalize(text).split()


def _sim(a: FlatItem, b: FlatItem) -> float:
    wa, wb = _words(a.text), _words(b.text)
    if not wa and not wb:
        return 1.0
    sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    if sm.real_quick_ratio() < 0.5 or sm.quick_ratio() < 0.5:
        return sm.quick_ratio() * 0.9
    return sm.ratio()


def _tables_equal(a: list[TableData], b: list[TableData]) -> bool:
    return [(t.columns, t.rows, normalize(t.caption or "")) for t in a] == \
           [(t.columns, t.rows, normalize(t.caption or "")) for t in b]


def _scope(a: Side, b: Side, ch: str) -> tuple[set[str], Optional[str]]:
    sa = {it.section for it in a.chapters[ch]}
    sb = {it.section for it in b.chapters[ch]}
    if sa == sb:
        return sa, None
    pa, pb = not a.complete[ch], not b.complete[ch]
    if pa and not pb or (pa and pb and sa < sb):
        small, other, which = sa, sb, "OLD"
    elif pb and not pa or (pa and pb and sb < sa):
        small, other, which = sb, sa, "NEW"
    else:
        return sa | sb, None
    shown = ", ".join(f"§ {s}" for s in sorted(small, key=_skey))
    return small, (f"{shown} only: {which} holds {len(small)} of the {len(other | small)} sections of "
                   f"chapter {ch} compared; the other sections are not compared")


def diff_chapter(a: Side, b: Side, ch: str) -> ChapterDiff:
    scope, note = _scope(a, b, ch)
    old = [it for it in a.chapters[ch] if it.section in scope]
    new = [it for it in b.chapters[ch] if it.section in scope]
    changes = _heading_changes(old, new)
    O = [it for it in old if it.kind not in ("heading", "elided")]
    N = [it for it in new if it.kind not in ("heading", "elided")]
    cut_keys = {k for k in (a.cut.get(ch), b.cut.get(ch)) if k is not None}
    match = _match(O, N, cut_keys)
    body = _in_order(old, new, O, N, match)
    changes.extend(_apply_cuts(body, a, b, ch, O, N))
    cd = ChapterDiff(ch, note, changes, old_items=old, new_items=new)
    if a.spec is not None and b.spec is not None:
        cd.data = data_diff(a.spec, b.spec)
    return cd


def _heading_changes(old: list[FlatItem], new: list[FlatItem]) -> list[Change]:
    """Headings: a section added, removed or retitled (in section order)."""
    changes: list[Change] = []
    oh = {it.section: it for it in old if it.kind == "heading"}
    nh = {it.section: it for it in new if it.kind == "heading"}
    for sec in sorted(set(oh) | set(nh), key=_skey):
        o, n = oh.get(sec), nh.get(sec)
        if o and n:
            changes.append(_classify(o, n, heading=True))
        elif o:
            changes.append(Change("removed", o.cite, None, o.text, None, section=sec))
        else:
            changes.append(Change("added", None, n.cite, None, n.text, section=sec))
    return changes


def _match(O: list[FlatItem], N: list[FlatItem], cut_keys: set) -> dict[int, int]:
    """Each old provision's new one, by index: {i in O: j in N}. Same citation and text first,
    then the same text elsewhere, then similar text (see the passes)."""
    match: dict[int, int] = {}
    used: set[int] = set()
    nkey = {it.key: j for j, it in enumerate(N)}
    # the provision a cut page stops in is compared with the same citation only: its printed start
    # never pairs, by likeness, with another provision of the other version
    for i, it in enumerate(O):
        j = nkey.get(it.key)
        if it.key in cut_keys and j is not None:
            match[i] = j
            used.add(j)
    cut_o = {i for i, it in enumerate(O) if it.key in cut_keys}
    cut_n = {j for j, it in enumerate(N) if it.key in cut_keys}
    _match_same_text(O, N, nkey, cut_o, cut_n, match, used)
    _match_similar_text(O, N, nkey, cut_o, cut_n, match, used)
    return match


def _match_same_text(O, N, nkey: dict, cut_o: set, cut_n: set, match: dict[int, int], used: set[int]) -> None:
    """Passes A (same citation, same text) and B (same text elsewhere: renumbered or moved)."""
    norm_o = [normalize(it.full_text) for it in O]
    norm_n = [normalize(it.full_text) for it in N]
    # A: same citation, same text
    for i, it in enumerate(O):
        if i in match:
            continue
        j = nkey.get(it.key)
        if j is not None and j not in used and norm_o[i] == norm_n[j] and _tables_equal(it.tables, N[j].tables):
            match[i] = j
            used.add(j)
    # B: same text elsewhere (renumbered / moved), same section first
    by_text: dict[str, list[int]] = {}
    for j, t in enumerate(norm_n):
        by_text.setdefault(t, []).append(j)
    for i, it in enumerate(O):
        if i in match or not norm_o[i] or i in cut_o:
            continue
        cands = [j for j in by_text.get(norm_o[i], []) if j not in used and N[j].kind == it.kind and j not in cut_n]
        if cands:
            cands.sort(key=lambda j: (N[j].section != it.section, abs(j - i)))
            match[i] = cands[0]
            used.add(cands[0])


def _match_similar_text(O, N, nkey: dict, cut_o: set, cut_n: set, match: dict[int, int], used: set[int]) -> None:
    """Passes C (same citation, similar text: amended), D (similar text elsewhere: renumbered or
    moved and amended) and C' (same citation, whatever is left: heavily amended)."""
    # C: same citation, similar text (amended)
    for i, it in enumerate(O):
        if i in match:
            continue
        j = nkey.get(it.key)
        if j is not None and j not in used and (_sim(it, N[j]) >= 0.5 or _tables_equal(it.tables, N[j].tables)
                                                and it.tables):
            match[i] = j
            used.add(j)
    # D: similar text elsewhere (renumbered or moved and amended)
    rest_o = [i for i in range(len(O)) if i not in match and i not in cut_o]
    rest_n = [j for j in range(len(N)) if j not in used and j not in cut_n]
    pairs = []
    for i in rest_o:
        for j in rest_n:
            if O[i].kind != N[j].kind:
                continue
            s = _sim(O[i], N[j])
            if s >= 0.6:
                pairs.append((s + (0.05 if O[i].section == N[j].section else 0), i, j))
    for s, i, j in sorted(pairs, reverse=True):
        if i in match or j in used:
            continue
        match[i] = j
        used.add(j)
    # C': same citation, whatever is left (heavily amended)
    for i, it in enumerate(O):
        if i in match:
            continue
        j = nkey.get(it.key)
        if j is not None and j not in used and _sim(it, N[j]) >= 0.3:
            match[i] = j
            used.add(j)


def _in_order(old: list[FlatItem], new: list[FlatItem], O: list[FlatItem], N: list[FlatItem],
              match: dict[int, int]) -> list[Change]:
    """The changes of the provisions in the order of the new text; removed provisions where they
    stood, the elision markers of both sides where they are printed."""
    inv = {j: i for i, j in match.items()}
    markers, elided_old, elided_new = _elisions(old, new, N)
    key_map = {O[i].key: N[j].key for i, j in match.items()}
    # report in the order of the new text; removed provisions where they stood
    emitted_removed: set[int] = set()
    body: list[Change] = []
    for j, n in enumerate(N):
        body.extend(markers.pop(j, ()))
        i = inv.get(j)
        if i is None and n.section in elided_old:  # OLD prints * * * * * here: base text, not compared
            body.append(Change("elided", None, n.cite, None, n.full_text, section=n.section))
            continue
        if i is None:
            body.append(Change("added", None, n.cite, None, n.full_text, cells=_table_cells([], n.tables),
                               section=n.section, new_tables=list(n.tables)))
            continue
        # removed ones that stood before this old provision
        for k in range(i):
            if k not in match and k not in emitted_removed:
                emitted_removed.add(k)
                body.append(Change("elided" if O[k].section in elided_new else "removed", O[k].cite, None,
                                   O[k].full_text, None, section=O[k].section))
        o = O[i]
        c = _classify(o, n)
        if o.key != n.key:
            moved_with_parent = o.label == n.label and o.parent is not None and key_map.get(o.parent) == n.parent \
                and o.parent != n.parent
            if not moved_with_parent:
                same_parent = (key_map.get(o.parent, o.parent) == n.parent) and o.section == n.section
                c.kind = "renumbered" if same_parent else "moved"
                if c.words or c.cells:
                    c.kind += ""  # stays renumbered/moved; words/cells carry the amendment
        body.append(c)
    for rest in markers.values():
        body.extend(rest)
    for k in range(len(O)):
        if k not in match and k not in emitted_removed:
            body.append(Change("elided" if O[k].section in elided_new else "removed", O[k].cite, None, O[k].full_text, None, section=O[k].section))
    return body


def _apply_cuts(body: list[Change], a: Side, b: Side, ch: str, O: list[FlatItem], N: list[FlatItem]):
    """A side cut short prints nothing after its cut and only the start of the provision it
    stops in: what it does not print is "cut" (not compared), never removed or added."""
    out = list(body)
    for side, items, theirs, lost in ((b, N, O, "removed"), (a, O, N, "added")):
        key = side.cut.get(ch)
        if key is None:
            continue
        which = "NEW" if side is b else "OLD"
        idx = next((k for k, it in enumerate(items) if it.key == key), None)
        if idx is None:
            continue
        sec = items[idx].section
        # the other side's position of the cut provision
        there = next((k for k, it in enumerate(theirs) if it.key == key), None)
        after = {it.cite for k, it in enumerate(theirs) if it.section == sec and there is not None and k > there}
        cut_text = normalize(items[idx].full_text)
        printed = cut_text.rsplit(" ", 1)[0] if " " in cut_text else cut_text
        # the cut provision too short to be matched by similarity: one change, not added + removed
        mine_kind, other_kind = ("added", "removed") if side is b else ("removed", "added")
        c_mine = next((c for c in out if c.kind == mine_kind
                       and (c.new_cite if side is b else c.old_cite) == items[idx].cite), None)
        c_other = next((c for c in out if c.kind == other_kind
                        and (c.old_cite if side is b else c.new_cite) == items[idx].cite), None)
        if c_mine is not None and c_other is not None:
            full = normalize((c_other.old_text if side is b else c_other.new_text) or "")
            if full.startswith(printed):
                c_mine.kind = "cut"
                if side is b:
                    c_mine.old_cite, c_mine.old_text = c_other.old_cite, c_other.old_text
                else:
                    c_mine.new_cite, c_mine.new_text = c_other.new_cite, c_other.new_text
                out.remove(c_other)
        for c in out:
            mine = c.new_cite if side is b else c.old_cite
            other = c.old_cite if side is b else c.new_cite
            if c.kind == lost and other in after:
                c.kind = "cut"
            elif mine == items[idx].cite and c.kind in ("amended", "renumbered", "moved"):
                full = normalize((c.old_text if side is b else c.new_text) or "")
                if full.startswith(printed):
                    c.kind = "cut"
            if c.kind == "cut" and not c.note:
                c.note = CUT_NOTE.format(side=which, why=side.cut_why or "the page ends mid-text")
    return out


def _elisions(old: list[FlatItem], new: list[FlatItem], N: list[FlatItem]):
    """The ``* * * * *`` of each side, paired section by section in order.

    Returns ({index in N before which to report: [Change]}, sections OLD elides, sections NEW
    elides).  A marker is one Change of kind "elided" (``old_text``/``new_text`` is ``* * * * *``
    on the side(s) that print it); NEW's position is kept, OLD-only ones go to their section's start.
    """
    def per_section(items):
        out: dict[str, list[FlatItem]] = {}
        for it in items:
            if it.kind == "elided":
                out.setdefault(it.section, []).append(it)
        return out

    eo, en = per_section(old), per_section(new)
    pos, seen = {}, 0
    for it in new:
        if it.kind == "elided":
            pos[id(it)] = seen
        elif it.kind != "heading":
            seen += 1
    first = {}
    for j, it in enumerate(N):
        first.setdefault(it.section, j)
    markers: dict[int, list[Change]] = {}
    for sec in sorted(set(eo) | set(en), key=_skey):
        a, b = eo.get(sec, []), en.get(sec, [])
        for k in range(max(len(a), len(b))):
            o = a[k] if k < len(a) else None
            n = b[k] if k < len(b) else None
            at = pos[id(n)] if n is not None else first.get(sec, len(N))
            markers.setdefault(at, []).append(Change(
                "elided", o.cite if o else None, n.cite if n else None, "* * * * *" if o else None,
                "* * * * *" if n else None, section=sec))
    return markers, set(eo), set(en)


def _classify(o: FlatItem, n: FlatItem, heading: bool = False) -> Change:
    cells = _table_cells(o.tables, n.tables)
    if o.full_text == n.full_text and not cells:
        kind = "unchanged"
        words = []
    elif normalize(o.full_text) == normalize(n.full_text) and not cells:
        kind = "no substantive change"
        words = []
    else:
        words = word_diff(o.full_text, n.full_text)
        kind = "amended"
        if not any(w[0] != "equal" for w in words) and not cells:
            kind = "no substantive change"
    return Change(kind, o.cite, n.cite, o.full_text, n.full_text, words, cells, n.section,
                  list(o.tables), list(n.tables))


def word_diff(a: str, b: str) -> list[list]:
    """Word-level opcodes; words equal after typography normalisation count as equal."""
    wa, wb = a.split(), b.split()
    na, nb = [normalize(w) for w in wa], [normalize(w) for w in wb]
    sm = difflib.SequenceMatcher(None, na, nb, autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        out.append([op, " ".join(wa[i1:i2]), " ".join(wb[j1:j2])])
    return out


def _table_cells(a: list[TableData], b: list[TableData]) -> list[dict]:
    out = []
    for k in range(max(len(a), len(b))):
        ta = a[k] if k < len(a) else None
        tb = b[k] if k < len(b) else None
        name = (tb or ta).name or (tb or ta).caption or f"table {k + 1}"
        if ta is None or tb is None:
            out.append({"table": name, "change": "added" if ta is None else "removed"})
            continue
        for col in ta.columns:
            if col not in tb.columns:
                out.append({"table": name, "column": col, "change": "column removed"})
        for col in tb.columns:
            if col not in ta.columns:
                out.append({"table": name, "column": col, "change": "column added"})
        ra, rb = dict(ta.rows), dict(tb.rows)
        for label in list(ra) + [x for x in rb if x not in ra]:
            if label not in rb:
                out.append({"table": name, "hand": label, "change": "row removed", "old": list(ra[label])})
            elif label not in ra:
                out.append({"table": name, "hand": label, "change": "row added", "new": list(rb[label])})
            else:
                for col in tb.columns:
                    if col not in ta.columns:
                        continue
                    x = ra[label][ta.columns.index(col)] if ta.columns.index(col) < len(ra[label]) else None
                    y = rb[label][tb.columns.index(col)] if tb.columns.index(col) < len(rb[label]) else None
                    if x != y:
                        out.append({"table": name, "hand": label, "column": col, "change": "cell",
                                    "old": x, "new": y})
        if [r for r, _ in ta.rows if r in rb] != [r for r, _ in tb.rows if r in ra]:
            out.append({"table": name, "change": "rows reordered"})
    return out
