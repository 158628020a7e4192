"""``rulespec history``: follow a chapter through its dated versions.

Given several dated versions of a section or chapter (Bulletin pages, Code pages, third-party
copies, rulespecs), list each provision's versions with the document that made each change
(its Pa.B. citation and effective date when the inputs give them), like eCFR's timeline, and
diff the text in force at any two dates.

* A version holding only some sections (a Code page of one section) speaks for those sections
  only; a page cut short speaks only as far as it prints, and an amendment's ``* * * * *`` leaves
  the text before it in force: the text *in force* at a date is each section's latest reading,
  filled from earlier versions where the latest does not print it.
* Which document made a change: the later version itself when it is a Bulletin amendment;
  else the documents dated between the last version that printed the provision and the first
  that shows the change -- the Source notes of the Code pages given, and the Bulletin pages given
  without rule text (a preamble names the chapters it amends).  One candidate is named as the
  maker; several are listed; none is said so.  Nothing else is inferred.
* Renumbering (temporary 567 became permanent 651a, 535 became 621a) is data:
  ``rulespecs/history/renumbering.yaml``.  Older versions are read under the newer numbers;
  provisions are still matched by text, so a section that went elsewhere is not merged silently.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

import yaml

from .diff import NOT_SUBSTANTIVE, Change, Side, _skey, _words_text, diff_chapter, format_text, DiffResult, \
    ChapterDiff
from compiler.text.diff import load_side, side_of_document
from .errors import TextError, read_input
from .flat import FlatItem
from compiler.text.parser import parse_file

DEFAULT_MAP = Path(__file__).resolve().parents[2] / "rulespecs" / "history" / "renumbering.yaml"


@dataclass
class Version:
    path: str
    date: str
    cite: str
    kind: str                                   # bulletin | code | spec
    items: dict[str, list[FlatItem]]            # section -> items (renumbered), in order
    cut_key: dict[str, str]                     # section -> key of the item a cut page stops in
    elided: set[str]                            # sections printed with * * * * *
    events: list = field(default_factory=list)  # SourceEvent of its notes
    original: dict[str, str] = field(default_factory=dict)  # new section -> section as printed


@dataclass
class Document:
    """A dated document of the inputs without rule text (a Bulletin preamble)."""

    path: str
    date: str
    cite: str
    affects: list[str]


@dataclass
class Entry:
    date: str
    cite: str
    kind: str                      # text | partial | whole | added | amended | removed | renumbered | moved |
    #                                no substantive change ("partial": printed only up to a page's cut;
    #                                "whole": first printed whole after versions cut short in it)
    text: Optional[str]
    change: Optional[Change] = None
    made_by: list[str] = field(default_factory=list)
    between: tuple[str, str] = ("", "")
    effective: Optional[str] = None
    printed_as: Optional[str] = None


# ------------------------------------------------------------------------ renumbering

def load_map(path: Optional[str]) -> list[dict]:
    p = Path(path) if path else DEFAULT_MAP
    if not p.exists():
        if path:
            raise TextError("renumbering file not found", str(p), 1, 1)
        return []
    try:
        data = yaml.safe_load(read_input(p).decode("utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise TextError(f"not YAML: {exc}", str(p), (mark.line + 1) if mark else 1,
                        (mark.column + 1) if mark else 1) from None
    out = []
    for k, m in enumerate(data.get("renumbering") or []):
        if not isinstance(m, dict) or "from" not in m or "to" not in m:
            raise TextError(f"renumbering[{k}]: needs 'from' and 'to' chapters", str(p), 1, 1)
        out.append({"from": str(m["from"]), "to": str(m["to"]),
                    "sections": {str(a): str(b) for a, b in (m.get("sections") or {}).items()}})
    return out


def _map_section(number: str, mapping: list[dict]) -> str:
    for _ in range(len(mapping) + 1):
        ch, _, rest = number.partition(".")
        for m in mapping:
            if number in m["sections"]:
                number = m["sections"][number]
                break
            if ch == m["from"]:
                number = f"{m['to']}.{rest}"
                break
        else:
            return number
    return number


def _map_item(it: FlatItem, old: str, new: str) -> FlatItem:
    if old == new:
        return it

    def sub(s: Optional[str]) -> Optional[str]:
        return None if s is None else re.sub(rf"§ {re.escape(old)}(?=[ (]|$)", f"§ {new}", s)

    return replace(it, key=sub(it.key), cite=sub(it.cite), section=new, parent=sub(it.parent))


def _renumber_citations(it: FlatItem, renames: list[tuple[str, str]]) -> FlatItem:
    """Citations inside an older text read under the new numbers ("§ 567.5" -> "§ 651a.5"):
    the renumbering itself is not an amendment of the text."""
    text, after = it.text, it.after
    for old, new in renames:
        rx = re.compile(rf"(?<![\w.]){re.escape(old)}\.(?=\d)")
        text = rx.sub(f"{new}.", text)
        after = rx.sub(f"{new}.", after) if after else after
    return replace(it, text=text, after=after)


# ------------------------------------------------------------------------ loading

def _date_arg(spec: str) -> tuple[str, Optional[str]]:
    """``FILE@2016-08-27`` gives a date to a page that prints none."""
    m = re.match(r"(.*)@(\d{4}-\d{2}-\d{2})$", spec)
    return (m.group(1), m.group(2)) if m else (spec, None)


def load(inputs: list[str], mapping: list[dict], chapter: Optional[str]):
    versions: list[Version] = []
    documents: list[Document] = []
    for spec in inputs:
        path, given = _date_arg(spec)
        events, affects = [], []
        if path.endswith((".yaml", ".yml")):
            side = load_side(path)
        else:
            doc = parse_file(path)
            side = side_of_document(doc, path)
            events, affects = list(doc.history), list(doc.affects)
            if not doc.chapters:
                date = given or doc.date
                if not date:
                    raise TextError("this document prints no date; give one as FILE@YYYY-MM-DD", path, 1, 1)
                documents.append(Document(path, date, doc.source_cite or Path(path).name,
                                          [_map_section(c + ".0", mapping).split(".")[0] for c in affects]))
                continue
        date = given or side.date
        if not date:
            raise TextError("this page prints no date; give one as FILE@YYYY-MM-DD", path, 1, 1)
        items: dict[str, list[FlatItem]] = {}
        original: dict[str, str] = {}
        cut: dict[str, str] = {}
        elided: set[str] = set()
        renames = [(m["from"], m["to"]) for m in mapping]
        for ch, flat in side.chapters.items():
            for it in flat:
                new_sec = _map_section(it.section, mapping)
                if renames and new_sec != it.section:
                    it = _renumber_citations(it, renames)
                if chapter and new_sec.split(".")[0] != chapter:
                    continue
                original[new_sec] = it.section
                m = _map_item(it, it.section, new_sec)
                items.setdefault(new_sec, []).append(m)
                if it.kind == "elided":
                    elided.add(new_sec)
            key = side.cut.get(ch)
            if key is not None:
                sec = next((it.section for it in flat if it.key == key), None)
                if sec is not None and _map_section(sec, mapping) in items:
                    new_sec = _map_section(sec, mapping)
                    cut[new_sec] = _map_item(next(it for it in flat if it.key == key), sec, new_sec).key
        if not items:
            continue
        versions.append(Version(path, date, side.cite or Path(path).name, side.kind, items, cut, elided,
                                events, original))
    versions.sort(key=lambda v: v.date)
    documents.sort(key=lambda d: d.date)
    return versions, documents


# ------------------------------------------------------------------------ text in force

def _overlay(prev: list[FlatItem], cur: list[FlatItem], cut_key: Optional[str], elided: bool) -> list[FlatItem]:
    """A section's text in force after ``cur``: ``cur`` itself, except what it does not print
    (after its cut; its ``* * * * *``), which stays as ``prev`` had it."""
    cur = [it for it in cur if it.kind != "elided"]
    if cut_key is not None:
        k = next((i for i, it in enumerate(cur) if it.key == cut_key), len(cur))
        head = cur[:k]
        keys = {it.key for it in head}
        j = next((i for i, it in enumerate(prev) if it.key == cut_key), None)
        tail = [it for it in prev[j:]] if j is not None else cur[k:]
        return head + [it for it in tail if it.key not in keys]
    if elided and prev:
        out = list(prev)
        index = {it.key: i for i, it in enumerate(out)}
        last = -1
        for it in cur:
            if it.key in index:
                out[index[it.key]] = it
                last = index[it.key]
            else:
                out.insert(last + 1, it)
                last += 1
                index = {x.key: i for i, x in enumerate(out)}
        return out
    return list(cur)


def _printed(v: Version, sec: str) -> set[str]:
    """Keys a version prints whole in a section (not the cut one, nothing after it)."""
    keys = []
    for it in v.items.get(sec, []):
        if it.kind == "elided":
            continue
        if v.cut_key.get(sec) == it.key:
            break
        keys.append(it.key)
    return set(keys)


def _side(path: str, ch: str, items: list[FlatItem], cut: Optional[str] = None) -> Side:
    """A text in force as one side of a diff; ``cut``: the key of the provision it is known only in part
    (every version so far is cut short there), nothing after it known."""
    return Side(path, "history", {ch: items}, {ch: False},
                {ch: {it.section: it.text for it in items if it.kind == "heading"}},
                cut={ch: cut} if cut is not None else {})


def _state_cut(state: list[FlatItem], state_cut: Optional[str], v: "Version", sec: str) -> Optional[str]:
    """Where the text in force after ``v`` stops being known: ``v``'s cut when nothing earlier printed
    the provision it is cut in, else as far as the earlier text went."""
    c = v.cut_key.get(sec)
    if c is not None and not any(it.key == c for it in state):
        return c
    if c is not None or sec in v.elided:
        return state_cut
    return None


@dataclass
class History:
    chapter: str
    versions: list[Version]
    documents: list[Document]
    timelines: dict[str, list[Entry]]          # provision cite -> entries (oldest first)
    states: dict[str, list[tuple[str, list[FlatItem]]]]   # section -> [(date, items in force)]


def build(inputs: list[str], map_path: Optional[str] = None, chapter: Optional[str] = None) -> History:
    mapping = load_map(map_path)
    versions, documents = load(inputs, mapping, chapter)
    if not versions:
        raise TextError("no version with rule text among the inputs" + (f" for chapter {chapter}" if chapter else ""),
                        inputs[0] if inputs else "<input>", 1, 1)
    chapters = sorted({s.split(".")[0] for v in versions for s in v.items})
    if chapter is None:
        if len(chapters) != 1:
            raise TextError("the inputs hold chapters " + ", ".join(chapters) + "; choose one with --chapter",
                            inputs[0], 1, 1)
        chapter = chapters[0]
    timelines: dict[str, list[Entry]] = {}
    states: dict[str, list[tuple[str, list[FlatItem]]]] = {}
    sections = sorted({s for v in versions for s in v.items}, key=_skey)
    for sec in sections:
        held = [v for v in versions if sec in v.items]
        state: list[FlatItem] = []
        state_cut: Optional[str] = None
        last_printed: dict[str, tuple[str, str]] = {}   # key -> (date, cite) of the last version printing it
        states[sec] = []
        for k, v in enumerate(held):
            new_state = _overlay(state, v.items[sec], v.cut_key.get(sec), sec in v.elided)
            new_cut = _state_cut(state, state_cut, v, sec)
            printed = _printed(v, sec)
            if k == 0:
                for it in new_state:
                    if it.kind in ("heading", "elided"):
                        continue
                    timelines.setdefault(it.cite, []).append(
                        Entry(v.date, v.cite, "partial" if it.key == new_cut else "text", it.full_text,
                              printed_as=_as_printed(v, it)))
            else:
                cd = diff_chapter(_side(held[k - 1].path, chapter, state, state_cut),
                                  _side(v.path, chapter, new_state, new_cut), chapter)
                known = {it.key for it in state}
                for c in cd.changes:
                    if c.kind == "cut" and c.new_cite:
                        # text beyond an earlier version's cut: first printed here, never an amendment
                        key = next((it.key for it in new_state if it.cite == c.new_cite), None)
                        kind = "partial" if key == new_cut else "whole" if key in known else "text"
                        timelines.setdefault(c.new_cite, []).append(Entry(v.date, v.cite, kind, c.new_text))
                        continue
                    if c.kind in ("unchanged", "elided", "cut"):
                        continue
                    if c.kind == "no substantive change":
                        # quotes, dashes, spacing as a site prints them: not an amendment
                        timelines.setdefault(c.new_cite or c.old_cite, []).append(
                            Entry(v.date, v.cite, c.kind, c.new_text, c, [], (held[k - 1].date, v.date)))
                        continue
                    cite = c.new_cite or c.old_cite
                    key_new = next((it.key for it in new_state if it.cite == c.new_cite), None)
                    key_old = next((it.key for it in state if it.cite == c.old_cite), None)
                    since = last_printed.get(key_old or "", (held[k - 1].date, held[k - 1].cite))
                    makers, effective = _makers(v, since[0], sec, documents, chapter)
                    entry = Entry(v.date, v.cite, c.kind, c.new_text, c, makers, (since[0], v.date), effective)
                    if c.old_cite and c.new_cite and c.old_cite != c.new_cite:
                        timelines.setdefault(c.new_cite, []).extend(timelines.get(c.old_cite, []))
                    timelines.setdefault(cite, []).append(entry)
            for it in new_state:
                if it.key in printed:
                    last_printed[it.key] = (v.date, v.cite)
            state, state_cut = new_state, new_cut
            states[sec].append((v.date, state))
    return History(chapter, versions, documents, timelines, states)


def _as_printed(v: Version, it: FlatItem) -> Optional[str]:
    orig = v.original.get(it.section)
    if orig and orig != it.section:
        return it.cite.replace(f"§ {it.section}", f"§ {orig}", 1)
    return None


def _makers(v: Version, since: str, sec: str, documents: list[Document], chapter: str):
    """The documents that may have made a change first seen in ``v``, dated after ``since``."""
    if v.kind == "bulletin":
        return [v.cite], None
    found: list[tuple[str, str, Optional[str]]] = []
    for e in v.events:
        scope_ok = not e.scope or e.scope in (f"§ {sec}", f"Chapter {sec.split('.')[0]}") \
            or e.scope.startswith("Chapter")
        if scope_ok and e.date and since < e.date <= v.date and e.cite:
            found.append((e.date, e.cite, e.effective))
    for d in documents:
        if since < d.date <= v.date and chapter in d.affects:
            if not any(c == d.cite for _, c, _ in found):
                found.append((d.date, d.cite, None))
    found.sort()
    effective = found[0][2] if len(found) == 1 else None
    return [f"{c} ({dt})" for dt, c, _ in found], effective


# ------------------------------------------------------------------------ queries

def in_force(h: History, date: str) -> list[FlatItem]:
    """The chapter's text in force at a date (each section's latest reading on or before it)."""
    out: list[FlatItem] = []
    for sec in sorted(h.states, key=_skey):
        best = None
        for d, items in h.states[sec]:
            if d <= date:
                best = items
        if best:
            out.extend(best)
    return out


def diff_dates(h: History, d1: str, d2: str) -> DiffResult:
    a, b = in_force(h, d1), in_force(h, d2)
    if not a:
        raise TextError(f"no version of chapter {h.chapter} in force on {d1} among the inputs "
                        f"(the earliest is dated {h.versions[0].date})", h.versions[0].path, 1, 1)
    cd = diff_chapter(_side(d1, h.chapter, a), _side(d2, h.chapter, b), h.chapter)
    return DiffResult(f"in force on {d1}", f"in force on {d2}", [cd])


# ------------------------------------------------------------------------ output

def _entry_text(e: Entry) -> str:
    if e.kind == "partial":
        return "first text, printed only in part: the page is cut short in it (the rest is not compared)"
    if e.kind == "whole":
        return "first printed whole: the earlier versions are cut short in it (not an amendment)"
    if e.kind == "text":
        s = "first text"
        if e.printed_as:
            s += f" (printed as {e.printed_as})"
        return s
    if e.change is not None and e.kind in ("amended", "renumbered", "moved") and \
            any(w[0] != "equal" for w in e.change.words):
        s = f"{e.kind}: {_words_text(e.change.words)}"
    elif e.kind == "renumbered" or e.kind == "moved":
        s = f"{e.kind} from {e.change.old_cite}"
    elif e.kind == "removed":
        s = "removed"
    else:
        s = e.kind
    if e.change is not None and e.change.cells:
        s += "; " + "; ".join(f"{c.get('hand', '')} / {c.get('column', '')}: {c.get('old')} -> {c.get('new')}"
                              if c["change"] == "cell" else c["change"] for c in e.change.cells)
    if e.kind == "no substantive change":
        return "typography only (quotes, dashes, spacing as printed): not an amendment"
    if e.made_by and e.made_by == [e.cite]:
        s += f"; made by {e.cite} (the amendment itself)"
    elif len(e.made_by) == 1:
        s += (f"; made by {e.made_by[0]}: the only document of the inputs dated between {e.between[0]} "
              f"and {e.between[1]} that amends this chapter")
    elif e.made_by:
        s += "; made by one of " + ", ".join(e.made_by)
    else:
        s += f"; made by a document dated after {e.between[0]} that is not among the inputs"
    if e.kind != "text":
        s += f"; effective {e.effective}" if e.effective else "; effective date not in the inputs"
    return s


def format_history(h: History, provision: Optional[str] = None, show_all: bool = False) -> str:
    out = [f"history of chapter {h.chapter}: {len(h.versions)} versions"]
    for v in h.versions:
        secs = ", ".join(f"§ {s}" for s in sorted(v.items, key=_skey))
        extra = " (cut short)" if v.cut_key else ""
        out.append(f"  {v.date}  {v.cite}  [{v.kind}] {secs}{extra}")
    for d in h.documents:
        out.append(f"  {d.date}  {d.cite}  [document without rule text; names chapters {', '.join(d.affects)}]")
    shown = 0
    for cite in sorted(h.timelines, key=_cite_key):
        if provision and cite != provision and not cite.startswith(provision + "("):
            continue
        entries = h.timelines[cite]
        changed = [e for e in entries if e.kind not in ("text", "partial", "whole", "no substantive change")]
        if not changed and not show_all and not provision:
            continue
        shown += 1
        out.append(cite)
        for e in entries:
            if e.kind == "no substantive change" and not (show_all or provision):
                continue
            out.append(f"  {e.date}  {e.cite}  {_entry_text(e)}")
    if provision and not shown:
        raise TextError(f"{provision} is in none of the inputs", h.versions[0].path, 1, 1)
    if not shown:
        out.append("no provision changed between the versions given")
    return "\n".join(out) + "\n"


def _cite_key(cite: str):
    m = re.match(r"§ (\S+?)(\(.*|\s.*)?$", cite)
    return (_skey(m.group(1)) if m else (0, "", 0), cite)


def to_dict(h: History) -> dict:
    return {
        "chapter": h.chapter,
        "versions": [{"date": v.date, "cite": v.cite, "kind": v.kind, "file": v.path,
                      "sections": sorted(v.items, key=_skey), "cut": bool(v.cut_key)} for v in h.versions],
        "documents": [{"date": d.date, "cite": d.cite, "file": d.path, "affects": d.affects} for d in h.documents],
        "provisions": {cite: [{
            "date": e.date, "version": e.cite, "kind": e.kind, "text": e.text,
            "words": e.change.words if e.change else [], "cells": e.change.cells if e.change else [],
            "made_by": e.made_by, "since": e.between[0] or None, "effective": e.effective,
            "printed_as": e.printed_as} for e in entries]
            for cite, entries in sorted(h.timelines.items(), key=lambda kv: _cite_key(kv[0]))},
    }


def format_json(h: History) -> str:
    return json.dumps(to_dict(h), indent=1, ensure_ascii=False) + "\n"
