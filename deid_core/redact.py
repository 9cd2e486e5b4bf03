"""Redaction: each span becomes its category tag (``[NAME]``, ``[DATE]``, ``[LOCATION]``, ``[AGE]``,
``[CONTACT]``, ``[ID]``, ``[PROFESSION]``)."""
from __future__ import annotations

from .analyze import Analysis
from .render import Rendered, render
from .spans import REVIEW, Span

__all__ = ["redact", "tag"]


def tag(span: Span) -> str:
    """The redaction tag of a span: its i2b2 category in brackets, e.g. ``"[NAME]"``."""
    return f"[{span.category}]"


def redact(analysis: Analysis, include_review: bool = True) -> Rendered:
    """Replace every span of ``analysis`` with its category tag.

    Args:
        analysis: from :func:`deid_core.analyze.analyze` (or built by hand).
        include_review: mask ``review`` spans too (default, fail-safe); ``False`` keeps their text.

    Returns:
        A :class:`~deid_core.render.Rendered`; characters outside the spans are unchanged.

    Raises:
        ValueError: if the spans overlap, are unsorted or fall outside the text.
    """
    return render(analysis.text, analysis.spans,
                  lambda span, _original: tag(span) if include_review or span.tier != REVIEW else None)
