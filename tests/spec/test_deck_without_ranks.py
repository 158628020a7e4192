"""A deck with ranks removed (`cards.deck.without`): Spanish 21's 48-card decks, the four 10s taken out of each
(tests/fixtures/chapters/spanish-21.yaml, NOT official text). Before, the schema fixed `deck.cards` at 52 and the
chapter could not be written. The shoe deals no card of a removed rank, `validate` ties the count to the ranks
removed, a hand history dealing one is refused at its position, and the analyses that deal the 52 cards refuse it
by name (the contract's construct 'deck ranks removed'; the draw walk and the simulation model it)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from compiler.analysis import contract
from compiler.cli import main
from compiler.pipeline import load_game
from compiler.runtime.cards import card_str

ROOT = Path(__file__).resolve().parents[2]
SPANISH = ROOT / "tests" / "fixtures" / "chapters" / "spanish-21.yaml"


def run(*argv) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue() + err.getvalue()


def test_the_shoe_holds_six_decks_of_48_cards_and_no_ten():
    mod, _ = load_game(SPANISH)
    table = mod.new_table({}, seed=1)
    cards = list(table.shoe.cards)
    assert len(cards) == 6 * 48
    assert not any(card_str(c).startswith("T") for c in cards)
    assert sum(card_str(c).startswith("J") for c in cards) == 24


def test_validate_ties_the_deck_size_to_the_ranks_removed(tmp_path):
    bad = tmp_path / "s21.yaml"
    bad.write_text(SPANISH.read_text(encoding="utf-8").replace("without: [T], ", ""), encoding="utf-8")
    rc, out = run("validate", bad)
    assert rc == 1 and "a deck of 48 cards: a deck is the 52 cards" in out, out


def test_a_hand_history_dealing_a_removed_rank_is_refused(tmp_path):
    src = ROOT / "tests/fixtures/chapters/spanish-21-rounds/five-card-21-and-surrender.yaml"
    r = tmp_path / "r.yaml"
    r.write_text(src.read_text(encoding="utf-8").replace("rulespec: ../spanish-21.yaml", f"rulespec: {SPANISH}")
                 .replace("[9S, 7D]", "[TS, 6D]"), encoding="utf-8")
    rc, out = run("settle", SPANISH, r)
    assert rc == 1 and "TS is not in the shoe: the deck has no T" in out, out


def test_routes_that_deal_the_52_cards_refuse_it_by_name():
    mod, compiled = load_game(SPANISH)
    why = contract.refusal("engine enumeration", mod.GAME, compiled.chapter, {})
    assert why is not None
    items = contract.constructs(mod.GAME, compiled.chapter, {})
    removed = [c for c in items if c.category == "deck"]
    assert [c.name for c in removed] == ["ranks removed"]
    for method in ("engine enumeration", "paytable enumeration", "chance", "points"):
        assert not contract.METHODS[method].models(removed[0]), method
    assert contract.METHODS["draw walk"].models(removed[0]) and contract.METHODS["simulation"].models(removed[0])
