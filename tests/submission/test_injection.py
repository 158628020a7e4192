"""Nothing from a submission or a rulespec reaches CSS, HTML or a URL unescaped (issue 29, item 1):
the printer fetches no URL, the CSS string of the page footer holds any text, and names with line
breaks or control characters are refused with their position."""
from __future__ import annotations

import contextlib
import http.server
import io
import json
import re
import struct
import threading
import zlib
from contextlib import contextmanager

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.codegen.css import css_string
from compiler.render.pdf import html_to_pdf


@contextmanager
def listener():
    """A local HTTP server on an ephemeral port that records every request it gets."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            seen.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/css")
            self.end_headers()
            self.wfile.write(b"body { color: red }")

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}", seen
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)


def png(path) -> None:
    """A 2x2 red PNG written by hand (no imaging library needed)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def images_in(pdf: bytes) -> int:
    return len(re.findall(rb"/Subtype\s*/Image", pdf))


def test_the_printer_fetches_no_url_and_reads_no_local_file(tmp_path):
    picture = tmp_path / "outside.png"
    png(picture)
    with listener() as (base, seen):
        html = f"""<!doctype html><html><head>
<link rel="stylesheet" href="{base}/link.css">
<style>@import url("{base}/import.css");
@font-face {{ font-family: X; src: url("{base}/font.woff"); }}
body {{ background: url("{base}/background.png"); font-family: X; }}</style></head>
<body><p>Figures</p><img src="{base}/image.png"><img src="{picture.as_uri()}"><img src="file:///etc/passwd">
</body></html>"""
        pdf = html_to_pdf(html)
        assert seen == [], seen  # the listener logged no request
    assert pdf.startswith(b"%PDF-")
    assert images_in(pdf) == 0  # neither the local PNG nor /etc/passwd is embedded
    # the same document does embed the picture when the printer is let fetch it: the check above can fail
    from weasyprint import HTML
    assert images_in(HTML(string=f'<img src="{picture.as_uri()}">').write_pdf()) == 1


def test_css_string_escapes_everything_that_could_end_the_string_or_the_style_element():
    hostile = 'Casino\n"} body::after { content: "TAMPERED" } @import url(http://127.0.0.1:9/x); </style><b>'
    out = str(css_string(hostile))
    assert not set(out) & set('"\n\r\\<>{}&') - {"\\"}
    assert "\\a " in out and "\\22 " in out and "\\3c /style\\3e " in out
    for ch in ("\x00", "\x1b", "\u202e", "\u2028", "\ud800"):
        assert ch not in str(css_string(f"a{ch}b"))
    assert str(css_string("Keystone Valley Casino & Resort, Wilkes-Barre")) == \
        "Keystone Valley Casino \\26  Resort, Wilkes-Barre"


def test_the_filed_document_keeps_a_hostile_facility_inside_its_css_string(war):
    """The footer's CSS string of the HTML document holds the facility whatever it says, and the
    printed page shows its text, not a rule it could inject."""
    from compiler.submission.formats import template_envs

    hostile = 'Casino\n"} @page { @bottom-right { content: " [TAMPERED 0.00%]" } } p { x: "'
    env = template_envs()[1]
    src = env.loader.get_source(env, "rules-submission.html.jinja")[0]
    footer = next(line for line in src.splitlines() if "@bottom-left" in line)
    rendered = env.from_string(footer).render(chapter="567", facility=hostile)
    value = re.fullmatch(r'\s*@bottom-left \{ content: "([^"\n]*)"; font: [^"{}]*; color: #555; \}', rendered)
    assert value, rendered


EXAMPLE = "rulespecs/submissions/567-war-riverside-shuffler.yaml"
# the injection: a newline, then CSS that closes the footer's string and appends to the page
INJECTED_FACILITY = 'Riverside\n" } @page { @bottom-right { content: " [TAMPERED 0.00%]" } } x { y: "'


def _submission(tmp_path, field: str, value: str):
    from compiler.pipeline import ROOT

    text = (ROOT / EXAMPLE).read_text(encoding="utf-8")
    lines = text.splitlines()
    i = next(i for i, t in enumerate(lines) if t.startswith(f"{field}:"))
    lines[i] = f"{field}: {json.dumps(value)}"
    f = tmp_path / "567-war-x.yaml"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f, i + 1


def _run(args):
    from compiler.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("field,value", [
    ("facility", INJECTED_FACILITY), ("effective_date", "2025-07-01\n"), ("certificate_holder", "A\tB"),
    ("facility", "Casino\r"), ("facility", "Casino\u2028x")])
def test_a_line_break_in_a_one_line_field_is_refused_at_its_position(tmp_path, field, value):
    f, line = _submission(tmp_path, field, value)
    code, out, err = _run(["submission", str(f), "-o", str(tmp_path / "out")])
    assert code == 1
    assert re.search(rf"^{re.escape(str(f))}:{line}:{len(field) + 3}: error: .* \[at /{field}\]$", err, re.M), err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    assert "Traceback" not in err


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f", "\x9b", "\ud800", "\udfff", "\u202a", "\u202e",
                                  "\u2066", "\u2069", "\ufffe"])
def test_controls_surrogates_and_bidi_overrides_made_by_yaml_escapes_are_refused(tmp_path, char):
    """JSON-style escapes in a double-quoted YAML string: NUL, ESC, DEL, C1, lone surrogates, bidi
    overrides and isolates never reach a document."""
    f, line = _submission(tmp_path, "facility", f"Riverside{char}Casino")
    assert f"\\u{ord(char):04x}" in f.read_text(encoding="utf-8") or f"\\x{ord(char):02x}" in f.read_text(encoding="utf-8")
    code, out, err = _run(["submission", str(f)])
    assert code == 1
    assert f"{f}:{line}:11: error: invalid character U+{ord(char):04X}" in err, err
    assert "[at /facility]" in err


@pytest.mark.parametrize("escape,code", [("\\u202e", "U+202E"), ("\\0", "U+0000"), ("\\e", "U+001B"),
                                         ("\\ud800", "U+D800"), ("\\x9b", "U+009B")])
def test_a_hand_history_with_an_escaped_control_is_refused_at_its_position(tmp_path, escape, code):
    from compiler.pipeline import ROOT

    text = (ROOT / "rulespecs/rounds/567-war-tie-goes-to-war.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    i = next(i for i, t in enumerate(lines) if t.startswith("title:"))
    lines[i] = f'title: "Tie{escape} on the original deal"'
    f = tmp_path / "r.yaml"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = _run(["settle", str(ROOT / "rulespecs/567-war.yaml"), str(f)])
    assert status == 1
    assert f"{f}:{i + 1}:8: error: invalid character {code}" in err and "[at /title]" in err, err


def test_every_value_put_in_a_style_element_goes_through_css_string_and_html_is_autoescaped():
    """The CSS sinks of every HTML template: inside <style>, a {{ }} ends with |css_string; nothing else
    is marked safe but the plots' SVG (built with every text escaped: compiler/submission/plots.py)."""
    from compiler.codegen.generate import HTML_ENV
    from compiler.pipeline import ROOT

    assert HTML_ENV.autoescape is True
    templates = [p for p in (ROOT / "compiler").rglob("templates/*") if ".html" in p.name]
    assert len(templates) >= 8
    for p in templates:
        src = p.read_text(encoding="utf-8")
        for style in re.findall(r"<style>(.*?)</style>", src, re.S):
            for expr in re.findall(r"\{\{(.*?)\}\}", style, re.S):
                assert expr.strip().endswith("|css_string"), (p.name, expr)
        assert re.findall(r"\|\s*safe\b", src) == (["|safe"] if p.name == "rules-submission.html.jinja" else []), p.name
        assert "pl.svg|safe" in src or "|safe" not in src
        # opened from a file, a written document loads nothing from elsewhere (serve's pages: by a header)
        assert p.name.endswith(".html") or re.search(r'<meta http-equiv="Content-Security-Policy" content="default-src \'none\';', src), p.name


_HOSTILE_ALPHABET = list('ab "\'\\\n\r\t<>{}();@:/&%!*#-') + ["\x00", "\x1b", "\x85", "\u2028", "\u202e", "\ud800", "é", "§"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(_HOSTILE_ALPHABET), min_size=1, max_size=40), st.booleans())
def test_fuzzed_facility_names_are_refused_positioned_or_stay_inside_the_css_string(war, facility, flow):
    """A facility name of any of these characters, written as YAML escapes or raw: either a positioned
    error at /facility, or the document's footer holds it in one CSS string and one <style>."""
    from compiler.pipeline import ROOT
    from compiler.spec.diagnostics import DiagnosticError
    from compiler.submission.document import load_submission, render_html

    text = (ROOT / EXAMPLE).read_text(encoding="utf-8")
    lines = text.splitlines()
    i = next(i for i, t in enumerate(lines) if t.startswith("facility:"))
    lines[i] = "facility: " + (json.dumps(facility) if flow else yaml.safe_dump(facility, allow_unicode=True,
                                                                                width=10**6).split("\n...")[0].rstrip("\n"))
    source = "\n".join(lines) + "\n"
    try:
        sub = load_submission("f.yaml", {"567": war}, source)
    except DiagnosticError as e:
        assert e.diagnostics and all(d.line >= 1 and d.col >= 1 for d in e.diagnostics)
        assert any(d.pointer == "/facility" or d.line == i + 1 for d in e.diagnostics), [d.format() for d in e.diagnostics]
        return
    html = render_html(sub, "f.yaml")
    assert html.count("</style>") == 1 and html.count("<style>") == 1
    footer = next(t for t in html.splitlines() if "@bottom-left" in t)
    assert re.fullmatch(r'\s*@bottom-left \{ content: "[^"\n\\]*(\\[0-9a-f]+ [^"\n\\]*)*"; font: [^"{}]*; color: #555; \}', footer), footer
