"""Every real page kept in tests/fixtures/text/real-pages parses, and what the reader
recovers is counted again by an independent route: plain regular expressions over the
raw text (never the reader's lexer or parser).  tests/fixtures/text/real-pages/SOURCES.yaml
names each page's address and retrieval date."""
import re

import pytest
import yaml

from compiler.text.model import section_provisions
from compiler.text.parser import parse_file

from text_sources import FIXTURES

PAGES = FIXTURES / "real-pages"
FILES = sorted(p for p in PAGES.glob("*.txt"))
SOURCES = yaml.safe_load((PAGES / "SOURCES.yaml").read_text())["pages"]

LABEL = r"\((?:[a-z]{1,2}|\d{1,3}|[ivx]{1,5}|[A-Z]{1,2}|[IVX]{1,5})\)"
# a label at the start of a line, or glued after a sentence or a heading ("odds(a) The",
# "in the set.(2) Each", "as follows: (1) Each")
LABEL_ANYWHERE = re.compile(rf"(?:^\s*|(?<=[.:;])\s?|(?<=[a-z])|(?<=\d )|(?<=Push ))({LABEL})\s+(?=[A-Z])", re.M)
# a section heading: "§ N. Heading" (also as a Markdown heading "## § N."), "Section N - Heading"
# (Casetext, Justia), "58 Pa. Code § N - Heading" (Cornell LII's title line)
SECTION_HEADING = re.compile(r"^\s*(?:#{1,6}\s+)?(?:§\s+(\d+[a-z]?\.\d+)\.\s+[A-Z]|"
                             r"(?:\d+ Pa\. Code §\s+|Section )(\d+[a-z]?\.\d+) - [A-Z])", re.M)
SEC_ENTRY = re.compile(r"^\s*(?:Section )?\d+[a-z]?\.\d+\.\s+[A-Z].*$", re.M)
TABLE_HEADING = re.compile(r"(?:^|: )(?:Hand|Result)(?:\s*\|?\s*(?:Paytable [A-Z0-9]+|Payout(?: Odds)?|Envy Bonus))+",
                           re.M)
CELL = re.compile(r"\d[\d,]* (?:to|for) \d[\d,]*|\d+% (?:of meter|\w+ jackpot)|\bPush\b")
NUM = r"\d+[a-z]?\.\d+(?:\([A-Za-z0-9]+\))*"
# "§ 669a.6(c)", "§  670a.8", "§ § 653a.2, 653a.7, 653a.11, 653a.12(h) and 653a.13": one target per number
CODE_CITE = re.compile(rf"§\s*(?:§\s*)?{NUM}(?:(?:,\s(?:and\s|or\s)?|\s(?:and|or)\s|\u2014)(?:§\s*)?{NUM})*")
NOTE_START = re.compile(r"^(?:Authority|Source|Cross References|Notation|Cross Refer|58 Pa\. Code|"
                        r"The (?:temporary )?provisions of this|This section cited in|Adopted by|"
                        r"Disclaimer|No part of)", re.M)


def rule_text(raw: str, headings: bool = False) -> str:
    """The regulation text of a page by a route of its own: from the first section
    heading (or "Section N - ") to the first note or disclaimer after it."""
    m = re.search(r"^\s*(?:#{1,6}\s+)?(?:§\s+\d+[a-z]?\.\d+\.\s|(?:\d+ Pa\. Code §\s+|Section )\d+[a-z]?\.\d+ - )",
                  raw, re.M)
    if not m:
        return ""
    body = raw[m.start():]
    n = NOTE_START.search(body, 1)
    body = body[: n.start()] if n else body
    if headings:
        return body
    # the section headings themselves are not references
    return re.sub(r"^\s*(?:#{1,6}\s+)?(?:§\s+\d+[a-z]?\.\d+\.\s+[A-Z]|(?:\d+ Pa\. Code §\s+|Section )\d+[a-z]?\.\d+ - )"
                  r".*?(?=\(a\)|$)", "", body, flags=re.M)


def doc(path):
    return parse_file(path)


def test_every_page_has_its_address_and_retrieval_date():
    listed = {s["file"] for s in SOURCES}
    assert listed == {p.name for p in FILES}
    for s in SOURCES:
        assert s["url"].startswith("http") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(s["retrieved"]))
    assert len(FILES) >= 17


def test_excerpt_starting_mid_page_is_a_fragment_said_so():
    d = doc(PAGES / "58-PaCode_633b.17_casetext_EXCERPT-MIDPAGE.txt")
    assert d.chapters == () and [n.kind for n in d.notices] == ["fragment", "cut"]
    [frag] = d.fragments
    assert [len(t.rows) for t in frag.tables] == [7, 7, 7, 2]
    assert frag.tables[0].rows[-1].pays[-1] == "loss" and frag.tables[0].rows[-1].odds[-1].kind == "loss"
    assert frag.tables[3].columns[0] == "Number of Decks"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_page_parses_with_nothing_unread(path):
    d = doc(path)
    assert d.unread == (), [n.format(path.name) for n in d.unread]
    # the only error a real page may draw is a refused paytable (two printed side by side)
    assert {n.kind for n in d.errors} <= {"refused"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_sections_and_numbered_provisions_counted_independently(path):
    raw = path.read_text()
    d = doc(path)
    sections = {a or b for a, b in SECTION_HEADING.findall(raw)}
    assert {s.number for ch in d.chapters for s in ch.sections} == sections
    body = rule_text(raw)
    labels = len(LABEL_ANYWHERE.findall(body))
    got = sum(1 for ch in d.chapters for s in ch.sections for p in section_provisions(s) if not p.elided)
    assert got == labels


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_definitions_counted_independently(path):
    raw = path.read_text()
    d = doc(path)
    body = rule_text(raw, headings=True)
    m = re.search(r"(?:§\s+\d+[a-z]?\.\d+\.\s+|Section \d+[a-z]?\.\d+ - )Definitions.*?(?=^\s*§\s+\d|\Z)", body,
                  re.M | re.S)
    expected = 0
    if m:
        chunk = m.group(0)
        expected = len(re.findall(r"^\s*[A-Z][A-Za-z ,'\u2019-]{1,60}?(?:\u2014|-(?=[A-Z]))", chunk, re.M))
        # a term printed alone on its line, its text in the items below it
        expected += len(re.findall(r"^\s*[A-Z][a-z]+(?: [a-z]+)*\s*\n\s*\n?\s*\(i\)", chunk, re.M))
    got = sum(len(s.definitions) for ch in d.chapters for s in ch.sections)
    assert got == expected


def _pipe_cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _pipe_heading(line):
    """A pipe line of headings: no cell after the first reads as a figure."""
    return not any(re.match(r"[\d$]|Push$|loss$", c, re.I) for c in _pipe_cells(line)[1:])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_paytables_rows_and_cells_counted_independently(path):
    raw = path.read_text()
    d = doc(path)
    sections = [s for ch in d.chapters for s in ch.sections] + list(d.fragments)
    tables = [t for s in sections for t in list(s.tables) + [t for p in section_provisions(s) for t in p.tables]]
    # a table the reader refuses (two printed side by side) is not counted: its lines are kept as
    # furniture, and the refusal is an error at its first line
    refused = {f.pos.line for f in d.furniture if f.kind == "refused_table"}
    if refused:
        assert any(n.kind == "refused" and n.pos.line == min(refused) for n in d.errors)
    lines = [ln if k + 1 not in refused else "" for k, ln in enumerate(raw.split("\n"))]
    pipe_heads = [ln for ln in lines if ln.count("|") >= 2 and _pipe_heading(ln.split(": ")[-1])]
    plain_heads = [ln for ln in lines if "|" not in ln and TABLE_HEADING.search(ln)]
    assert len(tables) == len(pipe_heads) + len(plain_heads)
    # cells: a pipe table's cells after the first of each row line; a printed table's payouts
    # after its heading on its own line (a flattened table, up to the next label) and on the
    # lines below it, up to a blank line or the next labelled line
    cells = sum(len(_pipe_cells(ln)) - 1 for ln in lines
                if "|" in ln and not _pipe_heading(ln) and len(_pipe_cells(ln)) > 1 and not ln.startswith("("))
    k = 0
    while k < len(lines):
        h = TABLE_HEADING.search(lines[k]) if "|" not in lines[k] else None
        if not h:
            k += 1
            continue
        cells += len(CELL.findall(re.split(r" \([a-z]\) | § ", lines[k][h.end():])[0]))
        k += 1
        while k < len(lines) and lines[k].strip() and not re.match(r"\s*\(|This section", lines[k]):
            cells += len(CELL.findall(lines[k]))
            k += 1
    got = sum(len(r.pays) for t in tables for r in t.rows)
    assert got == cells


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_cross_references_counted_independently(path):
    raw = path.read_text()
    d = doc(path)
    body = rule_text(raw)
    # Code citations: one target per "§ N" (statutes, "4 Pa.C.S. § 1202", have no dot in the number)
    expected = sum(len(re.findall(r"\d+[a-z]?\.\d+", m)) for m in CODE_CITE.findall(body))
    expected_chapters = len(re.findall(r"\bChapter \d+[a-z]?\b(?!\.)", body))
    expected_internal = len(re.findall(rf"\b(?:subsection|paragraph)s? {LABEL}", body))
    refs = [r for ch in d.chapters for s in ch.sections
            for r in list(s.refs) + [r for df in s.definitions for r in df.refs]
            + [r for p in section_provisions(s) for r in p.refs]]
    assert sum(len(r.targets) for r in refs if r.text.startswith("§")) == expected
    assert sum(1 for r in refs if r.text.startswith("Chapter")) == expected_chapters
    assert sum(1 for r in refs if r.text.startswith(("subsection", "paragraph"))) == expected_internal
    # and nothing is dropped: every "§ N" of the rule text is the start or part of one reference
    for m in CODE_CITE.finditer(body):
        num = re.search(r"\d+[a-z]?\.\d+", m.group(0)).group(0)
        assert any(num in t for r in refs for t in r.targets), num


def test_code_page_citing_a_bulletin_issue_is_a_code_page():
    d = doc(PAGES / "58-PaCode_669a.1_pacode.com_2024-01-27.txt")
    assert d.format == "code"
    assert (d.source_cite, d.date) == ("58 Pa. Code § 669a.1", "2024-01-27")
    ref = d.chapters[0].sections[0].definitions[2].refs[0]
    assert ref.targets == ("§ 669a.6(c)",) and ref.relating_to == "Raise It Up Stud Poker hand rankings"


def test_cross_reference_after_section_sign_and_two_spaces_is_kept():
    d = doc(PAGES / "58-PaCode_670a.7_pacode.com_2024-01-27_TRUNCATED.txt")
    c = d.chapters[0].sections[0].children[2]
    [r] = [r for r in c.refs if r.text.startswith("§")]
    assert r.targets == ("§ 670a.8", "§ 670a.9", "§ 670a.10") and r.external


def test_pages_cut_short_say_where():
    for name, line in [("58-PaCode_670a.7_pacode.com_2024-01-27_TRUNCATED.txt", 22),
                       ("58-PaCode_621a.4_casetext_2024-11-09_TRUNCATED.txt", 2),
                       ("58-PaCode_655a.12_pacodeandbulletin_2024-01-27_TRUNCATED.txt", 43),
                       ("43-PaCode_ch9_pacodeandbulletin_2024-08-31_TRUNCATED.txt", 54)]:
        d = doc(PAGES / name)
        assert d.cut is not None and d.cut.line == line, name
        assert not any(ch.complete for ch in d.chapters)
    whole = doc(PAGES / "58-PaCode_669a.6_casetext_2024-06-22.txt")
    assert whole.cut is None


def test_preamble_without_rule_text_gets_a_clear_message():
    d = doc(PAGES / "46-PaB-5540_2016-08-27_ch669a-670a-final_EXCERPT.txt")
    assert d.chapters == () and d.source_cite == "46 Pa.B. 5540" and d.date == "2016-08-27"
    [n] = [n for n in d.notices if n.kind == "no_rule_text"]
    assert "no rule text on this page" in n.message and "669a" in n.message
    assert "669a" in d.affects and "670a" in d.affects


def test_third_party_definitions_with_hyphen():
    d = doc(PAGES / "58-PaCode_669a.1_justia_2024-11-02.txt")
    defs = d.chapters[0].sections[0].definitions
    assert [x.term for x in defs] == ["Community card", "Envy Bonus", "Envy Bonus Qualifying Hand", "Fold", "Push"]
    assert defs[3].text == "The withdrawal of a player from a round of play by not making a Play Wager."


def test_paytable_one_row_per_line_with_glued_cells_and_a_group():
    d = doc(PAGES / "58-PaCode_665a.12_pacodeandbulletin.txt")
    [t] = d.chapters[0].sections[0].children[2].tables
    assert [(r.label, r.pays) for r in t.rows][:3] == [("8, 8, 8 of the same suit", ("200 to 1",)),
                                                      ("8, 8, 8 of the same color", ("50 to 1",)),
                                                      ("Third card drawn:", ())]
    assert t.rows[3].group == "Third card drawn:" and t.rows[3].label == "Is a 6"
    assert t.rows[-1].label == "Is a king, queen or jack" and t.rows[-1].pays == ("3 to 1",)
    # "Is a 96 to 1" is "Is a 9" + "6 to 1" on the real page: the reader cannot know, and says so
    [n] = [n for n in d.notices if n.kind == "ambiguous"]
    assert n.pos.line == 18 and "'Is a 9' paying '6 to 1'" in n.message


def test_pipe_tables_glued_after_text():
    d = doc(PAGES / "58-PaCode_671a.12_casetext_2024-11-09.txt")
    s = d.chapters[0].sections[0]
    assert [c.label for c in s.children] == ["a", "b", "c", "d"]
    assert s.children[0].tables[0].columns == ("Paytable A", "Paytable B", "Paytable C")
    assert s.children[0].text.endswith("(relating to table games Rules Submissions):")
    assert [r.hand for r in s.children[3].tables[0].rows][-1] == "ace_king"


def test_source_notes_give_the_amending_documents():
    d = doc(PAGES / "58-PaCode_605a.1_pacode.com_2024-01-27.txt")
    assert [(e.action, e.date, e.effective, e.cite) for e in d.history] == [
        ("amended", "2014-08-15", "2014-08-16", "44 Pa.B. 5463"),
        ("amended", "2017-12-15", "2017-12-16", "47 Pa.B. 7563")]
    d = doc(PAGES / "58-PaCode_653b.3_pacodeandbulletin.txt")
    [e] = d.history
    assert (e.action, e.expires, e.cite) == ("added", "2026-03-23", "54 Pa.B. 1537")


def test_third_party_chapter_page_lists_its_sections():
    d = doc(PAGES / "58-PaCode_ch629a_parules.elaws_2016-04-05.txt")
    [ch] = d.chapters
    raw = (PAGES / "58-PaCode_ch629a_parules.elaws_2016-04-05.txt").read_text()
    assert len(ch.sec_list) == len(SEC_ENTRY.findall(raw)) == 13
    assert ch.sec_list[-1].heading == "Irregularities"
    assert "toc_table" in {f.kind for f in d.furniture}


def test_official_chapter_page_sec_list_one_per_line():
    path = PAGES / "43-PaCode_ch9_pacodeandbulletin_2024-08-31_TRUNCATED.txt"
    d = doc(path)
    [ch] = d.chapters
    assert ch.title == "PERSIAN GULF CONFLICT VETERANS\u2019 BENEFIT PROGRAM"
    assert len(ch.sec_list) == len(SEC_ENTRY.findall(path.read_text())) == 13
    active = ch.section("9.2").definitions[-1]
    assert active.term == "Active service" and [c.label for c in active.children] == ["i"]
    assert d.source_cite == "Pa. Code Chapter 9"  # the page does not print its Title: none invented


def _shape(d):
    return ([(s.number, len(s.definitions), [p.cite for p in section_provisions(s)],
              [(t.columns, [r.pays for r in t.rows]) for p in section_provisions(s) for t in p.tables],
              sorted(r.text.replace("\u00a0", " ").replace("  ", " ") for p in section_provisions(s) for r in p.refs))
             for ch in d.chapters for s in ch.sections], d.source_cite, d.date, d.cut is not None,
            sorted(n.kind for n in d.notices))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_layout_variants_read_alike(path, tmp_path):
    """The same page saved with CRLF line ends, a byte-order mark, or a no-break space after
    every section sign reads the same."""
    raw = path.read_text()
    base = _shape(doc(path))
    for name, text in [("crlf", raw.replace("\n", "\r\n")), ("bom", "\ufeff" + raw),
                       ("nbsp", re.sub(r"§ +", "§\u00a0", raw))]:
        p = tmp_path / f"{name}_{path.name}"
        p.write_bytes(text.encode("utf-8"))
        assert _shape(parse_file(p)) == base, name
