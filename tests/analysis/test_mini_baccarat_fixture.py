"""The Mini-Baccarat test chapter (tests/fixtures/chapters/mini-baccarat.yaml, NOT official text) written in
YAML alone: it validates and renders; its hand histories (tests/fixtures/chapters/rounds/) settle as they
expect; rounds played by `rulespec play`'s session settle the same from their saved histories; every
played round follows the standard third-card table, written here independently as a table (Wizard of
Odds, https://wizardofodds.com/games/baccarat/ , "drawing rules"); the Banker's 5% commission is exact in
cents; and it gets a Rules Submission document with its exact figures."""
from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.cli_extras import cite_lists
from compiler.pipeline import load_game
from compiler.play.session import Player, history_yaml, play_one, prepare_table

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "tests/fixtures/chapters/mini-baccarat.yaml"
ROUNDS = sorted((ROOT / "tests/fixtures/chapters/rounds").glob("mini-baccarat-*.yaml"))

# the standard drawing rules as a table: Banker total -> the Player third cards (points) on which it draws
BANKER_DRAWS_ON = {0: set(range(10)), 1: set(range(10)), 2: set(range(10)), 3: set(range(10)) - {8},
                   4: set(range(2, 8)), 5: set(range(4, 8)), 6: {6, 7}, 7: set()}
POINTS = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0, **{str(n): n for n in range(2, 10)}}


def _pts(card: str) -> int:
    return POINTS[card[0]]


def _total(cards) -> int:
    return sum(_pts(c) for c in cards) % 10


def test_validates_and_renders_with_no_warning(capsys):
    assert main(["validate", str(SPEC)]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err
    assert main(["text", "render", str(SPEC)]) == 0
    out = capsys.readouterr().out
    assert "§ 906.7. Third cards." in out and "with a total of 4, when the Player hand's third card" in out


def test_no_rule_or_condition_is_longer_than_300_characters():
    import yaml

    data = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    found = []

    def walk(steps):
        for s in steps:
            found.extend(x for x in (s.get("when"), s.get("players")) if x)
            for r in s.get("rules") or ():
                found.extend((r.get("when") or "", r["then"]))
            walk(s.get("steps") or ())

    walk(data["procedure"])
    assert found and max(len(x) for x in found) <= 300
    assert "untied" not in data


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_hand_history_settles_as_expected(path, capsys):
    assert main(["settle", "--check", str(SPEC), str(path)]) == 0, capsys.readouterr().err
    assert "as expected" in capsys.readouterr().out


def test_a_hand_history_missing_the_banker_third_card_is_refused(tmp_path, capsys):
    text = (ROOT / "tests/fixtures/chapters/rounds/mini-baccarat-player-stands-banker-draws.yaml").read_text(encoding="utf-8")
    p = tmp_path / "short.yaml"
    p.write_text(text.replace("banker: [2D, 3H, AC]", "banker: [2D, 3H]"), encoding="utf-8")
    assert main(["settle", "--check", str(SPEC), str(p)]) == 1
    assert "error" in capsys.readouterr().err


class _Bettor(Player):
    def choose(self, seat, step, decision, choices, view):  # Mini-Baccarat asks no decision
        raise AssertionError("no decision in Mini-Baccarat")


def test_played_rounds_follow_the_drawing_rules_pay_exact_money_and_settle_again_the_same(tmp_path):
    mod, _ = load_game(SPEC)
    rng = random.Random(906)
    table = prepare_table(mod.new_table({}, seed=906))
    seen_rows = set()
    for i in range(80):
        bets = {s: {w: Decimal(rng.choice(["1", "5", "10", "25", "7.35"]))
                    for w in ("player", "banker", "tie") if rng.random() < 0.6} for s in range(1, 5)}
        bets = {s: b for s, b in bets.items() if b} or {1: {"banker": Decimal(5)}}
        before = table.ledger.balance()
        played = play_one(table, bets, _Bettor(), [])
        res = played.result
        assert table.ledger.balance() == before == 0                       # money is conserved
        p, b = res.dealt["community"]["player"], res.dealt["community"]["banker"]
        natural = _total(p[:2]) >= 8 or _total(b[:2]) >= 8
        assert len(p) == (2 if natural or _total(p[:2]) >= 6 else 3)
        if natural:
            assert len(b) == 2
        elif len(p) == 2:
            assert len(b) == (3 if _total(b[:2]) <= 5 else 2)
        else:
            assert len(b) == (3 if _pts(p[2]) in BANKER_DRAWS_ON[_total(b[:2])] else 2)
            seen_rows.add((_total(b[:2]), len(b)))
        pt, bt = _total(p), _total(b)
        for r in res.results:
            amt = bets[r.seat][r.wager]
            if pt == bt:
                want = amt * 8 if r.wager == "tie" else Decimal(0)
            elif r.wager == "tie" or (r.wager == "player") != (pt > bt):
                want = -amt
            else:   # a winning Banker wager: 1 to 1 less 5%, rounded down to the cent
                want = amt if r.wager == "player" else (amt * Decimal("0.95")).quantize(Decimal("0.01"), "ROUND_DOWN")
            assert r.net == want, (p, b, r)
            assert all(c.startswith("§ 906.") for c in r.cites)
        f = tmp_path / f"round-{i}.yaml"
        f.write_text(history_yaml(played.history))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["settle", str(SPEC), str(f), "--format", "json"]) == 0
        assert json.loads(out.getvalue())["results"] == cite_lists([r.to_json() for r in res.results])
    assert len(seen_rows) >= 6   # the table's rows were exercised, drawing and standing


def test_the_rules_submission_document_shows_the_exact_figures(tmp_path):
    from compiler.submission.check import check_files
    from compiler.submission.document import document_context, render_formats

    (tmp_path / "rulespecs").mkdir()
    shutil.copy(SPEC, tmp_path / "rulespecs" / "906-mini-baccarat.yaml")
    sub = tmp_path / "906-mini-baccarat-example.yaml"
    sub.write_text("rules_submission: 1\ncertificate_holder: Example Gaming, L.P. (fictional)\n"
                   "facility: Example Casino\ngame: {chapter: \"906\", title: \"Mini-Baccarat (test fixture, not official text)\"}\n"
                   "effective_date: \"2099-01-01\"\ncontact: {name: A. Example, title: Table Games}\n"
                   "selections: {}\n", encoding="utf-8")
    (res,), spec_diags = check_files([sub], root=tmp_path)
    assert not spec_diags and res[1] is not None, res[2]
    md = render_formats(document_context(res[1], str(sub)), ("md",))["md"]
    for edge in ("1.0579%", "1.2351%", "14.3596%"):
        assert edge in md, md[:3000]


def test_ez_baccarat_validates_and_its_hand_history_settles_as_expected(capsys):
    """The second points chapter (tests/fixtures/chapters/ez-baccarat.yaml, NOT official text)."""
    ez = ROOT / "tests/fixtures/chapters/ez-baccarat.yaml"
    assert main(["validate", str(ez)]) == 0
    assert "warning" not in capsys.readouterr().err
    rnd = ROOT / "tests/fixtures/chapters/rounds/ez-baccarat-dragon-7.yaml"
    assert main(["settle", "--check", str(ez), str(rnd)]) == 0, capsys.readouterr().err
    assert "4 wagers settled as expected" in capsys.readouterr().out
