"""Lint of what cannot be played, over the IR and the provision text (issue 29 item 4):

* a wager some path leaves unsettled, where it can be seen without playing: a wager no rule can
  ever lose (its losing rule deleted), and a step whose rules compare two values for some of
  ``<``, ``==``, ``>`` and settle a wager in some of them, with no rule for another (nor another
  step comparing the same values: a later one, or an earlier one that settled it first), so that the wager is
  left open there (two values that are not
  constants: a threshold needs arithmetic and is not judged);
* a fixed number of decks (``cards.decks``) that the provision text, where it states a number of
  decks, never states ("six decks" against ``decks: 8``);
* a condition on the round (a step's ``when``; a ``repeat``'s ``while`` and ``until`` without ``players``)
  that reads a player (``has``, ``wager``, ``flag``, ``player.ZONE`` ...): the engine evaluates it for no
  player, so it would read nothing (``has(W)`` always false) instead of what the chapter means.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator

from compiler.ir.model import Chapter
from compiler.lang.syntax import BinOp, Call, Lit, Neg, Ref, source
from compiler.lint.words import _NUMBER_OF_WORD
from compiler.spec.playable import provision_nodes

SETTLING = ("win", "lose", "push", "return", "surrender")
COLLECTING = ("lose", "surrender")
_FLIP = {"<": ">", ">": "<", "==": "==", "<=": ">=", ">=": "<=", "!=": "!="}
_REGIONS = {"<": {"<"}, ">": {">"}, "==": {"=="}, "<=": {"<", "=="}, ">=": {">", "=="}, "!=": {"<", ">"}}
_ALL = {"<", "==", ">"}

Error = Callable[[str, str], None]


def _constant(n) -> bool:
    return isinstance(n, Lit) or (isinstance(n, Neg) and isinstance(n.item, Lit))


def _comparison(rule) -> tuple[str, str, set[str]] | None:
    """(left, right, regions) of a rule whose ``when`` is one comparison, its sides in a fixed order."""
    w = rule.when
    if not (isinstance(w, BinOp) and w.op in _REGIONS) or _constant(w.left) or _constant(w.right):
        return None  # a threshold (x >= 4, x <= 3) needs arithmetic to see what it covers: not judged
    left, right, op = source(w.left), source(w.right), w.op
    if right < left:
        left, right, op = right, left, _FLIP[op]
    return left, right, set(_REGIONS[op])


def _settles(rule, wager: str) -> bool:
    return any(a.kind in SETTLING and a.wager in (wager, "*") for a in rule.then)


def never_collected(ch: Chapter, error: Error) -> None:
    """A wager no rule can lose: every round in which it does not win, push or return leaves it open."""
    if not ch.procedure:
        return
    rules = [r for st in ch.all_steps() for r in (*st.rules, *st.choices)]
    rules += [r for ir in ch.irregularities for r in ir.rules]
    for wid, w in ch.wagers.items():
        settled = [r for r in rules if _settles(r, wid)]
        if settled and not any(a.kind in COLLECTING and a.wager in (wid, "*") for r in rules for a in r.then):
            error(f"/wagers/{wid}", f"wager {wid!r} is won, pushed or returned by rules ({settled[0].cite}) but never "
                                    "lost by any: a round it does not win would leave it unsettled (a losing rule "
                                    "'lose " + wid + "' is missing)")


def comparison_gaps(ch: Chapter, error: Error) -> None:
    steps = list(ch.all_steps())
    covered: dict[tuple[str, str], set[str]] = {}  # every comparison of the procedure: what its rules cover
    for st in steps:
        for r in st.rules:
            c = _comparison(r)
            if c:
                covered.setdefault(c[:2], set()).update(c[2])
    reported = set()
    for i, st in enumerate(steps):
        pairs: dict[tuple[str, str], list[tuple[set[str], Any]]] = {}
        for r in st.rules:
            c = _comparison(r)
            if c:
                pairs.setdefault(c[:2], []).append((c[2], r))
        for pair, rules in pairs.items():
            # the wagers these rules name (a rule settling '*' settles them too where it applies)
            wagers = {a.wager for _, r in rules for a in r.then if a.kind in SETTLING and a.wager not in (None, "*")}
            for wid in sorted(wagers):
                if any(_comparison(r) is None and _settles(r, wid) for r in st.rules):
                    continue  # a rule of another condition may settle it where the comparisons do not
                settled = set().union(*(reg for reg, r in rules if _settles(r, wid)))
                # a region whose rule does more than settle other wagers (a flag, a wager placed, a
                # decision to come) hands the wager on to the steps after
                handed = set().union(set(), *(reg for reg, r in rules if any(a.kind not in SETTLING for a in r.then)))
                # another step comparing the same values: a later one settles it there, or an earlier one
                # already has (the tie settled first, in a step of its own)
                others = set().union(set(), *(c[2] for s in steps[:i] + steps[i + 1:] for r in s.rules
                                             if (c := _comparison(r)) and c[:2] == pair and _settles(r, wid)))
                open_ = _ALL - settled - handed - others
                if not open_ or (st.id, pair, wid) in reported:
                    continue
                reported.add((st.id, pair, wid))
                ops = " or ".join(sorted(open_, key=["<", "==", ">"].index))
                error(st.src.pointer, f"step {st.id!r}: when {pair[0]} {ops} {pair[1]}, no rule settles {wid!r} "
                                      f"(its rules settle it only when {pair[0]} "
                                      f"{' or '.join(sorted(settled, key=['<', '==', '>'].index))} {pair[1]}), and no "
                                      "other step does: the wager would be left unsettled")


_DECK_WORDS = "|".join(sorted((re.escape(w) for w in _NUMBER_OF_WORD if w != "zero"), key=len, reverse=True))
DECKS_STATED = re.compile(rf"\b({_DECK_WORDS}|single|\d+)\s+(?:(?:complete|standard|full|separate|new)\s+)?decks?\b",
                          re.IGNORECASE)


def _texts(nodes: Any, ptr: str) -> Iterator[tuple[str, str]]:
    """(pointer, text) of every text of the provision tree (a provision's text and the text after its
    children; a definition's text)."""
    for q, n in provision_nodes(nodes, ptr):
        for key in ("text", "after"):
            if isinstance(n.get(key), str):
                yield f"{q}/{key}", n[key]


def decks_stated(data: dict) -> list[tuple[str, str, int]]:
    """(pointer, phrase, number) of every number of decks the provision text states."""
    out = []
    for ptr, text in _texts(data.get("provisions"), "/provisions"):
        for m in DECKS_STATED.finditer(text):
            word = m.group(1).lower()
            n = 1 if word == "single" else int(word) if word.isdigit() else _NUMBER_OF_WORD.get(word)
            if n:
                out.append((ptr, m.group(0), n))
    return out


def decks_against_text(data: dict, error: Error, position: Callable[[str], tuple[int, int]]) -> None:
    cards = data.get("cards") or {}
    decks = cards.get("decks")
    if cards.get("decks_option") or not isinstance(decks, int) or isinstance(decks, bool):
        return  # the casino selects the decks (an option whose bounds the facts lint ties), or none given
    stated = decks_stated(data)
    if not stated or any(n == decks for _, _, n in stated):
        return
    ptr, phrase, _ = stated[0]
    line, col = position(ptr)
    others = sorted({f"'{p}'" for _, p, _ in stated})
    error("/cards/decks", f"the data gives {decks} deck{'s' if decks != 1 else ''}, but the provision text states "
                          f"{', '.join(others)} and never {decks} (first at line {line}, column {col})")


# what reads the player whose turn it is (compiler/runtime/context.py: each reads nothing without one)
PLAYER_FUNCTIONS = frozenset({"has", "placed", "wager", "flag", "chose", "active", "hits", "matched", "picked"})
OVER_PLAYERS = frozenset({"any_player", "count_players"})  # their argument is read for each player


def _reads_a_player(n) -> str | None:
    """The first part of the expression that reads a player, outside ``any_player``/``count_players``."""
    if isinstance(n, Call):
        if n.name in OVER_PLAYERS:
            return None
        if n.name in PLAYER_FUNCTIONS:
            return source(n)
        return next((w for w in map(_reads_a_player, n.args) if w), None)
    if isinstance(n, Ref):
        return source(n) if n.parts[0] == "player" else None
    kids = [getattr(n, k) for k in ("left", "right", "item") if hasattr(n, k)] + list(getattr(n, "items", ()) or ())
    return next((w for w in map(_reads_a_player, kids) if w), None)


def round_conditions_read_no_player(ch: Chapter, error: Error) -> None:
    for st in ch.all_steps():
        conds = [("when", st.when)]
        if st.kind == "repeat" and st.players is None:
            conds += [(k, node) for k, node, _ in st.exprs if k in ("while", "until")]
        for key, node in conds:
            part = _reads_a_player(node) if node is not None else None
            if part:
                error(f"{st.src.pointer}/{key}", f"step {st.id!r}: the {key} of a step is a condition on the round, "
                      f"read for no player, but {part} reads a player: there it reads no one (no wager, flag or card of "
                      "anyone), whatever the players hold. Give the "
                      "step 'players:' (a condition each player must meet) or read the players with "
                      f"any_player(...) or count_players(...)")


def playable_diagnostics(doc, ch: Chapter, error: Error) -> None:
    never_collected(ch, error)
    round_conditions_read_no_player(ch, error)
    comparison_gaps(ch, error)
    decks_against_text(doc.data, error, doc.position)  # the document: a lint of its text
