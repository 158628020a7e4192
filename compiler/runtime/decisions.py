"""Decisions: the players' choices (``decide``) and the optional wagers offered mid-round (``offer``)."""
from __future__ import annotations

from compiler.runtime.context import Context
from compiler.runtime.definition import Step
from compiler.runtime.errors import RefusedError
from compiler.runtime.money import money
from compiler.runtime.state import Round, Seat, wager_name
from compiler.runtime.cards import card_str
from compiler.runtime.strategy import view_of


def choose(table, ctx: Context, rnd: Round, step: Step, s, who: str):
    """The choice of hand ``s`` at ``step`` (its strategy, or the hand history), logged with its § and its
    actions applied; None where no choice is available to it. Within a decision taken per instance
    (``each``), ``ctx.instance`` is the instance it concerns: the player is shown it, and the log names it."""
    avail = [c for c in step.choices if c.when is None or c.when(ctx)]
    if not avail:
        return None
    ids = [c.id for c in avail]
    i = ctx.instance
    about = wager_name(table.game, i) if i is not None else ""
    view = view_of(rnd, s, i.key if i is not None else "", about)
    choice = table._strategies(s.number).choose(step.id, ids, view)
    if choice not in ids:
        raise RefusedError(f"{who}: {choice!r} is not a choice at {step.id!r} ({step.cite}); choices are {ids}")
    c = avail[ids.index(choice)]
    s.choices[step.id] = choice
    rnd.log("decision", c.cite, f"chooses {choice} ({step.id}{', ' + about if about else ''})", seat=s.number)
    if c.then is not None:
        ctx.cite = c.cite
        c.then(ctx)
    return c


def decide(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    """Each player picks one available choice: their strategy, or the hand history; with ``each: W``, one for each
    instance of ``W`` in action, in the order placed, the choice reading and acting on that instance alone."""
    each = step.params.get("each")
    for s in table._players(ctx, rnd, step):
        ctx.seat = s
        try:
            for w in ([w for w in s.wagers.values() if w.id == each and w.outcome is None] if each else [None]):
                ctx.instance = w
                choose(table, ctx, rnd, step, s, f"seat {s.number}")
                if rnd.stopped:
                    return
        finally:
            ctx.instance = None
    ctx.seat = None


def offer(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    """Each player may place the optional wager (``equal_to``: of the amount of that wager)."""
    p = step.params
    wager = p["wager"]
    if not table.offered(wager):
        return
    for s in table._players(ctx, rnd, step):
        ctx.seat = s
        amt = money(table._strategies(s.number).offer(wager, view_of(rnd, s)))
        if amt == 0:
            continue
        equal_to = p.get("equal_to")
        if equal_to is not None and amt != ctx.wager(equal_to) and not any(
                w.id == equal_to for w in s.history if w.amount == amt):
            raise RefusedError(f"seat {s.number}: the {table.game.wagers[wager].name} must equal the "
                               f"{table.game.wagers[equal_to].name} ({step.cite})")
        table.place(rnd, s, wager, amt, step.cite)
    ctx.seat = None


def split(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    """Each hand meeting ``players`` picks a choice; ``split`` makes its second card of ``zone`` a new hand of
    the position (the hand's flags, per-player state and choices, and a copy of ``wager``), and each of the
    two hands is dealt one card. A hand is offered the split again while it meets ``players``, up to
    ``hands`` hands a position; the hands made are offered it after the hand they came from."""
    p = step.params
    zone, wager, most = p["zone"], p["wager"], int(p["hands"])
    queue = list(table._players(ctx, rnd, step))
    i = 0
    while i < len(queue):
        s = queue[i]
        i += 1
        at = i
        while not s.ended and sum(h.number == s.number for h in rnd.seats.values()) < most:
            ctx.seat = s
            if step.players is not None and not step.players(ctx):
                break
            c = choose(table, ctx, rnd, step, s, s.who)
            if c is None:
                break
            if c.id != "split" or rnd.stopped:
                break
            cards, stake = s.zones.get(zone) or [], s.wagers.get(wager)
            if len(cards) < 2 or stake is None or stake.outcome is not None:
                raise RefusedError(f"{s.who}: a split needs two cards in {zone!r} and an open {wager!r} "
                                   f"({step.cite})")
            new = Seat(s.number, hand=max(h.hand for h in rnd.seats.values() if h.number == s.number) + 1)
            new.flags, new.state, new.choices = set(s.flags), dict(s.state), dict(s.choices)
            new.zones[zone] = [cards.pop(1)]
            rnd.seats[new.key] = new
            rnd.log("split", c.cite, f"splits the pair in {zone}: {new.who} is made with "
                    f"{card_str(new.zones[zone][0])}", seat=s.number)
            ctx.seat = new
            table.place(rnd, new, wager, stake.amount, c.cite)
            for h in (s, new):
                ctx.seat = h
                card = table._draw(rnd, ("player", h.number, zone))
                h.zones[zone].append(card)
                rnd.log("deal", c.cite, f"dealt {card_str(card) if card is not None else 'a card'} face up ({zone})",
                        seat=h.number)
            queue.insert(at, new)
            at += 1
            if rnd.stopped:
                return
    ctx.seat = None
