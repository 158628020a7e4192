"""Seeded random rounds of every chapter, played through `rulespec play`'s own code
(:func:`compiler.play.session.play_one`): random wagers (optional ones at random, each on a random legal
set of numbers where the wager is placed on chosen numbers), a random player's decisions, offers and
settings, and random irregularities where the chapter has them. Shared by the replay test
(tests/people/test_every_round_replays.py), the money audit (tests/runtime/test_money_audit_chapters.py)
and the fuzz test of hand histories (tests/fuzz/test_fuzz_new_constructs.py).

Every chapter: the five in rulespecs/ and each test chapter in tests/fixtures/chapters/. A chapter with
Rules Submissions in rulespecs/submissions/ is played under each of them in turn (their selections, e.g.
a house way that the chapter leaves to the casino); the others under their defaults.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

from compiler.play.session import Player, PlayedRound, layout_of, play_one, prepare_table, walk_steps
from compiler.runtime.chance import find_step, legal_sets

ROOT = Path(__file__).resolve().parents[1]
SEEDED = sorted((ROOT / "rulespecs").glob("*.yaml"))
TEST_CHAPTERS = sorted((ROOT / "tests/fixtures/chapters").glob("*.yaml"))
CHAPTERS = SEEDED + TEST_CHAPTERS


class RandomPlayer(Player):
    """Seeded answers to every decision, offer and setting a round asks for. An offer is declined or
    accepted: for the amount its step requires (``equal_to``: the amount of that wager), else one of
    the seat's open wagers' amounts."""

    def __init__(self, rng: random.Random, game=None):
        self.rng = rng
        self.equal_to = {s.params["wager"]: s.params["equal_to"] for s in walk_steps(game.procedure)
                         if s.kind == "offer" and s.params.get("equal_to")} if game is not None else {}

    def choose(self, seat, step, decision, choices, view):
        return self.rng.choice(choices)

    def offer(self, seat, wager, view):
        if self.rng.random() < 0.4:
            return Decimal(0)
        if wager in self.equal_to:
            return view.wagers.get(self.equal_to[wager], Decimal(0))
        return self.rng.choice(sorted(set(view.wagers.values())) or [Decimal(5)])

    def setting(self, seat, step, candidates, view):
        return None if self.rng.random() < 0.5 else self.rng.choice(candidates)


@lru_cache(maxsize=None)
def game_of(spec: Path):
    from compiler.pipeline import load_game

    return load_game(str(spec))


@lru_cache(maxsize=None)
def submissions_of(spec: Path) -> tuple[tuple[str | None, tuple], ...]:
    """(submission file, its selections as items) for each Rules Submission of the chapter; (None, ()) if none."""
    from compiler.game_commands import _selections

    _, compiled = game_of(spec)
    out = []
    for sub in sorted((ROOT / "rulespecs/submissions").glob(f"{compiled.chapter.chapter}-*.yaml")):
        opts = _selections(SimpleNamespace(submission=str(sub), option=None), compiled)
        assert opts is not None, sub
        out.append((str(sub), tuple(opts.items())))
    return tuple(out) or ((None, ()),)


def stake(game, wid: str, rng: random.Random):
    """A stake for wager ``wid``: one of its allowed amounts, or a random one; on a random legal set of
    numbers for a wager placed on chosen numbers."""
    wd = game.wagers[wid]
    amount = rng.choice(list(wd.amounts)) if wd.amounts else Decimal(rng.choice([1, 5, 10, 25]))
    if not wd.choose:
        return amount
    wheel = None
    if wd.choose.get("wheel"):
        step = find_step(game.procedure, wd.choose["wheel"])
        wheel = step.params.get("wheel") if step is not None else None
    return {"amount": amount, "numbers": list(rng.choice(legal_sets(wd.choose, wheel)))}


def random_bets(table, lay, rng: random.Random, seats: int = 3) -> dict[int, dict]:
    bets = {}
    for seat in range(1, min(seats, lay.positions) + 1):
        b: dict = {}
        on_layout = table.carried[seat].wagers if seat in table.carried else {}  # in action: not placed again
        for wid, name, cite, placed, offered in lay.wagers:
            wd = table.game.wagers[wid]
            if placed == "before_deal" and offered and wid not in on_layout and (wd.required or rng.random() < 0.4):
                b[wid] = stake(table.game, wid, rng)
        for wid in list(b):
            for req in table.game.wagers[wid].requires:
                b.setdefault(req, stake(table.game, req, rng))
        if b:
            bets[seat] = b
    offered = [w[0] for w in lay.wagers if w[3] == "before_deal" and w[4]]
    if not bets and offered and not table.carried:  # a round needs a wager: one at random at the first seat
        wid = rng.choice(offered)
        bets[1] = {wid: stake(table.game, wid, rng)}
        for req in table.game.wagers[wid].requires:
            bets[1].setdefault(req, stake(table.game, req, rng))
    return bets


def random_events(lay, bets, rng: random.Random) -> list[dict]:
    if not lay.irregularities or not bets:
        return []
    ev, _, _ = rng.choice(lay.irregularities)
    e = {"event": ev, "before": rng.choice(lay.steps)[0], "seat": rng.choice(sorted(bets))}
    for name, values in lay.event_attrs.get(ev, {}).items():
        e[name] = rng.choice(values) if values else rng.random() < 0.5
    return [e]


@dataclass
class Played:
    spec: Path
    index: int
    played: PlayedRound | None  # None: the round was refused (an irregularity whose provisions do not apply)
    events: list
    submission: str | None
    table: object
    error: Exception | None = None


def random_rounds(spec: Path, rounds: int, seed: int = 0, irregular_every: int = 3,
                  same_table: bool = False, load=None) -> Iterator[Played]:
    """``rounds`` rounds of ``spec`` (a fresh table and shoe each round, or one table for all with
    ``same_table``); every ``irregular_every``-th round raises a random irregularity (0: never).
    ``load``: (game, compiled) of ``spec`` when not its generated module (``game_of``)."""
    mod, compiled = load(spec) if load is not None else game_of(spec)
    subs = submissions_of(spec)
    rng = random.Random(f"{spec.stem}-{seed}")
    table = None
    for i in range(rounds):
        submission, opts = subs[(seed if same_table else i) % len(subs)]  # one table: one casino's selections
        if table is None or not same_table:
            table = prepare_table(mod.new_table(dict(opts), seed=seed * 1000 + i))
        lay = layout_of(table, compiled.chapter)
        bets = random_bets(table, lay, rng)
        events = random_events(lay, bets, rng) if irregular_every and i % irregular_every == 0 else []
        try:
            played = play_one(table, bets, RandomPlayer(rng, table.game), events, selections=dict(opts), submission=submission)
        except Exception as exc:  # noqa: BLE001 - the caller decides which refusals are rounds not played
            yield Played(spec, i, None, events, submission, table, exc)
            continue
        yield Played(spec, i, played, events, submission, table)
