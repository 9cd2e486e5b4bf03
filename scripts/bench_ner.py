"""Benchmark the CLI's engine with and without the NER model in CPython: notes of ~1 KB per second.

Usage: python scripts/bench_ner.py [--corpus corpus/notes.jsonl] [--seconds 10] [--threads N]
       [--model-dir DIR] [--stride S]

Prints, for the same ~1 KB notes (cut from the corpus at line boundaries, as
``scripts/bench_engine.py`` does): rules only (``analyze``), the model alone (``OnnxNer.spans``:
pre-processing, one ``session.run`` per note, post-processing) and the ensemble
(``analyze_with_model``, what ``deid detect`` runs), plus windows per note and the time of one
5 KB note. Asserts nothing (speed is reported, not tested). ``--threads`` sets onnxruntime's
intra-op threads (default: the CLI's, ``$DEID_NER_THREADS`` else min(2, cores); 0: onnxruntime's choice).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deid_core import analyze  # noqa: E402
from deid_core.ensemble import analyze_with_model  # noqa: E402
from deid_core.ner.onnx_runtime import OnnxNer  # noqa: E402
from deid_core.readers import read_corpus  # noqa: E402

from bench_engine import one_kb_notes  # noqa: E402  (same folder: sys.path[0])


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="corpus/notes.jsonl")
    ap.add_argument("--seconds", type=float, default=10.0, help="time per measured setting")
    ap.add_argument("--threads", type=int, default=None, help="onnxruntime intra-op threads")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--stride", type=int, default=None,
                    help="override the window stride (default: ner.json's, else half a window)")
    args = ap.parse_args()
    notes = one_kb_notes([d.text for d in read_corpus(args.corpus)])
    t0 = time.perf_counter()
    ner = OnnxNer.load(args.model_dir, threads=args.threads)
    load_s = time.perf_counter() - t0
    if args.stride:
        ner.model.stride = args.stride
    analyze(notes[0])
    ner.spans(notes[0])
    wins = [len(ner.model.prepare(n).windows) for n in notes]
    chars = sum(map(len, notes)) / len(notes)
    print(f"model {ner.model.name}: {ner.model.onnx_path} loaded in {load_s:.2f} s; "
          f"threads={ner.session.get_session_options().intra_op_num_threads}, stride={ner.model.stride or 'default'}")
    print(f"{len(notes)} notes, mean {chars:.0f} characters, mean {sum(wins) / len(wins):.2f} "
          f"windows of {ner.model.max_len} positions")
    for name, fn in (("rules only", lambda t: analyze(t)),
                     ("model only", ner.spans),
                     ("ensemble (deid detect)", lambda t: analyze_with_model(t, ner.spans(t)))):
        r, n = rate(fn, notes, args.seconds)
        print(f"{name:<24}{r:8.1f} notes/s  ({n} notes)")
    five = "".join(notes)[:5000]
    t0 = time.perf_counter()
    analyze_with_model(five, ner.spans(five))
    print(f"one 5 KB note, ensemble: {1000 * (time.perf_counter() - t0):.0f} ms "
          f"({len(ner.model.prepare(five).windows)} windows)")


if __name__ == "__main__":
    main()
