"""``do: repeat``: a group of steps run again and again, while a condition holds or until one does,
never more than a bound the chapter declares (rolling until a 7 or the point, drawing until a total)."""
from compiler.steps import StepKind

KIND = StepKind(
    "repeat",
    "runs its `steps` again and again: `while` (tested before each pass) holds, or `until` (tested after each "
    "pass) holds; each pass is logged with the step's §. With `players`, for each player in turn (its conditions "
    "read that player, its steps act on that player only). `bound` passes at most: reaching it is an irregularity "
    "logged with the step's §, and the wagers still in action (of that player) are returned",
    params={"steps": {"type": "array", "items": {"$ref": "#/$defs/step"}, "minItems": 1},
            "bound": {"type": "integer", "minimum": 1, "maximum": 100000,
                      "description": "the most passes the chapter allows; reaching it is an irregularity"}},
    exprs={"while": "the steps run again while this holds (tested before each pass)",
           "until": "the steps run again until this holds (tested after each pass)"},
    required=("steps", "bound"),
    then={"oneOf": [{"required": ["while"]}, {"required": ["until"]}]},
)
