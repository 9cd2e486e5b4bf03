"""The page's bridge to the engine: one JSON-in, JSON-out function the Web Worker calls.

This module is packed into the page's archive beside ``deid_core/``, ``lists/`` and ``corpus/``
(see ``build.py``) and imported by the worker after Pyodide starts. It holds no logic of its own
beyond routing and shaping: every figure and every output comes from ``deid_core``. It runs
unchanged in CPython, which is how the tests compare the page with the engine.

Requests (JSON objects, ``op`` selects the operation):

* ``{"op": "info"}`` -> ``{"python", "engine", "categories", "corpus_notes"}``
* ``{"op": "process", "text", "mode", "key", "decisions", "known"}`` -> the dict of
  :func:`deid_core.api.process` (``mode``, ``output``, ``spans``, ``review``); ``decisions`` is
  ``{"start:end": true (mask) | false (keep)}``. An empty or missing ``key`` means the engine's
  random secret for this process, i.e. for this page load (held in memory only).
* ``{"op": "benchmark"}`` -> :func:`deid_core.evaluate.evaluate_corpus_json` on the embedded corpus,
  parsed, plus ``wall_seconds`` (the whole call, in seconds).
* ``{"op": "corpus"}`` -> ``{"notes": [{"id", "note_type", "text", "spans"}]}`` (the gold corpus).
* ``{"op": "lists"}`` -> ``{"lists": deid_core.lists.provenance()}``.

Every reply is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": message}``; no request
raises out of :func:`handle`.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

_STATE: dict = {"root": None}


def start(root: str) -> None:
    """Prepare the engine in the directory the archive was unpacked to.

    Args:
        root: directory holding ``deid_core/``, ``lists/`` and (optionally) ``corpus/notes.jsonl``.
    """
    _STATE["root"] = Path(root)
    os.environ.setdefault("DEID_LISTS_DIR", str(Path(root) / "lists"))
    warm_up()


def warm_up() -> None:
    """Import the engine and run it once per mode on a short invented note, so that the word
    lists are read and the patterns compiled before the page says it is ready."""
    from deid_core.api import process
    note = "Seen by Dr. Helen Achterberg on 09/14/2016 in Springfield, MA; MRN 00781245."
    for mode in ("redact", "surrogate"):
        process(note, mode=mode, key="warm-up")


def _corpus_text() -> str:
    path = Path(_STATE["root"] or ".") / "corpus" / "notes.jsonl"
    if not path.is_file():
        raise FileNotFoundError("this page was built without the annotated corpus")
    return path.read_text(encoding="utf-8")


def _info(_req: dict) -> dict:
    import deid_core
    from deid_core.spans import CATEGORIES
    try:
        n = sum(1 for line in _corpus_text().splitlines() if line.strip())
    except FileNotFoundError:
        n = 0
    return {"python": sys.version.split()[0], "engine": deid_core.__version__,
            "categories": list(CATEGORIES), "corpus_notes": n}


def _process(req: dict) -> dict:
    from deid_core.api import process
    text = req.get("text")
    if not isinstance(text, str):
        raise TypeError("text must be a string")
    return process(text, mode=req.get("mode") or "redact", key=req.get("key") or None,
                   decisions=req.get("decisions") or None, known=req.get("known") or None)


def _benchmark(_req: dict) -> dict:
    from deid_core.evaluate import evaluate_corpus_json
    t0 = time.perf_counter()
    report = json.loads(evaluate_corpus_json(_corpus_text()))
    report["wall_seconds"] = round(time.perf_counter() - t0, 3)
    return report


def _corpus(_req: dict) -> dict:
    notes = []
    for line in _corpus_text().splitlines():
        if line.strip():
            row = json.loads(line)
            notes.append({"id": row.get("id"), "note_type": row.get("note_type", ""),
                          "text": row["text"], "spans": row.get("spans", [])})
    return {"notes": notes}


def _lists(_req: dict) -> dict:
    from deid_core import lists
    return {"lists": lists.provenance()}


OPS = {"info": _info, "process": _process, "benchmark": _benchmark, "corpus": _corpus,
       "lists": _lists}


def handle(request_json: str) -> str:
    """Answer one request (see the module doc). Never raises: errors come back as JSON."""
    try:
        req = json.loads(request_json)
        op = OPS.get(req.get("op")) if isinstance(req, dict) else None
        if op is None:
            raise ValueError(f"unknown request {request_json[:80]!r}")
        return json.dumps({"ok": True, "result": op(req)})
    except Exception as exc:  # the page shows the message; nothing is lost
        return json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
