"""Seeded random rounds of every chapter for the conformance suite (tests/conformance/README.md).

Each round is played by the engine on a fresh table (``new_table(options, seed=...)``) through `rulespec
play`'s own code (:func:`compiler.play.session.play_one`, which records the hand history), with

* random wagers: the required ones always, the optional ones at random, the same at every seat played
  (1 to 3 seats), so that the fast path, which places one set of wagers at every seat, can play it too;
* random choices: a random order of preference over every choice of the chapter's decisions (as
  :class:`~compiler.runtime.engine.FixedStrategy` takes them), offers made or declined at random;
* in turn, each of the chapter's Rules Submissions (their selections) and its defaults.

While it is played, what the round takes from chance is recorded in order (every card dealt, burns left
out, and every roll: the input of :func:`compiler.analysis.exact_engine.deal_path`), and at the start of
its first settle steps every expression of the chapter is evaluated by every evaluator
(conformance_exprs.py). The rounds of a chapter are played once per test process and shared.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from compiler.play.session import Player, layout_of, play_one, prepare_table, walk_steps
from compiler.runtime.engine import FixedStrategy, RoundResult
from random_rounds import CHAPTERS, game_of, stake, submissions_of

import conformance_exprs

ROUNDS = 8
SEATS = 3
STATES_PER_ROUND = 3  # expressions evaluated at the start of the first settle steps of each round
PLAYABLE = [c for c in CHAPTERS if game_of(c)[0].GAME.wagers]


class PreferencePlayer(Player):
    """The player of `play_one` answering as ``FixedStrategy(prefer, offers)`` does (and the fast
    path's fixed preference): the analyzer's replay and the fast path can take the same decisions."""

    def __init__(self, prefer, offers):
        self.fixed = FixedStrategy(prefer, offers)

    def choose(self, seat, step, decision, choices, view):
        return self.fixed.choose(decision, choices, view)

    def offer(self, seat, wager, view):
        return self.fixed.offer(wager, view)

    def setting(self, seat, step, candidates, view):
        return None  # the hands set by the house way


@dataclass
class ConformanceRound:
    spec: Path
    index: int
    seed: int
    options: dict
    submission: str | None
    bets: dict  # seat -> {wager: amount, or {amount, numbers}}
    prefer: list
    offers: dict
    result: RoundResult | None = None
    history: dict | None = None
    draws: list = field(default_factory=list)  # cards dealt (no burns) and (n, k) rolls, in order
    states: list = field(default_factory=list)  # conformance_exprs.Evaluation per snapshot
    error: Exception | None = None

    @property
    def label(self) -> str:
        return f"{self.spec.stem} round {self.index} (seed {self.seed}, options {self.options}, bets {self.bets[1]}, " \
               f"prefer {self.prefer}, offers {self.offers})"


def _choices(game) -> list[str]:
    out: list[str] = []
    for s in walk_steps(game.procedure):
        if s.kind in ("decide", "split"):
            out += [c.id for c in s.choices if c.id not in out]
    return out


def _bets(table, lay, rng) -> dict:
    game = table.game
    b: dict = {}
    for wid, name, cite, placed, offered in lay.wagers:
        wd = game.wagers[wid]
        if placed == "before_deal" and offered and (wd.required or rng.random() < 0.4):
            b[wid] = stake(game, wid, rng)
    offered = [w[0] for w in lay.wagers if w[3] == "before_deal" and w[4]]
    if not b and offered:  # a round needs a wager
        wid = rng.choice(offered)
        b[wid] = stake(game, wid, rng)
    for wid in list(b):
        for req in game.wagers[wid].requires:
            b.setdefault(req, stake(game, req, rng))
    return b


def _offers(game, table, bets: dict, rng) -> dict:
    out = {}
    for s in walk_steps(game.procedure):
        if s.kind != "offer" or not table.offered(s.params["wager"]) or rng.random() < 0.5:
            continue
        w, eq = s.params["wager"], s.params.get("equal_to")
        if eq:
            if eq in bets:
                a = bets[eq]
                out[w] = a["amount"] if isinstance(a, dict) else a
            continue
        wd = game.wagers[w]
        out[w] = rng.choice(list(wd.amounts)) if wd.amounts else Decimal(rng.choice([1, 5, 10]))
    return out


def _record(table, rec: ConformanceRound, chapter, compiled_fast) -> None:
    """Record the round's draws and rolls in order, and evaluate the expressions at its settle steps."""
    shoe_draw, uniform, run_step = table.shoe.draw, table.chance.uniform, table._run_step

    def draw(target=None):
        c = shoe_draw(target)
        if target is not None and target[0] != "burn":
            rec.draws.append(c)
        return c

    def roll(n, what):
        k = uniform(n, what)
        rec.draws.append((n, k))
        return k

    def step(ctx, rnd, s, pending):
        if s.kind == "settle" and len(rec.states) < STATES_PER_ROUND:
            rec.states.append(conformance_exprs.evaluate_all(chapter, table, ctx, rnd, compiled_fast))
        return run_step(ctx, rnd, s, pending)

    table.shoe.draw, table.chance.uniform, table._run_step = draw, roll, step


@lru_cache(maxsize=None)
def _fast_evaluator(spec: Path, sub: int) -> conformance_exprs.FastEvaluator:
    """One per chapter and Rules Submission (its rankings' numpy tables are built once)."""
    mod, compiled = game_of(spec)
    return conformance_exprs.FastEvaluator(compiled.chapter, mod.GAME, dict(selections(spec)[sub][1]))


@lru_cache(maxsize=None)
def selections(spec: Path) -> tuple:
    """(submission file or None, selections as items): each Rules Submission of the chapter, then its
    defaults where it has one for every option (§ 688a.11(a) leaves the house way to the casino)."""
    subs = submissions_of(spec)
    mod, compiled = game_of(spec)
    if (None, ()) in subs or set(compiled.chapter.options) - set(mod.GAME.defaults()):
        return subs
    return subs + ((None, ()),)


@lru_cache(maxsize=None)
def conformance_rounds(spec: Path, rounds: int = ROUNDS) -> tuple[ConformanceRound, ...]:
    mod, compiled = game_of(spec)
    subs = selections(spec)
    rng = random.Random(f"conformance-{spec.stem}")
    choices = _choices(mod.GAME)
    out = []
    for i in range(rounds):
        submission, opts = subs[i % len(subs)]
        seed = 5000 + i
        table = prepare_table(mod.new_table(dict(opts), seed=seed))
        lay = layout_of(table, compiled.chapter)
        one = _bets(table, lay, rng)
        seats = rng.randint(1, min(SEATS, lay.positions))
        prefer = rng.sample(choices, len(choices))
        rec = ConformanceRound(spec, i, seed, dict(opts), submission, {s: dict(one) for s in range(1, seats + 1)},
                               prefer, _offers(mod.GAME, table, one, rng))
        _record(table, rec, compiled.chapter, _fast_evaluator(spec, i % len(subs)))
        try:
            played = play_one(table, rec.bets, PreferencePlayer(prefer, rec.offers), [], selections=rec.options,
                              submission=submission)
        except Exception as exc:  # noqa: BLE001 - the test reports it with the round
            rec.error = exc
        else:
            rec.result, rec.history = played.result, played.history
        out.append(rec)
    return tuple(out)
