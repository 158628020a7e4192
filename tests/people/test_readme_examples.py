"""README's examples work from a fresh clone: every line of the code block README marks as examples
is run in a copy of the files git tracks (nothing else of this work tree: no ../shared, no cache, no
untracked file), with this work tree's .venv, and must exit 0."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = "<!-- examples:"


def readme_examples(text: str) -> list[str]:
    """The command lines of every ```sh block that follows the examples mark."""
    out, lines = [], text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith(MARK):
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            j += 1
            while not lines[j].startswith("```"):
                if lines[j].strip() and not lines[j].lstrip().startswith("#"):
                    out.append(lines[j].strip())
                j += 1
            i = j
        i += 1
    return out


def clone_like(dest: Path) -> Path:
    """The tracked files of the work tree (as a clone has them, with uncommitted edits) under ``dest``."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for rel in files.decode().split("\0"):
        if not rel or not (ROOT / rel).is_file():
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)
    (dest / ".venv").symlink_to(ROOT / ".venv")
    return dest


def test_readme_marks_examples():
    commands = readme_examples((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(commands) >= 8
    assert not any("../shared" in c or "[" in c for c in commands)  # paths of a clone, no placeholders


def test_readme_examples_exit_0_in_a_fresh_clone(tmp_path):
    repo = clone_like(tmp_path / "repo")
    env = {**os.environ, "RULESPEC_CACHE_DIR": str(tmp_path / "cache")}
    for cmd in readme_examples((repo / "README.md").read_text(encoding="utf-8")):
        r = subprocess.run(["bash", "-c", cmd], cwd=repo, env=env, capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, f"{cmd}\n{r.stderr[-2000:]}"
    assert (repo / "669a-draft.yaml").is_file()
