"""Chapter 670a Six-Card Fortune Pai Gow Poker: every numbered provision of §§ 670a.5-670a.13
against the compiled game (rulespecs/670a-six-card-fortune-pai-gow-poker.yaml).

Amounts are worked out by hand from the text (a $25 wager paid 1 to 1 is +$25; a $5 Fortune Bonus
on a full house at 15 to 1 is +$75; a $5 Progressive Payout Wager on a full house at 15 for 1 is
+$70), never copied from program output. Provisions that only regulate handling are checked to be
encoded in the spec with their citation ("encoded" in the test name).
``test_every_numbered_provision_is_covered`` checks that every numbered provision of those sections
is claimed by at least one test (``@covers``).

Shared by the tests of chapter 670a (test_670a_deal.py, test_670a_play.py): helpers and the one
``Coverage`` both modules record into.
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from chapters.provisions import Coverage

from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import CallbackStrategy, Context
from compiler.runtime.paigow import choose_setting, house_way_of, settings
from compiler.runtime.shoe import ScriptedShoe

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"
ROUNDS = Path("rulespecs/rounds")
D = Decimal
ALL = {"double_down_offered": True, "fortune_bonus_offered": True, "insurance_offered": True,
       "progressive_offered": True, "rate_of_progression": 10}

COVERAGE = Coverage()
covers = COVERAGE.covers
COVERED = COVERAGE.covered


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------


def cited(data, cite, where=("requirements", "irregularities", "procedure", "house_ways", "options", "table",
                             "cards", "interpretations", "constraints", "meters", "paytables", "wagers",
                             "payouts", "rankings")):
    """Every node of the spec (outside the provision text) whose citation names ``cite``."""
    out = []

    def walk(x):
        if isinstance(x, dict):
            for k in ("cite", "cites", "min_from_edge_cite"):
                v = x.get(k)
                vals = v if isinstance(v, list) else [v] if isinstance(v, str) else []
                if any(cite in [p.strip() for p in s.split(";")] for s in vals):
                    out.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for k in where:
        walk(data.get(k))
    return out


def requirement(data, cite):
    return [r for r in data.get("requirements") or () if cite in [p.strip() for p in r["cite"].split(";")]]


def play(mod, seats, dealer, options=None, dice=(1, 1, 1), events=(), meters=None, dealer_setting=None,
         players=None, rng=None):
    """seats: {n: {"cards": "AS ...", "wagers": {...}, "low": "KD" | None (house way), "offers": {...}}}."""
    script = {("player", n, "hand"): parse_cards(s["cards"]) for n, s in seats.items() if s.get("cards")}
    script[("dealer", None, "hand")] = parse_cards(dealer)
    t = mod.new_table({**(options or {})}, shoe=ScriptedShoe(script))
    t.game_beginning = False
    for mid, v in (meters or {}).items():
        t.meters[mid] = D(v)

    def setting(step, cands, view):
        low = seats[view.seat].get("low")
        return None if low is None else parse_cards(low)

    strategies = {n: CallbackStrategy(None, lambda w, view, n=n: seats[n].get("offers", {}).get(w, 0), setting)
                  for n in seats}
    rolls = [list(dice)] if dice is not None else []
    res = t.play_round({n: s["wagers"] for n, s in seats.items()}, strategies, list(events), rolls=rolls,
                       dealer_setting=({"low": parse_cards(dealer_setting)} if dealer_setting else None),
                       players=players)
    return t, res


def net(res, seat, wager=None):
    return sum((r.net for r in res.results if r.seat == seat and (wager is None or r.wager == wager)), D(0))


def outcome(res, seat, wager):
    import dataclasses

    r = next(r for r in res.results if r.seat == seat and r.wager == wager)
    return dataclasses.replace(r, cites=list(r.cites))


def house(mod, cards):
    """(high, low, cite of the house way rule) the dealer's house way gives for these six cards."""
    t = mod.new_table({}, seed=0)
    step = next(s for s in _steps(mod.GAME.procedure) if s.kind == "set_hands" and s.params.get("to") == "dealer")
    cs = parse_cards(cards)
    ctx = Context(t, None)
    legal = []
    for c in settings(cs, 1):
        ctx.setting = c
        if step.exprs["legal"](ctx):
            legal.append(c)
    ctx.setting = None
    pool, rule = choose_setting(ctx, house_way_of(t, step), legal)
    return sorted(pool[0][0]), pool[0][1][0], rule.cite


def _steps(steps):
    for s in steps:
        yield s
        yield from _steps(s.steps)


def sort_cards(text):
    return sorted(parse_cards(text))
