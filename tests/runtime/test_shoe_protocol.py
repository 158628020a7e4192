"""The engine deals from one protocol, :class:`CardSource` (issue 25 item 4): the live and seeded shoe, the
hand history's scripted shoe and every analysis stand-in implement it, and the engine reads its attributes
instead of probing for them with ``getattr``."""
from __future__ import annotations

import ast
import random
from pathlib import Path

from compiler.analysis.chance_exact import _RankShoe
from compiler.analysis.deal_common import _RiggedShoe
from compiler.analysis.exact_engine import BranchShoe
from compiler.analysis.game_tree import _Odometer, _Shoe
from compiler.game_commands import _NoShoe
from compiler.runtime.shoe import CardSource, ScriptedShoe, Shoe, StandInShoe

ROOT = Path(__file__).resolve().parents[2]


def _every_stand_in():
    out, todo = [], [StandInShoe]
    while todo:
        for sub in todo.pop().__subclasses__():
            out.append(sub)
            todo.append(sub)
    return out


def test_every_shoe_the_engine_deals_from_implements_the_protocol():
    shoes = [Shoe(1, random.Random(1)), ScriptedShoe({}), BranchShoe({0: 4}, []), _Shoe({0: 4}, _Odometer([])),
             _RiggedShoe([0]), _RankShoe({0: 4}, None), _NoShoe()]
    for shoe in shoes:
        assert isinstance(shoe, CardSource), type(shoe).__name__
        assert shoe.cover_reached is False and shoe.marker is None and shoe.cut_at is None
        before = shoe.shuffles
        shoe.shuffle()
        assert shoe.shuffles == before + 1, type(shoe).__name__
    names = {type(s).__name__ for s in shoes}
    assert {c.__name__ for c in _every_stand_in()} <= names, "a stand-in shoe this test does not check"


def test_a_class_without_the_protocol_is_not_a_card_source():
    class Half:
        def draw(self, target=None):
            return 0

    assert not isinstance(Half(), CardSource)


def test_the_engine_never_probes_a_shoe_with_getattr():
    probes = []
    for path in (ROOT / "compiler" / "runtime").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("getattr", "hasattr") and node.args \
                    and "shoe" in ast.unparse(node.args[0]):
                probes.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert probes == []
