"""Hand histories give every roll of a round in `rolls:` (docs/round-format.md): `play` saves them
in order and `settle` gives them back to the roll steps; a missing or an extra roll is an error."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import yaml

from compiler.cli import main
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one, prepare_table
from test_play import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
SPEC = str(ROOT / "rulespecs" / "670a-six-card-fortune-pai-gow-poker.yaml")


def settle(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["settle", SPEC, str(path), "--format", "json"])
    return rc, out.getvalue(), err.getvalue()


def played(tmp_path, seed=3) -> tuple[dict, Path]:
    import random

    mod, _ = load_game(SPEC)
    table = prepare_table(mod.new_table({}, seed=seed))
    r = play_one(table, {1: {"pai_gow": 10}}, RandomPlayer(random.Random(seed)))
    return yaml.safe_load(history_yaml(r.history)), r


def test_play_saves_each_roll_as_a_list_of_its_faces_and_settle_replays_it(tmp_path):
    h, r = played(tmp_path)
    assert h["rolls"] == r.result.rolled and len(h["rolls"]) == 1 and len(h["rolls"][0]) == 3
    assert "dice" not in h and "random_number" not in h
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump(h))
    rc, out, err = settle(f)
    assert rc == 0, err
    shown = [e for e in json.loads(out)["log"] if e.get("kind") == "roll" or "dice" in e.get("text", "")]
    assert shown and all(str(v) in shown[0]["text"] for v in h["rolls"][0])


def test_an_extra_roll_is_an_error(tmp_path):
    h, _ = played(tmp_path)
    h["rolls"].append([4])
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump(h))
    rc, _, err = settle(f)
    assert rc == 1 and "1 roll more than the round's roll steps use" in err and "Traceback" not in err


def test_a_missing_roll_is_an_error_naming_the_step(tmp_path):
    h, _ = played(tmp_path)
    h["rolls"] = []
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump(h))
    rc, _, err = settle(f)
    assert rc == 1 and "gives no dice" in err and "§ 670a" in err


def test_rolls_and_the_older_dice_together_are_refused_at_their_position(tmp_path):
    h, _ = played(tmp_path)
    h["dice"] = h["rolls"][0]
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump(h))
    rc, _, err = settle(f)
    assert rc == 1 and "[at /rolls]" in err and "not both" in err
