"""What `rulespec build` makes of rulespecs/submissions/*.yaml: the Rules Submission documents
(``submission_outputs``) and the facilities' equipment change schedules (``schedule_outputs``)."""
from __future__ import annotations

from pathlib import Path


def _submission_files(root: Path) -> list[Path]:
    sub_dir = Path(root) / "rulespecs" / "submissions"
    return sorted(sub_dir.glob("*.yaml")) if sub_dir.exists() else []


def submission_outputs(root: Path, chapters: dict) -> dict[str, str]:
    """{relative path: content}: ``generated/submissions/<stem>.md|.html`` for every example submission."""
    out: dict[str, str] = {}
    from compiler.submission.document import render_submission_files

    for p in _submission_files(root):
        out.update(render_submission_files(root, p, chapters))
    return out


def schedule_outputs(root: Path, chapters: dict) -> dict[str, str]:
    """{relative path: content}: ``generated/schedules/<facility>-change-schedule.md|.html`` for every
    certificate holder and facility the example submissions name (compiler/submission/schedule.py)."""
    from compiler.submission.schedule import schedule_files

    return schedule_files(root, _submission_files(root), chapters)
