"""Drive a command through a pseudo-terminal, answering its prompts as a person would (no tmux needed)."""
from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\r")


def plain(text: str) -> str:
    return ANSI.sub("", text)


class Terminal:
    def __init__(self, argv: list[str], cwd: str, columns: int = 110, env: dict | None = None):
        self.master, slave = pty.openpty()
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, columns, 0, 0))
        e = dict(os.environ, TERM="xterm-256color", COLUMNS=str(columns), LINES="60")
        e.pop("NO_COLOR", None)
        e.update(env or {})
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=e,
                                     close_fds=True, start_new_session=True)
        os.close(slave)
        self.raw = b""
        self.seen = 0  # offset in the plain text up to which prompts were answered

    def _read(self, wait: float) -> bool:
        r, _, _ = select.select([self.master], [], [], wait)
        if not r:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.raw += data
        return True

    @property
    def text(self) -> str:
        return plain(self.raw.decode("utf-8", "replace"))

    def next_prompt(self, limit: float = 120.0) -> str | None:
        """The next prompt (the unanswered tail ending in ': '), or None when the program ended."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            tail = self.text[self.seen:]
            line = tail.split("\n")[-1]
            if line.endswith(": ") and line.strip():
                return line
            if not self._read(0.5) and self.proc.poll() is not None:
                while self._read(0.1):
                    pass
                return None
        raise TimeoutError(f"no prompt within {limit}s; screen so far:\n{self.text[-2000:]}")

    def answer(self, text: str) -> None:
        old = len(self.text)
        os.write(self.master, (text + "\n").encode())
        end = time.monotonic() + 30
        while "\n" not in self.text[old:] and time.monotonic() < end:  # the terminal echoes the answer
            self._read(0.2)
        self.seen = old + self.text[old:].index("\n") + 1

    def wait(self, limit: float = 120.0) -> int:
        end = time.monotonic() + limit
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.2)
        while self._read(0.1):
            pass
        os.close(self.master)
        return self.proc.wait(timeout=10)
