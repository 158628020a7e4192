"""compiler.spec.diagnostics: Diagnostic, Diagnostics, DiagnosticError, JSON pointers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler.spec.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Diagnostics,
    escape_token,
    format_all,
    parse_pointer,
    pointer_of,
    split_lines,
)


def test_format_with_pointer():
    d = Diagnostic("rulespecs/567.yaml", 12, 5, "error", "unknown field 'odz'", "/paytables/war/odz")
    assert d.format() == "rulespecs/567.yaml:12:5: error: unknown field 'odz' [at /paytables/war/odz]"
    assert str(d) == d.format()


def test_format_without_pointer_and_severities():
    assert Diagnostic("a.yaml", 1, 1, "warning", "w").format() == "a.yaml:1:1: warning: w"
    assert Diagnostic("a.yaml", 3, 9, "note", "n").format() == "a.yaml:3:9: note: n"


def test_format_root_pointer_is_not_empty():
    d = Diagnostic("a.yaml", 1, 1, "error", "expected object, got null", "")
    assert d.format() == "a.yaml:1:1: error: expected object, got null [at (root)]"


def test_invalid_severity_rejected():
    with pytest.raises(ValueError):
        Diagnostic("a.yaml", 1, 1, "fatal", "x")


def test_diagnostic_is_frozen_and_hashable():
    d = Diagnostic("a.yaml", 1, 1, "error", "x")
    with pytest.raises(AttributeError):
        d.line = 2  # type: ignore[misc]
    assert len({d, Diagnostic("a.yaml", 1, 1, "error", "x")}) == 1


def test_format_with_excerpt_caret_under_column():
    src = "paytables:\n  war:\n    odz: 3 to 2\n"
    d = Diagnostic("s.yaml", 3, 5, "error", "unknown field 'odz'", "/paytables/war/odz")
    assert d.format_with_excerpt(src) == (
        "s.yaml:3:5: error: unknown field 'odz' [at /paytables/war/odz]\n"
        "  |\n"
        "3 |     odz: 3 to 2\n"
        "  |     ^"
    )


def test_format_with_excerpt_wide_gutter_tabs_and_crlf():
    src = "".join(f"k{i}: v\r\n" for i in range(1, 10)) + "x:\tbad\r\n"
    d = Diagnostic("s.yaml", 10, 3, "error", "tab")
    assert d.format_with_excerpt(src).splitlines() == [
        "s.yaml:10:3: error: tab",
        "   |",
        "10 | x:\tbad",
        "   |   ^",
    ]
    d = Diagnostic("s.yaml", 10, 4, "error", "after tab")
    assert d.format_with_excerpt(src).splitlines()[-1] == "   |   \t^"


def test_format_with_excerpt_wide_characters():
    d = Diagnostic("s.yaml", 1, 5, "error", "x")
    assert d.format_with_excerpt("名前: 値\n").splitlines()[-1] == "  |       ^"  # 名前 are 2 columns each


def test_format_with_excerpt_uses_excerpt_field_or_degrades():
    d = Diagnostic("s.yaml", 7, 2, "error", "x", excerpt="ab: c")
    assert d.format_with_excerpt() == "s.yaml:7:2: error: x\n  |\n7 | ab: c\n  |  ^"
    assert Diagnostic("s.yaml", 99, 1, "error", "x").format_with_excerpt("a\n") == "s.yaml:99:1: error: x"
    assert Diagnostic("s.yaml", 1, 1, "error", "x").format_with_excerpt() == "s.yaml:1:1: error: x"


def test_collector_sorting_dedupe_and_json():
    c = Diagnostics()
    c.error("b.yaml", 1, 1, "z")
    c.warning("a.yaml", 10, 1, "later line")
    c.error("a.yaml", 2, 5, "b message", pointer="/x")
    c.error("a.yaml", 2, 5, "a message")
    c.error("a.yaml", 2, 1, "first col")
    c.error("a.yaml", 2, 5, "a message")  # exact duplicate
    c.note("a.yaml", 2, 1, "first col")  # same key as an error: stable order keeps the error first
    assert [d.format() for d in c] == [
        "a.yaml:2:1: error: first col",
        "a.yaml:2:1: note: first col",
        "a.yaml:2:5: error: a message",
        "a.yaml:2:5: error: b message [at /x]",
        "a.yaml:10:1: warning: later line",
        "b.yaml:1:1: error: z",
    ]
    assert len(c) == 6
    data = c.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data[3] == {"path": "a.yaml", "line": 2, "col": 5, "severity": "error",
                       "message": "b message", "pointer": "/x", "excerpt": None}
    assert c.format().splitlines()[0] == "a.yaml:2:1: error: first col"


def test_collector_has_errors_and_raise():
    c = Diagnostics()
    assert not c.has_errors and not c
    c.warning("a.yaml", 1, 1, "just a warning")
    assert not c.has_errors
    c.raise_if_errors()  # no error: no raise
    c.error("a.yaml", 3, 1, "boom")
    assert c.has_errors
    assert [d.message for d in c.errors] == ["boom"]
    assert [d.message for d in c.warnings] == ["just a warning"]
    with pytest.raises(DiagnosticError) as info:
        c.raise_if_errors()
    assert str(info.value) == "a.yaml:1:1: warning: just a warning\na.yaml:3:1: error: boom"


def test_collector_extend_from_list_collector_and_error():
    a = Diagnostics([Diagnostic("a.yaml", 1, 1, "error", "one")])
    b = Diagnostics()
    b.extend(a)
    b.extend([Diagnostic("a.yaml", 2, 1, "error", "two")])
    b.extend(DiagnosticError([Diagnostic("a.yaml", 3, 1, "error", "three")]))
    assert [d.message for d in b] == ["one", "two", "three"]
    with pytest.raises(TypeError):
        b.add("not a diagnostic")  # type: ignore[arg-type]


def test_diagnostic_error_sorted_and_str():
    e = DiagnosticError([Diagnostic("a.yaml", 5, 1, "error", "late"), Diagnostic("a.yaml", 1, 2, "error", "early")])
    assert [d.message for d in e.diagnostics] == ["early", "late"]
    assert str(e) == "a.yaml:1:2: error: early\na.yaml:5:1: error: late"
    assert e.errors == e.diagnostics
    assert format_all(list(reversed(e.diagnostics))) == str(e)


def test_pointer_of_escaping():
    assert pointer_of(()) == ""
    assert pointer_of(("a", 0, "b")) == "/a/0/b"
    assert pointer_of(["a/b", "m~n", "~1"]) == "/a~1b/m~0n/~01"
    assert pointer_of([""]) == "/"
    assert escape_token(3) == "3"


def test_parse_pointer():
    assert parse_pointer("") == []
    assert parse_pointer("/") == [""]
    assert parse_pointer("/a~1b/m~0n/~01/0") == ["a/b", "m~n", "~1", "0"]
    with pytest.raises(ValueError):
        parse_pointer("a/b")


@given(st.lists(st.one_of(st.text(), st.integers(min_value=0))))
def test_pointer_round_trip(path):
    assert parse_pointer(pointer_of(path)) == [str(p) for p in path]


def test_split_lines_counts_yaml_breaks():
    assert split_lines("a\r\nb\rc\nd\x85e\u2028f") == ["a", "b", "c", "d", "e", "f"]
    assert split_lines("a\n") == ["a", ""]
