"""Benchmark of the draw walk (compiler/analysis/draw_walk.py) on the Blackjack test chapter (NOT official
text: tests/fixtures/chapters/blackjack.yaml). Run: python -m bench.draw [--decks N]

Prints the machine, then for each shoe the figure (exact for the walk's stated method), the positions walked,
the seconds and the rate, beside issue 24's target (blackjack, 6 decks, 60 s or less). Reduced shoes always, on
one process; ``--decks N`` also walks a whole N-deck shoe on ``--jobs`` processes (default: every core; minutes:
see docs/speed.md).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.analysis import machine  # noqa: E402
from compiler.analysis.draw_report import analyze_draw  # noqa: E402
from compiler.pipeline import load_game  # noqa: E402

RANKS = "23456789TJQKA"
SHOES = {"9 cards (A 2 4 6 8 9 T T T)": "A2468 9TTT", "13 cards (one of each rank)": RANKS}


def shoe(cards: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for ch in cards.replace(" ", ""):
        out[RANKS.index(ch)] = out.get(RANKS.index(ch), 0) + 1
    return out


def run(label: str, decks: int, composition, jobs: int = 1) -> None:
    mod, c = load_game(ROOT / "tests" / "fixtures" / "chapters" / "blackjack.yaml")
    t = time.perf_counter()
    fig, walk, _ = analyze_draw(mod.GAME, c.chapter, {}, decks, composition, max_positions=10 ** 12, jobs=jobs)
    s = time.perf_counter() - t
    print(f"{label}: expected return {float(fig.expected_return):+.6%} ({fig.expected_return}); "
          f"{walk.positions:,} positions of the player, {walk.dealer.dealer_positions:,} of the dealer; "
          f"{s:.1f} s, {walk.positions / s:,.0f} positions/s, {jobs} process{'es' if jobs > 1 else ''}; "
          f"load average after: {os.getloadavg()[0]:.1f}", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, help="also walk a whole shoe of this many decks")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the whole shoe")
    args = ap.parse_args(argv)
    print(machine())
    print("target (issue 24): blackjack basic strategy, 6 decks, 60 s or less")
    for label, cards in SHOES.items():
        run(label, 1, shoe(cards))
    if args.decks:
        run(f"{args.decks} decks", args.decks, None, args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
