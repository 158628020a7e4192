"""``do: decide``: each player picks one of the available choices (with ``each``: one for each instance of a
wager of several they hold)."""
from compiler.steps import StepKind

KIND = StepKind("decide", "each player picks one available choice (`id`, `cite`, `when`, `then`): their strategy, "
                "or the hand history. With `each: W` (a wager declared `several: true`), the player picks one for "
                "each instance of `W` in action, in the order placed; the choices' `when` and `then` read and act on "
                "that instance alone (`return W` takes that one down)",
                params={"choices": {"type": "array", "items": {"$ref": "#/$defs/choice"}, "minItems": 1},
                        "each": {"$ref": "#/$defs/id",
                                 "description": "a wager a player may have several of (several: true): the decision "
                                                "is taken once for each instance of it in action"}},
                required=("choices",), names={"each": "wager"})
