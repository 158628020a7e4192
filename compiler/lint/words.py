"""Number words, rank words and citations as the facts lint reads them in provision text."""
from __future__ import annotations

from compiler.lang.citations import CitationSyntaxError, expand, parse_citation

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
         10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen",
         17: "seventeen", 18: "eighteen", 19: "nineteen", 20: "twenty", 24: "twenty-four", 30: "thirty",
         52: "fifty-two", 53: "fifty-three", 100: "one hundred"}
_NUMBER_OF_WORD = {w: n for n, w in WORDS.items()} | {"zero": 0}
RANK_WORDS = {str(n): str(n) for n in range(2, 11)} | {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


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



def _key_of(cite: str):
    cs = _cites(cite)
    return cs[0].key() if cs else None
