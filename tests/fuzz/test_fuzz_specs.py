"""A bounded, deterministic fuzz test over mutations of the seeded rulespecs (issue 12).

Each example takes a seeded spec, applies one to three mutations to its data (delete a key or an
item, put an odd value in place of one: huge and negative numbers, NaN strings, control
characters, deep nesting, wrong card and rank symbols, odds and fractions dividing by zero, rules
settling twice, names from elsewhere in the spec), writes it back as YAML and checks that:

* ``compile_spec`` (what ``rulespec validate`` runs) never raises: it returns diagnostics, each
  positioned as ``FILE:LINE:COL: severity: message``, or passes;
* a spec that passes also gives every output ``rulespec build`` makes of it, in memory
  (``compiler.build.chapter_outputs``: game module, regulation text, forms, submission schema;
  nothing is written to generated/); its game module executes and its rankings build, and a
  spec made from a small seed (High Card, War) plays two simulated rounds.

Deterministic (``derandomize=True``, no example database) and bounded (``max_examples``).
"""
from __future__ import annotations

import copy
import re
import types
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.analysis.simulate import simulate
from compiler.build import chapter_outputs
from compiler.pipeline import ROOT, compile_spec
from compiler.runtime.rankings import Ranking

SMALL = ("tests/fixtures/specs/high-card.yaml", "rulespecs/567-war.yaml")
LARGE = ("rulespecs/669a-raise-it-up-stud-poker.yaml", "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml",
         "rulespecs/688a-face-up-pai-gow-poker.yaml", "rulespecs/535-pai-gow.yaml")
# parts of a spec that only hold text; mutations mostly go elsewhere, where the rules are
TEXT_PARTS = ("provisions", "interpretations", "requirements", "source", "missing", "amends", "externals")

ODD_VALUES = [
    10 ** 20, 10 ** 15 - 1, -1, 0, 2 ** 63, Decimal("-0.5"), Decimal("1.005"), Decimal("1.0E+400"),
    "NaN", ".nan", "Infinity", "-inf", "1e400", "\x00", "\x1b[31mred\x1b[0m", "\u2028", "\ufeff", "", " ",
    "a" * 3000, "ZZ", "Queen", "JK", "10H", "1 to 0", "0 for 0", "1,000,000,000,000,000 to 1", "3 to 2",
    "0/0", "1/0", "5/4", "$-5", "$0.001", "§ 999.99(z)", "not not not", "win bet; lose bet", "lose all; win tie",
    "surrender initial 0/0", "place x = 1/0", "(" * 50 + "1" + ")" * 50, "not " * 60 + "active()",
    " and ".join(["active()"] * 200), "count(player.up) > " + "9" * 30, "option(decks)", "hand(high, player.up)",
    "during_round", "before_deal", "joker", "high_card", "poker", True, False, None, [], {}, [None], {"": None},
    ["AS", "ZZ"], ["A", "A"], ["Queen"], [2, 2, 2], {"groups": [9]}, {"card": "AS", "as": ["ace"]},
]


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(Decimal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:float", str(v)))


def dump(data) -> str:
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=False, sort_keys=False, width=10 ** 6)


@lru_cache(maxsize=None)
def seed(path: str):
    c = compile_spec(path)
    assert c.ok, path
    return c.doc.data


def paths(data, prefix=()):
    """Every (path, value) under *data*, iteratively; containers before their members."""
    out = []
    stack = [(prefix, data)]
    while stack:
        p, v = stack.pop()
        if p:
            out.append(p)
        if isinstance(v, dict):
            stack.extend((p + (k,), x) for k, x in reversed(list(v.items())))
        elif isinstance(v, list):
            stack.extend((p + (i,), x) for i, x in reversed(list(enumerate(v))))
    return out


def get(data, path):
    for t in path:
        data = data[t]
    return data


def nested(value, depth: int):
    for i in range(depth):
        value = [value] if i % 2 else {"x": value}
    return value


@st.composite
def mutated_spec(draw, sources):
    name = draw(st.sampled_from(sources))
    data = copy.deepcopy(seed(name))
    for _ in range(draw(st.integers(1, 3))):
        every = paths(data)
        rules = [p for p in every if p[0] not in TEXT_PARTS]
        pool = rules if rules and draw(st.integers(0, 9)) else every
        path = pool[draw(st.integers(0, len(pool) - 1))]
        parent, key = get(data, path[:-1]), path[-1]
        op = draw(st.sampled_from(("delete", "odd", "odd", "odd", "nest", "retype", "swap", "duplicate")))
        if op == "delete":
            del parent[key]
        elif op == "odd":
            parent[key] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif op == "nest":
            parent[key] = nested(parent[key], draw(st.sampled_from((1, 2, 10, 40, 70))))
        elif op == "retype":
            value = parent[key]
            parent[key] = draw(st.sampled_from((str(value), [value], {"x": value})))
        elif op == "swap":
            other = every[draw(st.integers(0, len(every) - 1))]
            parent[key] = copy.deepcopy(get(data, other)) if other[:len(path)] != path else None
        elif isinstance(parent, list):  # duplicate an item
            parent.insert(key, copy.deepcopy(parent[key]))
        else:  # duplicate a member under a near name
            parent[f"{key}_2" if isinstance(key, str) else key] = copy.deepcopy(parent[key])
    return name, data


POSITIONED = re.compile(r"^fuzz\.yaml:[1-9][0-9]*:[1-9][0-9]*: (error|warning|note): \S")


def check(name: str, data) -> None:
    text = dump(data)
    c = compile_spec("fuzz.yaml", text)  # must not raise, whatever the input
    for d in c.diagnostics:
        assert POSITIONED.match(d.format()), (name, d.format())
        assert "could not check" not in d.message, (name, d.format())  # the checks' safety net
    if c.errors:
        assert c.chapter is None
        return
    assert c.ok, (name, [d.format() for d in c.diagnostics])
    outputs = chapter_outputs(c.chapter)  # in memory: nothing written
    source = outputs[f"generated/games/{c.chapter.module_name}.py"]
    module = types.ModuleType("fuzzed_game")
    exec(compile(source, "<fuzzed game>", "exec"), module.__dict__)
    game = module.GAME
    for rid, spec in game.rankings.items():
        Ranking.from_spec(spec, rid)
    if name in SMALL:  # and plays: two seeded rounds at two seats, as `rulespec simulate` does
        simulate(game, rounds=2, seats=2, seed=1)


FUZZ = dict(derandomize=True, database=None, deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


@settings(max_examples=60, **FUZZ)
@given(mutated_spec(SMALL))
def test_mutated_small_specs_validate_or_build(case):
    check(*case)


@settings(max_examples=12, **FUZZ)
@given(mutated_spec(LARGE))
def test_mutated_large_specs_validate_or_build(case):
    check(*case)


def test_seeds_are_valid_and_build():
    for name in SMALL + LARGE:
        check(name, copy.deepcopy(seed(name)))
    assert Path(ROOT / SMALL[0]).exists()
