"""Chapter 535 Pai Gow: only the amendment of 40 Pa.B. 1911 (April 10, 2010) is in the sources.

§ 535.3 is printed with its unchanged text as ``* * * * *`` and the new subsection (e), "Tiles
used for the play of Pai Gow shall be changed at least every 12 hours."  The figures below (12
hours, subsection (e)) are read from that text; the source is parsed afresh where it matters.
"""
from __future__ import annotations

import re
import shutil

import yaml

from compiler.cli import main
from compiler.pipeline import ROOT, compile_spec
from compiler.submission.schedule import change_intervals
from compiler.text.diff import diff_files, format_text
from compiler.text.parser import parse_file
from compiler.text.render import compare_to_source, render_html, render_text

SPEC = "rulespecs/535-pai-gow.yaml"
SOURCE = ROOT / "tests" / "fixtures" / "sources" / "40-PaB-1911_2010-04-10_ch535-ch567.txt"
E_TEXT = "Tiles used for the play of Pai Gow shall be changed at least every 12 hours."


def _spec() -> dict:
    return yaml.safe_load((ROOT / SPEC).read_text(encoding="utf-8"))


def _node(spec, section, label):
    [sec] = [s for s in spec["provisions"] if s["section"] == section]
    return next(c for c in sec["children"] if c.get("label") == label)


def test_validates_and_lints_clean():
    c = compile_spec(SPEC)
    assert c.ok, [d.format() for d in c.diagnostics]
    assert c.diagnostics == []  # no warning either


def test_marked_as_an_amendment_of_40_pab_1911_with_what_is_missing():
    d = _spec()
    assert d["completeness"] == "amendment"
    assert d["source"]["citation"] == "40 Pa.B. 1911"
    assert d["source"]["effective"] == "2010-04-10"
    assert d["amends"]["base"] and d["amends"]["note"]
    whats = " | ".join(m["what"] for m in d["missing"])
    assert "§ 535.3" in whats and "every other section of Chapter 535" in whats
    # nothing but § 535.3 is encoded: no invented section, table, cards, wagers or procedure
    assert [s["section"] for s in d["provisions"]] == ["535.3"]
    assert not {"table", "cards", "wagers", "procedure", "options"} & set(d)


def test_535_3_e_as_the_bulletin_prints_it():
    doc = parse_file(str(SOURCE))
    [sec] = [s for s in doc.chapter("535").sections]
    assert sec.number == "535.3" and sec.heading == "Pai Gow tiles; physical characteristics."
    assert sec.children[0].elided and sec.children[1].label == "e"
    spec = _spec()
    assert spec["provisions"][0]["children"][0] == {"elided": True}
    assert _node(spec, "535.3", "e")["text"] == sec.children[1].text == E_TEXT


def test_tiles_change_interval_is_data_with_its_cite_and_agrees_with_the_text():
    [ci] = change_intervals(_spec())
    assert (ci["hours"], ci["items"], ci["cite"]) == (12, "tiles", "§ 535.3(e)")
    assert "when" not in ci  # § 535.3(e) has no condition
    hours = int(re.search(r"at least every (\d+) hours", _node(_spec(), "535.3", "e")["text"]).group(1))
    assert ci["hours"] == hours


def test_rendered_text_heading_then_elision_then_e():
    text = render_text(_spec())
    assert "§ 535.3. Pai Gow tiles; physical characteristics.\n* * * * *\n(e) " + E_TEXT in text
    generated = (ROOT / "generated" / "text" / "535-pai-gow.txt").read_text(encoding="utf-8")
    assert generated.endswith(text)
    html = render_html(_spec())
    assert html.index("* * * * *") < html.index("Tiles used for the play")


def test_text_check_matches_the_bulletin(capsys):
    assert compare_to_source(_spec(), parse_file(str(SOURCE))) == []
    assert main(["text", "check", SPEC, str(SOURCE)]) == 0
    assert "matches" in capsys.readouterr().out


def test_text_check_fails_on_a_changed_figure(tmp_path):
    d = _spec()
    _node(d, "535.3", "e")["text"] = E_TEXT.replace("12", "24")
    diffs = compare_to_source(d, parse_file(str(SOURCE)))
    assert [x.cite for x in diffs] == ["§ 535.3(e)"]


def test_diff_bulletin_vs_spec_reports_the_elision_not_a_deletion():
    [cd] = diff_files(str(SOURCE), SPEC, chapter="535").chapters
    kinds = [c.kind for c in cd.changes]
    assert "removed" not in kinds and "added" not in kinds
    assert kinds.count("elided") == 1 and not cd.substantive
    [el] = [c for c in cd.changes if c.kind == "elided"]
    assert el.old_text == el.new_text == "* * * * *" and el.section == "535.3"
    out = format_text(diff_files(str(SOURCE), SPEC, chapter="535"))
    assert "not in the sources" in out and "no substantive change" in out


def test_diff_against_a_full_text_treats_the_elided_subsections_as_base_text(tmp_path):
    """Where one side prints * * * * * and the other the full section, the other side's provisions
    are the base text the amendment leaves unchanged: elided, never added or removed."""
    d = _spec()
    d["completeness"] = "partial"
    d["provisions"][0]["children"] = [{"label": x, "text": f"Placeholder ({x}), test only."} for x in "abcd"] + \
        [_node(_spec(), "535.3", "e")]
    full = tmp_path / "535-full.yaml"
    full.write_text(yaml.safe_dump(d, sort_keys=False), encoding="utf-8")
    for old, new in ((str(full), str(SOURCE)), (str(SOURCE), str(full))):
        [cd] = diff_files(old, new, chapter="535").chapters
        got = [(c.kind, c.old_cite or c.new_cite) for c in cd.changes if c.kind != "unchanged"]
        assert got[0] == ("elided", "§ 535.3")
        assert got[1:] == [("elided", f"§ 535.3({x})") for x in "abcd"]
        assert not cd.substantive
    # a real change in (e) is still found
    d["provisions"][0]["children"][-1] = {"label": "e", "text": E_TEXT.replace("12", "8")}
    full.write_text(yaml.safe_dump(d, sort_keys=False), encoding="utf-8")
    [cd] = diff_files(str(SOURCE), str(full), chapter="535").chapters
    assert [(c.kind, c.new_cite) for c in cd.changes if c.kind == "amended"] == [("amended", "§ 535.3(e)")]


def test_build_lists_what_the_sources_lack(tmp_path, monkeypatch, capsys):
    """`rulespec build` of a project holding chapter 535 alone (what it prints and writes for 535 is
    the same in the whole tree: the build of every chapter and submission is tests/pipeline's)."""
    root = tmp_path / "proj"
    (root / "rulespecs").mkdir(parents=True)
    shutil.copy2(ROOT / SPEC, root / SPEC)
    import compiler.pipeline

    monkeypatch.setattr(compiler.pipeline, "ROOT", root)
    assert main(["build", str(root / SPEC)]) == 0
    out = capsys.readouterr().out
    assert "Chapter 535 Pai Gow: rulespecs/535-pai-gow.yaml (amendment)" in out
    lines = [ln for ln in out.splitlines() if ln.startswith("  missing from the sources: § 535.3: ")]
    assert len(lines) == 2
    assert (root / "generated" / "text" / "535-pai-gow.txt").read_text(encoding="utf-8") == \
        (ROOT / "generated" / "text" / "535-pai-gow.txt").read_text(encoding="utf-8")
