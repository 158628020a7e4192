"""A round voided after wagers were paid or collected (issue 29, item 2): the log takes each earlier
payment or collection back with a ``reversal`` entry citing the void's §, and the money audit
checks the log against the results (the nets the log moves == the nets of the results)."""
from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from compiler.pipeline import load_game
from compiler.play.session import layout_of
from compiler.round_file import check_round, load_round
from compiler.runtime.audit import SETTLEMENTS, audit_rounds

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = {"669a": ("669a-raise-it-up-stud-poker", 2000), "670a": ("670a-six-card-fortune-pai-gow-poker", 1000)}


class RandomStrategy:
    def __init__(self, rng):
        self.rng = rng

    def choose(self, decision, choices, view):
        return self.rng.choice(list(choices))

    def offer(self, wager, view):
        return self.rng.choice([0, 5])

    def setting(self, step, candidates, view):
        return None if self.rng.random() < 0.5 else self.rng.choice(list(candidates))


def random_rounds(spec: str, n: int, seed: int):
    """``n`` rounds of three seats with random wagers and decisions, each with one irregularity event
    (any of the chapter's, before a random step, with random attributes): the table's meters before
    and after, and the rounds."""
    mod, compiled = load_game(ROOT / "rulespecs" / f"{spec}.yaml")
    rng = random.Random(seed)
    table = mod.new_table({}, seed=seed)
    lay = layout_of(table, compiled.chapter)
    before, rounds = dict(table.meters), []
    for _ in range(n):
        bets = {}
        for seat in range(1, 4):
            b = {}
            for wid, _name, _cite, placed, offered in lay.wagers:
                wd = table.game.wagers[wid]
                if placed == "before_deal" and offered and (wd.required or rng.random() < 0.4):
                    b[wid] = wd.amounts[0] if wd.amounts else Decimal(rng.choice([5, 10, 25]))
            for wid in list(b):
                for req in table.game.wagers[wid].requires:
                    b.setdefault(req, Decimal(10))
            bets[seat] = b
        ev = rng.choice(lay.irregularities)[0]
        e = {"event": ev, "before": rng.choice(lay.steps)[0], "seat": rng.choice(sorted(bets))}
        for name, values in lay.event_attrs.get(ev, {}).items():
            e[name] = rng.choice(values) if values else rng.random() < 0.5
        rounds.append(table.play_round(bets, RandomStrategy(rng), [e]))
    return table, before, rounds


def logged_nets(rnd) -> dict[int, Decimal]:
    """Per seat, the money the log moves: settlements, reversals and bonuses (read from the log only)."""
    out: dict[int, Decimal] = {}
    for e in rnd.log:
        if e.seat is not None and (e.kind in SETTLEMENTS or e.kind in ("reversal", "bonus")):
            out[e.seat] = out.get(e.seat, Decimal(0)) + (e.net or Decimal(0))
    return out


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_a_round_voided_after_settlement_logs_a_reversal_of_each_payment_and_collection(chapter):
    spec, n = CHAPTERS[chapter]
    table, before, rounds = random_rounds(spec, n, seed=29)
    reversed_rounds = 0
    for rnd in rounds:
        nets = {}
        for r in rnd.results:
            nets[r.seat] = nets.get(r.seat, Decimal(0)) + r.net
        assert {s: v for s, v in logged_nets(rnd).items() if v} == {s: v for s, v in nets.items() if v}, \
            "\n".join(e.format() for e in rnd.log)
        kinds = [e.kind for e in rnd.log]
        if "void_round" not in kinds:
            assert "reversal" not in kinds
            continue
        at = kinds.index("void_round")
        void_cite = rnd.log[at].cite
        assert void_cite.startswith(f"§ {chapter}.")
        settled_before = [e for e in rnd.log[:at] if e.kind in ("win", "lose", "surrender") and e.net]
        reversals = [e for e in rnd.log[at:] if e.kind == "reversal"]
        # one reversal per earlier payment or collection, each the opposite of it, each with the void's §
        assert sorted((e.seat, e.wager, -e.net) for e in reversals) == \
            sorted((e.seat, e.wager, e.net) for e in settled_before)
        assert all(e.cite == void_cite for e in reversals)
        assert all(r.outcome == "void" and r.net == 0 for r in rnd.results if r.outcome != "bonus")
        reversed_rounds += bool(reversals)
    assert reversed_rounds >= 20  # the irregularities did void rounds after settlement
    a = audit_rounds(rounds, before, table.meters)
    assert not a.problems and not a.unsettled
    assert (a.house, a.players, a.meter_growth) == (table.ledger.house, table.ledger.players, table.ledger.meters)


def test_the_audit_refuses_a_log_without_its_reversals_or_contradicting_the_results():
    _table, _before, rounds = random_rounds(CHAPTERS["669a"][0], 300, seed=29)
    voided = next(r for r in rounds if any(e.kind == "reversal" for e in r.log))
    assert not audit_rounds([voided]).problems
    no_reversal = replace(voided, log=[e for e in voided.log if e.kind != "reversal"])
    problems = audit_rounds([no_reversal]).problems
    assert any("settled again" in p and "no reversal" in p for p in problems), problems
    assert any("the log moves" in p for p in problems), problems
    forged = replace(voided, results=[replace(r, net=r.net + 1) if i == 0 else r
                                      for i, r in enumerate(voided.results)])
    assert any("the log moves" in p and "the results net" in p for p in audit_rounds([forged]).problems)


def test_a_progressive_win_voided_afterwards_goes_back_to_the_meter_and_envy_bonuses_are_taken_back():
    """The 100%-of-meter round (rulespecs/rounds/669a-progressive-jackpot.yaml) with the stub found
    misdealt after every settlement (§ 669a.8(h)): all hands void, the meter reads as before the
    payment, the Envy Bonuses are taken back, and the log adds up to the results (all zero)."""
    spec = ROOT / "rulespecs/669a-raise-it-up-stud-poker.yaml"
    mod, compiled = load_game(spec)
    rs = load_round(str(ROOT / "rulespecs/rounds/669a-progressive-jackpot.yaml"))
    opts, errs = check_round(rs, mod.GAME, compiled.chapter, {"dealing_method": "manual_shoe"})
    assert not errs
    t = mod.new_table({**opts, "dealing_method": "manual_shoe"}, shoe=rs.shoe())
    t.first_after_shuffle, t.game_beginning = rs.first_after_shuffle, False
    t.meters.update(rs.meters)
    before = dict(t.meters)
    events = [{"event": "stub_count_wrong", "misdealt": True}]  # at the end of the round
    res = t.play_round(rs.bets, rs.strategy(), events, new_dealer=rs.new_dealer)
    kinds = [e.kind for e in res.log]
    assert res.void and kinds.index("void_round") > kinds.index("win")
    assert all(r.net == 0 for r in res.results) and not [r for r in res.results if r.outcome == "bonus"]
    progressive = [e for e in res.log if e.kind == "reversal" and e.wager == "progressive" and e.seat == 3]
    assert [e.net for e in progressive] == [Decimal("-31246.65")] and progressive[0].cite == "§ 669a.8(h)"
    assert t.meters["progressive"] == before["progressive"]  # the stakes' contributions are taken back too
    a = audit_rounds([res], before, t.meters)
    assert not a.problems and not a.unsettled
    assert a.house == a.players == a.meter_growth == 0 == t.ledger.balance() == t.ledger.house
