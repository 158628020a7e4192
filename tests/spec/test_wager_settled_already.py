"""Issue 23 item 7: a rule naming a wager an earlier rule has settled already on every path to it is an error at
validate, with both positions (compiler/ir/settled.py): the engine would skip it silently. Across the steps of one
sequence, the procedure's or a loop's or block's own; a rule or a choice; ``all`` settling every wager. A wager
that may be placed again between the two, on this pass or on an earlier pass of a loop, is not refused. Written
on the Dice Total test chapter (tests/fixtures/chapters/dice-total.yaml, not official text)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cli_run import run_rulespec

DICE = Path(__file__).resolve().parents[1] / "fixtures" / "chapters" / "dice-total.yaml"
SETTLE = """  - id: settle
    do: settle
    cite: § 906.5
    rules:
"""
LOSE_SEVEN = "- {cite: § 906.5(a), then: lose seven}\n"  # no condition: the Seven is settled for every player
WIN_SEVEN = "- {cite: § 906.5(a), when: round.roll == 7, then: win seven}\n"


def _procedure(tmp_path: Path, steps: str) -> tuple[Path, list[str]]:
    """The chapter with its procedure after the roll replaced by ``steps``."""
    text = DICE.read_text(encoding="utf-8")
    start, end = text.index(SETTLE), text.index("text_facts:")
    p = tmp_path / "dice-total.yaml"
    p.write_text(text[:start] + steps + text[end:], encoding="utf-8")
    return p, p.read_text(encoding="utf-8").splitlines()


def _line(lines: list[str], text: str, after: int = 0) -> int:
    return next(i for i, x in enumerate(lines, 1) if i > after and x.strip().startswith(text.strip()))


def _settle(sid: str, rules: str, indent: str = "  ", extra: str = "") -> str:
    rules = "".join(f"{indent}    {r}" for r in rules.splitlines(keepends=True))
    return f"{indent}- id: {sid}\n{indent}  do: settle\n{indent}  cite: § 906.5\n{extra}{indent}  rules:\n{rules}"


def _loop(steps: str) -> str:
    return ("  - id: rolls\n    do: repeat\n    until: round.roll == 7\n    bound: 10\n    cite: § 906.4\n    steps:\n"
            "      - {id: again, do: roll, dice: 2, cite: § 906.4}\n" + steps)


RULES = "".join(f"- {{cite: § 906.5(b), then: lose {w}}}\n" for w in ("over", "under"))


def test_906_5_a_a_rule_of_a_loop_after_a_step_of_the_loop_that_settled_the_wager_is_refused(tmp_path):
    p, lines = _procedure(tmp_path, _loop(_settle("first", LOSE_SEVEN + RULES, "      ")
                                          + _settle("then_win", WIN_SEVEN, "      ")))
    r = run_rulespec("validate", p)
    first, later = _line(lines, LOSE_SEVEN), _line(lines, WIN_SEVEN)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    msg = next(x for x in r.stderr.splitlines() if "'win seven': the rule at" in x)
    assert msg.startswith(f"{p}:{later}:") and f"{p}:{first}:13 (§ 906.5(a))" in msg, msg
    assert msg.endswith("[at /procedure/1/steps/2/rules/0/then]")


def test_906_5_lose_all_settles_every_wager_for_the_later_steps(tmp_path):
    p, lines = _procedure(tmp_path, _settle("first", "- {cite: § 906.5, then: lose all}\n")
                          + _settle("then_win", WIN_SEVEN + "- {cite: § 906.5(b), when: round.roll > 7, "
                                    "then: win over}\n"))
    r = run_rulespec("validate", p)
    assert r.returncode == 1
    first = _line(lines, "- {cite: § 906.5, then: lose all}")
    for w in ("win seven", "win over"):
        assert any(f"'{w}': the rule at {p}:{first}:" in x for x in r.stderr.splitlines()), r.stderr


def test_906_5_a_choice_returning_a_wager_settled_already_is_refused(tmp_path):
    decide = ("  - id: take_down\n    do: decide\n    cite: § 906.5\n    choices:\n"
              "      - {id: leave_up, cite: § 906.5}\n      - {id: take_down, cite: § 906.5, then: return seven}\n")
    p, lines = _procedure(tmp_path, _settle("first", LOSE_SEVEN + RULES) + decide)
    r = run_rulespec("validate", p)
    assert r.returncode == 1
    msg = next(x for x in r.stderr.splitlines() if "'return seven': the rule at" in x)
    assert msg.startswith(f"{p}:{_line(lines, '- {id: take_down')}:") and "[at /procedure/2/choices/1/then]" in msg


@pytest.mark.parametrize("where", ["a later step of the loop", "an earlier rule of the step"])
def test_906_5_a_wager_placed_again_on_a_pass_or_in_the_step_is_not_refused(tmp_path, where):
    """The Seven settled before the loop, then placed again at the end of each pass (a later pass settles the
    new one), or placed again by the step's first rule: the later rule may apply."""
    place = "- {cite: § 906.5(a), then: place seven = wager(seven)}\n"
    if where == "a later step of the loop":
        steps = _settle("first", LOSE_SEVEN + RULES) + _loop(
            _settle("then_win", WIN_SEVEN, "      ") + _settle("again_seven", place, "      "))
    else:
        steps = _settle("first", LOSE_SEVEN + RULES) + _settle("then_win", place + WIN_SEVEN)
    p, _ = _procedure(tmp_path, steps)
    r = run_rulespec("validate", p)
    assert r.returncode == 0 and "the rule at" not in r.stderr, r.stderr
