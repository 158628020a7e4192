"""What `rulespec` loads to build its command line: the reason some imports stay inside the command
handlers (docs/architecture.md). The analysis (numpy), code generation (Jinja2), the documents
(WeasyPrint) and the browser form (Flask) are loaded by the command that needs them, not by
`rulespec --help`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import compiler.cli
compiler.cli.build_parser()
print(json.dumps(sorted(sys.modules)))
"""


def test_building_the_command_line_loads_no_heavy_stage():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    heavy = {"numpy", "jinja2", "weasyprint", "flask", "compiler.analysis", "compiler.codegen",
             "compiler.submission.document", "compiler.text.parser"}
    assert sorted(loaded & heavy) == []
