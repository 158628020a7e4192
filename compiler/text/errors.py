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


MAX_INPUT_BYTES = 20 * 1024 * 1024  # 20 MB: a Bulletin or Code page is under 1 MB (docs/security.md)


def read_input(path) -> bytes:
    """The bytes of an input file of the text tools (a page, an amendment, a renumbering map), never
    more than ``MAX_INPUT_BYTES``: a larger file, or one that never ends (``/dev/zero``, a FIFO fed
    forever), is refused as soon as the limit is passed; a file that cannot be read is a TextError."""
    import os

    p = os.fspath(path)
    try:
        if os.path.isdir(p):
            raise TextError("cannot read file: is a directory", str(p), 1, 1)
        with open(p, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise TextError(f"cannot read file: {exc.strerror or exc}", str(p), 1, 1) from None
    if len(data) > MAX_INPUT_BYTES:
        raise TextError(f"larger than {MAX_INPUT_BYTES // 2 ** 20} MB, the limit for an input of the text tools "
                        "(docs/security.md)", str(p), 1, 1)
    return data
