"""Every saved round replays (issue 29 item 6): seeded random rounds of EVERY chapter (the five in
rulespecs/ and each test chapter in tests/fixtures/chapters/) are played through `rulespec play`'s own
code (`compiler.play.session.play_one`: random wagers and optional wagers, chosen numbers, decisions,
offers, settings and irregularities; tests/random_rounds.py), saved as hand histories with the same
writer as `play --save`, and settled again with `rulespec settle --format json`. The results, each
seat's net and the log (every wager placed, roll, spin, card, ruling and settlement with its §, in
order) must be the round as played. Only what a live shoe does and a hand history does not record
(shuffling, the cut, the reshuffle marker) is left out of the comparison of the logs."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml

from compiler.cli import main
from compiler.cli_extras import cite_lists
from compiler.play.session import history_yaml
from random_rounds import CHAPTERS, game_of, random_rounds

LIVE_SHOE_ONLY = ("shuffle", "cut", "cut_offer", "marker")  # the shoe's handling: not in a hand history
ROUNDS = 5


@pytest.fixture(scope="module", autouse=True)
def settle_compiles_each_chapter_once():
    """`settle` compiles each chapter once for the module (its own compilation, not play's: speed only)."""
    from compiler import game_commands

    loaded: dict = {}
    original = game_commands._load

    def load(spec):
        key = str(Path(spec).resolve())
        if key not in loaded:
            loaded[key] = original(spec)
        return loaded[key]

    mp = pytest.MonkeyPatch()
    mp.setattr(game_commands, "_load", load)
    yield
    mp.undo()


def settle_json(spec: Path, path: Path) -> tuple[int, dict | None, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["settle", str(spec), str(path), "--format", "json"])
    return rc, (json.loads(out.getvalue()) if rc == 0 else None), err.getvalue()


def comparable_log(entries: list[dict]) -> list[dict]:
    return [{**e, "text": e["text"].replace(" (as recorded)", "")} for e in entries if e["kind"] not in LIVE_SHOE_ONLY]


def replay(spec: Path, tmp_path: Path, rounds: int = ROUNDS, seed: int = 0, same_table: bool = False) -> int:
    """Play, save and settle ``rounds`` rounds of ``spec``; the number replayed and compared."""
    compared = 0
    for p in random_rounds(spec, rounds, seed=seed, same_table=same_table):
        if p.played is None:  # only an irregularity the chapter's provisions do not cover may stop a round
            assert p.events, f"{spec.name} round {p.index}: {type(p.error).__name__}: {p.error}"
            continue
        text = history_yaml(p.played.history)
        assert yaml.safe_load(text) == json.loads(json.dumps(p.played.history)), "the saved file reads back as written"
        f = tmp_path / f"{spec.stem}-{seed}-{p.index}.yaml"
        f.write_text(text, encoding="utf-8")
        rc, got, err = settle_json(spec, f)
        assert rc == 0, f"{f.name} does not replay:\n{err}\n{text}"
        want = p.played.result
        assert got["results"] == cite_lists([r.to_json() for r in want.results]), text
        assert got["net_by_seat"] == {str(s): str(v) for s, v in sorted(want.net_by_seat().items())}, text
        assert got["warnings"] == [], text
        assert comparable_log(got["log"]) == comparable_log(cite_lists([e.to_json() for e in want.log])), text
        if want.rolled:  # every roll and spin in order, as `rolls:`
            assert yaml.safe_load(text)["rolls"] == [list(r) for r in want.rolled]
        compared += 1
    return compared


PLAYABLE = [c for c in CHAPTERS if game_of(c)[0].GAME.wagers]


@pytest.mark.parametrize("spec", PLAYABLE, ids=lambda p: p.stem)
def test_random_rounds_of_every_chapter_replay_exactly(spec, tmp_path):
    compared = replay(spec, tmp_path)
    assert compared >= ROUNDS - 2, f"only {compared} of {ROUNDS} rounds of {spec.name} were played"


def test_rounds_on_one_table_replay_craps_state_and_repeated_rolls(tmp_path):
    """Craps on one table for a session (the point, the come points and the wagers up over many rolls)."""
    spec = next(c for c in CHAPTERS if c.stem == "craps")
    assert replay(spec, tmp_path, rounds=12, seed=1, same_table=True) == 12


def test_every_chapter_is_tried_and_a_chapter_without_wagers_is_the_only_one_not_played():
    stems = {c.stem for c in CHAPTERS}
    assert {"roulette-00", "sic-bo", "big-six", "dragon-tiger", "craps", "mini-baccarat", "ez-baccarat",
            "baccarat-dragon-bonus", "roulette-0-la-partage", "crapless-craps", "blackjack-late-surrender",
            "blackjack-21plus3-lucky-ladies", "spanish-21",
            "567-war", "669a-raise-it-up-stud-poker", "670a-six-card-fortune-pai-gow-poker",
            "688a-face-up-pai-gow-poker", "535-pai-gow"} <= stems
    assert {c.stem for c in CHAPTERS if c not in PLAYABLE} == {"535-pai-gow"}  # an amendment: no table, no wager
