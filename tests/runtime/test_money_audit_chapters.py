"""The money audit over the new shapes (issue 29 item 7): sessions of every chapter (dice, wheels,
chosen numbers, points rankings, repeated rolls with round state, commissions) played through
`play`'s own code with random wagers, decisions and irregularities (tests/random_rounds.py), audited
from the event log alone (compiler/runtime/audit.py) and compared with the table's ledger; a wager
that stays up over many rolls is settled once and its log entries sum to its net; a commission
(Banker 19 to 20) is exact to the cent, by integer arithmetic."""
from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

import pytest

from compiler.runtime.audit import SETTLEMENTS, audit_rounds
from compiler.runtime.cards import parse_cards
from compiler.runtime.shoe import ScriptedShoe
from random_rounds import CHAPTERS, game_of, random_rounds

PLAYABLE = [c for c in CHAPTERS if game_of(c)[0].GAME.wagers]


def session(spec, rounds: int, seed: int = 0):
    played = [p for p in random_rounds(spec, rounds, seed=seed, same_table=True)]
    done = [p.played for p in played if p.played is not None]
    for p in played:  # only an irregularity the chapter's provisions do not cover may stop a round
        assert p.played is not None or p.events, f"{spec.name} round {p.index}: {p.error}"
    return done, played[-1].table


@pytest.mark.parametrize("spec", PLAYABLE, ids=lambda p: p.stem)
def test_a_session_of_every_chapter_balances_from_its_log(spec):
    """players' net + house net + the meters' growth = 0, from the log alone, and equal to the ledger."""
    done, table = session(spec, 15)
    assert len(done) >= 10
    before = done[0].meters_before
    a = audit_rounds([d.result for d in done], before, dict(table.meters))
    assert a.placed > 0
    assert not a.problems and not a.unsettled, (a.problems, a.unsettled)
    assert a.players == sum((r.net for d in done for r in d.result.results), Decimal(0))
    assert (a.players, a.house, a.meter_growth) == (table.ledger.players, table.ledger.house, table.ledger.meters)
    assert a.players + a.house + a.meter_growth == 0
    assert a.on_layout == table.on_layout()  # a wager open between rounds: neither the players' nor the house's
    for d in done:  # every amount in whole cents
        for r in d.result.results:
            assert r.net == r.net.quantize(Decimal("0.01")) and r.amount == r.amount.quantize(Decimal("0.01"))


def test_craps_wagers_up_over_many_rolls_are_settled_once_and_their_log_sums_to_their_net():
    """A Come or Don't Come wager left open when the round ends stays on the layout (``carry``) and is settled in a later
    round that begins with it (``carried``): once, whichever round settles it."""
    spec = next(c for c in CHAPTERS if c.stem == "craps")
    done, table = session(spec, 40, seed=3)
    over_rolls, carried = 0, 0
    for d in done:
        log = d.result.log
        nets, settled, placed = defaultdict(Decimal), defaultdict(int), defaultdict(int)
        rolls_before = {}
        rolls = 0
        for e in log:
            if e.kind == "roll":
                rolls += 1
            elif e.kind in ("wager", "carried"):
                placed[(e.seat, e.wager)] += 1
                rolls_before.setdefault((e.seat, e.wager), rolls)
                carried += e.kind == "carried"
            elif e.kind == "carry":  # open when the round ends: on the layout, settled in a later round
                placed[(e.seat, e.wager)] -= 1
                assert e.wager.partition("#")[0] in ("come", "dont_come") and e.amount > 0  # an instance: come#2
            elif e.kind in SETTLEMENTS and e.wager is not None:
                nets[(e.seat, e.wager)] += e.net
                settled[(e.seat, e.wager)] += 1
                over_rolls += rolls - rolls_before[(e.seat, e.wager)] > 1
            assert e.kind != "reversal"  # craps has no irregularity undoing a settlement
        results = defaultdict(list)
        for r in d.result.results:
            results[(r.seat, r.label)].append(r)  # an instance of several (come#2) as the log names it
        placed = {k: n for k, n in placed.items() if n}
        assert set(results) == set(placed) == set(settled)
        for key, rs in results.items():
            assert settled[key] == placed[key] == len(rs), (key, [e.format() for e in log])  # settled once each
            assert nets[key] == sum((r.net for r in rs), Decimal(0)), key
    assert over_rolls >= 10, "the session had wagers in action over several rolls"
    assert carried >= 1, "a Come wager was carried into a later round"
    a = audit_rounds([d.result for d in done])
    assert not a.problems and not a.unsettled and a.on_layout == table.on_layout()
    assert a.players + a.house == 0 and a.players == table.ledger.players


def test_banker_commission_19_to_20_is_exact_to_the_cent_for_every_stake():
    """Every stake from 1 cent to $20.00 on a winning Banker: the net is floor(stake x 19/20) in whole
    cents (integer arithmetic here; the engine's odds are Fractions), said to be rounded down when it is,
    and the log and the ledger move exactly that."""
    spec = next(c for c in CHAPTERS if c.stem == "mini-baccarat")
    mod, _ = game_of(spec)
    positions = mod.GAME.max_positions
    for first in range(1, 2001, positions):
        cents = list(range(first, min(first + positions, 2001)))
        shoe = ScriptedShoe({("community", None, "player"): parse_cards(["2H", "3D"]),
                             ("community", None, "banker"): parse_cards(["9C", "KS"])})  # 5 against a natural 9
        t = mod.new_table({}, shoe=shoe)
        t.first_after_shuffle = t.game_beginning = False
        res = t.play_round({i + 1: {"banker": Decimal(c) / 100} for i, c in enumerate(cents)})
        for r in res.results:
            c = cents[r.seat - 1]
            assert r.outcome == "win" and r.net == Decimal(c * 19 // 20) / 100, (c, r.net)
            assert ("rounded down to the cent" in r.detail) == (c * 19 % 20 != 0), (c, r.detail)
        a = audit_rounds([res])
        assert not a.problems and a.house == -sum(Decimal(c * 19 // 20) / 100 for c in cents) == t.ledger.house
