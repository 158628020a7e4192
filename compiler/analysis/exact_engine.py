"""Exact expected returns by enumerating the compiled game itself over a finite shoe.

The round engine plays the chapter's procedure against a :class:`BranchShoe` that, instead
of dealing one card, branches over every card (or rank) still in the shoe, weighting each
branch by its exact probability (count remaining / cards remaining). Walking every branch
(depth first, replaying the round along each path) gives the exact distribution of every
wager's net result, as :class:`fractions.Fraction`.

* Burned cards are never seen, so they are not drawn: by exchangeability the unseen cards
  that follow are distributed exactly as if the burn had been dealt and averaged out.
* When every ranking the game uses ignores suits (``kind: high_card``), branches are ranks
  (13, with multiplicity ``4 x decks``), which keeps the tree small (War: a few thousand paths).
* One player seat, heads-up against the dealer: with no information from other positions,
  exchangeability makes each seat's distribution the same whatever the others hold.

This is generic machinery: it knows the shoe and the engine, not the chapter.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

from compiler.runtime.chance import EnumeratingChance
from compiler.runtime.engine import FixedStrategy, Strategy, Table
from compiler.runtime.money import money
from compiler.runtime.shoe import StandInShoe


class PathLimit(RuntimeError):
    pass


PATH_BUDGET = 2_000_000  # deals (paths of the branching shoe) one enumeration may replay


class BranchShoe(StandInShoe, EnumeratingChance):
    """A shoe that deals along a chosen path of branches and records the branching; it is also the
    table's chance (dice, random numbers: every face a branch of probability 1/n), so that one odometer
    walks cards and dice together and the engine never asks a hand history for them."""

    def __init__(self, counts: dict[int, int], path: list[int]):
        self.counts = dict(counts)
        self.path = path
        self.taken: list[int] = []
        self.widths: list[int] = []
        self.prob = Fraction(1)
        self.index = 0
        self.shuffles = 0

    def draw(self, target=None):
        if target is None or target[0] == "burn":
            return None
        options = [c for c, n in sorted(self.counts.items()) if n > 0]
        total = sum(self.counts.values())
        i = len(self.taken)
        pick = self.path[i] if i < len(self.path) else 0
        self.taken.append(pick)
        self.widths.append(len(options))
        card = options[pick]
        self.prob *= Fraction(self.counts[card], total)
        self.counts[card] -= 1
        self.index += 1
        return card

    def uniform(self, n: int, what: str) -> int:
        i = len(self.taken)
        pick = self.path[i] if i < len(self.path) else 0
        self.taken.append(pick)
        self.widths.append(n)
        self.prob *= Fraction(1, n)
        return pick


def deal_path(counts: Mapping[int, int], draws) -> list[int]:
    """The branch path along which a :class:`BranchShoe` of ``counts`` deals a given round: ``draws`` is what
    the round took from chance, in the order it took it: a card id for each card dealt (burned cards left
    out: the branching shoe does not draw them) and ``(n, k)`` for outcome ``k`` of a roll of ``n`` equally
    likely outcomes (a die, a random number, a pocket). Replaying a round dealt by a real shoe through the
    analyzer's machinery (``BranchShoe(counts, deal_path(counts, draws))``) deals exactly its cards and
    rolls; a card the shoe no longer holds, or a roll outside its range, raises ValueError."""
    left = dict(counts)
    path: list[int] = []
    for i, d in enumerate(draws):
        if isinstance(d, tuple):
            n, k = d
            if not 0 <= k < n:
                raise ValueError(f"draw {i + 1}: outcome {k} of a roll of {n}")
            path.append(k)
            continue
        options = [c for c, m in sorted(left.items()) if m > 0]
        if d not in options:
            raise ValueError(f"draw {i + 1}: card {d} is not (or no longer) in the shoe")
        path.append(options.index(d))
        left[d] -= 1
    return path


@dataclass
class WagerStats:
    """Exact distribution of one wager's net per unit of its stake."""

    placed_prob: Fraction = Fraction(0)
    expected_net: Fraction = Fraction(0)  # per unit of the base stake, over all paths
    expected_stake: Fraction = Fraction(0)
    outcomes: dict[str, Fraction] = field(default_factory=lambda: defaultdict(Fraction))


@dataclass
class ExactResult:
    paths: int
    total_prob: Fraction
    wagers: dict[str, WagerStats]
    by_outcome: dict[tuple[str, str], Fraction]
    round_net: dict[Fraction, Fraction]  # distribution of the seat's total net per round


def shoe_counts(decks: int, jokers: int, rank_level: bool) -> dict[int, int]:
    if rank_level:
        counts = {r * 4: 4 * decks for r in range(13)}  # one representative card per rank
    else:
        counts = {c: decks for c in range(52)}
    if jokers:
        counts[52] = jokers * decks
    return counts


def rank_level_ok(game) -> bool:
    return all((r.get("kind") == "high_card") for r in game.rankings.values())


def walk_paths(game, bets: Mapping[str, Any], strategy: Strategy | None = None,
               options: Mapping[str, Any] | None = None, decks: int | None = None, max_paths: int | None = None,
               counts: Mapping[int, int] | None = None):
    """Yield (probability, RoundResult) for every distinct deal of one round of one seat; more than
    ``max_paths`` (default :data:`PATH_BUDGET`) raises :class:`PathLimit`. ``counts``: a shoe of another
    composition (card -> how many; one card standing for its rank where suits are not read)."""
    max_paths = PATH_BUDGET if max_paths is None else max_paths
    strategy = strategy or Strategy()
    if counts is None:
        n_decks = decks if decks is not None else Table(game, options, seed=0).shoe_decks()
        counts = shoe_counts(n_decks, game.cards.jokers, rank_level_ok(game))
    stakes = {k: money(v) for k, v in bets.items()}
    path: list[int] = []
    paths = 0
    while True:
        shoe = BranchShoe(counts, path)
        res = Table(game, options, seed=0, shoe=shoe, chance=shoe).play_round({1: stakes}, strategy, new_dealer=False)
        paths += 1
        if paths > max_paths:
            raise PathLimit(f"the budget of {max_paths:,} paths was reached")
        yield shoe.prob, res
        # next path: an odometer over the branch widths recorded along this one
        taken, widths = shoe.taken, shoe.widths
        k = len(taken) - 1
        while k >= 0 and taken[k] + 1 >= widths[k]:
            k -= 1
        if k < 0:
            return
        path = taken[:k] + [taken[k] + 1]


def enumerate_round(game, bets: Mapping[str, Any], strategy: Strategy | None = None,
                    options: Mapping[str, Any] | None = None, decks: int | None = None,
                    max_paths: int | None = None, counts: Mapping[int, int] | None = None) -> ExactResult:
    """Exact distribution of every wager of one seat with ``bets`` (wager -> amount)."""
    wagers: dict[str, WagerStats] = defaultdict(WagerStats)
    by_outcome: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    nets: dict[Fraction, Fraction] = defaultdict(Fraction)
    paths = 0
    total = Fraction(0)
    for p, res in walk_paths(game, bets, strategy, options, decks, max_paths, counts):
        paths += 1
        total += p
        round_net = Fraction(0)
        for r in res.results:
            st = wagers[r.wager]
            st.placed_prob += p
            st.expected_net += p * Fraction(r.net)
            st.expected_stake += p * Fraction(r.amount)
            st.outcomes[r.outcome] += p
            by_outcome[(r.wager, r.outcome)] += p
            round_net += Fraction(r.net)
        nets[round_net] += p
    return ExactResult(paths, total, dict(wagers), dict(by_outcome), dict(nets))
