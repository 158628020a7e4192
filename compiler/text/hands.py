"""Hand names printed in paytables, payout strings (odds), and identifiers."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from compiler.values.money import MoneyError
from compiler.values.odds import parse_odds as value_odds

# How the chapters print their paytables (hand labels and their ids, the hands only a
# five-card ranking has, the column headings, the tables printed per amount of a wager): data
# in rulespecs/text/printed-paytables.yaml, since compiler/ names no chapter's hand or wager.
PRINTED = Path(__file__).resolve().parent.parent.parent / "rulespecs" / "text" / "printed-paytables.yaml"


def _printed() -> dict:
    with open(PRINTED, encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    return data


_DATA = _printed()
HAND_NAMES: dict[str, str] = {str(k): str(v) for k, v in (_DATA.get("hand_labels") or {}).items()}
PER_AMOUNT: list[dict] = list(_DATA.get("per_amount") or ())
HANDS_LONGEST_FIRST = sorted(HAND_NAMES, key=len, reverse=True)

# Column headings of a paytable: "Hand" (or "Result") then one of these.
COLUMN_RE = re.compile(r"Paytable [A-Z0-9]{1,2}\b|Payout Odds|Payout|"
                       + "".join(re.escape(str(c)) + "|" for c in _DATA.get("columns") or ()) + "Odds")

# One payout cell.  Jackpot shares ("100% mega jackpot") and "Loss" are printed in
# progressive paytables; they are read (kind "share" / "loss") though no odds follow.
PAYOUT_RE = re.compile(
    r"(?:\d{1,3}(?:,\d{3})+|\d+) (?:to|for) (?:\d{1,3}(?:,\d{3})+|\d+)"  # 1,000 to 1 or, as a rulespec has it, 1000 to 1
    r"|\d{1,3}% of (?:the )?(?:progressive )?meter"
    r"|\d{1,3}% (?:mega|major|minor|mini|grand) jackpot"
    r"|\$\d{1,3}(?:,\d{3})*(?:\.\d\d)?"
    r"|Push|Loss|loss"
)

FIVE_CARD_HINTS = {str(h) for h in _DATA.get("five_card_hands") or ()}


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
