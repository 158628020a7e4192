"""validate warns, at the label, when a list of provisions does not run in the order of its labels
(compiler/lint/labels.py): a page rendered so cannot be read back, nor diffed provision by provision."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.lint.labels import label_order
from compiler.pipeline import compile_spec

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "rulespecs").glob("*.yaml")) + sorted((ROOT / "tests/fixtures/chapters").glob("*.yaml"))


def _warnings(children) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    label_order([{"section": "999.7", "children": children}], lambda p, m: out.append((p, m)))
    return out


def test_labels_in_order_and_nested_lists_are_not_warned():
    kids = [{"label": "a", "text": "x", "children": [{"label": "1"}, {"label": "2", "children": [{"label": "i"},
                                                                                               {"label": "ii"}]}]},
            {"label": "b"}, {"label": "c"}]
    assert _warnings(kids) == []


def test_a_label_after_a_later_one_is_warned_at_its_pointer_naming_the_expected_label():
    (w,) = _warnings([{"label": "a"}, {"label": "b"}, {"label": "d"}, {"label": "e"}])  # (e) follows (d): one warning
    assert w[0] == "/provisions/0/children/2/label"
    assert "provision label (d) in § 999.7 is out of order: expected (c) after (b)" in w[1]
    assert _warnings([{"label": "c"}])[0][1].startswith("provision label (c) in § 999.7 is out of order: "
                                                        "expected (a) or (1) or (i) or (A) or (I) to open the list")
    (w,) = _warnings([{"label": "a", "children": [{"label": "1"}, {"label": "3"}]}])
    assert w[0] == "/provisions/0/children/0/children/1/label" and "§ 999.7(a)" in w[1]


def test_an_elided_entry_stands_for_paragraphs_not_restated():
    assert _warnings([{"elided": True}, {"label": "d"}, {"label": "e"}, {"elided": True}, {"label": "h"}]) == []
    # (i) after (h) is a letter (not the numeral opening a list)
    assert _warnings([{"elided": True}, {"label": "h"}, {"label": "i"}]) == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_lists_its_provisions_in_order(path):
    c = compile_spec(path)
    assert [d.message for d in c.diagnostics if "out of order" in d.message] == []
