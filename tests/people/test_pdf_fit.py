"""Documents fit to file (issue 27.1): every example Rules Submission, printed to PDF, keeps every figure
of its HTML whole in the PDF's text, has no text past the page's right edge, and carries no record file,
record key or command line (the full provenance stays in `rulespec analyze`'s output and JSON).

The PDF's text is read back with pypdf (a test extra): an independent route from the layout that printed it."""
from __future__ import annotations

import html as htmllib
import io
import re

import pytest

from compiler.pipeline import ROOT

SUBMISSIONS = sorted((ROOT / "rulespecs" / "submissions").glob("*.yaml"))
GEN = ROOT / "generated" / "submissions"

# a figure as a document shows it: a percentage, an exact fraction, a dollar amount, a count with commas
FIGURE = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?%|-?\d+/\d+|\$\d[\d,]*(?:\.\d+)?|\d{1,3}(?:,\d{3})+")


def html_text(html: str) -> str:
    body = html[html.index("<body>"):]
    body = re.sub(r"<svg.*?</svg>", " ", body, flags=re.S)  # the plots' axis labels are drawings
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", body))


def pdf_text(pdf: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("stem", [s.stem for s in SUBMISSIONS])
def test_every_figure_of_the_html_is_whole_in_the_filed_pdf_text(stem):
    html = (GEN / f"{stem}.html").read_text(encoding="utf-8")
    text = pdf_text((GEN / f"{stem}.pdf").read_bytes())
    figures = sorted(set(FIGURE.findall(html_text(html))))
    if stem.startswith(("669a", "670a", "567")):  # documents with figures (535 and 688a give none: not computed)
        assert len(figures) > 8, (stem, figures)
    # a figure cut by a line break, a page edge or a narrow column is not found whole in the text
    missing = [f for f in figures if f not in text]
    assert not missing, f"{stem}: figures not whole in the PDF: {missing[:10]}"


def test_a_figure_broken_across_lines_is_caught():
    """The check above can fail: a fraction split by a line break is not found whole."""
    assert "547551161219/8803843478430" not in "547551161219/\n8803843478430"


def _boxes(box):
    yield box
    for c in getattr(box, "children", None) or ():
        yield from _boxes(c)


def text_past_right_edge(html: str) -> list[tuple[int, str, float]]:
    """(page, text, CSS px over) of each text box that ends past the right margin, as printed."""
    from weasyprint import CSS, HTML

    from compiler.render.pdf import PRINT_FONTS

    doc = HTML(string=html).render(stylesheets=[CSS(string=PRINT_FONTS)])
    over = []
    for i, page in enumerate(doc.pages, 1):
        pb = page._page_box
        right = pb.content_box_x() + pb.width + 0.5  # the right margin begins here (CSS px)
        for b in _boxes(pb):
            if type(b).__name__ == "TextBox" and b.position_x + b.width > right:
                over.append((i, b.text[:40], round(b.position_x + b.width - right, 1)))
    return over


def test_the_edge_check_sees_a_table_wider_than_the_page():
    """The check below can fail: six columns of unbreakable figures, as the 670a table was (issue 27)."""
    cell = "<td style='white-space: nowrap'>547551161219/8803843478430</td>"
    assert text_past_right_edge(f"<html><body><table><tr>{cell * 6}</tr></table></body></html>")


@pytest.mark.parametrize("stem", [s.stem for s in SUBMISSIONS])
def test_no_text_runs_past_the_right_edge_of_the_page(stem):
    over = text_past_right_edge((GEN / f"{stem}.html").read_text(encoding="utf-8"))
    assert not over, f"{stem}: text past the page's right margin (page, text, px over): {over[:10]}"


@pytest.mark.parametrize("stem", [s.stem for s in SUBMISSIONS])
def test_no_record_file_key_or_command_line_in_a_filing(stem):
    for ext in ("html", "md"):
        text = (GEN / f"{stem}.{ext}").read_text(encoding="utf-8")
        body = text[text.find("<body>"):] if ext == "html" else text
        for dev in ("-exact.json", "(key ", "computed in", "--exhaustive", "records/"):
            assert dev not in body, f"{stem}.{ext}: developer text {dev!r} in a filing"
    assert b"--exhaustive" not in (GEN / f"{stem}.pdf").read_bytes()


def test_the_provenance_stays_in_the_analysis():
    """The record behind the 670a figures is still named where an analyst looks: the analysis (its
    text and JSON), in its own field, not in the method a filing shows."""
    from compiler.analysis.model import Report
    from compiler.analysis.paigow import _exact_house_way, model_of
    from compiler.pipeline import load_game

    mod, compiled = load_game(ROOT / "rulespecs" / "670a-six-card-fortune-pai-gow-poker.yaml")
    game, chapter = mod.GAME, compiled.chapter
    rep = Report(chapter.chapter, chapter.title, {}, [])
    assert _exact_house_way(rep, game, chapter, {}, model_of(game, chapter)) is not None
    assert len(rep.figures) >= 2
    for f in rep.figures:
        assert "670a-main-exact.json" in f.provenance and "(key " in f.provenance, f.provenance
        assert "670a-main-exact.json" not in f.method and "--exhaustive" not in f.method, f.method
        assert f.to_json()["provenance"] == f.provenance
    assert "  provenance: record 670a-main-exact.json (key " in rep.to_text()
