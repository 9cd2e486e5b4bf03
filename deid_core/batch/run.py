"""The ``deid batch`` runner: stream records through worker processes into a JSONL file.

:func:`run_batch` reads the input (:mod:`deid_core.batch.io`), sends chunks of records to
``jobs`` worker processes (:mod:`deid_core.batch.pool`: one
:class:`~deid_core.batch.engine.Engine` per process, output order is input order;
:func:`process_records` is what a worker does with a chunk) and writes one JSON line per input
record:

``{"id", "patient" (with a patient field), "text" (not in detect mode), "spans", "phi_free",
"error"}`` (``error`` None, or why the record failed; then ``text`` is None and ``spans`` empty).

* Bounded memory: at most ``4 * jobs * chunksize`` records are read ahead of the writer
  (:mod:`deid_core.batch.pool`).
* Atomic output: lines go to ``OUTPUT.part``, renamed to ``OUTPUT`` only when every record is
  written; failed records also go to ``OUTPUT.errors.jsonl`` (same scheme;
  :mod:`deid_core.batch.output`). A file that cannot be written (disk full, read-only folder,
  a path under a file) stops the run with one line and exit status 2; what was written can be
  resumed.
* ``resume``: an existing ``.part`` is cut back to its last complete line and its records are
  skipped (their ids are checked against the input); the errors file is rebuilt from it, so a
  run killed with ``kill -9`` loses no error line.
* Ctrl-C: the run stops after the record being written; the ``.part`` file ends with a
  complete line; rerun with ``--resume``.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..linkage import patient_linkage_key
from ..spans import CATEGORIES, LABELS, REVIEW
from .engine import Config, Engine
from .io import InputError, Record, count_records, read_records
from .output import (Outputs, TextOut, check_settings, output_error, reopen_finished,
                     resume_point)
from .pool import PoolStats, ordered_map

__all__ = ["DEFAULT_CHUNKSIZE", "Summary", "run_batch", "process_record", "process_records"]

#: Records per task sent to a worker by default. Each task costs the parent a round of pickling
#: and a wake-up of the pool's threads; measured on 1 KB notes, rules only, ``--jobs 2`` on
#: 2 cores: the parent's CPU per note is 0.26 ms at 4 records a task, 0.16 at 16, 0.10 at 32
#: and 0.09 at 64, so 32 (about 70 ms of a worker's time a task, rules only).
DEFAULT_CHUNKSIZE = 32


@dataclass
class Summary:
    """What a run did: ``mode`` and ``model`` (``"exact"``, ``"fast"`` or ``"rules only"``) as
    asked; ``spans`` counts final spans per category (both tiers); ``amber`` counts
    review spans; ``seconds`` is wall time of the processing; ``interrupted`` True after Ctrl-C;
    ``workers_replaced`` counts worker processes that died and were replaced (their records
    redone, or given up as error lines, :mod:`deid_core.batch.pool`)."""

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
    workers_replaced: int = 0

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
        if self.workers_replaced:
            lines.append(f"worker processes that died and were replaced: {self.workers_replaced}")
        if self.interrupted:
            lines.append("interrupted: rerun with --resume to finish")
        return "\n".join(lines)


#: ``json.dumps(obj, ensure_ascii=False)`` without building an encoder for every record.
_encode = json.JSONEncoder(ensure_ascii=False).encode

#: What a worker returns per record: ``(output JSON line, failed, characters, {category:
#: spans}, amber)``.
Result = tuple[str, bool, int, dict, int]


def process_records(engine: Engine, records: Sequence[Record]) -> list[Result]:
    """A chunk of records -> one :data:`Result` per record, in order: the notes that could be
    read are analysed together (:meth:`Engine.analyses`; if that raises, one by one, so the
    error lands on its own record), then each is written. An exception while processing a
    record becomes that record's error; the run goes on."""
    todo = [r for r in records if r.error is None]
    try:
        analyses = dict(zip(map(id, todo), engine.analyses([r.text for r in todo])))
    except Exception:  # noqa: BLE001 - one bad note must not stop a corpus run: find which
        analyses = {}
    out = []
    for rec in records:
        error, result = rec.error, None
        if error is None:
            try:
                an = analyses.get(id(rec))
                if an is None:
                    an = engine.analysis(rec.text)
                result = engine.output(an, rec.patient)
            except Exception as e:  # one bad note must not stop a corpus run
                error = f"{type(e).__name__}: {e}"
        out.append(_line(engine.config, rec, result, error))
    return out


def process_record(engine: Engine, rec: Record) -> Result:
    """One record -> its :data:`Result` (:func:`process_records` of one)."""
    return process_records(engine, [rec])[0]


def _line(config: Config, rec: Record, result: dict | None, error: str | None) -> Result:
    out: dict = {"id": rec.id}
    if config.per_patient:
        out["patient"] = rec.patient
    cats: dict = {}
    amber = 0
    if result is None:
        if config.mode != "detect":
            out["text"] = None
        out.update(spans=[], phi_free=[], error=error)
    else:
        out.update(result, error=None)
        for s in result["spans"]:
            c = LABELS[s["label"]]
            cats[c] = cats.get(c, 0) + 1
            amber += s["tier"] == REVIEW
    line = _encode(out)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:   # a lone surrogate (JSON "\ud800") has no UTF-8: escape it
        line = json.dumps(out, ensure_ascii=True)
    line += "\n"
    return line, error is not None, len(rec.text or ""), cats, amber


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
        OutputError: an output file cannot be written (what was written can be resumed).
    """
    files = Outputs(Path(out_path))
    part, err_part = files.part, files.errors_part
    records = read_records(input_path, fmt, text_field, id_field, patient_field)
    model = "rules only" if config.rules_only else config.model_form
    rules_sha = None if config.rules is None else hashlib.sha256(config.rules.encode()).hexdigest()
    settings = {"mode": config.mode, "model": model, "mask_review": config.mask_review,
                "per_patient": config.per_patient, "rules_sha256": rules_sha, "format": fmt,
                "text_field": text_field, "id_field": id_field, "patient_field": patient_field,
                "key": _key_fingerprint(config),
                **({"safe_harbor": True} if config.safe_harbor else {})}
    if resume and not part.exists() and files.out.exists():
        reopen_finished(files, settings)
    elif resume and part.exists() and not files.settings.exists() and files.finished_settings.exists():
        os.replace(files.finished_settings, files.settings)   # killed while finishing
    done_ids: list = resume_point(part, err_part) if resume and part.exists() else []
    if not done_ids and err_part.exists():
        _unlink(err_part)
    check_settings(part, settings, bool(done_ids))
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
    handlers = {}
    if threading.current_thread() is threading.main_thread():
        handlers[signal.SIGINT] = signal.signal(signal.SIGINT, lambda *_: stop.set())
        # a file-size limit (ulimit -f) is then an error on the write (EFBIG), not a kill
        handlers[signal.SIGXFSZ] = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    pbar = _progress(total, len(done_ids), progress)
    stats = PoolStats()
    results = f = errf = None
    start = time.perf_counter()
    try:
        results = ordered_map(process_records, skip(records), config, jobs=jobs,
                              chunksize=chunksize, stats=stats,
                              lost=lambda rec, why: _line(config, rec, None, why))
        f = TextOut(part, "a" if done_ids else "w")
        for line, failed, chars, cats, amber in results:
            f.write(line)
            summary.notes += 1
            summary.chars += chars
            summary.amber += amber
            for c, n in cats.items():
                summary.spans[c] += n
            if failed:
                summary.errors += 1
                if errf is None:
                    errf = TextOut(err_part, "a")
                errf.write(line)
            if pbar is not None:
                pbar.update(1)
            if stop.is_set():
                summary.interrupted = True
                break
        f.close()
        if errf is not None:
            errf.close()
    except BaseException:
        for g in (f, errf):
            if g is not None:
                g.close(quiet=True)
        if not done_ids and part.exists() and part.stat().st_size == 0:
            # failed before any record (bad input, model, no room): leave nothing behind
            _unlink(part)
            _unlink(files.settings)
        raise
    finally:
        summary.seconds = time.perf_counter() - start
        summary.workers_replaced = stats.replaced
        if results is not None:
            results.close()   # stops the workers
        if pbar is not None:
            pbar.close()
        for sig, old in handlers.items():
            signal.signal(sig, old)
    if not summary.interrupted:
        _finish(files)
    return summary


def _unlink(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as e:
        raise output_error(path, e) from None


def _finish(files: Outputs) -> None:
    """Rename the finished files: the errors file and the settings first, so that a kill
    between the renames leaves the ``.part`` to resume (which rebuilds the errors file and
    takes the settings back)."""
    try:
        if files.errors_part.exists():
            os.replace(files.errors_part, files.errors)
        else:
            files.errors.unlink(missing_ok=True)
        os.replace(files.settings, files.finished_settings)
        os.replace(files.part, files.out)
    except OSError as e:
        raise output_error(Path(e.filename) if e.filename else files.out, e) from None


def _key_fingerprint(config: Config) -> str | None:
    """In surrogate mode, 16 hex digits keyed by the master secret (HMAC-SHA256 of a fixed
    purpose): enough to tell that a resumed run has another key, nothing to recompute a fake
    with. None in the other modes (they use no key)."""
    if config.mode != "surrogate":
        return None
    return patient_linkage_key(config.master_key, None).digest("settings-fingerprint", "").hex()[:16]
