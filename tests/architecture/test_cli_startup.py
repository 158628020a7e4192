"""What `rulespec` loads to build its command line: the reason the handlers import what they run when
they are called (docs/architecture.md, docs/speed.md: `--version` and `--help` in 0.2 s or less, issue 28
item 4). The analysis (numpy), the pipeline and the engine, code generation (Jinja2), the documents
(WeasyPrint), the terminal game (rich) and the browser form (Flask) are loaded by the command that
needs them, not by `rulespec --help`. No time is measured here (bench/startup.py does): the test holds
the modules loaded, which is what the time follows."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import compiler.cli
compiler.cli.build_parser()
print(json.dumps(sorted(sys.modules)))
"""

# the command line's own modules that building the parser may load (argparse-level code)
LIGHT = {"compiler", "compiler.cli", "compiler.cli_extras", "compiler.commands", "compiler.round_tests",
         "compiler.play", "compiler.play.args", "compiler.serve", "compiler.serve.args", "compiler.submission",
         "compiler.submission.args", "compiler.submission.formats", "compiler.text", "compiler.text.commands",
         "compiler.text.errors", "compiler.render", "compiler.render.terminal"}


@pytest.fixture(scope="module")
def loaded() -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_building_the_command_line_loads_no_heavy_stage(loaded):
    heavy = {"numpy", "jinja2", "weasyprint", "flask", "rich", "yaml", "lark", "jsonschema", "ruamel",
             "compiler.analysis", "compiler.codegen", "compiler.pipeline", "compiler.runtime",
             "compiler.spec", "compiler.lang", "compiler.ir", "compiler.lint", "compiler.game_commands",
             "compiler.play.terminal", "compiler.serve.app", "compiler.submission.commands",
             "compiler.submission.schedule", "compiler.submission.document", "compiler.text.parser",
             "importlib.metadata"}
    assert sorted(loaded & heavy) == []


def test_building_the_command_line_loads_only_argparse_level_modules_of_the_compiler(loaded):
    """Every module of compiler/ loaded by `rulespec --help` is one of the few that only declare
    arguments: a new import at the top of a command module shows here by name."""
    assert sorted(m for m in loaded if m.split(".")[0] == "compiler" and m not in LIGHT) == []


def test_every_handler_is_reached_and_imports_its_module_when_called():
    """The handlers registered are the small functions that import the command's module when run: each
    subcommand's handler is found, and calling `rulespec simulate` with a missing file loads the engine
    then (exit 1, no traceback)."""
    probe = """
import json, sys
from compiler.cli import build_parser, main
from compiler.cli_extras import subparsers
handlers = {" ".join(path): sp._defaults.get("handler") for path, sp in subparsers(build_parser())}
before = "compiler.game_commands" in sys.modules
status = main(["simulate", "no-such-file.yaml"])
print(json.dumps([sorted(k for k, h in handlers.items() if h is None), before,
                  "compiler.game_commands" in sys.modules, status]))
"""
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    missing, before, after, status = json.loads(out.stdout.splitlines()[-1])
    assert missing == ["text"]  # a group: its subcommands (text parse, ...) have the handlers
    assert (before, after, status) == (False, True, 1)


def test_validate_loads_no_engine_analysis_code_generation_or_documents():
    """`rulespec validate` of the largest chapter loads the front end only (docs/speed.md: validate in 1 s
    or less): not numpy, Jinja2, WeasyPrint, Flask or rich, not the engine, the analyses, code
    generation or the documents, and not ``importlib.metadata`` (the cache's compiler fingerprint)."""
    probe = """
import contextlib, io, json, sys
from compiler.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    status = main(["validate", "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"])
print(json.dumps([status, sorted(sys.modules)]))
"""
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    status, loaded = json.loads(out.stdout.splitlines()[-1])
    assert status == 0
    heavy = ("numpy", "jinja2", "weasyprint", "flask", "rich", "ruamel", "importlib.metadata",
             "compiler.analysis", "compiler.codegen", "compiler.runtime", "compiler.fast", "compiler.game_commands",
             "compiler.play.terminal", "compiler.serve.app", "compiler.submission.document", "compiler.text.parser")
    assert sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy)) == []
