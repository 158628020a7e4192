"""``do: envy``: a bonus paid to a player for *other* players' hands (e.g. an Envy Bonus)."""
from compiler.steps import StepKind

KIND = StepKind(
    "envy",
    "pays each receiving player (`players`) holding `wager` a bonus of `paytable` for every other player whose "
    "hand (`hand`) meets `qualifying`, never for their own; logged under `name`",
    params={
        "wager": {"$ref": "#/$defs/id"},
        "paytable": {"$ref": "#/$defs/id"},
        "name": {"$ref": "#/$defs/line", "description": "the name of the bonus, as the chapter calls it"},
    },
    exprs={"qualifying": "a hand that earns the other players a bonus",
           "hand": "the cards of that hand, looked up in the paytable"},
    required=("wager", "paytable", "qualifying", "hand", "name"),
    names={"wager": "wager", "paytable": "paytable"},
)
