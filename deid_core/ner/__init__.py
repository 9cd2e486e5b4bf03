"""Pre- and post-processing for the NER token classifier, shared by the page and the CLI.

Pure standard library. The model itself (ONNX, run by onnxruntime or onnxruntime-web) sits
between these steps:

1. :class:`WordPiece` ``.encode(text)`` -> :class:`Encoding` (ids, tokens, character offsets,
   word ids), identical to HuggingFace ``tokenizers`` for an uncased BERT vocabulary.
2. :func:`windows` cuts the token ids into overlapping windows of at most ``max_len`` model
   positions; :meth:`WordPiece.with_special` wraps each in ``[CLS] ... [SEP]``.
3. (model: one row of logits per position; :func:`softmax_rows`)
4. :func:`merge` keeps, per token, the row from the window where it has most context.
5. :func:`decode` turns rows into :class:`deid_core.spans.Span` values.

:mod:`deid_core.ner.case` computes the case feature (the encoder is uncased);
:mod:`deid_core.ner.pipeline` (:class:`NerModel`) chains all the steps around a host-supplied
``infer`` and holds the page's JSON helpers; :mod:`deid_core.ner.onnx_runtime` (not imported
here: it needs the optional ``onnxruntime``) is the CPython host.
"""
from .case import N_CASES, case_id, case_ids
from .decode import DEFAULT_LABEL_MAP, decode, parse_labels, rows_from_flat, softmax, softmax_rows
from .pipeline import NerModel, Prepared, finish_json, load_model_json, prepare_json, spans_json
from .windows import DEFAULT_MAX_LEN, merge, owner_windows, windows
from .wordpiece import Encoding, WordPiece

__all__ = [
    "DEFAULT_LABEL_MAP", "DEFAULT_MAX_LEN", "Encoding", "N_CASES", "NerModel", "Prepared",
    "WordPiece", "case_id", "case_ids", "decode", "finish_json", "load_model_json", "merge",
    "owner_windows", "parse_labels", "prepare_json", "rows_from_flat", "softmax", "softmax_rows",
    "spans_json", "windows",
]
