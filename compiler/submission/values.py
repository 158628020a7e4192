"""A selection's value: read from a Rules Submission (checked against its option) and shown as a
regulator reads it (yes/no, $1,000, 14%)."""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from compiler.runtime.money import MoneyError, money
from compiler.spec.validate import suggest



def _dec_text(d: Decimal) -> str:
    """``Decimal('14.50') -> '14.5'``, ``Decimal('14') -> '14'`` (never an exponent)."""
    s = format(d.normalize(), "f")
    return s


def show_money(v) -> str:
    d = Decimal(v)
    return f"${int(d):,}" if d == d.to_integral_value() else f"${d:,.2f}"


def show_value(o: Mapping, v) -> str:
    """A selection as a regulator reads it: yes/no, $1,000, 14%, Paytable A, 14."""
    if v is None:
        return "none"
    t = o.get("type")
    if t == "text" and v == "":
        return "none stated"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if t == "money" and isinstance(v, (int, Decimal)):
        return show_money(v)
    if t == "percent" and isinstance(v, (int, Decimal)):
        return _dec_text(Decimal(v)) + "%"
    if isinstance(v, Decimal):
        return _dec_text(v)
    if isinstance(v, list):
        return f"{len(v)} rule{'s' if len(v) != 1 else ''} (below)"
    return str(v)


def _parse_number(v, unit: str) -> Decimal | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, Decimal)):
        return Decimal(v)
    if isinstance(v, str):
        s = v.strip()
        if unit == "$":
            s = s.removeprefix("$").replace(",", "")
        elif unit == "%":
            s = s.removesuffix("%").strip()
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", s):
            return None
        try:
            return Decimal(s)
        except InvalidOperation:  # pragma: no cover - the pattern excludes it
            return None
    return None


def _paytables_of(chapter, oid: str) -> list[tuple[str, Any]]:
    return [(pid, p) for pid, p in chapter.paytables.items() if p.option == oid]


def _or_list(items: list[str]) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _last_word(s: str) -> str:
    words = s.split()
    return words[-1] if words else ""


def check_value(chapter, oid: str, o: Mapping, value) -> tuple[Any, str | None]:
    """(normalised value, None) or (None, error message without the option name); ``chapter``: the
    chapter's IR, ``o``: the option as the rulespec writes it (``Option.spec``)."""
    t = o["type"]
    cite = o["cite"]
    tables = _paytables_of(chapter, oid)
    if tables and isinstance(value, (str, int)) and not isinstance(value, bool):
        # a paytable column: the value must be one the option allows (the generated schema's enum);
        # the engine is given the column's name
        pid, pt = tables[0]
        cols = [str(c) for c in pt.columns]
        vals = [str(v) for v in o.get("values", cols)]
        given = str(value).strip()
        where = f"the {pt.title} paytable of {pt.cite}"
        if not given:
            return None, f"an empty value is no column of {where}; choose {_or_list(vals)}"
        if given in vals:
            if given in cols:
                return given, None
            m = [c for c in cols if _last_word(c) == given]
            return (m[0] if len(m) == 1 else given), None
        close = [v for v in vals if v.casefold() == given.casefold()] or \
                [v for v in vals if _last_word(v).casefold() == _last_word(given).casefold()]
        if len(close) == 1:
            return None, f"{given!r} is not a column of {where} (did you mean {close[0]!r}?)"
        prefix = " ".join(cols[0].split()[:-1]) if cols else ""
        shown = f"{prefix} {given}" if prefix and len(given.split()) == 1 and \
            all(c.startswith(prefix + " ") for c in cols) else repr(given)
        return None, f"there is no {shown} in {where}; choose {_or_list(vals)}"
    if t == "boolean":
        if isinstance(value, bool):
            return value, None
        return None, f"expected yes or no, got {_show_raw(value)} ({cite})"
    if t == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return None, f"expected a whole number, got {_show_raw(value)} ({cite})"
        v = value
    elif t in ("money", "percent"):
        unit = "$" if t == "money" else "%"
        v = _parse_number(value, unit)
        if v is None:
            form = "an amount such as $1,000 or 1000.00" if t == "money" else "a percentage such as 14% or 14.5"
            return None, f"expected {form}, got {_show_raw(value)} ({cite})"

        try:
            money(v)  # NaN, infinities and amounts beyond the money range are refused
        except MoneyError as e:
            return None, f"{e} ({cite})"
        if t == "money" and v != v.quantize(Decimal("0.01")):
            return None, f"{show_money(v)} is not a whole number of cents ({cite})"
    elif t == "house_way":
        if not isinstance(value, list) or not value:
            return None, f"expected the house way as a list of rules ({cite})"
        v = value
    elif t in ("choice", "text"):
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            return None, f"expected {'one of ' + _or_list(o.get('values', [])) if t == 'choice' else 'text'}, " \
                         f"got {_show_raw(value)} ({cite})"
        v = value
    else:  # pragma: no cover - the rulespec schema lists every type
        v = value
    if "values" in o and t != "house_way":
        vals = list(o["values"])
        if v not in vals and not any(str(v) == str(x) for x in vals):
            hint = suggest(str(v), [str(x) for x in vals]) if isinstance(v, str) else None
            return None, (f"{_show_raw(v) if isinstance(v, str) else show_value(o, v)} is not allowed by {cite}; choose {_or_list([show_value(o, x) for x in vals])}"
                          + (f" (did you mean {hint!r}?)" if hint else ""))
        v = next(x for x in vals if x == v or str(x) == str(v))
    if t in ("integer", "money", "percent"):
        lo, hi = o.get("minimum"), o.get("maximum")
        if lo is not None and v < lo:
            return None, f"{show_value(o, v)} is below the {show_value(o, _num(lo))} minimum of {cite}"
        if hi is not None and v > hi:
            return None, f"{show_value(o, v)} is above the {show_value(o, _num(hi))} maximum of {cite}"
    return v, None



def _num(x):
    return x if isinstance(x, (int, Decimal)) else Decimal(str(x))


def _show_raw(v) -> str:
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "nothing"
    if isinstance(v, (dict, list)):
        return "a mapping" if isinstance(v, dict) else "a list"
    return str(v)


