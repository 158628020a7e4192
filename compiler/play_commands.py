"""Subcommands that run a compiled game: settle, analyze, simulate."""
from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path

from compiler.runtime.money import fmt_money
from compiler.spec.diagnostics import DiagnosticError


def _load(spec: str):
    from compiler.pipeline import load_game

    try:
        return load_game(spec)
    except DiagnosticError as e:
        for d in e.diagnostics:
            print(d.format(), file=sys.stderr)
        return None, None


def _selections(args, compiled, submission: str | None = None) -> dict | None:
    """Options from --submission FILE (or a hand history's `submission:`; validated) and --option k=v pairs."""
    opts: dict = {}
    submission = getattr(args, "submission", None) or submission
    if submission:
        from compiler.submission.document import load_submission

        try:
            sub = load_submission(submission, {compiled.chapter.chapter: compiled.chapter})
        except DiagnosticError as e:
            for d in e.diagnostics:
                print(d.format(), file=sys.stderr)
            return None
        opts.update(sub.selections)
    for kv in getattr(args, "option", None) or ():
        if "=" not in kv:
            print(f"error: --option takes NAME=VALUE, got {kv!r}", file=sys.stderr)
            return None
        k, v = kv.split("=", 1)
        known = (compiled.chapter.data.get("options") or {})
        if k not in known:
            print(f"error: Chapter {compiled.chapter.chapter} has no option {k!r}; options are {sorted(known)}",
                  file=sys.stderr)
            return None
        t = known[k]["type"]
        if t == "boolean":
            opts[k] = v.lower() in ("1", "true", "yes", "y")
        elif t == "integer":
            opts[k] = int(v)
        else:
            opts[k] = v
    return opts


def _game_and_selections(args):
    """(module, compiled, options) for a command's SPEC and --submission/--option; (None, None, None) on error."""
    mod, compiled = _load(args.spec)
    if mod is None:
        return None, None, None
    opts = _selections(args, compiled)
    if opts is None:
        return None, None, None
    return mod, compiled, opts


def cmd_settle(args) -> int:
    from compiler.round_file import DecisionMissing, SettingError, load_round
    from compiler.runtime.engine import EngineError

    mod, compiled = _load(args.spec)
    if mod is None:
        return 1
    try:
        rs = load_round(args.round)
    except DiagnosticError as e:
        for d in e.diagnostics:
            print(d.format(), file=sys.stderr)
        return 1
    if rs.chapter != mod.CHAPTER:
        print(f"{args.round}: error: the round is of Chapter {rs.chapter}, the spec is Chapter {mod.CHAPTER}",
              file=sys.stderr)
        return 1
    opts = _selections(args, compiled, rs.doc.data.get("submission"))
    if opts is None:
        return 1
    opts = {**rs.options, **opts}
    try:
        table = mod.new_table(opts, shoe=rs.shoe())
        table.first_after_shuffle = rs.first_after_shuffle
        table.game_beginning = False
        for mid, reading in rs.meters.items():
            if mid not in table.meters:
                print(f"{args.round}: error: Chapter {mod.CHAPTER} has no progressive meter {mid!r}; "
                      f"meters: {sorted(table.meters)}", file=sys.stderr)
                return 1
            table.meters[mid] = reading
        result = table.play_round(rs.bets, rs.strategy(), rs.events, new_dealer=rs.new_dealer,
                                  players=rs.players or None, rolls=rs.rolls, dealer_setting=rs.dealer_setting)
    except (DecisionMissing, SettingError) as e:
        print(f"{args.round}: error: {e}", file=sys.stderr)
        return 1
    except EngineError as e:
        print(f"{args.round}: error: {e}", file=sys.stderr)
        return 1
    unused = rs.shoe().unused() if False else table.shoe.unused()
    warnings = [f"the hand history gives cards never dealt by the procedure: "
                f"{'seat ' + str(s) if o == 'player' else o} ({z})" for o, s, z in unused]
    if args.format == "json":
        out = result.to_json()
        out["chapter"] = mod.CHAPTER
        out["warnings"] = warnings
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(f"Chapter {mod.CHAPTER}. {mod.TITLE}: {args.round}")
        if result.void:
            print("Round void: every wager returned.")
        print(f"{'seat':>4}  {'wager':<28} {'amount':>10}  {'result':<10} {'net':>10}  provisions")
        unpriced = {r.seat for r in result.results if not r.priced}
        for r in result.results:
            net = fmt_money(r.net, signed=True) if r.priced else "not known"  # payout odds not in the sources
            print(f"{r.seat:>4}  {r.name:<28} {fmt_money(r.amount):>10}  {r.outcome:<10} "
                  f"{net:>10}  {'; '.join(r.cites)}")
        for seat, net in sorted(result.net_by_seat().items()):
            print(f"seat {seat} net {fmt_money(net, signed=True)}"
                  + (" plus the amount of a win whose payout odds are not in the sources" if seat in unpriced else ""))
        if args.log:
            print("\nLog:")
            for e in result.log:
                print("  " + e.format())
        for w in warnings:
            print(f"warning: {w}", file=sys.stderr)
    return 0


def cmd_analyze(args) -> int:
    from compiler.analysis.report import analyze

    mod, compiled, opts = _game_and_selections(args)
    if mod is None:
        return 1
    try:
        report = analyze(mod.GAME, compiled.chapter, opts, decks=args.decks, rounds=args.rounds, seed=args.seed,
                         precision=None if args.precision is None else args.precision / 100)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.strategy_out:
        if report.strategy is None:
            print("error: this game has no decision strategy to export", file=sys.stderr)
            return 1
        out = Path(args.strategy_out)
        out.mkdir(parents=True, exist_ok=True)
        for known in sorted(report.strategy.level_options):
            (out / f"strategy-{known}-cards-known.txt").write_text(report.strategy.format_strategy(known) + "\n")
    if args.format == "json":
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(report.to_text())
        if report.strategy is not None:
            print()
            print("Optimal strategy (summary; --strategy-out DIR writes every holding):")
            for known in sorted(report.strategy.level_options):
                print(report.strategy.format_strategy(known, max_rows=3))
    return 0


def cmd_simulate(args) -> int:
    from compiler.analysis.simulate import simulate

    mod, compiled, opts = _game_and_selections(args)
    if mod is None:
        return 1
    res = simulate(mod.GAME, opts, rounds=args.rounds, seats=args.seats, seed=args.seed, policy=args.policy)
    if args.format == "json":
        print(json.dumps(res.to_json(), indent=2, ensure_ascii=False))
    else:
        print(res.to_text())
    return 0


def register(sub) -> None:
    p = sub.add_parser("settle", help="settle one round from a hand history (ROUND.yaml)",
                       description="Settle a described round: each wager's result and net with its provisions. "
                                   "The ROUND.yaml format is documented in docs/round-format.md.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("round", metavar="ROUND")
    p.add_argument("--submission", metavar="FILE", help="play under this Rules Submission's selections")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set one option (repeatable)")
    p.add_argument("--log", action="store_true", help="print the whole log of the round")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=cmd_settle)

    p = sub.add_parser("analyze", help="exact expected return and hit frequency of every wager",
                       description="Exact analysis from the spec's data: expected return per unit wagered "
                                   "(fraction and decimal), hit frequency and distribution of outcomes.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--decks", type=int, help="decks in the dealing shoe (default: the spec's default)")
    p.add_argument("--rounds", type=int, help="rounds of the simulated figures (pai gow main wager; default short)")
    p.add_argument("--seed", type=int, default=1, help="seed of the simulated figures")
    p.add_argument("--precision", type=float, metavar="POINTS",
                   help="standard error a simulated figure must reach, in percentage points (default 0.05); "
                        "a figure short of it is reported as such and kept out of Rules Submissions")
    p.add_argument("--submission", metavar="FILE", help="analyze under this Rules Submission's selections")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set one option (repeatable)")
    p.add_argument("--strategy-out", metavar="DIR", help="write the optimal strategy tables (one file per decision)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=cmd_analyze)

    p = sub.add_parser("simulate", help="seeded simulation of whole shoes with the compiled game",
                       description="Play whole shoes for 1-N positions with a fixed policy; reports the mean "
                                   "net per unit of each wager with its standard error, and money conservation.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--rounds", type=int, default=10000)
    p.add_argument("--seats", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--policy", default=None, help="a choice to prefer at every decision (e.g. war, surrender)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--submission", metavar="FILE")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=cmd_simulate)
