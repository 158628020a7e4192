"""``do: reveal``: a face-down zone turned over."""
from compiler.steps import StepKind

KIND = StepKind("reveal", "turns over a face-down zone (community cards, or the dealer's)",
                params={"zone": {"$ref": "#/$defs/id"}}, required=("zone",))
