"""One pure function that turns all detectors' candidates into the final, non-overlapping spans.

Priority (documented here, applied in :func:`resolve`):

1. Tier: a ``certain`` candidate beats a ``review`` one. Characters covered by any certain
   candidate are PHI. A review candidate that a certain span overlaps keeps what lies outside
   the certain spans as review candidates of its own (its *remainder*, each piece trimmed of
   spaces and punctuation at its ends, with the candidate's label and source; a piece with no
   letter or digit, or one character that is not the initial of a name, the ``s`` of
   ``'s``, is dropped): ``SMITH, JOHN`` (review) with ``JOHN`` certain keeps ``SMITH``
   as review, so ``--mask-review`` masks every part of the name (issue 22 item 1; before, the
   whole review candidate was dropped and ``SMITH`` stayed in clear even with review).
2. Extent: overlapping candidates of the winning tier are merged into one span covering their
   union (a missed character is the expensive failure, so the union, not the longest, wins).
3. Label of a merged span: the longest candidate's label; on equal length the label that ranks
   first in :data:`LABEL_RANK` (identifiers with a shape before names and places).
4. Adjacent spans of the same label and tier separated by nothing, by a run of spaces or
   tabs, or by a single line break are joined into one span (``John`` + ``Smith``; a name split
   over a line break); two person-name spans (PATIENT or DOCTOR, either with either) of the
   same tier are joined also over name particles between them (``de`` + ``la`` + ``Cruz``,
   ``Dr. Aoife`` + ``de los`` + ``Santos``: the particles of ``lists/name_particles.txt``, any
   case, separated by spaces; the label is the longer part's, as rule 3), so the whole name is
   one span and gets one fake (issue 22 item 3). Different labels are never joined, so ``Springfield, IL 62704`` stays
   CITY, STATE and ZIP as i2b2 annotates it, and each part gets a surrogate of its own type.

The source of a merged span lists the distinct sources of its parts in text order, joined by
``" + "``, at most :data:`MAX_SOURCE_PARTS` of them (so a ``source`` stays bounded however many
candidates a span absorbs). :func:`resolve` runs in O(n log n) for n candidates (a remainder
piece between two certain spans is made once, whatever number of review candidates cover it).
"""
from __future__ import annotations

import bisect
import heapq
import operator
import re
from collections.abc import Iterable

from . import lists
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
#: Person-name labels whose spans join over name particles (rule 4).
_PERSON = frozenset({"PATIENT", "DOCTOR"})
_PARTICLES = sorted(lists.name_particles("names") | lists.name_particles("surrogate"),
                    key=len, reverse=True)
#: Spaces, one or more name particles each followed by spaces (``" de la "``, ``" VAN DER "``).
_PARTICLE_GAP = re.compile(r"[ \t]+(?:(?:" + "|".join(map(re.escape, _PARTICLES)) + r")[ \t]+)+",
                           re.IGNORECASE)
#: What a remainder piece is trimmed of at its ends: anything but a letter or a digit.
_EDGE = re.compile(r"[\W_]*")

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
            if prev.tier == s.tier and (
                    (prev.label == s.label and _JOINABLE_GAP.fullmatch(text, prev.end, s.start))
                    or (s.label in _PERSON and prev.label in _PERSON
                        and _PARTICLE_GAP.fullmatch(text, prev.end, s.start))):
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
        final = sorted(final + _union(_remainders(review, final, text), REVIEW),
                       key=lambda s: s.start)
    return tuple(_join_adjacent(final, text))


def _piece(text: str, start: int, end: int, r: Span) -> Span | None:
    """``r``'s characters ``[start, end)`` trimmed of non-alphanumerics at both ends, as a review
    span with ``r``'s label and source; ``None`` when nothing is left, or one character that
    is not a capital in a name (an initial is kept; the ``s`` of ``'s``, a digit or letter
    glued to a number are not)."""
    start = _EDGE.match(text, start, end).end()
    while end > start and not text[end - 1].isalnum():
        end -= 1
    if end <= start or (end - start == 1 and not (r.category == "NAME" and text[start].isupper())):
        return None                     # nothing left, or one character that is no initial
    if start == r.start and end == r.end:
        return r
    return Span(start, end, r.label, REVIEW, r.source)


def _remainders(review: list[Span], final: list[Span], text: str) -> list[Span]:
    """The review candidates, each less the characters of the certain spans ``final`` (sorted,
    disjoint): a candidate no certain span touches is kept whole; one that certain spans
    overlap gives its pieces outside them (:func:`_piece`). The gap between two consecutive
    certain spans inside several candidates is made once, with the label of the longest
    candidate covering it (then the first in :data:`LABEL_RANK`), so the work stays
    O((n + m) log n) for n review and m certain spans."""
    if not final:
        return review
    starts = [s.start for s in final]
    kept: list[Span] = []
    #: gap index g (between final[g] and final[g + 1]) -> the candidate giving its piece
    inner: list[tuple[int, int, Span]] = []   # (first gap, last gap, candidate)
    for r in review:
        j = bisect.bisect_left(starts, r.end) - 1      # last certain span starting before r.end
        if j < 0 or final[j].end <= r.start:
            kept.append(r)
            continue
        i = bisect.bisect_right(starts, r.start) - 1   # first certain span that can overlap r
        if i < 0 or final[i].end <= r.start:
            i += 1
        if r.start < final[i].start:
            piece = _piece(text, r.start, final[i].start, r)
            if piece is not None:
                kept.append(piece)
        if final[j].end < r.end:
            piece = _piece(text, final[j].end, r.end, r)
            if piece is not None:
                kept.append(piece)
        if j > i:
            inner.append((i, j - 1, r))
    if inner:
        kept.extend(_inner_pieces(inner, final, text))
    return kept


def _inner_pieces(inner: list[tuple[int, int, Span]], final: list[Span],
                  text: str) -> list[Span]:
    """One piece per gap between consecutive certain spans that a review candidate covers
    (``inner``: ``(first gap, last gap, candidate)``), from the longest covering candidate;
    a sweep over the gaps with a heap of the candidates covering each."""
    inner.sort(key=lambda t: t[0])
    heap: list[tuple[int, int, int, int, Span]] = []   # (-length, rank, order, last gap, span)
    out: list[Span] = []
    n = 0
    g = inner[0][0]
    last_gap = max(t[1] for t in inner)
    while g <= last_gap:
        while n < len(inner) and inner[n][0] <= g:
            a, b, r = inner[n]
            heapq.heappush(heap, (r.start - r.end, _RANK[r.label], n, b, r))
            n += 1
        while heap and heap[0][3] < g:
            heapq.heappop(heap)
        if not heap:
            if n >= len(inner):
                break
            g = inner[n][0]                            # skip gaps no candidate covers
            continue
        piece = _piece(text, final[g].end, final[g + 1].start, heap[0][4])
        if piece is not None:
            out.append(piece)
        g += 1
    return out
