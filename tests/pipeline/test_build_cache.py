"""The content-addressed cache behind `rulespec build` (compiler/cache.py, issue 11 item 1): exact values,
damaged entries detected and recomputed, --no-cache, and --check from the build record agreeing with a
full check."""
from __future__ import annotations

import json
import shutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from compiler import cache
from compiler.build import build
from compiler.pipeline import ROOT
from compiler.submission import document

WAR_SUBMISSION = ROOT / "rulespecs" / "submissions" / "567-war-keystone-manual.yaml"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setattr(cache, "_directory", d)
    monkeypatch.setattr(cache, "_enabled", True)
    monkeypatch.setattr(cache, "stats", {"hits": 0, "misses": 0, "damaged": 0})
    document._ANALYSES.clear()
    yield d
    document._ANALYSES.clear()


def _war_documents() -> tuple[str, str]:
    from compiler.submission.commands import check_files

    document._ANALYSES.clear()  # the in-process memo: only the disk cache may answer
    (res,), spec_diags = check_files([WAR_SUBMISSION], root=ROOT)
    assert spec_diags == [] and res[1] is not None, [d.format() for d in res[2]]
    return document.render_documents(res[1], "rulespecs/submissions/567-war-keystone-manual.yaml")


def test_values_round_trip_exactly():
    value = {"z": Fraction(10 ** 40 + 1, 3 ** 50), "a": [Decimal("1.10"), (1, "x", None), True],
             "big": 2 ** 80, "neg": Fraction(-7, 2), "f": 0.1, "nested": {"k": (Fraction(1, 3),)},
             "pdf": b"%PDF-1.7\x00\xff"}
    back = cache.decode(json.loads(json.dumps(cache.encode(value))))
    assert back == value
    assert list(back) == ["z", "a", "big", "neg", "f", "nested", "pdf"]  # order kept
    assert str(back["a"][0]) == "1.10" and isinstance(back["a"][1], tuple) and isinstance(back["z"], Fraction)
    with pytest.raises(cache.Unencodable):
        cache.encode({1: "not a string key"})


def _damage_truncated(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2])


def _damage_not_json(p: Path) -> None:
    p.write_bytes(b"\x00\xffnot json at all")


def _damage_value(p: Path) -> None:
    """One figure changed without updating the entry's hash: a wrong result must never be used."""
    entry = json.loads(p.read_text())
    text = json.dumps(entry["value"])
    fracs = [s for s in text.split('"$frac": "')[1:]]
    assert fracs, "the War analysis stores its figures as exact fractions"
    first = fracs[0].split('"')[0]
    entry["value"] = json.loads(text.replace(f'"$frac": "{first}"', '"$frac": "1/2"', 1))
    p.write_text(json.dumps(entry))


def _damage_other_key(p: Path) -> None:
    entry = json.loads(p.read_text())
    entry["key"] = "0" * 64
    p.write_text(json.dumps(entry))


def test_damaged_entries_are_detected_recomputed_and_give_the_same_document(cache_dir, monkeypatch,
                                                                           analysis_computed_once):
    monkeypatch.setattr(cache, "_enabled", False)
    fresh = _war_documents()  # computed without any cache
    assert not cache_dir.exists()
    monkeypatch.setattr(cache, "_enabled", True)
    assert _war_documents() == fresh
    (entry,) = cache_dir.rglob("*.json")
    assert cache.stats == {"hits": 0, "misses": 2, "damaged": 0}
    assert _war_documents() == fresh  # a sound entry answers
    assert cache.stats["hits"] == 1 and len(analysis_computed_once) == 2  # the sound entry was not recomputed
    for n, damage in enumerate((_damage_truncated, _damage_not_json, _damage_value, _damage_other_key), 1):
        damage(entry)
        assert _war_documents() == fresh, damage.__name__
        assert cache.stats["damaged"] == n and cache.stats["misses"] == 2 + n, damage.__name__
        ok, _ = cache.load(entry.stem)
        assert ok, f"{damage.__name__}: the recomputed entry is written back"
        assert len(analysis_computed_once) == 2 + n, damage.__name__  # computed again on each damaged entry


def test_no_cache_neither_reads_nor_writes(cache_dir, monkeypatch):
    cache.store("ab" + "0" * 62, {"x": Fraction(1, 3)})
    monkeypatch.setattr(cache, "_enabled", False)
    calls = []
    assert cache.cached("ab" + "0" * 62, lambda: calls.append(1) or "recomputed") == "recomputed"
    assert calls == [1]
    assert cache.cached("cd" + "0" * 62, lambda: "v") == "v"
    assert not (cache_dir / "cd").exists()


def test_check_from_the_build_record_agrees_with_a_full_check(tmp_path, monkeypatch, analysis_computed_once):
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "rulespecs", root / "rulespecs")
    shutil.copytree(ROOT / "generated", root / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "generated" / "games" / "ch567_war.py").write_text("edited by hand")
    (root / "generated" / "stray.txt").write_text("x")
    (root / "generated" / "README.md").unlink()
    from compiler.build import _inputs_key

    cache._path(_inputs_key(root, None)).unlink(missing_ok=True)  # no record of these inputs yet
    first = build(root, check=True, use_record=True)  # computes (analyses from the shared cache) and records
    second = build(root, check=True, use_record=True)
    assert second.from_cache and not first.from_cache
    from compiler.build import _build

    full = _build(root, True, None)  # the build itself, no record (analyses still from the cache)
    assert not full.from_cache
    for res in (first, second):
        assert res.ok and res.files == full.files
        assert res.stale == full.stale == ["generated/README.md", "generated/games/ch567_war.py"]
        assert res.extra == full.extra == ["generated/stray.txt"]
    assert (root / "generated" / "games" / "ch567_war.py").read_text() == "edited by hand"


def test_a_changed_spec_is_not_answered_from_an_old_record(tmp_path, analysis_computed_once):
    from compiler.build import _inputs_key

    root = tmp_path / "proj"
    shutil.copytree(ROOT / "rulespecs", root / "rulespecs")
    shutil.copytree(ROOT / "generated", root / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    assert build(root, check=True, use_record=True).stale == []
    spec = root / "rulespecs" / "567-war.yaml"
    text = spec.read_text()
    old = "chosen: The Initial wager is recorded as lost"
    assert old in text
    before = _inputs_key(root, None)
    spec.write_text(text.replace(old, "chosen: The Initial wager is recorded as LOST", 1))
    after = _inputs_key(root, None)
    assert after != before
    cache._path(after).unlink(missing_ok=True)  # (a record of these very inputs, from an earlier run)
    res = build(root, check=True, use_record=True)
    assert res.ok and not res.from_cache
    assert "generated/interpretations.md" in res.stale
    again = build(root, check=True, use_record=True)
    assert again.from_cache and again.stale == res.stale


def test_every_field_of_a_report_survives_the_cache():
    """A simulated figure keeps its standard error and target, and a wager given no figure keeps its
    reason: the document must say "not computed", never lose the row, when answered from the cache."""
    from compiler.analysis.model import Policy
    from compiler.analysis.report import Figure, NotComputed, Report

    sim = Figure(("main",), "Main", Policy("house way", "house way"), Fraction(-6234, 100000), None, None, {},
                 "simulated: 4,000 rounds", standard_error=0.0115, target=0.0005, status="simulated")
    exact = Figure(("ante", "play"), "Tie", Policy("fixed", "always", (("d", "war"),), column="A",
                                                   meter=Fraction(10000), assumes="x"),
                   Fraction(-58, 311), Fraction(-58, 311), Fraction(1, 13),
                   {"win": Fraction(1, 13)}, "exact: enumeration", includes=("tie",), status="exact")
    gone = NotComputed("bonus", "Bonus", "any", "settled on the dealer's cards")
    report = Report("999", "Test", {"decks": 6}, [sim, exact], ["a note"], not_computed=[gone])
    stored = json.loads(json.dumps(cache.encode(document._report_fields(report))))
    back = document._report_from(cache.decode(stored))
    assert back.figures == [sim, exact]
    assert back.not_computed == [gone]
    assert not back.figures[0].meets_target and back.figures[1].exact


def test_a_filed_pdf_is_printed_once_per_html_and_again_when_the_html_changes(cache_dir, monkeypatch):
    """compiler/render/pdf.filed_pdf keeps each print in the cache, keyed by the HTML (and the printing
    packages and fonts): the same HTML is not printed twice, another HTML is, and --no-cache prints again."""
    from compiler.render import pdf

    printed: list[str] = []
    monkeypatch.setattr(pdf, "html_to_pdf", lambda html: printed.append(html) or f"%PDF {html}".encode())
    assert pdf.filed_pdf("<p>a</p>") == b"%PDF <p>a</p>" == pdf.filed_pdf("<p>a</p>")
    assert printed == ["<p>a</p>"]
    assert pdf.filed_pdf("<p>b</p>") == b"%PDF <p>b</p>" and printed == ["<p>a</p>", "<p>b</p>"]
    monkeypatch.setattr(cache, "_enabled", False)
    pdf.filed_pdf("<p>a</p>")
    assert printed == ["<p>a</p>", "<p>b</p>", "<p>a</p>"]


def test_a_rulespec_is_compiled_again_when_its_content_changes(tmp_path):
    """compiler/pipeline.compile_spec compiles once per path and content: the same file gives the same
    result, a changed file a new one (never the old chapter)."""
    from compiler.pipeline import compile_spec

    p = tmp_path / "567-war.yaml"
    text = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
    p.write_text(text, encoding="utf-8")
    first = compile_spec(p)
    assert compile_spec(p) is first and first.ok
    assert "tie: {odds: 10 to 1, cite: § 567.10(2)}" in text
    p.write_text(text.replace("tie: {odds: 10 to 1, cite: § 567.10(2)}", "tie: {odds: 8 to 1, cite: § 567.10(2)}"),
                 encoding="utf-8")
    changed = compile_spec(p)
    assert changed is not first and not changed.ok                     # the text still says 10 to 1
    assert any("/payouts/tie/odds" == d.pointer for d in changed.errors)
