"""The game definition translated from the IR (compiler/runtime/from_ir.py: closures, no source text, no
``exec``) against the generated game module (the source `rulespec build` writes, exec'd here to prove it), on
every chapter (rulespecs/ and tests/fixtures/chapters/, each picked up by itself; issue 25 item 1):

* every attribute of the two definitions is the same, of the same type and written the same (``repr``), but
  the rule functions, which must be present in one exactly where they are in the other;
* seeded random rounds (tests/random_rounds.py: random wagers, decisions, offers, settings and irregularities,
  under each Rules Submission; on a fresh table each round and on one table for all) come out the same:
  every result with its §§, each seat's net, the whole log, the cards and rolls, the hand history, the
  meters, or the same refusal;
* a rule dividing by zero is the same engine error, naming the rule, its § and where it is.
"""
from __future__ import annotations

import dataclasses
import traceback
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from compiler.codegen.generate import render_game_module
from compiler.lang.rules import parse_expr
from compiler.pipeline import _module
from compiler.runtime.engine import EngineError, FixedStrategy, Table
from compiler.runtime.from_ir import Game, game_definition, load_game
from random_rounds import CHAPTERS, game_of, random_rounds

ROUNDS = 12


def differences(a, b, path: str = "GAME") -> list[str]:
    """Where the definitions ``a`` (generated module) and ``b`` (from the IR) differ: values by type, ``==``
    and ``repr``; a rule function only by where it is (one is a function of source, the other a closure)."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        if type(a) is not type(b):
            return [f"{path}: {type(a).__name__} vs {type(b).__name__}"]
        return [d for f in dataclasses.fields(a) for d in differences(getattr(a, f.name), getattr(b, f.name),
                                                                      f"{path}.{f.name}")]
    if callable(a) or callable(b):
        return [] if callable(a) and callable(b) else [f"{path}: {a!r} vs {b!r}"]
    if isinstance(a, dict):
        if type(a) is not type(b) or list(a) != list(b):
            return [f"{path}: {a!r} vs {b!r}"]
        return [d for k in a for d in differences(a[k], b[k], f"{path}[{k!r}]")]
    if isinstance(a, (list, tuple)):
        if type(a) is not type(b) or len(a) != len(b):
            return [f"{path}: {a!r} vs {b!r}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    if type(a) is not type(b) or a != b or repr(a) != repr(b):
        return [f"{path}: {a!r} vs {b!r}"]
    return []


def from_ir(spec: Path):
    return load_game(str(spec))


@pytest.mark.parametrize("spec", CHAPTERS, ids=lambda p: p.stem)
def test_every_attribute_of_the_definition_from_the_ir_is_the_generated_modules(spec):
    mod, compiled = game_of(spec)
    game, _ = from_ir(spec)
    assert differences(mod.GAME, game.GAME) == []
    assert (game.CHAPTER, game.TITLE, game.SPEC_PATH) == (mod.CHAPTER, mod.TITLE, mod.SPEC_PATH)
    assert game_definition(compiled.chapter) is not game.GAME  # a new translation each time it is asked for


def test_the_comparison_sees_a_changed_value_a_changed_type_and_a_missing_rule():
    mod, _ = game_of(next(c for c in CHAPTERS if c.stem == "567-war"))
    g = mod.GAME
    wid = next(iter(g.wagers))
    w = g.wagers[wid]
    assert differences(g, replace(g, wagers={**g.wagers, wid: replace(w, cite=w.cite + "x")})) == [
        f"GAME.wagers[{wid!r}].cite: {w.cite!r} vs {w.cite + 'x'!r}"]
    assert differences(g, replace(g, max_positions=float(g.max_positions))) != []
    swapped = replace(g, positions_max=None if g.positions_max else (lambda ctx: 1))
    assert [d.split(":")[0] for d in differences(g, swapped)] == ["GAME.positions_max"]
    assert differences(g, replace(g, positions_max=(lambda ctx: 2) if g.positions_max else None)) == []
    step = next(s for s in g.procedure if s.rules)
    bare = replace(step, rules=tuple(replace(r, when=None) for r in step.rules))
    assert any(r.when for r in step.rules)
    assert differences(g, replace(g, procedure=tuple(bare if s is step else s for s in g.procedure))) != []


def _outcome(p) -> dict:
    """What a round came to: its result, history and meters, or its refusal."""
    if p.played is None:
        return {"refused": f"{type(p.error).__name__}: {p.error}"}
    return {"result": p.played.result.to_json(), "history": p.played.history, "meters": dict(p.table.meters),
            "meters_before": p.played.meters_before, "ledger": repr(vars(p.table.ledger))}


# a chapter without wagers (an amendment, 535) has no round to play: its definition is compared above
WAGERED = [p for p in CHAPTERS if "\nwagers:" in p.read_text(encoding="utf-8")]


def test_the_chapters_without_rounds_are_only_those_without_wagers():
    for p in CHAPTERS:
        assert (p in WAGERED) == bool(game_of(p)[0].GAME.wagers), p.name


@pytest.mark.parametrize("same_table", [False, True], ids=["fresh-tables", "one-table"])
@pytest.mark.parametrize("spec", WAGERED, ids=lambda p: p.stem)
def test_seeded_rounds_come_out_the_same_from_the_ir_as_from_the_generated_module(spec, same_table):
    generated = list(random_rounds(spec, ROUNDS, seed=7, same_table=same_table))
    translated = list(random_rounds(spec, ROUNDS, seed=7, same_table=same_table, load=from_ir))
    played = 0
    for g, t in zip(generated, translated, strict=True):
        label = f"{spec.stem} round {g.index} (events {g.events})"
        assert t.table.game is not g.table.game
        if g.played is None and not isinstance(g.error, EngineError):
            pytest.fail(f"{label}: {''.join(traceback.format_exception(g.error))}")
        assert _outcome(t) == _outcome(g), label
        played += g.played is not None
    assert played >= ROUNDS // 2, f"{spec.stem}: only {played} of {ROUNDS} rounds were played"


def test_a_rule_that_divides_by_zero_is_the_same_engine_error_from_the_ir():
    """Validate refuses a divisor that can be 0 (tests/spec/test_division_by_zero.py); the engine still
    guards every rule that divides. A War rule made to divide by (dealer's cards - player's cards), 0 in
    every round, is given to both definitions."""
    spec = next(c for c in CHAPTERS if c.stem == "567-war")
    ch = game_of(spec)[1].chapter
    when = "count(player.original) / (count(dealer.original) - count(player.original)) > 0"
    step = next(s for s in ch.procedure if s.kind == "settle" and any(r.when is not None for r in s.rules))
    first = next(r for r in step.rules if r.when is not None)
    rules = tuple(replace(r, when=parse_expr(when), when_text=when) if r is first else r for r in step.rules)
    broken = replace(ch, procedure=tuple(replace(s, rules=rules) if s is step else s for s in ch.procedure))
    errors = []
    for game in (_module("broken_war", render_game_module(broken)).GAME, game_definition(broken)):
        with pytest.raises(EngineError) as info:
            Table(game, {}, seed=3).play_round({1: {"initial": Decimal(10)}}, FixedStrategy([], {}))
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert f"the when of the rule of {first.cite} divides by zero: {when}" in errors[1]
    assert errors[1].startswith(f"{first.src.path}:{first.src.line}:{first.src.col}: ")


def test_a_game_from_the_ir_plays_as_the_module_names_it():
    spec = next(c for c in CHAPTERS if c.stem == "567-war")
    game, compiled = from_ir(spec)
    assert isinstance(game, Game) and game.CHAPTER == compiled.chapter.chapter == "567"
    t = game.new_table({}, seed=1)
    assert t.game is game.GAME
    r = t.play_round({1: {"initial": Decimal(10)}}, FixedStrategy(["war"], {}))
    assert [x.wager for x in r.results] and all("§ 567" in c for x in r.results for c in x.cites)
