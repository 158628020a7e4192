"""Cards for the runtime: the value layer's :mod:`compiler.values.cards` under its old name."""
from compiler.values.cards import (JOKER, RANKS, SUITS, CardError, DeckSpec, build_pack, card_str, make, parse_card,
                                   parse_cards, rank_index, rank_of)

__all__ = ["JOKER", "RANKS", "SUITS", "CardError", "DeckSpec", "build_pack", "card_str", "make", "parse_card",
           "parse_cards", "rank_index", "rank_of"]
