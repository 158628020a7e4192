"""A round with a declared set of wagers (issue 24.4): `rulespec analyze SPEC --bet W=AMOUNT ...`.

Chapters with no required wager (roulette, sic bo, baccarat, the Big Six wheel, Dragon Tiger) get a figure per
unit of each wager made; a player who makes several at once (Red and a straight-up 17; Player and Tie) wants
the round's figure for that set: the expected net of the round, its ratio to the amount wagered, the hit
frequency, the standard deviation of the round's net and its whole distribution. Those are not sums of the
single figures (the variance and the distribution depend on how the wagers' results go together), so the round
is played with every declared wager on one seat over every chance outcome.

An allow-list: the round is counted by the method that models the chapter's whole procedure with these wagers,

* the chance method (:func:`compiler.analysis.chance_exact.walk_outcomes`: dice, pockets, numbers, cards by
  rank, or by card where a rule reads suits), or
* the points method (:class:`compiler.analysis.points_exact.PointsWalk`: baccarat's drawing table),

and is refused, each method's reason named, where neither does (a decision, a loop of rolls, a poker ranking).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

from compiler.analysis import chance_exact, points_exact
from compiler.analysis.model import dec, pct

__all__ = ["Bet", "Refused", "RoundFigure", "round_figure"]


class Refused(ValueError):
    """No method of this module models the chapter with these wagers (the reason names each method's)."""


@dataclass(frozen=True)
class Bet:
    wager: str
    amount: Decimal
    numbers: tuple[str, ...] | None = None  # the chosen numbers of a wager on chosen numbers

    def placed(self) -> Any:
        """As :meth:`Table.play_round` takes a wager."""
        return self.amount if self.numbers is None else {"amount": self.amount, "numbers": list(self.numbers)}


@dataclass(frozen=True)
class RoundFigure:
    bets: tuple[Bet, ...]
    staked: Fraction  # the amount wagered on the round
    expected_net: Fraction  # per round, in money
    hit: Fraction  # the round nets more than zero
    push: Fraction  # the round nets zero
    variance: Fraction  # of the round's net
    outcomes: dict[Fraction, Fraction]  # round net -> probability
    method: str

    @property
    def per_wagered(self) -> Fraction:
        return self.expected_net / self.staked

    def to_json(self) -> dict:
        sd = float(self.variance) ** 0.5
        return {"wagers": [{"wager": b.wager, "amount": str(b.amount),
                            **({"numbers": list(b.numbers)} if b.numbers is not None else {})} for b in self.bets],
                "staked": str(self.staked), "status": "exact",
                "expected_net": {"fraction": str(self.expected_net), "decimal": dec(self.expected_net)},
                "per_amount_wagered": {"fraction": str(self.per_wagered), "decimal": dec(self.per_wagered)},
                "house_edge_percent": pct(-self.per_wagered),
                "hit_frequency": {"fraction": str(self.hit), "decimal": dec(self.hit)},
                "push_frequency": {"fraction": str(self.push), "decimal": dec(self.push)},
                "variance": {"fraction": str(self.variance), "decimal": dec(self.variance)},
                "standard_deviation": f"{sd:.6f}",
                "outcomes": [{"net": str(n), "probability": str(p)} for n, p in sorted(self.outcomes.items())],
                "method": self.method}

    def to_text(self, names: Mapping[str, str]) -> str:
        def bet(b: Bet) -> str:
            on = f" on {', '.join(b.numbers)}" if b.numbers is not None else ""
            return f"{names.get(b.wager, b.wager)}{on} ${b.amount}"

        sd = float(self.variance) ** 0.5
        rows = ", ".join(f"{'+' if n > 0 else ''}{n}: {float(p):.6f}" for n, p in sorted(self.outcomes.items()))
        return "\n".join([
            f"wagers: {'; '.join(bet(b) for b in self.bets)} (amount wagered ${_money(self.staked)})",
            f"  expected net per round:   {self.expected_net} = {dec(self.expected_net)}",
            f"  per amount wagered:       {self.per_wagered} = {dec(self.per_wagered)}  "
            f"(house edge {pct(-self.per_wagered)})",
            f"  hit frequency:            {self.hit} = {dec(self.hit)}  (the round nets more than zero)",
            f"  push frequency:           {self.push} = {dec(self.push)}  (the round nets zero)",
            f"  standard deviation:       {sd:.6f}  (of the round's net; variance {self.variance})",
            f"  outcomes: {rows}",
            f"  method: {self.method}"])


def round_figure(game, chapter, bets: list[Bet], options: Mapping[str, Any] | None = None,
                 decks: int | None = None) -> RoundFigure:
    """The exact figure of one round with ``bets`` on one seat. ValueError for a wager the chapter does not have
    or not offered; :class:`Refused` where no method here models the round."""
    _check(game, bets, options)
    made = {b.wager for b in bets}
    why_points = points_exact.refusal(game, chapter)
    if why_points is None and all(b.numbers is None for b in bets):  # the cheaper walk where it applies
        walk = points_exact.PointsWalk(game, chapter, dict(options or {}), decks, [{b.wager: b.amount for b in bets}])
        dist: dict[Fraction, Fraction] = defaultdict(Fraction)
        for sig, p in walk.run().items():
            dist[sum((n for _, _, n in sig[0]), Fraction(0))] += p
        return _figure(bets, dist, f"exact: points method ({len(walk.classes)} card classes, {len(walk.memo)} "
                                   "positions valued once), every declared wager on one seat")
    why_chance = chance_exact.unmodelled(game, chapter, lambda w: w in made)
    if why_chance is None:
        suits = bool(chance_exact.suit_wagers(game, chapter) & made)
        dist = defaultdict(Fraction)
        paths = 0
        try:
            for p, res in chance_exact.walk_outcomes(game, {1: {b.wager: b.placed() for b in bets}}, options,
                                                     decks, suits=suits):
                paths += 1
                dist[sum((Fraction(r.net) for r in res.results if r.seat == 1), Fraction(0))] += p
        except chance_exact.Unmodelled as e:
            why_chance = str(e)
        else:
            return _figure(bets, dist, f"exact: the engine played once per chance outcome ({paths} outcomes of "
                                       f"dice, pockets, numbers and cards by {'card' if suits else 'rank'}), every "
                                       "declared wager on one seat")
    raise Refused(f"not computed: the chance enumeration does not model {why_chance}; the points method: "
                  + (why_points or "it does not place wagers on chosen numbers"))


def _check(game, bets: list[Bet], options) -> None:
    if not bets:
        raise ValueError("no wager declared")
    selected = {**game.defaults(), **dict(options or {})}
    seen: set[str] = set()
    for b in bets:
        wd = game.wagers.get(b.wager)
        if wd is None:
            raise ValueError(f"--bet {b.wager}: Chapter {game.chapter} has no such wager; its wagers are "
                             + ", ".join(game.wagers))
        if b.wager in seen:
            raise ValueError(f"--bet {b.wager}: declared twice")
        seen.add(b.wager)
        if wd.offered_by is not None and not selected.get(wd.offered_by):
            raise ValueError(f"--bet {b.wager}: the {wd.name} is not offered under these selections "
                             f"(option {wd.offered_by}, {wd.cite})")
        if b.amount <= 0:
            raise ValueError(f"--bet {b.wager}: the amount must be more than zero")
        if (b.numbers is None) != (not wd.choose):
            raise ValueError(f"--bet {b.wager}: the {wd.name} is placed on chosen numbers ({wd.cite}): write "
                             f"{b.wager}=AMOUNT@N,N..." if wd.choose else
                             f"--bet {b.wager}: the {wd.name} is not placed on chosen numbers")
    missing = [w for w, d in game.wagers.items() if d.required and w not in seen]
    if missing:
        raise ValueError(f"--bet: the round requires the {', '.join(game.wagers[w].name for w in missing)}")


def _figure(bets: list[Bet], dist: Mapping[Fraction, Fraction], method: str) -> RoundFigure:
    total = sum(dist.values(), Fraction(0))
    if total != 1:
        raise Refused(f"not computed: the outcomes counted have probability {total}, not 1")
    mean = sum((n * p for n, p in dist.items()), Fraction(0))
    var = sum(((n - mean) ** 2 * p for n, p in dist.items()), Fraction(0))
    return RoundFigure(tuple(bets), sum((Fraction(b.amount) for b in bets), Fraction(0)), mean,
                       sum((p for n, p in dist.items() if n > 0), Fraction(0)), dist.get(Fraction(0), Fraction(0)),
                       var, dict(sorted(dist.items())), method)


def _money(x: Fraction) -> str:
    """An amount wagered (a sum of dollars and cents) as written: 15, 7.50."""
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return str(d.quantize(Decimal("0.01"))) if d != d.to_integral_value() else str(d.to_integral_value())
