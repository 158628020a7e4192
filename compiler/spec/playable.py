"""Checks that a rulespec ``validate`` accepts can be played (issue 29 item 4): what once
validated and then failed in a round, or gave a wrong result without failing.

* a card listed twice in a named hand (``[5H, 5H]``): a named hand is matched as a set of distinct
  cards, so it would match any hand holding one 5H;
* a definition term defined twice (two meanings of one word);
* the table's ``max_positions`` beyond :data:`~compiler.spec.limits.MAX_POSITIONS` (the error
  states the limit and its reason);
* a shoe that can run out: the cards are reshuffled at the reshuffle cover card but none is placed
  (no ``reshuffle_marker``), or the marker leaves fewer cards below it than one round can draw.

Each is a positioned error of the data (``compiler.spec.checks`` runs them with its own checks).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Iterator

from compiler.spec.limits import MAX_POSITIONS, MAX_POSITIONS_REASON
from compiler.values.cards import CardError, parse_card

Error = Callable[[str, str], None]


def _steps(steps: Any) -> Iterator[dict]:
    for s in steps if isinstance(steps, list) else ():
        if isinstance(s, dict):
            yield s
            yield from _steps(s.get("steps"))


def duplicate_hand_cards(data: dict, error: Error) -> None:
    for rid, r in (data.get("rankings") or {}).items():
        hands = r.get("hands") if isinstance(r, dict) else None
        for hid, h in (hands or {}).items() if isinstance(hands, dict) else ():
            if not isinstance(h, dict):
                continue
            sets = [("cards", h.get("cards"))] if "cards" in h else [
                (f"any_of/{i}", s) for i, s in enumerate(h.get("any_of") if isinstance(h.get("any_of"), list) else ())]
            for where, cards in sets:
                seen: dict[int, int] = {}
                for j, c in enumerate(cards if isinstance(cards, list) else ()):
                    try:
                        card = parse_card(str(c))
                    except CardError:
                        continue  # reported by the ranking checks
                    if card in seen:
                        error(f"/rankings/{rid}/hands/{hid}/{where}/{j}",
                              f"card {c} is listed twice in named hand {hid!r} (also at position {seen[card] + 1}): a "
                              f"named hand is matched as a set of distinct cards, so it would match any hand "
                              f"holding one {c}")
                    seen.setdefault(card, j)


def provision_nodes(nodes: Any, ptr: str) -> Iterator[tuple[str, dict]]:
    """(pointer, node) of every provision and definition of the provision tree, level by level: each
    provision, then its definitions, then the children of both."""
    stack = [(nodes, ptr)]
    while stack:
        items, p = stack.pop(0)
        for i, n in enumerate(items if isinstance(items, list) else ()):
            if not isinstance(n, dict):
                continue
            q = f"{p}/{i}"
            yield q, n
            for j, d in enumerate(n.get("definitions") or ()):
                if isinstance(d, dict):
                    yield f"{q}/definitions/{j}", d
                    stack.append((d.get("children"), f"{q}/definitions/{j}/children"))
            stack.append((n.get("children"), f"{q}/children"))


def _definitions(nodes: Any, ptr: str) -> Iterator[tuple[str, str]]:
    """(pointer of the term, term) of every definition in the provision tree."""
    for q, n in provision_nodes(nodes, ptr):
        if q.rsplit("/", 2)[-2] == "definitions" and isinstance(n.get("term"), str):
            yield f"{q}/term", n["term"]


def duplicate_terms(data: dict, error: Error, position: Callable[[str], tuple[int, int]]) -> None:
    first: dict[str, str] = {}
    for ptr, term in _definitions(data.get("provisions"), "/provisions"):
        key = " ".join(term.split()).casefold()
        if key in first:
            line, col = position(first[key])
            error(ptr, f"the term {term!r} is defined twice (first at line {line}, column {col}): one word, "
                       "one meaning; merge the definitions")
        else:
            first[key] = ptr


def positions_limit(data: dict, error: Error) -> None:
    n = (data.get("table") or {}).get("max_positions")
    if isinstance(n, int) and not isinstance(n, bool) and n > MAX_POSITIONS:
        error("/table/max_positions", f"a table of {n} positions: at most {MAX_POSITIONS} (MAX_POSITIONS, "
                                      f"docs/spec-format.md 'Limits'): {MAX_POSITIONS_REASON}")


def _draws_per_round(data: dict) -> tuple[int, list[str]]:
    """An upper bound of the cards one round can draw (every deal and burn step, to every position of
    a full table), and the steps that draw."""
    positions = (data.get("table") or {}).get("max_positions", 7)
    positions = positions if isinstance(positions, int) and positions > 0 else 7
    total, steps = 0, []
    for s in _steps(data.get("procedure")):
        count = s.get("count", 1)
        count = count if isinstance(count, int) and count > 0 else 1
        if s.get("do") == "burn":
            total += count
        elif s.get("do") == "deal":
            to = s.get("to", "players")
            total += count * {"players": positions, "positions": positions + 1}.get(to, 1)
        elif s.get("do") == "split":  # each split deals one card to each of its two hands
            hands = s.get("hands")
            total += 2 * (hands - 1 if isinstance(hands, int) and hands > 1 else 1) * positions
        else:
            continue
        steps.append(str(s.get("id")))
    return total, steps


def _fewest_cards(data: dict) -> int | None:
    """The cards of the smallest shoe the spec allows (the decks option's minimum, one batch of it)."""
    cards = data.get("cards") or {}
    deck = cards.get("deck") or {}
    per = (deck.get("cards") or 52) + (deck.get("jokers") or 0)
    decks = cards.get("decks", 1)
    oid = cards.get("decks_option")
    if isinstance(oid, str) and isinstance((data.get("options") or {}).get(oid), dict):
        o = data["options"][oid]
        listed = o.get("values") if isinstance(o.get("values"), list) and o.get("values") else [decks]
        decks = o.get("minimum", min(listed, key=lambda v: v if isinstance(v, int) else 0))
    batches = (cards.get("batches") or {}).get("count") or 1
    if not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in (per, decks, batches)):
        return None  # reported by the deck checks
    return per * max(decks // batches, 1)


def shoe_runs_out(data: dict, error: Error) -> None:
    cards = data.get("cards")
    if not isinstance(cards, dict) or not isinstance(cards.get("reshuffle"), dict):
        return
    draws, steps = _draws_per_round(data)
    if not draws or cards["reshuffle"].get("when") != "cover_card":
        return  # no card drawn, or the cards are reshuffled after every round
    size = _fewest_cards(data)
    if size is None:
        return
    marker = cards.get("reshuffle_marker")
    if not isinstance(marker, dict):
        error("/cards/reshuffle/when", f"the cards are reshuffled when the reshuffle cover card comes out, but no "
                                       f"'reshuffle_marker' places one: the shoe ({size} cards at its fewest) is never "
                                       f"reshuffled, and the rounds draw from it ({', '.join(steps)}) until it runs "
                                       "out; give cards.reshuffle_marker, or 'reshuffle: {when: every_round}'")
        return
    try:
        below = int(size * Fraction(str(marker.get("from_bottom"))))
    except (ValueError, ZeroDivisionError):
        return  # reported by the marker check
    if below < draws:
        error("/cards/reshuffle_marker/from_bottom",
              f"the reshuffle cover card leaves {below} cards below it in a shoe of {size} cards, and one round at "
              f"a full table can draw up to {draws} ({', '.join(steps)}): the round that reaches the cover card can "
              "run the shoe out before it is completed")


def split_without_split_choice(data: dict, error: Error) -> None:
    """A split step splits when the choice ``split`` is taken: a step without that choice never splits."""
    def walk(steps, ptr):
        for i, s in enumerate(steps if isinstance(steps, list) else ()):
            if not isinstance(s, dict):
                continue
            ids = [c.get("id") for c in s.get("choices") or () if isinstance(c, dict)]
            if s.get("do") == "split" and isinstance(s.get("choices"), list) and "split" not in ids:
                error(f"{ptr}/{i}/choices", f"the split step {s.get('id')!r} has no choice 'split' (its choices: "
                                            f"{', '.join(map(str, ids)) or 'none'}): the hand is split when the player "
                                            "takes the choice 'split', so this step could never split one")
            walk(s.get("steps"), f"{ptr}/{i}/steps")
    walk(data.get("procedure"), "/procedure")


def playable_diagnostics(data: dict, error: Error, position: Callable[[str], tuple[int, int]]) -> None:
    split_without_split_choice(data, error)
    duplicate_hand_cards(data, error)
    duplicate_terms(data, error, position)
    positions_limit(data, error)
    shoe_runs_out(data, error)
