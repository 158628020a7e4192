"""Property tests: round trip through yaml.safe_dump, positions, fuzzing."""

from __future__ import annotations

from decimal import Decimal

import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from compiler.spec.diagnostics import Diagnostic, DiagnosticError, pointer_of
from compiler.spec.limits import MAX_NUMBER_DIGITS
from compiler.spec.loader import load_document
from compiler.spec.text import FORBIDDEN_IN_TEXT

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

def _digits_fit(f: float) -> bool:
    """At most MAX_NUMBER_DIGITS digits before and after the point together (fixed-point text)."""
    whole, _, frac = format(abs(Decimal(repr(f))), "f").partition(".")
    return len(whole.lstrip("0")) + len(frac.rstrip("0")) <= MAX_NUMBER_DIGITS


BOUND = 10 ** MAX_NUMBER_DIGITS
# text as it may enter: any character but the controls, lone surrogates and bidi overrides the loader
# refuses (compiler/spec/text.py; tested apart below)
texts = st.text(alphabet=st.characters(codec="utf-8").filter(lambda c: not FORBIDDEN_IN_TEXT.match(c)))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-BOUND + 1, max_value=BOUND - 1),
    st.floats(allow_nan=False, allow_infinity=False).filter(_digits_fit),
    texts,
)
data_strategy = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(texts, children, max_size=5),
    ),
    max_leaves=25,
)


def expected(value):
    """The loader's view of *value*: floats as Decimal of their repr."""
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, list):
        return [expected(v) for v in value]
    if isinstance(value, dict):
        return {k: expected(v) for k, v in value.items()}
    return value


def same(a, b) -> bool:
    """Equality that also distinguishes bool/int/Decimal and rejects floats."""
    if isinstance(a, float) or isinstance(b, float):
        return False
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


def dump(data, flow, allow_unicode) -> str:
    return yaml.safe_dump(data, default_flow_style=flow, allow_unicode=allow_unicode,
                          width=10**6, sort_keys=False)


@SETTINGS
@given(data_strategy, st.sampled_from([False, None, True]), st.booleans())
def test_round_trip_equals_data(data, flow, allow_unicode):
    text = dump(data, flow, allow_unicode)
    # PyYAML does not round-trip a few strings itself (e.g. a raw NEL U+0085 inside a
    # quoted scalar is read as a line break); those say nothing about the loader.
    try:
        assume(yaml.safe_load(text) == data)
    except yaml.YAMLError:
        assume(False)
    doc = load_document("h.yaml", text)
    assert same(doc.data, expected(data)), text


# -- positions: restricted alphabets so a key or value is recognisable in its line

keys = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
plain_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10**6, 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32).filter(_digits_fit),
    st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,10}[a-z]", fullmatch=True),
)
position_data = st.recursive(
    plain_scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=4)),
    max_leaves=20,
)


def scalar_token(value) -> str:
    return yaml.safe_dump(value, width=10**6).split("\n")[0]


def members(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from members(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from members(v, path + (i,))


def starts_with_key(rest: str, key: str) -> bool:
    return rest.startswith(key) or rest.startswith(f"'{key}'") or rest.startswith(f'"{key}"')


@SETTINGS
@given(position_data, st.sampled_from([False, None, True]))
def test_every_pointer_has_a_position_on_its_key_or_value(data, flow):
    text = dump(data, flow, True)
    doc = load_document("h.yaml", text)
    for path, value in members(data):
        ptr = pointer_of(path)
        assert doc.has(ptr)
        line, col = doc.position(ptr)
        rest = doc.line_text(line)[col - 1:]
        if path and isinstance(path[-1], str):
            kline, kcol = doc.key_position(ptr)
            assert starts_with_key(doc.line_text(kline)[kcol - 1:], path[-1]), (ptr, text)
        if not isinstance(value, (dict, list)):
            assert rest.startswith(scalar_token(value)), (ptr, rest, text)
        elif (line, col) == doc.key_position(ptr) and path and isinstance(path[-1], str):
            pass  # block collection reported at its key (checked above)
        else:
            ok = rest.startswith(("[", "{", "-"))
            if isinstance(value, dict) and value:
                ok = ok or starts_with_key(rest, next(iter(value)))
            assert ok, (ptr, rest, text)


@SETTINGS
@given(st.tuples(st.text(alphabet="ab é\t", max_size=4), st.text(alphabet="ab é\t", max_size=4)),
       st.characters(codec="utf-16", exclude_characters="\t\n").filter(lambda c: FORBIDDEN_IN_TEXT.match(c) is not None),
       st.booleans(), st.booleans())
def test_a_forbidden_character_written_as_an_escape_is_refused_at_its_string(parts, bad, as_key, allow_unicode):
    """NUL, ESC, C1, lone surrogates, bidi overrides made by YAML escapes: a positioned error, never data."""
    s = parts[0] + bad + parts[1]
    data = {"ok": 1, s: "v"} if as_key else {"ok": 1, "k": s}
    text = yaml.safe_dump(data, allow_unicode=allow_unicode, width=10**6, sort_keys=False)
    try:
        doc = load_document("h.yaml", text)
    except DiagnosticError as e:
        assert all(d.severity == "error" and d.line == 2 for d in e.diagnostics), [d.format() for d in e.diagnostics]
        assert any(f"U+{ord(bad):04X}" in d.message for d in e.diagnostics)
        return
    # PyYAML reads a raw NEL (U+0085) in a quoted scalar as a line break: the character never enters
    assert bad == "\x85" and allow_unicode, doc.data
    assert not any(FORBIDDEN_IN_TEXT.search(t) for t in (*doc.data, *map(str, doc.data.values()))), doc.data


yamlish = st.text(alphabet=st.sampled_from(list("ab1.:-[]{},&*!|>'\"# \n\t?<~%@`\\") + ["\x00", "é", "\u2028"]),
                  max_size=60)


@settings(max_examples=400, deadline=None)
@given(yamlish)
def test_fuzz_never_raises_anything_but_diagnostics(text):
    try:
        doc = load_document("f.yaml", text)
    except DiagnosticError as e:
        assert e.diagnostics
        lines = text.count("\n") + text.count("\r") + text.count("\u2028") + 1
        for d in e.diagnostics:
            assert isinstance(d, Diagnostic) and d.severity == "error"
            assert 1 <= d.line <= lines + 1 and d.col >= 1
            assert "Traceback" not in d.message and "\n" not in d.message
        return
    for ptr in doc.pointers():
        line, col = doc.position(ptr)
        assert line >= 1 and col >= 1
        assert doc.line_text(line) is not None
