"""What the rules of a procedure with a dealer's hand read of the cards: :func:`dealer_plan`, for the dealer-hand
route (:func:`compiler.analysis.dealer.solve_dealer`).

The seat's cards (player and community) must be read through hand values of all N, the dealer's through hand values
of all M, the two together only by comparing hand values in one ranking; decisions are taken once, seeing every card
of the seat and the dealer's cards dealt face up or revealed before them. Anything else raises :class:`Refused`.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from compiler.analysis.deal_common import (
    _CARD_OWNERS, _HAND, _VALUE_OF_HAND, Refused, _atoms, _reads_cards, _walk_nodes, _zones_of,
    refuse_bonus_outside_settle)
from compiler.lang.rules import BinOp, BoolOp, Call, Not, Ref
from compiler.runtime.rankings import Ranking


_RANKINGS: dict = {}


def _ranking(game, rid: str):
    """The game's ranking ``rid`` (built once per game: its tables take a second)."""
    key = (id(game), rid)
    if key not in _RANKINGS or _RANKINGS[key][0] is not game:
        _RANKINGS[key] = (game, Ranking.from_spec(game.rankings[rid], rid))
    return _RANKINGS[key][1]


# ------------------------------------------------------------------------------------- a dealer's hand
_CMP = {"<", ">", "<=", ">=", "==", "!="}


@dataclass
class _DealerPlan:
    player: dict
    community: dict
    dealer: dict                # dealer zone -> cards
    order: list                 # [(owner, zone, count, seen at the decisions)] in deal order
    n_cards: int                # N: the seat's cards (player and community)
    m_cards: int                # M: the dealer's cards
    visible: int                # V: dealer cards the player sees when deciding
    seat_atoms: list
    dealer_atoms: list
    paytable_values: list
    seat_rankings: list
    dealer_rankings: list
    compare: str | None         # the ranking in which the seat's hand is compared with the dealer's
    gated: bool = False         # a choice is offered only on some of the seat's cards (its condition reads them)


def _side(node, player, community, dealer, n_cards, m_cards) -> str | None:
    """'seat' / 'dealer' when every card ``node`` reads is the seat's / the dealer's, else None."""
    owners = {o for o, _ in _zones_of(node)}
    if owners <= {"player", "community"}:
        return "seat"
    if owners == {"dealer"}:
        return "dealer"
    return None


def _dealer_side_atom(node, where, dealer, m_cards, game, rankings: set) -> None:
    """Check a sub-expression reading only the dealer's cards is a function of one hand value of all of them."""
    if not (isinstance(node, Call) and (node.name in _VALUE_OF_HAND or node.name in _HAND or node.name == "is_hand")):
        raise Refused(f"{where} reads the dealer's cards outside a hand value")
    hands = [x for x in _walk_nodes(node) if isinstance(x, Call) and (x.name in _HAND or x.name == "is_hand")]
    for h in hands:
        zones = _zones_of(h.args[1])
        total = 0
        for owner, z in zones:
            if owner != "dealer":
                raise Refused(f"{where} judges a hand on the dealer's and other cards together")
            total += sum(dealer.values()) if z in (None, "cards") else dealer.get(z, -10**6)
        if total != m_cards or len(set(zones)) != len(zones):
            raise Refused(f"{where} judges a hand on part of the dealer's cards; the dealer-hand route models only "
                          f"rules that read all {m_cards} of them together")
        rid = h.args[0].parts[0]
        if h.name == "is_hand":
            hid = h.args[2].parts[0]
            if _ranking(game, rid).card_sets(hid) is not None:
                raise Refused(f"{where} asks whether the dealer holds '{hid}', a hand named by its cards, not by "
                              "its value")
        rankings.add(rid)
    bare = [x for x in _walk_nodes(node) if isinstance(x, Ref) and x.parts[0] in _CARD_OWNERS]
    if len(bare) != sum(len(_zones_of(h.args[1])) for h in hands):
        raise Refused(f"{where} reads the dealer's cards outside a hand value")


def _split_atoms(node, where, pl: dict, out: dict) -> None:
    """The card-reading parts of a condition: the seat's hand values, the dealer's, and comparisons of the two."""
    if node is None or not _reads_cards(node):
        return
    side = _side(node, pl["player"], pl["community"], pl["dealer"], pl["N"], pl["M"])
    if side == "seat":
        _atoms(node, where, pl["player"], pl["community"], pl["N"], out["seat_rankings"], out["seat"])
        return
    if side == "dealer" and isinstance(node, Call):
        _dealer_side_atom(node, where, pl["dealer"], pl["M"], pl["game"], out["dealer_rankings"])
        out["dealer"].append(node)
        return
    if isinstance(node, BinOp) and node.op in _CMP:
        sides = [_side(x, pl["player"], pl["community"], pl["dealer"], pl["N"], pl["M"]) for x in (node.left, node.right)]
        if (set(sides) == {"seat", "dealer"} and all(isinstance(x, Call) and x.name in _HAND for x in (node.left, node.right))
                and node.left.args[0] == node.right.args[0]):
            seat, deal = (node.left, node.right) if sides[0] == "seat" else (node.right, node.left)
            _atoms(seat, where, pl["player"], pl["community"], pl["N"], set(), [])
            _dealer_side_atom(deal, where, pl["dealer"], pl["M"], pl["game"], set())
            rid = node.left.args[0].parts[0]
            if out["compare"] not in (None, rid):
                raise Refused(f"{where} compares the hands in a second ranking ({rid}); the dealer-hand route counts "
                              "comparisons in one ranking")
            out["compare"] = rid
            return
        raise Refused(f"{where} reads the player's and the dealer's cards together other than by comparing their "
                      "hand values in one ranking")
    if isinstance(node, BoolOp):
        for x in node.items:
            _split_atoms(x, where, pl, out)
    elif isinstance(node, Not):
        _split_atoms(node.item, where, pl, out)
    elif isinstance(node, BinOp) and side == "dealer":
        _split_atoms(node.left, where, pl, out)
        _split_atoms(node.right, where, pl, out)
    else:
        raise Refused(f"{where} reads the player's and the dealer's cards together")


def _choice_atoms(node, where: str, pl: dict, out: dict) -> None:
    """The seat atoms of a choice's condition: hand values of the seat's N cards, or whether they make a hand
    named by its value (``is_hand(R, player.hand, aces_or_better)``), under and / or / not."""
    if isinstance(node, (BoolOp, Not)):
        for x in (node.items if isinstance(node, BoolOp) else (node.item,)):
            _choice_atoms(x, where, pl, out)
    elif isinstance(node, Call) and node.name == "is_hand" and _reads_cards(node):
        zones = _zones_of(node.args[1])
        n = sum(sum(pl[o].values()) if z in (None, "cards") else pl[o].get(z, -10**6) for o, z in zones
                if o in ("player", "community"))
        rid, hid = node.args[0].parts[0], node.args[2].parts[0]
        if len(zones) != len(_zones_of(node)) or n != pl["N"] or len(set(zones)) != len(zones):
            raise Refused(f"{where} judges a hand on part of the seat's cards")
        if _ranking(pl["game"], rid).card_sets(hid) is not None:
            raise Refused(f"{where} asks whether the seat holds '{hid}', a hand named by its cards")
        out["seat_rankings"].add(rid)
        out["seat"].append(node)
    else:
        _atoms(node, where, pl["player"], pl["community"], pl["N"], out["seat_rankings"], out["seat"])


def _refuse_decision_on_cards(s) -> None:
    """Refuse a decision whether made, or whose choices' actions, depend on the cards, or a choice offered on
    other cards than the seat's own (a choice offered only on some of the seat's cards, 'with a pair of aces
    or better', is counted: the player sees them when deciding)."""
    for n in (s.when, s.players):
        if _reads_cards(n):
            raise Refused(f"whether decision {s.id} ({s.cite}) is made depends on the cards")
    for c in s.choices:
        seat_only = all(z[0] == "player" for z in _zones_of(c.when)) if _reads_cards(c.when) else True
        if not seat_only or any(_reads_cards(a.value) for a in c.then if hasattr(a, "value")):
            raise Refused(f"choice {c.id} of {s.id} ({c.cite}) depends on the cards")


def _deal_layout(steps) -> tuple[dict, dict, dict, list]:
    """The cards per zone of the seat, the community and the dealer, and the deals in order, each with whether
    the player has seen it when deciding (raises :class:`Refused` on what the dealer-hand route does not model)."""
    player: dict = {}
    community: dict = {}
    dealer: dict = {}
    order: list = []
    visible: set = set()
    decided = False
    reveal_after = False
    for s in steps:
        p = dict(s.params)
        if s.kind == "deal":
            if decided:
                raise Refused(f"step {s.id} ({s.cite}) deals cards after a decision; the dealer-hand route models "
                              "decisions taken once every card of the seat is dealt")
            to = p.get("to")
            z = p.get("zone", "cards")
            n = int(p.get("count", 1))
            if to not in ("players", "community", "dealer"):
                raise Refused(f"step {s.id} ({s.cite}) deals to {to}")
            owner = {"players": "player", "community": "community", "dealer": "dealer"}[to]
            holder = {"player": player, "community": community, "dealer": dealer}[owner]
            holder[z] = holder.get(z, 0) + n
            if p.get("face", "up") == "up" or owner == "player":
                visible.add((owner, z))
            order.append([owner, z, n])
        elif s.kind == "reveal":
            if decided:
                reveal_after = True
            else:
                visible.update({("dealer", p.get("zone")), ("community", p.get("zone"))})
        elif s.kind == "decide":
            if reveal_after:
                raise Refused(f"decision {s.id} ({s.cite}) follows cards revealed after an earlier decision; the "
                              "dealer-hand route models decisions taken with one view of the cards")
            decided = True
            _refuse_decision_on_cards(s)
        elif s.kind not in ("settle", "announce", "burn"):
            raise Refused(f"step {s.id} ({s.cite}) is a '{s.kind}' step, which the dealer-hand route does not model")
        if s.kind != "decide" and (_reads_cards(s.when) or _reads_cards(s.players)):
            raise Refused(f"whether step {s.id} ({s.cite}) applies depends on the cards")
    if not decided:
        raise Refused("the procedure has no decision")
    if not dealer:
        raise Refused("no cards are dealt to the dealer")
    for z in community:
        if ("community", z) not in visible:
            raise Refused(f"community cards ({z}) the player has not seen when deciding: the dealer-hand route models "
                          "decisions taken with every card of the seat seen")
    for o in order:
        o.append((o[0], o[1]) in visible)
    return player, community, dealer, order


def _paytable_win(game, a, r, pl: dict, out: dict) -> tuple:
    """Check a ``win W by PAYTABLE on E`` judges a hand value of the seat's cards; (paytable id, E)."""
    pt = game.paytables[a.paytable]
    if pt.amounts:
        raise Refused(f"paytable {a.paytable} ({pt.cite}) pays by the amount wagered")
    rk = _ranking(game, pt.ranking)
    if any(rk.card_sets(row[0]) is not None for row in pt.rows):
        raise Refused(f"paytable {a.paytable} ({pt.cite}) pays hands named by their cards")
    node = a.value if isinstance(a.value, Call) and a.value.name in _HAND else Call(
        "best", (Ref((pt.ranking,)), a.value))
    if _side(node, pl["player"], pl["community"], pl["dealer"], pl["N"], pl["M"]) != "seat":
        raise Refused(f"the paytable win at {r.cite} is judged on the dealer's cards")
    _atoms(node, f"the paytable win at {r.cite}", pl["player"], pl["community"], pl["N"], out["seat_rankings"], [])
    return a.paytable, a.value


def _settle_atoms(game, steps, pl: dict, out: dict) -> list:
    """Split every settle rule's condition into atoms (into ``out``); the paytable wins' (paytable, value)."""
    pvals = []
    for s in steps:
        if s.kind != "settle":
            continue
        for r in s.rules:
            _split_atoms(r.when, f"the rule at {r.cite}", pl, out)
            for a in r.then:
                if a.kind in ("win", "bonus") and getattr(a, "paytable", None) is not None:
                    pvals.append(_paytable_win(game, a, r, pl, out))
                else:
                    for attr in ("value", "amount"):
                        v = getattr(a, attr, None)
                        if v is not None and not isinstance(v, (str, int, Fraction, Decimal)) and _reads_cards(v):
                            raise Refused(f"the action at {r.cite} reads the cards")
    return pvals


def dealer_plan(game, steps) -> _DealerPlan:
    """Check a procedure with a dealer's hand (raises :class:`Refused`) and read what the counting needs."""
    refuse_bonus_outside_settle(steps)
    player, community, dealer, order = _deal_layout(steps)
    N = sum(player.values()) + sum(community.values())
    M = sum(dealer.values())
    V = sum(n for owner, z, n, seen in order if owner == "dealer" and seen)
    pl = {"player": player, "community": community, "dealer": dealer, "N": N, "M": M, "game": game}
    out = {"seat": [], "dealer": [], "seat_rankings": set(), "dealer_rankings": set(), "compare": None}
    pvals = _settle_atoms(game, steps, pl, out)
    gated = False
    for s in steps:  # a choice offered only on some of the seat's cards: its condition tells the seat's classes apart
        for c in s.choices if s.kind == "decide" else ():
            if _reads_cards(c.when):
                _choice_atoms(c.when, f"the condition of choice {c.id} of {s.id} ({c.cite})", pl, out)
                gated = True
    for rid in out["seat_rankings"]:
        if int(game.rankings[rid]["cards"]) > N:
            raise Refused(f"ranking {rid} needs more cards than the seat is dealt")
    for rid in out["dealer_rankings"] | ({out["compare"]} if out["compare"] else set()):
        if int(game.rankings[rid]["cards"]) > min(M, N if rid == out["compare"] else M):
            raise Refused(f"ranking {rid} needs more cards than the hands it judges")
    return _DealerPlan(player, community, dealer, order, N, M, V, out["seat"], out["dealer"], pvals,
                       sorted(out["seat_rankings"]), sorted(out["dealer_rankings"]), out["compare"], gated)
