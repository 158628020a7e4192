"""``do: announce``: the dealer announces a text (``no more bets``)."""
from compiler.steps import StepKind

KIND = StepKind("announce", "logs the announcement (`no more bets`)",
                params={"text": {"type": "string"}})
