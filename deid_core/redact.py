"""Redaction tags: each replaced span becomes its category tag (``[NAME]``, ``[DATE]``,
``[LOCATION]``, ``[AGE]``, ``[CONTACT]``, ``[ID]``, ``[PROFESSION]``). Which spans are replaced is
decided in one place, :func:`deid_core.write.write`; :func:`redact` is its redact mode."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .spans import Span

if TYPE_CHECKING:  # the write path imports this module for tag()
    from .analyze import Analysis
    from .render import Rendered

__all__ = ["redact", "tag"]


def tag(span: Span) -> str:
    """The redaction tag of a span: its i2b2 category in brackets, e.g. ``"[NAME]"``."""
    return f"[{span.category}]"


def redact(analysis: "Analysis", include_review: bool = True) -> "Rendered":
    """Replace the spans of ``analysis`` with their category tags:
    ``write(analysis, "redact", mask_review=include_review)``.

    Args:
        analysis: from :func:`deid_core.analyze.analyze` (or built by hand).
        include_review: replace ``review`` spans too (``True``, for unattended runs); ``False``
            keeps their text.

    Returns:
        A :class:`~deid_core.render.Rendered`; characters outside the spans are unchanged.

    Raises:
        ValueError: if the spans overlap, are unsorted or fall outside the text.
    """
    from .write import write
    return write(analysis, "redact", mask_review=include_review)
