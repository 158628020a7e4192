"""The README's table of test chapters names every chapter in tests/fixtures/chapters/ (and nothing else), so a
newcomer finds each one and the table cannot go stale."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_names_every_test_chapter():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("### Test chapters (NOT official text)")
    table = text[start:text.index("\n## ", start)]
    listed = set(re.findall(r"`([a-z0-9-]+)`", table.split("| family | chapters |", 1)[1]))
    on_disk = {p.stem for p in (ROOT / "tests/fixtures/chapters").glob("*.yaml")}
    assert listed == on_disk, (sorted(on_disk - listed), sorted(listed - on_disk))
