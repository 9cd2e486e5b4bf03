"""Candidates added after a first resolution, from what the final spans show (run by
:func:`deid_core.analyze.analyze`, then resolved again with every other candidate):

* :func:`whole_dates`: a DATE span that holds only a year, written right after the rest of its
  date in a form no detector read (``3 / 5 / 2014``, ``March the fifth, 2014``), grows to cover
  the whole date, so no month and day stay in clear beside a moved year (issue 11: a partly
  detected date let the date offset be read back from the output).
* :func:`repeats`: every other exact occurrence of a certain identifier's text (labels of the
  ``ID`` and ``CONTACT`` categories, at least :data:`MIN_REPEAT_CHARS` characters) becomes a
  certain span of the same label, so Redact leaves no second copy in clear
  (``SSN 123-45-6789, re-entered as 123-45-6789-``; ``Dr.617-555-0142``).

Both are linear in the text length (one ``str.find`` scan per distinct value, at most
:data:`MAX_REPEAT_VALUES` values per note).
"""
from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Iterable

from .dateshift import parse_date
from .rules import Rule
from .spans import CERTAIN, LABELS, REVIEW, Span

__all__ = ["whole_dates", "repeats", "unread_date_rest", "MIN_REPEAT_CHARS", "MAX_REPEAT_VALUES"]

#: Shortest certain identifier whose other occurrences are marked too.
MIN_REPEAT_CHARS = 6
#: The most distinct values per note looked for again (the first ones in text order).
MAX_REPEAT_VALUES = 2000
_REPEAT_CATEGORIES = frozenset({"ID", "CONTACT"})

WHOLE_DATE = Rule("dates:whole_date", ("DATE",), (CERTAIN, REVIEW),
                  "a whole date written around a year that was found alone (3 / 5 / 2014)",
                  amber="it widens a year that is itself only a review candidate")
ID_REPEAT = Rule("ids:repeat_of_certain", tuple(k for k, c in LABELS.items() if c == "ID"), (CERTAIN,),
                 "another copy of an identifier found with certainty elsewhere in this note")
CONTACT_REPEAT = Rule("contact:repeat_of_certain", tuple(k for k, c in LABELS.items() if c == "CONTACT"),
                      (CERTAIN,), "another copy of a phone number or address found with certainty "
                      "elsewhere in this note")
#: The rules of the spans this module adds.
RULES = (WHOLE_DATE, ID_REPEAT, CONTACT_REPEAT)

_YEAR = re.compile(r"(?:1[6-9]|2\d)\d\d")
#: ``3 / 5 / `` (spaces around the separators) right before a year.
_NUMERIC_REST = re.compile(r"(?<![\d/.\-])(\d{1,2})[ \t]*([-/.])[ \t]*(\d{1,2})[ \t]*\2[ \t]*\Z")
#: ``<month> [the] <ordinal word>[,] `` right before a year: the month is checked by parse_date.
_WORD_REST = re.compile(r"([^\W\d_]{3,9}\.?)[ \t]+(?:the[ \t]+)?[^\W\d_]+(?:-[^\W\d_]+)?(?:st|nd|rd|th)"
                        r"\.?,?[ \t]*\Z", re.I)
_LOOKBACK = 40


def _rest_start(text: str, year_start: int) -> int | None:
    """Where the unread rest of a date ending just before ``year_start`` begins, if any."""
    window_start = max(0, year_start - _LOOKBACK)
    window = text[window_start:year_start]
    if window not in _REST_MEMO:   # speed: a note repeating one date reads its window once
        if len(_REST_MEMO) > 4096:
            _REST_MEMO.clear()
        _REST_MEMO[window] = _rest_in(window)
    at = _REST_MEMO[window]
    return None if at is None else window_start + at


#: :func:`_rest_in` by window text.
_REST_MEMO: dict[str, int | None] = {}


def _rest_in(window: str) -> int | None:
    """Where in ``window`` (the text just before a year) the unread rest of its date starts."""
    window_start = 0
    m = _NUMERIC_REST.search(window)
    if m:
        a, b = int(m.group(1)), int(m.group(3))
        if 1 <= min(a, b) and min(a, b) <= 12 and max(a, b) <= 31:
            return window_start + m.start()
        return None
    m = _WORD_REST.search(window)
    if m:
        parsed = parse_date(m.group(1))
        if parsed is not None and parsed.pattern == "month" and parsed.start == 0:
            return window_start + m.start()
    return None


def unread_date_rest(text: str) -> str | None:
    """For a DATE span's text that is the unread rest of a date followed by its year (what
    :func:`whole_dates` builds): ``"numeric"`` (``3 / 5 / 2014``) or ``"words"``
    (``March the fifth, 2014``); ``None`` for any other text."""
    m = re.search(r"(?:1[6-9]|2\d)\d\d[ \t]*\Z", text)
    if not m or m.start() == 0:
        return None
    if _rest_start(text, m.start()) != 0:
        return None
    return "numeric" if _NUMERIC_REST.search(text[:m.start()]) else "words"


#: :class:`Span`'s order as a sort key (what ``sorted(spans)`` gives, without ``__lt__`` calls).
_SPAN_ORDER = operator.attrgetter("start", "end", "label", "tier", "source")


def whole_dates(spans: Iterable[Span], text: str) -> list[Span]:
    """Candidates that widen bare-year DATE spans over the unread rest of their date.

    Args:
        spans: final spans (sorted, non-overlapping) of ``text``.
        text: the note.

    Returns:
        One DATE span (the year's tier) per widened year, from the start of the rest of the
        date to the end of the year (``source`` ``"dates:whole_date"``); an empty list when none.
    """
    out = []
    prev_end = 0
    for s in spans:
        if s.label == "DATE" and _YEAR.fullmatch(text, s.start, s.end):
            start = _rest_start(text, s.start)
            if start is not None and start >= prev_end:
                out.append(WHOLE_DATE.span(start, s.end, tier=s.tier))
        prev_end = s.end
    return out


def repeats(spans: Iterable[Span], text: str) -> list[Span]:
    """Candidates for the other exact occurrences of each certain identifier's text.

    Args:
        spans: final spans of ``text``.
        text: the note.

    Returns:
        Certain spans (``source`` ``"ids:repeat_of_certain"`` or ``"contact:repeat_of_certain"``,
        after the category's detector) at every occurrence of a
        certain ``ID``/``CONTACT`` span's text of at least :data:`MIN_REPEAT_CHARS` characters
        that is not that span itself, widened over any review span it overlaps (that span
        becomes certain with it); overlaps with certain spans are left to the resolver.
    """
    spans = sorted(spans, key=_SPAN_ORDER)
    starts = [s.start for s in spans]
    values: dict[str, Span] = {}
    own: set[tuple[int, int]] = set()
    for s in spans:
        if s.tier == CERTAIN and s.category in _REPEAT_CATEGORIES and len(s) >= MIN_REPEAT_CHARS:
            own.add((s.start, s.end))
            value = text[s.start:s.end]
            if value.strip() and value not in values and len(values) < MAX_REPEAT_VALUES:
                values[value] = s
    out = []
    for value, first in values.items():
        pos = text.find(value)
        while pos >= 0:
            end = pos + len(value)
            if (pos, end) not in own:
                # A review span around this copy is made certain with it (its whole extent).
                start, stop = pos, end
                j = bisect.bisect_left(starts, end) - 1  # final spans are sorted, disjoint
                while j >= 0 and spans[j].end > pos:
                    if spans[j].tier != CERTAIN:
                        start, stop = min(start, spans[j].start), max(stop, spans[j].end)
                    j -= 1
                rule = ID_REPEAT if first.category == "ID" else CONTACT_REPEAT
                out.append(rule.span(start, stop, first.label, CERTAIN))
            pos = text.find(value, end)
    return out
