#!/usr/bin/env python3
"""Benchmark the offline page (not a test): file size, cold ready time, a 5 KB note, the self-benchmark.

Usage::

    python scripts/bench_page.py [--page dist/deid.html] [--loads 5]

Opens the page by its file:// URL in Debian's headless Chromium with the network off, launched
and polled by the page tests' helpers (``tests/pagehelpers.py``), and prints:

* the file's size in bytes and MB;
* cold ready time: seconds from navigation until ``<body data-state="ready">``, each load in a fresh
  browser context, the median of ``--loads`` loads (polled every 20 ms, so +-0.02 s);
* with the NER model in the page: model ready time (seconds from navigation until
  ``window.deid.modelReady`` resolves, same loads, median) and the backend that runs it;
* seconds to de-identify a 5 KB note (redact mode, median of 5 calls through ``window.deid.process``,
  timed inside the page with ``performance.now()``), rules only and with the model;
* notes per second on ~1 KB notes (corpus notes cut to 1,000 characters at a line end, one call
  after another through ``window.deid.process``), rules only and with the model;
* seconds for a 200 KB note (the 5 KB note repeated), once, rules only and (unless
  ``--skip-200kb-model``) with the model;
* seconds for a 1 MB note (the 5 KB note repeated) with the model (``--one-mb``; several minutes
  on WASM): the worker runs it in the pipeline's chunks of at most 64 windows; printed with the
  engine that answered ("ensemble", or "rules-fallback" with the page's warning when the model
  failed on it);
* the self-benchmark's run time in the page: rules only (engine time over the corpus, and the whole
  call measured in the page) and, with the model, the model's run over every corpus note and the
  ensemble's scoring, with both sets of figures side by side.

Headless Chromium here runs with ``--disable-gpu``: no WebGPU adapter, so the model runs on WASM
with one thread (a ``file://`` page cannot be cross-origin isolated, so no threads).

Bars from the issue: file <= 40 MB, ready <= 5 s, 5 KB note < 0.5 s with the rules.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from deid_core import jsonl  # noqa: E402
from pagehelpers import launch_chromium, poll  # noqa: E402  (the page tests' helpers)


def corpus_texts() -> list[str]:
    """The texts of ``corpus/notes.jsonl`` (read with the project's JSONL reader), or ``[]``."""
    corpus = ROOT / "corpus" / "notes.jsonl"
    return [r["text"] for r in jsonl.parse(corpus.read_text(encoding="utf-8"), str(corpus))] \
        if corpus.is_file() else []


def five_kb_note() -> str:
    """About 5,000 characters of invented clinical text (corpus notes, else a fixed paragraph)."""
    parts = corpus_texts()
    if not parts:
        parts = ["Seen by Dr. Helen Achterberg on 09/14/2016 for atrial fibrillation. MRN 00781245. "
                 "Daughter Maria called from Springfield, MA at 617-555-0144. Foley catheter removed."]
    text = ""
    i = 0
    while len(text) < 5000:
        text += parts[i % len(parts)] + "\n\n"
        i += 1
    return text[:5000]


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
    """The page's ``data-state`` once it is no longer ``loading`` (``ready``, or a failure),
    polled every 20 ms; ``"loading"`` when it still is after ``timeout`` seconds."""
    try:
        return poll(page, "(s => s !== 'loading' && String(s))(document.body.dataset.state)",
                    timeout, interval=0.02)
    except AssertionError:
        return "loading"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", type=Path, default=ROOT / "dist" / "deid.html")
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--skip-200kb-model", action="store_true",
                    help="leave out the 200 KB note with the model (over a minute on WASM)")
    ap.add_argument("--one-mb", action="store_true",
                    help="also run a 1 MB note with the model (several minutes on WASM)")
    ap.add_argument("--skip-ensemble-benchmark", action="store_true",
                    help="leave out the self-benchmark with the model (runs it on every corpus note)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    page_path = args.page.resolve()
    if not page_path.is_file():
        print(f"{page_path} is missing: run python build.py", file=sys.stderr)
        return 1
    size = page_path.stat().st_size
    print(f"file size            {size:,} bytes ({size / 1e6:.1f} MB)")
    with sync_playwright() as p:
        browser = launch_chromium(p)
        times = []
        model_times = []
        model = None
        for _ in range(args.loads):
            context = browser.new_context()
            context.set_offline(True)
            page = context.new_page()
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
        print(f"cold ready time      median {statistics.median(times):.2f} s of {len(times)} loads "
              f"({', '.join(f'{t:.2f}' for t in times)})")
        has_model = model["backend"] != "unavailable"
        if has_model:
            print(f"model ready time     median {statistics.median(model_times):.2f} s from navigation "
                  f"({', '.join(f'{t:.2f}' for t in model_times)}); backend {model['backend']} "
                  f"({model['notes'] or 'WebGPU adapter found'}); model {model['name']}")
        else:
            print(f"model                none ({model['error']})")

        context = browser.new_context()
        context.set_offline(True)
        page = context.new_page()
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
                  f"({len(note)} characters; first call excluded)")
        small = one_kb_notes()
        for name, rules_only in engines:
            secs = page.evaluate("""async ([texts, rulesOnly]) => {
                const t = performance.now();
                for (const text of texts) await window.deid.process(text, {mode: "redact", rulesOnly});
                return (performance.now() - t) / 1000; }""", [small, rules_only])
            print(f"~1 KB notes          {name}: {len(small) / secs:.1f} notes/s ({len(small)} notes of "
                  f"{min(map(len, small))}-{max(map(len, small))} characters in {secs:.2f} s)")
        big = (note * 41)[:200_000]
        for name, rules_only in engines:
            if not rules_only and args.skip_200kb_model:
                continue
            secs = page.evaluate("""async ([text, rulesOnly]) => {
                const t = performance.now();
                await window.deid.process(text, {mode: "redact", rulesOnly});
                return (performance.now() - t) / 1000; }""", [big, rules_only])
            print(f"200 KB note (redact) {name}: {secs:.2f} s")
        if has_model and args.one_mb:
            huge = (note * 205)[:1_000_000]
            got = page.evaluate("""async (text) => {
                const t = performance.now();
                const r = await window.deid.processDetailed(text, {mode: "redact"});
                return {seconds: (performance.now() - t) / 1000, engine: r.engine, warning: r.warning,
                        spans: r.result.spans.length}; }""", huge)
            print(f"1 MB note (redact)   with the model: {got['seconds']:.2f} s, engine {got['engine']}, "
                  f"{got['spans']} spans" + (f"; warning: {got['warning']}" if got["warning"] else ""))
        t = time.monotonic()
        both = page.evaluate("window.deid.benchmark({rulesOnly: true})")
        wall = time.monotonic() - t
        report = both["rules"]
        print(f"self-benchmark       rules only: {report['wall_seconds']:.2f} s in the page "
              f"(engine {report['seconds']:.2f} s, {report['documents']} notes, "
              f"{report['characters']:,} characters; {wall:.2f} s seen from outside)")
        if has_model and not args.skip_ensemble_benchmark:
            t = time.monotonic()
            ens = page.evaluate("window.deid.benchmark()")["ensemble"]
            wall = time.monotonic() - t
            print(f"self-benchmark       with the model: model run {ens['model_seconds']:.2f} s over the "
                  f"corpus ({ens['backend']}), ensemble scoring {ens['wall_seconds']:.2f} s; "
                  f"{wall:.2f} s seen from outside")
        else:
            ens = None
        for name, r in (("rules only", report), ("with the model", ens)):
            if r is None:
                continue
            w = r["with_review"]["overall"]
            c = r["certain"]["overall"]
            print(f"in-page figures      {name}: recall certain {c['recall']}  with review {w['recall']}  "
                  f"precision certain {c['precision']}  with review {w['precision']}")
        context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
