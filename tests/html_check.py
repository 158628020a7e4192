"""Shared by the tests of every generated HTML page: well-formed, balanced, self-contained."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "embed", "source", "track", "wbr"}


class _Balance(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.tags = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):  # <meta ... />
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append(f"</{tag}>")
        elif not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def check_html(html: str) -> list:
    """Every tag closed in order, and the page parses as XML (XHTML-compatible). Returns the tags."""
    p = _Balance()
    p.feed(html)
    p.close()
    assert p.errors == [] and p.stack == [], (p.errors, p.stack)
    ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", html, flags=re.IGNORECASE).strip())
    return p.tags


def assert_self_contained(html: str, tags: list | None = None) -> None:
    """Nothing is fetched: no scripts, stylesheets, frames or images; links only within the page."""
    tags = check_html(html) if tags is None else tags
    for tag, attrs in tags:
        assert tag not in ("script", "link", "img", "iframe", "object", "embed"), tag
        for a in ("src", "href"):
            assert a not in attrs or str(attrs[a]).startswith("#"), (tag, attrs)
    assert "url(" not in html and "@import" not in html
