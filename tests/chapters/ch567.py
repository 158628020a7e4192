"""Chapter 567 War: every numbered provision of §§ 567.5 and 567.7-567.11 against the compiled game.

Amounts are worked out by hand from the text (e.g. a $2 Tie wager at 10 to 1 nets +$20), never
copied from program output.

Shared by the tests of chapter 567 War (test_567_war_deal.py, test_567_war_play.py).
"""
from __future__ import annotations

from compiler.runtime.cards import parse_cards
from compiler.runtime.shoe import ScriptedShoe


def scripted(mod, dealt, options=None, burned=(), first_after_shuffle=False):
    shoe = ScriptedShoe({(("player", k, z) if isinstance(k, int) else (k, None, z)): parse_cards(v)
                         for (k, z), v in dealt.items()}, parse_cards(burned) if burned else ())
    t = mod.new_table(options or {}, shoe=shoe)
    t.first_after_shuffle = first_after_shuffle
    t.game_beginning = False
    return t


def result(res, seat, wager):
    out = [r for r in res.results if r.seat == seat and r.wager == wager]
    assert len(out) == 1, (seat, wager, res.results)
    return out[0]


def log_cites(res, kind):
    return [e.cite for e in res.log if e.kind == kind]
