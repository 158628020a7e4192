"""An empty option value (issue 29 item 3): `--option pair_plus_paytable=` and `''` in a submission are
the command's positioned error naming the paytable's columns (it was IndexError in
compiler/submission/values.py)."""
from __future__ import annotations

import contextlib
import io

import pytest

from compiler.cli import main
from compiler.pipeline import ROOT

SPEC = "rulespecs/669a-raise-it-up-stud-poker.yaml"
SUB = ROOT / "rulespecs" / "submissions" / "669a-raise-it-up-lakeside-basic.yaml"


def run(*argv) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(list(argv))
    return rc, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("value", ["", " ", "\t"])
def test_an_empty_paytable_option_is_an_error_naming_the_columns(value):
    rc, shown = run("settle", SPEC, "rulespecs/rounds/669a-raises-at-each-street.yaml",
                    "--option", f"pair_plus_paytable={value}")
    assert rc == 1 and "Traceback" not in shown and "IndexError" not in shown
    assert "error: --option pair_plus_paytable: an empty value is no column of the Pair Plus paytable" in shown
    assert "choose Paytable A, Paytable B, Paytable C or Paytable D" in shown


def test_an_empty_value_in_a_submission_is_a_positioned_error(tmp_path):
    text = SUB.read_text(encoding="utf-8")
    assert text.count("pair_plus_paytable: Paytable A") == 1
    sub = tmp_path / SUB.name
    sub.write_text(text.replace("pair_plus_paytable: Paytable A", "pair_plus_paytable: ''"), encoding="utf-8")
    line = text[: text.index("pair_plus_paytable: Paytable A")].count("\n") + 1
    rc, shown = run("submission", str(sub))
    assert rc == 1 and "Traceback" not in shown
    assert f"{sub}:{line}:" in shown and "an empty value is no column" in shown
    assert "[at /selections/pair_plus_paytable]" in shown
