"""What a person types at ``rulespec play`` that is not a choice: amounts, and where rounds are saved.

Amounts are read strictly: digits, an optional ``$``, commas only between groups of three digits
(``1,500``), at most two decimals after a point. Anything else (``NaN``, ``Infinity``, ``1e30``,
``1,5``, ``-5``, ``2.505``) is refused with the reason, and the question is asked again: "1,5" is
never read as 15, nor as 1.5 (no locale is guessed).

Saving never loses a file: ``--save DIR`` must name an existing, writable directory before the game
starts; the rounds of a session are numbered on from the files already there (a second session never
overwrites the first one's), each written with exclusive creation. A file name given at the prompt
that already exists is overwritten only when the player says so.
"""
from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

MAX_AMOUNT = Decimal("1000000000")  # $1,000,000,000: no table takes more on one wager
_AMOUNT = re.compile(r"\$?([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?")


def parse_amount(text: str) -> tuple[Decimal | None, str | None]:
    """(the amount, None), or (None, why it is not one)."""
    t = (text or "").strip()
    if not t:
        return None, "an amount is needed (0 declines)"
    if len(t) > 40:
        return None, "not an amount: too long"
    m = _AMOUNT.fullmatch(t)
    if m is None:
        if t.lstrip("$").startswith("-"):
            return None, f"not an amount: {t!r}: an amount is 0 or more"
        if re.fullmatch(r"\$?\d+,\d{1,2}", t):
            return None, (f"not an amount: {t!r}: a comma separates thousands (1,500); cents follow a point "
                          "(1.50)")
        if re.fullmatch(r"\$?[\d,]*\.\d{3,}", t):
            return None, f"not an amount: {t!r}: at most two decimals (dollars and cents)"
        return None, f"not an amount: {t!r}: write dollars and cents, e.g. 25 or 12.50"
    a = Decimal(m.group(1).replace(",", "") + "." + (m.group(2) or "0"))
    if a > MAX_AMOUNT:
        return None, f"not an amount: {t!r}: more than the largest amount accepted ($1,000,000,000)"
    return a.quantize(Decimal("0.01")), None


def save_dir_problem(path: str) -> str | None:
    """Why ``--save DIR`` cannot be used, or None (checked before the game starts)."""
    p = Path(path)
    if not p.exists():
        return f"--save {path}: no such directory (create it first)"
    if not p.is_dir():
        return f"--save {path}: not a directory"
    if not os.access(p, os.W_OK | os.X_OK):
        return f"--save {path}: the directory cannot be written"
    return None


def _number(name: str, chapter: str) -> int | None:
    m = re.fullmatch(re.escape(chapter) + r"-round-(\d+)\.yaml", name)
    return int(m.group(1)) if m else None


def first_free_number(directory: Path, chapter: str) -> int:
    """One more than the highest round number saved in ``directory`` for ``chapter`` (1 when none)."""
    try:
        names = os.listdir(directory)
    except OSError:
        names = []
    return 1 + max((n for n in (_number(x, chapter) for x in names) if n is not None), default=0)


def save_round(directory: Path, chapter: str, text: str) -> Path:
    """Write ``text`` as the next ``CHAPTER-round-NNN.yaml`` in ``directory``, never over a file (a file
    another session wrote meanwhile takes the number: the next one is tried). OSError when it cannot."""
    n = first_free_number(directory, chapter)
    for _ in range(10_000):
        path = directory / f"{chapter}-round-{n:03d}.yaml"
        try:
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
            return path
        except FileExistsError:
            n += 1
    raise OSError(f"no free file name in {directory}")


def write_new(path: Path, text: str, overwrite: bool) -> None:
    """Write ``text`` to ``path``: created, or replaced only with ``overwrite``. OSError when it cannot."""
    with open(path, "w" if overwrite else "x", encoding="utf-8") as f:
        f.write(text)
