"""The command line as people expect it: --version, help on every option and argument, shell completion."""
from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import subprocess


from compiler.cli import build_parser, main
from compiler.cli_extras import subparsers


def test_version_prints_the_installed_version():
    from importlib.metadata import version

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["--version"])
    assert status == 0 and out.getvalue().strip() == f"rulespec {version('rulespec')}"


def test_the_version_read_at_start_up_is_pyprojects():
    """--version reads compiler.__version__ (importlib.metadata costs start-up time): it must be the
    version pyproject.toml declares, the one the installed package carries."""
    import tomllib
    from pathlib import Path

    import compiler

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert compiler.__version__ == pyproject["project"]["version"]


def test_every_option_and_argument_of_every_subcommand_has_help():
    missing = []
    for path, sp in subparsers(build_parser()):
        for a in sp._actions:
            if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)) and not a.help:
                missing.append((" ".join(path), a.dest))
    assert missing == []


def test_bash_completion_offers_subcommands_options_and_choices(tmp_path):
    bash = shutil.which("bash")
    assert bash, "bash is needed to check the completion script"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["completion", "bash"]) == 0
    script = tmp_path / "rulespec.bash"
    script.write_text(out.getvalue())

    def complete(*words: str) -> set[str]:
        line = " ".join(f"'{w}'" for w in words)
        cmd = (f"source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _rulespec; "
               "printf '%s\\n' \"${COMPREPLY[@]}\"")
        return set(subprocess.run([bash, "-c", cmd], capture_output=True, text=True, check=True).stdout.split())

    assert {"settle", "serve"} <= complete("rulespec", "se")
    assert "--format" in complete("rulespec", "settle", "--f")
    assert complete("rulespec", "settle", "--format", "") == {"text", "json"}
    assert {"parse", "render", "check"} <= complete("rulespec", "text", "")
    assert {"--seats", "--seed", "--save", "--submission"} <= complete("rulespec", "play", "x.yaml", "--s")


def test_play_console_shows_escapes_from_specs_but_keeps_its_own_colours():
    """Text given to the play console (names, ids, messages from a spec) passes compiler.cli.visible:
    an ANSI escape or U+2028 in it is shown, never obeyed; the console's own styles still render."""
    from compiler.play.terminal import SafeConsole

    out = io.StringIO()
    con = SafeConsole(file=out, force_terminal=True, color_system="standard", width=80)
    con.print("[red]ruling[/red] \x1b[2Jwiped\u2028line", highlight=False)
    text = out.getvalue()
    assert "\\x1b[2Jwiped\\u2028line" in text  # the spec's bytes, shown
    assert "\x1b[2J" not in text and "\u2028" not in text
    assert "\x1b[31m" in text  # the console's own colour for [red]
