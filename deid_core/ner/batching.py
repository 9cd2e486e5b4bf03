"""Running the windows of many notes together: the model calls of ``deid detect`` and ``deid batch``.

:func:`predict_many` prepares each note (:meth:`~deid_core.ner.pipeline.NerModel.prepare`: its
windows, the skipped and repeated ones already left out), pools the windows of all the notes,
sorts them by length (so a batch pads little) and runs them in calls of at most
``max_positions`` model positions (``B * T``, padding included; at least one window a call),
then gives each note its windows' logits back and decodes it
(:meth:`~deid_core.ner.pipeline.NerModel.spans`).

A note's spans do not depend on the other notes: padding is masked, and the model forms the CLI
runs compute each window alone (the fp32 form; the integer forms quantise each token from its own
range, :mod:`deid_core.ner.int8`), so the logits of a window are the same bit for bit whatever
shares its batch (``tests/test_ner_batching.py``). So ``predict_many(texts)`` equals
``[predict(t) for t in texts]``, only sooner: many short notes share a call (per call,
onnxruntime costs about as much as a 30-token window), and long notes run in small batches that
stay in the CPU's cache (on this 2-core machine 64 windows a call took 1.6 times as long per
window as 1 or 2: ``scripts/bench_ner.py``).

Pure Python, standard library only.
"""
from __future__ import annotations

from typing import Sequence

from ..spans import Span
from .pipeline import Infer, NerModel, Prepared

__all__ = ["DEFAULT_POSITIONS", "plan_batches", "predict_many"]

#: Most model positions (windows x positions, padding included) per call: two full 128-position
#: windows, or eight 32-token notes (``scripts/bench_ner.py --positions`` measures others).
DEFAULT_POSITIONS = 256


def plan_batches(prepared: Sequence[Prepared], max_positions: int = DEFAULT_POSITIONS
                 ) -> list[list[tuple[int, int, int]]]:
    """The calls that run every window of ``prepared``: lists of ``(note, row, length)``, a
    note's index, the row of its batch (:attr:`Prepared.input_ids`) and the window's length in
    positions (its tokens + ``[CLS]`` + ``[SEP]``), windows sorted by length (then note, row),
    cut so that ``len(call) * longest <= max_positions`` (one window at least).

    Raises:
        ValueError: when ``max_positions < 1``.
    """
    if max_positions < 1:
        raise ValueError(f"max_positions must be at least 1, got {max_positions}")
    rows = sorted(((e - s + 2, i, r) for i, p in enumerate(prepared)
                   for r, (s, e) in enumerate(p.windows)))
    calls: list[list[tuple[int, int, int]]] = []
    call: list[tuple[int, int, int]] = []
    for length, i, r in rows:
        if call and (len(call) + 1) * length > max_positions:
            calls.append(call)
            call = []
        call.append((i, r, length))
    if call:
        calls.append(call)
    return calls


def predict_many(model: NerModel, texts: Sequence[str], infer: Infer,
                 max_positions: int = DEFAULT_POSITIONS) -> list[list[Span]]:
    """The model's spans for each of ``texts``, in order (module docstring).

    Args:
        model: the pre/post-processing.
        texts: the notes.
        infer: runs the model on one batch (``[B][T]`` ids, mask and case ids, right-padded)
            and returns ``[B][T'][L]`` logits (``T' >= T``; nested sequences or arrays).
        max_positions: most ``B * T`` per call (:func:`plan_batches`).

    Raises:
        TypeError: if a text is not a ``str``.
        ValueError: when ``infer`` returns the wrong number of rows, or on bad logits
            (:meth:`NerModel.spans`).
    """
    prepared = [model.prepare(t) for t in texts]
    logits: list[list] = [[None] * len(p.windows) for p in prepared]
    pad = model.tokenizer.pad_id
    for call in plan_batches(prepared, max_positions):
        width = call[-1][2]
        ids, mask, case = [], [], []
        for i, r, length in call:
            p, fill = prepared[i], width - length
            ids.append(p.input_ids[r][:length] + [pad] * fill)
            mask.append(p.attention_mask[r][:length] + [0] * fill)
            case.append(p.case_ids[r][:length] + [0] * fill)
        out = infer(ids, mask, case)
        if len(out) != len(call):
            raise ValueError(f"infer returned {len(out)} rows for a batch of {len(call)}")
        for (i, r, _), rows in zip(call, out):
            logits[i][r] = rows
    return [model.spans(t, p, lg) for t, p, lg in zip(texts, prepared, logits)]
