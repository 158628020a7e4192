"""``do: settle``: rules applied to each player."""
from compiler.steps import StepKind

KIND = StepKind("settle", "for each player, every rule (`cite`, `when`, `then`) whose `when` holds is applied, in order",
                params={"rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}, "minItems": 1}},
                required=("rules",))
