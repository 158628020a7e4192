"""Equipment change schedules (compiler/submission/schedule.py): per facility, each game's items and
the interval that applies under its Rules Submission selections, with its citation.

The intervals are those the regulations print: § 567.3(d) "at least once every 24 hours";
§ 669a.3(c)(1) "Four hours if the cards are dealt by hand", (c)(2) "Eight hours if the cards are
dealt from a manual or automated dealing shoe"; § 535.3(e) "at least every 12 hours".
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from html_check import check_html
import yaml

from compiler.cli import main
from compiler.pipeline import ROOT
from compiler.spec.diagnostics import DiagnosticError
from compiler.submission.commands import check_files
from compiler.submission.schedule import facility_schedules, render_schedule, schedule_files

SUBS = ROOT / "rulespecs" / "submissions"
WAR_MANUAL = SUBS / "567-war-keystone-manual.yaml"
WAR_SHUFFLER = SUBS / "567-war-riverside-shuffler.yaml"
RIU_SHOE = SUBS / "669a-raise-it-up-lakeside-basic.yaml"          # dealing_method: manual_shoe
RIU_HAND = SUBS / "669a-raise-it-up-mountainview-full.yaml"       # dealing_method: hand

PAI_GOW = {  # a Rules Submission for Chapter 535: the amendment leaves no selection to make
    "rules_submission": 1,
    "certificate_holder": "Mountainview Gaming Partners, L.P.",
    "facility": "Mountainview Downs Casino, Grantville",
    "game": {"chapter": "535", "title": "Pai Gow", "edition": "40 Pa.B. 1911"},
    "effective_date": "2026-03-01",
    "contact": {"name": "Roberto Ianelli"},
    "selections": {},
}


def _write(tmp_path: Path, name: str, data: dict) -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def _variant(tmp_path: Path, base: Path, **changes) -> Path:
    d = yaml.safe_load(base.read_text(encoding="utf-8"))
    for k, v in changes.items():
        if k in d.get("selections", {}) or k not in d:
            d["selections"][k] = v
        else:
            d[k] = v
    return _write(tmp_path, f"{base.stem}-variant.yaml", d)


def _schedules(*files) -> list[dict]:
    results, spec_diags = check_files([str(f) for f in files])
    assert not spec_diags and all(s is not None for _, s, _ in results), [d for _, _, ds in results for d in ds]
    return facility_schedules([(str(f), s) for f, s, _ in results])


def _rows(*files) -> list[tuple]:
    return [(r["chapter"], r["item"], r["hours"], r["cite"]) for f in _schedules(*files) for r in f["rows"]]


def _provision_text(spec: str, section: str, *labels: str) -> str:
    d = yaml.safe_load((ROOT / "rulespecs" / spec).read_text(encoding="utf-8"))
    node = next(s for s in d["provisions"] if s["section"] == section)
    for label in labels:
        node = next(c for c in node["children"] if c.get("label") == label)
    return node["text"]


# ------------------------------------------------------------------ intervals per selection

def test_669a_dealt_by_hand_four_hours():
    assert _rows(RIU_HAND) == [("669a", "decks", 4, "§ 669a.3(c)(1)")]
    assert _provision_text("669a-raise-it-up-stud-poker.yaml", "669a.3", "c", "1").startswith("Four hours if the cards are dealt by hand")


def test_669a_from_a_shoe_eight_hours(tmp_path):
    assert _rows(RIU_SHOE) == [("669a", "decks", 8, "§ 669a.3(c)(2)")]
    auto = _variant(tmp_path, RIU_SHOE, dealing_method="automated_shoe")
    assert _rows(auto) == [("669a", "decks", 8, "§ 669a.3(c)(2)")]
    assert _provision_text("669a-raise-it-up-stud-poker.yaml", "669a.3", "c", "2").startswith(
        "Eight hours if the cards are dealt from a manual or automated dealing shoe")


def test_the_selection_alone_changes_the_interval(tmp_path):
    """The same submission, dealing method changed from the hand to a manual shoe: 4 -> 8 hours."""
    shoe = _variant(tmp_path, RIU_HAND, dealing_method="manual_shoe")
    [f] = _schedules(shoe)
    [r] = f["rows"]
    assert (r["hours"], r["cite"]) == (8, "§ 669a.3(c)(2)")
    assert r["because"] == "How the cards are dealt: manual_shoe"
    assert [(n["hours"], n["cite"]) for n in r["not_applicable"]] == [(4, "§ 669a.3(c)(1)")]


def test_war_24_hours_whatever_the_selections():
    assert _rows(WAR_MANUAL) == [("567", "decks", 24, "§ 567.3(d)")]
    assert _rows(WAR_SHUFFLER) == [("567", "decks", 24, "§ 567.3(d)")]
    assert "at least once every 24 hours" in _provision_text("567-war.yaml", "567.3", "d")


def test_facility_schedule_combines_games_including_tiles(tmp_path):
    pai_gow = _write(tmp_path, "535-pai-gow-mountainview.yaml", PAI_GOW)
    [f] = _schedules(RIU_HAND, pai_gow)
    assert f["facility"] == "Mountainview Downs Casino, Grantville"
    assert f["slug"] == "mountainview-downs-casino-grantville"
    assert [(r["chapter"], r["item"], r["hours"], r["cite"]) for r in f["rows"]] == [
        ("535", "tiles", 12, "§ 535.3(e)"), ("669a", "decks", 4, "§ 669a.3(c)(1)")]
    [g535] = [g for g in f["games"] if g["chapter"] == "535"]
    assert g535["completeness"] == "amendment" and g535["missing"]
    md, html = render_schedule(f)
    assert "| tiles | 12 hours |" in md and "missing from the sources" in md
    assert "<td>tiles</td><td class=\"num\">12 hours</td>" in html


def test_one_schedule_per_certificate_holder_and_facility():
    fs = _schedules(WAR_MANUAL, WAR_SHUFFLER, RIU_SHOE, RIU_HAND)
    assert [(f["certificate_holder"], len(f["rows"])) for f in fs] == [
        ("Keystone Valley Resorts, Inc.", 1), ("Lakeside Entertainment Holdings, Inc.", 1),
        ("Mountainview Gaming Partners, L.P.", 1), ("Three Rivers Riverside Gaming, LLC", 1)]


def test_a_when_that_cannot_be_evaluated_is_a_positioned_spec_error(tmp_path):
    results, _ = check_files([str(RIU_HAND)])
    [(_, sub, _)] = results
    # a fresh compile (check_files): its submission given a chapter whose only interval reads no option
    sub.chapter = dataclasses.replace(sub.chapter, change_intervals=(
        {"hours": 4, "items": "decks", "when": "option(no_such_option) == 'x'", "cite": "§ 669a.3(c)(1)",
         "pointer": "/cards/change_interval/0"},))
    with pytest.raises(DiagnosticError) as e:
        facility_schedules([(str(RIU_HAND), sub)])
    [d] = e.value.diagnostics
    assert d.pointer == "/cards/change_interval/0/when" and "§ 669a.3(c)(1)" in d.message
    assert d.line > 1  # positioned in the rulespec


# ------------------------------------------------------------------ the build's files

@pytest.fixture(scope="module")
def built(committed_build):
    return committed_build  # one build per test process (tests/conftest.py)


def test_build_writes_one_schedule_per_facility_and_they_are_current(built):
    sched = {k: v for k, v in built.files.items() if k.startswith("generated/schedules/")}
    # derived from the example Rules Submissions, not typed: one schedule per facility named there
    # (the file name: the facility in lower case, each run of other characters one hyphen)
    import yaml

    facilities = {yaml.safe_load(p.read_text(encoding="utf-8"))["facility"]
                  for p in (ROOT / "rulespecs" / "submissions").glob("*.yaml")}
    slugs = {re.sub(r"[^a-z0-9]+", "-", f.lower()).strip("-") for f in facilities}
    assert "mountainview-downs-casino-grantville" in slugs and len(slugs) == len(facilities)
    assert sorted(sched) == sorted(
        f"generated/schedules/{s}-change-schedule.{ext}" for s in slugs for ext in ("md", "html"))
    assert not [k for k in sched if k in built.stale]
    for rel, text in sched.items():
        assert (ROOT / rel).read_text(encoding="utf-8") == text
        assert "@generated" in text.splitlines()[0] + text.splitlines()[1]


def test_html_well_formed_self_contained(built):
    for rel, html in built.files.items():
        if rel.startswith("generated/schedules/") and rel.endswith(".html"):
            tags = check_html(html)
            assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
            assert not any(t in ("link", "script", "img", "iframe") for t, _ in tags)
            assert "@import" not in html and "url(" not in html


def test_deterministic(built, rebuilt, tmp_path):
    again = rebuilt
    assert {k: v for k, v in again.files.items() if "schedules" in k} == \
        {k: v for k, v in built.files.items() if "schedules" in k}
    paths = sorted(SUBS.glob("*.yaml"))
    chapters = {c.chapter.chapter: c.chapter for c in built.compiled}
    assert schedule_files(ROOT, paths, chapters) == schedule_files(ROOT, list(reversed(paths)), chapters)


def test_hostile_names_are_escaped(tmp_path):
    d = yaml.safe_load(RIU_HAND.read_text(encoding="utf-8"))
    d["facility"] = "<script>alert(1)</script> & | *Casino* --> x"
    [f] = _schedules(_write(tmp_path, "hostile.yaml", d))
    md, html = render_schedule(f)
    assert "<script>" not in html and "&lt;script&gt;" in html
    check_html(html)
    assert "<script>" not in md and "\\|" in md and "\\*Casino\\*" in md


def test_partial_build_does_not_write_incomplete_schedules(built):
    chapters = {c.chapter.chapter: c.chapter for c in built.compiled if c.chapter.chapter == "567"}
    files = schedule_files(ROOT, sorted(SUBS.glob("*.yaml")), chapters)
    assert sorted(files) == sorted(f"generated/schedules/{s}-change-schedule.{e}"
                                   # Keystone Valley also offers 670a: its schedule would be incomplete
                                   for s in ("riverside-landing-casino-pittsburgh",) for e in ("md", "html"))


# ------------------------------------------------------------------ rulespec schedule

def test_cli_text_and_json(tmp_path, capsys):
    pai_gow = _write(tmp_path, "535-pai-gow-mountainview.yaml", PAI_GOW)
    assert main(["schedule", str(RIU_HAND), str(pai_gow), str(WAR_MANUAL)]) == 0
    out = capsys.readouterr().out
    assert "Change schedule: Mountainview Downs Casino, Grantville" in out
    assert re.search(r"669a Raise It Up Stud Poker\s+decks\s+4 hours\s+How the cards are dealt: hand\s+§ 669a\.3\(c\)\(1\)", out)
    assert re.search(r"535 Pai Gow\s+tiles\s+12 hours", out)
    assert main(["schedule", str(RIU_HAND), str(pai_gow), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and [(r["item"], r["hours"]) for r in data["facilities"][0]["rows"]] == [("tiles", 12), ("decks", 4)]


def test_cli_invalid_submission_fails(tmp_path, capsys):
    bad = _variant(tmp_path, RIU_HAND, dealing_method="by_carrier_pigeon")
    assert main(["schedule", str(bad)]) == 1
    assert "dealing_method" in capsys.readouterr().err
