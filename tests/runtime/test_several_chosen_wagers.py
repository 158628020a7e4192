"""A wager a player may have several of, each on numbers the player chooses (``several: true`` with ``choose``):
the Craps test chapter's Place wager (tests/fixtures/chapters/craps.yaml, not official text), one on each of
several numbers at once, as real craps allows. Each instance has its own numbers and amount (``place#2 on 8``),
each settle rule naming the Place runs once per instance reading that instance's numbers, the same number twice
is refused at placement and in a hand history at its position, taking the Place wagers down returns every one
in action, and the Markov chain values one instance per number with the per-group figures unchanged (Wizard of
Odds, craps appendix 1: Place 6/8 1.5152%, 5/9 4.0000%, 4/10 6.6667% per bet resolved)."""
from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from compiler.analysis import contract, markov
from compiler.analysis.simulate import fast_route
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one
from compiler.runtime.audit import audit_rounds
from compiler.runtime.engine import CallbackStrategy, FixedStrategy
from compiler.runtime.errors import RefusedError
from cli_run import run_rulespec

ROOT = Path(__file__).resolve().parents[2]
CRAPS = ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml"
ROUNDS = CRAPS.parent / "craps-rounds"
PLACES = [{"amount": 6, "numbers": [6]}, {"amount": 12, "numbers": [8]}, {"amount": 5, "numbers": [9]}]
# the come-out 5 (the point), then 6 (Place #1 on 6 wins), 8 (Place #2 on 8 wins), 7: seven out (Place #3 on 9 lost)
ROLLS = [[4, 1], [3, 3], [5, 3], [3, 4]]



def test_one_seat_holds_place_wagers_on_three_numbers_each_settled_by_its_own_number(craps):
    mod, _ = craps
    t = mod.new_table({}, seed=1)
    r = t.play_round({1: {"pass_line": 10, "place": PLACES}}, FixedStrategy({"take_down": "leave_up"}), rolls=ROLLS)
    got = {(x.label, x.on, x.outcome, x.net, x.cites[0]) for x in r.results}
    assert got == {("place#1", ("6",), "win", Decimal(7), "§ 981.7(b)"),    # 7 to 6 on 6.00
                   ("place#2", ("8",), "win", Decimal(14), "§ 981.7(b)"),   # 7 to 6 on 12.00
                   ("place#3", ("9",), "lose", Decimal(-5), "§ 981.7(b)"),  # the seven out
                   ("pass_line", (), "lose", Decimal(-10), "§ 981.6(c)")}
    text = [e.format() for e in r.log]
    assert "seat 1: Place #2 on 8 12.00 placed  [§ 981.5(d)]" in text
    assert any(x.startswith("seat 1: Place #2 on 8 12.00: pays 7 to 6 (net +14.00)") for x in text)
    assert any(x.startswith("seat 1: Place #3 on 9 5.00: collected") for x in text)
    assert {e.wager for e in r.log if e.kind in ("win", "lose") and e.wager.startswith("place")} == \
        {"place#1", "place#2", "place#3"}
    assert [x.to_json()["numbers"] for x in r.results if x.wager == "place"] == [["6"], ["8"], ["9"]]
    a = audit_rounds([r])
    assert not a.problems and not a.unsettled and a.players == t.ledger.players == 6 and t.ledger.balance() == 0


def test_taking_the_place_wagers_down_returns_every_one_still_up(craps):
    mod, _ = craps
    t = mod.new_table({}, seed=1)
    # the come-out 5, then 6 (Place #1 wins), then seat 1 takes its Place wagers down: #2 and #3 are returned
    r = t.play_round({1: {"pass_line": 10, "place": PLACES}}, FixedStrategy({"take_down": "take_down"}),
                     rolls=[[4, 1], [3, 3], [4, 1]])
    got = {x.label: (x.outcome, x.net, x.cites[0]) for x in r.results}
    assert got == {"place#1": ("win", Decimal(7), "§ 981.7(b)"), "place#2": ("void", Decimal(0), "§ 981.7(e)"),
                   "place#3": ("void", Decimal(0), "§ 981.7(e)"), "pass_line": ("win", Decimal(10), "§ 981.6(c)")}


def test_981_7_e_a_place_wager_on_one_number_is_taken_down_alone_and_the_others_stay_in_action(craps):
    """The take-down decision is taken once per Place wager in action (``each: place``), in the order placed, the
    player shown which one: taking down the Place on 6 returns it alone; the ones on 8 and 9 stay up, one to win
    and one to lose on the seven out."""
    mod, _ = craps
    t = mod.new_table({}, seed=1)
    asked = []

    def choose(decision, choices, view):
        asked.append((view.instance, view.about))
        return "take_down" if view.instance == "place#1" else "leave_up"

    # the come-out 5, then 4 (nothing settled; the Place on 6 taken down), 8 (Place #2 wins), 7: seven out
    r = t.play_round({1: {"pass_line": 10, "place": PLACES}}, CallbackStrategy(choose=choose),
                     rolls=[[4, 1], [2, 2], [5, 3], [3, 4]])
    got = {x.label: (x.outcome, x.net, x.cites[0]) for x in r.results}
    assert got == {"place#1": ("void", Decimal(0), "§ 981.7(e)"), "place#2": ("win", Decimal(14), "§ 981.7(b)"),
                   "place#3": ("lose", Decimal(-5), "§ 981.7(b)"), "pass_line": ("lose", Decimal(-10), "§ 981.6(c)")}
    assert asked == [("place#1", "Place #1 on 6"), ("place#2", "Place #2 on 8"), ("place#3", "Place #3 on 9"),
                     ("place#3", "Place #3 on 9")]  # after the 4: all three; after the 8: the one on 9 still up
    text = [e.format() for e in r.log]
    assert "seat 1: chooses take_down (take_down, Place #1 on 6)  [§ 981.7(e)]" in text
    assert "seat 1: chooses leave_up (take_down, Place #2 on 8)  [§ 981.7(e)]" in text
    a = audit_rounds([r])
    assert not a.problems and not a.unsettled and t.ledger.balance() == 0


def test_a_decision_per_instance_is_refused_by_name_by_every_method_that_does_not_model_it(craps):
    """The analysis contract is an allow-list: only the Markov chain (one instance valued, its own decision) and the
    engine simulation declare ``decide.each``; every other method names it among what it does not model."""
    mod, compiled = craps
    cons = contract.constructs(mod.GAME, compiled.chapter)
    for method in contract.METHODS:
        names = [str(c).split(" (")[0] for c in contract.all_unmodelled(method, cons)]
        assert ("parameter 'decide.each'" in names) == (method not in ("markov", "simulation")), (method, names)


def test_the_same_number_twice_is_refused_at_placement(craps):
    mod, _ = craps
    t = mod.new_table({}, seed=1)
    with pytest.raises(RefusedError, match=r"seat 1: place#2 is placed on \[6\], as place#1 is: one Place on each set "
                                           r"of numbers; raise that one instead \(§ 981\.5\(d\)\)"):
        t.play_round({1: {"place": [{"amount": 6, "numbers": [6]}, {"amount": 12, "numbers": [6]}]}}, rolls=ROLLS)
    with pytest.raises(RefusedError, match="only a wager a player may have several of"):
        t.play_round({1: {"field": [5, 5]}}, rolls=ROLLS)


@pytest.mark.parametrize("old,new,pointer,message", [
    ("{amount: 5, numbers: [9]}]", "{amount: 5, numbers: [6]}]", "/positions/1/wagers/place/1/numbers",
     "place#2 is placed on [6], as place#1 is: one Place on each set of numbers"),
    ("{amount: 5, numbers: [9]}]", "{amount: 5, numbers: [7]}]", "/positions/1/wagers/place/1/numbers",
     "the Place cannot be placed on [7]"),
    ("{pass_line: 10,", "{pass_line: [10, 10],", "/positions/1/wagers/pass_line",
     "the Pass Line is one wager a seat: give its amount, not a list"),
])
def test_a_hand_history_with_the_same_number_twice_or_a_list_for_a_wager_of_one_is_refused_at_its_position(
        tmp_path, old, new, pointer, message):
    text = (ROUNDS / "take-down.yaml").read_text(encoding="utf-8").replace("rulespec: ../craps.yaml\n", "")
    assert text.count(old) == 1
    f = tmp_path / "r.yaml"
    f.write_text(text.replace(old, new), encoding="utf-8")
    r = run_rulespec("settle", CRAPS, f, "--check")
    rc, out, err = r.returncode, r.stdout, r.stderr
    assert rc == 1 and message in err and f"[at {pointer}]" in err and "Traceback" not in err, err
    assert err.startswith(f"{f}:")


def test_play_places_several_and_its_saved_history_settles_the_same(craps, tmp_path):
    mod, _ = craps
    t = mod.new_table({}, seed=7)

    class Player:
        def choose(self, decision, choices, view):
            return "leave_up"

        def offer(self, wager, view):
            return 0

    played = play_one(t, {1: {"pass_line": 10, "place": PLACES}}, Player())
    h = yaml.safe_load(history_yaml(played.history))
    assert h["positions"]["1"]["wagers"]["place"] == PLACES
    f = tmp_path / "r.yaml"
    f.write_text(history_yaml(played.history), encoding="utf-8")
    r = run_rulespec("settle", CRAPS, f, "--format", "json")
    rc, out, err = r.returncode, r.stdout, r.stderr
    assert rc == 0, err
    again = {(x["wager"], x.get("instance"), x["outcome"], x["net"]) for x in json.loads(out)["results"]}
    assert again == {(x.wager, x.instance or None, x.outcome, str(x.net)) for x in played.result.results}


def test_the_chain_values_one_place_instance_per_number_with_the_group_figures_unchanged(craps):
    mod, compiled = craps
    res, facts = markov.chains(mod.GAME, compiled.chapter)
    for numbers, edge in (((4, 10), Fraction(-1, 15)), ((5, 9), Fraction(-1, 25)), ((6, 8), Fraction(-1, 66))):
        for n in numbers:
            assert res[("place", (str(n),))].per_resolved == edge
    rep = markov.analyze(mod.GAME, compiled.chapter, None, {})
    place = [f for f in rep.figures if f.wager == "place"]
    assert [f.policy.text.split(";")[0] for f in place][::2] == ["placed on [4], [10]", "placed on [5], [9]",
                                                                 "placed on [6], [8]"]
    assert all("several Place wagers at once, each on its own numbers: one is valued on each set" in f.method
               for f in place)
    ok, route = fast_route(mod.GAME, {}, compiled.chapter, {"place": Decimal(6)})
    assert not ok and "wager 'place'" in route and "several" in route


@pytest.mark.parametrize("old,new,hit", [
    ("players: has(place)\n", "players: not has(place)\n", "'has(place)' reads the instances of 'place' together"),
    ("players: has(place)\n", "players: has(place) or has(field)\n", "'has(place)' reads the instances"),
])
def test_the_chain_refuses_a_step_that_reads_the_place_wagers_other_than_as_has_that_must_hold(tmp_path, old, new, hit):
    text = CRAPS.read_text(encoding="utf-8")
    assert text.count(old) == 1
    f = tmp_path / "craps.yaml"
    f.write_text(text.replace(old, new), encoding="utf-8")
    mod, c = load_game(str(f))
    why = markov.refusal(mod.GAME, c.chapter)
    assert why is not None and why.startswith("step 'take_down' (§ 981.7(e))") and hit in why, why


def test_rulespec_play_asks_for_another_place_refuses_the_same_number_twice_and_saves_the_list(tmp_path):
    """At the terminal: after each Place wager another is asked (0: no more); the same number twice is refused with
    its rule and the wagers asked again; the saved hand history lists the instances and `settle` replays it."""
    import subprocess
    import sys

    none = ["0"] * 5  # Any Seven, Any Craps, Eleven, Aces, Twelve
    slip = ["0", "0", "0", "6", "6", "12", "6", "0", *none]  # Place #2 on 6 again: refused, asked again
    good = ["0", "0", "0", "6", "6", "12", "8", "0", *none]
    down = ["take_down", "take_down"]  # after the first roll of the point: the Place on 6, then the one on 8
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "play", str(CRAPS), "--seats", "1", "--seed", "3",
                           "--save", str(tmp_path)], input="\n".join([*slip, *good, *down, "n"]) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Seat 1, take down (Place #1 on 6) (§ 981.7(e))" in proc.stdout  # one decision per Place (each: place)
    assert "Seat 1, take down (Place #2 on 8) (§ 981.7(e))" in proc.stdout
    assert "Place #2 (§ 981.5(d)): amount (0: no more wager)" in proc.stdout
    assert "place#2 is placed on [6], as place#1 is: one Place on each" in proc.stdout
    saved = tmp_path / "981-round-001.yaml"
    h = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert h["positions"]["1"]["wagers"]["place"] == [{"amount": 6, "numbers": [6]}, {"amount": 12, "numbers": [8]}]
    assert h["positions"]["1"]["choices"] == {"take_down": down}
    r = run_rulespec("settle", CRAPS, saved)
    rc, out, err = r.returncode, r.stdout, r.stderr
    assert rc == 0, err
    assert "Place #1 on 6" in out and "Place #2 on 8" in out


def test_a_decision_per_instance_of_a_wager_not_offered_is_never_taken_and_the_fast_path_agrees(tmp_path):
    """The fast path refuses a decision per instance (``each``) of an offered wager; of a wager the casino does not
    offer (``offered_by``) there is no instance, so the decision is never taken, and both routes agree to the cent
    (a variant of the Craps test chapter whose Come and Don't Come are wagers of one, the Place offered by option)."""
    from compiler.analysis.simulate import simulate

    text = CRAPS.read_text(encoding="utf-8")
    for old, new in (("keeps: [come_point], several: true}", "keeps: [come_point]}"),
                     ("keeps: [dont_come_point], several: true}", "keeps: [dont_come_point]}"),
                     ("cite: § 981.5(d)}, several: true}", "cite: § 981.5(d)}, several: true, offered_by: place_offered}"),
                     ("\nstate:\n", "\noptions:\n  place_offered: {type: boolean, default: false, cite: § 981.5(d), "
                                   "title: the Place wager is offered}\nstate:\n")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    f = tmp_path / "craps.yaml"
    f.write_text(text, encoding="utf-8")
    mod, c = load_game(str(f))
    bets = {"pass_line": Decimal(6)}
    ok, why = fast_route(mod.GAME, {"place_offered": True}, c.chapter, bets)
    assert not ok and "wager 'place'" in why
    runs = [simulate(mod.GAME, {}, rounds=2000, seed=5, bets=bets, fast=fast, chapter=c.chapter) for fast in (True, False)]
    assert [r.route for r in runs] == ["fast path", "engine"]
    assert runs[0].players == runs[1].players and runs[0].house == runs[1].house


def test_rulespec_play_asks_again_after_a_blank_answer_for_the_numbers(tmp_path):
    """A blank answer to "on which numbers?" (Enter alone) is a wrong answer, said with the wager's §, and the
    numbers are asked again; it was a traceback."""
    import subprocess
    import sys

    answers = ["0", "0", "0", "6", "", "8", "0", *["0"] * 5, "leave_up", "n"]  # the Place on 8 after a blank
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "play", str(CRAPS), "--seats", "1", "--seed", "3",
                           "--save", str(tmp_path)], input="\n".join(answers) + "\n" * 20,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout[-2000:] + proc.stderr
    assert "the Place cannot be placed on []" in proc.stdout and "(§ 981.5(d))" in proc.stdout
    h = yaml.safe_load((tmp_path / "981-round-001.yaml").read_text(encoding="utf-8"))
    assert h["positions"]["1"]["wagers"]["place"] == [{"amount": 6, "numbers": [8]}]


def test_rulespec_play_asks_again_for_the_numbers_when_none_are_given():
    """At the terminal, a blank answer to "on which numbers?" (Enter pressed) is no set: it is refused with the
    wager's legal sets and asked again (it failed with a traceback: 'NoneType' object has no attribute 'replace').
    Double-zero Roulette, tests/fixtures/chapters/roulette-00.yaml (NOT official text)."""
    import subprocess
    import sys

    roulette = ROOT / "tests" / "fixtures" / "chapters" / "roulette-00.yaml"
    answers = ["5", "", "17", *["0"] * 17, "n"]  # Straight Up 5 on (nothing, then) 17; no other wager
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "play", str(roulette), "--seats", "1", "--seed", "3"],
                          input="\n".join(answers) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert "the Straight Up cannot be placed on []: it takes one of 38 sets" in proc.stdout
    assert "seat 1: Straight Up 5.00 placed on 17" in proc.stdout
