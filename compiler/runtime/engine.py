"""The round engine: executes a compiled chapter, step by step, logging every operation with its §.

A generated game module (``generated/games/*.py``) builds a :class:`GameDefinition` from the
rulespec (:mod:`compiler.runtime.definition`); a :class:`Table` (:mod:`compiler.runtime.table`)
plays rounds of it. The engine knows card primitives, money and irregularity events; it knows no
chapter. Its rooms:

==========================  =================================================================
``definition``              the compiled chapter: steps, rules, wagers, payouts, paytables, house ways
``state``                   a round's seats, wagers, log and results; the session's ledger
``strategy``                players' decisions and what a player is shown (:class:`PlayerView`)
``context``                 what a compiled condition reads and an outcome does
``wagers``                  seats and wagers: offering, placing, meters, positions, conditions
``dealing``                 the shoe, the cut, reshuffles; announce, burn, deal, reveal, roll steps
``decisions``               decide and offer steps
``settlement``              odds, settling wagers, settle and envy steps, results into the ledger
``irregularities``          events answered by the chapter's provisions
``paigow``                  settings, house ways, the set_hands step
``steps``                   the executor of each step kind of the registry (compiler/steps/)
``table``                   the session: a round from wagers to reshuffle
==========================  =================================================================

This module gathers their public names, as callers have always imported them.
"""
from __future__ import annotations

from compiler.runtime.context import Context
from compiler.runtime.definition import (CardsDef, Choice, Criterion, Fn, GameDefinition, HouseWay, HouseWayRule,
                                         Irregularity, MeterDef, Paytable, Payout, Rule, Step, WagerDef)
from compiler.runtime.errors import EngineError, RefusedError
from compiler.runtime.state import Event, Ledger, Round, RoundResult, Seat, Wager, WagerResult
from compiler.runtime.strategy import CallbackStrategy, FixedStrategy, PlayerView, Strategy, view_of
from compiler.runtime.table import Table

_Round = Round  # the former private name (compiler/analysis builds rounds to evaluate house ways)

__all__ = ["CallbackStrategy", "CardsDef", "Choice", "Context", "Criterion", "EngineError", "Event", "FixedStrategy",
           "Fn", "GameDefinition", "HouseWay", "HouseWayRule", "Irregularity", "Ledger", "MeterDef", "Paytable",
           "Payout", "PlayerView", "RefusedError", "Round", "RoundResult", "Rule", "Seat", "Step", "Strategy",
           "Table", "Wager", "WagerDef", "WagerResult", "view_of"]
