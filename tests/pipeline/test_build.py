"""rulespec build: generated/ is current, byte-identical on rebuild, and --check names stale files."""
from __future__ import annotations

import shutil
from pathlib import Path

from compiler.build import build
from compiler.cli import main
from compiler.pipeline import ROOT


def test_build_check_is_clean_on_the_committed_tree(capsys):
    assert main(["build", "--check"]) == 0, capsys.readouterr().err


def test_rebuild_is_byte_identical_and_has_no_timestamp(committed_build, rebuilt):
    a, b = committed_build, rebuilt  # two independent builds (tests/conftest.py)
    assert a.files == b.files and a.ok
    import datetime
    import re

    today = datetime.date.today()
    for rel, content in a.files.items():
        if isinstance(content, bytes):  # a filed PDF: no dates in it (tests/people/test_pdf.py checks more)
            assert content.startswith(b"%PDF-") and b"/CreationDate" not in content, rel
            continue
        assert "@generated" in content.splitlines()[0] or "@generated" in content[:400], rel
        assert today.isoformat() not in content and today.strftime("%B %-d, %Y") not in content, rel
        assert not re.search(r"\b\d{2}:\d{2}:\d{2}\b", content), rel


def _copy_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "rulespecs", root / "rulespecs")
    shutil.copytree(ROOT / "generated", root / "generated")
    return root


def test_check_names_a_stale_file_and_a_stray_file(tmp_path):
    root = _copy_project(tmp_path)
    game = root / "generated" / "games" / "ch567_war.py"
    game.write_text(game.read_text() + "# edited by hand\n")
    (root / "generated" / "stray.txt").write_text("x")
    res = build(root, check=True)
    assert "generated/games/ch567_war.py" in res.stale
    assert "generated/stray.txt" in res.extra
    # nothing was written by --check
    assert game.read_text().endswith("# edited by hand\n")


def test_build_rewrites_stale_files_and_removes_strays(tmp_path):
    root = _copy_project(tmp_path)
    game = root / "generated" / "games" / "ch567_war.py"
    original = (ROOT / "generated" / "games" / "ch567_war.py").read_text()
    game.write_text("stale")
    (root / "generated" / "stray.txt").write_text("x")
    res = build(root)
    assert game.read_text() == original
    assert not (root / "generated" / "stray.txt").exists()
    assert build(root, check=True).stale == []


def test_generated_war_module_imports_and_plays():
    import importlib.util

    spec = importlib.util.spec_from_file_location("ch567_war", ROOT / "generated" / "games" / "ch567_war.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t = mod.new_table(seed=1)
    res = t.play_round({1: {"initial": 5}})
    assert res.results and all(r.cites for r in res.results)


def test_generated_module_keeps_citations_and_source_lines():
    src = (ROOT / "generated" / "games" / "ch567_war.py").read_text()
    assert "# § 567.9(g)(3) -- rulespecs/567-war.yaml:" in src
    assert "# when: 'hand(war, player.war) == hand(war, dealer.war)'" in src
