"""Benchmark ``deid batch``: notes/s with ``--jobs 1`` and ``--jobs 2``, rules only and with the
NER model, the peak memory of one worker process and the CPU seconds per note.

Usage: python scripts/bench_batch.py [--notes 4000] [--model-notes 120] [--jobs 1 2]
       [--corpus corpus/notes.jsonl] [--no-model] [--model-form exact fast] [--rules-json RULES.json]

Notes are the corpus cut into ~1 KB pieces (scripts/bench_engine.py's splitter), repeated to the
count asked. Each setting runs in a fresh process (``run_batch`` in redact mode, model threads 1
per worker), so start-up (forking workers, loading the lists and the model) is included in the
notes/s, as a user sees it. Memory: peak resident set (``ru_maxrss``) of the largest worker
(with ``--jobs 1`` the one process).

CPU: user + system seconds of the whole run (the parent and every worker, ``getrusage``), per
note, and its inverse, notes per CPU-second: what one core does when it is not shared. On a
machine whose cores other people use, wall-clock notes/s (and so the ``--jobs 2`` / ``--jobs 1``
ratio) falls with their load while CPU seconds per note barely move; the "CPU-bound x" column is
``jobs * (CPU s/note at the first --jobs) / (CPU s/note here)``: the speed-up ``--jobs N`` would
give on N idle cores (1.0 per job means no overhead from the extra processes).

Start-up: each setting is also run on a one-note input; its wall and CPU seconds are the cost of
starting (forking the workers, reading the lists, loading the model) that a run pays once, and
"steady" is the notes per CPU-second with that subtracted: what a long corpus run approaches.
Prints figures; asserts nothing.
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
import json, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
from deid_core.batch import Config, run_batch
src, out, jobs, rules_only = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1"
rules = open(sys.argv[6], encoding="utf-8").read() if sys.argv[6] else None
form = sys.argv[7]
t0, c0 = time.perf_counter(), os.times()
s = run_batch(src, out, Config(mode="redact", rules_only=rules_only, threads=1, rules=rules,
                                         model_form=form),
              jobs=jobs)
wall, c1 = time.perf_counter() - t0, os.times()
cpu = sum(getattr(c1, f) - getattr(c0, f)
          for f in ("user", "system", "children_user", "children_system"))
who = resource.RUSAGE_SELF if jobs <= 1 else resource.RUSAGE_CHILDREN
print(json.dumps({"notes": s.notes, "errors": s.errors, "seconds": wall, "cpu_seconds": cpu,
                  "worker_rss_mb": resource.getrusage(who).ru_maxrss / 1024}))
"""


def main() -> int:
    from bench_engine import one_kb_notes
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "notes.jsonl")
    ap.add_argument("--notes", type=int, default=4000, help="notes for the rules-only runs")
    ap.add_argument("--model-notes", type=int, default=120, help="notes for the model runs")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--no-model", action="store_true")
    ap.add_argument("--model-form", nargs="+", default=["exact"], choices=["exact", "fast"],
                    help="model forms to run (deid batch --model-form; default: exact)")
    ap.add_argument("--rules-json", default="", help="a rules.json from deid harvest to apply")
    args = ap.parse_args()
    texts = [r["text"] for r in jsonl.parse(args.corpus.read_text(encoding="utf-8"), str(args.corpus))]
    pieces = one_kb_notes(texts)
    settings = [("rules only", True, args.notes, "exact")] + ([] if args.no_model else [
        ("rules + model" + ("" if form == "exact" else f" ({form})"), False, args.model_notes, form)
        for form in args.model_form])
    with tempfile.TemporaryDirectory() as tmp:

        def run(src: Path, jobs: int, rules_only: bool, form: str) -> dict:
            res = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(src),
                                  str(Path(tmp) / "out.jsonl"), str(jobs),
                                  "1" if rules_only else "0", args.rules_json, form],
                                 capture_output=True, text=True, check=True)
            return json.loads(res.stdout.strip().splitlines()[-1])

        one = Path(tmp) / "one.jsonl"
        one.write_text(json.dumps({"id": 0, "text": pieces[0]}) + "\n", encoding="utf-8")
        for name, rules_only, n, form in settings:
            src = Path(tmp) / f"in{n}.jsonl"
            src.write_text("".join(json.dumps({"id": k, "text": pieces[k % len(pieces)]}) + "\n"
                                   for k in range(n)), encoding="utf-8")
            base = base_cpu = None
            for jobs in args.jobs:
                r = run(src, jobs, rules_only, form)
                start = run(one, jobs, rules_only, form)
                rate = r["notes"] / r["seconds"]
                per_note = r["cpu_seconds"] / r["notes"]
                steady = (r["notes"] - 1) / max(1e-9, r["cpu_seconds"] - start["cpu_seconds"])
                base = base or rate
                base_cpu = base_cpu or (per_note, jobs)
                bound = jobs * base_cpu[0] / base_cpu[1] / per_note
                print(f"{name:14s} --jobs {jobs}: {r['notes']} notes of ~1 KB in {r['seconds']:.1f} s "
                      f"= {rate:.1f} notes/s ({rate / base:.2f}x --jobs {args.jobs[0]}, wall), "
                      f"CPU {1000 * per_note:.2f} ms/note = {1 / per_note:.1f} notes/CPU-s "
                      f"(CPU-bound {bound:.2f}x); start-up {start['seconds']:.2f} s wall, "
                      f"{start['cpu_seconds']:.2f} s CPU; steady {steady:.1f} notes/CPU-s; "
                      f"peak RSS per worker {r['worker_rss_mb']:.0f} MB, errors {r['errors']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
