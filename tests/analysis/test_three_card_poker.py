"""Three Card Poker (tests/fixtures/chapters/three-card-poker.yaml, NOT official text): the Ante Bonus is a
bonus on the Ante's own result (`bonus ante by ante_bonus on ...`): paid into the round's log and the
ledger without any wager placed, part of the Ante's return and no amount wagered. The dealer-hand route
with the bonus equals a brute force written here on reduced decks (every deal settled by the engine), and
on the full deck the figures Wizard of Odds publishes (https://wizardofodds.com/games/three-card-poker/:
Ante and Play with the 5/4/1 Ante Bonus, optimal strategy: house edge 3.37% of the Ante, element of risk
2.01%; Pair Plus 40/30/6/4/1: house edge 2.32%)."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import pytest

from compiler.analysis import deal_common, deals
from compiler.analysis.card_routes import _active_steps
from compiler.analysis.report import analyze
from compiler.pipeline import load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import FixedStrategy, Table
from compiler.runtime.shoe import ScriptedShoe

from analysis_fixtures import hand_scores

ROOT = Path(__file__).resolve().parents[2]
TCP = ROOT / "tests/fixtures/chapters/three-card-poker.yaml"


@pytest.fixture(scope="module")
def tcp():
    mod, comp = load_game(TCP)
    return mod, comp


def _round(mod, player, dealer, choice, bets=None):
    shoe = ScriptedShoe({("player", 1, "hand"): parse_cards(player.split()),
                         ("dealer", None, "cards"): parse_cards(dealer.split())})
    t = mod.new_table({}, shoe=shoe)
    res = t.play_round({1: bets or {"ante": Decimal(10)}}, FixedStrategy([choice]))
    assert t.ledger.balance() == 0                     # money is conserved with the bonus paid
    return t, res


def test_905_7_b_ante_bonus_is_paid_on_the_ante_without_a_wager_placed(tcp):
    mod, _ = tcp
    # a straight flush against a qualifying dealer's pair of aces
    t, res = _round(mod, "5H 6H 7H", "AS AD 2C", "play")
    assert [r.wager for r in res.results] == ["ante", "play"]     # nothing placed for the bonus
    ante = res.results[0]
    # the Ante's result: +10 at 1 to 1 and the bonus 5 to 1 on the $10 Ante, +50, with both citations
    assert (ante.outcome, ante.net) == ("win", Decimal(60))
    assert ante.cites == ("§ 905.6(d)", "§ 905.7(a)", "§ 905.7(b)") and "Ante Bonus +50.00 (Straight flush)" in ante.detail
    [bonus] = [e for e in res.log if e.kind == "bonus"]
    assert (bonus.cite, bonus.wager, bonus.net) == ("§ 905.7(b); § 905.7(b)", "ante", Decimal(50))
    assert sum(r.net for r in res.results) == Decimal(70) == t.ledger.players


def test_905_7_b_ante_bonus_whatever_the_dealer_holds_and_never_on_a_fold(tcp):
    mod, _ = tcp
    # three-of-a-kind loses to the dealer's straight flush: Ante and Play lost, the bonus 4 to 1 paid
    _, res = _round(mod, "4S 4D 4C", "9C TC JC", "play")
    assert sum(r.net for r in res.results) == Decimal(-20 + 40)
    # a straight folded: no bonus
    _, res = _round(mod, "9S TD JC", "2C 3D 7H", "fold")
    assert [(r.outcome, r.net) for r in res.results] == [("lose", Decimal(-10))]
    assert not [e for e in res.log if e.kind == "bonus"]
    # a pair played: on no row of the Ante Bonus paytable, no bonus (the rule's condition does not hold)
    _, res = _round(mod, "9S 9D 2C", "KC 3D 7H", "play")
    assert not [e for e in res.log if e.kind == "bonus"] and "Ante Bonus" not in res.results[0].detail


def _brute_force(game, deck):
    """Every deal (3 to the player, 3 to the dealer): for every player hand the choice of largest expected
    net over the dealer's hands; each round settled by the engine (memoised on both hands' values)."""
    v = hand_scores(game, "three_card")

    memo: dict = {}
    rk: dict = {}

    def net(P, D, choice):
        key = (v(P), v(D), choice)
        if key not in memo:
            _, nets, stakes = deal_common._play(game, {}, {"ante": Decimal(1)}, list(P) + list(D), (choice,), rk)
            memo[key] = (sum(nets.values(), Fraction(0)), sum(stakes.values(), Fraction(0)))
        return memo[key]

    total, acc, staked = 0, Fraction(0), Fraction(0)
    for P in combinations(deck, 3):
        rest = [c for c in deck if c not in P]
        hands = list(combinations(rest, 3))
        each = {ch: sum(net(P, D, ch)[0] for D in hands) for ch in ("play", "fold")}
        best = max(each, key=lambda ch: (each[ch], ch == "play"))
        acc += each[best]
        staked += sum(net(P, D, best)[1] for D in hands)
        total += len(hands)
    return acc / total, staked / total


@pytest.mark.parametrize("cards", [
    "AS KS QS 4S 3S 2S AH KH QH 4H 3H 2H",            # straights, flushes, straight flushes; two suits
    "AS AH AD KS KH KD QS QH QD 3S 3H",                # three-of-a-kind, pairs; an uneven deck
])
def test_dealer_route_with_the_bonus_equals_brute_force_on_a_reduced_deck(tcp, cards):
    mod, comp = tcp
    game = mod.GAME
    steps = _active_steps(game, comp.chapter, Table(game, {}, seed=0))
    deck = sorted(parse_cards(cards.split()))
    sol = deals.solve(game, steps, deck, {}, {"ante": 1})
    assert sol.sets == comb(len(deck), 3) * comb(len(deck) - 3, 3)
    best, staked = _brute_force(game, deck)
    assert sol.expected_net == best
    assert sol.expected_stake == staked   # the bonus is no amount wagered


def _category_counts():
    """3-card categories of the 22,100 hands by a counting of their own (not the project's ranking)."""
    counts = dict.fromkeys(("straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"), 0)
    for h in combinations(range(52), 3):
        ranks = sorted(c >> 2 for c in h)
        flush = len({c & 3 for c in h}) == 1
        straight = len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2 or ranks == [0, 1, 12])
        kind = ("straight_flush" if straight and flush else "three_of_a_kind" if len(set(ranks)) == 1 else
                "straight" if straight else "flush" if flush else "pair" if len(set(ranks)) == 2 else "high_card")
        counts[kind] += 1
    return counts


def test_full_deck_equals_the_published_figures(tcp):
    mod, comp = tcp
    rep = analyze(mod.GAME, comp.chapter, {})
    assert not rep.not_computed
    (rnd,) = [f for f in rep.figures if f.stakes == ("ante", "play") and f.policy.text == "optimal strategy"]
    assert rnd.exact and "407,170,400 deals" in rnd.method
    assert f"{float(-rnd.expected_return):.2%}" == "3.37%"        # Wizard of Odds: house edge
    assert f"{float(-rnd.per_total_wagered):.2%}" == "2.01%"      # Wizard of Odds: element of risk
    (pp,) = [f for f in rep.figures if f.wager == "pair_plus"]
    c = _category_counts()
    assert c == {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1096, "pair": 3744,
                 "high_card": 16440}
    pays = {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 4, "pair": 1}
    assert pp.expected_return == Fraction(sum(c[k] * p for k, p in pays.items()) - c["high_card"], 22100)
    assert f"{float(-pp.expected_return):.2%}" == "2.32%"


def test_a_round_voided_after_the_bonus_takes_the_bonus_back(tmp_path):
    """An irregularity that voids the round after settlement returns every wager: the bonus paid on the
    Ante goes back too (a bonus line with the negative amount), and the money still balances."""
    text = TCP.read_text(encoding="utf-8").replace("\nprovisions:\n", """
irregularities:
  - id: information_exchanged
    event: information_exchanged
    title: Players exchanged information
    cite: § 905.6(d)
    rules:
      - {cite: § 905.6(d), then: void round}
provisions:
""", 1)
    p = tmp_path / "tcp.yaml"
    p.write_text(text, encoding="utf-8")
    mod, _ = load_game(p)
    shoe = ScriptedShoe({("player", 1, "hand"): parse_cards("5H 6H 7H".split()),
                         ("dealer", None, "cards"): parse_cards("AS AD 2C".split())})
    t = mod.new_table({}, shoe=shoe)
    res = t.play_round({1: {"ante": Decimal(10)}}, FixedStrategy(["play"]),
                       [{"event": "information_exchanged", "after": "settle"}])
    assert [(r.wager, r.outcome, r.net) for r in res.results] == [("ante", "void", 0), ("play", "void", 0)]
    assert [e.net for e in res.log if e.kind == "bonus"] == [Decimal(50), Decimal(-50)]
    assert t.ledger.players == 0 and t.ledger.balance() == 0


def _variant(tmp_path, old, new):
    text = TCP.read_text(encoding="utf-8")
    assert text.count(old) == 1
    p = tmp_path / "tcp.yaml"
    p.write_text(text.replace(old, new), encoding="utf-8")
    mod, comp = load_game(p)
    return mod, comp


PAIR_PLUS_WIN = ('then: "win pair_plus by pair_plus on hand(three_card, player.hand)"}')


def test_a_wager_that_also_earns_a_bonus_gets_no_paytable_figure(tmp_path):
    """The paytable route prices a wager by its paytable alone: a Pair Plus that also earns a bonus (here the
    Ante Bonus table on it) is refused there, with the reason, not priced without its bonus."""
    mod, comp = _variant(tmp_path, PAIR_PLUS_WIN, PAIR_PLUS_WIN[:-2] + '; bonus pair_plus by ante_bonus on '
                         'hand(three_card, player.hand)"}')
    rep = analyze(mod.GAME, comp.chapter, {}, simulate_refused=False)  # the exact routes
    assert not [f for f in rep.figures if f.wager == "pair_plus"]
    assert any("also earns a bonus (§ 905.7(c))" in n.reason for n in rep.not_computed if n.wager == "pair_plus")


def test_a_bonus_paid_in_a_decision_is_refused_by_the_deal_routes(tmp_path):
    """The deal routes read a bonus's paytable value into the seat's class from the settle rules; one paid
    by a decision is refused with the reason (no figure), never priced as if it were not there."""
    mod, comp = _variant(tmp_path, "then: place play = wager(ante)}",
                         'then: "place play = wager(ante); bonus ante by ante_bonus on hand(three_card, player.hand)"}')
    steps = _active_steps(mod.GAME, comp.chapter, Table(mod.GAME, {}, seed=0))
    with pytest.raises(deal_common.Refused, match="pays a bonus outside the settle step"):
        deals.solve(mod.GAME, steps, sorted(parse_cards("AS KS QS 4S 3S 2S AH KH QH".split())), {}, {"ante": 1})


def test_a_bonus_paid_in_a_decision_is_refused_by_the_deal_class_route_without_a_dealer(tmp_path):
    """The same refusal where no dealer hand is dealt (Mississippi Stud, the deal-class route)."""
    ms = ROOT / "tests/fixtures/chapters/mississippi-stud.yaml"
    text = ms.read_text(encoding="utf-8")
    old = "{id: raise_3x, cite: § 902.6(b), then: place third = wager(ante) * 3}"
    assert text.count(old) == 1
    p = tmp_path / "ms.yaml"
    p.write_text(text.replace(old, '{id: raise_3x, cite: § 902.6(b), then: "place third = wager(ante) * 3; '
                                   'bonus ante by mississippi on best(five_card, player.hand)"}'), encoding="utf-8")
    mod, comp = load_game(p)
    steps = _active_steps(mod.GAME, comp.chapter, Table(mod.GAME, {}, seed=0))
    with pytest.raises(deal_common.Refused, match="pays a bonus outside the settle step"):
        deals.solve(mod.GAME, steps, sorted(parse_cards("AS KS QS JS TS AH KH QH".split())), {}, {"ante": 1})

