"""``do: burn``: cards burned face down to the discard rack."""
from compiler.steps import StepKind

KIND = StepKind("burn", "burns `count` cards face down to the discard rack",
                params={"count": {"type": "integer", "minimum": 1, "maximum": 60}})
