"""How provision text restates the data besides the keys the facts lint ties one by one: the
names the data gives, hand sizes, the cards each holder is dealt, dice, jokers, hands, a
category's groups, a meter's percentages, runs of ranks, a paytable's cells in the prose of the
provision it cites (compiler/lint/facts.py)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

from .words import RANK_WORDS, WORDS, _NUMBER_OF_WORD, _cites, _key_of


_HAND_SIZE = re.compile(rf"\b([0-9]+|{'|'.join(WORDS.values())})-card\b(?=\s+(?:(?:high|low|poker)\s+)?hands?\b)",
                        re.IGNORECASE)


def _value_of(token: str) -> int | None:
    token = token.lower().replace(",", "")
    return int(token) if token.isdigit() else _NUMBER_OF_WORD.get(token)


def _names(data: dict) -> list[re.Pattern]:
    """The names the data gives: the game's title, every wager's name (with and without
    'Wager'), every ranking category's and named hand's, every paytable's title."""
    names: set[str] = set()
    if isinstance(data.get("title"), str):
        names.add(data["title"])
    for w in (data.get("wagers") or {}).values():
        if isinstance(w, dict) and isinstance(w.get("name"), str):
            names.add(w["name"])
            names.add(re.sub(r"\s+Wager$", "", w["name"]))
    for r in (data.get("rankings") or {}).values():
        if not isinstance(r, dict):
            continue
        for c in r.get("categories") or ():
            if isinstance(c, dict) and isinstance(c.get("name"), str):
                names.add(c["name"])
        for h in (r.get("hands") or {}).values():
            if isinstance(h, dict) and isinstance(h.get("name"), str):
                names.add(h["name"])
    for t in (data.get("paytables") or {}).values():
        if isinstance(t, dict) and isinstance(t.get("title"), str):
            names.add(t["title"])
            names.update(re.findall(r"\(([^()]+)\)", t["title"]))  # 'Envy Bonus ($5 ...)': the caption
    bodies = []
    for n in sorted(names, key=len, reverse=True):
        if not re.search(r"[0-9]|\b(?:" + "|".join(WORDS.values()) + r")\b", n, re.IGNORECASE):
            continue  # only names with a number in them matter here
        bodies.append(r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", n.strip())))
    return [re.compile(rf"(?<![\w$])(?:{'|'.join(bodies)})(?!\w)", re.IGNORECASE)] if bodies else []


_N = rf"(?P<n>[0-9]+|{'|'.join(WORDS.values())})"
# how the text restates the cards a deal gives ('the three cards dealt to the player',
# 'the player's six cards', 'more or less than 11 cards remain'), by whom they are held
_DEALT_PATTERNS = [(who, re.compile(p, re.IGNORECASE)) for who, p in (
    ("player", rf"\b{_N}\s+cards\s+(?:have\s+been\s+)?(?:dealt|dispensed)\b(?!\s+to\s+the\s+area)"),
    ("player", rf"\b(?:player'?s|his|a\s+player\s+has\s+more\s+or\s+less\s+than|to\s+each\s+player\s+and)"
               rf"\s+{_N}\s+cards\b"),
    ("player", rf"\bstacks?\s+of\s+{_N}\s+cards\b"),
    ("community", rf"\b{_N}\s+community\s+cards\b"),
    ("community", rf"\b{_N}\s+cards\s+(?:have\s+been\s+dealt\s+)?to\s+the\s+area\s+designated\s+for\s+the\s+"
                  rf"(?:placement\s+of\s+the\s+)?community\s+cards\b"),
    ("community", rf"\bcommunity\s+cards\s+has\s+more\s+or\s+less\s+than\s+{_N}\s+cards\b"),
    ("dealer", rf"\bdealer\s+has\s+more\s+or\s+less\s+than\s+{_N}\s+cards\b"),
    ("dealer", rf"\bdealer\s+shall\s+set\s+his\s+{_N}\s+cards\b"),
    ("dice", rf"\b{_N}\s+dice\b"),
    ("jokers", rf"\b(?:only|the)\s+{_N}\s+jokers?\b"),
    ("hands", rf"\b(?:the|into|setting\s+the)\s+{_N}\s+hands\b"),
    ("percent", r"(?<![0-9.])(?P<n>[0-9]+)%"),
    ("player", rf"\bthe\s+{_N}\s+cards\s+of\s+(?:any|that|each)\s+player\b"),
    ("deck", rf"\b{_N}\s+cards\s+(?:are\s+present|are\s+in\s+the\s+deck|remain\s+in\s+the\s+deck)\b"),
)]


def _dealt(data: dict) -> dict[str, set[int]]:
    """The cards each holder is dealt (the sum of the deal steps of one block, by whom they go
    to; 'positions' are the players' and the dealer's) and the cards of one deck."""
    out: dict[str, set[int]] = {}

    def walk(node):
        if isinstance(node, list):
            sums: dict[str, int] = {}
            for st in node:
                if isinstance(st, dict) and st.get("do") == "deal" and isinstance(st.get("count"), int):
                    to = str(st.get("to"))
                    for who in {"players": ("player",), "positions": ("player", "dealer"),
                                "dealer": ("dealer",), "community": ("community",)}.get(to, ()):
                        sums[who] = sums.get(who, 0) + st["count"]
                walk(st)
            for who, n in sums.items():
                out.setdefault(who, set()).add(n)
        elif isinstance(node, dict):
            for v in node.values():
                if isinstance(v, (dict, list)):
                    walk(v)
    walk(data.get("procedure"))

    def dice(node):
        if isinstance(node, dict):
            if isinstance(node.get("dice"), int) and not isinstance(node.get("dice"), bool):
                out.setdefault("dice", set()).add(node["dice"])
            for v in node.values():
                dice(v)
        elif isinstance(node, list):
            for v in node:
                dice(v)
    dice(data.get("procedure"))
    # the hands a set_hands step forms (a high and a low hand: two)
    for st in _steps(data.get("procedure")):
        if st.get("do") == "set_hands":
            out.setdefault("hands", set()).add(sum(1 for k in ("high", "low") if isinstance(st.get(k), int)))
    # percentages of a meter a paytable pays
    for t in (data.get("paytables") or {}).values():
        for row in (t.get("rows") or ()) if isinstance(t, dict) else ():
            pays = row.get("pays") if isinstance(row, dict) else None
            for cell in pays if isinstance(pays, list) else [pays]:
                m = re.fullmatch(r"\s*([0-9]+)% of meter\s*", str(cell))
                if m:
                    out.setdefault("percent", set()).add(int(m.group(1)))
    deck = (data.get("cards") or {}).get("deck") if isinstance(data.get("cards"), dict) else None
    if isinstance(deck, dict) and isinstance(deck.get("cards"), int):
        out.setdefault("deck", set()).add(deck["cards"] + (deck.get("jokers") or 0))
        if isinstance(deck.get("jokers"), int) and deck["jokers"] > 0:
            out.setdefault("jokers", set()).add(deck["jokers"])
    return out


# a category's definition: 'four cards of the same rank', 'three aces', 'two 3s', 'two pairs'
_GROUP = re.compile(rf"\b{_N}\s+(?:cards\s+of\s+the\s+same\s+rank|aces|kings|queens|jacks|[0-9]+s|pairs?)\b",
                    re.IGNORECASE)
# a category of hands of several sizes: 'six cards of the same suit' (its pattern's size)
_SIZE = re.compile(rf"\b{_N}\s+cards\s+of\s+the\s+same\s+suit\b", re.IGNORECASE)


def _groups(data: dict) -> dict[tuple, set[int]]:
    """The provision defining each ranking category -> the sizes of its groups of equal rank
    (and their number where there are several: 'two pairs')."""
    out: dict[tuple, set[int]] = {}
    for r in (data.get("rankings") or {}).values():
        for c in (r.get("categories") or ()) if isinstance(r, dict) else ():
            if not isinstance(c, dict) or not isinstance(c.get("cite"), str):
                continue
            pat = c.get("pattern") if isinstance(c.get("pattern"), dict) else {}
            g = pat.get("groups")
            if isinstance(g, list) and g:
                vals = {v for v in g if isinstance(v, int)} | ({len(g)} if len(g) > 1 else set())
                for cit in _cites(c["cite"]):
                    out.setdefault(cit.key(), set()).update(vals)
    return out


def _sizes(data: dict) -> dict[tuple, set[int]]:
    """The provision defining each ranking category of one hand size (pattern ``size``) -> that size."""
    out: dict[tuple, set[int]] = {}
    for r in (data.get("rankings") or {}).values():
        for c in (r.get("categories") or ()) if isinstance(r, dict) else ():
            pat = c.get("pattern") if isinstance(c, dict) and isinstance(c.get("pattern"), dict) else {}
            if isinstance(pat.get("size"), int) and isinstance(c.get("cite"), str):
                for cit in _cites(c["cite"]):
                    out.setdefault(cit.key(), set()).add(pat["size"])
    return out


_RANK_TOKEN = r"\b(?:ace|king|queen|jack|10|[2-9])\b"
# ranks printed in a row: 'ace, 2, 3, 4 and 5', 'king, queen, jack, 10 and 9'
_RUN = re.compile(rf"{_RANK_TOKEN}(?:,\s+{_RANK_TOKEN})+,?\s+and\s+{_RANK_TOKEN}", re.IGNORECASE)


def _is_run(ranks: list[str], orders: list[list[str]]) -> bool:
    """Ranks in consecutive order of a ranking (either way; the ace also below the 2)."""
    ranks = [r.lower() for r in ranks]
    for order in orders:
        for seq in (order, order[1:] + order[:1]):   # the ace high, and the ace low
            if not all(r in seq for r in ranks):
                continue
            idx = [seq.index(r) for r in ranks]
            steps = {b - a for a, b in zip(idx, idx[1:])}
            if steps in ({1}, {-1}):
                return True
    return False


def _steps(node) -> Iterator[dict]:
    if isinstance(node, dict):
        if "do" in node:
            yield node
        for v in node.values():
            yield from _steps(v)
    elif isinstance(node, list):
        for v in node:
            yield from _steps(v)


def _hand_sizes(data: dict) -> set[int]:
    """The sizes of the hands the data forms: every ranking's cards, every set_hands step's high and low."""
    out: set[int] = set()
    for r in (data.get("rankings") or {}).values():
        if isinstance(r, dict) and isinstance(r.get("cards"), int):
            out.add(r["cards"])

    def walk(node):
        if isinstance(node, dict):
            if node.get("do") == "set_hands":
                out.update(v for v in (node.get("high"), node.get("low")) if isinstance(v, int))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(data.get("procedure"))
    return out



_ODDS = re.compile(r"\b[0-9][0-9,]*\s+to\s+[0-9][0-9,]*\b")

# Most patterns here begin with a number ('\b' then digits or a number word) and are scanned over every
# passage: each scan tries the number words at every character. Where a pattern begins so, it is tried only
# at the places a number begins (found once a passage, every one of them: a zero-width lookahead), which
# finds the same matches as its finditer (a match can begin nowhere else; each is tried from the end of
# the one before, as finditer does).
_NUMBER_ALT = f"[0-9]+|{'|'.join(WORDS.values())}"
_NUMBER_STARTS = re.compile(rf"(?=\b(?:{_NUMBER_ALT}))", re.IGNORECASE)


@lru_cache(maxsize=None)
def _number_led(pat: re.Pattern) -> bool:
    return (pat.flags & re.IGNORECASE != 0
            and pat.pattern.startswith((rf"\b(?P<n>{_NUMBER_ALT})", rf"\b({_NUMBER_ALT})")))


def _finditer(pat: re.Pattern, text: str, starts: list[int]) -> Iterator[re.Match]:
    """``pat.finditer(text)``; tried only at ``starts`` (where a number begins) when it begins with one."""
    if not _number_led(pat):
        yield from pat.finditer(text)
        return
    end = 0
    for s in starts:
        if s >= end:
            m = pat.match(text, s)
            if m is not None:
                yield m
                end = max(m.end(), s + 1)


def restated_spans(data: dict, index: dict) -> dict[str, list[tuple[int, int]]]:
    """passage pointer -> the spans of its numbers that restate the data."""
    tied_spans: dict[str, list[tuple[int, int]]] = {}
    # names the data gives (the game, wagers, hands, paytables) and hand sizes ('five-card hand')
    # state their numbers wherever the text prints them
    name_pats, sizes, dealt, groups = _names(data), _hand_sizes(data), _dealt(data), _groups(data)
    sizes_at = _sizes(data)
    orders = [[RANK_WORDS[str(r)] for r in rk["order"]] for rk in (data.get("rankings") or {}).values()
              if isinstance(rk, dict) and isinstance(rk.get("order"), list)
              and all(str(r) in RANK_WORDS for r in rk["order"])]
    # a paytable's cells restated in the prose of the provision it cites ('Royal flush 100 to 1')
    cells: dict[tuple, set[str]] = {}
    for t in (data.get("paytables") or {}).values():
        if not isinstance(t, dict) or not isinstance(t.get("cite"), str):
            continue
        for row in t.get("rows") or ():
            pays = row.get("pays") if isinstance(row, dict) else None
            for cell in pays if isinstance(pays, list) else [pays]:
                for c in _cites(t["cite"]):
                    cells.setdefault(c.key(), set()).add(" ".join(str(cell).replace(",", "").split()))
    seen_named: set[str] = set()
    for ps in index.values():
        for x in ps:
            if x.pointer in seen_named:
                continue
            seen_named.add(x.pointer)
            starts = [m.start() for m in _NUMBER_STARTS.finditer(x.text)]
            for pat in name_pats:
                for m in pat.finditer(x.text):
                    tied_spans.setdefault(x.pointer, []).append(m.span())
            for m in _finditer(_HAND_SIZE, x.text, starts):
                n = _value_of(m.group(1))
                if n in sizes:
                    tied_spans.setdefault(x.pointer, []).append(m.span(1))
            for m in _finditer(_GROUP, x.text, starts):
                if _value_of(m.group("n")) in groups.get(_key_of(x.cite), ()):
                    tied_spans.setdefault(x.pointer, []).append(m.span("n"))
            for m in _finditer(_SIZE, x.text, starts):
                if _value_of(m.group("n")) in sizes_at.get(_key_of(x.cite), ()):
                    tied_spans.setdefault(x.pointer, []).append(m.span("n"))
            for m in _RUN.finditer(x.text):
                if _is_run(re.findall(_RANK_TOKEN, m.group(0), re.IGNORECASE), orders):
                    tied_spans.setdefault(x.pointer, []).append(m.span())
            for m in _ODDS.finditer(x.text):
                if m.group(0).replace(",", "") in cells.get(_key_of(x.cite), ()):
                    tied_spans.setdefault(x.pointer, []).append(m.span())
            for who, pat in _DEALT_PATTERNS:
                for m in _finditer(pat, x.text, starts):
                    if _value_of(m.group("n")) in dealt.get(who, ()):
                        tied_spans.setdefault(x.pointer, []).append(m.span("n"))
    return tied_spans
