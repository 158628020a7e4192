"""Pai gow speed figures (python -m bench.paigow [--rounds N]): the exact enumeration of the
six-card hands, hands set per second by the house way, simulated rounds per second."""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.analysis import machine  # noqa: E402

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.paigow")
    ap.add_argument("--rounds", type=int, default=4000)
    args = ap.parse_args(argv)
    print(machine())
    from compiler.analysis.enumerate import enumerate_hands, standard_deck
    from compiler.analysis.paigow import _set_by_house_way, model_of, simulate_paigow
    from compiler.pipeline import load_game
    from compiler.runtime.cards import JOKER
    from compiler.runtime.engine import Table

    mod, c = load_game(SPEC)
    game, ch = mod.GAME, c.chapter
    t = Table(game, {}, seed=0)
    r = t.ranking("five_card")
    t0 = time.perf_counter()
    d = enumerate_hands(r, 6, standard_deck(1))
    print(f"{'exact enumeration, 6-card hands of 53 (22,957,480)':<58} {time.perf_counter() - t0:8.2f} s")
    m = model_of(game, ch)
    rng = random.Random(1)
    deck = list(range(52)) + [JOKER]
    hands = [rng.sample(deck, 6) for _ in range(3000)]
    t0 = time.perf_counter()
    for h in hands:
        _set_by_house_way(t, m.dealer_step, h)
    dt = time.perf_counter() - t0
    print(f"{'hands set by the house way (per second, 1 core)':<58} {len(hands) / dt:10.0f}")
    t1 = mod.new_table({}, seed=1)
    t0 = time.perf_counter()
    n = 2000
    for _ in range(n):
        t1.play_round({1: {"pai_gow": 5}})
    print(f"{'engine rounds, 1 player, house way (per second, 1 core)':<58} {n / (time.perf_counter() - t0):10.0f}")
    t2 = mod.new_table({}, seed=1)
    t0 = time.perf_counter()
    for _ in range(n // 4):
        t2.play_round({s: {"pai_gow": 5} for s in range(1, 7)})
    print(f"{'engine rounds, 6 players, house way (per second, 1 core)':<58} {(n // 4) / (time.perf_counter() - t0):10.0f}")
    assert t1.ledger.balance() == 0 and t2.ledger.balance() == 0
    sim = simulate_paigow(game, ch, {"double_down_offered": True}, args.rounds, 1)
    for p in ("house_way", "optimal"):
        s = sim[p]
        print(f"{'simulated rounds per second, 2 processes, ' + p:<58} {s['rounds'] / s['seconds']:10.0f}"
              f"   main {s['stats']['main'][1]:+.4f} +/- {s['stats']['main'][2]:.4f},"
              f" double down {s['stats']['double'][1]:+.4f} +/- {s['stats']['double'][2]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
