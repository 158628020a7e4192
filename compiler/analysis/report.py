"""`rulespec analyze`: the exact figures of a chapter's wagers, computed from its spec.

Games whose rankings ignore suits (single-card comparison games such as War) are solved by
enumerating the compiled game itself (:mod:`compiler.analysis.exact_engine`); the poker
chapters use the vectorised enumerators of :mod:`compiler.analysis.enumerate`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from compiler.analysis.exact_engine import enumerate_round, rank_level_ok
from compiler.runtime.engine import FixedStrategy


def dec(x: Fraction, places: int = 10) -> str:
    """A Fraction as a decimal string (rounded half away from zero), e.g. -0.0233005681."""
    from decimal import ROUND_HALF_UP, Decimal, localcontext

    with localcontext() as c:
        c.prec = 60
        d = Decimal(x.numerator) / Decimal(x.denominator)
        return str(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def pct(x: Fraction, places: int = 4) -> str:
    return dec(x * 100, places) + "%"


@dataclass
class Figure:
    wager: str
    name: str
    policy: str
    expected_return: Fraction  # per unit of the named wager
    per_total_wagered: Fraction | None
    hit_frequency: Fraction | None
    outcomes: dict[str, Fraction]
    method: str
    includes: tuple[str, ...] = ()
    kind: str = "return"  # 'return': per unit wagered; 'value': an expected amount in dollars (Envy Bonus)
    # a simulated figure: its standard error (per unit wagered) and the precision target it is held to;
    # its expected_return is a rounded mean, never shown as a fraction
    standard_error: float | None = None
    target: float | None = None

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_return

    @property
    def exact(self) -> bool:
        return self.standard_error is None and self.method.startswith("exact")

    @property
    def meets_target(self) -> bool:
        """An exact figure, or a simulated one whose standard error is within its precision target."""
        if self.exact:
            return True
        return self.standard_error is not None and self.target is not None and self.standard_error <= self.target

    def to_json(self) -> dict:
        if not self.exact:
            return self._simulated_json()
        d = {
            "wager": self.wager, "name": self.name, "policy": self.policy, "status": "exact",
            "expected_return": {"fraction": str(self.expected_return), "decimal": dec(self.expected_return)},
            "house_edge": {"fraction": str(self.house_edge), "percent": pct(self.house_edge)},
            "hit_frequency": (None if self.hit_frequency is None else
                              {"fraction": str(self.hit_frequency), "decimal": dec(self.hit_frequency)}),
            "outcomes": {k: {"fraction": str(v), "decimal": dec(v)} for k, v in sorted(self.outcomes.items())},
            "method": self.method,
            "kind": self.kind,
        }
        if self.per_total_wagered is not None:
            d["per_total_wagered"] = {"fraction": str(self.per_total_wagered), "decimal": dec(self.per_total_wagered)}
        if self.includes:
            d["includes"] = list(self.includes)
        return d

    def _simulated_json(self) -> dict:
        """A simulated figure: mean and standard error as decimals, no fraction."""
        se = self.standard_error
        return {
            "wager": self.wager, "name": self.name, "policy": self.policy,
            "status": "simulated" if self.meets_target else "short of precision target",
            "expected_return": {"decimal": dec(self.expected_return, 6), "standard_error": f"{se:.6f}"},
            "house_edge": {"percent": pct(self.house_edge, 2), "standard_error_points": f"{se * 100:.4f}",
                           "target_points": None if self.target is None else f"{self.target * 100:.4f}"},
            "hit_frequency": None,
            "outcomes": {k: {"decimal": dec(v, 6)} for k, v in sorted(self.outcomes.items())},
            "method": self.method, "kind": self.kind,
        }

    def simulated_text(self) -> str:
        """``-6.23% ± 0.16 points (1 s.e.)``: a simulated house edge, never in a form that looks exact."""
        return f"{pct(self.house_edge, 2)} ± {self.standard_error * 100:.2f} points (1 s.e.)"


@dataclass
class NotComputed:
    """A wager (or the round) the analysis gives no figure: what it touches and why."""
    wager: str
    name: str
    policy: str
    reason: str

    def to_json(self) -> dict:
        return {"wager": self.wager, "name": self.name, "policy": self.policy, "status": "not computed",
                "reason": self.reason}


def policies(game) -> list[tuple[str, dict[str, str]]]:
    """'always X' for each choice of each decision step (other steps: their first choice)."""
    steps = []

    def walk(ss):
        for s in ss:
            if s.kind == "decide":
                steps.append(s)
            walk(s.steps)

    walk(game.procedure)
    if not steps:
        return [("no decisions", {})]
    out = []
    for s in steps:
        for c in s.choices:
            pref = {x.id: x.choices[0].id for x in steps}
            pref[s.id] = c.id
            out.append((f"always {c.id} ({s.id}, {c.cite})", pref))
    return out


def analyze_engine(game, options: dict | None = None, decks: int | None = None) -> list[Figure]:
    """Exact figures by enumerating the engine (games with suit-free rankings)."""
    if not rank_level_ok(game):
        raise ValueError("this game's rankings use suits; use the poker enumerators")
    required = [w for w, d in game.wagers.items() if d.required]
    during = [w for w, d in game.wagers.items() if not d.required and _during(game, w)]
    optional = [w for w, d in game.wagers.items() if not d.required and w not in during]
    figs: list[Figure] = []
    base = {w: 1 for w in required}
    for label, pref in policies(game):
        res = enumerate_round(game, base, FixedStrategy(pref), options=options, decks=decks)
        net = sum((res.wagers[w].expected_net for w in res.wagers), Fraction(0))
        stake = sum((res.wagers[w].expected_stake for w in res.wagers), Fraction(0))
        names = " + ".join(game.wagers[w].name for w in required)
        win = sum((p for (w, o), p in res.by_outcome.items() if w in required and o == "win"), Fraction(0))
        n = len(required)
        outcomes = {("+" if k > 0 else "") + str(k / n): v for k, v in sorted(res.round_net.items())}
        figs.append(Figure("+".join(required), names, label, net / len(required), net / stake, win, outcomes,
                           f"exact: engine enumerated over {res.paths} deals",
                           tuple(w for w in res.wagers if w not in required)))
    included = {w for f in figs for w in f.includes}
    for w in during:
        # a wager the player may make when offered during the round: per unit made, under each policy that
        # reaches the offer, the player making it whenever offered
        if w in included or not _offered(game, w, options):
            continue
        for label, pref in policies(game):
            res = enumerate_round(game, base, FixedStrategy(pref, offers={w: 1}), options=options, decks=decks)
            st = res.wagers.get(w)
            if st is None or not st.placed_prob:
                continue
            figs.append(Figure(w, game.wagers[w].name, f"{label}; made whenever offered",
                               st.expected_net / st.expected_stake, None,
                               st.outcomes.get("win", Fraction(0)) / st.placed_prob,
                               {k: v / st.placed_prob for k, v in st.outcomes.items()},
                               f"exact: engine enumerated over {res.paths} deals; per unit made (made in "
                               f"{st.placed_prob} of rounds)"))
    for w in optional:
        if not _offered(game, w, options):
            continue
        bets = dict(base)
        bets[w] = 1
        pref = policies(game)[0][1]
        res = enumerate_round(game, bets, FixedStrategy(pref), options=options, decks=decks)
        st = res.wagers[w]
        figs.append(Figure(w, game.wagers[w].name, "any", st.expected_net, None, st.outcomes.get("win", Fraction(0)),
                           dict(st.outcomes), f"exact: engine enumerated over {res.paths} deals"))
    return figs


def _offered(game, w, options) -> bool:
    wd = game.wagers[w]
    if wd.offered_by is None:
        return True
    return bool({**game.defaults(), **(options or {})}.get(wd.offered_by))


def _during(game, w: str) -> bool:
    """A wager placed during the round (War wager, Double Down), not with the bets before the deal."""
    return game.wagers[w].placed == "during_round"


@dataclass
class Report:
    chapter: str
    title: str
    settings: dict[str, Any]
    figures: list[Figure]
    notes: list[str] = field(default_factory=list)
    strategy: Any = None  # an optimal-strategy solution, when the game has one (StudSolution)
    not_computed: list[NotComputed] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"chapter": self.chapter, "title": self.title,
                "settings": {k: (str(v) if not isinstance(v, (bool, int, str)) or v is None else v)
                             for k, v in self.settings.items()},
                "figures": [f.to_json() for f in self.figures],
                "not_computed": [n.to_json() for n in self.not_computed], "notes": self.notes}

    def refuse(self, wager: str, name: str, reason: str, policy: str = "any") -> None:
        if not any(n.wager == wager and n.policy == policy for n in self.not_computed):
            self.not_computed.append(NotComputed(wager, name, policy, reason))

    def to_text(self) -> str:
        lines = [f"Chapter {self.chapter}. {self.title}: analysis"]
        lines.append("settings: " + ", ".join(f"{k}={v}" for k, v in self.settings.items()))
        for f in self.figures:
            lines.append("")
            lines.append(f"{f.name}  [{f.policy}]")
            if f.kind == "value":
                lines.append(f"  expected amount: ${f.expected_return} = ${dec(f.expected_return)}")
                lines.append(f"  method: {f.method}")
                continue
            if not f.exact:
                lines.append(f"  house edge {f.simulated_text()}"
                             + ("" if f.meets_target else
                                f"  SHORT OF THE PRECISION TARGET ({f.target * 100:.2f} points): not a figure for a "
                                "Rules Submission"))
                lines.append(f"  method: {f.method}")
                continue
            lines.append(f"  expected return per unit wagered: {f.expected_return} = {dec(f.expected_return)}"
                         f"  (house edge {pct(f.house_edge)})")
            if f.per_total_wagered is not None and f.per_total_wagered != f.expected_return:
                lines.append(f"  per total amount wagered:         {f.per_total_wagered} = {dec(f.per_total_wagered)}")
            if f.hit_frequency is not None:
                lines.append(f"  hit frequency: {f.hit_frequency} = {dec(f.hit_frequency)}")
            if f.includes:
                lines.append(f"  includes the wagers it leads to: {', '.join(f.includes)}")
            lines.append("  outcomes: " + ", ".join(f"{k}: {dec(v, 6)}" for k, v in f.outcomes.items()))
            lines.append(f"  method: {f.method}")
        for n in self.not_computed:
            lines.append("")
            lines.append(f"{n.name}  [{n.policy}]")
            lines.append(f"  not computed: {n.reason}")
        for n in self.notes:
            lines.append("")
            lines.append("note: " + n)
        return "\n".join(lines)


DEFAULT_PRECISION = Fraction(5, 10000)  # standard error of a simulated figure: at most 0.05 percentage points


def analyze(game, chapter, options: dict | None = None, decks: int | None = None, rounds: int | None = None,
            seed: int | None = None, precision: Fraction | float | None = None) -> Report:
    """Every figure of a chapter, by the route that fits its rankings. ``rounds`` / ``seed``: the
    simulated part of the figures (pai gow main wager and Double Down); ``precision``: the standard
    error (per unit wagered) a simulated figure must reach to count as a figure.

    Every offered wager ends with a figure or in ``Report.not_computed`` with the reason."""
    rep = _analyze(game, chapter, options, decks, rounds, seed,
                   float(DEFAULT_PRECISION if precision is None else precision))
    covered = {w for f in rep.figures for w in (*f.wager.split("+"), *f.includes)}
    covered |= {n.wager for n in rep.not_computed}
    if rep.figures or rep.not_computed:
        from compiler.runtime.engine import Table

        offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in
                     (options or {})}
        table = Table(game, {**offer_all, **(options or {})}, seed=0)
        for w, d in game.wagers.items():
            if w not in covered and table.offered(w):
                rep.refuse(w, d.name, "no analysis route covers it (its settlement is not a paytable on its own "
                                      "cards and no solver models the decisions it depends on)")
    return rep


def _analyze(game, chapter, options, decks, rounds, seed, precision) -> Report:
    from compiler.runtime.engine import Table

    options = dict(options or {})
    table = Table(game, options, seed=0)
    cd = game.cards
    if decks is not None:
        allowed = _legal_shoe_decks(game, chapter, table)
        if allowed and decks not in allowed:
            raise ValueError(f"{decks} decks is not legal for Chapter {game.chapter}: a dealing shoe holds "
                             f"{', '.join(map(str, sorted(allowed)))} decks under the spec's constraints")
    settings = {**table.options, "decks_in_shoe": decks if decks is not None else table.shoe_decks()}
    unpriced = [p for p in game.payouts.values() if table.payout_odds(p) is None]
    if unpriced:  # a partial chapter: wins at these payouts have no amount, so no return can be computed
        return Report(game.chapter, game.title, settings, [],
                      ["no house edge is computed: the payout odds of "
                       + ", ".join(sorted({p.cite for p in unpriced}))
                       + " are not in the sources (a win is recorded without an amount) and these selections "
                         "do not state them"])
    if not game.wagers:
        return Report(game.chapter, game.title, settings, [],
                      ["the rulespec defines no wagers (the sources give no wager of this chapter): nothing to analyse"])
    if rank_level_ok(game):
        figs = analyze_engine(game, options, decks)
        return Report(game.chapter, game.title, settings, figs,
                      ["exact over every deal of a freshly shuffled shoe (one seat; by exchangeability other "
                       "seats and burned cards do not change it)"])
    from compiler.analysis import paigow, poker_report

    model, _ = paigow.model_or_reason(game, chapter)
    if model is not None:
        return paigow.analyze_paigow(game, chapter, options, {**settings, "rounds": rounds, "seed": seed},
                                     precision=precision)
    return poker_report.analyze(game, chapter, options, settings)


def _legal_shoe_decks(game, chapter, table) -> set[int]:
    """Deck counts per shoe allowed by the options and constraints of the spec."""
    from compiler.runtime.engine import Context, Table

    cd = game.cards
    if not cd.decks_option:
        return set()
    opt = game.options[cd.decks_option]
    lo, hi = int(opt.get("minimum", 1)), int(opt.get("maximum", 16))
    out = set()
    flags = [k for k, v in game.options.items() if v.get("type") == "boolean"]
    import itertools

    for combo in itertools.product([False, True], repeat=len(flags)):
        for n in range(lo, hi + 1):
            o = {**table.options, **dict(zip(flags, combo)), cd.decks_option: n}
            t = Table(game, o, seed=0)
            if _constraints_ok(chapter, t):
                out.add(t.shoe_decks())
    return out


def _constraints_ok(chapter, table) -> bool:
    return not table.violations()
