"""The rule language: parse conditions and outcomes written in rulespecs
(:mod:`compiler.lang.syntax`), check their names (:mod:`compiler.lang.names`) and compile them to
Python source for the generated game modules (:mod:`compiler.lang.emit`). This module is the
language's one front door: it names them all.

Grammar: ``rules.lark`` beside this file (LALR, strict). Expressions compile to calls on the
runtime's ``Context`` (``ctx``); a spec's names only ever reach the
generated code as ``repr()`` string literals, so no spec text can inject code.

Vocabulary (generic card-game primitives; see docs/rule-language.md):

* card references: ``player.<zone>``, ``player.cards``, ``dealer.<zone>``, ``community``,
  ``community.<zone>``; ``event.<attr>``; ``round.<attr>``;
* functions: ``hand(R, cards)``, ``best(R, cards)``, ``category(v)``,
  ``at_least(R, v, category[, rank])``, ``is_hand(R, cards, hand)``, ``has(W)``, ``placed(W)``,
  ``wager(W)``, ``flag(F)``, ``chose(D, C)``, ``option(O)``, ``offered(W)``, ``active()``,
  ``count(cards)``, ``any_player(expr)``, ``count_players(expr)``; pai gow: ``setting.high``,
  ``setting.low``, ``setting.cards`` (a candidate setting), ``rank(R, cards)`` (comparable across
  hand sizes), ``groups(R, cards, n)``, ``category_rank(v)``, ``can(expr)``; hands valued by points
  (a ranking of kind points, named last or the chapter's only one): ``total(cards[, R])``,
  ``soft(cards[, R])``, ``natural(cards[, R])``, ``bust(cards[, R])``, ``points(cards[, R])``, and
  ``card(cards, n)`` (the n-th card of a zone, as a zone of one card or none);
* outcomes: ``win W [at PAYOUT | at N to M]``, ``win W by PAYTABLE on VALUE``, ``lose W``,
  ``push W``, ``return W`` (void: returned), ``surrender W 1/2``, ``place W = expr``,
  ``set F``, ``clear F``, ``void round``, ``discard card``, ``use card``, ``reshuffle``,
  ``remove deck``, ``end``, ``note 'text'``; ``all`` in place of W means every open wager.
"""
from compiler.lang.emit import compile_action, compile_expr
from compiler.lang.names import (FUNCTIONS, OWNERS, SETTING_PARTS, NameProblem, Names, check_actions,
                                 check_expr, expr_nodes)
from compiler.lang.syntax import (Action, BinOp, BoolOp, Call, Lit, Neg, Node, Not, Ref, RuleSyntaxError,
                                  nodes, parse_actions, parse_expr, source)

__all__ = ["FUNCTIONS", "OWNERS", "SETTING_PARTS", "Action", "BinOp", "BoolOp", "Call", "Lit", "NameProblem",
           "Names", "Neg", "Node", "Not", "Ref", "RuleSyntaxError", "check_actions", "check_expr",
           "compile_action", "compile_expr", "expr_nodes", "nodes", "parse_actions", "parse_expr", "source"]
