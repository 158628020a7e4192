"""Errors of the text tools, printed as ``path:line:col: error: message``."""
from __future__ import annotations


class TextError(Exception):
    def __init__(self, message: str, path: str = "<input>", line: int = 1, column: int = 1):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: error: {self.message}"
