"""Issue 23 "Done when": every test chapter is written without unrolling: no rule's condition or action (nor any
other expression of its steps) is longer than 300 characters, and no chapter has more than 20 `untied` entries.
Read from the YAML of every chapter under tests/fixtures/chapters/ (NOT official text); the per-chapter tests
(blackjack, craps, mini-baccarat, the chance chapters) check their own, this one every chapter, so that a new
chapter, or one written in another style (EZ Baccarat's third-card table was one 478-character condition), is
held to it too."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

CHAPTERS = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "chapters").glob("*.yaml"))
EXPRESSIONS = ("when", "then", "while", "until", "players", "qualifying", "hand", "legal", "require")


def _expressions(node, ptr: str):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in EXPRESSIONS and isinstance(v, str):
                yield f"{ptr}/{k}", v
            yield from _expressions(v, f"{ptr}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _expressions(v, f"{ptr}/{i}")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_rule_over_300_characters_and_at_most_20_untied(chapter):
    data = yaml.safe_load(chapter.read_text(encoding="utf-8"))
    found = [(ptr, len(text)) for key in ("procedure", "irregularities", "constraints", "house_ways")
             for ptr, text in _expressions(data.get(key), f"/{key}")]
    assert found, "a chapter with no rule"
    long = [(ptr, n) for ptr, n in found if n > 300]
    assert not long, long
    assert len(data.get("untied") or ()) <= 20


def test_every_test_chapter_is_read():
    assert len(CHAPTERS) >= 30 and any(c.stem == "ez-baccarat" for c in CHAPTERS)
