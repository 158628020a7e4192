"""PDF documents fit to file, from the generated HTML (WeasyPrint: pure Python on Pango, no browser).

The print rules live in the documents' own CSS (``@page`` with page numbers, table headers
repeated on every page, headings kept with what follows): the PDF is the HTML printed.

Deterministic: no creation or modification date is written (WeasyPrint writes them only when
the document asks), and the PDF's file identifier is derived from the HTML's content, so the
same HTML gives the same bytes (``rulespec build --check`` compares them like every output).
"""
from __future__ import annotations

import hashlib
import logging


def html_to_pdf(html: str, base_url: str | None = None) -> bytes:
    from weasyprint import HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    ident = hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")
    return HTML(string=html, base_url=base_url).write_pdf(pdf_identifier=ident)


def filed_pdfs(outputs: dict) -> dict[str, bytes]:
    """``<stem>.pdf`` for every ``generated/submissions/<stem>.html`` among a build's outputs."""
    return {rel[: -len(".html")] + ".pdf": html_to_pdf(text) for rel, text in sorted(outputs.items())
            if rel.startswith("generated/submissions/") and rel.endswith(".html")}
