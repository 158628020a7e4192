"""The 670a main wager and Double Down exact by card-removal counting (compiler/analysis/paigow_exact.py),
held to independent routes:

* on reduced decks derived from the same rulespec (fewer ranks, the joker kept) a brute force over every
  (player, dealer) pair of disjoint hands, each hand set by the engine's scalar house way
  (``compiler.analysis.paigow._set_by_house_way``) and each pair settled by running the compiled settle
  step (``Outcomes.run``): no classes, no card-removal counting, no fast path;
* per player hand on a larger reduced deck (a sample of player hands, every dealer hand);
* with and without suit symmetry;
* the committed record of the full deck: its key matches the rulespec as it is now, and its figure is
  within 4 standard errors of a seeded simulation of the compiled game.
"""
from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from compiler.analysis import paigow_exact as pe
from compiler.analysis import paigow_record as pr
from compiler.analysis.enumerate import standard_deck
from compiler.analysis.paigow import Outcomes, _set_by_house_way, model_of
from compiler.pipeline import load_game
from compiler.runtime.engine import Table

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"


@pytest.fixture(scope="module")
def g670a():
    mod, comp = load_game(SPEC)
    return mod.GAME, comp.chapter


def _engine(game, chapter):
    m = model_of(game, chapter)
    table = Table(game, {"double_down_offered": True}, seed=0)
    return m, table, Outcomes(table, m)


def _legal(table, step, high, low) -> bool:
    from compiler.runtime.engine import Context, _Round

    fn = step.exprs.get("legal")
    if fn is None:
        return True
    ctx = Context(table, _Round(table, 0, False, False))
    ctx.setting = (high, low)
    return bool(fn(ctx))


def _brute_force(game, chapter, deck):
    """Every (player, dealer) pair of disjoint hands of ``deck``: the summed nets of the main wager and of
    the Double Down, the main wager's win/push/lose counts, and the Double Down made when its summed net
    over the dealer hands is positive."""
    m, table, out = _engine(game, chapter)
    hands = list(combinations(range(len(deck)), m.high + m.low))
    pset, dset = {}, {}
    for h in hands:
        cards = [deck[i] for i in h]
        pset[h] = _set_by_house_way(table, m.player_step, cards)
        assert _legal(table, m.player_step, *pset[h])  # no foul: the flag stays clear
        dset[h] = _set_by_house_way(table, m.dealer_step, cards)
    main = dd = opt = Fraction(0)
    tally = {"win": 0, "push": 0, "lose": 0}
    made = 0
    for p in hands:
        ph, pl = pset[p]
        per = Fraction(0)
        # the dealer's hands disjoint from p: the combinations of the cards left (in the order of `hands`)
        for d in combinations([i for i in range(len(deck)) if i not in p], m.high + m.low):
            dh, dl = dset[d]
            a, b = out.run(ph, pl, dh, dl, double=True)
            main += Fraction(a)
            per += Fraction(b)
            tally["win" if a > 0 else "push" if a == 0 else "lose"] += 1
        dd += per
        if per > 0:
            opt += per
            made += 1
    return main, dd, opt, made, tally, len(hands)


@pytest.mark.parametrize("ranks", [(0, 1, 12), (9, 10, 11)])
def test_670a_11_f_g_main_wager_and_double_down_equal_a_brute_force_on_a_13_card_deck(g670a, ranks):
    game, chapter = g670a
    deck = standard_deck(1, ranks)
    main, dd, opt, made, tally, nh = _brute_force(game, chapter, deck)
    deals = nh * comb(len(deck) - 6, 6)
    res, _ = pe.run(game, chapter, deck=deck)
    assert res["deals"] == deals
    assert res["main"] == main / deals
    assert res["main_counts"] == tally
    assert res["double_always"] == dd / deals
    assert res["double_optimal_per_round"] == opt / deals
    assert res["double_optimal_share"] == Fraction(made, nh)


@pytest.mark.parametrize("ranks", [(0, 1, 2, 3), (9, 10, 11, 12)])
def test_670a_main_wager_per_player_hand_equals_every_dealer_hand_on_a_17_card_deck(g670a, ranks):
    """Straights, flushes (joker completing them), five aces and unqualified dealers all occur here."""
    game, chapter = g670a
    deck = standard_deck(1, ranks)
    m, table, out = _engine(game, chapter)
    res, cnt = pe.run(game, chapter, deck=deck)
    rng = random.Random(670)
    hands = list(combinations(range(len(deck)), 6))
    for p in rng.sample(hands, 12):
        ph, pl = _set_by_house_way(table, m.player_step, [deck[i] for i in p])
        main = dd = Fraction(0)
        for d in combinations([i for i in range(len(deck)) if i not in p], 6):
            dh, dl = _set_by_house_way(table, m.dealer_step, [deck[i] for i in d])
            a, b = out.run(ph, pl, dh, dl, double=True)
            main += Fraction(a)
            dd += Fraction(b)
        assert cnt.hand_nets(cnt.row_of(p)) == (main, dd)


def test_670a_suit_symmetry_changes_no_figure_on_a_17_card_deck(g670a):
    game, chapter = g670a
    deck = standard_deck(1, (8, 9, 10, 11))
    a, ca = pe.run(game, chapter, deck=deck)
    b, cb = pe.run(game, chapter, deck=deck, symmetry=False)
    assert len(ca.index) < len(cb.index) == comb(17, 6)
    assert a == b


def test_670a_settle_atoms_read_from_the_rules(g670a):
    game, chapter = g670a
    model = pe.ExactPaiGow(game, chapter)
    assert model.atoms.comparisons == [("five_card", "high"), ("low_hand", "low")]
    # the joker rule reads the player's low hand in four rules: one atom; the setting flag another
    assert len(model.atoms.player) == 2
    assert [("joker" in repr(a), "foul" in repr(a)) for a in model.atoms.player] in \
        ([(False, True), (True, False)], [(True, False), (False, True)])
    assert [("pair_of_8s_or_better" in repr(a)) for a in model.atoms.dealer] == [True]


def test_a_settle_rule_reading_the_round_refuses_the_exact_route(g670a):
    from dataclasses import replace

    from compiler.lang.rules import parse_expr

    game, chapter = g670a
    step = pe._ir_step(chapter, model_of(game, chapter).settle_step.id)
    bad = replace(step.rules[1], when=parse_expr("round.number > 3"))
    with pytest.raises(pe.Refused, match="round.number"):
        pe.settle_atoms(replace(step, rules=(bad,)), set(), {"foul"})


# -- the committed record of the full deck -----------------------------------------------------


def test_670a_committed_record_key_matches_the_rulespec(g670a):
    game, chapter = g670a
    rec = pr.load_record(game, chapter)
    assert rec is not None, "rulespecs/records: the record's key does not match; run rulespec analyze --exhaustive"
    assert rec["deals"] == comb(53, 6) * comb(47, 6)
    assert sum(rec["main_counts"].values()) == rec["deals"]
    win, push, lose = (rec["main_counts"][k] for k in ("win", "push", "lose"))
    assert Fraction(rec["figures"]["main"]) == Fraction(win - lose, rec["deals"])


def test_670a_record_key_changes_with_the_settle_rules(g670a, tmp_path):
    """A record whose key no longer matches is not used (never a stale figure)."""
    from dataclasses import replace

    game, chapter = g670a
    sid = model_of(game, chapter).settle_step.id

    def swap(steps):
        return tuple(replace(s, rules=s.rules[1:], steps=swap(s.steps)) if s.id == sid
                     else replace(s, steps=swap(s.steps)) for s in steps)

    changed = replace(chapter, procedure=swap(chapter.procedure))
    assert pr.record_key(game, changed) != pr.record_key(game, chapter)
    p = pr.record_path(chapter, tmp_path)
    p.parent.mkdir(parents=True)
    p.write_text(json.dumps({"key": pr.record_key(game, changed)}))
    assert pr.load_record(game, chapter, tmp_path) is None


def test_670a_record_key_ignores_only_the_wording_the_log_prints(g670a):
    """A set_hands step's ``foul`` (what the log says of an illegal setting, declared as wording by
    the step registry) changes no figure; its ``high`` (cards in the high hand) does."""
    from dataclasses import replace

    from compiler.steps import KINDS

    assert KINDS["set_hands"].wording == ("foul",)
    game, chapter = g670a

    def edit(steps, key, value):
        return tuple(replace(s, params=tuple((k, value if k == key else v) for k, v in s.params),
                             steps=edit(s.steps, key, value))
                     if s.kind == "set_hands" else replace(s, steps=edit(s.steps, key, value)) for s in steps)

    base = pr.record_key(game, chapter)
    reworded = replace(chapter, procedure=edit(chapter.procedure, "foul", "another wording"))
    assert pr.record_key(game, reworded) == base
    regrouped = replace(chapter, procedure=edit(chapter.procedure, "high", 4))
    assert pr.record_key(game, regrouped) != base


def test_670a_exact_main_wager_within_4_standard_errors_of_the_seeded_simulation(g670a):
    from compiler.analysis.paigow import simulate_paigow

    game, chapter = g670a
    rec = pr.load_record(game, chapter)
    assert rec is not None
    sim = simulate_paigow(game, chapter, {"double_down_offered": True}, 4000, seed=7, policies=("house_way",))
    n, mean, se = sim["house_way"]["stats"]["main"]
    assert abs(float(Fraction(rec["figures"]["main"])) - mean) <= 4 * se
    n2, mean2, se2 = sim["house_way"]["stats"]["double"]
    assert abs(float(Fraction(rec["figures"]["double_always"])) - mean2) <= 4 * se2


def test_670a_without_a_matching_record_the_main_wager_is_not_computed_with_the_command(g670a, tmp_path):
    from dataclasses import replace

    from compiler.analysis.paigow import _exact_house_way
    from compiler.analysis.report import Report

    game, chapter = g670a
    m = model_of(game, chapter)
    elsewhere = replace(chapter, spec_path=str(tmp_path / "670a.yaml"))   # no records/ beside it
    rep = Report("670a", "t", {}, [])
    _exact_house_way(rep, game, elsewhere, {}, m)
    assert not rep.figures
    assert {n.wager for n in rep.not_computed} == {m.main, m.double}
    assert all("exact enumeration takes ~" in n.reason and "rulespec analyze --exhaustive" in n.reason
               for n in rep.not_computed)


def test_670a_with_the_committed_record_the_main_wager_and_double_down_are_exact(g670a):
    from compiler.analysis.paigow import _exact_house_way
    from compiler.analysis.report import Report

    game, chapter = g670a
    m = model_of(game, chapter)
    rec = pr.load_record(game, chapter)
    rep = Report("670a", "t", {}, [])
    _exact_house_way(rep, game, chapter, {}, m)
    assert not rep.not_computed
    main, optimal = (f for f in rep.figures if f.wager == m.main)   # house way, then the player's best setting
    assert main.exact and main.expected_return == Fraction(rec["figures"]["main"])
    assert optimal.exact and optimal.expected_return == Fraction(rec["figures"]["main_optimal"])
    for f in (main, optimal):
        assert sum(f.outcomes.values()) == 1
        assert sum(Fraction(k) * v for k, v in f.outcomes.items()) == f.expected_return
    # always, when positive with the house way's setting, with both choices optimal
    assert len([f for f in rep.figures if f.wager == m.double and f.exact]) == 3


def test_analyze_exhaustive_refuses_a_chapter_without_set_hands(capsys):
    from compiler.cli import main

    assert main(["analyze", "rulespecs/567-war.yaml", "--exhaustive"]) == 1
    err = capsys.readouterr().err
    assert "no exhaustive enumeration for this chapter" in err and "set their hands" in err
