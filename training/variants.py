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
HISTORY = "History: the models shipped before issue 21"
SWEEP = "Confidence floor of the forms tried (model alone)"


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
    layers = rep.get("layers") or (3 if "minilm3" in str(cfg.get("base_dir")) else 6)
    return {"label": label, "layers": layers, "vocab": rep["vocab_size"],
            "max_len": cfg["max_len"], "data": f"{data.get('generated', 0)}/{data.get('nursing', 0)}/"
            f"{data.get('notetypes', 0)}/{data.get('presidio', 0)}", "steps": rep["train"]["steps"],
            "train_s": rep["train"]["seconds"], "bytes": size, "gz": gz,
            "ms": rep.get("ms_per_window_int8"), "real": (r_real, p_real), "varied": (r_var, p_var)}


def table(rows: list[dict]) -> list[str]:
    """Markdown lines of the variants table."""
    out = ["| form | layers | vocabulary | window | data (sentences/nursing/notetypes/presidio) | steps | "
           "train s | int8 file MB (gzip) | real notes R | real notes P | varied R | varied P |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['label']} | {r['layers']} | {r['vocab']:,} | {r['max_len']} | {r['data']} | "
                   f"{r['steps']} | {r['train_s']:.0f} | {r['bytes'] / 1e6:.1f} ({r['gz'] / 1e6:.1f}) | "
                   f"{r['real'][0]} | {r['real'][1]} | {r['varied'][0]} | {r['varied'][1]} |")
    return out


def sweep(run: str, label: str) -> list[str]:
    """Markdown rows: model alone at each floor (``alone_sweep.json`` of a floor-0.5 copy)."""
    d = WORK / run / "alone_sweep.json"
    if not d.exists():
        return []
    sw = json.loads(d.read_text(encoding="utf-8"))
    out = []
    for path, fig in sw.items():
        cells = [f"{fig['char_recall']:.3f} / {fig['char_precision']:.3f}"]
        cells += [f"{r:.3f} / {p:.3f}" for f, (r, p) in sorted(fig["floors"].items(), key=lambda kv: float(kv[0]))]
        out.append(f"| {label} | {Path(path).name} | " + " | ".join(cells) + " |")
    return out


def insert_into_card(card: Path, sections: list) -> None:
    """Put ``sections`` (``[title, lines]``) into the card before its ``## Files`` heading,
    replacing sections of the same titles."""
    text = card.read_text(encoding="utf-8")
    titles = {t for t, _ in sections}
    parts = text.split("\n## ")
    head, rest = parts[0], parts[1:]
    rest = [p for p in rest if p.split("\n", 1)[0].strip() not in titles]
    new = ["\n".join([t, ""] + body).rstrip("\n") + "\n" for t, body in sections]
    idx = next((i for i, p in enumerate(rest) if p.startswith("Files")), 0)
    rest = rest[:idx] + new + rest[idx:]
    card.write_text("\n## ".join([head] + rest), encoding="utf-8")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="RUN or RUN=LABEL (folders of .cache/work)")
    ap.add_argument("--extra", default=str(WORK / "extra.json"))
    ap.add_argument("--note", default="", help="a paragraph after the table")
    ap.add_argument("--sweep", nargs="*", default=[], help="RUN=LABEL rows of the floor table")
    ap.add_argument("--body", default=None, help="a Markdown file of further sections (## titles)")
    ap.add_argument("--card", default=None, help="insert the sections into this model card")
    ap.add_argument("--history-from", default=None, metavar="GITREF",
                    help="append the model card at GITREF (git show REF:model/MODEL_CARD.md), "
                         "headings one level down, as the history of the forms shipped before")
    a = ap.parse_args(argv)
    rows = []
    for spec in a.runs:
        run, _, label = spec.partition("=")
        rows.append(row(run, label or run))
    path = Path(a.extra)
    extra = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    body = table(rows) + ([""] + [a.note] if a.note else [])
    sections = [s for s in extra.get("sections", []) if s[0] != TITLE]
    extra["sections"] = [[TITLE, body]] + [x for x in sections if x[0] != HISTORY]
    if a.history_from:
        import subprocess
        old = subprocess.run(["git", "show", f"{a.history_from}:model/MODEL_CARD.md"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.splitlines()
        hist = [("#" + ln if ln.startswith("#") else ln) for ln in old[1:]]
        extra["sections"].append([HISTORY, [f"The card of the model shipped before issue 21 "
                                            f"(git {a.history_from}), kept for its figures:", ""] + hist])
    if a.sweep:
        floors = ("0.5", "0.8", "0.9", "0.95", "0.97", "0.98", "0.99", "0.995")
        lines = ["| form | corpus | " + " | ".join(f"floor {f} R / P" for f in floors) + " |",
                 "|---|---|" + "---|" * len(floors)]
        for spec in a.sweep:
            run, _, label = spec.partition("=")
            lines += sweep(run, label or run)
        extra["sections"] = [x for x in extra["sections"] if x[0] != SWEEP]
        extra["sections"].insert(1, [SWEEP, ["Model alone, names and places, at each confidence floor "
                                              "(spans below it dropped), from one run of each model with "
                                              "floor 0.5 (`training.model_alone --floors`):", ""] + lines])
    if a.body:
        chunks = Path(a.body).read_text(encoding="utf-8").split("\n## ")
        for c in chunks:
            c = c.lstrip("# ").rstrip("\n")
            if c:
                t, _, b = c.partition("\n")
                extra["sections"].append([t.strip(), b.strip("\n").split("\n")])
    seen: dict = {}
    for t, b in extra["sections"]:       # one section per title, the last written wins
        seen[t] = b
    extra["sections"] = [[t, b] for t, b in seen.items()]
    path.write_text(json.dumps(extra, indent=1), encoding="utf-8")
    if a.card:
        insert_into_card(Path(a.card), [x for x in extra["sections"] if x[0] != HISTORY])
    print("\n".join(body))


if __name__ == "__main__":
    main()
