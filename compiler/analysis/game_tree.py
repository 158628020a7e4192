"""The general analyzer: the game tree of one seat, derived by running the compiled procedure.

The round engine plays the chapter's compiled procedure; here it plays against

* a shoe that branches over every card still in it (chance nodes, exact probabilities), and
* a strategy that branches over every choice the spec gives the player (decision nodes), and
  over making or not making a wager offered during the round,

so every round becomes one leaf: (probability of its cards, the decisions taken with the
information set each was taken in, the net and the stake of every wager). The information set
of a decision is exactly what the engine shows the player at that point (``PlayerView``: the
player's own cards by zone, the community cards revealed, the wagers on the layout) and the decision's
id, with the dealer's cards restricted to the zones dealt face up or revealed before it in the
procedure (the engine's view lists the dealer's face-down cards too).

* **Declared policy**: the leaves whose decisions follow the policy.
* **Optimal strategy**: backward induction over information sets. With perfect recall (the view
  only grows), every information set has one depth (the number of decisions before it); taking
  the deepest first, Q(I, c) = sum over the leaves through (I, c) that follow the choices already
  fixed deeper of P(leaf) x net(leaf), and the strategy takes the c of largest Q at I.

Nothing here knows a chapter: it is the engine, a branching shoe and a branching strategy. It is
exact and slow (every path is a played round), so it is the reference on small decks that the
fast routes are proven equal to, and the route for games whose tree is small (suit-free games).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping, Sequence

from compiler.analysis.exact_engine import ExactResult, PathLimit, WagerStats, rank_level_ok, shoe_counts
from compiler.runtime.engine import Strategy, Table
from compiler.runtime.money import money
from compiler.runtime.shoe import StandInShoe


class _Odometer:
    """One path of branch indices shared by the shoe and the strategy, in the order they branch."""

    def __init__(self, path: list[int]):
        self.path = path
        self.taken: list[int] = []
        self.widths: list[int] = []

    def pick(self, width: int) -> int:
        i = len(self.taken)
        k = self.path[i] if i < len(self.path) else 0
        self.taken.append(k)
        self.widths.append(width)
        return k

    def next_path(self) -> list[int] | None:
        k = len(self.taken) - 1
        while k >= 0 and self.taken[k] + 1 >= self.widths[k]:
            k -= 1
        return None if k < 0 else self.taken[:k] + [self.taken[k] + 1]


class _Shoe(StandInShoe):
    def __init__(self, counts: Mapping[int, int], odo: _Odometer):
        self.counts = dict(counts)
        self.odo = odo
        self.prob = Fraction(1)
        self.index = 0
        self.shuffles = 0

    def draw(self, target=None):
        if target is None or target[0] == "burn":  # unseen: by exchangeability, not drawn
            return None
        options = [c for c, n in sorted(self.counts.items()) if n > 0]
        total = sum(self.counts.values())
        card = options[self.odo.pick(len(options))]
        self.prob *= Fraction(self.counts[card], total)
        self.counts[card] -= 1
        self.index += 1
        return card


def _dealer_visible(game) -> dict[str, frozenset]:
    """The dealer's zones the player sees at each decision and offer: dealt face up, or revealed, earlier in
    the procedure (the engine's view lists every dealer zone, face down too)."""
    seen: set = set()
    out: dict[str, frozenset] = {}
    for s in _walk(game.procedure):
        p = dict(s.params)
        if s.kind == "deal" and p.get("to") == "dealer" and p.get("face", "up") == "up":
            seen.add(p.get("zone", "cards"))
        elif s.kind == "reveal":
            seen.add(p.get("zone"))
        elif s.kind == "decide":
            out[s.id] = frozenset(seen)
        elif s.kind == "offer":
            out["offer:" + str(p.get("wager"))] = frozenset(seen)
    return out


def _view_key(decision: str, view, visible: Mapping[str, frozenset] | None = None) -> tuple:
    own = tuple(sorted((z, tuple(sorted(map(int, cs)))) for z, cs in view.cards.items()))
    shown = None if visible is None else visible.get(decision, frozenset())
    dealer = tuple(sorted((z, tuple(sorted(map(int, cs)))) for z, cs in (view.dealer or {}).items()
                          if shown is None or z in shown))
    return (decision, own, dealer, tuple(sorted(map(int, view.community))),
            tuple(sorted((w, str(a)) for w, a in view.wagers.items())))


class _BranchStrategy(Strategy):
    def __init__(self, odo: _Odometer, offer_amounts: Mapping[str, Any], visible: Mapping[str, frozenset]):
        self.odo = odo
        self.offer_amounts = offer_amounts
        self.visible = visible
        self.decisions: list[tuple[tuple, str]] = []

    def choose(self, decision, choices, view):
        c = choices[self.odo.pick(len(choices))]
        self.decisions.append((_view_key(decision, view, self.visible), c))
        return c

    def offer(self, wager, view):
        make = self.odo.pick(2) == 1
        self.decisions.append((_view_key("offer:" + wager, view, self.visible), "make" if make else "decline"))
        if not make:
            return Decimal(0)
        amount = self.offer_amounts.get(wager)
        if isinstance(amount, str):  # equal to another wager on the layout
            return view.wagers.get(amount, Decimal(0))
        return money(amount if amount is not None else 1)


@dataclass
class Leaf:
    prob: Fraction
    decisions: tuple[tuple[tuple, str], ...]
    net: dict[str, Fraction]
    stake: dict[str, Fraction]
    outcome: dict[str, str]
    single: bool = True  # each wager settled by one result at most (its outcome is then the wager's)


@dataclass
class TreeResult:
    """Figures of one seat under one strategy (policy or optimal)."""
    strategy: str
    leaves: int
    expected_net: dict[str, Fraction]
    expected_stake: dict[str, Fraction]
    win: dict[str, Fraction]
    round_net: dict[Fraction, Fraction]
    choice: dict[tuple, str] = field(default_factory=dict)  # information set -> choice (optimal)

    def total_net(self) -> Fraction:
        return sum(self.expected_net.values(), Fraction(0))

    def total_stake(self) -> Fraction:
        return sum(self.expected_stake.values(), Fraction(0))


def game_tree(game, bets: Mapping[str, Any], options: Mapping[str, Any] | None = None,
              counts: Mapping[int, int] | None = None, decks: int | None = None,
              max_paths: int = 2_000_000) -> list[Leaf]:
    """Every leaf of one seat's round: cards from ``counts`` (card -> copies; default the
    game's shoe) and every choice of every decision and offer."""
    if counts is None:
        n = decks if decks is not None else Table(game, options, seed=0).shoe_decks()
        counts = shoe_counts(n, game.cards.jokers, rank_level_ok(game))
    offers = {}
    for s in _walk(game.procedure):
        if s.kind == "offer":
            p = dict(s.params)
            offers[p.get("wager")] = p.get("equal_to") or p.get("amount")
    visible = _dealer_visible(game)
    stakes = {k: money(v) for k, v in bets.items()}
    leaves: list[Leaf] = []
    path: list[int] | None = []
    rankings: dict = {}  # one evaluator per ranking for every path (building one is costly)
    while path is not None:
        odo = _Odometer(path)
        shoe = _Shoe(counts, odo)
        strat = _BranchStrategy(odo, offers, visible)
        table = Table(game, options, seed=0, shoe=shoe)
        table._rankings = rankings
        res = table.play_round({1: stakes}, strat, new_dealer=False)
        net: dict[str, Fraction] = defaultdict(Fraction)
        stake: dict[str, Fraction] = defaultdict(Fraction)
        outcome: dict[str, str] = {}
        for r in res.results:
            net[r.wager] += Fraction(r.net)
            stake[r.wager] += Fraction(r.amount)
            outcome[r.wager] = r.outcome
        leaves.append(Leaf(shoe.prob, tuple(strat.decisions), dict(net), dict(stake), outcome,
                           len(outcome) == len(res.results)))
        if len(leaves) > max_paths:
            raise PathLimit(f"more than {max_paths} paths")
        path = odo.next_path()
    return leaves


def _walk(steps):
    for s in steps:
        yield s
        yield from _walk(s.steps)


def _figures(leaves: Sequence[Leaf], label: str, choice: dict | None = None) -> TreeResult:
    en: dict[str, Fraction] = defaultdict(Fraction)
    es: dict[str, Fraction] = defaultdict(Fraction)
    win: dict[str, Fraction] = defaultdict(Fraction)
    rn: dict[Fraction, Fraction] = defaultdict(Fraction)
    for lf in leaves:
        for w, v in lf.net.items():
            en[w] += lf.prob * v
            es[w] += lf.prob * lf.stake[w]
            if lf.outcome.get(w) == "win":
                win[w] += lf.prob
        rn[sum(lf.net.values(), Fraction(0))] += lf.prob
    return TreeResult(label, len(leaves), dict(en), dict(es), dict(win), dict(rn), dict(choice or {}))


def under_policy(leaves: Sequence[Leaf], policy: Mapping[str, str], label: str | None = None) -> TreeResult:
    """A declared policy: decision id (or 'offer:WAGER') -> choice ('make'/'decline' for offers);
    a decision the policy does not name takes its first choice... of those the leaves show."""
    def follows(lf: Leaf) -> bool:
        for key, c in lf.decisions:
            want = policy.get(key[0])
            if want is not None and c != want:
                return False
        return True

    chosen = [lf for lf in leaves if follows(lf)]
    # decisions the policy leaves open: the first choice seen at each information set
    first: dict[tuple, str] = {}
    for lf in chosen:
        for key, c in lf.decisions:
            first.setdefault(key, c)
    chosen = [lf for lf in chosen if all(first[k] == c for k, c in lf.decisions)]
    return _figures(chosen, label or ", ".join(f"{k}: {v}" for k, v in policy.items()))


def policy_result(leaves: Sequence[Leaf], policy: Mapping[str, str]) -> ExactResult:
    """The round under a fixed policy that names every decision and offer of the tree (decision id or
    'offer:WAGER' -> choice, 'make'/'decline' for offers), as :func:`enumerate_round` gives it under the
    same strategy: the leaves that follow it are the deals of that enumeration, each played to its end
    with those choices. A decision or offer the policy does not name, or a wager settled by more than one
    result in a round, raises ValueError (the caller enumerates instead)."""
    wagers: dict[str, WagerStats] = defaultdict(WagerStats)
    by_outcome: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    nets: dict[Fraction, Fraction] = defaultdict(Fraction)
    paths, total = 0, Fraction(0)
    for lf in leaves:
        if any(policy.get(key[0], c) != c for key, c in lf.decisions):
            continue
        unnamed = [key[0] for key, _ in lf.decisions if key[0] not in policy]
        if unnamed or not lf.single:
            raise ValueError(f"the policy does not name {unnamed[0]}" if unnamed else
                             "a wager is settled by more than one result in a round")
        paths += 1
        total += lf.prob
        for w, v in lf.net.items():
            st = wagers[w]
            st.placed_prob += lf.prob
            st.expected_net += lf.prob * v
            st.expected_stake += lf.prob * lf.stake[w]
            st.outcomes[lf.outcome[w]] += lf.prob
            by_outcome[(w, lf.outcome[w])] += lf.prob
        nets[sum(lf.net.values(), Fraction(0))] += lf.prob
    if total != 1:
        raise ValueError(f"the leaves that follow the policy have probability {total}, not 1")
    return ExactResult(paths, total, dict(wagers), dict(by_outcome), dict(nets))


def optimal(leaves: Sequence[Leaf], value=None) -> TreeResult:
    """The strategy of largest expected net (``value(leaf)``; default the seat's total net)."""
    value = value or (lambda lf: sum(lf.net.values(), Fraction(0)))
    depth: dict[tuple, int] = {}
    for lf in leaves:
        for i, (key, _) in enumerate(lf.decisions):
            d = depth.setdefault(key, i)
            if d != i:
                raise ValueError("an information set is reached after different numbers of decisions: "
                                 "the views do not give perfect recall")
    choice: dict[tuple, str] = {}
    for d in sorted(set(depth.values()), reverse=True):
        q: dict[tuple, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for lf in leaves:
            if len(lf.decisions) <= d:
                continue
            if any(choice.get(k) not in (None, c) for k, c in lf.decisions[d + 1:]):
                continue
            key, c = lf.decisions[d]
            q[key][c] += lf.prob * value(lf)
        for key, qs in q.items():
            choice[key] = max(qs, key=lambda c: (qs[c], c))
    chosen = [lf for lf in leaves if all(choice[k] == c for k, c in lf.decisions)]
    return _figures(chosen, "optimal strategy", choice)
