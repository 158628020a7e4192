"""Money (issue 12, item 8): its own Decimal context with a range, amounts beyond it refused clearly,
and an audit of every chapter's simulated rounds computed from the event log alone."""
from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal, localcontext
from pathlib import Path

import pytest

from compiler.pipeline import load_game
from compiler.runtime.audit import audit_rounds
from compiler.runtime.engine import CallbackStrategy, Event, RefusedError, Table
from compiler.runtime.money import MAX_AMOUNT, MoneyError, money
from compiler.runtime.cards import parse_cards
from compiler.runtime.shoe import ScriptedShoe

ROOT = Path(__file__).resolve().parents[2]
WAR = "rulespecs/567-war.yaml"


@pytest.mark.parametrize("text", ["NaN", "nan", "sNaN", "Infinity", "-Infinity", "1e400", "1E+12",
                                  "1234567890123456789012345678", "0.00000000001", "abc", ""])
def test_money_refuses_what_is_not_a_table_amount(text):
    with pytest.raises(MoneyError):
        money(text)


def test_money_range_is_below_one_trillion():
    assert money("999,999,999,999.99") == Decimal("999999999999.99")
    assert MAX_AMOUNT == Decimal(10) ** 12
    with pytest.raises(MoneyError, match="beyond the largest amount"):
        money(10 ** 12)
    with pytest.raises(MoneyError, match="finite"):
        money(Decimal("NaN"))


@pytest.fixture(scope="module")
def war():
    return load_game(WAR)[0]


def _war_table(mod, player_card, dealer_card):
    shoe = ScriptedShoe({("player", 1, "original"): parse_cards([player_card]),
                         ("dealer", None, "original"): parse_cards([dealer_card])})
    t = mod.new_table({}, shoe=shoe)
    t.first_after_shuffle = False
    t.game_beginning = False
    return t


def test_largest_wager_is_paid_exactly_in_the_money_context_whatever_the_ambient_context(war):
    # a tie pays the Tie wager 10 to 1 (§ 567.10(2)): 999,999,999,999.99 x 10, computed by hand
    t = _war_table(war, "7H", "7S")
    big = Decimal("999999999999.99")
    strat = CallbackStrategy(lambda d, ids, v: "surrender")
    with localcontext() as ctx:
        ctx.prec = 5  # an ambient context too small for table money does not reach the engine
        res = t.play_round({1: {"initial": big, "tie": big}}, strat)
    tie = next(r for r in res.results if r.wager == "tie")
    assert tie.net == Decimal("9999999999999.90")
    assert t.ledger.balance() == 0


def test_wager_beyond_the_money_range_is_refused_not_invalid_operation(war):
    t = _war_table(war, "9H", "7S")
    with pytest.raises(RefusedError, match="beyond the largest amount"):
        t.play_round({1: {"initial": Decimal("1e13")}}, None)
    with pytest.raises(RefusedError, match="finite"):
        t.play_round({1: {"initial": "Infinity"}}, None)


# ---------------------------------------------------------------------------------------------
# The audit from the event log, over many rounds of every chapter
# ---------------------------------------------------------------------------------------------

SUBMISSIONS = sorted(p for p in (ROOT / "rulespecs/submissions").glob("*.yaml") if not p.name.startswith("535"))


def _random_strategy(rng: random.Random, offers: dict):
    return CallbackStrategy(lambda d, ids, v: rng.choice(list(ids)),
                            lambda w, v: (offers.get(w, 0) if rng.random() < 0.7 else 0))


@pytest.mark.parametrize("path", SUBMISSIONS, ids=[p.stem for p in SUBMISSIONS])
def test_money_conserved_by_an_audit_of_the_event_log_over_many_rounds(path):
    from compiler.submission.document import load_submission

    spec = next((ROOT / "rulespecs").glob(path.name.split("-")[0] + "-*.yaml"))
    mod, compiled = load_game(spec)
    sub = load_submission(str(path), {compiled.chapter.chapter: compiled.chapter})
    t = Table(mod.GAME, sub.selections, seed=20261201)
    rng = random.Random(7)
    before = dict(t.meters)
    bets, offers = {}, {}
    for w, d in mod.GAME.wagers.items():
        amount = d.amounts[-1] if d.amounts else Decimal("5.00")
        if d.placed == "before_deal" and t.offered(w):
            bets[w] = amount
        elif d.placed != "before_deal":
            offers[w] = amount
    rounds = []
    for _ in range(120):
        seats = sorted(rng.sample(range(1, mod.GAME.max_positions + 1), rng.randint(1, 4)))
        rounds.append(t.play_round({s: bets for s in seats}, _random_strategy(rng, offers)))
    a = audit_rounds(rounds, before, t.meters)
    assert a.placed > 0 and not a.unsettled and not a.problems
    # independent: from the log and the meter readings only
    assert a.house == t.ledger.house
    assert a.players == t.ledger.players
    assert a.meter_growth == t.ledger.meters
    assert a.players + a.house + a.meter_growth == 0


def test_money_conserved_in_every_seeded_hand_history(capsys):
    from compiler.round_file import check_round, load_round

    games: dict = {}
    for f in sorted((ROOT / "rulespecs/rounds").glob("*.yaml")):
        spec = next((ROOT / "rulespecs").glob(f.name.split("-")[0] + "-*.yaml"))
        if spec not in games:
            games[spec] = load_game(spec)
        mod, compiled = games[spec]
        rs = load_round(str(f))
        extra = {}
        if rs.doc.data.get("submission"):
            from compiler.submission.document import load_submission

            extra = load_submission(str(ROOT / rs.doc.data["submission"]),
                                    {compiled.chapter.chapter: compiled.chapter}).selections
        opts, errs = check_round(rs, mod.GAME, compiled.chapter, extra)
        assert not errs, f.name
        t = mod.new_table(opts, shoe=rs.shoe())
        t._rankings = games.setdefault((spec, "rankings"), {})  # built once per chapter (speed only)
        t.first_after_shuffle, t.game_beginning = rs.first_after_shuffle, False
        t.meters.update(rs.meters)
        before = dict(t.meters)
        res = t.play_round(rs.bets, rs.strategy(), rs.events, new_dealer=rs.new_dealer, players=rs.players or None,
                           rolls=rs.rolls, dealer_setting=rs.dealer_setting)
        a = audit_rounds([res], before, t.meters)
        assert not a.unsettled and not a.problems, f.name
        assert (a.house, a.players) == (t.ledger.house, t.ledger.players), f.name


def test_the_audit_finds_a_stake_never_settled_and_a_wrong_net(war):
    t = _war_table(war, "9H", "7S")
    res = t.play_round({1: {"initial": 10}}, None)
    assert audit_rounds([res]).house == Decimal(-10)  # the Initial wager won 1 to 1
    lost = replace(res, log=res.log + [Event("wager", "§ 567.7(c)", "Tie wager placed", 1, "tie", Decimal(2))])
    assert audit_rounds([lost]).unsettled == ["round 1: seat 1 tie 2"]
    forged = replace(res, log=[replace(e, net=Decimal(20)) if e.kind == "win" else e for e in res.log])
    assert audit_rounds([forged]).house != t.ledger.house
