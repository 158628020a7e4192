"""`simulate` on every core and on a Dask cluster: one seed, one result, whatever runs it."""
from __future__ import annotations

import io
import json

import distributed
import pytest

from compiler.analysis import simulate as sim_mod
from compiler.analysis.simulate import Progress, plan, simulate, task_seeds
from compiler.cli import main
from compiler.pipeline import load_game

WAR = "rulespecs/567-war.yaml"


@pytest.fixture(scope="module")
def war():
    return load_game(WAR)[0].GAME


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(sim_mod, "CHUNK", 150)


def _sums(res):
    return (res.to_json(), {k: (v.n, v.sum_net, v.sum_sq, v.total_stake) for k, v in res.per_unit.items()},
            (res.base.n, res.base.sum_net, res.base.sum_sq), res.players, res.house, res.meters, res.reshuffles)


def test_tasks_are_fixed_size_chunks_not_worker_shares():
    assert plan(1000, 300) == [300, 300, 300, 100]
    assert plan(300, 300) == [300]
    seeds = task_seeds(7, 4)
    assert len(set(seeds)) == 4 and task_seeds(7, 2) == seeds[:2]  # a task's stream does not depend on how many


def test_simulate_same_seed_workers_1_and_2_identical(war, small_chunks):
    one = simulate(war, {}, rounds=500, seats=3, seed=11, policy="war", workers=1)
    two = simulate(war, {}, rounds=500, seats=3, seed=11, policy="war", workers=2)
    assert _sums(one) == _sums(two)
    assert one.base.n == 1500 and one.ledger_balance == 0
    other = simulate(war, {}, rounds=500, seats=3, seed=12, policy="war", workers=1)
    assert _sums(other) != _sums(one)  # the comparison above can fail: the seed matters


def test_simulate_tasks_add_up_to_tables_played_one_by_one(war, small_chunks):
    """Each task is TABLES tables, each seeded from the task's stream: replay them with the engine."""
    from decimal import Decimal

    from compiler.analysis.simulate import table_rounds, table_seeds
    from compiler.runtime.engine import FixedStrategy, Table

    res = simulate(war, {}, rounds=400, seats=2, seed=5, policy="surrender", workers=2)
    players = Decimal(0)
    rounds = 0
    for k, s in zip(plan(400), task_seeds(5, len(plan(400)))):
        for ts, n in zip(table_seeds(s), table_rounds(k)):
            t = Table(war, {}, seed=ts)
            for _ in range(n):
                r = t.play_round({1: {"initial": 1, "tie": 1}, 2: {"initial": 1, "tie": 1}},
                                 FixedStrategy(["surrender"]))
                players += sum(x.net for x in r.results)
                rounds += 1
    assert rounds == 400
    assert res.players == players and res.house == -players


def test_progress_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    piped, tty = io.StringIO(), Tty()
    for stream in (piped, tty):
        p = Progress(1000, stream)
        p.update(400)
        p.close()
    assert piped.getvalue() == ""
    assert "400/1,000 rounds" in tty.getvalue() and "rounds/s" in tty.getvalue() and "s left" in tty.getvalue()


def test_simulate_cli_workers_flag_same_json(capsys, small_chunks):
    out = []
    for w in ("1", "2"):
        assert main(["simulate", WAR, "--rounds", "400", "--seats", "2", "--seed", "3", "--workers", w,
                     "--format", "json"]) == 0
        cap = capsys.readouterr()
        assert cap.err == ""  # piped: no progress
        out.append(json.loads(cap.out))
    assert out[0] == out[1]


def test_simulate_on_local_dask_cluster_same_as_local(war, small_chunks):
    local = simulate(war, {}, rounds=450, seats=2, seed=9, policy="war", workers=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = simulate(war, {}, rounds=450, seats=2, seed=9, policy="war", cluster=cluster.scheduler_address)
    assert _sums(remote) == _sums(local)
