"""The command line as people (and their programs) use it: JSON errors under --format json,
citations as lists, tables that hold long names, a duplicate chapter named as such."""
from __future__ import annotations

import io
import json
import shutil
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from compiler.build import build
from compiler.cli import main
from compiler.cli_extras import cite_lists, errors_json
from compiler.render.table import fitted, text_table

ROOT = Path(__file__).resolve().parents[2]
WAR = ROOT / "rulespecs" / "567-war.yaml"
WAR_ROUND = ROOT / "rulespecs" / "rounds" / "567-war-tie-goes-to-war.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_format_json_makes_a_missing_file_a_json_error_with_position(tmp_path):
    code, out, _ = run("settle", str(WAR), str(tmp_path / "missing.yaml"), "--format", "json")
    assert code == 1
    (e,) = json.loads(out)["errors"]
    assert e == {"path": str(tmp_path / "missing.yaml"), "line": 1, "col": 1, "message": "file not found",
                 "pointer": None}


def test_format_json_makes_a_usage_error_json():
    code, out, _ = run("analyze", "--format", "json")
    assert code == 1
    (e,) = json.loads(out)["errors"]
    assert "SPEC" in e["message"] and e["path"] is None


def test_format_json_gives_a_spec_error_its_pointer(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(WAR.read_text(encoding="utf-8").replace("chapter: \"567\"", "chapter: [567]", 1), encoding="utf-8")
    code, out, _ = run("analyze", str(bad), "--format", "json")
    assert code == 1
    errors = json.loads(out)["errors"]
    assert errors and all(set(e) == {"path", "line", "col", "message", "pointer"} for e in errors)
    assert any(e["path"] == str(bad) and e["line"] and e["pointer"] is not None for e in errors)


def test_errors_json_reads_the_positioned_form():
    text = "spec.yaml:3:5: error: unknown field 'odz' [at /payouts/x/odz]\nerror: --rounds 0: give a number\n"
    assert errors_json(text)["errors"] == [
        {"path": "spec.yaml", "line": 3, "col": 5, "message": "unknown field 'odz'", "pointer": "/payouts/x/odz"},
        {"path": None, "line": None, "col": None, "message": "--rounds 0: give a number", "pointer": None}]


def test_settle_json_cites_are_always_lists_of_single_citations():
    code, out, _ = run("settle", str(WAR), str(WAR_ROUND), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    seen = 0

    def walk(x):
        nonlocal seen
        if isinstance(x, dict):
            if "cites" in x:
                seen += 1
                assert isinstance(x["cites"], list) and all(";" not in c for c in x["cites"]), x
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(doc)
    assert seen >= len(doc["results"]) + len(doc["log"])
    assert cite_lists({"cite": "§ 567.9(c)(2); § 567.9(e)"})["cites"] == ["§ 567.9(c)(2)", "§ 567.9(e)"]


def test_settle_table_holds_a_long_wager_name():
    long = "A wager whose name is far longer than twenty-eight characters"
    piped = text_table([["SEAT", "WAGER", "NET"], ["1", long, "+$10.00"], ["2", "Tie", "-$5.00"]], stream=io.StringIO(),
                       right=(0, 2))
    lines = piped.split("\n")
    assert long in lines[2]
    assert lines[2].index("+$10.00") + len("+$10.00") == lines[3].index("-$5.00") + len("-$5.00")  # aligned


def test_terminal_table_fits_the_width():
    rows = [["FILE", "SELECTIONS"], ["rulespecs/submissions/670a-six-card-fortune-keystone-full.yaml",
                                     ", ".join(f"option_{i}=yes" for i in range(30))]]
    text = fitted(rows, 80)
    assert max(len(line) for line in text.split("\n")) <= 80
    assert "option_29=yes" in text.replace("\n", "").replace(" ", "")


def test_a_second_rulespec_of_the_same_chapter_is_a_positioned_error(tmp_path):
    (tmp_path / "rulespecs").mkdir()
    shutil.copy(WAR, tmp_path / "rulespecs" / "567-war.yaml")
    shutil.copy(WAR, tmp_path / "rulespecs" / "567-war-copy.yaml")
    res = build(tmp_path, check=True)
    assert not res.ok
    diags = [d for c in res.compiled for d in c.diagnostics if d.is_error]
    (d,) = diags
    assert d.path == "rulespecs/567-war.yaml"  # the later file in name order ('-copy' sorts first)
    assert d.pointer == "/chapter" and d.line > 1
    assert "Chapter 567 is already the chapter of rulespecs/567-war-copy.yaml" in d.message


def test_simulate_piped_writes_no_progress():
    code, out, err = run("simulate", str(WAR), "--rounds", "300", "--workers", "1")
    assert code == 0 and "rounds" in out
    assert err == ""  # progress only on a terminal


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_shows_rate_and_time_left():
    from compiler.analysis.simulate import Progress

    tty = _Tty()
    p = Progress(1000, stream=tty)
    p.update(250)
    text = tty.getvalue()
    assert "250/1,000 rounds" in text and "rounds/s" in text and "s left" in text


def test_status_line_escapes_its_text_and_writes_nothing_when_piped(monkeypatch):
    from compiler.render import terminal

    tty = _Tty()
    monkeypatch.setattr(sys, "stderr", terminal.VisibleStream(tty))
    terminal.status("compiling rulespecs/\x1b[31mred.yaml")
    assert tty.getvalue() == "\r\x1b[Kcompiling rulespecs/\\x1b[31mred.yaml"  # its own codes raw, the text escaped
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", terminal.VisibleStream(piped))
    terminal.status("compiling")
    assert piped.getvalue() == ""
