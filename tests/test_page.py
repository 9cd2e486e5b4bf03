"""The offline page (dist/deid.html) in headless Chromium, opened by its file:// URL, offline.

Every figure and output the page shows is compared with the CPython engine on the same input.
Needs Debian's ``/usr/bin/chromium``, the Python ``playwright`` package and a built page
(``python build.py``); the whole module is skipped when one of them is missing. ``DEID_PAGE`` may
point at another built page.

When the page carries the NER model (``model/ner.onnx`` at build time), the page's default path is
the ensemble (rules + model run by onnxruntime-web on WASM, as headless Chromium here has no WebGPU
adapter). Two kinds of comparison:

* The page's pipeline: for every note, the page's own model output (``window.deid.modelLogits``)
  is turned into spans by CPython's :mod:`deid_core.ner.pipeline` and fed to CPython's
  :func:`deid_core.api.process`; the page's result must be identical (outputs, spans, sources).
  This checks Pyodide's pre/post-processing, the worker's tensors and the ensemble, whatever the
  numerics of the two onnxruntimes.
* Page against CLI (``deid detect``/``deid eval`` with the same ONNX file run by the ``onnxruntime``
  package): identical spans (sources with ``p=<confidence>`` included) and figures. This holds
  because the shipped model is weight-only int8 (fp32 compute, ``training/weight_only.py``) and
  the CLI runs it at onnxruntime's basic graph optimisation; a model quantising its activations at
  run time (``quantize_dynamic``) gave different spans on 150 of 210 corpus notes.
Comparisons that need ``onnxruntime`` in CPython skip without it; the rules-only ones always run.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pagehelpers import CHROMIUM, FLAGS, launch_chromium, poll, run_started, wait_run

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(os.environ.get("DEID_PAGE", ROOT / "dist" / "deid.html")).resolve()
CORPUS = Path(os.environ.get("DEID_CORPUS", ROOT / "corpus" / "notes.jsonl"))
ASQ = ROOT.parent / "shared" / "corpora" / "asq-phi" / "asq_phi_dev.jsonl"
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


def page_manifest() -> dict:
    """The build manifest embedded in the page (which payloads, and the model entry or null)."""
    m = re.search(rb'<script type="application/json" id="deid-manifest">(.*?)</script>', PAGE.read_bytes(), re.S)
    assert m, "the page has no manifest"
    return json.loads(m.group(1).decode("ascii"))


MODEL = page_manifest().get("model")   # None: a rules-only page
ONNX = ROOT / "model" / "ner.onnx"
@functools.lru_cache(maxsize=1)
def cpython_ner():
    """The page's model run by onnxruntime in CPython (skips the test when that cannot be)."""
    pytest.importorskip("onnxruntime")
    from deid_core.ner.onnx_runtime import OnnxNer
    ner = OnnxNer.load()
    assert ner.model.config["sha256"] == MODEL["sha256"], \
        "model/ is not the model in the page: rebuild it (python build.py)"
    return ner


@functools.lru_cache(maxsize=1)
def pipeline_model():
    """The page's model's pre/post-processing in CPython (no onnxruntime needed)."""
    from deid_core.ner.pipeline import NerModel
    model = NerModel.load()
    assert model.config["sha256"] == MODEL["sha256"], \
        "model/ is not the model in the page: rebuild it (python build.py)"
    return model


_PAGE_SPANS: dict = {}


def page_model_spans(page, text: str) -> list[dict]:
    """The model's spans for ``text`` from the PAGE's model output, decoded by CPython."""
    if text not in _PAGE_SPANS:
        got = page.evaluate("(t) => window.deid.modelLogits(t)", text)
        model = pipeline_model()
        prepared = model.prepare(text)
        spans = model.spans_from_flat(text, prepared, got["logits"], got["dims"]) if prepared.windows else []
        _PAGE_SPANS[text] = [s.to_dict() for s in spans]
    return _PAGE_SPANS[text]


def expected(page, text: str, mode: str, key: str | None = KEY, decisions: dict | None = None,
             rules_only: bool = False) -> dict:
    """What CPython gives for what the page is asked: the ensemble with the page's model output
    when the page has the model and ``rules_only`` is false, else the rules alone."""
    if rules_only or MODEL is None:
        return as_json(process(text, mode=mode, key=key, decisions=decisions))
    return as_json(process(text, mode=mode, key=key, decisions=decisions,
                           model_spans=page_model_spans(page, text)))


@pytest.fixture(scope="module")
def browser_page():
    """One browser for the module: an offline context, the page loaded and ready, every request
    it made recorded in ``page.requests``."""
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
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
        # The UI uses the model as soon as it is ready; wait for it so every test sees one engine.
        page.model_ready = page.evaluate("window.deid.modelReady")
        yield page
        context.close()
        browser.close()


@pytest.fixture
def page(browser_page):
    assert browser_page.evaluate("document.body.dataset.state") == "ready", \
        browser_page.evaluate("document.getElementById('load-status').textContent")
    return browser_page


def set_rules_only(page, value: bool) -> None:
    """Tick or untick "Rules only" (in Advanced) as a click does: the page runs again when it
    changes."""
    page.evaluate("(v) => { const e = document.getElementById('rules-only');"
                  " if (e.checked !== v && !e.disabled) { e.checked = v; e.dispatchEvent(new Event('change')); } }", value)


def page_process(page, text: str, mode: str, key: str | None = KEY, decisions: dict | None = None,
                 rules_only: bool = False):
    return page.evaluate("([t, o]) => window.deid.process(t, o)",
                         [text, {"mode": mode, "key": key, "decisions": decisions, "rulesOnly": rules_only}])


def ui_run(page, text: str, mode: str, key: str = KEY) -> str:
    """Type ``text`` into the UI, choose ``mode``, run, and return the output pane's text (the
    key, in Advanced, set as typing does)."""
    page.evaluate("(k) => { const e = document.getElementById('key'); e.value = k;"
                  " e.dispatchEvent(new Event('input', {bubbles: true})); }", key)
    page.check(f"input[name=mode][value={mode}]")
    page.fill("#input", text)
    before = run_started(page)
    page.click("#run")
    outcome = wait_run(page, before)
    status = page.evaluate("document.getElementById('run-status').textContent")
    assert outcome == "done", status
    return page.evaluate("document.getElementById('output').textContent")


def test_loads_offline_and_reports_ready(page):
    info = page.evaluate("window.deid.ready.then(r => r.versions)")
    assert info["python"].startswith("3.")
    assert set(info["categories"]) >= {"NAME", "DATE", "ID"}
    assert page.evaluate("document.getElementById('load-status').textContent") == "Ready."
    assert "ready in" in page.evaluate("document.getElementById('engine-details').textContent")
    assert page.errors == []


def test_the_model_backend_is_reported(page):
    status = page.evaluate("document.getElementById('model-status').textContent")
    info = page.model_ready
    if MODEL is None:
        assert info["backend"] == "unavailable"
        assert page.evaluate("document.body.dataset.model") == "unavailable"
        assert status == "AI name finder: off, the rules work alone"
        assert page.evaluate("[document.getElementById('rules-only').checked, "
                             "document.getElementById('rules-only').disabled]") == [True, True]
        return
    # The plain WebAssembly build (no WebGPU provider); with a WebGPU build, headless Chromium with
    # --disable-gpu offers no adapter and the WASM fallback runs.
    assert info["backend"] == "wasm", info
    assert info["notes"] == ("no WebGPU adapter" if "webgpu" in MODEL["providers"] else "")
    assert info["name"] == MODEL["name"]
    assert page.evaluate("document.body.dataset.model") == "wasm"
    assert status == "AI name finder: on"
    details = page.evaluate("document.getElementById('engine-details').textContent")
    assert f"NER model {MODEL['name']} on wasm, ready in " in details
    assert page.evaluate("document.getElementById('rules-only').disabled") is False
    assert page.errors == []


def _fresh_page(browser_page):
    context = browser_page.context.browser.new_context()
    context.set_offline(True)
    page = context.new_page()
    page.requests = []
    page.on("request", lambda r: page.requests.append(r.url))
    page.goto(PAGE.as_uri())
    poll(page, "document.body.dataset.state !== 'loading'", timeout=120, interval=0.01)
    return context, page


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_rules_run_at_once_while_the_model_loads(browser_page):
    """The rules answer while the model is still loading; a call without rulesOnly waits for the
    model and gives the ensemble."""
    text = "Seen by Dr. Helen Achterberg on 09/14/2016 at Mercy Hospital, Springfield. MRN 00781245."
    context, page = _fresh_page(browser_page)
    try:
        first = page.evaluate("""async (t) => {
            const before = document.body.dataset.model;
            const r = await window.deid.process(t, {mode: 'redact', key: 'k', rulesOnly: true});
            return [before, document.body.dataset.model, r]; }""", text)
        # the rules call was made while the model loaded (on a loaded machine the model may be
        # ready by the time the answer comes back; the answer is the rules' either way)
        assert first[0] == "loading", first[:2]
        assert first[2] == as_json(process(text, mode="redact", key="k"))
        # The UI, while the model loads, answers with the rules and says so.
        page.fill("#input", text)
        before = run_started(page)
        page.click("#run")
        assert wait_run(page, before) == "done"
        status = page.evaluate("document.getElementById('run-status').textContent")
        if page.evaluate("document.body.dataset.model") == "loading":
            assert status.endswith("Rules only (the AI model is still loading; it runs when ready)."), status
        waited = page.evaluate("(t) => window.deid.process(t, {mode: 'redact', key: 'k'})", text)
        assert page.evaluate("document.body.dataset.model") == "wasm"
        assert waited == expected(page, text, "redact", key="k")
        # Once the model is ready the UI runs again, now with the model.
        poll(page, "document.body.dataset.engine === 'ensemble' && document.body.dataset.run === 'done'")
        assert page.evaluate("document.getElementById('output').textContent") == waited["output"]
        assert [u for u in page.requests if not u.startswith("blob:")] == [PAGE.as_uri()]
    finally:
        context.close()


def detect_with_the_cli(texts: list[str], tmp_path: Path, rules_only: bool = False) -> list[list[dict]]:
    """``deid detect --input`` (the CLI with the model in the page's form, ``--model-form exact``,
    not the CLI's default integer form; or ``--rules-only``): spans per note."""
    path = tmp_path / "notes.jsonl"
    path.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in enumerate(texts)),
                    encoding="utf-8")
    cmd = [sys.executable, "-m", "deid_core.cli", "detect", "--input", str(path)]
    form = ["--rules-only"] if rules_only else ["--model-form", "exact"]
    proc = subprocess.run(cmd + form, capture_output=True, text=True, cwd=ROOT, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line)["spans"] for line in proc.stdout.splitlines()]


def _eight_texts() -> list[str]:
    """Eight corpus notes spread over the file (with the shipped model, two of them get spans the
    model adds to the rules', which the comparison with the model needs)."""
    notes = corpus_notes()
    return [n["text"] for n in notes[0::max(1, len(notes) // 8)][:8]] or [t for _, t in NOTES if t][:8]


SPAN_KEYS = ("start", "end", "label", "tier", "source")


def test_page_spans_equal_deid_detect_rules_only(page, tmp_path):
    texts = _eight_texts()
    cli = detect_with_the_cli(texts, tmp_path, rules_only=True)
    got = [[{k: s[k] for k in SPAN_KEYS} for s in page_process(page, t, "redact", rules_only=True)["spans"]]
           for t in texts]
    assert got == cli


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_page_spans_equal_deid_detect_with_the_model(page, tmp_path):
    """Eight notes: the page's spans equal ``deid detect``'s exactly (same ONNX file: onnxruntime-web
    WASM in the page, onnxruntime in CPython): offsets, labels, tiers and sources, whose
    ``p=<confidence>`` has two decimals."""
    pytest.importorskip("onnxruntime")
    texts = _eight_texts()
    cli = detect_with_the_cli(texts, tmp_path)
    got = [[{k: s[k] for k in SPAN_KEYS} for s in page_process(page, t, "redact")["spans"]] for t in texts]
    assert any(s["source"].startswith("ner:") for spans in cli for s in spans), \
        "no model span in eight notes: the comparison would not exercise the model"
    assert got == cli


def _cpython_logits(text: str):
    import numpy as np
    ner = cpython_ner()
    prepared = ner.model.prepare(text)
    return np.asarray(ner.infer(prepared.input_ids, prepared.attention_mask, prepared.case_ids),
                      dtype=np.float64)


def _page_logits(page, text: str):
    import numpy as np
    got = page.evaluate("(t) => window.deid.modelLogits(t)", text)
    return np.asarray(got["logits"], dtype=np.float64).reshape(got["dims"])


# Largest difference allowed between the page's logits (onnxruntime-web) and CPython's
# (onnxruntime, x86) for the same ONNX file. Measured with the weight-only int8 model: under 2e-6
# on WASM; SwiftShader's emulated WebGPU differs more (about 0.01, its own float kernels).
LOGIT_TOLERANCE = 0.05


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_page_logits_are_close_to_cpython(page):
    texts = _eight_texts()
    worst = 0.0
    for text in texts:
        want = _cpython_logits(text)
        got = _page_logits(page, text)
        assert got.shape == want.shape
        worst = max(worst, float(abs(got - want).max()))
    assert worst < LOGIT_TOLERANCE, worst


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_webgpu_backend_where_an_adapter_exists(browser_page):
    """With ``--enable-unsafe-webgpu`` headless Chromium offers SwiftShader's CPU-emulated WebGPU
    adapter: a page built with a WebGPU build of onnxruntime-web (``build.py --ort-build jspi``)
    then reports and uses the webgpu backend (its speed there means nothing). Its float math is
    not the CPU's, so it is held to the logit tolerance, not to identical spans. The default build
    (plain WebAssembly) has no WebGPU provider: skipped."""
    if "webgpu" not in MODEL["providers"]:
        pytest.skip(f"the page's onnxruntime-web build ({MODEL['ort_build']}) has no WebGPU provider")
    flags = [f for f in FLAGS if f != "--disable-gpu"] + ["--enable-unsafe-webgpu"]
    p = browser_page.context.browser.browser_type
    browser = p.launch(executable_path=CHROMIUM, headless=True, args=flags)
    try:
        context = browser.new_context()
        context.set_offline(True)
        page = context.new_page()
        page.goto(PAGE.as_uri())
        poll(page, "document.body.dataset.state !== 'loading'", timeout=120)
        info = page.evaluate("window.deid.modelReady")
        if info["backend"] == "wasm" and info["notes"] == "no WebGPU adapter":
            pytest.skip("this Chromium offers no WebGPU adapter even with --enable-unsafe-webgpu")
        assert info["backend"] == "webgpu", info
        assert page.evaluate("document.body.dataset.model") == "webgpu"
        assert page.evaluate("document.getElementById('model-status').textContent") == "AI name finder: on"
        text = "Mrs. Adaeze Okonkwo, 67, a retired teacher from Glasgow, seen at Saint Brigid Infirmary."
        diff = float(abs(_page_logits(page, text) - _cpython_logits(text)).max())
        assert diff < LOGIT_TOLERANCE, diff
        got = page.evaluate("(t) => window.deid.process(t, {mode: 'redact', rulesOnly: true})", text)
        assert got == as_json(process(text, mode="redact"))
    finally:
        browser.close()


def test_rules_only_checkbox(page):
    text = "Mrs. Okonkwo, a retired teacher from Glasgow, was seen at Saint Brigid Infirmary."
    if MODEL is not None:
        set_rules_only(page, False)
        assert ui_run(page, text, "redact") == expected(page, text, "redact")["output"]
        assert page.evaluate("document.body.dataset.engine") == "ensemble"
    set_rules_only(page, True)
    try:
        assert ui_run(page, text, "redact") == process(text, mode="redact", key=KEY)["output"]
        assert page.evaluate("document.body.dataset.engine") == "rules"
        assert page.evaluate("document.getElementById('run-status').textContent").endswith("Rules only.")
    finally:
        if MODEL is not None:
            set_rules_only(page, False)


@pytest.mark.parametrize("mode", ["redact", "surrogate", "review"])
@pytest.mark.parametrize("note_id,text", NOTES, ids=[n for n, _ in NOTES])
def test_each_mode_equals_cpython(page, mode, note_id, text):
    got = page_process(page, text, mode)
    assert got == expected(page, text, mode)


@pytest.mark.parametrize("note_id,text", NOTES, ids=[n for n, _ in NOTES])
def test_rules_only_equals_cpython_rules(page, note_id, text):
    for mode in ("redact", "surrogate"):
        assert page_process(page, text, mode, rules_only=True) == as_json(process(text, mode=mode, key=KEY))


def test_surrogate_key_is_stable_and_empty_key_is_per_page_load(page):
    text = "Maria Lopez was seen on 03/05/2014 at Mercy Hospital, Springfield."
    assert page_process(page, text, "surrogate") == page_process(page, text, "surrogate")
    unkeyed = page_process(page, text, "surrogate", key=None)
    assert unkeyed == page_process(page, text, "surrogate", key="")  # same page-load secret
    assert unkeyed["output"] != text


def test_ui_output_matches_engine_in_every_mode(page):
    text = "Seen by Dr. Helen Achterberg on 09/14/2016. MRN 00781245. Phone 617-555-0144."
    for mode in ("redact", "surrogate", "review"):
        assert ui_run(page, text, mode) == expected(page, text, mode)["output"]
    page.check("input[name=mode][value=surrogate]")
    assert page.is_visible("#surrogate-banner")
    page.click("summary:has-text('Advanced')")
    page.click("#banner-on")
    page.click("#banner-off")   # turning it off asks first (tests/test_page_clinician.py)
    assert page.is_hidden("#surrogate-banner")
    page.check("#banner-on")
    assert page.is_visible("#surrogate-banner")
    page.click("summary:has-text('Advanced')")
    page.check("input[name=mode][value=redact]")
    page.click("#run")
    poll(page, "document.getElementById('surrogate-banner').hidden")


def _note_with_candidates(page) -> tuple[str, list[dict]]:
    for _, text in NOTES + [(n["id"], n["text"]) for n in corpus_notes()]:
        if "\r" in text:      # a textarea turns CRLF into LF; keep the UI comparison exact
            continue
        review = expected(page, text, "review", key=None)["review"]
        if len(review) >= 2:
            return text, review
    pytest.skip("no note here gives two review candidates")


def expect_output(page, expected: str, timeout: float = 30.0) -> None:
    """Wait until the output pane shows ``expected``; fail showing what it shows instead."""
    try:
        poll(page, f"document.getElementById('output').textContent === {json.dumps(expected)}", timeout)
    except AssertionError:
        state = page.evaluate("JSON.stringify([document.body.dataset, window.deid.decisions()])")
        assert page.evaluate("document.getElementById('output').textContent") == expected, state


def test_mask_and_keep_change_the_output(page):
    """Review's Mask and Keep buttons, keys and bulk buttons give CPython's output for the same
    decisions ({"start:end": true = mask, false = keep}), whatever undecided candidates do."""
    text, review = _note_with_candidates(page)
    first, second = review[0]["id"], review[1]["id"]
    undecided = ui_run(page, text, "review")
    assert undecided == expected(page, text, "review", None)["output"]
    assert page.evaluate("document.querySelectorAll('#review-list li').length") == len(review)
    assert page.evaluate("[...document.querySelectorAll('#review-list li:first-child button')].map(b => b.textContent)") \
        == ["Mask", "Keep"]
    everything = {c["id"]: True for c in review}
    nothing = {c["id"]: False for c in review}
    masked = expected(page, text, "review", None, everything)["output"]
    kept = expected(page, text, "review", None, nothing)["output"]
    assert kept != masked

    # Keep the first candidate with its button.
    page.click(f'#review-list li[data-id="{first}"] button[data-act=keep]')
    expect_output(page, expected(page, text, "review", None, {first: False})["output"])
    assert page.evaluate("window.deid.decisions()") == {first: False}
    # Keyboard on the list: the clicked item is current; "m" masks it and moves on, "n" keeps.
    page.focus("#review-list")
    page.keyboard.press("m")
    poll(page, f"window.deid.decisions()[{json.dumps(first)}] === true")
    expect_output(page, expected(page, text, "review", None, {first: True})["output"])
    page.keyboard.press("n")
    expect_output(page, expected(page, text, "review", None, {first: True, second: False})["output"])
    assert page.evaluate(f"document.querySelector('#review-list li[data-id=\"{second}\"]')"
                         ".dataset.decision") == "keep"
    # All, both ways.
    page.click("#keep-all")
    expect_output(page, kept)
    page.click("#mask-all")
    expect_output(page, masked)
    # Shift+N: keep every candidate of the current one's kind.
    page.click("#clear-decisions")
    expect_output(page, undecided)
    page.click(f'#review-list li[data-id="{first}"] .cand-text')
    page.focus("#review-list")
    page.keyboard.press("Shift+N")
    label = review[0]["label"]
    same = {c["id"]: False for c in review if c["label"] == label}
    expect_output(page, expected(page, text, "review", None, same)["output"])


def test_decisions_hold_across_modes(page):
    """Decisions made in Review are sent with every request in every mode: Redact and Surrogate
    after review give CPython's output for the same decisions; a new note clears them."""
    text, review = _note_with_candidates(page)
    ui_run(page, text, "review", key=KEY)
    page.click(f'#review-list li[data-id="{review[0]["id"]}"] button[data-act=mask]')
    page.click(f'#review-list li[data-id="{review[1]["id"]}"] button[data-act=keep]')
    decisions = {review[0]["id"]: True, review[1]["id"]: False}
    expect_output(page, expected(page, text, "review", KEY, decisions)["output"])
    for mode in ("surrogate", "redact"):
        before = run_started(page)
        page.check(f"input[name=mode][value={mode}]")
        assert wait_run(page, before) == "done"
        assert page.evaluate("window.deid.decisions()") == decisions
        assert page.evaluate("document.getElementById('output').textContent") == \
            expected(page, text, mode, KEY, decisions)["output"], mode
    # An edit keeps them (issue 23 item 1); a new note drops them.
    before = run_started(page)
    page.fill("#input", text + " ")
    wait_run(page, before)
    assert page.evaluate("window.deid.decisions()") == decisions
    before = run_started(page)
    page.fill("#input", "Seen today.")
    wait_run(page, before)
    assert page.evaluate("window.deid.decisions()") == {}


def test_review_in_context(page):
    """A click on a candidate's row, or on its mark in the output, shows the candidate highlighted
    in its sentence of the note, with its reason (the structured explanation's text when the
    engine gives one) and what the output shows in its place; the output mark is outlined."""
    text, review = _note_with_candidates(page)
    ui_run(page, text, "review", key=KEY)
    reasons = page.evaluate("[...document.querySelectorAll('#review-list .cand-reason')].map(e => e.textContent)")
    assert reasons == [f"Amber because {c['explanation']['why_amber']}." if c["explanation"].get("why_amber")
                       else c["explanation"]["text"] for c in review]
    for c in review[:2]:
        page.click(f'#review-list li[data-id="{c["id"]}"] .cand-label')
        ctx = page.evaluate("""(() => { const b = document.getElementById('review-context');
            const m = b.querySelector('.ctx-sentence mark');
            return {hidden: b.hidden, id: b.dataset.id, mark: m && m.textContent,
                    sentence: b.querySelector('.ctx-sentence').textContent, head: b.querySelector('.ctx-head').textContent,
                    outlined: [...document.querySelectorAll('#output mark.current')].map(e => e.dataset.id)}; })()""")
        assert not ctx["hidden"] and ctx["id"] == c["id"]
        assert ctx["mark"] == c["text"]
        assert ctx["sentence"].strip("\u2026") in text
        assert "amber candidate" in ctx["head"]
        assert ctx["outlined"] == [c["id"]]
    # From the output: a click on the second candidate's mark makes it current in the list.
    page.click(f'#output mark[data-id="{review[1]["id"]}"]')
    assert page.evaluate("document.querySelector('#review-list li.current').dataset.id") == review[1]["id"]
    assert page.evaluate("document.getElementById('review-context').dataset.id") == review[1]["id"]


def test_decisions_through_the_api_equal_cpython(page):
    text, review = _note_with_candidates(page)
    decisions = {c["id"]: bool(i % 2) for i, c in enumerate(review)}
    got = page_process(page, text, "review", decisions=decisions)
    assert got == expected(page, text, "review", KEY, decisions)


def test_every_category_is_labelled_without_colour(page):
    """Every mark in the output says its category in text, in every mode: its own text (Redact's
    ``[NAME]``) or a badge (``data-badge``, drawn by the CSS), so no category rests on colour."""
    text = ("Seen by Dr. Helen Achterberg on 09/14/2016 at Mercy Hospital, Springfield, MA. "
            "MRN 00781245. Phone 617-555-0144. She is 94 years old, a retired teacher. Foley catheter out.")
    for mode in ("redact", "surrogate", "review"):
        ui_run(page, text, mode)
        marks = page.evaluate("""[...document.querySelectorAll('#output mark')].map(m => [m.dataset.cat,
            m.textContent, m.dataset.badge || '', getComputedStyle(m, '::after').content])""")
        assert marks, mode
        for cat, shown, badge, content in marks:
            if badge:
                assert badge.startswith(cat) and cat in content, (mode, cat, shown, content)
            else:
                assert f"[{cat}" in shown or cat in shown, (mode, cat, shown)
        if mode == "surrogate":
            assert all(badge for _, _, badge, _ in marks)


def test_copied_and_downloaded_surrogate_text_starts_with_a_warning(page):
    text = "Maria Lopez was seen on 03/05/2014 at Mercy Hospital, Springfield."
    out = ui_run(page, text, "surrogate")
    assert page.evaluate("document.getElementById('banner-on').checked")
    exported = page.evaluate("window.deid.exportText()")
    first, rest = exported.split("\n", 1)
    assert first.startswith("WARNING: surrogate text, not a real record") and rest == out
    with page.expect_download() as info:
        page.click("#download")
    assert Path(info.value.path()).read_text(encoding="utf-8") == exported
    page.click("summary:has-text('Advanced')")
    page.click("#banner-on")
    page.click("#banner-off")
    assert page.evaluate("window.deid.exportText()") == out
    page.check("#banner-on")
    page.click("summary:has-text('Advanced')")
    assert ui_run(page, text, "redact") == page.evaluate("window.deid.exportText()")


def test_a_model_failure_falls_back_to_the_rules_with_a_warning(page):
    text = "Mrs. Okonkwo, a retired teacher from Glasgow, was seen at Saint Brigid Infirmary."
    got = page.evaluate("(t) => window.deid.processDetailed(t, {mode: 'redact', key: 'k', simulateModelFailure: true})", text)
    if MODEL is None:
        assert got["engine"] == "rules" and got["warning"] is None
        return
    assert got["engine"] == "rules-fallback"
    assert got["warning"].startswith("The model failed on this note")
    assert got["result"] == as_json(process(text, mode="redact", key="k"))
    set_rules_only(page, False)
    page.evaluate("window.deid.failModelOnNextRun()")
    assert ui_run(page, text, "redact") == process(text, mode="redact", key=KEY)["output"]
    assert page.evaluate("document.body.dataset.engine") == "rules-fallback"
    assert page.is_visible("#run-warning")
    assert page.evaluate("document.getElementById('run-status').textContent").endswith(
        "Rules only: the AI model failed on this note.")
    ui_run(page, text, "redact")
    assert page.is_hidden("#run-warning")


def note_of(size: int) -> str:
    parts = [n["text"] for n in corpus_notes()] or [t for _, t in NOTES]
    text = ""
    while len(text) < size:
        text += "\n\n".join(parts)
    return text[:size]


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_a_long_note_with_the_model_equals_cpython(page):
    """A 60 KB note (several chunks of windows, run in slices): the page's spans equal CPython's
    (onnxruntime in CPython, chunked as the pipeline says). Progress, the rules' result first and
    Cancel: tests/test_page_clinician.py (issue 23 item 4)."""
    from deid_core.ner.pipeline import NerModel
    text = note_of(60_000)
    assert len(NerModel.load().prepare(text).chunks(NerModel.load().max_batch)) >= 2
    pytest.importorskip("onnxruntime")
    want = as_json(process(text, mode="redact", key=KEY, model_spans=[s.to_dict() for s in cpython_ner().spans(text)]))
    got = page.evaluate("([t, k]) => window.deid.processDetailed(t, {mode: 'redact', key: k})", [text, KEY])
    assert got["engine"] == "ensemble"
    assert got["result"] == want


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_the_self_benchmark_does_not_block_de_identify_and_cancels(page):
    set_rules_only(page, False)
    page.click("#bench-run")
    poll(page, "document.getElementById('bench-progress').value >= 1", timeout=300)
    assert page.evaluate("document.body.dataset.bench") == "working"
    assert "De-identify still works" in page.evaluate("document.getElementById('bench-status').textContent")
    text = "Seen by Dr. Helen Achterberg on 09/14/2016. MRN 00781245."
    assert ui_run(page, text, "redact") == expected(page, text, "redact")["output"]
    assert page.evaluate("document.body.dataset.engine") == "ensemble"
    assert page.evaluate("document.body.dataset.bench") == "working"
    page.click("#bench-cancel")
    assert poll(page, "document.body.dataset.bench !== 'working' && document.body.dataset.bench", timeout=120) \
        == "cancelled"
    assert page.evaluate("document.getElementById('bench-status').textContent") == "cancelled"
    assert page.evaluate("document.getElementById('bench-run').disabled") is False


def _figures(report: dict, cat: str | None) -> list[float]:
    """[recall, precision] certain, then with review, for ``cat`` (None: overall)."""
    out = []
    for setting in ("certain", "with_review"):
        f = report[setting]["overall"] if cat is None else report[setting]["per_category"][cat]
        out += [f["recall"], f["precision"]]
    return out


def _page_benchmark(page) -> dict:
    """The page's last self-benchmark with the model ({rules, ensemble}); runs one if none."""
    last = page.evaluate("window.deid.lastBenchmark()")
    if not last or (MODEL is not None and not last.get("ensemble")):
        last = page.evaluate("window.deid.benchmark()")
    return last


def test_self_benchmark_equals_cpython_to_the_last_digit(page):
    """Rules only and rules + model side by side in the page's table. Rules only equals
    ``deid eval --rules-only`` in CPython to the last digit; rules + model equals CPython's scoring
    of the ensemble made from the model spans the page computed (``model_spans`` in its report)."""
    if not CORPUS.is_file():
        pytest.skip("corpus/notes.jsonl is missing")
    from deid_core.analyze import analyze
    from deid_core.api import residual_risk_summary
    from deid_core.ensemble import spans_from_dicts
    from deid_core.evaluate import evaluate, evaluate_corpus_json
    from deid_core.readers import parse_jsonl
    corpus = CORPUS.read_text(encoding="utf-8")
    rules = json.loads(evaluate_corpus_json(corpus))
    embedded = page.evaluate("window.deid.corpus()")["notes"]
    assert [n["text"] for n in embedded] == [n["text"] for n in corpus_notes()], \
        "the page holds a different corpus: rebuild it (python build.py)"

    if MODEL is not None:
        set_rules_only(page, False)
    page.click("#bench-run")
    poll(page, "document.body.dataset.bench !== 'working' && document.body.dataset.bench", timeout=900,
         interval=0.5)
    assert page.evaluate("document.getElementById('bench-status').textContent") == "done"
    shown = page.evaluate("window.deid.lastBenchmark()")
    ensemble = None
    if MODEL is not None:
        by_id = shown["ensemble"]["model_spans"]
        docs = parse_jsonl(corpus)
        assert sorted(by_id) == sorted(str(d.id) for d in docs)
        spans = {d.text: spans_from_dicts(by_id[str(d.id)], d.text) for d in docs}
        ensemble = json.loads(json.dumps(evaluate(
            docs, lambda t: analyze(t, model=spans[t]).spans, details=True), sort_keys=True))
        got = {k: v for k, v in shown["ensemble"].items()
               if k not in ("seconds", "wall_seconds", "model_seconds", "backend", "model_spans",
                            "risk_summary")}
        ensemble.pop("seconds")
        assert got == ensemble
        # the residual-risk line the panel shows is derived from those same figures
        assert shown["ensemble"]["risk_summary"] == json.loads(json.dumps(
            residual_risk_summary(ensemble["residual_risk"], "invented notes like these")))
        assert shown["ensemble"]["backend"] == page.model_ready["backend"]
    else:
        assert shown["ensemble"] is None

    rows = page.evaluate("""[...document.querySelectorAll('#bench-table tbody tr')].map(tr =>
        [tr.dataset.category, ...[...tr.querySelectorAll('td')].map(td => [td.dataset.value || null, td.textContent])])""")
    table = {r[0]: r[1:] for r in rows}
    for cat in [None, *rules["with_review"]["per_category"]]:
        got = table["ALL" if cat is None else cat]
        gold = rules["phi_characters"] if cat is None else rules["with_review"]["per_category"][cat]["gold"]
        assert [float(v) for v, _ in got[:5]] == [gold, *_figures(rules, cat)], cat
        # Shown as percentages with one decimal.
        assert [t for _, t in got[1:5]] == [f"{100 * x:.1f} %" for x in _figures(rules, cat)], cat
        if ensemble is None:
            assert [t for _, t in got[5:]] == ["\u2013"] * 4
        else:
            assert [float(v) for v, _ in got[5:]] == _figures(ensemble, cat), cat
    summary = page.evaluate("document.getElementById('bench-summary').textContent")
    assert summary.startswith(f"{rules['documents']} notes, {rules['characters']} characters")
    if ensemble is not None:
        assert f"Rules + model ({page.model_ready['backend']}): the model took " in summary
    # The plain-language line, per engine and tier, from the figures themselves.
    plain = page.evaluate("[...document.querySelectorAll('#bench-plain li')].map(li => li.textContent)")
    c, r = rules["certain"]["overall"], rules["with_review"]["overall"]
    assert plain[0] == ("Rules only, certain spans only (what Redact and Surrogate do on their own): "
                        f"misses {100 * (1 - c['recall']):.1f} % of identifier characters; "
                        f"{100 * (1 - c['precision']):.1f} % of what it masks is not an identifier. "
                        f"With every amber candidate masked too: misses {100 * (1 - r['recall']):.1f} % of "
                        f"identifier characters; {100 * (1 - r['precision']):.1f} % of what it masks is not an identifier.")
    assert len(plain) == (1 if ensemble is None else 2)
    assert page.evaluate("document.querySelectorAll('#bench-chart svg rect').length") >= 3
    # No chart label is clipped: every text lies inside the chart's view box.
    outside = page.evaluate("""(() => { const s = document.querySelector('#bench-chart svg');
        const [x0, y0, w, h] = s.getAttribute('viewBox').split(' ').map(Number);
        return [...s.querySelectorAll('text')].map(t => [t.textContent, t.getBBox()])
          .filter(([_, b]) => b.x < x0 || b.y < y0 || b.x + b.width > x0 + w || b.y + b.height > y0 + h)
          .map(([t]) => t); })()""")
    assert outside == []
    # The error viewer lists every miss and false alarm of the corpus, with context.
    report = shown["rules"]
    want = sum(len(n["misses"]) + len(n["false_alarms"]) for n in report["notes"])
    page.select_option("#errors-engine", "rules")
    assert page.evaluate("document.querySelectorAll('#bench-errors tbody tr').length") == want
    if want:
        first = page.evaluate("""(() => { const tr = document.querySelector('#bench-errors tbody tr');
            return [tr.dataset.note, tr.querySelector('mark').textContent, tr.querySelector('td.ctx').textContent]; })()""")
        page.click("#bench-errors tbody tr button.jump")
        idx = int(page.evaluate("document.getElementById('corpus-note').value"))
        assert str(corpus_notes()[idx]["id"]) == first[0]
        assert page.evaluate("document.querySelector('#corpus-text mark.current').textContent") in first[2]

    report = page.evaluate("window.deid.benchmark({rulesOnly: true})")
    assert report["ensemble"] is None
    for r in (report["rules"], rules):
        r.pop("seconds"), r.pop("wall_seconds", None)
    risk = report["rules"].pop("risk_summary")
    assert report["rules"] == rules
    assert risk == json.loads(json.dumps(residual_risk_summary(rules["residual_risk"],
                                                               "invented notes like these")))


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_self_benchmark_with_the_model_equals_deid_eval(page):
    """The page's rules + model figures equal ``deid eval`` with the model in CPython."""
    if not CORPUS.is_file():
        pytest.skip("corpus/notes.jsonl is missing")
    from deid_core.analyze import analyze
    from deid_core.evaluate import evaluate
    from deid_core.readers import parse_jsonl
    ner = cpython_ner()
    want = json.loads(json.dumps(evaluate(parse_jsonl(CORPUS.read_text(encoding="utf-8")),
                                          lambda t: analyze(t, model=ner.spans(t)).spans),
                                 sort_keys=True))
    got = _page_benchmark(page)["ensemble"]
    for setting in ("certain", "with_review"):
        assert got[setting] == want[setting], setting


def test_corpus_viewer_marks_the_gold_spans(page):
    """The viewer shows a note's text with exactly its gold spans marked (before any benchmark):
    the marked characters are the gold characters, on a note that has some (issue 19: the test
    used to pass whenever a note had no gold span)."""
    notes = corpus_notes()
    if not notes:
        pytest.skip("corpus/notes.jsonl is missing")
    assert page.evaluate("document.getElementById('corpus-note').options.length") == len(notes)
    index = next(i for i, n in enumerate(notes) if len(n["spans"]) >= 3)
    page.select_option("#corpus-note", str(index))
    note = notes[index]
    assert page.evaluate("document.getElementById('corpus-text').textContent") == note["text"]
    marks = page.evaluate("""[...document.querySelectorAll('#corpus-text mark')].map(m =>
        [Number(m.dataset.start), Number(m.dataset.start) + m.textContent.length, m.className])""")
    gold = set()
    for s in note["spans"]:
        gold.update(range(s["start"], s["end"]))
    shown, false = set(), set()
    for a, b, kind in marks:
        (false if kind == "false" else shown).update(range(a, b))
    # gold characters are marked found (hit) or missed; a false alarm (shown once a
    # self-benchmark has run in this page) lies outside gold
    assert marks and shown == gold and not false & gold
    if page.evaluate("window.deid.lastBenchmark()") is None:
        assert {kind for _, _, kind in marks} == {"hit"}


def test_lists_section_shows_provenance(page):
    """Every embedded list with its provenance: all of lists/ but those no module of the page
    reads (build.py leaves them out and names them in the manifest)."""
    from deid_core.lists import provenance
    left_out = set(page_manifest().get("lists_left_out") or ())
    rows = page.evaluate("""[...document.querySelectorAll('#lists-table tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.textContent))""")
    assert rows == [[p["file"], str(p["count"]), p["source"], p["licence"]] for p in provenance()
                    if p["file"] not in left_out]


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
    try:
        for rules_only in (True, False):
            set_rules_only(page, rules_only or MODEL is None)
            for mode in ("redact", "review"):
                out = ui_run(page, text, mode)
                assert out == expected(page, text, mode, rules_only=rules_only)["output"]
                if rules_only:   # the model may mask pieces of the markup; the rules do not
                    assert "<img src=x onerror=" in out and "</script>" in out
    finally:
        if MODEL is not None:
            set_rules_only(page, False)
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
    want = expected(page, text, "redact", key=None)["output"]
    assert "\r\n" in want
    expect_output(page, want)


def test_nothing_is_stored(page):
    page_process(page, "Maria Lopez 03/05/2014", "surrogate", key="secret-key")
    assert page.evaluate("localStorage.length") == 0
    assert page.evaluate("sessionStorage.length") == 0
    assert page.evaluate("document.cookie") == ""
    assert page.evaluate("indexedDB.databases().then(d => d.length)") == 0


def note_of_200_kb() -> str:
    parts = [n["text"] for n in corpus_notes()] or [t for _, t in NOTES]
    text = ""
    while len(text) < 200_000:
        text += "\n\n".join(parts)
    return text[:200_000]


def test_a_200_kb_note_completes(page):
    text = note_of_200_kb()
    got = page_process(page, text, "redact", rules_only=True)
    assert got["output"] == process(text, mode="redact")["output"]


@pytest.mark.skipif(MODEL is None, reason="the page was built without the NER model")
def test_a_200_kb_note_completes_with_the_model(page):
    """About 950 windows, run in the pipeline's chunks of at most 64 (as in the CLI)."""
    text = note_of_200_kb()
    got = page_process(page, text, "redact")
    # A span is PHI when the rules OR the model say so: every character the rules mask stays masked.
    rules = process(text, mode="redact")["spans"]
    covered = set()
    for s in got["spans"]:
        covered.update(range(s["start"], s["end"]))
    lost = [text[s["start"]:s["end"]] for s in rules
            if any(i not in covered for i in range(s["start"], s["end"]) if not text[i].isspace())]
    assert lost == [], f"the ensemble unmasks characters the rules mask: {lost[:5]}"
    # the model ran over the whole note, chunk after chunk: its spans reach both ends of it
    ner = [s["start"] for s in got["spans"] if s["source"].startswith("ner:")]
    assert ner and min(ner) < len(text) // 4 and max(ner) > 3 * len(text) // 4


@pytest.mark.skipif(not ASQ.is_file(), reason="../shared/corpora/asq-phi is not here")
@pytest.mark.parametrize("mode", ["redact", "surrogate"])
def test_asq_phi_twenty_records_equal_cpython(page, mode):
    records = [json.loads(line) for line in ASQ.read_text(encoding="utf-8").splitlines()[:20]]
    texts = [r["text"] for r in records]
    got = page.evaluate("""async ([texts, key, mode]) => {
        const out = [];
        for (const t of texts) out.push(await window.deid.process(t, {mode, key}));
        return out; }""", [texts, KEY, mode])
    assert got == [expected(page, t, mode) for t in texts]


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
    assert out.stat().st_size <= 25_000_000


# Corpus rules on the page: an invented rules.json (one PHI-free sentence, one template "seen by
# <W> <W>" for a DOCTOR) loaded from disk through the file input, applied by the CLI's loader.
# Foley catheter, Parkinson disease and PS 10/5 stay as text.
RULES_NOTE = ("Pt: John Smith, stable.\nCall 617-555-0199 with questions.\nSeen by zorblat quinnick.\n"
              "Foley catheter in place; Parkinson disease; PS 10/5.\n")


def test_corpus_rules_file_is_applied_and_shown_in_review(page):
    from deid_core.harvest import HarvestRules, Template
    rules = HarvestRules(sentences=["Pt: John Smith, stable."], templates=[
        Template(1, ("seen", "by", "<W>", "<W>"), (("DOCTOR", 0), ("DOCTOR", 0)), 5, 3, "review")])
    page.set_input_files("#corpus-rules", files=[{"name": "rules.json", "mimeType": "application/json",
                                                  "buffer": rules.to_json().encode("utf-8")}])
    try:
        assert poll(page, "['loaded', 'error'].includes(document.body.dataset.corpusRules) && "
                          "document.body.dataset.corpusRules") == "loaded"
        assert page.evaluate("document.getElementById('corpus-rules-status').textContent") == \
            "rules.json: 1 PHI-free sentences, 1 template rules"
        got = page_process(page, RULES_NOTE, "redact", rules_only=True)
        want = as_json(process(RULES_NOTE, mode="redact", key=KEY, rules=rules))
        assert got == want
        assert got["phi_free"] == [[0, 23]]
        assert [(s["text"], s["label"], s["tier"], s["source"]) for s in got["spans"]] == [
            ("617-555-0199", "PHONE", "certain", "contact:phone_us"),
            ("zorblat quinnick", "DOCTOR", "review", "harvest:template:1")]
        if MODEL is not None:   # a page without the model has it checked and disabled
            set_rules_only(page, True)
        ui_run(page, RULES_NOTE, "review")
        rows = page.evaluate("""[...document.querySelectorAll('#review-list li')].map(li =>
            [li.querySelector('.cand-text').textContent, li.dataset.source])""")
        assert rows == [["zorblat quinnick", "harvest:template:1"]]
        free = page.evaluate("""[...document.querySelectorAll('#phi-free-list li')].map(li =>
            [li.querySelector('.cand-text').textContent, li.dataset.source])""")
        assert free == [["Pt: John Smith, stable.", "harvest:sentence"]]
        assert page.evaluate("document.getElementById('phi-free').hidden") is False
    finally:
        page.evaluate("window.deid.corpusRules(null)")
        poll(page, "document.body.dataset.corpusRules === 'none'")
        if MODEL is not None:
            set_rules_only(page, False)
    assert page_process(page, RULES_NOTE, "redact", rules_only=True)["phi_free"] == []
