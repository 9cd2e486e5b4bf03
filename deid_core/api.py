"""The facade the page (through Pyodide) and the command line call: text in, result dict out.

``process(text, mode, key, decisions, known)`` analyses the note once and writes it in one of
three modes:

* ``"redact"``: category tags (``[NAME]``, ``[DATE]``...) in place of every span;
* ``"surrogate"``: consistent fake values (:mod:`deid_core.surrogate`), dates shifted by the
  key's one offset;
* ``"review"``: category tags after the reviewer's decisions (:mod:`deid_core.review`).

In every mode both tiers are masked unless a decision rejects a ``review`` span; ``certain``
spans are always masked and undecided review spans are masked (fail-safe).

Model spans: the page runs the NER model itself (:mod:`deid_core.ner.pipeline` prepares its input
and turns its logits into span dicts) and passes those dicts as ``model_spans``; they join the
rules' candidates as :mod:`deid_core.ensemble` documents. Without them the rules run alone.

Linkage key: a non-empty ``key`` string is the user's key (same key -> same offset and same fakes
in every note). ``None`` or ``""`` uses one random secret created the first time it is needed and
kept for the life of the process (one page load keeps one date offset); it is never shown.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .analyze import analyze
from .ensemble import analyze_with_model, spans_from_dicts
from .document import Known
from .keys import LinkageKey
from .review import apply_decisions, review_items, span_id

__all__ = ["process", "process_json", "MODES", "session_key"]

MODES: tuple[str, ...] = ("redact", "surrogate", "review")
_KNOWN_FIELDS: tuple[str, ...] = ("names", "mrns", "addresses", "birth_dates")
_REQUEST_FIELDS: frozenset[str] = frozenset({"text", "mode", "key", "decisions", "known",
                                              "model_spans"})

_session: LinkageKey | None = None


def session_key() -> LinkageKey:
    """This process's random linkage key, created on first use (``secrets.token_bytes(32)``)."""
    global _session
    if _session is None:
        _session = LinkageKey.random()
    return _session


def _key(key: str | None) -> LinkageKey:
    if key is None or key == "":
        return session_key()
    if not isinstance(key, str):
        raise ValueError(f"key must be a string or null, not {type(key).__name__}")
    return LinkageKey.from_user(key)


def _known(known: Mapping[str, Any] | None) -> Known | None:
    if known is None:
        return None
    if not isinstance(known, Mapping):
        raise ValueError(f"known must be an object with lists {list(_KNOWN_FIELDS)}, "
                         f"not {type(known).__name__}")
    unknown = set(known) - set(_KNOWN_FIELDS)
    if unknown:
        raise ValueError(f"unknown field(s) in known: {sorted(unknown)}; expected {list(_KNOWN_FIELDS)}")
    fields: dict[str, tuple[str, ...]] = {}
    for name in _KNOWN_FIELDS:
        value = known.get(name) or []
        if isinstance(value, str) or not isinstance(value, (list, tuple)) \
                or not all(isinstance(v, str) for v in value):
            raise ValueError(f"known.{name} must be a list of strings")
        fields[name] = tuple(value)
    return Known(**fields)


def process(text: str, mode: str = "redact", key: str | None = None,
            decisions: Mapping[str, bool] | None = None,
            known: Mapping[str, Any] | None = None,
            model_spans: list[Mapping[str, Any]] | None = None) -> dict:
    """Analyse ``text`` and write it out in ``mode``.

    Args:
        text: the note (any Unicode string).
        mode: ``"redact"``, ``"surrogate"`` or ``"review"``.
        key: the linkage key string; ``None``/``""``: this process's random key.
        decisions: ``{"start:end": True (mask) | False (keep)}`` for review spans; honoured in
            every mode.
        known: ``{"names": [...], "mrns": [...], "addresses": [...], "birth_dates": [...]}``
            (each optional), identifiers of this patient that are then masked as certain.
        model_spans: the NER model's spans for ``text``, as dicts ``{"start", "end", "label",
            "tier", "source"}`` (:func:`deid_core.ner.pipeline.finish_json`); ``None``: rules only.

    Returns:
        ``{"mode", "output", "spans", "review"}``: ``output`` the written text; ``spans`` one dict
        per final span in text order with ``id`` (``"start:end"``), ``start``, ``end``, ``label``,
        ``category``, ``tier``, ``source``, ``text`` (original characters), ``out_start``,
        ``out_end`` (where its replacement, or its kept text, lies in ``output``) and
        ``replaced``; ``review`` the :func:`deid_core.review.review_items`.

    Raises:
        ValueError: on an unknown mode, a non-str text or key, malformed decisions, known or
            model_spans.
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, not {type(text).__name__}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {list(MODES)}")
    if model_spans is None:
        analysis = analyze(text, _known(known))
    else:
        analysis = analyze_with_model(text, spans_from_dicts(model_spans, text), _known(known))
    if mode == "surrogate":
        rendered = apply_decisions(analysis, decisions, "surrogate", _key(key))
    else:
        rendered = apply_decisions(analysis, decisions, "redact")
    spans = [{"id": span_id(p.span), "start": p.span.start, "end": p.span.end,
              "label": p.span.label, "category": p.span.category, "tier": p.span.tier,
              "source": p.span.source, "text": text[p.span.start:p.span.end],
              "out_start": p.out_start, "out_end": p.out_end, "replaced": p.replaced}
             for p in rendered.placed]
    return {"mode": mode, "output": rendered.text, "spans": spans, "review": review_items(analysis)}


def process_json(request_json: str) -> str:
    """JSON in, JSON out, for the page's worker.

    Args:
        request_json: an object ``{"text": str, "mode"?: str, "key"?: str | null,
            "decisions"?: {"start:end": bool}, "known"?: {...}, "model_spans"?: [...]}``
            (see :func:`process`).

    Returns:
        The JSON of :func:`process`'s dict, or ``{"error": message}`` when the request is not
        valid JSON, not an object, has unknown fields, or :func:`process` rejects it. Never
        raises for bad input.
    """
    try:
        request = json.loads(request_json)
    except (TypeError, ValueError) as exc:
        return json.dumps({"error": f"request is not valid JSON: {exc}"})
    if not isinstance(request, dict):
        return json.dumps({"error": "request must be a JSON object"})
    extra = set(request) - _REQUEST_FIELDS
    if extra:
        return json.dumps({"error": f"unknown request field(s) {sorted(extra)}; "
                                    f"expected {sorted(_REQUEST_FIELDS)}"})
    if "text" not in request:
        return json.dumps({"error": "request has no 'text'"})
    try:
        result = process(request["text"], request.get("mode", "redact"), request.get("key"),
                         request.get("decisions"), request.get("known"),
                         request.get("model_spans"))
    except (TypeError, ValueError) as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps(result, ensure_ascii=False)
