"""Driving the built page in a browser: shared by the page tests and ``scripts/screenshots.py``.

Where Debian's Chromium is, the flags it runs headless with, how it is launched, and how to wait
on the page's ``data-*`` signals (never on sleeps: the page's CSP forbids Playwright's
``wait_for_function``, so expressions are polled); and the scenarios (``check_*``) that run in
every browser. Standard library only: importing this module never needs Playwright; the caller
passes its own Playwright objects or drivers.
"""
from __future__ import annotations

import time
from contextlib import contextmanager

__all__ = ["CHROMIUM", "FLAGS", "MINIMAL_FLAGS", "MODEL_NOTE", "TWO_CANDIDATES", "after_run",
           "check_decisions_follow_the_text", "check_export_guard", "check_the_model_ran", "click",
           "chromium_page", "launch_chromium", "poll", "rules_only_run", "run_ended", "run_started", "set_note", "text_of",
           "wait_run"]

#: Debian's Chromium (``apt-get install chromium``).
CHROMIUM = "/usr/bin/chromium"
#: Headless Chromium in a container with nothing reaching out: no sandbox, no GPU, no background
#: networking, component updates, sync, first-run UI or QUIC.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
#: Only what a headless box needs, for a browser that should behave like a user's normal one.
MINIMAL_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]


def launch_chromium(playwright, args: list[str] | None = None):
    """Launch :data:`CHROMIUM` headless through Playwright.

    Args:
        playwright: the object ``sync_playwright()`` yields.
        args: command-line flags; :data:`FLAGS` when ``None``.

    Returns:
        Playwright's ``Browser``.
    """
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=FLAGS if args is None else args)


@contextmanager
def chromium_page(sync_api, url: str, load_timeout: float = 180.0):
    """The page at ``url`` in headless :data:`CHROMIUM`, offline, 1280x900, once it has left its
    ``loading`` state; page errors are collected in ``page.errors`` (a list of strings). Closes
    the context and the browser on exit.

    Args:
        sync_api: the ``playwright.sync_api`` module.
        url: a ``file://`` URL of the built page.
        load_timeout: seconds to wait for the page to leave ``loading``.

    Raises:
        AssertionError: the page stays ``loading`` longer than ``load_timeout`` (:func:`poll`).
    """
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_offline(True)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(url)
        poll(page, "document.body.dataset.state !== 'loading'", timeout=load_timeout)
        try:
            yield page
        finally:
            context.close()
            browser.close()


def poll(page, expression: str, timeout: float = 60.0, interval: float = 0.05):
    """Evaluate the JavaScript ``expression`` in ``page`` until it is truthy and return its value.

    Args:
        page: anything with ``evaluate(str)``: a Playwright page, or the Firefox and WebKit
            drivers of ``tests/test_page_browsers.py``.
        expression: a JavaScript expression.
        timeout: seconds before giving up.
        interval: seconds between two evaluations.

    Raises:
        AssertionError: the expression stayed falsy for ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression!r}")
        time.sleep(interval)


def run_started(page) -> int:
    """The sequence number of the page's latest De-identify run (0 before the first)."""
    return int(page.evaluate("document.body.dataset.runStarted || '0'"))


def run_ended(after: int) -> str:
    """A JavaScript expression giving the ``data-run`` of the page's latest De-identify run
    ("done", "error", "cancelled") once a run started after run number ``after`` is the latest
    and has ended, and ``""`` before."""
    return (f"""(b => {{ const s = Number(b.dataset.runStarted || 0), d = Number(b.dataset.runDone || 0);
        return s > {after} && d === s && b.dataset.run !== 'working' ? b.dataset.run : ''; }})(document.body)""")


def wait_run(page, after: int, timeout: float = 120.0, interval: float = 0.05) -> str:
    """Wait for :func:`run_ended` (``after``) in ``page`` and return that ``data-run``; the
    page's own signal, never a sleep or a status text. Raises ``AssertionError`` on timeout."""
    return poll(page, run_ended(after), timeout, interval)


# ---- scenarios run in every browser (Chromium, Firefox ESR, WebKitGTK) ----
# Each takes a driver with ``evaluate(js_expression)`` (awaited; a Playwright page, or the Firefox
# and WebKit drivers of tests/test_page_browsers.py) on a ready page, and acts through the DOM as
# a user does (input events, button clicks), so the same steps run everywhere. Expected outputs
# come from the CPython engine (imported when a scenario runs).

#: Invented; rules alone give two amber candidates, Will (7:11) and Hope (70:74), and must keep
#: Foley catheter and GCS 15 as text.
TWO_CANDIDATES = "Called Will about the results; Foley catheter out, GCS 15. Spoke with Hope at the desk."


def _js(value) -> str:
    import json
    return json.dumps(value)


def set_note(b, text: str) -> None:
    """Put ``text`` in the note pane as one input event (what a keystroke, a deletion or a paste
    does)."""
    b.evaluate(f"(() => {{ const t = document.getElementById('input'); t.value = {_js(text)};"
               " t.dispatchEvent(new Event('input', {bubbles: true})); return true; })()")


def click(b, selector: str) -> None:
    """Click the element ``selector`` (a CSS selector) through the DOM."""
    b.evaluate(f"(() => {{ document.querySelector({_js(selector)}).click(); return true; }})()")


def text_of(b, element_id: str) -> str:
    return b.evaluate(f"document.getElementById({_js(element_id)}).textContent")


def after_run(b, action, timeout: float = 300.0) -> str:
    """Do ``action()`` and wait for the De-identify run it starts; return its ``data-run``."""
    before = run_started(b)
    action()
    return poll(b, run_ended(before), timeout, interval=0.1)


def rules_only_run(b, text: str, mode: str, key: str | None = None) -> str:
    """The rules alone, ``mode`` chosen, ``text`` as the note: the output pane once it ran."""
    b.evaluate(f"""(() => {{ document.getElementById('rules-only').checked = true;
        document.getElementById('key').value = {_js(key or '')};
        document.querySelector('input[name=mode][value={mode}]').checked = true; return true; }})()""")
    assert after_run(b, lambda: set_note(b, text)) == "done", text_of(b, "run-status")
    return text_of(b, "output")


def check_decisions_follow_the_text(b) -> None:
    """Issue 23 item 1: decisions survive typing, deleting and pasting around them, move with
    their words, hold in every mode; a decision whose word is deleted is dropped and the page says
    so. Each output equals the CPython engine's for the decisions the page then holds."""
    from deid_core.api import process

    def expect(text, mode, decisions):
        assert b.evaluate("window.deid.decisions()") == decisions
        want = process(text, mode=mode, key="decisions-test-key", decisions=decisions)["output"]
        assert text_of(b, "output") == want, (mode, decisions)

    text = TWO_CANDIDATES
    rules_only_run(b, text, "review", key="decisions-test-key")
    assert b.evaluate("document.querySelectorAll('#review-list li').length") == 2
    assert after_run(b, lambda: click(b, '#review-list li[data-id="7:11"] button[data-act=mask]')) == "done"
    assert after_run(b, lambda: click(b, '#review-list li[data-id="70:74"] button[data-act=keep]')) == "done"
    expect(text, "review", {"7:11": True, "70:74": False})
    # One space typed at the end (the defect: every decision was lost).
    text += " "
    assert after_run(b, lambda: set_note(b, text)) == "done"
    expect(text, "review", {"7:11": True, "70:74": False})
    # Typed at the start, one key at a time: both decisions move with their words.
    before = run_started(b)
    for k in range(1, 5):
        set_note(b, "Pt: "[:k] + text)
    text = "Pt: " + text
    poll(b, run_ended(before) + " === 'done' && document.getElementById('output').textContent.startsWith('Pt: ')",
         120, 0.1)
    expect(text, "review", {"11:15": True, "74:78": False})
    # Deleted again.
    text = text[4:]
    assert after_run(b, lambda: set_note(b, text)) == "done"
    expect(text, "review", {"7:11": True, "70:74": False})
    # A sentence pasted between the two candidates.
    cut = text.index(" Spoke")
    text = text[:cut] + " Plan: repeat labs in the morning." + text[cut:]
    assert after_run(b, lambda: set_note(b, text)) == "done"
    hope = text.index("Hope")
    expect(text, "review", {"7:11": True, f"{hope}:{hope + 4}": False})
    # In the other modes too.
    for mode in ("redact", "surrogate"):
        assert after_run(b, lambda: click(b, f"input[name=mode][value={mode}]")) == "done"
        expect(text, mode, {"7:11": True, f"{hope}:{hope + 4}": False})
        if mode == "redact":
            assert "Will" not in text_of(b, "output")
    # The word Hope deleted: its decision is dropped, and the page says so.
    text = text.replace("Spoke with Hope at the desk.", "Spoke with the desk.")
    assert after_run(b, lambda: set_note(b, text)) == "done"
    expect(text, "surrogate", {"7:11": True})
    notice = text_of(b, "notice-text")
    assert b.evaluate("document.getElementById('notice').hidden") is False
    assert "\u201cHope\u201d" in notice and "dropped" in notice, notice


def check_export_guard(b) -> None:
    """Issue 23 item 2: with undecided amber candidates, Copy asks first in every mode (mask them,
    keep them as text, or go to Review); the undecided count and "Mask all amber" are shown in
    Redact and Surrogate too. What is exported equals the CPython engine's output for the
    decisions taken."""
    from deid_core.api import process
    text = TWO_CANDIDATES
    ids = ["7:11", "70:74"]

    def exported_after(action, n):
        action()
        return poll(b, f"Number(document.body.dataset.exported) >= {n} && window.deid.lastExport()", 120, 0.1)

    for n, mode in enumerate(("redact", "surrogate", "review")):
        b.evaluate("(() => { const d = document.getElementById('clear-decisions'); d.click(); return true; })()")
        rules_only_run(b, text + " " * n, mode, key="guard-test-key")
        assert b.evaluate("document.body.dataset.undecided") == "2", mode
        assert b.evaluate("document.getElementById('undecided').hidden") is False
        assert "2 amber marks are undecided" in text_of(b, "undecided-count")
        before = int(b.evaluate("Number(document.body.dataset.exported)"))
        click(b, "#copy")
        assert poll(b, "document.body.dataset.dialog", 60, 0.1) == "guard", mode
        assert b.evaluate("document.getElementById('guard-dialog').open") is True
        assert "2 amber marks are undecided" in text_of(b, "guard-text")
        assert int(b.evaluate("Number(document.body.dataset.exported)")) == before   # nothing yet
        choice = {"redact": "keep", "surrogate": "mask", "review": "keep"}[mode]
        got = exported_after(lambda: click(b, f"#guard-{choice}"), before + 1)
        want = process(text + " " * n, mode=mode, key="guard-test-key",
                       decisions={i: choice == "mask" for i in ids})["output"]
        if mode == "surrogate":
            assert got["text"].split("\n", 1)[0].startswith("WARNING: surrogate text")
            got["text"] = got["text"].split("\n", 1)[1]
        assert got["text"] == want, mode
        assert b.evaluate("document.body.dataset.dialog") == ""
        assert b.evaluate("document.body.dataset.undecided") == "0"
    # "Go to Review" exports nothing and switches to Review; "Mask all amber" leaves nothing to ask.
    b.evaluate("(() => { document.getElementById('clear-decisions').click(); return true; })()")
    rules_only_run(b, text, "redact")
    before = int(b.evaluate("Number(document.body.dataset.exported)"))
    click(b, "#copy")
    poll(b, "document.body.dataset.dialog === 'guard'", 60, 0.1)
    assert after_run(b, lambda: click(b, "#guard-review")) == "done"
    assert b.evaluate("document.querySelector('input[name=mode]:checked').value") == "review"
    assert int(b.evaluate("Number(document.body.dataset.exported)")) == before
    assert after_run(b, lambda: click(b, "input[name=mode][value=redact]")) == "done"
    assert after_run(b, lambda: click(b, "#mask-amber")) == "done"
    assert b.evaluate("document.body.dataset.undecided") == "0"
    got = exported_after(lambda: click(b, "#copy"), before + 1)
    assert got["text"] == process(text, mode="redact", decisions={i: True for i in ids})["output"]
    assert b.evaluate("document.body.dataset.dialog") == ""


#: Invented; the shipped model adds spans here that the rules alone do not give.
MODEL_NOTE = "Mrs. Adaeze Okonkwo, a retired teacher from Glasgow, was seen at Saint Brigid Infirmary by Grace."


def check_the_model_ran(b, cpython_spans=None) -> dict:
    """Issue 23 item 3: the page's NER model loads and runs in this browser (backend wasm or
    webgpu, never "unavailable"), its spans join the rules' (engine "ensemble", sources "ner:"),
    and with ``cpython_spans`` (the CPython model's spans for :data:`MODEL_NOTE`) the result equals
    the CPython engine's. Returns the page's modelReady."""
    from deid_core.api import process
    info = b.evaluate("window.deid.modelReady")
    assert info["backend"] in ("wasm", "webgpu"), info
    assert b.evaluate("document.body.dataset.model") == info["backend"]
    assert text_of(b, "model-status") == "AI name finder: on"
    got = b.evaluate(f"window.deid.processDetailed({_js(MODEL_NOTE)}, {{mode: 'redact', key: 'k'}})")
    assert got["engine"] == "ensemble", got
    assert any("ner:" in s["source"] for s in got["result"]["spans"]), got["result"]["spans"]
    if cpython_spans is not None:
        import json
        want = json.loads(json.dumps(process(MODEL_NOTE, mode="redact", key="k", model_spans=cpython_spans)))
        assert got["result"] == want
    return info
