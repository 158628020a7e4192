"""docs/api.md: its example runs as written, and the hand history it writes settles to the round played."""
from __future__ import annotations

import contextlib
import io
import json
import os
import re

from compiler.cli import main
from compiler.pipeline import ROOT


def test_api_doc_example_runs_and_its_history_settles(tmp_path):
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    ns: dict = {}
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(blocks[0], "docs/api.md", "exec"), ns)
    finally:
        os.chdir(cwd)
    # part 3 printed the settlement of the hand history: the same lines as `rulespec settle --format json`
    js = io.StringIO()
    with contextlib.redirect_stdout(js):
        assert main(["settle", str(ROOT / "rulespecs/567-war.yaml"),
                     str(ROOT / "rulespecs/rounds/567-war-tie-goes-to-war.yaml"), "--format", "json"]) == 0
    for r in json.loads(js.getvalue())["results"]:
        assert f"{r['seat']} {r['name']} {r['outcome']} {r['net']} {'; '.join(r['cites'])}" in out.getvalue()
    # part 4's hand history settles to the round as played
    f = tmp_path / "round.yaml"
    f.write_text(ns["text"], encoding="utf-8")
    js = io.StringIO()
    with contextlib.redirect_stdout(js):
        assert main(["settle", str(ROOT / "rulespecs/567-war.yaml"), str(f), "--format", "json"]) == 0
    assert json.loads(js.getvalue())["results"] == [r.to_json() for r in ns["played"].result.results]
