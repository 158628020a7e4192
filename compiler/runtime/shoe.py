"""Shoes, shuffling, cutting and the reshuffle point.

* :class:`Shoe` deals from N decks shuffled by an RNG: ``random.SystemRandom`` (OS entropy)
  for live play, ``random.Random(seed)`` for reproducible simulation.
* :class:`ScriptedShoe` deals the cards a hand history says were dealt (settling a dispute).

Both answer ``draw(target)`` where ``target`` names who receives the card
(``("player", seat, zone)``, ``("dealer", None, zone)``, ``("community", None, zone)``,
``("burn", None, None)``) so that a scripted shoe can look the card up.

:class:`CardSource` is the protocol the engine deals from: the two shoes here, and the analysis's stand-ins
(:class:`StandInShoe`: a shoe with no cover card, no cut and no marker, whose ``draw`` an analysis writes). The
engine reads these attributes, never probes for them.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, Sequence, runtime_checkable

from compiler.runtime.cards import DeckSpec, build_pack


class ShoeError(RuntimeError):
    """Dealing failed: the shoe ran out, or a hand history lacks a card the procedure needs."""


def make_rng(seed: int | None) -> random.Random:
    """A seeded PRNG for simulation, or OS entropy (``SystemRandom``) for live play."""
    if seed is None:
        return random.SystemRandom()
    return random.Random(seed)


@dataclass
class CutRule:
    """Where the cut and the reshuffle marker go (e.g. § 567.5(d)-(e)).

    ``min_from_edge``: the cover card goes at least this many cards from the top or bottom.
    ``marker_from_bottom``: the reshuffle cover card's distance from the bottom, as a
    fraction of the stack (None: no marker; the cards are reshuffled after every round).
    """

    min_from_edge: int = 0
    marker_from_bottom: Fraction | None = None


@runtime_checkable
class CardSource(Protocol):
    """What the round engine asks of the cards it deals from."""

    index: int                 # cards drawn since the last shuffle
    shuffles: int              # shuffles so far
    marker: int | None         # the index at which the reshuffle cover card comes out (None: no cover card)
    cut_at: int | None         # where the last cut was made (None: not cut)

    @property
    def cover_reached(self) -> bool:
        """Whether the deal has reached the reshuffle cover card."""

    def shuffle(self) -> None:
        """Shuffle (a stand-in counts it)."""

    def draw(self, target=None):
        """The next card for ``target`` (None for an unseen burn where the source does not know it)."""


class StandInShoe:
    """The part of :class:`CardSource` every stand-in shares: no cover card, no cut, no marker; shuffles counted.
    A subclass writes ``draw``."""

    cover_reached = False
    marker: int | None = None
    cut_at: int | None = None
    index = 0
    shuffles = 0

    def shuffle(self) -> None:
        self.shuffles += 1

    def draw(self, target=None):  # pragma: no cover - written by each stand-in
        raise NotImplementedError


class Shoe:
    """A shuffled stack of ``decks`` decks with an optional reshuffle marker."""

    def __init__(self, decks: int, rng: random.Random, deck: DeckSpec = DeckSpec(), cut: CutRule = CutRule()):
        self.decks = decks
        self.deck = deck
        self.rng = rng
        self.cut_rule = cut
        self.cards: list[int] = []
        self.index = 0
        self.marker: int | None = None
        self.cut_at: int | None = None
        self.shuffles = 0
        self.shuffle()

    @property
    def size(self) -> int:
        return self.decks * self.deck.size

    def shuffle(self) -> None:
        cards = build_pack(self.decks, self.deck)
        self.rng.shuffle(cards)
        n = len(cards)
        k = self.cut_rule.min_from_edge
        if k and n > 2 * k:
            # the cover card goes at least k cards from the top or the bottom; the cards above
            # it go to the bottom of the stack
            self.cut_at = self.rng.randint(k, n - k)
            cards = cards[self.cut_at:] + cards[: self.cut_at]
        else:
            self.cut_at = None
        self.cards = cards
        self.index = 0
        if self.cut_rule.marker_from_bottom is not None:
            from_bottom = int(Fraction(n) * self.cut_rule.marker_from_bottom)
            self.marker = n - from_bottom
        else:
            self.marker = None
        self.shuffles += 1

    def draw(self, target=None) -> int:
        if self.index >= len(self.cards):
            raise ShoeError(f"the shoe is empty after {len(self.cards)} cards")
        card = self.cards[self.index]
        self.index += 1
        return card

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.index

    @property
    def cover_reached(self) -> bool:
        """True once the deal has reached the reshuffle cover card."""
        return self.marker is not None and self.index >= self.marker


class ScriptedShoe(StandInShoe):
    """Deals the cards recorded in a hand history.

    ``dealt`` maps ``(owner, seat, zone)`` to the list of cards that target received, in
    order; ``burned`` lists burned cards if known (unknown burns are ``None``).
    """

    def __init__(self, dealt: dict[tuple, Sequence[int]], burned: Sequence[int] = ()):
        self.dealt = {k: list(v) for k, v in dealt.items()}
        self.used = {k: 0 for k in self.dealt}
        self.burned = list(burned)
        self.burn_index = 0
        self.decks = None
        self.shuffles = 0
        self.index = 0

    def draw(self, target=None):
        self.index += 1
        if target is None or target[0] == "burn":
            if self.burn_index < len(self.burned):
                c = self.burned[self.burn_index]
                self.burn_index += 1
                return c
            self.burn_index += 1
            return None
        if target[0] == "unwagered":
            # a position without a wager: its cards are collected unseen; a history may give them
            key = ("player", target[1], target[2])
            i = self.used.get(key, 0)
            if i < len(self.dealt.get(key, ())):
                self.used[key] = i + 1
                return self.dealt[key][i]
            return None
        cards = self.dealt.get(target)
        i = self.used.get(target, 0)
        if cards is None or i >= len(cards):
            owner, seat, zone = target
            who = f"seat {seat}" if owner == "player" else owner
            err = ShoeError(f"the hand history gives no card #{i + 1} for {who} ({zone})")
            err.target = target
            raise err
        self.used[target] = i + 1
        return cards[i]

    def unused(self) -> list[tuple]:
        """Targets whose recorded cards were not all dealt (a history that does not fit the procedure)."""
        return [k for k, v in self.dealt.items() if self.used.get(k, 0) < len(v)]
