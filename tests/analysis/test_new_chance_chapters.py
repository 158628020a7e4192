"""Every figure `analyze` gives on three chance chapters written as a regulator would (NOT official text,
tests/fixtures/chapters/): each held to an independent route written here.

* baccarat-dragon-bonus.yaml (8 decks): the Player, Banker and Tie wagers equal, fraction for fraction, those
  of mini-baccarat.yaml (another chapter, written another way: community zones, the third-card table by the
  Banker's total) and the published 1.2351%, 1.0579%, 14.3596% (https://wizardofodds.com/games/baccarat/);
  the Dragon Bonus on each hand equals the Wizard of Odds' count of every outcome over the
  4,998,398,275,503,360 ordered deals of six cards (Baccarat Appendix 5,
  http://wizardofodds.com/games/baccarat/appendix/5/ : the win and natural-tie counts as printed, the
  losses the rest; the page prints the loss count and the total rounded in their last digits), 2.6517% and
  9.3731%.
* roulette-0-la-partage.yaml: every wager on every legal set by counting the 37 pockets of the chapter's
  own wheel data: 1/37 = 2.70%; the even-money wagers with La Partage 1/74 = 1.35% (published: John
  Grochowski, https://pressofatlanticcity.com/acw/blogs/gaming_guru/online-rules-give-boost-to-roulette-players/article_a36532a6-befe-11eb-b5fa-a3a23fa8400a.html ).
* crapless-craps.yaml: a closed-form count of the 36 rolls: Pass Line 373/6930 = 5.382% (Wizard of Odds,
  https://wizardofodds.com/games/crapless-craps/ ), with single odds 2.936% per total wagered
  (http://www.crapsfest.com/turbocharging-crapless-craps/ ), each Place wager resolved by the first of its
  number or a 7.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from compiler.analysis.model import pct
from compiler.analysis.report import analyze
from compiler.pipeline import load_game
from compiler.values.chance import legal_sets

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters"


def _load(name):
    mod, comp = load_game(CH / f"{name}.yaml")
    return mod.GAME, comp.chapter, yaml.safe_load((CH / f"{name}.yaml").read_text(encoding="utf-8"))


def _figures(name, options=None):
    game, chapter, _ = _load(name)
    rep = analyze(game, chapter, options or {})
    assert not rep.not_computed, rep.not_computed
    return rep.figures


# ----------------------------------------------------------------------------------- baccarat

DEALS = 416 * 415 * 414 * 413 * 412 * 411  # ordered six-card deals of an 8-deck shoe
# Wizard of Odds, Baccarat Appendix 5 (8 decks): win by 9, 8, 7, 6, 5, 4, natural win, natural tie
DRAGON = {"dragon_player": [18409431764992, 34097645543424, 89590261473280, 141238897317888, 166169165987840,
                            186780352174080, 812685054124032, 89325908267520],
          "dragon_banker": [15390342909952, 28305092784128, 79517099278336, 119200072366080, 157275882332160,
                            201147167287296, 812685054124032, 89325908267520]}
# the five paytables of § 915.10(c) (58 Pa. Code § 631b.9(f), Golden Talons), the same rows: a natural tie's
# Push is 0
PAYTABLES = {"Paytable A": [30, 10, 6, 4, 2, 1, 1, 0], "Paytable B": [20, 10, 5, 4, 2, 1, 1, 2],
             "Paytable C": [30, 12, 5, 3, 3, 1, 1, 0], "Paytable D": [20, 8, 7, 4, 3, 1, 1, 0],
             "Paytable E": [30, 10, 4, 4, 2, 2, 1, 0]}


@pytest.fixture(scope="module")
def baccarat():
    return {f.wager: f for f in _figures("baccarat-dragon-bonus")}


def test_baccarat_main_wagers_equal_another_chapters_and_the_published(baccarat):
    mini = {f.wager: f for f in _figures("mini-baccarat")}
    for w, published in (("player", "1.2351%"), ("banker", "1.0579%"), ("tie", "14.3596%")):
        assert baccarat[w].expected_return == mini[w].expected_return, w
        assert pct(baccarat[w].house_edge) == published


@pytest.mark.parametrize("wager, published", [("dragon_player", "2.6517%"), ("dragon_banker", "9.3731%")])
def test_dragon_bonus_equals_the_published_count_of_every_deal(baccarat, wager, published):
    counts = DRAGON[wager]
    lost = DEALS - sum(counts)
    pays = PAYTABLES["Paytable A"]  # the default selection, the Wizard of Odds' Dragon Bonus
    assert baccarat[wager].expected_return == Fraction(sum(p * c for p, c in zip(pays, counts)) - lost, DEALS)
    assert baccarat[wager].hit_frequency == Fraction(sum(counts[:7]), DEALS)
    assert pct(baccarat[wager].house_edge) == published


@pytest.mark.parametrize("column", ["Paytable B", "Paytable C", "Paytable D", "Paytable E"])
def test_every_paytable_the_casino_may_select_by_the_same_count(column):
    """The paytable rows are values the rules give (the margin, 'natural_win', 'natural_tie'): each column's
    figure is the published counts weighed by that column's odds (Paytable B pays a natural tie 2 to 1)."""
    figs = {f.wager: f for f in _figures("baccarat-dragon-bonus", {"dragon_bonus_paytable": column})}
    pays = PAYTABLES[column]
    for wager, counts in DRAGON.items():
        tie_pays = pays[7] != 0
        lost = DEALS - sum(counts)
        assert figs[wager].expected_return == Fraction(sum(p * c for p, c in zip(pays, counts)) - lost, DEALS)
        assert figs[wager].hit_frequency == Fraction(sum(counts[:8] if tie_pays else counts[:7]), DEALS)


# ----------------------------------------------------------------------------------- roulette

def test_roulette_every_wager_on_every_set_by_counting_the_pockets():
    game, chapter, data = _load("roulette-0-la-partage")
    wheel = next(s for s in data["procedure"] if s["do"] == "spin")["wheel"]
    pockets = wheel["pockets"]
    assert len(pockets) == 37
    odds = {k: Fraction(*map(int, v["odds"].split(" to "))) for k, v in data["payouts"].items()}
    covers = {"red": lambda p: p["colour"] == "red", "black": lambda p: p["colour"] == "black",
              "odd": lambda p: p["parity"] == "odd", "even": lambda p: p["parity"] == "even",
              "low": lambda p: 1 <= p["number"] <= 18, "high": lambda p: 19 <= p["number"] <= 36}
    for partage in (False, True):
        figs = _figures("roulette-0-la-partage", {"la_partage": partage})
        assert {f.wager for f in figs} == set(game.wagers) and len(figs) == len(game.wagers)  # one per wager
        for f in figs:
            w = data["wagers"][f.wager]
            pay = odds[w["pays"]]
            if "choose" in w:  # every legal set: the pockets it covers
                sets = legal_sets(w["choose"], wheel)
                assert f.policy.text == f"placed on any of its {len(sets)} sets"
                for s in sets:
                    assert Fraction(len(s), 37) * (pay + 1) - 1 == f.expected_return, (f.wager, s)
                continue
            win = sum(1 for p in pockets if covers[f.wager](p))
            zero = 1 if partage else 0  # half returned on the zero
            assert f.expected_return == (Fraction(win) * pay - (37 - win - zero) - Fraction(zero, 2)) / 37
            assert pct(f.house_edge) == ("1.3514%" if partage else "2.7027%")


# ----------------------------------------------------------------------------------- crapless craps

WAYS = {t: sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b == t) for t in range(2, 13)}


def p(*totals) -> Fraction:
    return Fraction(sum(WAYS[t] for t in totals), 36)


POINTS = [t for t in range(2, 13) if t != 7]
TRUE_ODDS = {t: p(7) / p(t) for t in POINTS}  # the odds pay the true odds of the point against a 7


@pytest.fixture(scope="module")
def crapless():
    return _figures("crapless-craps")


def test_crapless_pass_line_and_odds_by_a_closed_form(crapless):
    made = {t: p(t) / (p(t) + p(7)) for t in POINTS}  # the point before a 7
    win = p(7) + sum(p(t) * made[t] for t in POINTS)
    pass_line = next(f for f in crapless if f.stakes == ("pass_line",))
    assert pass_line.expected_return == 2 * win - 1 == Fraction(-373, 6930)
    assert pct(pass_line.house_edge) == "5.3824%"
    odds = next(f for f in crapless if f.stakes == ("pass_odds",))
    assert odds.expected_return == 0  # true odds
    with_odds = next(f for f in crapless if f.stakes == ("pass_line", "pass_odds"))  # the round with the odds
    odds_ev = sum(p(t) * (made[t] * TRUE_ODDS[t] - (1 - made[t])) for t in POINTS)  # zero
    wagered = 1 + (1 - p(7))  # the odds made whenever a point is set
    assert with_odds.per_total_wagered == (2 * win - 1 + odds_ev) / wagered == Fraction(-373, 12705)
    assert f"{float(-with_odds.per_total_wagered) * 100:.3f}" == "2.936"


@pytest.mark.parametrize("number", POINTS)
def test_crapless_place_wager_by_the_first_of_its_number_or_a_7(crapless, number):
    game, _, data = _load("crapless-craps")
    payout = data["payouts"][data["wagers"][f"place_{number}"]["pays"]]["odds"]
    pay = Fraction(*map(int, payout.split(" to ")))
    win = p(number) / (p(number) + p(7))
    f = next(f for f in crapless if f.wager == f"place_{number}")
    assert f.expected_return == pay * win - (1 - win)  # it stays on the layout until won or lost: per unit made
    assert f.hit_frequency == win
