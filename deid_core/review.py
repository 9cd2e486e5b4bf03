"""Review: the amber candidates a human decides on, and applying those decisions.

A decision set maps a span id ``"start:end"`` (character offsets of a final span) to ``True``
(accept: it is PHI, mask it) or ``False`` (reject: keep the original text). ``certain`` spans are
always masked whatever the decision says; a ``review`` span with no decision is masked
(fail-safe: a missed identifier is the expensive failure).
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from .analyze import Analysis
from .keys import LinkageKey, as_key
from .redact import tag
from .render import Rendered, render
from .spans import REVIEW, Span
from .surrogate import Surrogator

__all__ = ["apply_decisions", "review_items", "span_id", "explain", "check_decisions", "MODES"]

#: Output modes :func:`apply_decisions` writes.
MODES: tuple[str, ...] = ("redact", "surrogate")

_ID = re.compile(r"(\d+):(\d+)")

#: Detector name (the part of a source before ``:``) -> words for a reviewer.
DETECTOR_TEXT: dict[str, str] = {
    "names": "name finder",
    "dates": "date patterns",
    "ages": "age patterns",
    "contact": "contact patterns (phone, email, URL, IP)",
    "ids": "identifier-number patterns",
    "locations": "place and address finder",
    "known": "identifiers you supplied for this patient",
    "model": "the NER model",
}
#: (word found in a source, explanation): why a candidate is amber rather than certain.
REASON_HINTS: tuple[tuple[str, str], ...] = (
    ("mesh", "the word is also a medical term (MeSH), so it is not masked on sight"),
    ("medical", "the word is also a medical term (MeSH), so it is not masked on sight"),
    ("english", "the word is also an ordinary English word"),
    ("clinical_noun", "it is followed by a clinical noun (like 'Foley catheter'), so it may be a device"),
    ("eponym", "it stands next to an eponym word (syndrome, disease, sign)"),
    ("sentence_start", "it starts a sentence, where ordinary words are capitalised too"),
    ("lowercase", "it is written in lower case"),
    ("context", "only the surrounding words suggest it is an identifier"),
    ("ambiguous", "the pattern also matches non-identifiers"),
    ("model", "a statistical model proposed it"),
)


def span_id(span: Span) -> str:
    """The id a decision refers to: ``"start:end"`` (character offsets)."""
    return f"{span.start}:{span.end}"


def explain(source: str) -> str:
    """A sentence for a reviewer derived from a span's ``source``.

    ``"names:surname_list+mesh_collision"`` -> ``"Found by the name finder (surname list, mesh
    collision); amber because the word is also a medical term (MeSH), so it is not masked on
    sight."`` Sources merged by the resolver (``" + "``) are each described.
    """
    if not source:
        return "Found by a detector that gave no reason."
    found: list[str] = []
    hints: list[str] = []
    for part in source.split(" + "):
        det, _, rule = part.partition(":")
        who = DETECTOR_TEXT.get(det, det or "a detector")
        words = re.sub(r"\s*\+\s*", ", ", rule.replace("_", " ")).strip(", ")
        found.append(f"the {who} ({words})" if words else f"the {who}")
        low = part.lower()
        for needle, why in REASON_HINTS:
            if needle in low and why not in hints:
                hints.append(why)
    text = "Found by " + "; ".join(found)
    if hints:
        text += "; amber because " + "; ".join(hints)
    return text + "."


def review_items(analysis: Analysis) -> list[dict]:
    """One dict per ``review`` span of ``analysis``, in text order.

    Keys: ``id`` (``"start:end"``), ``start``, ``end`` (character offsets), ``label``,
    ``category``, ``text`` (the original characters), ``source`` and ``reason`` (see
    :func:`explain`).
    """
    return [{"id": span_id(s), "start": s.start, "end": s.end, "label": s.label,
             "category": s.category, "text": analysis.text[s.start:s.end], "source": s.source,
             "reason": explain(s.source)}
            for s in analysis.spans if s.tier == REVIEW]


def check_decisions(decisions: Mapping[str, bool] | None) -> dict[str, bool]:
    """Validate a decision mapping and return it as a plain dict.

    Raises:
        ValueError: if it is not a mapping, an id is not ``"start:end"`` with
            ``start < end``, or a value is not ``True``/``False``.
    """
    if decisions is None:
        return {}
    if not isinstance(decisions, Mapping):
        raise ValueError(f"decisions must map 'start:end' ids to true/false, not {type(decisions).__name__}")
    out: dict[str, bool] = {}
    for k, v in decisions.items():
        m = _ID.fullmatch(k) if isinstance(k, str) else None
        if not m or int(m.group(1)) >= int(m.group(2)):
            raise ValueError(f"decision id {k!r} is not of the form 'start:end' with start < end")
        if not isinstance(v, bool):
            raise ValueError(f"decision for {k!r} must be true (mask) or false (keep), not {v!r}")
        out[k] = v
    return out


def masked(span: Span, decisions: Mapping[str, bool]) -> bool:
    """Whether ``span`` is masked: certain always, review unless explicitly rejected."""
    return span.tier != REVIEW or decisions.get(span_id(span), True) is not False


def apply_decisions(analysis: Analysis, decisions: Mapping[str, bool] | None,
                    mode: str = "redact", key: LinkageKey | str | None = None) -> Rendered:
    """The final text after a reviewer's decisions.

    Args:
        analysis: from :func:`deid_core.analyze.analyze`.
        decisions: ``{"start:end": True | False}``; ids that match no span are ignored (a stale
            decision cannot unmask anything); ``None`` means no decisions.
        mode: ``"redact"`` (category tags) or ``"surrogate"`` (fakes, see
            :func:`deid_core.surrogate.surrogate`).
        key: the linkage key for ``"surrogate"`` mode (``None``: a fresh random secret).

    Returns:
        A :class:`~deid_core.render.Rendered`; rejected spans are kept (``replaced`` false).

    Raises:
        ValueError: on an unknown mode or malformed decisions.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {MODES}")
    dec = check_decisions(decisions)
    if mode == "redact":
        return render(analysis.text, analysis.spans,
                      lambda span, _o: tag(span) if masked(span, dec) else None)
    kept = [s for s in analysis.spans if masked(s, dec)]
    sur = Surrogator(analysis.text, kept, as_key(key))
    return render(analysis.text, analysis.spans,
                  lambda span, original: sur.fake(span, original) if masked(span, dec) else None)
