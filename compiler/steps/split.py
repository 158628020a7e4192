"""``do: split``: a pair made into two hands of one position, each with its own copy of a wager."""
from compiler.steps import StepKind

KIND = StepKind(
    "split",
    "each player's hand meeting `players` picks one available choice (`id`, `cite`, `when`, `then`), as `decide`; "
    "the choice `split` makes the second card of `zone` a new hand of the position, with the flags of the hand "
    "and a copy of its `wager`, and deals each of the two hands one card; a hand may be split again while it meets "
    "`players`, up to `hands` hands a position. Each hand is then played, offered wagers and settled on its own "
    "(the log and the results name it: seat 1 hand 2)",
    params={"zone": {"$ref": "#/$defs/id"},
            "wager": {"$ref": "#/$defs/id"},
            "hands": {"type": "integer", "minimum": 2, "maximum": 8,
                      "description": "the most hands a position may hold, resplits included"},
            "choices": {"type": "array", "items": {"$ref": "#/$defs/choice"}, "minItems": 1}},
    required=("zone", "wager", "hands", "choices"), names={"wager": "wager"},
)
