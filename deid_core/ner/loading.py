"""Loading the NER model for the CLI, ``deid batch``, ``deid harvest`` and Spark: the one place
the model folder is resolved and the one error a front end reports when the model cannot run.

:func:`load_model` resolves the folder once (``--model-dir``, else ``$DEID_MODEL_DIR``, else the
packaged model: :func:`deid_core.ner.pipeline.model_dir`), checks that ``ner.onnx`` is there and
loads it with onnxruntime (:class:`deid_core.ner.onnx_runtime.OnnxNer`, which imports
onnxruntime only when a session is made). A missing or broken model is a :class:`ModelError`
whose one-line message says what to do; it never falls back to the rules silently.
"""
from __future__ import annotations

import os

from .int8 import CLI_FORM, FAST_DIR
from .onnx_runtime import OnnxNer, OnnxUnavailable, model_present
from .pipeline import model_dir

__all__ = ["ModelError", "load_model"]


class ModelError(RuntimeError):
    """The NER model cannot be used; the one-line message says what to do."""


def load_model(directory: str | os.PathLike | None = None, threads: int | None = 1,
               form: str = CLI_FORM) -> OnnxNer:
    """The NER model of the model folder, in ``form``.

    Args:
        directory: the model folder (None: ``$DEID_MODEL_DIR``, else the packaged model).
        threads: onnxruntime threads (None: :meth:`OnnxNer.load`'s default; 0: onnxruntime's).
        form: ``"integer"`` (the folder's ``ner.onnx`` with integer matrix products, the
            CLI's default), ``"exact"`` (the same in fp32, the page's spans) or ``"fast"`` (its
            ``fast/`` sub-folder in integer form), :mod:`deid_core.ner.int8`.

    Raises:
        ModelError: the model is missing or cannot run; the message names the folder and says
            to install onnxruntime, pass ``--model-dir``, set ``DEID_MODEL_DIR`` or use
            ``--rules-only``.
    """
    where = model_dir(directory)
    if form == "fast":
        fast = where / FAST_DIR
        if not model_present(fast):
            raise ModelError(f"no fast model at {fast} (ner.onnx missing): --model-form fast reads "
                             f"the {FAST_DIR}/ folder inside the model folder (--model-dir DIR, "
                             f"DEID_MODEL_DIR, else the packaged model); use --model-form exact, "
                             f"reinstall deid-core, or use --rules-only")
        advice = f"model folder {fast}; fix it, use --model-form exact, or use --rules-only"
    else:
        if not model_present(where):
            raise ModelError(f"no NER model at {where} (ner.onnx missing): pass --model-dir DIR or set "
                             f"DEID_MODEL_DIR to the folder with ner.onnx, ner.json and vocab.txt, "
                             f"reinstall deid-core, or use --rules-only")
        advice = f"model folder {where}; fix it, pass --model-dir, or use --rules-only"
    try:
        return OnnxNer.load(where, threads=threads, form=form)
    except OnnxUnavailable as e:
        raise ModelError(f"{e} ({advice})") from None
