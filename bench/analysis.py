"""Benchmark and report of the exact analyses (run: python -m bench.analysis [--strategy-dir DIR]).

Prints the machine (platform, CPU model, cores, Python and numpy versions), then every exact
figure of chapters 669a and 670a with its run time, beside the targets of issue 11 (six-card
distributions <= 1 s, 669a optimal strategy <= 5 s) and a naive C brute force of the six-card
counts (bench/brute6.c, compiled with ``cc`` when there is one).  The rankings and paytables are
read from the rulespecs themselves; the stud game from the compiled 669a procedure.
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
from compiler.runtime.rankings import Ranking  # noqa: E402

RULESPECS = ROOT / "rulespecs"


def rulespec(ch: str) -> dict:
    (path,) = RULESPECS.glob(f"{ch}-*.yaml")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def spec_path(ch: str) -> Path:
    (path,) = RULESPECS.glob(f"{ch}-*.yaml")
    return path


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


def figure(label: str, value: float | None, unit: str, target: float | None = None, better: str = "higher",
           note: str = "") -> None:
    """One line: the figure, its target and whether it is met (``better``: higher or lower)."""
    if value is None:
        val = "n/a"
    elif unit == "s":
        val = f"{value:,.2f} s"
    else:
        val = f"{value:,.0f} {unit}"
    tgt, verdict = "", ""
    if target is not None:
        tgt = f"target {'>=' if better == 'higher' else '<='} {target:,g}{' s' if unit == 's' else ''}"
        if value is not None:
            ok = value >= target if better == "higher" else value <= target
            verdict = "met" if ok else "NOT MET"
        else:
            verdict = "NOT MET"
    line = f"{label:<60} {val:>18}   {tgt:<22} {verdict}"
    print(line.rstrip() + (f"\n{'':<4}{note}" if note else ""))


def _vec_seconds(ranking, k, deck) -> float:
    """Seconds to build the value tables (Vectoriser) that an enumeration starts with."""
    from compiler.analysis.enumerate import Vectoriser

    t = time.perf_counter()
    Vectoriser(ranking, k, deck)
    return time.perf_counter() - t


def _random_rows(n: int, k: int):
    """``n`` k-card hands of 52 (20,000 random ones from a fixed seed, repeated), each row sorted increasing."""
    import numpy as np

    rng = np.random.default_rng(1)
    base = np.sort(np.argsort(rng.random((20_000, 52)), axis=1)[:, :k], axis=1).astype(np.uint8)
    return np.tile(base, (n // 20_000, 1))


def brute_force_c(counts: dict) -> None:
    """Count the six-card hands of 52 by category with a naive C program (every hand, its six five-card
    subsets, each judged by rank counts, flush and straight); print its time and whether the counts agree."""
    import shutil
    import subprocess
    import tempfile

    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        print("   C brute force: no C compiler")
        return
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "brute6"
        r = subprocess.run([cc, "-O2", "-o", str(exe), str(ROOT / "bench" / "brute6.c")], capture_output=True,
                           text=True)
        if r.returncode:
            print(f"   C brute force: compile failed: {r.stderr.strip()[:200]}")
            return
        import resource

        t, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
        dt = time.perf_counter() - t
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0
    got = {}
    for line in out.split():
        name, n = line.split("=")
        got[name] = int(n)
    same = all(got.get(c, 0) == n for c, n in counts.items()) and sum(got.values()) == sum(counts.values())
    figure("six-card hands of 52, naive C brute force (cc -O2)", dt, "s",
           note=f"CPU {cpu:.2f} s; category counts {'equal to' if same else 'DIFFERENT FROM'} the numpy enumeration")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--strategy-dir", help="write the full Raise It Up strategy tables here")
    ap.add_argument("--seven", action="store_true", help="also count 7-card hands of 52 (133M hands)")
    args = ap.parse_args(argv)
    print(machine())
    s669 = rulespec("669a")
    s670 = rulespec("670a")
    r3 = Ranking.from_spec(s669["rankings"]["three_card"], "three_card")
    r5 = Ranking.from_spec(s669["rankings"]["five_card"], "five_card")
    j5 = Ranking.from_spec(s670["rankings"]["five_card"], "five_card")
    P, Q = s669["paytables"], s670["paytables"]

    print("\n== 669a: three-card hands (22,100)")
    ch = sorted(set(card_hands_of(r3, P["progressive"]) + card_hands_of(r3, P["envy_progressive_1"])))
    d3 = timed("enumerate 3-card hands", lambda: enumerate_hands(r3, 3, None, ch))
    print("   counts:", d3.category_counts())
    for ci, col in enumerate(P["pair_plus"]["columns"]):
        print(f"   Pair Plus {col}: {fr(paytable_return(d3, P['pair_plus'], ci).expected)}")
    prog = paytable_return(d3, P["progressive"]).expected
    print(f"   Progressive (3-card reading, $1): {prog.a} + {prog.b} * meter"
          f" = {float(prog.a):+.6f} + {float(prog.b):.3e} * meter; at $1,000: {float(prog(1000)):+.6f}")
    for t in ("envy_progressive_1", "envy_progressive_5"):
        e = envy_value(d3, P[t], 0)
        print(f"   {P[t]['title']} per other player: ${e} = ${float(e):.6f}")

    print("\n== 669a: six-card hands (20,358,520), best five")
    c0 = time.process_time()
    d6 = timed("enumerate 6-card hands of 52", lambda: enumerate_hands(r5, 6))
    figure("six-card distribution of 52 (Vectoriser + enumeration)", d6.seconds + _vec_seconds(r5, 6, None),
           "s", 1, "lower", note=f"CPU {time.process_time() - c0:.2f} s (load-independent)")
    print("   counts:", d6.category_counts())
    rows = _random_rows(2_000_000, 6)
    from compiler.analysis.enumerate import Vectoriser

    vec = Vectoriser(r5, 6)
    t = time.perf_counter()
    vec.evaluate_cards(rows)
    figure("2,000,000 six-card hands of 52 valued from their cards (Vectoriser.evaluate_cards: the dealer-hand "
           "and deal-class routes)", time.perf_counter() - t, "s", None, "lower",
           note="1.49 s before the per-column look-ups and the OR-ed suit masks (2026-12-03, same machine, loaded)")
    brute_force_c(d6.category_counts())
    for ci, col in enumerate(P["six_card_bonus"]["columns"]):
        print(f"   Six Card Bonus {col}: {fr(paytable_return(d6, P['six_card_bonus'], ci).expected)}")

    print("\n== 669a: Raise It Up ante game, optimal strategy (the game read from the compiled procedure)")
    from compiler.analysis.card_routes import _CACHE, optimal_strategy
    from compiler.pipeline import load_game

    mod, comp = load_game(spec_path("669a"))
    _CACHE.clear()
    t0, c0 = time.perf_counter(), time.process_time()
    _, sol = optimal_strategy(mod.GAME, comp.chapter)
    figure("669a optimal strategy (solve_stud, 20M final sets)", time.perf_counter() - t0, "s", 5, "lower",
           note=f"CPU {time.process_time() - c0:.2f} s (load-independent)")
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
    c0 = time.process_time()
    dj = timed("enumerate 6-card hands of 53", lambda: enumerate_hands(j5, 6, standard_deck(1)))
    figure("six-card distribution of 53 with the joker (Vectoriser + enumeration)",
           dj.seconds + _vec_seconds(j5, 6, standard_deck(1)), "s", 1, "lower",
           note=f"CPU {time.process_time() - c0:.2f} s (load-independent)")
    print("   counts:", dj.category_counts())
    print(f"   Fortune Bonus: {fr(paytable_return(dj, Q['fortune_bonus']).expected)}")
    print(f"   Insurance: {fr(paytable_return(dj, Q['insurance']).expected)}")
    pr = paytable_return(dj, Q["progressive"]).expected
    print(f"   Progressive ($1): {pr.a} + {pr.b} * meter = {float(pr.a):+.6f} + {float(pr.b):.3e} * meter;"
          f" at $5,000: {float(pr(5000)):+.6f}")
    for t in ("envy_fortune_bonus_1", "envy_fortune_bonus_5", "envy_progressive_1", "envy_progressive_5"):
        e = envy_value(dj, Q[t], 0)
        print(f"   {Q[t]['title']} per other player: ${e} = ${float(e):.6f}")
    d5 = timed("enumerate 5-card hands of 53", lambda: enumerate_hands(j5, 5, standard_deck(1)))
    print("   5-card counts:", d5.category_counts())

    if args.seven:
        print("\n== 7-card hands of 52 (133,784,560), best five")
        d7 = timed("enumerate 7-card hands of 52", lambda: enumerate_hands(r5, 7))
        print("   counts:", d7.category_counts())


if __name__ == "__main__":
    main()
