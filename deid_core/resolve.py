"""One pure function that turns all detectors' candidates into the final, non-overlapping spans.

Priority (documented here, applied in :func:`resolve`):

1. Tier: a ``certain`` candidate beats a ``review`` one. Characters covered by any certain
   candidate are PHI; review candidates only survive where no certain candidate touches them.
2. Extent: overlapping candidates of the winning tier are merged into one span covering their
   union (a missed character is the expensive failure, so the union, not the longest, wins).
3. Label of a merged span: the longest candidate's label; on equal length the label that ranks
   first in :data:`LABEL_RANK` (identifiers with a shape before names and places).
4. Adjacent spans of the same label and tier separated by nothing, by a run of spaces or
   tabs, or by a single line break are joined into one span (``John`` + ``Smith``; a name split
   over a line break). Different labels are never joined, so ``Springfield, IL 62704`` stays
   CITY, STATE and ZIP as i2b2 annotates it, and each part gets a surrogate of its own type.

The source of a merged span lists the distinct sources of its parts in text order, joined by
``" + "``, at most :data:`MAX_SOURCE_PARTS` of them (so a ``source`` stays bounded however many
candidates a span absorbs). :func:`resolve` runs in O(n log n) for n candidates.
"""
from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Iterable

from .spans import CERTAIN, LABELS, REVIEW, Span

#: Tie-break order for a merged span's label (first wins): shaped identifiers first.
LABEL_RANK: tuple[str, ...] = (
    "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID",
    "IDNUM", "EMAIL", "URL", "IPADDR", "FAX", "PHONE", "DATE", "AGE", "STREET", "ZIP",
    "HOSPITAL", "ORGANIZATION", "DEPARTMENT", "ROOM", "CITY", "STATE", "COUNTRY",
    "LOCATION-OTHER", "PATIENT", "DOCTOR", "USERNAME", "PROFESSION",
)
_RANK = {label: i for i, label in enumerate(LABEL_RANK)}
assert set(_RANK) == set(LABELS)

_JOINABLE_GAP = re.compile(r"[ \t]*(?:\r?\n)?[ \t]*")

#: The most distinct sources a merged span's ``source`` lists (the first ones in text order).
MAX_SOURCE_PARTS = 8
_JOIN = " + "


def _merge_group(group: list[Span], tier: str, ordered: bool = False) -> Span:
    """One span over ``group`` (overlapping or adjacent spans) with ``tier``; ``ordered``: the
    group is already in (start, end, source) order (disjoint spans sorted by start)."""
    if len(group) == 1:
        only = group[0]
        if only.tier == tier:
            return only                                # the same span (frozen, equal fields)
        return Span(only.start, only.end, only.label, tier, only.source)
    start = end = -1
    best = group[0]
    best_key = (1, 0, 0)
    for s in group:                                    # one pass: extent and longest label
        if start < 0 or s.start < start:
            start = s.start
        if s.end > end:
            end = s.end
        key = (s.start - s.end, _RANK[s.label], s.start)
        if key < best_key:
            best, best_key = s, key
    sources: dict[str, None] = {}
    if ordered:
        in_order = group
    elif len(group) == 2:   # what sorted() gives, without building a list (a stable sort)
        a, b = group
        in_order = group if _SOURCE_ORDER(a) <= _SOURCE_ORDER(b) else (b, a)
    else:
        in_order = sorted(group, key=_SOURCE_ORDER)
    for s in in_order:
        if _JOIN in s.source:
            for part in s.source.split(_JOIN):
                sources.setdefault(part, None)
        else:
            sources.setdefault(s.source, None)
        if len(sources) >= MAX_SOURCE_PARTS:
            break
    return Span(start, end, best.label, tier, _JOIN.join(list(sources)[:MAX_SOURCE_PARTS]))


_SOURCE_ORDER = operator.attrgetter("start", "end", "source")


def _union(spans: list[Span], tier: str) -> list[Span]:
    """Merge overlapping spans (sharing at least one character) of one tier."""
    out: list[Span] = []
    group: list[Span] = []
    group_end = -1
    for s in sorted(spans, key=lambda s: (s.start, -s.end)):
        if group and s.start < group_end:
            group.append(s)
            group_end = max(group_end, s.end)
            continue
        if group:
            out.append(_merge_group(group, tier))
        group, group_end = [s], s.end
    if group:
        out.append(_merge_group(group, tier))
    return out


def _join_adjacent(spans: list[Span], text: str) -> list[Span]:
    """Join runs of adjacent same-label, same-tier spans; each run is merged once (linear)."""
    runs: list[list[Span]] = []
    for s in spans:
        if runs:
            prev = runs[-1][-1]
            if (prev.label == s.label and prev.tier == s.tier
                    and _JOINABLE_GAP.fullmatch(text, prev.end, s.start)):
                runs[-1].append(s)
                continue
        runs.append([s])
    # the spans are disjoint and sorted by start, so each run is in (start, end, source) order
    return [_merge_group(run, run[0].tier, True) for run in runs]


def resolve(candidates: Iterable[Span], text: str) -> tuple[Span, ...]:
    """Resolve overlapping candidates into final spans.

    Args:
        candidates: spans from any detectors, in any order, possibly overlapping.
        text: the original note the offsets point into (used for the adjacency rule).

    Returns:
        Non-overlapping spans sorted by ``start``, each within ``[0, len(text)]``.

    Raises:
        ValueError: if a candidate ends past ``len(text)``.
    """
    certain: list[Span] = []
    review: list[Span] = []
    for c in candidates:
        if c.end > len(text):
            raise ValueError(f"candidate {c} ends past the text ({len(text)} characters)")
        (certain if c.tier == CERTAIN else review).append(c)
    final = _union(certain, CERTAIN)
    if review:
        # Review candidates survive only where no certain span covers any of their characters.
        starts = [s.start for s in final]
        kept = []
        for r in review:
            i = bisect.bisect_left(starts, r.end)
            if i and final[i - 1].end > r.start:
                continue
            kept.append(r)
        final = sorted(final + _union(kept, REVIEW), key=lambda s: s.start)
    return tuple(_join_adjacent(final, text))
