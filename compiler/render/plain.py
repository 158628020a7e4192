"""Rule-language conditions in plain words: :mod:`compiler.lang.plain` (the language reads its own
rules; code generation uses it for the blank form). Old name kept."""
from compiler.lang.plain import plain_when

__all__ = ["plain_when"]
