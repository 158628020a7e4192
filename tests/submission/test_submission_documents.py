"""The Rules Submission document: content, determinism, well-formed self-contained HTML,
inert Markdown, and house edges equal to `rulespec analyze --submission`."""
from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from html_check import assert_self_contained
from html_check import check_html as _check_html

from compiler.spec.diagnostics import DiagnosticError
from compiler.submission.document import load_submission, render_documents
from submission_fixtures import EXAMPLES, ROOT

def check_html(text: str) -> None:
    """A document: starts with the doctype, well-formed, nothing fetched, no web address at all."""
    assert text.startswith("<!DOCTYPE html>\n")
    assert_self_contained(text, _check_html(text))
    assert "http://" not in text and "https://" not in text


@pytest.fixture(scope="module")
def chapters():
    """Every rulespec of the project, compiled: submissions of any landed chapter are checked."""
    from compiler.pipeline import compile_spec, spec_files

    out = {}
    for p in spec_files(ROOT):
        c = compile_spec(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"))
        assert c.ok, [d.format() for d in c.errors]
        out[c.chapter.chapter] = c.chapter
    return out


def _sub(path, chapters):
    rel = path.relative_to(ROOT).as_posix()
    if not isinstance(chapters, dict):
        chapters = {chapters.chapter: chapters}
    return load_submission(rel, chapters, path.read_text(encoding="utf-8"))


WAR_EXAMPLES = [p for p in EXAMPLES if p.name.startswith("567-")]


def test_two_war_examples_with_different_choices(war):
    subs = {p.name: _sub(p, war) for p in WAR_EXAMPLES}
    assert len(subs) >= 2
    chosen = {tuple(sorted(s.effective.items())) for s in subs.values()}
    assert (("adjacent_positions", 2), ("automated_shuffler", True), ("decks", 14)) in chosen
    assert (("adjacent_positions", 0), ("automated_shuffler", False), ("decks", 8)) in chosen


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_documents_are_deterministic_and_well_formed(path, chapters):
    sub = _sub(path, chapters)
    md1, html1 = render_documents(sub, "x.yaml")
    md2, html2 = render_documents(_sub(path, chapters), "x.yaml")
    assert (md1, html1) == (md2, html2)
    check_html(html1)
    assert "Signature:" in md1 and "Signature:" in html1
    assert sub.data["certificate_holder"].replace(",", "") in md1.replace(",", "").replace("\\", "")


def test_build_outputs_match_generated_files(chapters):
    from compiler.submission.build import submission_outputs

    out = submission_outputs(ROOT, chapters)
    assert sorted(out) == sorted(f"generated/submissions/{p.stem}.{e}" for p in EXAMPLES
                                 for e in ("md", "html", "pdf"))
    for rel, content in out.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        assert (ROOT / rel).read_bytes() == data, f"{rel} is stale: run rulespec build"


def test_shuffler_document_content(war):
    sub = _sub(ROOT / "rulespecs/submissions/567-war-riverside-shuffler.yaml", war)
    md, html = render_documents(sub, "x.yaml")
    # the selections with their citations
    assert "| Automated card shuffling device used (automated\\_shuffler) | yes | selected | § 567.3(c) |" in md
    assert "| 14 | selected | § 567.3(a); § 567.3(c) |" in md
    assert "| Additional adjacent positions a player may play (adjacent\\_positions) | 2 | selected | § 567.7(e) |" in md
    # equipment required by the selections, with the reason
    assert "| automated card shuffling device |  | Automated card shuffling device used: yes | § 567.3(c) |" in md
    # edition, header, interpretations, attachments
    assert "| Text of the chapter followed | 40 Pa.B. 1911 (temporary rulemaking, 2010-04-10) |" in md
    for i in war.interpretations:
        assert f"**{i.id}**" in md
    assert "Layout drawing WAR-7-2025" in md and "Layout drawing WAR-7-2025" in html


def test_manual_document_has_no_shuffler(war):
    sub = _sub(ROOT / "rulespecs/submissions/567-war-keystone-manual.yaml", war)
    md, _ = render_documents(sub, "x.yaml")
    assert "| automated card shuffling device |" not in md
    assert "| manual dealing shoe | on the table to the left of the dealer | the chapter | § 567.3(b) |" in md


def _figures_from_md(md: str) -> dict:
    out = {}
    for line in md.splitlines():
        # a negative house edge is a player advantage (the Double Down made only when its expectation is positive)
        m = re.match(r"\| (.+?) \| (.+?) \| (-?[0-9.]+%|not computed) \| (-?[0-9/]+|± [0-9.]+ points \(1 s\.e\.\)|n/a) \| "
                     r"(?:([0-9.]+%) \(([0-9/]+)\)|n/a) \| (exact|simulated|not computed) ", line)
        if m:
            name = re.sub(r" \(with .*\)$", "", m.group(1)).replace("\\", "")
            hit = Fraction(m.group(6)) if m.group(6) else None
            # a simulated figure shows its standard error instead of an exact fraction
            edge = Fraction(m.group(4)) if m.group(7) == "exact" else m.group(4)
            out[(name, m.group(2).replace("\\", ""))] = (m.group(3), edge, hit, m.group(7))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_house_edge_equals_rulespec_analyze(path, chapters, capsys):
    """Each figure of the document is the figure of `rulespec analyze SPEC --submission FILE`; a
    simulated figure short of its precision target and a wager the analysis cannot model are
    "not computed" rows, never a number."""
    from compiler.cli import main

    sub = _sub(path, chapters)
    md, html = render_documents(sub, "x.yaml")
    shown = _figures_from_md(md)
    assert main(["analyze", sub.chapter.spec_path, "--submission", str(path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    if not report["figures"] and any("no house edge is computed" in n for n in report["notes"]):
        # a partial chapter whose payout odds are not in the sources (688a): no figure, said in the document
        assert shown == {} and "no house edge is computed" in md and "no house edge is computed" in html
        return
    if not report["figures"] and any("defines no wagers" in n for n in report["notes"]):
        # an amendment without wagers (535): nothing to analyse, and the document shows no figure
        assert shown == {}
        return
    if "decks" in sub.effective:  # chapters with a deck option (535, tiles, has none)
        assert report["settings"]["decks"] == sub.effective["decks"]
    returns = [f for f in report["figures"] if f.get("kind", "return") == "return"]
    # the simulated figures of a wager short of their precision target are one row, with no play assumed
    short = {f["name"] for f in returns if f["status"] == "short of precision target"}
    assert len(shown) == (len([f for f in returns if f["status"] != "short of precision target"]) + len(short)
                          + len(report["not_computed"])) >= 2
    for f in returns:
        key = (f["name"], "\u2014" if f["status"] == "short of precision target" else f["policy"])
        pct, edge, hit, kind = shown[key]
        if f["status"] == "exact":
            assert kind == "exact" and edge == Fraction(f["house_edge"]["fraction"])
            assert pct == f["house_edge"]["percent"] and f["house_edge"]["fraction"] in html
            assert hit == (None if f["hit_frequency"] is None else Fraction(f["hit_frequency"]["fraction"]))
        elif f["status"] == "simulated":
            assert kind == "simulated" and "fraction" not in f["house_edge"]
            assert pct == f["house_edge"]["percent"] and edge.startswith("± ")
        else:  # short of its precision target: no number in the document
            assert f["status"] == "short of precision target"
            assert (pct, edge, kind) == ("not computed", "n/a", "not computed")
            assert f["house_edge"]["percent"] not in md
    for n in report["not_computed"]:
        pct, edge, hit, kind = shown[(n["name"], n["policy"])]
        assert (pct, edge, hit, kind) == ("not computed", "n/a", None, "not computed")


def test_strings_cannot_inject_markup(war):
    evil = "<script>alert(1)</script> | **bold** [link](https://evil.example) `code` # _x_ &amp;"
    original = (ROOT / "rulespecs/submissions/567-war-keystone-manual.yaml").read_text(encoding="utf-8")

    def with_(value):
        text = original.replace("certificate_holder: Keystone Valley Resorts, Inc.",
                                "certificate_holder: " + json.dumps(value))
        return text.replace("  phone: 570-555-0192", "  phone: " + json.dumps(value))

    # a line break (a new Markdown table row, the end of a CSS string) is refused in one-line fields, positioned
    with pytest.raises(DiagnosticError) as refused:
        load_submission("evil.yaml", {"567": war}, with_(evil + "\n| injected | row |"))
    where = {(d.pointer, d.line) for d in refused.value.diagnostics if "one line of text" in d.message}
    lines = with_(evil).splitlines()
    assert where == {("/certificate_holder", 1 + next(i for i, t in enumerate(lines) if t.startswith("certificate_holder"))),
                     ("/contact/phone", 1 + next(i for i, t in enumerate(lines) if t.startswith("  phone")))}
    sub = load_submission("evil.yaml", {"567": war}, with_(evil))
    md, html = render_documents(sub, "evil.yaml")
    assert "<script>" not in md and "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "\\<script\\>alert(1)\\</script\\> \\| \\*\\*bold\\*\\* \\[link\\](https://evil.example)" in md
    check_html(html.replace("https://evil.example", "evil"))  # the text is there, escaped, as text
    for line in md.splitlines():
        if line.startswith("| Certificate holder"):
            assert len(re.findall(r"(?<!\\)\|", line)) == 3  # one row of two cells


def test_variant_document_paytable_wagers_and_options(variant):
    from submission_fixtures import FIX

    text = (FIX / "variant-missing-required-option.yaml").read_text() + \
        "  dealing_method: shoe\n  tie_paytable: Paytable B\n  rate_of_progression: 14.5%\n  reset_amount: 2500\n"
    sub = load_submission("v.yaml", {"567": variant}, text)
    md, html = render_documents(sub, "v.yaml")
    check_html(html)
    assert "### Tie bonus: Paytable B (§ 567.10(2))" in md
    assert "| Any tie | 11 to 1 |" in md and "10 to 1 |\n" not in md.split("### Payout odds")[0].split("Tie bonus")[1]
    assert "| Rate of progression (rate\\_of\\_progression) | 14.5% | selected | § 567.10(3) |" in md
    assert "| Initial and reset amount (reset\\_amount) | $2,500 | selected | § 567.10(3) |" in md
    assert "| Automated card shuffling device model (shuffler\\_model) | — | not applicable (applies when " \
           "Automated card shuffling device used: yes) | § 567.3(c) |" in md
    assert "| Tie wager | yes (Tie wager offered: yes) | § 567.7(c) |" in md
    off = load_submission("v.yaml", {"567": variant}, text.replace("tie_paytable: Paytable B", "tie_offered: false"))
    md2, _ = render_documents(off, "v.yaml")
    assert "| Tie wager | no (Tie wager offered: no) | § 567.7(c) |" in md2
    assert "Tie bonus" not in md2  # the paytable of a wager not offered is not shown
    assert "| Tie wager | any |" not in md2  # nor its house edge
