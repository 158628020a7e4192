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
import html as _html
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

from .errors import TextError
from .flat import FlatItem, TableData, flatten_document, flatten_spec, normalize

KINDS = ("added", "removed", "amended", "renumbered", "moved", "no substantive change", "unchanged", "elided",
         "cut")
# "elided": text printed as ``* * * * *`` by an amendment (the existing regulation it amends, not in the
# sources), or text of the other side standing where one side prints ``* * * * *``: not compared, never
# reported as added or removed.
# "cut": text a page cut short does not print (after the cut, or the cut provision where what it
# prints agrees with the other side): not compared, never reported as removed or added.
NOT_SUBSTANTIVE = ("unchanged", "no substantive change", "elided", "cut")
CUT_NOTE = "not compared: {side} is cut short here (the page ends mid-text)"
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


# ------------------------------------------------------------------------ loading

def load_side(path: str) -> Side:
    p = Path(path)
    if p.suffix in (".yaml", ".yml"):
        from .render import load_spec

        spec = load_spec(path)
        items = flatten_spec(spec)
        ch = str(spec["chapter"])
        src = spec.get("source") or {}
        return Side(path, "spec", {ch: items}, {ch: spec.get("completeness") == "complete"},
                    {ch: {it.section: it.text for it in items if it.kind == "heading"}}, spec,
                    date=src.get("date"), cite=src.get("citation"))
    from .parser import parse_file

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
    return Side(path, doc.format, chapters, complete, headings, cut=cut, date=doc.date, cite=doc.source_cite)


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


def _skey(number: str):
    m = re.match(r"(\d+)([a-z]?)\.(\d+)", number)
    return (int(m.group(1)), m.group(2), int(m.group(3))) if m else (0, "", 0)


def diff_chapter(a: Side, b: Side, ch: str) -> ChapterDiff:
    scope, note = _scope(a, b, ch)
    old = [it for it in a.chapters[ch] if it.section in scope]
    new = [it for it in b.chapters[ch] if it.section in scope]
    changes: list[Change] = []

    # headings: section added / removed / retitled
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

    O = [it for it in old if it.kind not in ("heading", "elided")]
    N = [it for it in new if it.kind not in ("heading", "elided")]
    match: dict[int, int] = {}
    used: set[int] = set()
    nkey = {it.key: j for j, it in enumerate(N)}
    norm_o = [normalize(it.full_text) for it in O]
    norm_n = [normalize(it.full_text) for it in N]

    # A: same citation, same text
    for i, it in enumerate(O):
        j = nkey.get(it.key)
        if j is not None and j not in used and norm_o[i] == norm_n[j] and _tables_equal(it.tables, N[j].tables):
            match[i] = j
            used.add(j)
    # B: same text elsewhere (renumbered / moved), same section first
    by_text: dict[str, list[int]] = {}
    for j, t in enumerate(norm_n):
        by_text.setdefault(t, []).append(j)
    for i, it in enumerate(O):
        if i in match or not norm_o[i]:
            continue
        cands = [j for j in by_text.get(norm_o[i], []) if j not in used and N[j].kind == it.kind]
        if cands:
            cands.sort(key=lambda j: (N[j].section != it.section, abs(j - i)))
            match[i] = cands[0]
            used.add(cands[0])
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
    rest_o = [i for i in range(len(O)) if i not in match]
    rest_n = [j for j in range(len(N)) if j not in used]
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
    changes.extend(_apply_cuts(body, a, b, ch, O, N))
    cd = ChapterDiff(ch, note, changes, old_items=old, new_items=new)
    if a.spec is not None and b.spec is not None:
        cd.data = data_diff(a.spec, b.spec)
    return cd


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
                c.note = CUT_NOTE.format(side=which)
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


# -------------------------------------------------------------- structured data

def _keyed(items: list) -> Optional[dict]:
    keys = []
    for x in items:
        if not isinstance(x, dict):
            return None
        k = x.get("id", x.get("hand", x.get("name")))
        if k is None:
            return None
        keys.append(str(k))
    if len(set(keys)) != len(keys):
        return None
    return dict(zip(keys, items))


def _walk(a: Any, b: Any, path: str, out: list[dict]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            p = f"{path}.{k}" if path else str(k)
            if k not in b:
                out.append({"path": p, "change": "removed", "old": a[k]})
            elif k not in a:
                out.append({"path": p, "change": "added", "new": b[k]})
            else:
                _walk(a[k], b[k], p, out)
        return
    if isinstance(a, list) and isinstance(b, list):
        ka, kb = _keyed(a), _keyed(b)
        if ka is not None and kb is not None:
            _walk(ka, kb, path, out)
            return
        for i in range(max(len(a), len(b))):
            p = f"{path}[{i}]"
            if i >= len(b):
                out.append({"path": p, "change": "removed", "old": a[i]})
            elif i >= len(a):
                out.append({"path": p, "change": "added", "new": b[i]})
            else:
                _walk(a[i], b[i], p, out)
        return
    if a != b:
        out.append({"path": path, "change": "changed", "old": a, "new": b})


def data_diff(a: dict, b: dict) -> list[dict]:
    """Path-by-path comparison of the executable parts of two rulespecs; each change carries the
    provision it implements (the nearest ``cite`` on its path, in the new spec or else the old)
    and the part it belongs to (payouts, paytables, options, procedure, ...)."""
    out: list[dict] = []
    for key in DATA_KEYS:
        if key in a or key in b:
            _walk(a.get(key) or {}, b.get(key) or {}, key, out)
    for d in out:
        d["part"] = d["path"].split(".", 1)[0].split("[", 1)[0]
        d["cite"] = _cite_on_path(b, d["path"]) or _cite_on_path(a, d["path"])
        if d["part"] == "payouts":
            pid = d["path"].split(".")[1] if "." in d["path"] else None
            names = [w.get("name") or wid for wid, w in ((b.get("wagers") or a.get("wagers") or {}).items())
                     if isinstance(w, dict) and w.get("pays") == pid]
            if names:
                d["wagers"] = names
    return out


_PATH_TOKEN = re.compile(r"\.?([^.\[\]]+)|\[([0-9]+)\]")


def _cite_on_path(spec: dict, path: str) -> Optional[str]:
    """The nearest ``cite`` along a data path (``payouts.tie.odds``, ``procedure.settle.rules[0]``)."""
    node: Any = spec
    cite = None
    for m in _PATH_TOKEN.finditer(path):
        key, idx = m.group(1), m.group(2)
        if isinstance(node, dict) and isinstance(node.get("cite"), str):
            cite = node["cite"]
        if idx is not None:
            node = node[int(idx)] if isinstance(node, list) and int(idx) < len(node) else None
        elif isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list):  # a keyed list (ids, hands, names)
            node = (_keyed(node) or {}).get(key)
        else:
            node = None
        if node is None:
            break
    if isinstance(node, dict) and isinstance(node.get("cite"), str):
        cite = node["cite"]
    return cite


# ------------------------------------------------------------------------ output

def _words_text(words: list) -> str:
    parts = []
    for op, old, new in words:
        if op == "equal":
            parts.append(old if len(old) < 80 else old[:30] + " ... " + old[-30:])
        elif op == "delete":
            parts.append(f"[-{old}-]")
        elif op == "insert":
            parts.append(f"{{+{new}+}}")
        else:
            parts.append(f"[-{old}-]{{+{new}+}}")
    return " ".join(p for p in parts if p)


def _cell_text(c: dict) -> str:
    if c["change"] == "cell":
        return f"table {c['table']}: {c['hand']} / {c['column']}: {c['old']} -> {c['new']}"
    bits = [f"table {c['table']}"]
    for k in ("hand", "column"):
        if k in c:
            bits.append(str(c[k]))
    return ": ".join(bits) + f": {c['change']}"


def format_text(result: DiffResult) -> str:
    out = [f"diff {result.old} {result.new}"]
    for cd in result.chapters:
        out.append(f"chapter {cd.chapter}")
        if cd.scope:
            out.append(f"scope: {cd.scope}")
        for c in cd.changes:
            if c.kind == "unchanged":
                continue
            if c.kind == "no substantive change":
                out.append(f"  {c.cite}: no substantive change (typography only)")
                continue
            if c.kind == "cut":
                out.append(f"  {c.cite}: {c.note}")
                continue
            if c.kind == "elided":
                if (c.old_text or c.new_text) == "* * * * *":
                    where = " and ".join(w for w, t in (("OLD", c.old_text), ("NEW", c.new_text)) if t)
                    out.append(f"  {c.cite}: {ELIDED_NOTE.replace('* * * * *:', f'* * * * * in {where}:')}")
                else:
                    where = "OLD" if c.new_text else "NEW"
                    out.append(f"  {c.cite}: elided: {where} prints * * * * * here (base text, not compared): "
                               f"{c.new_text or c.old_text}")
                continue
            if c.kind == "added":
                out.append(f"  {c.cite}: added: {c.new_text}")
            elif c.kind == "removed":
                out.append(f"  {c.cite}: removed: {c.old_text}")
            else:
                out.append(f"  {c.cite}: {c.kind}")
                if any(w[0] != "equal" for w in c.words):
                    out.append(f"      {_words_text(c.words)}")
            for cell in c.cells:
                out.append(f"      {_cell_text(cell)}")
        if cd.data:
            out.append("  executable changes, by provision:")
        for cite, items in _by_provision(cd.data):
            out.append(f"    {cite}:")
            for d in items:
                what = d["path"]
                if d.get("wagers"):
                    what += f" ({', '.join(d['wagers'])})"
                if d["change"] == "changed":
                    out.append(f"      {d['part']}: {what}: {_val(d['old'])} -> {_val(d['new'])}")
                elif d["change"] == "added":
                    out.append(f"      {d['part']}: {what}: added {_val(d['new'])}")
                else:
                    out.append(f"      {d['part']}: {what}: removed {_val(d['old'])}")
        for w in getattr(cd, "impact", None) or ():
            parts = [f"{p['old']} -> {p['new']}" for p in w.get("payouts") or ()]
            parts += [f"{k.replace('_', ' ')} {_pct(w[k]['old'])} -> {_pct(w[k]['new'])}"
                      for k in ("house_edge", "hit_frequency") if w.get(k)]
            out.append(f"  impact {w['name']} [{w['policy']}]: " + "; ".join(parts)
                       + ("" if w.get("changed") else " (unchanged)"))
        s = cd.summary()
        if not cd.substantive:
            out.append("  no substantive change")
        out.append("summary: " + ", ".join(f"{v} {k}" for k, v in s.items()))
    return "\n".join(out) + "\n"


def _by_provision(data: list[dict]) -> list[tuple[str, list[dict]]]:
    groups: dict[str, list[dict]] = {}
    for d in data:
        groups.setdefault(d.get("cite") or "(no citation)", []).append(d)
    return list(groups.items())


def _val(v: Any) -> str:
    if isinstance(v, str):
        return v
    return json.dumps(v, ensure_ascii=False, default=str)


def _pct(v: Optional[str]) -> str:
    if v is None:
        return "none"
    from fractions import Fraction

    f = Fraction(v)
    return f"{float(f * 100):.2f}%"


def to_dict(result: DiffResult) -> dict:
    return {
        "old": result.old,
        "new": result.new,
        "chapters": [{
            "chapter": cd.chapter,
            "scope": cd.scope,
            "substantive": cd.substantive,
            "summary": cd.summary(),
            "changes": [{k: v for k, v in asdict(c).items()} | {"cite": c.cite} for c in cd.changes],
            "data": cd.data,
        } | ({"impact": cd.impact} if getattr(cd, "impact", None) is not None else {})
            for cd in result.chapters],
    }


def format_json(result: DiffResult) -> str:
    return json.dumps(to_dict(result), indent=1, ensure_ascii=False, default=str) + "\n"


def format_html(result: DiffResult) -> str:
    from .render import _env

    chapters = []
    for cd in result.chapters:
        rows = []
        for c in cd.changes:
            if c.kind == "unchanged":
                continue
            segs = []
            if c.kind == "added":
                segs = [("insert", "", c.new_text or "")]
            elif c.kind == "removed":
                segs = [("delete", c.old_text or "", "")]
            else:
                segs = [tuple(w) for w in c.words] or [("equal", c.new_text or "", "")]
            rows.append({"cite": c.cite, "kind": c.kind, "segments": segs,
                         "cells": [_cell_text(x) for x in c.cells]})
        chapters.append({"chapter": cd.chapter, "scope": cd.scope, "rows": rows,
                         "summary": cd.summary(), "substantive": cd.substantive,
                         "data": [f"{d['path']}: {d['change']}" + (f" {d.get('old')!r} -> {d.get('new')!r}"
                                                                   if d["change"] == "changed" else "")
                                  for d in cd.data]})
    return _env(True).get_template("diff.html.jinja").render(old=result.old, new=result.new, chapters=chapters)


def _amendment_sections(result: DiffResult, bold, dele, esc, table_out) -> list[dict]:
    """The changed sections as the Bulletin prints an amendment: each a dict with its
    heading and lines (``* * * * *`` only where unchanged text of that section is left out)."""
    out: list[dict] = []
    for cd in result.chapters:
        by_sec: dict[str, list[Change]] = {}
        for c in cd.changes:
            by_sec.setdefault(c.section, []).append(c)
        headings = {it.section: it.text for it in cd.new_items if it.kind == "heading"}
        headings.update({it.section: it.text for it in cd.old_items
                         if it.kind == "heading" and it.section not in headings})
        for sec in sorted(by_sec, key=_skey):
            cs = by_sec[sec]
            if all(c.kind in NOT_SUBSTANTIVE for c in cs):
                continue
            lines: list = []
            gap = False
            for c in cs:
                if c.old_cite == f"§ {sec}" and c.new_cite == f"§ {sec}" and c.kind in NOT_SUBSTANTIVE \
                        and (c.old_text or "") == headings.get(sec):
                    continue  # the heading itself
                if c.kind in NOT_SUBSTANTIVE:
                    gap = True
                    continue
                if gap:
                    lines.append("* * * * *")
                    gap = False
                label = _label_of(c.new_cite or c.old_cite or "")
                if c.kind == "added":
                    lines.append(bold(f"{label} {c.new_text or ''}".strip()))
                    for tb in c.new_tables:
                        lines.extend(table_out(None, tb))
                elif c.kind == "removed":
                    lines.append(dele(f"{label} {c.old_text or ''}".strip()))
                    for tb in c.old_tables:
                        lines.extend(table_out(tb, None))
                else:
                    old_label = _label_of(c.old_cite or "")
                    head = label if old_label == label else f"{dele(old_label)} {bold(label)}"
                    parts = []
                    for op, old, new in c.words or [["equal", c.new_text or "", ""]]:
                        if op == "equal":
                            parts.append(esc(old))
                        if op in ("delete", "replace") and old:
                            parts.append(dele(old))
                        if op in ("insert", "replace") and new:
                            parts.append(bold(new))
                    lines.append(f"{head} {' '.join(p for p in parts if p)}".strip())
                    if c.cells:
                        # the changed table reprinted as the Bulletin prints it, changes marked in its cells
                        for k in range(max(len(c.old_tables), len(c.new_tables))):
                            lines.extend(table_out(c.old_tables[k] if k < len(c.old_tables) else None,
                                                   c.new_tables[k] if k < len(c.new_tables) else None))
            # "* * * * *" after the last change only when unchanged text of the section follows it
            if gap and lines:
                lines.append("* * * * *")
            out.append({"chapter": cd.chapter, "scope": cd.scope, "section": sec,
                        "heading": headings.get(sec, ""), "lines": lines})
    return out


def _table_rows(old, new, bold, dele, esc) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a table with its changes marked cell by cell."""
    t = new or old
    cols_old = list(old.columns) if old else []
    cols_new = list(new.columns) if new else []
    cols = cols_new + [c for c in cols_old if c not in cols_new]
    head = [esc(t.header)]
    for c in cols:
        if old is None or new is None:
            head.append(esc(c))
        elif c not in cols_old:
            head.append(bold(c))
        elif c not in cols_new:
            head.append(dele(c))
        else:
            head.append(esc(c))
    ro = dict(old.rows) if old else {}
    rn = dict(new.rows) if new else {}
    labels = [r for r, _ in (new.rows if new else ())] + [r for r, _ in (old.rows if old else ()) if r not in rn]
    rows = []
    for lab in labels:
        cells = []
        for c in cols:
            x = ro[lab][cols_old.index(c)] if lab in ro and c in cols_old and cols_old.index(c) < len(ro[lab]) else None
            y = rn[lab][cols_new.index(c)] if lab in rn and c in cols_new and cols_new.index(c) < len(rn[lab]) else None
            if old is None:
                cells.append(esc(y or ""))
            elif new is None:
                cells.append(esc(x or ""))
            elif x == y:
                cells.append(esc(y or ""))
            else:
                cells.append(" ".join(p for p in ((dele(x) if x else ""), (bold(y) if y else "")) if p))
        if old is not None and new is not None and lab not in ro:
            rows.append([bold(lab)] + cells)
        elif old is not None and new is not None and lab not in rn:
            rows.append([dele(lab)] + cells)
        else:
            rows.append([esc(lab)] + cells)
    return head, rows


def format_amendment(result: DiffResult, html: bool = False, as_json: bool = False) -> str:
    """The change as a Bulletin amendment: new text in bold, deleted text in bold
    brackets, ``* * * * *`` for unchanged runs of a section, a changed table reprinted
    with its changed cells marked; "no change" when there is none."""
    esc = _html.escape if html else (lambda s: s)
    bold = (lambda s: f"<b>{esc(s)}</b>") if html else (lambda s: f"**{s}**")
    dele = (lambda s: f"<b>[{esc(s)}]</b>") if html else (lambda s: f"**[{s}]**")

    def table_out(old, new):
        head, rows = _table_rows(old, new, bold, dele, esc)
        t = new or old
        cap = [esc(t.caption)] if t.caption else []
        if html:
            body = "".join(f"<th>{h}</th>" for h in head)
            trs = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
            return cap + [{"html": f"<table><tr>{body}</tr>{trs}</table>"}]
        return cap + [" | ".join(head)] + [" | ".join(r) for r in rows]

    sections = _amendment_sections(result, bold, dele, esc, table_out)
    typography = any(c.kind == "no substantive change" for cd in result.chapters for c in cd.changes)
    data = [d for cd in result.chapters for d in cd.data]
    none_msg = (f"no change: {result.old} and {result.new} read the same"
                + (" (typography only: quotes, dashes, spacing)" if typography else "")
                + (f"; {len(data)} data changes (see rulespec diff without --amendment)" if data else ""))
    if as_json:
        return json.dumps({
            "old": result.old, "new": result.new, "change": bool(sections),
            "message": None if sections else none_msg,
            "scope": [cd.scope for cd in result.chapters if cd.scope],
            "sections": [{"chapter": s["chapter"], "section": s["section"], "heading": s["heading"],
                          "lines": s["lines"]} for s in sections],
        }, indent=1, ensure_ascii=False) + "\n"
    lines: list[str] = []
    for cd in result.chapters:
        if cd.scope:
            lines.append(f"({cd.scope})")
    for s in sections:
        lines.append(f"§ {s['section']}. {esc(s['heading'])}")
        lines.extend(s["lines"])
    if not sections:
        lines.append(esc(none_msg))
    if html:
        body = "\n".join(ln["html"] if isinstance(ln, dict) else f"<p>{ln}</p>" for ln in lines)
        return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
                "<title>Amendment</title>\n</head>\n<body>\n" + body + "\n</body>\n</html>\n")
    return "\n".join(lines) + "\n"


def _label_of(cite: str) -> str:
    m = re.search(r"(\([^()]*\))$", cite)
    return m.group(1) if m else ""
