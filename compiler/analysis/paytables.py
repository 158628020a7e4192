"""Exact returns of paytables (docs/spec-format.md "Paytables", "Odds") over an enumeration.

All money is exact: ``Fraction``.  The *return* of a wager here is the player's expected net
result per unit wagered (negative: the house advantage), e.g. ``-7/256``.  A payout of
``P% of meter`` makes the return an :class:`Affine` function ``a + b * meter`` of the meter
amount at the time of payment (in the same currency unit as the stake, see ``stake``).

Readings of the regulation used with this module (they live in the data; stated here so the
figures can be checked):

* 670a Insurance (§ 670a.7(e)(3), § 670a.11(h)(2), § 670a.12(c)): "a five-card Poker hand with a
  rank of a king-high or less" is read as: the best five-card hand of the six cards is in none
  of the categories of § 670a.6(b) (no pair, straight, flush, ...) and its highest card is at
  most a king; the row is the rank of that highest card (eight-high is the lowest possible).
  The joker counts as an ace unless it completes a straight or a flush (§ 670a.6(a)), so a hand
  holding the joker is ace-high or better and never wins the Insurance Wager.
* 669a Progressive (§ 669a.7(d)(4), § 669a.12(e)): valued as a wager on the player's three
  cards (the lead's recorded reading); "100% of meter" is an affine function of the meter.
* Envy Bonus: a fixed amount per qualifying hand of *another* player: :func:`envy_value` gives
  its expected value per other player at the table.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from compiler.runtime.definition import Paytable
from compiler.values.odds import Odds, as_odds, parse_odds
from compiler.values.rankings import Ranking

from .enumerate import Distribution, enumerate_hands

__all__ = ["Payout", "parse_payout", "Affine", "RowResult", "PaytableResult", "paytable_return",
           "paytable_returns", "envy_value", "card_hands_of", "priced_paytable"]


@dataclass(frozen=True)
class Payout:
    """Odds (:class:`compiler.values.odds.Odds`) as the analysis prices them: kind ``to`` |
    ``for`` | ``meter`` | ``amount`` | ``push``, the ratio, and the text shown in reports."""

    odds: Odds
    text: str = ""  # the text it was read from; empty for compiled odds (their text is ``str(odds)``)

    @property
    def kind(self) -> str:
        return "amount" if self.odds.kind == "fixed" else self.odds.kind

    @property
    def ratio(self) -> Fraction:
        """N/M for to/for, the share of the meter for meter, the amount for amount."""
        return self.odds.ratio

    def net(self, stake: Fraction | int = 1) -> "Fraction | Affine":
        """Net result of a winning wager of ``stake`` (Affine in the meter for ``meter``)."""
        stake = Fraction(stake)
        if self.kind == "to":
            return self.ratio * stake
        if self.kind == "for":
            return self.ratio * stake - stake
        if self.kind == "push":
            return Fraction(0)
        if self.kind == "amount":
            return self.ratio
        return Affine(-stake, self.ratio)


def parse_payout(value: Any) -> Payout:
    """A paytable cell or payout: compiled :class:`Odds` as they are, text (``3 to 2``, ``1,000 to
    1``, ``500 for 1``, ``10% of meter``, ``$125``, ``Push``) read by the value layer's one parser."""
    if isinstance(value, Odds):
        return Payout(value)
    return Payout(parse_odds(value), " ".join(str(value).split()))


@dataclass(frozen=True)
class Affine:
    """``a + b * meter`` with exact coefficients."""

    a: Fraction
    b: Fraction

    def __call__(self, meter: Fraction | int) -> Fraction:
        return self.a + self.b * Fraction(meter)

    def _co(self, o):
        return o if isinstance(o, Affine) else Affine(Fraction(o), Fraction(0))

    def __add__(self, o):
        o = self._co(o)
        return Affine(self.a + o.a, self.b + o.b)

    __radd__ = __add__

    def __mul__(self, k):
        k = Fraction(k)
        return Affine(self.a * k, self.b * k)

    __rmul__ = __mul__

    def __str__(self) -> str:
        return f"{self.a} + {self.b} * meter"


@dataclass
class RowResult:
    hand: str
    label: str
    odds: Odds
    count: int
    probability: Fraction
    net: Any                    # Fraction, or Affine for a meter payout

    @property
    def pays(self) -> str:
        """The odds as a report prints them."""
        return str(self.odds)


@dataclass
class PaytableResult:
    """Exact result of one column of a paytable."""

    paytable: str
    column: str
    total: int                  # number of equally likely hands
    rows: list[RowResult]
    lose_count: int             # hands matching no row: the wager loses
    expected: Any               # expected net per unit wagered: Fraction, or Affine (meter)
    hit_frequency: Fraction     # probability the wager is paid (rows with a positive net)
    push_frequency: Fraction = Fraction(0)
    seconds: float = 0.0

    def expected_at(self, meter: Fraction | int = 0) -> Fraction:
        e = self.expected
        return e(meter) if isinstance(e, Affine) else e

    def table(self) -> str:
        out = [f"{self.paytable} [{self.column}]: {self.total} hands"]
        for r in self.rows:
            out.append(f"  {r.label:<48} {r.pays:>14} {r.count:>12} {float(r.probability):.8f}")
        out.append(f"  {'(loses)':<48} {'':>14} {self.lose_count:>12} {self.lose_count / self.total:.8f}")
        e = self.expected
        es = f"{e}" if isinstance(e, Affine) else f"{e} = {float(e):+.6f}"
        out.append(f"  expected net per unit: {es}; hit frequency {float(self.hit_frequency):.6f}")
        return "\n".join(out)


def priced_paytable(paytable: Paytable | Mapping[str, Any]) -> Paytable:
    """A paytable as the analysis prices it: a compiled one (``game.paytables``, odds read by the IR
    build) as it is; a rulespec's ``paytables`` entry (tests, bench) with its cells read once here."""
    if isinstance(paytable, Paytable):
        return paytable
    cols = tuple(paytable.get("columns") or ["Payout"])
    rows = []
    for r in paytable["rows"]:
        pays = r["pays"] if isinstance(r["pays"], list) else [r["pays"]]
        if len(pays) != len(cols):
            raise ValueError(f"row {r['hand']!r} has {len(pays)} payouts for {len(cols)} columns "
                             "(in YAML flow lists quote amounts with commas: \"1,000 to 1\")")
        rows.append((r["hand"], tuple(as_odds(x) for x in pays), r.get("label", r["hand"])))
    return Paytable(paytable.get("id", ""), paytable.get("title", ""), paytable.get("cite", ""), cols, tuple(rows),
                    paytable.get("option"), paytable.get("ranking"))


def card_hands_of(ranking: Ranking, paytable: Paytable | Mapping[str, Any]) -> list[str]:
    """Ids of the card-defined named hands a paytable's rows use."""
    return [h for h, _, _ in priced_paytable(paytable).rows if ranking.card_sets(h) is not None]


def paytable_return(dist: Distribution, paytable: Paytable | Mapping[str, Any], column: int | str = 0,
                    stake: Fraction | int = 1, name: str = "") -> PaytableResult:
    """Exact return of a paytable column over an enumeration of equally likely hands.

    Each hand takes the first row (highest first) it matches; a hand matching no row loses the
    stake.  ``stake``: amount of the wager (matters only for meter and ``$`` amounts).
    """
    ranking = dist.ranking
    table = priced_paytable(paytable)
    cols = list(table.columns)
    ci = cols.index(column) if isinstance(column, str) else int(column)
    rows = table.rows
    for h, odds, _ in rows:
        if len(odds) != len(cols):
            raise ValueError(f"row {h!r} has {len(odds)} payouts for {len(cols)} columns")
    payouts = [Payout(odds[ci]) for _, odds, _ in rows]
    flags_pos = {h: i for i, h in enumerate(dist.card_hands)}
    for h, _, _ in rows:
        if ranking.card_sets(h) is not None and h not in flags_pos:
            raise ValueError(f"the enumeration does not flag card hand {h!r}")
    counts = [0] * len(rows)
    lose = 0
    for flags, v, n in dist.items():
        for i, (h, _, _) in enumerate(rows):
            hit = flags[flags_pos[h]] if h in flags_pos else ranking.value_matches(v, h)
            if hit:
                counts[i] += n
                break
        else:
            lose += n
    total = dist.total
    stake = Fraction(stake)
    exp: Any = Fraction(-lose, total)
    hits = 0
    pushes = 0
    results = []
    for (h, _, label), p, n in zip(rows, payouts, counts):
        net = p.net(stake)
        if isinstance(net, Affine):
            net = net * (1 / stake)
        else:
            net = net / stake
        exp = exp + net * Fraction(n, total) if n else exp
        is_push = p.kind == "push"
        if is_push:
            pushes += n
        elif isinstance(net, Affine) or net > 0:
            hits += n
        results.append(RowResult(h, label, p.odds, n, Fraction(n, total), net))
    return PaytableResult(name or table.title, cols[ci], total, results, lose, exp,
                          Fraction(hits, total), Fraction(pushes, total))


def paytable_returns(ranking: Ranking, paytable: Paytable | Mapping[str, Any], k: int, deck: Sequence[int] | None = None,
                     stake: Fraction | int = 1, dist: Distribution | None = None) -> list[PaytableResult]:
    """Returns of every column of a paytable for k-card hands of the deck."""
    t0 = time.perf_counter()
    paytable = priced_paytable(paytable)
    ch = card_hands_of(ranking, paytable)
    if dist is None or set(ch) - set(dist.card_hands):
        dist = enumerate_hands(ranking, k, deck, ch)
    out = []
    for ci in range(len(paytable.columns)):
        res = paytable_return(dist, paytable, ci, stake)
        out.append(res)
    dt = time.perf_counter() - t0
    for r in out:
        r.seconds = dt
    return out


def envy_value(dist: Distribution, envy_table: Paytable | Mapping[str, Any], column: int | str = 0) -> Fraction:
    """Expected Envy Bonus (in currency) paid to one player *per other player* at the table.

    ``sum over rows of P(another player's hand is that row) * amount``, rows exclusive, highest
    first.  By symmetry this is exact without conditioning on one's own cards: the expected
    number of qualifying hands among the other players is their number times the marginal
    probability.
    """
    res = paytable_return(dist, envy_table, column)
    total = Fraction(0)
    for r in res.rows:
        if r.odds.kind != "fixed":
            raise ValueError(f"Envy Bonus row {r.hand!r} is not a fixed amount: {r.pays!r}")
        total += r.probability * r.odds.ratio
    return total
