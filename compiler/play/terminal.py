"""``rulespec play``: the terminal front end (rich renders the table and reads the answers).

rich is used for what a person sees (tables, panels, colour where the terminal has it) and for
its prompts, which read plain lines: the same game is played at a terminal, through a
pseudo-terminal by a test, or from a piped script.
"""
from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.segment import Segment
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table as RichTable

from compiler.play.session import (CARD_EVENTS, Layout, Player, history_yaml, layout_of, play_one,
                                   prepare_table)
from compiler.play.saving import parse_amount, save_dir_problem, save_round, write_new
from compiler.game_commands import _load, _selections
from compiler.render.terminal import raw_stream, visible
from compiler.runtime.chance import check_chosen
from compiler.runtime.cards import card_str
from compiler.runtime.carry import carried_lines, layout_name
from compiler.runtime.engine import EngineError
from compiler.runtime.money import fmt_money


class InputEnded(Exception):
    """The player's input ended (end of file) before the round was complete."""


def _cards(cards) -> str:
    return " ".join(card_str(c) if c is not None else "??" for c in cards) or "-"


class TerminalPlayer(Player):
    def __init__(self, console: Console, layout: Layout):
        self.console = console
        self.layout = layout
        self.names = {w[0]: w[1] for w in layout.wagers}

    def ask(self, question: str, choices: list[str] | None = None, default: str | None = None) -> str:
        long = choices is not None and len(" ".join(choices)) > 40
        if long:  # listed whole, a name a line, never cut by the terminal's width
            for c in choices:
                self.console.print(f"    {escape(c)}", overflow="fold")
        try:
            return Prompt.ask(question + (" (one of the above)" if long else ""), console=self.console,
                              choices=choices, default=default, show_default=default is not None,
                              show_choices=not long)
        except EOFError:
            raise InputEnded() from None

    def numbers(self, wd, procedure) -> list[str]:
        """The numbers (pockets, faces, totals) a wager declared with ``choose`` is placed on, checked."""
        while True:
            text = self.ask("  ... on which numbers? (separated by spaces)") or ""  # blank: none given, asked again
            try:
                return list(check_chosen(wd, text.replace(",", " ").split(), procedure))
            except ValueError as e:
                self.console.print(f"[red]{escape(str(e))}[/red]")

    def amount(self, question: str, default: str = "0") -> Decimal:
        while True:
            a, why = parse_amount(self.ask(question, default=default))
            if a is not None:
                return a
            self.console.print(f"[red]{escape(why)}[/red]")

    def save_path(self, text: str) -> Path | None:
        """Ask where to save the round until it is saved or declined; never over a file without asking."""
        while True:
            answer = self.ask("Save this round as a hand history (file name; blank: do not save)", default="")
            if not answer.strip():
                return None
            path = Path(answer)
            overwrite = False
            if path.is_dir():
                self.console.print(f"[red]{escape(str(path))} is a directory: give a file name[/red]")
                continue
            if path.exists() or path.is_symlink():
                q = f"{escape(str(path))} exists: overwrite it?"
                if self.ask(q, choices=["y", "n"], default="n") != "y":
                    continue
                overwrite = True
            try:
                write_new(path, text, overwrite)
            except OSError as e:
                self.console.print(f"[red]cannot save to {escape(str(path))}: {escape(e.strerror or str(e))}[/red]")
                continue
            return path

    def show_view(self, seat: int, view) -> None:
        parts = [f"[bold]seat {seat}[/bold]: " + ", ".join(f"{z} {_cards(c)}" for z, c in view.cards.items())]
        if view.dealer:  # the dealer's cards dealt face down stay hidden from the player
            parts.append("dealer: " + ", ".join(
                f"{z} {'?? ' * len(c) if z in self.layout.dealer_face_down else _cards(c)}".rstrip()
                for z, c in view.dealer.items()))
        if view.community:
            parts.append(f"community: {_cards(view.community)}")
        if view.wagers:
            parts.append("wagers: " + ", ".join(f"{self.names.get(w, w)} {fmt_money(a)}" for w, a in view.wagers.items()))
        self.console.print("  " + " | ".join(parts))

    def choose(self, seat, step, decision, choices, view):
        self.show_view(seat, view)
        cites = {}
        if step is not None:
            cites = {c.id: c.cite for c in step.choices}
        for c in choices:
            self.console.print(f"    {escape(c)}  [dim]{escape(cites.get(c, ''))}[/dim]")
        where = f" ({step.cite})" if step is not None else ""
        about = f" ({view.about})" if getattr(view, "about", "") else ""  # a decision taken per instance (each)
        return self.ask(f"Seat {seat}, {decision.replace('_', ' ')}{about}{where}", choices=choices,
                        default=choices[0])

    def offer(self, seat, wager, view):
        self.show_view(seat, view)
        return self.amount(f"Seat {seat}, {self.names.get(wager, wager)}: amount (0 declines)")

    def setting(self, seat, step, candidates, view):
        self.show_view(seat, view)
        self.console.print("    0  the house way (the hands set the way the house requires)")
        for i, (high, low) in enumerate(candidates, 1):
            self.console.print(f"    {i}  high {_cards(high)}  /  low {_cards(low)}")
        pick = self.ask(f"Seat {seat}, set the hands ({step})", choices=[str(i) for i in range(len(candidates) + 1)],
                        default="0")
        return None if pick == "0" else candidates[int(pick) - 1]


def show_layout(console: Console, lay: Layout, seats: list[int]) -> None:
    console.print(Panel(f"Chapter {lay.chapter}. {lay.title}\n"
                        f"positions 1 to {lay.positions} (1 = farthest to the dealer's left); "
                        f"playing: {', '.join(map(str, seats))}", title="rulespec play"))
    t = RichTable(title="Wagers", show_lines=False)
    for col in ("wager", "placed", "§", "offered"):
        t.add_column(col, overflow="fold")
    for wid, name, cite, placed, offered in lay.wagers:
        t.add_row(f"{name} ({wid})", placed.replace("_", " "), cite, "yes" if offered else "no")
    console.print(t)
    t = RichTable(title="Decisions a player may make")
    for col in ("step", "choices", "§"):
        t.add_column(col)
    for sid, cite, choices in lay.decisions:
        t.add_row(sid, ", ".join(f"{c} ({cc})" if cc and cc != cite else c for c, cc in choices), cite)
    for sid, name, cite in lay.offers:
        t.add_row(sid, f"place a {name}, or decline", cite)
    for sid, cite, hi, lo in lay.settings:
        t.add_row(sid, f"set a {hi}-card high hand and a {lo}-card low hand, or leave it to the house way", cite)
    console.print(t)
    if lay.irregularities:
        t = RichTable(title="Irregularities that may be raised")
        t.add_column("event", no_wrap=True, min_width=max(len(i[0]) for i in lay.irregularities))  # never cut
        for col in ("what", "§"):
            t.add_column(col, overflow="fold")
        for ev, title, cite in lay.irregularities:
            t.add_row(ev, title, cite)
        console.print(t)
    opts = ", ".join(f"{k}={v}" for k, v in lay.options.items() if v is not None)
    console.print(f"[dim]selections: {escape(str(opts))}[/dim]")


# shown condensed into the cards of each hand in the compact view of a round (the full log has each)
CONDENSED = ("deal", "burn")


def show_round(console: Console, played, balances: dict[int, Decimal], names: dict[str, str],
               full: bool = False) -> None:
    """The round: compact (the cards of each hand, then every other ruling with its §; about 40 lines
    of 80 columns) or ``full`` (every entry of the log), then the settlement and the balances."""
    r = played.result
    if full:
        show_log(console, r, balances)
    else:
        show_compact(console, r, balances)
    t = RichTable(title="Settlement")
    for col, kw in (("seat", {"justify": "right"}), ("wager", {}), ("amount", {"justify": "right"}),
                    ("result", {}), ("net", {"justify": "right"}), ("§", {})):
        t.add_column(col, overflow="fold", **kw)
    for w in r.results:
        net = fmt_money(w.net, signed=True) if w.priced else "not known"
        t.add_row(str(w.seat), w.title, fmt_money(w.amount), w.outcome, net, "; ".join(w.cites))
    console.print(t)
    for seat, net in sorted(r.net_by_seat().items()):
        balances[seat] = balances.get(seat, Decimal(0)) + net
    console.print("balance: " + ", ".join(f"seat {s} {fmt_money(b, signed=True)}" for s, b in sorted(balances.items())))


def _running(balances, e, running) -> str:
    if e.seat is not None and e.net is not None and e.kind != "void" or (e.kind == "void" and e.net is not None):
        running[e.seat] = running.get(e.seat, Decimal(0)) + e.net
        return fmt_money(running[e.seat], signed=True)
    return ""


def show_compact(console: Console, r, balances: dict[int, Decimal]) -> None:
    console.print(f"[bold]Round {r.number}[/bold] [dim](the full log: answer log at the next question)[/dim]")
    for who, zones in r.dealt.items():
        cards = "; ".join(f"{z} {' '.join(c)}" for z, c in zones.items() if c)
        if cards:
            console.print(f"  {escape(who)}: {escape(cards)}", overflow="fold")
    running = dict(balances)
    for e in r.log:
        bal = _running(balances, e, running)
        if e.kind in CONDENSED:
            continue
        seat = f"seat {e.seat}: " if e.seat is not None else ""
        console.print(f"  {escape(seat + e.text)} [dim]{escape(e.cite)}[/dim]" + (f"  [bold]{bal}[/bold]" if bal else ""),
                      overflow="fold")


def show_log(console: Console, r, balances: dict[int, Decimal]) -> None:
    t = RichTable(title=f"Round {r.number}: every ruling with its provision")
    for col, kw in (("seat", {"justify": "right"}), ("ruling", {}), ("§", {}), ("balance", {"justify": "right"})):
        t.add_column(col, **kw)
    running = dict(balances)
    for e in r.log:
        bal = _running(balances, e, running)
        t.add_row("" if e.seat is None else str(e.seat), e.text, e.cite, bal)
    console.print(t)


class SafeConsole(Console):
    """A rich console whose text can never act on the terminal: every character of the text it is
    given passes `compiler.render.terminal.visible` (an ANSI escape or U+2028 from a spec is shown, not obeyed),
    while the colours rich adds itself come from styles, not from text, and still render. It writes to
    the terminal itself, not through the CLI's escaping stream, which would show those colours as text."""

    def __init__(self, **kw):
        self._visible = visible
        kw.setdefault("file", raw_stream(sys.stdout))
        super().__init__(**kw)

    def _render_buffer(self, buffer):
        v = self._visible
        return super()._render_buffer(s if s.control else Segment(v(s.text), s.style, s.control) for s in buffer)


def run(args, console: Console | None = None) -> int:
    console = console or SafeConsole(highlight=False)
    prepared = _prepare(args)
    if prepared is None:
        return 1
    compiled, opts, table = prepared
    seats = list(range(1, args.seats + 1))
    lay = layout_of(table, compiled.chapter)
    player = TerminalPlayer(console, lay)
    show_layout(console, lay, seats)
    balances: dict[int, Decimal] = {}
    save_dir = Path(args.save) if args.save is not None else None
    try:
        while True:
            code = _one_round(args, console, player, table, opts, seats, balances, save_dir)
            if code is not None:
                return code
    except InputEnded:
        console.print("\ninput ended")
        return 0


def _prepare(args):
    """(the compiled chapter, the selections, the table) of the command line, or None when they
    cannot be played (each reason said on stderr)."""
    if args.save is not None and (why := save_dir_problem(args.save)):
        print(f"error: {why}", file=sys.stderr)
        return None
    mod, compiled = _load(args.chapter)
    if mod is None:
        return None
    opts = _selections(args, compiled)
    if opts is None:
        return None
    table = prepare_table(mod.new_table(opts, seed=args.seed))
    bad = table.violations()
    if bad:
        for cite, msg in bad:
            print(f"error: the selections break {cite}: {msg}", file=sys.stderr)
        return None
    g = table.game
    if not 1 <= args.seats <= g.max_positions:
        print(f"error: --seats {args.seats}: this table has positions 1 to {g.max_positions}", file=sys.stderr)
        return None
    return compiled, opts, table


def _one_round(args, console: Console, player: TerminalPlayer, table, opts, seats: list[int],
               balances: dict[int, Decimal], save_dir: Path | None) -> int | None:
    """One round: the wagers, the irregularities raised, the play, the result (saved if asked).
    None: the session goes on; else the exit status of the session."""
    lay = player.layout
    console.rule(f"Round {table.round_number + 1}")
    bets: dict[int, dict[str, Decimal]] = {}
    for seat, c in sorted(table.carried.items()):  # on the layout from the last round, until settled
        names = ", ".join(f"{layout_name(table.game, w)} {fmt_money(a)}" for w, a in c.wagers.items())
        console.print(f"seat {seat} has on the layout from the last round: {escape(names)}"
                      + (f" ({escape(', '.join(f'{k} {v}' for k, v in c.state.items()))})" if c.state else ""))
    for seat in seats:
        bets[seat] = _ask_bets(console, player, table, seat)
    bets = {s: b for s, b in bets.items() if b}
    if not bets and not table.carried:  # a wager on the layout from the last round plays on
        console.print("[yellow]no wagers: nobody plays this round[/yellow]")
        again = player.ask("Play another round?", choices=["y", "n"], default="n")
        if again == "n":
            return 0
        return None
    events = _ask_events(console, player, lay, bets)
    try:
        played = play_one(table, bets, player, events, selections=opts, submission=args.submission)
    except EngineError as exc:  # reported; the session goes on (only the player ends it)
        console.print(f"[red]the round cannot be played: {escape(str(exc))}[/red]; nothing of it is "
                      "kept, and the balances stand")
        if player.ask("Play another round?", choices=["y", "n"], default="y") == "n":
            return 0
        return None
    except InputEnded:  # the input ended at a decision: the round is not complete, nothing of it is kept
        console.print("\n[red]input ended during the round: it is not complete, and nothing of it is kept[/red]")
        return 1
    except Exception as exc:  # an engine failure is reported, never a traceback
        console.print(f"[red]the round cannot be played: internal error: {type(exc).__name__}: "
                      f"{escape(str(exc))}[/red]")
        return 1
    return _after_round(args, console, player, table, played, balances, save_dir)


def _ask_bets(console: Console, player: TerminalPlayer, table, seat: int) -> dict:
    """The wagers of one seat placed before the deal, asked again until the table accepts them."""
    g = table.game
    on_layout = table.carried[seat].wagers if seat in table.carried else {}
    while True:  # a slip is refused with its rule and asked again; it never ends the session
        bets: dict = {}
        for wid, name, cite, placed, offered in player.layout.wagers:
            if placed != "before_deal" or not offered or wid in on_layout:  # a wager on the layout plays on
                continue
            wd = g.wagers[wid]
            default = fmt_money(wd.amounts[0]) if wd.amounts else ("10" if wd.required else "0")
            several: list = []
            while True:  # a wager of several (several: true): another one until the player says 0
                more = f" #{len(several) + 1}" if wd.several else ""
                a = player.amount(f"Seat {seat}, {name}{more} ({cite}): amount (0: no {'more ' if several else ''}"
                                  "wager)", default=default if not several else "0")
                bet = ({"amount": a, "numbers": player.numbers(wd, g.procedure)} if a and wd.choose  # ask for them
                       else a)
                if a and wd.several:
                    several.append(bet)
                    continue
                if a:
                    bets[wid] = bet
                break
            if several:
                bets[wid] = several
        try:
            table.check_bets(seat, bets)
            return bets
        except EngineError as exc:
            console.print(f"[red]not accepted: {escape(str(exc))}[/red]; the wagers of seat {seat} "
                          "again, please")


def _ask_events(console: Console, player: TerminalPlayer, lay: Layout, bets: dict) -> list[dict]:
    """The irregularities the player raises this round: each with its step, seat and what it says."""
    step_ids = [s[0] for s in lay.steps]
    events = []
    while lay.irregularities:
        ev = player.ask("Raise an irregularity this round?",
                        choices=["none"] + [i[0] for i in lay.irregularities], default="none")
        if ev == "none":
            break
        e: dict[str, Any] = {"event": ev}
        before = player.ask("  ... before which step? (end: after the round's steps)",
                            choices=step_ids + ["end"], default=step_ids[0])
        if before != "end":
            e["before"] = before
        seat = player.ask("  ... at which seat? (none: not one seat's)",
                          choices=["none"] + [str(s) for s in bets], default="none")
        if seat != "none":
            e["seat"] = int(seat)
        what = {i[0]: (i[1], i[2]) for i in lay.irregularities}.get(ev, ("", ""))
        for name, values in lay.event_attrs.get(ev, {}).items():
            # what the question is for: the rules of the event read it as event.NAME
            console.print(f"  [dim]{escape(name.replace('_', ' '))}: read as event.{escape(name)} by the "
                          f"rules of {escape(what[1])} ({escape(what[0])})[/dim]", overflow="fold")
            if values:
                e[name] = player.ask(f"  ... {name.replace('_', ' ')}?", choices=values, default=values[0])
            else:
                e[name] = player.ask(f"  ... {name.replace('_', ' ')}? (yes or no)", choices=["yes", "no"]) == "yes"
        events.append(e)
    return events


def _after_round(args, console: Console, player: TerminalPlayer, table, played, balances: dict[int, Decimal],
                 save_dir: Path | None) -> int | None:
    """The round played: shown, saved (in --save's directory, else where the player says), then
    whether to play another (None: yes; 0: no)."""
    for e in played.history.get("events", ()):
        if e["event"] in CARD_EVENTS:
            console.print(f"[yellow]{escape(e['event'].replace('_', ' '))}: {escape(' '.join(e['cards']))}[/yellow]")
    before = dict(balances)
    show_round(console, played, balances, player.names)
    for line in carried_lines(table.game, played.result):  # wagers that stay on the layout between rounds
        console.print(escape(line))
    text = history_yaml(played.history)
    if save_dir is not None:
        try:  # numbered on from the rounds already in the directory, never over one
            path = save_round(save_dir, table.game.chapter, text)
        except OSError as exc:
            console.print(f"[red]cannot save in {escape(str(save_dir))}: {escape(exc.strerror or str(exc))}"
                          "[/red]")
            path = player.save_path(text)
    else:
        path = player.save_path(text)
    if path is not None:
        console.print(f"saved: {path}", soft_wrap=True)
        console.print(f"  replay: rulespec settle {args.chapter} {path}", soft_wrap=True)
    while (again := player.ask("Play another round? (log: the full log of this one)",
                               choices=["y", "n", "log"], default="n")) == "log":
        show_log(console, played.result, before)
    if again == "n":
        return 0
    return None
