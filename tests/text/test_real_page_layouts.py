"""Issue 26 item 5: every layout people copy pages from is read, or refused with a positioned error
naming the layout.  Pages in tests/fixtures/text/real-pages (addresses in SOURCES.yaml); counts are
taken from the raw text by the test's own regular expressions."""
import re
import textwrap

import pytest

from compiler.text.model import section_provisions
from compiler.text.parser import parse_file, parse_text

from text_sources import FIXTURES, run_cli

PAGES = FIXTURES / "real-pages"
CORNELL = PAGES / "58-PaCode_633a.3_cornell_TRUNCATED.txt"
JUSTIA = PAGES / "58-PaCode_653a.6_justia_2024-12-28_TRUNCATED.txt"
MARKDOWN = PAGES / "58-PaCode_625a.3_pacode.com.txt"
INDEX = PAGES / "58-PaCode_ch623a_toc_justia_2024-11-02.txt"
LABEL_AT_START = re.compile(r"^\((?:[a-z]|\d{1,2}|[ivx]{1,4})\)(?:\s|$)", re.M)


def _labels(path):
    return len(LABEL_AT_START.findall(path.read_text()))


def test_cornell_lii_page_is_read():
    d = parse_file(CORNELL)
    assert d.errors == () and d.source_cite == "58 Pa. Code § 633a.3"
    [s] = d.chapters[0].sections
    assert s.heading == "Cards; number of decks; value of cards."
    provs = [p for p in section_provisions(s)]
    assert len(provs) == _labels(CORNELL) == 12
    # a provision wrapped over lines is one text, and "§" / "633a.12(b)" on separate lines one reference
    d_prov = s.children[3]
    assert d_prov.text.startswith("The decks of cards opened for use at a Blackjack table shall be changed")
    assert [r.targets for r in d_prov.refs if r.text.startswith("§")] == [("§ 633a.12(b)",)]
    # positions are the page's own: (4) at line 16, its text going on at line 17; the cut at the last line
    b4 = s.children[1].children[3]
    assert (b4.pos.line, b4.pos.column) == (16, 1) and b4.text == ("Both batches of cards shall be continuously "
                                                                   "alternated in and out of play, with each batch "
                                                                   "being used for every other dealing shoe.")
    assert d.cut.line == len(CORNELL.read_text().rstrip().split("\n"))


def test_justia_hard_wrapped_page_is_read_with_a_label_alone_on_its_line():
    d = parse_file(JUSTIA)
    assert d.errors == ()
    assert [n.kind for n in d.notices] == ["fragment", "cut"]  # no "(5) is not on the page"
    [frag] = d.fragments
    provs = list(section_provisions(frag))
    assert len(provs) == _labels(JUSTIA) == 9
    b5 = frag.children[1].children[4]
    raw = JUSTIA.read_text().split("\n")
    assert raw[b5.pos.line - 1] == "(5)" and b5.text.startswith("A flush, which is a hand consisting of five cards")


def test_markdown_capture_is_read():
    d = parse_file(MARKDOWN)
    assert d.errors == () and d.fragments == () and d.cut is None
    [s] = d.chapters[0].sections
    assert (s.number, s.heading) == ("625a.3", "Wagers.")
    assert [p.label for p in s.children] == [str(k) for k in range(1, _labels(MARKDOWN) + 1)]
    assert s.text == "A player may place the following wagers in the game of Sic Bo:"
    assert [f.kind for f in d.furniture] == ["cross_references"]


def test_chapter_index_without_its_headings_lists_its_sections():
    raw = INDEX.read_text()
    d = parse_file(INDEX)
    [ch] = d.chapters
    entries = re.findall(r"^- Section (\d+a\.\d+) - (.*)$", raw, re.M)
    assert [(e.number, e.heading) for e in ch.sec_list] == entries and len(entries) == 12
    assert ch.title == "CRAPS AND MINI-CRAPS" and d.errors == ()
    assert not any(f.kind == "site_text" for f in d.furniture)
    from compiler.text.importer import import_file
    spec = import_file(str(INDEX), None)
    assert [m["cite"] for m in spec["missing"]] == [f"§ {n}" for n, _ in entries]


def test_what_cannot_be_read_is_a_positioned_error_naming_the_layout(tmp_path):
    page = tmp_path / "p.txt"
    page.write_text("## \u00a7 999a.3. Wagers.\n\n(a) One.\n\n(b) Two.\n\nLoose text here.\n")
    r = run_cli("text", "parse", page)
    assert r.returncode == 1
    assert f"{page}:7:1: error: unlabelled text inside the provisions of a section: not read " \
           "(page layout: Code page, Markdown)" in r.stderr
    wrapped = CORNELL.read_text().replace("(c) If a double shoe", "If a double shoe")
    d = parse_text(wrapped)
    assert any(n.message.endswith("(page layout: Cornell LII copy, hard-wrapped)") for n in d.errors)
    r = run_cli("text", "parse", INDEX.with_name("none.txt"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    empty = tmp_path / "e.txt"
    empty.write_text("Pennsylvania Code\nTitle 58 - RECREATION\nNothing here.\n")
    r = run_cli("text", "parse", empty)
    assert f"{empty}:1:1: error: no regulation text found" in r.stderr and "in this Code page" in r.stderr


JUSTIA_645C = PAGES / "58-PaCode_645c.2_justia_2024-11-02_TRUNCATED.txt"


def test_real_side_by_side_paytables_are_refused_and_lists_not_printed_are_noted():
    raw = JUSTIA_645C.read_text()
    lines = raw.split("\n")
    d = parse_file(JUSTIA_645C)
    # "Sum of Dice | Paytable A | Sum of Dice | Paytable B |": refused at its line, nothing merged
    heading = next(k + 1 for k, ln in enumerate(lines) if ln.startswith("Sum of Dice |"))
    [err] = d.errors
    assert err.kind == "refused" and err.pos.line == heading
    [s] = d.chapters[0].sections
    assert all(not p.tables for p in section_provisions(s))
    # a provision ending with ":" directly followed by the next labelled line: its list is not printed
    # (independent count over the raw lines; the last one, (g), introduces the refused table)
    expected = [re.match(r"\((\w)\)", lines[k]).group(1) for k in range(len(lines) - 1)
                if lines[k].endswith(":") and re.match(r"\(\w\) ", lines[k + 1])]
    omitted = [n for n in d.notices if n.kind == "omitted"]
    assert [n.text for n in omitted] == [f"§ 645c.2({x})" for x in expected] and len(expected) == 5
    assert all("what it introduces is not on this page" in n.message for n in omitted)
    from compiler.text.importer import import_file
    spec = import_file(str(JUSTIA_645C), None)
    cites = [m["cite"] for m in spec["missing"]]
    want = [f"§ 645c.2({x})" for x in expected]
    assert [c for c in cites if c in want] == want
    assert spec["paytables"] == {}


def _shape(d):
    return [(s.number, [x.term for x in s.definitions],
             [(p.cite, " ".join(p.text.split())) for p in section_provisions(s)])
            for ch in d.chapters for s in ch.sections]


WRAPPABLE = sorted(p for p in PAGES.glob("58-PaCode_*.txt") if "|" not in p.read_text())


@pytest.mark.parametrize("path", WRAPPABLE, ids=lambda p: p.name)
def test_a_page_hard_wrapped_reads_the_same_or_says_what_it_cannot_read(path):
    """Every real page, its provisions re-wrapped at 70 columns as Justia and Cornell print them: the
    same provisions and texts, or an error with its position -- never a different reading in silence."""
    raw = path.read_text()
    out = []
    for ln in raw.split("\n"):
        out.extend(textwrap.wrap(ln.strip(), 70) if len(ln) > 90 and re.match(r"\s*\(", ln) else [ln])
    wrapped = parse_text("\n".join(out))
    assert _shape(wrapped) == _shape(parse_file(path)) or wrapped.errors
    # pages that separate their paragraphs with blank lines (the official site) always read the same
    labelled = [k for k, ln in enumerate(raw.split("\n")) if k and re.match(r"\s*\(\w{1,4}\)\s", ln)]
    if labelled and all(not raw.split("\n")[k - 1].strip() for k in labelled):
        assert wrapped.errors == () and _shape(wrapped) == _shape(parse_file(path))
