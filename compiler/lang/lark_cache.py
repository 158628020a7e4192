"""Lark parsers built once and then read from the build cache (compiler/cache.py).

Building an LALR parser strictly (every terminal collision checked with ``interegular``) costs a
process half a second or more, most of `rulespec validate`'s start-up (docs/speed.md). The tables of a
parser built strictly are stored as a cache entry: JSON holding them as a Python literal, read back with
``ast.literal_eval`` (data only, never executed) and ``Lark.load``. The key is the grammar, the options
and the lark version; an entry that is damaged or does not load is built again, and ``RULESPEC_NO_CACHE``
builds every time."""
from __future__ import annotations

import ast
import hashlib
from typing import Any

from lark import Lark


def cached_lark(name: str, grammar: str, **options: Any) -> Lark:
    """``Lark(grammar, **options)`` (LALR), from the cache when an entry for exactly these holds."""
    import lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    from compiler import cache

    key = "lark-" + hashlib.sha256(f"{name}\0{lark.__version__}\0{sorted(options.items())!r}\0{grammar}"
                                   .encode()).hexdigest()
    if cache.enabled():
        found, text = cache.load(key)
        if found and isinstance(text, str):
            try:
                return Lark.load(ast.literal_eval(text))
            except Exception:  # noqa: BLE001 - an entry that does not load is built again below
                pass
    parser = Lark(grammar, **options)
    if cache.enabled():
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        cache.store(key, repr({"data": data, "memo": memo}))
    return parser
