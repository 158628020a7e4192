"""What the deal-class routes share (:mod:`compiler.analysis.deals`, :mod:`compiler.analysis.dealer`).

* :class:`Refused` (the route cannot model the procedure) and :class:`DealSolution` (its result);
* reading the compiled rules: which sub-expressions read cards (:func:`_reads_cards`, :func:`_zones_of`)
  and the hand-value atoms of the seat's N cards (:func:`_atoms`);
* engine runs: the round engine played on a rigged deal (:class:`_RiggedShoe`) along a sequence of
  choices (:class:`_Follow`, :func:`_play`), and every sequence of choices a deal reaches
  (:func:`_histories`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

from compiler.lang.rules import BinOp, BoolOp, Call, Neg, Not, Ref, nodes
from compiler.runtime.engine import EngineError, Table
from compiler.runtime.shoe import StandInShoe

_VALUE_OF_HAND = {"at_least", "category", "category_rank"}  # functions of one hand value
_HAND = {"hand", "best"}
_CARD_OWNERS = ("player", "community", "dealer", "setting")
MAX_SETS = 3_000_000  # N-card sets enumerated at most (C(52, 5) = 2,598,960)
# the dealer's M-card sets the dealer-hand route enumerates at most: C(52, 6) = 20,358,520, a six-card dealer hand
# from one deck (Four Card Poker's best four of six: about a minute and 3 GB on the full deck)
MAX_DEALER_SETS = 21_000_000


class Refused(Exception):
    """The deal-class route cannot model the procedure (the message is the reason)."""


@dataclass
class DealSolution:
    expected_net: Fraction                 # whole round, per the analysed bets
    expected_stake: Fraction               # total wagered
    net: dict[str, Fraction]               # per wager
    stake: dict[str, Fraction]
    classes: int
    sets: int
    histories: int
    choice_frequency: dict[str, dict[str, Fraction]] = field(default_factory=dict)
    distribution: dict[Fraction, Fraction] = field(default_factory=dict)  # net of the round -> probability
    # a declared policy (the same choices on every deal) -> (expected net, expected stake) of the round
    policies: dict[tuple, tuple[Fraction, Fraction]] = field(default_factory=dict)
    method: str | None = None              # how the figure was computed, when not the deal-class route


_walk_nodes = nodes  # every node of an expression (compiler.lang.syntax.nodes)


def _reads_cards(n) -> bool:
    return any(isinstance(x, Ref) and x.parts[0] in _CARD_OWNERS for x in _walk_nodes(n))


def _zones_of(n) -> list[tuple[str, str | None]]:
    return [(x.parts[0], x.parts[1] if len(x.parts) > 1 else None) for x in _walk_nodes(n) if isinstance(x, Ref)
            and x.parts[0] in _CARD_OWNERS]


def _card_count(zones, player: dict, community: dict) -> int | None:
    total = 0
    for owner, z in zones:
        holder = player if owner == "player" else community if owner == "community" else None
        if holder is None:
            return None
        if z is None or z == "cards":
            total += sum(holder.values())
        elif z in holder:
            total += holder[z]
        else:
            return None
    return total


def _atoms(node, where: str, player, community, n_cards, rankings: set, out: list) -> None:
    """Collect the maximal card-reading sub-expressions of ``node`` (refusing what is no hand value)."""
    if node is None or not _reads_cards(node):
        return
    if isinstance(node, Call) and (node.name in _VALUE_OF_HAND or node.name in _HAND):
        hands = [x for x in _walk_nodes(node) if isinstance(x, Call) and x.name in _HAND]
        for h in hands:
            zones = _zones_of(h.args[1])
            if _card_count(zones, player, community) != n_cards or len(set(zones)) != len(zones):
                raise Refused(f"{where} judges a hand on part of the seat's cards; the deal-class route models "
                              f"only rules that read all {n_cards} of them together")
            rankings.add(h.args[0].parts[0])
        bare = [x for x in _walk_nodes(node) if isinstance(x, Ref) and x.parts[0] in _CARD_OWNERS]
        if len(bare) != sum(len(_zones_of(h.args[1])) for h in hands):
            raise Refused(f"{where} reads cards outside a hand value")
        out.append(node)
        return
    if isinstance(node, Call):
        if node.name in ("is_hand", "rank", "groups", "count"):
            raise Refused(f"{where} reads the cards through '{node.name}', not through a hand value")
        if node.name not in ("has", "placed", "wager", "flag", "chose", "option"):
            raise Refused(f"{where} reads the cards through '{node.name}'")
        for a in node.args:
            _atoms(a, where, player, community, n_cards, rankings, out)
    elif isinstance(node, BinOp):
        _atoms(node.left, where, player, community, n_cards, rankings, out)
        _atoms(node.right, where, player, community, n_cards, rankings, out)
    elif isinstance(node, BoolOp):
        for x in node.items:
            _atoms(x, where, player, community, n_cards, rankings, out)
    elif isinstance(node, (Not, Neg)):
        _atoms(node.item, where, player, community, n_cards, rankings, out)
    else:
        raise Refused(f"{where} reads the cards outside a hand value")




# ------------------------------------------------------------------------------------- engine runs
class _RiggedShoe(StandInShoe):
    def __init__(self, cards: Sequence[int]):
        self.cards = list(cards)
        self.index = 0
        self.shuffles = 0

    def draw(self, target=None):
        if target is None or target[0] == "burn":
            return None
        if self.index >= len(self.cards):
            raise Refused("the procedure deals more cards than the deal steps declare")
        c = self.cards[self.index]
        self.index += 1
        return c


class _Follow:
    """Takes the given choices in order; beyond them the first choice. Records (decision, choices, seen)."""

    def __init__(self, prefix: Sequence[str], dealer_seen: bool = False):
        self.prefix = list(prefix)
        self.seen: list[tuple[str, tuple, int]] = []
        self.dealer_seen = dealer_seen  # what the player sees of the dealer is read from the steps (solve_dealer)

    def choose(self, decision, choices, view):
        i = len(self.seen)
        c = self.prefix[i] if i < len(self.prefix) else choices[0]
        if c not in choices:
            raise Refused(f"decision {decision} offers different choices in different rounds")
        n = sum(len(cs) for cs in view.cards.values()) + len(view.community)
        if view.dealer and any(view.dealer.values()) and not self.dealer_seen:
            raise Refused("the player sees dealer cards")
        self.seen.append((decision, tuple(choices), n))
        return c

    def offer(self, wager, view):
        raise Refused(f"the {wager} is offered during the round")

    def setting(self, step, candidates, view):
        raise Refused("the player sets hands")


def refuse_bonus_outside_settle(steps) -> None:
    """The deal routes read a bonus's paytable value into the seat's class from the settle rules only: a
    bonus anywhere else (a decision, another step) could differ inside a class, so it is refused."""
    for s in steps:
        for where, actions in [(r.cite, r.then) for r in s.rules] + [(c.cite, c.then) for c in s.choices]:
            if s.kind != "settle" and any(a.kind == "bonus" for a in actions):
                raise Refused(f"{where} pays a bonus outside the settle step ({s.id}): not modelled")


def _play(game, options, stakes, cards, prefix, rankings, dealer_seen=False):
    shoe = _RiggedShoe(cards)
    strat = _Follow(prefix, dealer_seen)
    table = Table(game, options, seed=0, shoe=shoe)
    table._rankings = rankings
    try:
        res = table.play_round({1: stakes}, strat, new_dealer=False)
    except EngineError as e:
        raise Refused(f"a round of the compiled procedure cannot be played to its end: {e}") from None
    net: dict[str, Fraction] = {}
    stake: dict[str, Fraction] = {}
    for r in res.results:
        net[r.wager] = net.get(r.wager, Fraction(0)) + Fraction(r.net)
        # a wager returned to the player (withdrawn) was not at risk: no amount wagered
        stake[r.wager] = stake.get(r.wager, Fraction(0)) + (Fraction(0) if r.outcome == "void" else Fraction(r.amount))
    return strat.seen, net, stake


def _histories(game, options, stakes, cards, rankings, dealer_seen=False):
    """Every sequence of choices (card-independent by the checks of :func:`plan`), with the decisions."""
    out = []
    todo = [[]]
    while todo:
        prefix = todo.pop()
        seen, _, _ = _play(game, options, stakes, cards, prefix, rankings, dealer_seen)
        if len(prefix) < len(seen):
            for c in seen[len(prefix)][1]:
                todo.append(prefix + [c])
        else:
            out.append((tuple(prefix), tuple(seen)))
    return sorted(out)


