"""What an analysis gives: a :class:`Figure` per wager (exact or simulated), the wagers it gives
no figure (:class:`NotComputed`, with the reason) and the chapter's :class:`Report`, with their
JSON and text forms. Every analysis route builds these; the documents read them."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any, Literal


def dec(x: Fraction, places: int = 10) -> str:
    """A Fraction as a decimal string (rounded half away from zero), e.g. -0.0233005681."""
    with localcontext() as c:
        c.prec = 60
        d = Decimal(x.numerator) / Decimal(x.denominator)
        return format(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")  # 0 as 0.0000000000


def pct(x: Fraction, places: int = 4) -> str:
    return dec(x * 100, places) + "%"


# the clause of the pai gow route's simulated policies that has the player make the wager offered during the
# round; removed from the policy where the selections do not offer that wager (report.drop_unoffered)
DURING_CLAUSE = ", doubles when that estimate is positive"


Status = Literal["exact", "simulated"]
PolicyKind = Literal["optimal", "fixed", "none", "house way", "estimated", "schedule"]
POLICY_KINDS = ("optimal", "fixed", "none", "house way", "estimated", "schedule")


@dataclass(frozen=True)
class Policy:
    """The play a figure assumes, typed: what kind of play (``optimal``: the choice of largest expected
    net at every decision; ``fixed``: the same declared choices on every deal, ``choices`` (decision id,
    choice id) in order; ``none``: no decision of the player affects the result; ``house way``: hands
    set by the house way; ``estimated``: a simulated play that estimates the best choice; ``schedule``:
    a schedule no rule pays), the paytable ``column`` it is paid by, the progressive ``meter`` it
    assumes, an ``assumes`` clause stated beside it, and ``text``, the words shown (JSON, text, documents)."""
    kind: PolicyKind
    text: str
    choices: tuple[tuple[str, str], ...] = ()
    column: str | None = None
    meter: Fraction | None = None
    assumes: str = ""

    def __post_init__(self):
        if self.kind not in POLICY_KINDS:
            raise ValueError(f"unknown policy kind {self.kind!r} (one of {', '.join(POLICY_KINDS)})")

    def __str__(self) -> str:
        return self.text

    def with_text(self, text: str) -> "Policy":
        return replace(self, text=text)

    def to_fields(self) -> dict:
        return {"kind": self.kind, "text": self.text, "choices": tuple(self.choices), "column": self.column,
                "meter": self.meter, "assumes": self.assumes}

    @classmethod
    def from_fields(cls, d: dict) -> "Policy":
        return cls(d["kind"], d["text"], tuple(tuple(c) for c in d.get("choices") or ()), d.get("column"),
                   d.get("meter"), d.get("assumes") or "")


OPTIMAL = Policy("optimal", "optimal strategy")
NO_DECISION = Policy("none", "any")


@dataclass
class Figure:
    """One figure: ``stakes``, the ids of the wagers whose results it sums (one, or a round of several);
    ``policy``, the play it assumes; ``status``, exact (fractions) or simulated (a mean with its standard
    error, held to ``target``). Nothing of it is read back from its prose (``method``)."""
    stakes: tuple[str, ...]
    name: str
    policy: Policy
    expected_return: Fraction  # per unit of the first wager of ``stakes`` (a round: per unit of its base wager)
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
    standard_deviation: float | None = None  # of the net per unit, where the method measures it
    status: Status = field(default=None, kw_only=True)  # type: ignore[assignment]  # required: checked below
    # where a figure read from a record came from (its file, key, the run that made it): shown by
    # ``rulespec analyze`` and in its JSON, never in a filed document (``method`` is the plain description)
    provenance: str | None = field(default=None, kw_only=True)
    # an exact figure of a stated method that values the round otherwise than the game deals it in every
    # detail (the draw walk: the dealer's play valued from the shoe at the player's first decision): the
    # method in words, said wherever the figure is shown; empty: every outcome of the round is counted
    stated_method: str = field(default="", kw_only=True)

    def __post_init__(self):
        if isinstance(self.stakes, str) or not self.stakes or not all(isinstance(w, str) and w for w in self.stakes):
            raise TypeError(f"a figure's stakes are a tuple of wager ids, not {self.stakes!r}")
        self.stakes = tuple(self.stakes)
        self.includes = tuple(self.includes)
        if not isinstance(self.policy, Policy):
            raise TypeError(f"a figure's policy is a Policy, not {type(self.policy).__name__}")
        if self.status not in ("exact", "simulated"):
            raise ValueError(f"a figure's status is 'exact' or 'simulated', not {self.status!r}")
        if (self.status == "simulated") != (self.standard_error is not None):
            raise ValueError("a simulated figure, and only one, carries its standard error")
        if self.stated_method and self.status != "exact":
            raise ValueError("only an exact figure states the method it is exact for")

    @property
    def wager(self) -> str:
        """The stakes as shown (ids joined by '+'): a label, never split again."""
        return "+".join(self.stakes)

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_return

    @property
    def exact(self) -> bool:
        return self.status == "exact"

    def to_fields(self) -> dict:
        """Every field as plain exact data (compiler/cache.py stores it); :meth:`from_fields` reads it back."""
        d = {fl.name: getattr(self, fl.name) for fl in fields(self)}
        d["policy"] = self.policy.to_fields()
        return d

    @classmethod
    def from_fields(cls, d: dict) -> "Figure":
        return cls(**{**d, "stakes": tuple(d["stakes"]), "includes": tuple(d["includes"]),
                      "policy": Policy.from_fields(d["policy"])})

    @property
    def variance(self) -> Fraction | None:
        """The exact variance of the net per unit, where ``outcomes`` is the distribution of that net (keys are
        nets, '+1', '-1/2', whose probabilities sum to 1 and whose mean is the expected return); None where the
        outcomes are named (win, lose) or the figure is simulated or an expected amount."""
        if not self.exact or self.kind != "return" or not self.outcomes:
            return None
        try:
            dist = [(Fraction(k), v) for k, v in self.outcomes.items()]
        except (ValueError, ZeroDivisionError):
            return None
        mean = sum((x * p for x, p in dist), Fraction(0))
        if sum((p for _, p in dist), Fraction(0)) != 1 or mean != self.expected_return:
            return None
        return sum(((x - mean) ** 2 * p for x, p in dist), Fraction(0))

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
            "wager": self.wager, "name": self.name, "policy": self.policy.text, "status": "exact",
            "expected_return": {"fraction": str(self.expected_return), "decimal": dec(self.expected_return)},
            "house_edge": {"fraction": str(self.house_edge), "percent": pct(self.house_edge)},
            "hit_frequency": (None if self.hit_frequency is None else
                              {"fraction": str(self.hit_frequency), "decimal": dec(self.hit_frequency)}),
            "outcomes": {k: {"fraction": str(v), "decimal": dec(v)} for k, v in sorted(self.outcomes.items())},
            "method": self.method,
            "kind": self.kind,
        }
        if self.provenance:
            d["provenance"] = self.provenance
        if self.stated_method:
            d["status"] = "exact for the stated method"
            d["stated_method"] = self.stated_method
        if self.per_total_wagered is not None:
            d["per_total_wagered"] = {"fraction": str(self.per_total_wagered), "decimal": dec(self.per_total_wagered)}
        if self.includes:
            d["includes"] = list(self.includes)
        if self.variance is not None:
            d["standard_deviation"] = {"decimal": f"{float(self.variance) ** 0.5:.6f}",
                                       "variance": {"fraction": str(self.variance), "decimal": dec(self.variance)}}
        return d

    def _simulated_json(self) -> dict:
        """A simulated figure: mean and standard error as decimals, no fraction."""
        se = self.standard_error
        return {
            "wager": self.wager, "name": self.name, "policy": self.policy.text,
            "status": "simulated" if self.meets_target else "short of precision target",
            "expected_return": {"decimal": dec(self.expected_return, 6), "standard_error": f"{se:.6f}"},
            "house_edge": {"percent": pct(self.house_edge, 2), "standard_error_points": f"{se * 100:.4f}",
                           "target_points": None if self.target is None else f"{self.target * 100:.4f}"},
            "hit_frequency": None,
            "outcomes": {k: {"decimal": dec(v, 6)} for k, v in sorted(self.outcomes.items())},
            "method": self.method, "kind": self.kind,
            **({} if self.standard_deviation is None else
               {"standard_deviation": f"{self.standard_deviation:.6f}"}),
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
        shown = ", ".join(f"{k}={v}" for k, v in self.settings.items())
        lines.append("settings: " + (shown or "none (the chapter has no option and deals no card)"))
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
                if f.standard_deviation is not None:
                    lines.append(f"  standard deviation of the net per unit: {f.standard_deviation:.4f}")
                lines.append(f"  method: {f.method}")
                continue
            lines.append(f"  expected return per unit wagered: {f.expected_return} = {dec(f.expected_return)}"
                         f"  (house edge {pct(f.house_edge)})")
            if f.per_total_wagered is not None and f.per_total_wagered != f.expected_return:
                lines.append(f"  per total amount wagered:         {f.per_total_wagered} = {dec(f.per_total_wagered)}"
                             f"  (element of risk {pct(-f.per_total_wagered)}: the stake after every raise, double "
                             f"or wager taken back)")
            if f.hit_frequency is not None:
                lines.append(f"  hit frequency: {f.hit_frequency} = {dec(f.hit_frequency)}")
            if f.variance is not None:
                lines.append(f"  standard deviation of the net per unit: {float(f.variance) ** 0.5:.6f}  "
                             f"(variance {f.variance} = {dec(f.variance)})")
            if f.includes:
                lines.append(f"  includes the wagers it leads to: {', '.join(f.includes)}")
            if f.outcomes:  # (a figure of an expectation only, e.g. the draw walk's, has no distribution)
                lines.append("  outcomes: " + ", ".join(f"{k}: {dec(v, 6)}" for k, v in f.outcomes.items()))
            lines.append(f"  method: {f.method}")
            if f.stated_method:
                lines.append(f"  the stated method (not every round as the game deals it): {f.stated_method}")
            if f.provenance:
                lines.append(f"  provenance: {f.provenance}")
        for n in self.not_computed:
            lines.append("")
            lines.append(f"{n.name}  [{n.policy}]")
            lines.append(f"  not computed: {n.reason}")
        for n in self.notes:
            lines.append("")
            lines.append("note: " + n)
        return "\n".join(lines)


__all__ = ["NO_DECISION", "OPTIMAL", "Figure", "NotComputed", "Policy", "Report", "dec", "pct"]
