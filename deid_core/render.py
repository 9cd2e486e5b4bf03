"""Rewrite a note, replacing spans, and record where each replacement landed in the output."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .spans import Span


@dataclass(frozen=True)
class Placed:
    """A span of the original and the ``[out_start, out_end)`` character range of its
    replacement in the rendered output (equal to the span's own text when it was kept)."""

    span: Span
    out_start: int
    out_end: int
    replaced: bool


@dataclass(frozen=True)
class Rendered:
    """Output text plus one :class:`Placed` per input span, in text order."""

    text: str
    placed: tuple[Placed, ...]


def render(text: str, spans: Sequence[Span],
           replace: Callable[[Span, str], str | None]) -> Rendered:
    """Build the output by copying ``text`` and substituting each span.

    Characters outside the spans are copied unchanged and in order.

    Args:
        text: the original note.
        spans: non-overlapping spans sorted by start (as :func:`deid_core.resolve.resolve` gives).
        replace: called as ``replace(span, original_substring)``; returns the replacement, or
            ``None`` to keep the original characters (e.g. a rejected review candidate).

    Returns:
        A :class:`Rendered`.

    Raises:
        ValueError: if spans overlap, are unsorted, or fall outside ``text``.
    """
    pieces: list[str] = []
    placed: list[Placed] = []
    pos = 0
    out_len = 0
    for span in spans:
        if span.start < pos or span.end > len(text):
            raise ValueError(f"spans must be sorted, non-overlapping and inside the text: {span}")
        gap = text[pos:span.start]
        pieces.append(gap)
        out_len += len(gap)
        original = text[span.start:span.end]
        new = replace(span, original)
        piece = original if new is None else new
        pieces.append(piece)
        placed.append(Placed(span, out_len, out_len + len(piece), new is not None))
        out_len += len(piece)
        pos = span.end
    pieces.append(text[pos:])
    return Rendered("".join(pieces), tuple(placed))
