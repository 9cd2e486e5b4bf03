"""The ``deid batch`` runner: stream records through worker processes into a JSONL file.

:func:`run_batch` reads the input (:mod:`deid_core.batch.io`), sends records to ``jobs``
worker processes (``multiprocessing.Pool`` with an initializer that builds one
:class:`~deid_core.batch.engine.Engine` per process, ``imap`` in chunks, so output order is input
order) and writes one JSON line per input record:

``{"id", "patient" (with a patient field), "text" (not in detect mode), "spans", "phi_free",
"error"}`` (``error`` None, or why the record failed; then ``text`` is None and ``spans`` empty).

* Bounded memory: at most ``4 * jobs * chunksize`` records are read ahead of the writer.
* Atomic output: lines go to ``OUTPUT.part``, renamed to ``OUTPUT`` only when every record is
  written; failed records also go to ``OUTPUT.errors.jsonl`` (same scheme).
* ``resume``: an existing ``.part`` is cut back to its last complete line and its records are
  skipped (their ids are checked against the input).
* Ctrl-C: the run stops after the record being written; the ``.part`` file ends with a
  complete line; rerun with ``--resume``.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..spans import CATEGORIES, LABELS, REVIEW
from .engine import Config, Engine, ModelError, warm_rules
from .io import (InputError, Record, check_settings, count_records, read_records, resume_point,
                 settings_path)

__all__ = ["DEFAULT_CHUNKSIZE", "Summary", "run_batch", "process_record"]

#: Records per task sent to a worker by default. Each task costs the parent a round of pickling
#: and a wake-up of the pool's threads; measured on 1 KB notes, rules only, ``--jobs 2`` on
#: 2 cores: the parent's CPU per note is 0.26 ms at 4 records a task, 0.16 at 16, 0.10 at 32
#: and 0.09 at 64, so 32 (about 70 ms of a worker's time a task, rules only).
DEFAULT_CHUNKSIZE = 32


@dataclass
class Summary:
    """What a run did: ``mode`` and ``model`` (``"exact"``, ``"fast"`` or ``"rules only"``) as
    asked; ``spans`` counts final spans per category (both tiers); ``amber`` counts
    review spans; ``seconds`` is wall time of the processing; ``interrupted`` True after Ctrl-C."""

    mode: str = ""
    model: str = ""
    notes: int = 0
    skipped: int = 0
    chars: int = 0
    errors: int = 0
    amber: int = 0
    spans: dict = field(default_factory=lambda: {c: 0 for c in CATEGORIES})
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def notes_per_s(self) -> float:
        """Notes processed per second of wall time."""
        return self.notes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict:
        """JSON-ready dict (with ``notes_per_s``)."""
        return {**asdict(self), "notes_per_s": round(self.notes_per_s, 2)}

    def text(self) -> str:
        """A few lines for standard error."""
        cats = ", ".join(f"{c} {n}" for c, n in self.spans.items() if n)
        lines = [f"mode {self.mode}, model {self.model}",
                 f"notes {self.notes} ({self.skipped} skipped as already written), "
                 f"characters {self.chars}, errors {self.errors}",
                 f"spans: {cats or 'none'}; amber (review) {self.amber}",
                 f"{self.notes_per_s:.1f} notes/s ({self.seconds:.1f} s)"]
        if self.interrupted:
            lines.append("interrupted: rerun with --resume to finish")
        return "\n".join(lines)


#: ``json.dumps(obj, ensure_ascii=False)`` without building an encoder for every record.
_encode = json.JSONEncoder(ensure_ascii=False).encode

_ENGINE: Engine | None = None
_INIT_ERROR: str | None = None


def init_worker(config: Config) -> None:
    """Pool initializer (``deid batch`` and ``deid harvest``): ignore Ctrl-C (the parent handles
    it) and build this process's engine once; a failure is kept and reported by
    :func:`worker_engine` at the first record."""
    global _ENGINE, _INIT_ERROR
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _ENGINE = Engine(config)
    except (ModelError, ValueError, OSError) as e:
        _INIT_ERROR = str(e)
    except Exception as e:  # anything else too: a worker that dies here is restarted forever
        _INIT_ERROR = f"cannot build the engine: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


class _WorkerFailed(Exception):
    pass


def worker_engine(failure: type[Exception]) -> Engine:
    """This worker process's engine, built by :func:`init_worker`.

    Raises:
        failure: with the message of the error that building the engine raised.
    """
    if _INIT_ERROR is not None:
        raise failure(_INIT_ERROR)
    return _ENGINE


def process_record(engine: Engine, rec: Record) -> tuple[str, bool, int, dict, int]:
    """One record -> ``(output JSON line, failed, characters, {category: spans}, amber)``.
    An exception while processing becomes the record's error (the run goes on)."""
    out: dict = {"id": rec.id}
    if engine.config.per_patient:
        out["patient"] = rec.patient
    error = rec.error
    result = None
    if error is None:
        try:
            result = engine.process(rec.text, rec.patient)
        except Exception as e:  # one bad note must not stop a corpus run
            error = f"{type(e).__name__}: {e}"
    cats: dict = {}
    amber = 0
    if result is None:
        if engine.config.mode != "detect":
            out["text"] = None
        out.update(spans=[], phi_free=[], error=error)
    else:
        out.update(result, error=None)
        for s in result["spans"]:
            c = LABELS[s["label"]]
            cats[c] = cats.get(c, 0) + 1
            amber += s["tier"] == REVIEW
    line = _encode(out) + "\n"
    return line, error is not None, len(rec.text or ""), cats, amber


def _work(rec: Record):
    return process_record(worker_engine(_WorkerFailed), rec)


def _bounded(records: Iterable[Record], gate: threading.Semaphore,
             closing: threading.Event) -> Iterator[Record]:
    """``records``, each only once the writer has a free slot; stops when ``closing`` is set
    (so the pool's feeder thread never waits forever after an interrupt or an error)."""
    for rec in records:
        gate.acquire()
        if closing.is_set():
            return
        yield rec


def _progress(total: int | None, initial: int, enabled: bool):
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency of the CLI
        return None
    return tqdm(total=total, initial=initial, unit="note", unit_scale=False, file=sys.stderr,
                disable=not enabled, dynamic_ncols=True, smoothing=0.1)


def run_batch(input_path: str | os.PathLike, out_path: str | os.PathLike, config: Config, *,
              fmt: str | None = None, text_field: str = "text", id_field: str = "id",
              patient_field: str | None = None, jobs: int = 1,
              chunksize: int = DEFAULT_CHUNKSIZE,
              resume: bool = False, progress: bool = False) -> Summary:
    """De-identify every record of ``input_path`` into ``out_path`` (module doc).

    Args:
        input_path: JSONL, CSV, Parquet file or folder of ``.txt`` files.
        out_path: the JSONL output file (written as ``out_path + ".part"`` first).
        config: the engine :class:`~deid_core.batch.engine.Config`.
        fmt: the input format (default: from the path).
        text_field, id_field, patient_field: field or column names.
        jobs: worker processes (1: run in this process).
        chunksize: records per task sent to a worker (:data:`DEFAULT_CHUNKSIZE`).
        resume: continue an earlier run's ``.part`` file.
        progress: show a progress bar on standard error.

    Returns:
        The :class:`Summary`.

    Raises:
        InputError: the input cannot be read, or a resumed file does not match it.
        ModelError: the model cannot be loaded.
    """
    out = Path(out_path)
    part = out.with_name(out.name + ".part")
    err_out = out.with_name(out.name + ".errors.jsonl")
    err_part = err_out.with_name(err_out.name + ".part")
    records = read_records(input_path, fmt, text_field, id_field, patient_field)
    done_ids: list = resume_point(part) if resume and part.exists() else []
    if not done_ids and err_part.exists():
        err_part.unlink()
    model = "rules only" if config.rules_only else config.model_form
    rules_sha = None if config.rules is None else hashlib.sha256(config.rules.encode()).hexdigest()
    check_settings(part, {"mode": config.mode, "model": model, "mask_review": config.mask_review,
                          "per_patient": config.per_patient, "rules_sha256": rules_sha,
                          "format": fmt, "text_field": text_field, "id_field": id_field,
                          "patient_field": patient_field,
                          **({"safe_harbor": True} if config.safe_harbor else {})}, bool(done_ids))
    summary = Summary(mode=config.mode, model=model)
    total = count_records(input_path, fmt)

    def skip(recs: Iterator[Record]) -> Iterator[Record]:
        for rec in recs:
            if rec.index < len(done_ids):
                if done_ids[rec.index] != rec.id:
                    raise InputError(f"{part}: record {rec.index + 1} has id {done_ids[rec.index]!r} "
                                     f"but the input has {rec.id!r}; not the same input, delete "
                                     f"{part} to start again")
                summary.skipped += 1
                continue
            yield rec

    stop = threading.Event()
    closing = threading.Event()
    old_handler = None
    if threading.current_thread() is threading.main_thread():
        old_handler = signal.signal(signal.SIGINT, lambda *_: stop.set())
    pbar = _progress(total, len(done_ids), progress)
    pool = gate = None
    ahead = 0
    start = time.perf_counter()
    try:
        todo = skip(records)
        if jobs <= 1:
            engine = Engine(config)
            results = (process_record(engine, rec) for rec in todo)
        else:
            ahead = 4 * jobs * chunksize
            gate = threading.Semaphore(ahead)
            ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
            if ctx.get_start_method() == "fork":
                warm_rules()   # the lists, read once here, are inherited by every worker
            pool = ctx.Pool(jobs, initializer=init_worker, initargs=(config,))
            results = pool.imap(_work, _bounded(todo, gate, closing), chunksize)
        with part.open("a" if done_ids else "w", encoding="utf-8") as f:
            errf = None
            try:
                for line, failed, chars, cats, amber in results:
                    f.write(line)
                    if gate is not None:
                        gate.release()
                    summary.notes += 1
                    summary.chars += chars
                    summary.amber += amber
                    for c, n in cats.items():
                        summary.spans[c] += n
                    if failed:
                        summary.errors += 1
                        if errf is None:
                            errf = err_part.open("a", encoding="utf-8")
                        errf.write(line)
                    if pbar is not None:
                        pbar.update(1)
                    if stop.is_set():
                        summary.interrupted = True
                        break
            except _WorkerFailed as e:
                raise ModelError(str(e)) from None
            finally:
                if errf is not None:
                    errf.close()
    except BaseException:
        if not done_ids and part.exists() and part.stat().st_size == 0:
            part.unlink()  # failed before any record (bad input, model): leave nothing behind
            settings_path(part).unlink(missing_ok=True)
        raise
    finally:
        summary.seconds = time.perf_counter() - start
        if pool is not None:
            closing.set()
            gate.release(ahead + 1)
            pool.terminate()
            pool.join()
        if pbar is not None:
            pbar.close()
        if old_handler is not None:
            signal.signal(signal.SIGINT, old_handler)
    if not summary.interrupted:
        os.replace(part, out)
        settings_path(part).unlink(missing_ok=True)
        if err_part.exists():
            os.replace(err_part, err_out)
        elif err_out.exists():
            err_out.unlink()
    return summary
