"""The parser against the four sources: counts are taken independently from the raw
text with plain regular expressions (not from the parser)."""
import re

import pytest

from compiler.text.errors import TextError
from compiler.text.model import section_provisions
from compiler.text.parser import parse_text

from text_sources import BULLETIN_2010, BULLETIN_2015, CODE_669A9, CODE_688A11

# a provision label at the start of a line, or glued after a table cell ("1 to 1 (d) A",
# "Push (e) If", "$125 (f) A") or after "* * * * * "
LABEL_AT_START = re.compile(r"(?:^|(?<=[0-9h*] ))\([A-Za-z0-9]{1,5}\) (?=[A-Z])", re.M)


def _chunk(text: str, start: str, end: str | None) -> str:
    a = text.index(start)
    b = text.index(end, a) if end else len(text)
    return text[a:b]


def _grep_counts(path, chapter, start, end):
    chunk = _chunk(path.read_text(), start, end)
    sections = len(re.findall(rf"§ {re.escape(chapter)}\.\d+\. [A-Z]", chunk))
    provisions = len(LABEL_AT_START.findall(chunk))
    return sections, provisions


def _parser_counts(doc, chapter):
    ch = doc.chapter(chapter)
    n = sum(1 for s in ch.sections for p in section_provisions(s) if not p.elided)
    return len(ch.sections), n


@pytest.mark.parametrize("path, chapter, start, end", [
    (BULLETIN_2015, "669a", "CHAPTER 669a.", "CHAPTER 670a."),
    (BULLETIN_2015, "670a", "CHAPTER 670a.", "[Continued on next Web Page]"),
    (BULLETIN_2010, "535", "CHAPTER 535.", "CHAPTER 567."),
    (BULLETIN_2010, "567", "CHAPTER 567.", "[Pa.B. Doc. No."),
    (CODE_688A11, "688a", "§ 688a.11.", "No part of the information"),
])
def test_every_section_and_numbered_provision_is_parsed(docs, path, chapter, start, end):
    assert _parser_counts(docs[path.name], chapter) == _grep_counts(path, chapter, start, end)


def test_code_page_669a9_has_one_section_and_every_labelled_line(docs):
    text = CODE_669A9.read_text()
    labelled = len(re.findall(r"^\([a-z0-9]{1,4}\) ", text, re.M))
    assert _parser_counts(docs[CODE_669A9.name], "669a") == (1, labelled)


def test_sections_match_the_sec_list(docs):
    for doc in docs.values():
        for ch in doc.chapters:
            if ch.sec_list:
                assert [e.number for e in ch.sec_list] == [s.number for s in ch.sections]
                assert [e.heading for e in ch.sec_list] == [s.heading for s in ch.sections]


def test_nothing_invented_every_provision_text_is_in_the_source(docs):
    for name, doc in docs.items():
        raw = (BULLETIN_2015.parent / name).read_text()
        for ch in doc.chapters:
            for s in ch.sections:
                for p in section_provisions(s):
                    if not p.elided:
                        assert f"({p.label}) {p.text}" in raw, p.cite
                for d in s.definitions:
                    assert f"{d.term}\u2014{d.text}" in raw


def test_label_level_is_decided_by_sequence(docs):
    doc = docs[BULLETIN_2015.name]
    s = doc.chapter("669a").section("669a.11")
    assert [c.label for c in s.children] == list("abcdefghij")
    cites = {p.cite: p for p in section_provisions(doc.chapter("670a").section("670a.11"))}
    assert cites["§ 670a.11(h)(3)(i)"].level == "subparagraph"        # (i) after (3)
    assert cites["§ 670a.11(i)"].level == "subsection"                # (i) after (ii)
    assert cites["§ 670a.11(h)(3)(i)(B)(IV)"].level == "subclause"


def test_code_page_688a11_deep_numbers_after_a_clause(docs):
    s = docs[CODE_688A11.name].chapters[0].sections[0]
    cites = [p.cite for p in section_provisions(s)]
    assert "§ 688a.11(h)(3)(i)(B)(4)" in cites
    assert "§ 688a.11(h)(3)(i)(C)" in cites
    assert cites[-2:] == ["§ 688a.11(i)", "§ 688a.11(j)"]


def test_definition_with_roman_children(docs):
    s = docs[BULLETIN_2015.name].chapter("670a").section("670a.1")
    d = {x.term: x for x in s.definitions}
    assert d["Envy Bonus Qualifying Hand"].text == ""
    assert [c.label for c in d["Envy Bonus Qualifying Hand"].children] == ["i", "ii"]
    assert len(s.definitions) == len(re.findall(r"^[A-Z][^\n\u2014]{0,60}\u2014",
                                               _chunk(BULLETIN_2015.read_text(), "§ 670a.1. Def", "§ 670a.2."), re.M))


def test_flattened_paytable_rows_and_following_subsection(docs):
    s = docs[BULLETIN_2015.name].chapter("669a").section("669a.12")
    a = s.children[0]
    [t] = a.tables
    assert t.columns == ("Paytable A", "Paytable B", "Paytable C", "Paytable D")
    assert [r.label for r in t.rows] == ["Straight flush", "Three-of-a-kind", "Straight", "Flush", "Pair"]
    assert t.rows[1].pays == ("30 to 1", "25 to 1", "30 to 1", "30 to 1")
    c, d = s.children[2], s.children[3]
    assert d.label == "d" and d.text.startswith("A certificate holder shall pay each winning Blind")
    assert [r.pays[0] for r in d.tables[0].rows][-2:] == ["Push", "Push"]
    assert c.tables[0].rows[-1].hand == "pair_of_10s_or_better"


def test_table_followed_by_next_section_on_same_line(docs):
    ch = docs[BULLETIN_2015.name].chapter("669a")
    f = ch.section("669a.12").children[-1]
    assert f.label == "f" and f.tables[0].rows[-1].pays == ("5 to 1", "5 to 1", "8 to 1", "7 to 1")
    assert ch.section("669a.13").heading == "Irregularities."


def test_captions_and_odds_kinds(docs):
    e5 = docs[BULLETIN_2015.name].chapter("669a").section("669a.12").children[4].children[4]
    assert [t.caption for t in e5.tables] == ["$1 Progressive Payout Wager", "$5 Progressive Payout Wager"]
    assert e5.tables[1].rows[1].odds[0].kind == "amount" and e5.tables[1].rows[1].odds[0].numerator == 125
    prog = docs[BULLETIN_2015.name].chapter("669a").section("669a.12").children[4].children[0].tables[0]
    assert [o.kind for r in prog.rows for o in r.odds] == ["meter", "for", "for", "for", "for"]
    play = docs[BULLETIN_2015.name].chapter("669a").section("669a.12").children[2].tables[0]
    two_pair = [r for r in play.rows if r.hand == "two_pair"][0].odds[0]
    assert (two_pair.kind, two_pair.numerator, two_pair.denominator) == ("to", 3, 2)
    blind = docs[BULLETIN_2015.name].chapter("669a").section("669a.12").children[3].tables[0]
    assert blind.rows[0].odds[0].numerator == 1000


def test_every_table_cell_count_matches_the_source(docs):
    text = BULLETIN_2015.read_text()
    cells = len(re.findall(r"\d+ (?:to|for) \d+|\d+% of meter|\$[\d,]+(?= |$)|Push", "\n".join(
        ln for ln in text.splitlines() if ln.startswith("Hand ")), re.M))
    got = sum(len(r.pays) for ch in docs[BULLETIN_2015.name].chapters for s in ch.sections
              for p in section_provisions(s) for t in p.tables for r in t.rows)
    assert got == cells


def test_cross_references_resolve_or_are_external(docs):
    doc = docs[BULLETIN_2015.name]
    refs = {}
    for ch in doc.chapters:
        for s in ch.sections:
            for p in section_provisions(s):
                for r in p.refs:
                    refs.setdefault(r.text, r)
    assert refs["§ 669a.12(b)\u2014(d)"].targets == ("§ 669a.12(b)", "§ 669a.12(c)", "§ 669a.12(d)")
    assert refs["§ 669a.12(b)\u2014(d)"].resolved
    assert refs["§ 601a.2"].external and refs["§ 601a.2"].relating_to == "table games Rules Submissions"
    assert refs["§ 669a.11(b), (d) and (f)"].resolved
    assert refs["subsections (a)\u2014(c)"].resolved
    unresolved = [r for ch in doc.chapters for s in ch.sections for p in section_provisions(s)
                  for r in p.refs if "missing" in r.status]
    assert unresolved == []


def test_relative_references_resolve_within_the_section(docs):
    s = docs[BULLETIN_2010.name].chapter("567").section("567.5")
    f = [c for c in s.children if c.label == "f"][0]
    [r] = [r for r in f.refs if r.text.startswith("subsection")]
    assert r.targets == ("§ 567.5(b)(4)",) and r.resolved
    para = docs[BULLETIN_2015.name].chapter("669a").section("669a.12").children[4].children[2]
    [r] = [r for r in para.refs if r.text.startswith("paragraph")]
    assert r.targets == ("§ 669a.12(e)(1)",) and r.resolved


def test_furniture_is_kept_apart(docs):
    doc = docs[CODE_669A9.name]
    kinds = {f.kind for f in doc.furniture}
    assert {"universal_citation", "cited_in", "disclaimer", "site_header"} <= kinds
    uc = [f for f in doc.furniture if f.kind == "universal_citation"][0]
    assert uc.refs and uc.refs[0].targets == ("§ 669a.9",)
    body = " ".join(p.text for ch in doc.chapters for s in ch.sections for p in section_provisions(s))
    assert "Disclaimer" not in body and "cited in" not in body
    b = docs[BULLETIN_2015.name]
    assert {"page_cite", "date", "continued", "disclaimer"} <= {f.kind for f in b.furniture}
    assert (b.source_cite, b.date) == ("45 Pa.B. 4185", "2015-08-01")


def test_preamble_and_annex_of_2010_bulletin(docs):
    doc = docs[BULLETIN_2010.name]
    heads = [p.text for p in doc.preamble if p.kind == "heading"]
    assert "Fiscal Impact" in heads and "Order" in heads
    assert doc.annex.startswith("Annex A")
    s = doc.chapter("535").sections[0]
    assert s.children[0].elided and s.children[1].label == "e"
    assert not doc.chapter("535").complete and doc.chapter("567").complete


def test_chapter_title_broken_over_two_lines(docs):
    assert docs[BULLETIN_2015.name].chapter("670a").title == "SIX-CARD FORTUNE PAI GOW POKER"


def test_code_page_heading_gets_its_period_back(docs):
    s = docs[CODE_669A9.name].chapters[0].sections[0]
    assert s.heading == "Procedure for dealing the cards from the hand."


def test_label_out_of_sequence_is_an_error_with_position():
    text = "§ 999.1. Test.\n(a) One.\n(c) Three.\n"
    with pytest.raises(TextError) as ei:
        parse_text(text, "x.txt", strict=True)
    assert (ei.value.line, ei.value.column) == (3, 1)
    assert str(ei.value).startswith("x.txt:3:1: error:")


def test_label_out_of_sequence_is_reported_not_dropped_when_reading_on():
    text = "§ 999.1. Test.\n(a) One.\n(c) Three.\n(b) Two.\n"
    doc = parse_text(text, "x.txt")
    # (c) after (a): (b) is not on the page -- a gap, said so; then (b) after (c) cannot be placed
    [gap] = [n for n in doc.notices if n.kind == "gap"]
    assert (gap.pos.line, gap.pos.column) == (3, 1) and "(c) follows (a)" in gap.message
    [n] = doc.unread
    assert (n.pos.line, n.pos.column) == (4, 1) and n.text == "(b) Two."
    assert n.format("x.txt").startswith("x.txt:4:1: error: label (b) cannot follow (c)")
    assert [c.label for c in doc.chapters[0].sections[0].children] == ["a", "c"]


def test_text_without_sections_is_an_error():
    with pytest.raises(TextError):
        parse_text("hello world\n", "x.txt")


def test_short_table_row_is_an_error():
    text = "§ 999.1. Test.\n(a) Pays:\nHand Paytable A Paytable B Flush 3 to 1\n(b) Next.\n"
    with pytest.raises(TextError) as ei:
        parse_text(text, "t.txt")
    assert ei.value.line == 3
