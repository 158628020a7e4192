"""Issue 26 item 4: a cut page is a fact, not an amendment.  ``diff`` and ``history`` never report
text beyond one version's cut as added, removed or amended: it is "not compared", with the reason.
The pages (tests/fixtures/text/real-pages, addresses in SOURCES.yaml): § 657a.1 from pacode.com
(2023, cut in the Lucky Bonus item (ii)) and from Casetext (2024, cut in the Magic Card Bonus item
(ii)); § 685a.1 of 2021 (ends without its footer) and of 2023 (whole); § 669a.6 of 2023 (cut in (c))
and Casetext 2024 (whole)."""
import re

import pytest

from compiler.text.diff import diff_files, format_amendment, format_text
from compiler.text.history import build, format_history

from text_sources import FIXTURES, run_cli

PAGES = FIXTURES / "real-pages"
C657 = str(PAGES / "58-PaCode_657a.1_pacode.com_2023-12-30_TRUNCATED.txt")
T657 = str(PAGES / "58-PaCode_657a.1_casetext_2024-06-22_TRUNCATED.txt")
PAIRS = [(C657, T657),
         (str(PAGES / "58-PaCode_685a.1_pacodeandbulletin_2021-02-27.txt"),
          str(PAGES / "58-PaCode_685a.1_pacodeandbulletin_2023-12-30.txt")),
         (str(PAGES / "58-PaCode_669a.6_pacodeandbulletin_2023-12-30_TRUNCATED.txt"),
          str(PAGES / "58-PaCode_669a.6_casetext_2024-06-22.txt"))]
CHANGES = ("added", "removed", "amended", "renumbered", "moved")


def _printed_cites(path):
    """The provisions a page prints (in full or up to its cut), by a route of the test's own: every
    labelled item and defined term of the raw text."""
    raw = open(path, encoding="utf-8").read()
    return len(re.findall(r"^\s*(?:\((?:[a-z]|\d+|[ivx]+)\)\s|[A-Z][\w ,'\u2019-]*?(?:\u2014|-(?=[A-Z][a-z]* [a-z])))",
                          raw, re.M))


@pytest.mark.parametrize("old, new", PAIRS + [(b, a) for a, b in PAIRS], ids=lambda p: p.split("/")[-1][:22])
def test_diff_never_reports_text_beyond_a_cut(old, new):
    [cd] = diff_files(old, new).chapters
    assert [(c.kind, c.new_cite or c.old_cite) for c in cd.changes if c.kind in CHANGES] == []
    for c in cd.changes:
        if c.kind == "cut":
            assert c.note.startswith("not compared: ") and re.search(r"\(line \d+: ", c.note)
    # --amendment prints nothing beyond the cut in bold as new, nothing bracketed as deleted
    text = format_amendment(diff_files(old, new))
    assert "**" not in text and "[" not in text


def test_diff_of_the_657a_pair_says_not_compared_from_the_cut_on():
    [cd] = diff_files(C657, T657).chapters
    cut = [c.new_cite for c in cd.changes if c.kind == "cut"]
    assert cut == ["§ 657a.1 Lucky Bonus(ii)", "§ 657a.1 (Magic Card Bonus)", "§ 657a.1 Magic Card Bonus(i)",
                   "§ 657a.1 Magic Card Bonus(ii)"]
    out = format_text(diff_files(C657, T657))
    assert "Lucky Bonus(ii): added" not in out
    assert "§ 657a.1 Lucky Bonus(ii): not compared: OLD is cut short here (line 32: the text ends mid-sentence" in out
    r = run_cli("diff", C657, T657)
    assert r.returncode == 0 and "added:" not in r.stdout and "0 added, 0 removed, 0 amended" in r.stdout


@pytest.mark.parametrize("old, new", PAIRS, ids=lambda p: p.split("/")[-1][:22])
def test_history_never_reports_text_beyond_a_cut(old, new):
    h = build([old, new])
    for cite, entries in h.timelines.items():
        assert [e.kind for e in entries if e.kind in CHANGES] == [], cite
    assert "no provision changed between the versions given" in format_history(h)


def test_history_of_the_657a_pair_says_what_each_page_prints():
    h = build([C657, T657])
    kinds = {cite: [e.kind for e in entries] for cite, entries in h.timelines.items()}
    assert kinds["§ 657a.1 Lucky Bonus(ii)"] == ["partial", "whole"]
    assert kinds["§ 657a.1 (Magic Card Bonus)"] == ["text"]
    assert kinds["§ 657a.1 Magic Card Bonus(ii)"] == ["partial"]
    # every provision either page prints is in the history once it is printed (an independent count of
    # the labels and terms of the two pages: Casetext prints all of the older page's and two more)
    assert len(h.timelines) == _printed_cites(T657) + 1  # and the section's own text
    out = format_history(h, "§ 657a.1 Lucky Bonus(ii)")
    assert "added" not in out and "amended" not in out and "cut short in it" in out
    r = run_cli("history", C657, T657)
    assert r.returncode == 0 and "added" not in r.stdout and "made by" not in r.stdout
