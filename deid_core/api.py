"""The front door the page (through Pyodide), the command line and batch runs call.

``process(text, mode, key, decisions, known, model_spans, mask_review)`` analyses the note once
and writes it through the one write path (:func:`deid_core.write.write`) in one of three modes:

* ``"redact"``: category tags (``[NAME]``, ``[DATE]``...) in place of the masked spans;
* ``"surrogate"``: consistent fake values (:mod:`deid_core.surrogate`), dates shifted by the
  key's one offset;
* ``"review"``: the redact output (decisions applied), with the review list to decide on.

Which spans are masked (:mod:`deid_core.write`): ``certain`` spans always; a ``review`` span by
its decision (``True`` mask, ``False`` keep); an undecided one stays as text unless
``mask_review`` is true (unattended runs). So Redact and Surrogate on their own apply the certain
spans, and Surrogate after review gives certain + accepted.

Requests as JSON (the page's worker, ``deid batch``): :func:`check_request` is the one place a
request is validated, :func:`process_request` runs a checked or raw request dict and
:func:`process_json` answers a JSON string without ever raising.

The engine is the one pipeline, :func:`deid_core.analyze.analyze`: the rules, the model's spans
and harvested corpus rules (``rules``) composed there as for every other caller.

Model spans: the host runs the NER model (:mod:`deid_core.ner`) and passes its spans as
:class:`~deid_core.spans.Span` values (``model_spans``), or a function ``text -> spans`` that
the pipeline calls when it needs them; in a JSON request they are span dicts, turned into
``Span`` values once, by :func:`check_request`. They join the rules' candidates as
:mod:`deid_core.ensemble` documents. ``None``: the rules alone.

Linkage key: a non-empty ``key`` string is the user's key (same key -> same offset and same fakes
in every note). ``None`` or ``""`` uses one random secret created the first time it is needed and
kept for the life of the process (one page load keeps one date offset); it is never shown.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .analyze import Model, analyze
from .corpus_rules import HarvestRules
from .document import Known
from .ensemble import spans_from_dicts
from .explain import explain
from .harbor_figures import FIGURES
from .harbor_table import ACTUAL_KNOWLEDGE, TEXT_LIMITS, identifier_rows
from .keys import LinkageKey
from .notices import notice_data, render_markdown
from .review import check_decisions, review_items, span_id
from .safe_harbor import OPTION_RULES, safe_harbor_cases
from .spans import Span
from .write import write

__all__ = ["MODES", "REQUEST_FIELDS", "Request", "check_request", "process", "process_json",
           "page_harbor", "page_static", "process_request", "residual_risk_summary", "safe_harbor_info",
           "session_key", "third_party_notices"]

MODES: tuple[str, ...] = ("redact", "surrogate", "review")
_KNOWN_FIELDS: tuple[str, ...] = ("names", "mrns", "addresses", "birth_dates")
#: The fields a JSON request may hold (all but ``text`` optional).
REQUEST_FIELDS: frozenset[str] = frozenset({"text", "mode", "key", "decisions", "known",
                                            "model_spans", "mask_review", "safe_harbor"})

_session: LinkageKey | None = None


def session_key() -> LinkageKey:
    """This process's random linkage key, created on first use (``secrets.token_bytes(32)``)."""
    global _session
    if _session is None:
        _session = LinkageKey.random()
    return _session


def _key(key: str | LinkageKey | None) -> LinkageKey:
    if isinstance(key, LinkageKey):
        return key
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


@dataclass(frozen=True)
class Request:
    """A checked request (:func:`check_request`): ``text``; ``mode`` one of :data:`MODES`;
    ``key`` a string or ``None``; ``decisions`` ``{"start:end": bool}``; ``known`` a
    :class:`~deid_core.document.Known` or ``None``; ``model_spans`` a tuple of
    :class:`~deid_core.spans.Span` or ``None`` (rules only); ``mask_review`` a bool;
    ``safe_harbor`` a bool (redact and review only: :mod:`deid_core.safe_harbor`)."""

    text: str
    mode: str = "redact"
    key: str | None = None
    decisions: Mapping[str, bool] | None = None
    known: Known | None = None
    model_spans: tuple[Span, ...] | None = None
    mask_review: bool = False
    safe_harbor: bool = False


def _check_safe_harbor(mode: Any, safe_harbor: Any) -> None:
    if not isinstance(safe_harbor, bool):
        raise ValueError(f"safe_harbor must be true or false, not {safe_harbor!r}")
    if safe_harbor and mode == "surrogate":
        raise ValueError("safe_harbor applies to redact and review, not surrogate")


def _check(text: Any, mode: Any, key: Any, mask_review: Any) -> None:
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, not {type(text).__name__}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {list(MODES)}")
    if key is not None and not isinstance(key, str):
        raise ValueError(f"key must be a string or null, not {type(key).__name__}")
    if not isinstance(mask_review, bool):
        raise ValueError(f"mask_review must be true or false, not {mask_review!r}")


def check_request(request: Mapping[str, Any]) -> Request:
    """Validate a JSON-shaped request ``{"text": str, "mode"?: str, "key"?: str | null,
    "decisions"?: {"start:end": bool} | null, "known"?: {...} | null, "model_spans"?: [span
    dicts] | null, "mask_review"?: bool, "safe_harbor"?: bool}`` (absent or null fields take :class:`Request`'s
    defaults; ``model_spans`` dicts are ``{"start", "end", "label", "tier"?, "source"?}``).

    Raises:
        ValueError: on a non-object, unknown fields, a missing or non-string ``text``, or any
            field :func:`process` would reject.
    """
    if not isinstance(request, Mapping):
        raise ValueError("request must be a JSON object")
    extra = set(request) - REQUEST_FIELDS
    if extra:
        raise ValueError(f"unknown request field(s) {sorted(extra)}; expected {sorted(REQUEST_FIELDS)}")
    if "text" not in request:
        raise ValueError("request has no 'text'")
    text = request["text"]
    mode = request.get("mode")
    mode = "redact" if mode is None else mode
    mask_review = request.get("mask_review")
    mask_review = False if mask_review is None else mask_review
    _check(text, mode, request.get("key"), mask_review)
    safe_harbor = request.get("safe_harbor")
    safe_harbor = False if safe_harbor is None else safe_harbor
    _check_safe_harbor(mode, safe_harbor)
    raw = request.get("model_spans")
    return Request(text, mode, request.get("key"), check_decisions(request.get("decisions")),
                   _known(request.get("known")),
                   None if raw is None else tuple(spans_from_dicts(raw, text)), mask_review,
                   safe_harbor)


def process(text: str, mode: str = "redact", key: str | LinkageKey | None = None,
            decisions: Mapping[str, bool] | None = None,
            known: Mapping[str, Any] | Known | None = None,
            model_spans: Model | None = None, mask_review: bool = False,
            rules: HarvestRules | None = None, safe_harbor: bool = False) -> dict:
    """Analyse ``text`` and write it out in ``mode``.

    Args:
        text: the note (any Unicode string).
        mode: ``"redact"``, ``"surrogate"`` or ``"review"``.
        key: the linkage key string (stretched, :meth:`deid_core.keys.LinkageKey.from_user`),
            or a :class:`~deid_core.keys.LinkageKey` (a patient's key,
            :func:`deid_core.linkage.patient_linkage_key`); ``None``/``""``: this process's
            random key.
        decisions: ``{"start:end": True (mask) | False (keep)}`` for review spans; honoured in
            every mode; ids of no review span are ignored.
        known: ``{"names": [...], "mrns": [...], "addresses": [...], "birth_dates": [...]}``
            (each optional) or a :class:`~deid_core.document.Known`: identifiers of this
            patient that are then masked as certain.
        model_spans: the NER model's spans for ``text`` as :class:`~deid_core.spans.Span`
            values (``OnnxNer.spans(text)``), or a function ``text -> spans`` called when the
            model is needed (``OnnxNer.spans``); ``None``: rules only. A list holding JSON span
            dicts is read by :func:`deid_core.ensemble.spans_from_dicts` (as a JSON request is).
        mask_review: mask undecided review candidates too (unattended runs); default: they stay
            as text until decided.
        rules: harvested corpus rules (:class:`deid_core.corpus_rules.HarvestRules`, loaded by
            :func:`deid_core.corpus_rules.load`) or ``None``: applied as ``deid batch`` applies
            them (:func:`deid_core.analyze.analyze`).
        safe_harbor: redact and review: a masked span keeps what Safe Harbor permits (the
            year of a date, ZIP3, a state, ``90+``; :mod:`deid_core.safe_harbor`) instead of
            its tag. Which spans are masked does not change.

    Returns:
        ``{"mode", "output", "spans", "review", "phi_free"}``: ``output`` the written text; ``spans`` one dict
        per final span in text order with ``id`` (``"start:end"``), ``start``, ``end``, ``label``,
        ``category``, ``tier``, ``source``, ``explanation`` (:func:`deid_core.explain.explain`),
        ``text`` (original characters), ``out_start``, ``out_end`` (where its replacement, or its
        kept text, lies in ``output``) and ``replaced``; ``review`` the
        :func:`deid_core.review.review_items` (each with its ``explanation``); ``phi_free`` the
        ``[start, end]`` of each sentence the rules' inclusion list knows as PHI-free (its spans
        dropped; ``[]`` without rules).

    Raises:
        ValueError: on an unknown mode, a non-str text or key, malformed decisions or known,
            model spans that are malformed or end past the text, ``safe_harbor`` with
            ``"surrogate"``.
    """
    _check(text, mode, None if isinstance(key, LinkageKey) else key, mask_review)
    _check_safe_harbor(mode, safe_harbor)
    if model_spans is not None and not callable(model_spans) \
            and not all(isinstance(s, Span) for s in model_spans):
        model_spans = spans_from_dicts(model_spans, text)  # JSON dicts, as check_request reads them
    known = known if isinstance(known, Known) or known is None else _known(known)
    analysis = analyze(text, known, model=model_spans, rules=rules)
    rendered = write(analysis, "surrogate" if mode == "surrogate" else "redact", decisions,
                     _key(key) if mode == "surrogate" else None, mask_review=mask_review,
                     safe_harbor=safe_harbor)
    spans = [{"id": span_id(p.span), "start": p.span.start, "end": p.span.end,
              "label": p.span.label, "category": p.span.category, "tier": p.span.tier,
              "source": p.span.source, "explanation": explain(p.span),
              "text": text[p.span.start:p.span.end],
              "out_start": p.out_start, "out_end": p.out_end, "replaced": p.replaced}
             for p in rendered.placed]
    return {"mode": mode, "output": rendered.text, "spans": spans, "review": review_items(analysis),
            "phi_free": [[a, b] for a, b in analysis.phi_free]}


def process_request(request: Mapping[str, Any] | Request, rules: HarvestRules | None = None) -> dict:
    """:func:`process` for a request dict (checked by :func:`check_request`) or a
    :class:`Request`, with ``rules`` (harvested corpus rules or None) as :func:`process` takes.

    Raises:
        ValueError: as :func:`check_request` and :func:`process`.
    """
    req = request if isinstance(request, Request) else check_request(request)
    return process(req.text, req.mode, req.key, req.decisions, req.known, req.model_spans,
                   req.mask_review, rules, req.safe_harbor)


def process_json(request_json: str) -> str:
    """JSON in, JSON out, for the page's worker.

    Args:
        request_json: a request object (see :func:`check_request`).

    Returns:
        The JSON of :func:`process`'s dict, or ``{"error": message}`` when the request is not
        valid JSON or :func:`check_request`/:func:`process` rejects it. Never raises for bad
        input.
    """
    try:
        request = json.loads(request_json)
    except RecursionError:
        return json.dumps({"error": "request is not valid JSON: nested too deeply"})
    except (TypeError, ValueError) as exc:
        return json.dumps({"error": f"request is not valid JSON: {exc}"})
    try:
        result = process_request(request)
    except (TypeError, ValueError) as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps(result, ensure_ascii=False)


def safe_harbor_info(examples: bool = True) -> dict:
    """What the page shows about Safe Harbor ("What is removed", the option, About), JSON-ready:

    ``{"identifiers"``: :func:`deid_core.harbor_table.identifier_rows` (A-R, each with labels,
    detectors, what Redact / Surrogate / the option write, an invented example and its three
    outputs, measured recall per corpus), ``"option"``: ``[{"span", "redact", "safe_harbor"}]``
    (:data:`deid_core.safe_harbor.OPTION_RULES`), ``"actual_knowledge"``: paragraphs,
    ``"text_limits"``: paragraphs (biometrics, photographs), ``"figures"``: the measured
    figures (:data:`deid_core.harbor_figures.FIGURES`: per corpus ``residual_risk`` and
    ``per_identifier``), ``"cases"``: :func:`deid_core.safe_harbor.safe_harbor_cases`}``.
    ``examples`` false skips running the examples (faster)."""
    return {"identifiers": identifier_rows(examples=examples, process=process),
            "option": [{"span": a, "redact": b, "safe_harbor": c} for a, b, c in OPTION_RULES],
            "actual_knowledge": list(ACTUAL_KNOWLEDGE), "text_limits": list(TEXT_LIMITS),
            "figures": FIGURES, "cases": safe_harbor_cases()}


def third_party_notices() -> dict:
    """The third-party notice for the page's About (:func:`deid_core.notices.notice_data`;
    ``"markdown"`` adds the text of ``THIRD_PARTY_NOTICES.md``)."""
    return dict(notice_data(), markdown=render_markdown())


def _share(v: float) -> str:
    return f"{100 * v:.1f} %"


def page_harbor() -> dict:
    """What the page's "What is removed" shows (``build.py`` embeds it in the page's manifest),
    JSON-ready and deterministic (no examples run):

    ``{"rows": [{"letter", "name", "rule", "labels", "detectors", "redact", "surrogate",
    "safe_harbor", "note", "recall": [{"corpus", "title", "gold", "certain", "with_review",
    "text"}]}]`` (the 18 identifiers of :func:`deid_core.harbor_table.identifier_rows`, recall
    per corpus that has the identifier, real notes first; ``certain``/``with_review`` shares of
    its characters, ``text`` the same in words), ``"actual_knowledge"``, ``"text_limits"``:
    paragraphs, ``"option"``: as in :func:`safe_harbor_info`, ``"source"``: the command the
    recall figures come from}``."""
    corpora = FIGURES.get("corpora", {})
    rows = []
    for row in identifier_rows(examples=False):
        recall = []
        for name in sorted(row["recall"], key=lambda n: (n != "real_notes", n)):
            r = row["recall"][name]
            title = corpora.get(name, {}).get("title", name)
            recall.append({"corpus": name, "title": title, "gold": r["gold"],
                           "certain": r["certain"], "with_review": r["with_review"],
                           "text": f"{title}: {_share(r['certain'])} ({_share(r['with_review'])} with "
                                   f"review), {r['gold']:,} identifiers"})
        rows.append({k: row[k] for k in ("letter", "name", "rule", "labels", "detectors", "redact",
                                         "surrogate", "safe_harbor", "note")} | {"recall": recall})
    return {"rows": rows, "actual_knowledge": list(ACTUAL_KNOWLEDGE),
            "text_limits": list(TEXT_LIMITS),
            "option": [{"span": a, "redact": b, "safe_harbor": c} for a, b, c in OPTION_RULES],
            "source": f"{FIGURES.get('command', 'deid eval --json')}, {FIGURES.get('engine', '')}"}


def residual_risk_summary(risk: dict, of: str = "notes like these") -> dict:
    """The residual risk of an evaluation (:func:`deid_core.risk.residual_risk`) as the page
    shows it next to recall: ``{"notes", "interval", "certain": {"left", "gold",
    "per_1000_notes", "upper_95_per_1000_notes"}, "with_review": {...}, "review":
    {"amber_per_note", "minutes_per_1000_notes", "seconds_per_mark"}, "sentences": [str]}``.
    ``of`` names the notes in the sentences (``"real ICU nursing notes like these"``).

    Raises:
        KeyError: when ``risk`` lacks those fields."""
    keep = ("left", "gold", "per_1000_notes", "upper_95_per_1000_notes")
    cert = {k: risk["certain"][k] for k in keep}
    rev = {k: risk["with_review"][k] for k in keep}
    review = dict(risk["review"])
    sentences = [
        f"Identifiers left per 1,000 {of}: {cert['per_1000_notes']:,.1f} with the certain marks "
        f"alone (95 % upper bound {cert['upper_95_per_1000_notes']:,.1f}); "
        f"{rev['per_1000_notes']:,.1f} with every amber mark masked (95 % upper bound "
        f"{rev['upper_95_per_1000_notes']:,.1f}).",
        f"Measured: {cert['left']:,} and {rev['left']:,} of {cert['gold']:,} identifiers left in "
        f"{risk['notes']:,} notes (an identifier counts as left when any of its characters is).",
        f"Interval: {risk['interval']}.",
        f"Review: {review['amber_per_note']:.2f} amber marks per note, about "
        f"{review['minutes_per_1000_notes']:,.0f} minutes per 1,000 notes at "
        f"{review['seconds_per_mark']:g} s a mark.",
        "The figures hold for notes like the evaluated ones; other kinds of note can leave more.",
    ]
    return {"notes": risk["notes"], "interval": risk["interval"], "certain": cert,
            "with_review": rev, "review": review, "sentences": sentences}


def _licence_summary(licence: str) -> dict:
    lines = [ln.strip() for ln in licence.splitlines() if ln.strip()]
    title = lines[0] if lines else ""
    holder = next((ln for ln in lines if ln.lower().startswith("copyright")), "")
    return {"title": title, "copyright": holder, "text": licence.strip(),
            "summary": f"deid is free software under the {title or 'licence in LICENSE'} ({holder}): "
                       "anyone may use, copy, change and share it, keeping the copyright and licence "
                       "notice; it comes with no warranty."}


def page_static(licence: str) -> dict:
    """Everything the page shows that does not depend on the note, JSON-ready and deterministic
    (``build.py`` puts it in the page's manifest as ``texts``):

    ``{"harbor"``: :func:`page_harbor`, ``"risk"``: ``{"real_notes": residual_risk_summary}`` of
    the release's real-notes figures (:data:`deid_core.harbor_figures.FIGURES`, rules + model),
    ``"about"``: ``{"licence": {"title", "copyright", "text", "summary"}, "notices":
    notice_data()}}``.

    Args:
        licence: the text of the repository's ``LICENSE`` file."""
    risk = {}
    real = FIGURES.get("corpora", {}).get("real_notes")
    if real and "residual_risk" in real:
        risk["real_notes"] = dict(residual_risk_summary(real["residual_risk"],
                                                        "real ICU nursing notes like these"),
                                  title=real.get("title", "real notes"),
                                  source=f"{FIGURES.get('command', 'deid eval --json')}, "
                                         f"{FIGURES.get('engine', '')}")
    return {"harbor": page_harbor(), "risk": risk,
            "about": {"licence": _licence_summary(licence), "notices": notice_data()}}
