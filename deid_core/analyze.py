"""The one pipeline: :func:`analyze` composes the engine for every caller (the API and so the
page, the CLI, ``deid batch``, ``deid harvest``, Spark).

1. **Rules.** Every registered detector (plus the template detector of harvested rules, when
   given) runs over a normalised view of the note (:mod:`deid_core.textview`: invisible
   characters dropped, look-alike dashes and spaces folded, offsets mapped back to the
   original); the candidates are resolved; then what the final spans show is added
   (:mod:`deid_core.extend`: whole dates around a bare year, other copies of a certain
   identifier) and resolved once more.
2. **Model** (optional). The NER model's spans (given, or computed by a function of the text)
   are validated and relabelled by :func:`deid_core.ensemble.adapt_model_spans`, join the
   candidates and everything is resolved once more.
3. **Harvested rules** (optional, :mod:`deid_core.corpus_rules`). Final spans inside a known
   PHI-free sentence are dropped and the sentences reported (:attr:`Analysis.phi_free`); the
   model is not run on a note made only of such sentences.
"""
from __future__ import annotations

import gc
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .corpus_rules import HarvestRules
from .detectors import REGISTRY, Detector
from .document import Document, Known
from .ensemble import adapt_model_spans
from .extend import repeats, whole_dates
from .resolve import resolve
from .spans import Span
from .textview import normalised_view

__all__ = ["Analysis", "Known", "Model", "analyze", "blank"]

#: What :func:`analyze` takes as the model: its spans for the note, or a function ``text ->
#: spans`` (such as ``OnnxNer.spans``), called only when the model is needed.
Model = Sequence[Span] | Callable[[str], Iterable[Span]]

#: The order of :class:`Span` (its fields in order), as a key: sorting by it gives what
#: ``sorted(spans)`` gives without calling the dataclass's ``__lt__`` for every comparison.
_SPAN_ORDER = operator.attrgetter("start", "end", "label", "tier", "source")


@dataclass(frozen=True)
class Analysis:
    """The result of :func:`analyze`.

    Attributes:
        text: the original note, unchanged.
        spans: final non-overlapping spans sorted by start (both tiers).
        candidates: every candidate from every detector (and the adapted model spans),
            sorted, before resolution (for Review).
        phi_free: ``[start, end)`` of each sentence the harvested rules' inclusion list knows
            as PHI-free, in text order (its spans dropped); empty without harvested rules.
    """

    text: str
    spans: tuple[Span, ...]
    candidates: tuple[Span, ...]
    phi_free: tuple[tuple[int, int], ...] = ()


def analyze(text: str, known: Known | None = None,
            detectors: Iterable[Detector] = REGISTRY, *, model: Model | None = None,
            rules: HarvestRules | None = None) -> Analysis:
    """Find the PHI in ``text``: rules, then the model's spans, then the harvested rules
    (module doc).

    Args:
        text: a note of any length; any Unicode string is accepted.
        known: identifiers the caller already knows for this patient (:class:`Known`).
        detectors: which detectors to run (default: the whole :data:`REGISTRY`).
        model: the NER model's spans for ``text`` (e.g. ``OnnxNer.spans(text)``, or what the
            page's worker computed), or a function ``text -> spans`` called only when the model
            is needed (not for a note whose every sentence is known PHI-free); ``None`` or no
            spans: the rules alone.
        rules: harvested corpus rules (:func:`deid_core.corpus_rules.load`) or ``None``.

    Returns:
        An :class:`Analysis` whose spans index into ``text``.

    Raises:
        TypeError: if ``text`` is not a ``str``.
        ValueError: if a model span ends past the text.

    Speed: Python's cyclic garbage collector is paused while it runs (and turned back on after,
    if it was on): the engine builds hundreds of thousands of small objects for a long note
    (tokens, runs, spans) that live until it returns, and the collector's repeated passes over
    them cost up to a fifth of the time; what becomes cyclic garbage meanwhile is collected by
    the collector's next pass after.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    safe = rules.phi_free(text) if rules is not None else []
    if rules is not None:
        detectors = (*detectors, rules.detector)
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        an = _rules(text, known, detectors)
    finally:
        if paused:
            gc.enable()
    if model is not None and (not safe or blank(text, safe).strip()):
        # The model sees the whole note (blanking the PHI-free sentences changed its context and
        # cost certain precision on the project corpus, 0.9985 -> 0.9926); it is skipped only
        # when every sentence of the note is PHI-free.
        an = _with_model(an, list(model(text) if callable(model) else model))
    if safe:
        keep = tuple(s for s in an.spans if not any(a <= s.start and s.end <= b for a, b in safe))
        an = Analysis(text, keep, an.candidates, tuple(safe))
    return an


def _with_model(rules: Analysis, model_spans: list[Span]) -> Analysis:
    """``rules`` with the model's spans adapted (:func:`deid_core.ensemble.adapt_model_spans`),
    added to the candidates and everything resolved once more."""
    if not model_spans:
        return rules
    text = rules.text
    for s in model_spans:
        if s.end > len(text):
            raise ValueError(f"model span {s} ends past the text ({len(text)} characters)")
    extra = adapt_model_spans(model_spans, rules.candidates, text)
    if not extra:
        return rules
    candidates = sorted([*rules.candidates, *extra], key=_SPAN_ORDER)
    return Analysis(text, resolve(candidates, text), tuple(candidates))


def blank(text: str, ranges: Iterable[tuple[int, int]]) -> str:
    """``text`` with the characters of each ``[start, end)`` range (sorted, not overlapping)
    replaced by spaces: same length, same offsets."""
    pieces, pos = [], 0
    for a, b in ranges:
        pieces += [text[pos:a], " " * (b - a)]
        pos = b
    pieces.append(text[pos:])
    return "".join(pieces)


def _rules(text: str, known: Known | None, detectors: Iterable[Detector]) -> Analysis:
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
