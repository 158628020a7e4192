"""compiler.lang.syntax.nodes: the one walk over an expression the analysis routes use."""
import pytest

from compiler.lang.rules import Call, Lit, Ref, nodes, parse_expr


def test_nodes_visits_every_call_ref_and_literal_of_nested_operators():
    e = parse_expr("not (hand(five_card, player.high) > hand(five_card, dealer.high)) "
                   "and (option(decks) == 2 or -count(player.cards) < 3)")
    got = list(nodes(e))
    assert got[0] is e
    assert sorted(c.name for c in got if isinstance(c, Call)) == ["count", "hand", "hand", "option"]
    assert {r.parts for r in got if isinstance(r, Ref)} >= {("player", "high"), ("dealer", "high"),
                                                            ("player", "cards")}
    assert sorted(x.value for x in got if isinstance(x, Lit)) == [2, 3]
    assert list(nodes(None)) == []


def _expressions(node):
    """Every condition (`when`, `legal`, ...) of a rulespec: strings of the keys that hold expressions."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("when", "players", "legal", "qualifying", "require") and isinstance(v, str):
                yield v
            else:
                yield from _expressions(v)
    elif isinstance(node, list):
        for x in node:
            yield from _expressions(x)


def test_source_writes_back_every_expression_of_every_rulespec_as_the_same_tree():
    """compiler.lang.syntax.source (used in messages) parses back to the tree it was written from."""
    import glob

    from compiler.lang.rules import source
    from compiler.spec.loader import load_document

    seen = 0
    for path in sorted(glob.glob("rulespecs/*.yaml") + glob.glob("tests/fixtures/chapters/*.yaml")):
        for text in _expressions(load_document(path).data):
            tree = parse_expr(text)
            assert parse_expr(source(tree)) == tree, (path, text, source(tree))
            seen += 1
    assert seen > 300
    e = parse_expr("not (a and b) and -(1 + 2) * 3 < count(player.cards) or x.y == 'z'")
    assert parse_expr(source(e)) == e and "not (a and b)" in source(e)


def test_a_parse_is_remembered_only_as_an_immutable_tree_and_an_error_is_raised_each_time():
    """compiler/lang/syntax.py ``_parse`` is remembered for the process (a chapter repeats its
    conditions): the tree it shares cannot be changed, and a text that fails fails every time."""
    import dataclasses

    from compiler.lang.syntax import RuleSyntaxError, parse_actions, parse_expr

    a = parse_expr("player.hand.rank >= pair and not dealer.qualifies")
    assert parse_expr("player.hand.rank >= pair and not dealer.qualifies") is a
    stack = [a, *parse_actions("surrender initial 1/2; place war = wager(initial); lose initial")]
    while stack:
        node = stack.pop()
        with pytest.raises(dataclasses.FrozenInstanceError):
            node.line = 99
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            assert not isinstance(v, (list, dict, set)), (node, f.name)
            stack.extend(x for x in (v if isinstance(v, tuple) else (v,)) if dataclasses.is_dataclass(x))
    for _ in range(2):
        with pytest.raises(RuleSyntaxError, match="unexpected"):
            parse_expr("player.hand.rank >= (")
