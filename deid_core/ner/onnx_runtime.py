"""Run the NER model in CPython with the optional ``onnxruntime`` package.

``onnxruntime`` (and the ``numpy`` it brings) is imported lazily, only when a session is made:
the rest of ``deid_core`` stays standard-library only. Install it with
``pip install 'deid-core[ner]'`` (pinned to the onnxruntime-web version the page uses).

:class:`OnnxNer` pairs a :class:`~deid_core.ner.pipeline.NerModel` (pre/post-processing) with an
``onnxruntime.InferenceSession`` on ``ner.onnx``; :meth:`OnnxNer.spans` runs all windows of a note
in ONE ``session.run`` call.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Sequence

from ..spans import Span
from .int8 import FAST_DIR, FORMS, INT8_OPTIMIZATION, integer_graph
from .pipeline import ONNX_FILE, NerModel, model_dir

__all__ = ["OnnxNer", "OnnxUnavailable", "model_present", "onnxruntime_available"]

INSTALL_HINT = "pip install onnxruntime (or: pip install 'deid-core[ner]')"


class OnnxUnavailable(RuntimeError):
    """The model cannot run here: onnxruntime is missing, or the model files are unusable.
    The message is one line and says what to do."""


def model_present(directory: str | os.PathLike | None = None) -> bool:
    """True when ``<model dir>/ner.onnx`` exists (see :func:`~deid_core.ner.pipeline.model_dir`)."""
    return (model_dir(directory) / ONNX_FILE).is_file()


def onnxruntime_available() -> bool:
    """True when ``import onnxruntime`` works."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class OnnxNer:
    """The NER model run by onnxruntime on the CPU.

    Args:
        model: the pre/post-processing.
        session: an ``onnxruntime.InferenceSession`` of the model's ONNX file.
    """

    def __init__(self, model: NerModel, session) -> None:
        import numpy  # noqa: F401  (comes with onnxruntime)
        self.model = model
        self.session = session
        names = {i.name for i in session.get_inputs()}
        missing = {"input_ids", "attention_mask"} - names
        if missing:
            raise OnnxUnavailable(f"ONNX model lacks input(s) {sorted(missing)}")
        self._feeds = [n for n in ("input_ids", "attention_mask", "case_ids") if n in names]
        self._output = model.output

    @classmethod
    def load(cls, directory: str | os.PathLike | None = None, *, threads: int | None = None,
             check_hash: bool = True, form: str = "exact",
             integer: bool | None = None) -> "OnnxNer":
        """Load ``ner.json``, ``vocab.txt`` and ``ner.onnx`` from the model directory.

        Args:
            directory: model directory (default :func:`~deid_core.ner.pipeline.model_dir`).
            threads: onnxruntime intra-op threads (default: ``$DEID_NER_THREADS``, else
                ``min(2, cores)``: on the 2-core machine 2 threads gave 23 notes/s against 12
                with 1 (``scripts/bench_ner.py``), and the spans are identical for 1 and 2
                threads on all 210 corpus notes). ``0``: onnxruntime's default.
            check_hash: compare ``ner.onnx`` with ``ner.json``'s ``"sha256"`` (when given).
            form: ``"exact"``, the folder's model as shipped (fp32 compute: the page's spans),
                or ``"fast"``, the model of its ``fast/`` sub-folder run with integer matrix
                products (:mod:`deid_core.ner.int8`; spans not the page's).
            integer: run the model with integer matrix products (sources then read
                ``ner:<name>-int8:p=...``); default: for ``"fast"`` only. ``True`` with
                ``"exact"`` runs the folder's own model in integer form (benchmarks).

        Raises:
            OnnxUnavailable: one-line reason: onnxruntime not installed, a file missing or bad,
                or the ONNX file does not match ``ner.json``, an unknown ``form``, or
                the integer form without the ``onnx`` package.
        """
        if form not in FORMS:
            raise OnnxUnavailable(f"unknown model form {form!r}: choose one of {', '.join(FORMS)}")
        if integer is None:
            integer = form == "fast"
        if form == "fast":
            directory = model_dir(directory) / FAST_DIR
        try:
            import onnxruntime as ort
        except ImportError:
            raise OnnxUnavailable(f"the NER model needs onnxruntime: {INSTALL_HINT}, "
                                  f"or use --rules-only") from None
        try:
            model = NerModel.load(directory)
        except (OSError, ValueError) as e:
            raise OnnxUnavailable(f"cannot load the NER model: {e}") from None
        path = model.onnx_path
        if path is None or not path.is_file():
            raise OnnxUnavailable(f"NER model file {path} not found")
        want = model.config.get("sha256")
        if check_hash and want and _sha256(path) != want:
            raise OnnxUnavailable(f"{path} does not match the sha256 in {path.parent / 'ner.json'}")
        source: str | bytes = str(path)
        if integer:
            try:
                source, _ = integer_graph(path)
            except ImportError:
                raise OnnxUnavailable("the fast model form needs the onnx package: pip install onnx "
                                      "(or: pip install deid-core)") from None
            except ValueError as e:
                raise OnnxUnavailable(str(e)) from None
            except Exception as e:  # onnx / protobuf raise their own types on a damaged file
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise OnnxUnavailable(f"cannot read {path} as an ONNX model: {first}") from None
            model.name = f"{model.name}-int8"
        opts = ort.SessionOptions()
        # Basic optimisations only (constant folding, which dequantises the int8 weights once):
        # the extended fusions (attention, GELU) reorder float sums, and the page's
        # onnxruntime-web does not apply them, so its spans would differ from the CLI's.
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        if integer:
            opts.graph_optimization_level = getattr(ort.GraphOptimizationLevel, INT8_OPTIMIZATION)
        if threads is None:
            env = os.environ.get("DEID_NER_THREADS", "").strip()
            try:
                threads = int(env) if env else min(2, os.cpu_count() or 1)
            except ValueError:
                raise OnnxUnavailable(f"DEID_NER_THREADS must be an integer, got {env!r}") from None
        if threads:
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
        try:
            session = ort.InferenceSession(source, sess_options=opts,
                                           providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own exception types
            raise OnnxUnavailable(f"onnxruntime cannot load {path}: {str(e).splitlines()[0]}") from None
        return cls(model, session)

    def infer(self, input_ids: Sequence, attention_mask: Sequence, case_ids: Sequence) -> list:
        """One ``session.run`` over a batch: ``[B][T]`` ints each -> logits ``[B][T][L]`` lists."""
        import numpy as np
        if not len(input_ids):
            return []
        arrays = {"input_ids": input_ids, "attention_mask": attention_mask, "case_ids": case_ids}
        feeds = {n: np.asarray(arrays[n], dtype=np.int64) for n in self._feeds}
        (out,) = self.session.run([self._output], feeds)
        return out.tolist()

    def spans(self, text: str) -> list[Span]:
        """The model's spans for ``text`` (:meth:`NerModel.predict` with :meth:`infer`)."""
        return self.model.predict(text, self.infer)
