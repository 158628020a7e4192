"""The raise-or-fold structure of a procedure, read from its IR steps (no chapter knowledge here):
:func:`stud_model_or_reason` gives the :class:`StudModel` that :mod:`compiler.analysis.stud` solves
(through :func:`compiler.analysis.card_routes.solve_model`), or the reason the procedure is not one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compiler.analysis.assumptions import settle_dependencies
from compiler.lang.rules import BinOp, BoolOp, Call, Lit, Not


def _zone_sizes(steps) -> tuple[dict, dict]:
    """Cards per player zone and per community zone, from the deal steps."""
    player, community = {}, {}
    for s in steps:
        if s.kind != "deal":
            continue
        p = dict(s.params)
        n = int(p.get("count", 1))
        z = p.get("zone", "cards")
        if p.get("to") in ("players", "positions"):  # positions: every position and the dealer (pai gow)
            player[z] = player.get(z, 0) + n
        elif p.get("to") == "community":
            community[z] = community.get(z, 0) + n
    return player, community


def _multiplier(value, base: str) -> int | None:
    """k of ``wager(base) * k`` (or 1 for ``wager(base)``)."""
    if isinstance(value, Call) and value.name == "wager" and value.args[0].parts[0] == base:
        return 1
    if isinstance(value, BinOp) and value.op == "*":
        for a, b in ((value.left, value.right), (value.right, value.left)):
            if isinstance(a, Call) and a.name == "wager" and a.args[0].parts[0] == base and isinstance(b, Lit):
                return int(b.value)
    return None


def _find_at_least(node):
    """The first ``at_least(R, v, cat[, rank])`` under a ``not``."""
    if isinstance(node, Not) and isinstance(node.item, Call) and node.item.name == "at_least":
        return node.item
    if isinstance(node, BoolOp):
        for x in node.items:
            f = _find_at_least(x)
            if f is not None:
                return f
    return None


@dataclass
class StudModel:
    ranking_id: str
    hole: int
    community: int
    schedule: list
    qualifier: tuple  # (category, rank or None)
    base: list  # [(wager id, multiple)]
    play: str  # play wager id
    pays: dict  # wager id -> ('paytable', id) | ('payout', id)


def find_stud_model(game, chapter, steps) -> StudModel | None:
    return stud_model_or_reason(game, chapter, steps)[0]


def _choice_option(c, s, required: list, play) -> tuple[Any, Any, str]:
    """(the option choice ``c`` of decision ``s`` is: a multiple of a required wager placed, 'fold' or 'check';
    the wager the decisions place so far; why it is none of them, or '')."""
    places = [a for a in c.then if a.kind == "place"]
    loses = [a for a in c.then if a.kind == "lose"]
    other = [a for a in c.then if a.kind in ("return", "surrender", "win", "push")]
    if other:
        return None, play, (f"choice '{c.id}' of decision '{s.id}' ({c.cite}) does '{other[0].kind}', which the "
                            "raise-or-fold solver does not model")
    if places:
        a = places[0]
        k = None
        for base in required:
            k = k or _multiplier(a.value, base)
        if k is None:
            return None, play, (f"choice '{c.id}' of decision '{s.id}' ({c.cite}) places an amount that is not "
                                "a fixed multiple of a required wager")
        play = play or a.wager
        if a.wager != play:
            return None, play, f"decisions place more than one wager ({play}, {a.wager})"
        return k, play, ""
    if loses:
        if {a.wager for a in loses} != set(required):
            return None, play, (f"choice '{c.id}' of decision '{s.id}' ({c.cite}) loses some required wagers "
                                "but not all")
        return "fold", play, ""
    if not c.then or all(a.kind in ("set", "note") for a in c.then):
        return "check", play, ""
    return None, play, f"choice '{c.id}' of decision '{s.id}' ({c.cite}) is not a raise, check or fold"


def _decision_schedule(steps, required: list, player: dict, community: dict) -> tuple[list, Any, str]:
    """(the decisions: cards known at each and its options; the wager they place; why they are not of the
    raise-or-fold kind, or '')."""
    known = sum(player.values())
    revealed = 0
    schedule = []
    play = None
    for s in steps:
        if s.kind == "reveal":
            revealed += community.get(dict(s.params).get("zone"), 0)
        elif s.kind == "deal" and dict(s.params).get("to") == "community" and dict(s.params).get("face") == "up":
            revealed += int(dict(s.params).get("count", 1))
        elif s.kind == "decide":
            opts = []
            choice_of = {}
            for c in s.choices:
                option, play, why = _choice_option(c, s, required, play)
                if why:
                    return schedule, play, why
                opts.append(option)
                if opts[-1] in choice_of:
                    return schedule, play, f"decision '{s.id}' has two choices of the same kind ({opts[-1]})"
                choice_of[opts[-1]] = c.id
            if play is None:
                return schedule, play, f"decision '{s.id}' ({s.cite}) places no wager"
            schedule.append({"known": known + revealed, "options": opts, "step": s.id, "choices": choice_of})
    return schedule, play, ""


def _qualifier_of(f) -> tuple[str, tuple]:
    """(ranking id, (category, rank or None)) of a qualifier ``at_least(R, v, cat[, rank])``."""
    ranking_id = f.args[0].parts[0]
    cat = f.args[2].parts[0]
    rank = None
    if len(f.args) > 3:
        rank = f.args[3].value if isinstance(f.args[3], Lit) else f.args[3].parts[0]
    return ranking_id, (cat, rank)


def _qualifier_and_pays(game, steps, required: list, play: str) -> tuple[tuple | None, str | None, dict, str]:
    """From the settle rules: (the qualifier, its ranking, how each judged wager is paid, why the rules are not
    of the raise-or-fold kind, or '')."""
    qualifier = None
    ranking_id = None
    pays: dict = {}
    judged = set(required) | {play}
    for s in steps:
        if s.kind != "settle":
            continue
        for r in s.rules:
            acts = [a for a in r.then if a.wager in judged or a.wager == "*"]
            if not acts:
                continue
            bad = [a for a in acts if a.kind not in ("win", "lose")]
            if bad:
                return qualifier, ranking_id, pays, (f"{r.cite} settles {bad[0].wager} by '{bad[0].kind}', which the "
                                                     "raise-or-fold solver does not model")
            deps, _ = settle_dependencies(r.when)
            if deps:
                return qualifier, ranking_id, pays, (
                    f"{r.cite} settles {', '.join(sorted({a.wager for a in acts}))} on "
                    f"{', '.join(sorted(deps))}: the raise-or-fold solver models only hands judged on the "
                    "player's and the community cards")
            wagers_lost = {a.wager for a in r.then if a.kind == "lose"}
            if set(required) <= wagers_lost and play in wagers_lost and r.when is not None:
                f = _find_at_least(r.when)
                if f is not None:
                    ranking_id, qualifier = _qualifier_of(f)
            for a in r.then:
                if a.kind == "win" and a.wager in judged:
                    if a.paytable is not None:
                        pays[a.wager] = ("paytable", a.paytable)
                    elif a.payout is not None:
                        pays[a.wager] = ("payout", a.payout)
                    else:
                        pays[a.wager] = ("payout", game.wagers[a.wager].pays)
    return qualifier, ranking_id, pays, ""


def stud_model_or_reason(game, chapter, steps) -> tuple[StudModel | None, str]:
    """The raise-or-fold structure of the procedure, or why it is not one the stud solver computes.

    Its properties, all read from the steps: every decision's choices place one wager at a multiple
    of a required wager, check, or lose the required wagers (fold); the wagers they place and the
    required wagers are settled by win/lose rules that read only the player's and the community
    cards (a qualifier on the player's best hand, paytables); no decision withdraws a wager."""
    required = [w for w, d in game.wagers.items() if d.required]
    player, community = _zone_sizes(steps)
    decides = [s for s in steps if s.kind == "decide"]
    if not decides:
        return None, "the procedure has no player decision of the raise-or-fold kind"
    schedule, play, why = _decision_schedule(steps, required, player, community)
    if why:
        return None, why
    if not schedule or play is None:
        return None, "no decision places a wager"
    # qualifier and paytables from the settle rules
    qualifier, ranking_id, pays, why = _qualifier_and_pays(game, steps, required, play)
    if why:
        return None, why
    judged = set(required) | {play}
    if qualifier is None:
        return None, "no rule loses every wager of the player on a qualifier of the player's hand"
    if set(pays) != judged:
        return None, f"no rule pays {', '.join(sorted(judged - set(pays)))}"
    return StudModel(ranking_id, sum(player.values()), sum(community.values()), schedule, qualifier,
                     [(w, 1) for w in required], play, pays), ""
