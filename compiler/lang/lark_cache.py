"""Lark parsers built once and then read from the build cache (compiler/cache.py).

Building an LALR parser strictly (every terminal collision checked with ``interegular``) costs a
process half a second or more, most of `rulespec validate`'s start-up (docs/speed.md). The tables of a
parser built strictly are stored as a cache entry: a JSON text in which every mapping is a list of its
pairs (the parse table's keys are integers) and every tuple is tagged, read back with ``json.loads``
(data only, never executed; a tenth of the time ``ast.literal_eval`` took on the same tables as a
Python literal) and ``Lark.load``. The key is the grammar, the options and the lark version; an entry
that is damaged or does not load is built again, and ``RULESPEC_NO_CACHE`` builds every time."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from lark import Lark

FORMAT = "json-pairs-1"  # how the tables are written into the entry (part of its key)


def to_json(value: Any) -> str:
    """The tables (dicts, tuples, lists, str, int, bool, None) as JSON text, exactly."""
    return json.dumps(_tagged(value), ensure_ascii=True, separators=(",", ":"))


def _tagged(x: Any) -> Any:
    if isinstance(x, dict):
        return {"d": [[_tagged(k), _tagged(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"t": [_tagged(v) for v in x]}
    if isinstance(x, list):
        return [_tagged(v) for v in x]
    if x is None or isinstance(x, (bool, int, str)):
        return x
    raise TypeError(f"a {type(x).__name__} in a parser's tables")


def _untag(obj: dict) -> Any:
    (tag, items), = obj.items()  # every JSON object written by to_json has one member
    if tag == "d":
        return {k: v for k, v in items}
    if tag == "t":
        return tuple(items)
    raise ValueError(f"unknown tag {tag!r}")


def from_json(text: str) -> Any:
    """The tables written by :func:`to_json` (ValueError, TypeError on anything else)."""
    return json.loads(text, object_hook=_untag)


def cached_lark(name: str, grammar: str, **options: Any) -> Lark:
    """``Lark(grammar, **options)`` (LALR), from the cache when an entry for exactly these holds."""
    import lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    from compiler import cache

    key = "lark-" + hashlib.sha256(f"{name}\0{lark.__version__}\0{FORMAT}\0{sorted(options.items())!r}\0{grammar}"
                                   .encode()).hexdigest()
    if cache.enabled():
        found, text = cache.load(key)
        if found and isinstance(text, str):
            try:
                return Lark.load(from_json(text))
            except Exception:  # noqa: BLE001 - an entry that does not load is built again below
                pass
    parser = Lark(grammar, **options)
    if cache.enabled():
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        try:
            cache.store(key, to_json({"data": data, "memo": memo}))
        except TypeError:  # tables this writer cannot hold exactly: built again next time
            pass
    return parser
