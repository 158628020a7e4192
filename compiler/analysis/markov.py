"""Exact figures of a chapter whose round loops (``do: repeat``: roll until a 7 or the point) by an
absorbing Markov chain built from the compiled game itself.

The round engine plays the chapter against a :class:`_PathChance` that gives, along a chosen path,
one face of every die (each with probability 1/n) and, past the path's end, stops the round so that
every face can be tried in turn. At the start of every pass of a ``repeat`` step the engine tells
the analysis (``table.loop_observer``); there the round is cut, and what the round carries into the
rest of the loop is its *chain state*: the loop, the round state (``state:``), the round's flags and
the wagers still in action (and the last roll where the pass does not begin by rolling again). The
chain's transitions and the money settled on the way are found by replaying the round from the
start along the first path that reached a state and trying every chance outcome of one pass; no
probability of the game is written here. Solving ``(I - Q) V = r`` exactly (Fractions) gives, for
each wager on its own, its expected net and the chances it is won, lost, pushed or returned.

A wager no longer in action at a pass has nothing more to gain or lose (a wager is settled once),
so such a state ends the chain. A wager that stays on the layout when the round ends (``stays:
until_settled``, a Craps Come wager with its come point) is followed into the next round: the round's end
with it open is a state of the chain (the wagers carried and the state they keep), from which the next
round is played with it in action, the seat making no new wager (only the carried wager's money counts).
The loop's ``bound`` is not part of the chain: the method says by how little reaching it can change a
figure (at most the chance of ``bound`` passes in a row).

The constructs this method models are declared below (an allow-list); a chapter with any other is
refused, naming the first one (no figure rather than a wrong one).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from compiler.analysis import contract
from compiler.analysis.chance_exact import placed_on
from compiler.analysis.markov_several import FirstInstance as _FirstInstance, several_refusal
from compiler.ir.model import walk_steps as _walk
from compiler.analysis.model import Figure, Policy, Report
from compiler.analysis.stakes import unrounded_stake
from compiler.lang.syntax import BinOp, BoolOp, Call, Lit, Neg, Not, Ref
from compiler.runtime.carry import Carried
from compiler.runtime.chance import sets_of
from compiler.runtime.engine import Table
from compiler.values.chance import DICE_ATTRS

# ---- what this method models (anything else is refused, by name) ------------------------------------
STEP_KINDS = frozenset({"roll", "settle", "repeat", "block", "announce", "offer", "decide"})  # decide: by policy
FUNCTIONS = frozenset({"has", "placed", "wager", "option", "offered", "any_player",  # one seat is analysed
                       "dice_count",  # the latest roll's faces, as dice.NAME
                       "picked", "hits", "matched"})  # a wager's chosen numbers: one chain per legal set
ROUND_ATTRIBUTES = frozenset({"roll"})  # round.NAME read by a rule; state.NAME: any declared round state
# dice.NAME: every attribute of the latest roll (DICE_ATTRS); each is a function of the faces as a multiset
ACTIONS = frozenset({"win", "lose", "push", "return", "set_state", "set", "clear", "note"})
WAGER_FIELDS = ("not required, requiring no other wager, no meter, any amount, placed before the round (on chosen "
                "numbers too) or offered during it equal to another wager (`offer` with `equal_to`) on no chosen numbers")

OUTCOMES = ("win", "lose", "push", "void")
MAX_STATES = 5000  # a chain larger than this is refused (a budget, never a long silent run)


class Refused(ValueError):
    """The chapter uses a construct this method does not model (the message names it)."""


def has_loop(chapter) -> bool:
    """Whether the chapter's procedure has a ``repeat`` step (then this method is the one to use)."""
    return any(s.kind == "repeat" for s in _walk(chapter.procedure))


def refusal(game, chapter, offered=None) -> str | None:
    """The first construct of the chapter this method does not model, or None. ``offered`` (wager id ->
    bool): the wagers not offered, the steps naming one and the rules acting only on such wagers are left
    out, as from the contract's active procedure (they never act in the rounds played)."""
    keep = None if offered is None else (lambda s: contract.step_offered(s, game, offered))
    for s in _walk(chapter.procedure, keep):
        if s.kind not in STEP_KINDS:
            return f"step {s.id!r} ({s.cite}): the step kind {s.kind!r} is not modelled by the Markov chain method"
        if s.kind == "offer" and dict(s.params).get("equal_to") is None:
            return (f"step {s.id!r} ({s.cite}): an offer of no stated amount (no 'equal_to') is not modelled by the "
                    "Markov chain method")
        exprs = [s.when, s.players, *(node for _, node, _ in s.exprs)]
        rules = [r for r in s.rules if offered is None or contract.rule_offered(r, game, offered)]
        for r in (*rules, *s.choices):
            exprs.append(r.when)
            for a in r.then:
                if a.kind not in ACTIONS:
                    return f"step {s.id!r} ({r.cite}): the action {a.kind!r} is not modelled by the Markov chain method"
                if a.kind == "win" and a.paytable is not None and not _value_table(game.paytables[a.paytable]):
                    return (f"step {s.id!r} ({r.cite}): a win by a paytable of hands, or of amounts or meter shares, "
                            "is not modelled by the Markov chain method")
                exprs.append(a.value)
        for e in exprs:
            why = _expr_refusal(e)
            if why:
                return f"step {s.id!r} ({s.cite}): {why}"
    why = several_refusal(game, chapter, offered)
    if why:
        return why
    offers = _offers(chapter)
    for w, d in game.wagers.items():
        if offered is not None and not offered(w):
            continue
        if d.required or d.requires or d.requires_any or d.progressive or d.amounts or (
                d.placed != "before_deal" and (d.placed != "during_round" or w not in offers or d.choose)):
            return f"wager {w!r} ({d.cite}): the Markov chain method models wagers {WAGER_FIELDS}"
    return None


def _value_table(pt) -> bool:
    """A paytable of values (no ranking: the row whose value the rule's value equals, read by the engine) whose
    cells are odds or a push, so that a win on it scales with the stake."""
    return pt.ranking is None and all(o.kind in ("to", "for", "push") for _, row, _ in pt.rows for o in row)


def _frozen(state: dict) -> tuple:
    """Kept state as a key (an instance's own state is a mapping of its own)."""
    return tuple(sorted((k, tuple(sorted(v.items())) if isinstance(v, dict) else v) for k, v in state.items()))


def policies(chapter) -> list[tuple[str, dict[str, str]]]:
    """The fixed policies a figure is given under: 'always C' for each choice C of each decide step (the
    other decisions: their first choice); 'no decisions' when the procedure has none."""
    steps = [s for s in _walk(chapter.procedure) if s.kind == "decide"]
    out = []
    for s in steps:
        for c in s.choices:
            pref = {x.id: x.choices[0].id for x in steps}
            pref[s.id] = c.id
            out.append((f"always {c.id} ({s.id}, {c.cite})", pref))
    return out or [("no decisions", {})]


def _touched(chapter) -> set[str] | None:
    """The wagers a choice of a decide step acts on; None when a choice may act on any (``all``, or it
    changes a flag or the round state, which later rules may read)."""
    out: set[str] = set()
    for s in _walk(chapter.procedure):
        for c in s.choices:
            for a in c.then:
                if a.wager == "*" or a.kind in ("set", "clear", "set_state"):
                    return None
                if a.wager:
                    out.add(a.wager)
    return out


def _offers(chapter) -> dict[str, str]:
    """wager -> the wager it is offered equal to (``offer`` steps with ``equal_to``)."""
    return {dict(s.params)["wager"]: dict(s.params)["equal_to"] for s in _walk(chapter.procedure)
            if s.kind == "offer" and dict(s.params).get("equal_to")}


def _expr_refusal(n) -> str | None:
    if n is None or isinstance(n, Lit):
        return None
    if isinstance(n, Ref):
        if n.parts[0] == "state":
            return None
        if n.parts[0] == "round" and len(n.parts) == 2 and n.parts[1] in ROUND_ATTRIBUTES:
            return None
        if n.parts[0] == "dice" and len(n.parts) == 2 and n.parts[1] in DICE_ATTRS:
            return None
        return f"the reference {'.'.join(n.parts)!r} is not modelled by the Markov chain method"
    if isinstance(n, Call):
        if n.name not in FUNCTIONS:
            return f"the function {n.name}() is not modelled by the Markov chain method"
        if n.name in ("any_player", "dice_count"):  # an expression over the (one) player; a face
            return next((w for w in map(_expr_refusal, n.args) if w), None)
        if n.name == "picked":  # a wager's name, then a value (a total, a face)
            return next((w for w in map(_expr_refusal, n.args[1:]) if w), None)
        return None  # the other functions of FUNCTIONS take names (a wager, an option)
    if isinstance(n, BinOp):
        return _expr_refusal(n.left) or _expr_refusal(n.right)
    if isinstance(n, BoolOp):
        return next((w for w in map(_expr_refusal, n.items) if w), None)
    if isinstance(n, (Not, Neg)):
        return _expr_refusal(n.item)
    return f"the expression {type(n).__name__} is not modelled by the Markov chain method"


# ---- the engine along a path of chance outcomes ------------------------------------------------------

class _Need(Exception):
    def __init__(self, n: int):
        self.n = n


class _AtPass(Exception):
    def __init__(self, key, settled):
        self.key, self.settled = key, settled


class _PathChance:
    """Chance that gives the outcomes of ``path`` in order and then asks for a branch (:class:`_Need`)."""

    def __init__(self, path: list[int]):
        self.path, self.i = path, 0

    def uniform(self, n: int, what: str) -> int:
        if self.i < len(self.path):
            v = self.path[self.i]
            self.i += 1
            return v
        raise _Need(n)


def _settled(seat) -> dict[str, tuple[str, Decimal]]:
    return {w.id: (w.outcome, w.net) for w in seat.history if w.outcome is not None}


@dataclass
class _Chain:
    """The chain of one set of bets: its states (key -> the path that first reached it) and, per origin
    (None: the start of the round), the transitions and the expected money settled on the way."""
    rep: dict = field(default_factory=dict)
    trans: dict = field(default_factory=dict)  # origin -> {key: prob}
    reward: dict = field(default_factory=dict)  # origin -> {wager: [net, win, lose, push, void]}
    stay: Fraction = Fraction(0)  # the largest chance, over the states, that a pass does not end the chain


class _Runner:
    def __init__(self, game, options, bets, stake: int, offers: dict | None = None, prefer: dict | None = None):
        self.game, self.bets, self.stake = game, bets, stake
        self.start = None  # the wagers on the layout the round begins with (None: none, the bets are placed)
        self.strategy = _FirstInstance(prefer or {}, offers or {}, {w for w, d in game.wagers.items() if d.several})
        self.tracked = [*bets[1], *(offers or {})]
        self.table = Table(game, options, seed=0)
        self.table.loop_observer = self._observe
        self.chance: _PathChance | None = None
        self.origin_len = 0
        self.seen_at_origin = 0
        self.bodies_roll = {s.id: bool(s.steps) and s.steps[0].kind == "roll" for s in _walk(game.procedure)}

    def _observe(self, step, rnd, passes) -> None:
        i = self.chance.i
        if i <= self.origin_len:
            if i == self.origin_len:
                self.seen_at_origin += 1
                if self.seen_at_origin > 1:
                    raise Refused(f"step {step.id!r} ({step.cite}): a pass of the loop makes no roll, so the "
                                  "Markov chain method cannot follow it")
            return
        seat = rnd.seats[1]
        open_ = tuple(sorted((w.key, str(w.amount), _frozen(w.kept)) for w in seat.history if w.outcome is None))
        # everything a later rule may read: the round state, flags, the wagers in action (has, wager) and
        # the wagers made at all (placed), and the last roll (its total and its faces, as a multiset: every
        # dice.NAME reads only that) unless the pass begins by rolling again
        key = (step.id, rnd.turn, tuple(sorted(rnd.state.items())), tuple(sorted(rnd.flags)),
               (tuple(sorted(seat.flags)), tuple(sorted(seat.state.items())),
                tuple(sorted(w.id for w in seat.history))), open_,
               None if self.bodies_roll.get(step.id) else (rnd._attrs.get("roll"),
                                                           tuple(sorted(rnd.dice)) if rnd.dice else None))
        raise _AtPass(key, _settled(seat))

    def run(self, path: list[int], origin_len: int):
        """('end', settled) | ('pass', key, settled) | ('carry', key, settled): the round ended with wagers left
        on the layout (the key of the next round's start) | ('need', n)."""
        self.chance = _PathChance(path)
        self.table.chance = self.chance
        self.table.unfinished = None
        self.origin_len, self.seen_at_origin = origin_len, 0
        self.table.carried = {n: Carried(dict(w), {k: dict(v) if isinstance(v, tuple) else v for k, v in st})
                              for n, w, st in self.start or ()}
        self.strategy.made = set()
        try:
            res = self.table.play_round(self.bets if self.start is None else {}, self.strategy)
        except _Need as e:
            return ("need", e.n)
        except _AtPass as e:
            return ("pass", e.key, e.settled)
        if self.chance.i < len(path):
            raise Refused("the round ended before using every outcome of its path")
        settled = {r.wager: (r.outcome, r.net) for r in res.results}
        if self.table.carried:  # wagers left on the layout: the next round begins with them (a state)
            return ("carry", ("carried", tuple((n, tuple(c.wagers.items()), _frozen(c.state))
                                                      for n, c in sorted(self.table.carried.items()))), settled)
        return ("end", settled)

    def explore(self, origin: tuple, chain: _Chain, origin_key) -> None:
        """The transitions and rewards of one pass from ``origin``: (the round's start, the path)."""
        self.start, origin_path = origin
        before: dict = {}
        if origin_key is not None and origin_key[0] != "carried":  # what was settled when the origin was reached
            out = self.run(origin_path, len(origin_path) - 1)  # stops at the pass start the path ends at
            if out[0] != "pass" or out[1] != origin_key:
                raise Refused("replaying the path of a state of the chain does not reach that state")
            before = out[2]
        trans: dict = {}
        reward = {w: [Fraction(0)] * 5 for w in self.tracked}
        stack = [(list(origin_path), Fraction(1))]
        stay = Fraction(0)
        while stack:
            path, prob = stack.pop()
            out = self.run(path, len(origin_path))
            if out[0] == "need":
                n = out[1]
                stack.extend((path + [o], prob / n) for o in range(n))
                continue
            settled = out[-1]
            for w, (outcome, net) in settled.items():
                if w in before or w not in reward:
                    continue
                r = reward[w]
                r[0] += prob * Fraction(net) / self.stake
                r[1 + OUTCOMES.index(outcome if outcome in OUTCOMES else "win")] += prob
            if out[0] in ("pass", "carry"):
                key = out[1]
                if out[0] == "pass" and not key[5]:  # no wager in action any more: nothing more can change
                    continue
                if key not in chain.rep:
                    if len(chain.rep) >= MAX_STATES:
                        raise Refused(f"the chain has more than {MAX_STATES} states")
                    chain.rep[key] = (self.start, path) if out[0] == "pass" else (key[1], [])
                trans[key] = trans.get(key, Fraction(0)) + prob
                stay += prob if out[0] == "pass" else 0  # a pass of the loop (the bound counts passes)
        chain.trans[origin_key] = trans
        chain.reward[origin_key] = reward
        if origin_key is not None:
            chain.stay = max(chain.stay, stay)


def _solve(chain: _Chain, wagers) -> dict[str, list[Fraction]]:
    """V(start) per wager: [net, P(win), P(lose), P(push), P(void)], by exact Gaussian elimination."""
    states = list(chain.rep)
    idx = {k: i for i, k in enumerate(states)}
    n = len(states)
    cols = [(w, j) for w in wagers for j in range(5)]
    # (I - Q) V = r for the transient states
    a = [[Fraction(0)] * n + [chain.reward[k][w][j] for w, j in cols] for k in states]
    for k in states:
        i = idx[k]
        a[i][i] += 1
        for k2, p in chain.trans[k].items():
            a[i][idx[k2]] -= p
    for c in range(n):
        piv = next(r for r in range(c, n) if a[r][c] != 0)
        a[c], a[piv] = a[piv], a[c]
        pv = a[c][c]
        a[c] = [x / pv for x in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    value = {k: a[idx[k]][n:] for k in states}
    out = {}
    for m, (w, j) in enumerate(cols):
        v = chain.reward[None][w][j] + sum((p * value[k][m] for k, p in chain.trans[None].items()), Fraction(0))
        out.setdefault(w, []).append(v)
    return out


@dataclass
class WagerChain:
    wager: str
    net: Fraction  # expected net per unit wagered
    win: Fraction
    lose: Fraction
    push: Fraction
    void: Fraction
    states: int  # transient states of its chain
    base: str | None = None  # a wager offered during the round: the wager it is made equal to
    base_net: Fraction | None = None  # that wager's expected net per unit, in the same rounds
    numbers: tuple[str, ...] | None = None  # a wager on chosen numbers (``choose``): the set it is placed on

    @property
    def made(self) -> Fraction:
        """The chance the wager is made (1 for a wager placed before the round)."""
        return self.win + self.lose + self.push + self.void

    @property
    def resolved(self) -> Fraction:
        """The chance the wager is won or lost (neither pushed nor returned)."""
        return self.win + self.lose

    @property
    def per_resolved(self) -> Fraction | None:
        """The expected net per bet resolved (pushes and returns left out), as often published."""
        return self.net / self.resolved if self.resolved else None


def _stake(game, chapter) -> int:
    """A stake on which every payout of the chapter is a whole number of cents (no rounding)."""
    return unrounded_stake(game, chapter)


def chains(game, chapter, options: dict | None = None) -> tuple[dict[Any, WagerChain], dict]:
    """Each wager on its own (one seat, one stake), its chain solved under each policy; a wager on chosen numbers
    (``choose``) once per legal set, keyed ``(wager, set)``, every other wager by its id. Returns the chains
    under the first policy, and facts: the stake, the largest chance a pass does not end a chain, the
    loops' smallest bound, and ``policies``: label -> {key: chain}."""
    offered = Table(game, options, seed=0)
    why = refusal(game, chapter, offered.offered)
    if why:
        raise Refused(why)
    stake = _stake(game, chapter)
    by_policy: dict[str, dict[str, WagerChain]] = {}
    stay = Fraction(0)
    offers = _offers(chapter)
    touched = _touched(chapter)
    first: dict[Any, WagerChain] = {}
    for label, prefer in policies(chapter):
        out = by_policy[label] = {}
        for w, d in game.wagers.items():
            base = offers.get(w) if d.placed == "during_round" else None
            if not offered.offered(w) or (base is not None and not offered.offered(base)):
                continue
            for numbers in (sets_of(game, w) if d.choose else (None,)):
                key = w if numbers is None else (w, numbers)
                if key in first and touched is not None and not ({w, base} & touched):
                    out[key] = first[key]  # no choice acts on it: the same chain under every policy
                    continue
                out[key], chain_stay = _wager_chain(game, options, stake, prefer, w, base, numbers)
                first.setdefault(key, out[key])
                stay = max(stay, chain_stay)
    bounds = [int(dict(s.params).get("bound", 0)) for s in _walk(chapter.procedure) if s.kind == "repeat"]
    return next(iter(by_policy.values())), {"stake": stake, "stay": stay, "bound": min(bounds) if bounds else None,
                                            "policies": by_policy}


def _wager_chain(game, options, stake: int, prefer: dict, w: str, base: str | None,
                 numbers: tuple[str, ...] | None) -> tuple[WagerChain, Fraction]:
    """The chain of one wager (placed alone on seat 1; on ``numbers`` where it is placed on chosen numbers; made
    whenever offered, equal to ``base``, where it is offered during the round), solved; and the largest chance
    a pass of it does not end it."""
    if base is None:
        bet = stake if numbers is None else {"amount": stake, "numbers": list(numbers)}
        runner = _Runner(game, options, {1: {w: bet}}, stake, prefer=prefer)
    else:  # made whenever offered, equal to its base wager
        runner = _Runner(game, options, {1: {base: stake}}, stake, {w: stake}, prefer)
    chain = _Chain()
    runner.explore((None, []), chain, None)
    todo = list(chain.rep)
    done = set()
    while todo:
        k = todo.pop()
        if k in done:
            continue
        done.add(k)
        runner.explore(chain.rep[k], chain, k)
        todo.extend(x for x in chain.trans[k] if x not in done)
    v = _solve(chain, runner.tracked)
    return WagerChain(w, *v[w], states=len(chain.rep), base=base, base_net=v[base][0] if base else None,
                      numbers=numbers), chain.stay


def _groups(game, pols: dict) -> list[tuple[str, str | None, list]]:
    """(wager, the sets it is placed on in words or None, its chains' keys) per figure to give: a wager on chosen
    numbers once per group of its sets whose chains are alike under every policy (numbers paid alike), in the
    order of its sets."""
    out: list[tuple[str, Any, list]] = []
    alike: dict[tuple, list] = {}
    for key in dict.fromkeys(k for chains_ in pols.values() for k in chains_):
        if isinstance(key, str):
            out.append((key, None, [key]))
            continue
        sig = (key[0], tuple(_values(ch[key]) for ch in pols.values() if key in ch))
        if sig not in alike:
            alike[sig] = []
            out.append((key[0], sig, alike[sig]))
        alike[sig].append(key)
    return [(w, None if sig is None else placed_on([k[1] for k in keys], sets_of(game, w)), keys)
            for w, sig, keys in out]


def analyze(game, chapter, options: dict | None, settings: dict) -> Report:
    """The report of a chapter with a loop: a figure per offered wager, or every wager refused with the
    construct the method does not model."""
    # no card is dealt in a chapter this method models: the shoe's decks say nothing of it
    rep = Report(game.chapter, game.title, {k: v for k, v in settings.items() if k != "decks_in_shoe"}, [])
    try:
        res, facts = chains(game, chapter, options)
    except Refused as e:
        for w, d in game.wagers.items():
            rep.refuse(w, d.name, f"no exact method: {e}")
        return rep
    bound, stay = facts["bound"], facts["stay"]
    if bound and stay:
        digits = math.floor(-bound * math.log10(stay))
        bound_text = (f"; the loop's bound ({bound} passes) is outside the chain: reaching it has a chance of at "
                      f"most ({stay})^{bound} < 10^-{digits}, and it changes an expected return by at most that chance "
                      "times the largest net of a unit")
    else:
        bound_text = ""
    pols = facts["policies"]
    decisions = sorted({lbl.split(" (", 1)[1].split(",", 1)[0] for lbl in pols if " (" in lbl})
    for w, placed, keys in _groups(game, pols):
        found = [(label, chains_[keys[0]]) for label, chains_ in pols.items() if keys[0] in chains_]
        same = all(_values(c) == _values(found[0][1]) for _, c in found)
        if same:
            label = "any (no decisions)" if not decisions else f"any choice at {', '.join(decisions)} (the same figure)"
            found = [(label, found[0][1])]
        for label, c in found:
            _figures(rep, game, w, c, label, facts, bound_text, placed)
    return rep


def _values(c: WagerChain) -> tuple:
    return c.net, c.win, c.lose, c.push, c.void, c.base_net


def _figures(rep: Report, game, w: str, c: WagerChain, label: str, facts: dict, bound_text: str,
             placed: str | None = None) -> None:
    """The figures of one chain under one policy (``label``); ``placed``: the chosen numbers it is placed on."""
    d = game.wagers[w]
    method = (f"exact: absorbing Markov chain over the round state at each pass of the loop ({c.states} states; "
              f"every die face 1/6; a stake of {facts['stake']} so no payout is rounded){bound_text}")
    if d.stays:  # followed beyond its round: a state of the chain at each round's end it stays after
        method += (f"; the {d.name}, left open when a round ends, stays on the layout ({d.cite}) and is followed into "
                   "the next rounds until settled (the seat making no new wager in them)")
    if d.several and d.choose:  # one instance on each set valued: they do not interact (several_refusal)
        method += (f"; a player may have several {d.name} wagers at once, each on its own numbers: one is valued on "
                   "each set, as an instance has the same result distribution alone or with others (each rule naming "
                   "it runs once per instance and acts on that instance only, a choice returns every one in action, "
                   "and nothing else reads it but has())")
    elif d.several:  # one instance valued: they do not interact (several_refusal)
        method += (f"; a player may have several {d.name} wagers at once, each with its own kept state: one is valued, "
                   "the first made in a round, as every instance has the same result distribution (each rule naming "
                   "it runs once per instance and acts on that instance only, and nothing else reads it)")
    outcomes = {k: v / c.made for k, v in zip(OUTCOMES, (c.win, c.lose, c.push, c.void)) if v}
    if c.base is None:
        rep.figures.append(Figure((w,), d.name, _policy(label, placed), c.net, None, c.win, outcomes, method,
                                  status="exact"))
        if (c.void or c.push) and c.per_resolved is not None:
            note = f"{d.name}: per bet resolved (pushes and returns left out) {c.per_resolved} " \
                   f"(house edge {float(-c.per_resolved) * 100:.4f}%)"
            tags = [x for x in (placed, None if label.startswith("any") else label) if x]
            rep.notes.append(f"{note} [{'; '.join(tags)}]" if tags else note)
        return
    bname = game.wagers[c.base].name
    policy = f"made whenever offered, equal to the {bname}" + ("" if label.startswith("any") else f"; {label}")
    rep.figures.append(Figure((w,), d.name, _policy(policy), c.net / c.made, None, c.win / c.made, outcomes,
                              f"{method}; per unit made (made in {c.made} of rounds with a {bname})", status="exact"))
    both = c.base_net + c.net
    rep.figures.append(Figure((c.base, w), bname, _policy(policy), both, both / (1 + c.made), None,
                              {}, f"{method}; per unit of the {bname}", includes=(w,), status="exact"))


def _policy(label: str, placed: str | None = None) -> Policy:
    """The play a figure assumes: none where no decision changes it, else the fixed choices it names; first the
    chosen numbers a wager on chosen numbers is placed on."""
    return Policy("none" if label.startswith("any") else "fixed", label if placed is None else f"{placed}; {label}")
