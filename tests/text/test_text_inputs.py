"""The text tools read a rulespec with the compiler's own loader: a duplicate key, bad bytes or a
non-mapping are positioned errors (exit 1), never a Python exception's name or a silently kept
second value."""
from __future__ import annotations

import pytest

from compiler.cli import main


@pytest.mark.parametrize("command", [["text", "render"], ["diff"]])
def test_duplicate_key_in_a_rulespec_is_refused_where_it_stands(command, tmp_path, capsys):
    spec = tmp_path / "dup.yaml"
    spec.write_text("chapter: 567\nchapter: 568\nprovisions: []\n", encoding="utf-8")
    args = command + [str(spec)] + ([str(spec)] if command == ["diff"] else [])
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{spec}:2:1: error: duplicate key 'chapter' (first defined at line 1)" in err


@pytest.mark.parametrize("command", [["text", "render"], ["diff"], ["history"]])
def test_bytes_that_are_not_utf8_are_a_positioned_error(command, tmp_path, capsys):
    spec = tmp_path / "bad.yaml"
    spec.write_bytes(b"chapter: 567\nti\xa4tle: x\n")
    args = command + [str(spec)] + ([str(spec)] if command == ["diff"] else [])
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{spec}:2:3: error: invalid UTF-8 byte 0xa4" in err
    assert "UnicodeDecodeError" not in err and "Traceback" not in err
