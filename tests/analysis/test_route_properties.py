"""Routes are chosen by properties of the compiled procedure, not by recognising a chapter: the pai gow
simulation needs steps in which the players and the dealer set their hands, one required wager judged on
the high and low hands, and at most one wager offered during the round, made at the amount its offer
step states (not "an offer equal to the main wager is a Double Down")."""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from compiler.analysis import paigow
from compiler.pipeline import load_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_offered_wager_and_its_amount_are_read_from_the_offer_step():
    mod, comp = load_game(ROOT / "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml")
    m, why = paigow.model_or_reason(mod.GAME, comp.chapter)
    assert m is not None and not why
    offers = [s for s in comp.chapter.all_steps() if s.kind == "offer"]
    assert [dict(s.params).get("wager") for s in offers] == [m.double]
    assert m.double_equal_to == dict(offers[0].params).get("equal_to") == m.main

    class View:
        wagers = {m.main: Decimal("25")}

    assert m.offer_amount(View()) == Decimal("25")


def test_a_procedure_without_hands_set_is_not_given_to_the_pai_gow_simulation():
    for spec in ("rulespecs/567-war.yaml", "tests/fixtures/chapters/let-it-ride.yaml"):
        mod, comp = load_game(ROOT / spec)
        m, why = paigow.model_or_reason(mod.GAME, comp.chapter)
        assert m is None and "set their hands" in why
