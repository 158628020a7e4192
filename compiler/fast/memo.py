"""One memo for the compiled expressions of the fast path (house ways and settle rules alike)."""
from __future__ import annotations


def memoised(f, key):
    """``f(state)`` computed once per state (``state.memo``), keeping the ranking ids that callers read
    from the compiled function (``rid``, ``cat_rid``)."""
    def memo(state, f=f, key=key):
        v = state.memo.get(key)
        if v is None:
            v = state.memo[key] = f(state)
        return v
    for a in ("rid", "cat_rid"):
        if hasattr(f, a):
            setattr(memo, a, getattr(f, a))
    return memo
