"""``do: block``: a group of steps under one condition."""
from compiler.steps import StepKind

KIND = StepKind("block", "a group of `steps` under one `when`",
                params={"steps": {"type": "array", "items": {"$ref": "#/$defs/step"}, "minItems": 1}},
                required=("steps",))
