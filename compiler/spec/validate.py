"""JSON Schema validation of a loaded rulespec, with positioned, readable diagnostics.

API
---
``schema_diagnostics(doc: Document, schema: dict) -> list[Diagnostic]``
    Validate ``doc.data`` with ``jsonschema.Draft202012Validator`` (all errors, via
    ``iter_errors``) and turn every error into a :class:`Diagnostic` positioned at the
    offending node.  Deduplicated and sorted by (line, col, message).
``validate_document(doc, schema) -> list[Diagnostic]``
    Same, but raises :class:`DiagnosticError` when there is any error.
``load_schema(path) -> dict``
    Read a JSON schema (floats as ``Decimal``), check it against the 2020-12
    meta-schema and cache it (keyed by resolved path, mtime and size).  Raises
    :class:`DiagnosticError` for a missing/invalid file or an invalid schema.
``check_schema(schema, path="<schema>", text=None) -> list[Diagnostic]``
    Meta-schema errors for *schema* (positioned when *text*, the schema's JSON
    source, is given).
``suggest(word, candidates) -> str | None``
    The closest candidate within edit distance 2 (Damerau), for "did you mean".

Messages
--------
* ``required``: ``missing required field 'cite'`` (at the object).
* ``additionalProperties``/``unevaluatedProperties`` false: ``unknown field 'odz'``
  at the key, plus `` (did you mean 'odds'?)`` when a field the schema declares and
  the object lacks is within edit distance 2.
* A property whose schema is ``false``: ``field 'x' is not allowed`` (at the key).
* ``type``: ``expected string, got integer`` (JSON type names).
* ``enum``/``const``: ``expected one of 'a', 'b', got 'c'`` (+ did you mean).
* ``pattern``: uses the subschema's ``x-message`` or ``description`` when present.
* ``oneOf``/``anyOf``: the best sub-error (``jsonschema.exceptions.best_match``), or
  the subschema's ``x-message`` when it has one.
* A subschema's ``x-message`` replaces the message of any value-level keyword failing
  in it (``type``, ``pattern``, ``enum``, ``minimum`` ...) and is followed by
  `` (got <value>)`` for scalar values.
* Others: short forms (``must be >= 0, got -1``, ``must not be empty`` ...) or
  jsonschema's message with ``Decimal('1.5')`` shown as ``1.5``.

Numbers: loaded YAML floats are ``decimal.Decimal``; jsonschema's type checker counts
any ``numbers.Number`` as "number" (and integral values as "integer" only when they
are ``int``; a Decimal such as ``2`` from ``2.0`` is a number, not an integer), and
``bool`` is never a number.  Schema floats are converted to ``Decimal`` (from their
repr) so that ``multipleOf``/``minimum``/``enum`` work exactly with Decimal data.
"""

from __future__ import annotations

import ast
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterable

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match, relevance

from .diagnostics import Diagnostic, DiagnosticError, escape_token, parse_pointer, pointer_of
from .loader import Document, _json_type, load_document, quote

__all__ = [
    "check_schema",
    "load_schema",
    "schema_diagnostics",
    "suggest",
    "validate_document",
]

# --------------------------------------------------------------------------- helpers


def _osa_distance(a: str, b: str, limit: int = 3) -> int:
    """Optimal-string-alignment (Damerau) distance, capped at *limit*."""
    if abs(len(a) - len(b)) >= limit:
        return limit
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return min(prev[len(b)], limit)


def suggest(word: str, candidates: Iterable[str], max_distance: int = 2) -> str | None:
    """Closest candidate within *max_distance* edits (and fewer edits than len(word))."""
    best: tuple[int, str] | None = None
    for c in candidates:
        if not isinstance(c, str) or c == word:
            continue
        d = _osa_distance(word, c, max_distance + 1)
        if d <= max_distance and d < len(word) and (best is None or (d, c) < best):
            best = (d, c)
    return best[1] if best else None


def _fmt(value: Any, limit: int = 60) -> str:
    """A value as it appears in a message (YAML/JSON-ish)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal, float)):
        return str(value)
    if isinstance(value, str):
        if len(value) > limit:
            value = value[: limit - 1] + "\u2026"
        return quote(value)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return repr(value)


def _fmt_list(values: list, limit: int = 15) -> str:
    shown = ", ".join(_fmt(v) for v in values[:limit])
    if len(values) > limit:
        shown += f", ... ({len(values)} values)"
    return shown


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


_DECIMAL_REPR = re.compile(r"Decimal\('([^']*)'\)")


def _clean(message: str) -> str:
    return _DECIMAL_REPR.sub(r"\1", message)


def _canon(value: Any) -> Any:
    """Hashable form with JSON equality (1 == 1.0, True != 1)."""
    if isinstance(value, bool):
        return ("b", value)
    if value is None:
        return ("z",)
    if isinstance(value, (int, float, Decimal)):
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("l", tuple(_canon(v) for v in value))
    if isinstance(value, dict):
        return ("d", frozenset((k, _canon(v)) for k, v in value.items()))
    return ("o", repr(value))


def _resolve(data: Any, pointer: str) -> Any:
    for token in parse_pointer(pointer):
        if isinstance(data, dict):
            data = data.get(token)
        elif isinstance(data, list):
            try:
                data = data[int(token)]
            except (ValueError, IndexError):
                return None
        else:
            return None
    return data


# --------------------------------------------------------------------------- schema prep

_DATA_KEYWORDS = frozenset({"const", "enum", "default", "examples"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties"})
_FORBIDDEN = "x-rulespec-forbidden"


def _prepare(node: Any, in_data: bool = False) -> Any:
    """Deep copy of a schema: floats -> Decimal(repr); ``false`` property schemas ->
    ``{"not": {}, x-rulespec-forbidden: true}`` (jsonschema drops the path of errors
    from a false schema, so the offending field could not be located)."""
    if isinstance(node, float):
        return Decimal(repr(node))
    if isinstance(node, list):
        return [_prepare(v, in_data) for v in node]
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            data = in_data or k in _DATA_KEYWORDS
            if not data and k in _SCHEMA_MAPS and isinstance(v, dict):
                out[k] = {name: ({"not": {}, _FORBIDDEN: True} if sub is False else _prepare(sub))
                          for name, sub in v.items()}
            else:
                out[k] = _prepare(v, data)
        return out
    return node


def ecma_pattern(pattern: str) -> str:
    """*pattern* for Python's ``re`` with JSON Schema's (ECMA-262) meaning of ``$``: the end of the
    text only. Python's ``$`` also matches before a final line break, so ``^[0-9]{4}-[0-9]{2}-[0-9]{2}$``
    accepted ``"2025-07-01\\n"`` and a one-line pattern a name ending in a newline. Every ``$``
    outside a character class and not escaped becomes ``\\Z``."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        elif ch == "$" and not in_class:
            ch = "\\Z"
        out.append(ch)
        i += 1
    return "".join(out)


_PATTERNS: dict[str, "re.Pattern[str]"] = {}


def _pattern_keyword(validator, pattern, instance, schema):
    if not validator.is_type(instance, "string"):
        return
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(ecma_pattern(pattern))
    if not compiled.search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# Draft 2020-12 with ``pattern`` as JSON Schema means it (see ecma_pattern)
_Validator = validators.extend(Draft202012Validator, {"pattern": _pattern_keyword})

_VALIDATORS: dict[int, tuple[Any, Draft202012Validator]] = {}
_MAX_CACHED_VALIDATORS = 32


def _validator(schema: dict) -> Draft202012Validator:
    hit = _VALIDATORS.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    validator = _Validator(_prepare(schema))
    if len(_VALIDATORS) >= _MAX_CACHED_VALIDATORS:
        _VALIDATORS.pop(next(iter(_VALIDATORS)))
    _VALIDATORS[id(schema)] = (schema, validator)  # keeps schema alive so the id stays valid
    return validator


# --------------------------------------------------------------------------- error mapping

_STRUCTURAL = frozenset({
    "required", "additionalProperties", "unevaluatedProperties", "dependentRequired",
    "properties", "patternProperties", "items", "prefixItems", "allOf", "$ref", "$dynamicRef",
})
_COMPARISONS = {"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}


class _Mapper:
    def __init__(self, doc: Document):
        self.doc = doc
        self.out: list[Diagnostic] = []

    def at(self, pointer: str, message: str, *, at_key: bool = False) -> None:
        self.out.append(self.doc.diagnostic(pointer, message, at_key=at_key))

    def map(self, err: ValidationError) -> None:
        ptr = pointer_of(err.absolute_path)
        kw = err.validator
        value = err.validator_value
        inst = err.instance
        schema = err.schema if isinstance(err.schema, dict) else {}
        xmsg = schema.get("x-message")
        propnames = "propertyNames" in err.absolute_schema_path

        if propnames and isinstance(inst, str):  # an error about a key, not a value
            key_ptr = f"{ptr}/{escape_token(inst)}"
            detail = (f"{xmsg}" if isinstance(xmsg, str) else
                      schema.get("description") if isinstance(schema.get("description"), str) else
                      _clean(err.message))
            self.at(key_ptr, f"invalid field name {quote(inst)}: {detail}", at_key=True)
            return

        if isinstance(xmsg, str) and kw not in _STRUCTURAL:
            self.at(ptr, f"{xmsg} (got {_fmt(inst)})" if _is_scalar(inst) else xmsg)
            return

        if kw in ("oneOf", "anyOf"):
            fields = _alternative_fields(value)
            if fields and isinstance(inst, dict):  # alternatives that differ only by which field is given
                given = [f for f in fields if f in inst]
                names = " or ".join(quote(f) for f in fields)
                self.at(ptr, f"give only one of the fields {names}" if given else f"missing one of the fields {names}")
            elif err.context:
                self.map(_best_alternative(err))
            else:
                self.at(ptr, f"value matches more than one alternative ({kw})")
            return

        handler = getattr(self, "kw_" + (kw or "false"), None)
        if handler is not None:
            if handler(err, ptr, value, inst, schema) is not False:
                return
        self.at(ptr, _clean(err.message))

    # -- object structure
    def kw_required(self, err, ptr, value, inst, schema):
        if not isinstance(inst, dict):
            return False
        for name in value:
            if name not in inst:
                self.at(ptr, f"missing required field {quote(name)}")

    def kw_dependentRequired(self, err, ptr, value, inst, schema):
        if not isinstance(inst, dict):
            return False
        for prop, deps in value.items():
            if prop in inst:
                for dep in deps:
                    if dep not in inst:
                        self.at(ptr, f"missing field {quote(dep)} (required when {quote(prop)} is present)")

    def _unknown(self, ptr: str, inst: dict, extras: Iterable[str], schema: dict) -> None:
        known = [k for k in _declared_properties(schema) if k not in inst]
        for extra in extras:
            msg = f"unknown field {quote(extra)}"
            hint = suggest(extra, known)
            if hint is not None:
                msg += f" (did you mean {quote(hint)}?)"
            elif any(c in extra for c in "()"):  # the rest of a rule cut at a comma
                msg += (": a comma inside a {...} mapping ends the value, so a rule with a comma, such as "
                        "'picked(W, dice.total)', is cut there; put the whole rule in quotes")
            self.at(f"{ptr}/{escape_token(extra)}", msg, at_key=True)

    def kw_additionalProperties(self, err, ptr, value, inst, schema):
        if value is not False or not isinstance(inst, dict):
            return False
        props = schema.get("properties", {})
        patterns = list(schema.get("patternProperties", {}))
        extras = [k for k in inst if k not in props and not any(re.search(ecma_pattern(p), k) for p in patterns)]
        if not extras:
            return False
        self._unknown(ptr, inst, extras, schema)

    def kw_unevaluatedProperties(self, err, ptr, value, inst, schema):
        if not isinstance(inst, dict):
            return False
        m = re.search(r"\((.*) (?:was|were) unexpected\)$", err.message, re.S)
        if value is not False or m is None:
            return False
        try:
            extras = ast.literal_eval("[" + m.group(1) + "]")
        except (ValueError, SyntaxError):
            return False
        self._unknown(ptr, inst, [e for e in extras if isinstance(e, str)], schema)

    def kw_not(self, err, ptr, value, inst, schema):
        if schema.get(_FORBIDDEN):
            tokens = parse_pointer(ptr)
            name = tokens[-1] if tokens else ""
            self.at(ptr, f"field {quote(name)} is not allowed here", at_key=True)
            return
        desc = schema.get("description")
        self.at(ptr, f"{_fmt(inst)} is not allowed here" + (f" ({desc})" if isinstance(desc, str) else ""))

    def kw_false(self, err, ptr, value, inst, schema):
        self.at(ptr, "no value is allowed here")

    # -- values
    def kw_type(self, err, ptr, value, inst, schema):
        types = value if isinstance(value, list) else [value]
        self.at(ptr, f"expected {' or '.join(types)}, got {_json_type(inst)}")

    def kw_enum(self, err, ptr, value, inst, schema):
        msg = f"expected one of {_fmt_list(list(value))}, got {_fmt(inst)}"
        if isinstance(inst, str):
            hint = suggest(inst, [v for v in value if isinstance(v, str)])
            if hint is not None:
                msg += f" (did you mean {quote(hint)}?)"
        self.at(ptr, msg)

    def kw_const(self, err, ptr, value, inst, schema):
        self.at(ptr, f"expected {_fmt(value)}, got {_fmt(inst)}")

    def kw_pattern(self, err, ptr, value, inst, schema):
        desc = schema.get("description")
        if isinstance(desc, str) and desc:
            self.at(ptr, f"{_fmt(inst)} does not match the expected form: {desc}")
        else:
            self.at(ptr, f"{_fmt(inst)} does not match the pattern '{value}'")

    def kw_format(self, err, ptr, value, inst, schema):
        self.at(ptr, f"{_fmt(inst)} is not a valid {value}")

    def _compare(self, err, ptr, value, inst, schema):
        self.at(ptr, f"must be {_COMPARISONS[err.validator]} {value}, got {_fmt(inst)}")

    kw_minimum = kw_maximum = kw_exclusiveMinimum = kw_exclusiveMaximum = _compare

    def kw_multipleOf(self, err, ptr, value, inst, schema):
        self.at(ptr, f"must be a multiple of {value}, got {_fmt(inst)}")

    def kw_minLength(self, err, ptr, value, inst, schema):
        if value == 1 and inst == "":
            self.at(ptr, "must not be empty")
        else:
            self.at(ptr, f"must be at least {value} characters long, got {len(inst)}")

    def kw_maxLength(self, err, ptr, value, inst, schema):
        self.at(ptr, f"must be at most {value} characters long, got {len(inst)}")

    def kw_minItems(self, err, ptr, value, inst, schema):
        if value == 1 and inst == []:
            self.at(ptr, "must not be empty")
        else:
            self.at(ptr, f"must have at least {value} items, got {len(inst)}")

    def kw_maxItems(self, err, ptr, value, inst, schema):
        self.at(ptr, f"must have at most {value} items, got {len(inst)}")

    def kw_minProperties(self, err, ptr, value, inst, schema):
        self.at(ptr, "must not be empty" if value == 1 and inst == {} else
                f"must have at least {value} fields, got {len(inst)}")

    def kw_maxProperties(self, err, ptr, value, inst, schema):
        self.at(ptr, f"must have at most {value} fields, got {len(inst)}")

    def kw_uniqueItems(self, err, ptr, value, inst, schema):
        if not isinstance(inst, list):
            return False
        seen: dict[Any, int] = {}
        for i, item in enumerate(inst):
            c = _canon(item)
            if c in seen:
                self.at(f"{ptr}/{i}", f"duplicate item {_fmt(item)} (same as item {seen[c]}); items must be unique")
            else:
                seen[c] = i


_UNINFORMATIVE = frozenset({"const", "enum", "not", None})


def _alternative_fields(alternatives) -> list[str]:
    """The fields of alternatives that each only require one field (``[{required: [hand]}, {required:
    [value]}]``), else none."""
    if not isinstance(alternatives, list) or not all(
            isinstance(a, dict) and set(a) == {"required"} and len(a["required"]) == 1 for a in alternatives):
        return []
    return [a["required"][0] for a in alternatives]


def _best_alternative(err: ValidationError) -> ValidationError:
    """The sub-error of a failed oneOf/anyOf to report: ``best_match``'s choice; when its
    relevance heuristic ties (it then returns the oneOf error itself), the most specific
    sub-error, preferring e.g. a ``pattern`` failure over "expected 'Push'"."""
    best = best_match([err])
    if best is not err:
        return best
    return min(err.context, key=lambda e: (relevance(e), e.validator in _UNINFORMATIVE))


def _declared_properties(schema: dict) -> list[str]:
    """Property names a schema declares, including its in-place allOf/anyOf/oneOf/if/then/else."""
    names: list[str] = []
    stack = [schema]
    while stack:
        s = stack.pop()
        if not isinstance(s, dict):
            continue
        names.extend(k for k in s.get("properties", {}) if k not in names)
        for k in ("allOf", "anyOf", "oneOf"):
            stack.extend(s.get(k, []) if isinstance(s.get(k), list) else [])
        for k in ("if", "then", "else"):
            if isinstance(s.get(k), dict):
                stack.append(s[k])
    return names


# --------------------------------------------------------------------------- API


def _sorted_unique(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.line, d.col, d.severity, d.message, d.pointer)
        if key not in seen:
            seen.add(key)
            out.append(d)
    out.sort(key=lambda d: (d.line, d.col, d.message))
    return out


def schema_diagnostics(doc: Document, schema: dict) -> list[Diagnostic]:
    """All schema errors of *doc* as positioned diagnostics, deduplicated, sorted by position."""
    mapper = _Mapper(doc)
    for err in _validator(schema).iter_errors(doc.data):
        mapper.map(err)
    return _sorted_unique(mapper.out)


def validate_document(doc: Document, schema: dict) -> list[Diagnostic]:
    """:func:`schema_diagnostics`, raising :class:`DiagnosticError` when any is an error."""
    diags = schema_diagnostics(doc, schema)
    if any(d.is_error for d in diags):
        raise DiagnosticError(diags)
    return diags


def check_schema(schema: Any, path: str = "<schema>", text: str | None = None) -> list[Diagnostic]:
    """Errors of *schema* against the JSON Schema 2020-12 meta-schema."""
    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    errors = list(meta.iter_errors(schema))
    doc: Document | None = None
    if text is not None and errors:  # positions only where there is an error to place (start-up time)
        try:
            doc = load_document(path, text)  # JSON is YAML: reuse the positions
        except DiagnosticError:
            doc = None
    out = []
    for err in errors:
        err = best_match([err])
        ptr = pointer_of(err.absolute_path)
        line, col = doc.position(ptr) if doc is not None else (1, 1)
        out.append(Diagnostic(path, line, col, "error", f"invalid schema: {_clean(err.message)}", ptr))
    return _sorted_unique(out)


_SCHEMAS: dict[str, tuple[tuple[int, int], dict]] = {}


def _meta_key(text: str) -> str:
    import hashlib

    return "meta-checked-2020-12-" + hashlib.sha256(text.encode()).hexdigest()


def _checked_before(text: str) -> bool:
    """True when a schema of exactly this text passed the meta-schema check before (an entry of the build
    cache, compiler/cache.py): the check costs a process a few tenths of a second (docs/speed.md)."""
    from compiler import cache

    return cache.enabled() and cache.load(_meta_key(text)) == (True, True)


def _remember_checked(text: str) -> None:
    from compiler import cache

    if cache.enabled():
        cache.store(_meta_key(text), True)


def load_schema(path: str | Path) -> dict:
    """Load, meta-check and cache a JSON schema file (floats are read as Decimal).

    The returned dict is shared between callers: do not mutate it.
    """
    spath = str(path)
    p = Path(path)
    try:
        st = p.stat()
        key = str(p.resolve())
    except OSError:
        raise DiagnosticError([Diagnostic(spath, 1, 1, "error", "schema file not found")]) from None
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _SCHEMAS.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise DiagnosticError([Diagnostic(spath, 1, 1, "error", f"cannot read schema: {e}")]) from None
    try:
        schema = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as e:
        raise DiagnosticError([Diagnostic(spath, e.lineno, e.colno, "error",
                                          f"invalid JSON: {e.msg}")]) from None
    if not _checked_before(text):
        problems = check_schema(schema, spath, text)
        if problems:
            raise DiagnosticError(problems)
        _remember_checked(text)
    _SCHEMAS[key] = (stamp, schema)
    return schema
