"""Benchmark per-patient linkage in ``deid batch``: CPU milliseconds per note in surrogate mode,
rules only, one process, without linkage (one key for every note), with one note per patient
(the worst case: every note a new patient's key) and with ten notes per patient.

Usage: python scripts/bench_linkage.py [--notes 300] [--corpus corpus/notes.jsonl]

Notes are the corpus cut into ~1 KB pieces (scripts/bench_engine.py's splitter). Each setting
runs ``run_batch`` in a fresh process, once on the notes and once on one note; "ms/note" is the
difference of their CPU seconds (user + system) over the notes less one, so start-up (reading
the lists, stretching the master key once) is left out. Issue 22's bar: per-patient linkage at
most 2x the cost per note of no linkage. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from deid_core import jsonl  # noqa: E402

CHILD = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
from deid_core.batch import Config, run_batch
src, out, per_patient = sys.argv[2], sys.argv[3], sys.argv[4] == "1"
c0 = os.times()
config = Config(mode="surrogate", master_key="a benchmark key of some length", rules_only=True,
                per_patient=per_patient)
s = run_batch(src, out, config, patient_field="patient" if per_patient else None, jobs=1)
c1 = os.times()
print(json.dumps({"notes": s.notes, "errors": s.errors,
                  "cpu_seconds": (c1.user - c0.user) + (c1.system - c0.system)}))
"""


def main() -> int:
    from bench_engine import one_kb_notes
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "notes.jsonl")
    ap.add_argument("--notes", type=int, default=300)
    args = ap.parse_args()
    texts = [r["text"] for r in jsonl.parse(args.corpus.read_text(encoding="utf-8"), str(args.corpus))]
    pieces = one_kb_notes(texts)
    settings = [("no linkage", False, None), ("one note per patient", True, 1),
                ("ten notes per patient", True, 10)]
    with tempfile.TemporaryDirectory() as tmp:

        def run(rows: list[dict], per_patient: bool) -> dict:
            src = Path(tmp) / "in.jsonl"
            src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
            res = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(src),
                                  str(Path(tmp) / "out.jsonl"), "1" if per_patient else "0"],
                                 capture_output=True, text=True, check=True)
            return json.loads(res.stdout.strip().splitlines()[-1])

        base = None
        for name, per_patient, per in settings:
            rows = [{"id": k, "text": pieces[k % len(pieces)],
                     **({"patient": f"P{k // per}"} if per else {})} for k in range(args.notes)]
            full, one = run(rows, per_patient), run(rows[:1], per_patient)
            ms = 1000 * (full["cpu_seconds"] - one["cpu_seconds"]) / (args.notes - 1)
            base = base or ms
            print(f"{name:22s}: {ms:7.2f} ms CPU per note ({ms / base:.2f}x no linkage), "
                  f"{args.notes} notes, errors {full['errors']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
