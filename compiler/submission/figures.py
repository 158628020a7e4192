"""The figures a Rules Submission document shows: the analysis of the chapter under the
submission's selections (``compiler.analysis.report.analyze``, cached by content), one row per
figure of a wager the casino offers."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any


_ANALYSES: dict[tuple, Any] = {}


def analysis_of(sub: Submission):
    """``compiler.analysis.report.analyze`` under the submission's selections (cached)."""
    from compiler.analysis.report import analyze

    opts = dict(sub.selections)
    key = (id(sub.chapter), tuple(sorted((k, repr(v)) for k, v in opts.items())))
    hit = _ANALYSES.get(key)
    if hit is None or hit[0] is not sub.chapter:
        def compute():
            try:
                report = analyze(sub.game, sub.chapter, opts)
            except (ImportError, NotImplementedError, ValueError) as e:  # a chapter the engine cannot analyse yet
                from compiler.analysis.report import Report

                report = Report(sub.chapter.chapter, sub.chapter.title, dict(opts), [],
                                ["no house edge could be computed for these selections: "
                                 + (str(e) if isinstance(e, ValueError) else
                                    f"the analysis engine does not cover Chapter {sub.chapter.chapter} yet")])
            return _report_fields(report)

        from compiler import cache

        # by content: the chapter's data, the selections, the compiler (compiler/cache.py)
        ckey = cache.key_of("submission-analysis", sub.chapter.data,
                            sorted(opts.items(), key=lambda kv: kv[0]))
        try:
            report = _report_from(cache.cached(ckey, compute))
        except (KeyError, TypeError, ValueError):  # a stored value of the wrong shape: recompute
            report = _report_from(compute())
            cache.store(ckey, _report_fields(report))
        hit = _ANALYSES[key] = (sub.chapter, report)
    return hit[1]


def _report_fields(report) -> dict:
    """What a document shows of an analysis report, as plain exact data (compiler/cache.py stores it)."""
    return {"chapter": report.chapter, "title": report.title, "settings": dict(report.settings),
            "notes": list(report.notes),
            # every field of a Figure, so a field added to it can never be lost on the way through the cache
            "figures": [{fl.name: getattr(f, fl.name) for fl in dataclasses.fields(f)} for f in report.figures],
            "not_computed": [{fl.name: getattr(n, fl.name) for fl in dataclasses.fields(n)}
                             for n in report.not_computed]}


def _report_from(fields: dict):
    from compiler.analysis.report import Figure, NotComputed, Report

    return Report(fields["chapter"], fields["title"], fields["settings"],
                  [Figure(**{**f, "includes": tuple(f["includes"])}) for f in fields["figures"]],
                  list(fields["notes"]),
                  not_computed=[NotComputed(**n) for n in fields["not_computed"]])


def _frac(x: Fraction) -> str:
    return str(Fraction(x))


def figure_rows(sub: Submission) -> list[dict]:
    """One row per figure of the analysis; a simulated figure short of its precision target and a
    wager the analysis cannot model are rows that say "not computed" with the reason, never a number."""
    from compiler.analysis.report import dec, pct

    rows = []
    report = analysis_of(sub)
    for f in report.figures:
        exact = f.exact
        hf = f.hit_frequency
        value = getattr(f, "kind", "return") == "value"  # an expected amount (Envy Bonus), not a return
        includes = [sub.game.wagers[w].name if w in sub.game.wagers else w for w in f.includes]
        if not exact and not f.meets_target:
            rows.append(_not_computed_row(
                f.wager, f.name, f.policy,
                f"simulated standard error {f.standard_error * 100:.2f} points is short of the "
                f"{f.target * 100:.2f}-point precision target", includes))
            continue
        rows.append({
            "wager": f.wager, "name": f.name, "policy": f.policy,
            "house_edge_percent": (f"${dec(f.expected_return, 4)} expected" if value else
                                   pct(f.house_edge) if exact else pct(f.house_edge, 2)),
            # a simulated mean is no exact fraction: show its standard error instead
            "house_edge_fraction": (_frac(f.expected_return if value else f.house_edge) if exact else
                                    f"± {f.standard_error * 100:.2f} points (1 s.e.)"),
            "expected_return_fraction": _frac(f.expected_return) if exact else "n/a",
            "hit_frequency_percent": "n/a" if hf is None else pct(hf),
            "hit_frequency_fraction": "n/a" if hf is None else _frac(hf),
            "hit_frequency_decimal": "n/a" if hf is None else dec(hf),
            "kind": "exact" if exact else "simulated", "method": f.method,
            "method_detail": f.method.split(":", 1)[1].strip() if ":" in f.method else f.method,
            "includes": includes,
        })
    for n in report.not_computed:
        rows.append(_not_computed_row(n.wager, n.name, n.policy, n.reason, []))
    return rows


def _not_computed_row(wager, name, policy, reason, includes) -> dict:
    return {"wager": wager, "name": name, "policy": policy, "house_edge_percent": "not computed",
            "house_edge_fraction": "n/a", "expected_return_fraction": "n/a", "hit_frequency_percent": "n/a",
            "hit_frequency_fraction": "n/a", "hit_frequency_decimal": "n/a", "kind": "not computed",
            "method": "not computed: " + reason, "method_detail": reason, "includes": includes}

