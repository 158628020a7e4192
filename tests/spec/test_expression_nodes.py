"""compiler.lang.syntax.nodes: the one walk over an expression the analysis routes use."""
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
