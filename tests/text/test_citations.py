import pytest
from lark import Lark
from lark.lexer import Lexer

from compiler.lang.citations import (
    GRAMMAR, Citation, CitationRange, CitationSyntaxError, expand, parse_citation,
)


def test_single_citation_with_path_formats_canonically():
    [c] = parse_citation("§ 567.9(c)(2)")
    assert c == Citation("567.9", ("c", "2"))
    assert c.format() == "§ 567.9(c)(2)"


def test_short_form_without_section_sign():
    assert parse_citation("567.9(c)(2)") == [Citation("567.9", ("c", "2"))]


def test_section_range_expands_to_each_section():
    [r] = parse_citation("§§ 669a.8-669a.10")
    assert isinstance(r, CitationRange)
    assert [c.format() for c in r.expand()] == ["§ 669a.8", "§ 669a.9", "§ 669a.10"]
    assert r.format() == "§§ 669a.8-669a.10"


def test_em_dash_path_range():
    [r] = parse_citation("§ 669a.12(b)\u2014(d)")
    assert [c.path for c in r.expand()] == [("b",), ("c",), ("d",)]
    assert r.format() == "§ 669a.12(b)\u2014(d)"


def test_nested_path_range_keeps_the_parent_labels():
    [r] = parse_citation("§ 688a.7(e)(1)\u2014(3)")
    assert [c.format() for c in r.expand()] == ["§ 688a.7(e)(1)", "§ 688a.7(e)(2)", "§ 688a.7(e)(3)"]


def test_list_of_subsections_with_and():
    got = parse_citation("§ 669a.11(b), (d) and (f)")
    assert got == [Citation("669a.11", ("b",)), Citation("669a.11", ("d",)), Citation("669a.11", ("f",))]


def test_alternative_with_or():
    assert expand(parse_citation("§ 603a.16(u) or (v)")) == [
        Citation("603a.16", ("u",)), Citation("603a.16", ("v",))]


def test_list_of_sections_each_with_section_sign():
    got = parse_citation("§ 669a.8, § 669a.9 or § 669a.10")
    assert [c.section for c in got] == ["669a.8", "669a.9", "669a.10"]


def test_spaced_double_section_sign_list():
    got = parse_citation("§ § 688a.8, 688a.9 or 688a.10")
    assert [c.section for c in got] == ["688a.8", "688a.9", "688a.10"]


def test_plain_section():
    assert parse_citation("§ 601a.2") == [Citation("601a.2", ())]


@pytest.mark.parametrize("bad, column", [("§ 567", 3), ("§ 567.9(c", 8), ("(a)", 1)])
def test_bad_citation_raises_with_position(bad, column):
    with pytest.raises(CitationSyntaxError) as ei:
        parse_citation(bad)
    assert ei.value.line == 1 and ei.value.column == column


def test_empty_citation_is_an_error():
    with pytest.raises(CitationSyntaxError):
        parse_citation("  ")


class _NoLexer(Lexer):
    def __init__(self, conf):
        pass

    def lex(self, data):
        yield from data


def test_citation_grammar_is_lalr_conflict_free():
    # strict=True rejects shift/reduce conflicts when the LALR table is built; with a
    # custom lexer no terminal-collision check (which needs `interegular`) is involved
    Lark(GRAMMAR.read_text(), parser="lalr", strict=True, lexer=_NoLexer)
