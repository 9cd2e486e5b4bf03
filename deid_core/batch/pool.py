"""The worker pool of ``deid batch`` and ``deid harvest``: records in, one result per record out,
in input order, computed by ``jobs`` worker processes that each hold one
:class:`~deid_core.batch.engine.Engine`.

:func:`ordered_map` cuts the records into chunks of ``chunksize`` and hands each chunk to
``task(engine, records) -> [result per record]`` in a worker (a module-level function, so it can
be sent to one), at most ``ahead`` chunks read ahead of the consumer (bounded memory). With one
job the task runs in this process. Workers ignore Ctrl-C (the parent handles it); an engine that
cannot be built in a worker (no model, bad rules) is raised in the parent as
:class:`~deid_core.ner.loading.ModelError` at the first chunk.
"""
from __future__ import annotations

import functools
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from .engine import Config, Engine, ModelError, warm_rules

__all__ = ["Task", "init_worker", "ordered_map", "worker_engine"]

R = TypeVar("R")
T = TypeVar("T")
#: ``task(engine, records) -> results``: one result per record, in order.
Task = Callable[[Engine, Sequence[T]], list[R]]

_ENGINE: Engine | None = None
_INIT_ERROR: str | None = None


def init_worker(config: Config) -> None:
    """Worker initializer: ignore Ctrl-C (the parent handles it) and build this process's engine
    once; a failure is kept and raised by :func:`worker_engine` at the first chunk."""
    global _ENGINE, _INIT_ERROR
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _ENGINE = Engine(config)
    except (ModelError, ValueError, OSError) as e:
        _INIT_ERROR = str(e)
    except Exception as e:  # anything else too: a worker that dies here is restarted forever
        _INIT_ERROR = f"cannot build the engine: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def worker_engine() -> Engine:
    """This worker process's engine, built by :func:`init_worker`.

    Raises:
        ModelError: with the message of the error that building the engine raised.
    """
    if _INIT_ERROR is not None:
        raise ModelError(_INIT_ERROR)
    return _ENGINE


def _run_chunk(task: Task, chunk: list) -> list:
    return task(worker_engine(), chunk)


def _chunks(records: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for rec in records:
        chunk.append(rec)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _bounded(chunks: Iterable[list], gate: threading.Semaphore,
             closing: threading.Event) -> Iterator[list]:
    """``chunks``, each only once the consumer has a free slot; stops when ``closing`` is set
    (so the pool's feeder thread never waits forever after an interrupt or an error)."""
    for chunk in chunks:
        gate.acquire()
        if closing.is_set():
            return
        yield chunk


def ordered_map(task: Task, records: Iterable[T], config: Config, *, jobs: int = 1,
                chunksize: int = 32, ahead: int | None = None) -> Iterator[R]:
    """``task``'s result for each record, in input order (module doc).

    Args:
        task: ``task(engine, records) -> [result per record]``, a module-level function.
        records: any iterable (read lazily, at most ``ahead`` chunks ahead of the consumer).
        config: the engine configuration of every worker.
        jobs: worker processes (1: this process, one engine built here).
        chunksize: records per task call.
        ahead: chunks read ahead (default ``4 * jobs``).

    Raises:
        ModelError: the engine cannot be built (in a worker: at its first chunk).
        anything ``task`` raises.
    """
    if jobs <= 1:
        engine = Engine(config)
        for chunk in _chunks(records, chunksize):
            yield from task(engine, chunk)
        return
    ahead = ahead or 4 * jobs
    gate, closing = threading.Semaphore(ahead), threading.Event()
    ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
    if ctx.get_start_method() == "fork":
        warm_rules()   # the lists, read once here, are inherited by every worker
    pool = ctx.Pool(jobs, initializer=init_worker, initargs=(config,))
    try:
        for results in pool.imap(functools.partial(_run_chunk, task),
                                 _bounded(_chunks(records, chunksize), gate, closing)):
            gate.release()
            yield from results
    finally:
        closing.set()
        gate.release(ahead + 1)
        pool.terminate()
        pool.join()
