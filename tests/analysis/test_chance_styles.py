"""The analysis is robust to how a chapter is written (issue 24.4), for the chance and points games: each test
chapter of tests/fixtures/chapters/ (NOT official text) is written again here the way another regulator
plausibly would, by text substitution in tmp_path, and both chapters are analysed: the restyled chapter
validates (no traceback, exit 0) and every wager has the same exact figure (Fraction equality of the expected
return, the return per amount wagered, the hit frequency and the outcomes), computed both ways here.

The styles tried, one entry of STYLES each (the substitutions are in the functions of chance_styles.py), and a test
of their own for what needs more than the same figures:
* Dragon Tiger: the tie settled first and the Dragon/Tiger wagers in a settle step of their own, the Tiger's
  win written ``T > D``; the cards compared by their points (a points ranking, ace 1 to king 13) instead of a
  high-card ranking; the two cards dealt to community zones in one block; the Dragon wager required; two
  dealing orders in blocks chosen by an option (both tried). Its Tie paid 7 to 6 with a required wager.
* Roulette: the pockets listed in the order of the wheel, not of the layout; the outside wagers written as
  sets of pockets (a column as the pockets of its column), number ranges and labels instead of the pockets'
  attributes, and a straight up as ``picked(W, pocket.label)``; each wager lost by a rule of its own instead of
  ``lose all``. Single-zero roulette with la partage in a step of its own under a block its option chooses.
* Sic Bo: the dice total written from the faces (``dice_count``), a triple as ``dice.distinct == 1``; the
  Total wager paid by a table of values on the total instead of one rule per payout (and with an amount in
  it, refused for that wager alone); the Single Number's rules from three dice down.
* Big Six: the segments listed in another order, each with an attribute the rules read instead of the label;
  one wager on a chosen symbol paid by a table of values on the label.
* Craps: ``dice.total`` for ``round.roll``, the point loop written with ``while`` instead of ``until``; the Field
  paid by a table of values on the total.
* Mini-Baccarat and EZ Baccarat (1 deck: the shoe does not change how the chapter is written): the naturals
  written as ``total(...) < 8``, the hands compared by ``total`` or ``hand``; the settlement split into one step
  per wager, the tie first; each third card in its hand's own zone; the Panda 8 lost by a rule without a
  condition; half of the Player and Banker wagers lost on a tie.
* Red Dog: the wins with "between" written out and every other hand lost by a rule without a condition; the
  raise written as an ``offer`` (the figures of standing and raising; no optimal figure).
* Blackjack on a shoe of ten cards: the dealer's drawing as a block holding an ``until`` loop; the player's drawing with
  ``until``, the choices listed hit first.
* Dice Total with its Seven paid 7 to 6 (no payout rounded).
"""
from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest

from chance_styles import (B6_SYMBOLS, CH, STYLES, b6_one_wager, bj_dealer_block_until, bj_player_until, restyled,
                           rsub, sb_total_paytable, sub)
from cli_run import run_rulespec
from compiler.analysis.report import analyze
from compiler.pipeline import load_game


def _figures(path: Path, decks: int | None, policy_free=(), options=()):
    mod, comp = load_game(path)
    # the options the chapter declares (a restyle's own option, such as the order of dealing, is not the original's)
    rep = analyze(mod.GAME, comp.chapter, {k: v for k, v in options if k in mod.GAME.options}, decks=decks)
    figs = {}
    for f in rep.figures:
        assert f.status == "exact", (path.name, f.wager, f.status)
        key = (f.stakes, "*" if set(f.stakes) <= set(policy_free) else f.policy.text)
        assert key not in figs, key
        figs[key] = (f.expected_return, f.per_total_wagered, f.hit_frequency, f.outcomes)
    return [(n.wager, n.reason) for n in rep.not_computed], figs


@lru_cache(maxsize=None)
def original(name: str, decks: int | None, policy_free=(), options=()):
    return _figures(CH / f"{name}.yaml", decks, policy_free, options)


@pytest.mark.parametrize("name,style,settings", STYLES, ids=[f"{n}-{s.__name__}" + "".join(
    f"-{v}" for v in st.get("options", {}).values()) for n, s, st in STYLES])
def test_a_chapter_written_in_another_style_has_the_same_figures(tmp_path, name, style, settings):
    text = (CH / f"{name}.yaml").read_text(encoding="utf-8")
    new = style(restyled(text))
    assert new != text
    path = tmp_path / f"{name}.yaml"
    path.write_text(new, encoding="utf-8")
    res = run_rulespec("validate", path)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stdout + res.stderr
    # the chapter's text rendered, and a few seeded rounds played by the engine
    opts = [a for k, v in settings.get("options", {}).items() for a in ("--option", f"{k}={v}")]
    for args in (("text", "render", path), ("simulate", path, "--rounds", "50", "--seed", "1", *opts)):
        res = run_rulespec(*args)
        assert res.returncode == 0 and "Traceback" not in res.stderr, (args, res.stdout[-2000:], res.stderr)
    decks, free = settings.get("decks"), settings.get("policy_free", ())
    options = tuple(settings.get("options", {}).items())
    refused, figs = _figures(path, decks, free, options)
    want_refused, want = original(name, decks, free, options)
    assert refused == want_refused == []
    assert figs.keys() == want.keys()
    for key in want:
        assert figs[key] == want[key], key


def test_big_six_written_as_one_wager_on_a_chosen_symbol_has_each_symbols_figure(tmp_path):
    """The Big Six wheel (tests/fixtures/chapters/big-six.yaml, NOT official text) written with one wager on a
    symbol the player chooses, paid by a table of values on the label the wheel stops at (b6_one_wager): each
    symbol's figure is the original's wager on that symbol, fraction for fraction (the figures of several
    symbols that pay alike are one, its policy naming their sets)."""
    path = tmp_path / "big-six.yaml"
    path.write_text(b6_one_wager(restyled((CH / "big-six.yaml").read_text(encoding="utf-8"))), encoding="utf-8")
    res = run_rulespec("validate", path)
    assert res.returncode == 0, res.stdout + res.stderr
    refused, figs = _figures(path, None)
    _, want = original("big-six", None)
    assert refused == []
    by_label = {}
    for (stakes, policy), values in figs.items():
        assert stakes == ("symbol",) and policy.startswith("placed on ")
        for label in re.findall(r"\[([^\]]*)\]", policy):
            by_label[label] = values
    assert by_label == {B6_SYMBOLS[w]: v for (stakes, _), v in want.items() for w in stakes}


def test_a_payout_of_odds_that_are_no_whole_cents_on_one_unit_is_not_rounded(tmp_path):
    """Dice Total (tests/fixtures/chapters/dice-total.yaml, NOT official text) with its Seven paid 7 to 6: the
    engine pays whole cents, rounding down, so the chance enumeration, which played a stake of 1, found 1.16 paid
    and gave -16/25 as exact. It plays a stake on which no payout is rounded (compiler/analysis/stakes.py).
    Independent: the 36 faces of two dice counted here."""
    text = (CH / "dice-total.yaml").read_text(encoding="utf-8")
    text = sub(restyled(text), "4 to 1", "7 to 6", None)
    path = tmp_path / "dice-total.yaml"
    path.write_text(text, encoding="utf-8")
    assert run_rulespec("validate", path).returncode == 0
    sevens = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == 7)
    want = Fraction(sevens, 36) * Fraction(7, 6) - Fraction(36 - sevens, 36)
    mod, comp = load_game(path)
    (f,) = [f for f in analyze(mod.GAME, comp.chapter, {}).figures if f.wager == "seven"]
    assert f.status == "exact" and f.expected_return == want == Fraction(-23, 36)


def test_a_paytable_paying_an_amount_is_refused_for_its_wager_alone_and_simulated_on_a_set(tmp_path):
    """Sic Bo with its Total paid by a table of values (sb_total_paytable) whose row for a total of 4 pays $100, an
    amount, not odds: the return per unit made depends on the stake, so the chance enumeration refuses the Total
    by name, and only it (the other wagers keep the original chapter's exact figures); the simulation then plays
    the Total on the first of its legal sets, which its figure names (it used to fail: "placed on numbers the
    player chooses: give them")."""
    text = sub(sb_total_paytable(restyled((CH / "sic-bo.yaml").read_text(encoding="utf-8"))),
               "{value: 4, label: Total of 4, pays: [60 to 1]}", "{value: 4, label: Total of 4, pays: [$100]}")
    path = tmp_path / "sic-bo.yaml"
    path.write_text(text, encoding="utf-8")
    mod, comp = load_game(path)
    rep = analyze(mod.GAME, comp.chapter, {}, rounds=2000, seed=3)
    _, want = original("sic-bo", None)
    exact = {(f.stakes, f.policy.text): (f.expected_return, f.per_total_wagered, f.hit_frequency, f.outcomes)
             for f in rep.figures if f.status == "exact"}
    assert exact == {k: v for k, v in want.items() if k[0] != ("total",)}
    (total,) = [f for f in rep.figures if f.stakes == ("total",)]
    assert total.status == "simulated" and total.policy.text == "placed on [4]"
    assert "paytable 'totals' (§ 942.5(b)) pays an amount, not odds" in total.method
    assert rep.not_computed == []


def test_red_dog_with_its_raise_written_as_an_offer_has_the_figures_of_standing_and_of_raising(tmp_path):
    """Red Dog (tests/fixtures/chapters/red-dog.yaml, NOT official text) with the raise written as an `offer` of a
    Raise equal to the Ante instead of a decision whose choice places it. An offer is valued as made whenever
    offered, per unit made: the Ante's figure is the original's "always stand", and the Ante plus the Raise as
    often as it is made is its "always raise", fraction for fraction. No optimal figure is given: the analysis
    reads an offer as a wager made whenever offered, not as a decision of the player (docs/analysis.md, "Robust
    to how a chapter is written")."""
    text = restyled((CH / "red-dog.yaml").read_text(encoding="utf-8"))
    text = rsub(text, r"^  - id: raise_decision\n(    .*\n)+?      - \{id: raise, .*\n",
                '  - {id: raise_decision, do: offer, wager: raise, equal_to: ante, cite: § 951.6(d),\n'
                '     players: "has(ante) and spread(red_dog, community.first, community.second) > 0"}\n')
    path = tmp_path / "red-dog.yaml"
    path.write_text(text, encoding="utf-8")
    assert run_rulespec("validate", path).returncode == 0
    mod, comp = load_game(path)
    rep = analyze(mod.GAME, comp.chapter, {})
    _, want = original("red-dog", None)
    by_policy = {k[1].split(" (")[0]: v[0] for k, v in want.items()}
    (ante,) = [f for f in rep.figures if f.stakes == ("ante",)]
    (raise_,) = [f for f in rep.figures if f.stakes == ("raise",)]
    made = Fraction(re.search(r"made in (\d+/\d+) of rounds", raise_.method).group(1))
    assert ante.status == raise_.status == "exact" and ante.policy.text == "no decisions"
    assert ante.expected_return == by_policy["always stand"]
    assert ante.expected_return + raise_.expected_return * made == by_policy["always raise"]


def test_baccarat_losing_half_on_a_tie_is_exact_by_the_points_method(tmp_path):
    """Mini-Baccarat (tests/fixtures/chapters/mini-baccarat.yaml, NOT official text, one deck) with half of each
    Player and Banker wager lost on a tie (``surrender 1/2``) instead of a push. The points method, which settles
    every position with the engine, did not declare the outcome: the chapter fell to the chance enumeration,
    which played about a million rounds before it gave up (100 s). Exact now by the points method, and equal to
    the original's figure less half the chance of a tie (its Tie wager's hit frequency)."""
    text = restyled((CH / "mini-baccarat.yaml").read_text(encoding="utf-8"))
    text = sub(text, "then: push player; push banker; win tie}", "then: surrender player 1/2; surrender banker 1/2; win tie}")
    text = sub(text, "Player and Banker wagers neither win nor lose.", "half of each Player and Banker wager is lost.")
    path = tmp_path / "mini-baccarat.yaml"
    path.write_text(text, encoding="utf-8")
    assert run_rulespec("validate", path).returncode == 0
    mod, comp = load_game(path)
    figs = {f.wager: f for f in analyze(mod.GAME, comp.chapter, {}, decks=1).figures}
    _, want = original("mini-baccarat", 1)
    tie = want[(("tie",), "any")][2]  # the chance of a tie: the Tie wager's hit frequency
    for w in ("player", "banker"):
        assert figs[w].status == "exact" and figs[w].method.startswith("exact: points method")
        assert figs[w].expected_return == want[((w,), "any")][0] - tie / 2
        assert figs[w].outcomes["surrender"] == tie


def test_the_chance_enumeration_refuses_at_once_a_deal_of_more_orders_than_its_budget():
    """Baccarat's deal steps (four cards, then one step per row of the third-card table) are more orders by rank
    than the chance enumeration's budget: it says so before playing any round (it used to play a million rounds
    first)."""
    from compiler.analysis import chance_exact
    mod, comp = load_game(CH / "mini-baccarat.yaml")
    with pytest.raises(chance_exact.Unmodelled, match=r"its deal steps deal 11 cards in all, up to 13 x 13\^10 "
                                                      r"orders by rank, more than its budget of 1,000,000 chance"):
        chance_exact.analyze_chance(mod.GAME, comp.chapter)


def test_a_required_wager_game_paying_7_to_6_is_not_rounded_by_the_engine_enumeration(tmp_path):
    """Dragon Tiger (tests/fixtures/chapters/dragon-tiger.yaml, NOT official text) without its Suited Tie, the Tiger
    required and the Tie paid 7 to 6: the engine enumeration plays a stake of 1, on which the engine pays 7 to 6
    as 1.16, and it gave -8701/10375 as exact. It refuses (stakes.rounded_on_one) and the chance enumeration,
    which plays a stake that rounds nothing, gives the Tie exactly. Independent: the chance of a tie counted from
    the 8 decks' ranks here."""
    text = restyled((CH / "dragon-tiger.yaml").read_text(encoding="utf-8"))
    text = sub(text, "tie: {odds: 8 to 1,", "tie: {odds: 7 to 6,")
    text = sub(text, "The Tie wager is paid 8 to 1", "The Tie wager is paid 7 to 6")
    text = sub(text, "  suited_tie: {name: Suited Tie, cite: § 944.5, pays: suited_tie}\n", "")
    text = rsub(text, r"^      - \{cite: § 944\.7\(d\).*\n", "", count=2)
    text = sub(text, "tiger: {name: Tiger, cite: § 944.5, pays: even_money}",
               "tiger: {name: Tiger, cite: § 944.5, pays: even_money, required: true}")
    path = tmp_path / "dragon-tiger.yaml"
    path.write_text(text, encoding="utf-8")
    assert run_rulespec("validate", path).returncode == 0
    tie = 13 * Fraction(32, 416) * Fraction(31, 415)  # both cards of one of 13 ranks, 32 of each in 416 cards
    mod, comp = load_game(path)
    figs = {f.wager: f for f in analyze(mod.GAME, comp.chapter, {}).figures}
    assert figs["tie"].status == "exact"
    assert figs["tie"].expected_return == tie * Fraction(7, 6) - (1 - tie) == Fraction(-2087, 2490)
    assert figs["tiger"].expected_return == Fraction(-31, 830) and figs["tiger"].policy.text == "no decisions"


@lru_cache(maxsize=None)
def _blackjack(path: Path, h17: bool):
    from compiler.analysis.draw_report import analyze_draw
    shoe = {"23456789TJQKA".index(c): n for c, n in {"A": 1, "2": 1, "4": 1, "6": 1, "8": 1, "9": 1, "T": 3}.items()}
    mod, comp = load_game(path)
    fig, _, _ = analyze_draw(mod.GAME, comp.chapter, {"hit_soft_17": h17}, 1, shoe)
    return fig.status, fig.expected_return, fig.per_total_wagered, fig.includes


@pytest.mark.parametrize("style,h17", [(bj_dealer_block_until, False), (bj_dealer_block_until, True),
                                       (bj_player_until, False)])
def test_blackjack_written_in_another_style_has_the_same_figure_on_a_reduced_shoe(tmp_path, style, h17):
    """Blackjack (tests/fixtures/chapters/blackjack.yaml, NOT official text) restyled: the draw walk's figure under
    optimal play on a shoe of ten cards (A 2 4 6 8 9 T T T T: a pair of tens to split, soft hands, busts), with
    the dealer standing or hitting on a soft 17, equal to the original's as fractions (the full 6-deck walk takes
    minutes)."""
    path = tmp_path / "blackjack.yaml"
    path.write_text(style(restyled((CH / "blackjack.yaml").read_text(encoding="utf-8"))), encoding="utf-8")
    res = run_rulespec("validate", path)
    assert res.returncode == 0, res.stdout + res.stderr
    got, want = _blackjack(path, h17), _blackjack(CH / "blackjack.yaml", h17)
    assert got == want and got[0] == "exact"
