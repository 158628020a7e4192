"""A win is ruled by the rule's provisions and its payout's (or paytable row's), each named once: a rule
that cites its payout's section itself ("§ 915.10(b)(3); § 915.10(c)", paid at odds of § 915.10(c)) is not
printed "§ 915.10(b)(3); § 915.10(c); § 915.10(c)" in the results, the log and the JSON (the Baccarat with
the Dragon Bonus test chapter, NOT official text)."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "tests/fixtures/chapters/baccarat-dragon-bonus.yaml"
ROUND = ROOT / "tests/fixtures/chapters/baccarat-dragon-bonus-rounds/player-wins-by-nine.yaml"


def _run(*argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def test_a_payout_the_rule_already_cites_is_named_once():
    text = _run("settle", str(SPEC), str(ROUND), "--log")
    assert "§ 915.10(b)(3); § 915.10(c)" in text and "§ 915.10(c); § 915.10(c)" not in text
    got = json.loads(_run("settle", str(SPEC), str(ROUND), "--format", "json"))
    dragon = next(r for r in got["results"] if r["wager"] == "dragon_player")
    assert dragon["cites"] == ["§ 915.10(b)(3)", "§ 915.10(c)"]
    # a payout the rule does not cite is still named: the Player Hand's 1 to 1 of § 915.9(a)
    player = next(r for r in got["results"] if r["wager"] == "player")
    assert player["cites"] == ["§ 915.8(a)", "§ 915.9(a)"]
