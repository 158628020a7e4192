"""``do: spin``: a wheel declared as data (roulette, Big Six); the rules read ``pocket.X``."""
from compiler.steps import StepKind

_VALUE = {"type": ["integer", "string", "boolean"]}

KIND = StepKind(
    "spin",
    "the `wheel` (its pockets or segments, each with a `label` and the same declared attributes; `count: N` "
    "for N equal segments) is spun, every pocket equally likely; the rules read `pocket.label` and "
    "`pocket.<attribute>`. A hand history gives the pocket's label",
    params={
        "wheel": {
            "type": "object", "additionalProperties": False, "required": ["pockets"],
            "description": "the wheel: `name`, `pockets` (label and attributes; `count` for equal segments) and "
                           "`grid`, the layout's rows of labels, for wagers chosen as `shapes` of it",
            "properties": {
                "name": {"type": "string"},
                "pockets": {"type": "array", "minItems": 2, "items": {
                    "type": "object", "required": ["label"],
                    "properties": {"label": {"type": ["integer", "string"]},
                                   "count": {"type": "integer", "minimum": 1}},
                    "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                    "additionalProperties": _VALUE}},
                "grid": {"type": "array", "items": {"type": "array", "minItems": 1,
                                                    "items": {"type": ["integer", "string"]}}},
            },
        },
    },
    required=("wheel",),
)
