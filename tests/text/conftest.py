from __future__ import annotations

import pytest

from text_sources import ALL_SOURCES


@pytest.fixture(scope="session")
def docs():
    from compiler.text.parser import parse_file
    return {p.name: parse_file(p) for p in ALL_SOURCES}


@pytest.fixture(scope="session")
def specs(docs):
    from compiler.text.importer import chapter_to_spec
    out = {}
    for d in docs.values():
        for ch in d.chapters:
            out.setdefault(ch.number, chapter_to_spec(d, ch.number))
    return out
