"""``rulespec diff --impact RULESPEC PAGE``: a Bulletin or Code page against a rulespec.

The page's numbers are mapped onto the rulespec's data where the facts lint ties them
(compiler/lint/facts.py): a number of a provision the page prints differently (word by word)
and that the rulespec's data states (payout odds, counts, intervals, limits, amounts) is set
to the page's value in a copy of the rulespec, and the page's text replaces the provision's.
A paytable the page prints is mapped cell by cell onto the paytable the rulespec prints at
that provision. A changed number the data does not state (declared in ``text_facts``, or no
tie at all) and a table or row that matches nothing are listed as not mapped: the impact is
that of what could be mapped, and says so.
"""
from __future__ import annotations

import copy
import difflib
import re
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any, Optional

import yaml

from compiler.lint.facts import TEXT_NUMBER, WORDS, _blank_cites, analyse, passages
from compiler.text.diff import load_side
from compiler.text.diff_data import data_diff
from .errors import TextError
from .flat import FlatItem, flatten_spec, normalize
from compiler.text.impact import impact
from compiler.text.render import load_spec

_TOKEN = re.compile(r"\S+")


def _get(data, pointer: str):
    node = data
    for tok in pointer.split("/")[1:]:
        tok = tok.replace("~1", "/").replace("~0", "~")
        node = node[int(tok)] if isinstance(node, list) else node[tok]
    return node


def _set(data, pointer: str, value) -> None:
    *head, last = pointer.split("/")[1:]
    node = _get(data, "/" + "/".join(head)) if head else data
    last = last.replace("~1", "/").replace("~0", "~")
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _page_items(page_path: str, chapter: str) -> dict[str, FlatItem]:
    side = load_side(page_path)
    if side.kind == "spec":
        raise TextError("--impact of a page: give the rulespec first and the Bulletin or Code page second", page_path)
    items = side.chapters.get(chapter)
    if not items:
        raise TextError(f"the page prints no provision of chapter {chapter}", page_path)
    return {it.key: it for it in items if it.kind in ("provision", "intro", "definition")}


def _key(spec: dict, x) -> str:
    """The key of a provision's text as the flattened page has it ('§ 567.9(c)(2)', '§ 567.1 intro',
    '§ 567.1 def:War')."""
    m = re.fullmatch(r"/provisions/([0-9]+)(/definitions/([0-9]+))?(/.*)?/text", x.pointer)
    if m and m.group(2) and not m.group(4):
        term = spec["provisions"][int(m.group(1))]["definitions"][int(m.group(3))].get("term")
        return f"{x.cite} def:{term}"
    if m and not m.group(2) and not m.group(4):
        return f"{x.cite} intro"
    if m and m.group(2):
        term = spec["provisions"][int(m.group(1))]["definitions"][int(m.group(3))].get("term")
        return f"{x.cite} def:{term}" + x.cite[len(f"§ {spec['provisions'][int(m.group(1))]['section']}"):]
    return x.cite


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(normalize(m.group(0)), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _value_of(kind: str, token: str, old_value: Any):
    """The page's value for a fact of this kind, from the words that replace the fact's ('8 to 1')."""
    if kind == "odds":
        m = re.search(r"([0-9][0-9,]*)\s+to\s+([0-9][0-9,]*)", token)
        return f"{m.group(1).replace(',', '')} to {m.group(2).replace(',', '')}" if m else None
    t = token.strip().rstrip(".,;:)").lstrip("($")
    if re.fullmatch(r"[0-9][0-9,]*", t):
        return int(t.replace(",", ""))
    words = {w: n for n, w in WORDS.items()}
    return words.get(t.lower())


def map_page(spec_path: str, page_path: str) -> tuple[dict, list[dict], list[dict]]:
    """(the rulespec's data with the page's numbers, what was mapped, what could not be)."""
    spec = load_spec(spec_path)
    chapter = str(spec.get("chapter"))
    page = _page_items(page_path, chapter)
    res = analyse(spec)
    data = copy.deepcopy(spec)
    mapped: list[dict] = []
    unmapped: list[dict] = []
    by_passage: dict[str, list] = {}
    for t in res.ties:
        if t.fact.kind in ("odds", "number", "amount"):
            by_passage.setdefault(t.passage.pointer, []).append(t)
    seen: set[str] = set()

    for ps in passages(spec).values():
        for x in ps:
            if x.pointer in seen or not x.pointer.endswith("/text"):
                continue
            seen.add(x.pointer)
            item = page.get(_key(spec, x))
            if item is None or normalize(item.text) == normalize(x.text):
                continue
            wa, wb = _words(x.text), _words(item.text)
            sm = difflib.SequenceMatcher(None, [w for w, _, _ in wa], [w for w, _, _ in wb], autojunk=False)
            ok = True
            for op, i1, i2, j1, j2 in sm.get_opcodes():
                if op == "equal":
                    continue
                a0 = wa[i1][1] if i1 < len(wa) else len(x.text)
                a1 = wa[i2 - 1][2] if i2 > i1 else a0
                old_seg, new_seg = x.text[a0:a1], " ".join(w for w, _, _ in wb[j1:j2])
                blank = _blank_cites(x.text)
                numbers = [m for m in TEXT_NUMBER.finditer(blank) if a0 <= m.start() and m.end() <= a1]
                new_numbers = list(TEXT_NUMBER.finditer(_blank_cites(new_seg)))
                if not numbers and not new_numbers:
                    continue
                # the ties the changed words touch; the page's words for a tie's whole span ('8 to 1')
                ties = [t for t in by_passage.get(x.pointer, ()) if t.span[0] < max(a1, a0 + 1) and a0 < t.span[1]]
                if not ties or len(new_numbers) != 1:
                    ok = False
                    unmapped.append({"cite": x.cite, "old": old_seg, "new": new_seg,
                                     "why": "no data states this number" if not ties else
                                            "the page's words do not give one value for it"})
                    continue
                for t in ties:
                    t0, t1 = min(t.span[0], a0), max(t.span[1], a1)
                    value = _value_of(t.fact.kind, x.text[t0:a0] + new_seg + x.text[a1:t1], t.fact.value)
                    if value is None:
                        ok = False
                        unmapped.append({"cite": x.cite, "old": old_seg, "new": new_seg,
                                         "why": f"not a value of the {t.fact.kind} at {t.fact.pointer}"})
                        continue
                    if t.fact.span is None:
                        _set(data, t.fact.pointer, value)
                    else:
                        expr = _get(data, t.fact.pointer)
                        s0, s1 = t.fact.span
                        if expr[s0:s1] != str(t.fact.value):
                            continue  # already rewritten by another tie of the same expression
                        _set(data, t.fact.pointer, expr[:s0] + str(value) + expr[s1:])
                    mapped.append({"cite": x.cite, "at": t.fact.pointer, "old": t.fact.value, "new": value})
            if ok:
                _set(data, x.pointer, item.text)
    _map_tables(spec, data, page, mapped, unmapped)
    return data, mapped, unmapped


def _map_tables(spec: dict, data: dict, page: dict[str, FlatItem], mapped: list, unmapped: list) -> None:
    for it in flatten_spec(spec):
        if not it.tables or it.cite not in page:
            continue
        printed = page[it.cite].tables
        for k, mine in enumerate(it.tables):
            if k >= len(printed):
                unmapped.append({"cite": it.cite, "old": mine.name, "new": None, "why": "the page prints no such table"})
                continue
            theirs = printed[k]
            rows = {normalize(label).lower(): pays for label, pays in theirs.rows}
            table = data["paytables"][mine.name]
            for i, row in enumerate(table.get("rows") or ()):
                label = normalize(str(row.get("label", row.get("hand", "")))).lower()
                if label not in rows:
                    unmapped.append({"cite": it.cite, "old": row.get("label"), "new": None,
                                     "why": f"paytable {mine.name}: the page prints no row {row.get('label')!r}"})
                    continue
                pays = row.get("pays")
                cells = pays if isinstance(pays, list) else [pays]
                new_cells = list(rows[label])
                for j, (a, b) in enumerate(zip(cells, new_cells)):
                    if normalize(str(a)) != normalize(str(b)):
                        cells[j] = b
                        mapped.append({"cite": it.cite, "at": f"/paytables/{mine.name}/rows/{i}/pays/{j}",
                                       "old": a, "new": b})
                row["pays"] = cells if isinstance(pays, list) else cells[0]


class _SpecDumper(yaml.SafeDumper):
    """Writes a rulespec's data as the loader gives it: a YAML float is a Decimal there, written back
    as the same literal."""


_SpecDumper.add_representer(Decimal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:float", str(v)))


def page_impact(spec_path: str, page_path: str, decks: Optional[int] = None) -> list[dict]:
    """The impact entries of ``impact.impact`` for the rulespec amended as the page prints it, led
    by one entry listing what was mapped and what was not."""
    data, mapped, unmapped = map_page(spec_path, page_path)
    head = {"kind": "mapping", "wager": "mapping", "name": "the page's numbers", "policy": "mapped onto the data",
            "changed": bool(mapped), "mapped": mapped, "unmapped": unmapped}
    if not mapped:
        return [head]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / Path(spec_path).name
        path.write_text(yaml.dump(data, Dumper=_SpecDumper, allow_unicode=True, sort_keys=False), encoding="utf-8")
        spec = load_spec(spec_path)
        return [head] + impact(spec_path, str(path), data_diff(spec, data), decks=decks)
