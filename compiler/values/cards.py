"""Cards, decks and shoes: the generic card primitives every chapter is built from.

A card is a small ``int`` so that hands can be hashed, sorted and enumerated fast:

* ``0..51``: ``rank_index * 4 + suit_index`` with rank_index 0 for a 2 up to 12 for an ace
  and suit_index 0..3 for spades, hearts, diamonds, clubs;
* ``JOKER`` (52): the joker.

Text form is two characters, rank then suit (``AS``, ``TD``, ``2C``) and ``JK`` for the joker;
``10H``, lower case and the suit symbols ``♠♥♦♣`` are accepted on input.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKER = 52
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class CardError(ValueError):
    """A card written in a form this module cannot read."""


def make(rank: int, suit: int) -> int:
    """Card from rank index (0 = 2 ... 12 = ace) and suit index (0..3)."""
    return rank * 4 + suit


def rank_of(card: int) -> int:
    """Rank index 0..12 (2..ace); the joker has no natural rank and gives 13."""
    return 13 if card == JOKER else card >> 2


def rank_index(symbol: str) -> int:
    """Rank index of a rank symbol: ``2``..``9``, ``T``/``10``, ``J``, ``Q``, ``K``, ``A``."""
    s = symbol.strip().upper()
    if s == "10":
        s = "T"
    if len(s) != 1 or s not in RANKS:
        raise CardError(f"unknown rank {symbol!r}")
    return RANKS.index(s)


def parse_card(text: str) -> int:
    """Parse ``AS``, ``10h``, ``T♦``, ``JK`` (joker)."""
    s = str(text).strip()
    if s.upper() in ("JK", "JOKER", "*"):
        return JOKER
    if len(s) < 2:
        raise CardError(f"cannot read card {text!r}: expected rank then suit, e.g. 'AS', '10H', 'JK'")
    rank_part, suit_part = s[:-1], s[-1]
    suit_part = _SUIT_SYMBOLS.get(suit_part, suit_part.upper())
    if suit_part not in SUITS:
        raise CardError(f"cannot read card {text!r}: unknown suit {s[-1]!r} (use S, H, D or C)")
    try:
        r = rank_index(rank_part)
    except CardError:
        raise CardError(f"cannot read card {text!r}: unknown rank {rank_part!r}") from None
    return make(r, SUITS.index(suit_part))


def parse_cards(items: Iterable[str] | str) -> list[int]:
    """Parse a list of cards, or one string of cards separated by spaces or commas."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(x) for x in items]


def card_str(card: int) -> str:
    """Two-character text form: ``AS``, ``TD``, ``JK``."""
    if card == JOKER:
        return "JK"
    return RANKS[card >> 2] + SUITS[card & 3]


@dataclass(frozen=True)
class DeckSpec:
    """Composition of one deck: the 52 standard cards less the ranks ``without`` (rank indices: a Spanish deck
    of 48 cards has no 10s), plus ``jokers`` jokers."""

    jokers: int = 0
    without: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return 52 - 4 * len(self.without) + self.jokers

    def cards(self) -> list[int]:
        return [c for c in range(52) if c >> 2 not in self.without] + [JOKER] * self.jokers


def build_pack(decks: int, deck: DeckSpec = DeckSpec()) -> list[int]:
    """All cards of ``decks`` decks, in new-deck order."""
    out: list[int] = []
    for _ in range(decks):
        out.extend(deck.cards())
    return out


def ranks_removed(cards: dict) -> tuple[int, ...]:
    """The rank indices a rulespec's ``cards`` removes from each deck (``cards.deck.without``), in rank order."""
    return tuple(sorted(RANKS.index(r) for r in ((cards.get("deck") or {}).get("without") or ())))
