"""Checks of a schema-valid rulespec's data that the JSON Schema cannot express, so that a spec
``rulespec validate`` accepts never fails later (in code generation, at import of its game
module, in a round, in a simulation).

Every check gives a positioned error (``FILE:LINE:COL: error: MESSAGE [at /pointer]``) and all of
them run, so that every problem is reported at once:

* odds that divide by zero or have too many digits (payouts, paytable rows);
* the reshuffle marker's fraction of the stack (``1/0``, more than the stack);
* rankings: rank symbols (``'Queen'``), ranks listed twice or missing from the order, pattern keys
  and values, the wild card, the cards of named hands (``ZZ``), categories named by hands and
  thresholds; then the ranking is built as the runtime builds it and any refusal is reported;
* irregularity events the runtime never raises (a misspelt name would never fire);
* names one part of the spec gives another: ``requires``, ``pays``, ``paytable``, ``offered_by``,
  ``progressive``, meters' options, the decks option, the paytables printed in the provisions;
* amounts: wagers' and paytables' ``amounts`` and ``min`` (positive, whole cents), money options;
* options: minimum above maximum, a default of the wrong type, outside the bounds or the values;
* decks: ``cards.decks`` and the decks option between 1 and ``MAX_DECKS``, batches that leave a
  shoe without decks;
* a playable spec (one with a procedure) in which no wager can be placed before the deal;
* what cannot be played (compiler.spec.playable): a card twice in a named hand, a term defined
  twice, more positions than ``MAX_POSITIONS``, a shoe that can run out.

Settling one wager twice in one rule is checked where the rules are parsed (compiler.ir.build).
"""
from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from typing import Any

from compiler.spec.chance_checks import check_chance
from compiler.spec.diagnostics import Diagnostic, escape_token
from compiler.spec.limits import MAX_DECKS, MAX_NUMBER_DIGITS
from compiler.spec.loader import Document, quote
from compiler.spec.playable import playable_diagnostics
from compiler.spec.validate import suggest
from compiler.values.cards import RANKS, CardError, parse_card, rank_index
from compiler.values.money import MoneyError
from compiler.values.odds import parse_odds
from compiler.values.rankings import Ranking

# The events the runtime raises or a hand history may name (docs/rule-language.md, Irregularities).
EVENTS = (
    "card_not_dealt", "community_exposed", "dealer_card_exposed", "dealer_setting_wrong",
    "dealing_shoe_malfunction", "drawn_in_error", "exposed_card", "face_up_card", "floor_reshuffle",
    "information_exchanged", "no_roll", "player_left_table", "shuffler_malfunction", "stack_card_exposed",
    "stub_count_wrong", "wrong_card_count", "wrong_deck_count", "wrong_dice_total",
)
PATTERN_KEYS = ("groups", "straight", "flush", "high", "min_rank", "wheel_rank", "size")
WILD_AS = ("ace", "straight", "flush")
RANK_HELP = "ranks are 2 to 9, T (or 10), J, Q, K and A"


def _p(*tokens: Any) -> str:
    return "".join("/" + escape_token(t) for t in tokens)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, (int, Decimal)) and not isinstance(v, bool))


def _rank(symbol: Any) -> int | None:
    if isinstance(symbol, bool) or not isinstance(symbol, (str, int)):
        return None
    try:
        return rank_index(str(symbol))
    except (CardError, ValueError):
        return None


def _digits(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


class _Checker:
    def __init__(self, doc: Document):
        self.doc = doc
        self.data = doc.data if isinstance(doc.data, dict) else {}
        self.diags: list[Diagnostic] = []

    def error(self, ptr: str, message: str, *, at_key: bool = False) -> None:
        self.diags.append(self.doc.diagnostic(ptr, message, at_key=at_key))

    def section(self, key: str) -> dict:
        v = self.data.get(key)
        return v if isinstance(v, dict) else {}

    def known(self, ptr: str, name: Any, pool, what: str, where: str) -> None:
        if isinstance(name, str) and name not in pool:
            hint = suggest(name, pool)
            self.error(ptr, f"unknown {what} {quote(name)}" + (f" (did you mean {quote(hint)}?)" if hint else "")
                       + f": {where}")

    # ------------------------------------------------------------------ odds and fractions
    def odds(self, ptr: str, text: Any) -> None:
        if not isinstance(text, str):
            return
        if any(_digits(n) > MAX_NUMBER_DIGITS for n in re.findall(r"[0-9][0-9,.]*", text)):
            self.error(ptr, f"odds {quote(text.strip())}: a number with more than {MAX_NUMBER_DIGITS} digits")
            return
        try:
            parse_odds(text)
        except (MoneyError, ValueError, ZeroDivisionError) as e:
            msg = str(e) if isinstance(e, MoneyError) else f"cannot read odds {quote(text)}"
            self.error(ptr, msg)

    def check_odds(self) -> None:
        for pid, p in self.section("payouts").items():
            if isinstance(p, dict) and "odds" in p:
                self.odds(_p("payouts", pid, "odds"), p["odds"])
        for tid, t in self.section("paytables").items():
            if not isinstance(t, dict):
                continue
            for i, row in enumerate(t.get("rows") or ()):
                if not isinstance(row, dict):
                    continue
                pays = row.get("pays")
                if isinstance(pays, list):
                    for j, x in enumerate(pays):
                        self.odds(_p("paytables", tid, "rows", i, "pays", j), x)
                else:
                    self.odds(_p("paytables", tid, "rows", i, "pays"), pays)

    def check_marker(self) -> None:
        marker = self.section("cards").get("reshuffle_marker")
        if not isinstance(marker, dict) or not isinstance(marker.get("from_bottom"), str):
            return
        ptr = "/cards/reshuffle_marker/from_bottom"
        text = marker["from_bottom"]
        if _digits(text) > MAX_NUMBER_DIGITS:
            self.error(ptr, f"fraction {quote(text)}: more than {MAX_NUMBER_DIGITS} digits")
            return
        num, _, den = text.partition("/")
        try:
            if int(den) == 0:
                self.error(ptr, f"fraction {text} has a zero denominator")
                return
            value = Fraction(int(num), int(den))
        except ValueError:
            self.error(ptr, f"cannot read the fraction {quote(text)}")
            return
        if value > 1:
            self.error(ptr, f"the reshuffle marker is {text} of the stack from the bottom: at most 1/1 (the whole stack)")

    # ------------------------------------------------------------------ rankings
    def check_rankings(self) -> None:
        for rid, r in self.section("rankings").items():
            if isinstance(r, dict):
                before = len(self.diags)
                if r.get("kind") != "points":  # a points ranking is checked by building it (values/points.py)
                    self.ranking(rid, r)
                if len(self.diags) == before:
                    problem = _build_ranking(_canonical(r), rid)
                    if problem:
                        self.error(_p("rankings", rid), problem)

    def rank_field(self, ptr: str, symbol: Any, strength: set[int], what: str) -> None:
        r = _rank(symbol)
        if r is None:
            self.error(ptr, f"unknown rank {quote(symbol)} in {what} ({RANK_HELP})")
        elif r not in strength:
            self.error(ptr, f"rank {quote(symbol)} in {what} is not in the ranking's order")

    def ranking(self, rid: str, r: dict) -> None:
        base = ("rankings", rid)
        order = r.get("order")
        ranked: set[int] = set(range(len(RANKS)))
        if isinstance(order, list):
            ranked = set()
            first: dict[int, int] = {}
            for i, s in enumerate(order):
                k = _rank(s)
                if k is None:
                    self.error(_p(*base, "order", i), f"unknown rank {quote(s)} ({RANK_HELP})")
                elif k in first:
                    self.error(_p(*base, "order", i), f"rank {quote(s)} appears twice in the order "
                                                      f"(first at item {first[k]})")
                else:
                    first[k] = i
                    ranked.add(k)
            lacking = [RANKS[k] for k in range(len(RANKS) - 1, -1, -1) if k not in ranked]
            if lacking and len(first) == len(order):  # every item read and none twice
                self.error(_p(*base, "order"), f"the order lacks the rank{'s' if len(lacking) > 1 else ''} "
                                               f"{', '.join(lacking)}: every rank of the deck must be ranked")
        size = r.get("cards", 5 if r.get("kind", "poker") == "poker" else 1)
        size = size if _is_int(size) else 5
        fewest = r.get("fewest", size)
        if not (_is_int(fewest) and 1 <= fewest <= size):
            self.error(_p(*base, "fewest"), f"fewest is the fewest cards of a hand, from 1 to cards ({size})")
            fewest = size
        elif "fewest" in r and r.get("kind", "poker") != "poker":
            self.error(_p(*base, "fewest"), "fewest is for a ranking of kind poker (hands of several sizes)")
        cats = r.get("categories")
        cat_ids: list[str] = []
        if isinstance(cats, list):
            seen: dict[str, int] = {}
            for i, c in enumerate(cats):
                if not isinstance(c, dict):
                    continue
                cid = c.get("id")
                if isinstance(cid, str):
                    if cid in seen:
                        self.error(_p(*base, "categories", i, "id"),
                                   f"category {quote(cid)} appears twice (first at item {seen[cid]})")
                    seen.setdefault(cid, i)
                    cat_ids.append(cid)
                pat = c.get("pattern")
                if isinstance(pat, dict):
                    self.pattern(_p(*base, "categories", i, "pattern"), pat, ranked, size, fewest)
                elif pat is not None:
                    self.error(_p(*base, "categories", i, "pattern"), "a pattern is a mapping, e.g. {groups: [2]}")
            if not cats and r.get("kind", "poker") == "poker":
                self.error(_p(*base, "categories"), "a poker ranking needs at least one category")
        elif cats is None and r.get("kind", "poker") == "poker":
            self.error(_p(*base), "a poker ranking needs its categories")
        if r.get("kind") == "high_card" and not cats:
            cat_ids = ["high_card"]
        wild = r.get("wild")
        if wild is not None:
            if not isinstance(wild, dict):
                self.error(_p(*base, "wild"), "wild is null or {card: joker, as: [ace, straight, flush]}")
            else:
                if str(wild.get("card", "joker")).lower() not in ("joker", "jk"):
                    self.error(_p(*base, "wild", "card"), f"only the joker can be wild, not {quote(wild.get('card'))}")
                as_ = wild.get("as", [])
                if not isinstance(as_, list) or any(a not in WILD_AS for a in as_):
                    self.error(_p(*base, "wild", "as"), f"wild 'as' lists some of {', '.join(WILD_AS)}")
                elif "ace" in as_ and rank_index("A") not in ranked:
                    self.error(_p(*base, "wild", "as"), "the joker counts as an ace but the ace is not ranked")
        self.ranking_size = r.get("cards") if isinstance(r.get("cards"), int) else None
        for key in ("hands", "thresholds"):
            group = r.get(key)
            if group is None:
                continue
            if not isinstance(group, dict):
                self.error(_p(*base, key), f"{key} is a mapping of names to hands")
                continue
            for hid, h in group.items():
                self.hand(_p(*base, key, hid), key, h, cat_ids, ranked)

    def pattern(self, ptr: str, pat: dict, ranked: set[int], size: int, fewest: int | None = None) -> None:
        fewest = size if fewest is None else fewest
        for k, v in pat.items():
            kp = ptr + _p(k)
            if k not in PATTERN_KEYS:
                hint = suggest(k, PATTERN_KEYS)
                self.error(kp, f"unknown pattern key {quote(k)}" + (f" (did you mean {quote(hint)}?)" if hint else "")
                           + f"; keys are {', '.join(PATTERN_KEYS)}", at_key=True)
            elif k == "groups":
                if not isinstance(v, list) or not all(_is_int(g) and 1 <= g <= 5 for g in v) or sum(
                        g for g in v if _is_int(g)) > max(size, 1):
                    self.error(kp, f"groups is a list of group sizes (1 to 5) that fit in a {size}-card hand")
            elif k in ("straight", "flush"):
                if not isinstance(v, bool):
                    self.error(kp, f"{k} is true or false")
            elif k in ("high", "min_rank"):
                self.rank_field(kp, v, ranked, k)
            elif k == "wheel_rank" and v not in ("low", "high", "second"):
                self.error(kp, f"wheel_rank is low, high or second, not {quote(v)}")
            elif k == "size" and not (_is_int(v) and fewest <= v <= size):
                self.error(kp, f"size is the number of cards of the hand, from {fewest} to {size}"
                               + ("" if fewest < size else " (a ranking of hands of several sizes gives 'fewest')"))

    def hand(self, ptr: str, key: str, h: Any, cat_ids: list[str], ranked: set[int]) -> None:
        if not isinstance(h, dict):
            self.error(ptr, "a hand is a mapping: {cards: [...]}, {any_of: [[...]]}, {at_least: CATEGORY} "
                            "or {category: CATEGORY, high: RANK}")
            return
        if key == "hands" and ("cards" in h or "any_of" in h):
            sets = [("cards", h.get("cards"))] if "cards" in h else [
                (f"any_of/{i}", s) for i, s in enumerate(h.get("any_of") if isinstance(h.get("any_of"), list) else [None])]
            for where, cards in sets:
                if not isinstance(cards, list) or not cards:
                    self.error(ptr + "/" + where, "a list of cards such as [AS, KS, QS]")
                    continue
                for j, c in enumerate(cards):
                    try:
                        parse_card(str(c)) if isinstance(c, (str, int)) and not isinstance(c, bool) else parse_card("")
                    except CardError as e:
                        self.error(f"{ptr}/{where}/{j}", str(e))
            return
        if key == "hands" and "min_hand" in h:  # a hand at least as high as these cards (a dealer qualifier)
            cards = h.get("min_hand")
            if not isinstance(cards, list) or not cards or (self.ranking_size and len(cards) != self.ranking_size):
                self.error(ptr + "/min_hand", f"min_hand is a list of the {self.ranking_size or 'ranking'} cards of the lowest "
                                              "hand that qualifies, such as [AS, KH, 4D, 3C, 2S]")
                return
            for j, c in enumerate(cards):
                try:
                    parse_card(str(c)) if isinstance(c, (str, int)) and not isinstance(c, bool) else parse_card("")
                except CardError as e:
                    self.error(f"{ptr}/min_hand/{j}", str(e))
            return
        cat_key = "at_least" if "at_least" in h else "category" if "category" in h else None
        if cat_key is None:
            need = "cards, any_of, at_least or category" if key == "hands" else "at_least (or category)"
            self.error(ptr, f"a hand needs {need}")
            return
        cat = h[cat_key]
        if cat not in cat_ids:
            hint = suggest(str(cat), cat_ids)
            self.error(ptr + "/" + cat_key, f"unknown category {quote(cat)}"
                       + (f" (did you mean {quote(hint)}?)" if hint else ""))
        for rk in ("high", "min_rank"):
            if h.get(rk) is not None:
                self.rank_field(f"{ptr}/{rk}", h[rk], ranked, rk)

    # ------------------------------------------------------------------ events and names
    def check_events(self) -> None:
        for i, irr in enumerate(self.data.get("irregularities") or ()):
            if isinstance(irr, dict) and isinstance(irr.get("event"), str) and irr["event"] not in EVENTS:
                hint = suggest(irr["event"], EVENTS)
                self.error(f"/irregularities/{i}/event",
                           f"unknown event {quote(irr['event'])}" + (f" (did you mean {quote(hint)}?)" if hint else "")
                           + ": the runtime raises only the events listed in docs/rule-language.md")

    def check_names(self) -> None:
        wagers, payouts = self.section("wagers"), self.section("payouts")
        paytables, options, meters = self.section("paytables"), self.section("options"), self.section("meters")
        for wid, w in wagers.items():
            if not isinstance(w, dict):
                continue
            for i, req in enumerate(w.get("requires") or ()):
                group = req.get("any_of") if isinstance(req, dict) else None
                at = [(_p("wagers", wid, "requires", i, "any_of", j), r) for j, r in enumerate(group)] \
                    if isinstance(group, list) else [(_p("wagers", wid, "requires", i), req)]
                for ptr, r in at:
                    if r == wid:
                        self.error(ptr, f"wager {quote(wid)} requires itself")
                    elif isinstance(r, str):
                        self.known(ptr, r, wagers, "wager", "'requires' names wagers of this spec")
            self.known(_p("wagers", wid, "pays"), w.get("pays"), payouts, "payout", "'pays' names a payout")
            self.known(_p("wagers", wid, "paytable"), w.get("paytable"), paytables, "paytable",
                       "'paytable' names a paytable")
            self.known(_p("wagers", wid, "offered_by"), w.get("offered_by"), options, "option",
                       "'offered_by' names a boolean option")
            self.known(_p("wagers", wid, "progressive"), w.get("progressive"), meters, "meter",
                       "'progressive' names a meter")
            self.check_stays(wid, w)
        for tid, t in paytables.items():
            if isinstance(t, dict):
                self.known(_p("paytables", tid, "option"), t.get("option"), options, "option",
                           "'option' names the option that selects the column")
        for mid, m in meters.items():
            if isinstance(m, dict):
                for k in ("rate_option", "reset_option"):
                    self.known(_p("meters", mid, k), m.get(k), options, "option", f"'{k}' names an option")
        cards = self.section("cards")
        self.known("/cards/decks_option", cards.get("decks_option"), options, "option",
                   "'decks_option' names the option giving the number of decks")
        for ptr, tid in _provision_tables(self.data.get("provisions") or (), "/provisions"):
            self.known(ptr, tid, paytables, "paytable", "the provision prints a table that is not in 'paytables'")

    def check_stays(self, wid: str, w: dict) -> None:
        """A wager that stays on the layout (``stays``) keeps only state kept per player, and feeds no meter."""
        state = self.section("state")
        if w.get("keeps") and not w.get("stays"):
            self.error(_p("wagers", wid, "keeps"), f"wager {quote(wid)} keeps state only if it stays on the layout "
                                                   "from one round to the next: add 'stays: until_settled'", at_key=True)
        if w.get("stays") and w.get("progressive"):
            self.error(_p("wagers", wid, "stays"), f"wager {quote(wid)} feeds a progressive meter and cannot stay on "
                                                   "the layout into the next round", at_key=True)
        for i, k in enumerate(w.get("keeps") or ()):
            ptr = _p("wagers", wid, "keeps", i)
            self.known(ptr, k, state, "state", "'keeps' names round state declared under 'state:'")
            if isinstance(state.get(k), dict) and state[k].get("per") != "player":
                self.error(ptr, f"wager {quote(wid)} keeps {quote(k)}, which is kept for the round: a wager that "
                                "stays keeps round state declared 'per: player' (one value for each player)")

    # ------------------------------------------------------------------ amounts and options
    def amount(self, ptr: str, value: Any, what: str) -> None:
        try:
            if isinstance(value, bool):
                raise InvalidOperation
            a = Decimal(value.replace("$", "").replace(",", "").strip()) if isinstance(value, str) else Decimal(value)
        except (InvalidOperation, ValueError, TypeError):
            self.error(ptr, f"{what} {quote(value)} is not an amount")
            return
        if not a.is_finite() or _digits(str(abs(a))) > MAX_NUMBER_DIGITS:
            self.error(ptr, f"{what} {quote(value)} is not an amount")
        elif a <= 0:
            self.error(ptr, f"{what} must be positive, got {value}")
        elif a != a.quantize(Decimal("0.01")):
            self.error(ptr, f"{what} {value} is not a whole number of cents")

    def check_amounts(self) -> None:
        for section in ("wagers", "paytables"):
            for xid, x in self.section(section).items():
                if not isinstance(x, dict):
                    continue
                for i, a in enumerate(x.get("amounts") or ()):
                    self.amount(_p(section, xid, "amounts", i), a, "an amount")
                if section == "wagers" and "min" in x:
                    self.amount(_p(section, xid, "min"), x["min"], "the minimum wager")

    def check_options(self) -> None:
        for oid, o in self.section("options").items():
            if not isinstance(o, dict):
                continue
            base = ("options", oid)
            t = o.get("type")
            lo, hi = o.get("minimum"), o.get("maximum")
            if _is_number(lo) and _is_number(hi) and lo > hi:
                self.error(_p(*base, "minimum"), f"minimum {lo} is above the maximum {hi}")
            if t in ("money", "percent"):
                for k in ("minimum", "maximum"):
                    if _is_number(o.get(k)) and o[k] < 0:
                        self.error(_p(*base, k), f"a {t} option cannot be negative, got {o[k]}")
            if t == "boolean" or t in ("text", "house_way"):
                for k in ("minimum", "maximum"):
                    if k in o:
                        self.error(_p(*base, k), f"a {t} option has no {k}", at_key=True)
            if "values" in o and t not in ("choice", "integer"):  # an integer option may list its values (6 or 8)
                self.error(_p(*base, "values"), f"only a choice or integer option lists values (this one is {t})",
                           at_key=True)
            if t == "integer" and "values" in o and not (isinstance(o["values"], list) and o["values"]
                                                         and all(_is_int(v) for v in o["values"])):
                self.error(_p(*base, "values"), "an integer option lists integers as its values")
            if t == "choice" and not isinstance(o.get("values"), list):
                self.error(_p(*base), "a choice option lists its values")
            if "default" in o:
                self.default(_p(*base, "default"), o, t)

    def default(self, ptr: str, o: dict, t: Any) -> None:
        v = o["default"]
        expect = {"boolean": (lambda x: isinstance(x, bool), "true or false"),
                  "integer": (_is_int, "an integer"),
                  "money": (_is_number, "an amount"),
                  "percent": (_is_number, "a number"),
                  "text": (lambda x: isinstance(x, str), "text"),
                  "house_way": (lambda x: isinstance(x, str), "the id of a house way")}
        if t == "choice":
            values = o.get("values") if isinstance(o.get("values"), list) else []
            if v not in values or isinstance(v, bool) != any(isinstance(x, bool) and x == v for x in values):
                self.error(ptr, f"the default {quote(v)} is not one of the values")
            return
        if t not in expect:
            return
        if t == "integer" and isinstance(o.get("values"), list) and v not in o["values"]:
            self.error(ptr, f"the default {quote(v)} is not one of the values")
        ok, what = expect[t]
        if not ok(v):
            self.error(ptr, f"the default of a {t} option must be {what}, got {quote(v) if isinstance(v, str) else v}")
            return
        lo, hi = o.get("minimum"), o.get("maximum")
        if _is_number(lo) and v < lo:
            self.error(ptr, f"the default {v} is below the minimum {lo}")
        elif _is_number(hi) and v > hi:
            self.error(ptr, f"the default {v} is above the maximum {hi}")
        elif t in ("money", "percent") and v < 0:
            self.error(ptr, f"a {t} option cannot be negative, got {v}")

    def check_decks(self) -> None:
        cards = self.section("cards")
        deck = cards.get("deck") if isinstance(cards.get("deck"), dict) else {}
        without = deck.get("without") if isinstance(deck.get("without"), list) else []
        if _is_int(deck.get("cards")) and deck["cards"] != 52 - 4 * len(without):
            removed = f" less the {4 * len(without)} cards of the ranks in 'without'" if without else ""
            self.error("/cards/deck/cards", f"a deck of {deck['cards']} cards: a deck is the 52 cards{removed}, "
                       f"{52 - 4 * len(without)} (a rank removed takes its four suits: 'without: [T]' is 48 cards)")
        if _is_int(cards.get("decks")) and cards["decks"] > MAX_DECKS:
            self.error("/cards/decks", f"more than {MAX_DECKS} decks (the limit for a shoe), got {cards['decks']}")
        oid = cards.get("decks_option")
        o = self.section("options").get(oid) if isinstance(oid, str) else None
        most = cards.get("decks") if _is_int(cards.get("decks")) else 1
        if isinstance(o, dict):
            base = ("options", oid)
            if o.get("type") != "integer":
                self.error(_p(*base, "type"), f"the decks option {quote(oid)} must be of type integer")
            listed = [v for v in o.get("values") or () if _is_int(v)] if isinstance(o.get("values"), list) else []
            lo, hi = o.get("minimum", min(listed, default=None)), o.get("maximum", max(listed, default=None))
            if not _is_int(lo) or lo < 1:
                self.error(_p(*base, "minimum") if "minimum" in o else _p(*base),
                           f"the decks option {quote(oid)} needs a minimum of at least 1")
            if not _is_int(hi) or hi > MAX_DECKS:
                self.error(_p(*base, "maximum") if "maximum" in o else _p(*base),
                           f"the decks option {quote(oid)} needs a maximum of at most {MAX_DECKS} "
                           f"(the limit for a shoe)")
            most = hi if _is_int(hi) else most
        batches = cards.get("batches")
        if isinstance(batches, dict) and _is_int(batches.get("count")) and batches["count"] > most:
            self.error("/cards/batches/count", f"{batches['count']} batches of at most {most} "
                                               f"deck{'s' if most != 1 else ''} would leave a shoe without cards")

    # ------------------------------------------------------------------ playability
    def check_placeable(self) -> None:
        if not self.data.get("procedure"):
            return
        wagers = self.section("wagers")
        for w in wagers.values():
            if isinstance(w, dict) and w.get("placed", "before_deal") == "before_deal" and not w.get("offered_by"):
                return
        ptr = "/wagers" if "wagers" in self.data else "/procedure"
        self.error(ptr, "no wager can be placed before the deal, so no round can be played: a wager the "
                        "player must place has 'required: true' (and no 'placed: during_round' or 'offered_by')",
                   at_key=True)

    def check_playable(self) -> None:
        playable_diagnostics(self.data, self.error, self.doc.position)

    def check_chance(self) -> None:  # dice, wheels and chosen numbers (compiler/spec/chance_checks.py)
        check_chance(self.data, self.error)

    def run(self) -> list[Diagnostic]:
        for check in (self.check_odds, self.check_marker, self.check_rankings, self.check_events, self.check_names,
                      self.check_amounts, self.check_options, self.check_decks, self.check_placeable,
                      self.check_playable, self.check_chance):
            try:
                check()
            except Exception as e:  # noqa: BLE001 - a safety net: an error, never a traceback (the fuzz test
                # tests/fuzz/test_fuzz_specs.py fails on this message)
                self.error("", f"validate could not check this spec ({check.__name__}: {type(e).__name__}: {e}); "
                               "please report it")
        return self.diags


def _provision_tables(nodes, ptr: str):
    """(pointer, paytable id) of every table a provision prints, without recursion."""
    stack = [(nodes, ptr)]
    while stack:
        items, p = stack.pop()
        if not isinstance(items, list):
            continue
        for i, n in enumerate(items):
            if not isinstance(n, dict):
                continue
            q = f"{p}/{i}"
            for j, t in enumerate(n.get("tables") or ()):
                if isinstance(t, dict) and "paytable" in t:
                    yield f"{q}/tables/{j}/paytable", t["paytable"]
            stack.append((n.get("children"), f"{q}/children"))
            for j, d in enumerate(n.get("definitions") or ()):
                if isinstance(d, dict):
                    stack.append((d.get("children"), f"{q}/definitions/{j}/children"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


@lru_cache(maxsize=64)
def _build_ranking(spec_json: str, rid: str) -> str | None:
    """Build the ranking as the runtime does; None, or why it cannot be built (cached: building a
    five-card ranking's tables takes a few tenths of a second).

    The verdict (never the tables) is also kept in the build cache (compiler/cache.py), keyed by the
    ranking and the source of compiler/values/, which builds it: `rulespec validate` of a chapter whose
    rankings have not changed does not build them again; `rulespec build --check` (``cache.verifying()``)
    builds them and writes the verdict again. The runtime always builds its own tables."""
    from compiler import cache

    key = None
    if cache.enabled():
        key = "ranking-verdict-" + _ranking_key(spec_json, rid)
        found, verdict = cache.load(key) if not cache.verifying() else (False, None)
        if found and (verdict is None or isinstance(verdict, str)):
            return verdict
    verdict = _ranking_problem(spec_json, rid)
    if key is not None:
        cache.store(key, verdict)
    return verdict


def _ranking_problem(spec_json: str, rid: str) -> str | None:
    spec = json.loads(spec_json)
    try:
        Ranking.from_spec(spec, rid)
    except Exception as e:  # noqa: BLE001 - any refusal of the runtime is reported, never raised
        return f"the runtime cannot build ranking {quote(rid)}: {e}"
    return None


def _ranking_key(spec_json: str, rid: str) -> str:
    import hashlib
    import sys
    from pathlib import Path

    import compiler.values

    h = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}\0{rid}\0{spec_json}\0".encode())
    for p in sorted(Path(compiler.values.__file__).parent.glob("*.py")):
        h.update(p.name.encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def data_diagnostics(doc: Document) -> list[Diagnostic]:
    """Every data check of a schema-valid document (see the module docstring)."""
    return _Checker(doc).run()


__all__ = ["EVENTS", "data_diagnostics"]
