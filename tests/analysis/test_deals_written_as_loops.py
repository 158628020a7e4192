"""Cards dealt as a regulation says, "one card at a time to each player and to the dealer until each has five
cards": a ``repeat`` of deal steps that stops on the number of cards (the Crazy 4 Poker test chapter,
tests/fixtures/chapters/crazy-4-poker.yaml, NOT official text). The fast path deals it pass after pass as the
engine does (it dealt one card to each hand and the analysis crashed: "ranking four_card: 1 cards, a hand
needs 4"), and the exact methods read it as the deals it makes (every one refused "step kind 'repeat'")."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from compiler.analysis.counted_loops import unroll_counted_deals
from compiler.fast import compile_fast
from compiler.lang.syntax import Lit
from compiler.pipeline import load_game
from compiler.runtime.engine import FixedStrategy, Table

ROOT = Path(__file__).resolve().parents[2]
CRAZY4 = str(ROOT / "tests/fixtures/chapters/crazy-4-poker.yaml")


@pytest.fixture(scope="module")
def crazy4():
    return load_game(CRAZY4)


def _engine_rounds(game, seed, rounds, seats, bets, prefer):
    t = Table(game, {}, seed=seed)
    out = []
    for _ in range(rounds):
        res = t.play_round({s: bets for s in range(1, seats + 1)}, FixedStrategy(prefer))
        out.append(sorted((r.seat, r.wager, r.outcome, int(r.amount * 100), int(r.net * 100)) for r in res.results))
    return out


def test_fast_path_deals_a_loop_pass_after_pass_as_the_engine(crazy4):
    """12 tables x 20 rounds x 3 seats: every settlement to the cent equal to the engine's."""
    mod, compiled = crazy4
    bets = {"ante": 5, "super_bonus": 5, "queens_up": 2}
    prefer = ["play_3x", "play_1x"]
    fast = compile_fast(compiled.chapter, mod.GAME, {})
    seeds = [700 + i for i in range(12)]
    played = fast.play(seeds, 20, 3, bets, prefer, record=True)
    outcomes = set()
    for k, seed in enumerate(seeds):
        eng = _engine_rounds(mod.GAME, seed, 20, 3, bets, prefer)
        assert [sorted(r) for r in played.rounds[k]] == eng, f"table {k} (seed {seed})"
        outcomes |= {(w, o) for rnd in eng for _, w, o, _, _ in rnd}
    # the hands were judged on five cards: the Queens Up both wins and loses, the Super Bonus is paid
    assert {("queens_up", "win"), ("queens_up", "lose"), ("super_bonus", "win"), ("play", "win")} <= outcomes


def test_a_counted_deal_loop_reads_as_its_passes(crazy4):
    _, compiled = crazy4
    ch = compiled.chapter
    flat = unroll_counted_deals(ch)
    kinds = [(s.kind, s.id) for s in flat.procedure[:11]]
    assert kinds[0] == ("settle", "equal_wagers")
    assert kinds[1:] == [("deal", "card_to_each_player"), ("deal", "card_to_dealer")] * 5
    assert not any(s.kind == "repeat" for s in flat.procedure)


def test_a_loop_whose_condition_reads_the_cards_is_left_as_it_is(crazy4):
    """A stop read from what the cards are (not how many) is no fixed deal: the loop stays, and is refused."""
    _, compiled = crazy4
    ch = compiled.chapter
    loop = next(s for s in ch.procedure if s.kind == "repeat")
    reads_cards = dataclasses.replace(loop, exprs=tuple(
        (k, Lit(True) if k != "until" else _parse("is_hand(four_card, dealer.hand, king_high)"), t)
        for k, v, t in loop.exprs))
    ch2 = dataclasses.replace(ch, procedure=tuple(reads_cards if s is loop else s for s in ch.procedure))
    assert unroll_counted_deals(ch2) is ch2
    # a loop that would reach its bound is an irregularity of the round, not a fixed deal
    bound = dataclasses.replace(loop, params=tuple((k, 4 if k == "bound" else v) for k, v in loop.params))
    ch3 = dataclasses.replace(ch, procedure=tuple(bound if s is loop else s for s in ch.procedure))
    assert unroll_counted_deals(ch3) is ch3


def _parse(text):
    from compiler.lang.syntax import parse_expr
    return parse_expr(text)


def _diagnostics(text):
    from compiler.pipeline import compile_spec
    return [d.format() for d in compile_spec("c4.yaml", text).diagnostics]


def test_the_number_a_loop_stops_on_is_tied_to_its_text():
    """`until: count(dealer.hand) == 5` (§ 657a.8(b)) states the text's 'five cards'; a loop's `while`/`until`
    were not read by the text lint: the text's number was reported untied, and a wrong number went unseen."""
    text = Path(CRAZY4).read_text(encoding="utf-8")
    assert not [d for d in _diagnostics(text) if "§ 657a.8(b) states" in d]
    wrong = text.replace("until: count(dealer.hand) == 5", "until: count(dealer.hand) == 6")
    assert any("error: the data gives number in the expression '6' for § 657a.8(b)" in d for d in _diagnostics(wrong))
