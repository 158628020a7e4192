"""Hand rankings for the runtime: the value layer's :mod:`compiler.values.rankings` under its old name."""
from compiler.values.rankings import JOKER_RANK, HandValue, Ranking, RankingError, rankings_from_spec

__all__ = ["JOKER_RANK", "HandValue", "Ranking", "RankingError", "rankings_from_spec"]
