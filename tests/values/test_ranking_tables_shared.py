"""Rankings of equal specs share their lookup tables (built once per process), and a shared table
gives the same values as one built afresh."""
import random

from compiler.pipeline import compile_spec, ROOT
from compiler.values import rankings as R


def _spec_670a():
    c = compile_spec(next((ROOT / "rulespecs").glob("670a-*.yaml")))
    return c.chapter.data["rankings"]["five_card"]


def test_equal_specs_share_tables_and_a_changed_spec_does_not():
    spec = _spec_670a()
    a = R.Ranking(spec, "five_card")
    b = R.Ranking(dict(spec), "five_card")
    assert a._plain is b._plain and a._flush is b._flush
    other = {**spec, "ace_low_straight": not spec.get("ace_low_straight", True)}
    c = R.Ranking(other, "five_card")
    assert c._plain is not a._plain


def test_shared_tables_value_hands_as_a_fresh_build(monkeypatch):
    spec = _spec_670a()
    shared = R.Ranking(spec, "five_card")
    monkeypatch.setattr(R, "_TABLES", {})
    fresh = R.Ranking(spec, "five_card")
    assert fresh._plain is not shared._plain
    rng = random.Random(5)
    deck = list(range(53))
    for _ in range(2000):
        hand = rng.sample(deck, 5)
        assert shared.evaluate(hand).score == fresh.evaluate(hand).score
