"""Measurements of the written model for the card (``.cache/work/extra.json``).

Run after :mod:`training.train`, from the repository root::

    .venv-train/bin/python -m training.measure [--model model]

1. Trimmed vocabulary: the pure-Python :class:`deid_core.ner.WordPiece` against the ``tokenizers``
   library's WordPiece built from the same trimmed ``vocab.txt`` on every dev note, plus how
   words missing from the trimmed list fall to sub-pieces.
2. The runtime pipeline (:class:`deid_core.ner.pipeline.NerModel`, as used by the CLI and the
   page) against :func:`training.train.predict_spans` on the dev notes: identical spans.
3. Ensemble vs rules-only (:func:`deid_core.evaluate.evaluate`) on the corpus DEV split and on
   ASQ-PHI (``../shared/corpora/asq-phi/asq_phi_dev.jsonl``; held out, never trained on).
4. CPU speed: onnxruntime, one thread, per note of the dev split and per 128-position window.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from deid_core.analyze import analyze
from deid_core.evaluate import evaluate
from deid_core.ner import WordPiece
from deid_core.ner.pipeline import NerModel
from deid_core.readers import read_corpus

from . import data as D
from .train import ROOT, ort_infer, predict_spans

ASQ = ROOT.parent / "shared" / "corpora" / "asq-phi" / "asq_phi_dev.jsonl"
WORK = ROOT / ".cache" / "work"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def tokenizer_check(model_dir: Path, texts: list[str]) -> list[str]:
    """Compare with ``tokenizers`` on ``texts``; show sub-piece fall-back."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordPiece as HFWordPiece
    from tokenizers.normalizers import BertNormalizer
    from tokenizers.pre_tokenizers import BertPreTokenizer
    vocab_path = model_dir / "vocab.txt"
    wp = WordPiece.from_file(vocab_path)
    hf = Tokenizer(HFWordPiece.from_file(str(vocab_path), unk_token="[UNK]",
                                         max_input_chars_per_word=100))
    hf.normalizer = BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                   strip_accents=None, lowercase=True)
    hf.pre_tokenizer = BertPreTokenizer()
    same = 0
    for t in texts:
        mine = wp.encode(t)
        enc = hf.encode(t, add_special_tokens=False)
        same += list(mine.ids) == enc.ids and [tuple(o) for o in mine.offsets] == [
            tuple(o) for o in enc.offsets]
    unk = sum(i == wp.unk_id for t in texts for i in wp.encode(t).ids)
    n_tok = sum(len(wp.encode(t).ids) for t in texts)
    words = ["Wojciechowska", "Thistlewaite", "Oyelaran-Adeyemi", "Kaczmarczyk", "Dunmore",
             "pneumonoultramicroscopic", "Zyrtec", "Xochitl"]
    lines = [f"- `tokenizers` (WordPiece + BertNormalizer + BertPreTokenizer over the trimmed "
             f"`vocab.txt`) and the pure-Python `WordPiece` give identical ids and offsets on "
             f"{same}/{len(texts)} dev notes; `[UNK]` is {unk} of {n_tok:,} dev tokens.",
             "- Words outside the trimmed list fall to sub-pieces: " + "; ".join(
                 f"{w} -> {' '.join(wp.encode(w).tokens)}" for w in words) + "."]
    return lines


def _fig(rep: dict, setting: str) -> dict:
    o = rep[setting]["overall"]
    return {"precision": o["precision"], "recall": o["recall"]}


def ensemble_table(name: str, docs, model: NerModel, infer) -> tuple[list[str], dict]:
    """Rules-only vs ensemble on ``docs``: overall and NAME/LOCATION/AGE/PROFESSION/
    ORGANIZATION... per-category recall (with review)."""
    cache: dict[str, list] = {}

    def spans(text):
        if text not in cache:
            cache[text] = model.predict(text, infer)
        return cache[text]
    rules = evaluate(docs)
    t0 = time.perf_counter()
    for d in docs:
        spans(d.text)
    model_s = time.perf_counter() - t0
    ens = evaluate(docs, lambda text: analyze(text, model=spans(text)).spans)
    alone = evaluate(docs, spans)
    lines = [f"{name}: {len(docs)} documents, {rules['phi_characters']:,} gold PHI characters.",
             "", "| setting | certain P | certain R | with review P | with review R |",
             "|---|---|---|---|---|"]
    out = {}
    for label, rep in (("model only", alone), ("rules only", rules), ("rules + model", ens)):
        c, w = _fig(rep, "certain"), _fig(rep, "with_review")
        out[label] = {"certain": c, "with_review": w,
                      "per_category_recall": {k: v["recall"] for k, v in
                                              rep["with_review"]["per_category"].items()
                                              if v["gold"]}}
        lines.append(f"| {label} | {_pct(c['precision'])} | {_pct(c['recall'])} | "
                     f"{_pct(w['precision'])} | {_pct(w['recall'])} |")
    cats = list(out["rules only"]["per_category_recall"])
    lines += ["", "With-review recall per category (rules only -> rules + model): " + ", ".join(
        f"{c} {_pct(out['rules only']['per_category_recall'][c])} -> "
        f"{_pct(out['rules + model']['per_category_recall'][c])}" for c in cats) + ".",
        "", f"Model inference time for these documents (onnxruntime, 1 thread, with pure-Python "
        f"pre/post-processing): {model_s:.1f} s, {len(docs) / model_s:.1f} documents/s."]
    out["model_seconds"] = model_s
    return lines, out


def floor_table(named_docs, model: NerModel, infer,
                floors=(0.0, 0.8, 0.9, 0.95)) -> tuple[list[str], dict]:
    """Ensemble figures when model spans below a confidence FLOOR are dropped (a proposal; the
    contract sends them to review)."""
    from .train import _p
    lines = ["| documents | floor | certain P | certain R | with review P | with review R |",
             "|---|---|---|---|---|---|"]
    out: dict = {}
    for name, docs in named_docs:
        cache = {d.text: model.predict(d.text, infer) for d in docs}
        for fl in floors:
            rep = evaluate(docs, lambda t, fl=fl: analyze(
                t, model=[s for s in cache[t] if _p(s) >= fl]).spans)
            c, w = _fig(rep, "certain"), _fig(rep, "with_review")
            out[f"{name}@{fl}"] = {"certain": c, "with_review": w}
            lines.append(f"| {name} | {fl} | {_pct(c['precision'])} | {_pct(c['recall'])} | "
                         f"{_pct(w['precision'])} | {_pct(w['recall'])} |")
    return lines, out


def bf16_speed(steps: int = 40, threads: int = 1) -> list[str]:
    """Seconds for ``steps`` training steps with and without bf16 autocast (same data/seed)."""
    from .train import TrainConfig, run
    ds = D.build()
    secs = {}
    for bf in (True, False):
        cfg = TrainConfig(max_steps=steps, threads=threads, bf16=bf, log_every=0, export=False,
                          train_examples=ds.train, dev_examples=[],
                          work_dir=str(WORK / "bf16_bench"))
        secs[bf] = run(cfg)["train"]["seconds"]
    return [f"- bf16 autocast: {steps} training steps (batch 16, {threads} thread) took "
            f"{secs[True]:.1f} s with bf16 autocast and {secs[False]:.1f} s in fp32 "
            f"({secs[False] / secs[True]:.1f}x), so training uses bf16 autocast (the exported "
            "model is fp32 before quantisation)."]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=str(ROOT / "model"))
    ap.add_argument("--out", default=str(WORK / "extra.json"))
    ap.add_argument("--threshold-note", default="")
    ap.add_argument("--bf16-bench", action="store_true", help="also time bf16 vs fp32 training")
    a = ap.parse_args(argv)
    model_dir = Path(a.model)
    _, dev = D.load_corpus()
    texts = [e.text for e in dev]
    sections = []
    result: dict = {}

    sections.append(("Trimmed vocabulary check", tokenizer_check(model_dir, texts)))

    model = NerModel.load(model_dir)
    infer1 = ort_infer(model_dir / "ner.onnx", threads=1)
    same = 0
    for e in dev:
        a_sp = model.predict(e.text, infer1)
        b_sp = predict_spans(e.text, model.tokenizer, infer1, threshold=model.threshold)
        same += [(s.start, s.end, s.label, s.tier) for s in a_sp] == [
            (s.start, s.end, s.label, s.tier) for s in b_sp]
    result["pipeline_same"] = [same, len(dev)]

    dev_ids = {e.id for e in dev}
    docs = [d for d in read_corpus(D.CORPUS) if d.id in dev_ids]
    lines, result["dev_ensemble"] = ensemble_table("Corpus dev split", docs, model, infer1)
    lines += ["", f"The runtime pipeline (`deid_core.ner.pipeline.NerModel.predict`) and the "
                  f"training code's decoder give identical spans on {same}/{len(dev)} dev notes."]
    sections.append(("Ensemble on the dev split (rules + int8 model)", lines))
    if ASQ.exists():
        asq = read_corpus(ASQ)
        lines, result["asq_ensemble"] = ensemble_table("ASQ-PHI dev (held out)", asq, model,
                                                       infer1)
        sections.append(("Ensemble on ASQ-PHI (held out, never trained on)", lines))
        fl_lines, result["floors"] = floor_table((("dev", docs), ("ASQ-PHI", asq)), model, infer1)
        sections.append(("Proposal: a confidence floor for model-only spans", [
            "Model-only spans with p below the threshold go to review; most of the precision the "
            "ensemble loses in the with-review setting comes from low-confidence model spans. "
            "Dropping model spans below a floor (not part of the current contract) gives:", "",
            *fl_lines]))
    if a.bf16_bench:
        sections.append(("Training speed", bf16_speed()))
    result["sections"] = sections
    result["threshold_note"] = a.threshold_note
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(result, indent=1), encoding="utf-8")
    for title, body in sections:
        print("##", title)
        print("\n".join(body))
    return result


if __name__ == "__main__":
    main()
