"""Run the NER model in CPython with the optional ``onnxruntime`` package.

``onnxruntime`` (and the ``numpy`` it brings) is imported lazily, only when a session is made:
the rest of ``deid_core`` stays standard-library only. Install it with
``pip install 'deid-core[ner]'`` (pinned to the onnxruntime-web version the page uses).

:class:`OnnxNer` pairs a :class:`~deid_core.ner.pipeline.NerModel` (pre/post-processing) with an
``onnxruntime.InferenceSession`` on ``ner.onnx``; :meth:`OnnxNer.spans_many` runs the windows
of many notes together, in small batches (:mod:`deid_core.ner.batching`), and :meth:`OnnxNer.spans`
one note.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Sequence

from ..spans import Span
from .batching import DEFAULT_POSITIONS, predict_many
from .int8 import EXACT_CONFIG, FAST_DIR, FORMS, INT8_OPTIMIZATION, INTEGER_FORMS, integer_graph
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
        self._o_logits = [0.0] + [-1e4] * (len(model.labels) - 1)   # decodes as certain O

    @classmethod
    def load(cls, directory: str | os.PathLike | None = None, *, threads: int | None = None,
             check_hash: bool = True, form: str = "exact",
             integer: bool | None = None) -> "OnnxNer":
        """Load ``ner.json``, ``vocab.txt`` and ``ner.onnx`` from the model directory.

        Args:
            directory: model directory (default :func:`~deid_core.ner.pipeline.model_dir`).
            threads: onnxruntime intra-op threads (default: ``$DEID_NER_THREADS``, else 1:
                ``deid detect`` on the real-notes development half took 45 CPU-seconds with 1
                thread and 96 with 2 on this shared 2-core machine, and no less wall time;
                ``deid batch --jobs N`` runs one process a core). With more than one, idle
                threads sleep instead of spinning. The spans are the same for any count.
                ``0``: onnxruntime's default.
            check_hash: compare ``ner.onnx`` with ``ner.json``'s ``"sha256"`` (when given).
            form: ``"exact"``, the folder's model in fp32 (its weights dequantised once, at
                load: :data:`~deid_core.ner.int8.EXACT_CONFIG`; the shipped graph's logits, the
                page's spans), ``"integer"``, the same model with integer matrix products exact on
                every x86 CPU, or ``"fast"``, the model of its ``fast/`` sub-folder in integer
                form (:mod:`deid_core.ner.int8`; the integer forms' spans are not the page's).
            integer: run the model with integer matrix products (sources then read
                ``ner:<name>-int8:p=...``); default: for the integer forms only. ``True`` with
                ``"exact"`` is ``"integer"``; ``False`` with an integer form runs its model in fp32.

        Raises:
            OnnxUnavailable: one-line reason: onnxruntime not installed, a file missing or bad,
                or the ONNX file does not match ``ner.json``, an unknown ``form``, or
                the integer form without the ``onnx`` package.
        """
        if form not in FORMS:
            raise OnnxUnavailable(f"unknown model form {form!r}: choose one of {', '.join(FORMS)}")
        if integer is None:
            integer = form in INTEGER_FORMS
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
        config = {} if integer else EXACT_CONFIG   # fp32: the weights dequantised once, at load
        if integer:
            try:
                source, _ = integer_graph(path)
            except ImportError:
                raise OnnxUnavailable(f"the {form} model form needs the onnx package: pip install "
                                      f"onnx (or: pip install deid-core)") from None
            except ValueError as e:
                raise OnnxUnavailable(str(e)) from None
            except Exception as e:  # onnx / protobuf raise their own types on a damaged file
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise OnnxUnavailable(f"cannot load {path}: cannot read it as an ONNX model ({first})") from None
            model.name = f"{model.name}-int8"
        opts = ort.SessionOptions()
        # Basic optimisations only for the fp32 form: the extended fusions (skip-LayerNorm, GELU)
        # reorder float sums, and the page's onnxruntime-web does not apply them, so its spans
        # would differ from the CLI's.
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        for key, value in config.items():
            opts.add_session_config_entry(key, value)
        if integer:
            opts.graph_optimization_level = getattr(ort.GraphOptimizationLevel, INT8_OPTIMIZATION)
        if threads is None:
            env = os.environ.get("DEID_NER_THREADS", "").strip()
            try:
                threads = int(env) if env else 1
            except ValueError:
                raise OnnxUnavailable(f"DEID_NER_THREADS must be an integer, got {env!r}") from None
        if threads:
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
        if threads != 1:   # threads that spin while they wait burn a core's CPU doing nothing
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
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

    def _infer_rows(self, input_ids: Sequence, attention_mask: Sequence, case_ids: Sequence) -> list:
        """:meth:`infer`, with every row whose ``O`` logit leads the others by more than
        :attr:`NerModel.o_margin` given as one shared row that decodes the same (certain ``O``):
        spans are unchanged (:meth:`NerModel._word_probs`), and a megabyte note keeps a few
        megabytes of rows instead of a Python float per logit (hundreds of megabytes)."""
        import numpy as np
        if not len(input_ids):
            return []
        arrays = {"input_ids": input_ids, "attention_mask": attention_mask, "case_ids": case_ids}
        feeds = {n: np.asarray(arrays[n], dtype=np.int64) for n in self._feeds}
        (out,) = self.session.run([self._output], feeds)
        lead = out[..., 0] - out[..., 1:].max(axis=-1)
        keep = ~(lead > self.model.o_margin)          # NaN: kept, so spans() reports it
        o_row = self._o_logits
        rows = []
        for b, kept in enumerate(keep.tolist()):
            if not any(kept):
                rows.append([o_row] * len(kept))
                continue
            window = out[b]
            rows.append([window[t].tolist() if k else o_row for t, k in enumerate(kept)])
        return rows

    def spans(self, text: str) -> list[Span]:
        """The model's spans for ``text`` (:meth:`spans_many` of one note)."""
        return self.spans_many([text])[0]

    def spans_many(self, texts: Sequence[str], max_positions: int | None = None) -> list[list[Span]]:
        """The model's spans for each of ``texts``, their windows run together in calls of at
        most ``max_positions`` positions (:func:`deid_core.ner.batching.predict_many`; default
        :data:`~deid_core.ner.batching.DEFAULT_POSITIONS`): the same spans as one note at a
        time, sooner for short notes.

        Raises:
            TypeError: if a text is not a ``str``; ValueError: on bad logits.
        """
        return predict_many(self.model, texts, self._infer_rows, max_positions or DEFAULT_POSITIONS)
