"""Safe, position-aware YAML loading for rulespecs.

API
---
``load_document(path, text=None, *, max_alias_nodes=MAX_ALIAS_NODES, max_depth=MAX_DEPTH) -> Document``
    Read *path* (or use *text*, ``str`` or UTF-8 ``bytes``, when given; *path* then only
    names the document in diagnostics), parse it as one YAML document and convert it to
    plain data.  Raises :class:`~compiler.spec.diagnostics.DiagnosticError` carrying
    every diagnostic found when the document cannot be used.  Schema validation is the
    caller's next step (:mod:`compiler.spec.validate`).

``Document``
    ``.path`` (str, as given), ``.text`` (decoded source, BOM removed), ``.data``,
    ``.position(pointer) -> (line, col)``, ``.key_position(pointer) -> (line, col)``,
    ``.has(pointer)``, ``.line_text(line)``, ``.coerced_keys`` and
    ``.diagnostic(pointer, message, ...)`` (a positioned :class:`Diagnostic`).

Data model
----------
``.data`` holds only ``dict`` (string keys, document order), ``list``, ``str``, ``int``,
``bool``, ``None`` and ``decimal.Decimal``:

* YAML floats become ``Decimal`` built from the literal text (``1.50`` ->
  ``Decimal("1.50")``; underscores and sexagesimal ``1:30.5`` are honoured), never
  ``float``.  ``.inf``/``.nan`` are errors (money must be finite).
* Timestamps/dates stay as the original string (``2010-04-10``).
* Otherwise YAML 1.1 scalar resolution applies as in ``yaml.safe_load`` (``yes`` is
  ``True``, ``0x1F`` is 31).
* Non-string scalar mapping keys become their *source text* (``1:`` -> ``"1"``,
  ``yes:`` -> ``"yes"``, ``1.50:`` -> ``"1.50"``); ``Document.coerced_keys`` maps the
  member's pointer to the value YAML would have given the key, so a later stage can
  warn (``Document.coercion_warnings()``).  Keys that are collections are errors.

Safety and limits (decisions)
-----------------------------
* Composition uses the ``yaml.SafeLoader`` composer over libyaml's events where they are
  PyYAML's own, over PyYAML's pure-Python parser everywhere else (``compiler.spec.reading``);
  objects are never constructed from tags (the node tree is converted here).  Only the standard JSON-like
  tags are accepted (``!!str !!int !!float !!bool !!null !!timestamp !!map !!seq``);
  any other tag (``!!python/object:...``, ``!!binary``, ``!!set``, ``!custom``) is an
  error at the tagged node.
* Duplicate keys (compared after key conversion, so ``1:`` and ``"1":`` collide) are
  errors at the second occurrence: ``duplicate key 'odds' (first defined at line 12)``.
  All of them are reported.
* Anchors and aliases are supported; every alias is expanded to an independent copy.
  Nodes produced by alias expansion are counted; more than ``MAX_ALIAS_NODES``
  (10,000) stops loading with an error at the alias being expanded (billion laughs).
  An alias to an enclosing anchor (a cycle) is an error.
* Merge keys (``<<: *base``) are **rejected** (error at the ``<<`` key): they hide
  where a field comes from, and positions/duplicate detection would be ambiguous.
* Nesting deeper than ``MAX_DEPTH`` (64) is an error; so are a file larger than
  ``MAX_FILE_BYTES``, more than ``MAX_NODES`` nodes (counted while composing: refused at
  once) and a number of more than ``MAX_NUMBER_DIGITS`` digits.  The limits live in
  :mod:`compiler.spec.limits`.
* Characters YAML forbids (control characters other than tab/LF/CR, lone
  surrogates, U+FFFE/U+FFFF) are reported all at once before parsing.
* Syntax errors become a single diagnostic at PyYAML's problem mark with a plain
  message (no traceback); tab characters get a dedicated message.
* Missing files, directories, unreadable files, UTF-16 files and invalid UTF-8 are
  diagnostics (all invalid UTF-8 sequences are listed, up to 20).

Positions
---------
``position(pointer)`` gives the 1-based (line, col) of the node at a JSON pointer:
the value node for scalars and flow collections (``[a, b]``, ``{x: 1}``) and for
sequence items; for a mapping member whose value is a *block* collection (which only
starts on a later line) the member's key.  An alias reports the position of the
``*alias`` itself.  A pointer that does not exist falls back to its nearest existing
ancestor (the root is at the document's first node, or 1:1 when empty).
``key_position(pointer)`` gives the key of a mapping member (for "unknown field"),
falling back to ``position``.

Speed and determinism: PyYAML's pure-Python reader is the reference, and libyaml's event
parser (about 8x faster) is used under the same Python composer only where it reads a text as
PyYAML does (``compiler.spec.reading``). The two disagree on real inputs (libyaml accepts
``[what? no]``, ``{text: Is it a tie? yes}`` and tabs used as separators; PyYAML rejects them), so
a text holding a tab, a ``?`` or an inner U+FEFF, a node written empty, and every text libyaml
refuses are read by PyYAML alone, and only a libyaml version compared with PyYAML is used: a spec
loads the same way on every machine, with libyaml or without (``tests/spec/test_yaml_readers.py``).
Aliases keep their positions (the composer is Python's in both). A 3,000-line spec loads in
about 0.2 s (see ``tests/spec/test_spec_loader.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .convert import Converter, convert_root
from .diagnostics import Diagnostic, DiagnosticError, parse_pointer, quote, split_lines
from .limits import MAX_ALIAS_NODES, MAX_DEPTH, MAX_FILE_BYTES
from .reading import check_characters, check_size, compose, decode, read_text

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "Document",
    "load_document",
    "quote",
]


# --------------------------------------------------------------------------- document


@dataclass
class Document:
    """A loaded YAML document: plain data plus the source positions of its nodes."""

    path: str
    text: str
    data: Any
    coerced_keys: dict[str, Any] = field(default_factory=dict)
    _positions: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _key_positions: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _lines: list[str] | None = field(default=None, repr=False)

    def has(self, pointer: str) -> bool:
        """Whether *pointer* names a node of the document."""
        return pointer in self._positions

    def position(self, pointer: str) -> tuple[int, int]:
        """1-based (line, col) of the node at *pointer* (nearest existing ancestor if missing)."""
        p = pointer
        while True:
            pos = self._positions.get(p)
            if pos is not None:
                return pos
            if p == "":
                return (1, 1)
            p = p.rsplit("/", 1)[0] if p.startswith("/") else ""

    def key_position(self, pointer: str) -> tuple[int, int]:
        """Position of the key of the mapping member at *pointer*; else :meth:`position`."""
        pos = self._key_positions.get(pointer)
        return pos if pos is not None else self.position(pointer)

    def line_text(self, line: int) -> str | None:
        """Source text of 1-based *line* (without its line break), or None."""
        if self._lines is None:
            self._lines = split_lines(self.text)
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1]
        return None

    def pointers(self) -> list[str]:
        """Every pointer that names a node, in document order."""
        return list(self._positions)

    def diagnostic(self, pointer: str, message: str, severity: str = "error", *,
                   at_key: bool = False, with_excerpt: bool = False) -> Diagnostic:
        """A :class:`Diagnostic` positioned at *pointer* (at its key when *at_key*)."""
        line, col = self.key_position(pointer) if at_key else self.position(pointer)
        excerpt = self.line_text(line) if with_excerpt else None
        return Diagnostic(self.path, line, col, severity, message, pointer, excerpt)

    def coercion_warnings(self) -> list[Diagnostic]:
        """Warnings for mapping keys that YAML did not read as strings (see ``coerced_keys``)."""
        out = []
        for ptr, original in self.coerced_keys.items():
            key = parse_pointer(ptr)[-1]
            kind = _json_type(original)
            out.append(self.diagnostic(
                ptr, f"key {quote(key)} is not a string in YAML ({kind}); it is read as the "
                     f"string {quote(key)} (quote it to be explicit)", "warning", at_key=True))
        return out


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, (float, Decimal)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


# --------------------------------------------------------------------------- entry point


def load_document(path: str | os.PathLike, text: str | bytes | None = None, *,
                  max_alias_nodes: int = MAX_ALIAS_NODES, max_depth: int = MAX_DEPTH) -> Document:
    """Load one YAML document safely; raise :class:`DiagnosticError` if it cannot be used.

    *path* names the document in diagnostics (``Document.path`` is ``str(path)``); it is
    read only when *text* is None.
    """
    spath = os.fspath(path) if not isinstance(path, str) else path
    if text is None:
        text = read_text(spath)
    elif isinstance(text, (bytes, bytearray)):
        check_size(spath, len(text))
        text = decode(spath, bytes(text))
    else:
        if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            check_size(spath, MAX_FILE_BYTES + 1)
    if text.startswith("\ufeff"):
        text = text[1:]
    return parse_document(spath, text, max_alias_nodes, max_depth)[0]


def parse_document(path: str, text: str, max_alias_nodes: int = MAX_ALIAS_NODES,
                   max_depth: int = MAX_DEPTH) -> tuple[Document, Any]:
    """The document of a decoded ``text`` and the YAML node tree it was converted from (one parse)."""
    check_characters(path, text)
    root = compose(path, text, max_depth)
    conv = Converter(path, max_alias_nodes, max_depth)
    data = convert_root(conv, root)
    if root is None:
        conv.positions[""] = (1, 1)
    if conv.diags:
        raise DiagnosticError(conv.diags)
    return Document(path=path, text=text, data=data, coerced_keys=conv.coerced,
                    _positions=conv.positions, _key_positions=conv.key_positions), root
