"""Wagers that stay on the layout from one round to the next (issue 23, ``stays: until_settled``): the
Craps test chapter's Come wager (tests/fixtures/chapters/craps.yaml, not official text) carried with its come
point from the round it is made in into the next rounds on the same table, settled there by its own rules,
its money on the layout meanwhile; hand histories that begin with it; and the analysis contract. The engine's
tests play the chapter with its Come wager one per seat (as a wager that stays without ``several: true``);
tests/runtime/test_several_wagers.py plays several at once."""
from __future__ import annotations

import contextlib
import io
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from compiler.analysis import contract
from compiler.cli import main
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one, prepare_table
from compiler.runtime.audit import audit_rounds
from compiler.runtime.engine import FixedStrategy
from compiler.runtime.errors import RefusedError

ROOT = Path(__file__).resolve().parents[2]
CRAPS = ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml"
ROUNDS = ROOT / "tests" / "fixtures" / "chapters" / "craps-rounds"


def single_come(tmp_path_factory) -> Path:
    """The Craps test chapter with one Come wager a seat: not declared several, offered to a player who has made
    none in the round and has none on the layout."""
    text = CRAPS.read_text(encoding="utf-8")
    for old, new in (("keeps: [come_point], several: true}", "keeps: [come_point]}"),
                     ("players: has(pass_line), cite: § 981.6(e)}", "players: has(pass_line) and not placed(come), cite: § 981.6(e)}")):
        assert text.count(old) == 1
        text = text.replace(old, new)
    path = tmp_path_factory.mktemp("single") / "craps.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    return single_come(tmp_path_factory)


@pytest.fixture(scope="module")
def craps(single):
    return load_game(str(single))


def _run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def _results(r) -> dict:
    return {(x.seat, x.wager): (x.outcome, x.net, x.cites[0]) for x in r.results}


def _come_carried(mod):
    """A table whose first round leaves seat 1's Come wager on the layout with its point 4."""
    t = mod.new_table({}, seed=1)
    r = t.play_round({1: {"pass_line": 10}}, FixedStrategy(offers={"come": 10}), rolls=[[2, 3], [4, 4], [1, 3], [2, 3]])
    return t, r


def test_a_come_wager_stays_on_the_layout_with_its_point_and_is_settled_in_the_next_round(craps):
    mod, _ = craps
    t, r = _come_carried(mod)
    assert _results(r) == {(1, "pass_line"): ("win", Decimal(10), "§ 981.6(c)")}
    assert r.carried_out == {1: {"wagers": {"come": "10.00"}, "state": {"come_point": 4}}}
    assert [e.kind for e in r.log][-1] == "carry"
    # between the rounds its stake is on the layout: neither the player's nor the house's
    assert t.on_layout() == Decimal(10) and t.ledger.players == 10 and t.ledger.balance() == 0
    # the next round: the seat places nothing new; the come-out 7 loses the Come wager (§ 981.7(g))
    r2 = t.play_round({}, rolls=[[3, 4]])
    assert r2.carried_in == r.carried_out and not r2.carried_out and not t.carried
    assert _results(r2) == {(1, "come"): ("lose", Decimal(-10), "§ 981.7(g)")}
    assert r2.log[0].kind == "carried" and "come_point 4" in r2.log[0].text
    assert t.on_layout() == 0 and t.ledger.players == 0 and t.ledger.balance() == 0
    a = audit_rounds([r, r2])
    assert not a.problems and not a.unsettled and a.on_layout == 0 and a.players == 0


def test_has_holds_in_the_next_round_and_a_point_roll_wins_it_there(craps):
    mod, _ = craps
    t, _ = _come_carried(mod)
    # come-out 6 (the point), then 4: the carried Come wager wins on its point while the point is on (§ 981.7(f))
    r = t.play_round({1: {"pass_line": 10}}, rolls=[[3, 3], [2, 2], [6, 1]])
    assert _results(r) == {(1, "come"): ("win", Decimal(10), "§ 981.7(f)"),
                           (1, "pass_line"): ("lose", Decimal(-10), "§ 981.6(c)")}
    assert not t.carried


def test_it_stays_round_after_round_until_settled_and_the_audit_counts_it_on_the_layout(craps):
    mod, _ = craps
    t, r1 = _come_carried(mod)
    r2 = t.play_round({}, rolls=[[5, 6]])  # 11: not its point nor 7, no point set: it stays again
    r3 = t.play_round({}, rolls=[[6, 6]])  # 12 likewise
    assert not r2.results and not r3.results and r3.carried_out == r1.carried_out
    a = audit_rounds([r1, r2, r3])
    assert not a.problems and not a.unsettled
    assert a.on_layout == t.on_layout() == 10 and a.players + a.house == 0 and a.players == t.ledger.players
    r4 = t.play_round({}, rolls=[[1, 3]])  # its point: won on the come-out roll (§ 981.7(g))
    assert _results(r4) == {(1, "come"): ("win", Decimal(10), "§ 981.7(g)")}


def test_a_carried_wager_is_not_placed_again_and_only_a_wager_that_stays_is_carried(craps):
    mod, _ = craps
    t, _ = _come_carried(mod)
    with pytest.raises(RefusedError, match="already has a Come"):
        t.play_round({1: {"pass_line": 10, "come": 5}}, rolls=[[3, 4]])
    assert t.on_layout() == 10  # a round refused leaves the layout as it was
    with pytest.raises(RefusedError, match="not a wager that stays"):
        t.carry_in({1: {"wagers": {"pass_line": 10}}})
    with pytest.raises(RefusedError, match="not kept by a wager carried"):
        t.carry_in({1: {"wagers": {"come": 10}, "state": {"point": 4}}})


def test_play_saves_the_carried_wagers_and_settle_replays_the_round(craps, single, tmp_path):
    mod, _ = craps
    t, _ = _come_carried(mod)
    prepare_table(t)

    class Player:
        def choose(self, seat, step, decision, choices, view):
            return choices[0]

        def offer(self, seat, wager, view):
            return 0

    played = play_one(t, {2: {"field": 5}}, Player())
    h = yaml.safe_load(history_yaml(played.history))
    assert h["positions"]["1"] == {"wagers": {}, "carried": {"come": 10}, "state": {"come_point": 4}}
    f = tmp_path / "r.yaml"
    f.write_text(history_yaml(played.history), encoding="utf-8")
    rc, out, err = _run("settle", single, f)
    assert rc == 0, err
    assert "seat 1 began the round with on the layout: Come 10.00 (come_point 4)" in out
    assert ("Come" in out.split("seat 1 began")[0]) == any(x.wager == "come" for x in played.result.results)


def test_the_hand_histories_chain_the_carried_come_wager():
    made = yaml.safe_load((ROUNDS / "come-bet.yaml").read_text(encoding="utf-8"))
    for name in ("come-carried-won.yaml", "come-carried-lost.yaml"):
        nxt = yaml.safe_load((ROUNDS / name).read_text(encoding="utf-8"))
        assert {k: v for k, v in nxt["positions"][1].items() if k in ("carried", "state")} == made["expect"]["carried"][1]


@pytest.mark.parametrize("old,new,message,pointer", [
    ("  carried:\n    2: {carried: {come#1: 5}, state: {come#1: {come_point: 9}}}\n", "  carried: {}\n",
     "seat 2: the round leaves come#1 5.00 (come_point 9) on the layout, expected nothing", "/expect/carried"),
    ("{come_point: 9}}}\n", "{come_point: 8}}}\n", "leaves come#1 5.00 (come_point 9) on the layout, expected come#1 "
     "5.00 (come_point 8)", "/expect/carried/2"),
    ("    carried: {come#1: 5}\n", "    carried: {field: 5}\n", "'field' is not a wager of Chapter 981 that stays",
     "/positions/2/carried/field"),
    ("    carried: {come#1: 5}\n", "    carried: {come#1: 5.001}\n", "not a whole number of cents",
     "/positions/2/carried/come#1"),
    ("    carried: {come#1: 5}\n", "    carried: {come: 5}\n", "several: true): name each on the layout by its number",
     "/positions/2/carried/come"),
    ("    state: {come#1: {come_point: 9}}\n", "    state: {come#1: {point: 9}}\n", "come#1 keeps come_point, not 'point'",
     "/positions/2/state/come#1/point"),
])
def test_a_hand_history_with_carried_wagers_is_checked_with_positioned_errors(tmp_path, old, new, message, pointer):
    text = (ROUNDS / "come-carried-won.yaml").read_text(encoding="utf-8")
    assert old in text
    f = tmp_path / "r.yaml"
    f.write_text(text.replace(old, new), encoding="utf-8")
    rc, out, err = _run("settle", CRAPS, f, "--check")
    assert rc == 1 and message in err and f"[at {pointer}]" in err and "Traceback" not in err, err


def test_the_contract_names_a_wager_that_stays_and_only_the_markov_chain_follows_it(craps):
    mod, compiled = craps
    items = contract.constructs(mod.GAME, compiled.chapter)
    stays = [c for c in items if c.category == "wager"]
    # the Place (several at once, one on each number), the Come (one a seat here), then the Don't Come (several at
    # once: it stays and is several)
    assert [c.name for c in stays] == ["several", "stays until_settled", "stays until_settled", "several"]
    assert "'place'" in stays[0].where and "'come'" in stays[1].where
    assert all("'dont_come'" in c.where for c in stays[2:])
    assert contract.refusal("markov", mod.GAME, compiled.chapter) is None
    why = contract.refusal("simulation", mod.GAME, compiled.chapter)
    # named with its position: the line of the rulespec that declares the wager (the first the route meets: the
    # Place, several at once; the Come's staying after it)
    assert why is not None and why.startswith("wager 'several' (§ 981.5(d), wager 'place', ")
    line = next(i for i, x in enumerate(CRAPS.read_text().splitlines(), 1) if x.startswith("  place:"))
    assert f"craps.yaml:{line})" in why
    stays_why = next(str(c) for c in contract.all_unmodelled("simulation", items) if c.name == "stays until_settled")
    assert stays_why.startswith("wager 'stays until_settled' (§ 981.5(g), wager 'come', ")
    line = next(i for i, x in enumerate(CRAPS.read_text().splitlines(), 1) if x.startswith("  come:"))
    assert f"craps.yaml:{line})" in stays_why


def _four_before_seven(tmp_path: Path) -> Path:
    """The dice-total test chapter written in another style: a wager made before the roll that stays until a
    4 (paid 2 to 1) or a 7 (lost) is rolled, with no loop and no state of its own."""
    text = (ROOT / "tests" / "fixtures" / "chapters" / "dice-total.yaml").read_text()
    text = text.replace(
        "  under: {name: Under, cite: § 906.4, pays: even_money}\n",
        "  under: {name: Under, cite: § 906.4, pays: even_money}\n"
        "  four: {name: Four Before Seven, cite: § 906.5(c), pays: two_to_one, stays: until_settled}\n")
    text = text.replace("  even_money: {odds: 1 to 1, cite: § 906.5(b)}\n",
                        "  even_money: {odds: 1 to 1, cite: § 906.5(b)}\n  two_to_one: {odds: 2 to 1, cite: § 906.5(c)}\n")
    text = text.replace(
        '      - {cite: § 906.5(b), when: "has(under) and round.roll >= 7", then: lose under}\n',
        '      - {cite: § 906.5(b), when: "has(under) and round.roll >= 7", then: lose under}\n'
        '      - {cite: § 906.5(c), when: "has(four) and round.roll == 4", then: win four}\n'
        '      - {cite: § 906.5(c), when: "has(four) and round.roll == 7", then: lose four}\n')
    text = text.replace("each loses otherwise.\"}\n", "each loses otherwise.\"}\n      - {label: c, text: \"The Four "
                        "Before Seven wager is paid 2 to 1 when a total of 4 is rolled and loses on a total of seven; on "
                        "any other total it stays on the layout for the next roll.\"}\n", 1)
    path = tmp_path / "four-before-seven.yaml"
    path.write_text(text)
    return path


def test_a_simulation_does_not_place_again_a_wager_still_on_the_layout_and_plays_it_on_the_engine(tmp_path):
    """Simulated tables play many rounds: a wager that stays is not placed again while it is open (the engine
    would refuse it), and the fast path, whose tables cannot carry it, is not taken, with the reason. Four
    before seven, by counting the 36 pairs of faces: 3 ways to 4 against 6 to 7, so it wins 1/3 of the time,
    and at 2 to 1 its expected net is 2/3 - 2/3 = 0 per unit."""
    from compiler.analysis.simulate import simulate

    mod, c = load_game(str(_four_before_seven(tmp_path)))
    res = simulate(mod.GAME, {}, rounds=3000, seats=1, seed=3, workers=1, chapter=c.chapter,
                   bets={"seven": Decimal(1), "four": Decimal(1)})
    assert res.route.startswith("engine") and "'four'" in res.route and "stays" in res.route
    four = res.per_unit["four"]
    assert 600 < four.n < 1200  # made again only once the one before is settled (about 1 round in 4)
    assert abs(four.mean()) < 4 * four.se()
    assert res.players + res.house + res.meters == 0
