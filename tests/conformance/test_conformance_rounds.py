"""Rounds settled three ways (issue 25 item 3): seeded random rounds of every chapter (conformance_rounds.py:
the seeded chapters in rulespecs/ and the test chapters in tests/fixtures/chapters/, each picked up by
itself) are played by the engine, then settled again

* by the fast path (compiler/fast) on the same seeded shoe, where it plays the chapter (where it does not,
  its reason must name the construct, with the step or rule and its §: it is recorded with the test);
* by the general analyzer's replay machinery: the round's cards and rolls turned into a branch path
  (:func:`compiler.analysis.exact_engine.deal_path`) and dealt by a :class:`BranchShoe`, the same decisions;
* from its hand history, written as `rulespec play --save` writes it and settled by `rulespec settle`;

and every wager's outcome and net must be the engine's, to the cent, with the § of every result and of
every logged entry that carries one.
"""
from __future__ import annotations

import contextlib
import io
import json
import traceback
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest

from compiler.analysis.exact_engine import BranchShoe, deal_path, shoe_counts
from compiler.cli import main
from compiler.cli_extras import cite_lists
from compiler.fast import Unsupported, compile_fast
from compiler.play.session import history_yaml
from compiler.runtime.engine import FixedStrategy, Table
from conformance_rounds import PLAYABLE, ROUNDS, conformance_rounds, selections
from random_rounds import game_of

LIVE_SHOE_ONLY = ("shuffle", "cut", "cut_offer", "marker")  # the handling of a live shoe: no replay has it
FAST_ROUTE: dict[str, dict] = {}  # chapter -> {"compared": rounds, "reasons": {why the fast path did not}}


def _rounds(spec):
    rounds = conformance_rounds(spec)
    for r in rounds:
        assert r.error is None, f"{r.label} was not played:\n" + "".join(traceback.format_exception(r.error))
        assert r.bets and all(Decimal(str(a["amount"] if isinstance(a, dict) else a)) > 0 for a in r.bets[1].values())
    return rounds


def _results(results) -> list[tuple]:
    return [(r.seat, r.hand, r.wager, r.outcome, r.amount, r.net, tuple(r.cites)) for r in results]


def _cited_log(log) -> list[tuple]:
    return [(e.kind, e.cite, e.seat, e.hand, e.wager, e.amount, e.net) for e in log
            if e.cite and e.kind not in LIVE_SHOE_ONLY]


@lru_cache(maxsize=None)
def _fast(spec: Path, sub: int):
    mod, compiled = game_of(spec)
    try:
        return compile_fast(compiled.chapter, mod.GAME, dict(selections(spec)[sub][1]))
    except Unsupported as exc:
        return exc


def _names_construct(reason: str) -> bool:
    """A reason of the fast path names what it cannot play: a step, rule or choice with its §."""
    return "§" in reason and any(w in reason for w in ("step ", "rule at ", "choice ", "wager "))


@pytest.mark.parametrize("spec", PLAYABLE, ids=lambda p: p.stem)
def test_fast_path_settles_each_round_as_the_engine(spec, record_property):
    route = FAST_ROUTE.setdefault(spec.stem, {"compared": 0, "reasons": set()})
    for i, rec in enumerate(_rounds(spec)):
        fast = _fast(spec, i % len(selections(spec)))
        bets = rec.bets[1]
        try:
            if isinstance(fast, Unsupported):
                raise fast
            played = fast.play([rec.seed], 1, len(rec.bets), bets, rec.prefer, offers=rec.offers, record=True)
        except Unsupported as exc:
            assert _names_construct(str(exc)), f"{rec.label}: the fast path's reason names no construct: {exc}"
            route["reasons"].add(str(exc))
            continue
        want = sorted((r.seat, r.wager, r.outcome, int(r.amount * 100), int(r.net * 100)) for r in rec.result.results)
        assert sorted(played.rounds[0][0]) == want, rec.label
        route["compared"] += 1
    record_property("fast_path", json.dumps({"compared": route["compared"], "reasons": sorted(route["reasons"])}))
    if any(not isinstance(_fast(spec, k), Unsupported) for k in range(len(selections(spec)))):  # it plays some
        assert route["compared"] >= 1, f"{spec.stem}: the fast path compiles but compared no round: {route['reasons']}"


@pytest.mark.parametrize("spec", PLAYABLE, ids=lambda p: p.stem)
def test_analyzer_replay_deals_each_round_and_settles_it_as_the_engine(spec):
    mod, _ = game_of(spec)
    game = mod.GAME
    for rec in _rounds(spec):
        counts = shoe_counts(Table(game, rec.options, seed=0).shoe_decks(), game.cards.jokers, False)
        path = deal_path(counts, rec.draws)
        shoe = BranchShoe(counts, path)
        got = Table(game, rec.options, seed=0, shoe=shoe, chance=shoe).play_round(
            rec.bets, FixedStrategy(rec.prefer, rec.offers), new_dealer=True)
        assert shoe.taken == path, f"{rec.label}: the replay took other branches than the round's deal"
        want = rec.result
        assert _results(got.results) == _results(want.results), rec.label
        assert got.net_by_seat() == want.net_by_seat(), rec.label
        assert _cited_log(got.log) == _cited_log(want.log), rec.label
        assert got.rolled == want.rolled, rec.label


@pytest.fixture(scope="module")
def settle_loads_the_compiled_chapter():
    """`settle` reads the chapter compiled once for the rounds (``load_game``, as its own ``_load`` calls it;
    compiling is deterministic: tests/pipeline): the suite stays cheap."""
    from compiler import game_commands

    mp = pytest.MonkeyPatch()
    mp.setattr(game_commands, "_load", lambda spec: game_of(Path(spec).resolve()))
    yield
    mp.undo()


def _settle_json(spec: Path, path: Path) -> tuple[int, dict | None, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["settle", str(spec), str(path), "--format", "json"])
    return rc, (json.loads(out.getvalue()) if rc == 0 else None), err.getvalue()


def _comparable_log(entries: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "text"} for e in entries if e["cite"] and e["kind"] not in LIVE_SHOE_ONLY]


@pytest.mark.parametrize("spec", PLAYABLE, ids=lambda p: p.stem)
def test_hand_history_of_each_round_settles_as_the_engine(spec, tmp_path, settle_loads_the_compiled_chapter):
    for rec in _rounds(spec):
        text = history_yaml(rec.history)
        f = tmp_path / f"{spec.stem}-{rec.index}.yaml"
        f.write_text(text, encoding="utf-8")
        rc, got, err = _settle_json(spec, f)
        assert rc == 0, f"{rec.label}: its hand history does not settle:\n{err}\n{text}"
        want = rec.result
        assert got["results"] == cite_lists([r.to_json() for r in want.results]), f"{rec.label}\n{text}"
        assert got["net_by_seat"] == {str(s): str(v) for s, v in sorted(want.net_by_seat().items())}, text
        assert got["warnings"] == [], text
        assert _comparable_log(got["log"]) == _comparable_log(cite_lists([e.to_json() for e in want.log])), text


def test_every_chapter_is_played():
    stems = {c.stem for c in PLAYABLE}
    assert {"567-war", "669a-raise-it-up-stud-poker", "670a-six-card-fortune-pai-gow-poker", "craps",
            "blackjack", "roulette-00", "mini-baccarat", "baccarat-dragon-bonus", "roulette-0-la-partage",
            "crapless-craps", "blackjack-late-surrender", "blackjack-21plus3-lucky-ladies", "spanish-21"} <= stems
    assert ROUNDS >= 5


def test_deal_path_deals_the_given_cards_and_rolls_and_refuses_what_the_shoe_cannot_deal():
    counts = {0: 1, 5: 2, 52: 1}
    path = deal_path(counts, [5, (6, 3), 52, 5, 0])
    shoe = BranchShoe(counts, path)
    assert [shoe.draw(("player", 1, "cards")), shoe.uniform(6, "die"), shoe.draw(("dealer", None, "cards")),
            shoe.draw(("burn", None, None)), shoe.draw(("player", 1, "cards")), shoe.draw(("player", 1, "cards"))] \
        == [5, 3, 52, None, 5, 0]
    assert shoe.taken == path and shoe.prob == Fraction(2, 4) * Fraction(1, 6) * Fraction(1, 3) * Fraction(1, 2)
    with pytest.raises(ValueError, match="draw 3: card 5 is not"):
        deal_path(counts, [5, 5, 5])
    with pytest.raises(ValueError, match="outcome 6 of a roll of 6"):
        deal_path(counts, [(6, 6)])
