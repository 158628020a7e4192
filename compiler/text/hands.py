"""Hand names printed in paytables, payout strings (odds), and identifiers."""
from __future__ import annotations

import re
from dataclasses import dataclass

from compiler.values.money import MoneyError
from compiler.values.odds import parse_odds as value_odds

# Hand labels as the chapters print them in paytable rows, with the id the rulespec
# uses for them (a category of the table's ranking, a specific hand, or a threshold).
# Rows of a flattened table are recognised by these names (longest first); a label not
# in this list is still accepted when it is followed by the right number of payouts.
HAND_NAMES: dict[str, str] = {
    "Ace, king and queen of hearts, diamonds or clubs": "ace_king_queen_hearts_diamonds_clubs",
    "Ace, king and queen of spades": "ace_king_queen_spades",
    "Pair of 10s or better": "pair_of_10s_or_better",
    "Royal flush": "royal_flush",
    "Straight flush": "straight_flush",
    "Five aces": "five_aces",
    "Four-of-a-kind": "four_of_a_kind",
    "Full house": "full_house",
    "Flush": "flush",
    "Straight": "straight",
    "Three-of-a-kind": "three_of_a_kind",
    "Two pairs": "two_pair",
    "Two pair": "two_pair",
    "One pair": "pair",
    "Pair": "pair",
    "Ace-high": "ace_high",
    "King-high": "king_high",
    "Queen-high": "queen_high",
    "Jack-high": "jack_high",
    "Ten-high": "ten_high",
    "Nine-high": "nine_high",
    "Eight-high": "eight_high",
    "Seven-high": "seven_high",
}
HANDS_LONGEST_FIRST = sorted(HAND_NAMES, key=len, reverse=True)

# Column headings of a paytable: "Hand" (or "Result") then one of these.
COLUMN_RE = re.compile(r"Paytable [A-Z0-9]{1,2}\b|Payout Odds|Payout|Envy Bonus|Odds")

# One payout cell.  Jackpot shares ("100% mega jackpot") and "Loss" are printed in
# progressive paytables; they are read (kind "share" / "loss") though no odds follow.
PAYOUT_RE = re.compile(
    r"\d{1,3}(?:,\d{3})* (?:to|for) \d{1,3}(?:,\d{3})*"
    r"|\d{1,3}% of (?:the )?(?:progressive )?meter"
    r"|\d{1,3}% (?:mega|major|minor|mini|grand) jackpot"
    r"|\$\d{1,3}(?:,\d{3})*(?:\.\d\d)?"
    r"|Push|Loss|loss"
)

FIVE_CARD_HINTS = {"royal_flush", "four_of_a_kind", "full_house", "two_pair",
                   "pair_of_10s_or_better", "five_aces"}


def hand_id(label: str) -> str:
    """Identifier of a printed hand label (known names, else a snake_case slug)."""
    if label in HAND_NAMES:
        return HAND_NAMES[label]
    for name, ident in HAND_NAMES.items():
        if name.lower() == label.lower():
            return ident
    return slug(label, drop=("and", "of", "or", "the", "a"))


def slug(text: str, drop: tuple[str, ...] = ()) -> str:
    words = re.findall(r"[A-Za-z0-9]+", text.lower())
    words = [w for w in words if w not in drop]
    return "_".join(words)


@dataclass(frozen=True)
class Odds:
    """A parsed payout string: ``3 to 2``, ``500 for 1``, ``100% of meter``, ``$125``, ``Push``."""

    text: str
    kind: str            # to | for | meter | amount | push | share | loss | text
    numerator: int = 0   # to/for: N of "N to M"; meter: percent; amount: dollars
    denominator: int = 1

    def as_dict(self) -> dict:
        d = {"text": self.text, "kind": self.kind}
        if self.kind in ("to", "for"):
            d.update(numerator=self.numerator, denominator=self.denominator)
        elif self.kind in ("meter", "share"):
            d["percent"] = self.numerator
        elif self.kind == "amount":
            d["amount"] = self.numerator
        return d


def parse_odds(text: str) -> Odds:
    """A printed payout cell: the value layer's odds (``compiler.values.odds.parse_odds``) in
    whole numbers, or a jackpot share ("10% mega jackpot") or "Loss", which only printed tables show."""
    t = text.strip()
    m = re.fullmatch(r"(\d{1,3})% (?:mega|major|minor|mini|grand) jackpot", t)
    if m:
        return Odds(t, "share", int(m.group(1)), 100)
    if t.lower() == "loss":
        return Odds(t, "loss")
    try:
        odds = value_odds(t)
    except MoneyError:
        raise ValueError(f"not a payout: {text!r}") from None
    if odds.num.denominator != 1 or odds.den.denominator != 1:  # this record holds whole numbers only
        raise ValueError(f"not a payout in whole numbers: {text!r}")
    if odds.kind in ("to", "for"):
        return Odds(t, odds.kind, int(odds.num), int(odds.den))
    if odds.kind == "meter":
        return Odds(t, "meter", int(odds.num), 100)
    if odds.kind == "fixed":
        return Odds(t, "amount", int(odds.num))
    return Odds(t, "push")


def read_odds(text: str) -> Odds:
    """``parse_odds`` for cells of a printed table: a cell that is not a payout (a pipe
    table's "2,000*", "20%") is kept as printed, kind "text"."""
    try:
        return parse_odds(text)
    except ValueError:
        return Odds(text.strip(), "text")


SCHEMA_ODDS_KINDS = ("to", "for", "meter", "amount", "push")


def guess_ranking(hand_ids: list[str]) -> str:
    """Which ranking a paytable's rows name (a hint for the lead's rulespec)."""
    if any(h in FIVE_CARD_HINTS or h.endswith("_high") for h in hand_ids):
        return "five_card"
    return "three_card"
