"""The game definition the engine runs, translated from the typed chapter (:mod:`compiler.ir`): every
condition, amount and outcome a closure of the rule language (:mod:`compiler.lang.closures`), no source
text and no ``exec``. The game module that ``rulespec build`` writes (compiler/codegen) is the same game
as Python source, a product for people; nothing of the compiler reads it back
(tests/conformance/test_from_ir.py plays both and requires the same rounds, nets and §§).

The literals are those the module writes: the chapter's plain data copied (the definition owns them), amounts
as the module spells them (``Decimal(str(money(a)))``), the odds of the IR as they are. A rule that divides is
guarded as the module's is: a division by zero is the engine's error naming the rule, its § and where it is.
"""
from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from compiler.ir import model as ir
from compiler.lang.closures import action_closure, closure
from compiler.lang.emit import actions_divide, division_message, divides
from compiler.pipeline import Compiled, compile_spec
from compiler.runtime.definition import (CardsDef, Choice, Criterion, Fn, GameDefinition, HouseWay, HouseWayRule,
                                         Irregularity, MeterDef, Paytable, Payout, Rule, Step, WagerDef)
from compiler.runtime.errors import EngineError
from compiler.runtime.table import Table
from compiler.spec.diagnostics import DiagnosticError
from compiler.values.cards import ranks_removed
from compiler.values.money import money


def _guarded(fn: Fn, message: str) -> Fn:
    def guarded(ctx):
        try:
            return fn(ctx)
        except ZeroDivisionError:
            raise EngineError(message) from None

    return guarded


def _when(node, text, cite: str, src, kind: str = "when") -> Fn | None:
    """A condition or value of a rule (None where the rule has none), guarded where it divides."""
    if node is None:
        return None
    fn = closure(node)
    return _guarded(fn, division_message(kind, cite, src, text)) if divides(node) else fn


def _then(actions, text, cite: str, src) -> Fn | None:
    """The outcome of a rule: its actions applied in order (None where it has none)."""
    if not actions:
        return None
    fns = tuple(action_closure(a, cite) for a in actions)
    if len(fns) == 1:
        def then(ctx, f=fns[0]):
            f(ctx)
    else:
        def then(ctx):
            for f in fns:
                f(ctx)

    return _guarded(then, division_message("then", cite, src, text)) if actions_divide(actions) else then


def _where(src) -> str:
    return f"{src.path}:{src.line}"


def _rule(r: ir.Rule) -> Rule:
    return Rule(r.cite, _when(r.when, r.when_text, r.cite, r.src), _then(r.then, r.then_text, r.cite, r.src),
                _where(r.src), r.each)


def _step(s: ir.Step) -> Step:
    return Step(
        s.id, s.kind, s.cite, when=_when(s.when, s.when_text, s.cite, s.src),
        players=_when(s.players, s.players_text, s.cite, s.src, "players"), order=s.order,
        params=copy.deepcopy(dict(s.params)), source=_where(s.src),
        exprs={k: _when(node, text, s.cite, s.src, k) for k, node, text in s.exprs},
        rules=tuple(_rule(r) for r in s.rules),
        choices=tuple(Choice(c.id, c.cite, _then(c.then, c.then_text, c.cite, c.src),
                             _when(c.when, c.when_text, c.cite, c.src), _where(c.src)) for c in s.choices),
        steps=tuple(_step(x) for x in s.steps))


def _house_way(hw: ir.HouseWay) -> HouseWay:
    return HouseWay(hw.id, hw.title, hw.cite, tuple(
        HouseWayRule(r.cite, _when(r.when, r.when_text, r.cite, r.src),
                     tuple(Criterion(kind, closure(node), text) for kind, node, text in r.choose),
                     _where(r.src), r.note) for r in hw.rules))


def _amounts(amounts) -> tuple[Decimal, ...]:
    return tuple(Decimal(str(money(a))) for a in amounts)


def _cards(ch: ir.Chapter) -> CardsDef:
    """The chapter's cards: decks, cut, reshuffle marker, shuffle in batches (its ``when`` a closure)."""
    cards = ch.cards
    cut = cards.get("cut") or {}
    marker = cards.get("reshuffle_marker")
    batches = cards.get("batches") or {}
    decks_default = int(cards.get("decks", 1))
    if cards.get("decks_option"):
        o = ch.options[cards["decks_option"]]
        decks_default = int(o.default if o.has_default else decks_default)
    # a chapter without cards has no shoe: nothing is ever reshuffled (nor logged, nor counted)
    dealt = cards or any(st.kind in ("deal", "burn") for st in ch.all_steps())
    return CardsDef(
        decks_option=cards.get("decks_option"),
        decks_default=decks_default,
        jokers=int((cards.get("deck") or {}).get("jokers", 0)),
        without=ranks_removed(cards),
        cut_min_from_edge=int(cut.get("min_from_edge", 0)),
        marker_from_bottom=Fraction(marker["from_bottom"]) if marker else None,
        reshuffle=(cards.get("reshuffle") or {}).get("when", "every_round" if dealt else "never"),
        reshuffle_cite=(cards.get("reshuffle") or {}).get("cite", ""),
        batches=int(batches.get("count", 1)),
        batches_when=closure(ch.batches_when) if ch.batches_when is not None else None,
        cut_cite=cut.get("min_from_edge_cite", cut.get("cite", "")),
        shuffle_cite=(cards.get("shuffle") or {}).get("cite", ""),
        cut_offer=tuple((o["situation"], o["to"], o["cite"]) for o in cut.get("offer") or ()),
        cut_refused=((cut.get("refused") or {}).get("rotate", "clockwise"), (cut.get("refused") or {}).get("cite", "")),
        marker_cite=marker["cite"] if marker else "",
    )


def _money(ch: ir.Chapter) -> dict[str, Any]:
    """The chapter's payouts, paytables, wagers and meters as the engine's literals."""
    return {
        "payouts": {p.id: Payout(p.id, p.odds, p.cite, p.odds_option, p.unpriced) for p in ch.payouts.values()},
        "paytables": {t.id: Paytable(t.id, t.title, t.cite, tuple(t.columns),
                                     tuple((r.hand, tuple(r.odds), r.label) for r in t.rows),
                                     option=t.option, ranking=t.ranking, amounts=_amounts(t.amounts))
                      for t in ch.paytables.values()},
        "wagers": {w.id: WagerDef(w.id, w.name, w.cite, pays=w.pays, required=w.required, offered_by=w.offered_by,
                                  requires=tuple(w.requires), progressive=w.progressive, placed=w.placed,
                                  amounts=_amounts(w.amounts), choose=copy.deepcopy(w.choose) or None,
                                  stays=w.stays or None, keeps=tuple(w.keeps) if w.stays else (),
                                  requires_any=tuple(w.requires_any), several=w.several)
                   for w in ch.wagers.values()},
        "meters": {m.id: MeterDef(m.id, m.cite, m.rate_option, m.reset_option) for m in ch.meters.values()},
    }


def game_definition(ch: ir.Chapter) -> GameDefinition:
    """The runtime's :class:`GameDefinition` of the chapter ``ch``, translated from its IR."""
    ppp = ch.table.get("positions_per_player") or {}
    requirements = tuple(
        (r["cite"], r["text"], r.get("step"),
         _when(ch.requirement_whens[i], r.get("when"), r["cite"], _src0(ch, f"/requirements/{i}"))
         if ch.requirement_whens[i] else None)
        for i, r in enumerate(ch.requirements))
    state = {k: {"initial": copy.deepcopy(v["initial"]), "cite": v["cite"], **({"per": v["per"]} if v.get("per") else {})}
             for k, v in ch.state.items()}
    return GameDefinition(
        chapter=ch.chapter, title=ch.title, spec_path=ch.spec_path,
        max_positions=int(ch.table.get("max_positions", 7)),
        rankings=copy.deepcopy(dict(ch.rankings)),
        options={k: copy.deepcopy(dict(o.spec)) for k, o in ch.options.items()},
        cards=_cards(ch),
        procedure=tuple(_step(s) for s in ch.procedure),
        irregularities=tuple(Irregularity(i.id, i.event, i.cite, tuple(_rule(r) for r in i.rules), title=i.title)
                             for i in ch.irregularities),
        constraints=tuple((c.cite, c.message, _when(c.require, c.require_text, c.cite, c.src, "require"))
                          for c in ch.constraints),
        requirements=requirements,
        positions_max=closure(ch.positions_max) if ch.positions_max is not None else None,
        positions_adjacent=bool(ppp.get("adjacent", False)),
        positions_cite=ppp.get("cite", ""),
        house_ways={hw.id: _house_way(hw) for hw in ch.house_ways},
        state=state,
        **_money(ch),
    )


def _src0(ch: ir.Chapter, pointer: str) -> ir.Src:
    return ir.Src(ch.spec_path, ch.lines.get(pointer, 1), 1, pointer)


_GAMES: dict[int, tuple[ir.Chapter, GameDefinition]] = {}


def game_of(ch: ir.Chapter) -> GameDefinition:
    """The game definition of ``ch``, translated once per chapter object (chapters are read-only)."""
    hit = _GAMES.get(id(ch))
    if hit is None or hit[0] is not ch:
        if len(_GAMES) >= 64:
            _GAMES.clear()
        hit = _GAMES[id(ch)] = (ch, game_definition(ch))
    return hit[1]


class Game:
    """A compiled chapter as the interfaces hold it: its definition (``GAME``) and the names a generated game
    module gives (``CHAPTER``, ``TITLE``, ``SPEC_PATH``, ``new_table``), so a caller holds either alike."""

    def __init__(self, game: GameDefinition):
        self.GAME = game
        self.CHAPTER, self.TITLE, self.SPEC_PATH = game.chapter, game.title, game.spec_path

    def new_table(self, options=None, seed=None, shoe=None) -> Table:
        """A table of this game; ``options``: the casino's Rules Submission selections."""
        return Table(self.GAME, options, seed=seed, shoe=shoe)


def load_game(path: str | Path) -> tuple[Game, Compiled]:
    """Compile a rulespec and translate it: (:class:`Game`, the :class:`~compiler.pipeline.Compiled`).
    Raises :class:`DiagnosticError` with every error of an invalid rulespec."""
    c = compile_spec(path)
    if not c.ok:
        raise DiagnosticError(c.errors)
    return Game(game_of(c.chapter)), c
