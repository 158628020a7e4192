"""Untrusted input reaching `rulespec build` (issue 12, items 1 to 3): nothing a spec, its file name or a
Rules Submission says becomes code or markup in generated/, no path from a submission reaches outside
rulespecs/, and a build either replaces generated/ whole or leaves it exactly as it was."""
from __future__ import annotations

import ast
import os
import pathlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build import build
from compiler.cli import main
from compiler.codegen.generate import render_game_module
from compiler.pipeline import ROOT, compile_spec

WAR = ROOT / "rulespecs" / "567-war.yaml"
# a payload that creates a file named PWNED in the working directory if it ever runs
PAYLOAD = "__import__('pathlib').Path('PWNED').touch()"
HOSTILE_TITLE = 'War </script><script>alert(1)</script> **bold** [x](http://e.invalid) `tick` """ \\ | #'


def _snapshot(root: Path) -> dict[str, bytes]:
    gen = root / "generated"
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(gen.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts} if gen.exists() else {}


def _war_project(tmp_path: Path, name: str = "567-war.yaml", title: str | None = None) -> Path:
    """A project of one chapter (War, no submissions) whose spec is ``name`` with ``title``."""
    root = tmp_path / "proj"
    (root / "rulespecs").mkdir(parents=True)
    text = WAR.read_text(encoding="utf-8")
    if title is not None:
        import json

        assert "\ntitle: War\n" in text
        text = text.replace("\ntitle: War\n", f"\ntitle: {json.dumps(title)}\n", 1)
    (root / "rulespecs" / name).write_text(text, encoding="utf-8")
    return root


def _statement_shape(source: str) -> list[str]:
    """The top-level statements of a module: their kind and the names they bind or define."""
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out.append("assign " + ",".join(ast.unparse(t) for t in targets))
        elif isinstance(node, ast.FunctionDef):
            out.append(f"def {node.name} ({len(node.body)} statements)")
        else:
            out.append(type(node).__name__ + (" " + ast.unparse(node) if isinstance(node, (ast.Import, ast.ImportFrom))
                                              else ""))
    return out


# ---------------------------------------------------------------------------------------------
# 12.1 injection
# ---------------------------------------------------------------------------------------------

def test_spec_file_name_holding_a_newline_and_code_is_refused_with_a_positioned_error(tmp_path):
    name = f"567-war\n{PAYLOAD}\n#.yaml"
    root = _war_project(tmp_path, name)
    res = build(root)
    assert not res.ok
    errors = [d for c in res.compiled for d in c.errors]
    assert len(errors) == 1
    line = errors[0].format()
    assert "\n" not in line and line.startswith("rulespecs/567-war\\n__import__")
    assert ":1:1: error: a rulespec file name may hold only letters, digits" in line
    assert not (root / "generated").exists() and not (root / "PWNED").exists()


def test_spec_outside_rulespecs_is_not_built(tmp_path):
    root = _war_project(tmp_path)
    outside = tmp_path / "567-elsewhere.yaml"
    shutil.copy(WAR, outside)
    res = build(root, paths=[outside])
    assert not res.ok and not (root / "generated").exists()
    (err,) = [d for c in res.compiled for d in c.errors]
    assert "must be a file directly in the project's rulespecs/" in err.message


def test_hostile_path_and_title_stay_inert_in_the_game_module(tmp_path):
    """Even past the file-name check (a spec compiled from any path), the module has exactly the
    statements of the honest one and running it injects nothing."""
    text = WAR.read_text(encoding="utf-8")
    honest = render_game_module(compile_spec("rulespecs/567-war.yaml", text).chapter)
    import json

    # a line break in the title is refused at the title (a one-line field, schemas/rulespec.schema.json)
    broken = text.replace("\ntitle: War\n", f"\ntitle: {json.dumps(HOSTILE_TITLE + chr(10) + PAYLOAD)}\n", 1)
    refused = compile_spec("rulespecs/567-war.yaml", broken)
    assert not refused.ok and any(d.pointer == "/title" and "one line of text" in d.message for d in refused.errors)
    # the rest of the payload stays inert in the title, and the file name's line breaks in comments
    hostile_text = text.replace("\ntitle: War\n", f"\ntitle: {json.dumps(HOSTILE_TITLE + ' ' + PAYLOAD)}\n", 1)
    c = compile_spec(f"rulespecs/x\n{PAYLOAD}\n# \"\"\"\n.yaml", hostile_text)
    assert c.ok, [d.format() for d in c.errors]
    source = render_game_module(c.chapter)
    assert _statement_shape(source) == _statement_shape(honest)
    tree = ast.parse(source)
    assert ast.get_docstring(tree).startswith("Chapter 567. War </script>")
    # every line that mentions the payload is a comment or inside a string literal
    assert not any(line.lstrip().startswith("__import__") for line in source.splitlines())
    mod = tmp_path / "mod.py"
    mod.write_text(source, encoding="utf-8")
    run = subprocess.run([sys.executable, str(mod)], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert not (tmp_path / "PWNED").exists()
    namespace: dict = {}
    exec(compile(source, "mod", "exec"), namespace)
    assert namespace["TITLE"] == HOSTILE_TITLE + " " + PAYLOAD  # the data itself survives, exactly


def test_hostile_title_is_escaped_in_readme_interpretations_forms_and_text(tmp_path):
    root = _war_project(tmp_path, title=HOSTILE_TITLE)
    res = build(root)
    assert res.ok, [d.format() for c in res.compiled for d in c.errors]
    gen = root / "generated"
    for rel in ("README.md", "interpretations.md"):
        text = (gen / rel).read_text(encoding="utf-8")
        assert "</script>" not in text and "<script>" not in text and "**bold**" not in text, rel
        assert "\\<script\\>" in text and "\\*\\*bold\\*\\*" in text and "\\`tick\\`" in text, rel
    form = next((gen / "forms").glob("*.md")).read_text(encoding="utf-8")
    assert "<script>" not in form and "\\<script\\>alert(1)\\</script\\>" in form
    for html in list((gen / "forms").glob("*.html")) + list((gen / "text").glob("*.html")):
        text = html.read_text(encoding="utf-8").lower()  # the Code text shows titles in capitals
        assert "<script>" not in text and "</script>" not in text, html.name
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text, html.name
    # the generated module of the hostile title imports and plays
    mod = next((gen / "games").glob("*.py"))
    namespace: dict = {}
    exec(compile(mod.read_text(encoding="utf-8"), str(mod), "exec"), namespace)
    assert namespace["TITLE"] == HOSTILE_TITLE


# ---------------------------------------------------------------------------------------------
# 12.2 path traversal
# ---------------------------------------------------------------------------------------------

def _secret_outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret-x.yaml"
    secret.write_text("chapter: '9'\ntitle: TOPSECRET-CONTENT\npassword: hunter2-TOPSECRET\n", encoding="utf-8")
    return outside / "secret"


def _submission(tmp_path: Path, chapter: str) -> Path:
    text = (ROOT / "rulespecs" / "submissions" / "567-war-keystone-manual.yaml").read_text(encoding="utf-8")
    assert '  chapter: "567"\n' in text
    import json

    p = tmp_path / "sub.yaml"
    p.write_text(text.replace('  chapter: "567"\n', f"  chapter: {json.dumps(chapter)}\n", 1), encoding="utf-8")
    return p


def test_submission_chapter_leading_outside_rulespecs_gets_a_positioned_error_and_nothing_is_read(tmp_path, capsys):
    target = _secret_outside(tmp_path)
    rel = os.path.relpath(target, ROOT / "rulespecs")
    assert rel.startswith("..")
    sub = _submission(tmp_path, rel)
    assert main(["submission", str(sub)]) == 1
    err = capsys.readouterr().err
    assert "TOPSECRET" not in err and "hunter2" not in err
    assert f"{sub}:9:12: error: chapter " in err and "is not a chapter number" in err
    assert "[at /game/chapter]" in err


@pytest.mark.parametrize("chapter", ["/etc/passwd", "567/../567", "567*", "5 67", "567\nx", "669A", "0" * 50])
def test_submission_chapter_must_be_a_chapter_number(tmp_path, chapter):
    from compiler.submission.commands import check_files

    sub = _submission(tmp_path, chapter)
    (res,), spec_diags = check_files([sub], root=ROOT)
    _, submission, diags = res
    assert submission is None and spec_diags == []
    assert any(d.pointer == "/game/chapter" and "is not a chapter number" in d.message for d in diags)


def test_chapter_spec_files_only_inside_rulespecs(tmp_path):
    from compiler.submission.document import chapter_spec_files

    target = _secret_outside(tmp_path)
    assert chapter_spec_files(ROOT, os.path.relpath(target, ROOT / "rulespecs")) == []
    assert [p.name for p in chapter_spec_files(ROOT, "567")] == ["567-war.yaml"]


# ---------------------------------------------------------------------------------------------
# 12.3 builds that lose work
# ---------------------------------------------------------------------------------------------

def _copy_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "rulespecs", root / "rulespecs")
    shutil.copytree(ROOT / "generated", root / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_build_of_one_spec_touches_only_its_outputs_and_recomputes_the_index_over_all(tmp_path):
    root = _copy_project(tmp_path)
    gen = root / "generated"
    war = gen / "games" / "ch567_war.py"
    other = gen / "games" / "ch669a_raise_it_up_stud_poker.py"
    war.write_text("stale war")
    other.write_text("hand edit of another chapter")
    (gen / "README.md").write_text("stale index")
    (gen / "stray.txt").write_text("someone's work")
    before = _snapshot(root)
    res = build(root, paths=[root / "rulespecs" / "567-war.yaml"])
    assert res.ok
    after = _snapshot(root)
    assert sorted(res.written) == ["generated/README.md", "generated/games/ch567_war.py"]
    assert after["generated/games/ch567_war.py"] == (ROOT / "generated/games/ch567_war.py").read_bytes()
    # the index names every chapter, as the full build's does
    assert after["generated/README.md"] == (ROOT / "generated/README.md").read_bytes()
    for ch in ("567", "669a", "670a", "688a", "535"):
        assert f"Chapter {ch}." in after["generated/README.md"].decode()
    # everything else is exactly as it was: the other chapter's edit, the stray file
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert changed == {"generated/README.md", "generated/games/ch567_war.py"}


def test_build_failing_while_writing_leaves_generated_exactly_as_it_was(tmp_path, monkeypatch):
    root = _copy_project(tmp_path)
    (root / "generated" / "games" / "ch567_war.py").write_text("stale")
    (root / "generated" / "README.md").write_text("stale index")
    (root / "generated" / "stray.txt").write_text("x")
    before = _snapshot(root)
    real = pathlib.Path.write_bytes
    calls = []

    def fail_on_second(self, data):
        calls.append(self)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(pathlib.Path, "write_bytes", fail_on_second)
    res = build(root)
    monkeypatch.undo()
    assert len(calls) == 2 and not res.ok
    (err,) = [d for c in res.compiled for d in c.errors]
    assert err.format().startswith("generated:1:1: error: nothing written:") and "No space left" in err.message
    assert _snapshot(root) == before
    assert sorted(p.name for p in root.iterdir()) == ["generated", "rulespecs"]  # no staging left behind


def test_output_file_name_too_long_fails_the_build_and_writes_nothing(tmp_path, capsys):
    root = _war_project(tmp_path, title="War " + "very-long-title " * 30)
    (root / "generated").mkdir()
    (root / "generated" / "README.md").write_text("the old index")
    before = _snapshot(root)
    res = build(root)
    assert not res.ok
    (err,) = [d for c in res.compiled for d in c.errors]
    assert "nothing written" in err.message and "File name too long" in err.message
    assert _snapshot(root) == before
    assert sorted(p.name for p in root.iterdir()) == ["generated", "rulespecs"]


def test_swap_interrupted_between_its_two_renames_is_undone_by_the_next_build(tmp_path):
    root = _war_project(tmp_path)
    assert build(root).ok
    before = _snapshot(root)
    # the state a build killed between `generated -> old` and `staging -> generated` leaves
    (root / "generated").rename(root / ".generated.old-999999999")
    (root / ".generated.staging-999999999").mkdir()
    (root / ".generated.staging-999999999" / "half.txt").write_text("half")
    res = build(root, check=True, use_record=True)
    assert res.ok and res.stale == [] and res.extra == []
    assert _snapshot(root) == before
    assert sorted(p.name for p in root.iterdir()) == ["generated", "rulespecs"]


def test_spec_or_submission_linked_from_outside_the_project_is_refused(tmp_path):
    root = _war_project(tmp_path)
    outside = tmp_path / "outside.yaml"
    outside.write_text(WAR.read_text(encoding="utf-8").replace("\ntitle: War\n", "\ntitle: TOPSECRET\n", 1))
    (root / "rulespecs" / "568-linked.yaml").symlink_to(outside)
    res = build(root)
    assert not res.ok and not (root / "generated").exists()
    (err,) = [d for c in res.compiled for d in c.errors]
    assert err.path == "rulespecs/568-linked.yaml" and "link to elsewhere" in err.message
    assert "TOPSECRET" not in err.format()
    (root / "rulespecs" / "568-linked.yaml").unlink()
    (root / "rulespecs" / "submissions").mkdir()
    (root / "rulespecs" / "submissions" / "567-x.yaml").symlink_to(outside)
    res = build(root)
    assert not res.ok and not (root / "generated").exists()
    (err,) = [d for c in res.compiled for d in c.errors]
    assert "must be inside rulespecs/submissions/" in err.message


def test_spec_named_relative_to_the_project_root_or_through_dotdot(tmp_path):
    root = _war_project(tmp_path)
    assert build(root, paths=[Path("rulespecs/567-war.yaml")]).ok
    res = build(root, paths=[Path("rulespecs/../../567-war.yaml")])
    assert not res.ok
    (err,) = [d for c in res.compiled for d in c.errors]
    assert err.path == "rulespecs/../../567-war.yaml" and "directly in the project's rulespecs/" in err.message


def test_progress_goes_to_a_terminal_only(tmp_path, capsys, monkeypatch):
    root = _war_project(tmp_path)
    assert build(root).ok
    out = capsys.readouterr()
    assert out.err == "" and out.out == ""  # piped (pytest's capture is no terminal): nothing extra

    class Tty:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    assert build(root, check=True).ok
    monkeypatch.undo()
    assert "compiling rulespecs/567-war.yaml (1/1)" in tty.text and tty.text.endswith("\r\x1b[K")
