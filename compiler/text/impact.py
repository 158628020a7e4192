"""``rulespec diff --impact``: what an amendment of a rulespec does to players.

For two rulespecs of one chapter, every wager's figures of the existing analysis
(``compiler.analysis.report.analyze``, its public entry point) before and after: house edge and hit
frequency as exact fractions, with the payout changes of that wager; and where the analysis
solves an optimal strategy (a stud raise game), how many holdings change their decision at each
decision point, and from which choice to which; where a long exact count is read from a record (pai gow),
whether the record still applies to the amended rulespec, and if not, which of its parts changed.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Optional

from compiler.analysis import paigow_model
from compiler.analysis import paigow_record as pr
from compiler.analysis.report import analyze
from compiler.runtime.from_ir import load_game
from compiler.spec.diagnostics import DiagnosticError
from .errors import TextError


def _load(path: str):
    try:
        mod, compiled = load_game(path)
    except DiagnosticError as e:
        first = e.diagnostics[0].format() if e.diagnostics else "invalid rulespec"
        raise TextError(f"no impact: this rulespec is not valid ({len(e.errors)} error"
                        f"{'s' if len(e.errors) != 1 else ''}; first: {first})", path) from None
    return mod.GAME, compiled.chapter


def _report(path: str, decks: Optional[int] = None, loaded=None):
    game, chapter = loaded or _load(path)
    try:
        return analyze(game, chapter, decks=decks), chapter
    except ValueError as e:
        raise TextError(f"no impact: {e}", path) from None


def _frac(v: Optional[Fraction]) -> Optional[str]:
    return None if v is None else str(Fraction(v))


def _edge(f) -> Optional[str]:
    """A figure's house edge: an exact fraction, or a simulated mean as a decimal (never a fraction: it is not exact)."""
    if f is None:
        return None
    return _frac(f.house_edge) if f.exact else f"{float(f.house_edge):.6f}"


def _simulated(f) -> Optional[dict]:
    """What a simulated figure is: its standard error and whether it reaches its precision target (None if exact)."""
    if f is None or f.exact:
        return None
    return {"standard_error": f"{f.standard_error:.6f}", "meets_target": f.meets_target,
            "target": None if f.target is None else f"{f.target:.6f}"}


def impact(old: str, new: str, data_changes: list[dict], decks: Optional[int] = None) -> list[dict]:
    """One entry per wager figure (wager, policy) of either side: old and new house edge and hit
    frequency (fractions as strings; None where a side has no such figure)."""
    la, lb = _load(old), _load(new)
    ra, da = _report(old, decks, la)
    # the amended rulespec, written anywhere, reads the record of the one it amends: the key decides
    with pr.records_also_beside(la[1]):
        rb, db = _report(new, decks, lb)
        record = record_impact(la, lb, new)
    fa = {(f.stakes, f.policy.text): f for f in ra.figures if f.kind == "return"}
    fb = {(f.stakes, f.policy.text): f for f in rb.figures if f.kind == "return"}
    wagers = {**da.wagers, **db.wagers}  # of either chapter's IR
    out: list[dict[str, Any]] = []
    for key in list(fa) + [k for k in fb if k not in fa]:
        a, b = fa.get(key), fb.get(key)
        f = b or a
        pays = {w.pays for wid, w in wagers.items() if wid in key[0]}
        payouts = [{"payout": d["path"].split(".")[1], "old": d.get("old"), "new": d.get("new")}
                   for d in data_changes if d.get("part") == "payouts" and d["change"] == "changed"
                   and d["path"].split(".")[1] in pays]
        entry = {
            "wager": f.wager, "name": f.name, "policy": key[1], "payouts": payouts,
            "house_edge": {"old": _edge(a), "new": _edge(b)},
            "simulated": {"old": _simulated(a), "new": _simulated(b)},
            "hit_frequency": {"old": _frac(a.hit_frequency if a else None),
                              "new": _frac(b.hit_frequency if b else None)},
        }
        entry["changed"] = entry["house_edge"]["old"] != entry["house_edge"]["new"] or \
            entry["hit_frequency"]["old"] != entry["hit_frequency"]["new"]
        if entry["simulated"]["old"] or entry["simulated"]["new"]:
            # two seeded simulations: equal means say only that the change is not seen within their standard errors
            entry["changed"] = None if not entry["changed"] else True
        out.append(entry)
    out += strategy_impact(getattr(ra, "strategy", None), getattr(rb, "strategy", None))
    return out + record


def _applies(old, new):
    with pr.records_also_beside(old[1]):
        return pr.read_record(*new)[0]


def record_impact(old, new, new_path: str) -> list[dict]:
    """Whether the record of the old rulespec's long exact count (``rulespec analyze --exhaustive``)
    still applies to the new one; if not, which of its parts (deck, ranking, house ways, set-hands,
    settle rules, payouts) the amendment changed, and the command that recomputes it."""
    if paigow_model.model_or_reason(*old)[0] is None or paigow_model.model_or_reason(*new)[0] is None:
        return []
    if pr.read_record(*old)[0] is None:
        return []
    m = paigow_model.model_of(*new)
    covered = " and ".join(new[0].wagers[w].name for w in (m.main, m.double) if w)
    name = f"exact record {pr.record_path(old[1]).name}"
    command = f"rulespec analyze --exhaustive {new_path}"
    changed = pr.parts_changed(old, new)
    entry: dict[str, Any] = {"kind": "record", "wager": m.main, "name": name, "policy": "house way",
                             "parts": changed, "changed": bool(changed)}
    if changed:
        entry.update(command=command, note=f"no longer applies: the amendment changes its "
                     f"{', '.join(changed)}; the exact figures of the {covered} are not computed until `{command}` "
                     "recomputes it")
    elif _applies(old, new) is None:
        entry.update(changed=True, command=command, note=f"no longer applies: the options the rules read "
                     f"differ; the exact figures of the {covered} are not computed until `{command}` recomputes it")
    else:
        entry["note"] = (f"still applies: its {', '.join(pr.PARTS)} are unchanged; the exact figures of the "
                         f"{covered} are read from it on both sides")
    return [entry]


def strategy_impact(sa, sb) -> list[dict]:
    """One entry per decision point (cards known) of an optimal strategy on either side: the
    holdings (sets of cards) whose optimal choice differs, and the moves between choices."""
    if sa is None and sb is None:
        return []
    if sa is None or sb is None:
        return [{"kind": "strategy", "wager": "strategy", "name": "optimal strategy", "policy": "any",
                 "changed": True, "note": f"only the {'new' if sa is None else 'old'} rulespec has a solved "
                                          "optimal strategy: not compared"}]
    if not (hasattr(sa, "decisions") and hasattr(sb, "decisions")):  # a chart by holding (the draw walk's)
        return _table_impact(sa, sb)
    out: list[dict[str, Any]] = []
    for known in sorted(set(sa.level_options) | set(sb.level_options)):
        oa, ob = sa.level_options.get(known), sb.level_options.get(known)
        da, db = sa.decisions.get(known), sb.decisions.get(known)
        entry: dict[str, Any] = {"kind": "strategy", "wager": "strategy", "name": "optimal strategy",
                                 "policy": f"{known} cards known"}
        if da is None or db is None or len(da) != len(db) or list(sa.game.deck) != list(sb.game.deck):
            entry.update(changed=True, note="the decision points differ (cards known or deck): not compared")
            out.append(entry)
            continue
        moves: dict[tuple[str, str], int] = {}
        for i, j in zip(da.tolist(), db.tolist()):
            a, b = str(oa[i]), str(ob[j])
            if a != b:
                moves[(a, b)] = moves.get((a, b), 0) + 1
        changed = sum(moves.values())
        entry.update(holdings=len(da), decisions_changed=changed, changed=changed > 0,
                     moves=[{"old": a, "new": b, "holdings": n} for (a, b), n in sorted(moves.items(),
                                                                                       key=lambda x: -x[1])])
        out.append(entry)
    return out


def _table_impact(sa, sb) -> list[dict]:
    """The same entries from two strategies given as tables (``strategy_table(level)``: a row per holding with its
    ``decision``), one per decision both have: the holdings whose best choice differs and the moves."""
    out: list[dict[str, Any]] = []
    la, lb = sa.levels(), sb.levels()
    for level in [*la, *(x for x in lb if x not in la)]:
        entry: dict[str, Any] = {"kind": "strategy", "wager": "strategy", "name": "optimal strategy",
                                 "policy": f"decision {level}"}
        if level not in la or level not in lb:
            entry.update(changed=True, note="the decision is on one side only: not compared")
            out.append(entry)
            continue
        ta = {r["hand"]: str(r["decision"]) for r in sa.strategy_table(level)}
        tb = {r["hand"]: str(r["decision"]) for r in sb.strategy_table(level)}
        moves: dict[tuple[str, str], int] = {}
        for hand in ta.keys() & tb.keys():
            if ta[hand] != tb[hand]:
                moves[(ta[hand], tb[hand])] = moves.get((ta[hand], tb[hand]), 0) + 1
        changed = sum(moves.values())
        entry.update(holdings=len(ta.keys() & tb.keys()), decisions_changed=changed,
                     changed=changed > 0 or ta.keys() != tb.keys(),
                     moves=[{"old": a, "new": b, "holdings": n} for (a, b), n in sorted(moves.items(),
                                                                                       key=lambda x: -x[1])])
        out.append(entry)
    return out
