"""The checks of a hand history against its chapter that ``round_file.check_round`` runs after the
options: seats, wagers and choices; meters; events; cards. Each adds its positioned errors to
``errs`` in the order the hand history is read.

``rs`` is a ``round_file.RoundSpec`` (not imported: round_file imports this module); ``game`` the
compiled game; ``table`` the table of the round's selections, or None when they are not known."""
from __future__ import annotations

from collections import Counter

from compiler.runtime.cards import JOKER, card_str
from compiler.runtime.chance import check_chosen
from compiler.runtime.errors import RefusedError
from compiler.runtime.money import CENT
from compiler.runtime.state import instance_key
from compiler.spec.diagnostics import Diagnostic, escape_token


def steps_by_id(steps, out: dict) -> dict:
    """Every step of a procedure, nested ones too, by id (in the procedure's order)."""
    for st in steps:
        out[st.id] = st
        steps_by_id(st.steps, out)
    return out


def check_seats(rs: "RoundSpec", game, table, errs: list[Diagnostic]) -> None:
    """Each seat with a wager: on the table, its wagers and offers, its choices; then the seats the
    cards are dealt to."""
    doc, ch = rs.doc, game.chapter
    decide = {sid: st for sid, st in steps_by_id(game.procedure, {}).items() if st.kind in ("decide", "split")}
    for seat in rs.bets:
        base = f"/positions/{seat}"
        if not 1 <= seat <= game.max_positions:
            errs.append(doc.diagnostic(base, f"seat {seat}: Chapter {ch}'s table has positions 1 to "
                                             f"{game.max_positions}", at_key=True))
        _check_wagers(rs, game, table, seat, errs)
        _check_choices(rs, game, seat, decide, errs)
    for who in (doc.data.get("dealt") or {}):
        if who.isdigit() and not 1 <= int(who) <= game.max_positions:
            errs.append(doc.diagnostic(f"/dealt/{who}", f"seat {who}: Chapter {ch}'s table has positions 1 to "
                                                        f"{game.max_positions}", at_key=True))


def _check_wagers(rs: "RoundSpec", game, table, seat: int, errs: list[Diagnostic]) -> None:
    """A seat's wagers and its answers to offers: known wagers, whole cents, allowed amounts, offered
    by the casino; a wager on chosen numbers, a wager that requires another."""
    doc, ch = rs.doc, game.chapter
    base = f"/positions/{seat}"
    offered = [(w, a, f"/{i}") for w, v in rs.offers.get(seat, {}).items()
               for i, a in (enumerate(v) if isinstance(v, list) else ((None, v),))]
    placed = [(w, x, f"/{i}" if isinstance(a, list) else "") for w, a in rs.bets[seat].items()
              for i, x in (enumerate(a) if isinstance(a, list) else ((None, a),))]
    for kind, items in (("wagers", placed), ("offers", offered)):
        for wid, amount, at in items:
            ptr = f"{base}/{kind}/{escape_token(wid)}" + ("" if at == "/None" else at)
            wd = game.wagers.get(wid)
            if wd is None:
                errs.append(doc.diagnostic(ptr, f"seat {seat}: Chapter {ch} has no wager {wid!r}; its wagers "
                                                f"are {', '.join(sorted(game.wagers))}", at_key=True))
                continue
            if kind == "wagers" and at == "/0" and not wd.several:
                errs.append(doc.diagnostic(ptr[:-2], f"seat {seat}: the {wd.name} is one wager a seat: give its "
                                                     "amount, not a list (only a wager a player may have several of, "
                                                     "several: true, is given as a list of its instances)"))
            if amount and amount != amount.quantize(CENT):
                errs.append(doc.diagnostic(ptr, f"seat {seat}: {wd.name}: {amount} is not a whole number of cents"))
            elif amount and wd.amounts and amount not in wd.amounts:
                errs.append(doc.diagnostic(ptr, f"seat {seat}: {wd.name}: {amount} is not an allowed amount; "
                                                f"allowed: {', '.join(str(a) for a in wd.amounts)} ({wd.cite})"))
            if amount and table is not None and not table.offered(wid):
                errs.append(doc.diagnostic(ptr, f"seat {seat}: the {wd.name} is not offered by this casino's "
                                                f"Rules Submission ({wd.cite})"))
            if kind == "wagers" and amount and (wd.choose or wid in rs.chosen.get(seat, {})):
                _check_numbers(rs, game, seat, wid, at, ptr, errs)
            if kind == "wagers":
                for req in wd.requires:
                    if amount and not rs.bets[seat].get(req):
                        errs.append(doc.diagnostic(ptr, f"seat {seat}: the {wd.name} requires a "
                                                        f"{game.wagers[req].name} ({wd.cite})"))
                for group in wd.requires_any:
                    if amount and not any(rs.bets[seat].get(req) for req in group):
                        errs.append(doc.diagnostic(ptr, f"seat {seat}: the {wd.name} requires "
                                                        f"{game.one_of(group)} ({wd.cite})"))


def _check_numbers(rs: "RoundSpec", game, seat: int, wid: str, at: str, ptr: str, errs: list[Diagnostic]) -> None:
    """The numbers a wager on chosen numbers is placed on (``at``: '/2' for the third instance of a wager of
    several): one of its legal sets, and no set of an earlier instance of the seat (one Place on each number)."""
    wd, given = game.wagers[wid], rs.chosen.get(seat, {}).get(wid)
    i = int(at[1:]) if at else None
    numbers = given[i] if isinstance(given, list) and i is not None else given
    try:
        chosen = check_chosen(wd, numbers or (), game.procedure)
    except ValueError as e:
        errs.append(rs.doc.diagnostic(ptr + "/numbers" if numbers else ptr, f"seat {seat}: {e}"))
        return
    for j in range(i or 0):
        try:
            same = check_chosen(wd, given[j] or (), game.procedure) == chosen
        except ValueError:
            continue
        if same:
            errs.append(rs.doc.diagnostic(ptr + "/numbers", f"seat {seat}: {wid}#{i + 1} is placed on "
                                          f"[{', '.join(chosen)}], as {wid}#{j + 1} is: one {wd.name} on each set of "
                                          f"numbers; raise that one instead ({wd.cite})"))
            return


def check_carried(rs: "RoundSpec", game, table, errs: list[Diagnostic]) -> None:
    """The wagers a position begins with on the layout (``carried``): wagers that stay from one round to the
    next (``stays: until_settled``), of amounts the wager allows, not placed again in the round; its
    ``state``: per-player state one of them keeps, of the type of its initial value."""
    doc, ch = rs.doc, game.chapter
    stays = sorted(k for k, d in game.wagers.items() if d.stays)
    for seat, c in rs.carried.items():
        base = f"/positions/{seat}"
        kept: set[str] = set()
        for key, amount in c["wagers"].items():
            ptr = f"{base}/carried/{escape_token(key)}"
            wid, n = instance_key(key)
            wd = game.wagers.get(wid)
            if wd is None or not wd.stays:
                errs.append(doc.diagnostic(ptr, f"seat {seat}: {key!r} is not a wager of Chapter {ch} that stays on the "
                                                f"layout from one round to the next; those that do: "
                                                f"{', '.join(stays) or 'none'}", at_key=True))
                continue
            if bool(n) != wd.several:
                errs.append(doc.diagnostic(ptr, f"seat {seat}: the {wd.name} is " + (
                    f"a wager a player may have several of (several: true): name each on the layout by its number, "
                    f"'{wid}#1', '{wid}#2', ..." if wd.several else f"one wager, not one of several: write {wid!r}"),
                    at_key=True))
                continue
            if n:
                _check_instance_state(rs, game, seat, key, wd, c["state"].get(key), errs)
                kept.add(key)
            else:
                kept.update(wd.keeps)
            if table is not None and amount:
                try:
                    table.check_amount(wid, amount)
                except RefusedError as e:
                    errs.append(doc.diagnostic(ptr, f"seat {seat}: {e}"))
            elif not amount:
                errs.append(doc.diagnostic(ptr, f"seat {seat}: a wager carried on the layout has an amount"))
            if rs.bets.get(seat, {}).get(wid) and not n:
                errs.append(doc.diagnostic(f"{base}/wagers/{escape_token(wid)}", f"seat {seat}: the {wd.name} is "
                                           "on the layout from the previous round: it is not placed again", at_key=True))
        for k, v in c["state"].items():
            ptr = f"{base}/state/{escape_token(k)}"
            decl = game.state.get(k)
            if k in kept and instance_key(k)[1]:
                continue  # an instance's own state (checked with it)
            if k not in kept:
                errs.append(doc.diagnostic(ptr, f"seat {seat}: the state {k!r} is kept by no wager carried to this "
                                                f"position (kept: {', '.join(sorted(kept)) or 'none'})", at_key=True))
            elif type(v) is not type(decl["initial"]):
                errs.append(doc.diagnostic(ptr, f"seat {seat}: {k} is {type(decl['initial']).__name__}, as its initial "
                                                f"value {decl['initial']!r} ({decl['cite']}), not {v!r}"))


def _check_instance_state(rs, game, seat: int, key: str, wd, given, errs: list[Diagnostic]) -> None:
    """The state an instance of a wager of several keeps (``state: {come#2: {come_point: 6}}``)."""
    ptr = f"/positions/{seat}/state/{escape_token(key)}"
    if given is None:
        return
    if not isinstance(given, dict):
        errs.append(rs.doc.diagnostic(ptr, f"seat {seat}: the state of {key} is given as {{name: value}} of the state "
                                           f"it keeps ({', '.join(wd.keeps) or 'none'})"))
        return
    for k, v in given.items():
        decl = game.state.get(k)
        if k not in wd.keeps:
            errs.append(rs.doc.diagnostic(f"{ptr}/{escape_token(k)}", f"seat {seat}: {key} keeps "
                                          f"{', '.join(wd.keeps) or 'no state'}, not {k!r}", at_key=True))
        elif type(v) is not type(decl["initial"]):
            errs.append(rs.doc.diagnostic(f"{ptr}/{escape_token(k)}", f"seat {seat}: {k} is "
                                          f"{type(decl['initial']).__name__}, as its initial value {decl['initial']!r} "
                                          f"({decl['cite']}), not {v!r}"))


def _check_choices(rs: "RoundSpec", game, seat: int, decide: dict, errs: list[Diagnostic]) -> None:
    """A seat's choices: each at a decision of the procedure, one of that decision's choices."""
    doc, ch = rs.doc, game.chapter
    for did, given in rs.choices.get(seat, {}).items():
        ptr = f"/positions/{seat}/choices/{escape_token(did)}"
        if did not in decide:
            errs.append(doc.diagnostic(ptr, f"seat {seat}: Chapter {ch}'s procedure has no decision {did!r}; "
                                            f"its decisions are {', '.join(sorted(decide)) or 'none'}", at_key=True))
            continue
        for i, choice in (enumerate(given) if isinstance(given, list) else ((None, given),)):
            if choice not in [c.id for c in decide[did].choices]:
                errs.append(doc.diagnostic(ptr if i is None else f"{ptr}/{i}",
                                           f"seat {seat}: {choice!r} is not a choice at {did!r} "
                                           f"({decide[did].cite}); choices are "
                                           f"{', '.join(c.id for c in decide[did].choices)}"))


def check_meters(rs: "RoundSpec", game, errs: list[Diagnostic]) -> None:
    """Each meter read before the round is a progressive meter of the chapter."""
    for mid, reading in rs.meters.items():
        if mid not in game.meters:
            errs.append(rs.doc.diagnostic(f"/meters/{escape_token(mid)}",
                                          f"Chapter {game.chapter} has no progressive meter {mid!r}; its meters are "
                                          f"{', '.join(sorted(game.meters)) or 'none'}", at_key=True))


def check_events(rs: "RoundSpec", game, table, errs: list[Diagnostic]) -> None:
    """Each event: known, before or after a step of the procedure (not both), at a seat with a
    wager, with a count of cards the shoe holds and as many cards as it counts."""
    doc, ch = rs.doc, game.chapter
    steps = steps_by_id(game.procedure, {})
    known = {i.event for i in game.irregularities}
    if any(r[0] == "floor_reshuffle" for r in game.cards.cut_offer):
        known.add("floor_reshuffle")
    per_deck = 52 - 4 * len(game.cards.without) + game.cards.jokers
    size = (table.shoe_decks() if table is not None else game.cards.decks_default) * per_deck
    for i, e in enumerate(rs.events):
        ptr = f"/events/{i}"
        if e.get("event") not in known:
            errs.append(doc.diagnostic(f"{ptr}/event", f"no provision of Chapter {ch} covers the event "
                                                       f"{e.get('event')!r}; its events are {', '.join(sorted(known))}"))
        for where in ("before", "after"):
            if where in e and e[where] not in steps:
                errs.append(doc.diagnostic(f"{ptr}/{where}", f"Chapter {ch}'s procedure has no step {e[where]!r}; "
                                                             f"its steps are {', '.join(steps)}"))
        if "before" in e and "after" in e:
            errs.append(doc.diagnostic(ptr, "an event happens before a step or after one, not both"))
        if "seat" in e and e["seat"] not in rs.bets:
            errs.append(doc.diagnostic(f"{ptr}/seat", f"seat {e['seat']} has no wager in this round; seats "
                                                      f"with a wager: {', '.join(map(str, sorted(rs.bets)))}"))
        if "count" in e and not 1 <= e["count"] <= size:
            errs.append(doc.diagnostic(f"{ptr}/count", f"a count of {e['count']} cards: the shoe holds {size}"))
        if "cards" in e and "count" in e and e["count"] != len(e["cards"]):
            errs.append(doc.diagnostic(f"{ptr}/count", f"count {e['count']} but {len(e['cards'])} cards given"))


def check_cards(rs: "RoundSpec", game, table, errs: list[Diagnostic]) -> None:
    """The cards of the round: of the chapter's deck, and no card more often than the shoe holds it."""
    doc = rs.doc
    seen: list[tuple[int, str]] = []
    for who, zones in (doc.data.get("dealt") or {}).items():
        key_who = ("player", int(who)) if who.isdigit() else (who, None)
        for z in zones:
            for j, c in enumerate(rs.dealt.get((*key_who, z), ())):
                seen.append((c, f"/dealt/{who}/{escape_token(z)}/{j}"))
    seen += [(c, f"/burned/{j}") for j, c in enumerate(rs.burned)]
    events_seen = [(c, f"/events/{i}/cards/{j}") for i, e in enumerate(rs.events)
                   for j, c in enumerate(e.get("cards") or ())]
    settings = [(c, f"/positions/{s}/setting/{h}/{j}") for s, st in rs.settings.items() if isinstance(st, dict)
                for h, v in st.items() for j, c in enumerate(v)]
    settings += [(c, f"/dealer_setting/{h}/{j}") for h, v in (rs.dealer_setting or {}).items() for j, c in enumerate(v)]
    if not game.cards.jokers:
        for c, ptr in seen + events_seen + settings:
            if c == JOKER:
                errs.append(doc.diagnostic(ptr, f"Chapter {game.chapter} is played without a joker"))
    decks = table.shoe_decks() if table is not None else None
    if decks is not None:
        _check_copies(rs, game, decks, seen, events_seen, errs)


def _check_copies(rs: "RoundSpec", game, decks: int, seen: list, events_seen: list, errs: list[Diagnostic]) -> None:
    """No card more often than a shoe of ``decks`` decks holds it. A card found face up or drawn in
    error may also be among the cards dealt: an event's card counts only beyond the copies already
    dealt or burned."""
    total = Counter(c for c, _ in seen)
    for c, n in Counter(c for c, _ in events_seen).items():
        total[c] = max(total[c], n)
    running: Counter = Counter()
    reported = set()
    for source in (seen, events_seen):
        running.clear()
        for c, ptr in source:
            if c == JOKER and not game.cards.jokers:
                continue  # reported above
            if c != JOKER and c >> 2 in game.cards.without and c not in reported:
                reported.add(c)
                errs.append(rs.doc.diagnostic(ptr, f"{card_str(c)} is not in the shoe: the deck has no "
                                                   f"{card_str(c)[0]} (cards.deck.without)"))
                continue
            running[c] += 1
            held = decks * (game.cards.jokers if c == JOKER else 1)
            if running[c] > held and c not in reported:
                reported.add(c)
                errs.append(rs.doc.diagnostic(ptr, f"{card_str(c)} appears {total[c]} times among the cards of "
                                                   f"the round; the shoe of {decks} deck{'s' if decks != 1 else ''}"
                                                   f" holds {held}"))
