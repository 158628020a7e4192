"""The engine's errors: a procedure that cannot go on, and input the chapter does not allow."""
from __future__ import annotations


class EngineError(RuntimeError):
    """The procedure cannot go on: a spec inconsistency, or input that does not fit it.

    ``pointer``: where in a hand history the input that does not fit is, when known (an event's
    ``_ptr``); ``target``: the (owner, seat, zone) a missing card was dealt to."""

    def __init__(self, message: str = "", pointer: str | None = None, target: tuple | None = None):
        super().__init__(message)
        self.pointer = pointer
        self.target = target


class RefusedError(EngineError):
    """A wager or choice the chapter (or the casino's Rules Submission) does not allow."""



class UnsettledError(EngineError):
    """A round ended with a wager no rule settled: the chapter leaves a path open (``wager``, the
    wager's id in the spec; ``seat``; ``round``: the round's number at its table)."""

    def __init__(self, message: str, wager: str, seat: int | None = None, round: int | None = None):
        super().__init__(message)
        self.wager, self.seat, self.round = wager, seat, round
