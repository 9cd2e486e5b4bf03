"""The evaluator: character-level, strict-span and i2b2-style token figures.

Definitions (all computed on gold :class:`~deid_core.readers.GoldDoc` against predicted spans):

* Character level, over non-whitespace characters only. A character is gold PHI when a gold span
  covers it and predicted PHI when a predicted span of the setting covers it.
  Overall: ``recall = |gold ∩ pred| / |gold|``, ``precision = |gold ∩ pred| / |pred|``, labels
  ignored (a de-identifier's job is to hide the character). Per category ``C``:
  ``recall_C`` = share of gold-``C`` characters covered by any prediction;
  ``precision_C`` = share of characters predicted as ``C`` that are gold PHI of any category.
* Two settings: ``certain`` (only certain-tier spans count: what Redact and Surrogate mask on
  their own, before review) and ``with_review`` (both tiers: every amber candidate accepted in
  Review, or ``--mask-review``).
* Strict span recall: share of gold spans matched exactly (same start and end) by a predicted span.
* Token level (i2b2 style): tokens are runs of letters/digits or single other non-space
  characters; a token is gold (predicted) PHI when it overlaps a gold (predicted) span.

An empty denominator gives a figure of 1.0 (nothing to find, or nothing claimed).
"""
from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .analyze import analyze
from .readers import GoldDoc, parse_jsonl
from .risk import format_risk, residual_risk
from .spans import CATEGORIES, CERTAIN, REVIEW, Span

SETTINGS: tuple[str, ...] = ("certain", "with_review")
_TOKEN_RE = re.compile(r"[^\W_]+|[^\w\s]|_")
_NONSPACE_RE = re.compile(r"\S+")


def _ratio(num: int, den: int) -> float:
    return round(num / den, 6) if den else 1.0


def _f1(p: float, r: float) -> float:
    return round(2 * p * r / (p + r), 6) if p + r else 0.0


def _chars(text: str, spans: Iterable[tuple[int, int, str]]) -> dict[int, str]:
    """Map each non-whitespace character index covered by a span to that span's category."""
    out: dict[int, str] = {}
    for start, end, cat in spans:
        for i in range(start, end):
            if not text[i].isspace():
                out[i] = cat
    return out


@dataclass
class _Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def figures(self) -> dict:
        p, r = _ratio(self.tp, self.tp + self.fp), _ratio(self.tp, self.tp + self.fn)
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "recall": r, "precision": p,
                "f1": _f1(p, r)}


@dataclass
class _Setting:
    chars: _Counts
    tokens: _Counts
    gold_by_cat: dict
    found_by_cat: dict
    pred_by_cat: dict
    true_by_cat: dict
    spans_gold: int = 0
    spans_exact: int = 0
    spans_scored: int = 0
    spans_full: int = 0
    by_label: dict = field(default_factory=dict)

    @classmethod
    def new(cls) -> "_Setting":
        zero = {c: 0 for c in CATEGORIES}
        return cls(_Counts(), _Counts(), dict(zero), dict(zero), dict(zero), dict(zero))

    def _add_labels(self, doc: GoldDoc, found: dict[int, str]) -> None:
        """Per gold label (as the corpus wrote it): characters found and spans found in full."""
        for g in doc.spans:
            need = [i for i in range(g.start, g.end) if not doc.text[i].isspace()]
            if not need:
                continue
            row = self.by_label.setdefault(g.label, [0, 0, 0, 0])  # chars, found, spans, full
            hit = sum(1 for i in need if i in found)
            row[0] += len(need)
            row[1] += hit
            row[2] += 1
            row[3] += hit == len(need)
            self.spans_scored += 1
            self.spans_full += hit == len(need)

    def add(self, doc: GoldDoc, pred: Sequence[Span]) -> dict:
        gold = _chars(doc.text, ((s.start, s.end, s.category) for s in doc.spans))
        found = _chars(doc.text, ((s.start, s.end, s.category) for s in pred))
        for i, cat in gold.items():
            self.gold_by_cat[cat] += 1
            if i in found:
                self.found_by_cat[cat] += 1
        for i, cat in found.items():
            self.pred_by_cat[cat] += 1
            if i in gold:
                self.true_by_cat[cat] += 1
        tp = sum(1 for i in gold if i in found)
        self.chars.tp += tp
        self.chars.fn += len(gold) - tp
        self.chars.fp += len(found) - tp
        self._add_labels(doc, found)
        exact = {(s.start, s.end) for s in pred}
        self.spans_gold += len(doc.spans)
        self.spans_exact += sum(1 for s in doc.spans if (s.start, s.end) in exact)
        for m in _TOKEN_RE.finditer(doc.text):
            g = any(i in gold for i in range(m.start(), m.end()))
            p = any(i in found for i in range(m.start(), m.end()))
            if g and p:
                self.tokens.tp += 1
            elif g:
                self.tokens.fn += 1
            elif p:
                self.tokens.fp += 1
        return {"misses": _runs(doc.text, sorted(i for i in gold if i not in found)),
                "false_alarms": _runs(doc.text, sorted(i for i in found if i not in gold))}

    def figures(self) -> dict:
        return {
            "overall": self.chars.figures(),
            "per_category": {
                c: {"gold": self.gold_by_cat[c], "found": self.found_by_cat[c],
                    "recall": _ratio(self.found_by_cat[c], self.gold_by_cat[c]),
                    "predicted": self.pred_by_cat[c],
                    "precision": _ratio(self.true_by_cat[c], self.pred_by_cat[c])}
                for c in CATEGORIES},
            "per_label": {
                label: {"gold": g, "found": f, "recall": _ratio(f, g), "spans": n,
                        "spans_full": full, "span_full_recall": _ratio(full, n)}
                for label, (g, f, n, full) in sorted(self.by_label.items())},
            "strict_span": {"gold": self.spans_gold, "exact": self.spans_exact,
                            "recall": _ratio(self.spans_exact, self.spans_gold)},
            "span_full": {"gold": self.spans_scored, "full": self.spans_full,
                          "recall": _ratio(self.spans_full, self.spans_scored)},
            "token": self.tokens.figures(),
        }


def _runs(text: str, idx: list[int]) -> list[list[int]]:
    """Group sorted character indices into ``[start, end)`` runs, bridging whitespace only."""
    runs: list[list[int]] = []
    for i in idx:
        if runs and text[runs[-1][1]:i].isspace() or (runs and runs[-1][1] == i):
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])
    return runs


def evaluate(docs: Iterable[GoldDoc],
             predict: Callable[[str], Sequence[Span]] | None = None,
             details: bool = False) -> dict:
    """Score a predictor on gold documents.

    Args:
        docs: annotated notes (from :mod:`deid_core.readers`).
        predict: ``text -> final spans``; default: ``analyze(text).spans`` (the rules engine).
        details: also return, per note, the misses and false alarms of the ``with_review`` setting
            as ``[start, end)`` runs of non-whitespace characters.

    Returns:
        A JSON-ready dict: ``documents``, ``characters`` (all characters), ``phi_characters``
        (gold non-whitespace characters), ``certain`` and ``with_review`` figures (see the module
        doc; each also has ``per_label``, keyed by the gold labels as the corpus wrote them,
        ``{"gold", "found", "recall", "spans", "spans_full", "span_full_recall"}``: characters
        and spans whose every non-whitespace character is found, and ``span_full``, the same
        over all labels), ``amber`` ``{"marks", "per_note", "phi", "share_phi"}`` (review-tier
        spans: how many, per note, and the share that touch a gold PHI character), ``residual_risk``
        (identifiers left per 1,000 notes with a 95 % upper bound, per Safe Harbor identifier,
        and the reviewer's cost: :func:`deid_core.risk.residual_risk`), ``seconds``
        (wall time of prediction, the only field that varies between runs) and,
        with ``details``, ``notes``: ``[{"id", "misses", "false_alarms"}]``.
    """
    predict = predict or (lambda text: analyze(text).spans)
    settings = {name: _Setting.new() for name in SETTINGS}
    n_docs = n_chars = 0
    notes = []
    seconds = 0.0
    amber = amber_phi = 0
    for doc in docs:
        t0 = time.perf_counter()
        pred = tuple(predict(doc.text))
        seconds += time.perf_counter() - t0
        n_docs += 1
        n_chars += len(doc.text)
        gold_chars = _chars(doc.text, ((g.start, g.end, "") for g in doc.spans))
        for s in pred:
            if s.tier == REVIEW:
                amber += 1
                amber_phi += any(i in gold_chars for i in range(s.start, s.end))
        settings["certain"].add(doc, [s for s in pred if s.tier == CERTAIN])
        marks = settings["with_review"].add(doc, pred)
        if details:
            notes.append({"id": doc.id, **marks})
    report = {
        "documents": n_docs,
        "characters": n_chars,
        "phi_characters": sum(settings["certain"].gold_by_cat.values()),
        **{name: s.figures() for name, s in settings.items()},
        "amber": {"marks": amber, "per_note": round(amber / n_docs, 6) if n_docs else 0.0,
                  "phi": amber_phi, "share_phi": _ratio(amber_phi, amber)},
        "seconds": round(seconds, 3),
    }
    report["residual_risk"] = residual_risk(report)
    if details:
        report["notes"] = notes
    return report


def without_timing(report: dict) -> dict:
    """The report less ``seconds``: the part that is identical on every run and platform."""
    return {k: v for k, v in report.items() if k != "seconds"}


def evaluate_corpus_json(corpus_jsonl_text: str, details: bool = True) -> str:
    """The page's self-benchmark: evaluate the rules engine on corpus JSONL text.

    Returns the same JSON (``json.dumps(report, sort_keys=True)``) as
    ``deid eval --format corpus FILE --json`` on the same data, plus per-note details.
    """
    return json.dumps(evaluate(parse_jsonl(corpus_jsonl_text), details=details), sort_keys=True)


def format_report(report: dict) -> str:
    """Human-readable table of a report: overall and per-category figures for both settings."""
    lines = [f"{report['documents']} notes, {report['characters']} characters, "
             f"{report['phi_characters']} PHI characters (non-whitespace), {report['seconds']} s",
             "certain = certain spans only (what Redact and Surrogate mask before review); "
             "with_review = certain + every amber candidate masked"]
    for name in SETTINGS:
        f = report[name]
        o, t, s = f["overall"], f["token"], f["strict_span"]
        lines.append("")
        lines.append(f"[{name}] character recall {o['recall']:.4f}  precision {o['precision']:.4f}"
                     f"  F1 {o['f1']:.4f}   (tp {o['tp']}, fp {o['fp']}, fn {o['fn']})")
        lines.append(f"[{name}] token recall {t['recall']:.4f}  precision {t['precision']:.4f}"
                     f"  F1 {t['f1']:.4f};  strict span recall {s['recall']:.4f} ({s['exact']}/{s['gold']})")
        if "span_full" in f:
            u = f["span_full"]
            lines.append(f"[{name}] spans found in full {u['recall']:.4f} ({u['full']}/{u['gold']})")
        lines.append(f"  {'category':<11}{'gold':>8}{'recall':>9}{'predicted':>11}{'precision':>11}")
        for cat, c in f["per_category"].items():
            if c["gold"] or c["predicted"]:
                lines.append(f"  {cat:<11}{c['gold']:>8}{c['recall']:>9.4f}{c['predicted']:>11}"
                             f"{c['precision']:>11.4f}")
        labels = f.get("per_label", {})
        if labels and set(labels) - set(CATEGORIES):
            lines.append(f"  {'gold label':<20}{'chars':>7}{'recall':>9}{'spans':>7}{'in full':>9}")
            for label, c in labels.items():
                lines.append(f"  {label:<20}{c['gold']:>7}{c['recall']:>9.4f}{c['spans']:>7}"
                             f"{c['span_full_recall']:>9.4f}")
    a = report.get("amber")
    if a:
        lines.append("")
        lines.append(f"amber marks {a['marks']}: {a['per_note']:.3f} per note, "
                     f"{a['share_phi']:.3f} of them PHI")
    if report.get("residual_risk"):
        lines.append("")
        lines.extend(format_risk(report["residual_risk"]))
    return "\n".join(lines)
