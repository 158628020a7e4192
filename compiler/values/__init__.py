"""The value layer: the typed values every other stage shares, below the language and the runtime.

* :mod:`compiler.values.money`    exact amounts (``Decimal``) and their context;
* :mod:`compiler.values.odds`     :class:`Odds`, the one odds parser and the one odds writer;
* :mod:`compiler.values.cards`    cards as small ints, decks and packs;
* :mod:`compiler.values.rankings` hand rankings built from a rulespec's ranking data;
* :mod:`compiler.values.walk_limits` how far (positions) and on how many processes the draw walk goes.

These modules import nothing of ``compiler`` outside this package
(``tests/architecture/test_import_graph.py``).
"""
