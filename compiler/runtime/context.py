"""The context compiled rule functions see: what a condition reads and what an outcome does."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Mapping

from compiler.runtime.cards import card_str
from compiler.runtime.chance import dice_attr
from compiler.runtime.errors import EngineError
from compiler.runtime.money import Odds, fmt_money, money, to_cents
from compiler.runtime.rankings import RankingError
from compiler.runtime.state import Seat, Wager, wager_name


def _also(cites: list[str], cite: str) -> list[str]:
    """``cites`` and the payout's or paytable row's ``cite``, unless a rule's cite already names it (a rule
    citing "§ 915.10(b)(3); § 915.10(c)" paid at the odds of § 915.10(c) is ruled by two provisions, not three)."""
    have = {c.strip() for x in cites for c in x.split(";")}
    return cites if cite.strip() in have else [*cites, cite]


class Context:
    """What a compiled condition or outcome reads and does. One per round."""

    def __init__(self, table: "Table", rnd: "Round"):
        self.table = table
        self.game = table.game
        self.r = rnd
        self.seat: Seat | None = None
        self.event: Mapping[str, Any] = {}
        self.cite = ""
        self.setting: tuple | None = None  # (high, low) of a candidate setting (pai gow)
        self.setting_pool: list | None = None
        self.instance: Wager | None = None  # the instance a settle rule runs for (a wager declared several: true)

    @property
    def seat(self) -> Seat | None:
        return self._seat

    @seat.setter
    def seat(self, s: Seat | None) -> None:  # the hand acted on names itself in the log (a split hand)
        self._seat = s
        if self.r is not None:
            self.r.acting = s

    # -- reading ------------------------------------------------------------------------------
    def zone(self, owner: str, zone: str | None) -> list:
        if owner == "player":
            if self.seat is None:
                raise EngineError("'player' used outside a player step")
            holder = self.seat.zones
        elif owner == "dealer":
            holder = self.r.dealer
        elif owner == "community":
            holder = self.r.community
        elif owner == "setting":
            if self.setting is None:
                raise EngineError("'setting' used outside the setting of hands (a house way or a legality rule)")
            high, low = self.setting
            return list(high) if zone == "high" else list(low) if zone == "low" else list(high) + list(low)
        else:
            raise EngineError(f"unknown card owner {owner!r}")
        if zone is None or zone == "cards":
            out: list = []
            for z in holder.values():
                out.extend(z)
            return out
        return list(holder.get(zone, ()))

    def ranking(self, rid: str):
        return self.table.ranking(rid)

    def _refused(self, e: RankingError) -> EngineError:
        """A hand the ranking cannot rank (too few cards for it): the engine's error naming the rule's §."""
        return EngineError(f"{e} (a rule of {self.cite or 'the procedure'} ranks a hand of that many cards)")

    def hand(self, rid: str, cards) -> Any:
        cards = [c for c in cards if c is not None]
        try:
            return self.table.ranking(rid).evaluate(cards)
        except RankingError as e:
            raise self._refused(e) from None

    def best(self, rid: str, cards) -> Any:
        cards = [c for c in cards if c is not None]
        try:
            return self.table.ranking(rid).best(cards)[0]
        except RankingError as e:
            raise self._refused(e) from None

    # hands valued by points (a ranking of kind: points; rid None: the chapter's only one)
    def total(self, cards, rid: str | None = None) -> int:
        return self.table.points_ranking(rid).total(cards)

    def soft(self, cards, rid: str | None = None) -> bool:
        return self.table.points_ranking(rid).soft(cards)

    def natural(self, cards, rid: str | None = None) -> bool:
        return self.table.points_ranking(rid).natural(cards)

    def bust(self, cards, rid: str | None = None) -> bool:
        return self.table.points_ranking(rid).is_bust(cards)

    def points(self, cards, rid: str | None = None) -> int:
        return self.table.points_ranking(rid).points(cards)

    def spread(self, rid: str, a, b) -> int:
        """How many ranks of ranking ``rid``'s order lie strictly between the rank of the one card of ``a`` and
        that of ``b`` (0 when the ranks are equal or consecutive): the spread of Red Dog's two cards."""
        order = self.table.ranking(rid).order
        where = []
        for cards in (a, b):
            cards = [c for c in cards if c is not None]
            if len(cards) != 1 or cards[0] >= 52 or cards[0] // 4 not in order:
                raise EngineError(f"spread() reads one card of a rank of ranking {rid!r}, got {len(cards)} "
                                  f"card(s) (a rule of {self.cite or 'the procedure'})")
            where.append(order.index(cards[0] // 4))
        return max(abs(where[0] - where[1]) - 1, 0)

    def card(self, cards, position: int) -> list:
        """The card at ``position`` (1 = the first dealt) of the cards, as a list of one card or none."""
        cards = [c for c in cards if c is not None]
        return cards[position - 1:position]

    def category(self, value) -> str:
        return value.category

    def at_least(self, rid: str, value, category: str, rank: str | None = None) -> bool:
        return self.table.ranking(rid).category_at_least(value, category, rank)

    def is_hand(self, rid: str, cards, hand_id: str) -> bool:
        try:
            return self.table.ranking(rid).matches_hand([c for c in cards if c is not None], hand_id)
        except RankingError as e:
            raise self._refused(e) from None

    def rank(self, rid: str, cards) -> tuple:
        try:
            return self.table.ranking(rid).rank_key([c for c in cards if c is not None])
        except RankingError as e:
            raise self._refused(e) from None

    def groups(self, rid: str, cards, size) -> int:
        return self.table.ranking(rid).group_count(cards, int(size))

    def category_rank(self, value) -> int:
        return -value.category_index

    def can(self, fn) -> bool:
        if self.setting_pool is None:
            raise EngineError("can() is used only in a house way (over the settings of the hand being set)")
        saved = self.setting
        try:
            for cand in self.setting_pool:
                self.setting = cand
                if fn(self):
                    return True
            return False
        finally:
            self.setting = saved

    def _one(self, wager: str) -> Wager | None:
        """The player's wager ``wager``: inside a rule run per instance of it, that instance; a wager of several
        instances is otherwise none (validate refuses reading one there)."""
        i = self.instance
        if i is not None and i.id == wager and self.seat is not None and self.seat.wagers.get(i.key) is i:
            return i
        return self.seat.wagers.get(wager) if self.seat else None

    def has(self, wager: str) -> bool:
        w = self._one(wager)
        if w is None and self.seat is not None and wager in self.table.several:  # any instance in action
            return any(x.id == wager and x.outcome is None for x in self.seat.wagers.values())
        return w is not None and w.outcome is None

    def placed(self, wager: str) -> bool:
        return self.seat is not None and any(w.id == wager for w in self.seat.history)

    def wager(self, wager: str) -> Decimal:
        w = self._one(wager)
        return w.amount if w is not None else Decimal(0)

    def flag(self, name: str) -> bool:
        return self.seat is not None and name in self.seat.flags

    def chose(self, decision: str, choice: str) -> bool:
        return self.seat is not None and self.seat.choices.get(decision) == choice

    def option(self, name: str) -> Any:
        return self.table.options.get(name)

    def offered(self, wager: str) -> bool:
        return self.table.offered(wager)

    def active(self) -> bool:
        return self.seat is not None and not self.seat.ended

    def count(self, cards) -> int:
        return len([c for c in cards if c is not None])

    # -- dice and wheels (the latest roll or spin of the round) ------------------------------------
    def dice_attr(self, name: str) -> Any:
        if self.r.dice is None:
            raise EngineError(f"dice.{name} read before the round's dice were rolled")
        return dice_attr(self.r.dice, name)

    def pocket_attr(self, name: str) -> Any:
        if self.r.pocket is None:
            raise EngineError(f"pocket.{name} read before the wheel was spun")
        if name not in self.r.pocket:
            raise EngineError(f"the pocket {self.r.pocket['label']} has no attribute {name!r}")
        return self.r.pocket[name]

    def dice_count(self, face) -> int:
        """How many dice of the latest roll show ``face``."""
        if self.r.dice is None:
            raise EngineError("dice_count() read before the round's dice were rolled")
        return sum(1 for v in self.r.dice if v == face)

    def _chosen(self, wager: str) -> tuple[str, ...]:
        """The numbers of the player's wager ``wager`` (none where the player has not placed it: as
        ``wager(W)`` is 0, ``hits(W)`` is then 0 and ``picked(W, v)`` false)."""
        if self.seat is None:
            raise EngineError(f"the numbers of a {wager!r} read outside a player step")
        w = self._one(wager)
        return w.on if w is not None else ()

    def hits(self, wager: str) -> int:
        """How many dice (or the pocket) of the latest roll or spin show one of the wager's chosen numbers."""
        on = self._chosen(wager)
        return sum(1 for v in self.r.showing if v in on)

    def matched(self, wager: str) -> int:
        """How many of the wager's chosen numbers the latest roll or spin shows (each counted once)."""
        on = self._chosen(wager)
        return len(set(on) & set(self.r.showing))

    def picked(self, wager: str, value) -> bool:
        """Whether ``value`` (a total, a face, a pocket's label) is among the wager's chosen numbers."""
        return str(value) in self._chosen(wager)

    def suited(self, cards) -> bool:
        """The cards (at least one, no joker) all of one suit (a Dragon Tiger suited tie)."""
        cards = [c for c in cards if c is not None]
        return bool(cards) and all(c < 52 for c in cards) and len({c % 4 for c in cards}) == 1

    def event_attr(self, name: str) -> Any:
        if name not in self.event:
            raise EngineError(f"event has no attribute {name!r}")
        return self.event[name]

    def round_attr(self, name: str) -> Any:
        return self.r.attr(name)

    def _state_of(self, name: str, cite: str = "") -> dict:
        """The values ``name`` is kept in: the round's, the instance's a rule runs for (the state a wager of
        several instances keeps), or the current player's (``per: player``)."""
        if self.instance is not None and name in self.instance.kept:
            return self.instance.kept
        if name in self.r.state:
            return self.r.state
        if (self.game.state.get(name) or {}).get("per") == "player":
            if self.seat is None:
                raise EngineError(f"state.{name} is kept per player: it is read or set in a player step only"
                                  + (f" ({cite})" if cite else ""))
            return self.seat.state
        raise EngineError(f"unknown round state {name!r}" + (f" ({cite})" if cite else ""))

    def state_attr(self, name: str) -> Any:
        return self._state_of(name)[name]

    def _each(self, fn) -> Iterable[bool]:
        saved = self.seat
        try:
            for s in self.r.seats_in_round():
                self.seat = s
                yield bool(fn(self))
        finally:
            self.seat = saved

    def any_player(self, fn) -> bool:
        return any(list(self._each(fn)))

    def count_players(self, fn) -> int:
        return sum(1 for x in self._each(fn) if x)

    # -- doing --------------------------------------------------------------------------------
    def _w(self, wager: str, cite: str) -> Wager | None:
        if self.seat is None:
            raise EngineError("a wager outcome outside a player step")
        w = self._one(wager)
        if w is None or w.outcome is not None:
            return None  # not placed (an optional wager) or already settled: nothing to do
        return w

    def _targets(self, wager: str, cite: str) -> list[Wager]:
        if wager == "*":
            if self.seat is None:
                raise EngineError("a wager outcome outside a player step")
            return [w for w in self.seat.wagers.values() if w.outcome is None]
        i = self.instance
        if wager in self.table.several and (i is None or i.id != wager):
            if self.seat is None:  # a decide choice's outcome on a wager of several: every instance in action
                raise EngineError("a wager outcome outside a player step")
            return [w for w in self.seat.wagers.values() if w.id == wager and w.outcome is None]
        w = self._w(wager, cite)
        return [w] if w is not None else []

    def win(self, wager: str, cite: str, payout: str | None = None, odds: Odds | None = None,
            paytable: str | None = None, value: Any = None) -> None:
        for w in self._targets(wager, cite):
            cites = [cite]
            if paytable is not None:
                found = self.table.paytable_odds(paytable, value)
                if found is None:
                    what = "the hand" if self.game.paytables[paytable].ranking else f"the value {value!r}"
                    raise EngineError(f"no row of paytable {paytable!r} matches {what} of seat {self.seat.number}; "
                                      f"the rule at {cite} lets a hand win that the paytable does not pay")
                odds, row_cite, label = found
                cites = _also(cites, row_cite)
                desc = f"{label} pays {odds}"
            else:
                if odds is None:
                    pid = payout or self.game.wagers[w.id].pays
                    if pid is None:
                        raise EngineError(f"wager {w.id!r} has no payout odds in the spec")
                    p = self.game.payouts[pid]
                    odds, pcite = self.table.payout_odds(p), p.cite
                    cites = _also(cites, pcite)
                    if odds is None:  # a partial chapter: the odds are not in the sources
                        self.table.settle_unpriced(self, w, p, cites)
                        continue
                    if p.odds is None:
                        desc = f"pays {odds} (the odds selected in the Rules Submission, option {p.odds_option!r})"
                        self.table.settle_win(self, w, odds, cites, desc)
                        continue
                desc = f"pays {odds}"
            self.table.settle_win(self, w, odds, cites, desc)

    def bonus(self, wager: str, cite: str, paytable: str, value: Any) -> None:
        """``bonus W by T on VALUE``: a bonus on the player's own wager ``W``, paid by paytable ``T`` at the
        row ``VALUE`` meets, on the amount of ``W``. Nothing is placed and ``W`` is settled by its own rules
        (a bonus is no settlement): the bonus is part of ``W``'s result (its net, with the bonus's
        citations) and is logged on its own. A hand on no row of ``T`` earns no bonus (a note says so)."""
        if self.seat is None:
            raise EngineError(f"a bonus outside a player step ({cite})")
        placed = [w for w in self.seat.history if w.id == wager and w.outcome != "void"]
        one = self._one(wager)
        if one is not None and one.instance:
            placed = [one]
        if not placed:
            return  # the wager was not made: no bonus on it
        w = placed[-1]
        if self.game.wagers[wager].progressive:
            raise EngineError(f"{cite}: a bonus on {wager!r}, a wager on a progressive meter, is not modelled")
        name = self.game.paytables[paytable].title or self.game.wagers[wager].name
        found = self.table.paytable_odds(paytable, value, w.amount)
        if found is None:
            self.r.log("note", cite, f"no {name}: the hand is on no row of paytable {paytable!r}",
                       seat=self.seat.number, wager=wager)
            return
        odds, row_cite, label = found
        if odds.kind == "meter":
            raise EngineError(f"{cite}: a bonus on a wager is paid at odds, not from a progressive meter")
        amount, rounded = to_cents(odds.payout(w.amount))
        text = f"{label} pays {odds} on the {fmt_money(w.amount)} {self.game.wagers[wager].name}" + (
            " (rounded down to the cent)" if rounded else "")
        w.bonus += amount
        for c in (cite, row_cite):
            if c not in w.bonus_cites:
                w.bonus_cites.append(c)
        w.bonus_detail += f"; {name} {fmt_money(amount, signed=True)} ({label})"
        self.r.log("bonus", f"{cite}; {row_cite}", f"{name} {fmt_money(amount)}: {text}", seat=self.seat.number,
                   wager=wager, amount=w.amount, net=amount)

    def lose(self, wager: str, cite: str) -> None:
        for w in self._targets(wager, cite):
            self._finish(w, "lose", -w.amount, [cite], "collected")

    def push(self, wager: str, cite: str) -> None:
        for w in self._targets(wager, cite):
            self._finish(w, "push", Decimal(0), [cite], "push: neither paid nor collected")

    def void(self, wager: str, cite: str) -> None:
        for w in self._targets(wager, cite):
            self._finish(w, "void", Decimal(0), [cite], "void: returned to the player")

    def surrender(self, wager: str, fraction: Fraction, cite: str) -> None:
        for w in self._targets(wager, cite):
            lost, rounded = to_cents(w.amount * money(fraction))
            self._finish(w, "surrender", -lost, [cite],
                         f"surrendered: {fmt_money(lost)} collected, {fmt_money(w.amount - lost)} returned")

    def _finish(self, w: Wager, outcome: str, net: Decimal, cites: list[str], text: str) -> None:
        w.outcome, w.net, w.cites, w.detail = outcome, net, cites, text
        self.r.log(outcome, "; ".join(cites), f"{wager_name(self.game, w)} {fmt_money(w.amount)}: {text} "
                   f"(net {fmt_money(net, signed=True)})", seat=self.seat.number, wager=w.key,
                   amount=w.amount, net=net)

    def place(self, wager: str, amount, cite: str) -> None:
        self.table.place(self.r, self.seat, wager, money(amount), cite)

    def set_flag(self, name: str, cite: str) -> None:
        if self.seat is not None:
            self.seat.flags.add(name)
        else:
            self.r.flags.add(name)

    def set_state(self, name: str, value: Any, cite: str) -> None:
        """``set NAME = EXPR``: a value of the round state (declared in the chapter's ``state:``), logged."""
        held = self._state_of(name, cite)
        if isinstance(value, Fraction) and value.denominator == 1:
            value = int(value)
        if held[name] == value and type(held[name]) is type(value):
            return  # set again to the value it has (by the rule for another player): nothing changes
        held[name] = value
        of = f" ({wager_name(self.game, self.instance)})" if self.instance is not None and held is self.instance.kept \
            else ""
        self.r.log("state", cite, f"{name} = {'on' if value is True else 'off' if value is False else value}{of}",
                   seat=self.seat.number if held is not self.r.state else None)

    def clear_flag(self, name: str, cite: str) -> None:
        (self.seat.flags if self.seat is not None else self.r.flags).discard(name)

    def end(self, cite: str) -> None:
        if self.seat is not None and not self.seat.ended:
            self.seat.ended = True
            self.r.log("end", cite, "participation in the round ends", seat=self.seat.number)

    def void_round(self, cite: str) -> None:
        self.r.void_round(cite)

    def reshuffle(self, cite: str) -> None:
        if not self.r.drawn:  # before any card of the round: reshuffle now
            self.table.reshuffle_now(self.r, cite)
        else:
            self.r.reshuffle = cite

    def remove_deck(self, cite: str) -> None:
        if not self.r.drawn:  # before any card of the round: the deck is replaced now
            self.r.log("remove_deck", cite, "deck removed from the table; a new deck is used")
            self.table.reshuffle_now(self.r, cite)
            return
        self.r.remove_deck = cite
        self.r.reshuffle = cite

    def discard_card(self, cite: str) -> None:
        cards = self.event.get("cards") or ()
        self.r.log("discard", cite, f"{' '.join(card_str(c) for c in cards if c is not None) or 'card'} "
                   "placed in the discard rack, not used")

    def use_card(self, cite: str) -> None:
        cards = [c for c in (self.event.get("cards") or ()) if c is not None]
        if not self.table.scripted:  # a hand history already shows where the card went
            self.r.reuse.extend(cards)
        self.r.log("use", cite, "card drawn in error used as the next card")

    def note(self, text: str, cite: str) -> None:
        self.r.log("note", cite, text, seat=self.seat.number if self.seat else None)

