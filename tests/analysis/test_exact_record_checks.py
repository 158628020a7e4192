"""The committed exact record (rulespecs/records/670a-main-exact.json) is checked before use
(compiler/analysis/record_check.py): a record whose figures do not follow from its own counts, whose
probabilities leave [0, 1], or which is truncated, garbage or mistyped is ignored with a warning on
stderr and the analysis says "not computed" with the reason; never a traceback, never its figure.

The copies are written beside a copy of the chapter in a temporary directory (the committed record is
never touched); its key is the chapter's own, so only the checks stand between it and the report."""
from __future__ import annotations

import copy
import json
from dataclasses import replace
from fractions import Fraction
from math import comb

import pytest

from compiler.analysis import paigow_record as pr
from compiler.analysis.paigow import _exact_house_way, model_of
from compiler.analysis.record_check import record_problem
from compiler.analysis.report import Report
from compiler.pipeline import load_game

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"
DEALS = comb(53, 6) * comb(47, 6)  # 53 cards (one joker): the player's six, then the dealer's six


@pytest.fixture(scope="module")
def g670a():
    mod, comp = load_game(SPEC)
    return mod.GAME, comp.chapter


@pytest.fixture(scope="module")
def committed(g670a):
    rec = pr.load_record(*g670a)
    assert rec is not None, "the committed record must pass its own checks"
    return rec


def _report_with(g670a, tmp_path, text: str | bytes):
    game, chapter = g670a
    elsewhere = replace(chapter, spec_path=str(tmp_path / "670a.yaml"))
    p = pr.record_path(elsewhere)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    rep = Report("670a", "t", {}, [])
    _exact_house_way(rep, game, elsewhere, {}, model_of(game, chapter))
    return rep


def _edited(rec, edit) -> str:
    r = copy.deepcopy(rec)
    edit(r)
    return json.dumps(r)


def test_the_committed_record_passes_and_its_figure_is_its_counts(committed):
    assert record_problem(committed, DEALS) is None
    by = committed["main_by_net"]
    assert Fraction(committed["figures"]["main"]) == Fraction(by["1"] - by["-1"], DEALS)
    assert record_problem(committed, DEALS - 1) is not None  # another deck's number of deals


def _set(path, value):
    def edit(r):
        d = r
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return edit


TAMPERED = {
    # the case: figures.main 1.0000% with its key as it is (and its decimal edited to match)
    "main 1%": lambda r: (_set(("figures", "main"), "1/100")(r), _set(("decimals", "main"), "0.0100000000")(r)),
    "house edge -500%": lambda r: (_set(("figures", "main"), "5")(r), _set(("decimals", "main"), "5.0000000000")(r)),
    "share above 1": _set(("figures", "double_optimal_share"), "3/2"),
    "optimal share negative": _set(("figures", "optimal_differs_share"), "-1/10"),
    "decimal that is not its fraction": _set(("decimals", "main"), "-0.0100000000"),
    "win count moved to push": lambda r: (r["main_counts"].__setitem__("win", r["main_counts"]["win"] - 5),
                                          r["main_counts"].__setitem__("push", r["main_counts"]["push"] + 5)),
    "by net and figure edited together": lambda r: (
        r["main_by_net"].__setitem__("1", r["main_by_net"]["1"] + 10 ** 12),
        r["main_by_net"].__setitem__("-1", r["main_by_net"]["-1"] - 10 ** 12)),
    "counts short of the deals": _set(("main_by_net", "0"), 0),
    "negative count": _set(("main_by_net", "0"), -1),
    "optimal gain not the difference": _set(("figures", "optimal_gain"), "1/10"),
    "doubling per made not per round over share": _set(("figures", "double_optimal_per_made"), "1/2"),
    "an unknown figure": _set(("figures", "main_adjusted"), "1/100"),
    "round optimal below the main optimal": _set(("figures", "round_optimal"), "-1/2"),
    # not determined by the counts, but a whole number over the deals: a changed denominator is caught
    "round optimal over another denominator": _set(("figures", "round_optimal"), "-118136783909/8216920579268"),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_record_is_ignored_with_a_warning_and_never_printed(case, g670a, committed, tmp_path, capsys):
    rep = _report_with(g670a, tmp_path, _edited(committed, TAMPERED[case]))
    assert not rep.figures, [f.expected_return for f in rep.figures]
    reasons = {n.reason for n in rep.not_computed}
    assert reasons and all("670a-main-exact.json ignored: " in r and "--exhaustive" in r for r in reasons), reasons
    err = capsys.readouterr().err
    assert "warning: " in err and "the record is ignored: " in err


def _corrupted(rec) -> dict[str, bytes]:
    good = json.dumps(rec).encode()
    out = {f"truncated at {n}": good[:n] for n in (0, 1, 100, len(good) // 2, len(good) - 1)}
    out["garbage"] = bytes(range(256)) * 4
    out["not UTF-8"] = b'{"key": "\xff"}'
    out["a list"] = b"[1, 2]"
    out["a number"] = b"1e400"
    out["null"] = b"null"
    out["nested deeply"] = b"[" * 100_000
    for key in ("figures", "main_by_net", "classes", "decimals", "deals", "seconds"):
        out[f"missing {key}"] = _edited(rec, lambda r, k=key: r.pop(k)).encode()
    out["deals a string"] = _edited(rec, _set(("deals",), str(DEALS))).encode()
    out["figures a bool"] = _edited(rec, _set(("figures",), True)).encode()
    out["figure a number"] = _edited(rec, _set(("figures", "main"), -0.06)).encode()
    out["figure not a fraction"] = _edited(rec, _set(("figures", "main"), "1/0")).encode()
    out["class of two"] = _edited(rec, lambda r: r["classes"].__setitem__(next(iter(r["classes"])), [1, 2])).encode()
    out["count a float"] = _edited(rec, _set(("main_counts", "win"), 1.5)).encode()
    out["counts a list"] = _edited(rec, _set(("main_counts",), [1, 2, 3])).encode()
    return out


def test_corrupted_records_are_ignored_without_a_traceback(g670a, committed, tmp_path, capsys):
    cases = _corrupted(committed)
    assert len(cases) >= 18
    for name, text in cases.items():
        (tmp_path / name.replace(" ", "-")).mkdir()
        rep = _report_with(g670a, tmp_path / name.replace(" ", "-"), text)
        assert not rep.figures, name
        assert all("ignored: " in n.reason for n in rep.not_computed), (name, rep.not_computed)
    assert capsys.readouterr().err.count("the record is ignored: ") == len(cases)


def test_random_digit_edits_never_raise_and_never_change_a_figure_the_counts_determine(committed):
    """5,000 seeded edits of the record's text (digits changed, dropped or added): no exception; every
    edit accepted leaves the figures the counts determine as they were (the optimal doubling's figures,
    which the counts do not determine, are only bounded: docs/security.md gives the count)."""
    import random

    text = json.dumps(committed, indent=1, sort_keys=True)
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    rng = random.Random(29)
    accepted = 0
    for _ in range(5000):
        t = list(text)
        for _ in range(rng.choice((1, 1, 2, 3))):
            i = rng.choice(digits) if rng.random() < 0.8 else rng.randrange(len(t))
            op = rng.random()
            t[i] = (rng.choice("0123456789") if op < 0.6 else "" if op < 0.8
                    else t[i] + rng.choice('0123456789-/.,"{}[] '))
        try:
            rec = json.loads("".join(t))
        except ValueError:
            continue
        if record_problem(rec, DEALS, comb(53, 6)) is None:
            accepted += 1
            for k in ("deals", "main_by_net", "main_counts", "double_always_by_net", "main_optimal_by_net"):
                assert rec[k] == committed[k], k
            for k in ("main", "double_always", "main_optimal", "optimal_gain", "double_optimal_per_made",
                      "double_optimal_share", "optimal_differs_share", "double_optimal_setting_share"):
                assert rec["figures"][k] == committed["figures"][k], k
    assert 0 < accepted < 1000  # edits of what no figure reads (the command, the seconds) are accepted


def test_a_record_of_another_key_is_stale_not_an_error(g670a, committed, tmp_path, capsys):
    rep = _report_with(g670a, tmp_path, _edited(committed, _set(("key",), "0" * 64)))
    assert not rep.figures and all("ignored" not in n.reason for n in rep.not_computed)
    assert capsys.readouterr().err == ""


def test_the_intact_copy_gives_the_exact_figures(g670a, committed, tmp_path):
    rep = _report_with(g670a, tmp_path, json.dumps(committed))
    assert not rep.not_computed
    assert rep.figures[0].expected_return == Fraction(committed["figures"]["main"])


def test_the_record_in_the_key_of_cached_analyses_is_any_bytes(g670a, committed, tmp_path):
    """compiler/submission/figures.py keys a cached analysis by the record (pr.record_text): a record that
    is not UTF-8 was a UnicodeDecodeError in `rulespec submission` and `build`."""
    game, chapter = g670a
    elsewhere = replace(chapter, spec_path=str(tmp_path / "670a.yaml"))
    assert pr.record_text(elsewhere) is None
    p = pr.record_path(elsewhere)
    p.parent.mkdir(parents=True)
    keys = set()
    for data in (b"\xff\xfe garbage", json.dumps(committed).encode(), json.dumps(committed).encode() + b" "):
        p.write_bytes(data)
        keys.add(pr.record_text(elsewhere))
    assert len(keys) == 3 and None not in keys
