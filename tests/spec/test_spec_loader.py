"""compiler.spec.loader: safe loading, exact data model, positions, loader-level errors."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import MAX_ALIAS_NODES, Document, load_document


def errors_of(path, text=None, **kw) -> list[str]:
    with pytest.raises(DiagnosticError) as info:
        load_document(path, text, **kw)
    return [d.format() for d in info.value.diagnostics]


def walk(value):
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


# --------------------------------------------------------------------------- data model


def test_scalars_exact():
    doc = load_document("s.yaml", """\
money: 1.50
big: 1_000.25
sexagesimal: 1:30.5
explicit_float: !!float 3
exp: 6.5e+3
count: 7
hex: 0x1F
yes_word: yes
quoted_yes: 'yes'
nothing: ~
empty:
date: 2010-04-10
stamp: 2001-12-14t21:59:43.10-05:00
forced_str: !!str 42
odds: 3 to 2
cite: § 567.9(c)(2)
""")
    d = doc.data
    assert d["money"] == Decimal("1.50") and str(d["money"]) == "1.50"
    assert d["big"] == Decimal("1000.25")
    assert d["sexagesimal"] == Decimal("90.5")
    assert d["explicit_float"] == Decimal(3) and isinstance(d["explicit_float"], Decimal)
    assert d["exp"] == Decimal("6500")
    assert d["count"] == 7 and type(d["count"]) is int
    assert d["hex"] == 31
    assert d["yes_word"] is True and d["quoted_yes"] == "yes"
    assert d["nothing"] is None and d["empty"] is None
    assert d["date"] == "2010-04-10"
    assert d["stamp"] == "2001-12-14t21:59:43.10-05:00"
    assert d["forced_str"] == "42"
    assert d["odds"] == "3 to 2" and d["cite"] == "§ 567.9(c)(2)"
    assert not any(isinstance(v, float) for v in walk(d))


def test_document_fields(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("spec.yaml").write_text("chapter: '567'\n", encoding="utf-8")
    doc = load_document(Path("spec.yaml"))
    assert isinstance(doc, Document)
    assert doc.path == "spec.yaml"
    assert doc.text == "chapter: '567'\n"
    assert doc.data == {"chapter": "567"}
    assert load_document("./spec.yaml").path == "./spec.yaml"


def test_text_argument_is_used_without_reading():
    doc = load_document("does/not/exist.yaml", "a: 1\n")
    assert doc.data == {"a": 1} and doc.path == "does/not/exist.yaml"
    assert load_document("b.yaml", "a: é\n".encode()).data == {"a": "é"}


def test_bom_and_crlf(broken):
    assert load_document(broken("bom.yaml")).data == {"chapter": "567"}
    doc = load_document("c.yaml", "a: 1\r\nb:\r\n  - x\r\n  - y: 2\r\n")
    assert doc.data == {"a": 1, "b": ["x", {"y": 2}]}
    assert doc.position("/b/1/y") == (4, 8)
    assert doc.line_text(4) == "  - y: 2"


def test_empty_document():
    doc = load_document("e.yaml", "")
    assert doc.data is None and doc.position("") == (1, 1) and doc.position("/x") == (1, 1)
    assert load_document("c.yaml", "# only a comment\n").data is None


def test_non_string_keys_become_source_text_and_are_recorded():
    doc = load_document("k.yaml", "1: one\nyes: y\n1.50: money\n~: nothing\n010: octal\nplain: p\n")
    assert doc.data == {"1": "one", "yes": "y", "1.50": "money", "~": "nothing", "010": "octal", "plain": "p"}
    assert doc.coerced_keys == {"/1": 1, "/yes": True, "/1.50": Decimal("1.50"), "/~0": None, "/010": 8}
    assert [d.format() for d in doc.coercion_warnings()][:2] == [
        "k.yaml:1:1: warning: key '1' is not a string in YAML (integer); it is read as the string '1' "
        "(quote it to be explicit) [at /1]",
        "k.yaml:2:1: warning: key 'yes' is not a string in YAML (boolean); it is read as the string 'yes' "
        "(quote it to be explicit) [at /yes]",
    ]


def test_aliases_expand_to_independent_copies():
    doc = load_document("a.yaml", "cols: &cols [A, B]\nt1: {columns: *cols}\nt2:\n  columns: *cols\n")
    assert doc.data == {"cols": ["A", "B"], "t1": {"columns": ["A", "B"]}, "t2": {"columns": ["A", "B"]}}
    doc.data["t1"]["columns"].append("C")
    assert doc.data["t2"]["columns"] == ["A", "B"] and doc.data["cols"] == ["A", "B"]
    assert doc.position("/t2/columns") == (4, 12)  # the *alias itself
    assert doc.position("/t2/columns/1") == (1, 17)  # inside the anchor


def test_scalar_alias_and_alias_key():
    doc = load_document("a.yaml", "k: &k name\n*k : value\nv: *k\n")
    assert doc.data == {"k": "name", "name": "value", "v": "name"}
    assert doc.key_position("/name") == (2, 1)


def test_question_mark_in_flow_collection_gets_a_hint():
    # PyYAML (unlike libyaml) reads '?' inside a flow collection as a key indicator.
    assert errors_of("q.yaml", "a: [what? no]\n") == [
        "q.yaml:1:9: error: expected ',' or ']', but got '?': a '?' inside [...] or {...} must be in a "
        "quoted string (PyYAML reads it as a key indicator)"
    ]
    assert load_document("q.yaml", "a: ['what? no']\nb: why? because\n").data == {"a": ["what? no"], "b": "why? because"}


def test_tab_inside_quoted_string_is_fine():
    assert load_document("t.yaml", 'a: "x\ty"\nb: "x\\ty"\n').data == {"a": "x\ty", "b": "x\ty"}


# --------------------------------------------------------------------------- positions


POS_TEXT = """\
chapter: "567"
paytables:
  pair_plus:
    title: Pair Plus
    columns: [Paytable A, Paytable B]
    rows:
      - hand: straight_flush
        pays: [40 to 1, 40 to 1]
      - {hand: pair, pays: [1 to 1, 1 to 1]}
    note: |
      literal
      text
    empty:
"a/b": slash
"m~n": tilde
"""


def test_positions():
    doc = load_document("p.yaml", POS_TEXT)
    pos = doc.position
    assert pos("") == (1, 1)
    assert pos("/chapter") == (1, 10)  # scalar: the value
    assert pos("/paytables") == (2, 1)  # block mapping value: its key
    assert pos("/paytables/pair_plus") == (3, 3)
    assert pos("/paytables/pair_plus/title") == (4, 12)
    assert pos("/paytables/pair_plus/columns") == (5, 14)  # flow collection: the value
    assert pos("/paytables/pair_plus/columns/1") == (5, 27)
    assert pos("/paytables/pair_plus/rows") == (6, 5)
    assert pos("/paytables/pair_plus/rows/0") == (7, 9)  # sequence item: the item itself
    assert pos("/paytables/pair_plus/rows/0/pays/1") == (8, 25)
    assert pos("/paytables/pair_plus/rows/1") == (9, 9)
    assert pos("/paytables/pair_plus/rows/1/hand") == (9, 16)
    assert pos("/paytables/pair_plus/note") == (10, 11)
    assert pos("/paytables/pair_plus/empty") == (13, 11)
    assert pos("/a~1b") == (14, 8)
    assert pos("/m~0n") == (15, 8)
    assert doc.key_position("/paytables/pair_plus/title") == (4, 5)
    assert doc.key_position("/paytables/pair_plus/rows/1/hand") == (9, 10)
    assert doc.key_position("/paytables/pair_plus/rows/0") == (7, 9)  # not a member: position()
    assert doc.has("/paytables/pair_plus/rows/1") and not doc.has("/paytables/pair_plus/rows/2")


def test_position_of_missing_pointer_falls_back_to_ancestor():
    doc = load_document("p.yaml", POS_TEXT)
    assert doc.position("/paytables/pair_plus/cite") == (3, 3)
    assert doc.position("/paytables/pair_plus/rows/7/hand") == (6, 5)
    assert doc.position("/chapter/deeper") == (1, 10)
    assert doc.position("/nope") == (1, 1)


def test_document_diagnostic_helper():
    doc = load_document("p.yaml", POS_TEXT)
    d = doc.diagnostic("/paytables/pair_plus/title", "bad title", with_excerpt=True)
    assert d.format() == "p.yaml:4:12: error: bad title [at /paytables/pair_plus/title]"
    assert d.format_with_excerpt().splitlines()[-2:] == ["4 |     title: Pair Plus", "  |            ^"]
    assert doc.diagnostic("/paytables/pair_plus/title", "k", "warning", at_key=True).format() == \
        "p.yaml:4:5: warning: k [at /paytables/pair_plus/title]"


# --------------------------------------------------------------------------- broken fixtures


def test_duplicate_keys_all_reported(broken):
    p = broken("duplicate_key.yaml")
    assert errors_of(p) == [
        f"{p}:8:5: error: duplicate key 'odds' (first defined at line 6) [at /paytables/war/odds]",
        f"{p}:12:5: error: duplicate key 'title' (first defined at line 10) [at /paytables/tie/title]",
        f"{p}:13:1: error: duplicate key 'chapter' (first defined at line 2) [at /chapter]",
        f"{p}:15:1: error: duplicate key '1' (first defined at line 14) [at /1]",
    ]


def test_billion_laughs_is_bounded(broken):
    p = broken("billion_laughs.yaml")
    assert errors_of(p) == [
        f"{p}:4:36: error: alias '*c' expands the document beyond 10000 nodes "
        f"(aliases must not build huge documents)",
    ]


def test_alias_budget_is_configurable():
    text = "a: &a [x, x, x, x, x]\nb: [*a, *a]\n"
    assert load_document("a.yaml", text, max_alias_nodes=12).data["b"][1] == ["x"] * 5
    assert errors_of("a.yaml", text, max_alias_nodes=11) == [
        "a.yaml:2:9: error: alias '*a' expands the document beyond 11 nodes (aliases must not build huge documents)"
    ]
    assert MAX_ALIAS_NODES == 10_000


def test_python_tags_are_errors_and_never_executed(broken, tmp_path):
    p = broken("python_tag.yaml")
    assert errors_of(p) == [
        f"{p}:2:10: error: unsupported YAML tag '!!python/object/apply:os.system' "
        f"(only plain data is allowed in a rulespec) [at /exploit]",
        f"{p}:3:10: error: unsupported YAML tag '!!python/name:builtins.eval' "
        f"(only plain data is allowed in a rulespec) [at /payload]",
        f"{p}:4:7: error: unsupported YAML tag '!!binary' (only plain data is allowed in a rulespec) [at /blob]",
        f"{p}:5:9: error: unsupported YAML tag '!odds' (only plain data is allowed in a rulespec) [at /custom]",
    ]
    marker = tmp_path / "pwned"
    text = f"x: !!python/object/apply:pathlib.Path.write_text [!!python/object/apply:pathlib.Path ['{marker}'], 'x']\n"
    errors_of("x.yaml", text)
    assert not marker.exists()


def test_unsupported_collection_tags():
    assert errors_of("t.yaml", "s: !!set {a, b}\no: !!omap [a: 1]\n") == [
        "t.yaml:1:4: error: unsupported YAML tag '!!set' (only plain data is allowed in a rulespec) [at /s]",
        "t.yaml:2:4: error: unsupported YAML tag '!!omap' (only plain data is allowed in a rulespec) [at /o]",
    ]


def test_syntax_error(broken):
    p = broken("syntax_error.yaml")
    assert errors_of(p) == [
        f"{p}:5:9: error: expected ',' or ']', but got ':' (while parsing a flow sequence started at line 4)"
    ]


def test_tabs(broken):
    p = broken("tabs.yaml")
    assert errors_of(p) == [
        f"{p}:3:1: error: tab character is not allowed here (YAML indentation and separation use spaces)"
    ]
    # PyYAML rejects a tab even as trailing whitespace (libyaml would accept it).
    assert errors_of("t.yaml", "a: b\t\n") == [
        "t.yaml:1:5: error: tab character is not allowed here (YAML indentation and separation use spaces)"
    ]


def test_merge_keys_rejected(broken):
    p = broken("merge_key.yaml")
    assert errors_of(p) == [
        f"{p}:6:5: error: merge keys ('<<') are not supported; write the fields out or alias the whole "
        f"mapping [at /paytables/pair_plus]"
    ]
    assert load_document("m.yaml", "a: '<<'\nb: <<\n").data == {"a": "<<", "b": "<<"}


def test_recursive_alias(broken):
    p = broken("recursive_alias.yaml")
    assert errors_of(p) == [f"{p}:3:9: error: recursive alias '*loop' (it refers to an enclosing anchor) [at /node/next]"]


def test_unknown_and_duplicate_anchor(broken):
    p = broken("unknown_alias.yaml")
    assert errors_of(p) == [f"{p}:1:10: error: undefined alias '*cols' (no anchor '&cols' before it)"]
    p = broken("duplicate_anchor.yaml")
    assert errors_of(p) == [f"{p}:2:4: error: duplicate anchor 'cols' (first defined at line 1)"]


def test_multiple_documents(broken):
    p = broken("multi_document.yaml")
    assert errors_of(p) == [f"{p}:2:1: error: expected a single YAML document, but found another document ('---')"]


def test_non_finite_numbers(broken):
    p = broken("non_finite.yaml")
    assert errors_of(p) == [
        f"{p}:1:16: error: non-finite number '.inf' is not allowed (quote it if it is text) [at /minimum_wager]",
        f"{p}:2:16: error: non-finite number '-.Inf' is not allowed (quote it if it is text) [at /maximum_wager]",
        f"{p}:3:8: error: non-finite number '.NaN' is not allowed (quote it if it is text) [at /ratio]",
    ]


def test_bad_indentation(broken):
    p = broken("bad_indent.yaml")
    assert errors_of(p) == [
        f"{p}:4:4: error: bad indentation: this line does not line up with the block started at line 2"
    ]


def test_complex_keys(broken):
    p = broken("complex_key.yaml")
    assert errors_of(p) == [
        f"{p}:1:3: error: mapping key must be a string, not a sequence [at (root)]",
        f"{p}:3:3: error: mapping key must be a string, not a mapping [at (root)]",
    ]


def test_invalid_explicit_scalars():
    assert errors_of("x.yaml", "a: !!int abc\nb: !!float x1\nc: !!bool maybe\n") == [
        "x.yaml:1:4: error: invalid integer 'abc' [at /a]",
        "x.yaml:2:4: error: invalid number 'x1' [at /b]",
        "x.yaml:3:4: error: invalid boolean 'maybe' [at /c]",
    ]


def test_character_errors_all_reported(broken):
    p = broken("control_chars.yaml")
    assert errors_of(p) == [
        f"{p}:2:12: error: invalid character U+0001 (control and special characters are not allowed in YAML)",
        f"{p}:3:9: error: invalid character U+0000 (control and special characters are not allowed in YAML)",
    ]


def test_bad_utf8_all_reported(broken):
    p = broken("bad_utf8.yaml")
    assert errors_of(p) == [
        f"{p}:2:12: error: invalid UTF-8 byte 0xff (invalid start byte); rulespecs must be UTF-8",
        f"{p}:2:13: error: invalid UTF-8 byte 0xfe (invalid start byte); rulespecs must be UTF-8",
        f"{p}:3:12: error: invalid UTF-8 byte 0xe9 (invalid continuation byte); rulespecs must be UTF-8",
        f"{p}:3:14: error: invalid UTF-8 byte 0xe9 (invalid continuation byte); rulespecs must be UTF-8",
    ]


def test_utf16(broken):
    p = broken("utf16.yaml")
    assert errors_of(p) == [f"{p}:1:1: error: file is UTF-16 encoded; rulespecs must be UTF-8"]


def test_missing_file_and_directory(tmp_path):
    missing = str(tmp_path / "nope.yaml")
    assert errors_of(missing) == [f"{missing}:1:1: error: file not found"]
    assert errors_of(str(tmp_path)) == [f"{tmp_path}:1:1: error: is a directory, not a file"]


def test_deep_nesting():
    msg = "error: nesting deeper than 64 levels"
    assert errors_of("d.yaml", "[" * 300 + "]" * 300) == [f"d.yaml:1:66: {msg}"]
    assert errors_of("d.yaml", "[" * 5000 + "]" * 5000) == [f"d.yaml:1:66: {msg}"]
    block = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 400))
    assert errors_of("d.yaml", block) == [f"d.yaml:66:131: {msg}"]
    ok = "[" * 64 + "]" * 64
    assert load_document("d.yaml", ok).position("/0/0/0") == (1, 4)


# --------------------------------------------------------------------------- speed


def _big_spec(lines: int) -> str:
    out = ['chapter: "567"', "provisions:"]
    i = 0
    while len(out) < lines:
        out += [
            f'  - section: "567.{i}"',
            "    heading: Definitions.",
            "    children:",
            "      - label: a",
            "        text: A player placing a Pair Plus Wager shall be paid at the odds in one of the following.",
            "        children:",
            '          - {label: "1", text: "The name or logo of the certificate holder, 1.50 dollars."}',
            "          - label: '2'",
            "            pays: [40 to 1, 30 to 1, 6 to 1, 3 to 1]",
            "            min: 1.50",
        ]
        i += 1
    return "\n".join(out) + "\n"


def test_3000_line_spec_loads_with_decimal_amounts():
    """Its load time is a figure of `make bench` (bench/__main__.py), not asserted here."""
    text = _big_spec(3000)
    assert text.count("\n") >= 3000
    doc = load_document("big.yaml", text)
    assert doc.data["provisions"][0]["children"][0]["children"][1]["min"] == Decimal("1.50")
