"""Decode per-token label probabilities of a BIO token classifier into character spans.

Input: the :class:`~deid_core.ner.wordpiece.Encoding` of a note (tokens, offsets, word ids) and
one probability row per token over a BIO label list such as
``["O", "B-NAME", "I-NAME", "B-AGE", "I-AGE"]`` (use :func:`softmax_rows` on raw logits, and
:func:`deid_core.ner.windows.merge` first for windowed notes).

Decoding, in order:

1. Word rows. A word (the sub-tokens sharing a word id) gets ONE row: with
   ``aggregation="first"`` (default) its first sub-token's row, the sub-token a BIO classifier is
   usually trained on; with ``"average"`` the element-wise mean of its sub-tokens' rows.
2. Word tag. For each entity type ``X`` its mass is ``p(B-X) + p(I-X)``; the word takes the type
   with the largest mass, or ``O`` when ``p(O)`` is larger than every type's mass (an entity
   type wins an exact tie with ``O``: recall first). Splitting B/I mass this way stops a word
   whose probability is spread over ``B-X`` and ``I-X`` from losing to a smaller ``O``. The word
   begins a span when ``p(B-X) >= p(I-X)``, otherwise it continues one. The word's confidence is
   the mass of its type.
3. Spans. A word tagged ``X`` continues the open span when that span has type ``X``, the previous
   word belongs to it and the word's boundary is ``I``; otherwise it opens a new span (so an
   ``I-`` with no ``B-`` before it starts a span, and ``B-X B-X`` gives two spans). ``O`` closes
   the open span. A span runs from its first token's start to its last token's end (white space
   between its words included) and is widened over characters right after it that the tokenizer
   drops (combining marks, zero-width characters), so a decomposed accent is not left behind.
4. Confidence of a span: the MINIMUM of its words' confidences (``confidence="min"``, default:
   a span is only as sure as its weakest word), or their mean (``"mean"``).
5. Output: spans with confidence below ``floor`` (default 0: none) are dropped; the others
   become :class:`deid_core.spans.Span` with the label ``label_map[X]``, tier ``"certain"``
   when confidence ``>= threshold`` else ``"review"``, and source
   ``"ner:<model_name>:p=<confidence to 2 decimals>"``.
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

from ..spans import CERTAIN, LABELS, REVIEW, Span
from .wordpiece import _GONE, _WHITESPACE, Encoding, _in

#: Entity type of the model -> i2b2 subtype of :data:`deid_core.spans.LABELS`. Every i2b2 subtype
#: maps to itself; coarse model types map to the most common subtype of their category (a model
#: ``NAME`` becomes ``PATIENT``; the category, NAME, is right either way). ``None`` would make
#: the decoder ignore a type.
DEFAULT_LABEL_MAP: dict[str, str | None] = {
    **{sub: sub for sub in LABELS},
    "NAME": "PATIENT",
    "PERSON": "PATIENT",
    "PER": "PATIENT",
    "LOCATION": "LOCATION-OTHER",
    "LOC": "LOCATION-OTHER",
    "GPE": "CITY",
    "ORG": "ORGANIZATION",
    "CONTACT": "PHONE",
    "ID": "IDNUM",
}


def softmax(row: Sequence[float]) -> list[float]:
    """Probabilities from one row of logits (numerically stable).

    Raises:
        ValueError: on an empty row.
    """
    if not row:
        raise ValueError("softmax of an empty row")
    m = max(row)
    exps = [math.exp(x - m) for x in row]
    total = sum(exps)
    return [x / total for x in exps]


def softmax_rows(logits: Sequence[Sequence[float]]) -> list[list[float]]:
    """:func:`softmax` applied to every row of a ``tokens x labels`` logit table."""
    return [softmax(r) for r in logits]


def rows_from_flat(flat: Sequence[float], n_labels: int) -> list[Sequence[float]]:
    """Cut a flat ``tokens * labels`` buffer (e.g. an ONNX output tensor) into rows.

    Raises:
        ValueError: if ``n_labels < 1`` or the length is not a multiple of ``n_labels``.
    """
    if n_labels < 1 or len(flat) % n_labels:
        raise ValueError(f"buffer of {len(flat)} values is not rows of {n_labels} labels")
    return [flat[i:i + n_labels] for i in range(0, len(flat), n_labels)]


def parse_labels(labels: Sequence[str]) -> tuple[list[str], dict[str, tuple[int | None, int | None]], int | None]:
    """Check a BIO label list and index it.

    Args:
        labels: ``"O"``, ``"B-X"``, ``"I-X"``; a bare ``"X"`` is read as ``"I-X"`` (IO scheme).

    Returns:
        ``(types, index, o_index)``: entity types in first-seen order; type -> (index of
        ``B-X`` or None, index of ``I-X`` or None); index of ``"O"`` or None.

    Raises:
        ValueError: on an empty list, a repeated label or an empty type name.
    """
    if not labels:
        raise ValueError("empty label list")
    if len(set(labels)) != len(labels):
        raise ValueError(f"repeated labels in {list(labels)}")
    types: list[str] = []
    index: dict[str, list[int | None]] = {}
    o_index = None
    for i, lab in enumerate(labels):
        if lab == "O":
            o_index = i
            continue
        if lab[:2] in ("B-", "I-"):
            kind, typ = lab[0], lab[2:]
        else:
            kind, typ = "I", lab
        if not typ:
            raise ValueError(f"label {lab!r} has no entity type")
        if typ not in index:
            index[typ] = [None, None]
            types.append(typ)
        index[typ][0 if kind == "B" else 1] = i
    return types, {t: (b, i) for t, (b, i) in index.items()}, o_index


def decode(text: str, encoding: Encoding, probs: Sequence[Sequence[float]],
           labels: Sequence[str], *, label_map: Mapping[str, str | None] | None = None,
           threshold: float = 0.5, model_name: str = "ner", aggregation: str = "first",
           confidence: str = "min", floor: float = 0.0) -> list[Span]:
    """Character spans from per-token label probabilities (rules in the module docstring).

    Args:
        text: the note the encoding was made from.
        encoding: its :class:`Encoding` (no special tokens).
        probs: one row per token of ``encoding``, ``len(labels)`` probabilities each.
        labels: the model's BIO label list, in output order.
        label_map: model entity type -> i2b2 subtype (or None to ignore the type); default
            :data:`DEFAULT_LABEL_MAP`.
        threshold: confidence at or above which a span is ``"certain"``; below: ``"review"``.
        model_name: written into each span's source.
        aggregation: ``"first"`` or ``"average"`` (word rows, see step 1).
        confidence: ``"min"`` or ``"mean"`` (span confidence, see step 4).
        floor: spans with confidence below it are dropped (step 5).

    Returns:
        Spans sorted by start, non-overlapping.

    Raises:
        ValueError: on a row count or row length mismatch, an entity type missing from the
            map, a map value that is not an i2b2 subtype, or an unknown option.
    """
    if aggregation not in ("first", "average"):
        raise ValueError(f"aggregation must be 'first' or 'average', got {aggregation!r}")
    if confidence not in ("min", "mean"):
        raise ValueError(f"confidence must be 'min' or 'mean', got {confidence!r}")
    if len(probs) != len(encoding.ids):
        raise ValueError(f"{len(probs)} probability rows for {len(encoding.ids)} tokens")
    if encoding.offsets and encoding.offsets[-1][1] > len(text):
        raise ValueError("encoding offsets run past the end of the text: wrong text?")
    n_labels = len(labels)
    for k, row in enumerate(probs):
        if len(row) != n_labels:
            raise ValueError(f"row {k} has {len(row)} values for {n_labels} labels")
    types, index, o_index = parse_labels(labels)
    lmap = DEFAULT_LABEL_MAP if label_map is None else label_map
    for typ in types:
        if typ not in lmap:
            raise ValueError(f"entity type {typ!r} is not in the label map")
        target = lmap[typ]
        if target is not None and target not in LABELS:
            raise ValueError(f"label map sends {typ!r} to {target!r}, not an i2b2 subtype")

    # 1-2: one (type, begins, confidence, start, end) per word, type None for O.
    word_tags: list[tuple[str | None, bool, float, int, int]] = []
    n = len(encoding.ids)
    k = 0
    while k < n:
        w = encoding.word_ids[k]
        j = k + 1
        while j < n and encoding.word_ids[j] == w:
            j += 1
        if aggregation == "first" or j - k == 1:
            row = probs[k]
        else:
            rows = probs[k:j]
            row = [sum(col) / (j - k) for col in zip(*rows)]
        best_type, best_mass = None, (row[o_index] if o_index is not None else -1.0)
        for typ in types:
            b, i = index[typ]
            mass = (row[b] if b is not None else 0.0) + (row[i] if i is not None else 0.0)
            if mass > best_mass or (best_type is None and mass == best_mass):
                best_type, best_mass = typ, mass
        begins = False
        if best_type is not None:
            b, i = index[best_type]
            pb = row[b] if b is not None else 0.0
            pi = row[i] if i is not None else 0.0
            begins = pb >= pi
        word_tags.append((best_type, begins, best_mass, encoding.offsets[k][0],
                          encoding.offsets[j - 1][1]))
        k = j

    # 3: join words into spans.
    groups: list[tuple[str, int, int, list[float]]] = []
    open_group: list | None = None
    for typ, begins, conf, start, end in word_tags:
        if typ is None:
            open_group = None
            continue
        if open_group is not None and open_group[0] == typ and not begins:
            open_group[2] = end
            open_group[3].append(conf)
        else:
            open_group = [typ, start, end, [conf]]
            groups.append(open_group)  # type: ignore[arg-type]

    # 4-5: spans.
    out: list[Span] = []
    limit = len(text)
    for typ, start, end, confs in groups:
        target = lmap[typ]
        if target is None:
            continue
        while end < limit and text[end] not in _WHITESPACE and _in(_GONE, ord(text[end])):
            end += 1
        conf = min(confs) if confidence == "min" else sum(confs) / len(confs)
        if conf < floor:
            continue
        tier = CERTAIN if conf >= threshold else REVIEW
        out.append(Span(start, end, target, tier, f"ner:{model_name}:p={conf:.2f}"))
    return out
