"""``do: decide``: each player picks one of the available choices."""
from compiler.steps import StepKind

KIND = StepKind("decide", "each player picks one available choice (`id`, `cite`, `when`, `then`): their strategy, "
                "or the hand history",
                params={"choices": {"type": "array", "items": {"$ref": "#/$defs/choice"}, "minItems": 1}},
                required=("choices",))
