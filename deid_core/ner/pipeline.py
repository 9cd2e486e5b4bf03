"""The NER model's pre- and post-processing, shared by the CLI (CPython) and the page (Pyodide).

The host runs only the ONNX session; everything before and after it is here, so the page and the
CLI give identical spans for a note given the same logits:

1. :meth:`NerModel.prepare` (text -> :class:`Prepared`): WordPiece encoding with offsets into the
   original text, the token case feature (:mod:`deid_core.ner.case`), overlapping windows
   (:func:`deid_core.ner.windows.windows`; ``"stride"`` from ``ner.json``, else half a window),
   each window wrapped in
   ``[CLS] ... [SEP]``; windows where no name or place can be are skipped and repeated
   windows run once (:mod:`deid_core.ner.skip`; :attr:`Prepared.rows`); ALL windows that run
   form ONE batch, padded at the right to the batch's longest window with ``[PAD]`` id,
   attention mask 0 and case id 0. Shapes: ``[B, T]`` with ``B``
   the number of windows and ``T = max window length + 2 <= max_len``; a note without tokens has
   ``B = 0`` and the host must not run the model (:meth:`predict` does not).
2. (host) ``logits = session.run(input_ids, attention_mask, case_ids)``: float ``[B, T, L]`` with
   ``L = len(labels)``. A long note's batch is run in consecutive chunks of at most
   :attr:`NerModel.max_batch` windows (64 by default, ``"max_batch"`` in ``ner.json``; about 8,000
   tokens, so notes up to ~25 KB take one call), bounding memory; the chunks' logits are
   concatenated in order. Hosts must chunk the same way (:meth:`Prepared.chunks`).
3. :meth:`NerModel.spans` (text, prepared, logits -> spans): each window's rows ``1..n+1`` (its
   note tokens; ``[CLS]``, ``[SEP]`` and padding rows ignored), :func:`~deid_core.ner.windows.merge`
   (each token keeps the row of the window where it has most context), softmax, then
   :func:`~deid_core.ner.decode.decode` with the model's labels, label map and threshold:
   spans of tier ``certain`` at confidence ``>= threshold`` and ``review`` below, source
   ``"ner:<name>:p=<confidence>"``.

The same note is always cut, padded and chunked the same way, so a quantised model (whose
dynamic activation quantisation sees the whole batch) gets the same input in the page and the
CLI.

Model files (directory ``model/`` beside the ``deid_core`` package, or ``$DEID_MODEL_DIR``):
``ner.json`` ``{"name", "labels", "max_len", "threshold", "case_feature", "inputs", "output",
"sha256", "bytes"}`` (optional ``"label_map"`` {model type: i2b2 subtype}, ``"stride"``,
``"max_batch"``, ``"floor"``: spans with confidence below it are dropped, default 0),
``vocab.txt`` and ``ner.onnx`` (read by the host, not here).

Page helpers (JSON strings in and out, for the worker): :func:`load_model_json`,
:func:`prepare_json`, :func:`finish_json` (and :func:`spans_json`, the same with the prepared
JSON passed back).
"""
from __future__ import annotations

import json
import math
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..spans import LABELS, Span
from .case import case_ids as _case_ids
from .decode import DEFAULT_LABEL_MAP, decode, parse_labels
from .skip import anchored_windows, plan_rows, unskip
from .windows import merge, windows
from .wordpiece import Encoding, WordPiece

__all__ = [
    "CONFIG_FILE", "DEFAULT_MODEL_DIR", "Infer", "NerModel", "Prepared", "VOCAB_FILE",
    "finish_json", "load_model_json", "model_dir", "prepare_json", "spans_json",
]

#: ``model/`` beside the ``deid_core`` package (the repository's model folder), else the copy
#: an installed package ships as ``deid_core/_model``.
_PKG = Path(__file__).resolve().parent.parent
DEFAULT_MODEL_DIR = next((d for d in (_PKG.parent / "model", _PKG / "_model") if (d / "ner.json").is_file()),
                         _PKG.parent / "model")
CONFIG_FILE = "ner.json"
#: Most windows per model call (see the module docstring, step 2).
DEFAULT_MAX_BATCH = 64
VOCAB_FILE = "vocab.txt"
ONNX_FILE = "ner.onnx"

#: ``infer(input_ids, attention_mask, case_ids) -> logits``: each argument ``[B][T]`` ints,
#: the result ``[B][T][L]`` floats (nested sequences; numpy arrays work too).
Infer = Callable[[list, list, list], Sequence]


def model_dir(path: str | os.PathLike | None = None) -> Path:
    """The model directory: ``path``, else ``$DEID_MODEL_DIR``, else :data:`DEFAULT_MODEL_DIR`."""
    if path is not None:
        return Path(path)
    env = os.environ.get("DEID_MODEL_DIR")
    return Path(env) if env else DEFAULT_MODEL_DIR


@dataclass(frozen=True)
class Prepared:
    """One note made ready for the model (see the module docstring, step 1).

    Attributes:
        text: the note.
        encoding: its :class:`Encoding` (note tokens, no special tokens).
        windows: ``(start, end)`` token ranges, one per batch row (the windows the model runs).
        input_ids, attention_mask, case_ids: ``[B][T]`` int lists, right-padded.
        all_windows: every window of the note, run or not (:mod:`deid_core.ner.skip`; after a
            skipped window the grid restarts at the next nameable word, so tokens jumped over
            are in none);
            empty means ``windows``.
        rows: per window of ``all_windows``, the batch row whose logits it takes, ``-1`` for
            a skipped window (its tokens are ``O`` unless a window that runs covers them).
    """

    text: str
    encoding: Encoding
    windows: tuple[tuple[int, int], ...]
    input_ids: list[list[int]]
    attention_mask: list[list[int]]
    case_ids: list[list[int]]
    all_windows: tuple[tuple[int, int], ...] = ()
    rows: tuple[int, ...] = ()

    @property
    def dims(self) -> tuple[int, int]:
        """``(B, T)``: windows in the batch, positions per window (0, 0 for an empty note)."""
        return (len(self.input_ids), len(self.input_ids[0]) if self.input_ids else 0)

    def chunks(self, max_batch: int) -> list[tuple[int, int]]:
        """``(first, stop)`` row ranges of consecutive batches of at most ``max_batch`` windows."""
        b = len(self.input_ids)
        return [(i, min(i + max_batch, b)) for i in range(0, b, max_batch)]

    def to_json_dict(self) -> dict:
        """``{"input_ids", "attention_mask", "case_ids"}`` flattened row-major, and ``"dims"``."""
        return {"input_ids": [v for r in self.input_ids for v in r],
                "attention_mask": [v for r in self.attention_mask for v in r],
                "case_ids": [v for r in self.case_ids for v in r],
                "dims": list(self.dims)}


class NerModel:
    """A token-classification model's configuration and tokenizer (no weights: the host runs it).

    Args:
        config: the ``ner.json`` mapping (module docstring).
        tokenizer: the :class:`WordPiece` of the model's ``vocab.txt``.
        directory: where the files came from (``None`` when built from texts).

    Raises:
        ValueError: on a config without ``name``/``labels``/``max_len``/``threshold``, labels that
            are not a BIO list starting with ``"O"``, ``max_len < 3``, a threshold outside
            ``0..1`` (or a floor outside ``0..1``), or an entity type missing from the label map.
    """

    def __init__(self, config: Mapping[str, Any], tokenizer: WordPiece,
                 directory: Path | None = None) -> None:
        for field in ("name", "labels", "max_len", "threshold"):
            if field not in config:
                raise ValueError(f"model config has no {field!r}")
        labels = config["labels"]
        if (not isinstance(labels, list) or not labels or labels[0] != "O"
                or not all(isinstance(x, str) for x in labels)):
            raise ValueError(f"model labels must be a list of strings starting with 'O', got {labels!r}")
        types, _, _ = parse_labels(labels)
        max_len = config["max_len"]
        if not isinstance(max_len, int) or max_len < 3:
            raise ValueError(f"model max_len must be an int >= 3, got {max_len!r}")
        threshold = config["threshold"]
        if not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
            raise ValueError(f"model threshold must be between 0 and 1, got {threshold!r}")
        floor = config.get("floor", 0.0)
        if not isinstance(floor, (int, float)) or not 0.0 <= floor <= 1.0:
            raise ValueError(f"model floor must be between 0 and 1, got {floor!r}")
        label_map = dict(DEFAULT_LABEL_MAP)
        label_map.update(config.get("label_map") or {})
        for typ in types:
            if typ not in label_map:
                raise ValueError(f"model entity type {typ!r} has no i2b2 label (add it to label_map)")
            if label_map[typ] is not None and label_map[typ] not in LABELS:
                raise ValueError(f"label_map sends {typ!r} to {label_map[typ]!r}, not an i2b2 subtype")
        self.config = dict(config)
        self.name: str = str(config["name"])
        self.labels: list[str] = list(labels)
        self.max_len: int = max_len
        self.threshold: float = float(threshold)
        #: model spans with confidence below this are dropped (``"floor"`` in ``ner.json``)
        self.floor: float = float(floor)
        self.stride: int | None = config.get("stride")
        max_batch = config.get("max_batch", DEFAULT_MAX_BATCH)
        if not isinstance(max_batch, int) or max_batch < 1:
            raise ValueError(f"model max_batch must be an int >= 1, got {max_batch!r}")
        self.max_batch: int = max_batch
        self.case_feature: bool = bool(config.get("case_feature", True))
        #: skip windows without a nameable word and run repeated windows once
        #: (:mod:`deid_core.ner.skip`; ``"skip": false`` in ``ner.json`` turns it off)
        self.skip: bool = bool(config.get("skip", True))
        self.inputs: list[str] = list(config.get("inputs") or
                                      ["input_ids", "attention_mask", "case_ids"])
        self.output: str = str(config.get("output") or "logits")
        self.label_map = label_map
        #: a row decode reads as certain ``O``, and the lead of the ``O`` logit over every other
        #: logit beyond which a word is ``O`` whatever its other values (:meth:`_word_probs`)
        self._o_row = [1.0] + [0.0] * (len(labels) - 1)
        self.o_margin = math.log(max(1, len(labels) - 1)) + 0.5
        self.tokenizer = tokenizer
        self.directory = directory

    # -- loading -----------------------------------------------------------------------------
    @classmethod
    def load(cls, directory: str | os.PathLike | None = None) -> "NerModel":
        """Read ``ner.json`` and ``vocab.txt`` from :func:`model_dir` ``(directory)``.

        Raises:
            FileNotFoundError: if either file is missing; ValueError: on a bad config or vocab.
        """
        d = model_dir(directory)
        cfg_path, vocab_path = d / CONFIG_FILE, d / VOCAB_FILE
        for p in (cfg_path, vocab_path):
            if not p.is_file():
                raise FileNotFoundError(f"NER model file {p} not found")
        try:
            config = json.loads(cfg_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise ValueError(f"{cfg_path}: not JSON: {e}") from None
        if not isinstance(config, dict):
            raise ValueError(f"{cfg_path}: expected a JSON object")
        return cls(config, WordPiece.from_file(vocab_path), d)

    @classmethod
    def from_texts(cls, config_json: str, vocab_text: str) -> "NerModel":
        """Build from the contents of ``ner.json`` and ``vocab.txt`` (the page has no files).

        Raises:
            ValueError: on bad JSON, a bad config or vocabulary.
        """
        config = json.loads(config_json)
        if not isinstance(config, dict):
            raise ValueError("model config must be a JSON object")
        return cls(config, WordPiece.from_vocab_text(vocab_text))

    @property
    def onnx_path(self) -> Path | None:
        """``<directory>/ner.onnx`` (``None`` when the model was built from texts)."""
        return None if self.directory is None else self.directory / ONNX_FILE

    # -- the pipeline ------------------------------------------------------------------------
    def prepare(self, text: str) -> Prepared:
        """Tokenize, compute case ids, window and pad ``text`` (module docstring, step 1).

        Raises:
            TypeError: if ``text`` is not a ``str``.
        """
        enc = self.tokenizer.encode(text)
        n = len(enc.ids)
        size = self.max_len - 2
        all_wins = anchored_windows(text, enc.offsets, n, size, self.stride or max(1, size // 2)) \
            if self.skip else windows(n, self.max_len, self.stride)
        cases = _case_ids(text, enc.offsets, enc.word_ids) if self.case_feature else [0] * n
        rows = plan_rows(text, enc.offsets, all_wins, enc.ids, cases) if self.skip else list(
            range(len(all_wins)))
        wins = []
        for w, r in zip(all_wins, rows):
            if r == len(wins):   # a row's first window (rows are numbered in window order)
                wins.append(w)
        width = max(e - s for s, e in wins) + 2 if wins else 0
        tok = self.tokenizer
        ids_rows: list[list[int]] = []
        mask_rows: list[list[int]] = []
        case_rows: list[list[int]] = []
        for s, e in wins:
            pad = width - (e - s + 2)
            ids_rows.append([tok.cls_id, *enc.ids[s:e], tok.sep_id] + [tok.pad_id] * pad)
            mask_rows.append([1] * (e - s + 2) + [0] * pad)
            case_rows.append([0, *cases[s:e], 0] + [0] * pad)
        return Prepared(text, enc, tuple(wins), ids_rows, mask_rows, case_rows, tuple(all_wins),
                        tuple(rows))

    def spans(self, text: str, prepared: Prepared, logits: Sequence) -> list[Span]:
        """Spans from the model's logits for ``prepared`` (module docstring, step 3).

        Args:
            text: the note ``prepared`` was made from.
            prepared: :meth:`prepare` ``(text)``.
            logits: ``[B][T'][L]`` with ``B`` and ``L`` as prepared and the model's labels,
                ``T' >= `` each window's length + 2 (extra rows are padding and ignored).

        Returns:
            Spans sorted by start, non-overlapping, tier by :attr:`threshold`.

        Raises:
            ValueError: if ``prepared`` is for another text, or on logits of the wrong shape or
                containing NaN.
        """
        if prepared.text is not text and prepared.text != text:
            raise ValueError("prepared input was made from another text")
        wins = prepared.windows
        if len(logits) != len(wins):
            raise ValueError(f"logits have {len(logits)} rows for a batch of {len(wins)} windows")
        if not wins:
            return []   # no window runs: no token can be a name (or the note has none)
        bodies = []
        for k, (s, e) in enumerate(wins):
            rows = logits[k]
            if len(rows) < e - s + 2:
                raise ValueError(f"window {k} has {len(rows)} logit rows, needs {e - s + 2}")
            bodies.append(rows[1:e - s + 1])
        n_labels = len(self.labels)
        if prepared.all_windows and prepared.all_windows != wins:
            wins, bodies = unskip(len(prepared.encoding.ids), prepared.all_windows, prepared.rows,
                                  bodies, n_labels)
        merged = merge(len(prepared.encoding.ids), wins, bodies)
        return decode(text, prepared.encoding, self._word_probs(prepared.encoding, merged),
                      self.labels, label_map=self.label_map,
                      threshold=self.threshold, model_name=self.name, floor=self.floor)

    def _word_probs(self, encoding: Encoding, merged: Sequence[Sequence[float]]) -> list:
        """The probability rows :func:`~deid_core.ner.decode.decode` reads, one per token.

        Decode (``aggregation="first"``) reads only a word's first token's row, and only to
        compare ``p(O)`` with each type's ``p(B) + p(I)``. So the softmax is computed for first
        tokens alone, and not even there when the ``O`` logit leads every other logit by more
        than :attr:`o_margin` (``ln(L - 1) + 0.5``): then ``p(O) >= 0.62`` and no type's mass
        can reach it, the word is ``O`` whatever the other values, and the row given is the
        constant ``[1, 0, ...]`` (same tag, same spans; about 30 times fewer ``exp`` calls on
        real notes). Every row is still checked for its length and for NaN.

        Raises:
            ValueError: on a row of the wrong length or holding NaN.
        """
        n_labels = len(self.labels)
        o_row = self._o_row
        margin = self.o_margin
        word_ids = encoding.word_ids
        probs = []
        done: dict[int, list[float]] = {}   # id(row) -> probabilities: a repeated or skipped
        prev = None                         # window's rows are the same objects (all alive in
        for k, row in enumerate(merged):    # ``merged``)
            first = word_ids[k] != prev
            prev = word_ids[k]
            p = done.get(id(row))
            if p is None:
                if len(row) != n_labels:
                    raise ValueError(f"logit rows have {len(row)} values for {n_labels} labels")
                total = sum(row)
                if total != total:
                    raise ValueError("logits contain NaN")
                if not first:
                    probs.append(o_row)     # decode never reads it (not the word's first row)
                    continue
                p = done[id(row)] = o_row if row[0] - max(row[1:]) > margin else _softmax(row)
            probs.append(p)
        return probs


    def predict(self, text: str, infer: Infer) -> list[Span]:
        """:meth:`prepare`, one ``infer`` call per chunk of at most :attr:`max_batch` windows
        (one call for notes up to ~25 KB, none for a note without tokens), :meth:`spans`."""
        prepared = self.prepare(text)
        logits: list = []
        for a, b in prepared.chunks(self.max_batch):
            out = infer(prepared.input_ids[a:b], prepared.attention_mask[a:b], prepared.case_ids[a:b])
            if len(out) != b - a:
                raise ValueError(f"infer returned {len(out)} rows for a batch of {b - a}")
            logits.extend(out)
        return self.spans(text, prepared, logits)

    def spans_from_flat(self, text: str, prepared: Prepared, logits_flat: Sequence[float],
                        dims: Sequence[int]) -> list[Span]:
        """:meth:`spans` from a flat row-major ``B * T * L`` buffer (an ONNX tensor's data).

        Args:
            dims: ``[B, T]`` or ``[B, T, L]``.

        Raises:
            ValueError: if the dims disagree with ``prepared``, the labels, or the buffer length.
        """
        dims = [int(x) for x in dims]
        n_labels = len(self.labels)
        if len(dims) == 2:
            dims.append(n_labels)
        if len(dims) != 3:
            raise ValueError(f"dims must be [B, T] or [B, T, L], got {dims}")
        b, t, l = dims
        if l != n_labels:
            raise ValueError(f"logits have {l} labels, the model has {n_labels}")
        if b != len(prepared.windows):
            raise ValueError(f"logits have {b} windows, the prepared batch {len(prepared.windows)}")
        if len(logits_flat) != b * t * l:
            raise ValueError(f"logit buffer has {len(logits_flat)} values, dims {dims} need {b * t * l}")
        flat = list(logits_flat)
        nested = [[flat[(i * t + j) * l:(i * t + j + 1) * l] for j in range(t)] for i in range(b)]
        return self.spans(text, prepared, nested)


def _softmax(row: Sequence[float]) -> list[float]:
    m = max(row)
    if m != m or any(x != x for x in row):
        raise ValueError("logits contain NaN")
    exps = [math.exp(x - m) for x in row]
    total = sum(exps)
    return [x / total for x in exps]


# -- page helpers (JSON strings in and out) ------------------------------------------------------

_page_model: NerModel | None = None
_prepared_cache: "OrderedDict[str, Prepared]" = OrderedDict()
_CACHE_SIZE = 8


def _model() -> NerModel:
    global _page_model
    if _page_model is None:
        _page_model = NerModel.load()
    return _page_model


def load_model_json(config_json: str, vocab_text: str) -> str:
    """Set the model the JSON helpers use, from the texts of ``ner.json`` and ``vocab.txt``.

    Returns:
        ``{"name", "labels", "max_len", "threshold", "inputs", "output", "max_batch"}`` as JSON, or
        ``{"error": message}``. Never raises for bad input.
    """
    global _page_model
    try:
        m = NerModel.from_texts(config_json, vocab_text)
    except (TypeError, ValueError) as e:
        return json.dumps({"error": f"bad NER model files: {e}"})
    _page_model = m
    _prepared_cache.clear()
    return json.dumps({"name": m.name, "labels": m.labels, "max_len": m.max_len,
                       "threshold": m.threshold, "inputs": m.inputs, "output": m.output,
                       "max_batch": m.max_batch})


def _prepared(text: str) -> Prepared:
    hit = _prepared_cache.get(text)
    if hit is not None:
        _prepared_cache.move_to_end(text)
        return hit
    p = _model().prepare(text)
    _prepared_cache[text] = p
    while len(_prepared_cache) > _CACHE_SIZE:
        _prepared_cache.popitem(last=False)
    return p


def prepare_json(text: str) -> str:
    """The model inputs for ``text`` as JSON: ``{"input_ids", "attention_mask", "case_ids"}``
    (flat row-major int lists), ``"dims": [B, T]`` and ``"chunks": [[first, stop], ...]`` (run
    rows ``first..stop-1`` as one batch, for each chunk in order, and concatenate the logits);
    ``B == 0``: no chunks, do not run the model, pass an empty buffer to :func:`finish_json`.
    Or ``{"error": message}``. The prepared note is cached (last 8 texts) for
    :func:`finish_json`."""
    if not isinstance(text, str):
        return json.dumps({"error": f"text must be a string, not {type(text).__name__}"})
    try:
        m = _model()
        p = _prepared(text)
        return json.dumps({**p.to_json_dict(), "chunks": [list(c) for c in p.chunks(m.max_batch)]})
    except (OSError, ValueError) as e:
        return json.dumps({"error": str(e)})


def finish_json(text: str, logits_flat: Any, dims: Any) -> str:
    """The model's spans for ``text`` as a JSON list of :meth:`Span.to_dict` dicts (the
    ``model_spans`` of :func:`deid_core.api.process`), or ``{"error": message}``.

    Args:
        text: the note given to :func:`prepare_json`.
        logits_flat: the ``logits`` data of all chunks concatenated, flat row-major: a list of
            floats, any sequence or iterable (in Pyodide pass a ``Float32Array`` converted with
            ``.to_py()``, a memoryview), or a JSON string of a list.
        dims: ``[B, T]`` or ``[B, T, L]`` (a list or a JSON string).
    """
    try:
        if isinstance(logits_flat, str):
            logits_flat = json.loads(logits_flat)
        if isinstance(dims, str):
            dims = json.loads(dims)
        if not isinstance(logits_flat, Sequence):
            logits_flat = list(logits_flat)
        spans = _model().spans_from_flat(text, _prepared(text), logits_flat, list(dims))
    except (OSError, TypeError, ValueError) as e:
        return json.dumps({"error": str(e)})
    return json.dumps([s.to_dict() for s in spans])


def spans_json(text: str, prepared_json: str | None, logits_flat: Any, dims: Any) -> str:
    """:func:`finish_json` for the contract's signature: ``prepared_json`` (the output of
    :func:`prepare_json`) is only checked against ``dims``; the prepared note is rebuilt (or
    taken from the cache) from ``text``, deterministically."""
    if prepared_json is not None:
        try:
            pd = json.loads(prepared_json)
            want = list(pd["dims"])
            got = json.loads(dims) if isinstance(dims, str) else list(dims)
            if [int(x) for x in got[:2]] != want:
                return json.dumps({"error": f"dims {got} do not match the prepared input {want}"})
        except (TypeError, ValueError, KeyError) as e:
            return json.dumps({"error": f"bad prepared_json: {e}"})
    return finish_json(text, logits_flat, dims)

