"""The optimal strategy the draw walk (:mod:`compiler.analysis.draw_walk`) finds, as a chart people read: for
each decision the player makes before any card is drawn to the hand (insurance, split, double down, hit or
stand on the first two cards of a blackjack), a row per holding of the player and a column per card the
dealer shows, each cell the choice of largest expected net. ``rulespec analyze --strategy-out DIR`` writes
each decision as text and as CSV (with each choice's expected net, exact and as a decimal).

Recorded while the walk values the positions of the player's first decision (the shoe then frozen for the
dealer's play, one hand): a decision reached after an earlier one (hit or stand after declining insurance)
is shown on the path of the earlier decision's best choice."""
from __future__ import annotations

from fractions import Fraction

__all__ = ["DrawStrategy"]


class DrawStrategy:
    """The chart (the interface of ``StudSolution``'s strategy tables: ``level_options``, ``levels``,
    ``strategy_table``, ``format_strategy``, ``file_stem``; a level is a decision step's id)."""

    def __init__(self, walk):
        self.walk = walk
        self.steps: dict[str, tuple] = {}  # step id -> (cite, choices in order)
        self.order = [op[1].id for op in walk.prog.ops if op[1].kind in ("decide", "offer", "split")]
        self.entries: dict = {}  # step id -> {(player, dealer): [(earlier choices, {choice: value})]}
        self.labels = _labels(walk)

    # -- recording (by the walk) --------------------------------------------------------------
    def shown(self, st) -> bool:
        """Whether a decision position belongs in the chart: one hand, no card drawn since the first decision."""
        return st.hands == 1 and st.frozen == st.removed

    def record(self, st, step, values: dict) -> None:
        walk = self.walk
        player = tuple(walk.of_card[c] for z in sorted(st.seat.zones) for c in st.seat.zones[z] if c is not None)
        dealer = tuple(walk.of_card[c] for z in sorted(st.rnd.dealer) for c in st.rnd.dealer[z] if c is not None)
        self.steps.setdefault(step.id, (step.cite, tuple(values)))
        earlier = tuple(sorted(st.seat.choices.items()))
        self.entries.setdefault(step.id, {}).setdefault((player, dealer), []).append((earlier, dict(values)))

    def merge(self, other: dict, steps: dict) -> None:
        """Entries recorded by another process of the walk (draw_parallel)."""
        for k, v in steps.items():
            self.steps.setdefault(k, v)
        for sid, rows in other.items():
            mine = self.entries.setdefault(sid, {})
            for row, found in rows.items():
                mine.setdefault(row, []).extend(found)

    # -- the chart ----------------------------------------------------------------------------
    @property
    def level_options(self) -> dict:
        return {sid: list(self.steps[sid][1]) for sid in self.order if sid in self.steps}

    def levels(self) -> list[str]:
        """The decisions in the order the procedure asks them."""
        return list(self.level_options)

    def file_stem(self, level) -> str:
        return f"strategy-{level}"

    def _best(self) -> dict:
        """{(player, dealer): {step id: (best choice, {choice: value})}}, each decision on the path of the
        best choices of the decisions before it (a choice that two paths value differently: '*')."""
        rows: dict = {}
        for sid in self.order:
            for row, found in self.entries.get(sid, {}).items():
                best = rows.setdefault(row, {})
                chosen = {k: v[0] for k, v in best.items()}
                fit = [vals for earlier, vals in found if all(chosen.get(k, c) == c for k, c in earlier)]
                picks = {max(vals, key=vals.get) for vals in fit}
                if fit:
                    best[sid] = (picks.pop() if len(picks) == 1 else "*", fit[0])
        return rows

    def strategy_table(self, level) -> list[dict]:
        """Rows of one decision: ``{hand: "10 6 v 9", sets: 1, decision: "hit", ev: {choice: Fraction}}``."""
        out = []
        for (player, dealer), steps in sorted(self._best().items(), key=lambda kv: (kv[0][1], sorted(kv[0][0]))):
            if level in steps:
                choice, vals = steps[level]
                out.append({"hand": f"{self._cards(player)} v {self._cards(dealer)}", "sets": 1,
                            "decision": choice, "ev": {str(k): v.net for k, v in vals.items()}})
        return out

    def format_strategy(self, level, max_rows: int | None = None) -> str:
        """One decision as a grid: a row per holding of the player, a column per dealer's card shown."""
        cite, choices = self.steps[level]
        codes = _codes([str(c) for c in choices])
        grid: dict = {}
        for (player, dealer), steps in self._best().items():
            if level in steps:
                code = codes.get(steps[level][0], "*")
                cells = grid.setdefault(tuple(sorted(player)), {})
                cells[dealer] = code if cells.get(dealer, code) == code else "*"  # orders of one holding differ
        cols = sorted({d for r in grid.values() for d in r})
        head = f"{'':<10}" + "".join(f"{self._cards(d):>5}" for d in cols)
        lines = [f"Decision {level} ({cite}): " + ", ".join(f"{v} = {k}" for k, v in codes.items())
                 + "; * = the best choice differs with the order of the cards or an earlier choice; . = not "
                 "reached where the best earlier choice is taken (a split), or no such hand", head]
        rows = sorted(grid)
        for player in rows[:max_rows] if max_rows else rows:
            lines.append(f"{self._cards(player):<10}" + "".join(f"{grid[player].get(d, '.'):>5}" for d in cols))
        if max_rows and len(rows) > max_rows:
            lines.append(f"  ... {len(rows) - max_rows} more holdings (--strategy-out DIR writes them all)")
        return "\n".join(lines)

    def _cards(self, classes: tuple) -> str:
        return " ".join(self.labels[c] for c in classes)


def _labels(walk) -> list[str]:
    """A name for each class of card: its point value in the first ranking ("A" for the rank counted soft)."""
    rk = walk.table.ranking(next(iter(walk.game.rankings)))
    out = []
    for cards in walk.classes:
        r = cards[0] // 4
        out.append("A" if r == rk.soft_rank else str(rk.values[r]))
    return out


def _codes(choices: list[str]) -> dict[str, str]:
    """A short code per choice (unique in the decision): its initial, more letters where two share one."""
    for n in range(1, max((len(c) for c in choices), default=1) + 1):
        codes = {c: c.replace("_", "")[:n].upper() or c for c in choices}
        if len(set(codes.values())) == len(codes):
            return codes
    return {c: c for c in choices}
