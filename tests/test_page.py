"""The offline page (dist/deid.html) in headless Chromium, opened by its file:// URL, offline.

Every figure and output the page shows is compared with the CPython engine on the same input.
Needs Debian's ``/usr/bin/chromium``, the Python ``playwright`` package and a built page
(``python build.py``); the whole module is skipped when one of them is missing. ``DEID_PAGE`` may
point at another built page.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(os.environ.get("DEID_PAGE", ROOT / "dist" / "deid.html")).resolve()
CHROMIUM = "/usr/bin/chromium"
CORPUS = Path(os.environ.get("DEID_CORPUS", ROOT / "corpus" / "notes.jsonl"))
ASQ = ROOT.parent / "shared" / "corpora" / "asq-phi" / "asq_phi_dev.jsonl"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
KEY = "page-test-linkage-key"

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
if not PAGE.is_file():
    pytest.skip(f"{PAGE} is not built (python build.py)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from deid_core.api import process  # noqa: E402  (after the skips: the page needs the engine)


def as_json(value):
    """What a value looks like after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def poll(page, expression: str, timeout: float = 60.0, interval: float = 0.05):
    """Evaluate ``expression`` until it is truthy (the page's CSP forbids wait_for_function)."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression!r}")
        time.sleep(interval)


def corpus_notes() -> list[dict]:
    if not CORPUS.is_file():
        return []
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def sample_notes() -> list[tuple[str, str]]:
    """(id, text) pairs: a spread of corpus notes plus hand-written edge cases."""
    notes = corpus_notes()
    picked = [(n["id"], n["text"]) for n in notes[:: max(1, len(notes) // 6)][:6]]
    picked += [
        ("plain", "Seen today by Dr. Alvarez for follow-up of Parkinson disease; Foley catheter out."),
        ("caps", "PATIENT: OKONKWO, ADAEZE N  DOB 02/29/1952  MRN 4471902\nCALL 617-555-0144 X12."),
        ("empty", ""),
        ("unicode", "José Nguyễn (O’Sullivan-Reyes), 94 yo, seen 12th of March 2019 — tel +1 (212) 555 0199."),
    ]
    return picked


NOTES = sample_notes()


@pytest.fixture(scope="module")
def browser_page():
    """One browser for the module: an offline context, the page loaded and ready, every request
    it made recorded in ``page.requests``."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        context.set_offline(True)
        page = context.new_page()
        page.requests = []
        page.errors = []
        page.on("request", lambda r: page.requests.append(r.url))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        started = time.monotonic()
        page.goto(PAGE.as_uri())
        poll(page, "document.body.dataset.state !== 'loading'", timeout=120)
        page.ready_seconds = time.monotonic() - started
        yield page
        context.close()
        browser.close()


@pytest.fixture
def page(browser_page):
    assert browser_page.evaluate("document.body.dataset.state") == "ready", \
        browser_page.evaluate("document.getElementById('load-status').textContent")
    return browser_page


def page_process(page, text: str, mode: str, key: str | None = KEY, decisions: dict | None = None):
    return page.evaluate("([t, o]) => window.deid.process(t, o)",
                         [text, {"mode": mode, "key": key, "decisions": decisions}])


def ui_run(page, text: str, mode: str, key: str = KEY) -> str:
    """Type ``text`` into the UI, choose ``mode``, run, and return the output pane's text."""
    page.fill("#key", key)
    page.check(f"input[name=mode][value={mode}]")
    page.fill("#input", text)
    page.evaluate("document.getElementById('run-status').textContent = ''")
    page.click("#run")
    status = poll(page, "(s => s && s !== 'working\u2026' ? s : '')"
                        "(document.getElementById('run-status').textContent)")
    assert not status.startswith("error"), status
    return page.evaluate("document.getElementById('output').textContent")


def test_loads_offline_and_reports_ready(page):
    info = page.evaluate("window.deid.ready.then(r => r.versions)")
    assert info["python"].startswith("3.")
    assert set(info["categories"]) >= {"NAME", "DATE", "ID"}
    assert page.evaluate("document.getElementById('load-status').textContent").startswith("Ready in")
    assert page.errors == []


@pytest.mark.parametrize("mode", ["redact", "surrogate", "review"])
@pytest.mark.parametrize("note_id,text", NOTES, ids=[n for n, _ in NOTES])
def test_each_mode_equals_cpython(page, mode, note_id, text):
    got = page_process(page, text, mode)
    assert got == as_json(process(text, mode=mode, key=KEY))


def test_surrogate_key_is_stable_and_empty_key_is_per_page_load(page):
    text = "Maria Lopez was seen on 03/05/2014 at Mercy Hospital, Springfield."
    assert page_process(page, text, "surrogate") == page_process(page, text, "surrogate")
    unkeyed = page_process(page, text, "surrogate", key=None)
    assert unkeyed == page_process(page, text, "surrogate", key="")  # same page-load secret
    assert unkeyed["output"] != text


def test_ui_output_matches_engine_in_every_mode(page):
    text = "Seen by Dr. Helen Achterberg on 09/14/2016. MRN 00781245. Phone 617-555-0144."
    for mode in ("redact", "surrogate", "review"):
        assert ui_run(page, text, mode) == process(text, mode=mode, key=KEY)["output"]
    page.check("input[name=mode][value=surrogate]")
    assert page.is_visible("#surrogate-banner")
    page.uncheck("#banner-on")
    assert page.is_hidden("#surrogate-banner")
    page.check("#banner-on")
    assert page.is_visible("#surrogate-banner")
    page.check("input[name=mode][value=redact]")
    page.click("#run")
    poll(page, "document.getElementById('surrogate-banner').hidden")


def _note_with_candidates() -> tuple[str, list[dict]]:
    for _, text in NOTES + [(n["id"], n["text"]) for n in corpus_notes()]:
        if "\r" in text:      # a textarea turns CRLF into LF; keep the UI comparison exact
            continue
        review = process(text, mode="review")["review"]
        if len(review) >= 2:
            return text, review
    pytest.skip("no note here gives two review candidates")


def expect_output(page, expected: str, timeout: float = 30.0) -> None:
    """Wait until the output pane shows ``expected``; fail showing what it shows instead."""
    try:
        poll(page, f"document.getElementById('output').textContent === {json.dumps(expected)}", timeout)
    except AssertionError:
        assert page.evaluate("document.getElementById('output').textContent") == expected


def test_accept_and_reject_change_the_output(page):
    text, review = _note_with_candidates()
    first, second = review[0]["id"], review[1]["id"]
    undecided = ui_run(page, text, "review")
    assert undecided == process(text, mode="review")["output"]
    assert page.evaluate("document.querySelectorAll('#review-list li').length") == len(review)
    # Undecided candidates are masked (fail-safe), so accepting all changes nothing, rejecting does.
    everything = {c["id"]: True for c in review}
    nothing = {c["id"]: False for c in review}
    assert process(text, mode="review", decisions=everything)["output"] == undecided
    kept = process(text, mode="review", decisions=nothing)["output"]
    assert kept != undecided

    # Reject the first candidate with its button.
    page.click(f'#review-list li[data-id="{first}"] button[data-act=reject]')
    expect_output(page, process(text, mode="review", decisions={first: False})["output"])
    # Keyboard on the list: the clicked item is current; "a" accepts it and moves on, "r" rejects.
    page.focus("#review-list")
    page.keyboard.press("a")
    expect_output(page, process(text, mode="review", decisions={first: True})["output"])
    page.keyboard.press("r")
    expect_output(page, process(text, mode="review", decisions={first: True, second: False})["output"])
    assert page.evaluate(f"document.querySelector('#review-list li[data-id=\"{second}\"]')"
                         ".dataset.decision") == "reject"
    # All, both ways.
    page.click("#reject-all")
    expect_output(page, kept)
    page.click("#accept-all")
    expect_output(page, undecided)
    # Shift+R: reject every candidate of the current one's kind.
    page.click("#clear-decisions")
    page.click(f'#review-list li[data-id="{first}"] .cand-text')
    page.focus("#review-list")
    page.keyboard.press("Shift+R")
    label = review[0]["label"]
    same = {c["id"]: False for c in review if c["label"] == label}
    expect_output(page, process(text, mode="review", decisions=same)["output"])


def test_decisions_through_the_api_equal_cpython(page):
    text, review = _note_with_candidates()
    decisions = {c["id"]: bool(i % 2) for i, c in enumerate(review)}
    got = page_process(page, text, "review", decisions=decisions)
    assert got == as_json(process(text, mode="review", key=KEY, decisions=decisions))


def test_self_benchmark_equals_cpython_to_the_last_digit(page):
    if not CORPUS.is_file():
        pytest.skip("corpus/notes.jsonl is missing")
    from deid_core.evaluate import evaluate_corpus_json
    expected = json.loads(evaluate_corpus_json(CORPUS.read_text(encoding="utf-8")))
    embedded = page.evaluate("window.deid.corpus()")["notes"]
    assert [n["text"] for n in embedded] == [n["text"] for n in corpus_notes()], \
        "the page holds a different corpus: rebuild it (python build.py)"

    page.click("#bench-run")
    poll(page, "document.getElementById('bench-status').textContent === 'done' || "
               "document.getElementById('bench-status').textContent.startsWith('error')", timeout=300)
    assert page.evaluate("document.getElementById('bench-status').textContent") == "done"
    rows = page.evaluate("""[...document.querySelectorAll('#bench-table tbody tr')].map(tr =>
        [tr.dataset.category, ...[...tr.querySelectorAll('td')].map(td => td.textContent)])""")
    table = {r[0]: [float(x) for x in r[1:]] for r in rows}
    assert table["ALL"] == [expected["phi_characters"],
                            expected["certain"]["overall"]["recall"], expected["certain"]["overall"]["precision"],
                            expected["with_review"]["overall"]["recall"],
                            expected["with_review"]["overall"]["precision"]]
    for cat, fig in expected["with_review"]["per_category"].items():
        cert = expected["certain"]["per_category"][cat]
        assert table[cat] == [fig["gold"], cert["recall"], cert["precision"], fig["recall"], fig["precision"]]
    summary = page.evaluate("document.getElementById('bench-summary').textContent")
    assert summary.startswith(f"{expected['documents']} notes, {expected['characters']} characters")
    assert page.evaluate("document.querySelectorAll('#bench-chart svg rect').length") >= 3

    report = page.evaluate("window.deid.benchmark()")
    for r in (report, expected):
        r.pop("seconds"), r.pop("wall_seconds", None)
    assert report == expected


def test_corpus_viewer_marks_misses_and_false_alarms(page):
    notes = corpus_notes()
    if not notes:
        pytest.skip("corpus/notes.jsonl is missing")
    assert page.evaluate("document.getElementById('corpus-note').options.length") == len(notes)
    page.select_option("#corpus-note", "0")
    assert page.evaluate("document.getElementById('corpus-text').textContent") == notes[0]["text"]
    gold = sum(1 for s in notes[0]["spans"])
    assert gold == 0 or page.evaluate("document.querySelectorAll('#corpus-text mark').length") > 0


def test_lists_section_shows_provenance(page):
    from deid_core.lists import provenance
    rows = page.evaluate("""[...document.querySelectorAll('#lists-table tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.textContent))""")
    assert rows == [[p["file"], str(p["count"]), p["source"], p["licence"]] for p in provenance()]


def test_exactly_one_network_request(page):
    """The document itself; the only other URL is the blob: the page makes for its worker in memory."""
    page_process(page, "Call me at 555-0100.", "redact")
    network = [u for u in page.requests if not u.startswith("blob:")]
    assert network == [PAGE.as_uri()]
    assert all(u.startswith("blob:null/") for u in page.requests[1:])
    assert len(page.requests) <= 2


def test_markup_in_a_note_is_text_and_runs_nothing(page):
    text = ('<img src=x onerror="document.body.dataset.pwned=1"> seen 03/05/2014\n'
            '</script><script>document.body.dataset.pwned2=1</script><b>bold</b>')
    for mode in ("redact", "review"):
        out = ui_run(page, text, mode)
        assert out == process(text, mode=mode, key=KEY)["output"]
        assert "<img src=x onerror=" in out and "</script>" in out
    time.sleep(0.3)
    assert page.evaluate("document.body.dataset.pwned === undefined && document.body.dataset.pwned2 === undefined")
    tags = page.evaluate("[...document.querySelectorAll('#output *')].map(e => e.tagName)")
    assert set(tags) <= {"MARK"}
    assert page.evaluate("document.querySelectorAll('img, b').length") == 0


def test_content_security_policy_forbids_the_network_and_eval(page):
    csp = page.evaluate("document.querySelector('meta[http-equiv=Content-Security-Policy]').content")
    directives = dict((d.split()[0], d.split()[1:]) for d in csp.split(";") if d.strip())
    assert directives["default-src"] == ["'none'"]
    assert directives["connect-src"] == ["'none'"]
    assert directives["img-src"] == ["'none'"]
    assert directives["worker-src"] == ["blob:"]
    assert "'unsafe-inline'" not in directives["script-src"] and "'unsafe-eval'" not in directives["script-src"]
    # Code injected into the document the way an attacker's markup would run is refused.
    page.evaluate("""() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective));
        const s = document.createElement('script');
        s.textContent = 'document.body.dataset.injected = "1"';
        document.body.appendChild(s);
        setTimeout('document.body.dataset.timer = "1"', 0);
        const img = new Image(); img.src = 'https://example.invalid/x.png';
    }""")
    violations = poll(page, "window.__violations.length >= 3 && window.__violations")
    assert {v.split()[0] for v in violations} >= {"script-src-elem", "img-src"}
    assert page.evaluate("document.body.dataset.injected === undefined && document.body.dataset.timer === undefined")
    assert page.evaluate("document.querySelectorAll('[onclick],[onload],[onerror],[oninput]').length") == 0


def test_a_loaded_txt_file_keeps_its_line_ends(page):
    text = "Seen by Dr. Helen Achterberg on 09/14/2016.\r\nMRN 00781245\r\nCall 617-555-0144.\r\n"
    page.check("input[name=mode][value=redact]")
    page.evaluate("document.getElementById('run-status').textContent = ''")
    page.set_input_files("#file", files=[{"name": "note.txt", "mimeType": "text/plain",
                                          "buffer": text.encode("utf-8")}])
    expected = process(text, mode="redact")["output"]
    assert "\r\n" in expected
    expect_output(page, expected)


def test_nothing_is_stored(page):
    page_process(page, "Maria Lopez 03/05/2014", "surrogate", key="secret-key")
    assert page.evaluate("localStorage.length") == 0
    assert page.evaluate("sessionStorage.length") == 0
    assert page.evaluate("document.cookie") == ""
    assert page.evaluate("indexedDB.databases().then(d => d.length)") == 0


def test_a_200_kb_note_completes(page):
    parts = [n["text"] for n in corpus_notes()] or [t for _, t in NOTES]
    text = ""
    while len(text) < 200_000:
        text += "\n\n".join(parts)
    text = text[:200_000]
    started = time.monotonic()
    got = page_process(page, text, "redact")
    assert time.monotonic() - started < 60
    assert got["output"] == process(text, mode="redact")["output"]


@pytest.mark.skipif(not ASQ.is_file(), reason="../shared/corpora/asq-phi is not here")
@pytest.mark.parametrize("mode", ["redact", "surrogate"])
def test_asq_phi_twenty_records_equal_cpython(page, mode):
    records = [json.loads(line) for line in ASQ.read_text(encoding="utf-8").splitlines()[:20]]
    texts = [r["text"] for r in records]
    got = page.evaluate("""async ([texts, key, mode]) => {
        const out = [];
        for (const t of texts) out.push(await window.deid.process(t, {mode, key}));
        return out; }""", [texts, KEY, mode])
    assert got == [as_json(process(t, mode=mode, key=KEY)) for t in texts]


@pytest.mark.skipif(not (ROOT / "node_modules" / "pyodide").is_dir(), reason="npm ci not run")
@pytest.mark.skipif("DEID_PAGE" in os.environ, reason="the page under test was built elsewhere")
def test_build_is_deterministic_and_the_page_is_current(tmp_path):
    """A fresh build of this tree gives exactly the bytes of the page the tests ran on."""
    out = tmp_path / "deid.html"
    proc = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert f"sha256 {hashlib.sha256(out.read_bytes()).hexdigest()}" in proc.stdout
    assert out.read_bytes() == PAGE.read_bytes(), \
        "dist/deid.html is not what build.py makes from this tree now: stale, or the build is not deterministic"
    assert out.stat().st_size < 40_000_000
