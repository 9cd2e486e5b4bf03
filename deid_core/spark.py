"""De-identify an Apache Spark DataFrame of notes: the same engine as ``deid batch``, one per
executor process.

Install with ``pip install 'deid-core[spark]'`` (pyspark 4, pandas, pyarrow; Java 17 for Spark).
:func:`deidentify` returns the DataFrame with four more columns, through ``mapInPandas``:

* ``deid_text`` (string; null in detect mode and for a failed row): the de-identified note;
* ``spans``: ``array<struct<start:int, end:int, label:string, tier:string, source:string,
  replaced:boolean>>``, offsets into the original text, as in ``deid batch`` output;
* ``phi_free``: ``array<array<int>>``, sentences the harvested inclusion list skipped;
* ``error`` (string, null when the row succeeded): why the row failed (no text, no patient,
  an exception), so one bad row never stops a job.

Each executor's Python worker builds ONE :class:`~deid_core.batch.engine.Engine` (lists, the NER
model session, harvested rules) on its first batch and reuses it for every later batch
(:func:`~deid_core.batch.engine.engine_for`). The key is stretched once, on the driver
(:func:`deid_core.linkage.master_secret`); only the 32-byte secret travels, inside the pickled
configuration of the function (never in the plan's text, Spark conf, logs or ``repr``). The same
key gives the same fakes and offsets as ``deid batch`` and ``deid surrogate``.

On a cluster (the model ships inside the wheel)::

    spark-submit --master yarn --py-files deid_core-0.1.0-py3-none-any.whl job.py

with ``job.py``::

    from pyspark.sql import SparkSession
    from deid_core.spark import deidentify
    spark = SparkSession.builder.getOrCreate()
    df = spark.read.parquet("notes.parquet")
    key = open("/secure/deid.key").read()   # or None: $DEID_KEY (read as deid batch reads it)
    deidentify(df, mode="surrogate", key=key, patient_col="patient_id") \\
        .write.parquet("notes_deid.parquet")

(install ``deid-core`` with its ``onnxruntime`` dependency on every executor, e.g. through the
cluster's Python environment or ``--archives`` of a packed venv).
"""
from __future__ import annotations

from collections.abc import Iterator

from .batch.engine import Config, engine_for
from .linkage import clean_key, master_secret, read_key
from .ner.int8 import CLI_FORM

__all__ = ["OUTPUT_COLUMNS", "SPAN_SCHEMA", "deidentify", "process_pandas"]

#: The columns :func:`deidentify` adds.
OUTPUT_COLUMNS: tuple[str, ...] = ("deid_text", "spans", "phi_free", "error")
#: The Spark SQL type of the ``spans`` column.
SPAN_SCHEMA = ("array<struct<start:int,end:int,label:string,tier:string,source:string,"
               "replaced:boolean>>")


def process_pandas(batches: Iterator, config: Config, text_col: str,
                   patient_col: str | None) -> Iterator:
    """The ``mapInPandas`` function: each pandas DataFrame batch with the four output columns
    added (module doc). Runs in the executor's Python worker."""
    engine = engine_for(config)
    for pdf in batches:
        texts, spans, safe, errors = [], [], [], []
        pats = pdf[patient_col].tolist() if patient_col else [None] * len(pdf)
        for text, pat in zip(pdf[text_col].tolist(), pats):
            pid = None if pat is None or pat != pat or pat == "" else str(pat)  # NaN != NaN
            error = None
            if not isinstance(text, str):
                error = f"no text: column {text_col!r} is null"
            elif patient_col and pid is None:
                error = f"no patient: column {patient_col!r} is null or empty"
            result = None
            if error is None:
                try:
                    result = engine.process(text, pid)
                except Exception as e:  # one bad row must not stop the job
                    error = f"{type(e).__name__}: {e}"
            if result is None:
                texts.append(None)
                spans.append([])
                safe.append([])
            else:
                texts.append(result.get("text"))
                spans.append(result["spans"])
                safe.append(result["phi_free"])
            errors.append(error)
        yield pdf.assign(deid_text=texts, spans=spans, phi_free=safe, error=errors)


def deidentify(df, *, mode: str = "redact", text_col: str = "text", patient_col: str | None = None,
               key: str | None = None, rules_only: bool = False, model_dir: str | None = None,
               mask_review: bool = False, rules_json: str | None = None, threads: int = 1,
               model_form: str = CLI_FORM, safe_harbor: bool = False):
    """``df`` with ``deid_text``, ``spans``, ``phi_free`` and ``error`` columns (module doc).

    Args:
        df: a ``pyspark.sql.DataFrame`` with a string column ``text_col``.
        mode: ``"redact"``, ``"surrogate"`` or ``"detect"``.
        text_col: the note column.
        patient_col: the patient id column: per-patient linkage as in ``deid batch
            --patient-field`` (:mod:`deid_core.linkage`); None: one key for every row.
        key: the master linkage key string (surrounding whitespace removed, as every command
            reads it: :func:`deid_core.linkage.clean_key`); None: ``$DEID_KEY`` on the driver,
            else a fresh secret for this call (never written anywhere).
        rules_only: no NER model.
        model_dir: the model folder on the executors (default: the packaged model).
        mask_review: also replace review (amber) spans.
        rules_json: the text of a ``rules.json`` from ``deid harvest``.
        threads: onnxruntime threads per executor Python worker.
        model_form: ``"integer"`` (default), ``"exact"`` (the page's spans) or ``"fast"``
            (``deid batch --model-form``, :mod:`deid_core.ner.int8`).
        safe_harbor: redact mode only: keep what Safe Harbor permits (``deid batch
            --keep-safe-harbor``; :mod:`deid_core.safe_harbor`).

    Returns:
        A new DataFrame (lazy, like any transformation).

    Raises:
        ValueError: on an unknown mode or model form, a missing column, a column name already
            used, ``safe_harbor`` outside redact mode, or an empty key
            (:class:`deid_core.linkage.KeyFileError`).
    """
    if text_col not in df.columns:
        raise ValueError(f"no column {text_col!r} (columns: {', '.join(df.columns)})")
    if patient_col and patient_col not in df.columns:
        raise ValueError(f"no column {patient_col!r} (columns: {', '.join(df.columns)})")
    clash = [c for c in OUTPUT_COLUMNS if c in df.columns]
    if clash:
        raise ValueError(f"column(s) {clash} already exist; rename them first")
    key = read_key() if key is None else clean_key(key, "the key")
    config = Config(mode=mode, master_key=master_secret(key) if mode == "surrogate" else b"",
                    per_patient=bool(patient_col), rules_only=rules_only,
                    model_dir=model_dir, threads=threads, model_form=model_form,
                    mask_review=mask_review, rules=rules_json, safe_harbor=safe_harbor)
    from pyspark.sql.types import (ArrayType, BooleanType, IntegerType, StringType, StructField,
                                   StructType)
    span = StructType([StructField("start", IntegerType()), StructField("end", IntegerType()),
                       StructField("label", StringType()), StructField("tier", StringType()),
                       StructField("source", StringType()), StructField("replaced", BooleanType())])
    out_schema = StructType([*df.schema.fields, StructField("deid_text", StringType()),
                             StructField("spans", ArrayType(span)),
                             StructField("phi_free", ArrayType(ArrayType(IntegerType()))),
                             StructField("error", StringType())])

    def run(batches):
        return process_pandas(batches, config, text_col, patient_col)

    return df.mapInPandas(run, out_schema)
