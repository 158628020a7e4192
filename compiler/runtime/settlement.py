"""Settlement: the odds a win pays (payouts, paytables, the casino's selections, progressive meters),
settling a wager, the ``settle`` and ``envy`` steps, and a round's results into the ledger."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from compiler.runtime.context import Context
from compiler.runtime.definition import Payout, Step
from compiler.runtime.errors import EngineError, RefusedError, UnsettledError
from compiler.runtime.money import MoneyError, Odds, fmt_money, money, parse_odds, to_cents
from compiler.runtime.state import Round, Wager, WagerResult, wager_name


def _same_value(value, key) -> bool:
    """A rule's value and a row's: equal numbers (an int, a Fraction, a Decimal alike) or equal texts."""
    if isinstance(key, bool) or isinstance(value, bool):
        return False
    if isinstance(key, str) or isinstance(value, str):
        return isinstance(key, str) and isinstance(value, str) and key == value
    try:
        return Fraction(value) == Fraction(key)
    except (TypeError, ValueError):
        return False


class Settlement:
    """Table methods of settlement (``self`` is a :class:`~compiler.runtime.table.Table`)."""

    def paytable_odds(self, pid: str, value, amount: Decimal | None = None) -> tuple[Odds, str, str]:
        """The odds of the first row of paytable ``pid`` that ``value`` (a hand value, or cards) meets."""
        pt = self.game.paytables[pid]
        col = 0
        if pt.amounts:
            if amount not in pt.amounts:
                raise RefusedError(f"paytable {pid!r} ({pt.cite}) has schedules for "
                                   f"{', '.join('$' + fmt_money(a) for a in pt.amounts)} only, not ${fmt_money(amount)}")
            col = pt.amounts.index(amount)
        elif pt.option is not None:
            sel = self.options.get(pt.option)
            if sel not in pt.columns:
                raise RefusedError(f"paytable {pid!r}: the Rules Submission selects {sel!r}, not one of {list(pt.columns)}")
            col = pt.columns.index(sel)
        ranking = self.ranking(pt.ranking) if pt.ranking else None
        if ranking is None:  # a table of values: the row whose value the rule's value equals
            return next(((odds[col], pt.cite, label) for key, odds, label in pt.rows if _same_value(value, key)), None)
        cards = None
        if isinstance(value, (list, tuple)):
            cards = [c for c in value if c is not None]
            value = ranking.best(cards)[0] if len(cards) > ranking.cards else ranking.evaluate(cards)
        for hand, odds, label in pt.rows:
            if cards is not None and ranking.card_sets(hand) is not None:
                if ranking.matches_hand(cards, hand):
                    return odds[col], pt.cite, label
            elif ranking.card_sets(hand) is None and ranking.value_matches(value, hand):
                return odds[col], pt.cite, label
        return None

    # -- money ------------------------------------------------------------------------------

    def payout_odds(self, p: Payout) -> Odds | None:
        """The odds of a payout: the spec's, else the casino's selection of ``odds_option``, else None."""
        if p.odds is not None:
            return p.odds
        val = self.options.get(p.odds_option) if p.odds_option else None
        if val is None or val == "":
            return None
        if isinstance(val, Odds):
            return val
        try:
            return parse_odds(str(val))
        except MoneyError as e:
            raise RefusedError(f"option {p.odds_option!r} ({p.cite}): {e}") from None

    def settle_unpriced(self, ctx: Context, w: Wager, p: Payout, cites: list[str]) -> None:
        """A win at payout odds the sources do not give: recorded as a win, amount not determined."""
        why = p.unpriced or f"the payout odds of {p.cite} are not in the sources"
        desc = f"wins: {why}; the amount is not determined" + (
            f" (a Rules Submission may give it: option {p.odds_option!r})" if p.odds_option else "")
        w.outcome, w.net, w.cites, w.detail, w.priced = "win", Decimal(0), cites, desc, False
        ctx.r.log("win", "; ".join(cites), f"{wager_name(self.game, w)} {fmt_money(w.amount)}: {desc}",
                  seat=ctx.seat.number, wager=w.key, amount=w.amount)

    def settle_win(self, ctx: Context, w: Wager, odds: Odds, cites: list[str], desc: str) -> None:
        meter_id = self.game.wagers[w.id].progressive
        if odds.kind == "meter":
            if meter_id is None:
                raise EngineError(f"{w.id!r} pays a share of a meter but has no progressive meter")
            m = self.game.meters[meter_id]
            reading = self.meters[meter_id]
            gross, _ = to_cents(reading * money(odds.num) / Decimal(100))
            net = gross - w.amount
            desc += f" (meter {fmt_money(reading)} when paid; paid by the progressive system, not the table inventory)"
            self.meters[meter_id] = reading - gross
            self.ledger.meters -= gross
            w.meter_paid = gross
            w.outcome, w.net, w.cites, w.detail = "win", net, cites, desc
            ctx.r.log("win", "; ".join(cites), f"{wager_name(self.game, w)} {fmt_money(w.amount)}: {desc} "
                      f"(net {fmt_money(net, signed=True)})", seat=ctx.seat.number, wager=w.key, amount=w.amount,
                      net=net)
            reset = self.meter_reset(meter_id)
            if self.meters[meter_id] < reset:
                seed = reset - self.meters[meter_id]
                self.ledger.meters += seed
                self.ledger.house -= seed
                self.meters[meter_id] = reset
                w.meter_seed = seed
                ctx.r.log("meter", m.cite, f"meter returns to its reset amount {fmt_money(reset)}")
            return
        net, rounded = to_cents(odds.payout(w.amount))
        if rounded:
            desc += " (rounded down to the cent)"
        w.outcome, w.net, w.cites, w.detail = ("push" if odds.kind == "push" else "win"), net, cites, desc
        kind = w.outcome
        ctx.r.log(kind, "; ".join(cites), f"{wager_name(self.game, w)} {fmt_money(w.amount)}: {desc} "
                  f"(net {fmt_money(net, signed=True)})", seat=ctx.seat.number, wager=w.key, amount=w.amount, net=net)


    def _results(self, rnd: Round) -> list[WagerResult]:
        """Every wager's result (each must have an outcome) and the bonuses, booked into the ledger."""
        game = self.game
        for s in rnd.seats.values():
            for w in s.history:
                if w.outcome is None:
                    raise UnsettledError(f"round {rnd.number}, seat {s.number}: the {wager_name(game, w)} "
                                         f"({w.id!r}) is left unsettled: no rule of the procedure settled it",
                                         w.id, s.number, rnd.number)
        results = []
        for s in rnd.seats_in_round():
            for w in s.history:
                if w.bonus and w.outcome == "void":  # a void wager earns no bonus: it is taken back
                    rnd.log("bonus", "; ".join(w.bonus_cites), f"{wager_name(game, w)} is void: its bonus "
                            f"{fmt_money(w.bonus)} is taken back", seat=s.number, wager=w.key, amount=w.amount,
                            net=-w.bonus)
                    w.bonus, w.bonus_cites, w.bonus_detail = Decimal(0), [], ""
                net = w.net + w.bonus  # a bonus on the wager's own result is part of its result
                results.append(WagerResult(s.number, w.id, game.wagers[w.id].name, w.amount, w.outcome, net,
                                           tuple(dict.fromkeys([*w.cites, *w.bonus_cites])), w.detail + w.bonus_detail,
                                           w.priced, s.hand, w.instance, w.on))
                if w.outcome == "void" and w.contribution:
                    self._contribute(rnd, w, game.wagers[w.id].progressive, -1)
                self.ledger.players += net
                if w.meter_paid:
                    self.ledger.house += w.amount  # the stake stays with the house; the meter paid the win
                else:
                    self.ledger.house -= net
            for b in s.bonuses:
                results.append(b)
                self.ledger.players += b.net
                self.ledger.house -= b.net
        return results


def settle(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    """``do: settle``: for each player, every rule whose ``when`` holds is applied, in order."""
    for s in table._players(ctx, rnd, step):
        ctx.seat = s
        for rule in step.rules:
            ctx.cite = rule.cite
            if rule.each is not None:  # once per instance in action of a wager of several (several: true)
                _each_instance(ctx, s, rule)
            elif rule.when is None or rule.when(ctx):
                rule.then(ctx)
            if rnd.stopped:
                return
    ctx.seat = None


def _each_instance(ctx: Context, s, rule) -> None:
    """A rule naming a wager of several instances, run for each instance of it in action (in the order placed),
    reading and setting that instance's own kept state."""
    try:
        for w in [w for w in s.wagers.values() if w.id == rule.each and w.outcome is None]:
            ctx.instance = w
            if rule.when is None or rule.when(ctx):
                rule.then(ctx)
            if ctx.r.stopped:
                return
    finally:
        ctx.instance = None


def envy(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    """``do: envy``: pay each receiving player a fixed bonus for every *other* player holding a qualifying
    hand, under the name the chapter gives the bonus (``name``)."""
    wager, pid, name = step.params["wager"], step.params["paytable"], step.params["name"]
    qualifying, hand = step.exprs["qualifying"], step.exprs["hand"]
    holders = []
    for s in rnd.seats_in_round(step.order):  # folded players' hands count too: their cards stay out
        ctx.seat = s
        if qualifying(ctx):
            holders.append((s, list(hand(ctx))))
    if not holders:
        ctx.seat = None
        return
    for r in table._players(ctx, rnd, step):
        placed = [w for w in r.history if w.id == wager and w.outcome != "void"]
        if not placed:
            continue
        amount = placed[-1].amount
        for h, cards in holders:
            if h is r:
                continue  # never for one's own hand
            found = table.paytable_odds(pid, cards, amount)
            if found is None:
                raise EngineError(f"{step.id}: seat {h.number} holds a qualifying hand that paytable {pid!r} "
                                  "does not list")
            odds, pcite, label = found
            bonus, _ = to_cents(odds.payout(amount))
            cites = (step.cite, pcite)
            text = f"for seat {h.number}'s {label}"
            r.bonuses.append(WagerResult(r.number, wager, name, amount, "bonus", bonus, cites, text))
            rnd.log("bonus", "; ".join(cites), f"{name} {fmt_money(bonus)} {text} (with a "
                    f"{fmt_money(amount)} {table.game.wagers[wager].name})", seat=r.number, wager=wager,
                    amount=amount, net=bonus)
    ctx.seat = None
