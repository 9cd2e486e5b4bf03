"""Nothing of a note is left on disk: the page in Chromium with a persistent profile.

A normal browser profile keeps session-restore files (``Sessions/Session_*``, ``Tabs_*``) that
hold the form state of open pages, so a pasted note survived the browser. The page marks every
field that holds note text, the patient's known identifiers or the key ``autocomplete="off"``
(and spellcheck, autocorrect and autocapitalize off); this test types a key and the patient's
name (known identifiers), pastes a note, de-identifies it in every mode, closes the browser, and
searches every file of the profile for the note's text, the name and the key (UTF-8 and UTF-16,
as Chromium stores strings both ways).

Needs ``/usr/bin/chromium``, the Python ``playwright`` package and a built page (skipped without).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pagehelpers import CHROMIUM, MINIMAL_FLAGS, poll, run_started, wait_run

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(os.environ.get("DEID_PAGE", ROOT / "dist" / "deid.html")).resolve()
# A normal profile: no --disable-sync or the like beyond what a headless box needs.
FLAGS = MINIMAL_FLAGS

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
if not PAGE.is_file():
    pytest.skip(f"{PAGE} is not built (python build.py)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

# Invented; distinctive strings that occur nowhere else.
NOTE = ("Zebulon Quartermaine-Oyelaran, seen 11/23/2019 at Vintry Cross Clinic, Harrowgate. "
        "MRN 83021977. Foley catheter removed; Parkinson disease stable.")
NEEDLES = ["Quartermaine-Oyelaran", "Vintry Cross Clinic", "83021977"]
KEY = "kx-profile-secret-7731"
KNOWN = "Ximenova Thackeridge-Pell"   # typed into the patient's-details field
CONTROL = "Wolfsbane-Trelawney control text 4417"


def test_every_note_and_key_field_is_autocomplete_off():
    html = PAGE.read_bytes().decode("latin-1")
    head = html[:html.index('<script type="application/json" id="deid-manifest">')]
    fields = ['<textarea id="input"', '<input type="password" id="key"'] + [
        f'<textarea id="known-{k}"' for k in ("names", "mrns", "dob", "addresses")]
    for field in fields:
        tag = head[head.index(field):head.index(">", head.index(field))]
        for attr in ('autocomplete="off"', 'spellcheck="false"', 'autocorrect="off"', 'autocapitalize="off"'):
            assert attr in tag, (field, attr)


def test_a_closed_browser_leaves_no_note_text_and_no_key_in_its_profile(tmp_path):
    profile = tmp_path / "profile"
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM,
                                                       headless=True, args=FLAGS)
        context.set_offline(True)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(PAGE.as_uri())
        poll(page, "document.body.dataset.state !== 'loading'", 180)
        assert page.evaluate("document.body.dataset.state") == "ready"
        page.click("summary:has-text('Advanced')")
        page.fill("#key", KEY)
        page.click("summary:has-text('patient')")
        page.fill("#known-names", KNOWN)
        page.click("#input")
        page.keyboard.insert_text(NOTE)   # as a paste does: one input event
        for mode in ("redact", "surrogate", "review"):
            before = run_started(page)
            page.check(f"input[name=mode][value={mode}]")
            wait_run(page, before, 180)
        assert "Parkinson disease stable" in page.evaluate("document.getElementById('output').textContent")
        # The control: a text field WITHOUT autocomplete="off", added to the page, typed into.
        # Its text must be found in the profile, or the search proves nothing.
        page.evaluate("""() => { const t = document.createElement('textarea'); t.id = 'control';
                                 document.body.appendChild(t); }""")
        page.click("#control")
        page.keyboard.insert_text(CONTROL)
        page.goto("about:blank")   # the page is now a history entry, with its form state
        context.close()
    files = [f for f in profile.rglob("*") if f.is_file()]
    assert files, "the profile is empty: the test would prove nothing"
    found = []
    for f in files:
        data = f.read_bytes()
        for needle in NEEDLES + [KEY, KNOWN, CONTROL]:
            for enc in ("utf-8", "utf-16-le"):
                if needle.encode(enc) in data:
                    found.append((str(f.relative_to(profile)), needle, enc))
    control = [x for x in found if x[1] == CONTROL]
    assert control, "the control text is in no profile file: this Chromium wrote no session state"
    assert [x for x in found if x[1] != CONTROL] == []
