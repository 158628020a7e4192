"""The key of the 670a exact record (compiler/analysis/paigow_record.py, ``record_key``) covers exactly what
the counted figures depend on (issue 28 item 2): the deck, the ranking, the house ways, the set-hands steps,
the settle rules and payouts of the main wager and the Double Down. Each amendment below is made to the
text of the committed rulespec, written to a temporary directory and compiled as a user's file would be;
the committed record (rulespecs/records/670a-main-exact.json) is then read for the amended chapter.

* Amendments of what the count does not read (the Fortune Bonus paytable, a text provision, an Envy
  schedule, an Insurance hand) leave the key as it is: the record still applies, its figures unchanged.
* An amendment of each part changes the key, ``parts_changed`` names that part alone, and the record is
  not read (never a stale figure); ``diff --impact`` says which part and the command that recomputes it.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from compiler.analysis import paigow_record as pr
from compiler.pipeline import load_game
from compiler.text.diff_format import format_text
from compiler.text.impact import record_impact

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"
TEXT = Path(SPEC).read_text(encoding="utf-8")
RECORDS = Path("rulespecs")  # the directory holding records/

# what is amended: (old text, new text, ...); each old text occurs exactly once in the rulespec
UNRELATED = {
    "Fortune Bonus paytable": ("{hand: three_of_a_kind, label: Three-of-a-kind, pays: [5 to 1]}",
                               "{hand: three_of_a_kind, label: Three-of-a-kind, pays: [4 to 1]}"),
    "Envy schedule": ('{hand: five_aces,      label: Five aces,      pays: ["$5,000"]}',
                      '{hand: five_aces,      label: Five aces,      pays: ["$4,000"]}'),
    "text provision": ("An additional fixed sum payout made to a player who placed a Qualifying Wager",
                       "An additional fixed sum paid to a player who placed a Qualifying Wager"),
    "Insurance hand": ('king_high:  {name: King-high,  cite: § 670a.12(c), category: high_card, high: K}',
                       'king_high:  {name: King-high,  cite: § 670a.12(c), category: high_card, high: Q}'),
}
RELATED = {
    "house ways": ("          - min: hand(five_card, setting.high)",    # § 670a.11(d)(2): the lowest ...
                   "          - max: hand(five_card, setting.high)"),   # ... becomes the highest
    "ranking": ("ace_low_straight: true ", "ace_low_straight: false"),
    "deck": ("deck: {cards: 52, jokers: 1, backs: identical in appearance,",
             "deck: {cards: 52, jokers: 1, backs: of one design,"),
    "set-hands": ("    larger_first: pai_gow\n", "    larger_first: double_down\n"),
    "settle rules": ("        when: has(double_down) and flag(pai_gow_tied)\n        then: push double_down",
                     "        when: has(double_down) and flag(pai_gow_tied)\n        then: lose double_down"),
    "payouts": ("even_money: {odds: 1 to 1, cite: § 670a.12(a)}", "even_money: {odds: 2 to 1, cite: § 670a.12(a)}",
                "Double Down Wager at odds of 1 to 1", "Double Down Wager at odds of 2 to 1"),  # data and text
}


@pytest.fixture(scope="module")
def base():
    mod, comp = load_game(SPEC)
    return mod.GAME, comp.chapter


def _amended(tmp_path_factory, *edits: str):
    text = TEXT
    for old, new in zip(edits[::2], edits[1::2]):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path_factory.mktemp("amended") / "670a-six-card-fortune-pai-gow-poker.yaml"
    path.write_text(text, encoding="utf-8")
    mod, comp = load_game(str(path))
    return (mod.GAME, comp.chapter), str(path)


def test_the_committed_record_is_keyed_by_the_parts_of_the_unchanged_rulespec(base):
    rec = pr.load_record(*base)
    assert rec is not None and rec["key"] == pr.record_key(*base)
    parts = pr.record_parts(*base)
    assert tuple(parts) == pr.PARTS
    # only what the count reads: the two rankings the settle rules and house way name, with the named
    # hands they use (not the Insurance hands); the one house way; the settle step and the Double Down offer
    assert {r: sorted(v.get("hands", {})) for r, v in parts["ranking"].items()} == {
        "five_card": ["pair_of_8s_or_better"], "low_hand": ["joker"]}
    assert list(parts["house ways"]) == ["six_card_fortune"]
    assert [s["id"] for s in parts["settle rules"]] == ["settle_pai_gow", "offer_double_down"]
    assert [s["id"] for s in parts["set-hands"]] == ["players_set_hands", "dealer_sets_hands"]
    assert sorted(parts["payouts"]["wagers"]) == ["double_down", "pai_gow"]
    assert list(parts["payouts"]["payouts"]) == ["even_money"] and parts["payouts"]["paytables"] == {}


@pytest.mark.parametrize("what", sorted(UNRELATED))
def test_an_unrelated_amendment_keeps_the_record(what, base, tmp_path_factory):
    amended, path = _amended(tmp_path_factory, *UNRELATED[what])
    assert pr.parts_changed(base, amended) == []
    assert pr.record_key(*amended) == pr.record_key(*base)
    rec = pr.load_record(*amended, root=RECORDS)
    assert rec is not None
    assert Fraction(rec["figures"]["main"]) == Fraction(pr.load_record(*base)["figures"]["main"])
    (entry,) = record_impact(base, amended, path)
    assert not entry["changed"] and entry["parts"] == [] and entry["note"].startswith("still applies")


@pytest.mark.parametrize("part", sorted(RELATED))
def test_an_amendment_of_a_part_the_count_reads_invalidates_the_record_and_names_it(part, base, tmp_path_factory):
    amended, path = _amended(tmp_path_factory, *RELATED[part])
    assert pr.parts_changed(base, amended) == [part]
    assert pr.record_key(*amended) != pr.record_key(*base)
    assert pr.load_record(*amended, root=RECORDS) is None
    (entry,) = record_impact(base, amended, path)
    assert entry["changed"] and entry["parts"] == [part]
    assert entry["command"] == f"rulespec analyze --exhaustive {path}"
    assert f"changes its {part};" in entry["note"] and entry["command"] in entry["note"]


def test_diff_impact_prints_the_record_entry_in_text_and_json(base, tmp_path_factory):
    from compiler.text.diff_format import format_json
    from compiler.text.diff_model import ChapterDiff, DiffResult

    amended, path = _amended(tmp_path_factory, *RELATED["house ways"])
    cd = ChapterDiff("670a", None, [], impact=record_impact(base, amended, path))
    result = DiffResult(SPEC, path, [cd])
    (line,) = [x for x in format_text(result).splitlines() if "exact record" in x]
    assert line.startswith("  impact exact record 670a-main-exact.json [house way]: no longer applies: the "
                           "amendment changes its house ways; ")
    assert line.endswith(f"`rulespec analyze --exhaustive {path}` recomputes it")
    import json

    (entry,) = json.loads(format_json(result))["chapters"][0]["impact"]
    assert entry["parts"] == ["house ways"] and entry["command"] == f"rulespec analyze --exhaustive {path}"
