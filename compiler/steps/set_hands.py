"""``do: set_hands``: cards set into a high hand and a low hand (pai gow)."""
from compiler.steps import StepKind

KIND = StepKind(
    "set_hands",
    "the cards of `zone` are set into a high hand of `high` cards and a low hand of `low` cards (zones `high` "
    "and `low`). A player sets as their strategy or the hand history says, or by the house way; a setting for "
    "which `legal` is false is played and logged with `foul` (flag `flag`). The dealer sets by the house way "
    "among the legal settings (`face: up`: placed face up); a recorded dealer setting the house way does not "
    "allow raises the event `dealer_setting_wrong`",
    params={
        "to": {"enum": ["players", "dealer"], "description": "players or dealer"},
        "zone": {"$ref": "#/$defs/id"},
        "face": {"enum": ["up", "down"], "description": "the dealer's hands are placed face up (shown to the players)"},
        "high": {"type": "integer", "minimum": 1, "maximum": 7, "description": "cards in the high hand"},
        "low": {"type": "integer", "minimum": 1, "maximum": 6, "description": "cards in the low hand"},
        "flag": {"$ref": "#/$defs/id", "description": "flag set on a player whose setting is not legal (a foul)"},
        "foul": {"type": "string",
                 "description": "what the log says of a player's setting that is not legal (the chapter's wording)"},
        "house_way": {"$ref": "#/$defs/id", "description": "id of a house way of the spec's house_ways"},
        "house_way_option": {"$ref": "#/$defs/id",
                             "description": "an option of type house_way; when the casino's selections give one, "
                                            "it is used instead of house_way"},
        "larger_first": {"$ref": "#/$defs/id",
                         "description": "positions of one player are set in decreasing amount of this wager"},
    },
    exprs={"legal": "condition on setting.high / setting.low for a setting to be legal; an illegal player setting "
                    "is played and flagged"},
    required=("zone", "high", "low"),
    names={"larger_first": "wager", "house_way": "house_way", "house_way_option": "house_way_option"},
    wording=("foul",),
)
