"""The one write path: an analysed note, the reviewer's decisions and a mode in, the output text out.

Redact, Surrogate and Review (in the page, the CLI and :mod:`deid_core.api`) all write through
:func:`write`, so one rule decides which spans are replaced:

* a ``certain`` span is always replaced (a decision cannot unmask it);
* a ``review`` (amber) span is replaced when its decision is ``True`` (mask) and kept when it is
  ``False`` (keep); with no decision it follows ``mask_review``.

Modes: ``"redact"`` writes the category tag (``[NAME]``, :attr:`deid_core.spans.Span.tag`);
``"surrogate"`` writes a consistent fake (:class:`deid_core.surrogate.Surrogator`) keyed by the
linkage key. Spans that are kept come back in :attr:`Rendered.placed` with ``replaced`` false.
"""
from __future__ import annotations

from collections.abc import Mapping

from .analyze import Analysis
from .keys import LinkageKey, as_key
from .render import Rendered, render
from .review import check_decisions, span_id
from .safe_harbor import SafeHarborWriter
from .spans import REVIEW, Span
from .surrogate import Surrogator

__all__ = ["write", "masked", "redact", "WRITE_MODES"]

#: The output modes :func:`write` knows.
WRITE_MODES: tuple[str, ...] = ("redact", "surrogate")


def masked(span: Span, decisions: Mapping[str, bool], mask_review: bool) -> bool:
    """Whether ``span`` is replaced (module doc): certain always; review by its decision, else
    ``mask_review``. ``decisions`` must already be checked (:func:`deid_core.review.check_decisions`)."""
    if span.tier != REVIEW:
        return True
    decision = decisions.get(span_id(span))
    return mask_review if decision is None else decision


def write(analysis: Analysis, mode: str = "redact", decisions: Mapping[str, bool] | None = None,
          key: LinkageKey | str | None = None, mask_review: bool = False,
          safe_harbor: bool = False) -> Rendered:
    """Write ``analysis`` in ``mode`` after the reviewer's decisions.

    Args:
        analysis: from :func:`deid_core.analyze.analyze` or the ensemble.
        mode: ``"redact"`` or ``"surrogate"``.
        decisions: ``{"start:end": True (mask) | False (keep)}`` for review spans; ids that match
            no review span are ignored (a stale decision cannot unmask anything); ``None``: none.
        key: the linkage key for ``"surrogate"`` (a :class:`~deid_core.keys.LinkageKey`, a user
            key string, or ``None``/``""`` for a fresh random secret); unused by ``"redact"``.
        mask_review: what an undecided review span gets: kept as text (``False``, the default:
            amber stays amber until decided) or replaced (``True``, for unattended runs).
        safe_harbor: Redact only: a replaced span keeps what Safe Harbor permits (a date's
            year, a ZIP's first three digits, a state, ``90+``;
            :mod:`deid_core.safe_harbor`) instead of its tag; which spans are replaced does
            not change.

    Returns:
        A :class:`~deid_core.render.Rendered`: the text and one placement per span of
        ``analysis`` (kept spans have ``replaced`` false).

    Raises:
        ValueError: on an unknown mode, ``safe_harbor`` with ``"surrogate"``, or malformed
            decisions (see :func:`deid_core.review.check_decisions`).
    """
    if mode not in WRITE_MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {list(WRITE_MODES)}")
    if safe_harbor and mode != "redact":
        raise ValueError("the Safe Harbor option (safe_harbor) applies to redact only")
    dec = check_decisions(decisions)
    chosen = [s for s in analysis.spans if masked(s, dec, mask_review)]
    # the chosen spans are objects of analysis.spans (which holds no two equal spans): kept by
    # identity, so no span is hashed (a dataclass hash is a Python call over its five fields)
    keep = {id(s) for s in chosen}
    if mode == "redact" and safe_harbor:
        harbor = SafeHarborWriter(analysis.text, analysis.spans)
        return render(analysis.text, analysis.spans,
                      lambda span, original: harbor.replace(span, original) if id(span) in keep else None)
    if mode == "redact":
        return render(analysis.text, analysis.spans,
                      lambda span, _original: span.tag if id(span) in keep else None)
    faker = Surrogator(analysis.text, chosen, as_key(key))
    return render(analysis.text, analysis.spans,
                  lambda span, original: faker.fake(span, original) if id(span) in keep else None)


def redact(analysis: Analysis, include_review: bool = True) -> Rendered:
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
    return write(analysis, "redact", mask_review=include_review)
