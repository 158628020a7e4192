"""Subcommands that run a compiled game: settle, analyze, simulate."""
from __future__ import annotations

import json
import re
import sys
from decimal import Decimal
from pathlib import Path

import yaml

from compiler.cli_extras import cite_lists
from compiler.render.table import text_table
from compiler.render.terminal import Ticker, raw_stream
from compiler.runtime.carry import carried_lines
from compiler.runtime.engine import EngineError, Table
from compiler.runtime.errors import UnsettledError
from compiler.runtime.from_ir import game_of, load_game
from compiler.runtime.money import fmt_money
from compiler.runtime.shoe import StandInShoe
from compiler.pipeline import ROOT, spec_files
from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import load_document


def _load(spec: str):
    try:
        return load_game(spec)
    except DiagnosticError as e:
        for d in e.diagnostics:
            print(d.format(), file=sys.stderr)
        return None, None


def _selections(args, compiled, submission: str | None = None, mod=None, conditions: bool = True) -> dict | None:
    """Options from --submission FILE (or a hand history's `submission:`; validated) and --option k=v pairs."""
    opts: dict = {}
    submission = getattr(args, "submission", None) or submission
    if submission:
        from compiler.submission.document import chapter_of_file, load_submission

        named = chapter_of_file(submission)
        if named is not None and named != compiled.chapter.chapter:
            print(load_document(str(submission)).diagnostic(
                "/game/chapter", f"the Rules Submission is for Chapter {named}, the spec is Chapter "
                                 f"{compiled.chapter.chapter}").format(), file=sys.stderr)
            return None
        try:
            sub = load_submission(submission, {compiled.chapter.chapter: compiled.chapter})
        except DiagnosticError as e:
            for d in e.diagnostics:
                print(d.format(), file=sys.stderr)
            return None
        opts.update(sub.selections)
    from compiler.round_file import check_options

    given: dict = {}
    errors: list[str] = []
    known = compiled.chapter.options
    for kv in getattr(args, "option", None) or ():
        if "=" not in kv:
            errors.append(f"--option takes NAME=VALUE, got {kv!r}")
            continue
        k, v = kv.split("=", 1)
        k = k.strip()
        if k in known:
            v, msg = _option_value(known[k].spec, v)
            if msg is not None:
                errors.append(f"--option {k}: {msg}")
                continue
        given[k] = v
    checked, bad = check_options(compiled.chapter, given)
    errors += [f"--option {k}: {msg}" for k, msg in bad]
    opts.update(checked)
    if not errors and given and conditions:
        table = Table(mod.GAME if mod is not None else compiled_game(compiled), opts, seed=0, shoe=_NoShoe())
        errors += [f"the selections break {cite}: {message}" for cite, message in table.violations()]
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    return None if errors else opts


class _NoShoe(StandInShoe):
    """A placeholder shoe: checking options deals no card."""


def compiled_game(compiled):
    return game_of(compiled.chapter)


_YES, _NO = ("yes", "y", "true", "1", "on"), ("no", "n", "false", "0", "off")


def _option_value(o: dict, text: str):
    """(value, None) or (None, message): an --option value read as the option's type."""
    t = o.get("type")
    v = text.strip()
    if t == "boolean":
        if v.lower() in _YES:
            return True, None
        if v.lower() in _NO:
            return False, None
        return None, f"expected yes or no, got {text!r} ({o.get('cite', '')})"
    if t == "integer":
        if not re.fullmatch(r"[+-]?[0-9]{1,12}", v):
            return None, f"expected a whole number, got {text!r} ({o.get('cite', '')})"
        return int(v), None
    if t == "house_way":
        return None, "a house way is a list of rules: give it in a Rules Submission (--submission FILE)"
    return v, None


def _game_and_selections(args):
    """(module, compiled, options) for a command's SPEC and --submission/--option; (None, None, None) on error."""
    mod, compiled = _load(args.spec)
    if mod is None:
        return None, None, None
    opts = _selections(args, compiled, mod=mod)
    if opts is None:
        return None, None, None
    return mod, compiled, opts


def _spec_of_round(path: str) -> str | None:
    """The rulespec of a hand history: its `rulespec:` (relative to it), or its chapter's in rulespecs/."""
    try:
        d = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        chapter = str(d.get("chapter"))
    except (OSError, yaml.YAMLError, AttributeError, UnicodeDecodeError) as e:
        print(f"{path}:1:1: error: cannot read the hand history: {e}", file=sys.stderr)
        return None
    if isinstance(d.get("rulespec"), str):
        named = Path(path).parent / d["rulespec"]
        if not named.is_file():
            print(f"{path}:1:1: error: its rulespec {d['rulespec']!r} is not a file (looked for {named})",
                  file=sys.stderr)
            return None
        return str(named)
    found = [p for p in spec_files() if p.name.split("-", 1)[0] == chapter]
    if len(found) != 1:
        print(f"{path}:1:1: error: no single rulespec of Chapter {chapter} in rulespecs/; give SPEC ROUND",
              file=sys.stderr)
        return None
    return str(found[0])


def cmd_settle(args) -> int:
    if not _settle_arguments(args):
        return 1
    mod, compiled = _load(args.spec)
    if mod is None:
        return 1
    played = _settle_round(args, mod, compiled)
    if played is None:
        return 1
    rs, table, result = played
    if getattr(args, "check", False):
        return _settle_check(args, rs, table, result)
    return _settle_report(args, mod, rs, table, result)


def _settle_arguments(args) -> bool:
    """SPEC ROUND, or ROUND alone (its rulespec found, set in ``args.spec``); False, said on stderr,
    for two hand histories, the two in the wrong order, or a rulespec alone."""
    from compiler.round_file import is_round

    if is_round(Path(args.spec)) and args.round is not None:  # a hand history where the rulespec goes
        if is_round(Path(args.round)):
            print(f"{args.spec}:1:1: error: two hand histories given; settle takes one (SPEC ROUND, or ROUND "
                  f"alone); to check several, run `rulespec test {args.spec} {args.round}`", file=sys.stderr)
        else:
            print(f"{args.spec}:1:1: error: this is a hand history, given where the rulespec is expected: "
                  f"the order is `rulespec settle SPEC ROUND` ({args.round} {args.spec})", file=sys.stderr)
        return False
    if args.round is None:  # `settle ROUND.yaml`: the rulespec of the round's chapter
        given = Path(args.spec).resolve()
        if given.parent == (ROOT / "rulespecs").resolve():  # a rulespec given alone: the round is missing
            print(f"rulespec settle: error: the following arguments are required: ROUND "
                  f"(a hand history after the rulespec {args.spec})", file=sys.stderr)
            return False
        args.round = args.spec
        args.spec = _spec_of_round(args.round)
        if args.spec is None:
            return False
    return True


def _settle_round(args, mod, compiled):
    """(the hand history, the table, the result) of the round replayed; None when it cannot be
    (every diagnostic on stderr)."""
    from compiler.round_file import DecisionMissing, SettingError, check_round, diagnostic_of, load_round

    try:
        rs = load_round(args.round)
    except DiagnosticError as e:
        for d in e.diagnostics:
            print(d.format(), file=sys.stderr)
        return None
    if rs.chapter != mod.CHAPTER:
        print(rs.doc.diagnostic("/chapter", f"the round is of Chapter {rs.chapter}, the spec is Chapter "
                                            f"{mod.CHAPTER}").format(), file=sys.stderr)
        return None
    # the conditions between selections are checked with the hand history's own options (check_round)
    extra = _selections(args, compiled, rs.doc.data.get("submission"), mod=mod, conditions=False)
    if extra is None:
        return None
    opts, errs = check_round(rs, mod.GAME, compiled.chapter, extra)
    if errs:
        for d in errs:
            print(d.format(), file=sys.stderr)
        return None
    try:
        table = mod.new_table(opts, shoe=rs.shoe())
        table.first_after_shuffle = rs.first_after_shuffle
        table.game_beginning = False
        for mid, reading in rs.meters.items():
            table.meters[mid] = reading
        table.carry_in(rs.carried)  # the wagers the round begins with on the layout (checked by check_round)
        result = table.play_round(rs.placed(), rs.strategy(), rs.events, new_dealer=rs.new_dealer,
                                  players=rs.players or None, rolls=rs.rolls, dealer_setting=rs.dealer_setting)
    except (DecisionMissing, SettingError, EngineError) as e:
        print(diagnostic_of(rs, e).format(), file=sys.stderr)
        return None
    extra_choices = rs.unused_choices()  # a list of choices longer than the round's decisions
    for d in extra_choices:
        print(d.format(), file=sys.stderr)
    if extra_choices:
        return None
    return rs, table, result


def _settle_check(args, rs, table, result) -> int:
    """``settle --check``: the settlement against the hand history's expectation, and every card dealt."""
    from compiler.round_file import check_expected

    diffs = check_expected(rs, result)
    diffs += [rs.doc.diagnostic("/dealt", f"{args.round}: the hand history gives cards never dealt by the "
                                          f"procedure: {'seat ' + str(s) if o == 'player' else o} ({z})")
              for o, s, z in table.shoe.unused()]
    for d in diffs:
        print(d.format(), file=sys.stderr)
    if diffs:
        return 1
    what = ("settled as expected" if "results" in (rs.expect or {})
            else "settled; the seats' nets as expected (no wager-by-wager expectation)")
    print(f"{args.round}: {len(result.results)} wager{'s' if len(result.results) != 1 else ''} {what}")
    return 0


def _settle_report(args, mod, rs, table, result) -> int:
    """The settlement, as JSON or as a table with each seat's net (and the log with --log); 1 when it
    differs from what the hand history states."""
    unused = table.shoe.unused()
    warnings = [f"the hand history gives cards never dealt by the procedure: "
                f"{'seat ' + str(s) if o == 'player' else o} ({z})" for o, s, z in unused] + rs.unasked_choices()
    differs = []
    if rs.expect:  # a hand history that states its settlement: a difference is reported, never ignored
        from compiler.round_file import check_expected

        differs = check_expected(rs, result)
    if args.format == "json":
        out = cite_lists(result.to_json())
        out["chapter"] = mod.CHAPTER
        out["warnings"] = warnings
        if rs.expect:
            out["expected"] = not differs
            out["differences"] = [d.to_dict() for d in differs]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 1 if differs else 0
    print(f"Chapter {mod.CHAPTER}. {mod.TITLE}: {args.round}")
    if result.void:
        print("Round void: every wager returned.")
    _print_settlement(result)
    for line in carried_lines(mod.GAME, result):  # wagers that stay on the layout between rounds
        print(line)
    if args.log:
        print("\nLog:")
        for e in result.log:
            print("  " + e.format())
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    for d in differs:
        print(d.format(), file=sys.stderr)
    return 1 if differs else 0


def _print_settlement(result) -> None:
    """Each wager's result with its provisions, then each seat's net."""
    unpriced = {r.seat for r in result.results if not r.priced}
    rows = [["SEAT", "WAGER", "AMOUNT", "RESULT", "NET", "PROVISIONS"]]
    for r in result.results:
        net = fmt_money(r.net, signed=True) if r.priced else "not known"  # payout odds not in the sources
        name = r.name if not getattr(r, "instance", 0) else r.title  # one of several (Come #2, Place #2 on 8)
        name = name if getattr(r, "hand", 1) == 1 else f"{name} (hand {r.hand})"  # a hand made by a split
        rows.append([str(r.seat), name, fmt_money(r.amount), r.outcome, net, "; ".join(r.cites)])
    print(text_table(rows, right=(0, 2, 4)))  # columns as wide as the longest wager name
    for seat, net in sorted(result.net_by_seat().items()):
        print(f"seat {seat} net {fmt_money(net, signed=True)}"
              + (" plus the amount of a win whose payout odds are not in the sources" if seat in unpriced else ""))


def _unselected(mod, compiled, opts) -> list[str]:
    """Selections without a default that the game needs and that are not given (e.g. a house way
    the chapter leaves to the casino's Rules Submission)."""
    out = []
    for oid, o in compiled.chapter.options.items():
        if o.type == "house_way" and not o.has_default and not opts.get(oid):
            out.append(f"Chapter {mod.CHAPTER} leaves the house way (option {oid!r}, {o.cite}) to "
                       "the casino's Rules Submission, and none is given: name one with --submission FILE "
                       "(e.g. one of rulespecs/submissions/)")
    return out


def _check_counts(args, mod, compiled) -> list[str]:
    """The numeric arguments of analyze and simulate, in the game's bounds."""
    errors = []
    rounds = getattr(args, "rounds", None)
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        errors.append(f"--rounds {rounds}: give a number of rounds from 1 to {MAX_ROUNDS:,}")
    seats = getattr(args, "seats", None)
    if seats is not None and not 1 <= seats <= mod.GAME.max_positions:
        errors.append(f"--seats {seats}: Chapter {mod.CHAPTER}'s table has positions 1 to {mod.GAME.max_positions}")
    decks = getattr(args, "decks", None)
    if decks is not None:
        cd = mod.GAME.cards
        o = compiled.chapter.options.get(cd.decks_option or "")
        o = o.spec if o is not None else {}  # the option as written: its bounds where given
        lo, hi = o.get("minimum", 1), o.get("maximum", cd.decks_default if not cd.decks_option else None)
        if decks < max(1, lo) or (hi is not None and decks > hi):
            errors.append(f"--decks {decks}: Chapter {mod.CHAPTER} is played with "
                          + (f"{max(1, lo)} to {hi} decks" if hi is not None and hi != lo else f"{hi} deck(s)")
                          + (f" ({o['cite']})" if o.get("cite") else ""))
    precision = getattr(args, "precision", None)
    if precision is not None and not (0 < precision <= 100):  # also refuses nan and inf
        errors.append(f"--precision {precision}: give a standard error in percentage points, above 0 and at most 100")
    policy = getattr(args, "policy", None)
    if policy is not None:
        choices = sorted({c.id for st in _all_steps(mod.GAME.procedure) if st.kind in ("decide", "split") for c in st.choices})
        if policy not in choices:
            decide = next((st for st in _all_steps(compiled.chapter.procedure) if st.kind in ("decide", "split")), None)
            where = (f"{decide.src.path}:{decide.src.line}:{decide.src.col}" if decide is not None else
                     str(getattr(args, "spec", "")))
            errors.append(Positioned(where, f"--policy {policy!r}: " + (
                f"no decision of Chapter {mod.CHAPTER} has this choice; its choices are {', '.join(choices)}"
                if choices else f"Chapter {mod.CHAPTER} has no player decision")))
    return errors


class Positioned(str):
    """An error of an argument, shown at the place of the rulespec it is checked against."""

    def __new__(cls, where: str, message: str):
        obj = super().__new__(cls, message)
        obj.where = where
        return obj


def _error_line(e) -> str:
    return f"{e.where}: error: {e}" if isinstance(e, Positioned) else f"error: {e}"


MAX_ROUNDS = 100_000_000


def _all_steps(steps):
    for st in steps:
        yield st
        yield from _all_steps(st.steps)


def cmd_analyze(args) -> int:
    from compiler.analysis.report import analyze

    mod, compiled, opts = _game_and_selections(args)
    if mod is None:
        return 1
    errors = _check_counts(args, mod, compiled)
    for e in errors:
        print(_error_line(e), file=sys.stderr)
    if errors:
        return 1
    if getattr(args, "bet", None):
        return _declared_bets(args, mod, compiled, opts)

    if getattr(args, "exhaustive", False):
        from compiler.analysis import draw_report, paigow_record

        try:
            paigow_record.compute_and_record(args.spec)
        except paigow_record.Refused as e:
            if draw_report.refusal(mod.GAME, compiled.chapter) is not None:
                print(f"error: no exhaustive enumeration for this chapter: {e}", file=sys.stderr)
                return 1
            from compiler.values import walk_limits

            walk_limits.budget.set(None)  # the draw walk: walked whole, however long
    from compiler.analysis import progress
    from compiler.analysis.simulate import Progress
    from compiler.render.terminal import raw_stream

    ticker = Ticker(f"analyzing Chapter {mod.CHAPTER}")  # the time spent, on a terminal only

    def bar(total: int, unit: str) -> Progress:  # a route that knows its total: rate and time left instead
        ticker.paused = True
        return Progress(total, stream=raw_stream(sys.stderr), unit=unit)

    try:
        with ticker, progress.reporting(bar):
            report = analyze(mod.GAME, compiled.chapter, opts, decks=args.decks, rounds=args.rounds,
                             seed=args.seed, precision=None if args.precision is None else args.precision / 100)
    except UnsettledError as e:
        print(_unsettled(compiled, e, "analyze"), file=sys.stderr)
        return 1
    except (ValueError, EngineError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.strategy_out:
        if report.strategy is None:
            print("error: this game has no decision strategy to export", file=sys.stderr)
            return 1
        out = Path(args.strategy_out)
        out.mkdir(parents=True, exist_ok=True)
        for known in report.strategy.levels():
            stem = report.strategy.file_stem(known)
            (out / f"{stem}.txt").write_text(report.strategy.format_strategy(known) + "\n")
            (out / f"{stem}.csv").write_text(_strategy_csv(report.strategy, known))
    if args.format == "json":
        print(json.dumps(cite_lists(report.to_json()), indent=2, ensure_ascii=False))
    else:
        print(report.to_text())
        if report.strategy is not None:
            print()
            print("Optimal strategy (summary; --strategy-out DIR writes every holding):")
            for known in report.strategy.levels():
                print(report.strategy.format_strategy(known, max_rows=3))
    return 0


def _declared_bets(args, mod, compiled, opts) -> int:
    """``analyze --bet W=AMOUNT ...``: the round with that set of wagers (compiler/analysis/declared_bets.py)."""
    from compiler.analysis import declared_bets as db

    try:
        bets = [_parse_bet(text) for text in args.bet]
        fig = db.round_figure(mod.GAME, compiled.chapter, bets, opts, decks=args.decks)
    except db.Refused as e:
        fig, refused = None, str(e)
    except (ValueError, EngineError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.format == "json":
        out = {"chapter": str(mod.CHAPTER), "declared_wagers": fig.to_json() if fig else {"status": "not computed",
                                                                                          "reason": refused}}
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(f"Chapter {mod.CHAPTER}. {mod.GAME.title}: a round with the declared wagers")
        print(fig.to_text({w: d.name for w, d in mod.GAME.wagers.items()}) if fig else refused)
    return 0


def _parse_bet(text: str):
    from compiler.analysis.declared_bets import Bet

    wager, eq, rest = text.partition("=")
    amount, at, numbers = rest.partition("@")
    try:
        value = Decimal(amount.strip())
    except ArithmeticError:
        value = None
    if not eq or not wager.strip() or value is None or not value.is_finite() or value != value.quantize(Decimal("0.01")):
        raise ValueError(f"--bet {text!r}: write WAGER=AMOUNT (an amount in dollars and cents), with @N,N... for a "
                         "wager placed on chosen numbers")
    nums = tuple(n.strip() for n in numbers.split(",")) if at else None
    if nums is not None and not all(nums):
        raise ValueError(f"--bet {text!r}: an empty number after @")
    return Bet(wager.strip(), value, nums)


def _strategy_csv(strategy, known: int) -> str:
    """One decision level of an optimal strategy as CSV: a row per class of holdings (suits shown as a, b, c, d),
    best first, with the number of holdings, the choice, and each option's expected net per unit of the base
    wager as an exact fraction and as a decimal."""
    import csv
    import io

    opts = list(strategy.level_options[known])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["hand", "holdings", "decision"] + [f"ev_{o}" for o in opts] + [f"ev_{o}_decimal" for o in opts])
    for r in strategy.strategy_table(known):
        evs = [r["ev"].get(o, r["ev"].get(str(o))) for o in opts]
        w.writerow([r["hand"], r["sets"], r["decision"]] + [str(v) for v in evs] + [f"{float(v):.10f}" for v in evs])
    return buf.getvalue()


def _unsettled(compiled, e: UnsettledError, command: str) -> str:
    """A path of the procedure on which no rule settles a wager: the error at the wager in the spec,
    with the round and seat where it was found."""
    return compiled.doc.diagnostic(f"/wagers/{e.wager}", f"{command}: {e}; the chapter has a path on which no "
                                                         "rule settles this wager").format()


def cmd_simulate(args) -> int:
    from compiler.analysis.simulate import simulate

    mod, compiled, opts = _game_and_selections(args)
    if mod is None:
        return 1
    errors = _check_counts(args, mod, compiled) + _unselected(mod, compiled, opts)
    placeable = [w for w, d in mod.GAME.wagers.items() if d.placed == "before_deal"
                 and (d.offered_by is None or opts.get(d.offered_by, getattr(
                     compiled.chapter.options.get(d.offered_by), "default", None)))]
    if not placeable:
        errors.append(f"Chapter {mod.CHAPTER} has no wager a player can place before the deal "
                      f"({compiled.chapter.completeness}): there is nothing to simulate")
    for e in errors:
        print(_error_line(e), file=sys.stderr)
    if errors:
        return 1

    from compiler.analysis.simulate import Progress

    try:
        # rounds done, rate and time left on a terminal (its own \r codes: the stream under the escaping one)
        res = simulate(mod.GAME, opts, rounds=args.rounds, seats=args.seats, seed=args.seed, policy=args.policy,
                       workers=args.workers, cluster=args.cluster,
                       progress=Progress(args.rounds, stream=raw_stream(sys.stderr)))
    except UnsettledError as e:
        print(_unsettled(compiled, e, "simulate"), file=sys.stderr)
        return 1
    except EngineError as e:  # the selections do not let the procedure go on
        print(f"{args.spec}: error: {e}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps(cite_lists(res.to_json()), indent=2, ensure_ascii=False))
    else:
        print(res.to_text())
    return 0
