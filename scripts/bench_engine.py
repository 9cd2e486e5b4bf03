"""Benchmark the rules engine in CPython on one core: notes/s and MB/s, and an adversarial note.

Usage: python scripts/bench_engine.py [--corpus corpus/notes.jsonl] [--seconds 10] [--shapes]

``--shapes`` also times every detector on each adversarial string of ``tests/adversarial.py``
(the inputs ``tests/test_adversarial.py`` checks for correctness only) and prints the slowest.

Prints figures; asserts nothing (speed is reported, not tested). Notes are cut or joined from the
corpus into ~1 KB pieces, so the figure is "notes of about 1 KB per second"; it is given per
second of wall clock and per CPU-second of this process (steadier on a machine others share).
"""
from __future__ import annotations

import argparse
import base64
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deid_core import analyze  # noqa: E402
from deid_core.readers import read_corpus  # noqa: E402


def one_kb_notes(texts: list[str]) -> list[str]:
    """Split/join corpus texts into pieces of about 1,000 characters at line boundaries."""
    notes, cur = [], ""
    for t in texts:
        for line in t.splitlines(keepends=True):
            cur += line
            if len(cur) >= 1000:
                notes.append(cur)
                cur = ""
    return notes or [cur]


def adversarial(size: int = 1_000_000) -> str:
    """A ~1 MB note of base64 blobs, repeated characters, long digit runs and near-miss shapes."""
    rnd = random.Random(7)
    parts = [
        base64.b64encode(rnd.randbytes(150_000)).decode(),
        "1" * 100_000, "a" * 100_000, "/" * 50_000, "1/" * 50_000, "-1" * 50_000,
        "".join(rnd.choice("0123456789") for _ in range(100_000)),
        "Dr. " * 25_000, "A. " * 30_000, ("12 " * 30_000),
    ]
    text = "\n".join(parts)
    return (text * (size // len(text) + 1))[:size]


def shapes(top: int = 15) -> None:
    """Seconds of each detector on each adversarial shape (100 KB each), slowest first."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from adversarial import ADVERSARIAL  # noqa: E402
    from deid_core.detectors import REGISTRY  # noqa: E402
    from deid_core.document import Document  # noqa: E402
    rows = []
    for name, text in sorted(ADVERSARIAL.items()):
        for det in REGISTRY:
            t0 = time.perf_counter()
            list(det.detect(Document(text)))
            rows.append((time.perf_counter() - t0, name, det.name, len(text)))
    rows.sort(reverse=True)
    for sec, name, det, n in rows[:top]:
        print(f"shape {name:<16} {det:<10} {n / 1e3:.0f} KB in {sec:.2f} s = {sec / (n / 1e6):.1f} s/MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="corpus/notes.jsonl")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long to run the throughput loop")
    ap.add_argument("--shapes", action="store_true",
                    help="also time each detector on the adversarial shapes of tests/adversarial.py")
    args = ap.parse_args()
    notes = one_kb_notes([d.text for d in read_corpus(args.corpus)])
    analyze(notes[0])  # load the lists once, outside the timing
    n = chars = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < args.seconds:
        for note in notes:
            analyze(note)
            n += 1
            chars += len(note.encode("utf-8"))
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"throughput: {n} notes of mean {chars / n:.0f} bytes in {dt:.2f} s = {n / dt:.1f} notes/s, "
          f"{chars / dt / 1e6:.3f} MB/s (one core, CPython {sys.version.split()[0]}); "
          f"CPU {cpu:.2f} s = {n / cpu:.1f} notes/CPU-s")
    text = adversarial()
    t0 = time.perf_counter()
    a = analyze(text)
    print(f"adversarial note: {len(text.encode('utf-8')) / 1e6:.2f} MB in {time.perf_counter() - t0:.2f} s, "
          f"{len(a.spans)} spans")
    if args.shapes:
        shapes()


if __name__ == "__main__":
    main()
