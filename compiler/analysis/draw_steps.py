"""One instruction of the draw walk (:mod:`compiler.analysis.draw_walk`): run in place by the engine's own
executor, or a branch over the cards the shoe can give or the choices the player has."""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Callable

from compiler.analysis.draw_model import ZERO, DrawLimit, State, Value

Branch = Callable[[], Value]

_RUN_IN_PLACE = frozenset({"settle", "announce", "burn", "reveal"})


def _after_step(st: State) -> None:
    """As the engine does after each step: the round stops when no seat is left in it."""
    if not any(not s.ended for s in st.rnd.seats.values()):
        st.rnd.stopped = True


def _when(walk, st: State, step) -> bool:
    return step.when is None or bool(step.when(walk.ctx(st)))


def _meets(walk, st: State, step) -> bool:
    """Whether the seat is among the players the step acts on."""
    ctx = walk.ctx(st)
    return st.seat in walk.table._players(ctx, st.rnd, step)


def _run(walk, st: State, step) -> None:
    ctx = walk.ctx(st)
    walk.table._run_step(ctx, st.rnd, step, [])
    ctx.seat = None
    _after_step(st)


def _freeze(st: State) -> None:
    if st.frozen is None:
        st.frozen = st.removed


def advance(walk, st: State) -> Branch | None:
    """Run instruction ``st.pc``: in place (None) or as a branch (its value from ``st``, which it leaves as is)."""
    op = walk.prog.ops[st.pc]
    kind, step = op[0], op[1]
    if st.pending is not None and _reads_pending(walk, st):
        return _pending_branch(walk, st)
    if kind == "block":
        st.pc = st.pc + 1 if _when(walk, st, step) else op[2]
        return None
    if kind == "loop":
        return _loop(walk, st, op)
    if kind == "back":
        st.pc = op[2]
        return None
    if kind == "deal1":
        return _deal(walk, st, op)
    if step.kind in _RUN_IN_PLACE:
        if step.kind == "reveal" and st.pending is not None and step.params.get("zone") == st.pending[0]:
            return _pending_branch(walk, st, reveal=True)
        if _when(walk, st, step):
            _run(walk, st, step)
        st.pc += 1
        return None
    if step.kind == "decide":
        return _decide(walk, st, step)
    if step.kind == "offer":
        return _offer(walk, st, step)
    if step.kind == "split":
        return walk.splits.step(st, step)
    raise DrawLimit(f"step {step.id} ({step.cite}) is a {step.kind!r} step, which the draw walk does not model")


# -- loops ------------------------------------------------------------------------------------------
def _loop(walk, st: State, op) -> Branch | None:
    step, end, head = op[1], op[2], st.pc
    passes = dict(st.passes)
    seat_ctx = st.seat if step.players is not None else None
    if head not in passes:  # entering: the step's condition, and the players it loops for
        if not _when(walk, st, step) or (step.players is not None and not _meets(walk, st, step)):
            st.pc = end
            return None
        passes[head] = 0
    cond, until = step.exprs.get("while"), step.exprs.get("until")  # (validate allows one of them)
    if ((cond is not None and not cond(walk.ctx(st, seat_ctx)))
            or (until is not None and passes[head] > 0 and until(walk.ctx(st, seat_ctx)))):  # until: after a pass
        del passes[head]
        st.passes = tuple(sorted(passes.items()))
        st.pc = end
        return None
    if passes[head] == int(step.params["bound"]):
        raise DrawLimit(f"the bound of step {step.id} ({step.cite}) can be reached: the walk does not value the "
                        "wagers returned there")
    passes[head] += 1
    st.passes = tuple(sorted(passes.items()))
    st.pc += 1
    return None


# -- cards ----------------------------------------------------------------------------------------
def _deal(walk, st: State, op) -> Branch | None:
    step, first = op[1], op[2]
    if first and step.when is not None and not _when(walk, st, step):
        st.pc = op[3]
        return None
    to = step.params.get("to", "players")
    if to == "players" and not _meets(walk, st, step):
        st.pc += 1
        return None
    if to == "dealer" and step.params.get("face", "up") == "down" and st.pc < walk.prog.suffix:
        if st.pending is not None:
            raise DrawLimit(f"step {step.id} ({step.cite}) deals a second face-down card before the dealer's play")
        st.pending = (step.params.get("zone", "cards"), frozenset(range(len(walk.classes))))
        st.pc += 1
        return None
    def branch() -> Value:
        total, acc = 0, ZERO
        for n, value in dealt_values(walk, st):
            total += n
            acc += n * value
        return acc / total
    branch.dealt = True  # (a deal: its children may be valued apart, see draw_parallel)
    return branch


def dealt_values(walk, st: State, classes=None):
    """(count, value) for each class of card the deal of instruction ``st.pc`` may give (``classes``: only
    those), the value of the position after the engine's deal step has dealt it. A face-up card to the
    seat or the dealer: the position's key is known before the deal (``keys_after_deal``), so a position
    reached before (the same cards in another order) is not dealt again; the key is checked on each deal."""
    op = walk.prog.ops[st.pc]
    step = op[1]
    one = walk.one_card(step)
    p = step.params
    owner = {"players": "player", "dealer": "dealer"}.get(p.get("to", "players"))
    if p.get("face", "up") != "up":
        owner = None
    zone = p.get("zone", "cards")
    left = walk.left(st)
    if sum(left) <= 0:
        raise DrawLimit(f"the shoe runs out at step {step.id} ({step.cite})")
    keys = walk.keys_after_deal(st, owner, zone) if owner else None
    for c, n in enumerate(left):
        if n <= 0 or (classes is not None and c not in classes):
            continue
        removed = walk.take(st.removed, c)
        k = keys(c, removed) if keys else None
        value = walk.dealt.get(k) if k is not None else None
        if value is None:
            child = st.copy(pc=st.pc + 1, removed=removed)
            walk.shoe.queue = [walk.rep[c]]
            _run(walk, child, one)
            if k is not None and walk.key(child) != k:
                raise DrawLimit(f"step {step.id} ({step.cite}) changes more than the zone it deals to")
            value = walk.value(child)
            if k is not None:
                walk.dealt[k] = value
        yield n, value


def _reads_pending(walk, st: State) -> bool:
    """Whether instruction ``st.pc`` reads the face-down card of the dealer still to be dealt: it reads the
    dealer's cards, or its zone whole, or at a written position past the cards the zone holds (the up card
    read as ``card(dealer.hand, 1)`` beside a face-down second card is not the face-down card)."""
    zone = st.pending[0]
    reads = walk.prog.reads[st.pc]
    if ("dealer", None) in reads:
        return True
    if ("dealer", zone) not in reads:
        return False
    whole, at = walk.prog.positions_read(st.pc)
    return ("dealer", zone) in whole or at.get(("dealer", zone), 0) > len(st.rnd.dealer.get(zone) or ())


def _pending_branch(walk, st: State, reveal: bool = False) -> Branch:
    """The face-down card read by this instruction: its classes grouped by what the instruction does with
    each (a condition: by its value), each group a branch that knows only its group. A reveal, or a read by
    a step that asks the player, deals the card (no decision may follow before the dealer's play)."""
    zone, allowed = st.pending
    op = walk.prog.ops[st.pc]
    asks = op[0] in ("deal1", "loop") or op[1].kind not in _RUN_IN_PLACE | {"block"}
    if asks and not reveal:  # (a revealed card is seen by the player: dealing it then is the game)
        if any(o[1].kind in ("decide", "offer", "split") for o in walk.prog.ops[st.pc:walk.prog.suffix]):
            raise DrawLimit(f"step {op[1].id} ({op[1].cite}) reads the face-down card of {zone} before the "
                            "player's decisions end; the draw walk reads it only by a condition")

    def branch() -> Value:
        left = walk.left(st)
        groups: dict = {}
        for c in sorted(allowed):
            if left[c] <= 0:
                continue
            child = st.copy(pending=None)
            child.rnd.dealer.setdefault(zone, []).append(walk.rep[c])
            if reveal or asks:  # dealt for good
                child.removed = walk.take(st.removed, c)
                groups[("dealt", c)] = (left[c], [c], child)
                continue
            nxt = advance(walk, child)
            if nxt is not None:
                raise DrawLimit(f"step {op[1].id} ({op[1].cite}) reads the face-down card and branches")
            child.rnd.dealer[zone].remove(walk.rep[c])
            if not child.rnd.dealer[zone]:
                del child.rnd.dealer[zone]
            k = walk.key(child)
            n, cs, rep = groups.get(k, (0, [], child))
            groups[k] = (n + left[c], cs + [c], rep)
        total = sum(n for n, _, _ in groups.values())
        acc = ZERO
        for n, cs, child in groups.values():
            if child.pending is None and not (reveal or asks):
                child.pending = (zone, frozenset(cs))
            acc += Fraction(n, total) * walk.value(child)
        return acc
    return branch


# -- the player's decisions ---------------------------------------------------------------------------
def choices_of(walk, st: State, step) -> list:
    ctx = walk.ctx(st, st.seat)
    return [c for c in step.choices if c.when is None or c.when(ctx)]


def asked(walk, st: State, step, may: bool = True) -> list | None:
    """The choices the seat has at ``step`` (the shoe then frozen for the dealer's play: the first decision),
    or None when it has none (the step is passed: ``may`` false, or its conditions do not hold)."""
    avail = choices_of(walk, st, step) if may and _when(walk, st, step) and _meets(walk, st, step) else []
    if not avail:
        st.pc += 1
        return None
    _freeze(st)
    return avail


def _decide(walk, st: State, step) -> Branch | None:
    avail = asked(walk, st, step)
    return None if avail is None else (lambda: best_of(walk, st, step, {c.id: chosen(walk, st, step, c.id)
                                                                         for c in avail}))


def best_of(walk, st: State, step, values: dict) -> Value:
    """The best of the choices' values (optimal play: the largest expected net; of equal ones, the smaller
    stake, then the first choice), kept for the chart where the position is in it."""
    chart = walk.chart
    if chart is not None and chart.shown(st):
        chart.record(st, step, values)
    return max(values.values())


def chosen(walk, st: State, step, choice: str) -> Value:
    """The value of choice ``choice`` at ``step`` (the engine's executor takes it)."""
    child = st.copy(pc=st.pc + 1)
    walk.player.choice = choice
    _run(walk, child, step)
    return walk.value(child)


def _offer(walk, st: State, step) -> Branch | None:
    wager = step.params["wager"]
    if not _when(walk, st, step) or not walk.table.offered(wager) or not _meets(walk, st, step):
        st.pc += 1
        return None
    equal_to = step.params.get("equal_to")
    if equal_to is None:
        raise DrawLimit(f"step {step.id} ({step.cite}) offers the {walk.game.wagers[wager].name} with no amount "
                        "given by the chapter (`equal_to`); the draw walk values fixed amounts only")
    amount = walk.ctx(st, st.seat).wager(equal_to)
    _freeze(st)

    def made(amt: Decimal) -> Value:
        child = st.copy(pc=st.pc + 1)
        walk.player.amount = amt
        _run(walk, child, step)
        walk.player.amount = Decimal(0)
        return walk.value(child)
    return lambda: best_of(walk, st, step, {"no": made(Decimal(0)), **({wager: made(amount)} if amount else {})})


def one_card(step):
    """The deal step dealing one card (its condition read once, by the walk, before its first card)."""
    return replace(step, params={**dict(step.params), "count": 1}, when=None)
