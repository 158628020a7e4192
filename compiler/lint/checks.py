"""The data checks of a schema-valid rulespec live with the spec (:mod:`compiler.spec.checks`):
they read the document only, and the IR builder runs them before the lint. Old name kept."""
from compiler.spec.checks import EVENTS, data_diagnostics

__all__ = ["EVENTS", "data_diagnostics"]
