"""`rulespec serve` against other sites and malformed requests (issue 29, item 1), with Flask's test
client (no browser): the form token and same-origin check, its own Host only, the body limit, a 4xx
with a message for every malformed request, bounded analysis threads and results, a malformed
example submission skipped, and port numbers checked."""
from __future__ import annotations

import contextlib
import io
import json
import shutil
import threading
import time
from types import SimpleNamespace

import pytest

from compiler import cache
from compiler.cli import main
from compiler.pipeline import ROOT
from compiler.serve import app as serve

EXAMPLE = {"certificate_holder": "Three Rivers Riverside Gaming, LLC", "facility": "Riverside Landing Casino",
           "effective_date": "2025-07-01", "contact.name": "A. Person", "sel.decks": "8"}


@pytest.fixture(scope="module")
def site():
    app = serve.create_app(ROOT)
    return app, app.test_client(), app.config["token"]


def post(client, path, body, token, **kw):
    headers = {"Content-Type": "application/json", **({serve.TOKEN_HEADER: token} if token else {}), **kw}
    return client.post(path, data=body if isinstance(body, (str, bytes)) else json.dumps(body), headers=headers)


def test_the_chapter_page_carries_the_token_its_requests_send(site):
    app, client, token = site
    page = client.get("/chapter/567-war").get_data(as_text=True)
    assert f'name="token" value="{token}"' in page and json.dumps(token) in page
    assert serve.TOKEN_HEADER in page


def test_a_cross_site_post_is_refused_and_renders_nothing(site, monkeypatch):
    app, client, token = site
    rendered = []
    monkeypatch.setattr("compiler.submission.document.render_formats", lambda *a, **k: rendered.append(a) or {})
    # a form on another site posts the fields as a browser would: no token
    r = client.post("/download/567-war.pdf", data={"values": json.dumps(EXAMPLE)},
                    headers={"Origin": "http://evil.example", "Referer": "http://evil.example/x"})
    assert r.status_code == 403 and b"another site" in r.data
    r = client.post("/download/567-war.pdf", data={"values": json.dumps(EXAMPLE)})
    assert r.status_code == 403 and b"token" in r.data
    r = client.post("/download/567-war.pdf", data={"values": json.dumps(EXAMPLE), "token": "x" * 43})
    assert r.status_code == 403
    # even with the token, a request from another origin is refused
    r = post(client, "/api/check/567-war", EXAMPLE, token, Origin="http://evil.example")
    assert r.status_code == 403 and "another site" in r.get_json()["error"]
    assert rendered == []
    # this server's own page posts with its token (and its own Origin)
    r = client.post("/download/567-war.yaml", data={"values": json.dumps(EXAMPLE), "token": token},
                    headers={"Origin": "http://localhost"})
    assert r.status_code == 200 and b"facility: Riverside Landing Casino" in r.data


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1:8000", "localhost:81",
                                  "127.0.0.1.evil.example", "[::2]", ""])
def test_other_host_headers_are_refused(site, host):
    app, client, token = site
    r = client.get("/", headers={"Host": host})
    assert r.status_code == 421 and b"only its own address" in r.data
    r = post(client, "/api/check/567-war", EXAMPLE, token, Host=host)
    assert r.status_code == 421


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "LOCALHOST:80", "[::1]"])
def test_its_own_names_are_answered(site, host):
    app, client, token = site
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_a_body_over_the_limit_is_refused_before_it_is_read(site):
    app, client, token = site
    r = post(client, "/download/567-war.yaml", b"{" + b" " * (serve.MAX_BODY + 10) + b"}", token)
    assert r.status_code == 413 and str(f"{serve.MAX_BODY:,}").encode() in r.data
    r = client.post("/download/567-war.yaml", data={"values": "x" * (serve.MAX_BODY + 10), "token": token})
    assert r.status_code == 413


MALFORMED = [
    ("[1, 2]", "not a list"), ('"text"', "not a string"), ("42", "not a number"), ("null", "not null"),
    ("true", "not a boolean"), ("{", "not JSON"), ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"facility": ' + "[" * 50_000 + "]" * 50_000 + "}", "nested too deeply"),
    ('{"facility": 3}', "must be text"), ('{"facility": {"a": 1}}', "must be text"),
    ('{"no_such_field": "x"}', "unknown form field"), ('{"sel.nope": "x"}', "unknown form field"),
    ('{"facility": "a\\u0000b"}', "U+0000"), ('{"facility": "\\ud800"}', "U+D800"),
    ('{"facility": "\\u202eevil"}', "U+202E"), ('{"facility": "\\u001b[2J"}', "U+001B"),
]


@pytest.mark.parametrize("body,says", MALFORMED, ids=[f"m{i}" for i in range(len(MALFORMED))])
def test_a_malformed_json_body_gets_a_4xx_with_a_message(site, body, says):
    app, client, token = site
    r = post(client, "/api/check/567-war", body, token)
    assert r.status_code == 400, (r.status_code, r.data[:300])
    assert says in r.get_json()["error"]
    r = client.post("/download/567-war.pdf", data={"values": body, "token": token})
    assert r.status_code == 400 and says.encode() in r.data


def test_malformed_form_requests_get_a_4xx_with_a_message(site):
    app, client, token = site
    r = client.post("/download/567-war.yaml", data={"token": token})
    assert r.status_code == 400 and b"missing the form field 'values'" in r.data
    r = post(client, "/api/check/567-war", b'{"facility": "\xff"}', token)
    assert r.status_code == 400 and "UTF-8" in r.get_json()["error"]
    r = client.post("/download/567-war.zip", data={"values": "{}", "token": token})
    assert r.status_code == 404
    r = client.post("/download/567-war.yaml", data=b"values=%ZZ%&token=" + token.encode(),
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert 400 <= r.status_code < 500


def test_a_yaml_field_goes_through_the_loader_and_its_limits(site):
    """A house-way field is YAML: an alias bomb or deep nesting is a message on the form, not a 500."""
    app, client, token = site
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi"))
    for raw in (bomb, "[" * 200 + "]" * 200, "key: [unclosed"):
        r = post(client, "/api/check/688a-face-up-pai-gow-poker",
                 {**{k: v for k, v in EXAMPLE.items() if k != "sel.decks"}, "sel.house_way": raw}, token)
        assert r.status_code == 200, r.data[:300]
        out = r.get_json()
        assert not out["valid"] and any("not usable YAML" in d["text"] for d in out["diagnostics"])


def _sub(i):
    return SimpleNamespace(chapter=SimpleNamespace(chapter="567"), selections={"decks": i})


def test_analyses_run_in_a_fixed_pool_with_a_bounded_queue(monkeypatch):
    checker = serve.Checker(ROOT)
    release = threading.Event()

    def analyse(self, sub, state):
        release.wait(60)
        state.update(status="done", rows=[])
    monkeypatch.setattr(serve.Checker, "_analyse", analyse)
    states = [checker.edges(_sub(0))]
    for _ in range(600):  # until the worker has taken the first job (no assertion on time)
        if checker._jobs.qsize() == 0:
            break
        time.sleep(0.05)
    states += [checker.edges(_sub(i)) for i in range(1, 30)]
    assert checker.threads() == serve.ANALYSIS_THREADS == 1
    assert [s["status"] for s in states].count("computing") == 1 + serve.MAX_PENDING
    assert [s["status"] for s in states].count("busy") == 29 - serve.MAX_PENDING
    release.set()
    checker._jobs.join()
    assert checker.edges(_sub(3))["status"] == "done" and checker.threads() == 1
    assert checker.edges(_sub(20))["status"] == "computing"  # asked again: queued now
    checker._jobs.join()


def test_results_kept_are_capped(monkeypatch):
    checker = serve.Checker(ROOT)
    monkeypatch.setattr(serve.Checker, "_analyse", lambda self, sub, state: state.update(status="done", rows=[]))
    for i in range(serve.MAX_EDGES * 3):
        checker.edges(_sub(i))
        checker._jobs.join()
    assert len(checker._edges) <= serve.MAX_EDGES
    assert checker.threads() == 1


def test_a_visitors_selections_write_nothing_to_the_cache(site, tmp_path):
    app, client, token = site
    before = cache.directory()
    cache.configure(directory=tmp_path / "cache")
    try:
        r = client.post("/download/567-war.html", data={"values": json.dumps({**EXAMPLE, "sel.decks": "7"}),
                                                        "token": token})
        assert r.status_code == 200 and b"Rules Submission" in r.data
        with cache.read_only():
            cache.store("ab" * 32, 1)
    finally:
        cache.configure(directory=before)
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.json"))


def test_a_malformed_example_submission_is_skipped_with_a_message(tmp_path):
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "rulespecs", root / "rulespecs", ignore=shutil.ignore_patterns("rounds", "records"))
    shutil.copytree(ROOT / "generated" / "schemas", root / "generated" / "schemas")
    subs = root / "rulespecs" / "submissions"
    (subs / "000-bad-utf8.yaml").write_bytes(b"facility: \xff\xfe\n")
    (subs / "000-game-text.yaml").write_text("rules_submission: 1\ngame: 567\n", encoding="utf-8")
    (subs / "000-list.yaml").write_text("- 1\n- 2\n", encoding="utf-8")
    (subs / "000-nul.yaml").write_text('game: {chapter: "567"}\nfacility: "a\\0b"\n', encoding="utf-8")
    client = serve.create_app(root).test_client()
    for path in ("/", "/chapter/567-war", "/chapter/567-war?example=1", "/chapter/669a-raise-it-up-stud-poker"):
        r = client.get(path)
        assert r.status_code == 200, path
        page = r.get_data(as_text=True)
        for name in ("000-bad-utf8", "000-game-text", "000-list", "000-nul"):
            assert f"rulespecs/submissions/{name}.yaml:" in page and "(skipped)" in page, (path, name)
    page = client.get("/chapter/567-war?example=1").get_data(as_text=True)
    assert 'value="Keystone Valley Resorts, Inc."' in page or 'value="Three Rivers' in page  # a good example


def _cli(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, err.getvalue()


@pytest.mark.parametrize("port,says", [("-1", "port -1 is out of range"), ("99999", "port 99999 is out of range"),
                                       ("0", "port 0 is out of range"), ("http", "not a port number")])
def test_a_port_out_of_range_is_a_clear_error(port, says):
    code, err = _cli(["serve", "--port", port])
    assert code == 1 and says in err and "Traceback" not in err


def test_a_port_that_cannot_be_bound_is_a_clear_error():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        code, err = _cli(["serve", "--port", str(s.getsockname()[1])])
    assert code == 1 and "cannot listen on 127.0.0.1:" in err and "Traceback" not in err


def test_every_answer_forbids_outside_resources_and_framing(site):
    app, client, token = site
    for r in (client.get("/"), client.get("/chapter/567-war"), client.get("/", headers={"Host": "evil.example"}),
              client.post("/download/567-war.html", data={"values": json.dumps(EXAMPLE), "token": token})):
        csp = r.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "form-action 'self'" in csp
        assert r.headers["X-Frame-Options"] == "DENY" and r.headers["X-Content-Type-Options"] == "nosniff"
