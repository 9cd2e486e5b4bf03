"""Run every registered detector over a normalised view of a note (:mod:`deid_core.textview`:
invisible characters dropped, look-alike dashes and spaces folded, offsets mapped back to the
original) and resolve the candidates; then add what the
final spans show (:mod:`deid_core.extend`: whole dates around a bare year, other copies of a
certain identifier) and resolve once more."""
from __future__ import annotations

import gc
import operator
from collections.abc import Iterable
from dataclasses import dataclass

from .detectors import REGISTRY, Detector
from .document import Document, Known
from .extend import repeats, whole_dates
from .resolve import resolve
from .spans import Span
from .textview import normalised_view

__all__ = ["Analysis", "Known", "analyze"]

#: The order of :class:`Span` (its fields in order), as a key: sorting by it gives what
#: ``sorted(spans)`` gives without calling the dataclass's ``__lt__`` for every comparison.
_SPAN_ORDER = operator.attrgetter("start", "end", "label", "tier", "source")


@dataclass(frozen=True)
class Analysis:
    """The result of :func:`analyze`.

    Attributes:
        text: the original note, unchanged.
        spans: final non-overlapping spans sorted by start (both tiers).
        candidates: every candidate from every detector, sorted, before resolution (for Review).
    """

    text: str
    spans: tuple[Span, ...]
    candidates: tuple[Span, ...]


def analyze(text: str, known: Known | None = None,
            detectors: Iterable[Detector] = REGISTRY) -> Analysis:
    """Find the PHI in ``text``.

    Args:
        text: a note of any length; any Unicode string is accepted.
        known: identifiers the caller already knows for this patient (:class:`Known`).
        detectors: which detectors to run (default: the whole :data:`REGISTRY`).

    Returns:
        An :class:`Analysis` whose spans index into ``text``.

    Raises:
        TypeError: if ``text`` is not a ``str``.

    Speed: Python's cyclic garbage collector is paused while it runs (and turned back on after,
    if it was on): the engine builds hundreds of thousands of small objects for a long note
    (tokens, runs, spans) that live until it returns, and the collector's repeated passes over
    them cost up to a fifth of the time; what becomes cyclic garbage meanwhile is collected by
    the collector's next pass after.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _analyze(text, known, detectors)
    finally:
        if paused:
            gc.enable()


def _analyze(text: str, known: Known | None, detectors: Iterable[Detector]) -> Analysis:
    view = normalised_view(text)
    doc = Document(view.text, known or Known())
    candidates: list[Span] = []
    for detector in detectors:
        for span in detector.detect(doc):
            if not view.identity:
                start, end = view.to_original(span.start, span.end)
                span = Span(start, end, span.label, span.tier, span.source)
            candidates.append(span)
    doc.release()
    candidates.sort(key=_SPAN_ORDER)
    final = resolve(candidates, text)
    extra = whole_dates(final, text) + repeats(final, text)
    if extra:
        candidates.extend(extra)
        candidates.sort(key=_SPAN_ORDER)
        final = resolve(candidates, text)
    return Analysis(text, final, tuple(candidates))
