#!/usr/bin/env python3
"""Screenshots of the offline page for readers of a closing note (not a test).

Usage::

    python scripts/screenshots.py [--page dist/deid.html] [--out dist/screenshots] [--with-model]

Opens the page by its file:// URL in Debian's headless Chromium (network off, 1280x900), pastes an
invented note that has amber candidates and writes PNG files into ``--out`` (:data:`SHOTS`):

* ``redact.png``, ``surrogate.png``, ``review.png``: the first screen in each mode (Review with its
  candidates in view);
* ``review-in-context.png``: Review with a candidate clicked (its sentence, reason, Mask/Keep) and
  one candidate kept (the kept style);
* ``export-guard.png``: Copy pressed with undecided candidates: the question the page asks first;
* ``surrogate-deuteranopia.png``: Surrogate mode through a simulated deuteranopia colour filter
  (categories must stay readable from their text badges);
* ``benchmark.png``: the benchmark panel: the release's real-notes figures, then the self-benchmark
  (rules only; with ``--with-model`` also the model, which runs it on every corpus note: minutes),
  its plain summary, chart, table and error viewer, with the residual risk beside recall;
* ``safe-harbor.png``: Redact with the Safe Harbor option (years, ZIP3, states, 90+ kept);
* ``what-is-removed.png``: the "What is removed" disclosure open (the 18 identifiers);
* ``about.png``: the "About" disclosure open (licence, third-party notices).

The rules alone answer unless ``--with-model`` is given (the screenshots then wait for the
model). Waits on the page's ``data-*`` signals, never on sleeps. Exit status 0, or 1 with a
message when the page is missing or fails to start.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from pagehelpers import launch_chromium, poll, run_started, wait_run  # noqa: E402  (the page tests' helpers)

# Invented. Two amber candidates (Will, Hope), clinical words that must stay (Parkinson, Foley,
# Glasgow Coma Scale, PS 10/5).
NOTE = ("ADMISSION NOTE\n"
        "Patient: Adaeze Okonkwo, 67 years old, retired teacher from Springfield, MA.\n"
        "Seen 09/14/2016 by Dr. Helen Achterberg at Saint Brigid Infirmary.\n"
        "MRN 00781245. Daughter Maria called from 617-555-0144.\n"
        "Called Will about the results; he will bring her glasses. Spoke with Hope at the desk.\n"
        "History: Parkinson disease; Foley catheter removed; Glasgow Coma Scale 15; PS 10/5.\n"
        "Plan: follow up with Dr. Alvarez in two weeks.\n")
SHOTS = ("redact", "surrogate", "review", "review-in-context", "export-guard", "surrogate-deuteranopia",
         "benchmark", "safe-harbor", "what-is-removed", "about")
# Deuteranopia (Machado et al. 2009, severity 1.0) as an SVG colour matrix.
DEUTERANOPIA = ("0.367 0.861 -0.228 0 0  0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0")


def run(page, mode: str) -> None:
    """Choose ``mode`` (the page then runs) and wait until that run has ended."""
    before = run_started(page)
    page.check(f"input[name=mode][value={mode}]")
    wait_run(page, before, 600)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", type=Path, default=ROOT / "dist" / "deid.html")
    ap.add_argument("--out", type=Path, default=ROOT / "dist" / "screenshots")
    ap.add_argument("--with-model", action="store_true", help="use the NER model (waits for it)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    page_path = args.page.resolve()
    if not page_path.is_file():
        print(f"{page_path} is missing: run python build.py", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    written = []

    def shot(name: str, locator=None) -> None:
        path = args.out / f"{name}.png"
        (locator or page).screenshot(path=str(path))
        written.append(path)

    with sync_playwright() as p:
        browser = launch_chromium(p)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
        context.set_offline(True)
        page = context.new_page()
        page.goto(page_path.as_uri())
        poll(page, "document.body.dataset.state !== 'loading'", 180)
        if page.evaluate("document.body.dataset.state") != "ready":
            print("the page failed: " + page.evaluate("document.getElementById('load-status').textContent"),
                  file=sys.stderr)
            return 1
        if args.with_model:
            page.evaluate("window.deid.modelReady")
        elif not page.evaluate("document.getElementById('rules-only').disabled"):
            page.evaluate("document.getElementById('rules-only').checked = true")
        page.fill("#input", NOTE)
        for mode in ("redact", "surrogate", "review"):
            run(page, mode)
            if mode != "review":
                page.evaluate("window.scrollTo(0, 0)")
            shot(mode)
        # Review in context: the first candidate clicked, the second kept.
        if page.evaluate("document.querySelectorAll('#review-list li').length") >= 2:
            before = run_started(page)
            page.click("#review-list li:nth-child(2) button[data-act=keep]")
            wait_run(page, before, 600)
            page.click("#review-list li:first-child .cand-label")
            poll(page, "!document.getElementById('review-context').hidden", 600)
        page.locator("#review").scroll_into_view_if_needed()
        shot("review-in-context")
        # The export guard: Copy with an undecided candidate (in Redact).
        run(page, "redact")
        page.evaluate("window.scrollTo(0, 0)")
        page.click("#copy")
        poll(page, "document.body.dataset.dialog === 'guard'", 600)
        shot("export-guard")
        page.click("#guard-cancel")
        # Surrogate through a simulated deuteranopia filter (SVG colour matrix on the work area).
        run(page, "surrogate")
        page.evaluate("""(matrix) => {
            const NS = 'http://www.w3.org/2000/svg';
            const s = document.createElementNS(NS, 'svg'); s.setAttribute('width', '0'); s.setAttribute('height', '0');
            const f = document.createElementNS(NS, 'filter'); f.id = 'deid-deuteranopia';
            const m = document.createElementNS(NS, 'feColorMatrix'); m.setAttribute('type', 'matrix');
            m.setAttribute('values', matrix); f.appendChild(m); s.appendChild(f); document.body.appendChild(s);
            document.getElementById('work').style.filter = 'url(#deid-deuteranopia)'; }""", DEUTERANOPIA)
        shot("surrogate-deuteranopia", page.locator("#work"))
        page.evaluate("document.getElementById('work').style.filter = ''")
        # The benchmark panel, after the self-benchmark.
        page.click("#bench-run")
        poll(page, "document.body.dataset.bench && document.body.dataset.bench !== 'working'", 1800)
        shot("benchmark", page.locator("#benchmark"))
        # The Safe Harbor option in Redact, then the two disclosures open.
        run(page, "redact")
        before = run_started(page)
        page.check("#safe-harbor")
        wait_run(page, before, 600)
        page.evaluate("window.scrollTo(0, 0)")
        shot("safe-harbor")
        page.uncheck("#safe-harbor")
        for name, box in (("what-is-removed", "removed"), ("about", "about")):
            page.click(f"#{box} summary")
            shot(name, page.locator(f"#{box}"))
            page.click(f"#{box} summary")
        context.close()
        browser.close()
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
