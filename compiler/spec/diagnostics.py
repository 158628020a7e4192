"""Diagnostics: positioned messages shared by every stage of the compiler.

A :class:`Diagnostic` is one message about one place in one file::

    >>> d = Diagnostic("rulespecs/567.yaml", 12, 5, "error", "unknown field 'odz'", "/paytables/war/odz")
    >>> d.format()
    "rulespecs/567.yaml:12:5: error: unknown field 'odz' [at /paytables/war/odz]"

``line`` and ``col`` are 1-based; ``col`` counts Unicode code points (a tab is one
column).  The `` [at <pointer>]`` suffix is printed only when ``pointer`` is not
``None``; the document root (pointer ``""``) prints as ``[at (root)]`` so that the
suffix is never empty.  :meth:`Diagnostic.format_with_excerpt` adds the source line
and a caret under the column, rustc/Catala style, for terminal output.

:class:`Diagnostics` collects messages (``.error()``, ``.warning()``, ``.note()``,
``.extend()``, each taking ``path, line, col, message``), answers ``.has_errors`` and returns them sorted stably by
``(path, line, col, message)`` with exact duplicates removed (``.sorted()``,
iteration, ``.to_json()``).

:class:`DiagnosticError` is raised by a stage that cannot continue; it carries the
list of diagnostics in ``.diagnostics`` and its ``str()`` is their formatted lines.

JSON pointers (RFC 6901) name places in a document: :func:`pointer_of` builds one
from a path tuple (``("a", 0, "b") -> "/a/0/b"``, escaping ``~`` as ``~0`` and ``/`` as
``~1``), :func:`parse_pointer` splits one back into (string) tokens and
:func:`escape_token` escapes a single token.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Iterable, Iterator, Sequence

__all__ = [
    "SEVERITIES",
    "Diagnostic",
    "DiagnosticError",
    "Diagnostics",
    "escape_token",
    "format_all",
    "parse_pointer",
    "pointer_of",
    "quote",
    "split_lines",
]

SEVERITIES = ("error", "warning", "note")

# YAML line breaks (YAML 1.1, as PyYAML counts lines): LF, CRLF, CR, NEL, LS, PS.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """Split *text* into lines the way the YAML reader numbers them."""
    return _LINE_BREAK.split(text)


# --------------------------------------------------------------------------- pointers


def escape_token(token: object) -> str:
    """Escape one reference token for a JSON pointer (RFC 6901: ``~`` -> ``~0``, ``/`` -> ``~1``)."""
    s = str(token)
    if "~" in s or "/" in s:
        s = s.replace("~", "~0").replace("/", "~1")
    return s


def pointer_of(path: Iterable[object]) -> str:
    """JSON pointer for a path of keys and indexes: ``("a", 0, "b") -> "/a/0/b"``; ``() -> ""``."""
    return "".join("/" + escape_token(t) for t in path)


def parse_pointer(pointer: str) -> list[str]:
    """Split a JSON pointer into unescaped tokens: ``"/a~1b/0" -> ["a/b", "0"]``; ``"" -> []``.

    Raises ``ValueError`` when the pointer is neither empty nor starts with ``/``.
    """
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"invalid JSON pointer {pointer!r}: must be empty or start with '/'")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


# --------------------------------------------------------------------------- diagnostic


def _caret_padding(prefix: str) -> str:
    """Whitespace that lines up under *prefix* on a terminal (keeps tabs, widens wide chars)."""
    out = []
    for ch in prefix:
        if ch == "\t":
            out.append("\t")
        elif unicodedata.combining(ch):
            continue
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            out.append("  ")
        else:
            out.append(" ")
    return "".join(out)


@dataclass(frozen=True)
class Diagnostic:
    """One message about one place: ``path:line:col: severity: message [at pointer]``."""

    path: str
    line: int
    col: int
    severity: str  # 'error' | 'warning' | 'note'
    message: str
    pointer: str | None = None
    excerpt: str | None = None  # the source line, when the producer chose to keep it

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, not {self.severity!r}")

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def format(self) -> str:
        """``path:line:col: severity: message`` plus `` [at /pointer]`` when a pointer is set."""
        text = f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message}"
        if self.pointer is not None:
            text += f" [at {self.pointer if self.pointer else '(root)'}]"
        return text

    def __str__(self) -> str:
        return self.format()

    def source_line(self, source_text: str | None = None) -> str | None:
        """The text of line ``self.line`` of *source_text* (or ``self.excerpt``), if available."""
        if source_text is None:
            return self.excerpt
        lines = split_lines(source_text)
        if 1 <= self.line <= len(lines):
            return lines[self.line - 1]
        return None

    def format_with_excerpt(self, source_text: str | None = None) -> str:
        """:meth:`format` followed by the source line and a caret under the column::

            spec.yaml:3:3: error: unknown field 'odz' (did you mean 'odds'?) [at /t/odz]
              |
            3 |   odz: 3 to 2
              |   ^

        Uses ``self.excerpt`` when *source_text* is not given; without either, it is
        just :meth:`format`.
        """
        head = self.format()
        line = self.source_line(source_text)
        if line is None:
            return head
        line = line.rstrip("\r\n")
        gutter = " " * len(str(self.line))
        col = max(1, self.col)
        pad = _caret_padding(line[: col - 1])
        return (
            f"{head}\n"
            f"{gutter} |\n"
            f"{self.line} | {line}\n"
            f"{gutter} | {pad}^"
        )

    def to_dict(self) -> dict:
        """Plain dict of all fields (for JSON output)."""
        return asdict(self)


def error_dicts(diagnostics: Iterable[Diagnostic]) -> list[dict]:
    """The errors among ``diagnostics`` in the command line's one JSON error shape (README):
    ``{"path", "line", "col", "message", "pointer"}``."""
    return [{"path": d.path, "line": d.line, "col": d.col, "message": d.message, "pointer": d.pointer}
            for d in diagnostics if d.is_error]


def _sort_key(d: Diagnostic) -> tuple:
    return (d.path, d.line, d.col, d.message)


class DiagnosticError(Exception):
    """A stage cannot continue; ``.diagnostics`` holds the reasons (sorted, errors first kept)."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = _dedupe_sorted(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics) or "unknown error")

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


def _dedupe_sorted(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    seen: set[Diagnostic] = set()
    unique = []
    for d in diagnostics:
        if d not in seen:
            seen.add(d)
            unique.append(d)
    unique.sort(key=_sort_key)  # stable: equal keys keep insertion order
    return unique


class Diagnostics:
    """Collector of diagnostics for one or more files.

    ``error``/``warning``/``note`` take the :class:`Diagnostic` fields in order
    (``path, line, col, message``, then keyword ``pointer``/``excerpt``).  Iteration,
    :meth:`sorted` and :meth:`to_json` give the messages sorted by
    ``(path, line, col, message)`` (stable) without exact duplicates.
    """

    def __init__(self, items: Iterable[Diagnostic] = ()):
        self._items: list[Diagnostic] = []
        self.extend(items)

    # -- adding
    def add(self, diagnostic: Diagnostic) -> Diagnostic:
        if not isinstance(diagnostic, Diagnostic):
            raise TypeError(f"expected Diagnostic, got {type(diagnostic).__name__}")
        self._items.append(diagnostic)
        return diagnostic

    def error(self, path: str, line: int, col: int, message: str, *,
              pointer: str | None = None, excerpt: str | None = None) -> Diagnostic:
        return self.add(Diagnostic(path, line, col, "error", message, pointer, excerpt))

    def warning(self, path: str, line: int, col: int, message: str, *,
                pointer: str | None = None, excerpt: str | None = None) -> Diagnostic:
        return self.add(Diagnostic(path, line, col, "warning", message, pointer, excerpt))

    def note(self, path: str, line: int, col: int, message: str, *,
             pointer: str | None = None, excerpt: str | None = None) -> Diagnostic:
        return self.add(Diagnostic(path, line, col, "note", message, pointer, excerpt))

    def extend(self, diagnostics: Iterable[Diagnostic] | "Diagnostics" | DiagnosticError) -> None:
        if isinstance(diagnostics, DiagnosticError):
            diagnostics = diagnostics.diagnostics
        for d in diagnostics:
            self.add(d)

    # -- querying
    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self._items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.sorted() if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.sorted() if d.severity == "warning"]

    def sorted(self) -> list[Diagnostic]:
        return _dedupe_sorted(self._items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.sorted())

    def __len__(self) -> int:
        return len(self.sorted())

    def __bool__(self) -> bool:
        return bool(self._items)

    def format(self) -> str:
        """All diagnostics, one formatted line each."""
        return "\n".join(d.format() for d in self.sorted())

    def to_json(self) -> list[dict]:
        """Sorted diagnostics as a list of plain dicts (JSON-serialisable)."""
        return [d.to_dict() for d in self.sorted()]

    def raise_if_errors(self) -> None:
        """Raise :class:`DiagnosticError` with everything collected if any error was collected."""
        if self.has_errors:
            raise DiagnosticError(self._items)

    def __repr__(self) -> str:
        return f"Diagnostics({len(self._items)} items, has_errors={self.has_errors})"


def format_all(diagnostics: Sequence[Diagnostic]) -> str:
    """Formatted lines of *diagnostics* in sorted order."""
    return "\n".join(d.format() for d in _dedupe_sorted(diagnostics))


def quote(value: object) -> str:
    """Quote a key or value for a message: ``odds`` -> ``'odds'`` (repr when it needs escaping)."""
    s = str(value)
    if "'" in s or "\\" in s or not s.isprintable():
        return repr(s)
    return f"'{s}'"
