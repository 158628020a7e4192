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
* Composition uses the pure-Python ``yaml.SafeLoader`` composer; objects are never
  constructed from tags (the node tree is converted here).  Only the standard JSON-like
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

Speed and determinism: only PyYAML's pure-Python composer is used, never libyaml
(``CSafeLoader``), although libyaml is about 6x faster.  The two disagree on real
inputs (libyaml accepts ``[what? no]``, ``{text: Is it a tie? yes}`` and tabs used as
separators; PyYAML rejects them) and a spec must load the same way on every machine;
aliases also need the Python composer to keep their positions.  A 3,000-line spec loads in
about 0.2 s (see ``tests/spec/test_spec_loader.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .diagnostics import Diagnostic, DiagnosticError, escape_token, parse_pointer, split_lines

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "Document",
    "load_document",
    "quote",
]

from .limits import MAX_ALIAS_NODES, MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_NUMBER_DIGITS  # noqa: E402
MAX_ENCODING_ERRORS = 20
MAX_CHARACTER_ERRORS = 20

_T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = _T + "str", _T + "int", _T + "float", _T + "bool", _T + "null"
TIMESTAMP, MAP, SEQ, MERGE, VALUE = _T + "timestamp", _T + "map", _T + "seq", _T + "merge", _T + "value"

_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE



def quote(value: object) -> str:
    """Quote a key or value for a message: ``odds`` -> ``'odds'`` (repr when it needs escaping)."""
    s = str(value)
    if "'" in s or "\\" in s or not s.isprintable():
        return repr(s)
    return f"'{s}'"


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag


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


# --------------------------------------------------------------------------- reading


def _line_col_of_index(text: str, index: int) -> tuple[int, int]:
    """1-based (line, col) of character *index* in *text*, counting YAML line breaks."""
    prefix = text[:index]
    lines = split_lines(prefix)
    return len(lines), len(lines[-1]) + 1


def _decode(path: str, raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DiagnosticError([Diagnostic(
            path, 1, 1, "error", "file is UTF-16 encoded; rulespecs must be UTF-8")])
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    diags = []
    start = 0
    while len(diags) < MAX_ENCODING_ERRORS:
        try:
            raw[start:].decode("utf-8")
            break
        except UnicodeDecodeError as e:
            bad = start + e.start
            line_start = raw.rfind(b"\n", 0, bad) + 1
            line = raw.count(b"\n", 0, bad) + 1
            col = len(raw[line_start:bad].decode("utf-8", errors="replace")) + 1
            byte = raw[bad]
            diags.append(Diagnostic(path, line, col, "error",
                                    f"invalid UTF-8 byte 0x{byte:02x} ({e.reason}); "
                                    f"rulespecs must be UTF-8"))
            start = start + e.end
    raise DiagnosticError(diags)


def _read(path: str) -> str:
    p = Path(path)
    try:
        if p.is_dir():
            raise IsADirectoryError(path)
        with p.open("rb") as f:  # never more than the limit, whatever the file is (a FIFO, /dev/zero)
            raw = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise DiagnosticError([Diagnostic(path, 1, 1, "error", "file not found")]) from None
    except IsADirectoryError:
        raise DiagnosticError([Diagnostic(path, 1, 1, "error", "is a directory, not a file")]) from None
    except PermissionError:
        raise DiagnosticError([Diagnostic(path, 1, 1, "error", "permission denied")]) from None
    except OSError as e:
        raise DiagnosticError([Diagnostic(path, 1, 1, "error",
                                          f"cannot read file: {e.strerror or e}")]) from None
    _check_size(path, len(raw))
    return _decode(path, raw)


def _check_size(path: str, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise DiagnosticError([Diagnostic(path, 1, 1, "error",
                                          f"file is larger than {MAX_FILE_BYTES:,} bytes, the limit for a rulespec "
                                          f"(docs/spec-format.md, Limits)")])


def _check_characters(path: str, text: str) -> None:
    diags = []
    for m in _NON_PRINTABLE.finditer(text):
        line, col = _line_col_of_index(text, m.start())
        diags.append(Diagnostic(path, line, col, "error",
                                f"invalid character U+{ord(m.group()):04X} "
                                f"(control and special characters are not allowed in YAML)"))
        if len(diags) >= MAX_CHARACTER_ERRORS:
            break
    if diags:
        raise DiagnosticError(diags)


# --------------------------------------------------------------------------- composing


class _AliasRef:
    """Stands for an ``*alias`` in the node tree (the Python composer keeps its mark)."""

    __slots__ = ("node", "anchor", "start_mark")

    def __init__(self, node: Node, anchor: str, start_mark):
        self.node = node
        self.anchor = anchor
        self.start_mark = start_mark


class _TooManyNodes(Exception):
    def __init__(self, mark):
        self.mark = mark


class _PySafeComposer(yaml.SafeLoader):
    """Pure-Python safe loader whose composer records aliases as :class:`_AliasRef` and stops
    at the ``MAX_NODES``-th node."""

    max_nodes = MAX_NODES
    nodes = 0

    def compose_node(self, parent, index):
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _TooManyNodes(self.peek_event().start_mark)
        if self.check_event(AliasEvent):
            event = self.peek_event()
            if event.anchor in self.anchors:
                self.get_event()
                return _AliasRef(self.anchors[event.anchor], event.anchor, event.start_mark)
        return super().compose_node(parent, index)


def _syntax_message(e: yaml.MarkedYAMLError) -> str:
    problem = (e.problem or "").strip()
    context = (e.context or "").strip()
    cm = e.context_mark
    if "'\\t'" in problem or "tab character" in problem:
        return "tab character is not allowed here (YAML indentation and separation use spaces)"
    if problem.startswith("found character '") and problem.endswith("' that cannot start any token"):
        ch = problem[len("found character "):-len(" that cannot start any token")]
        return f"character {ch} cannot start a value here (put the value in quotes)"
    if context.startswith("found duplicate anchor") and cm is not None:
        name = context[len("found duplicate anchor "):].split(";")[0]
        return f"duplicate anchor {name} (first defined at line {cm.line + 1})"
    if problem.startswith("found undefined alias "):
        name = problem[len("found undefined alias "):].strip("'\"")
        return f"undefined alias '*{name}' (no anchor '&{name}' before it)"
    if problem.startswith("expected ',' or ") and problem.endswith("but got '?'"):
        return (f"{problem}: a '?' inside [...] or {{...}} must be in a quoted string "
                f"(PyYAML reads it as a key indicator)")
    if problem == "but found another document":
        return "expected a single YAML document, but found another document ('---')"
    if problem == "expected <block end>, but found '<block mapping start>'" and cm is not None:
        return f"bad indentation: this line does not line up with the block started at line {cm.line + 1}"
    msg = problem or context or "invalid YAML"
    if problem and context and cm is not None:
        msg += f" ({context} started at line {cm.line + 1})"
    return msg


def _syntax_diagnostic(path: str, e: yaml.YAMLError) -> Diagnostic:
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return Diagnostic(path, line, col, "error", _syntax_message(e))
    if isinstance(e, yaml.reader.ReaderError):  # normally caught by _check_characters
        return Diagnostic(path, 1, 1, "error", f"invalid character #x{e.character:04x}")
    return Diagnostic(path, 1, 1, "error", f"invalid YAML: {e}")


def _too_deep(path: str, text: str, max_depth: int) -> Diagnostic:
    """Find where nesting first exceeds *max_depth* with the (non-recursive) event parser."""
    depth = -1
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > max_depth:
                    m = event.start_mark
                    return Diagnostic(path, m.line + 1, m.column + 1, "error",
                                      f"nesting deeper than {max_depth} levels")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as e:
        return _syntax_diagnostic(path, e)
    return Diagnostic(path, 1, 1, "error", "document is nested too deeply")


def _compose_python(path: str, text: str, max_depth: int) -> Node | None:
    loader = _PySafeComposer(text)
    try:
        return loader.get_single_node()
    except yaml.YAMLError as e:
        raise DiagnosticError([_syntax_diagnostic(path, e)]) from None
    except _TooManyNodes as e:
        raise DiagnosticError([Diagnostic(path, e.mark.line + 1, e.mark.column + 1, "error",
                                          f"more than {MAX_NODES:,} YAML nodes, the limit for a rulespec "
                                          f"(docs/spec-format.md, Limits)")]) from None
    except RecursionError:
        pass
    finally:
        loader.dispose()
    raise DiagnosticError([_too_deep(path, text, max_depth)])


# --------------------------------------------------------------------------- converting


def _fits_digits(value: Decimal) -> bool:
    """At most MAX_NUMBER_DIGITS digits before and after the point together (1e400 does not fit)."""
    if value.is_zero():
        return True
    t = value.normalize().as_tuple()
    before = max(len(t.digits) + t.exponent, 0)
    after = max(-t.exponent, 0)
    return before + after <= MAX_NUMBER_DIGITS


class _Abort(Exception):
    """Stop converting (a limit was hit); the diagnostic is already recorded."""


class _Converter:
    def __init__(self, path: str, max_alias_nodes: int, max_depth: int):
        self.path = path
        self.max_alias_nodes = max_alias_nodes
        self.max_depth = max_depth
        self.diags: list[Diagnostic] = []
        self.positions: dict[str, tuple[int, int]] = {}
        self.key_positions: dict[str, tuple[int, int]] = {}
        self.coerced: dict[str, Any] = {}
        self.alias_nodes = 0
        self.alias_stack: list[_AliasRef] = []
        self.active: set[int] = set()

    def error(self, mark, message: str, pointer: str | None) -> None:
        self.diags.append(Diagnostic(self.path, mark.line + 1, mark.column + 1, "error", message, pointer))

    # -- scalars
    def scalar(self, node: ScalarNode, pointer: str) -> Any:
        tag = node.tag
        if tag == STR:
            return node.value
        if tag == INT:
            if sum(ch.isdigit() for ch in node.value) > MAX_NUMBER_DIGITS:
                self.error(node.start_mark, f"number with more than {MAX_NUMBER_DIGITS} digits "
                                            f"(quote it if it is text)", pointer)
                return None
            try:
                value = _CONSTRUCTOR.construct_yaml_int(node)
            except (ValueError, IndexError):
                self.error(node.start_mark, f"invalid integer {quote(node.value)}", pointer)
                return None
            if abs(value) >= 10 ** MAX_NUMBER_DIGITS:  # 0x / 0o / sexagesimal forms
                self.error(node.start_mark, f"number with more than {MAX_NUMBER_DIGITS} digits "
                                            f"(quote it if it is text)", pointer)
                return None
            return value
        if tag == FLOAT:
            return self.decimal(node, pointer)
        if tag == BOOL:
            try:
                return _CONSTRUCTOR.construct_yaml_bool(node)
            except KeyError:
                self.error(node.start_mark, f"invalid boolean {quote(node.value)}", pointer)
                return None
        if tag == NULL:
            return None
        if tag in (TIMESTAMP, MERGE, VALUE):  # dates stay strings; a lone '<<' or '=' is text
            return node.value
        self.error(node.start_mark, f"unsupported YAML tag '{_short_tag(tag)}' "
                                    f"(only plain data is allowed in a rulespec)", pointer)
        return None

    def decimal(self, node: ScalarNode, pointer: str) -> Decimal | None:
        text = node.value.replace("_", "").strip()
        if text.lower().lstrip("+-") in (".inf", ".nan"):
            self.error(node.start_mark, f"non-finite number {quote(node.value)} is not allowed "
                                        f"(quote it if it is text)", pointer)
            return None
        try:
            if ":" in text:  # YAML 1.1 sexagesimal, e.g. 190:20:30.15
                sign = -1 if text.startswith("-") else 1
                value = Decimal(0)
                for part in text.lstrip("+-").split(":"):
                    value = value * 60 + Decimal(part)
                value = sign * value
            else:
                value = Decimal(text)
        except InvalidOperation:
            self.error(node.start_mark, f"invalid number {quote(node.value)}", pointer)
            return None
        if not value.is_finite():
            self.error(node.start_mark, f"non-finite number {quote(node.value)} is not allowed "
                                        f"(quote it if it is text)", pointer)
            return None
        if not _fits_digits(value):
            self.error(node.start_mark, f"number with more than {MAX_NUMBER_DIGITS} digits "
                                        f"(quote it if it is text)", pointer)
            return None
        return value

    # -- any node
    def convert(self, node: Any, pointer: str, depth: int, prefer_key: tuple[int, int] | None) -> Any:
        """Convert *node*; record its position (*prefer_key* for block collections)."""
        if isinstance(node, _AliasRef):
            mark = node.start_mark
            self.positions[pointer] = (mark.line + 1, mark.column + 1)
            target = node.node
            if id(target) in self.active:
                self.error(mark, f"recursive alias '*{node.anchor}' (it refers to an enclosing anchor)", pointer)
                return None
            self.alias_stack.append(node)
            try:
                return self.convert_node(target, pointer, depth, record=False)
            finally:
                self.alias_stack.pop()
        if prefer_key is not None and not isinstance(node, ScalarNode) and not node.flow_style:
            self.positions[pointer] = prefer_key
        else:
            self.positions[pointer] = (node.start_mark.line + 1, node.start_mark.column + 1)
        return self.convert_node(node, pointer, depth, record=True)

    def convert_node(self, node: Node, pointer: str, depth: int, record: bool) -> Any:
        if self.alias_stack:
            self.alias_nodes += 1
            if self.alias_nodes > self.max_alias_nodes:
                outer = self.alias_stack[0]
                self.error(outer.start_mark,
                           f"alias '*{outer.anchor}' expands the document beyond "
                           f"{self.max_alias_nodes} nodes (aliases must not build huge documents)",
                           None)
                raise _Abort
        if depth > self.max_depth:
            self.error(node.start_mark, f"nesting deeper than {self.max_depth} levels", None)
            raise _Abort
        if isinstance(node, ScalarNode):
            return self.scalar(node, pointer)
        if isinstance(node, SequenceNode):
            if node.tag != SEQ:
                self.error(node.start_mark, f"unsupported YAML tag '{_short_tag(node.tag)}' "
                                            f"(only plain data is allowed in a rulespec)", pointer)
                return None
            nid = id(node)
            self.active.add(nid)
            try:
                return [self.convert(item, f"{pointer}/{i}", depth + 1, None)
                        for i, item in enumerate(node.value)]
            finally:
                self.active.discard(nid)
        if isinstance(node, MappingNode):
            if node.tag != MAP:
                self.error(node.start_mark, f"unsupported YAML tag '{_short_tag(node.tag)}' "
                                            f"(only plain data is allowed in a rulespec)", pointer)
                return None
            nid = id(node)
            self.active.add(nid)
            try:
                return self.mapping(node, pointer, depth)
            finally:
                self.active.discard(nid)
        raise TypeError(f"unexpected node {node!r}")  # pragma: no cover

    def mapping(self, node: MappingNode, pointer: str, depth: int) -> dict:
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            key_mark = key_node.start_mark
            if isinstance(key_node, _AliasRef):
                key_node = key_node.node
            if not isinstance(key_node, ScalarNode):
                kind = "mapping" if isinstance(key_node, MappingNode) else "sequence"
                self.error(key_mark, f"mapping key must be a string, not a {kind}", pointer)
                continue
            if key_node.tag == MERGE:
                self.error(key_mark, "merge keys ('<<') are not supported; write the fields out "
                                     "or alias the whole mapping", pointer)
                continue
            if key_node.tag == STR:
                key = key_node.value
                original = key
            else:
                n_before = len(self.diags)
                original = self.scalar(key_node, pointer)
                if len(self.diags) > n_before:
                    continue
                key = key_node.value
            child = f"{pointer}/{escape_token(key)}"
            if key in first_line:
                self.error(key_mark, f"duplicate key {quote(key)} (first defined at line {first_line[key]})", child)
                continue
            first_line[key] = key_mark.line + 1
            if original is not key and not isinstance(original, str):
                self.coerced[child] = original
            key_pos = (key_mark.line + 1, key_mark.column + 1)
            self.key_positions[child] = key_pos
            result[key] = self.convert(value_node, child, depth + 1, key_pos)
        return result


# --------------------------------------------------------------------------- entry point


def load_document(path: str | os.PathLike, text: str | bytes | None = None, *,
                  max_alias_nodes: int = MAX_ALIAS_NODES, max_depth: int = MAX_DEPTH) -> Document:
    """Load one YAML document safely; raise :class:`DiagnosticError` if it cannot be used.

    *path* names the document in diagnostics (``Document.path`` is ``str(path)``); it is
    read only when *text* is None.
    """
    spath = os.fspath(path) if not isinstance(path, str) else path
    if text is None:
        text = _read(spath)
    elif isinstance(text, (bytes, bytearray)):
        _check_size(spath, len(text))
        text = _decode(spath, bytes(text))
    else:
        if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            _check_size(spath, MAX_FILE_BYTES + 1)
    if text.startswith("\ufeff"):
        text = text[1:]
    _check_characters(spath, text)

    root = _compose_python(spath, text, max_depth)
    conv = _Converter(spath, max_alias_nodes, max_depth)
    data = _run(conv, root)
    if root is None:
        conv.positions[""] = (1, 1)
    if conv.diags:
        raise DiagnosticError(conv.diags)
    return Document(path=spath, text=text, data=data, coerced_keys=conv.coerced,
                    _positions=conv.positions, _key_positions=conv.key_positions)


def _run(conv: _Converter, root: Node | None) -> Any:
    if root is None:
        return None
    try:
        return conv.convert(root, "", 0, None)
    except _Abort:
        return None
    except RecursionError:
        conv.diags.append(Diagnostic(conv.path, 1, 1, "error", "document is nested too deeply"))
        return None
