"""Citations of 58 Pa. Code provisions: ``§ 567.9(c)(2)``, ``§§ 669a.8-669a.10``, ...

Small, stable API (the rule language imports it):

    parse_citation(text) -> list[Citation | CitationRange]
    Citation(section, path).format()  -> "§ 567.9(c)(2)"
    CitationRange(start, end).format() / .expand()
    CitationSyntaxError(message, line, column)

The grammar is ``compiler/lang/citation.lark``.  Label helpers used by the text tools
(``label_style``, ``next_label``, ``first_labels``) live here too so that ranges such as
``(b)—(d)`` can be expanded without importing the text tools.
"""
from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Union

from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError

__all__ = [
    "Citation",
    "CitationRange",
    "CitationSyntaxError",
    "parse_citation",
    "expand",
    "label_style",
    "next_label",
    "is_first_label",
    "STYLES",
]

GRAMMAR = Path(__file__).with_name("citation.lark")

# lark's strict mode checks terminal collisions with the optional `interegular`
# package; when it is not installed strict mode cannot be switched on at all, so we
# fall back to the (otherwise identical) non-strict LALR parser.  The grammar itself is
# conflict-free: tests/text/test_citations.py builds it with strict=True when possible.
HAS_INTEREGULAR = importlib.util.find_spec("interegular") is not None


class CitationSyntaxError(ValueError):
    """Bad citation text. ``line`` and ``column`` are 1-based positions in the text."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(f"{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column


# --------------------------------------------------------------------------- labels

ROMAN_LOWER = [
    "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x",
    "xi", "xii", "xiii", "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx",
    "xxi", "xxii", "xxiii", "xxiv", "xxv",
]
ROMAN_UPPER = [r.upper() for r in ROMAN_LOWER]

# Level styles of a provision label, outermost first: (a) subsection, (1) paragraph,
# (i) subparagraph, (A) clause, (I) subclause.
STYLES = ("alpha", "arabic", "roman", "ALPHA", "ROMAN")
FIRST = {"alpha": "a", "arabic": "1", "roman": "i", "ALPHA": "A", "ROMAN": "I"}


def label_styles(label: str) -> tuple[str, ...]:
    """Every style a label may belong to (``i`` is both a letter and a numeral)."""
    out = []
    if label.isdigit():
        out.append("arabic")
    if label in ROMAN_LOWER:
        out.append("roman")
    if re.fullmatch(r"[a-z]{1,2}", label) and (len(label) == 1 or label[0] == label[1]):
        out.append("alpha")
    if label in ROMAN_UPPER:
        out.append("ROMAN")
    if re.fullmatch(r"[A-Z]{1,2}", label) and (len(label) == 1 or label[0] == label[1]):
        out.append("ALPHA")
    return tuple(out)


def label_style(label: str) -> str | None:
    """The most likely style of a label on its own (``i`` -> roman, ``h`` -> alpha)."""
    styles = label_styles(label)
    if not styles:
        return None
    if label in ("i", "I"):
        return "roman" if label == "i" else "ROMAN"
    if "alpha" in styles and "roman" in styles:
        # v, x, l, c, d, m: letters far more often than numerals in these chapters
        return "alpha" if label not in ROMAN_LOWER[:3] else "roman"
    if "ALPHA" in styles and "ROMAN" in styles:
        return "ALPHA" if label not in ROMAN_UPPER[:3] else "ROMAN"
    return styles[0]


def is_first_label(label: str, style: str) -> bool:
    return FIRST.get(style) == label


def _alpha_index(label: str) -> int:
    base = ord("a") if label.islower() else ord("A")
    if len(label) == 1:
        return ord(label) - base
    return 26 + ord(label[0]) - base  # aa, bb, ...


def _alpha_label(index: int, upper: bool) -> str:
    base = ord("A") if upper else ord("a")
    if index < 26:
        return chr(base + index)
    return chr(base + index - 26) * 2


def label_index(label: str, style: str) -> int | None:
    if style not in label_styles(label):
        return None
    if style == "arabic":
        return int(label) - 1
    if style == "roman":
        return ROMAN_LOWER.index(label)
    if style == "ROMAN":
        return ROMAN_UPPER.index(label)
    return _alpha_index(label)


def label_at(index: int, style: str) -> str:
    if style == "arabic":
        return str(index + 1)
    if style == "roman":
        return ROMAN_LOWER[index]
    if style == "ROMAN":
        return ROMAN_UPPER[index]
    return _alpha_label(index, style == "ALPHA")


def next_label(label: str, style: str) -> str | None:
    idx = label_index(label, style)
    if idx is None:
        return None
    try:
        return label_at(idx + 1, style)
    except IndexError:
        return None


# ----------------------------------------------------------------------- dataclasses

_SECTION_RE = re.compile(r"(\d+)([a-z]?)\.(\d+)([a-z]?)")


@dataclass(frozen=True)
class Citation:
    """One provision: a section (``"567.9"``, no section sign) and labels (``("c", "2")``)."""

    section: str
    path: tuple[str, ...] = ()
    # position in the text it was parsed from (0 when built by hand); not compared
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)

    def format(self) -> str:
        return "§ " + self.short()

    def short(self) -> str:
        return self.section + "".join(f"({p})" for p in self.path)

    @property
    def chapter(self) -> str:
        return self.section.split(".")[0]

    def key(self) -> tuple[str, tuple[str, ...]]:
        return (self.section, self.path)

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.format()


@dataclass(frozen=True)
class CitationRange:
    """``§§ 669a.8-669a.10`` or ``§ 669a.12(b)—(d)``: both ends inclusive."""

    start: Citation
    end: Citation

    def format(self) -> str:
        if self.start.section != self.end.section:
            return f"§§ {self.start.short()}-{self.end.short()}"
        common = 0
        while (common < min(len(self.start.path), len(self.end.path)) - 1
               and self.start.path[common] == self.end.path[common]):
            common += 1
        tail = "".join(f"({p})" for p in self.end.path[common:])
        return f"{self.start.format()}\u2014{tail}"

    @property
    def section(self) -> str:
        return self.start.section

    def expand(self) -> list[Citation]:
        """Every citation the range covers (sections or labels at the same level)."""
        s, e = self.start, self.end
        if s.section != e.section:
            ms, me = _SECTION_RE.fullmatch(s.section), _SECTION_RE.fullmatch(e.section)
            if not ms or not me or ms.group(1, 2) != me.group(1, 2):
                return [s, e]
            prefix = f"{ms.group(1)}{ms.group(2)}."
            lo, hi = int(ms.group(3)), int(me.group(3))
            return [Citation(f"{prefix}{n}", (), s.line, s.column) for n in range(lo, hi + 1)]
        if len(s.path) != len(e.path) or not s.path or s.path[:-1] != e.path[:-1]:
            return [s, e]
        a, b = s.path[-1], e.path[-1]
        for style in label_styles(a):
            ia, ib = label_index(a, style), label_index(b, style)
            if ia is not None and ib is not None and ia <= ib:
                return [Citation(s.section, s.path[:-1] + (label_at(i, style),), s.line, s.column)
                        for i in range(ia, ib + 1)]
        return [s, e]


CitationLike = Union[Citation, CitationRange]


def expand(items: list[CitationLike]) -> list[Citation]:
    out: list[Citation] = []
    for it in items:
        out.extend(it.expand() if isinstance(it, CitationRange) else [it])
    return out


# ------------------------------------------------------------------------ transformer

def _continue_path(base: tuple[str, ...], cont: tuple[str, ...]) -> tuple[str, ...]:
    """``669a.11(b)`` continued by ``(d)`` gives ``669a.11(d)``: the continuation
    replaces the base's labels from the deepest level of the same style."""
    if not base:
        return cont
    first_styles = set(label_styles(cont[0]))
    for depth in range(len(base) - 1, -1, -1):
        if first_styles & set(label_styles(base[depth])):
            return base[:depth] + cont
    return base[:-1] + cont


class _Build(Transformer):
    def __init__(self) -> None:
        super().__init__()

    def path(self, labels):
        return tuple(str(t)[1:-1] for t in labels)

    @v_args(meta=True)
    def point(self, meta, children):
        section = str(children[0])
        path = children[1] if len(children) > 1 else ()
        return Citation(section, path, getattr(meta, "line", 0), getattr(meta, "column", 0))

    def full(self, children):
        children = [c for c in children if not (hasattr(c, "type") and c.type in ("SECT", "SECTS", "DASH"))]
        start = children[0]
        if len(children) == 1:
            return start
        end = children[1]
        if isinstance(end, tuple):
            end = Citation(start.section, _continue_path(start.path, end), start.line, start.column)
        return CitationRange(start, end)

    def partial(self, children):
        paths = [c for c in children if isinstance(c, tuple)]
        return ("partial", paths)

    def start(self, children):
        out: list[CitationLike] = []
        last: Citation | None = None
        for item in children:
            if hasattr(item, "type"):
                continue  # separators
            if isinstance(item, tuple) and item and item[0] == "partial":
                if last is None:
                    raise CitationSyntaxError("a citation must begin with a section number")
                paths = item[1]
                first = Citation(last.section, _continue_path(last.path, paths[0]), last.line, last.column)
                if len(paths) == 2:
                    end = Citation(first.section, _continue_path(first.path, paths[1]), last.line, last.column)
                    out.append(CitationRange(first, end))
                    last = first
                else:
                    out.append(first)
                    last = first
                continue
            out.append(item)
            last = item.start if isinstance(item, CitationRange) else item
        return out


@lru_cache(maxsize=None)
def citation_parser(strict: bool | None = None) -> Lark:
    if strict is None:
        strict = HAS_INTEREGULAR
    from compiler.lang.lark_cache import cached_lark  # built once, then read from the cache (start-up)

    return cached_lark("citations", GRAMMAR.read_text(encoding="utf-8"), parser="lalr", strict=strict,
                       propagate_positions=True, maybe_placeholders=False)


def parse_citation(text: str) -> list[CitationLike]:
    """Parse one citation or a list of them. Raises :class:`CitationSyntaxError`."""
    return list(_parse_cached(text))


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> tuple[CitationLike, ...]:
    # pages repeat their citations ("§ 601a.2" in every chapter): parse each text once
    return tuple(_parse(text))


# One provision written the common way ("§ 670a.6(b)(10)", "567.9"): read without the parser, to the
# same Citation, position included (the SECTION and LABEL terminals of citation.lark; no other space).
# Nine citations in ten of a chapter are this; tests/text/test_citations.py holds it to the parser's.
_ONE = re.compile(r"(?:§ ?)?(\d+[a-z]?\.\d+[a-z]?)((?:\([A-Za-z0-9]{1,6}\))*)")
_LABEL = re.compile(r"\(([A-Za-z0-9]{1,6})\)")


def _parse(text: str) -> list[CitationLike]:
    if not text or not text.strip():
        raise CitationSyntaxError("empty citation", 1, 1)
    one = _ONE.fullmatch(text)
    if one is not None:
        return [Citation(one.group(1), tuple(_LABEL.findall(one.group(2))), 1, one.start(1) + 1)]
    return _parse_lark(text)


def _parse_lark(text: str) -> list[CitationLike]:
    try:
        tree = citation_parser().parse(text)
        return _Build().transform(tree)
    except UnexpectedInput as exc:
        line = getattr(exc, "line", 1) or 1
        col = getattr(exc, "column", 1) or 1
        if line < 0 or col < 0:  # unexpected end of input
            line, col = 1, len(text) + 1
        found = getattr(exc, "token", None) or getattr(exc, "char", None)
        what = f"unexpected {found!r}" if found not in (None, "") else "unexpected end of citation"
        raise CitationSyntaxError(f"bad citation {text!r}: {what}", line, col) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, CitationSyntaxError):
            raise exc.orig_exc from None
        raise
