"""Per-wager refusal (issue 24, compiler/analysis/per_wager.py): where one optional wager of a chapter uses a
construct the method that would price the others does not model, that wager alone is refused (or simulated, where
the simulation's contract models it) and the others are analysed as if it were not offered, with exactly the
figures of the chapter without it. A required wager cannot be left out: then every wager is refused as before.

The chapters are Dice Total (tests/fixtures/chapters/dice-total.yaml, NOT official text) with one more wager:
Four Before Seven, which stays on the layout until a 4 or a 7 is rolled (``stays: until_settled``: only the
Markov chain method declares it, and the chapter has no loop for that method); Hot Twelve, whose rule records
the total it is paid on in the player's state (``set state``: only the Markov chain and the simulation declare
it)."""
from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction
from itertools import product
from pathlib import Path

from compiler.analysis.report import analyze
from compiler.cli import main
from compiler.pipeline import load_game
from compiler.text.impact import impact

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests/fixtures/chapters/dice-total.yaml"
LAST_RULE = '      - {cite: § 906.5(b), when: "has(under) and round.roll >= 7", then: lose under}\n'
UNDER = "  under: {name: Under, cite: § 906.4, pays: even_money}\n"
EVEN = "  even_money: {odds: 1 to 1, cite: § 906.5(b)}\n"
TEXT_B = "each loses otherwise.\"}\n"


def _variant(tmp_path: Path, name: str, wager: str, payout: str, rules: str, text: str, state: str = "") -> Path:
    src = DICE.read_text(encoding="utf-8")
    for old in (UNDER, EVEN, LAST_RULE, TEXT_B):
        assert src.count(old) == 1, old
    src = (src.replace(UNDER, UNDER + wager).replace(EVEN, EVEN + payout).replace(LAST_RULE, LAST_RULE + rules)
           .replace(TEXT_B, TEXT_B + text).replace("rankings: {}\n", "rankings: {}\n" + state))
    path = tmp_path / name
    path.write_text(src, encoding="utf-8")
    return path


def four_before_seven(tmp_path: Path, required: bool = False) -> Path:
    req = ", required: true" if required else ""
    return _variant(
        tmp_path, "four-before-seven.yaml",
        f"  four: {{name: Four Before Seven, cite: § 906.5(c), pays: two_to_one, stays: until_settled{req}}}\n",
        "  two_to_one: {odds: 2 to 1, cite: § 906.5(c)}\n",
        '      - {cite: § 906.5(c), when: "has(four) and round.roll == 4", then: win four}\n'
        '      - {cite: § 906.5(c), when: "has(four) and round.roll == 7", then: lose four}\n',
        '      - {label: c, text: "The Four Before Seven wager is paid 2 to 1 when a total of 4 is rolled and loses on '
        'a total of seven; on any other total it stays on the layout for the next roll."}\n')


def hot_twelve(tmp_path: Path) -> Path:
    return _variant(
        tmp_path, "hot-twelve.yaml",
        "  hot: {name: Hot Twelve, cite: § 906.5(d), pays: thirty_to_one}\n",
        "  thirty_to_one: {odds: 30 to 1, cite: § 906.5(d)}\n",
        '      - {cite: § 906.5(d), when: "has(hot) and round.roll == 12", then: "win hot; set paid_on = round.roll"}\n'
        '      - {cite: § 906.5(d), when: "has(hot) and round.roll != 12", then: lose hot}\n',
        '      - {label: d, text: "The Hot Twelve wager is paid 30 to 1 on a total of twelve, the total it is paid on '
        'is recorded; it loses otherwise."}\n',
        state="state:\n  paid_on: {initial: 0, per: player, cite: § 906.5(d), title: the total on which a player's "
              "Hot Twelve wager was last paid}\n")


def _fields(rep) -> dict:
    """Each figure's exact content, by its stakes and policy."""
    return {(f.stakes, f.policy.text): (f.status, f.expected_return, f.per_total_wagered, f.hit_frequency,
                                        dict(f.outcomes), f.includes) for f in rep.figures}


def _counted() -> dict[str, Fraction]:
    """Each Dice Total wager's expected return by counting the 36 pairs of faces (not the engine)."""
    totals = [a + b for a, b in product(range(1, 7), repeat=2)]
    wins = {"seven": (sum(t == 7 for t in totals), 4), "over": (sum(t > 7 for t in totals), 1),
            "under": (sum(t < 7 for t in totals), 1), "hot": (sum(t == 12 for t in totals), 30)}
    return {w: Fraction(n * (odds + 1), 36) - 1 for w, (n, odds) in wins.items()}


def _line_of(path: Path, start: str) -> int:
    return next(i for i, x in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if x.startswith(start))


def test_a_wager_that_stays_is_refused_by_name_and_the_other_wagers_keep_the_figures_of_the_chapter_without_it(
        tmp_path):
    path = four_before_seven(tmp_path)
    mod, comp = load_game(path)
    rep = analyze(mod.GAME, comp.chapter, {})
    plain_mod, plain = load_game(DICE)
    without = analyze(plain_mod.GAME, plain.chapter, {})
    # fraction for fraction the figures of the chapter file without the wager, and those of counting the faces
    assert _fields(rep) == _fields(without) and len(rep.figures) == 3
    counted = _counted()
    assert {f.wager: f.expected_return for f in rep.figures} == {w: counted[w] for w in ("seven", "over", "under")}
    (four,) = rep.not_computed
    assert (four.wager, four.policy) == ("four", "any")
    assert four.reason.startswith(f"wager 'stays until_settled' (§ 906.5(c), wager 'four', {path}:"
                                  f"{_line_of(path, '  four:')}) is not modelled by the chance"), four.reason
    # and why no method analyses it on its own (the simulation does not declare it either)
    assert four.reason.endswith("; chance, engine enumeration, pai gow, simulation: the same)"), four.reason
    assert "(markov: no repeat step" in four.reason
    assert rep.settings == without.settings  # the analysis' own option is not a selection
    assert any(n.startswith("per wager: the chance gives the figures of the other wagers as if the Four Before "
                            "Seven were not offered") for n in rep.notes), rep.notes


def test_a_required_wager_that_stays_cannot_be_left_out_and_every_wager_is_refused(tmp_path):
    mod, comp = load_game(four_before_seven(tmp_path, required=True))
    rep = analyze(mod.GAME, comp.chapter, {})
    assert rep.figures == []
    assert {n.wager for n in rep.not_computed} == {"seven", "over", "under", "four"}
    # as before: each method's refusal (the Markov chain declares the wager but finds no loop)
    assert all(n.reason.startswith("no method applies: markov: no repeat step")
               and "chance: wager 'stays until_settled' (§ 906.5(c), wager 'four', " in n.reason
               for n in rep.not_computed), rep.not_computed
    assert not any(n.startswith("per wager") for n in rep.notes)


def test_a_side_wager_only_the_simulation_models_is_simulated_apart_and_the_others_stay_exact(tmp_path):
    mod, comp = load_game(hot_twelve(tmp_path))
    rep = analyze(mod.GAME, comp.chapter, {}, rounds=4000, seed=1)
    plain_mod, plain = load_game(DICE)
    without = _fields(analyze(plain_mod.GAME, plain.chapter, {}))
    exact = {k: v for k, v in _fields(rep).items() if v[0] == "exact"}
    assert exact == without and not rep.not_computed
    (hot,) = [f for f in rep.figures if f.stakes == ("hot",)]
    # simulated on the chapter without the other wagers, saying why no exact method applies (its own rule)
    assert hot.status == "simulated" and hot.method.startswith("no exact method (")
    assert "chance: outcome 'set state' (§ 906.5(d)" in hot.method, hot.method
    # 1 pair of faces in 36 totals twelve, paid 30 to 1: -5/36 per unit; within 4 standard errors
    assert abs(float(hot.expected_return) - float(_counted()["hot"])) <= 4 * hot.standard_error


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def test_analyze_diff_impact_and_submission_documents_show_the_per_wager_result(tmp_path):
    path = four_before_seven(tmp_path)
    rc, out, err = _cli("analyze", path, "--format", "json")
    assert rc == 0 and "Traceback" not in err, err
    data = json.loads(out)
    assert {f["wager"]: f["expected_return"]["fraction"] for f in data["figures"]} == {"seven": "-1/6", "over": "-1/6", "under": "-1/6"}
    assert [(n["wager"], n["status"]) for n in data["not_computed"]] == [("four", "not computed")]
    # diff --impact: the amendment that adds the wager leaves the others' figures as they were
    rows = {e["wager"]: e for e in impact(str(DICE), str(path), [])}
    assert {w: rows[w]["changed"] for w in ("seven", "over", "under")} == {"seven": False, "over": False,
                                                                          "under": False}
    # a Rules Submission's documents: the exact rows of the three, the fourth not computed with the reason
    from compiler.submission.document import load_submission, render_documents
    mod, comp = load_game(path)
    text = json.dumps({"rules_submission": 1, "certificate_holder": "Test Gaming, L.P.", "facility": "Test Casino",
                       "game": {"chapter": "906", "title": comp.chapter.title, "edition": "99 Pa.B. 906"},
                       "effective_date": "2026-03-01", "contact": {"name": "A Person", "title": "Director"},
                       "selections": {}})
    md, html = render_documents(load_submission("s.yaml", {"906": comp.chapter}, text), "s.yaml")
    rows = {r.split(" | ")[0].lstrip("| "): r for r in md.splitlines() if r.startswith("| ")}
    assert all("| 16.6667% | 1/6 |" in rows[w] for w in ("Seven", "Over", "Under")), rows
    assert "| not computed |" in rows["Four Before Seven"] and "wager 'stays until\\_settled'" in rows["Four Before Seven"]
