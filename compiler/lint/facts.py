"""Facts stated twice: by the executable parts of a rulespec and by its provision text.

Every number the data gives under a fact key (payout ``odds``, ``count``, deck ``cards``,
``hours``, ``minutes``, ``max_positions``, ``min_from_edge``, option ``minimum``/``maximum``,
``from_bottom``, ``amounts``), every number of a rule expression (``require``, ``when``, ``then``,
outside quoted notes), the numbered ranks of a ranking's ``order`` (where the cited text prints
the order) and every wager ``name`` is looked up in the text of the provision
the data cites (that provision, its subprovisions and the lead-in of the provisions above it).
When the text does not say it, lint reports an error at the data naming the provision, and a
note at the provision text naming the data: changing either copy fails ``validate`` at both.

Paytable cells are not checked here: the provision text prints them from the ``paytables``
data (compiler/text/render.py), so there is one copy.

A data value that the text does not state (a default, a bound the regulation leaves open) is
declared in ``untied: [{at: /json/pointer, why: ...}]``: explicit, never silently skipped.
A number of the text with no executable counterpart is declared in
``text_facts: [{cite: ..., says: ..., why: ...}]``.

``coverage(doc)`` counts the numbers and odds of the text and how many are tied to data
(or declared); ``validate`` reports it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator

from compiler.lang.citations import CitationSyntaxError, expand, parse_citation
from compiler.spec.diagnostics import Diagnostic
from compiler.spec.loader import Document

# keys whose value is a number (or odds, or a list of amounts) the provision text states
NUMBER_KEYS = ("odds", "count", "cards", "hours", "minutes", "days", "max_positions", "min_from_edge",
               "minimum", "maximum", "from_bottom", "amounts", "percent")
# parts of a spec that are prose or bookkeeping, not executable data
SKIP_TOP = ("provisions", "interpretations", "requirements", "externals", "missing", "untied", "text_facts",
            "source", "rulespec", "chapter", "title", "completeness", "history", "submissions")
EXPR_KEYS = ("require", "when", "then")
SKIP_KEYS = ("title", "note", "text", "message", "unpriced", "area", "item", "procedure_text",
             "default", "values", "players", "max", "min", "zone", "hands", "order", "categories",
             "patterns", "thresholds", "rows", "columns", "layout", "equipment", "label", "labels", "lock")

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
         10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen",
         17: "seventeen", 18: "eighteen", 19: "nineteen", 20: "twenty", 24: "twenty-four", 30: "thirty",
         52: "fifty-two", 53: "fifty-three", 100: "one hundred"}
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


def _esc(k: str) -> str:
    return k.replace("~", "~0").replace("/", "~1")


def _cites(text: str) -> list:
    out = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        try:
            out.extend(expand(parse_citation(part)))
        except CitationSyntaxError:
            continue
    return out


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
                    for i, r in enumerate(v):
                        if str(r) in RANK_NUMBERS and not isinstance(r, bool):
                            yield Fact("rank", RANK_NUMBERS[str(r)], f"{p}/{i}", _cites(here), here)
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
                elif isinstance(v, (dict, list)):
                    yield from walk(v, p, c)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, f"{ptr}/{i}", cite_text)

    for k, v in data.items():
        if k in SKIP_TOP:
            continue
        yield from walk(v, f"/{_esc(str(k))}", None)


_PRINTED_ORDER = re.compile(r"\b10,\s+9,\s+8,\s+7\b")
RANK_NUMBERS = {str(n): n for n in range(2, 10)} | {"T": 10, "10": 10}
_QUOTED = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"")
_EXPR_NUMBER = re.compile(r"(?<![\w.'/])([0-9]+(?:/[0-9]+)?)(?![\w/.])")


def _expr_facts(expr: str, pointer: str, cite: str) -> Iterator[Fact]:
    """The numbers of a rule-language expression (outside quoted notes)."""
    blank = _QUOTED.sub(lambda m: " " * len(m.group(0)), expr)
    for m in _EXPR_NUMBER.finditer(blank):
        tok = m.group(1)
        if "/" in tok:
            a, b = tok.split("/")
            if int(b) == 0:
                continue
            yield Fact("fraction", Fraction(int(a), int(b)), pointer, _cites(cite), cite, m.span(1))
        else:
            yield Fact("number", int(tok), pointer, _cites(cite), cite, m.span(1))


def _blank_cites(text: str) -> str:
    return _CITE_RE.sub(lambda m: " " * len(m.group(0)), text)


def fact_pattern(f: Fact) -> re.Pattern:
    if f.kind == "odds":
        a, b = f.value.split(" to ")
        return re.compile(rf"\b{a}\s+to\s+{b}\b")
    if f.kind == "name":
        return re.compile(re.escape(f.value).replace(r"\ ", r"\s+"), re.IGNORECASE)
    if f.kind == "rank":
        return re.compile(rf"(?<![0-9,.$]){f.value}(?![0-9])")
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


def analyse(data: dict) -> Result:
    """Tie the data's facts to the text of the provisions they cite, and list the text's numbers."""
    res = Result()
    index = passages(data)
    untied = {u.get("at") for u in data.get("untied") or () if isinstance(u, dict)}
    for f in iter_facts(data):
        if f.pointer in untied:
            continue
        cands: list[Passage] = []
        for c in f.cites:
            for x in index.get(c.key(), ()):
                if x not in cands:
                    cands.append(x)
        if not cands:
            continue  # cites a provision not in this spec (external, missing): nothing to compare
        pat = fact_pattern(f)
        found = False
        for x in cands:
            blank = _blank_cites(x.text) if f.kind != "name" else x.text
            for m in pat.finditer(blank):
                res.ties.append(Tie(f, x, m.span()))
                found = True
        if not found:
            res.missing.append((f, cands))
    # a ranking's order is checked only where the cited text prints an order of ranks
    res.missing = [(f, c) for f, c in res.missing
                   if f.kind != "rank" or any(_PRINTED_ORDER.search(x.text) for x in c)]
    # every number of the text, and whether a tie or a declaration covers it
    tied_spans: dict[str, list[tuple[int, int]]] = {}
    for t in res.ties:
        tied_spans.setdefault(t.passage.pointer, []).append(t.span)
    declared: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for d in data.get("text_facts") or ():
        if isinstance(d, dict) and isinstance(d.get("cite"), str):
            for c in _cites(d["cite"]):
                declared.setdefault(c.key(), []).append(str(d.get("says", "")).lower())
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
                own_key = _key_of(x.cite)
                if token.lower() in declared.get(own_key, ()):
                    res.declared.append((x, m.span(), token))
                    continue
                res.untied_numbers.append((x, m.span(), token))
    return res


def _key_of(cite: str):
    cs = _cites(cite)
    return cs[0].key() if cs else None


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
    index = passages(doc.data)
    for i, t in enumerate(doc.data.get("text_facts") or ()):
        if not isinstance(t, dict) or not isinstance(t.get("cite"), str):
            continue
        says = str(t.get("says", "")).lower()
        texts = [x.text for c in _cites(t["cite"]) for x in index.get(c.key(), ())]
        if not any(says == m.group(0).lower() for x in texts for m in TEXT_NUMBER.finditer(_blank_cites(x))):
            line, col = doc.position(f"/text_facts/{i}/says")
            out.append(Diagnostic(doc.path, line, col, "error",
                                  f"'text_facts' declares {t.get('says')!r} at {t['cite']}, whose text does not say it",
                                  f"/text_facts/{i}/says"))
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
