"""Review: the amber candidates a human decides on, and the shape of those decisions.

A decision set maps a span id ``"start:end"`` (character offsets of a final span) to ``True``
(mask: it is an identifier) or ``False`` (keep the original text). Decisions are applied by the
one write path, :func:`deid_core.write.write`: ``certain`` spans are always masked whatever the
decision says; an undecided ``review`` span follows the caller's ``mask_review``.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from .analyze import Analysis
from .explain import explain
from .spans import REVIEW, Span

__all__ = ["review_items", "span_id", "check_decisions"]

_ID = re.compile(r"(\d+):(\d+)")


def span_id(span: Span) -> str:
    """The id a decision refers to: ``"start:end"`` (character offsets)."""
    return f"{span.start}:{span.end}"


def review_items(analysis: Analysis) -> list[dict]:
    """One dict per ``review`` span of ``analysis``, in text order.

    Keys: ``id`` (``"start:end"``), ``start``, ``end`` (character offsets), ``label``,
    ``category``, ``text`` (the original characters), ``source``, ``explanation`` (the dict of
    :func:`deid_core.explain.explain`: ``detector``, ``rule``, ``list``, ``why_amber``, ``text``)
    and ``reason`` (the explanation's ``text``, for callers that show one sentence).
    """
    items = []
    for s in analysis.spans:
        if s.tier != REVIEW:
            continue
        why = explain(s)
        items.append({"id": span_id(s), "start": s.start, "end": s.end, "label": s.label,
                      "category": s.category, "text": analysis.text[s.start:s.end],
                      "source": s.source, "explanation": why, "reason": why["text"]})
    return items


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
