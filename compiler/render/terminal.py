"""Writing to a terminal: text from a spec, a hand history or a Rules Submission made visible (no
control character reaches the terminal raw), and progress of long work, shown only on a terminal.

compiler/cli.py wraps standard output and error in :class:`VisibleStream`; progress, which writes
its own carriage returns and erase-line codes, goes to the stream underneath (:func:`raw_stream`)
and escapes whatever text it shows itself.
"""
from __future__ import annotations

import re
import sys
import threading
import time

# C0 controls except tab and newline, DEL, C1 controls, U+2028/U+2029, bidi embeddings/overrides
# and isolates, the BOM / zero-width no-break space
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def visible(text: str) -> str:
    """``text`` with every character that could act on a terminal shown as an escape:
    ``\\x1b`` for a C0 control or DEL, ``\\u2028`` for the others (also a valid JSON string escape)."""
    def esc(m: re.Match) -> str:
        c = ord(m.group())
        return f"\\x{c:02x}" if c < 0x20 or c == 0x7f else f"\\u{c:04x}"

    return _UNSAFE.sub(esc, text)


class VisibleStream:
    """A text stream that writes through :func:`visible`."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(visible(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def raw_stream(stream):
    """The stream under a :class:`VisibleStream` (for a writer that escapes its own text)."""
    return stream._stream if isinstance(stream, VisibleStream) else stream


def is_terminal(stream=None) -> bool:
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def status(message: str | None) -> None:
    """One line of progress on standard error, overwritten by the next (None: clear it); only on a
    terminal, nothing at all when standard error is piped or redirected."""
    if not is_terminal():
        return
    out = raw_stream(sys.stderr)
    out.write("\r\x1b[K" + ("" if message is None else visible(message)))
    out.flush()


class Ticker:
    """``with Ticker("analyzing Chapter 670a"):`` shows the time spent on standard error once a
    second while the block runs (work whose size is not known beforehand, so no time left); only on
    a terminal."""

    def __init__(self, what: str, every: float = 1.0):
        self.what, self.every = what, every
        self.paused = False  # set while a route shows its own progress (rate and time left)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        t0 = time.monotonic()
        while not self._stop.wait(self.every):
            if not self.paused:
                status(f"{self.what}: {time.monotonic() - t0:,.0f} s")

    def __enter__(self):
        if is_terminal():
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            status(None)
