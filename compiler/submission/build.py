"""Rules Submission documents built by `rulespec build` from rulespecs/submissions/*.yaml."""
from __future__ import annotations

from pathlib import Path


def submission_outputs(root: Path, chapters: dict) -> dict[str, str]:
    """{relative path: content} for every example submission (none yet: see issue 6)."""
    out: dict[str, str] = {}
    sub_dir = root / "rulespecs" / "submissions"
    if not sub_dir.exists():
        return out
    from compiler.submission.document import render_submission_files

    for p in sorted(sub_dir.glob("*.yaml")):
        out.update(render_submission_files(root, p, chapters))
    return out
