"""The text tools read at most 20 MB of an input (compiler/text/errors.py MAX_INPUT_BYTES, issue 29
item 4): /dev/zero, or a larger file, is a clear positioned error at once, not a read until MemoryError."""
from __future__ import annotations

import contextlib
import io
import pytest

from compiler.cli import main
from compiler.text.errors import MAX_INPUT_BYTES

WAR = "rulespecs/567-war.yaml"


def run(*argv) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(list(argv))
    return rc, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("argv", [("text", "parse", "/dev/zero"), ("text", "amendment", "/dev/zero"),
                                  ("import", "/dev/zero"), ("diff", "/dev/zero", WAR), ("diff", WAR, "/dev/zero"),
                                  ("history", "/dev/zero"), ("text", "check", WAR, "/dev/zero")])
def test_dev_zero_is_refused_at_the_limit(argv):
    rc, shown = run(*argv)
    assert rc == 1 and "Traceback" not in shown and "MemoryError" not in shown
    assert "/dev/zero:1:1: error: larger than 20 MB, the limit for an input of the text tools" in shown


def test_a_file_one_byte_over_the_limit_is_refused_and_one_at_it_is_read(tmp_path, monkeypatch):
    from compiler.text import errors

    assert MAX_INPUT_BYTES == 20 * 1024 * 1024
    big = tmp_path / "page.txt"
    with open(big, "wb") as f:
        f.truncate(MAX_INPUT_BYTES + 1)  # sparse: no 20 MB written
    rc, shown = run("text", "parse", str(big))
    assert rc == 1 and f"{big}:1:1: error: larger than 20 MB" in shown
    monkeypatch.setattr(errors, "MAX_INPUT_BYTES", 4096)  # (the same check, on a page of 4 kB)
    page = b"Chapter 567. War\n" + b"x" * (4096 - 17)
    big.write_bytes(page)
    assert len(page) == 4096
    rc, shown = run("text", "parse", str(big))
    assert "larger than" not in shown and "Traceback" not in shown
    big.write_bytes(page + b"x")
    rc, shown = run("text", "parse", str(big))
    assert rc == 1 and "larger than" in shown
