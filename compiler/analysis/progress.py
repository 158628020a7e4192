"""A progress hook for long analyses.

``rulespec analyze`` installs a reporter for the duration of the analysis (:func:`reporting`; it shows
done/total, the rate and the time left on standard error, on a terminal only: the
:class:`compiler.analysis.simulate.Progress` that ``simulate`` shows). A route that knows its total
beforehand reports through :func:`track`::

    with progress.track(len(jobs), "enumerations") as p:
        for job in jobs:
            ...
            p.update(1)

Without a reporter (a library call, a test, a pipe) :func:`track` gives an object that does nothing.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator, Protocol

__all__ = ["Reporter", "reporting", "track"]


class Reporter(Protocol):
    def update(self, n: int) -> None: ...

    def close(self) -> None: ...


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


_FACTORY: ContextVar[Callable[[int, str], Reporter] | None] = ContextVar("analysis_progress", default=None)


@contextmanager
def reporting(factory: Callable[[int, str], Reporter]) -> Iterator[None]:
    """While the block runs, :func:`track` makes its reporters with ``factory(total, unit)``."""
    token = _FACTORY.set(factory)
    try:
        yield
    finally:
        _FACTORY.reset(token)


@contextmanager
def track(total: int, unit: str) -> Iterator[Reporter]:
    """A reporter of ``total`` units of work (the installed one, else one that does nothing)."""
    factory = _FACTORY.get()
    rep = factory(total, unit) if factory is not None and total > 0 else _Silent()
    try:
        yield rep
    finally:
        rep.close()
