"""Chapter 669a Raise It Up Stud Poker: every numbered provision of §§ 669a.5 and 669a.7-669a.13
against the compiled game (rulespecs/669a-raise-it-up-stud-poker.yaml).

Amounts are worked out by hand from the text (e.g. a Play Wager of 3 x a $5 Ante on a flush is
$15 at 5 to 1: +$75), never copied from program output. Provisions that only regulate handling
(inspection, where a device sits, ...) are checked to be encoded in the spec with their citation;
those tests say "encoded" in their name. ``test_every_numbered_provision_is_covered`` checks that
every numbered provision of those sections is claimed by at least one test (``@covers``).

Shared by the tests of chapter 669a (test_669a_deal.py, test_669a_play.py): helpers and the one
``Coverage`` both modules record into.
"""
from __future__ import annotations

from decimal import Decimal

from chapters.provisions import Coverage

from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import Strategy, Table
from compiler.runtime.shoe import ScriptedShoe

SPEC = "rulespecs/669a-raise-it-up-stud-poker.yaml"
ROUNDS = "rulespecs/rounds"
D = Decimal

COVERAGE = Coverage()
covers = COVERAGE.covers
COVERED = COVERAGE.covered


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------

STREETS = ("fourth_street", "fifth_street", "sixth_street")


def shoe_of(dealt):
    """dealt: {seat: "AS KS QS", "community": "2C JH 3D"} -> a scripted shoe."""
    script = {}
    for who, cards in dealt.items():
        cs = parse_cards(cards)
        if who == "community":
            for z, c in zip(STREETS, cs):
                script[("community", None, z)] = [c]
        else:
            script[("player", who, "hand")] = cs
    return ScriptedShoe(script)


class Choices(Strategy):
    """Decisions from a table {seat: {decision: choice}}; a missing one fails the test."""

    def __init__(self, choices, seen=None):
        self.choices = choices
        self.seen = seen if seen is not None else {}

    def for_seat(self, seat):
        parent = self

        class S(Strategy):
            def choose(self, decision, options, view):
                parent.seen[(seat, decision)] = list(options)
                return parent.choices[seat][decision]

        return S()


def play(mod, bets, dealt, choices=None, options=None, events=(), players=None, meter=None, seen=None):
    t = mod.new_table(options or {}, shoe=shoe_of(dealt))
    t.game_beginning = False
    if meter is not None:
        t.meters["progressive"] = D(meter)
    ch = Choices(choices or {}, seen)
    res = t.play_round(bets, {s: ch.for_seat(s) for s in bets}, list(events), players=players)
    return t, res


def net(res, seat, wager):
    out = [r for r in res.results if r.seat == seat and r.wager == wager and r.outcome != "bonus"]
    assert len(out) == 1, (seat, wager, [(r.seat, r.wager, r.outcome) for r in res.results])
    return out[0]


def bonuses(res, seat):
    return [r.net for r in res.results if r.seat == seat and r.outcome == "bonus"]


def seat_net(res, seat):
    return res.net_by_seat().get(seat, D(0))


def cites(res, kind=None):
    return [e.cite for e in res.log if kind is None or e.kind == kind]


def requirement(data, cite):
    return [r for r in data.get("requirements") or () if cite in r["cite"].split("; ")]


def equipment(data, cite):
    return [e for e in data["table"]["equipment"] if cite in e["cite"].split("; ")]


def violated(mod, compiled, options):
    """Citations of the constraints a set of Rules Submission selections breaks."""
    return [cite for cite, _ in Table(mod.GAME, options, seed=0).violations()]


PLAY3 = {"first_decision": "play_3x"}
PLAY2_AT_4TH = {"first_decision": "check", "second_decision": "play_2x"}
PLAY1_AT_5TH = {"first_decision": "check", "second_decision": "check", "third_decision": "play_1x"}
FOLD = {"first_decision": "check", "second_decision": "check", "third_decision": "fold"}
PROG = {"progressive_offered": True, "rate_of_progression": 15, "progressive_reset_amount": 10000}
SIX = {"six_card_bonus_offered": True}
