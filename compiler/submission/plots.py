"""The plots of a Rules Submission document, as SVG written by hand from exact figures (inline in
the HTML, so without a namespace address: the HTML parser gives it; the documents name no web address).

* ``distribution_svg``: the net result of a wager per unit wagered, one bar per result, each with
  its probability written beside it (a result of 1 in a million is read, not guessed from a bar);
* ``meter_svg``: a progressive wager's house edge against the meter, a straight line (the
  expected return is ``a + b*M``), with the meter the figures assume and the break-even meter.

Byte-deterministic: no date, no random id, every coordinate rounded to 0.01, the fonts named
(DejaVu Sans, on every machine of this project's kind; compiler/render/pdf.py), so a rebuild gives
the same HTML and the same PDF. Text from a rulespec is escaped.
"""
from __future__ import annotations

import html
import math
from fractions import Fraction

FONT = 'font-family="DejaVu Sans" font-size="11"'
INK, BAR, GRID, MARK = "#222222", "#3b6ea5", "#cccccc", "#8a1c1c"


def _f(x: float) -> str:
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _esc(s: str) -> str:
    return html.escape(str(s), quote=True)


def show_net(net: Fraction) -> str:
    """A net result per unit as people write it: +8, -1, +2.5, 0."""
    if net == 0:
        return "0"
    sign = "+" if net > 0 else "\u2212"
    a = abs(net)
    text = f"{a.numerator}" if a.denominator == 1 else f"{float(a):.4f}".rstrip("0").rstrip(".")
    return sign + text


def show_probability(p: Fraction) -> str:
    """A probability as a percentage with enough digits to be read (at least 3 significant)."""
    pc = float(p) * 100
    if pc == 0:
        return "0%"
    places = max(2, 2 - int(math.floor(math.log10(pc))) if pc < 1 else 2)
    return f"{pc:.{min(places, 8)}f}%"


def distribution_svg(title: str, rows: list[tuple[str, Fraction, Fraction]]) -> str:
    """Horizontal bars: one per net result (highest first), its probability beside it."""
    merged: dict[Fraction, list] = {}
    for label, net, p in rows:
        e = merged.setdefault(net, [[], Fraction(0)])
        if label:
            e[0].append(label)
        e[1] += p
    items = sorted(merged.items(), key=lambda kv: -kv[0])
    top = max(p for _, (_, p) in items) or Fraction(1)
    label_w, bar_w, value_w, row_h, head = 230, 300, 110, 18, 34
    width, height = label_w + bar_w + value_w, head + row_h * len(items) + 24
    out = [f'<svg width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(title)}">',
           f'<text x="0" y="14" {FONT} font-weight="bold" fill="{INK}">{_esc(title)}</text>',
           f'<text x="{label_w - 6}" y="28" {FONT} text-anchor="end" fill="{INK}">net result per unit</text>',
           f'<text x="{label_w}" y="28" {FONT} fill="{INK}">probability</text>']
    for i, (net, (labels, p)) in enumerate(items):
        y = head + i * row_h
        name = show_net(net) + (f" ({', '.join(labels)})" if labels else "")
        if len(name) > 38:
            name = name[:37] + "\u2026"
        w = float(p / top) * bar_w
        out.append(f'<text x="{label_w - 6}" y="{_f(y + 12.5)}" {FONT} text-anchor="end" fill="{INK}">'
                   f'{_esc(name)}</text>')
        out.append(f'<rect x="{label_w}" y="{_f(y + 3)}" width="{_f(max(w, 1.0))}" height="{row_h - 6}" '
                   f'fill="{BAR}"/>')
        out.append(f'<text x="{_f(label_w + max(w, 1.0) + 4)}" y="{_f(y + 12.5)}" {FONT} fill="{INK}">'
                   f'{_esc(show_probability(p))}</text>')
    y = head + row_h * len(items) + 16
    out.append(f'<text x="0" y="{y}" {FONT} fill="{INK}">Each bar: the probability of that net result '
               f'(the longest bar: the most likely).</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _nice_step(span: float, n: int = 5) -> float:
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def meter_range(a: Fraction, b: Fraction, m0: Fraction) -> float:
    """The meter axis: from 0 past both the assumed meter and the break-even meter."""
    far = max(float(m0) * 2, float(-a / b) * 1.25 if b > 0 and a < 0 else 0.0, 1.0)
    step = _nice_step(far)
    return math.ceil(far / step) * step


def meter_svg(title: str, a: Fraction, b: Fraction, m0: Fraction) -> str:
    """House edge (percent) against the meter (dollars), for a one-unit wager of $1."""
    xmax = meter_range(a, b, m0)

    def edge(m: float) -> float:
        return -float(a + b * Fraction(str(m))) * 100

    e0, e1 = edge(0), edge(xmax)
    ylo, yhi = min(e0, e1, 0.0), max(e0, e1, 0.0)
    ystep = _nice_step(yhi - ylo or 1.0)
    ylo, yhi = math.floor(ylo / ystep) * ystep, math.ceil(yhi / ystep) * ystep
    left, right, top, bottom, width, height = 62, 40, 30, 44, 640, 300
    pw, ph = width - left - right, height - top - bottom

    def X(m: float) -> float:
        return left + m / xmax * pw

    def Y(e: float) -> float:
        return top + (yhi - e) / (yhi - ylo) * ph

    out = [f'<svg width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(title)}">',
           f'<text x="0" y="14" {FONT} font-weight="bold" fill="{INK}">{_esc(title)}</text>']
    xstep = _nice_step(xmax)
    k = 0
    while k * xstep <= xmax + 1e-9:
        m = k * xstep
        out.append(f'<line x1="{_f(X(m))}" y1="{top}" x2="{_f(X(m))}" y2="{top + ph}" stroke="{GRID}"/>')
        out.append(f'<text x="{_f(X(m))}" y="{top + ph + 14}" {FONT} text-anchor="middle" fill="{INK}">'
                   f'${m:,.0f}</text>')
        k += 1
    k = 0
    while ylo + k * ystep <= yhi + 1e-9:
        e = ylo + k * ystep
        out.append(f'<line x1="{left}" y1="{_f(Y(e))}" x2="{left + pw}" y2="{_f(Y(e))}" '
                   f'stroke="{INK if abs(e) < 1e-9 else GRID}"/>')
        out.append(f'<text x="{left - 4}" y="{_f(Y(e) + 4)}" {FONT} text-anchor="end" fill="{INK}">'
                   f'{_f(e)}%</text>')
        k += 1
    out.append(f'<line x1="{_f(X(0))}" y1="{_f(Y(e0))}" x2="{_f(X(xmax))}" y2="{_f(Y(e1))}" stroke="{BAR}" '
               f'stroke-width="2"/>')
    em0 = edge(float(m0))
    out.append(f'<circle cx="{_f(X(float(m0)))}" cy="{_f(Y(em0))}" r="4" fill="{MARK}"/>')
    out.append(f'<text x="{_f(X(float(m0)) + 6)}" y="{_f(Y(em0) - 6)}" {FONT} fill="{MARK}">'
               f'${float(m0):,.0f}: {em0:.2f}%</text>')
    if b > 0 and a < 0:
        mb = float(-a / b)
        out.append(f'<circle cx="{_f(X(mb))}" cy="{_f(Y(0))}" r="4" fill="{INK}"/>')
        out.append(f'<text x="{_f(X(mb))}" y="{_f(Y(0) - 8)}" {FONT} text-anchor="middle" fill="{INK}">'
                   f'break-even ${mb:,.0f}</text>')
    out.append(f'<text x="{left + pw / 2:.0f}" y="{height - 8}" {FONT} text-anchor="middle" fill="{INK}">'
               f'meter when the wager is paid</text>')
    out.append(f'<text x="12" y="{top + ph / 2:.0f}" {FONT} text-anchor="middle" fill="{INK}" '
               f'transform="rotate(-90 12 {top + ph / 2:.0f})">house edge</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
