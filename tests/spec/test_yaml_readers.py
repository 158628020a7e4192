"""libyaml's reading of a rulespec is taken only where it is PyYAML's (compiler/spec/reading.py).

The pure-Python reader is the reference. For every text, ``compose`` gives the tree PyYAML's reader
gives (the same nodes, tags, values, anchors, and the line, column and character index of every node),
or PyYAML's own positioned error: over every YAML file of the project, hand-written cases where the
two readers are known to differ, and a seeded mutation of both. The trees are compared by an
independent walk over what the later stages read of them.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from compiler.spec import reading
from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import load_document

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for d in ("rulespecs", "schemas", "tests", "docs") for p in (ROOT / d).glob("**/*.y*ml")
               if p.suffix in (".yaml", ".yml"))

needs_libyaml = pytest.mark.skipif(reading._CParser is None, reason="PyYAML without libyaml")  # noqa: SLF001


def _walk(node, out: list) -> list:
    if node is None:
        out.append(None)
    elif isinstance(node, reading.AliasRef):
        m = node.start_mark
        out.append(("alias", node.anchor, m.line, m.column, m.index))
    else:
        s, e = node.start_mark, node.end_mark
        out.append((type(node).__name__, node.tag, getattr(node, "style", None), bool(getattr(node, "flow_style", None)),
                    s.line, s.column, s.index, e.index))
        if isinstance(node.value, str):
            out.append(node.value)
        else:
            for item in node.value:
                for sub in (item if isinstance(item, tuple) else (item,)):
                    _walk(sub, out)
    return out


def _reading(fn, text: str):
    try:
        return ("tree", _walk(fn(text), []))
    except DiagnosticError as e:
        return ("error", [d.format() for d in e.diagnostics])


def _python(text: str):
    return _reading(lambda t: reading.compose_python("x.yaml", t, 64), text)


def _composed(text: str):
    return _reading(lambda t: reading.compose("x.yaml", t, 64), text)


def _libyaml_took(text: str) -> bool:
    try:
        reading._compose_libyaml(text)  # noqa: SLF001
    except reading._Unsure:  # noqa: SLF001
        return False
    return True


def _readable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
        reading.check_characters("x.yaml", text)
    except (UnicodeDecodeError, DiagnosticError):
        return None
    return text


# where libyaml and PyYAML read differently: each goes to PyYAML (its tree, or its error)
DIFFERENT = [
    "a: one\ttwo\n",                          # a tab inside a plain scalar: libyaml takes it, PyYAML refuses
    "k:\tv\n",
    "- {seat: 1, wager: initia?l}\n",          # a '?' inside a flow mapping: the same
    "? complex\n: value\n",
    "cha\ufeffpter: \"5\"\n",                    # a U+FEFF inside a line: libyaml counts the column differently
    "- {seat: , wager: flag}\n",               # an empty node in a flow mapping: placed one column apart
    "a: 1\nb: [1, 2, {c: }]\n",
    "key:\n",                                  # an empty node at the end of the text
    "%FOO bar\n---\na: 1\n",                   # an unknown directive: PyYAML ignores it, libyaml refuses
    "a: [1, 2\n",                              # errors: every message is PyYAML's
    "a: b: c\n",
    "a: &x 1\nb: *y\n",
    "- a\n- b\n---\n- c\n",
]

SAME = [
    "a: 1\nb: [1, 2, {c: d}]\n",
    "- &x a\n- *x\n- !!str 3\n",
    "k: |\n  text\n   more\n",
    "k: >-\n  folded\n\n  para\n",
    "%YAML 1.1\n---\na: b\n...\n",
    "'q': \"e\\u00e9\\x41\\N\\_\\L\\P\\e\"\n",
    "a: \"multi\n  line\"\nb: 'x\n\n  y'\n",
    "plain: multi\n  line plain\n  scalar\n",
    "a: &A {x: 1}\nb: *A\n",
    "s: § 670a.6(b) 😀 e\u0301\r\nt: x\x85u: y\u2028v: z\n",
    "%TAG !e! tag:example.com,2000:\n---\n- !e!foo bar\n",
]


def test_every_yaml_file_of_the_project_is_read_as_pyyaml_reads_it():
    n = took = 0
    for p in FILES:
        text = _readable(p.read_bytes())
        if text is None:
            continue
        n += 1
        assert _composed(text) == _python(text), p
        took += reading._CParser is not None and _libyaml_took(text)  # noqa: SLF001
    assert n > 100
    if reading._CParser is not None:  # noqa: SLF001
        assert took > n // 2  # the fast reading is the common case, not a path never taken
        for p in sorted((ROOT / "rulespecs").glob("*.yaml")):
            assert _libyaml_took(p.read_text(encoding="utf-8")), p  # every seeded chapter


@needs_libyaml
@pytest.mark.parametrize("text", DIFFERENT)
def test_where_the_readers_differ_pyyaml_decides(text):
    assert not _libyaml_took(text)
    assert _composed(text) == _python(text)


@needs_libyaml
@pytest.mark.parametrize("text", SAME)
def test_where_the_readers_agree_libyaml_reads(text):
    assert _libyaml_took(text)
    assert _composed(text) == _python(text)


def test_a_tab_inside_a_plain_scalar_keeps_its_message():
    with pytest.raises(DiagnosticError) as e:
        load_document("x.yaml", "title: one\ttwo\n")
    assert "tab character is not allowed here" in e.value.diagnostics[0].message


TOKENS = [" ", "  ", "\n", "\r\n", "\r", "\x85", "\u2028", ":", ": ", "- ", ",", "[", "]", "{", "}", "#", " #",
          "&a ", "*a", "!", "!!str ", "!x ", "%", "|", ">", "|2", ">-", "'", '"', "\\", "---", "...", "\n...\n",
          "é", "§", "😀", "x" * 1030, "<<: ", "~", "0x1F", ".inf", "\n  ", "\n- ", "\t", "?", "\ufeff"]


def test_a_seeded_mutation_of_the_projects_yaml_is_read_as_pyyaml_reads_it():
    """Texts near the project's own (a few tokens inserted, cut or copied): PyYAML's reading every time.
    (A run of 53,000 such mutations found no difference: docs/speed.md.)"""
    rng = random.Random(28)
    seeds = list(SAME) + list(DIFFERENT)
    for p in FILES[::3]:
        text = _readable(p.read_bytes())
        if text:
            lines = text.splitlines(True)
            seeds += ["".join(lines[i:i + 15]) for i in range(0, min(len(lines), 150), 50)]
    compared = 0
    for _ in range(600):
        text = rng.choice(seeds)
        for _ in range(rng.randint(1, 3)):
            i = rng.randint(0, len(text))
            op = rng.random()
            if op < 0.6:
                text = text[:i] + rng.choice(TOKENS) + text[i:]
            elif op < 0.8:
                text = text[:i] + text[i + rng.randint(1, 4):]
            else:
                j = rng.randint(0, len(text))
                text = text[:i] + text[j:j + rng.randint(1, 30)] + text[i:]
        if _readable(text.encode("utf-8", "surrogatepass")) is None:
            continue
        assert _composed(text) == _python(text), repr(text)
        compared += 1
    assert compared > 400


def test_pyyaml_alone_reads_the_same(monkeypatch):
    """Without libyaml (a PyYAML built without it) every text is read in Python, with the same result."""
    text = (ROOT / "rulespecs/567-war.yaml").read_text(encoding="utf-8")
    before = load_document("w.yaml", text)
    monkeypatch.setattr(reading, "_CParser", None)
    assert not _libyaml_took(text)
    after = load_document("w.yaml", text)
    assert after.data == before.data
    assert after._positions == before._positions and after._key_positions == before._key_positions  # noqa: SLF001


def test_libyaml_is_used_only_in_a_version_compared():
    """The speed figures of docs/speed.md assume libyaml; a missing one or another version is slower,
    never different (every text is then read in Python)."""
    if not yaml.__with_libyaml__:
        assert reading._CParser is None  # noqa: SLF001
        return
    from yaml._yaml import get_version

    assert (reading._CParser is not None) == (get_version() in reading.LIBYAML_COMPARED)  # noqa: SLF001
