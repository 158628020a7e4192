"""Exact figures of a chapter by playing the compiled game once per chance outcome.

The engine plays one round of one seat for every outcome of its chance: every wheel pocket and random
number (a :class:`BranchChance` answering ``table.chance.uniform(n, ...)`` along a path of choices, each
of probability 1/n); every roll of several dice as a multiset of faces with its multinomial probability
(``BranchChance.dice``: every dice reading :data:`MODELS` declares is symmetric in the dice); every card
by rank (a shoe of one representative card per rank, each drawn with probability count / cards left;
only where every ranking is ``high_card`` or ``points``, which read no suit), or by card, suits and all, where a rule
calls a function of ``MODELS["suit_functions"]`` (a suited tie). Walking every path (an odometer over the
widths each path recorded) gives the exact distribution of each wager's net as
:class:`fractions.Fraction`: products of the draws' probabilities.

Figures are per unit of each wager made, alone on its seat (no wager is required: roulette, sic bo, the
Big Six wheel, Dragon Tiger); a wager placed on chosen numbers is played on every one of its legal sets
(:func:`compiler.runtime.chance.legal_sets`), one figure per distinct result, its policy naming the sets.

An allow-list, not a deny-list: :data:`MODELS` declares the step kinds, their parameters, the functions,
the references and the outcomes this method models. Any other construct in the active procedure (a
decision, an offer, an envy bonus, a setting of hands, a repeat, a function added to the registry later)
makes :func:`unmodelled` name it, and :func:`analyze_chance` refuses with that name.
"""
from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

from compiler.analysis import contract
from compiler.analysis.model import Figure, Policy, Report
from compiler.analysis.stakes import unrounded_stake
from compiler.ir.model import walk_steps
from compiler.lang.syntax import BinOp, BoolOp, Call, Lit, Neg, Not, Ref
from compiler.runtime.chance import find_step, legal_sets
from compiler.runtime.engine import Strategy, Table
from compiler.runtime.money import money
from compiler.runtime.shoe import StandInShoe

__all__ = ["MODELS", "Unmodelled", "unmodelled", "concerns", "wanted", "report", "analyze_chance", "walk_outcomes"]

# what this method models: step kind -> the parameters it reads (any other parameter is refused)
MODELS: dict[str, Any] = {
    "steps": {
        "announce": {"text"},
        "burn": {"count"},
        "deal": {"to", "zone", "count", "face"},
        "reveal": {"zone", "to"},
        "roll": {"dice", "numbers"},
        "spin": {"wheel"},
        "settle": {"rules"},
        "block": {"steps"},
    },
    "functions": {"hand", "best", "category", "at_least", "is_hand", "has", "placed", "wager", "flag", "option",
                  "offered", "active", "count", "dice_count", "hits", "matched", "picked", "suited", "spread",
                  # hands valued by points: a card's points, a hand's total, its n-th card, read by rank in the
                  # order dealt (the odometer walks the deals in order)
                  "total", "soft", "natural", "bust", "points", "card"},
    "suit_functions": {"suited"},  # a rule calling one of these is played over cards with their suits
    # dice.X, dice_count, hits, matched, picked and round.roll are symmetric in the dice: a reading of one
    # die by its position must not be declared here unless BranchChance.dice stops rolling by multiset
    "references": {"player", "dealer", "community", "dice", "pocket", "round"},
    "round_attrs": {"roll", "first_after_shuffle", "new_dealer", "number"},
    "actions": {"win", "lose", "push", "surrender", "set", "clear", "note", "return", "end", "bonus"},
    "rankings": {"high_card", "points"},  # cards by rank: no ranking may read suits (points: nor a joker)
}
_COMMON = {"id", "do", "cite", "title", "when", "players", "order"}


MAX_PATHS = 1_000_000  # chance outcomes one play may walk (the engine plays a round for each)


class Unmodelled(ValueError):
    """A construct of the chapter this method does not declare."""


class BranchChance:
    """``table.chance`` along one path of outcomes (each 1/n), recording the widths for the odometer."""

    def __init__(self, path: list[int], track: "_Track"):
        self.path, self.track = path, track

    def uniform(self, n: int, what: str) -> int:
        return self.track.pick(n, Fraction(1, n))

    def dice(self, n: int, sides: int) -> list[int]:
        """The faces of one roll of ``n`` dice as a multiset (every dice reading MODELS declares is
        symmetric in the dice), with its multinomial probability: 56 branches for three dice, not 216."""
        rolls = _multisets(n, sides)
        faces = rolls[self.track.pick(len(rolls))]
        ways = math.factorial(n)
        for k in set(faces):
            ways //= math.factorial(faces.count(k))
        self.track.prob *= Fraction(ways, sides ** n)
        return list(faces)


@functools.lru_cache(maxsize=None)
def _multisets(n: int, sides: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.combinations_with_replacement(range(sides), n))


class _Track:
    """The choices made along one path (dice, pockets, numbers and cards, interleaved in order)."""

    def __init__(self, path: list[int]):
        self.path = path
        self.taken: list[int] = []
        self.widths: list[int] = []
        self.prob = Fraction(1)

    def pick(self, n: int, p: Fraction | None = None) -> int:
        i = len(self.taken)
        k = self.path[i] if i < len(self.path) else 0
        self.taken.append(k)
        self.widths.append(n)
        if p is not None:
            self.prob *= p
        return k


class _RankShoe(StandInShoe):
    """Cards by rank (one representative card per rank; a high_card or points ranking reads ranks only), or by card
    (``counts`` per card). By card, the first card's suit is fixed to spades with the weight of its four
    suits: every suit function MODELS declares is the same under a relabelling of the suits, so the
    rounds that follow each suit are alike (52 x 52 deals of two cards become 13 x 52)."""

    def __init__(self, counts: Mapping[int, int], track: _Track, by_card: bool = False):
        self.counts, self.track = dict(counts), track
        self.index = 0
        self.cards: list = []
        self.symmetric = by_card  # no card drawn yet: the suits are alike

    def draw(self, target=None):
        if target is None or target[0] == "burn":
            return None  # unseen: by exchangeability the cards that follow are as if it were dealt
        total = sum(self.counts.values())
        if self.symmetric:
            self.symmetric = False
            options = [c for c, n in sorted(self.counts.items()) if n > 0 and (c >= 52 or c % 4 == 0)]
            card = options[self.track.pick(len(options))]
            self.track.prob *= Fraction(self.counts[card] * (1 if card >= 52 else 4), total)
        else:
            options = [c for c, n in sorted(self.counts.items()) if n > 0]
            card = options[self.track.pick(len(options))]
            self.track.prob *= Fraction(self.counts[card], total)
        self.counts[card] -= 1
        self.index += 1
        return card


def unmodelled(game, chapter, offered=None) -> str | None:
    """The first construct of the chapter's procedure this method does not model, named; None if all are.
    ``offered`` (wager id -> bool): the steps naming a wager not offered and the rules acting only on such
    wagers are left out, as from the contract's active procedure (they never act in the rounds played)."""
    keep = None if offered is None else (lambda s: contract.step_offered(s, game, offered))
    for s in walk_steps(chapter.procedure, keep):
        rules = [r for r in s.rules if offered is None or contract.rule_offered(r, game, offered)]
        params = MODELS["steps"].get(s.kind)
        if params is None:
            return f"step kind {s.kind!r} (step {s.id}, {s.cite})"
        for name, _ in s.params:
            if name not in params and name not in _COMMON:
                return f"parameter {name!r} of a {s.kind} step (step {s.id}, {s.cite})"
        for name, _, _ in s.exprs:
            if name not in params:
                return f"expression {name!r} of a {s.kind} step (step {s.id}, {s.cite})"
        if s.choices:
            return f"the choices of step {s.id} ({s.cite})"
        nodes = [s.when, s.players] + [r.when for r in rules]
        for r in rules:
            for a in r.then:
                if a.kind not in MODELS["actions"]:
                    return f"outcome {a.kind!r} ({r.cite})"
                nodes.append(a.value)
        for n in nodes:
            bad = _expr_unmodelled(n)
            if bad:
                return f"{bad} (step {s.id}, {s.cite})"
    deals = any(s.kind == "deal" for s in walk_steps(chapter.procedure))
    for rid, r in game.rankings.items():
        if deals and r.get("kind") not in MODELS["rankings"]:
            return f"ranking {rid!r} of kind {r.get('kind')!r} (it reads suits or hands of several cards)"
        if deals and r.get("kind") == "points" and game.cards.jokers:
            return f"ranking {rid!r} of kind 'points' with a deck of jokers (a joker has no point value)"
    return None


def _expr_unmodelled(n) -> str | None:
    if n is None or isinstance(n, Lit):
        return None
    if isinstance(n, Ref):
        if n.parts[0] not in MODELS["references"]:
            return f"reference {'.'.join(n.parts)!r}"
        if n.parts[0] == "round" and len(n.parts) > 1 and n.parts[1] not in MODELS["round_attrs"]:
            return f"reference {'.'.join(n.parts)!r}"
        return None
    if isinstance(n, Call):
        if n.name not in MODELS["functions"]:
            return f"function {n.name}()"
        for a in n.args:
            bad = _expr_unmodelled(a) if isinstance(a, (Call, BinOp, BoolOp, Not, Neg)) or (
                isinstance(a, Ref) and len(a.parts) > 1) else None
            if bad:
                return bad
        return None
    if isinstance(n, BinOp):
        return _expr_unmodelled(n.left) or _expr_unmodelled(n.right)
    if isinstance(n, BoolOp):
        for x in n.items:
            bad = _expr_unmodelled(x)
            if bad:
                return bad
        return None
    if isinstance(n, (Not, Neg)):
        return _expr_unmodelled(n.item)
    return f"expression {type(n).__name__}"


def by_amount(game, chapter) -> dict[str, str]:
    """wager -> why it is left out: the wagers a rule pays by a paytable with a cell of an amount or a meter
    share (``$100``), not odds, whose return per unit made depends on the stake (each is refused by name, the
    other wagers keep their figures)."""
    out: dict[str, str] = {}
    for s in walk_steps(chapter.procedure):
        for r in s.rules:
            for a in r.then:
                if a.paytable is not None and a.wager and any(
                        o.kind not in ("to", "for", "push") for _, row, _ in game.paytables[a.paytable].rows
                        for o in row):
                    out.setdefault(a.wager, f"the chance enumeration gives a return per unit made, and paytable "
                                            f"{a.paytable!r} ({r.cite}) pays an amount, not odds: its return "
                                            "depends on the stake")
    return out


def concerns(game, chapter, required: bool = False) -> bool:
    """This method is the analysis of a chapter that spins or rolls, or requires no wager, unless its cards
    are ranked by a kind it does not model (a pai gow chapter rolling for the first position keeps its
    route). A construct it does not model is then refused by name (:func:`report`), never passed on to a
    route that would divide by the required wagers or ask a hand history for dice. ``required``: a chapter
    of cards alone with a required wager too (the analysis asks where the engine enumeration does not
    model it: a suited tie)."""
    kinds = {s.kind for s in walk_steps(chapter.procedure)}
    chance = required or bool(kinds & {"roll", "spin"}) or not any(w.required for w in game.wagers.values())
    cards_ok = "deal" not in kinds or all(r.get("kind") in MODELS["rankings"] for r in game.rankings.values())
    return chance and bool(game.wagers) and cards_ok


def wanted(game, chapter) -> bool:
    """:func:`concerns` the chapter and models every construct of it."""
    return concerns(game, chapter) and unmodelled(game, chapter) is None


def report(game, chapter, options, decks, settings, offered) -> Report:
    """The chapter's report: a figure per wager, or every wager refused naming the construct not modelled."""
    bad = unmodelled(game, chapter, offered)
    if bad:
        rep = Report(game.chapter, game.title, settings, [])
        for w, wd in game.wagers.items():
            if offered(w):
                rep.refuse(w, wd.name, f"the chance enumeration does not model {bad}, and no other route "
                                       "analyses a chapter that rolls, spins or requires no wager")
        return rep
    rep = Report(game.chapter, game.title, settings, analyze_chance(game, chapter, options, decks, offered),
                 ["exact over every outcome of the round's chance (dice faces, pockets, numbers, cards by rank); "
                  "each wager per unit made, alone on its seat"])
    for w, why in by_amount(game, chapter).items():
        if offered(w):
            rep.refuse(w, game.wagers[w].name, why)
    return rep


def _calls_suits(n) -> bool:
    if isinstance(n, Call):
        return n.name in MODELS["suit_functions"] or any(_calls_suits(a) for a in n.args)
    if isinstance(n, BinOp):
        return _calls_suits(n.left) or _calls_suits(n.right)
    if isinstance(n, BoolOp):
        return any(_calls_suits(x) for x in n.items)
    if isinstance(n, (Not, Neg)):
        return _calls_suits(n.item)
    return False


def suit_wagers(game, chapter) -> set[str]:
    """The wagers whose settlement may depend on suits: those a rule calling a function of
    ``MODELS["suit_functions"]`` settles; every wager where such a rule sets a flag or settles all wagers,
    or a step's condition reads suits. The others are played by rank (no result of theirs reads suits)."""
    out: set[str] = set()
    for s in walk_steps(chapter.procedure):
        if _calls_suits(s.when) or _calls_suits(s.players):
            return set(game.wagers)
        for r in s.rules:
            if not (_calls_suits(r.when) or any(_calls_suits(a.value) for a in r.then)):
                continue
            for a in r.then:
                if a.kind in ("set", "clear") or a.wager == "*":
                    return set(game.wagers)
                if a.wager:
                    out.add(a.wager)
    return out


def _rank_counts(game, decks: int, suits: bool = False) -> dict[int, int]:
    if suits:  # every card of the pack, ``decks`` of each
        return {c: decks for c in range(52)} | ({52: game.cards.jokers * decks} if game.cards.jokers else {})
    counts = {r * 4: 4 * decks for r in range(13)}
    if game.cards.jokers:
        counts[52] = game.cards.jokers * decks
    return counts


def walk_outcomes(game, bets: Mapping[int, Mapping[str, Any]], options: Mapping[str, Any] | None = None,
                  decks: int | None = None, max_paths: int = MAX_PATHS, suits: bool = False):
    """Yield (probability, RoundResult) for every outcome of the round's chance (dice, pockets, numbers,
    cards by rank, or by card with ``suits``). ``bets``: seat -> wagers, as :meth:`Table.play_round` takes them."""
    n_decks = decks if decks is not None else Table(game, options, seed=0).shoe_decks()
    counts = _rank_counts(game, n_decks, suits)
    path: list[int] = []
    paths = 0
    while True:
        track = _Track(path)
        table = Table(game, options, seed=0, shoe=_RankShoe(counts, track, suits), chance=BranchChance(path, track))
        table.game_beginning = False
        res = table.play_round(bets, Strategy(), new_dealer=False)
        paths += 1
        if paths > max_paths:
            raise Unmodelled(f"more than {max_paths} chance outcomes")
        yield track.prob, res
        k = len(track.taken) - 1
        while k >= 0 and track.taken[k] + 1 >= track.widths[k]:
            k -= 1
        if k < 0:
            return
        path = track.taken[:k] + [track.taken[k] + 1]


def _sets(game, w: str) -> list[list[str]] | None:
    """The legal sets of a wager on chosen numbers (None: a wager on no chosen numbers)."""
    wd = game.wagers[w]
    if not wd.choose:
        return None
    wheel = None
    if wd.choose.get("wheel"):
        step = find_step(game.procedure, wd.choose["wheel"])
        wheel = step.params.get("wheel") if step is not None else None
    sets = [list(x) for x in legal_sets(wd.choose, wheel)]
    if not sets:
        raise Unmodelled(f"the {wd.name} has no legal set of numbers ({wd.cite})")
    return sets


def _names(sets, limit: int = 6) -> str:
    shown = ["[" + ", ".join(x) + "]" for x in sets[:limit]]
    return ", ".join(shown) + (f" and {len(sets) - limit} more" if len(sets) > limit else "")


def placed_on(group, every) -> str:
    """The policy of a figure of a wager on chosen numbers: the sets of ``group`` (those of its legal sets,
    ``every``, that give this figure), or any of them where every set gives it."""
    if len(group) == len(every):
        return f"placed on any of its {len(every)} sets" if len(every) > 1 else f"placed on {_names(every)}"
    return f"placed on {_names(group)}"


def analyze_chance(game, chapter, options: Mapping[str, Any] | None = None, decks: int | None = None,
                   offered=None) -> list[Figure]:
    """An exact figure per unit of each (offered) wager made, alone on its seat; a wager on chosen numbers
    is played on every legal set, one figure per distinct result (its policy names the sets). With required
    wagers, the round's figure is per unit of the required stake, and each optional wager is made beside them
    (only its results read). Unmodelled if a construct of the chapter is not one this method declares."""
    bad = unmodelled(game, chapter, offered)
    if bad:
        raise Unmodelled(f"the chance enumeration does not model {bad}")
    # every (wager, set) played alone on a seat; seats do not interact (no function of other seats is
    # modelled) and, where no card is dealt to a player, see the same chance: one round plays as many of
    # them as the table has positions
    to_players = any(s.kind == "deal" and dict(s.params).get("to", "players") not in ("dealer", "community")
                     for s in walk_steps(chapter.procedure))
    per_round = 1 if to_players else max(1, game.max_positions)
    by_card = suit_wagers(game, chapter)
    _within_budget(game, chapter, options, bool(by_card))
    plays, sets_of = _plays(game, chapter, offered)
    results: list = [None] * len(plays)
    for suits in (False, True):
        these = [k for k, pl in enumerate(plays) if bool(by_card.intersection(pl[0])) == suits]
        for i in range(0, len(these), per_round):
            chunk = these[i:i + per_round]
            for k, r in zip(chunk, _play(game, options, decks, suits, [plays[k] for k in chunk])):
                results[k] = r
    figs = []
    start = 0
    for reads, sets in sets_of.items():
        n_plays = len(sets) if sets is not None else 1
        mine_results = results[start:start + n_plays]
        start += n_plays
        groups: dict[tuple, list[int]] = {}
        for k, (e, o, n, _) in enumerate(mine_results):
            groups.setdefault((e, tuple(sorted(o.items())), tuple(sorted(n.items()))), []).append(k)
        for idx in groups.values():
            e, o, n, paths = mine_results[idx[0]]
            policy = ("no decisions" if reads[0] in game.wagers and game.wagers[reads[0]].required else "any") \
                if sets is None else placed_on([sets[k] for k in idx], sets)
            made = "of the required wagers" if policy == "no decisions" else "of the wager made"
            figs.append(Figure(reads, " + ".join(game.wagers[w].name for w in reads), Policy("none", policy), e, e,
                               o.get("win", Fraction(0)), dict(o),
                               f"exact: the engine played once per chance outcome ({paths} outcomes of dice, "
                               f"pockets, numbers and cards by {'card' if by_card.intersection(reads) else 'rank'}"
                               f"); per unit {made}", status="exact"))
    return figs


def _within_budget(game, chapter, options, suits: bool) -> None:
    """Unmodelled at once where the cards dealt could give more orders than :data:`MAX_PATHS` (13 ranks, or
    52 cards after a first of 13 by symmetry, to the power of the cards the active procedure's deal steps
    deal), rather than after playing a million rounds (baccarat: the points method's)."""
    steps, _ = contract.active_steps(game, chapter, dict(options or {}))
    cards = sum(int(dict(s.params).get("count", 1)) for s, _ in steps if s.kind == "deal")
    jokers = 1 if game.cards.jokers else 0
    width = (52 if suits else 13) + jokers
    if cards and (13 + jokers) * width ** (cards - 1) > MAX_PATHS:
        raise Unmodelled(f"the chance enumeration plays a round per order of the cards dealt: its deal steps deal "
                         f"{cards} cards in all, up to {13 + jokers} x {width}^{cards - 1} orders by "
                         f"{'card' if suits else 'rank'}, more than its budget of {MAX_PATHS:,} chance outcomes")


def _plays(game, chapter, offered) -> tuple[list[tuple[tuple[str, ...], Any, Any]], dict]:
    """The plays: (the wagers whose results are read, the seat's wagers as play_round takes them, the stake they
    are per unit of); and the wagers read -> their legal sets (None: one play). The required wagers are one
    play; each optional wager is made beside them and its companions."""
    plays: list[tuple[tuple[str, ...], Any, Any]] = []
    sets_of: dict[tuple[str, ...], list | None] = {}
    stake = money(unrounded_stake(game, chapter))  # the engine rounds a payout down to the cent: 7 to 6 on 1
    amounts = by_amount(game, chapter)
    required = {w: (wd.amounts[0] if wd.amounts else stake) for w, wd in game.wagers.items() if wd.required}
    if required and not set(required) & set(amounts):
        sets_of[tuple(required)] = None
        plays.append((tuple(required), dict(required), sum(required.values())))
    for w, wd in game.wagers.items():
        if wd.required or (offered is not None and not offered(w)) or w in amounts:
            continue
        amount = wd.amounts[0] if wd.amounts else stake
        sets_of[(w,)] = _sets(game, w)
        with_ = {**required, **contract.companions(game, w)}
        plays.extend(((w,), {**with_, w: {"amount": amount, "numbers": x}}, amount) for x in sets_of[(w,)]) \
            if sets_of[(w,)] is not None else plays.append(((w,), {**with_, w: amount}, amount))
    return plays, sets_of


def _play(game, options, decks, suits: bool, chunk: list[tuple[tuple[str, ...], Any, Any]]) -> list[tuple]:
    """(expected net, outcomes, net distribution, paths) of each play of ``chunk``, each on its own seat."""
    seen = [defaultdict(Fraction) for _ in chunk]  # (net, outcomes) -> probability, per seat
    paths = 0
    for p, res in walk_outcomes(game, {k + 1: b for k, (_, b, _) in enumerate(chunk)}, options, decks,
                                suits=suits):
        paths += 1
        mine: dict[int, list] = defaultdict(list)
        for r in res.results:
            mine[r.seat].append(r)
        for k in range(len(chunk)):
            rs = [r for r in mine.get(k + 1, ()) if r.wager in chunk[k][0]]
            seen[k][(sum((r.net for r in rs), Decimal(0)), tuple(r.outcome for r in rs))] += p
    out = []
    for k, (_, _, amount) in enumerate(chunk):
        outcomes: dict[str, Fraction] = defaultdict(Fraction)
        nets: dict[Fraction, Fraction] = defaultdict(Fraction)
        for (net, outs), p in seen[k].items():
            nets[Fraction(net) / Fraction(amount)] += p
            for o in outs:
                outcomes[o] += p
        out.append((sum((n * p for n, p in nets.items()), Fraction(0)), dict(outcomes), dict(nets), paths))
    return out
