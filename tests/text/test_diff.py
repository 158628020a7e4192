import json
import re

import yaml

from compiler.text.diff import data_diff, diff_files, format_amendment, format_html, format_text
from compiler.text.importer import dump_yaml

from test_import_render import assert_self_contained, check_html
from text_sources import BULLETIN_2015, CODE_669A9, FIXTURES, run_cli

BASE = FIXTURES / "669a_base.txt"


def _changes(old, new, **kw):
    [cd] = diff_files(str(old), str(new), **kw).chapters
    return cd, [(c.kind, c.old_cite, c.new_cite) for c in cd.changes
                if c.kind not in ("unchanged",)]


def test_real_case_669a9_bulletin_2015_vs_code_2024_is_no_substantive_change():
    cd, changes = _changes(BULLETIN_2015, CODE_669A9)
    assert not cd.substantive
    assert {k for k, _, _ in changes} <= {"no substantive change"}
    assert changes  # the quotes did change: ''no more bets'' vs "no more bets"
    assert cd.scope.startswith("§ 669a.9 only")
    assert {c.section for c in cd.changes} == {"669a.9"}


def test_changed_odds_reported_cell_by_cell():
    cd, changes = _changes(BASE, FIXTURES / "669a_changed_odds.txt")
    assert changes == [("amended", "§ 669a.12(a)", "§ 669a.12(a)")]
    [c] = [c for c in cd.changes if c.kind == "amended"]
    assert c.cells == [{"table": "pair_plus", "hand": "Three-of-a-kind", "column": "Paytable B",
                        "change": "cell", "old": "25 to 1", "new": "30 to 1"}]
    assert not any(w[0] != "equal" for w in c.words)


def test_inserted_paragraph_added_and_following_renumbered():
    _, changes = _changes(BASE, FIXTURES / "669a_inserted_paragraph.txt")
    assert changes == [
        ("added", None, "§ 669a.3(b)(3)"),
        ("renumbered", "§ 669a.3(b)(3)", "§ 669a.3(b)(4)"),
        ("renumbered", "§ 669a.3(b)(4)", "§ 669a.3(b)(5)"),
    ]


def test_renumbered_subsections_after_a_removal():
    _, changes = _changes(BASE, FIXTURES / "669a_renumbered_subsection.txt")
    assert changes[0] == ("removed", "§ 669a.13(b)", None)
    assert changes[1:] == [("renumbered", f"§ 669a.13({a})", f"§ 669a.13({b})") for a, b in zip("cdefg", "bcdef")]


def test_deleted_sentence_word_level():
    cd, changes = _changes(BASE, FIXTURES / "669a_deleted_sentence.txt")
    assert changes == [("amended", "§ 669a.7(b)", "§ 669a.7(b)")]
    [c] = [c for c in cd.changes if c.kind == "amended"]
    ops = [w for w in c.words if w[0] != "equal"]
    assert ops == [["delete", "Once a player has placed a wager and received cards, that player shall "
                              "remain seated until the completion of the round of play.", ""]]


def test_typography_only_is_no_substantive_change():
    cd, changes = _changes(BASE, FIXTURES / "669a_typography.txt")
    assert changes and all(k == "no substantive change" for k, _, _ in changes)
    assert not cd.substantive
    assert "no substantive change" in format_text(diff_files(str(BASE), str(FIXTURES / "669a_typography.txt")))


def test_identical_inputs_have_only_unchanged():
    cd, changes = _changes(BASE, BASE)
    assert changes == [] and not cd.substantive


def test_amendment_format_bold_and_brackets():
    r = diff_files(str(BASE), str(FIXTURES / "669a_deleted_sentence.txt"))
    text = format_amendment(r)
    assert "§ 669a.7. Wagers." in text
    assert "**[Once a player has placed a wager and received cards" in text
    assert text.count("* * * * *") == 2
    r = diff_files(str(BASE), str(FIXTURES / "669a_inserted_paragraph.txt"))
    assert "**(3) The dealer shall count each deck" in format_amendment(r)
    html = format_amendment(r, html=True)
    check_html(html)
    assert "<b>(3) The dealer shall count" in html


def test_html_redline_well_formed_and_self_contained():
    r = diff_files(str(BASE), str(FIXTURES / "669a_deleted_sentence.txt"))
    html = format_html(r)
    tags = check_html(html)
    assert_self_contained(html, tags)
    assert "<del>Once a player has placed a wager" in html


def test_spec_against_bulletin_scope_and_tables(specs, tmp_path):
    spec = yaml.safe_load(dump_yaml(specs["669a"]))
    spec["paytables"]["play"]["rows"][-2]["pays"] = ["2 to 1"]
    p = tmp_path / "669a.yaml"
    p.write_text(dump_yaml(spec))
    cd, changes = _changes(BULLETIN_2015, p)
    assert changes == [("amended", "§ 669a.12(c)", "§ 669a.12(c)")]
    [c] = [c for c in cd.changes if c.kind == "amended"]
    assert c.cells[0]["hand"] == "Two pair" and (c.cells[0]["old"], c.cells[0]["new"]) == ("3 to 2", "2 to 1")


def test_structured_data_diff_of_two_specs(specs, tmp_path):
    a = yaml.safe_load(dump_yaml(specs["669a"]))
    b = yaml.safe_load(dump_yaml(specs["669a"]))
    b["paytables"]["pair_plus"]["rows"][2]["pays"][2] = "6 to 1"
    b["paytables"]["extra"] = {"title": "Extra", "rows": []}
    a["options"] = {"play_multiple": {"min": 1, "max": 3}}
    b["options"] = {"play_multiple": {"min": 1, "max": 4}}
    b["cards"] = {"decks": 2}
    d = {(x["path"], x["change"]) for x in data_diff(a, b)}
    assert d == {("paytables.pair_plus.rows.straight.pays[2]", "changed"),
                 ("paytables.extra", "added"),
                 ("options.play_multiple.max", "changed"),
                 ("cards.decks", "added")}
    pa, pb = tmp_path / "a.yaml", tmp_path / "b.yaml"
    pa.write_text(dump_yaml(a))
    pb.write_text(dump_yaml(b))
    out = format_text(diff_files(str(pa), str(pb)))
    assert "options: options.play_multiple.max: 3 -> 4" in out  # under its provision (issue 13.2)


def test_cli_diff_json_and_exit_status():
    r = run_cli("diff", BULLETIN_2015, CODE_669A9, "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["chapters"][0]["substantive"] is False
    r = run_cli("diff", BASE, FIXTURES / "669a_changed_odds.txt")
    assert r.returncode == 0 and "Three-of-a-kind / Paytable B: 25 to 1 -> 30 to 1" in r.stdout


def test_cli_diff_error_no_common_chapter():
    from text_sources import BULLETIN_2010
    r = run_cli("diff", BULLETIN_2010, CODE_669A9)
    assert r.returncode == 1 and re.search(r":\d+:\d+: error: no chapter in common", r.stderr)
    assert "Traceback" not in r.stderr
