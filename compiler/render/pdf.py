"""PDF documents fit to file, from the generated HTML (WeasyPrint: pure Python on Pango, no browser).

The print rules live in the documents' own CSS (``@page`` with page numbers, table headers
repeated on every page, headings kept with what follows): the PDF is the HTML printed.

Deterministic: no creation or modification date is written (WeasyPrint writes them only when
the document asks), and the PDF's file identifier is derived from the HTML's content, so the
same HTML gives the same bytes (``rulespec build --check`` compares them like every output).
The fonts are named, not left to the machine's fontconfig aliases: "Georgia" or "Times New Roman"
resolve to Liberation Serif where Chromium's fonts are installed and to DejaVu Serif elsewhere, which
would make the filed bytes depend on what else the machine has. DejaVu (fonts-dejavu-core) is on every
machine of this project's kind.
"""
from __future__ import annotations

import hashlib
import logging
import subprocess
import sys


# the filed PDF's fonts, the same on every machine (see above)
PRINT_FONTS = """
body, table, th, td, h1, h2, h3, h4, p, li { font-family: "DejaVu Serif" !important; }
code, pre, kbd, samp { font-family: "DejaVu Sans Mono" !important; }
"""


_RENDERED = False  # a PDF was printed in this process already


def html_to_pdf(html: str, base_url: str | None = None) -> bytes:
    """The PDF of ``html``. WeasyPrint's bytes depend on what the process printed before (the embedded font
    subsets differ on a second document, even the same one), so only the first document of a process is
    printed in it; every later one in a fresh interpreter (``python -m compiler.render.pdf``)."""
    global _RENDERED
    if not _RENDERED:
        _RENDERED = True
        return _print(html, base_url)
    r = subprocess.run([sys.executable, "-m", "compiler.render.pdf", *([base_url] if base_url else [])],
                       input=html.encode("utf-8"), capture_output=True, check=False)
    if r.returncode:
        raise RuntimeError(f"printing a PDF failed: {r.stderr.decode('utf-8', 'replace').strip()[-2000:]}")
    return r.stdout


def _print(html: str, base_url: str | None) -> bytes:
    from weasyprint import CSS, HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    ident = hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")
    return HTML(string=html, base_url=base_url).write_pdf(stylesheets=[CSS(string=PRINT_FONTS)],
                                                          pdf_identifier=ident)


if __name__ == "__main__":  # one document printed in a fresh process: HTML on stdin, PDF on stdout
    sys.stdout.buffer.write(_print(sys.stdin.buffer.read().decode("utf-8"), sys.argv[1] if len(sys.argv) > 1 else None))
