"""The offline page in Firefox and in WebKit (the Safari engine family).

The design asks for a page that works in Chromium, Firefox and Safari. Here, with the Debian
browsers and no browser download:

* Firefox: Debian's ``firefox-esr``, headless, driven over WebDriver BiDi, which Firefox speaks
  itself (``--remote-debugging-port``): a minimal client below over the ``websocket-client``
  package (a dependency of Selenium), so no geckodriver is needed. Console errors (a CSP
  violation, an exception) are collected and must be none.
* WebKit: WebKitGTK's ``MiniBrowser`` driven by Debian's ``WebKitWebDriver``
  (``webkit2gtk-driver``) through Selenium, on an ``Xvfb`` display the fixture starts.

In each: the page loads from ``file://``, the three modes and Review equal CPython's engine, and
the self-benchmark (rules only) equals ``deid eval --rules-only``. The NER model runs (plain
WebAssembly: issue 23 item 3, asserted), and the scenarios of ``tests/pagehelpers.py`` run as in
Chromium: decisions that follow their words through edits (item 1) and the export guard (item 2).
Each browser's tests skip, saying why, when the browser, its driver, Xvfb or the Python package
is missing. Marked slow (``bash scripts/test.sh --all`` runs them).
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from pagehelpers import (MODEL_NOTE, check_decisions_follow_the_text, check_export_guard, check_the_model_ran,
                         poll, run_ended, run_started)

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(os.environ.get("DEID_PAGE", ROOT / "dist" / "deid.html")).resolve()
CORPUS = ROOT / "corpus" / "notes.jsonl"
KEY = "browser-test-key"
FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
WEBKIT_DRIVER = shutil.which("WebKitWebDriver")
MINIBROWSER = next((str(p) for p in sorted(Path("/usr/lib").glob("*/webkit2gtk-4.*/MiniBrowser"))), None)
XVFB = shutil.which("Xvfb")

if not PAGE.is_file():
    pytest.skip(f"{PAGE} is not built (python build.py)", allow_module_level=True)

from deid_core.api import process  # noqa: E402

pytestmark = pytest.mark.slow   # two browsers started, one under Xvfb: minutes

NOTES = [
    "Seen by Dr. Helen Achterberg on 09/14/2016 at Mercy Hospital, Springfield, MA. MRN 00781245.",
    "PATIENT: OKONKWO, ADAEZE N  DOB 02/29/1952  MRN 4471902\nCALL 617-555-0144 X12. Foley catheter out.",
    "Mrs. Okonkwo, a retired teacher from Glasgow, was seen at Saint Brigid Infirmary; Parkinson disease.",
    "Called Will about the results; Foley catheter out, GCS 15.",   # an amber candidate (Will)
]


def as_json(value):
    return json.loads(json.dumps(value))


# ---- drivers: one interface, `evaluate(js)` -> the JSON value of a JS expression (awaited) ----

class BidiFirefox:
    """Firefox over WebDriver BiDi (Firefox's own remote agent), no geckodriver.

    ``evaluate(expression)``: the expression (a value or a promise) awaited in the page and
    returned through JSON. ``errors``: console and JavaScript errors seen, as strings.
    """

    def __init__(self, binary: str):
        import websocket  # from websocket-client, which Selenium requires
        self.profile = tempfile.mkdtemp(prefix="deid-ff-")
        Path(self.profile, "user.js").write_text(
            'user_pref("network.proxy.type", 0);\nuser_pref("browser.shell.checkDefaultBrowser", false);\n'
            'user_pref("datareporting.policy.dataSubmissionEnabled", false);\n'
            'user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);\n')
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.proc = subprocess.Popen([binary, "--headless", "--no-remote", "--profile", self.profile,
                                      f"--remote-debugging-port={port}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 90
        while True:
            try:
                self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=600,
                                                      suppress_origin=True)
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.close()
                    raise RuntimeError("Firefox's WebDriver BiDi endpoint did not come up")
                time.sleep(0.2)
        self.next_id = 0
        self.errors: list[str] = []
        self.command("session.new", {"capabilities": {}})
        self.command("session.subscribe", {"events": ["log.entryAdded"]})
        tree = self.command("browsingContext.getTree", {})
        self.context = tree["contexts"][0]["context"]

    def command(self, method: str, params: dict) -> dict:
        self.next_id += 1
        my = self.next_id
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("type") == "event" or "method" in msg and "id" not in msg:
                if msg.get("method") == "log.entryAdded" and msg["params"].get("level") == "error":
                    self.errors.append(msg["params"].get("text") or str(msg["params"]))
                continue
            if msg.get("id") != my:
                continue
            if msg.get("type") == "error" or "error" in msg:
                raise RuntimeError(f"{method}: {msg.get('error')}: {msg.get('message')}")
            return msg["result"]

    def goto(self, url: str) -> None:
        self.command("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression: str):
        r = self.command("script.evaluate", {
            "expression": f"Promise.resolve({expression}).then(v => JSON.stringify(v === undefined ? null : v))",
            "target": {"context": self.context}, "awaitPromise": True, "resultOwnership": "none"})
        if r.get("type") == "exception":
            raise RuntimeError(r["exceptionDetails"].get("text"))
        return json.loads(r["result"]["value"])

    def close(self) -> None:
        try:
            if getattr(self, "ws", None):
                try:
                    self.command("browser.close", {})
                except Exception:
                    pass
                self.ws.close()
        finally:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(20)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


class SeleniumWebKit:
    """WebKitGTK's MiniBrowser through WebKitWebDriver and Selenium, on the display given."""

    def __init__(self, display: str):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        env = dict(os.environ, DISPLAY=display)
        service = Service(executable_path=WEBKIT_DRIVER, env=env)
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(600)
        self.errors: list[str] = []   # WebKitWebDriver gives no console log

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def evaluate(self, expression: str):
        return json.loads(self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve({expression}).then(v => done(JSON.stringify(v === undefined ? null : v)),"
            " e => done(JSON.stringify({__error: String(e && e.message || e)})));"))

    def close(self) -> None:
        self.driver.quit()


def _xvfb():
    """Start Xvfb on a free display: (process, ":N")."""
    r, w = os.pipe()
    proc = subprocess.Popen([XVFB, "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start")
    return proc, ":" + number


def _firefox():
    if not FIREFOX:
        pytest.skip("Firefox is not installed (apt-get install firefox-esr)")
    pytest.importorskip("websocket", reason="websocket-client is not installed (pip install selenium)")
    return BidiFirefox(FIREFOX), None


def _webkit():
    if not (WEBKIT_DRIVER and MINIBROWSER):
        pytest.skip("WebKitGTK's WebKitWebDriver or MiniBrowser is missing (apt-get install webkit2gtk-driver)")
    pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
    if not XVFB:
        pytest.skip("Xvfb is not installed (apt-get install xvfb): WebKitGTK needs a display")
    xvfb, display = _xvfb()
    try:
        return SeleniumWebKit(display), xvfb
    except Exception:
        xvfb.kill()
        raise


def wait(b, expression: str, timeout: float = 300.0):
    """:func:`pagehelpers.poll` at the pace of a WebDriver round trip."""
    return poll(b, expression, timeout, interval=0.2)


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def browser(request):
    b, xvfb = _firefox() if request.param == "firefox" else _webkit()
    b.name = request.param
    try:
        b.goto(PAGE.as_uri())
        wait(b, "document.body && document.body.dataset.state !== 'loading'", timeout=300)
        yield b
    finally:
        b.close()
        if xvfb is not None:
            xvfb.terminate()


def ui_run(b, text: str, mode: str) -> str:
    """Put ``text`` in the note pane as typing does, pick ``mode``, De-identify, return the output."""
    before = run_started(b)
    b.evaluate(f"""(() => {{ document.getElementById('rules-only').checked = true;
        document.getElementById('key').value = {json.dumps(KEY)};
        const t = document.getElementById('input'); t.value = {json.dumps(text)};
        t.dispatchEvent(new Event('input', {{bubbles: true}}));
        document.querySelector('input[name=mode][value={mode}]').checked = true;
        document.getElementById('run').click(); }})()""")
    outcome = wait(b, run_ended(before))
    assert outcome == "done", b.evaluate("document.getElementById('run-status').textContent")
    return b.evaluate("document.getElementById('output').textContent")


def test_the_page_starts(browser):
    state = browser.evaluate("[document.body.dataset.state, document.getElementById('load-status').textContent]")
    assert state[0] == "ready", state[1]
    assert state[1] == "Ready."
    assert browser.errors == []


def _has_model() -> bool:
    import re
    m = re.search(rb'<script type="application/json" id="deid-manifest">(.*?)</script>', PAGE.read_bytes(), re.S)
    return json.loads(m.group(1).decode("ascii")).get("model") is not None


def test_the_model_runs(browser):
    """Issue 23 item 3: the model runs in this browser too (WebKit had none: no JSPI)."""
    if not _has_model():
        pytest.skip("the page was built without the NER model")
    spans = None
    try:
        from deid_core.ner.onnx_runtime import OnnxNer
        spans = OnnxNer.load().spans(MODEL_NOTE)
    except ImportError:
        pass
    check_the_model_ran(browser, spans)
    assert browser.errors == []


def test_decisions_follow_their_words_through_edits(browser):
    check_decisions_follow_the_text(browser)
    assert browser.errors == []


def test_export_guard(browser):
    check_export_guard(browser)
    assert browser.errors == []


@pytest.mark.parametrize("mode", ["redact", "surrogate", "review"])
def test_each_mode_equals_cpython(browser, mode):
    for text in NOTES:
        got = browser.evaluate(f"window.deid.process({json.dumps(text)}, "
                               f"{{mode: '{mode}', key: {json.dumps(KEY)}, rulesOnly: true}})")
        assert got == as_json(process(text, mode=mode, key=KEY)), text
        assert ui_run(browser, text, mode) == got["output"]
    assert browser.errors == []


def test_review_decisions(browser):
    text = next(t for t in NOTES if len(process(t, mode="review")["review"]) >= 1)
    review = process(text, mode="review", key=KEY)["review"]
    ui_run(browser, text, "review")
    assert browser.evaluate("document.querySelectorAll('#review-list li').length") == len(review)
    first = review[0]["id"]
    before = browser.evaluate("Number(document.body.dataset.runStarted || 0)")
    browser.evaluate(f"document.querySelector('#review-list li[data-id=\"{first}\"] button[data-act=keep]').click()")
    wait(browser, f"Number(document.body.dataset.runDone || 0) > {before} && document.body.dataset.run === 'done'")
    want = as_json(process(text, mode="review", key=KEY, decisions={first: False}))["output"]
    assert browser.evaluate("document.getElementById('output').textContent") == want
    assert browser.evaluate("window.deid.decisions()") == {first: False}


def test_self_benchmark_rules_only_equals_cpython(browser):
    if not CORPUS.is_file():
        pytest.skip("corpus/notes.jsonl is missing")
    from deid_core.evaluate import evaluate_corpus_json
    want = json.loads(evaluate_corpus_json(CORPUS.read_text(encoding="utf-8")))
    browser.evaluate("(() => { document.getElementById('rules-only').checked = true;"
                     " document.getElementById('bench-run').click(); })()")
    assert wait(browser, "document.body.dataset.bench !== 'working' && document.body.dataset.bench", 600) == "done"
    row = browser.evaluate("[...document.querySelectorAll('#bench-table tbody tr[data-category=ALL] td')]"
                           ".slice(0, 5).map(td => Number(td.dataset.value))")
    o, r = want["certain"]["overall"], want["with_review"]["overall"]
    assert row == [want["phi_characters"], o["recall"], o["precision"], r["recall"], r["precision"]]
    assert browser.evaluate("document.querySelectorAll('#bench-plain li').length") == 1
    assert browser.errors == []
