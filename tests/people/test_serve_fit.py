"""The form's figure panel fits a 1280-pixel window (issue 27.1), in a real headless Chromium: with the
670a example (the longest figures: exact fractions of 12 and 13 digits, long plays assumed) nothing in
the panel runs past its right edge or the window's, and the page does not scroll sideways. A screenshot
is kept (docs/screenshots/ with RULESPEC_SCREENSHOTS=1, else a temporary folder)."""
from __future__ import annotations

import pytest

from browser import chromium, serving
from compiler.pipeline import ROOT
from compiler.serve.app import create_app
from test_serve import SHOTS, status, wait_for

OVERFLOW = """
const panel = document.querySelector('.panel').getBoundingClientRect();
const out = [];
for (const el of document.querySelectorAll('.panel *')) {
  const r = el.getBoundingClientRect();
  if (r.width && (r.right > panel.right + 0.5 || r.right > window.innerWidth))
    out.push([el.tagName, (el.textContent || '').slice(0, 50), Math.round(r.right - panel.right)]);
}
return {over: out, scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
        rows: document.querySelectorAll('#edge-table tbody tr').length};
"""


@pytest.mark.parametrize("stem", ["670a-six-card-fortune-pai-gow-poker", "669a-raise-it-up-stud-poker"])
def test_the_figure_panel_fits_a_1280_pixel_window(stem):
    with serving(create_app(ROOT)) as base, chromium(width=1280, height=1000) as browser:
        browser.get(f"{base}/chapter/{stem}?example=1")
        wait_for(browser, lambda d: status(d).startswith("valid"), "the example is valid")
        wait_for(browser, lambda d: d.find_elements("id", "edge-table"), "the house edges of the example", 300)
        got = browser.execute_script(OVERFLOW)
        assert got["rows"] >= 2, got
        assert not got["over"], f"past the panel's right edge (tag, text, px): {got['over'][:8]}"
        assert got["scroll"] <= got["inner"], got  # no sideways scrolling
        # every exact fraction of the panel is shown whole on one line
        for frac in browser.find_elements("css selector", "#edge-table .frac"):
            if "/" in frac.text:
                assert frac.size["height"] < 2 * float(frac.value_of_css_property("font-size")[:-2]) * 1.3, frac.text
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / f"form-1280-{stem}.png"))
