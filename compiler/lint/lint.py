"""Lint: what the schema cannot see.

* every citation resolves to a provision of the spec, or its section is declared external
  (or missing, in a partial chapter);
* names: unused wagers, payouts, paytables, options, rankings (warnings);
* paytable rows out of the ranking's order (error);
* wagers that no rule ever settles (error: money would be left on the table), and wagers some
  path leaves open, where that shows without playing (compiler.lint.playable);
* a fixed number of decks the provision text does not state (compiler.lint.playable);
* options a rule reads that are not declared (caught by the name check in compiler.ir.build);
* facts stated by both the data and the provision text that disagree (compiler.lint.facts).
"""
from __future__ import annotations

import re
from typing import Any, Iterator

from compiler.ir.model import Chapter
from compiler.lang.citations import Citation, CitationSyntaxError, expand, parse_citation
from compiler.lang.rules import Names
from compiler.lint.facts import fact_diagnostics
from compiler.lint.labels import label_order
from compiler.lint.playable import playable_diagnostics
from compiler.spec.diagnostics import Diagnostic
from compiler.spec.loader import Document

CITE_KEYS = ("cite", "min_from_edge_cite")


def iter_cites(data: Any, ptr: str = "") -> Iterator[tuple[str, str]]:
    """(pointer, citation text) for every citation field of a spec (not the provision text)."""
    if isinstance(data, dict):
        for k, v in data.items():
            p = f"{ptr}/{k.replace('~', '~0').replace('/', '~1')}"
            if k == "provisions":
                continue
            if k in CITE_KEYS and isinstance(v, str):
                yield p, v
            elif k == "cites" and isinstance(v, list):
                for i, x in enumerate(v):
                    if isinstance(x, str):
                        yield f"{p}/{i}", x
            else:
                yield from iter_cites(v, p)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from iter_cites(v, f"{ptr}/{i}")


TEXT_CITE = re.compile(r"§§?\s*[0-9]+[a-z]?\.[0-9]+(?:\([A-Za-z0-9]+\))*(?:\s*[-—]\s*(?:[0-9]+[a-z]?\.[0-9]+)?(?:\([A-Za-z0-9]+\))*)?")


def iter_provision_texts(nodes, ptr: str = "/provisions") -> Iterator[tuple[str, str]]:
    for i, n in enumerate(nodes):
        p = f"{ptr}/{i}"
        for key in ("text", "after"):
            if isinstance(n.get(key), str):
                yield f"{p}/{key}", n[key]
        for j, dfn in enumerate(n.get("definitions") or ()):
            if isinstance(dfn.get("text"), str):
                yield f"{p}/definitions/{j}/text", dfn["text"]
            yield from iter_provision_texts(dfn.get("children") or (), f"{p}/definitions/{j}/children")
        yield from iter_provision_texts(n.get("children") or (), f"{p}/children")


def split_cites(text: str) -> list[str]:
    return [t.strip() for t in text.split(";") if t.strip()]


def provision_index(data: dict) -> dict[str, set[tuple[str, ...]]]:
    """section -> every label path that exists in the spec's provision tree."""
    out: dict[str, set[tuple[str, ...]]] = {}

    def walk(nodes, section, path):
        for n in nodes or ():
            if n.get("elided"):
                continue
            p = path + (str(n["label"]),)
            out[section].add(p)
            walk(n.get("children"), section, p)

    for s in data.get("provisions") or ():
        sec = str(s["section"])
        if s.get("status") == "absent":
            continue
        out.setdefault(sec, {()})
        walk(s.get("children"), sec, ())
        for d in s.get("definitions") or ():
            walk(d.get("children"), sec, ())
    return out


def resolve(cit: Citation, index, externals: set[str], missing: set[str]) -> str | None:
    """None when the citation resolves; otherwise why not."""
    if cit.section in index:
        if cit.path in index[cit.section]:
            return None
        return f"{cit.format()} names no provision of § {cit.section} in this spec"
    if cit.section in externals:
        return None
    if cit.section in missing:
        return None
    return (f"{cit.format()} cites § {cit.section}, which is neither in this spec's provisions nor declared in "
            "'externals'")


def lint(doc: Document, ch: Chapter, names: Names) -> list[Diagnostic]:
    d = doc.data  # the document the chapter was built from (lint rules read the document)
    diags: list[Diagnostic] = []

    def err(ptr: str, msg: str, severity: str = "error") -> None:
        line, col = doc.position(ptr)
        diags.append(Diagnostic(doc.path, line, col, severity, msg, ptr))

    index, externals, missing = _citations(d, err)
    _text_citations(d, index, externals, missing, err)
    _unused_names(d, ch, names, err)
    _unsettled_wagers(ch, err)

    # -- what cannot be played: a wager left open, decks the text does not state -------------
    try:
        playable_diagnostics(doc, ch, err)
    except Exception as e:  # noqa: BLE001 - an error, never a traceback (tests/fuzz)
        err("", f"validate could not check this spec (playable: {type(e).__name__}: {e}); please report it")

    _paytable_order(d, ch, err)
    label_order(d.get("provisions") or [], lambda ptr, msg: err(ptr, msg, "warning"))

    # -- facts the data and the text both state ---------------------------------------------
    try:
        diags.extend(fact_diagnostics(doc))
    except Exception as e:  # noqa: BLE001 - an error, never a traceback (tests/fuzz)
        err("", f"validate could not check this spec (facts: {type(e).__name__}: {e}); please report it")
    return _acknowledged(doc, ch, diags)


def _citations(d: dict, err) -> tuple[dict[str, set[tuple[str, ...]]], set[str], set[str]]:
    """Every citation field resolves (or names a section declared external or missing):
    (the provision index, the external sections, the missing sections)."""
    index = provision_index(d)
    externals = set()
    for i, e in enumerate(d.get("externals") or ()):
        try:
            for c in expand(parse_citation(e["cite"])):
                externals.add(c.section)
                if c.section in index:
                    err(f"/externals/{i}/cite", f"{c.format()} is declared external but is a provision of this spec",
                        "warning")
        except CitationSyntaxError as exc:
            err(f"/externals/{i}/cite", f"bad citation: {exc}")
    missing = set()
    for i, m in enumerate(d.get("missing") or ()):
        try:
            for c in expand(parse_citation(m["cite"])):
                missing.add(c.section)
        except CitationSyntaxError as exc:
            err(f"/missing/{i}/cite", f"bad citation: {exc}")
    for ptr, text in iter_cites(d):
        for part in split_cites(text):
            try:
                cits = expand(parse_citation(part))
            except CitationSyntaxError as exc:
                err(ptr, f"bad citation {part!r}: {getattr(exc, 'message', exc)}")
                continue
            for c in cits:
                why = resolve(c, index, externals, missing)
                if why:
                    err(ptr, f"dangling citation: {why}")
    return index, externals, missing


def _text_citations(d: dict, index, externals: set[str], missing: set[str], err) -> None:
    """A section the provision text cites is in the spec, or declared external or missing."""
    for ptr, text in iter_provision_texts(d.get("provisions") or ()):
        for m in TEXT_CITE.finditer(text):
            try:
                cits = expand(parse_citation(m.group(0)))
            except CitationSyntaxError:
                continue
            for c in cits:
                if c.section not in index and c.section not in externals and c.section not in missing:
                    err(ptr, f"the text cites {c.format()}: declare § {c.section} in 'externals' (or add it)")


def _unused_names(d: dict, ch: Chapter, names: Names, err) -> None:
    """Payouts, paytables, options and rankings nothing uses (warnings)."""
    used = names.used
    wagers = ch.wagers
    pays_used = {w.pays for w in wagers.values()} | used.get("payout", set())
    for pid in ch.payouts:
        if pid not in pays_used:
            err(f"/payouts/{pid}", f"payout {pid!r} is never used", "warning")
    for tid in ch.paytables:
        if tid not in used.get("paytable", set()) and not any(w.paytable == tid for w in wagers.values()):
            err(f"/paytables/{tid}", f"paytable {tid!r} is never used by a rule", "warning")
    opt_used = set(used.get("option", set()))
    cards = d.get("cards") or {}
    opt_used.add(cards.get("decks_option"))
    opt_used.update(t.option for t in ch.paytables.values())
    opt_used.update(w.offered_by for w in wagers.values())
    for m in (d.get("meters") or {}).values():
        opt_used.update((m.get("rate_option"), m.get("reset_option")))
    for oid in d.get("options") or {}:
        if oid not in opt_used and not (d.get("options")[oid].get("type") in ("house_way", "text")):
            err(f"/options/{oid}", f"option {oid!r} is never read by a rule, a constraint or the cards", "warning")
    rk_used = used.get("ranking", set()) | {t.ranking for t in ch.paytables.values()}
    for rid in d.get("rankings") or {}:
        if rid not in rk_used:
            err(f"/rankings/{rid}", f"ranking {rid!r} is never used", "warning")


def _unsettled_wagers(ch: Chapter, err) -> None:
    """A wager no rule wins, loses, pushes or returns (an error: money would be left on the table)."""
    settled: set[str] = set()
    all_wild = False

    def collect(rules):
        nonlocal all_wild
        for r in rules:
            for a in r.then:
                if a.kind in ("win", "lose", "push", "return", "surrender"):
                    if a.wager == "*":
                        all_wild = True
                    settled.add(a.wager)
                if a.kind == "void_round":
                    all_wild = True

    for st in ch.all_steps():
        collect(st.rules)
        for c in st.choices:
            collect([c])
    for ir in ch.irregularities:
        collect(ir.rules)
    for wid in ch.wagers:
        if wid not in settled:
            err(f"/wagers/{wid}", f"wager {wid!r} is never won, lost, pushed or returned by any rule")


def _paytable_order(d: dict, ch: Chapter, err) -> None:
    """Each paytable's rows: as many payouts as columns, hands of its ranking, in rank order."""
    rankings = d.get("rankings") or {}
    for tid, t in ch.paytables.items():
        r = rankings.get(t.ranking)
        if not r:
            if t.ranking:
                err(f"/paytables/{tid}/ranking", f"unknown ranking {t.ranking!r}")
            continue
        order = [c["id"] for c in r.get("categories") or ()]
        extra = list((r.get("hands") or {}).keys()) + list((r.get("thresholds") or {}).keys())
        ncols = len(t.columns)
        last = -1
        for i, row in enumerate(t.rows):
            h = row.hand
            if len(row.odds) != ncols:
                err(f"/paytables/{tid}/rows/{i}/pays", f"row {row.label!r} has {len(row.odds)} payouts for {ncols} columns")
            if h in order:
                k = order.index(h)
                if k < last:
                    err(f"/paytables/{tid}/rows/{i}/hand",
                        f"paytable rows out of rank order: {h!r} is listed below a lower-ranking hand")
                last = max(last, k)
            elif h not in extra:
                err(f"/paytables/{tid}/rows/{i}/hand", f"unknown hand {h!r} in ranking {t.ranking!r}")


def _acknowledged(doc: Document, ch: Chapter, diags: list[Diagnostic]) -> list[Diagnostic]:
    """A warning at a place an interpretation acknowledges (``acknowledges``: the chosen reading leaves
    it so) becomes a note naming the interpretation; an acknowledged place that does not exist, or
    where lint has nothing to say, is an error (the acknowledgement would hide nothing, or the wrong thing)."""
    by_pointer: dict[str, str] = {}
    out: list[Diagnostic] = []
    for i, it in enumerate(ch.interpretations):
        for j, ptr in enumerate(it.acknowledges):
            if not doc.has(ptr):
                line, col = doc.position(f"/interpretations/{i}/acknowledges/{j}")
                out.append(Diagnostic(doc.path, line, col, "error", f"acknowledges {ptr}: no such place in this "
                                      f"rulespec", f"/interpretations/{i}/acknowledges/{j}"))
            by_pointer[ptr] = it.id
    used = set()
    for d in diags:
        iid = by_pointer.get(d.pointer or "")
        if d.severity == "warning" and iid is not None:
            used.add(d.pointer)
            d = Diagnostic(d.path, d.line, d.col, "note", f"{d.message} (as interpretation '{iid}' reads it)",
                           d.pointer, d.excerpt)
        out.append(d)
    for i, it in enumerate(ch.interpretations):
        for j, ptr in enumerate(it.acknowledges):
            if ptr not in used and doc.has(ptr):
                line, col = doc.position(f"/interpretations/{i}/acknowledges/{j}")
                out.append(Diagnostic(doc.path, line, col, "error", f"acknowledges {ptr}, where lint warns of "
                                      f"nothing: remove it", f"/interpretations/{i}/acknowledges/{j}"))
    return out
