"""Errors of the text tools, printed as ``path:line:col: error: message``."""
from __future__ import annotations


class TextError(Exception):
    def __init__(self, message: str, path: str = "<input>", line: int = 1, column: int = 1,
                 also: tuple["TextError", ...] = ()):
        super().__init__(message)
        self.also = tuple(also)  # further errors of the same input, printed with this one
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def __str__(self) -> str:
        first = f"{self.path}:{self.line}:{self.column}: error: {self.message}"
        return "\n".join([first] + [str(e) for e in self.also])
