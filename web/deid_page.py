"""The page's bridge to the engine: one JSON-in, JSON-out function the Web Worker calls.

This module is packed into the page's archive beside ``deid_core/``, ``lists/`` and ``corpus/``
(see ``build.py``) and imported by the worker after Pyodide starts. It holds no logic of its own
beyond routing and shaping: every figure and every output comes from ``deid_core``. It runs
unchanged in CPython, which is how the tests compare the page with the engine.

Requests (JSON objects, ``op`` selects the operation):

* ``{"op": "info"}`` -> ``{"python", "engine", "categories", "corpus_notes", "model", "regex_cache"}``
  (``model``: the NER model's ``{"name", "labels", "max_len", "threshold", "inputs", "output"}``
  when the page carries one, else ``null``; ``regex_cache``: how many compiled patterns the build
  handed over, :mod:`deid_regex_cache`)
* ``{"op": "process", "text", "mode", "key", "decisions", "known", "model_spans", "mask_review"}``
  -> the dict of :func:`deid_core.api.process` (``mode``, ``output``, ``spans``, ``review``): the
  request less ``op`` goes to :func:`deid_core.api.process_request`, which checks it (fields,
  types, ``decisions`` ``{"start:end": true (mask) | false (keep)}``). An empty or missing ``key``
  means the engine's random secret for this process, i.e. for this page load (held in memory
  only). ``model_spans`` (a list from ``ner_finish``, or absent/null for the rules alone) selects
  the ensemble (:mod:`deid_core.ensemble`).
* ``{"op": "rules", "text": rules.json text | null, "name"?}`` -> ``{"name", "sentences",
  "templates", "notes"}`` (or ``null`` when ``text`` is null): load harvested corpus rules (a
  ``rules.json`` from ``deid harvest``, read from disk by the page) with the CLI's own loader
  (:func:`deid_core.corpus_rules.parse`); every later ``process`` applies them as ``deid redact
  --rules`` does, until another file (or null) replaces them. A bad file leaves no rules loaded.
* ``{"op": "ner_prepare", "text"}`` -> :func:`deid_core.ner.pipeline.prepare_json` parsed: the
  model's inputs, flat, with ``dims`` ``[B, T]`` (``B == 0``: do not run the model).
* ``{"op": "ner_finish", "text", "logits", "dims"}`` -> the model's spans (list of span dicts) from
  its flat ``logits`` of ``dims`` ``[B, T, L]``: :func:`deid_core.ner.pipeline.finish_json`.
* ``{"op": "benchmark", "model_spans"?}`` -> ``{"rules": report, "ensemble": report | null}``:
  each report is :func:`deid_core.evaluate.evaluate` on the embedded corpus with per-note details
  (``rules`` exactly :func:`deid_core.evaluate.evaluate_corpus_json`), plus ``wall_seconds`` (that
  report's whole call, in seconds). ``model_spans`` ``{note id: [span dicts]}`` (the model's
  spans for every corpus note, computed by the page) selects the ensemble report too (the worker
  adds ``model_seconds``, ``backend`` and those ``model_spans`` to it). Each report also has
  ``risk_summary``: :func:`deid_core.api.residual_risk_summary` of its ``residual_risk``.
* ``{"op": "corpus"}`` -> ``{"notes": [{"id", "note_type", "text", "spans"}]}`` (the gold corpus).
* ``{"op": "lists"}`` -> ``{"lists": deid_core.lists.provenance()}``.

Every reply is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": message}``; no request
raises out of :func:`handle`.

The ops and their fields are declared once, in the worker protocol (``web/protocol.json``,
``python_ops``; packed beside this module as ``deid_protocol.json``): :func:`handle` refuses an op
it does not declare and, except for ``process`` (which :func:`deid_core.api.check_request`
checks, its fields being the protocol's), a field it does not declare; :data:`OPS` must answer
exactly the declared ops (checked at import and by ``tests/test_page_static.py``).
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
    try:   # the build's compiled regular expressions (web/regex_cache.py); absent in CPython
        import deid_regex_cache
        _STATE["regex_cache"] = deid_regex_cache.install(root)
    except ImportError:
        _STATE["regex_cache"] = 0
    os.environ.setdefault("DEID_LISTS_DIR", str(Path(root) / "lists"))
    if (Path(root) / "model" / "ner.json").is_file():
        os.environ["DEID_MODEL_DIR"] = str(Path(root) / "model")
        _STATE["model"] = True
    warm_up()


def warm_up() -> None:
    """Import the engine and run it once per mode on a short invented note, so that the word
    lists are read and the patterns compiled before the page says it is ready."""
    from deid_core.api import process
    note = "Seen by Dr. Helen Achterberg on 09/14/2016 in Springfield, MA; MRN 00781245."
    for mode in ("redact", "surrogate"):
        process(note, mode=mode, key=None)  # a random secret: no key stretching at start
    if _STATE.get("model"):
        from deid_core.ner import pipeline
        prepared = json.loads(pipeline.prepare_json(note))
        if "error" in prepared:
            raise ValueError(f"the NER model's files are unusable: {prepared['error']}")


def _corpus_text() -> str:
    path = Path(_STATE["root"] or ".") / "corpus" / "notes.jsonl"
    if not path.is_file():
        raise FileNotFoundError("this page was built without the annotated corpus")
    return path.read_text(encoding="utf-8")


def _info(_req: dict) -> dict:
    import deid_core
    from deid_core.spans import CATEGORIES
    try:
        n = len(_corpus_rows())
    except FileNotFoundError:
        n = 0
    model = None
    if _STATE.get("model"):
        from deid_core.ner.pipeline import NerModel
        m = NerModel.load()
        model = {"name": m.name, "labels": m.labels, "max_len": m.max_len,
                 "threshold": m.threshold, "inputs": m.inputs, "output": m.output}
    return {"python": sys.version.split()[0], "engine": deid_core.__version__,
            "categories": list(CATEGORIES), "corpus_notes": n, "model": model,
            "regex_cache": _STATE.get("regex_cache", 0)}


def _process(req: dict) -> dict:
    from deid_core.api import process_request
    return process_request({k: v for k, v in req.items() if k != "op"}, rules=_STATE.get("rules"))


def _rules(req: dict) -> dict | None:
    """Load (or, for a null ``text``, drop) the harvested corpus rules: the CLI's loader."""
    from deid_core import corpus_rules
    _STATE["rules"] = None
    if req.get("text") is None:
        return None
    name = str(req.get("name") or "rules.json")
    rules = corpus_rules.parse(req.get("text"), name)
    _STATE["rules"] = rules
    return dict(corpus_rules.summary(rules), name=name)


def _stretch(req: dict) -> dict:
    """Take the worker's WebCrypto PBKDF2 of ``req["key"]`` (``req["secret"]``: 64 hex digits)
    so Pyodide skips its Python PBKDF2 (about 8.5 s a key); see :func:`deid_core.keys.stretch`."""
    from deid_core import keys
    keys.remember_stretched(req.get("key"), bytes.fromhex(str(req.get("secret", ""))))
    return {"iterations": keys.STRETCH_ITERATIONS}


def _key_params(_req: dict) -> dict:
    """The key-stretching parameters the worker derives with: salt (hex), iterations, bits."""
    from deid_core import keys
    return {"salt": keys.STRETCH_SALT.hex(), "iterations": keys.STRETCH_ITERATIONS, "bits": 256}


def _checked(reply: str):
    value = json.loads(reply)
    if isinstance(value, dict) and "error" in value:
        raise ValueError(value["error"])
    return value


def _ner_prepare(req: dict) -> dict:
    from deid_core.ner.pipeline import prepare_json
    if not _STATE.get("model"):
        raise FileNotFoundError("this page was built without the NER model")
    return _checked(prepare_json(req.get("text")))


def _ner_finish(req: dict) -> list:
    from deid_core.ner.pipeline import finish_json
    if not _STATE.get("model"):
        raise FileNotFoundError("this page was built without the NER model")
    return _checked(finish_json(req.get("text"), req.get("logits"), req.get("dims")))


def _benchmark(req: dict) -> dict:
    from deid_core.analyze import analyze
    from deid_core.api import residual_risk_summary
    from deid_core.ensemble import spans_from_dicts
    from deid_core.evaluate import evaluate, evaluate_corpus_json
    from deid_core.readers import parse_jsonl
    corpus = _corpus_text()
    t0 = time.perf_counter()
    rules = json.loads(evaluate_corpus_json(corpus))
    rules["wall_seconds"] = round(time.perf_counter() - t0, 3)
    rules["risk_summary"] = residual_risk_summary(rules["residual_risk"], "invented notes like these")
    ensemble = None
    by_id = req.get("model_spans")
    if by_id is not None:
        t0 = time.perf_counter()
        docs = parse_jsonl(corpus)
        missing = [d.id for d in docs if str(d.id) not in by_id]
        if missing:
            raise ValueError(f"model_spans lacks {len(missing)} corpus note(s), e.g. {missing[0]!r}")
        spans = {d.text: spans_from_dicts(by_id[str(d.id)], d.text) for d in docs}
        ensemble = evaluate(docs, lambda text: analyze(text, model=spans[text]).spans,
                            details=True)
        ensemble = json.loads(json.dumps(ensemble, sort_keys=True))
        ensemble["wall_seconds"] = round(time.perf_counter() - t0, 3)
        ensemble["risk_summary"] = residual_risk_summary(ensemble["residual_risk"], "invented notes like these")
    return {"rules": rules, "ensemble": ensemble}


def _corpus_rows() -> list:
    from deid_core import jsonl
    return jsonl.parse(_corpus_text(), "corpus/notes.jsonl")


def _corpus(_req: dict) -> dict:
    return {"notes": [{"id": row.get("id"), "note_type": row.get("note_type", ""),
                       "text": row["text"], "spans": row.get("spans", [])}
                      for row in _corpus_rows()]}


def _lists(_req: dict) -> dict:
    from deid_core import lists
    return {"lists": lists.provenance()}


def _protocol() -> dict:
    """The worker protocol: ``deid_protocol.json`` beside this module in the page, else
    ``protocol.json`` beside it in the repository (``web/``)."""
    here = Path(__file__).resolve().parent
    for name in ("deid_protocol.json", "protocol.json"):
        if (here / name).is_file():
            return json.loads((here / name).read_text(encoding="utf-8"))
    raise FileNotFoundError(f"no deid_protocol.json or protocol.json beside {__file__}")


#: The worker protocol (``web/protocol.json``); its ``python_ops`` are what :func:`handle` answers.
PROTOCOL = _protocol()

OPS = {"info": _info, "process": _process, "benchmark": _benchmark, "corpus": _corpus,
       "lists": _lists, "ner_prepare": _ner_prepare, "ner_finish": _ner_finish,
       "stretch": _stretch, "key_params": _key_params, "rules": _rules}


if set(OPS) != set(PROTOCOL["python_ops"]):
    raise RuntimeError(f"deid_page.OPS {sorted(OPS)} is not the protocol's python_ops "
                       f"{sorted(PROTOCOL['python_ops'])}")


def handle(request_json: str) -> str:
    """Answer one request (see the module doc). Never raises: errors come back as JSON."""
    try:
        req = json.loads(request_json)
        op = OPS.get(req.get("op")) if isinstance(req, dict) else None
        if op is None:
            raise ValueError(f"unknown request {request_json[:80]!r}")
        # "process" is checked by the API itself (api.check_request, the one place a request is
        # validated; its fields are the protocol's, tests/test_page_static.py); the others here.
        extra = set(req) - {"op"} - set(PROTOCOL["python_ops"][req["op"]])
        if extra and req["op"] != "process":
            raise ValueError(f"field(s) {sorted(extra)} are not declared for op {req['op']!r} "
                             "(web/protocol.json)")
        return json.dumps({"ok": True, "result": op(req)})
    except Exception as exc:  # the page shows the message; nothing is lost
        return json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
