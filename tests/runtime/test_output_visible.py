"""Terminal output (issue 12, item 10): control characters from specs, hand histories and file names
are shown as escapes, never written raw; one function (compiler.cli.visible) does it for all output."""
from __future__ import annotations

import json
from pathlib import Path

from compiler.cli import main, visible

ROOT = Path(__file__).resolve().parents[2]
RAW = ("\x1b", "\x00", "\u2028", "\u2029", "\u202e", "\x9b", "\x07", "\r")


def test_visible_escapes_controls_and_keeps_text():
    assert visible("a\x1b[31mb") == "a\\x1b[31mb"
    assert visible("nul\x00") == "nul\\x00"
    assert visible("line\u2028sep") == "line\\u2028sep"
    assert visible("csi\x9b2J") == "csi\\u009b2J"
    assert visible("rtl\u202eabc") == "rtl\\u202eabc"
    assert visible("§ 567.9(a)\tok\nnext — “quoted” ♠") == "§ 567.9(a)\tok\nnext — “quoted” ♠"


def _evil_spec(tmp_path) -> Path:
    text = (ROOT / "rulespecs/567-war.yaml").read_text(encoding="utf-8")
    assert "\ntitle: War\n" in text
    f = tmp_path / "567-war.yaml"
    f.write_text(text.replace("\ntitle: War\n", '\ntitle: "War\\e[2J\\0\\u2028"\n'), encoding="utf-8")
    return f


def test_settle_refuses_a_spec_title_with_escaped_controls_at_its_position(tmp_path, capsys):
    """YAML escapes make controls a file may not hold raw: the loader refuses them (compiler/spec/text.py),
    positioned, and the message shows nothing raw."""
    spec = _evil_spec(tmp_path)
    assert main(["settle", str(spec), str(ROOT / "rulespecs/rounds/567-war-tie-goes-to-war.yaml")]) == 1
    out, err = capsys.readouterr()
    line = spec.read_text(encoding="utf-8").splitlines().index('title: "War\\e[2J\\0\\u2028"') + 1
    assert f"567-war.yaml:{line}:8: error: invalid character U+001B (ESC) at character 4" in err
    assert not any(c in out + err for c in RAW)


def test_error_naming_a_file_with_escapes_in_its_name(tmp_path, capsys):
    bad = tmp_path / "round\x1b[2J\u2028.yaml"
    bad.write_text("rulespec_round: 1\nchapter: '567'\npositions: {}\ndealt: {}\n", encoding="utf-8")
    assert main(["settle", "rulespecs/567-war.yaml", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert "round\\x1b[2J\\u2028.yaml" in err
    assert not any(c in out + err for c in RAW)


def test_json_output_stays_valid_json_with_quotes_and_backslashes_in_the_title(tmp_path, capsys):
    # controls cannot reach the output any more (refused by the loader, above); quotes and backslashes can
    text = (ROOT / "rulespecs/567-war.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "567-war.yaml"
    spec.write_text(text.replace("\ntitle: War\n", '\ntitle: "War \\"\\\\\\" </script> ♠"\n'), encoding="utf-8")
    round_ = tmp_path / "r.yaml"
    text = (ROOT / "rulespecs/rounds/567-war-tie-goes-to-war.yaml").read_text(encoding="utf-8")
    round_.write_text(text, encoding="utf-8")
    assert main(["settle", str(spec), str(round_), "--format", "json", "--log"]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in RAW)
    json.loads(out)
