"""The worker pool of ``deid batch`` and ``deid harvest``: records in, one result per record out,
in input order, computed by ``jobs`` worker processes that each hold one
:class:`~deid_core.batch.engine.Engine`.

:func:`ordered_map` cuts the records into chunks of ``chunksize`` and hands each chunk to
``task(engine, records) -> [result per record]`` in a worker (a module-level function, so it can
be sent to one), at most ``ahead`` chunks read ahead of the consumer (bounded memory). With one
job the task runs in this process. Workers ignore Ctrl-C (the parent handles it); an engine that
cannot be built in a worker (no model, bad rules) is raised in the parent as
:class:`~deid_core.ner.loading.ModelError`; an exception the task raises is raised in the parent.

A worker that dies (``kill -9``, the out-of-memory killer, a crash in a native library) is
replaced at once, and only the chunk it held is sent again; the parent never waits on a dead
process (it waits on every worker's pipe and process sentinel together). A chunk whose worker
died twice is split into single records; a record whose worker died :data:`MAX_DEATHS` times
is given up: its result is ``lost(record, why)`` (for ``deid batch`` an error line), so a record
that kills the process it runs in cannot stop or hang the run. Workers that keep dying before
they are ready (:data:`MAX_START_DEATHS` in a row) stop the run with a ``ModelError``. Each
worker checks that its parent is alive while idle and exits when it is not.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, TypeVar

from .engine import Config, Engine, ModelError, warm_rules

__all__ = ["MAX_DEATHS", "MAX_START_DEATHS", "PoolStats", "Task", "init_worker", "ordered_map",
           "worker_engine"]

R = TypeVar("R")
T = TypeVar("T")
#: ``task(engine, records) -> results``: one result per record, in order.
Task = Callable[[Engine, Sequence[T]], list[R]]
#: Deaths of its worker after which a chunk is split into single records, and a single record
#: is given up.
MAX_DEATHS = 2
#: Workers dying in a row before they are ready (building the engine) that stop the run.
MAX_START_DEATHS = 3
#: Seconds an idle worker waits for work before it checks that its parent is alive.
_PARENT_CHECK = 1.0

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
    except Exception as e:  # anything else too: the parent reports it, once
        _INIT_ERROR = f"cannot build the engine: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def worker_engine() -> Engine:
    """This worker process's engine, built by :func:`init_worker`.

    Raises:
        ModelError: with the message of the error that building the engine raised.
    """
    if _INIT_ERROR is not None:
        raise ModelError(_INIT_ERROR)
    return _ENGINE


@dataclass
class PoolStats:
    """What the pool had to do: ``replaced`` workers that died and were replaced, ``redone``
    records sent again after their worker died, ``lost`` records given up."""

    replaced: int = 0
    redone: int = 0
    lost: int = 0


def _worker_main(conn, config: Config, task: Task, parent: int) -> None:
    """A worker process: build the engine, say ready, then answer each chunk until told to stop
    (``None``), the pipe closes or the parent is gone."""
    init_worker(config)
    conn.send(("ready", None))
    while True:
        while not conn.poll(_PARENT_CHECK):
            if os.getppid() != parent:
                return
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        try:
            reply = ("ok", task(worker_engine(), msg))
        except Exception as e:  # noqa: BLE001 - the parent raises it (SystemExit and the like
            reply = ("error", e)  # end this process: a death, handled as one)
        try:
            conn.send(reply)
        except Exception as e:  # noqa: BLE001 - an exception that cannot be pickled
            conn.send(("error", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]} ({e})")))


class _Chunk:
    """Records with their sequence numbers, and how often their worker died."""

    __slots__ = ("seqs", "records", "deaths")

    def __init__(self, seqs: list[int], records: list, deaths: int = 0) -> None:
        self.seqs, self.records, self.deaths = seqs, records, deaths


class _Worker:
    __slots__ = ("proc", "conn", "chunk", "ready")

    def __init__(self, proc, conn) -> None:
        self.proc, self.conn, self.chunk, self.ready = proc, conn, None, False


def _died(proc) -> str:
    proc.join(1.0)
    code = proc.exitcode
    if code is None:
        return "did not answer"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class _Pool:
    """The worker processes and the chunks they hold (see :func:`ordered_map`)."""

    def __init__(self, task: Task, config: Config, jobs: int, lost: Callable[[Any, str], Any],
                 stats: PoolStats) -> None:
        self.task, self.config, self.lost, self.stats = task, config, lost, stats
        self.ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
        if self.ctx.get_start_method() == "fork":
            warm_rules()   # the lists, read once here, are inherited by every worker
        self.redo: deque[_Chunk] = deque()
        self.done: dict[int, Any] = {}
        self.start_deaths = 0
        self.workers = [self._start() for _ in range(jobs)]

    def _start(self) -> _Worker:
        mine, theirs = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main, args=(theirs, self.config, self.task, os.getpid()),
                                daemon=True, name="deid-worker")
        proc.start()
        theirs.close()
        return _Worker(proc, mine)

    def busy(self) -> bool:
        return any(w.chunk is not None for w in self.workers)

    def give(self, next_chunk: Callable[[], _Chunk | None]) -> None:
        """Send a chunk (one to redo first, else ``next_chunk()``) to every idle worker."""
        for w in list(self.workers):
            if w.chunk is not None:
                continue
            chunk = self.redo.popleft() if self.redo else next_chunk()
            if chunk is None:
                return
            w.chunk = chunk
            try:
                w.conn.send(chunk.records)
            except OSError:   # it died before it could read: handled as a death
                self._death(w)

    def collect(self) -> None:
        """Wait until a worker answers or dies, and take what it gave."""
        ready = set(wait([w.conn for w in self.workers] + [w.proc.sentinel for w in self.workers]))
        for w in list(self.workers):
            if w.conn in ready:
                try:
                    kind, value = w.conn.recv()
                except (EOFError, OSError):
                    self._death(w)
                    continue
                if kind == "ready":
                    w.ready = True
                    self.start_deaths = 0
                elif kind == "error":
                    raise value
                else:
                    for seq, result in zip(w.chunk.seqs, value):
                        self.done[seq] = result
                    w.chunk = None
            if w.proc.sentinel in ready and not w.conn.poll():
                self._death(w)

    def _death(self, w: _Worker) -> None:
        """``w`` died: replace it and send its chunk again, split, or give its record up."""
        why = _died(w.proc)
        w.conn.close()
        self.workers[self.workers.index(w)] = self._start()
        self.stats.replaced += 1
        chunk = w.chunk
        if not w.ready:
            self.start_deaths += 1
            if self.start_deaths >= MAX_START_DEATHS:
                raise ModelError(f"worker processes die while building the engine ({why}, "
                                 f"{self.start_deaths} in a row); try --jobs 1 to see why")
            if chunk is not None:
                self.redo.appendleft(chunk)
            return
        if chunk is None:
            return
        chunk.deaths += 1
        self.stats.redone += len(chunk.records)
        if chunk.deaths < MAX_DEATHS:
            self.redo.appendleft(chunk)
        elif len(chunk.records) > 1:
            self.redo.extendleft(reversed([_Chunk([s], [r]) for s, r in zip(chunk.seqs, chunk.records)]))
        else:
            self.stats.redone -= 1
            self.stats.lost += 1
            self.done[chunk.seqs[0]] = self.lost(
                chunk.records[0], f"the worker process died while processing this record "
                                  f"({why}; {chunk.deaths} times): not retried")

    def close(self) -> None:
        """Stop every worker: ask, then terminate what is left."""
        for w in self.workers:
            try:
                w.conn.send(None)
            except OSError:
                pass
        deadline = time.monotonic() + 2.0
        for w in self.workers:
            w.proc.join(max(0.0, deadline - time.monotonic()))
        for w in self.workers:
            if w.proc.exitcode is None:
                w.proc.terminate()
                w.proc.join(2.0)
            w.conn.close()


def _chunks(records: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for rec in records:
        chunk.append(rec)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _given_up(record: Any, why: str) -> None:
    return None


def ordered_map(task: Task, records: Iterable[T], config: Config, *, jobs: int = 1,
                chunksize: int = 32, ahead: int | None = None,
                lost: Callable[[T, str], R] = _given_up, stats: PoolStats | None = None) -> Iterator[R]:
    """``task``'s result for each record, in input order (module doc).

    Args:
        task: ``task(engine, records) -> [result per record]``, a module-level function.
        records: any iterable (read lazily, at most ``ahead`` chunks ahead of the consumer).
        config: the engine configuration of every worker.
        jobs: worker processes (1: this process, one engine built here).
        chunksize: records per task call.
        ahead: chunks read ahead (default ``4 * jobs``).
        lost: the result for a record given up after its worker died :data:`MAX_DEATHS` times
            (``lost(record, why)``; default None).
        stats: filled in with what the pool had to do (:class:`PoolStats`).

    Raises:
        ModelError: the engine cannot be built (in a worker: at its first chunk), or workers
            keep dying while they build it.
        anything ``task`` raises, and anything reading ``records`` raises.
    """
    stats = stats if stats is not None else PoolStats()
    chunks = _chunks(records, chunksize)
    if jobs <= 1:
        engine = Engine(config)
        for chunk in chunks:
            yield from task(engine, chunk)
        return
    limit = (ahead or 4 * jobs) * chunksize
    pool = _Pool(task, config, jobs, lost, stats)
    seq = out = 0
    exhausted = False

    def next_chunk() -> _Chunk | None:
        nonlocal seq, exhausted
        if exhausted or seq - out >= limit:
            return None
        recs = next(chunks, None)
        if recs is None:
            exhausted = True
            return None
        seqs = list(range(seq, seq + len(recs)))
        seq += len(recs)
        return _Chunk(seqs, recs)
    try:
        while True:
            pool.give(next_chunk)
            while out in pool.done:
                result = pool.done.pop(out)
                out += 1
                yield result
            if exhausted and out == seq and not pool.redo:
                return
            if pool.busy() or not all(w.ready for w in pool.workers):
                pool.collect()
    finally:
        pool.close()
