"""Facts stated twice: by the executable parts of a rulespec and by its provision text.

Every number the data gives under a fact key (payout ``odds``, ``count``, deck ``cards``,
``hours``, ``minutes``, ``max_positions``, ``min_from_edge``, option ``minimum``/``maximum``,
``from_bottom``, ``amounts``, ``dice``, a set_hands step's ``high``/``low``, a roll's ``numbers``
as the range 1 to n), every number and range (``X >= a and X <= b``) of a rule expression
(``require``, ``when``, ``then``, outside quoted notes), every number of a requirement's text,
an equipment item or a layout area, a ranking's whole ``order`` (where the cited section prints
an order) and every wager ``name`` is looked up in the text of the provision
the data cites (that provision, its subprovisions and the lead-in of the provisions above it).
When the text does not say it, lint reports an error at the data naming the provision, and a
note at the provision text naming the data: changing either copy fails ``validate`` at both.

Paytable cells are not checked here: the provision text prints them from the ``paytables``
data (compiler/text/render.py), so there is one copy.

A data value that the text does not state (a default, a bound the regulation leaves open) is
declared in ``untied: [{at: /json/pointer, why: ...}]``: explicit, never silently skipped.
A number of the text with no executable counterpart is declared in
``text_facts: [{cite: ..., says: <a phrase of that provision>, why: ...}]``. The other ways the
text restates the data (names, hand sizes, the cards dealt, ...) are in compiler/lint/restated.py.

``coverage(doc)`` counts the numbers and odds of the text and how many are tied to data
(or declared); ``validate`` reports it. In a rulespec with a procedure, a number of the text
neither tied nor declared is an error at the text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from typing import Any, Iterator

from compiler.spec.diagnostics import Diagnostic
from compiler.spec.loader import Document

from .restated import restated_spans
from .words import RANK_WORDS, WORDS, _NUMBER_OF_WORD, _cites  # noqa: F401 - WORDS: the tests use it

# keys whose value is a number (or odds, or a list of amounts) the provision text states
NUMBER_KEYS = ("odds", "count", "cards", "hours", "minutes", "days", "max_positions", "min_from_edge",
               "minimum", "maximum", "from_bottom", "amounts", "percent", "dice", "high", "low", "numbers")
# keys whose integer n means the range 1 to n ('a number from 1 to 7')
RANGE_KEYS = ("numbers",)
# parts of a spec that are prose or bookkeeping, not executable data
SKIP_TOP = ("provisions", "interpretations", "requirements", "externals", "missing", "untied", "text_facts",
            "source", "rulespec", "chapter", "title", "completeness", "history", "submissions")
EXPR_KEYS = ("require", "when", "then", "while", "until")
SKIP_KEYS = ("title", "note", "text", "message", "unpriced", "area", "item", "procedure_text",
             "default", "values", "players", "max", "min", "zone", "hands", "order", "categories",
             "patterns", "thresholds", "rows", "columns", "layout", "equipment", "label", "labels", "lock")

FRACTION_WORDS = {Fraction(1, 2): ("one-half", "one half", "half"), Fraction(1, 4): ("one-quarter", "one quarter"),
                  Fraction(1, 3): ("one-third", "one third"), Fraction(3, 4): ("three-quarters",)}
_WORD_ALT = "|".join(sorted({w for w in WORDS.values()} | {"zero", "a single"}, key=len, reverse=True))
_FRAC_ALT = "|".join(sorted({w for ws in FRACTION_WORDS.values() for w in ws if " " not in w or True},
                            key=len, reverse=True))

# citations and labels inside the text are not numbers of the rules
_CITE_RE = re.compile(r"§§?\s*[0-9]+[a-z]?\.[0-9]+[a-z]?(?:\([A-Za-z0-9]+\))*(?:\s*(?:[-—]|and|or|,)\s*"
                      r"(?:[0-9]+[a-z]?\.[0-9]+[a-z]?)?(?:\([A-Za-z0-9]+\))*)*"
                      r"|(?:sub)?(?:section|paragraph|clause)s?\s+(?:\([A-Za-z0-9]+\))+"
                      r"|\((?:[0-9]+|[a-z]{1,4}|[A-Z])\)"
                      r"|\b(?:19|20)[0-9]{2}\b|\bChapter\s+[0-9]+[a-z]?\b|\b[0-9]+[a-z]?\.[0-9]+[a-z]?\b")
# a number of the text: odds, money, percentages, digits, number words, fractions
TEXT_NUMBER = re.compile(
    r"\b[0-9][0-9,]*\s+to\s+[0-9][0-9,]*\b"
    r"|\$[0-9][0-9,]*(?:\.[0-9]{2})?"
    r"|\b[0-9][0-9,]*(?:\.[0-9]+)?\s*(?:%|percent\b)"
    r"|\b[0-9][0-9,]*(?:\.[0-9]+)?\b"
    rf"|\b(?:{_FRAC_ALT})\b"
    rf"|\b(?:{_WORD_ALT})\b", re.IGNORECASE)


@dataclass
class Fact:
    kind: str                  # odds | number | amount | fraction | name
    value: Any
    pointer: str               # where the data states it
    cites: list                # Citation objects
    cite_text: str
    span: tuple[int, int] | None = None   # where in an expression string (require, when, then)


@dataclass
class Passage:
    pointer: str               # provision text pointer
    cite: str
    text: str


@dataclass
class Tie:
    fact: Fact
    passage: Passage
    span: tuple[int, int]


@dataclass
class Result:
    ties: list[Tie] = field(default_factory=list)
    missing: list[tuple[Fact, list[Passage]]] = field(default_factory=list)
    numbers: list[tuple[Passage, tuple[int, int], str]] = field(default_factory=list)  # every text number
    declared: list[tuple[Passage, tuple[int, int], str]] = field(default_factory=list)
    untied_numbers: list[tuple[Passage, tuple[int, int], str]] = field(default_factory=list)
    dangling: int = 0          # facts citing a provision their section in this spec does not have


def _esc(k: str) -> str:
    return k.replace("~", "~0").replace("/", "~1")


def passages(data: dict) -> dict[tuple[str, tuple[str, ...]], list[Passage]]:
    """(section, label path) -> the texts that state that provision: its own text, its
    subprovisions' and the lead-in text of the provisions above it."""
    own: dict[tuple[str, tuple[str, ...]], list[Passage]] = {}

    def walk(nodes, sec, path, ptr, leadins):
        for i, n in enumerate(nodes or ()):
            if not isinstance(n, dict) or n.get("elided"):
                continue
            p = f"{ptr}/{i}"
            lp = path + (str(n.get("label")),)
            cite = f"§ {sec}" + "".join(f"({x})" for x in lp)
            mine = [Passage(f"{p}/{k}", cite, n[k]) for k in ("text", "after") if isinstance(n.get(k), str)]
            mine += [Passage(f"{p}/tables/{j}/caption", cite, t["caption"]) for j, t in enumerate(n.get("tables") or ())
                     if isinstance(t, dict) and isinstance(t.get("caption"), str)]
            own.setdefault((sec, lp), []).extend(leadins + mine)
            for j, d in enumerate(n.get("definitions") or ()):
                if isinstance(d, dict) and isinstance(d.get("text"), str):
                    own[(sec, lp)].append(Passage(f"{p}/definitions/{j}/text", cite, d["text"]))
            walk(n.get("children"), sec, lp, f"{p}/children", leadins + mine[:1])
            # a provision states what its subprovisions state
            for key, ps in list(own.items()):
                if key[0] == sec and len(key[1]) > len(lp) and key[1][:len(lp)] == lp:
                    for x in ps:
                        if x not in own[(sec, lp)]:
                            own[(sec, lp)].append(x)

    for i, s in enumerate(data.get("provisions") or ()):
        if not isinstance(s, dict) or s.get("status") == "absent":
            continue
        sec = str(s.get("section"))
        p = f"/provisions/{i}"
        mine = [Passage(f"{p}/{k}", f"§ {sec}", s[k]) for k in ("text", "after") if isinstance(s.get(k), str)]
        for j, d in enumerate(s.get("definitions") or ()):
            if isinstance(d, dict) and isinstance(d.get("text"), str):
                mine.append(Passage(f"{p}/definitions/{j}/text", f"§ {sec}", d["text"]))
        own.setdefault((sec, ()), []).extend(mine)
        walk(s.get("children"), sec, (), f"{p}/children", mine[:1])
        for j, d in enumerate(s.get("definitions") or ()):
            if isinstance(d, dict):
                walk(d.get("children"), sec, (), f"{p}/definitions/{j}/children", [])
        for key, ps in list(own.items()):
            if key[0] == sec and key[1]:
                for x in ps:
                    if x not in own[(sec, ())]:
                        own[(sec, ())].append(x)
    return own


def iter_facts(data: dict) -> Iterator[Fact]:
    def walk(node, ptr, cite_text):
        if isinstance(node, dict):
            here = node.get("cite") if isinstance(node.get("cite"), str) else cite_text
            for k, v in node.items():
                p = f"{ptr}/{_esc(str(k))}"
                if k == "order" and isinstance(v, list) and ptr.startswith("/rankings/") and here:
                    if all(str(r) in RANK_WORDS for r in v):
                        yield Fact("rank", tuple(RANK_WORDS[str(r)] for r in v), p, _cites(here), here)
                    continue
                if k == "values" and ptr.startswith("/options/") and node.get("type") == "integer" and here \
                        and isinstance(v, list):  # an integer option's values: numbers its text states (six or eight)
                    yield from (Fact("number", a, f"{p}/{i}", _cites(here), here) for i, a in enumerate(v)
                                if isinstance(a, int) and not isinstance(a, bool))
                    continue
                if k in SKIP_KEYS or k in ("cite", "cites", "min_from_edge_cite"):
                    continue
                c = node.get("min_from_edge_cite") if k == "min_from_edge" and node.get("min_from_edge_cite") else here
                if k in EXPR_KEYS:
                    if isinstance(v, str) and c:
                        yield from _expr_facts(v, p, c)
                    continue
                if k == "name" and isinstance(v, str) and ptr.startswith("/wagers/") and c:
                    yield Fact("name", v, p, _cites(c), c)
                elif k in NUMBER_KEYS and c:
                    if k == "odds" and isinstance(v, str) and re.fullmatch(r"\s*[0-9]+\s+to\s+0*[1-9][0-9]*\s*", v):
                        yield Fact("odds", " ".join(v.split()), p, _cites(c), c)
                    elif k == "from_bottom" and isinstance(v, str) and re.fullmatch(r"[0-9]+/[0-9]+", v):
                        yield Fact("fraction", Fraction(v), p, _cites(c), c)
                    elif k == "amounts" and isinstance(v, list):
                        for i, a in enumerate(v):
                            if isinstance(a, (int, float)) and not isinstance(a, bool) and a > 0:
                                yield Fact("amount", a, f"{p}/{i}", _cites(c), c)
                    elif isinstance(v, int) and not isinstance(v, bool):
                        yield Fact("number", v, p, _cites(c), c)
                        if k in RANGE_KEYS and v > 1:
                            yield Fact("range", (1, v), p, _cites(c), c)
                elif isinstance(v, (dict, list)):
                    yield from walk(v, p, c)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, f"{ptr}/{i}", cite_text)

    for k, v in data.items():
        if k in SKIP_TOP:
            continue
        yield from walk(v, f"/{_esc(str(k))}", None)
    # a requirement's text and an equipment item restate the provision they cite: their numbers too
    for i, r in enumerate(data.get("requirements") or ()):
        if isinstance(r, dict) and isinstance(r.get("text"), str) and isinstance(r.get("cite"), str):
            yield from _prose_facts(r["text"], f"/requirements/{i}/text", r["cite"])
        if isinstance(r, dict) and isinstance(r.get("when"), str) and isinstance(r.get("cite"), str):
            yield from _expr_facts(r["when"], f"/requirements/{i}/when", r["cite"])
    table = data.get("table") if isinstance(data.get("table"), dict) else {}
    for key, field_ in (("equipment", "item"), ("layout", "area")):
        for i, e in enumerate(table.get(key) or ()):
            if isinstance(e, dict) and isinstance(e.get(field_), str) and isinstance(e.get("cite"), str):
                yield from _prose_facts(e[field_], f"/table/{key}/{i}/{field_}", e["cite"])


_PRINTED_ORDER = re.compile(r"\b10,\s+9,\s+8,\s+7\b")
_QUOTED = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"")
_EXPR_NUMBER = re.compile(r"(?<![\w.'/])([0-9]+(?:/[0-9]+)?)(?![\w/.])")


_PROSE_NUMBER = re.compile(rf"(?<![\w.$/])([0-9]+)(?![\w/.%]|,[0-9])|\b({'|'.join(WORDS.values())})\b(?!-)",
                           re.IGNORECASE)
# X >= a and X <= b: the range a to b
_EXPR_RANGE = re.compile(r"(\S+)\s*>=\s*([0-9]+)\s+and\s+\1\s*<=\s*([0-9]+)")


def _prose_facts(text: str, pointer: str, cite: str) -> Iterator[Fact]:
    """The numbers (digits, number words but 'one') of a data prose string restating a provision."""
    blank = _blank_cites(text)
    for m in _PROSE_NUMBER.finditer(blank):
        if m.group(1):
            n = int(m.group(1))
        else:
            word = m.group(2).lower()
            if word == "one":
                continue  # 'one' is mostly an article there ('in one hand')
            n = _NUMBER_OF_WORD[word]
        yield Fact("number", n, pointer, _cites(cite), cite, m.span())


def _expr_facts(expr: str, pointer: str, cite: str) -> Iterator[Fact]:
    """The numbers of a rule-language expression (outside quoted notes), and its ranges
    (``X >= a and X <= b``), which the text must state as a range ('six to eight')."""
    blank = _QUOTED.sub(lambda m: " " * len(m.group(0)), expr)
    for m in _EXPR_RANGE.finditer(blank):
        a, b = int(m.group(2)), int(m.group(3))
        yield Fact("range", (a, b), pointer, _cites(cite), cite, (m.start(2), m.end(3)))
    for m in _EXPR_NUMBER.finditer(blank):
        tok = m.group(1)
        if "/" in tok:
            a, b = tok.split("/")
            if int(b) == 0:
                continue
            yield Fact("fraction", Fraction(int(a), int(b)), pointer, _cites(cite), cite, m.span(1))
        else:
            yield Fact("number", int(tok), pointer, _cites(cite), cite, m.span(1))


@lru_cache(maxsize=4096)
def _blank_cites(text: str) -> str:
    return _CITE_RE.sub(lambda m: " " * len(m.group(0)), text)


_OPERAND = re.compile(r"(?:option|wager)\((\w+)\)")
_COUNT_KEYS = ("count", "minimum", "maximum")


def _noun(f: Fact) -> re.Pattern | None:
    """What a number counts, from where the data gives it ('/cards/cover_cards/count': cover cards;
    'option(decks) == 1': decks), as a pattern the text's number must be followed by ('one cover card')."""
    name = None
    if f.span is not None:
        return None  # an expression's numbers: ranges and comparisons, checked by value
    toks = [t for t in f.pointer.split("/")[1:]]
    if toks and toks[-1] in ("cards", "hours", "minutes", "days", "dice"):
        name = toks[-1]
    elif len(toks) >= 2 and toks[-1] in _COUNT_KEYS and not toks[-2].isdigit():
        name = toks[-2]
    if not name:
        return None
    words = [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in name.split("_")]
    body = r"[\s-]+".join(re.escape(w) + r"s?" for w in words)
    return re.compile(rf"(?:[\s-]+(?:[a-z]+[\s-]+){{0,4}}?|[\s-]+){body}\b", re.IGNORECASE)


def _number_alt(n: int) -> str:
    word = rf"|{WORDS[n]}" if n in WORDS else ""
    return rf"(?:{n:,}|{n}{word})"


def fact_pattern(f: Fact) -> re.Pattern:
    if f.kind == "range":
        a, b = f.value
        return re.compile(rf"(?<![0-9,.$])\b{_number_alt(a)}\s+(?:to|through)\s+{_number_alt(b)}\b(?![0-9])",
                          re.IGNORECASE)
    if f.kind == "odds":
        a, b = f.value.split(" to ")
        return re.compile(rf"\b{a}\s+to\s+{b}\b")
    if f.kind == "name":
        return re.compile(re.escape(f.value).replace(r"\ ", r"\s+"), re.IGNORECASE)
    if f.kind == "rank":
        # the whole order as the text prints it: 'ace, king, queen, jack, 10, 9, ... 3 and 2'
        *head, last = f.value
        return re.compile(r"\b" + r",\s+".join(re.escape(r) for r in head) + rf",?\s+and\s+{re.escape(last)}\b",
                          re.IGNORECASE)
    if f.kind == "fraction":
        alts = [re.escape(w) for w in FRACTION_WORDS.get(f.value, ())] + [re.escape(str(f.value))]
        return re.compile(r"\b(?:" + "|".join(alts) + r")\b", re.IGNORECASE)
    n = f.value
    alts = [rf"(?<![0-9,.$])(?:{n:,}|{n})(?![0-9]|,[0-9])"]
    alts.append(rf"\${n:,}(?:\.00)?(?![0-9])")
    if f.kind == "amount":
        alts = [rf"\${n:,}(?:\.00)?(?![0-9])", rf"\${n}(?:\.00)?(?![0-9])"]
    elif n == 0:
        alts.append(r"\b(?:zero|no|none)\b")
    elif n in WORDS:
        alts.append(rf"\b{WORDS[n]}\b(?!-(?:deck|half|quarter|third))")
        if n == 1:
            # one card is often 'a card', 'the next card', 'another card'
            alts.append(r"\b(?:a single|an?|the next|the first|another)\s+(?:\w+\s+)?(?:card|die|deck|cover card)\b")
    return _NotOdds(re.compile("|".join(alts), re.IGNORECASE), n)


class _NotOdds:
    """A number's pattern that skips the terms of payout odds ('10 to 1'), not ranges ('12 to 16')."""

    def __init__(self, pat: re.Pattern, n: int):
        self.pat, self.n = pat, n

    def finditer(self, text: str):
        for m in self.pat.finditer(text):
            after = re.match(r"\s+to\s+([0-9][0-9,]*)", text[m.end():])
            before = re.search(r"([0-9][0-9,]*)\s+to\s+$", text[:m.start()])
            if after and int(after.group(1).replace(",", "")) <= self.n:
                continue
            if before and int(before.group(1).replace(",", "")) >= self.n:
                continue
            yield m

    def search(self, text: str):
        return next(iter(self.finditer(text)), None)


def _number_kind(token: str) -> str:
    return "odds" if re.search(r"\bto\b", token, re.IGNORECASE) else "number"


_ANALYSED: dict[str, Result] = {}
_ANALYSED_MAX = 8


def analyse(data: dict) -> Result:
    """Tie the data's facts to the text of the provisions they cite, and list the text's numbers.

    Remembered for a few data by their ``repr`` (the lint and `validate`'s coverage analyse the same
    chapter one after the other; the walk is a pure function of the data, and a changed datum is another
    key): the result is shared, so treat it as read-only."""
    try:
        key = repr(data)
    except Exception:  # noqa: BLE001 - data without a repr is analysed every time
        return _analyse(data)
    if " at 0x" in key:  # an object shown by its address, not its content: not remembered
        return _analyse(data)
    hit = _ANALYSED.get(key)
    if hit is None:
        hit = _analyse(data)
        if len(_ANALYSED) >= _ANALYSED_MAX:
            _ANALYSED.pop(next(iter(_ANALYSED)))
        _ANALYSED[key] = hit
    return hit


def _analyse(data: dict) -> Result:
    res = Result()
    index = passages(data)
    untied = {u.get("at") for u in data.get("untied") or () if isinstance(u, dict)}
    for f in iter_facts(data):
        if f.pointer in untied:
            continue
        cands: list[Passage] = []
        for c in f.cites:
            # a ranking's order may be printed anywhere in the section of its categories
            for x in index.get((c.section, ()) if f.kind == "rank" else c.key(), ()):
                if x not in cands:
                    cands.append(x)
        if not cands:
            # cites a provision not in this spec (external, missing): nothing to compare; a section
            # of this spec without that provision is a dangling citation (reported by the lint)
            if any((c.section, ()) in index for c in f.cites):
                res.dangling += 1
            continue
        pat = fact_pattern(f)
        found = []
        for x in cands:
            blank = _blank_cites(x.text) if f.kind != "name" else x.text
            found += [(x, m.span()) for m in pat.finditer(blank)]
        # where the text states the number with what it counts ('one cover card'), only there
        noun = _noun(f) if f.kind == "number" else None
        if noun is not None:
            counted = [(x, sp) for x, sp in found if noun.match(_blank_cites(x.text), sp[1])]
            # the text counts that thing somewhere ('two cover cards'): the number must be that count
            counts = any(noun.match(b, m.end()) for x in cands for b in (_blank_cites(x.text),)
                         for m in TEXT_NUMBER.finditer(b))
            found = counted if counts else found
        res.ties += [Tie(f, x, sp) for x, sp in found]
        if not found:
            res.missing.append((f, cands))
    # a ranking's order is checked only where the cited text prints an order of ranks
    res.missing = [(f, c) for f, c in res.missing
                   if f.kind != "rank" or any(_PRINTED_ORDER.search(x.text) for x in c)]
    # every number of the text, and whether a tie or a declaration covers it
    tied_spans: dict[str, list[tuple[int, int]]] = {}
    for t in res.ties:
        tied_spans.setdefault(t.passage.pointer, []).append(t.span)
    # names the data gives (the game, wagers, hands, paytables), hand sizes ('five-card hand') and
    # the other ways the text restates the data (compiler/lint/restated.py)
    for ptr, spans in restated_spans(data, index).items():
        tied_spans.setdefault(ptr, []).extend(spans)
    # a declaration covers the numbers of the phrase it quotes, where the provision's own text has it
    declared_spans: dict[str, list[tuple[int, int]]] = {}
    for d in data.get("text_facts") or ():
        if isinstance(d, dict) and isinstance(d.get("cite"), str):
            for c in _cites(d["cite"]):
                for x, sp in _phrase_at(index, c, str(d.get("says", ""))):
                    declared_spans.setdefault(x.pointer, []).append(sp)
    seen: set[str] = set()
    for key, ps in index.items():
        for x in ps:
            if x.pointer in seen:
                continue
            seen.add(x.pointer)
            blank = _blank_cites(x.text)
            for m in TEXT_NUMBER.finditer(blank):
                token = m.group(0)
                res.numbers.append((x, m.span(), token))
                spans = tied_spans.get(x.pointer, ())
                if any(a < m.end() and m.start() < b for a, b in spans):
                    continue
                if any(a <= m.start() and m.end() <= b for a, b in declared_spans.get(x.pointer, ())):
                    res.declared.append((x, m.span(), token))
                    continue
                res.untied_numbers.append((x, m.span(), token))
    return res



def _phrase_at(index, cite, says: str) -> list[tuple[Passage, tuple[int, int]]]:
    """Where the provision's own text (not its lead-in) has the phrase ('one deck of cards')."""
    words = says.split()
    if not words:
        return []
    pat = re.compile(r"(?<![\w$])" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)", re.IGNORECASE)
    out = []
    for x in index.get(cite.key(), ()):
        if x.cite != cite.format():
            continue
        out += [(x, m.span()) for m in pat.finditer(x.text)]
    return out


def _show(f: Fact) -> str:
    if f.kind == "amount":
        return f"${f.value:,}"
    return str(f.value)


def fact_diagnostics(doc: Document, res: Result | None = None) -> list[Diagnostic]:
    """An error at the data and a note at the text for every fact the cited text does not state."""
    res = res or analyse(doc.data)
    out: list[Diagnostic] = []
    for f, cands in res.missing:
        line, col = doc.position(f.pointer)
        exact = {c.format() for c in f.cites}
        main = next((x for x in cands if x.cite in exact), cands[0])
        # the text's own numbers of the same kind, to say what it says instead
        says = []
        for x in cands:
            for m in TEXT_NUMBER.finditer(_blank_cites(x.text)):
                if f.kind in ("odds",) and _number_kind(m.group(0)) != "odds":
                    continue
                if f.kind != "odds" and _number_kind(m.group(0)) == "odds":
                    continue
                if m.group(0) not in says:
                    says.append(m.group(0))
        tl, tc = doc.position(main.pointer)
        what = {"odds": "odds", "name": "wager name", "amount": "amount", "fraction": "fraction"}.get(f.kind, "number")
        hint = f" (it says {', '.join(repr(s) for s in says[:6])})" if says and f.kind != "name" else ""
        if f.span is not None:
            what += " in the expression"
        # a wager's name is a label: a warning; numbers and odds are the rules: an error
        out.append(Diagnostic(doc.path, line, col, "warning" if f.kind == "name" else "error",
                              f"the data gives {what} {_show(f)!r} for {f.cite_text}, but the text of "
                              f"{main.cite} at {doc.path}:{tl}:{tc} does not state it{hint}; change the data or "
                              "the text so that they agree (or declare the value in 'untied' with why)",
                              f.pointer))
        out.append(Diagnostic(doc.path, tl, tc, "note",
                              f"{main.cite} is the text that should state {_show(f)!r}, given by the data at "
                              f"{doc.path}:{line}:{col} [{f.pointer}]", main.pointer))
    # a number of the text that no data ties and no declaration covers: the text changed, or
    # says something the data does not (every number is tied in every seeded chapter).
    # A rulespec without a procedure (a skeleton fresh from 'rulespec import') executes nothing yet:
    # its coverage is reported, nothing more.
    # A dangling citation of the data is reported by the lint; the text numbers it leaves untied are not.
    # A chapter that declares 'text_coverage: complete' (every seeded chapter) gets an error; any other
    # a warning, with its coverage reported: a new chapter validates while its ties are being written.
    severity = "error" if doc.data.get("text_coverage") == "complete" else "warning"
    for x, (a, b), token in (res.untied_numbers if doc.data.get("procedure") and not res.dangling else ()):
        tl, tc = doc.position(x.pointer)
        context = " ".join(x.text[max(0, a - 40):b + 25].split())
        out.append(Diagnostic(doc.path, tl, tc, severity,
                              f"the text of {x.cite} states {token!r} ('...{context}...'), which no data of this "
                              "rulespec gives; state it in the data the text is executed by, or declare it in "
                              "'text_facts' with why it is not executed", x.pointer))
    index = passages(doc.data)
    for i, t in enumerate(doc.data.get("text_facts") or ()):
        if not isinstance(t, dict) or not isinstance(t.get("cite"), str):
            continue
        for c in _cites(t["cite"]):
            if _phrase_at(index, c, str(t.get("says", ""))):
                continue
            line, col = doc.position(f"/text_facts/{i}/says")
            where = [x for x in index.get(c.key(), ())]
            also = ""
            if where:
                tl, tc = doc.position(where[0].pointer)
                also = f" (the text of {c.format()} is at {doc.path}:{tl}:{tc})"
                out.append(Diagnostic(doc.path, tl, tc, "note",
                                      f"{c.format()} is the text 'text_facts' says states {t.get('says')!r}, declared at "
                                      f"{doc.path}:{line}:{col} [/text_facts/{i}/says]", where[0].pointer))
            out.append(Diagnostic(doc.path, line, col, "error",
                                  f"'text_facts' declares {t.get('says')!r} at {c.format()}, whose text does not say it"
                                  f"{also}", f"/text_facts/{i}/says"))
    for i, u in enumerate(doc.data.get("untied") or ()):
        if isinstance(u, dict) and isinstance(u.get("at"), str) and not doc.has(u["at"]):
            line, col = doc.position(f"/untied/{i}/at")
            out.append(Diagnostic(doc.path, line, col, "error", f"'untied' names {u['at']}, which is not in this spec",
                                  f"/untied/{i}/at"))
    return out


def coverage(data: dict, res: Result | None = None) -> dict:
    """How many of the text's numbers and odds are tied to the data (or declared)."""
    res = res or analyse(data)
    return {
        "numbers": len(res.numbers),
        "tied_to_data": len(res.numbers) - len(res.untied_numbers) - len(res.declared),
        "declared": len(res.declared),
        "untied": [{"cite": x.cite, "says": tok, "at": x.pointer} for x, _, tok in res.untied_numbers],
        "facts": len(res.ties) and len({id(t.fact) for t in res.ties}),
        "facts_missing": len(res.missing),
    }


__all__ = ["Fact", "analyse", "fact_pattern", "coverage", "fact_diagnostics", "iter_facts", "passages"]
