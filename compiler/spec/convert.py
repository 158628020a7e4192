"""A composed YAML node tree to plain data (``dict``, ``list``, ``str``, ``int``, ``bool``,
``None``, ``Decimal``) with the position of every node: the standard tags only, duplicate and
merge keys refused, aliases expanded within their limit, numbers within their digits. The
decisions are in :mod:`compiler.spec.loader`'s docstring."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .diagnostics import Diagnostic, escape_token, quote
from .limits import MAX_NUMBER_DIGITS
from .reading import AliasRef
from .text import join_surrogate_pairs, text_problem

_T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = _T + "str", _T + "int", _T + "float", _T + "bool", _T + "null"
TIMESTAMP, MAP, SEQ, MERGE, VALUE = _T + "timestamp", _T + "map", _T + "seq", _T + "merge", _T + "value"

_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag


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


class Converter:
    def __init__(self, path: str, max_alias_nodes: int, max_depth: int):
        self.path = path
        self.max_alias_nodes = max_alias_nodes
        self.max_depth = max_depth
        self.diags: list[Diagnostic] = []
        self.positions: dict[str, tuple[int, int]] = {}
        self.key_positions: dict[str, tuple[int, int]] = {}
        self.coerced: dict[str, Any] = {}
        self.alias_nodes = 0
        self.alias_stack: list[AliasRef] = []
        self.active: set[int] = set()

    def error(self, mark, message: str, pointer: str | None) -> None:
        self.diags.append(Diagnostic(self.path, mark.line + 1, mark.column + 1, "error", message, pointer))

    def text(self, mark, value: str, pointer: str | None) -> bool:
        """Whether *value* may enter as text (compiler/spec/text.py); else an error at *mark*."""
        problem = text_problem(value)
        if problem is not None:
            self.error(mark, problem, pointer)
            return False
        return True

    # -- scalars
    def scalar(self, node: ScalarNode, pointer: str) -> Any:
        tag = node.tag
        if tag == STR:
            value = join_surrogate_pairs(node.value)
            return value if self.text(node.start_mark, value, pointer) else None
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
        if isinstance(node, AliasRef):
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
            if isinstance(key_node, AliasRef):
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
                key = join_surrogate_pairs(key_node.value)
                original = key
                if not self.text(key_mark, key, pointer):
                    continue
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


def convert_root(conv: Converter, root: Node | None) -> Any:
    if root is None:
        return None
    try:
        return conv.convert(root, "", 0, None)
    except _Abort:
        return None
    except RecursionError:
        conv.diags.append(Diagnostic(conv.path, 1, 1, "error", "document is nested too deeply"))
        return None
