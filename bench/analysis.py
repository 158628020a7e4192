"""Benchmark and report of the exact analyses (run: python -m bench.analysis [--strategy-dir DIR]).

Prints the machine (platform, CPU model, cores, Python and numpy versions), then every exact
figure of chapters 669a and 670a with its run time.  The rankings and paytables are read from
the fixtures tests/fixtures/rankings/{669a,670a}.yaml (to move into rulespecs/).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from compiler.analysis.enumerate import enumerate_hands, hand_probabilities, standard_deck  # noqa: E402
from compiler.analysis.paytables import card_hands_of, envy_value, paytable_return  # noqa: E402
from compiler.analysis.stud import solve_stud, stud_game_from_spec  # noqa: E402
from compiler.runtime.rankings import Ranking  # noqa: E402

FIX = ROOT / "tests" / "fixtures" / "rankings"


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"platform {platform.platform()}\nCPU {cpu}; {os.cpu_count()} cores\n"
            f"Python {platform.python_version()}; numpy {np.__version__}")


def fr(x) -> str:
    return f"{x} = {float(x):+.6%}"


def timed(label, fn):
    t = time.perf_counter()
    out = fn()
    print(f"[{time.perf_counter() - t:7.2f} s] {label}")
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--strategy-dir", help="write the full Raise It Up strategy tables here")
    ap.add_argument("--seven", action="store_true", help="also count 7-card hands of 52 (133M hands)")
    args = ap.parse_args(argv)
    print(machine())
    s669 = yaml.safe_load((FIX / "669a.yaml").read_text())
    s670 = yaml.safe_load((FIX / "670a.yaml").read_text())
    r3 = Ranking.from_spec(s669["rankings"]["three_card"], "three_card")
    r5 = Ranking.from_spec(s669["rankings"]["five_card"], "five_card")
    j5 = Ranking.from_spec(s670["rankings"]["five_card"], "five_card")
    P, Q = s669["paytables"], s670["paytables"]

    print("\n== 669a: three-card hands (22,100)")
    ch = sorted(set(card_hands_of(r3, P["progressive"]) + card_hands_of(r3, P["envy_bonus"])))
    d3 = timed("enumerate 3-card hands", lambda: enumerate_hands(r3, 3, None, ch))
    print("   counts:", d3.category_counts())
    for ci, col in enumerate(P["pair_plus"]["columns"]):
        print(f"   Pair Plus {col}: {fr(paytable_return(d3, P['pair_plus'], ci).expected)}")
    prog = paytable_return(d3, P["progressive"]).expected
    print(f"   Progressive (3-card reading, $1): {prog.a} + {prog.b} * meter"
          f" = {float(prog.a):+.6f} + {float(prog.b):.3e} * meter; at $1,000: {float(prog(1000)):+.6f}")
    for ci, col in enumerate(P["envy_bonus"]["columns"]):
        e = envy_value(d3, P["envy_bonus"], ci)
        print(f"   Envy Bonus per other player ({col}): ${e} = ${float(e):.6f}")

    print("\n== 669a: six-card hands (20,358,520), best five")
    d6 = timed("enumerate 6-card hands of 52", lambda: enumerate_hands(r5, 6))
    print("   counts:", d6.category_counts())
    for ci, col in enumerate(P["six_card_bonus"]["columns"]):
        print(f"   Six Card Bonus {col}: {fr(paytable_return(d6, P['six_card_bonus'], ci).expected)}")

    print("\n== 669a: Raise It Up ante game, optimal strategy")
    sched = [{"known": 3, "options": [3, 2, 1, "check"]}, {"known": 4, "options": [2, 1, "check"]},
             {"known": 5, "options": [1, "fold"]}]
    game = stud_game_from_spec(r5, P, schedule=sched, qualifier="pair_of_10s_or_better", hole=3, community=3,
                               fixed=(("ante", 1), ("blind", 1)), play="play")
    sol = timed("solve (20M final sets, backward induction)", lambda: solve_stud(game))
    print("   timings:", {k: round(v, 2) for k, v in sol.timings.items()})
    print(f"   per unit Ante: {fr(sol.ev_per_ante)}")
    print(f"   expected total wagered per unit Ante: {sol.expected_wager} = {float(sol.expected_wager):.6f}")
    print(f"   per total wagered: {fr(sol.ev_per_wagered)}")
    for s, f in sol.option_frequencies.items():
        print(f"   {s} cards known: " + ", ".join(f"{o}: {float(p):.6f}" for o, p in f.items()))
    for k in (3, 4):
        print(timed(f"strategy table, {k} cards", lambda: sol.format_strategy(k, max_rows=6)))
    if args.strategy_dir:
        out = Path(args.strategy_dir)
        out.mkdir(parents=True, exist_ok=True)
        for k in (3, 4, 5):
            rows = timed(f"strategy table, {k} cards (full)", lambda: sol.strategy_table(k))
            with open(out / f"raise_it_up_{k}_cards.tsv", "w") as fh:
                opts = sol.level_options[k]
                fh.write("hand\tsets\tdecision\t" + "\t".join(f"ev_{o}" for o in opts) + "\n")
                for r in rows:
                    fh.write(f"{r['hand']}\t{r['sets']}\t{r['decision']}\t"
                             + "\t".join(f"{float(r['ev'][str(o)]):.6f}" for o in opts) + "\n")
        print(f"   strategy tables written to {out}")

    print("\n== 670a: six-card hands of 53 with the joker (22,957,480), best five")
    dj = timed("enumerate 6-card hands of 53", lambda: enumerate_hands(j5, 6, standard_deck(1)))
    print("   counts:", dj.category_counts())
    print(f"   Fortune Bonus: {fr(paytable_return(dj, Q['fortune_bonus']).expected)}")
    print(f"   Insurance: {fr(paytable_return(dj, Q['insurance']).expected)}")
    pr = paytable_return(dj, Q["progressive"]).expected
    print(f"   Progressive ($1): {pr.a} + {pr.b} * meter = {float(pr.a):+.6f} + {float(pr.b):.3e} * meter;"
          f" at $5,000: {float(pr(5000)):+.6f}")
    for t in ("fortune_envy_bonus", "progressive_envy_bonus"):
        for ci, col in enumerate(Q[t]["columns"]):
            e = envy_value(dj, Q[t], ci)
            print(f"   {t} per other player ({col}): ${e} = ${float(e):.6f}")
    d5 = timed("enumerate 5-card hands of 53", lambda: enumerate_hands(j5, 5, standard_deck(1)))
    print("   5-card counts:", d5.category_counts())

    if args.seven:
        print("\n== 7-card hands of 52 (133,784,560), best five")
        d7 = timed("enumerate 7-card hands of 52", lambda: enumerate_hands(r5, 7))
        print("   counts:", d7.category_counts())


if __name__ == "__main__":
    main()
