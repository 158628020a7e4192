"""``do: roll``: dice or a random number generator; the result is ``round.roll``."""
from compiler.steps import StepKind

KIND = StepKind(
    "roll",
    "`dice: N` six-sided dice (their total) or `numbers: N` (a random number generator showing 1..N); the result "
    "is `round.roll`. A hand history gives the faces",
    params={
        "dice": {"type": "integer", "minimum": 1, "maximum": 6,
                 "description": "number of six-sided dice; round.roll is their total"},
        "numbers": {"type": "integer", "minimum": 2, "maximum": 100,
                    "description": "a random number generator showing 1 to N; round.roll is the number"},
    },
    then={"oneOf": [{"required": ["dice"]}, {"required": ["numbers"]}]},
)
