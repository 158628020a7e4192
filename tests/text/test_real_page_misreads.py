"""Issue 26: the silent misreads of real pages, each read right or refused with its position.
Pages are kept in tests/fixtures/text/real-pages with their addresses (SOURCES.yaml); every
count or value is checked against the raw text by a route of the test's own (a regular
expression over the page, or the same section printed by another site)."""
import re

import pytest

from compiler.text.errors import TextError
from compiler.text.parser import parse_file, parse_text

from text_sources import FIXTURES, run_cli, run_rulespec

PAGES = FIXTURES / "real-pages"
P679 = PAGES / "58-PaCode_679a.1_pacodeandbulletin_2024-01-27.txt"
P657_CODE = PAGES / "58-PaCode_657a.1_pacode.com_2023-12-30_TRUNCATED.txt"
P657_CASETEXT = PAGES / "58-PaCode_657a.1_casetext_2024-06-22_TRUNCATED.txt"


def _terms(path):
    return [d.term for ch in parse_file(path).chapters for s in ch.sections for d in s.definitions]


@pytest.mark.parametrize("path", [P679, P657_CODE], ids=lambda p: p.name)
def test_term_runs_to_the_em_dash_with_hyphens_inside(path):
    # the official pages print "Term—text": the term is everything before the first em dash
    raw = path.read_text()
    expected = re.findall(r"^ {3}([^\s(][^\u2014\n]*?)\u2014", raw, re.M)
    assert _terms(path) == expected
    assert len(set(expected)) == len(expected)


def test_all_six_bonus_wager_is_one_term():
    terms = _terms(P679)
    assert "All-Six Bonus Wager" in terms and "All" not in terms
    d = parse_file(P679).chapters[0].sections[0].definitions[0]
    assert d.text.startswith("An optional wager")


def test_hyphen_copy_reads_the_terms_of_the_official_page():
    # casetext prints "-" for the em dash and "Five-Card" with a hyphen: the terms are those the
    # official page of the same section prints (up to where the official page is cut)
    official = _terms(P657_CODE)
    copy = _terms(P657_CASETEXT)
    assert copy[: len(official)] == official
    assert copy[len(official):] == ["Magic Card Bonus"]
    assert [t for t in copy if t.startswith(("Five", "Four"))] == [
        "Five-Card Envy Bonus", "Five-Card Envy Bonus Qualifying Hand", "Five-Card Progressive Payout Hand",
        "Four-Card Envy Bonus", "Four-Card Envy Bonus Qualifying Hand", "Four-Card Progressive Payout Hand"]


@pytest.mark.parametrize("term", ["Player's & Dealer's Bonus", "6-Card Bonus", "Pair 'n' Plus"])
def test_term_with_ampersand_digit_apostrophe(term):
    for dash in ("\u2014", "-"):
        text = f"\u00a7 999a.1. Definitions.\n\n{term}{dash}A wager that wins on a pair.\n"
        [d] = parse_text(text).chapters[0].sections[0].definitions
        assert (d.term, d.text) == (term, "A wager that wins on a pair.")


DUPLICATE = ("\u00a7 999a.1. Definitions.\n\nHand\u2014The cards.\n\n"
             "Ante\u2014A wager.\n\nAnte\u2014Another wager.\n")


def test_duplicate_terms_are_an_error_with_their_positions(tmp_path):
    d = parse_text(DUPLICATE)
    [n] = d.errors
    assert n.kind == "duplicate" and (n.pos.line, n.pos.column) == (7, 1)
    assert "'Ante'" in n.message and "line 5" in n.message
    with pytest.raises(TextError) as exc:
        parse_text(DUPLICATE, strict=True)
    assert exc.value.line == 7
    page = tmp_path / "dup.txt"
    page.write_text(DUPLICATE + "\nBonus\u2014One.\n\nBonus\u2014Two.\n")
    r = run_cli("text", "parse", page)
    assert r.returncode == 1
    assert re.findall(r":(\d+):1: error: duplicate term", r.stderr) == ["7", "11"]
    r = run_cli("import", page)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert re.findall(r":(\d+):1: error: duplicate term", r.stderr) == ["7", "11"]


# ---------------------------------------------------------------- payouts are spans of the page

P665 = PAGES / "58-PaCode_665a.12_pacodeandbulletin.txt"
ALL_PAGES = sorted(PAGES.glob("*.txt"))


def _tables(d):
    from compiler.text.model import section_provisions
    secs = [s for ch in d.chapters for s in ch.sections] + list(d.fragments)
    return [t for s in secs for t in list(s.tables) + [t for p in section_provisions(s) for t in p.tables]]


@pytest.mark.parametrize("path", ALL_PAGES, ids=lambda p: p.name)
def test_every_payout_kept_is_the_text_at_its_position(path):
    lines = path.read_text().split("\n")
    d = parse_file(path)
    for t in _tables(d):
        for r in t.rows:
            assert len(r.cells) == len(r.pays)
            for pay, pos in zip(r.pays, r.cells):
                line = lines[pos.line - 1]
                at = line[pos.column - 1:]
                assert at.startswith(pay), (r.label, pay, pos)
                # no digit runs on on either side of the payout
                assert not (pos.column > 1 and line[pos.column - 2].isdigit() and pay[0].isdigit())
                assert not at[len(pay):len(pay) + 1].isdigit()


def test_is_a_96_to_1_is_not_imported_as_a_payout(tmp_path):
    from compiler.text.importer import import_file
    raw = P665.read_text()
    assert raw.split("\n")[17] == " Is a 96 to 1"  # the row as the page prints it
    spec = import_file(str(P665), None)
    [table] = spec["paytables"].values()
    labels = [r["label"] for r in table["rows"]]
    assert "Third card drawn: Is a" not in labels
    assert all(r["pays"] != ["96 to 1"] and r["pays"] != ["6 to 1"] for r in table["rows"])
    # the other rows are kept, each as printed (an independent count: rows with a payout on the page,
    # less the one in doubt)
    printed = re.findall(r"^(.*?)\s?(\d+ to \d+)$", raw.split("Hand Payout\n")[1].split("\n\n")[0], re.M)
    assert len(table["rows"]) == len(printed) - 1
    # the note of `text parse` is kept beside the table it concerns, and the row is listed as missing
    assert "line 18" in table["note"] and "'Is a 9' paying '6 to 1'" in table["note"]
    assert any("line 18" in m["what"] and m["cite"] == "§ 665a.12(c)" for m in spec["missing"])
    from compiler.text.importer import dump_yaml
    out = tmp_path / "665a.yaml"
    out.write_text(dump_yaml(spec))
    r = run_cli_main("validate", out)
    assert r.returncode == 0, r.stdout + r.stderr


def run_cli_main(*args):
    return run_rulespec(*args)


# ---------------------------------------------------------------- tables side by side

HEAD = ("\u00a7 999a.12. Payout odds.\n\n (a)  The certificate holder shall pay at the odds in one of the "
        "following paytables:\n\n")
SIDE_BY_SIDE = {
    # the headings of both tables on one line
    "headings": ("Hand Paytable A Hand Paytable B\nRoyal flush 500 to 1 Royal flush 250 to 1\n"
                 "Straight 1 to 1 Less than a flush Push\n", 5),
    "pipes": ("Hand | Paytable A | Hand | Paytable B |\nRoyal flush | 500 to 1 | Royal flush | 250 to 1 |\n"
              "Flush | 3 to 2 | Flush | 4 to 1 |\n", 5),
    "payouts": ("Hand Payout Hand Payout\nRoyal flush 500 to 1 Three-of-a-kind 4 to 1\n", 5),
    # one heading, but each row carries the other table's hand and payout beside its own
    "rows": ("Hand Paytable A Paytable B\nRoyal flush 500 to 1 Royal flush 250 to 1\nFlush 3 to 2 Flush 4 to 1\n", 6),
    "one column": ("Hand Payout\nRoyal flush 500 to 1\nStraight 1 to 1 Three-of-a-kind 4 to 1\n", 7),
}


@pytest.mark.parametrize("name", SIDE_BY_SIDE)
def test_tables_side_by_side_are_refused_with_their_position_never_merged(name, tmp_path):
    body, line = SIDE_BY_SIDE[name]
    text = HEAD + body + "\n (b)  Other.\n"
    d = parse_text(text)
    [err] = d.errors
    assert err.kind == "refused" and (err.pos.line, err.pos.column) == (line, 1)
    assert "side by side" in err.message
    # nothing of the refused table is read as a table (no row of one carries the other's payout) ...
    assert _tables(d) == []
    # ... and nothing is lost: every line of it is kept, with its position
    kept = {f.pos.line for f in d.furniture if f.kind == "refused_table"}
    assert kept == set(range(5, 5 + body.count("\n")))
    assert [c.label for c in d.chapters[0].sections[0].children] == ["a", "b"]
    with pytest.raises(TextError) as exc:
        parse_text(text, strict=True)
    assert exc.value.line == line
    page = tmp_path / "p.txt"
    page.write_text(text)
    r = run_cli("text", "parse", page)
    assert r.returncode == 1 and f"{page}:{line}:1: error: paytable refused" in r.stderr
    from compiler.text.importer import import_file
    spec = import_file(str(page), None)
    assert spec["paytables"] == {}
    assert any(f"line {line}" in m["what"] and "refused" in m["what"] for m in spec["missing"])


def test_tables_one_under_the_other_are_still_read():
    # the real page that prints a choice of paytables one under the other reads as before
    path = PAGES / "58-PaCode_653a.12_pacodeandbulletin_2023-12-30_TRUNCATED.txt"
    d = parse_file(path)
    assert d.errors == ()
    assert [t.columns for t in _tables(d)][:4] == [("Paytable A",), ("Paytable B",), ("Paytable A", "Paytable B"),
                                                   ("Paytable C", "Paytable D")]


# ---------------------------------------------------------------- a page's extent

def test_every_page_is_cut_exactly_where_its_sources_entry_says():
    # SOURCES.yaml records, by hand, which pages stop partway ("cut: true"); the reader finds the
    # same by itself (a cut in the page furniture leaves the regulation text whole)
    import yaml
    sources = {s["file"]: s for s in yaml.safe_load((PAGES / "SOURCES.yaml").read_text())["pages"]}
    for path in ALL_PAGES:
        d = parse_file(path)
        kinds = {n.kind for n in d.notices} & {"cut", "cut_furniture"}
        assert bool(kinds) == bool(sources[path.name].get("cut")), (path.name, kinds)


WHOLE = ["58-PaCode_679a.1_pacodeandbulletin_2024-01-27.txt", "58-PaCode_669a.6_casetext_2024-06-22.txt",
         "58-PaCode_671a.12_pacodeandbulletin_2024-08-31.txt", "58-PaCode_669a.1_justia_2024-11-02.txt"]


@pytest.mark.parametrize("name", WHOLE)
def test_a_whole_page_cut_anywhere_in_its_text_says_so(name):
    raw = (PAGES / name).read_text()
    assert parse_file(PAGES / name).cut is None
    # the regulation text by a route of the test's own: from the section heading to the first note
    start = re.search(r"^(?:§\s+\d|Section \d)", raw, re.M).end()
    end = start + re.search(r"^\s*(?:No part of|Authority|Source|Cross References|Disclaimer|This section cited|"
                            r"58 Pa\. Code)", raw[start:], re.M).start()
    # cuts at the end of each line (a full sentence, a colon, a paytable row, "and"/"or" mid-sentence)
    # and in the middle of a word
    ends = [m.end() for m in re.finditer(r"\S(?=\n)", raw[start:end])]
    words = [m.start() + 3 for m in re.finditer(r"\b[a-z]{6,}\b", raw[start:end])][::4]
    for k in sorted(set(ends + words)):
        d = parse_text(raw[:start + k])
        assert d.cut is not None, repr(raw[start + k - 30:start + k])


@pytest.mark.parametrize("ending, why", [
    ("Lucky Bonus\u2014An additional payout to a player who placed a Five Card Hand Bonus Wager on:", "':'"),
    ("Hand\u2014The four-card Poker hand that is held by each player and the dealer after the cards are dealin",
     "mid-sentence"),
    ("Hand\u2014A hand with a rank of a flush or", "mid-sentence"),
    ("Hand\u2014A hand with a rank of a flush; or", "next item"),
    ("Hand\u2014A hand that is held by each player.", "full sentence"),
])
def test_cuts_at_a_colon_mid_word_or_sentence_end_are_recorded(ending, why):
    head = P657_CODE.read_text().split("   Five-Card Envy Bonus\u2014")[0]
    d = parse_text(head + "   " + ending + "\n")
    [n] = [n for n in d.notices if n.kind == "cut"]
    assert why in n.message and d.cut == n.pos and n.pos.column == 4 + len(ending)


# ---------------------------------------------------------------- import drafts valid data

def test_import_of_every_real_page_is_valid_with_its_missing_entries(tmp_path):
    from compiler.text.importer import dump_yaml, import_file
    written = []
    for path in ALL_PAGES:
        d = parse_file(path)
        if not d.chapters or d.fragments or not (d.source_cite or "").startswith("58 Pa. Code"):
            continue
        out = tmp_path / (path.stem + ".yaml")
        out.write_text(dump_yaml(import_file(str(path), None)))
        written.append(out)
    assert len(written) >= 20
    r = run_cli_main("validate", *written)
    assert r.returncode == 0, "\n".join(ln for ln in (r.stdout + r.stderr).splitlines() if "error" in ln)


def test_import_lists_the_provision_a_page_cuts_off_with_a_citation_validate_accepts():
    from compiler.text.importer import import_file
    spec = import_file(str(P657_CODE), None)
    [m] = spec["missing"]
    assert m["cite"] == "\u00a7 657a.1"
    assert m["what"].startswith("definition 'Lucky Bonus', item (ii): the source page is cut short here (line 32")


def test_import_keeps_the_gap_note_of_text_parse_as_a_missing_entry(tmp_path):
    from compiler.text.importer import import_file
    page = tmp_path / "gap.txt"
    page.write_text("\u00a7 999a.3. Wagers.\n\n(a) One.\n\n(c) Three.\n")
    [n] = [n for n in parse_file(page).notices if n.kind == "gap"]
    spec = import_file(str(page), None)
    assert spec["missing"] == [{"cite": "\u00a7 999a.3", "what": f"line 5: {n.message}"}]
    assert spec["completeness"] == "partial"
