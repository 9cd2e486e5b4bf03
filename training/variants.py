"""The table of every model form tried for issue 21, for the model card (``extra.json``).

Each variant is one training run (``training.train`` with ``--work .cache/work/<run>``, writing
``report.json``) plus the model-alone figures of its written model on the real-notes development
half and on the varied set (``training.model_alone --json``, saved as ``alone.json`` in the
same folder) and, optionally, the ensemble figures (``ensemble.json``: ``deid eval`` with and
without the model, saved by hand from the CLI's JSON output).

Usage (repository root)::

    .venv/bin/python -m training.variants RUN[=LABEL] ... [--extra .cache/work/extra.json]

writes (or updates) the ``"sections"`` of ``extra.json`` that :mod:`training.card` renders.
"""
from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".cache" / "work"
TITLE = "Forms tried for issue 21 (model alone on names and places)"


def _fig(alone: dict, name: str) -> tuple[str, str]:
    for path, fig in alone.items():
        if Path(path).name == name:
            return f"{fig['char_recall']:.3f}", f"{fig['char_precision']:.3f}"
    return "-", "-"


def row(run: str, label: str) -> dict:
    """One variant's figures from ``.cache/work/<run>/`` (report, alone, optional sizes)."""
    d = WORK / run
    rep = json.loads((d / "report.json").read_text(encoding="utf-8"))
    alone = json.loads((d / "alone.json").read_text(encoding="utf-8")) if (d / "alone.json").exists() else {}
    cfg = rep["config"]
    out_dir = Path(cfg["out_dir"])
    onnx = out_dir / "ner.onnx"
    size = onnx.stat().st_size if onnx.exists() else rep.get("int8_bytes", 0)
    gz = len(gzip.compress(onnx.read_bytes(), 9)) if onnx.exists() else 0
    r_real, p_real = _fig(alone, "physionet_deid_dev.jsonl")
    r_var, p_var = _fig(alone, "notes.jsonl")
    data = rep["data"]
    return {"label": label, "layers": rep.get("layers", 6), "vocab": rep["vocab_size"],
            "max_len": cfg["max_len"], "data": f"{data.get('generated', 0)}/{data.get('nursing', 0)}/"
            f"{data.get('notetypes', 0)}/{data.get('presidio', 0)}", "steps": rep["train"]["steps"],
            "train_s": rep["train"]["seconds"], "bytes": size, "gz": gz,
            "ms": rep.get("ms_per_window_int8"), "real": (r_real, p_real), "varied": (r_var, p_var)}


def table(rows: list[dict]) -> list[str]:
    """Markdown lines of the variants table."""
    out = ["| form | layers | vocabulary | window | data (sentences/nursing/notetypes/presidio) | steps | "
           "train s | int8 file MB (gzip) | ms per window int8 | real notes R | real notes P | varied R | varied P |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['label']} | {r['layers']} | {r['vocab']:,} | {r['max_len']} | {r['data']} | "
                   f"{r['steps']} | {r['train_s']:.0f} | {r['bytes'] / 1e6:.1f} ({r['gz'] / 1e6:.1f}) | "
                   f"{r['ms']} | {r['real'][0]} | {r['real'][1]} | {r['varied'][0]} | {r['varied'][1]} |")
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="RUN or RUN=LABEL (folders of .cache/work)")
    ap.add_argument("--extra", default=str(WORK / "extra.json"))
    ap.add_argument("--note", default="", help="a paragraph after the table")
    a = ap.parse_args(argv)
    rows = []
    for spec in a.runs:
        run, _, label = spec.partition("=")
        rows.append(row(run, label or run))
    path = Path(a.extra)
    extra = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    body = table(rows) + ([""] + [a.note] if a.note else [])
    sections = [s for s in extra.get("sections", []) if s[0] != TITLE]
    extra["sections"] = [[TITLE, body]] + sections
    path.write_text(json.dumps(extra, indent=1), encoding="utf-8")
    print("\n".join(body))


if __name__ == "__main__":
    main()
