"""A cache that cannot change a filing (compiler/cache.py, issue 29 item 8): special files in place of
an entry are refused without being opened for reading, an entry's digest covers its key (two entries
swapped and their key fields edited are both recomputed, with a warning), and `build --check`
computes the figures of the filed documents again rather than take them from the cache, so an entry
forged with a matching digest makes the check fail instead of saying "current"."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from compiler import cache
from compiler.build import build
from compiler.pipeline import ROOT
from compiler.submission import document

WAR = "567-war-keystone-manual.yaml"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setattr(cache, "_directory", d)
    monkeypatch.setattr(cache, "_enabled", True)
    monkeypatch.setattr(cache, "stats", {"hits": 0, "misses": 0, "damaged": 0})
    document._ANALYSES.clear()
    yield d
    document._ANALYSES.clear()


KEY = "ab" + "1" * 62


@pytest.mark.parametrize("kind", ["fifo", "directory", "link to /dev/zero", "link to a sound entry"])
def test_a_special_file_in_place_of_an_entry_is_refused_unopened(kind, cache_dir, monkeypatch, capsys):
    cache.store("cd" + "2" * 62, {"x": 1})
    p = cache._path(KEY)
    p.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "directory":
        p.mkdir()
    elif kind == "link to /dev/zero":
        p.symlink_to("/dev/zero")
    else:
        p.symlink_to(cache._path("cd" + "2" * 62))
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *a, **k: opened.append(str(path)) or real_open(path, *a, **k))
    assert cache.load(KEY) == (False, None)
    assert str(p) not in opened  # never opened: a FIFO would block the build, /dev/zero never ends
    assert "not a regular file; recomputed" in capsys.readouterr().err
    assert cache.stats["damaged"] == 1
    if kind != "directory":
        assert cache.cached(KEY, lambda: "computed") == "computed"  # and replaced by a sound entry
        assert cache.load(KEY) == (True, "computed") and p.is_file() and not p.is_symlink()


def _war_documents():
    """The documents of both War submissions (two analyses, two cache entries)."""
    from compiler.submission.commands import check_files

    document._ANALYSES.clear()
    out = []
    for name in (WAR, "567-war-riverside-shuffler.yaml"):
        (res,), diags = check_files([ROOT / "rulespecs" / "submissions" / name], root=ROOT)
        assert diags == [] and res[1] is not None
        out.append(document.render_documents(res[1], f"rulespecs/submissions/{name}"))
    return out


def test_two_entries_swapped_and_their_keys_edited_are_recomputed_with_a_warning(cache_dir, monkeypatch, capsys,
                                                                                 analysis_computed_once):
    monkeypatch.setattr(cache, "_enabled", False)
    fresh = _war_documents()
    monkeypatch.setattr(cache, "_enabled", True)
    assert _war_documents() == fresh
    a, b = sorted(cache_dir.rglob("*.json"))  # the two analyses
    ta, tb = json.loads(a.read_text()), json.loads(b.read_text())
    ta["key"], tb["key"] = b.stem, a.stem  # each now names the file it is moved into
    a.write_text(json.dumps(tb))
    b.write_text(json.dumps(ta))
    capsys.readouterr()
    assert _war_documents() == fresh
    assert cache.stats["damaged"] == 2 and len(analysis_computed_once) == 6  # both computed again
    assert capsys.readouterr().err.count("does not match its key or its digest); recomputed") == 2
    assert cache.load(a.stem)[0] and cache.load(b.stem)[0]  # rewritten soundly


def _forge_an_analysis(cache_dir: Path) -> int:
    """Change a figure of every analysis entry and write its digest again, as a forger would."""
    n = 0
    for p in cache_dir.rglob("*.json"):
        entry = json.loads(p.read_text())
        value = cache.decode(entry["value"])
        if not (isinstance(value, dict) and "figures" in value and value["figures"]):
            continue
        value["figures"][0]["expected_return"] = value["figures"][0]["expected_return"] + 1
        enc = cache.encode(value)
        p.write_text(json.dumps({**entry, "value": enc, "sha256": cache._digest(entry["key"], enc)}))
        n += 1
    return n


def test_build_check_computes_the_filed_figures_again_and_catches_a_forged_entry(tmp_path, monkeypatch, capsys,
                                                                                 analysis_computed_once):
    root = tmp_path / "proj"
    (root / "rulespecs" / "submissions").mkdir(parents=True)
    shutil.copy(ROOT / "rulespecs" / "567-war.yaml", root / "rulespecs")
    shutil.copy(ROOT / "rulespecs" / "submissions" / WAR, root / "rulespecs" / "submissions")
    d = tmp_path / "cache"
    monkeypatch.setattr(cache, "_directory", d)
    monkeypatch.setattr(cache, "_enabled", True)
    document._ANALYSES.clear()
    assert build(root).ok
    honest = {p: p.read_bytes() for p in (root / "generated").rglob("*") if p.is_file()}
    checked = build(root, check=True, use_record=True)
    assert checked.ok and checked.stale == [] and not checked.from_cache
    assert build(root, check=True, use_record=True).from_cache  # a check's own record answers the next one
    assert _forge_an_analysis(d) == 1
    document._ANALYSES.clear()
    assert build(root).ok  # a plain build believes the forged entry (its digest matches) ...
    forged = [p for p, b in honest.items() if p.read_bytes() != b]
    assert forged and all(WAR.removesuffix(".yaml") in p.name for p in forged)
    document._ANALYSES.clear()
    capsys.readouterr()
    res = build(root, check=True, use_record=True)  # ... the check does not
    assert not res.from_cache and sorted(res.stale) == sorted(p.relative_to(root).as_posix() for p in forged)
    assert "holds another value than the one computed again by build --check" in capsys.readouterr().err
    document._ANALYSES.clear()
    assert build(root).ok  # the entry was replaced by the value computed again: the next build is honest
    assert {p: p.read_bytes() for p in honest} == honest
    document._ANALYSES.clear()
