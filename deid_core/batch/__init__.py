"""Corpus-scale de-identification: ``deid batch`` (:mod:`.run`), one engine per process
(:mod:`.engine`), the worker pool (:mod:`.pool`, also used by ``deid harvest``), streaming
readers (:mod:`.io`), the resumable output (:mod:`.output`) and the command-line parsing
(:mod:`.cli`).

Needs nothing beyond the standard library except ``tqdm`` for the progress bar, ``onnxruntime``
for the model and, for Parquet input, ``pyarrow``. Not loaded by the page.
"""
from .engine import BATCH_MODES, Config, Engine, ModelError, engine_for
from .io import InputError, Record, read_records
from .output import OutputError
from .run import Summary, run_batch

__all__ = ["BATCH_MODES", "Config", "Engine", "InputError", "ModelError", "OutputError", "Record",
           "Summary", "engine_for", "read_records", "run_batch"]
