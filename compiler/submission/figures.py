"""The figures a Rules Submission document shows: the analysis of the chapter under the
submission's selections (``compiler.analysis.report.analyze``, cached by content), one row per
figure of a wager the casino offers."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from compiler import cache
from compiler.analysis.paigow_record import record_text
from compiler.analysis.model import NO_DECISION, OPTIMAL, Policy
from compiler.analysis.report import Figure, NotComputed, Report, analyze, dec, pct
from compiler.submission.conditions import Conditions
from compiler.submission.plots import distribution_svg, meter_svg, show_net, show_probability


_ANALYSES: dict[tuple, Any] = {}
_MAX_ANALYSES = 64  # the reports kept in this process (a server sees any number of selections)


def analysis_of(sub: Submission):
    """``compiler.analysis.report.analyze`` under the submission's selections (cached)."""
    opts = dict(sub.selections)
    key = (id(sub.chapter), tuple(sorted((k, repr(v)) for k, v in opts.items())))
    hit = _ANALYSES.get(key)
    if hit is None or hit[0] is not sub.chapter or (cache.verifying() and not hit[2]):
        def compute():
            try:
                report = analyze(sub.game, sub.chapter, opts)
            except (ImportError, NotImplementedError, ValueError) as e:  # a chapter the engine cannot analyse yet

                report = Report(sub.chapter.chapter, sub.chapter.title, dict(opts), [],
                                ["no house edge could be computed for these selections: "
                                 + (str(e) if isinstance(e, ValueError) else
                                    f"the analysis engine does not cover Chapter {sub.chapter.chapter} yet")])
            return _report_fields(report)

        # by content: the chapter's data, the selections, the compiler (compiler/cache.py), and the
        # record of a long exact enumeration the analysis reads (analysis/paigow_record.py)

        ckey = cache.key_of("submission-analysis", sub.chapter.digest,
                            sorted(opts.items(), key=lambda kv: kv[0]), record_text(sub.chapter))
        try:
            # verify: build --check computes the figures again instead of taking the cache's word
            report = _report_from(cache.cached(ckey, compute, verify=True))
        except (KeyError, TypeError, ValueError):  # a stored value of the wrong shape: recompute
            report = _report_from(compute())
            cache.store(ckey, _report_fields(report))
        while len(_ANALYSES) >= _MAX_ANALYSES:
            try:
                _ANALYSES.pop(next(iter(_ANALYSES)), None)  # the oldest first
            except (StopIteration, RuntimeError):  # emptied or changed by another thread meanwhile
                break
        hit = _ANALYSES[key] = (sub.chapter, report, cache.verifying())
    return hit[1]


def _report_fields(report) -> dict:
    """What a document shows of an analysis report, as plain exact data (compiler/cache.py stores it)."""
    return {"chapter": report.chapter, "title": report.title, "settings": dict(report.settings),
            "notes": list(report.notes),
            # every field of a Figure, so a field added to it can never be lost on the way through the cache
            "figures": [f.to_fields() for f in report.figures],
            "not_computed": [{fl.name: getattr(n, fl.name) for fl in dataclasses.fields(n)}
                             for n in report.not_computed]}


def _report_from(fields: dict):
    return Report(fields["chapter"], fields["title"], fields["settings"],
                  [Figure.from_fields(f) for f in fields["figures"]],
                  list(fields["notes"]),
                  not_computed=[NotComputed(**n) for n in fields["not_computed"]])


NO_PLAY = "\u2014"  # the play assumed of a wager given no figure: none (its simulations fell short)


def _frac(x: Fraction) -> str:
    return str(Fraction(x))


def figure_rows(sub: Submission) -> list[dict]:
    """One row per figure of the analysis of a wager the casino offers; a simulated figure short of its
    precision target and a wager the analysis cannot model are rows that say "not computed" with the
    reason, never a number."""
    rows = []
    short: dict = {}  # (wager, includes) -> simulated figures short of their precision target
    report = analysis_of(sub)
    ch = sub.chapter
    offered, wagers, links = offered_wagers(sub), ch.wagers, paytable_wagers(ch)
    for f in report.figures:
        if not figure_shown(f.stakes, f.includes, offered, wagers, links):
            continue  # a wager the casino does not offer: no figure of it in its document
        exact = f.exact
        hf = f.hit_frequency
        value = getattr(f, "kind", "return") == "value"  # an expected amount (Envy Bonus), not a return
        includes = [sub.game.wagers[w].name if w in sub.game.wagers else w for w in f.includes]
        if not exact and not f.meets_target:
            # no number: one row per wager, whatever play was simulated (the play assumed is no
            # assumption of a figure that is not given)
            key = (f.wager, tuple(includes))
            if key not in short:
                short[key] = {"se": [], "target": f.target}
                rows.append(_not_computed_row(f.wager, f.name, NO_PLAY, "", includes))
                short[key]["row"] = rows[-1]
            short[key]["se"].append(f.standard_error)
            continue
        rows.append({
            "wager": f.wager, "name": f.name, "policy": f.policy.text,
            "house_edge_percent": (f"${dec(f.expected_return, 4)} expected" if value else
                                   pct(f.house_edge) if exact else pct(f.house_edge, 2)),
            # a simulated mean is no exact fraction: show its standard error instead
            "house_edge_fraction": (_frac(f.expected_return if value else f.house_edge) if exact else
                                    f"± {f.standard_error * 100:.2f} points (1 s.e.)"),
            "expected_return_fraction": _frac(f.expected_return) if exact else "n/a",
            "hit_frequency_percent": "n/a" if hf is None else pct(hf),
            "hit_frequency_fraction": "n/a" if hf is None else _frac(hf),
            "hit_frequency_decimal": "n/a" if hf is None else dec(hf),
            "kind": ("exact for the stated method" if f.stated_method else "exact") if exact else "simulated",
            "method": f.method, "stated_method": f.stated_method,
            # a round whose stake varies with the play: its edge per unit of its base wager (above) and per
            # total amount wagered, both said in its note
            "base_wager": sub.game.wagers[f.stakes[0]].name if f.stakes[0] in sub.game.wagers else f.stakes[0],
            "per_total_percent": (pct(-f.per_total_wagered) if exact and not value and f.per_total_wagered is not None
                                  and f.per_total_wagered != f.expected_return else None),
            "method_detail": _detail(sub, f),
            "includes": includes,
        })
    for n in report.not_computed:
        if not figure_shown((n.wager,), (), offered, wagers, links):
            continue
        rows.append(_not_computed_row(n.wager, n.name, n.policy, n.reason, []))
    for s in short.values():
        ses = " and ".join(f"{x * 100:.2f}" for x in s["se"])
        reason = (f"simulated standard error {ses} points "
                  f"{'are' if len(s['se']) > 1 else 'is'} short of the {s['target'] * 100:.2f}-point precision target")
        s["row"].update(_not_computed_row(s["row"]["wager"], s["row"]["name"], NO_PLAY, reason, s["row"]["includes"]))
    return rows


def _detail(sub, f) -> str:
    """How a figure was found, in the table's words; the meter formula of a progressive figure is left
    to its note and plot when they can be drawn from it exactly."""
    detail = f.method.split(":", 1)[1].strip() if ":" in f.method else f.method
    cut = detail.find("; as a function of the meter")
    if cut >= 0:
        fields = f.to_fields()
        if meter_line(sub, fields) is not None:
            detail = detail[:cut]
    return detail


def _keeps(row: dict) -> str:
    """What the house keeps (or the player gains) in the long run: of every dollar wagered on the wager, or,
    where the round's stake varies with the play, of every dollar of its base wager and of the total wagered."""
    edge, total = row["house_edge_percent"], row.get("per_total_percent")
    of = "wagered on it" if total is None else f"of the {row['base_wager']}"
    said = (f"the player gains {edge.lstrip('-')} of every dollar {of} in the long run" if edge.startswith("-") else
            f"the house keeps {edge} of every dollar {of} in the long run")
    if total is None:
        return said
    return (f"{said} ({total.lstrip('-')} of the total amount wagered on the round, after every raise, double "
            f"or wager taken back: its element of risk)")


def _how(row: dict) -> str:
    """How a shown figure was found, in a sentence: counted, counted for a stated method, or simulated."""
    if row["kind"] == "exact":
        return f"Exact: every possible outcome of the round is counted ({row['method_detail']})."
    if row["kind"] == "exact for the stated method":
        return (f"Exact for the stated method, which values the round otherwise than the game deals it in "
                f"every detail: {row['stated_method']} ({row['method_detail']}).")
    return f"Simulated: rounds of the compiled game are played ({row['method_detail']})."


def _not_computed_row(wager, name, policy, reason, includes) -> dict:
    return {"wager": wager, "name": name, "policy": policy, "house_edge_percent": "not computed",
            "house_edge_fraction": "n/a", "expected_return_fraction": "n/a", "hit_frequency_percent": "n/a",
            "hit_frequency_fraction": "n/a", "hit_frequency_decimal": "n/a", "kind": "not computed",
            "method": "not computed: " + reason, "method_detail": reason, "stated_method": "",
            "includes": includes}



# ---------------------------------------------------------------------------------------------
# Which figures a document shows: only those of wagers the casino offers
# ---------------------------------------------------------------------------------------------


def paytable_wagers(chapter) -> dict[str, set[str]]:
    """Paytable id -> the wagers it pays: a wager's own ``paytable``, a procedure step naming both a
    ``paytable`` and a ``wager`` (an Envy Bonus schedule), and a paytable named by neither (a
    schedule printed but paid by no rule) by the citation it shares with one that is."""
    links: dict[str, set[str]] = {}
    for wid, w in chapter.wagers.items():
        if w.paytable is not None:
            links.setdefault(w.paytable, set()).add(wid)
    for st in chapter.all_steps():
        params = dict(st.params)
        if isinstance(params.get("paytable"), str) and isinstance(params.get("wager"), str):
            links.setdefault(params["paytable"], set()).add(params["wager"])
    tables = chapter.paytables
    for pid, p in tables.items():
        if pid in links:
            continue
        same = set().union(*(links[q] for q in list(links) if q in tables and tables[q].cite == p.cite))
        if same:
            links[pid] = same
    return links


def offered_wagers(sub) -> set[str]:
    """The wager ids the submission's selections offer."""
    table = Conditions(sub.game, sub.effective).table
    return {wid for wid in sub.chapter.wagers if table.offered(wid)}


def figure_shown(stakes: tuple[str, ...], includes, offered: set[str], wagers, links) -> bool:
    """A figure is shown when every wager it concerns (its ``stakes`` and ``includes``) is offered;
    an id that is a paytable counts as the wagers that paytable pays."""
    for x in (*stakes, *includes):
        if x in wagers:
            if x not in offered:
                return False
        elif x in links and not (links[x] & offered):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# What a plot shows: the distribution of a figure's net result, a Progressive's return by meter
# ---------------------------------------------------------------------------------------------


def _net(odds, meter: Fraction | None) -> Fraction | None:
    """Net result per unit wagered of a win at ``odds`` (a one-unit wager of $1; None: not fixed)."""
    if odds.kind == "to":
        return Fraction(odds.num) / Fraction(odds.den)
    if odds.kind == "for":
        return Fraction(odds.num) / Fraction(odds.den) - 1
    if odds.kind == "push":
        return Fraction(0)
    if odds.kind == "meter" and meter is not None:
        return Fraction(odds.num) / 100 * meter - 1
    return None


def _single(fig: dict) -> str | None:
    """The one wager a figure's stakes name, or None for a figure of several."""
    return fig["stakes"][0] if len(fig["stakes"]) == 1 else None


def _paytable_of_figure(sub, fig: dict):
    """(compiled paytable, column index) whose row labels are the figure's outcomes, or None."""
    links = paytable_wagers(sub.chapter)
    game = sub.game
    labels = set(fig["outcomes"]) - {"lose"}
    for pid, ws in sorted(links.items()):
        pt = game.paytables.get(pid)
        if _single(fig) not in ws or pt is None or not labels or not labels <= {r[2] for r in pt.rows}:
            continue
        col = 0
        spec = sub.chapter.paytables.get(pid)
        opt = spec.option if spec is not None else None
        if opt and sub.effective.get(opt) in pt.columns:
            col = list(pt.columns).index(sub.effective[opt])
        return pt, col
    return None


def _reset_of(sub, fig: dict) -> Fraction | None:
    """The selections' reset amount of the meter of a figure's progressive wager."""
    w = sub.game.wagers.get(_single(fig) or "")
    mid = getattr(w, "progressive", None) if w is not None else None
    m = sub.chapter.meters.get(mid) if mid else None
    reset = sub.effective.get(m.reset_option) if m and m.reset_option else None
    return None if reset is None else Fraction(str(reset))


def _meter_of(sub, fig: dict) -> Fraction | None:
    """The meter a figure of a progressive wager is paid at: its policy's (the reading when the round begins,
    the reset amount, plus the wager's own share, added before it pays), else the selections' reset amount."""
    reset = _reset_of(sub, fig)
    meter = (fig.get("policy") or {}).get("meter")
    return Fraction(meter) if reset is not None and meter is not None else reset


def net_distribution(sub, fig: dict) -> list[tuple[str, Fraction, Fraction]] | None:
    """``[(label, net per unit, probability)]`` of an exact figure, or None when its outcomes are not
    a distribution of the net result that reproduces the figure's expected return exactly (no plot
    rather than a wrong one)."""
    if fig["status"] != "exact" or not fig["outcomes"] \
            or fig.get("kind", "return") != "return":
        return None
    out: list[tuple[str, Fraction, Fraction]] = []
    try:
        for k, p in fig["outcomes"].items():
            out.append(("", Fraction(str(k).lstrip("+")), Fraction(p)))
    except (ValueError, ZeroDivisionError):
        out = []
        found = _paytable_of_figure(sub, fig)
        if found is None:
            return None
        pt, col = found
        meter = _meter_of(sub, fig)
        by_label = {r[2]: r[1][col] for r in pt.rows}
        for k, p in fig["outcomes"].items():
            net = Fraction(-1) if k == "lose" else _net(by_label[k], meter)
            if net is None:
                return None
            out.append((str(k), net, Fraction(p)))
    if sum(p for _, _, p in out) != 1 or sum(n * p for _, n, p in out) != Fraction(fig["expected_return"]):
        return None
    return out


def meter_line(sub, fig: dict) -> tuple[Fraction, Fraction, Fraction] | None:
    """``(a, b, M0)``: a progressive wager's expected return per unit is ``a + b*M`` at meter ``M`` (a
    one-unit wager of $1), from its paytable and the figure's outcome probabilities; ``M0`` the meter
    the figure assumes. None unless ``a + b*M0`` is exactly the figure's expected return."""
    if fig.get("standard_error") is not None or fig.get("kind", "return") != "return":
        return None
    m0 = _meter_of(sub, fig)
    found = _paytable_of_figure(sub, fig)
    if m0 is None or found is None:
        return None
    pt, col = found
    by_label = {r[2]: r[1][col] for r in pt.rows}
    if not any(o.kind == "meter" for o in by_label.values()):
        return None
    a = b = Fraction(0)
    for k, p in fig["outcomes"].items():
        p = Fraction(p)
        if k == "lose":
            a -= p
            continue
        o = by_label[k]
        if o.kind == "meter":
            a, b = a - p, b + p * Fraction(o.num) / 100
        else:
            net = _net(o, None)
            if net is None:
                return None
            a += p * net
    if a + b * m0 != Fraction(fig["expected_return"]):
        return None
    return a, b, m0


# ---------------------------------------------------------------------------------------------
# Notes for people and the plots: what each figure assumes, in plain words
# ---------------------------------------------------------------------------------------------


def _shown_figures(sub) -> list[dict]:
    """The report's figures (as plain fields) of wagers the casino offers, in report order."""
    ch = sub.chapter
    offered, wagers, links = offered_wagers(sub), ch.wagers, paytable_wagers(ch)
    return [f for f in _report_fields(analysis_of(sub))["figures"]
            if figure_shown(f["stakes"], f["includes"], offered, wagers, links)]


def _money(x) -> str:
    x = Fraction(x)
    return f"${x.numerator // x.denominator:,}" if x.denominator == 1 else f"${float(x):,.2f}"


def _assumes(policy: Policy) -> str:
    """What a figure's policy assumes, in plain words, from its typed fields (the meter is said by the
    meter note)."""
    if policy.column is not None:
        return f"it is paid by the {policy.column} column of its paytable" + (
            f"; {policy.assumes}" if policy.assumes else "")
    if policy == OPTIMAL:
        return "the player makes every decision the way that returns the most (optimal strategy)"
    if policy == NO_DECISION:
        return "the result does not depend on any decision of the player"
    return f"it assumes: {policy.text}"


def _policies(sub) -> dict[tuple[str, str], Policy]:
    """(wager label, policy text) -> the typed policy of each figure of the analysis."""
    return {(f.wager, f.policy.text): f.policy for f in analysis_of(sub).figures}


def figure_notes(sub, rows: list[dict]) -> list[str]:
    """One plain sentence or two per row of the figures table, and one per progressive meter."""
    notes = []
    policies = _policies(sub)
    for r in rows:
        name = r["name"] + (f" (with {', '.join(r['includes'])})" if r["includes"] else "")
        if r["kind"] == "not computed":
            why = r["method_detail"]
            if why.startswith("simulated standard error"):
                why = ("a simulation of the compiled game did not reach the precision a filed figure needs "
                       f"({why})")
            notes.append(f"{name}: no figure is given, because {why}.")
            continue
        how = _how(r)
        if r["policy"] == "schedule no rule pays":
            notes.append(f"{name}: this schedule is printed in the chapter, but under the "
                         f"interpretation recorded in section 6 no rule pays it; its expected amount "
                         f"({r['house_edge_percent']}) is given for comparison only. {how}")
            continue
        if r["house_edge_percent"].endswith(" expected"):
            notes.append(f"{name}: a player who qualifies can expect {r['house_edge_percent'].split()[0]} "
                         f"for each other player at the table; {_assumes(policies[(r['wager'], r['policy'])])}. {how}")
            continue
        keeps = _keeps(r)
        notes.append(f"{name}: {keeps}; {_assumes(policies[(r['wager'], r['policy'])])}. {how}")
    for f in _shown_figures(sub):
        line = meter_line(sub, f)
        if line is None:
            continue
        a, b, m0 = line
        reset = _reset_of(sub, f)
        per_thousand = float(b * 1000 * 100)
        own = (f", and is paid at that reading plus the wager's own share of the stake, {_money(m0 - reset)}, "
               f"which is added to the meter before it pays") if reset is not None and m0 != reset else ""
        text = (f"{f['name']}: its figure assumes the meter stands at {_money(reset if reset is not None else m0)} "
                f"(the initial and reset amount selected) when the round begins{own}; each $1,000 more on the "
                f"meter lowers the house edge by {per_thousand:.2f} points")
        if b > 0 and a < 0:
            text += f", and at {_money(round(-a / b))} the house edge is zero (the plot below)"
        notes.append(text + ".")
    return notes


def document_plots(sub) -> list[dict]:
    """``[{title, svg, rows, caption}]``: the net result of the first figure whose exact outcomes
    are a distribution, and the house edge against the meter of each progressive figure."""
    out = []
    for f in _shown_figures(sub):
        dist = net_distribution(sub, f)
        if dist is None:
            continue
        parts = f["stakes"]
        unit = ("a one-unit wager" if len(parts) == 1 else
                f"a round, per unit of its {sub.game.wagers[parts[0]].name if parts[0] in sub.game.wagers else parts[0]}")
        title = f"Net result of the {f['name']}"
        rows = {}
        for label, net, p in dist:
            e = rows.setdefault(net, [[], Fraction(0)])
            e[0] += [label] if label else []
            e[1] += p
        out.append({"title": title, "svg": distribution_svg(title, dist),
                    "rows": [{"net": show_net(n), "labels": ", ".join(ls), "probability": show_probability(p),
                              "fraction": str(p)} for n, (ls, p) in sorted(rows.items(), key=lambda kv: -kv[0])],
                    "labelled": any(label for label, _, _ in dist),
                    "caption": f"The probability of each net result of {unit} under the selections above; "
                               f"{_assumes(Policy.from_fields(f['policy']))} (exact)."})
        break
    for f in _shown_figures(sub):
        line = meter_line(sub, f)
        if line is None:
            continue
        a, b, m0 = line
        title = f"House edge of the {f['name']} against the meter"
        caption = (f"The house edge of a $1 {f['name']} is a straight line in the meter M: "
                   f"{float(-a) * 100:.4f}% minus {float(b) * 100:.6f} points per dollar on the meter "
                   f"({_money(_reset_of(sub, f) or m0)} selected as the initial and reset amount, paid at "
                   f"{_money(m0)} with the wager's own share).")
        out.append({"title": title, "svg": meter_svg(title, a, b, m0), "rows": [], "labelled": False,
                    "caption": caption})
    return out
