"""A form that keeps a draft (issue 27.4): a saved Rules Submission loads back into the form, every field
of the submission schema is on it (email, edition, attachments too), its messages are plain words with
the §, a draft survives a reload of the page (localStorage), and `serve` logs no escape codes when its
log is not a terminal."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from browser import chromium, serving
from compiler.pipeline import ROOT
from compiler.serve.app import create_app, field_names, schemas
from compiler.spec.loader import load_document
from test_serve import status, wait_for

EXAMPLES = sorted((ROOT / "rulespecs" / "submissions").glob("*.yaml"))


@pytest.fixture(scope="module")
def client():
    app = create_app(ROOT)
    c = app.test_client()
    tok = app.config["token"]

    def post(path, body):
        r = c.post(path, json=body, headers={"X-Rulespec-Token": tok}, base_url="http://127.0.0.1")
        return r.status_code, r.get_json()
    return post


def stem_of(chapter: str) -> str:
    return next(s for s in schemas(ROOT) if s.split("-", 1)[0] == chapter)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_saved_submission_loads_back_and_the_form_makes_the_same_document(client, path):
    """Every field of each example, email and attachments included, comes back through the form."""
    data = load_document(path.name, path.read_text(encoding="utf-8")).data
    stem = stem_of(str(data["game"]["chapter"]))
    code, out = client(f"/api/load/{stem}", {"name": path.name, "yaml": path.read_text(encoding="utf-8")})
    assert code == 200, out
    assert out["left_out"] == [], out["left_out"]  # nothing of the example is off the form
    assert set(out["values"]) <= field_names(schemas(ROOT)[stem])
    code, checked = client(f"/api/check/{stem}", out["values"])
    assert code == 200 and checked["valid"], checked["diagnostics"]
    again = load_document("form.yaml", checked["yaml"]).data
    for key in ("certificate_holder", "facility", "effective_date", "contact", "attachments"):
        assert again.get(key) == data.get(key), key
    # an amount of money is written as the text typed ('7500'), which the schema takes as the number 7500
    assert {k: str(v) for k, v in again["selections"].items()} == {k: str(v) for k, v in data["selections"].items()}
    assert again["game"].get("edition") == data["game"].get("edition")


def test_examples_cover_email_and_attachments():
    texts = [p.read_text(encoding="utf-8") for p in EXAMPLES]
    assert any("email:" in t for t in texts) and any("attachments:" in t for t in texts)


def test_a_file_for_another_chapter_or_not_yaml_is_refused_in_words(client):
    war = (ROOT / "rulespecs" / "submissions" / "567-war-keystone-manual.yaml").read_text(encoding="utf-8")
    code, out = client(f"/api/load/{stem_of('669a')}", {"name": "war.yaml", "yaml": war})
    assert code == 400 and "not a Rules Submission for Chapter 669a (it is for Chapter 567)" in out["error"]
    code, out = client(f"/api/load/{stem_of('567')}", {"name": "x.yaml", "yaml": "a: [1,"})
    assert code == 400 and out["error"].startswith("x.yaml:")


def test_a_blank_form_says_what_is_missing_in_plain_words_with_the_section(client):
    code, out = client(f"/api/check/{stem_of('567')}", {"sel.decks": "5"})
    plain = {d["pointer"]: d["plain"] for d in out["diagnostics"]}
    assert plain["/effective_date"] == "Effective date: required: a date, YYYY-MM-DD (§ 601a.2)"
    assert plain["/certificate_holder"] == "Certificate holder: required (§ 601a.2)"
    assert plain["/selections/decks"].startswith("Number of decks") and "§ 567.3(a)" in plain["/selections/decks"]
    for d in out["diagnostics"]:
        assert "pattern" not in d["plain"] and "^" not in d["plain"] and "[0-9]" not in d["plain"], d
    code, out = client(f"/api/check/{stem_of('567')}", {"attachments": "a drawing without a letter"})
    assert any(d["plain"].startswith("Attachments, line 1: write each attachment as 'A: what it is'")
               for d in out["diagnostics"])


def test_the_draft_survives_a_reload_and_a_saved_file_continues_in_the_browser(tmp_path):
    saved = ROOT / "rulespecs" / "submissions" / "567-war-riverside-shuffler.yaml"
    stem = stem_of("567")
    with serving(create_app(ROOT)) as base, chromium(width=1280, height=1000) as browser:
        browser.get(f"{base}/chapter/{stem}")
        browser.execute_script("localStorage.clear();")
        browser.get(f"{base}/chapter/{stem}")
        wait_for(browser, lambda d: status(d) != "checking...", "the first check")
        shown = [li.text for li in browser.find_elements("css selector", "#messages li .plain")]
        assert "Effective date: required: a date, YYYY-MM-DD (§ 601a.2)" in shown, shown
        browser.find_element("id", "f-facility").send_keys("Lakeside Draft Casino")
        browser.find_element("id", "f-contact-email").send_keys("someone@example.org")
        browser.get(f"{base}/chapter/{stem}")  # a later visit
        wait_for(browser, lambda d: d.find_element("id", "f-facility").get_attribute("value"), "the draft restored")
        assert browser.find_element("id", "f-facility").get_attribute("value") == "Lakeside Draft Casino"
        assert browser.find_element("id", "f-contact-email").get_attribute("value") == "someone@example.org"
        assert "restored" in browser.find_element("id", "draft-status").text
        browser.find_element("id", "upload").send_keys(str(saved))
        wait_for(browser, lambda d: "Loaded" in d.find_element("id", "draft-status").text, "the file loaded")
        wait_for(browser, lambda d: status(d).startswith("valid"), "the loaded file is valid")
        assert browser.find_element("id", "f-contact-email").get_attribute("value") == "dkowalski@riverside-landing.example"
        assert "Shuffler model" in browser.find_element("id", "f-attachments").get_attribute("value")
        browser.get(f"{base}/chapter/{stem}")  # the loaded file is the draft now
        wait_for(browser, lambda d: d.find_element("id", "f-contact-email").get_attribute("value"), "the draft")
        assert browser.find_element("id", "f-contact-email").get_attribute("value") == "dkowalski@riverside-landing.example"
        browser.find_element("id", "discard").click()
        assert browser.find_element("id", "f-facility").get_attribute("value") == ""
        assert browser.execute_script(f"return localStorage.getItem('rulespec-draft-{stem}');") is None


def test_serve_logs_no_escape_codes_when_not_on_a_terminal():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "TERM": "xterm-256color", "FORCE_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "compiler.cli", "serve", "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        for _ in range(100):  # bounded: up to about 20 s for the server to start
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
                break
            except OSError:
                time.sleep(0.2)
        for path in ("/", "/favicon.ico"):  # a 200 and a 404: werkzeug colours both on a terminal
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5).read()
            except OSError:
                pass
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    log = (out + err).decode("utf-8", "replace")
    assert "GET /favicon.ico" in log and '" 404' in log, log
    assert "\x1b" not in log, log
