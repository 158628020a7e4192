"""The restated-number patterns begun by a number are tried only where a number begins
(compiler/lint/restated.py, ``_finditer``): the same matches as the pattern's own ``finditer``, on every
passage of every chapter and test chapter and on texts written to trip it (numbers inside words, number
words in every case, matches side by side, a number at the very start and end)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.lint import restated
from compiler.lint.facts import passages
from compiler.spec.loader import load_document

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted((ROOT / "rulespecs").glob("*.yaml")) + sorted((ROOT / "tests/fixtures/chapters").glob("*.yaml"))
PATTERNS = [restated._HAND_SIZE, restated._GROUP, restated._RUN, restated._ODDS] + [  # noqa: SLF001
    p for _, p in restated._DEALT_PATTERNS]  # noqa: SLF001

TRICKY = [
    "Four cards of the same rank, FOUR ACES, four kings; two pairs or three 7s.",
    "someone gave seventeen cards dealt; fourteen cards dealt; 14 cards dealt and 6 cards dealt",
    "six cards dealt six cards dealt. 52 cards are in the deck, 53 cards remain in the deck",
    "2 dice 3 dice2 dice x3 dice",
    "five-card poker hand, 5-card high hand, fivecard hand, ten-card hands",
    "three community cards three community cards",
    "Three", "three cards dealt", "one pair", "eleven 7s",
]


def _texts():
    for p in SPECS:
        doc = load_document(str(p))
        seen = set()
        for ps in passages(doc.data).values():
            for x in ps:
                if x.pointer not in seen:
                    seen.add(x.pointer)
                    yield x.text
    yield from TRICKY


def test_a_pattern_begun_by_a_number_finds_what_its_finditer_finds():
    led = [p for p in PATTERNS if restated._number_led(p)]  # noqa: SLF001
    assert len(led) >= 7  # the patterns begun by a number take the path: _HAND_SIZE, _GROUP, five dealt
    assert restated._HAND_SIZE in led and restated._GROUP in led  # noqa: SLF001
    found = 0
    for text in _texts():
        starts = [m.start() for m in restated._NUMBER_STARTS.finditer(text)]  # noqa: SLF001
        for pat in PATTERNS:
            want = [(m.span(), m.groupdict()) for m in pat.finditer(text)]
            assert [(m.span(), m.groupdict()) for m in restated._finditer(pat, text, starts)] == want, (  # noqa: SLF001
                pat.pattern, text)
            found += len(want) * (pat in led)
    assert found > 100


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_restated_spans_are_those_of_plain_finditer(path, monkeypatch):
    doc = load_document(str(path))
    index = passages(doc.data)
    fast = restated.restated_spans(doc.data, index)
    monkeypatch.setattr(restated, "_number_led", lambda pat: False)
    assert restated.restated_spans(doc.data, index) == fast
