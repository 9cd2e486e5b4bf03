"""The NER model alone (no rules) on names and places, against the bars of issue 21.

Run from the repository root with the CLI environment (onnxruntime; no torch needed)::

    .venv/bin/python -m training.model_alone [--model-dir model] [--form exact|fast] [--json]
        [--corpus PATH ...] [--cache .cache/work/spans.json]

For each corpus (default: the real-notes development half
``../shared/corpora/physionet-deid-dev/physionet_deid_dev.jsonl`` and the varied development set
``corpus/varied/notes.jsonl``, each when present) it runs the model on every note, keeps its spans
of name and place labels, and scores them at the character level over non-white-space characters
against the gold spans of name and place labels, exactly as ``../shared/tools/model_alone.py``
does (same label sets, same scorer ``score_detect.score_corpus``, both tiers), then prints recall,
precision and per-label span recall with the bar for that corpus (real notes: recall >= 0.92,
precision >= 0.75; varied set: recall >= 0.95, precision >= 0.85).

The corpora are read, never copied; nothing here trains on them.

Raises (exit status 2 with one line): a missing model, onnxruntime missing, or no corpus found.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED_TOOLS = ROOT.parent / "shared" / "tools"
REAL = ROOT.parent / "shared" / "corpora" / "physionet-deid-dev" / "physionet_deid_dev.jsonl"
VARIED = ROOT / "corpus" / "varied" / "notes.jsonl"
#: gold labels of names and places: PhysioNet's own (as the shared tool), and the i2b2 subtypes
#: of ``corpus/varied`` (persons and named places; USERNAME, ZIP and ROOM are left out: log-ins
#: and numbers, which the rules own, as PhysioNet's Location holds no ZIP or room number)
GOLD = {"HCPName", "PTName", "PTNameInitial", "RelativeProxyName", "Location", "NAME_PATIENT",
        "NAME_STAFF", "NAME_RELATIVE", "HOSPITAL", "WARD", "CITY", "STREET", "ORGANIZATION",
        "COUNTY", "PATIENT", "DOCTOR", "STATE", "COUNTRY", "DEPARTMENT", "LOCATION-OTHER"}
#: model span labels of names and places
PRED = {"PATIENT", "DOCTOR", "USERNAME", "HOSPITAL", "ORGANIZATION", "STREET", "CITY", "STATE",
        "COUNTRY", "ZIP", "ROOM", "DEPARTMENT", "LOCATION-OTHER"}
#: corpus file name -> (recall bar, precision bar)
BARS = {"physionet_deid_dev.jsonl": (0.92, 0.75), "notes.jsonl": (0.95, 0.85)}


def _scorer():
    sys.path.insert(0, str(SHARED_TOOLS))
    import score_detect
    return score_detect


def _gold_label(span: dict) -> str:
    return str(span.get("label") or span.get("type") or "")


def score(records: list[dict], pred: dict[str, list[dict]]) -> dict:
    """Names-and-places figures of model spans ``pred`` (id -> span dicts) on ``records``
    (``{"id", "text", "spans"}``): ``{"char_recall", "char_precision", "per_label", "notes"}``
    from the shared scorer, both tiers counted."""
    sd = _scorer()
    recs = []
    for r in records:
        recs.append({"id": str(r["id"]), "text": r["text"],
                     "spans": [g for g in r["spans"] if _gold_label(g) in GOLD
                               and g.get("start") is not None]})
    p = {k: [s for s in v if s["label"] in PRED] for k, v in pred.items()}
    res = sd.score_corpus(recs, p)["with_review"]
    return {"char_recall": res["char_recall"], "char_precision": res["char_precision"],
            "per_label": res["per_label_span_recall"], "notes": len(recs)}


def _p(span: dict) -> float:
    """Confidence written in a model span's source (``ner:<name>:p=0.93``)."""
    try:
        return float(str(span.get("source", "")).rsplit("p=", 1)[1])
    except (IndexError, ValueError):
        return 0.0


def model_spans(records: list[dict], model_dir: str | None, form: str) -> tuple[dict, float]:
    """Every note's model spans (``Span.to_dict()``) and the CPU seconds they took."""
    from deid_core.ner.onnx_runtime import OnnxNer
    m = OnnxNer.load(model_dir, threads=1, form=form)
    t0 = time.process_time()
    out = {str(r["id"]): [s.to_dict() for s in m.spans(r["text"])] for r in records}
    return out, time.process_time() - t0


def main(argv=None) -> int:
    """Command line (module docstring). Returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--form", default="exact", choices=("exact", "fast"))
    ap.add_argument("--corpus", action="append", default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cache", default=None, help="write the model spans to this JSON file")
    ap.add_argument("--floors", default="", help="also score at these floors, e.g. 0.97,0.99 "
                    "(spans below the floor dropped; the model's own floor applies first)")
    a = ap.parse_args(argv)
    paths = [Path(p) for p in a.corpus] if a.corpus else [p for p in (REAL, VARIED) if p.is_file()]
    if not paths:
        print("model_alone: no corpus found (give --corpus PATH)", file=sys.stderr)
        return 2
    from deid_core.ner.onnx_runtime import OnnxUnavailable
    report = {}
    cache = {}
    for path in paths:
        records = [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        try:
            pred, cpu = model_spans(records, a.model_dir, a.form)
        except OnnxUnavailable as e:
            print(f"model_alone: {e}", file=sys.stderr)
            return 2
        fig = score(records, pred)
        fig["cpu_s"] = round(cpu, 1)
        for f in (float(x) for x in a.floors.split(",") if x.strip()):
            kept = {k: [s for s in v if _p(s) >= f] for k, v in pred.items()}
            sub = score(records, kept)
            fig.setdefault("floors", {})[str(f)] = [sub["char_recall"], sub["char_precision"]]
        bar = BARS.get(path.name)
        if bar:
            fig["bar"] = {"recall": bar[0], "precision": bar[1],
                          "met": fig["char_recall"] >= bar[0] and fig["char_precision"] >= bar[1]}
        report[str(path)] = fig
        cache[str(path)] = pred
    if a.cache:
        Path(a.cache).write_text(json.dumps(cache), encoding="utf-8")
    if a.json:
        print(json.dumps(report))
    else:
        for path, fig in report.items():
            bar = fig.get("bar")
            met = "" if not bar else (f"  bar R>={bar['recall']} P>={bar['precision']}: "
                                      + ("met" if bar["met"] else "NOT met"))
            print(f"{Path(path).name}: notes {fig['notes']}, names and places, model alone: "
                  f"recall {fig['char_recall']:.4f} precision {fig['char_precision']:.4f}"
                  f"{met}; cpu {fig['cpu_s']} s")
            for f, (rr, pp) in fig.get("floors", {}).items():
                print(f"  floor {f}: recall {rr:.4f} precision {pp:.4f}")
            print("  span recall per label: " + ", ".join(f"{k} {v}" for k, v in sorted(fig["per_label"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
