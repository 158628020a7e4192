"""Four chapters written as a regulator would write a chapter the compiler has never seen (NOT official text,
tests/fixtures/chapters/): Baccarat with the Dragon Bonus, Single Zero Roulette with La Partage, Crapless
Craps, Blackjack with Late Surrender (and more since: the CHAPTERS below, Red Dog and Double Down Stud among them).
In YAML only, every command works on each: `validate` (every number of the text tied), `settle --check` of its
hand histories (tests/fixtures/chapters/<name>-rounds/, or rounds/<name>-*.yaml), `text
render`, `build` (the game module, the regulation text, the blank Rules Submission form) with the chapter in
a rulespecs/ of its own, a Rules Submission document with the house edge of each offered wager, `diff
--impact` of an amendment, and rounds played by `play`'s own code and replayed by `settle`. The figures
themselves are held to independent routes in tests/analysis/test_new_chance_chapters.py and
tests/analysis/test_blackjack_late_surrender.py (Red Dog, Double Down Stud: tests/analysis/test_red_dog_double_down_stud.py)."""
from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one, prepare_table
from random_rounds import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters"
CHAPTERS = {"baccarat-dragon-bonus": "915", "roulette-0-la-partage": "945", "crapless-craps": "985",
            "blackjack-late-surrender": "965", "blackjack-21plus3-lucky-ladies": "966", "spanish-21": "967",
            "red-dog": "951", "double-down-stud": "952"}
# a chapter's hand histories: its own directory, or tests/fixtures/chapters/rounds/ named after it
ROUNDS = [(name, p) for name in CHAPTERS for p in sorted((CH / f"{name}-rounds").glob("*.yaml"))
          + sorted((CH / "rounds").glob(f"{name}-*.yaml"))]
BETS = {
    "baccarat-dragon-bonus": {1: {"player": 10, "dragon_player": 5}, 2: {"banker": 20, "tie": 5, "dragon_banker": 5}},
    "roulette-0-la-partage": {1: {"straight": {"amount": 5, "numbers": ["0"]}, "red": 10, "low": 10},
                              2: {"corner": {"amount": 4, "numbers": ["0", 1, 2, 3]}, "column": {
                                  "amount": 3, "numbers": [2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35]}}},
    "crapless-craps": {1: {"pass_line": 10, "place_2": 5}, 2: {"place_6": 6, "place_11": 4}},
    "blackjack-late-surrender": {1: {"bet": 10}, 2: {"bet": 25}},
    "blackjack-21plus3-lucky-ladies": {1: {"blackjack": 10, "twenty_one_three": 5, "lucky_ladies": 5}, 2: {"blackjack": 25}},
    "spanish-21": {1: {"spanish_21": 10}, 2: {"spanish_21": 25}},
    "red-dog": {1: {"ante": 10}, 2: {"ante": 5}},
    "double-down-stud": {1: {"ante": 10}, 2: {"ante": 5}},
}


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", CHAPTERS)
def test_validates_with_every_number_of_its_text_tied(name):
    rc, out, err = run("validate", CH / f"{name}.yaml")
    assert rc == 0, out + err
    assert "0 untied" in err and "warning" not in out + err


@pytest.mark.parametrize("name, path", ROUNDS, ids=[p.stem for _, p in ROUNDS])
def test_hand_history_settles_as_expected(name, path):
    rc, out, err = run("settle", "--check", CH / f"{name}.yaml", path)
    assert rc == 0, err
    assert "as expected" in out


def test_every_chapter_has_a_hand_history_whose_expectations_name_a_section():
    for name in CHAPTERS:
        paths = [p for n, p in ROUNDS if n == name]
        assert paths, name
        for p in paths:
            assert "expect:" in p.read_text(encoding="utf-8") and "cite: " in p.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CHAPTERS)
def test_text_renders(name):
    rc, out, err = run("text", "render", CH / f"{name}.yaml")
    assert rc == 0, err
    assert f"CHAPTER {CHAPTERS[name]}." in out and "§ " in out


@pytest.mark.parametrize("name", CHAPTERS)
def test_played_rounds_are_saved_and_settle_reproduces_them(name, tmp_path):
    mod, _ = load_game(CH / f"{name}.yaml")
    table = prepare_table(mod.new_table({}, seed=3))
    for k in range(3):
        # a wager still on the layout from the last round (a Place wager) plays on: it is not placed again
        bets = {s: {w: a for w, a in b.items() if not (s in table.carried and w in table.carried[s].wagers)}
                for s, b in BETS[name].items()}
        r = play_one(table, bets, RandomPlayer(random.Random(k), mod.GAME))
        f = tmp_path / f"r{k}.yaml"
        f.write_text(history_yaml(r.history), encoding="utf-8")
        rc, out, err = run("settle", CH / f"{name}.yaml", f, "--format", "json")
        assert rc == 0, err
        assert json.loads(out)["net_by_seat"] == {str(s): str(v) for s, v in r.result.net_by_seat().items()}


def test_play_does_not_ask_again_for_a_wager_left_on_the_layout(tmp_path):
    """At the terminal a Place wager left on the layout is in action in the next round: its amount is not asked
    again (answering it used to void the round: 'seat 1 already has a Place 6')."""
    import subprocess
    import sys

    round_1 = ["10", "0", "0", "0", "0", "5", "0", "0", "0", "0", "0", "10"]  # Pass Line, Place 6, the Odds
    round_2 = ["0"] * 10  # every wager but the Place 6, which the seed leaves on the layout
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "play", str(CH / "crapless-craps.yaml"), "--seats",
                           "1", "--seed", "4", "--save", str(tmp_path)],
                          input="\n".join(round_1 + ["y"] + round_2 + ["n"]) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "seat 1 has on the layout from the last round: Place 6 5.00" in proc.stdout
    assert proc.stdout.count("Seat 1, Place 6 (") == 1 and "cannot be played" not in proc.stdout
    saved = tmp_path / "985-round-002.yaml"
    rc, out, err = run("settle", CH / "crapless-craps.yaml", saved)
    assert rc == 0 and "Place 6" in out, err


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The four chapters in a rulespecs/ of their own, built as `rulespec build` builds the seeded ones."""
    from compiler.build import build

    root = tmp_path_factory.mktemp("regulator")
    (root / "rulespecs").mkdir()
    for name, number in CHAPTERS.items():
        shutil.copy(CH / f"{name}.yaml", root / "rulespecs" / f"{number}-{name}.yaml")
    res = build(root)
    assert res.ok, [d.format() for c in res.compiled for d in c.diagnostics if d.is_error]
    return root


@pytest.mark.parametrize("name", CHAPTERS)
def test_build_writes_the_game_module_the_text_and_the_blank_form(built, name):
    number = CHAPTERS[name]
    gen = built / "generated"
    assert len(list((gen / "games").glob(f"ch{number}_*.py"))) == 1
    assert len(list((gen / "text").glob(f"{number}-*.txt"))) == 1
    forms = list((gen / "forms").glob(f"{number}-*-rules-submission.md"))
    assert len(forms) == 1 and "Rules Submission" in forms[0].read_text(encoding="utf-8")


def _submission(root: Path, number: str, selections: str) -> Path:
    sub = root / f"{number}-test.yaml"
    sub.write_text("rules_submission: 1\ncertificate_holder: Test Gaming, L.P.\nfacility: Test Casino\n"
                   f"game: {{chapter: \"{number}\"}}\neffective_date: \"2099-02-01\"\n"
                   f"contact: {{name: A. Tester, title: Director}}\nselections: {selections}\n", encoding="utf-8")
    return sub


@pytest.mark.parametrize("name, selections, shown", [
    ("baccarat-dragon-bonus", "{}", ["1.0579%", "1.2351%", "14.3596%", "2.6517%", "9.3731%"]),
    ("roulette-0-la-partage", "{la_partage: true}", ["2.7027%", "1.3514%"]),
    ("crapless-craps", "{}", ["5.3824%", "7.1429%", "6.2500%", "1.5152%"]),
    # optimal play (raise on a spread of 7 or more), eight decks: 2.75% published; and the two fixed policies
    ("red-dog", "{decks: 8}", ["2.7509%", "7.8800%", "21.7142%"]),
    ("double-down-stud", "{}", ["2.1033%"]),  # optimal doubling; -0.021033 published
])
def test_a_rules_submission_document_gives_each_offered_wagers_house_edge(built, name, selections, shown):
    from compiler.submission.check import check_files
    from compiler.submission.document import document_context, render_formats

    sub = _submission(built, CHAPTERS[name], selections)
    results, spec_diags = check_files([sub], root=built)
    ((f, s, diags),) = results
    assert s is not None and not diags and not spec_diags, [d.format() for d in [*diags, *spec_diags]]
    md = render_formats(document_context(s, str(f)), ("md",))["md"]
    for x in shown:
        assert x in md, x
    assert not [line for line in md.splitlines() if line.startswith("| ") and "not computed" in line]


def test_diff_impact_of_an_amended_red_dog_spread(tmp_path):
    old = CH / "red-dog.yaml"
    new = tmp_path / "951-new.yaml"
    text = old.read_text(encoding="utf-8")
    new.write_text(text.replace("spread_1: {odds: 5 to 1", "spread_1: {odds: 4 to 1").replace(
        "A spread of one pays 5 to 1", "A spread of one pays 4 to 1"), encoding="utf-8")
    rc, out, err = run("diff", "--impact", old, new)
    assert rc == 0, err
    assert "§ 951.7(b)(1)" in out and "5 to 1 -> 4 to 1" in out
    # one unit less on a win in a spread of one, never raised (10111/1000000 of rounds, six decks): 2.80% -> 3.81%
    assert "[optimal strategy: at each decision the choice of largest expected net given what the player has " \
           "seen (backward induction over every deal and choice of the compiled round)]: house edge 2.80% -> 3.81%" in out


def test_diff_impact_of_an_amended_dragon_bonus(tmp_path):
    old = CH / "baccarat-dragon-bonus.yaml"
    new = tmp_path / "915-new.yaml"
    new.write_text(old.read_text(encoding="utf-8").replace("{value: 9, label: Win by 9, pays: [30 to 1,",
                                                           "{value: 9, label: Win by 9, pays: [25 to 1,"),
                   encoding="utf-8")
    rc, out, err = run("diff", "--impact", old, new)
    assert rc == 0, err
    assert "§ 915.10(c)" in out and "30 to 1 -> 25 to 1" in out
    # 5 units less on a win by 9 (18,409,431,764,992 of 4,998,398,275,503,360 deals): 2.65% -> 4.49%
    assert "impact Dragon Bonus on the Player Hand [any]: house edge 2.65% -> 4.49%" in out
    assert "impact Player Hand [any]: house edge 1.24% -> 1.24%" in out
