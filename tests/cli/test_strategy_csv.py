"""``analyze --strategy-out DIR`` writes each decision level of the optimal strategy as a table people read and
as CSV (issue 24 item 5): a row per class of holdings, best first, the choice, and every option's expected net
as an exact fraction and a decimal."""
from __future__ import annotations

import csv
import io
from fractions import Fraction

from compiler.game_commands import _strategy_csv


class _Solution:
    level_options = {3: [3, 1, "fold"]}

    def strategy_table(self, known):
        assert known == 3
        return [{"hand": "Aa Ab Ac", "sets": 4, "decision": 3,
                 "ev": {3: Fraction(37207, 2303), 1: Fraction(19003, 2303), "fold": Fraction(-2)}},
                {"hand": "7a 6a 4a", "sets": 24, "decision": "fold",
                 "ev": {3: Fraction(-5, 2), 1: Fraction(-9, 4), "fold": Fraction(-2)}}]


def test_each_option_s_expected_net_is_written_exactly_and_as_a_decimal():
    rows = list(csv.reader(io.StringIO(_strategy_csv(_Solution(), 3))))
    assert rows[0] == ["hand", "holdings", "decision", "ev_3", "ev_1", "ev_fold", "ev_3_decimal", "ev_1_decimal",
                       "ev_fold_decimal"]
    assert rows[1] == ["Aa Ab Ac", "4", "3", "37207/2303", "19003/2303", "-2", "16.1558836300", "8.2514112028",
                       "-2.0000000000"]
    assert rows[2][:3] == ["7a 6a 4a", "24", "fold"] and rows[2][3:6] == ["-5/2", "-9/4", "-2"]
    assert [Fraction(x) for x in rows[1][3:6]] == [Fraction(37207, 2303), Fraction(19003, 2303), Fraction(-2)]
