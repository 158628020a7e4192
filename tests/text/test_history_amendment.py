"""``rulespec history`` over real dated pages, the declared renumbering, and Bulletin
amendment markup read back and written."""
import json
import re

import yaml

from compiler.text.diff import diff_files, format_amendment
from compiler.text.history import build, diff_dates, format_history, load_map
from compiler.text.markup import amendment_changes, read_markup, versions
from compiler.text.parser import parse_file

from text_sources import BULLETIN_2010, BULLETIN_2015, FIXTURES, run_cli, run_rulespec

PAGES = FIXTURES / "real-pages"
CASETEXT_669A6 = PAGES / "58-PaCode_669a.6_casetext_2024-06-22.txt"
CODE_669A6_CUT = PAGES / "58-PaCode_669a.6_pacodeandbulletin_2023-12-30_TRUNCATED.txt"
FINAL_2016 = PAGES / "46-PaB-5540_2016-08-27_ch669a-670a-final_EXCERPT.txt"
SYNTHETIC_651A3 = FIXTURES / "history" / "651a.3_synthetic_2016-01-02.txt"
BASE = FIXTURES / "669a_base.txt"


def _raw_669a6c(path):
    """§ 669a.6(c) as printed, found with a regular expression (not the reader)."""
    m = re.search(r"\(c\)\s+(For purposes of the Pair Plus Wager.*?be:)", path.read_text())
    return m.group(1)


def test_669a_6_c_must_became_shall_between_2015_bulletin_and_2024_copy():
    assert "hands must be:" in _raw_669a6c(BULLETIN_2015) and "hands shall be:" in _raw_669a6c(CASETEXT_669A6)
    h = build([str(BULLETIN_2015), str(CODE_669A6_CUT), str(CASETEXT_669A6), str(FINAL_2016)], chapter="669a")
    entries = h.timelines["§ 669a.6(c)"]
    assert [(e.date, e.kind) for e in entries] == [("2015-08-01", "text"), ("2024-06-22", "amended")]
    changed = [w for w in entries[1].change.words if w[0] != "equal"]
    assert changed == [["replace", "must", "shall"]]
    # the 2023 Code page is cut before the word: the change is dated from the last version
    # that printed it (2015), and the one document in between naming Chapter 669a is named
    assert entries[1].between == ("2015-08-01", "2024-06-22")
    assert entries[1].made_by == ["46 Pa.B. 5540 (2016-08-27)"]
    # nothing else in § 669a.6 changed
    others = [c for c, es in h.timelines.items() if c.startswith("§ 669a.6") and c != "§ 669a.6(c)"
              and any(e.kind not in ("text",) for e in es)]
    assert others == []


def test_669a_6_c_found_by_diff_and_by_diff_of_dates():
    [cd] = diff_files(str(BULLETIN_2015), str(CASETEXT_669A6)).chapters
    [c] = [c for c in cd.changes if c.kind == "amended"]
    assert c.new_cite == "§ 669a.6(c)" and [w for w in c.words if w[0] != "equal"] == [["replace", "must", "shall"]]
    h = build([str(BULLETIN_2015), str(CASETEXT_669A6)], chapter="669a")
    [cd] = diff_dates(h, "2016-01-01", "2024-12-31").chapters
    assert [(c.kind, c.new_cite) for c in cd.changes if c.kind not in ("unchanged",)] == [("amended", "§ 669a.6(c)")]


def test_cli_history_text_and_json():
    r = run_cli("history", BULLETIN_2015, CASETEXT_669A6, FINAL_2016, "--chapter", "669a")
    assert r.returncode == 0, r.stderr
    assert "§ 669a.6(c)" in r.stdout and "[-must-]{+shall+}" in r.stdout and "46 Pa.B. 5540" in r.stdout
    r = run_cli("history", BULLETIN_2015, CASETEXT_669A6, "--chapter", "669a", "--format", "json")
    data = json.loads(r.stdout)
    assert [e["kind"] for e in data["provisions"]["§ 669a.6(c)"]] == ["text", "amended"]
    r = run_cli("history", BULLETIN_2015, CASETEXT_669A6)
    assert r.returncode == 1 and "choose one with --chapter" in r.stderr and "Traceback" not in r.stderr


def test_renumbering_is_data_and_followed():
    mapping = load_map(None)
    assert {(m["from"], m["to"]) for m in mapping} >= {("567", "651a"), ("535", "621a")}
    h = build([str(BULLETIN_2010), str(SYNTHETIC_651A3)], chapter="651a")
    first, second = h.timelines["§ 651a.3(a)"]
    assert first.printed_as == "§ 567.3(a)"
    assert [w for w in second.change.words if w[0] != "equal"] == [["replace", "to", "or"]]
    # the rest of § 567.3 reads the same as § 651a.3: citations inside follow the renumbering
    changed = [c for c, es in h.timelines.items() if any(e.kind != "text" for e in es)]
    assert changed == ["§ 651a.3(a)"]
    text = format_history(h)
    assert "printed as § 567.3(a)" in text and "not among the inputs" in text


def test_renumbering_from_another_mapping_file(tmp_path):
    m = tmp_path / "map.yaml"
    m.write_text(yaml.safe_dump({"renumbering": [{"from": "567", "to": "999z"}]}))
    h = build([str(BULLETIN_2010)], map_path=str(m), chapter="999z")
    assert "§ 999z.3(a)" in h.timelines
    bad = tmp_path / "bad.yaml"
    bad.write_text("renumbering:\n  - from: 567\n")
    r = run_cli("history", BULLETIN_2010, "--map", bad, "--chapter", "651a")
    assert r.returncode == 1 and "needs 'from' and 'to'" in r.stderr


def test_read_markup_brackets_and_bold():
    v = read_markup("the hands **[must]** **shall** be:")
    assert (v.old, v.new, v.deleted, v.added) == ("the hands must be:", "the hands shall be:", ("must",), ("shall",))
    v = read_markup("the hands [must] shall be:")   # a capture: the bold is lost
    assert v.new == "the hands shall be:" and v.deleted == ("must",) and v.added == ()


def test_amendment_output_read_back_gives_the_new_version(tmp_path):
    for name in ("669a_renumbered_subsection.txt", "669a_deleted_sentence.txt", "669a_inserted_paragraph.txt"):
        new = FIXTURES / name
        out = tmp_path / f"amend_{name}"
        out.write_text("[45 Pa.B. 4185]\n[Saturday, August 1, 2015]\nAnnex A\nCHAPTER 669a. RAISE IT UP STUD POKER\n"
                       + format_amendment(diff_files(str(BASE), str(new))))
        [cd] = diff_files(str(new), str(out)).chapters
        assert not cd.substantive, name
        old_text, _ = versions(out.read_text())
        [cd] = diff_files(str(BASE), str(parse_and_save(tmp_path, old_text))).chapters
        assert not cd.substantive, name


def parse_and_save(tmp_path, text):
    p = tmp_path / "old_version.txt"
    p.write_text(text)
    return p


def test_amendment_capture_with_brackets_is_understood(tmp_path):
    cap = tmp_path / "capture.txt"
    raw = BULLETIN_2015.read_text()
    c = _raw_669a6c(BULLETIN_2015)
    cap.write_text("[45 Pa.B. 9999]\n[Saturday, January 2, 2016]\nAnnex A\n§ 669a.6. Raise It Up Stud Poker hand rankings."
                   "\n* * * * *\n(c) " + c.replace("must be:", "[must] shall be:") + "\n* * * * *\n")
    assert "(c) " + c in raw
    assert amendment_changes(cap.read_text()) == [{"line": 6, "change": "deleted", "old": "must"}]
    d = parse_file(cap)
    assert any(n.kind == "amendment" and "bold of the additions is lost" in n.message for n in d.notices)
    [cd] = diff_files(str(BULLETIN_2015), str(cap)).chapters
    [ch] = [c for c in cd.changes if c.kind == "amended"]
    assert ch.new_cite == "§ 669a.6(c)" and [w for w in ch.words if w[0] != "equal"] == [["replace", "must", "shall"]]
    r = run_cli("text", "amendment", cap)
    assert r.returncode == 0 and "6: deleted: must" in r.stdout


def test_amendment_from_html(tmp_path):
    page = tmp_path / "amend.html"
    page.write_text("<html><body><p>[45 Pa.B. 9999]</p><p>[Saturday, January 2, 2016]</p><p>Annex A</p>"
                    "<p>&sect; 669a.6. Raise It Up Stud Poker hand rankings.</p><p>* * * * *</p>"
                    "<p>(c) For purposes of the Pair Plus Wager, the hands <b>[must]</b> <b>shall</b> be:</p>"
                    "</body></html>")
    r = run_cli("text", "amendment", page, "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["bold_known"] and [(c["change"], c.get("old") or c.get("new")) for c in data["changes"]] == [
        ("deleted", "must"), ("added", "shall")]


def test_amendment_json_no_change_and_table_reprint():
    r = run_cli("diff", BASE, FIXTURES / "669a_changed_odds.txt", "--amendment", "--format", "json")
    data = json.loads(r.stdout)
    [s] = data["sections"]
    assert s["section"] == "669a.12" and data["change"] is True
    # the table reprinted as the Bulletin prints it, the changed cell marked; no internal id
    assert "Three-of-a-kind | 30 to 1 | **[25 to 1]** **30 to 1** | 30 to 1 | 30 to 1" in s["lines"]
    assert not any("pair_plus" in ln for ln in s["lines"])
    r = run_cli("diff", BASE, FIXTURES / "669a_typography.txt", "--amendment")
    assert r.returncode == 0 and r.stdout.startswith("no change:") and "typography only" in r.stdout
    r = run_cli("diff", BASE, BASE, "--amendment", "--format", "json")
    assert json.loads(r.stdout)["change"] is False


def test_amendment_trailing_ellipsis_only_when_text_follows():
    # § 669a.13(g) is the section's last provision: nothing follows the change
    text = format_amendment(diff_files(str(BASE), str(FIXTURES / "669a_renumbered_subsection.txt")))
    assert not text.rstrip().endswith("* * * * *")
    text = format_amendment(diff_files(str(BASE), str(FIXTURES / "669a_deleted_sentence.txt")))
    assert text.rstrip().endswith("* * * * *")   # (c)... of § 669a.7 follow unchanged


def test_import_of_code_page_validates_with_citation_and_date(tmp_path):
    for name, cite, date in [("58-PaCode_669a.1_pacode.com_2024-01-27.txt", "58 Pa. Code § 669a.1", "2024-01-27"),
                             ("58-PaCode_669a.6_casetext_2024-06-22.txt", "58 Pa. Code § 669a.6", "2024-06-22"),
                             ("58-PaCode_671a.12_casetext_2024-11-09.txt", "58 Pa. Code § 671a.12", "2024-11-09"),
                             ("58-PaCode_655a.12_pacodeandbulletin_2024-01-27_TRUNCATED.txt",
                              "58 Pa. Code § 655a.12", "2024-01-27")]:
        out = tmp_path / f"{name}.yaml"
        r = run_cli("import", PAGES / name, "-o", out)
        assert r.returncode == 0, r.stderr
        spec = yaml.safe_load(out.read_text())
        assert (spec["source"]["citation"], spec["source"]["date"]) == (cite, date)
        r = run_rulespec("validate", out)
        assert r.returncode == 0 and "1 rulespec valid" in r.stdout, r.stdout + r.stderr
    spec = yaml.safe_load((tmp_path / "58-PaCode_669a.1_pacode.com_2024-01-27.txt.yaml").read_text())
    assert spec["externals"] == [{"cite": "§ 669a.6", "title": "Raise It Up Stud Poker hand rankings"}]


def test_amendment_html_reprints_the_table_well_formed():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from html_check import assert_self_contained, check_html

    html = format_amendment(diff_files(str(BASE), str(FIXTURES / "669a_changed_odds.txt")), html=True)
    tags = check_html(html)
    assert_self_contained(html, tags)
    assert "<td>Three-of-a-kind</td><td>30 to 1</td><td><b>[25 to 1]</b> <b>30 to 1</b></td>" in html


def test_unexpected_line_is_reported_and_the_rest_read(tmp_path):
    page = tmp_path / "stray.txt"
    page.write_text("CHAPTER 999. TEST\nSec.\n999.1. One.\nSome stray editorial text here.\n§ 999.1. One.\n(a) Text.\n")
    d = parse_file(page)
    [n] = d.unread
    assert (n.pos.line, n.pos.column) == (4, 1) and n.text == "Some stray editorial text here."
    assert [c.label for c in d.chapters[0].sections[0].children] == ["a"]
    r = run_cli("text", "parse", page)
    assert r.returncode == 1 and f"{page}:4:1: error: unexpected text here" in r.stderr


def test_every_real_669a_670a_page_against_the_2015_bulletin():
    """The only amendment among the real pages of these chapters is § 669a.6(c); cut pages,
    site typography (’ for ', - for —) and third-party layouts are no change."""
    found = {}
    pages = [p for p in PAGES.glob("58-PaCode_6*.txt") if p.name.startswith(("58-PaCode_669a.", "58-PaCode_670a."))]
    for page in sorted(pages):
        for cd in diff_files(str(BULLETIN_2015), str(page)).chapters:
            found[page.name] = [(c.kind, c.new_cite or c.old_cite) for c in cd.changes
                                if c.kind not in ("unchanged", "no substantive change", "cut", "elided")]
    assert len(found) == 5
    assert {k: v for k, v in found.items() if v} == {
        "58-PaCode_669a.6_casetext_2024-06-22.txt": [("amended", "§ 669a.6(c)")]}


def test_source_note_names_the_amending_document_and_its_effective_date():
    from compiler.text.history import Version, _makers

    d = parse_file(PAGES / "58-PaCode_605a.1_pacode.com_2024-01-27.txt")
    v = Version(str(d.path), d.date, d.source_cite, "code", {}, {}, set(), list(d.history))
    # a change first seen on this page, last printed otherwise in 2015: only the 2017 amendment is in between
    assert _makers(v, "2015-01-01", "605a.1", [], "605a") == (["47 Pa.B. 7563 (2017-12-15)"], "2017-12-16")
    # last printed in 2010: both amendments are candidates, no single effective date
    makers, eff = _makers(v, "2010-01-01", "605a.1", [], "605a")
    assert makers == ["44 Pa.B. 5463 (2014-08-15)", "47 Pa.B. 7563 (2017-12-15)"] and eff is None
