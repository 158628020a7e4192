"""A real headless Chromium (Debian's chromium + chromium-driver) driven by selenium, for the serve tests.

`tests/people/install-browser.sh` installs the two packages when they are missing (as root);
without them the browser tests fail with a message saying so, never skip.
"""
from __future__ import annotations

import shutil
import tempfile
import threading
from contextlib import contextmanager

CHROMIUM = ("chromium", "chromium-browser")


def find(names) -> str | None:
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


@contextmanager
def serving(app):
    """The Flask app on 127.0.0.1, an ephemeral port, in a thread: yields its base URL."""
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, app, threaded=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        t.join(10)


@contextmanager
def chromium(width: int = 1280, height: int = 1500):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = find(CHROMIUM), find(("chromedriver",))
    if not binary or not driver:
        raise AssertionError("the browser tests need Debian's chromium and chromium-driver: run "
                             "`sh tests/people/install-browser.sh` as root (make test and .ci/run do)")
    profile = tempfile.mkdtemp(prefix="rulespec-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
              f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
