"""`rulespec play`: a round played at a terminal is saved as a hand history that `settle` reproduces."""
from __future__ import annotations

import contextlib
import io
import json
import random
import re
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from compiler.cli_extras import cite_lists

from compiler.cli import main
from compiler.pipeline import load_game
from compiler.play.session import Player, history_yaml, layout_of, play_one, prepare_table
from pty_driver import Terminal

ROOT = Path(__file__).resolve().parents[2]
RULESPEC = str(Path(sys.executable).parent / "rulespec")


def settle_json(spec: str, path: Path) -> dict:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["settle", spec, str(path), "--format", "json"])
    assert rc == 0, err.getvalue()
    return json.loads(out.getvalue())


class RandomPlayer(Player):
    """Seeded answers to every decision, offer and setting the game asks for."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, seat, step, decision, choices, view):
        return self.rng.choice(choices)

    def offer(self, seat, wager, view):
        return self.rng.choice([0, 5])

    def setting(self, seat, step, candidates, view):
        return None if self.rng.random() < 0.5 else self.rng.choice(candidates)


@pytest.mark.parametrize("spec", ["567-war", "669a-raise-it-up-stud-poker", "670a-six-card-fortune-pai-gow-poker"])
def test_every_played_round_settles_to_the_same_results(spec, tmp_path):
    """Random wagers, decisions, settings and irregularities: settle(saved history) == the round as played."""
    path = str(ROOT / "rulespecs" / f"{spec}.yaml")
    mod, compiled = load_game(path)
    rng = random.Random(7)
    compared = 0
    for i in range(30):
        table = prepare_table(mod.new_table({}, seed=i))  # a fresh shoe each round (some chapters' shoes are small)
        lay = layout_of(table, compiled.chapter)
        bets = {}
        for seat in range(1, 4):
            b = {}
            for wid, name, cite, placed, offered in lay.wagers:
                wd = table.game.wagers[wid]
                if placed == "before_deal" and offered and (wd.required or rng.random() < 0.4):
                    b[wid] = wd.amounts[0] if wd.amounts else Decimal(rng.choice([5, 10, 25]))
            for wid in list(b):
                for req in table.game.wagers[wid].requires:
                    b.setdefault(req, Decimal(10))
            bets[seat] = b
        events = []
        if i % 3 == 0:
            ev, _, _ = rng.choice(lay.irregularities)
            e = {"event": ev, "before": rng.choice(lay.steps)[0], "seat": rng.choice(sorted(bets))}
            for name, values in lay.event_attrs.get(ev, {}).items():
                e[name] = rng.choice(values) if values else rng.random() < 0.5
            events.append(e)
        try:
            played = play_one(table, bets, RandomPlayer(rng), events)
        except Exception:  # an irregularity raised where the chapter's provisions do not apply: not a round
            assert events
            continue
        f = tmp_path / f"round-{i}.yaml"
        f.write_text(history_yaml(played.history))
        got = settle_json(path, f)
        # settle's JSON gives every `cites` as a list of single citations (compiler.cli_extras.cite_lists)
        assert got["results"] == cite_lists([r.to_json() for r in played.result.results]), f.read_text()
        assert got["warnings"] == []
        compared += 1
    assert compared >= 20


ROW = re.compile(r"^│\s*(\d+)\s*│\s*(.+?)\s*│\s*([\d.,]+)\s*│\s*(\w+)\s*│\s*([+-]?[\d.,]+|not known)\s*│")


def screen_settlements(screen: str) -> list[list[tuple]]:
    """Per round: (seat, wager name, amount, result, net) as the Settlement table on the screen shows them."""
    rounds = []
    for block in screen.split("Settlement")[1:]:
        rows = []
        for line in block.split("balance:")[0].splitlines():
            m = ROW.match(line.strip())
            if m:
                rows.append((int(m[1]), m[2], m[3], m[4], m[5]))
        rounds.append(rows)
    return rounds


def test_play_at_a_terminal_567_saves_rounds_that_settle_reproduces(tmp_path):
    """Drive `rulespec play` through a pseudo-terminal: wagers, a War decision, a card found face up
    in the shoe (§ 567.11(a)); every round saved and settled again shows the same settlement."""
    save = tmp_path / "rounds"
    save.mkdir()  # --save names an existing directory (a missing one is refused before the game)
    term = Terminal([RULESPEC, "play", "rulespecs/567-war.yaml", "--seats", "3", "--seed", "4", "--save", str(save)],
                    cwd=str(ROOT))
    rounds = 0
    raised = decided = False
    while (prompt := term.next_prompt()) is not None:
        if "another round" in prompt:
            rounds += 1
            answer = "y" if rounds < 6 else "n"
        elif "tie hand option" in prompt:
            answer, decided = "war", True
        elif "amount (0 declines)" in prompt:
            answer = "5"
        elif "Tie wager" in prompt:
            answer = "1"
        elif "amount" in prompt:
            answer = "10"
        elif prompt.endswith("(none): ") and "Raise an irregularity" in term.text[term.seen:]:
            answer = "face_up_card" if rounds == 1 and not raised else "none"
            raised = raised or answer != "none"
        elif "before which step" in prompt:
            answer = "deal_players"
        elif "at which seat" in prompt:
            answer = "none"
        else:
            answer = ""
        term.answer(answer)
    assert term.wait() == 0
    screen = term.text
    # the layout: wagers, the decisions from the chapter's decide/offer steps, the irregularities, with §
    assert "Decisions a player may make" in screen and "tie_hand_option" in screen and "§ 567.9(c)" in screen
    assert "face_up_card" in screen and "§ 567.11(a)" in screen
    assert raised and decided, screen[-4000:]
    round2 = screen.split("Round 2", 1)[1].split("Round 3", 1)[0]
    assert "face up card:" in round2 and "§ 567.11(a)" in round2  # the card found face up, and its ruling
    shown = screen_settlements(screen)
    files = sorted(save.glob("*.yaml"))
    assert len(files) == rounds == len(shown) == 6
    balance: dict[int, Decimal] = {}
    for f, rows in zip(files, shown):
        got = settle_json("rulespecs/567-war.yaml", f)
        settled = [(r["seat"], r["name"], r["amount"], r["outcome"], r["net"]) for r in got["results"]]
        assert [(s, n, Decimal(a.replace(",", "")), o, Decimal(v.replace(",", "")))
                for s, n, a, o, v in rows] == [(s, n, Decimal(a), o, Decimal(v)) for s, n, a, o, v in settled]
        for s, v in got["net_by_seat"].items():
            balance[int(s)] = balance.get(int(s), Decimal(0)) + Decimal(v)
    last = screen.rsplit("balance:", 1)[1].splitlines()[0]
    assert last.strip() == ", ".join(f"seat {s} {'+' if b > 0 else ''}{b:,.2f}" for s, b in sorted(balance.items()))
