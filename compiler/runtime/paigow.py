"""Pai gow machinery, generic: settings of a hand into a high and a low hand, house ways, and the
``set_hands`` step.

A *setting* of ``H + L`` cards is a pair ``(high, low)`` of card tuples (the cards keep the order
in which they were dealt).  :func:`settings` lists every setting of a hand, in a fixed order
(the low hand's positions in colex order), so that a choice is reproducible.

A *house way* (§ 670a.11(d); in 688a the casino's Rules Submission) is an ordered list of rules.
The first rule whose ``when`` holds for the cards being set chooses the setting: starting from
every legal setting, each criterion of its ``choose`` list narrows the candidates:

* ``keep: EXPR`` -- only the settings for which EXPR holds (an empty result is an error of the
  house way, reported with the rule's citation);
* ``max: EXPR`` / ``min: EXPR`` -- only the settings where EXPR is largest / smallest.

Expressions are the rule language, with ``setting.high``, ``setting.low`` and ``setting.cards``
naming the candidate's hands (see docs/rule-language.md, "House ways").  Settings still equal
after the last criterion are equivalent for the rule; the first in :func:`settings` order is taken.

The spec's house ways are compiled into the game module at build time. A house way the casino
gives as data (an option of type ``house_way``, e.g. from a Rules Submission) is compiled once per
table by the rule-language front end (:func:`compiler.lang.houseway.compile_house_way`, closures
over the AST, no ``eval``); this module only runs compiled house ways.
"""
from __future__ import annotations

import json
from itertools import combinations
from typing import Any, Mapping, Sequence

from compiler.lang.houseway import HouseWayError, compile_house_way as _compile_data
from compiler.lang.rules import Names
from compiler.runtime.cards import card_str
from compiler.runtime.definition import Criterion, HouseWay, HouseWayRule
from compiler.runtime.errors import EngineError, RefusedError
from compiler.runtime.strategy import view_of

__all__ = ["Criterion", "HouseWayRule", "HouseWay", "settings", "choose_setting", "compile_house_way",
           "house_way_of", "HouseWayError", "set_hands"]


def settings(cards: Sequence, low: int) -> list[tuple[tuple, tuple]]:
    """Every (high, low) split of the cards with ``low`` cards in the low hand."""
    cards = tuple(cards)
    out = []
    for idx in combinations(range(len(cards)), low):
        s = set(idx)
        out.append((tuple(c for i, c in enumerate(cards) if i not in s), tuple(cards[i] for i in idx)))
    return out


def _narrow(ctx, pool, crit: Criterion, rule: HouseWayRule):
    if crit.kind == "keep":
        out = []
        for cand in pool:
            ctx.setting = cand
            if crit.fn(ctx):
                out.append(cand)
        if not out:
            raise HouseWayError(f"the house way rule at {rule.cite} keeps no setting ('keep: {crit.text}')")
        return out
    keyed = []
    for cand in pool:
        ctx.setting = cand
        keyed.append((crit.fn(ctx), cand))
    best = max(k for k, _ in keyed) if crit.kind == "max" else min(k for k, _ in keyed)
    return [c for k, c in keyed if k == best]


def choose_setting(ctx, way: HouseWay, candidates: Sequence[tuple]) -> tuple[list[tuple], HouseWayRule]:
    """The settings the house way allows among ``candidates`` (the legal settings; all equivalent
    for the rule, the first is the one to play) and the rule that chose them.  ``ctx`` is the
    engine's Context; its ``setting`` / ``setting_pool`` are bound while the house way runs."""
    saved = (ctx.setting, ctx.setting_pool)
    cards = candidates[0][0] + candidates[0][1]
    try:
        ctx.setting_pool = list(candidates)
        ctx.setting = (cards, ())
        for rule in way.rules:
            ctx.setting = (cards, ())
            if rule.when is not None and not rule.when(ctx):
                continue
            pool = list(candidates)
            for crit in rule.choose:
                pool = _narrow(ctx, pool, crit, rule)
                if len(pool) == 1:
                    break
            return pool, rule
    finally:
        ctx.setting, ctx.setting_pool = saved
    raise HouseWayError(f"no rule of the house way {way.id!r} ({way.cite}) applies to these cards")


# ---------------------------------------------------------------------------------------------
# House ways given as data (an option of type house_way)
# ---------------------------------------------------------------------------------------------


def _names_of_game(game):
    n = Names()
    for rid, r in game.rankings.items():
        n.rankings.add(rid)
        if r.get("kind") == "points":
            n.points_rankings.add(rid)
        n.categories.update(c["id"] for c in r.get("categories") or ())
        if r.get("kind") == "high_card" and not r.get("categories"):
            n.categories.add("high_card")
        n.hands.update((r.get("hands") or {}).keys())
        n.categories.update((r.get("thresholds") or {}).keys())
    n.wagers.update(game.wagers)
    n.payouts.update(game.payouts)
    n.paytables.update(game.paytables)
    n.options.update(game.options)

    def walk(steps):
        for s in steps:
            if s.params.get("zone"):
                n.zones.add(s.params["zone"])
            if s.kind == "set_hands":
                n.zones.update(("high", "low"))
            if s.kind == "decide":
                n.decisions[s.id] = {c.id for c in s.choices}
            walk(s.steps)

    walk(game.procedure)
    return n


def compile_house_way(data: Any, game, id: str = "house_way") -> HouseWay:
    """A house way given as data, compiled against the game's names (see
    :func:`compiler.lang.houseway.compile_house_way` for the forms accepted)."""
    ocite = str(((getattr(game, "options", None) or {}).get(id) or {}).get("cite", ""))
    title, cite, rules = _compile_data(data, _names_of_game(game), id, ocite)
    return HouseWay(id, title, cite, tuple(
        HouseWayRule(r.cite, r.when, tuple(Criterion(k, fn, text) for k, fn, text in r.choose), r.where, r.note)
        for r in rules))


def _cs(cards) -> str:
    return " ".join(card_str(c) for c in cards if c is not None)


def house_way_of(table, step) -> HouseWay | None:
    """The house way a ``set_hands`` step uses: the table's option ``house_way_option`` when the
    casino gives one (a house way as data, or the id of one of the spec's), else ``house_way``."""
    p = step.params
    opt = p.get("house_way_option")
    val = table.options.get(opt) if opt else None
    if val is not None and val != "":
        if isinstance(val, str):
            if val not in table.game.house_ways:
                raise RefusedError(f"option {opt!r} names house way {val!r}; the spec has "
                                   f"{sorted(table.game.house_ways)}")
            return table.game.house_ways[val]
        cache = table.__dict__.setdefault("_house_way_cache", {})
        key = json.dumps(val, sort_keys=True, default=str)
        if key not in cache:
            try:
                cache[key] = compile_house_way(val, table.game, opt)
            except HouseWayError as e:
                raise RefusedError(f"the house way of option {opt!r} cannot be used: {e}") from None
        return cache[key]
    hid = p.get("house_way")
    return table.game.house_ways[hid] if hid else None


def _match(cands: Sequence[tuple], pick) -> tuple | None:
    """The candidate a strategy or a hand history names: a (high, low) pair, or the low cards."""
    if isinstance(pick, Mapping):  # {'low': cards} or {'high': cards} (a hand history)
        if "low" not in pick:
            want_high = sorted(pick["high"])
            return next((c for c in cands if sorted(c[0]) == want_high), None)
        low = pick["low"]
    elif isinstance(pick, tuple) and len(pick) == 2 and all(isinstance(x, (tuple, list)) for x in pick):
        low = pick[1]
    else:
        low = pick
    want = sorted(c for c in low)
    for c in cands:
        if sorted(c[1]) == want:
            return c
    return None


def _house_way_setting(ctx, step, way, legal_fn, cands):
    """(settings, rule): the settings the house way allows among the legal ones (all of them if none is
    legal), equally good, first the one the engine plays; and the house-way rule that chose them."""
    legal = [c for c in cands if _legal(ctx, legal_fn, c)] or cands
    try:
        return choose_setting(ctx, way, legal)
    except HouseWayError as e:
        raise EngineError(f"{step.id}: {e}") from None


def _legal(ctx, fn, cand) -> bool:
    if fn is None:
        return True
    saved = ctx.setting
    ctx.setting = cand
    try:
        return bool(fn(ctx))
    finally:
        ctx.setting = saved


def set_hands(table, ctx, rnd, step, pending) -> None:
    """``do: set_hands``: each player (``to: players``) or the dealer (``to: dealer``) sets the
    cards of ``zone`` into a high hand of ``high`` cards and a low hand of ``low`` cards (zones
    ``high`` and ``low``).  Players set as their strategy / the hand history says, or by the
    house way when they leave it to the house; a setting for which ``legal`` is false is played
    and recorded (flag ``flag``).  The dealer sets by the house way; a recorded dealer setting the
    house way does not allow raises the event ``dealer_setting_wrong``."""
    p = step.params
    zone = p.get("zone", "hand")
    hn, ln = int(p["high"]), int(p["low"])
    legal_fn = step.exprs.get("legal")
    way = house_way_of(table, step)
    if p.get("to", "players") == "dealer":
        _set_dealer_hands(table, ctx, rnd, step, zone, hn, ln, legal_fn, way)
        return
    for s in _setting_order(rnd, table._players(ctx, rnd, step), p.get("larger_first")):
        _set_player_hands(table, ctx, rnd, step, s, zone, hn, ln, legal_fn, way)
    ctx.seat = None


def _set_dealer_hands(table, ctx, rnd, step, zone, hn, ln, legal_fn, way) -> None:
    """The dealer sets the cards of ``zone`` by the house way; a recorded dealer setting the house way
    does not allow raises the event ``dealer_setting_wrong``."""
    p = step.params
    ctx.seat = None
    cards = list(rnd.dealer.get(zone) or ())
    if len(cards) != hn + ln or any(c is None for c in cards):
        raise EngineError(f"{step.id}: the dealer holds {len(cards)} known cards in {zone!r}; a setting "
                          f"needs {hn} + {ln} ({step.cite})")
    if way is None:
        raise EngineError(f"{step.id}: no house way to set the dealer's hands ({step.cite})")
    cands = settings(cards, ln)
    pool, rule = _house_way_setting(ctx, step, way, legal_fn, cands)
    chosen = pool[0]
    if rnd.dealer_setting is not None:
        rec = _match(cands, rnd.dealer_setting)
        if rec is None:
            raise RefusedError(f"{step.id}: the recorded dealer setting ({rnd.dealer_setting}) is not "
                               "made of the dealer's cards")
        if rec in pool:
            chosen = rec
        else:
            rnd.log("setting", step.cite, f"dealer set high {_cs(rec[0])} / low {_cs(rec[1])}, not as the "
                    f"house way requires")
            table._fire(ctx, rnd, {"event": "dealer_setting_wrong", "cards": list(rec[1])})
            if rnd.stopped:
                return
    rnd.dealer.pop(zone, None)
    rnd.dealer["high"], rnd.dealer["low"] = list(chosen[0]), list(chosen[1])
    if p.get("face") == "up":  # the hands are placed face up (e.g. § 688a.11(a))
        rnd.revealed.update(("high", "low"))
    rnd.log("setting", rule.cite, f"dealer sets the high hand {_cs(chosen[0])} and the low hand "
            f"{_cs(chosen[1])} by the house way ({way.title})" + (f": {rule.note}" if rule.note else ""))


def _setting_order(rnd, seats, by):
    """The seats in the order they set their hands: one player on several positions sets the hand with
    the larger wager ``by`` first (§ 670a.7(f))."""
    if not (by and rnd.players):
        return seats
    groups: dict[str, list] = {}
    for s in seats:
        groups.setdefault(rnd.players.get(s.number, f"#{s.number}"), []).append(s)
    slots = {name: sorted(g, key=lambda s: -(s.wagers[by].amount if by in s.wagers else 0))
             for name, g in groups.items()}
    out = []
    for s in seats:
        out.append(slots[rnd.players.get(s.number, f"#{s.number}")].pop(0))
    return out


def _set_player_hands(table, ctx, rnd, step, s, zone, hn, ln, legal_fn, way) -> None:
    """Seat ``s`` sets the cards of ``zone`` as its strategy / the hand history says, or by the house way
    when it leaves it to the house; a setting for which ``legal`` is false is played and recorded."""
    p = step.params
    ctx.seat = s
    cards = list(s.zones.get(zone) or ())
    if len(cards) != hn + ln or any(c is None for c in cards):
        raise EngineError(f"seat {s.number}: {len(cards)} known cards in {zone!r}; a setting needs "
                          f"{hn} + {ln} ({step.cite})")
    cands = settings(cards, ln)
    pick = table._strategies(s.number).setting(step.id, cands, view_of(rnd, s))
    how = ""
    if pick is None:
        if way is None:
            raise RefusedError(f"seat {s.number}: no setting given at {step.id!r} ({step.cite})")
        pool, rule = _house_way_setting(ctx, step, way, legal_fn, cands)
        chosen = pool[0]
        how = f" (the way the house sets them, {rule.cite})"
    else:
        chosen = _match(cands, pick)
        if chosen is None:
            raise RefusedError(f"seat {s.number}: the setting {pick!r} is not made of the player's cards "
                               f"({_cs(cards)})")
    s.zones.pop(zone, None)
    s.zones["high"], s.zones["low"] = list(chosen[0]), list(chosen[1])
    s.choices[step.id] = _cs(chosen[1])
    rnd.log("setting", step.cite, f"sets the high hand {_cs(chosen[0])} and the low hand {_cs(chosen[1])}{how}",
            seat=s.number)
    if not _legal(ctx, legal_fn, chosen):
        if p.get("flag"):
            s.flags.add(p["flag"])
        rnd.log("foul", step.cite, p.get("foul") or "the setting is not legal", seat=s.number)
