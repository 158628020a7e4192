"""``do: offer``: an optional wager placed mid-round."""
from compiler.steps import StepKind

KIND = StepKind("offer", "each player may place the optional `wager` mid-round (`equal_to`: of the amount of "
                "that wager)",
                params={"wager": {"$ref": "#/$defs/id"}, "equal_to": {"$ref": "#/$defs/id"}},
                required=("wager",), names={"wager": "wager", "equal_to": "wager"})
