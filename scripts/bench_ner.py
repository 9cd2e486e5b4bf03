"""Benchmark the CLI's engine with and without the NER model in CPython: notes per CPU-second.

First line: the CPU and its integer instructions (avx2, avx512f, avx512_vnni, avx_vnni,
amx_int8: which kernels onnxruntime's integer products take). Then ``--detect`` (default: the
real-notes development half, ``../shared/corpora/physionet-deid-dev/physionet_deid_dev.jsonl``,
when present): every note of that JSONL file through what ``deid detect`` runs (the model's spans
of all the notes in batches, :meth:`OnnxNer.spans_many`, then the rules and the ensemble), as
notes per CPU-second of this process (user + system, onnxruntime's threads included; the model's
loading not counted, printed apart). Then the figures below on ~1 KB pieces of ``--corpus``.

Usage: python scripts/bench_ner.py [--corpus corpus/notes.jsonl] [--seconds 10] [--threads N]
       [--model-dir DIR] [--model-form integer|exact|fast] [--integer] [--stride S] [--options]
       [--notes N] [--detect NOTES.jsonl|none]

Prints, for the same ~1 KB notes (cut from the corpus at line boundaries, as
``scripts/bench_engine.py`` does): rules only (``analyze``), the model alone (``OnnxNer.spans``:
pre-processing, one ``session.run`` per note, post-processing) and the ensemble
(``analyze(text, model=...)``, what ``deid detect`` runs), plus windows per note and the time of one
5 KB note. Asserts nothing (speed is reported, not tested). ``--threads`` sets onnxruntime's
intra-op threads (default: the CLI's, ``$DEID_NER_THREADS`` else 1; 0: onnxruntime's choice).

``--model-form fast`` runs the fast form (``model/fast/``, integer matrix products,
:mod:`deid_core.ner.int8`); ``--integer`` runs the ``--model-dir`` model itself in integer form. Every run prints ms per 128-token window of the form run (``session.run`` alone, on the
batches the pipeline makes for the notes, wall and process CPU time: CPU time holds when other
people share the cores). ``--options`` also tries onnxruntime session options (intra-op threads,
graph optimisation level, execution mode) on the same batches and says, for each, on how many of
the first ``--notes`` notes the model's spans differ from the shipped session's (the page's
onnxruntime-web must give the CLI's spans, so a form that changes them cannot ship as is).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deid_core import analyze  # noqa: E402
from deid_core.ner.int8 import CLI_FORM, FORMS  # noqa: E402
from deid_core.ner.onnx_runtime import OnnxNer  # noqa: E402
from deid_core.readers import read_corpus  # noqa: E402

from bench_engine import one_kb_notes  # noqa: E402  (same folder: sys.path[0])

REAL_NOTES = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / \
    "physionet-deid-dev" / "physionet_deid_dev.jsonl"
FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")


def cpu_line() -> str:
    """``model name; flags: avx2 yes, ...`` from /proc/cpuinfo (Linux; else the platform)."""
    import platform
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return f"cpu: {platform.processor() or platform.machine()} (no /proc/cpuinfo)"
    name = next((l.split(":", 1)[1].strip() for l in info.splitlines() if l.startswith("model name")), "?")
    flags = set(next((l.split(":", 1)[1].split() for l in info.splitlines() if l.startswith("flags")), []))
    import os
    return f"cpu: {name}, {os.cpu_count()} cores; " + ", ".join(
        f"{f} {'yes' if f in flags else 'no'}" for f in FLAGS)


def detect_rate(ner, path: Path) -> None:
    """Print notes per CPU-second of the detect path over every note of ``path``."""
    import json
    import os
    texts = [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    c0 = os.times()
    spans = ner.spans_many(texts)
    c1 = os.times()
    for t, sp in zip(texts, spans):
        analyze(t, model=sp)
    c2 = os.times()
    model = (c1.user - c0.user) + (c1.system - c0.system)
    total = (c2.user - c0.user) + (c2.system - c0.system)
    print(f"detect on {path.name}: {len(texts)} notes, {total:.1f} CPU-s "
          f"(model {model:.1f}, rules and ensemble {total - model:.1f}): "
          f"{len(texts) / total:.1f} notes per CPU-second", flush=True)


def rate(fn, notes: list[str], seconds: float) -> tuple[float, int]:
    """Run ``fn`` over ``notes`` (cycling) for about ``seconds``; (notes per second, notes run)."""
    n = 0
    t0 = time.perf_counter()
    while True:
        for note in notes:
            fn(note)
            n += 1
        if time.perf_counter() - t0 >= seconds:
            break
    return n / (time.perf_counter() - t0), n


def _session(path: str | bytes, threads: int, level: str, mode: str, spin: bool = True):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    if not spin:   # idle threads sleep instead of spinning (cheaper on shared cores)
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    opts.execution_mode = getattr(ort.ExecutionMode, mode)
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])


def window_ms(session, feeds_list: list[dict], output: str, seconds: float) -> tuple[float, float]:
    """(wall ms, process CPU ms) per window of ``session.run`` over the prepared batches,
    cycling for about ``seconds``."""
    import os
    wins = 0
    t0, c0 = time.perf_counter(), os.times()
    done = False
    while not done:
        for feeds in feeds_list:
            session.run([output], feeds)
            wins += len(feeds["input_ids"])
            if time.perf_counter() - t0 >= seconds:
                done = True
                break
    c1 = os.times()
    cpu = (c1.user - c0.user) + (c1.system - c0.system)
    return 1000 * (time.perf_counter() - t0) / wins, 1000 * cpu / wins


def options(ner, notes: list[str], seconds: float, n_check: int) -> None:
    """ms per window for each session option tried, and the notes whose spans change."""
    import numpy as np
    path = str(ner.model.onnx_path)
    if ner.model.name.endswith("-int8"):          # the integer form: try the options on it
        from deid_core.ner.int8 import integer_graph
        path = integer_graph(path)[0]
    output = ner._output
    feeds_list = []
    for note in notes:
        prep = ner.model.prepare(note)
        if not prep.windows:
            continue
        arrays = {"input_ids": prep.input_ids, "attention_mask": prep.attention_mask,
                  "case_ids": prep.case_ids}
        feeds_list.append({k: np.asarray(arrays[k], dtype=np.int64) for k in ner._feeds})
    check = notes[:n_check]

    def spans_with(session):
        def infer(ids, mask, case):
            arrays = {"input_ids": ids, "attention_mask": mask, "case_ids": case}
            (out,) = session.run([output], {k: np.asarray(arrays[k], dtype=np.int64)
                                            for k in ner._feeds})
            return out.tolist()
        return [[s.to_dict() for s in ner.model.predict(t, infer)] for t in check]

    shipped = spans_with(ner.session)
    print(f"session options, {sum(len(f['input_ids']) for f in feeds_list)} windows in "
          f"{len(feeds_list)} batches; spans compared on {len(check)} notes")
    tried = [(t, lv, "ORT_SEQUENTIAL", True) for t in (1, 2)
             for lv in ("ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED", "ORT_ENABLE_ALL")]
    tried += [(1, "ORT_ENABLE_BASIC", "ORT_PARALLEL", True), (2, "ORT_ENABLE_BASIC", "ORT_SEQUENTIAL", False)]
    for threads, level, mode, spin in tried:
        sess = _session(path, threads, level, mode, spin)
        wall, cpu = window_ms(sess, feeds_list, output, seconds)
        changed = sum(a != b for a, b in zip(spans_with(sess), shipped))
        print(f"  threads={threads} {level:<20} {mode:<15} spin={'on ' if spin else 'off'} "
              f"{wall:7.2f} ms/window wall, {cpu:7.2f} ms/window CPU, spans differ on "
              f"{changed}/{len(check)} notes", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="corpus/notes.jsonl")
    ap.add_argument("--seconds", type=float, default=10.0, help="time per measured setting")
    ap.add_argument("--threads", type=int, default=None, help="onnxruntime intra-op threads")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--model-form", default=CLI_FORM, choices=FORMS,
                    help=f"the model form (default {CLI_FORM}, the CLI's; deid_core.ner.int8)")
    ap.add_argument("--detect", default=str(REAL_NOTES) if REAL_NOTES.is_file() else None,
                    help="a JSONL file of notes for the detect-path rate (default: the real-notes "
                         "development half when present); 'none' skips it")
    ap.add_argument("--integer", action="store_true",
                    help="run the model in integer form (deid_core.ner.int8.integer_graph)")
    ap.add_argument("--stride", type=int, default=None,
                    help="override the window stride (default: ner.json's, else half a window)")
    ap.add_argument("--options", action="store_true",
                    help="also try onnxruntime session options (threads, optimisation, mode)")
    ap.add_argument("--notes", type=int, default=40,
                    help="notes whose spans --options compares with the shipped session's")
    args = ap.parse_args()
    print(cpu_line(), flush=True)
    notes = one_kb_notes([d.text for d in read_corpus(args.corpus)])
    t0 = time.perf_counter()
    ner = OnnxNer.load(args.model_dir, threads=args.threads, form=args.model_form,
                       integer=True if args.integer else None)
    load_s = time.perf_counter() - t0
    if args.stride:
        ner.model.stride = args.stride
    analyze(notes[0])
    ner.spans(notes[0])
    if args.detect and args.detect != "none":
        detect_rate(ner, Path(args.detect))
    wins = [len(ner.model.prepare(n).windows) for n in notes]
    chars = sum(map(len, notes)) / len(notes)
    print(f"model {ner.model.name}: {ner.model.onnx_path} loaded in {load_s:.2f} s; "
          f"threads={ner.session.get_session_options().intra_op_num_threads}, stride={ner.model.stride or 'default'}")
    print(f"{len(notes)} notes, mean {chars:.0f} characters, mean {sum(wins) / len(wins):.2f} "
          f"windows of {ner.model.max_len} positions")
    import numpy as np
    feeds_list = []
    for note in notes:
        prep = ner.model.prepare(note)
        if prep.windows:
            arrays = {"input_ids": prep.input_ids, "attention_mask": prep.attention_mask,
                      "case_ids": prep.case_ids}
            feeds_list.append({k: np.asarray(arrays[k], dtype=np.int64) for k in ner._feeds})
    wall, cpu = window_ms(ner.session, feeds_list, ner._output, min(args.seconds, 10.0))
    print(f"{args.model_form}{' integer' if args.integer else ''} form session: {wall:.2f} ms per {ner.model.max_len}-position window (wall), "
          f"{cpu:.2f} ms CPU (session.run only)", flush=True)
    if args.options:
        options(ner, notes, min(args.seconds, 5.0), args.notes)
    for name, fn in (("rules only", lambda t: analyze(t)),
                     ("model only", ner.spans),
                     ("ensemble (deid detect)", lambda t: analyze(t, model=ner.spans))):
        r, n = rate(fn, notes, args.seconds)
        print(f"{name:<24}{r:8.1f} notes/s  ({n} notes)")
    five = "".join(notes)[:5000]
    t0 = time.perf_counter()
    analyze(five, model=ner.spans)
    print(f"one 5 KB note, ensemble: {1000 * (time.perf_counter() - t0):.0f} ms "
          f"({len(ner.model.prepare(five).windows)} windows)")


if __name__ == "__main__":
    main()
