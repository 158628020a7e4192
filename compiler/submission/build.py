"""What `rulespec build` makes of rulespecs/submissions/*.yaml: the Rules Submission documents
(``submission_outputs``) and the facilities' equipment change schedules (``schedule_outputs``)."""
from __future__ import annotations

import re
from pathlib import Path

from compiler.submission.document import render_submission_files
from compiler.submission.schedule import schedule_files

# A rulespec or Rules Submission file name: written into generated files and their names, so only
# these characters (anything else is refused with a positioned error, never quoted raw).
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.yaml$")


def submission_files(root: Path) -> tuple[list[Path], list[Path]]:
    """(the example submissions, the files refused: a name not matching SAFE_NAME, or
    a link leading outside rulespecs/submissions/)."""

    sub_dir = Path(root) / "rulespecs" / "submissions"
    found = sorted(sub_dir.glob("*.yaml")) if sub_dir.exists() else []
    inside = sub_dir.resolve()

    def ok(p: Path) -> bool:  # a safe name, and a file really inside rulespecs/submissions/ (no link out)
        return bool(SAFE_NAME.match(p.name)) and p.resolve().parent == inside and p.resolve().is_file()

    return [p for p in found if ok(p)], [p for p in found if not ok(p)]


def _submission_files(root: Path) -> list[Path]:
    return submission_files(root)[0]


def submission_outputs(root: Path, chapters: dict) -> dict[str, str]:
    """{relative path: content}: ``generated/submissions/<stem>.<ext>`` for every example submission
    and every format of compiler/submission/formats.py."""
    out: dict[str, str] = {}

    for p in _submission_files(root):
        out.update(render_submission_files(root, p, chapters))
    return out


def schedule_outputs(root: Path, chapters: dict) -> dict[str, str]:
    """{relative path: content}: ``generated/schedules/<facility>-change-schedule.md|.html`` for every
    certificate holder and facility the example submissions name (compiler/submission/schedule.py)."""
    return schedule_files(root, _submission_files(root), chapters)
