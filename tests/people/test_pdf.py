"""Documents fit to file: the filed PDFs of the example Rules Submissions, the blank forms in words,
no local paths."""
from __future__ import annotations

import re

import pytest

from compiler.pipeline import ROOT
from compiler.render.pdf import html_to_pdf

SUBMISSIONS = sorted((ROOT / "rulespecs" / "submissions").glob("*.yaml"))


def boxes(box, depth=0):
    yield depth, box
    for c in getattr(box, "children", None) or ():
        yield from boxes(c, depth + 1)


def text_of(box) -> str:
    return " ".join(b.text for _, b in boxes(box) if getattr(b, "text", None))


def test_every_example_submission_has_a_filed_pdf_rebuilt_byte_for_byte():
    for sub in SUBMISSIONS:
        html = (ROOT / "generated" / "submissions" / f"{sub.stem}.html").read_text(encoding="utf-8")
        pdf = (ROOT / "generated" / "submissions" / f"{sub.stem}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF-")
        # no creation date, no random file identifier, no time in the subset fonts, whatever the process
        # printed before (every document of this loop is printed in one process)
        assert html_to_pdf(html) == pdf, sub.stem
        assert b"/CreationDate" not in pdf and b"/ModDate" not in pdf


@pytest.mark.parametrize("stem", ["670a-six-card-fortune-keystone-full", "669a-raise-it-up-mountainview-full"])
def test_pdf_pages_are_numbered_tables_repeat_their_header_and_no_heading_ends_a_page(stem):
    from weasyprint import HTML

    html = (ROOT / "generated" / "submissions" / f"{stem}.html").read_text(encoding="utf-8")
    doc = HTML(string=html).render()
    n = len(doc.pages)
    assert n > 2  # long enough for tables to cross pages
    continued = 0
    for i, page in enumerate(doc.pages, 1):
        margins = [b for _, b in boxes(page._page_box) if type(b).__name__ == "MarginBox"]
        assert any(f"Page {i} of {n}" in text_of(m) for m in margins), i
        body = next(b for _, b in boxes(page._page_box) if getattr(b, "element_tag", None) == "body")
        flow = [b for b in body.children if getattr(b, "element_tag", None)]
        assert flow[-1].element_tag not in ("h1", "h2", "h3", "h4"), f"page {i} ends with a heading"
        first = flow[0]
        table = next((b for _, b in boxes(first) if type(b).__name__ == "TableBox"), None)
        if table is not None and first.element_tag == "table":  # a table continued from the page before
            groups = [c for c in table.children if type(c).__name__ == "TableRowGroupBox"]
            assert groups and groups[0].is_header, f"page {i}: the continued table has no header row"
            continued += 1
    assert continued >= 1  # the check above did look at a table crossing a page


def test_blank_forms_show_conditions_in_words_not_rule_language():
    for f in sorted((ROOT / "generated" / "forms").glob("*")):
        text = f.read_text(encoding="utf-8")
        assert "option(" not in text, f.name
    form = (ROOT / "generated" / "forms" / "669a-raise-it-up-stud-poker-rules-submission.md").read_text()
    # the condition of the manual dealing shoe, read through the option's title from the rulespec
    assert re.search(r"manual dealing shoe \| [^|]*: manual shoe \|", form), form


def test_plain_words_of_conditions_come_from_the_parsed_rule():
    from compiler.render.plain import plain_when

    opts = {"starting_position": {"title": "How the starting position is determined"},
            "shuffler": {"title": "Automated card shuffling device used"}, "extra": {"title": "Extra positions"}}
    assert plain_when("option(starting_position) == 'shaker'", opts) == "How the starting position is determined: shaker"
    assert plain_when("not option(shuffler)", opts) == "Automated card shuffling device used: no"
    assert (plain_when("option(extra) > 0 and option(starting_position) != 'random_number_generator'", opts)
            == "Extra positions: more than 0; and How the starting position is determined: not random number generator")
    assert plain_when("card(1) == 'A'", opts) == "card(1) == 'A'"  # no plain reading: shown as written


def test_documents_name_no_local_path(tmp_path):
    from compiler.submission.commands import check_files
    from compiler.submission.document import render_documents

    src = ROOT / "rulespecs" / "submissions" / "567-war-keystone-manual.yaml"
    copy = tmp_path / "casino-files" / "war.yaml"
    copy.parent.mkdir()
    copy.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    [(f, sub, diags)] = check_files([str(copy.resolve())])[0]
    assert sub is not None, diags
    for text in render_documents(sub):
        assert str(tmp_path) not in text and "war.yaml" in text
    out = tmp_path / "out"
    from compiler.cli import main
    import contextlib, io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["submission", str(copy.resolve()), "-o", str(out)]) == 0
    for f in sorted(out.iterdir()):
        assert str(tmp_path).encode() not in f.read_bytes(), f.name
    assert (out / "war.pdf").read_bytes().startswith(b"%PDF-")
    for f in sorted((ROOT / "generated").rglob("*")):
        if f.is_file():
            data = f.read_bytes()
            assert str(ROOT).encode() not in data and b"/home/" not in data, f


def test_the_same_pdf_a_second_later_and_whatever_subsetter_the_system_has(monkeypatch):
    """fontTools stamps a subset font with the time unless SOURCE_DATE_EPOCH is set; libharfbuzz-subset,
    where the system has it, subsets otherwise. Neither may show in the filed bytes."""
    import time

    import weasyprint.pdf.fonts as pdf_fonts

    html = (ROOT / "generated" / "submissions" / f"{SUBMISSIONS[0].stem}.html").read_text(encoding="utf-8")
    first = html_to_pdf(html)
    time.sleep(1.1)
    monkeypatch.setattr(pdf_fonts, "harfbuzz_subset", object())   # as if the system library were found
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert html_to_pdf(html) == first
    assert "SOURCE_DATE_EPOCH" not in __import__("os").environ   # restored after the print
