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


# -- the common form read without the parser (compiler/lang/citations.py, _ONE) --------------------------

def _positioned(items):
    """What a parse gives, positions included (a Citation compares without them)."""
    out = []
    for it in items:
        for c in ((it.start, it.end) if isinstance(it, CitationRange) else (it,)):
            out.append((type(it).__name__, c.section, c.path, c.line, c.column))
    return out


def _both(text):
    from compiler.lang import citations

    got = []
    for parse in (citations._parse, citations._parse_lark):  # noqa: SLF001
        try:
            got.append(("ok", _positioned(parse(text))))
        except CitationSyntaxError as e:
            got.append(("error", e.message, e.line, e.column))
    return got


def _corpus_citations():
    import re
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2]
    found = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("cite", "cites") and isinstance(v, str):
                    found.add(v)
                    found.update(p.strip() for p in re.split(r";", v))
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    for p in sorted((root / "rulespecs").glob("**/*.yaml")) + sorted((root / "tests/fixtures/chapters").glob("*.yaml")):
        walk(yaml.safe_load(p.read_text(encoding="utf-8")))
    return sorted(found)


def test_the_common_form_reads_as_the_parser_reads_it():
    corpus = _corpus_citations()
    assert len(corpus) > 200
    variants = ["§ 567.9", "567.9", "§567.9(c)", "§  567.9(c)", " § 567.9", "§ 567.9 ", "§ 567.9(c) (2)",
                "§ 567.9(c)(2)\n", "§ 567.9\t", "§ 670a.6b(10)", "§ 670a.6(b)(10)(iv)(A)", "§ 670a.6(abcdef)",
                "§ 670a.6(abcdefg)", "§ 670a.6()", "§ 670A.6", "§ 670ab.6", "§ ٥٦٧.٩(c)", "§ 567.9(c)and(d)",
                "§§ 567.9", "§ § 567.9", "567.9.1", "§ 567", "§ 567.9(c", "(c)", "§ 567.9(c)-(d)",
                "§ 567.9(c)\u2014(d)", "\n§ 567.9", "§\n567.9", "§ 1.2(Z9)"]
    for text in corpus + variants:
        fast, lark = _both(text)
        assert fast == lark, text
    from compiler.lang import citations

    common = [t for t in corpus if citations._ONE.fullmatch(t)]  # noqa: SLF001
    assert len(common) > len(corpus) // 2  # the path is taken, and checked, on the corpus itself
