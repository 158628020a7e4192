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

The embedded fonts are subset by one subsetter on every machine: fontTools (a Python package installed
with WeasyPrint), never HarfBuzz's libharfbuzz-subset, which WeasyPrint prefers where the system has it
(it comes with Chromium's packages): the two give different bytes, so the filed PDFs would depend on what
else the machine has installed. fontTools stamps the subset font's ``head.modified`` with the time of the
print unless ``SOURCE_DATE_EPOCH`` is set (reproducible-builds.org): it is set to 0 while printing, so a
document printed a second later, or after another in the same process, has the same bytes.

Printing is the slow part of a build (about 1.5 s a document): :func:`filed_pdf` keeps each print in
the content-addressed cache (:mod:`compiler.cache`), keyed by the HTML, the compiler's fingerprint, the
versions of the printing packages and the bytes of the fonts printed with; ``--no-cache`` prints again.
:func:`html_to_pdf` always prints.
"""
from __future__ import annotations

import functools
import hashlib
import logging
import os
from contextlib import contextmanager

# the filed PDF's fonts, the same on every machine (see above)
PRINT_FONTS = """
body, table, th, td, h1, h2, h3, h4, p, li { font-family: "DejaVu Serif" !important; }
code, pre, kbd, samp { font-family: "DejaVu Sans Mono" !important; }
"""


@contextmanager
def _reproducible():
    """fontTools' subsetter with a fixed timestamp, for the duration of one print."""
    import weasyprint.pdf.fonts as pdf_fonts

    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "0"
    if hasattr(pdf_fonts, "harfbuzz_subset"):
        pdf_fonts.harfbuzz_subset = None  # fontTools subsets (see the module's docstring)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


PRINT_PACKAGES = ("weasyprint", "pydyf", "fonttools", "tinycss2", "cssselect2", "pillow")


@functools.lru_cache(maxsize=1)
def _print_environment() -> tuple:
    """What else the bytes of a print depend on: the printing packages and the font files."""
    import glob
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for dist in PRINT_PACKAGES:
        try:
            out.append((dist, version(dist)))
        except PackageNotFoundError:
            out.append((dist, None))
    for path in sorted(glob.glob("/usr/share/fonts/truetype/dejavu/DejaVu*.ttf")):
        with open(path, "rb") as f:
            out.append((os.path.basename(path), hashlib.sha256(f.read()).hexdigest()))
    return tuple(out)


def filed_pdf(html: str) -> bytes:
    """The PDF of *html* as :func:`html_to_pdf` prints it, from the cache when printed before."""
    from compiler import cache

    return cache.cached(cache.key_of("pdf", html, _print_environment()), lambda: html_to_pdf(html))


class RefusedURL(Exception):
    """A document asked for a URL: a filed document is printed from its own text only."""


def refusing_fetcher():
    """WeasyPrint's URL fetcher for every print: it refuses every URL (``http:``, ``file:``,
    ``data:`` alike), before any handler is opened. The documents carry their styles inline and
    name fonts installed on the machine, so an honest document asks for nothing; a document that
    asks (a stylesheet, an image or a font by URL, put there by injected text) is printed without
    it: no request leaves the process and no local file is read into a filing (docs/security.md)."""
    from weasyprint.urls import URLFetcher

    class Refusing(URLFetcher):
        def __init__(self):
            super().__init__(allowed_protocols=(), allow_redirects=False, fail_on_errors=False)

        def fetch(self, url, headers=None):
            raise RefusedURL(f"refused to fetch {url[:200]!r}: documents are printed from their own text only")

        def open(self, url, data=None, timeout=None):
            raise RefusedURL("refused to open a URL: documents are printed from their own text only")

    return Refusing()


def html_to_pdf(html: str, base_url: str | None = None) -> bytes:
    from weasyprint import CSS, HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    ident = hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")
    with _reproducible():
        fetcher = refusing_fetcher()
        return HTML(string=html, base_url=base_url, url_fetcher=fetcher).write_pdf(
            stylesheets=[CSS(string=PRINT_FONTS, url_fetcher=fetcher)], pdf_identifier=ident)
