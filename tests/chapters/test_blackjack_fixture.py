"""The Blackjack test chapter (tests/fixtures/chapters/blackjack.yaml, not official text) end to end: it
validates with no untied value and short rules, plays rounds of several draws (`play_one`: hits until
standing or busting, a double down, insurance, the dealer drawing to 17), saves hand histories that `settle`
replays to the same results, settles the hand histories of tests/fixtures/chapters/blackjack-rounds/ with
`--check`, renders its text and gets a Rules Submission document."""
from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from compiler.cli import main
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one, prepare_table
from compiler.runtime.audit import audit_rounds

ROOT = Path(__file__).resolve().parents[2]
BLACKJACK = ROOT / "tests" / "fixtures" / "chapters" / "blackjack.yaml"
ROUNDS = sorted((ROOT / "tests" / "fixtures" / "chapters" / "blackjack-rounds").glob("*.yaml"))
sys.path.insert(0, str(ROOT / "tests" / "people"))
from test_play import RandomPlayer  # noqa: E402


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def _texts(steps, into):
    for s in steps:
        into.extend(str(s[k]) for k in ("when", "until", "while", "players") if k in s)
        for r in [*(s.get("rules") or ()), *(s.get("choices") or ())]:
            into.extend(str(r.get(k, "")) for k in ("when", "then"))
        _texts(s.get("steps") or (), into)
    return into


def test_it_validates_without_untied_values_no_unrolling_and_no_rule_over_300_characters():
    rc, out, err = run("validate", BLACKJACK)
    assert rc == 0, err
    assert "0 untied" in err + out
    data = yaml.safe_load(BLACKJACK.read_text(encoding="utf-8"))
    texts = _texts(data["procedure"], [])
    assert texts and max(map(len, texts)) <= 300
    assert len(data.get("untied") or ()) <= 20
    # no unrolling: one step draws the player's cards and one the dealer's, each a bounded repeat
    repeats = [s for s in data["procedure"] if s["do"] == "repeat"]
    assert [(s["id"], s["bound"]) for s in repeats] == [("player_draws", 20), ("dealer_draws", 20)]
    assert "players" in repeats[0] and "option(hit_soft_17)" in repeats[1]["while"]
    (split,) = [s for s in data["procedure"] if s["do"] == "split"]
    assert split["hands"] == 4 and split["wager"] == "initial"


def test_split_hands_are_named_in_the_results_and_the_log():
    path = ROOT / "tests" / "fixtures" / "chapters" / "blackjack-rounds" / "split-aces-resplit.yaml"
    rc, out, err = run("settle", BLACKJACK, path, "--log")
    assert rc == 0, err
    assert "Blackjack wager (hand 3)" in out and "seat 2 hand 3: dealt 9S face up (hand)  [§ 961.9(a)]" in out
    assert "seat 2: splits the pair in hand: seat 2 hand 2 is made with AH  [§ 961.9(a)]" in out
    rc, out, err = run("settle", BLACKJACK, path, "--format", "json")
    got = [(x["seat"], x.get("hand", 1), x["outcome"], x["net"]) for x in json.loads(out)["results"]]
    assert got == [(2, 1, "win", "10.00"), (2, 2, "lose", "-10.00"), (2, 3, "win", "10.00")]


def test_an_expectation_on_the_wrong_hand_is_an_error(tmp_path):
    src = ROOT / "tests" / "fixtures" / "chapters" / "blackjack-rounds" / "split-aces-resplit.yaml"
    f = tmp_path / "r.yaml"
    f.write_text(src.read_text(encoding="utf-8").replace("hand: 2, wager: initial, outcome: lose, net: -10",
                                                          "hand: 2, wager: initial, outcome: win, net: 10"),
                 encoding="utf-8")
    rc, out, err = run("settle", BLACKJACK, f, "--check")
    assert rc == 1 and "seat 2 hand 2, initial" in err and "Traceback" not in err


@pytest.mark.parametrize("path", ROUNDS, ids=[p.stem for p in ROUNDS])
def test_hand_histories_settle_as_expected(path):
    rc, out, err = run("settle", BLACKJACK, path, "--check")
    assert rc == 0, err
    assert "settled as expected" in out + err


def test_a_wrong_expectation_is_an_error_at_its_position(tmp_path):
    src = ROOT / "tests" / "fixtures" / "chapters" / "blackjack-rounds" / "blackjack-pays-3-to-2.yaml"
    f = tmp_path / "r.yaml"
    f.write_text(src.read_text(encoding="utf-8").replace("net: 15,", "net: 10,"), encoding="utf-8")
    rc, out, err = run("settle", BLACKJACK, f, "--check")
    assert rc == 1 and "net 15.00, expected 10" in err and "[at /expect/results/0/net]" in err
    assert "Traceback" not in err


class _Player(RandomPlayer):
    def offer(self, seat, wager, view):  # a double down equal to the wager (§ 961.8(b)), or none
        return self.rng.choice([0, 10])


def test_played_rounds_are_saved_with_every_card_and_settle_replays_them(tmp_path):
    mod, _ = load_game(str(BLACKJACK))
    seen: set[tuple[str, str]] = set()
    hits, hands = 0, 1
    for seed in range(40):
        table = prepare_table(mod.new_table({}, seed=seed))
        r = play_one(table, {1: {"initial": 10}, 3: {"initial": 10}}, _Player(random.Random(seed)))
        h = yaml.safe_load(history_yaml(r.history))
        hits += any(isinstance(pos.get("choices", {}).get("hit_or_stand"), list) for pos in h["positions"].values())
        f = tmp_path / f"r{seed}.yaml"
        f.write_text(history_yaml(r.history), encoding="utf-8")
        rc, out, err = run("settle", BLACKJACK, f, "--format", "json")
        assert rc == 0, err
        got = {(x["seat"], x.get("hand", 1), x["wager"]): (x["outcome"], float(x["net"]))
               for x in json.loads(out)["results"]}
        played = {(x.seat, x.hand, x.wager): (x.outcome, float(x.net)) for x in r.result.results}
        assert got == played
        seen.update((x.wager, x.outcome) for x in r.result.results)
        hands = max(hands, max(x.hand for x in r.result.results))
        audit = audit_rounds([r.result])  # the money of every hand, read from the log alone
        assert not audit.problems and not audit.unsettled, audit.problems
        assert audit.players == sum(x.net for x in r.result.results)
        # money: every settled wager's net is a multiple the chapter pays (1 to 1, 3 to 2, 2 to 1, or nothing)
        for x in r.result.results:
            assert x.net in (0, 10, -10, 15, 5, -5) or (x.wager == "insurance" and x.net in (10, -5))
    assert hits >= 1  # a hand drew more than once
    assert hands >= 3  # a pair split, and split again
    assert {("initial", "win"), ("initial", "lose"), ("initial", "push"), ("double", "win"), ("double", "lose"),
            ("insurance", "lose")} <= seen


def test_the_text_renders():
    rc, out, err = run("text", "render", BLACKJACK)
    assert rc == 0, err
    assert "§ 961.10. The dealer's hand." in out and "draws on a soft 17" in out


def test_a_rules_submission_document(tmp_path):
    from compiler.submission.check import check_files
    from compiler.submission.document import document_context, render_formats

    (tmp_path / "rulespecs").mkdir()
    shutil.copy(BLACKJACK, tmp_path / "rulespecs" / "961-blackjack.yaml")
    sub = tmp_path / "961-blackjack-lakeside.yaml"
    sub.write_text("rules_submission: 1\ncertificate_holder: Lakeside Test Gaming, LLC\nfacility: Lakeside Test Casino\n"
                   "game:\n  chapter: \"961\"\n  title: Blackjack (test fixture, not official text)\n"
                   "effective_date: \"2099-02-01\"\ncontact:\n  name: A. Tester\n  title: Director\n"
                   "  phone: 555-555-0100\nselections: {hit_soft_17: true}\n", encoding="utf-8")
    results, spec_diags = check_files([sub], root=tmp_path)
    ((f, s, diags),) = results
    assert s is not None and not spec_diags, [d.format() for d in [*diags, *spec_diags]]
    md = render_formats(document_context(s, str(f)), ("md",))["md"]
    assert "Blackjack" in md and "hits a soft 17" in md


def test_a_split_step_without_the_choice_split_is_refused_at_its_choices(tmp_path):
    f = tmp_path / "b.yaml"
    f.write_text(BLACKJACK.read_text(encoding="utf-8").replace("{id: split, cite: § 961.9(a), then: set split}",
                                                               "{id: divide, cite: § 961.9(a), then: set split}"),
                 encoding="utf-8")
    rc, out, err = run("validate", f)
    assert rc == 1 and "Traceback" not in err
    assert ("error: the split step 'split_pairs' has no choice 'split' (its choices: keep, divide)" in err
            and "[at /procedure/7/choices]" in err)


def test_a_simulation_that_splits_every_pair_keeps_the_money_balanced():
    """`simulate --policy split`: every pair split (to 4 hands); each hand's wager is a wager made, and the
    players' net, the house's and the meters' add up to zero."""
    rc, out, err = run("simulate", BLACKJACK, "--policy", "split", "--rounds", "400", "--seats", "2", "--workers", "1",
                       "--format", "json")
    assert rc == 0, err
    res = json.loads(out)
    assert res["money"]["balance"] == "0.00"
    assert res["wagers"]["initial"]["n"] > res["base_game"]["n"] == 800  # more hands than seats played


def test_a_hand_history_without_the_split_decision_of_a_pair_is_an_error_at_the_position(tmp_path):
    src = ROOT / "tests" / "fixtures" / "chapters" / "blackjack-rounds" / "split-aces-resplit.yaml"
    f = tmp_path / "r.yaml"
    f.write_text(src.read_text(encoding="utf-8").replace("choices: {split_pairs: [split, split]}",
                                                          "choices: {split_pairs: [split]}"), encoding="utf-8")
    rc, out, err = run("settle", BLACKJACK, f, "--check")
    assert rc == 1 and "Traceback" not in err
    assert "seat 2: the round file gives no choice for 'split_pairs' after the 1 it lists" in err
    assert "[at /positions/2/choices/split_pairs]" in err
