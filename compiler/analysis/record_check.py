"""Checks of a committed exact record (``rulespecs/records/*.json``, written by
:mod:`compiler.analysis.paigow_record`) before any figure of it is used.

A record is a file anyone can edit; its key says only which chapter it was computed for. So, before
use, every field the analysis reads is checked for its type, every count is a non-negative integer,
the counts add up to the number of deals (which must be the chapter's own), the counts by net agree
with the per-class counts, each expected return is recomputed from its counts and must equal the
stored fraction, each probability or share lies in [0, 1], the figures that the counts do not
determine (the optimal doubling, which needs per-hand totals the record does not hold) satisfy the
inequalities that tie them to the ones that are, and every decimal shown equals its fraction.

:func:`record_problem` returns the first thing wrong, or None. Nothing here raises on a record of
any shape (a test feeds it truncated, garbage and mistyped records).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

# the figures a record may hold (allow-list): name -> "ev" (an expected return) or "share" (in [0, 1])
FIGURES = {"main": "ev", "double_always": "ev", "double_optimal_per_round": "ev",
           "double_optimal_share": "share", "double_optimal_per_made": "ev", "main_optimal": "ev",
           "optimal_differs_share": "share", "optimal_gain": "ev", "round_optimal": "ev",
           "double_optimal_setting_share": "share", "double_optimal_setting_per_made": "ev"}
COUNTS = ("win", "push", "lose")


class Bad(ValueError):
    """What is wrong with a record."""


def _count(v, where: str) -> int:
    if type(v) is not int or v < 0:
        raise Bad(f"{where} is {v!r}, not a count (a non-negative integer)")
    return v


def _frac(v, where: str) -> Fraction:
    if not isinstance(v, str) or len(v) > 200:
        raise Bad(f"{where} is {v!r:.60}, not a fraction written as a string")
    try:
        return Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise Bad(f"{where} is {v!r:.60}, not a fraction") from None


def _mapping(rec, name: str) -> dict:
    v = rec.get(name)
    if not isinstance(v, dict):
        raise Bad(f"{name} is missing or not a mapping")
    return v


def _by_net(rec, name: str, deals: int) -> dict[Fraction, int]:
    out: dict[Fraction, int] = {}
    for k, c in _mapping(rec, name).items():
        out[_frac(k, f"{name} key")] = out.get(_frac(k, f"{name} key"), 0) + _count(c, f"{name}[{k!r:.40}]")
    if sum(out.values()) != deals:
        raise Bad(f"the counts of {name} add up to {sum(out.values()):,}, not the {deals:,} deals")
    return out


def _tally_of(by_net: dict[Fraction, int]) -> dict[str, int]:
    t = dict.fromkeys(COUNTS, 0)
    for v, c in by_net.items():
        t["win" if v > 0 else "push" if v == 0 else "lose"] += c
    return t


def _same_tally(rec, name: str, by_net: dict[Fraction, int]) -> None:
    got = _mapping(rec, name)
    if set(got) != set(COUNTS) or any(_count(got[k], f"{name}.{k}") != v for k, v in _tally_of(by_net).items()):
        raise Bad(f"{name} {got!r:.120} does not match the counts by net")


def _mean(by_net: dict[Fraction, int], deals: int) -> Fraction:
    return sum((v * c for v, c in by_net.items()), Fraction(0)) / deals


def check(rec: Any, deals: int, hands: int | None = None) -> None:
    """Raise :class:`Bad` with what is wrong with ``rec`` as the record of a chapter of ``deals`` deals
    (of ``hands`` player hands, when given)."""
    if not isinstance(rec, dict):
        raise Bad(f"the record is a {type(rec).__name__}, not a mapping")
    for name, kind in (("key", str), ("command", str)):
        if not isinstance(rec.get(name), kind):
            raise Bad(f"{name} is missing or not a {kind.__name__}")
    if type(rec.get("seconds")) not in (int, float) or not 0 <= rec["seconds"] < 10 ** 9:
        raise Bad("seconds is missing or not a number of seconds")
    if _count(rec.get("deals"), "deals") != deals:
        raise Bad(f"deals is {rec['deals']!r}, but the chapter's deck gives {deals:,} deals")
    figs = _mapping(rec, "figures")
    unknown = sorted(set(figs) - set(FIGURES))
    if unknown:
        raise Bad(f"figures holds {', '.join(map(repr, unknown[:3]))}, which no analysis writes")
    if "main" not in figs:
        raise Bad("figures.main is missing")
    f = {k: None if v in (None, "None") else _frac(v, f"figures.{k}") for k, v in figs.items()}
    decimals = _mapping(rec, "decimals")
    for k, v in f.items():
        if v is not None and FIGURES[k] == "share" and not 0 <= v <= 1:
            raise Bad(f"figures.{k} is {v} = {float(v):.6f}, a share outside [0, 1]")
    # the main wager: classes, counts by net, win/push/lose and the expected return agree
    classes = _mapping(rec, "classes")
    main_net: dict[Fraction, int] = {}
    dd_net: dict[Fraction, int] = {}
    for k, row in classes.items():
        if not (isinstance(row, list) and len(row) == 3):
            raise Bad(f"classes[{k!r:.40}] is not [main net, double net, count]")
        c = _count(row[2], f"classes[{k!r:.40}] count")
        v = _frac(row[0], f"classes[{k!r:.40}] main net")
        main_net[v] = main_net.get(v, 0) + c
        if row[1] is not None:
            d = _frac(row[1], f"classes[{k!r:.40}] double net")
            dd_net[d] = dd_net.get(d, 0) + c
    if sum(main_net.values()) != deals:
        raise Bad(f"the counts of the classes add up to {sum(main_net.values()):,}, not the {deals:,} deals")
    by = _by_net(rec, "main_by_net", deals)
    if by != {v: c for v, c in main_net.items() if c}:
        raise Bad("main_by_net does not match the counts of the classes")
    _same_tally(rec, "main_counts", by)
    _equal(f, "main", _mean(by, deals))
    lo, hi = min(by), max(by)
    dlo = dhi = None
    if f.get("double_always") is not None:
        dby = _by_net(rec, "double_always_by_net", deals)
        if dby != {v: c for v, c in dd_net.items() if c}:
            raise Bad("double_always_by_net does not match the counts of the classes")
        _same_tally(rec, "double_always_counts", dby)
        _equal(f, "double_always", _mean(dby, deals))
        dlo, dhi = min(dby), max(dby)
    if f.get("main_optimal") is not None:
        oby = _by_net(rec, "main_optimal_by_net", deals)
        _same_tally(rec, "main_optimal_counts", oby)
        _equal(f, "main_optimal", _mean(oby, deals))
        _equal(f, "optimal_gain", f["main_optimal"] - f["main"])
        _at_least(f, "main_optimal", f["main"], "the house way's (the player's best setting includes it)")
        lo, hi = min(lo, min(oby)), max(hi, max(oby))
    for k in ("main", "main_optimal"):
        if f.get(k) is not None and not lo <= f[k] <= hi:
            raise Bad(f"figures.{k} {f[k]} lies outside the nets the record holds")
    _doubling(f, dlo, dhi)
    # each figure is a sum of whole counts times nets over the deals (or of weights over the player hands)
    den = math.lcm(*(v.denominator for v in (*main_net, *dd_net)))
    for k, mult in (("double_always", deals * den), ("double_optimal_per_round", deals * den),
                    ("main_optimal", deals * den), ("round_optimal", deals * den),
                    ("double_optimal_share", hands), ("optimal_differs_share", hands),
                    ("double_optimal_setting_share", hands)):
        if f.get(k) is not None and mult is not None and (f[k] * mult).denominator != 1:
            raise Bad(f"figures.{k} {f[k]} is no whole number over the {mult:,} it is counted in")
    s2, per2 = f.get("double_optimal_setting_share"), f.get("double_optimal_setting_per_made")
    if per2 is not None and s2 and hands is not None and (per2 * s2 * deals * den).denominator != 1:
        raise Bad(f"figures.double_optimal_setting_per_made {per2} is no whole number over the deals")
    for k, v in f.items():
        if v is not None and decimals.get(k) != f"{float(v):.10f}":
            raise Bad(f"decimals.{k} is {decimals.get(k)!r:.40}, but figures.{k} {v} is {float(v):.10f}")


def _doubling(f: dict, dlo, dhi) -> None:
    """The optimal doubling's figures (not determined by the record's counts): bounded by them."""
    names = ("double_optimal_per_round", "double_optimal_share", "double_optimal_per_made",
             "round_optimal", "double_optimal_setting_share", "double_optimal_setting_per_made")
    if dlo is None:
        if any(f.get(k) is not None for k in names):
            raise Bad("the optimal doubling's figures without the counts of the doubled wager")
        return
    share, per_round = f.get("double_optimal_share"), f.get("double_optimal_per_round")
    if per_round is not None or share is not None:
        if per_round is None or share is None:
            raise Bad("double_optimal_per_round and double_optimal_share come together")
        # doubling only when it pays: never negative, never worse than always doubling, at most the best net
        _at_least(f, "double_optimal_per_round", max(Fraction(0), f["double_always"]), "what always doubling earns")
        if per_round > share * max(dhi, 0):
            raise Bad(f"figures.double_optimal_per_round {per_round} exceeds its share times the largest net")
        _equal(f, "double_optimal_per_made", per_round / share if share else None)
    if f.get("round_optimal") is not None:
        _at_least(f, "round_optimal", f["main_optimal"], "the best setting without doubling")
        if per_round is not None:
            _at_least(f, "round_optimal", f["main"] + per_round, "the house way with the doubling that pays")
        s2, per2 = f.get("double_optimal_setting_share"), f.get("double_optimal_setting_per_made")
        if s2 is None or not (per2 is None if s2 == 0 else per2 is not None and 0 < per2 <= dhi):
            raise Bad(f"figures.double_optimal_setting_per_made {per2} does not fit its share {s2}")
        # a hand doubled gains at most the doubled wager's largest net over the best setting without it
        if f["round_optimal"] - f["main_optimal"] > s2 * dhi:
            raise Bad(f"figures.round_optimal {f['round_optimal']} gains more than doubling can")


def _equal(f: dict, name: str, value) -> None:
    if f.get(name) != value:
        raise Bad(f"figures.{name} is {f.get(name)}, but the record's counts give {value}"
                  + (f" = {float(value):.10f}" if value is not None else ""))


def _at_least(f: dict, name: str, bound: Fraction, what: str) -> None:
    if f.get(name) is None or f[name] < bound:
        raise Bad(f"figures.{name} is {f.get(name)}, less than {what} ({bound})")


def record_problem(rec: Any, deals: int, hands: int | None = None) -> str | None:
    """What is wrong with the record, or None; never raises."""
    try:
        check(rec, deals, hands)
    except Bad as e:
        return str(e)
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError, RecursionError, OverflowError) as e:
        return f"the record cannot be read: {type(e).__name__}"
    return None
