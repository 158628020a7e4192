"""The shoe and dealing: the decks in the shoe, drawing a card (the reshuffle cover card), the cut
and its offer, reshuffles (after a round, or before one when the last was not completed), and the
steps ``announce``, ``burn``, ``deal`` (to players, the dealer, the community or every position),
``reveal``, ``roll`` and ``collect_unwagered``.

Seats are numbered as seen from the dealer: seat 1 is the position farthest to the dealer's left
(dealt first), and seat numbers grow clockwise toward the dealer's right.
"""
from __future__ import annotations

from typing import Any, Sequence

from compiler.runtime.cards import card_str
from compiler.runtime.chance import RandomChance, wheel_pockets
from compiler.runtime.context import Context
from compiler.runtime.definition import Step
from compiler.runtime.errors import EngineError, RefusedError
from compiler.runtime.state import Round


class Dealing:
    """Table methods of the shoe (``self`` is a :class:`~compiler.runtime.table.Table`)."""

    def shoe_decks(self) -> int:
        """Decks in one dealing shoe: all the decks, or one batch of them when batches are used."""
        cd = self.game.cards
        decks = int(self.options.get(cd.decks_option, cd.decks_default)) if cd.decks_option else cd.decks_default
        if cd.batches > 1 and cd.batches_when is not None and cd.batches_when(Context(self, None)):
            decks //= cd.batches
        return decks

    def _draw(self, rnd: Round, target) -> Any:
        rnd.drawn += 1
        if rnd.reuse:
            return rnd.reuse.pop(0)
        marker = self.shoe.marker
        if marker is not None and self.shoe.index == marker:
            # the reshuffle cover card comes out now: it appears on this target's area
            self.cover_card_on = target
            owner, seat, _ = target
            where = f"seat {seat}" if owner == "player" else ("the dealer's hand" if owner in ("dealer", "burn")
                                                              else owner)
            rnd.log("cover_card", self.game.cards.reshuffle_cite,
                    f"reshuffle cover card reached, on {where}; the round is completed, then the cards are reshuffled")
        return self.shoe.draw(target)

    def cut_offer_order(self, situation: str, seats: Sequence[int], cover_seat: int | None = None) -> list[tuple]:
        """Who is offered the cut, in order: [(seat or 'dealer', cite)] (e.g. § 567.5(b)-(c))."""
        cd = self.game.cards
        rule = next((r for r in cd.cut_offer if r[0] == situation), None)
        seats = sorted(seats)
        if rule is None or not seats:
            return [("dealer", cd.cut_refused[1])]
        _, to, cite = rule
        if to == "that_player" and cover_seat in seats:
            first = cover_seat
        elif to == "rightmost_player":
            first = seats[-1]
        elif to == "leftmost_player" or to == "first_player":
            first = seats[0]
        else:
            first = seats[-1]
        rotate, rcite = cd.cut_refused
        i = seats.index(first)
        step = 1 if rotate == "clockwise" else -1
        order = [(first, cite)]
        for k in range(1, len(seats)):
            order.append((seats[(i + step * k) % len(seats)], rcite))
        order.append(("dealer", rcite))
        return order

    def _reshuffle_if_due(self, rnd: Round) -> None:
        """Before a round: the cards a round left drawn (a round that could not be finished) are
        reshuffled when the chapter's rule says so (after every round, or the cover card reached)."""
        cd = self.game.cards
        if self.scripted or self.unfinished is None:
            return
        self.unfinished = None
        if cd.reshuffle == "every_round" or (cd.reshuffle == "cover_card" and self.shoe.cover_reached):
            rnd.log("reshuffle", cd.reshuffle_cite, "the cards of the last round, which was not completed, are "
                    "reshuffled")
            self.shoe.shuffle()
            self.first_after_shuffle = True
            rnd._attrs["first_after_shuffle"] = True
            self.reshuffles.append((rnd.number, cd.reshuffle_cite))
            self.cover_card_on = None
            self._log_cut(rnd)

    def reshuffle_now(self, rnd: Round, cite: str) -> None:
        self.shoe.shuffle()
        self.first_after_shuffle = True
        rnd._attrs["first_after_shuffle"] = True
        self.reshuffles.append((rnd.number, cite))
        rnd.log("reshuffle", cite, "cards reshuffled")
        self._log_cut(rnd)

    def _log_cut(self, rnd: Round, situation: str | None = None) -> None:
        cd = self.game.cards
        if cd.cut_offer and situation is not None and not self.scripted:
            cover = getattr(self, "cover_card_on", None)
            cover_seat = cover[1] if cover and cover[0] == "player" else None
            order = self.cut_offer_order(situation, list(rnd.seats), cover_seat)
            who, cite = order[0]
            rnd.log("cut_offer", cite, f"the cut is offered first to {'seat ' + str(who) if who != 'dealer' else 'the dealer'}"
                    + (f"; if refused, to {', '.join('seat ' + str(w) if w != 'dealer' else 'the dealer' for w, _ in order[1:])}"
                       if len(order) > 1 else ""))
        if self.shoe.cut_at is not None:
            rnd.log("cut", cd.cut_cite, f"cover card inserted {self.shoe.cut_at} cards from the top; the cards above it "
                    "moved to the bottom")
        if self.shoe.marker is not None:
            rnd.log("marker", cd.marker_cite, f"reshuffle cover card placed {len(self.shoe.cards) - self.shoe.marker} "
                    "cards from the bottom")


    def _end_of_round_shuffle(self, rnd: Round) -> bool:
        """Reshuffle after the round when an irregularity or the chapter's rule says so; True if done."""
        cd = self.game.cards
        cause = rnd.reshuffle
        if cause is None and cd.reshuffle == "every_round" and (cd.reshuffle_cite or rnd.drawn):
            cause = cd.reshuffle_cite  # (a chapter without cards, e.g. a wheel, has nothing to reshuffle)
        if cause is None and cd.reshuffle == "cover_card" and self.shoe.cover_reached:
            cause = cd.reshuffle_cite
        if cause is None:
            self.first_after_shuffle = False
            return False
        if rnd.remove_deck:
            rnd.log("remove_deck", rnd.remove_deck, "deck removed from the table; a new deck is used")
        self.shoe.shuffle()
        self.first_after_shuffle = True
        self.reshuffles.append((rnd.number, cause))
        rnd.log("reshuffle", cause, "cards reshuffled")
        cover = getattr(self, "cover_card_on", None)
        situation = ("floor_reshuffle" if rnd.floor_reshuffle else
                     "cover_card_on_player" if cover and cover[0] == "player" else "cover_card_on_dealer")
        self._log_cut(rnd, situation)
        self.cover_card_on = None
        return True


# ---------------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------------


def announce(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    rnd.log("announce", step.cite, f"dealer announces ''{step.params.get('text', '')}''")


def burn(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    n = int(step.params.get("count", 1))
    cards = [table._draw(rnd, ("burn", None, None)) for _ in range(n)]
    shown = " ".join(card_str(c) for c in cards if c is not None)
    rnd.log("burn", step.cite, f"{n} card{'s' if n != 1 else ''} burned face down to the discard rack"
            + (f" ({shown})" if shown else ""))


def deal(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    p = step.params
    to = p.get("to", "players")
    zone = p.get("zone", "cards")
    n = int(p.get("count", 1))
    face = p.get("face", "up")
    if to == "positions":
        deal_positions(table, ctx, rnd, step)
    elif to == "players":
        seats = table._players(ctx, rnd, step)
        # one card at a time around the table, or (stack) all n cards to a target together
        order = ([s for s in seats for _ in range(n)] if p.get("stack")
                 else [s for _ in range(n) for s in seats])
        for s in order:
            c = table._draw(rnd, ("player", s.number, zone))
            s.zones.setdefault(zone, []).append(c)
            rnd.log("deal", step.cite, f"dealt {card_str(c) if c is not None else 'a card'} face {face} ({zone})",
                    seat=s.number, hand=s.hand)
    else:
        holder = rnd.dealer if to == "dealer" else rnd.community
        for _ in range(n):
            c = table._draw(rnd, (to, None, zone))
            holder.setdefault(zone, []).append(c)
            rnd.log("deal", step.cite, f"{to}: dealt {card_str(c) if c is not None else 'a card'} face {face} ({zone})")
        if face == "up":  # shown to the players (PlayerView)
            rnd.revealed.add(zone)


def reveal(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    zone = step.params.get("zone")
    rnd.revealed.add(zone)
    cards = rnd.community.get(zone) or rnd.dealer.get(zone) or []
    rnd.log("reveal", step.cite, f"revealed {' '.join(card_str(c) for c in cards)} ({zone})")


def collect_unwagered(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    if rnd.unwagered:
        seats = sorted(rnd.unwagered)
        rnd.log("collect", step.cite, f"stacks dealt to position{'s' if len(seats) > 1 else ''} "
                f"{', '.join(map(str, seats))} (no wager) collected without exposing the cards and "
                "placed in the discard rack")
        rnd.unwagered.clear()


def roll(table, ctx, rnd, step, pending=None) -> None:
    """``do: roll``: ``dice: N`` six-sided dice (the total) or ``numbers: N`` (a random number
    generator showing 1..N); the result is ``round.roll``.  A hand history gives the faces."""
    p = step.params
    dice, numbers = p.get("dice"), p.get("numbers")
    sides, n = (6, int(dice)) if dice else (int(numbers), 1)
    if rnd.rolls:
        given = rnd.rolls.pop(0)
        vals = [int(v) if isinstance(v, int) or (isinstance(v, str) and v.isdigit()) else 0 for v in given]
        if len(vals) != n or not all(1 <= v <= sides for v in vals):
            vals = given
            raise RefusedError(f"{step.id}: expected {n} value{'s' if n > 1 else ''} from 1 to {sides}, got {vals} "
                               f"({step.cite})")
        source = "as recorded"
    elif table.scripted and isinstance(table.chance, RandomChance):  # a hand history (not an analysis's chance)
        raise RefusedError(f"{step.id}: the hand history gives no " + ("dice" if dice else "random number")
                           + f" for this round ({step.cite})")
    else:
        several = getattr(table.chance, "dice", None) if dice and n > 1 else None
        if several is not None:  # a chance that gives a roll's faces at once (an analysis: by multiset)
            vals = [1 + v for v in several(n, sides)]
        else:
            vals = [1 + table.chance.uniform(sides, "die" if dice else "number") for _ in range(n)]
        source = ""
    rnd._attrs["roll"] = sum(vals)
    rnd.rolled.append(list(vals))
    rnd.showing = [str(v) for v in vals]
    if dice:
        rnd.dice, rnd.pocket = list(vals), None
        text = f"dice {' + '.join(map(str, vals))} = {sum(vals)}"
    else:
        text = f"random number generator displays {vals[0]}"
    rnd.log("roll", step.cite, text + (f" ({source})" if source else ""))


def spin(table, ctx, rnd, step, pending=None) -> None:
    """``do: spin``: the wheel declared in the step (``wheel: {pockets: [...]}``) is spun; every pocket
    (segment) is equally likely. The rules read ``pocket.label`` and the pocket's declared attributes.
    A hand history gives the pocket's label."""
    wheel = step.params["wheel"]
    pockets = wheel_pockets(wheel)
    name = wheel.get("name", "wheel")
    if rnd.rolls:
        given = rnd.rolls.pop(0)
        label = str(given[0]) if len(given) == 1 else None
        found = [p for p in pockets if p["label"] == label]
        if not found:
            labels = list(dict.fromkeys(p["label"] for p in pockets))
            raise RefusedError(f"{step.id}: expected the label of one pocket of the {name} ({', '.join(labels)}), "
                               f"got {given} ({step.cite})")
        pocket, source = found[0], " (as recorded)"
    elif table.scripted and isinstance(table.chance, RandomChance):
        raise RefusedError(f"{step.id}: the hand history gives no pocket of the {name} for this round ({step.cite})")
    else:
        pocket, source = pockets[table.chance.uniform(len(pockets), "pocket")], ""
    rnd.pocket, rnd.dice = pocket, None  # (read only)
    rnd.showing = [pocket["label"]]
    rnd.rolled.append([pocket["label"]])
    shown = ", ".join(f"{k} {v}" for k, v in pocket.items() if k != "label")
    rnd.log("spin", step.cite, f"{name}: {pocket['label']}" + (f" ({shown})" if shown else "") + source)


def deal_positions(table, ctx, rnd, step) -> None:
    """``do: deal, to: positions``: ``count`` cards to every betting position, wagered or not, and
    the dealer, clockwise from the starting position: the position reached by counting ``start``
    (an expression, e.g. ``round.roll``) from the dealer as one, ``count_order`` (default
    counterclockwise), every position counted.  Cards of positions without a wager are kept apart
    (``collect_unwagered`` discards them unseen)."""
    p = step.params
    zone, n, face = p.get("zone", "cards"), int(p.get("count", 1)), p.get("face", "down")
    npos = table.game.max_positions
    cycle = list(range(1, npos + 1)) + ["dealer"]  # clockwise, from the dealer's left
    start_fn = step.exprs.get("start")
    first = cycle[0]
    if start_fn is not None:
        k = start_fn(ctx)
        if k is None or int(k) < 1:
            raise EngineError(f"{step.id}: no count for the starting position ({step.cite})")
        k = int(k)
        direction = p.get("count_order", "counterclockwise")
        counted = ["dealer"] + (list(range(npos, 0, -1)) if direction == "counterclockwise" else list(range(1, npos + 1)))
        first = counted[(k - 1) % (npos + 1)]
        rnd._attrs["start_position"] = 0 if first == "dealer" else first
        rnd.log("start", step.cite, f"starting position: {'the dealer' if first == 'dealer' else f'position {first}'} "
                f"(counting {k} from the dealer as one, {direction}, every position counted)")
    i = cycle.index(first)
    order = cycle[i:] + cycle[:i]
    targets = [pos for pos in order for _ in range(n)] if p.get("stack") else [pos for _ in range(n) for pos in order]
    for pos in targets:
        if pos == "dealer":
            c = table._draw(rnd, ("dealer", None, zone))
            rnd.dealer.setdefault(zone, []).append(c)
            rnd.log("deal", step.cite, f"dealer: dealt {card_str(c) if c is not None else 'a card'} face {face} ({zone})")
        elif pos in rnd.seats:
            c = table._draw(rnd, ("player", pos, zone))
            rnd.seats[pos].zones.setdefault(zone, []).append(c)
            rnd.log("deal", step.cite, f"dealt {card_str(c) if c is not None else 'a card'} face {face} ({zone})",
                    seat=pos)
        else:
            c = table._draw(rnd, ("unwagered", pos, zone))
            rnd.unwagered.setdefault(pos, {}).setdefault(zone, []).append(c)
    if rnd.unwagered:
        rnd.log("deal", step.cite, f"position{'s' if len(rnd.unwagered) > 1 else ''} "
                f"{', '.join(map(str, sorted(rnd.unwagered)))} (no wager): dealt {n} cards each, face {face}")
