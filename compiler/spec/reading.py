"""Reading a rulespec up to its YAML node tree: bytes decoded (UTF-8 only, every bad sequence
listed), size and forbidden characters checked, then composed with aliases kept as references (their
positions, the billion-laughs count) and syntax errors as one plain positioned message.
:mod:`compiler.spec.convert` turns the tree into data; the decisions are in
:mod:`compiler.spec.loader`'s docstring.

PyYAML's pure-Python reader is the reference. Its scanner and parser are most of the time of reading a
large rulespec (0.3 s of CPU for 670a), so a text is first read with libyaml's event parser (when
PyYAML has it, in a version compared: ``LIBYAML_COMPARED``) under the same Python composer. The
pure-Python reader reads it instead, and decides, wherever the two could differ: a text holding a tab,
a ``?`` or a U+FEFF inside it (libyaml takes a tab inside a plain scalar and a ``?`` inside a flow
collection that PyYAML refuses, and counts a U+FEFF inside a line differently), a node written empty
(an implicit null: libyaml places it at another column), and anything libyaml refuses or cannot read
(every error message is PyYAML's). Otherwise the two give the same tree: the same nodes, tags, values,
and the same line, column and character index of every node (a plain scalar's ``style`` is ``None`` in
both; a block collection's ``flow_style`` is falsy in both). ``tests/spec/test_yaml_readers.py`` holds
it over every YAML file of the project, a set of hand-written cases and a seeded mutation of them.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent, ScalarEvent
from yaml.nodes import Node
from yaml.resolver import Resolver

LIBYAML_COMPARED = ((0, 2, 6),)  # the libyaml versions tests/spec/test_yaml_readers.py held equal to PyYAML

try:
    from yaml._yaml import CParser as _CParser, get_version as _libyaml_version  # PyYAML built with libyaml
    if _libyaml_version() not in LIBYAML_COMPARED:  # pragma: no cover - another libyaml: read in Python
        _CParser = None
except ImportError:  # pragma: no cover - PyYAML without libyaml reads every text in Python
    _CParser = None

from .diagnostics import Diagnostic, DiagnosticError, split_lines
from .limits import MAX_FILE_BYTES, MAX_NODES

MAX_ENCODING_ERRORS = 20
MAX_CHARACTER_ERRORS = 20

_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE
_PYTHON_ONLY = re.compile("[\t?\ufeff]")  # where libyaml and PyYAML may read a text differently


# --------------------------------------------------------------------------- reading


def _line_col_of_index(text: str, index: int) -> tuple[int, int]:
    """1-based (line, col) of character *index* in *text*, counting YAML line breaks."""
    prefix = text[:index]
    lines = split_lines(prefix)
    return len(lines), len(lines[-1]) + 1


def decode(path: str, raw: bytes) -> str:
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


def read_text(path: str) -> str:
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
    check_size(path, len(raw))
    return decode(path, raw)


def check_size(path: str, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise DiagnosticError([Diagnostic(path, 1, 1, "error",
                                          f"file is larger than {MAX_FILE_BYTES:,} bytes, the limit for a rulespec "
                                          f"(docs/spec-format.md, Limits)")])


def check_characters(path: str, text: str) -> None:
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


class AliasRef:
    """Stands for an ``*alias`` in the node tree (the Python composer keeps its mark)."""

    __slots__ = ("node", "anchor", "start_mark")

    def __init__(self, node: Node, anchor: str, start_mark):
        self.node = node
        self.anchor = anchor
        self.start_mark = start_mark


class _TooManyNodes(Exception):
    def __init__(self, mark):
        self.mark = mark


class _Counting:
    """A composer that records aliases as :class:`AliasRef` and stops at the ``MAX_NODES``-th node."""

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
                return AliasRef(self.anchors[event.anchor], event.anchor, event.start_mark)
        return Composer.compose_node(self, parent, index)


class _PySafeComposer(_Counting, yaml.SafeLoader):
    """PyYAML's pure-Python safe loader under the counting composer: the reference reader."""


class _Unsure(Exception):
    """libyaml's reading is not taken: the pure-Python reader reads the text."""


if _CParser is not None:
    class _LibyamlComposer(_Counting, _CParser, Composer, Resolver):
        """libyaml's events under the same Python composer (its own C composer is bypassed)."""

        get_single_node = Composer.get_single_node

        def __init__(self, text: str):
            _CParser.__init__(self, text)
            Composer.__init__(self)
            Resolver.__init__(self)

        def compose_node(self, parent, index):
            if self.check_event(ScalarEvent):
                event = self.peek_event()
                if event.value == "" and not event.style:  # written empty: PyYAML places it elsewhere
                    raise _Unsure
            return super().compose_node(parent, index)

        def compose_scalar_node(self, anchor):
            node = Composer.compose_scalar_node(self, anchor)
            node.style = node.style or None  # a plain scalar: None in PyYAML, '' in libyaml
            return node


def _compose_libyaml(text: str) -> Node | None:
    """The node tree as libyaml reads it; :class:`_Unsure` wherever the pure-Python reader must decide."""
    if _CParser is None or _PYTHON_ONLY.search(text):
        raise _Unsure
    loader = _LibyamlComposer(text)
    try:
        return loader.get_single_node()
    except Exception as e:  # noqa: BLE001 - whatever libyaml refuses, PyYAML reads again and words
        raise _Unsure from e
    finally:
        loader.dispose()


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
    if isinstance(e, yaml.reader.ReaderError):  # normally caught by check_characters
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


def compose(path: str, text: str, max_depth: int) -> Node | None:
    try:
        return _compose_libyaml(text)
    except _Unsure:
        pass
    return compose_python(path, text, max_depth)


def compose_python(path: str, text: str, max_depth: int) -> Node | None:
    """The node tree as PyYAML's pure-Python reader reads it; every syntax error positioned."""
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
