"""Hand rankings for the runtime: the value layer's :mod:`compiler.values.rankings` under its old name, and
the rankings valued by points (:mod:`compiler.values.points`, ``kind: points``)."""
from compiler.values.points import PointsRanking, PointsValue
from compiler.values.rankings import JOKER_RANK, HandValue, Ranking, RankingError, rankings_from_spec

__all__ = ["JOKER_RANK", "HandValue", "PointsRanking", "PointsValue", "Ranking", "RankingError", "rankings_from_spec"]
