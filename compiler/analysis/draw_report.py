"""The draw walk as an analysis method (:mod:`compiler.analysis.draw_walk`): what it requires of a chapter
beyond its contract (:func:`refusal`), and its report: the round's figure under optimal play, exact for
the method it states."""
from __future__ import annotations

import time
import weakref

from compiler.analysis import contract
from compiler.analysis.draw_walk import DrawLimit, DrawWalk
from compiler.analysis.model import NO_DECISION, Figure, Policy, Report
from compiler.values.walk_limits import BUDGET, budget, jobs
from compiler.runtime.errors import EngineError

__all__ = ["BUDGET", "METHOD", "analyze_draw", "budget", "jobs", "refusal", "report", "side_figure"]

METHOD = ("composition-dependent by hand: the player's cards drawn from the shoe less every card seen; the "
          "dealer's play valued from the shoe at the player's first decision; a hand made by a split drawing "
          "from the shoe at the split, only the number of hands followed")


def refusal(game, chapter, options: dict | None = None) -> str | None:
    """Why the draw walk does not model the chapter (None: it does), beyond its contract's constructs."""
    if not any(r.get("kind") == "points" for r in game.rankings.values()):
        return "no ranking by points"  # (a ranking of another kind is read card by card: draw_model.card_classes)
    if game.cards.jokers:
        return "the deck has jokers, which have no point value"
    offered = contract.offer_table(game, options).offered
    before = []  # optional wagers made before the deal, offered: the walk values the round without them
    for w, d in game.wagers.items():
        if not offered(w):
            continue
        if d.progressive:
            return f"wager {w} is paid from a progressive meter"
        if not d.required and d.placed != "during_round":
            before.append(w)
    if not any(d.required for d in game.wagers.values()):
        return "no wager is required: the draw walk values a round of the required wagers"
    before = [w for w in before if _side_refusal(game, chapter, options, w) is not None]
    if before:  # (a side wager settled before the player decides is valued alone: side_figure)
        names = ", ".join(game.wagers[w].name for w in before)
        what = "is an optional wager" if len(before) == 1 else "are optional wagers"
        why = "; ".join(_side_refusal(game, chapter, options, w) for w in before)
        return contract.WagerRefusal(f"the {names} {what} made before the deal and not settled before the player "
                                     f"decides ({why}); the draw walk values the round's play of the required "
                                     "wagers without it", before)
    try:
        walk = DrawWalk(game, chapter, options)
    except (DrawLimit, EngineError) as e:
        return str(e)
    if not any(op[1].kind in ("decide", "offer", "split") for op in walk.prog.ops):
        return "no decision of the player: the points method values the chapter"
    split = next((op[1] for op in walk.prog.ops if op[1].kind == "split"), None)
    if split is not None and len(walk.classes) > len({tuple(k) for k in walk.point_keys}):
        return (f"the rules read the ranks or suits of the cards, and a pair of step {split.id} ({split.cite}) may "
                "be of cards of several classes: the draw walk counts the hands of a split by one class")
    return None


_SIDE_CHECKED: dict = {}  # id(chapter) -> (a weak reference to it, {wager: refusal or None})
_SIDE_SHOE = {r: 4 for r in range(13)}  # a deck: pairs can be dealt, each suit once
_BY_POINTS = ((), False)  # card classes by points only (rules_read's pair: no ranking by rank read, no suit)


def _optional_before_deal(game, options) -> list[str]:
    offered = contract.offer_table(game, options).offered
    return [w for w, d in game.wagers.items()
            if offered(w) and not d.required and not d.progressive and d.placed != "during_round"]


def _side_refusal(game, chapter, options, wager: str) -> str | None:
    """Why ``wager`` cannot be valued alone up to its settlement (None: it can), found by that walk on a deck
    (kept per chapter: whether a wager is settled before the player decides is the procedure's, not the shoe's;
    the walk on the real shoe refuses again if a deal it had not met keeps it). The deck's cards are first told
    apart by their points alone (ten classes: a fraction of a second, where the 52 cards of a side wager reading
    suits took 46 s); a refusal found so is checked by the walk telling the cards apart as the rules do, which
    gives it or clears it (two cards of one class are one card there: a rule reading ranks or suits may
    take another path than with the real cards)."""
    held = _SIDE_CHECKED.get(id(chapter))
    if held is None or held[0]() is not chapter:  # (an id reused by another chapter: checked afresh)
        if len(_SIDE_CHECKED) > 64:
            _SIDE_CHECKED.clear()
        held = _SIDE_CHECKED[id(chapter)] = (weakref.ref(chapter), {})
    mine = held[1]
    if wager not in mine:
        mine[wager] = _side_walk(game, chapter, options, wager, _BY_POINTS)
        if mine[wager] is not None:  # given or cleared by the cards told apart as the rules read them
            mine[wager] = _side_walk(game, chapter, options, wager, None)
    return mine[wager]


def _side_walk(game, chapter, options, wager: str, reads: tuple | None) -> str | None:
    try:
        side_figure(game, chapter, options, wager, None, _SIDE_SHOE, max_positions=BUDGET, reads=reads)
    except (DrawLimit, EngineError) as e:
        return str(e)
    return None


def side_figure(game, chapter, options, wager: str, decks: int | None = None,
                composition: dict[int, int] | None = None, max_positions: int = 2_000_000,
                reads: tuple | None = None) -> Figure:
    """The figure of an optional wager made before the deal and settled before the player decides: the draw walk
    with that wager placed beside the required ones, each position valued by the wager's own net as soon as it
    is settled (``DrawWalk.target``); exact, and the same whatever the play that follows (it cannot change a
    settled wager: the walk's contract has no outcome that does)."""
    bets = {w: 1 for w, d in game.wagers.items() if d.required}
    walk = DrawWalk(game, chapter, options, decks, {**bets, wager: 1}, composition, max_positions, reads=reads)
    walk.target = wager
    value = walk.run()
    d = game.wagers[wager]
    method = (f"exact: the draw walk over every deal up to the wager's settlement ({walk.positions:,} positions, "
              f"{len(walk.classes)} card classes; cards drawn from the shoe less every card seen)")
    return Figure((wager,), d.name, NO_DECISION, value.net / value.staked, None, None, {}, method, status="exact")


def analyze_draw(game, chapter, options: dict | None = None, decks: int | None = None,
                 composition: dict[int, int] | None = None, max_positions: int = 2_000_000, jobs: int = 1
                 ) -> tuple[Figure, DrawWalk, float]:
    """The round's figure (per unit of the required wagers) under optimal play, and the walk that gave it
    (``jobs`` processes: the first deal's classes walked apart, see draw_parallel)."""
    t0 = time.perf_counter()
    walk = DrawWalk(game, chapter, options, decks, None, composition, max_positions, jobs)
    walk.keep_chart()
    value = walk.run()
    seconds = time.perf_counter() - t0
    required = [w for w, d in game.wagers.items() if d.required]
    during = tuple(w for w, d in game.wagers.items()
                   if not d.required and d.placed == "during_round" and walk.table.offered(w))
    names = " + ".join(game.wagers[w].name for w in required)
    per = value.net / sum(walk.bets.values())
    per_staked = value.net / value.staked  # per amount wagered: doubles, splits and insurance made by the play taken
    method = (f"exact for the stated method: the draw walk over {walk.positions:,} positions of the "
              f"player and {walk.dealer.dealer_positions:,} of the dealer, {walk.dealer.settlements:,} "
              f"settlements by the engine, {len(walk.classes)} card classes")
    policy = Policy("optimal", "optimal strategy: at every decision the choice of largest expected net (of equal "
                               "ones, the smaller stake), the player knowing the cards the round has shown",
                    assumes=METHOD)
    fig = Figure(tuple(required), names, policy, per, per_staked, None, {}, method, during, status="exact",
                 stated_method=METHOD)
    return fig, walk, seconds


def report(game, chapter, options: dict | None, decks: int | None, settings: dict) -> Report:
    rep = Report(game.chapter, game.title, settings, [])
    limit = budget.get()
    try:
        fig, walk, seconds = analyze_draw(game, chapter, options, decks, max_positions=10 ** 12 if limit is None else limit,
                                          jobs=jobs.get())
    except (DrawLimit, EngineError) as e:  # the engine's positioned error on a position the walk reached
        from compiler.analysis import contract
        more = ("; `rulespec analyze --budget N` sets another budget, `--exhaustive` none"
                if limit is not None and "budget" in str(e) else "")
        raise contract.Refused(f"the draw walk stopped: {e}{more}") from None
    rep.figures.append(fig)
    side = _optional_before_deal(game, options)  # each side wager the refusal let through: valued alone
    for w in side:
        try:
            rep.figures.append(side_figure(game, chapter, options, w, decks,
                                           max_positions=10 ** 12 if limit is None else limit))
        except (DrawLimit, EngineError) as e:
            rep.refuse(w, game.wagers[w].name, f"the draw walk up to its settlement stopped: {e}")
    if side:
        rep.notes.append("the " + ", ".join(game.wagers[w].name for w in side) + ", made before the deal and settled "
                         "before the player decides, valued alone up to its settlement; the round's figure is the "
                         "play of the required wagers without it")
    rep.strategy = walk.chart
    if fig.includes:
        rep.notes.append("the wagers made during the round (" + ", ".join(game.wagers[w].name for w in fig.includes)
                         + ") are in the round's figure, made where optimal play makes them")
    rep.notes.append(f"draw walk: {walk.positions:,} positions, {seconds:.1f} s")
    return rep

