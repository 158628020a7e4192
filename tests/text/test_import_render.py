import pytest
import re

import yaml
from html_check import assert_self_contained, check_html

from compiler.text.flat import flatten_spec
from compiler.text.importer import dump_yaml
from compiler.text.render import compare_to_source, render_html, render_text

from text_sources import BULLETIN_2010, BULLETIN_2015, CODE_669A9, CODE_688A11, FIXTURES, run_cli

IMPORTED = FIXTURES / "imported"


def test_import_skeleton_top_level_keys_and_schema_line(specs):
    text = dump_yaml(specs["669a"])
    assert text.splitlines()[0] == "# yaml-language-server: $schema=../schemas/rulespec.schema.json"
    data = yaml.safe_load(text)
    assert list(data) == ["rulespec", "chapter", "title", "source", "completeness", "externals",
                          "provisions", "paytables"]
    assert data["source"] == {"citation": "45 Pa.B. 4185", "date": "2015-08-01",
                              "file": "45-PaB-4185_2015-08-01_ch669a-ch670a.txt"}
    assert data["completeness"] == "complete" and data["chapter"] == "669a"


def test_import_is_deterministic(docs):
    from compiler.text.importer import chapter_to_spec
    from compiler.text.parser import parse_file
    a = dump_yaml(chapter_to_spec(docs[BULLETIN_2015.name], "670a"))
    b = dump_yaml(chapter_to_spec(parse_file(BULLETIN_2015), "670a"))
    assert a == b


def test_saved_imports_are_current(specs):
    for ch in ("567", "535", "669a", "670a", "688a"):
        assert (IMPORTED / f"{ch}.yaml").read_text() == dump_yaml(specs[ch]), ch


def test_completeness_of_partial_chapters(specs):
    assert specs["535"]["completeness"] == "partial"
    assert specs["688a"]["completeness"] == "partial"
    assert specs["567"]["completeness"] == "complete"


def test_externals_with_relating_to_titles(specs):
    ext = {e["cite"]: e.get("title") for e in specs["669a"]["externals"]}
    assert ext["§ 601a.2"] == "table games Rules Submissions"
    assert ext["§ 603a.16"] == "cards; receipt, storage, inspection and removal from use"
    assert not any(c.startswith("§ 669a.") for c in ext)
    ext688 = {e["cite"]: e.get("title") for e in specs["688a"]["externals"]}
    assert ext688["§ 688a.9"] == "procedures for dealing the cards from the hand"


def test_paytable_ids_from_wager_names(specs):
    assert list(specs["669a"]["paytables"]) == [
        "pair_plus", "play", "blind", "progressive", "envy_progressive_1", "envy_progressive_5",
        "six_card_bonus"]
    assert list(specs["670a"]["paytables"]) == [
        "fortune_bonus", "envy_fortune_bonus_1", "envy_fortune_bonus_5", "insurance", "progressive",
        "envy_progressive_1", "envy_progressive_5"]
    pp = specs["669a"]["paytables"]["pair_plus"]
    assert pp["cite"] == "§ 669a.12(a)" and pp["columns"] == ["Paytable A", "Paytable B", "Paytable C", "Paytable D"]
    assert pp["rows"][0] == {"hand": "straight_flush", "label": "Straight flush", "pays": ["40 to 1"] * 4}


def test_import_text_is_faithful_with_straight_quotes(specs):
    raw = CODE_688A11.read_text().replace("\u2019", "'")
    for it in flatten_spec(specs["688a"]):
        if it.kind == "provision":
            assert f"({it.label}) {it.text}" in raw
    assert "''no more bets''" in yaml.safe_load(dump_yaml(specs["669a"]))["provisions"][6]["children"][2]["text"]


def test_render_text_code_style(specs):
    text = render_text(specs["567"])
    lines = text.splitlines()
    assert lines[0] == "CHAPTER 567. WAR"
    assert "Sec." in lines and "567.11. Irregularities." in lines
    assert "§ 567.1. Definitions." in lines
    assert "(3) A War wager shall be paid at odds of 2 to 1, unless the War deal results in a tie hand, " \
           "in which case a War wager shall be paid at odds of 3 to 1." in lines


def test_render_text_paytables_from_data_not_prose(specs):
    spec = yaml.safe_load(dump_yaml(specs["669a"]))
    spec["paytables"]["pair_plus"]["rows"][1]["pays"][1] = "99 to 1"
    text = render_text(spec)
    assert "Hand | Paytable A | Paytable B | Paytable C | Paytable D" in text
    assert "Three-of-a-kind | 30 to 1 | 99 to 1 | 30 to 1 | 30 to 1" in text


def test_render_elided_text(specs):
    assert "* * * * *\n(e) Tiles used" in render_text(specs["535"])


def test_render_html_well_formed_and_self_contained(specs):
    for ch in ("669a", "670a", "567", "535", "688a"):
        html = render_html(specs[ch])
        tags = check_html(html)
        assert_self_contained(html, tags)
    html = render_html(specs["669a"])
    assert html.count("<table>") == len(specs["669a"]["paytables"])
    assert "<td>Straight flush</td><td>40 to 1</td>" in html


def test_render_html_escapes_every_string(specs):
    spec = yaml.safe_load(dump_yaml(specs["567"]))
    spec["title"] = "<script>alert(1)</script>"
    spec["provisions"][1]["children"][0]["text"] = "A & B <b>bold</b>"
    html = render_html(spec)
    assert "<script>" not in html and "&lt;script&gt;" in html.lower()
    assert "A &amp; B &lt;b&gt;bold&lt;/b&gt;" in html
    check_html(html)


def test_compare_to_source_no_differences_for_own_import(specs, docs):
    for ch, src in (("669a", BULLETIN_2015), ("567", BULLETIN_2010), ("688a", CODE_688A11)):
        assert compare_to_source(specs[ch], docs[src.name]) == []


def test_compare_to_source_typography_is_not_a_difference(specs, docs):
    # 2015 Bulletin text against the 2024 Code page: quotes differ, text does not
    assert compare_to_source(specs["669a"], docs[CODE_669A9.name]) == []


def test_compare_to_source_finds_changed_cell_and_text(specs, docs):
    spec = yaml.safe_load(dump_yaml(specs["669a"]))
    spec["paytables"]["blind"]["rows"][0]["pays"][0] = "500 to 1"
    spec["provisions"][2]["children"][0]["text"] += " Extra."
    diffs = compare_to_source(spec, docs[BULLETIN_2015.name])
    assert {(d.cite, d.kind) for d in diffs} == {("§ 669a.12(d) [Royal flush / Payout]", "table"),
                                                 ("§ 669a.3(a)", "text")}


def test_cli_import_writes_file(tmp_path):
    out = tmp_path / "new.yaml"
    r = run_cli("import", BULLETIN_2010, "--chapter", "567", "-o", out)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == (IMPORTED / "567.yaml").read_text()


def test_cli_text_parse_json(tmp_path):
    import json
    r = run_cli("text", "parse", CODE_669A9, "--format", "json")
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert data["chapters"][0]["sections"][0]["number"] == "669a.9"


def test_cli_bad_input_reports_position_without_traceback(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("§ 999.1. Test.\n(a) One.\n(b) Two.\n(a) One again.\n(b) Two again.\n")
    r = run_cli("text", "parse", bad)
    assert r.returncode == 1
    # every line that cannot be read, all at once, each with its position
    assert re.match(rf"{re.escape(str(bad))}:4:1: error: label \(a\) cannot follow \(b\)", r.stderr)
    assert f"{bad}:5:1: error: label (b) cannot follow (b)" in r.stderr
    r = run_cli("text", "parse", bad, "--strict")
    assert r.returncode == 1 and r.stderr.count("error:") == 1
    assert "Traceback" not in r.stderr
    r = run_cli("import", tmp_path / "missing.txt", "--chapter", "1")
    assert r.returncode == 1 and ":1:1: error: cannot read file" in r.stderr and "Traceback" not in r.stderr


def test_cli_render_bad_yaml_reports_position(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("chapter: 567\nprovisions: [\n  - x: : y\n")
    r = run_cli("text", "render", bad)
    # the message `rulespec validate` gives, at the same place
    assert r.returncode == 1 and re.match(rf"{re.escape(str(bad))}:3:3: error: expected the node content", r.stderr)


@pytest.mark.parametrize("chapter", ["567", "535", "669a", "670a", "688a"])
def test_import_skeleton_validates_at_once(chapter):
    """A regulator starts a new chapter from its published text: the skeleton validates as it is."""
    from compiler.pipeline import compile_spec

    path = IMPORTED / f"{chapter}.yaml"
    c = compile_spec(str(path), path.read_text(encoding="utf-8"))
    assert c.ok, [d.format() for d in c.errors]
