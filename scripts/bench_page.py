#!/usr/bin/env python3
"""Benchmark the offline page (not a test): size by part, ready time, notes with and without the
model, a 1 MB note with the model, Cancel latency.

Usage::

    python scripts/bench_page.py [--page dist/deid.html] [--loads 3] [--skip-1mb] [--benchmark]

Opens the page by its file:// URL in Debian's headless Chromium with the network off, launched
and polled by the page tests' helpers (``tests/pagehelpers.py``), and prints, with the machine's
load average (1, 5, 15 minutes) before and after, since every time here depends on it:

* the file's size, by part (the build's table in the page's manifest: Pyodide, onnxruntime-web,
  the model, the word lists, the engine, the corpus, the page's own code);
* ready time: seconds from navigation until ``<body data-state="ready">``, each load in a fresh
  browser context, the median of ``--loads`` (polled every 20 ms, so +-0.02 s); with the model,
  the model's ready time from navigation (same loads) and its seconds per window;
* a 5 KB note (redact, median of 5 calls through ``window.deid.process``, timed in the page with
  ``performance.now()``), rules only and with the model; ~1 KB notes per second, both;
* a 1 MB note with the model (``--skip-1mb`` leaves it out): corpus lines numbered so that no
  model window repeats another (the model skips repeated windows, so a note pasted over and over
  would measure nothing), with the engine that answered and the windows the model ran;
* Cancel latency: a 300 KB note (same kind) run from the UI with the model, Cancel clicked once
  the model's progress shows, seconds until ``data-run="cancelled"``, median of 3; the rules'
  result must still be shown (printed);
* with ``--benchmark``, the self-benchmark's run time in the page, rules only and with the model.

Headless Chromium here runs with ``--disable-gpu``: the model runs on WASM with one thread (a
``file://`` page cannot be cross-origin isolated). Bars (issue 23): page <= 25 MB with the model,
ready <= 2 s (median of 3, load average stated), 1 MB with the model <= 60 s, Cancel <= 1 s.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
import build  # noqa: E402
from deid_core import jsonl  # noqa: E402
from pagehelpers import launch_chromium, poll, run_started, set_note, wait_run  # noqa: E402


def load() -> str:
    """The load average now, as ``load 1.23 / 0.98 / 0.50``."""
    a, b, c = os.getloadavg()
    return f"load {a:.2f} / {b:.2f} / {c:.2f}"


def corpus_texts() -> list[str]:
    """The texts of ``corpus/notes.jsonl`` (read with the project's JSONL reader), or ``[]``."""
    corpus = ROOT / "corpus" / "notes.jsonl"
    return [r["text"] for r in jsonl.parse(corpus.read_text(encoding="utf-8"), str(corpus))] \
        if corpus.is_file() else []


def five_kb_note() -> str:
    """About 5,000 characters of invented clinical text (corpus notes, else a fixed paragraph)."""
    parts = corpus_texts() or ["Seen by Dr. Helen Achterberg on 09/14/2016 for atrial fibrillation. MRN 00781245. "
                               "Daughter Maria called from Springfield, MA at 617-555-0144. Foley catheter removed."]
    text, i = "", 0
    while len(text) < 5000:
        text += parts[i % len(parts)] + "\n\n"
        i += 1
    return text[:5000]


def long_note(size: int) -> str:
    """``size`` characters of corpus lines, each numbered, so that no model window repeats."""
    parts = corpus_texts() or [five_kb_note()]
    text, k = "", 0
    while len(text) < size:
        for line in parts[k % len(parts)].splitlines():
            text += f"{len(text) % 99991:05d} {line}\n"
        k += 1
    return text[:size]


def one_kb_notes(n: int = 30) -> list[str]:
    """``n`` notes of about 1,000 characters: corpus notes cut at the last line end before 1,000."""
    out = []
    for t in corpus_texts():
        if len(t) >= 900:
            cut = t[:1000]
            out.append(cut[:cut.rfind("\n")] if cut.rfind("\n") > 800 else cut)
        if len(out) == n:
            break
    return out or [five_kb_note()[:1000]] * n


def wait_ready(page, timeout: float = 120.0) -> str:
    """The page's ``data-state`` once it is no longer ``loading``, polled every 20 ms."""
    try:
        return poll(page, "(s => s !== 'loading' && String(s))(document.body.dataset.state)", timeout, interval=0.02)
    except AssertionError:
        return "loading"


def fresh_page(browser):
    context = browser.new_context()
    context.set_offline(True)
    return context, context.new_page()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", type=Path, default=ROOT / "dist" / "deid.html")
    ap.add_argument("--loads", type=int, default=3)
    ap.add_argument("--skip-1mb", action="store_true", help="leave out the 1 MB note with the model")
    ap.add_argument("--cancels", type=int, default=3)
    ap.add_argument("--benchmark", action="store_true", help="also time the self-benchmark (the model on every corpus note)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    page_path = args.page.resolve()
    if not page_path.is_file():
        print(f"{page_path} is missing: run python build.py", file=sys.stderr)
        return 1
    size = page_path.stat().st_size
    print(f"machine              {os.cpu_count()} CPUs, {load()}")
    print(f"file size            {size:,} bytes ({size / 1e6:.2f} MB), by part:")
    build.print_sizes(page_path)
    with sync_playwright() as p:
        browser = launch_chromium(p)
        times, model_times, model = [], [], None
        before = load()
        for _ in range(args.loads):
            context, page = fresh_page(browser)
            t0 = time.monotonic()
            page.goto(page_path.as_uri(), wait_until="commit")
            state = wait_ready(page)
            times.append(time.monotonic() - t0)
            if state != "ready":
                print("page failed:", page.evaluate("document.getElementById('load-status').textContent"))
                return 1
            model = page.evaluate("window.deid.modelReady")
            model_times.append(time.monotonic() - t0)
            context.close()
        print(f"ready time           median {statistics.median(times):.2f} s of {len(times)} loads "
              f"({', '.join(f'{t:.2f}' for t in times)}); {before} before, {load()} after")
        has_model = model["backend"] != "unavailable"
        if has_model:
            print(f"model ready time     median {statistics.median(model_times):.2f} s from navigation "
                  f"({', '.join(f'{t:.2f}' for t in model_times)}); backend {model['backend']}; model {model['name']}; "
                  f"{model['windowSeconds']:.3f} s per window after the warm-up")
        else:
            print(f"model                none ({model['error']})")

        context, page = fresh_page(browser)
        page.goto(page_path.as_uri())
        wait_ready(page)
        page.evaluate("window.deid.modelReady")
        engines = [("rules only", True)] + ([("with the model", False)] if has_model else [])
        note = five_kb_note()
        for name, rules_only in engines:
            runs = page.evaluate("""async ([text, rulesOnly]) => {
                const out = [];
                for (let i = 0; i < 6; i++) {
                    const t = performance.now();
                    await window.deid.process(text, {mode: "redact", rulesOnly});
                    out.push((performance.now() - t) / 1000);
                }
                return out.slice(1); }""", [note, rules_only])
            print(f"5 KB note (redact)   {name}: median {statistics.median(runs):.3f} s of {len(runs)} "
                  f"({len(note)} characters; first call excluded); {load()}")
        small = one_kb_notes()
        for name, rules_only in engines:
            secs = page.evaluate("""async ([texts, rulesOnly]) => {
                const t = performance.now();
                for (const text of texts) await window.deid.process(text, {mode: "redact", rulesOnly});
                return (performance.now() - t) / 1000; }""", [small, rules_only])
            print(f"~1 KB notes          {name}: {len(small) / secs:.1f} notes/s ({len(small)} notes in {secs:.2f} s)")
        if has_model and not args.skip_1mb:
            from deid_core.ner.pipeline import NerModel
            huge = long_note(1_000_000)
            windows = NerModel.load().prepare(huge).dims[0]
            got = page.evaluate("""async (text) => {
                const t = performance.now();
                const r = await window.deid.processDetailed(text, {mode: "redact"});
                return {seconds: (performance.now() - t) / 1000, engine: r.engine, warning: r.warning,
                        spans: r.result.spans.length}; }""", huge)
            print(f"1 MB note (redact)   with the model: {got['seconds']:.1f} s, engine {got['engine']}, "
                  f"{windows} model windows, {got['spans']} spans; {load()}"
                  + (f"; warning: {got['warning']}" if got["warning"] else ""))
        if has_model and args.cancels:
            text = long_note(300_000)
            lat, kept = [], []
            page.evaluate("document.getElementById('rules-only').checked = false")
            for k in range(args.cancels):
                before_run = run_started(page)
                set_note(page, text[k:])
                poll(page, "document.body.dataset.partial === '1' && document.getElementById('run-progress').value > 0", 600)
                t0 = time.monotonic()
                page.click("#run-cancel")
                outcome = wait_run(page, before_run, 600, interval=0.01)
                lat.append(time.monotonic() - t0)
                kept.append(outcome == "cancelled" and page.evaluate("document.body.dataset.engine") == "rules"
                            and len(page.evaluate("document.getElementById('output').textContent")) > 0)
            print(f"Cancel latency       median {statistics.median(lat):.2f} s of {len(lat)} "
                  f"({', '.join(f'{t:.2f}' for t in lat)}), 300 KB note during the model's run; "
                  f"rules' result kept: {all(kept)}; {load()}")
        if args.benchmark:
            t = time.monotonic()
            report = page.evaluate("window.deid.benchmark({rulesOnly: true})")["rules"]
            print(f"self-benchmark       rules only: {report['wall_seconds']:.2f} s in the page "
                  f"({report['documents']} notes; {time.monotonic() - t:.2f} s seen from outside)")
            if has_model:
                t = time.monotonic()
                ens = page.evaluate("window.deid.benchmark()")["ensemble"]
                print(f"self-benchmark       with the model: model {ens['model_seconds']:.2f} s over the corpus, "
                      f"scoring {ens['wall_seconds']:.2f} s; {time.monotonic() - t:.2f} s seen from outside")
        context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
