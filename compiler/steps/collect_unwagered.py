"""``do: collect_unwagered``: the stacks of positions without a wager go to the discard rack unseen."""
from compiler.steps import StepKind

KIND = StepKind("collect_unwagered", "the stacks dealt to positions without a wager go to the discard rack unseen")
