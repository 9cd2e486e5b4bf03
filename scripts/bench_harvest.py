"""Benchmark ``deid harvest``: inclusion list size, templates, and recall/precision and notes/s
with and without the harvested rules, on the project corpus and the real-notes dev set.

Usage: python scripts/bench_harvest.py [--model] [--min-notes 5 --min-patients 3 --min-instances 5]
       [--tier review|certain] [CORPUS.jsonl ...]

For each corpus (default: corpus/notes.jsonl and the shared physionet-deid-dev set), two
settings: in-sample (harvest and score on all notes) and held-out (harvest on the patients of
one half, score on the notes of the other half). The patient is the ``patient`` field, else the
part of the id before ``-`` (physionet ids ``<patient>-<note>``), else the note itself. Scores
are :func:`deid_core.evaluate.evaluate` (character level, labels ignored). Also counts how many
gold PHI strings occur in the harvested file (must be 0). Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deid_core.batch.engine import Config, Engine  # noqa: E402
from deid_core import jsonl  # noqa: E402
from deid_core.evaluate import evaluate  # noqa: E402
from deid_core.harvest import harvest  # noqa: E402
from deid_core.readers import read_corpus  # noqa: E402

DEFAULT = [ROOT / "corpus" / "notes.jsonl",
           ROOT.parent / "shared" / "corpora" / "physionet-deid-dev" / "physionet_deid_dev.jsonl"]


def patient_of(rec: dict) -> str:
    if rec.get("patient") not in (None, ""):
        return str(rec["patient"])
    rid = str(rec.get("id", ""))
    return rid.split("-")[0] if "-" in rid and rid.split("-")[0].isdigit() else rid


def score(docs, engine: Engine) -> tuple[dict, float]:
    t0 = time.perf_counter()
    report = evaluate(docs, lambda text: engine.analysis(text)[0].spans)
    return report, len(docs) / (time.perf_counter() - t0)


def fig(report: dict) -> str:
    c, r = report["certain"]["overall"], report["with_review"]["overall"]
    return (f"R/P certain {c['recall']:.4f}/{c['precision']:.4f}, "
            f"with review {r['recall']:.4f}/{r['precision']:.4f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpora", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--model", action="store_true", help="rules and the NER model (default: rules only)")
    ap.add_argument("--min-notes", type=int, default=5)
    ap.add_argument("--min-patients", type=int, default=3)
    ap.add_argument("--min-instances", type=int, default=5)
    ap.add_argument("--tier", choices=("review", "certain"), default="review")
    args = ap.parse_args()
    base_cfg = Config(mode="detect", rules_only=not args.model, threads=1)
    plain = Engine(base_cfg)
    for path in args.corpora:
        if not path.exists():
            print(f"{path}: missing, skipped")
            continue
        rows = jsonl.parse(path.read_text(encoding="utf-8"), str(path))
        docs = {d.id: d for d in read_corpus(path)}
        for r in rows:
            r["patient"] = patient_of(r)
        half = {r["patient"] for r in rows if zlib.crc32(r["patient"].encode()) % 2 == 0}
        print(f"== {path.name}: {len(rows)} notes, {len({r['patient'] for r in rows})} patients, "
              f"{'rules + model' if args.model else 'rules only'}; N={args.min_notes} "
              f"M={args.min_patients} K={args.min_instances} tier={args.tier}")
        for setting, train, test in (
                ("in-sample", rows, rows),
                ("held-out", [r for r in rows if r["patient"] in half],
                 [r for r in rows if r["patient"] not in half])):
            with tempfile.TemporaryDirectory() as tmp:
                src = Path(tmp) / "train.jsonl"
                src.write_text("".join(json.dumps({"id": r["id"], "patient": r["patient"],
                                                   "text": r["text"]}) + "\n" for r in train),
                               encoding="utf-8")
                t0 = time.perf_counter()
                rules = harvest(src, base_cfg, patient_field="patient", min_notes=args.min_notes,
                                min_patients=args.min_patients, min_instances=args.min_instances,
                                tier=args.tier)
                h_rate = len(train) / (time.perf_counter() - t0)
            rules_json = rules.to_json()
            held = [s.lower() for s in rules.sentences] + \
                [" ".join(t.tokens) for t in rules.templates]
            gold = {r["text"][s["start"]:s["end"]].strip() for r in train for s in r.get("spans", [])}
            leaked = sorted(v for v in gold if len(v) >= 3 and any(
                re.search(r"(?<!\w)" + re.escape(v.lower()) + r"(?!\w)", h) for h in held))
            test_docs = [docs[r["id"]] for r in test]
            without, rate0 = score(test_docs, plain)
            with_rules = Engine(Config(mode="detect", rules_only=not args.model, threads=1,
                                       rules=rules_json))
            withr, rate1 = score(test_docs, with_rules)
            safe = sum(len(with_rules.analysis(d.text)[1]) for d in test_docs)
            if leaked and path.parent.name != "physionet-deid-dev":
                print(f"  gold PHI strings in the harvested file: {leaked}: "
                      f"{[h for h in held if any(v.lower() in h for v in leaked)]}")
            print(f"  {setting}: harvested {len(train)} notes ({h_rate:.1f} notes/s): "
                  f"{len(rules.sentences)} PHI-free sentences, {len(rules.templates)} templates; "
                  f"gold PHI strings (as words) in the file: {len(leaked)}")
            print(f"    scored on {len(test_docs)} notes ({safe} PHI-free sentences skipped)")
            print(f"    without: {fig(without)}, {rate0:.1f} notes/s")
            print(f"    with   : {fig(withr)}, {rate1:.1f} notes/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
