"""``do: deal``: cards to the players, the dealer, the community, or every betting position."""
from compiler.steps import StepKind

KIND = StepKind(
    "deal",
    "deals `count` cards to each target one at a time, in order (`stack: true`: each target's cards together); "
    "`to: positions` deals to every betting position, wagered or not, and the dealer, clockwise from the "
    "position found by counting `start` from the dealer as one (`count_order`); cards of positions without a "
    "wager are kept apart. A zone dealt face up is shown to the players; face down it is not",
    params={
        "count": {"type": "integer", "minimum": 1, "maximum": 60},
        "to": {"enum": ["players", "dealer", "community", "positions"],
               "description": "players (wagered positions), dealer, community, or positions (every betting position, "
                              "wagered or not, and the dealer, clockwise from the starting position)"},
        "zone": {"$ref": "#/$defs/id"},
        "face": {"enum": ["up", "down"]},
        "stack": {"type": "boolean",
                  "description": "each target receives its count cards together as one stack (automated dealing "
                                 "shoe), not one card at a time"},
        "count_order": {"enum": ["clockwise", "counterclockwise"],
                        "description": "to positions: direction of the count from the dealer (default counterclockwise)"},
    },
    exprs={"start": "to positions: the count that finds the starting position, counting the dealer as one"},
    required=("to",),
)
