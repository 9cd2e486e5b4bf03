"""DATE detector: calendar dates in the formats clinicians write, as i2b2 2014 annotates them.

The rules are a table (:data:`PATTERNS`) of :class:`~deid_core.detectors.patterns.Pattern`, each
row naming its :class:`~deid_core.rules.Rule` (or the rules its validator chooses among), run by
:func:`~deid_core.detectors.patterns.run` in order (the first accepted span wins an overlap).
The rules and their validators live in :mod:`.numeric` (dates in digits), :mod:`.words` (month
and weekday names, holidays) and :mod:`.years` (years alone); their regexes and shared context
tests in :mod:`.shapes`. What each rule finds, its tiers and lists: ``docs/rules.md``.

The patterns find candidates, the one date reader (:func:`~deid_core.datereader.read_match`,
:func:`~deid_core.datereader.read_text`) reads their values, and
:func:`~deid_core.calendars.valid_date` checks them: month 1-12, day within the month (29 February
allowed), four-digit years 1900-2099. Not dates: doses, ratios (1:1000), ranges (10-12 beers),
blood pressures (132/84), times of day (14:30), decimals and version numbers, ``x2``, ``q4h``,
vent triples (``PS 10/5/40%``).

Speed: digit-led patterns start with ``\\d``; month/weekday/holiday patterns are matched only at
word tokens (shared :attr:`Document.tokens`) whose first three letters can start one.
"""
from __future__ import annotations

from collections.abc import Iterable

from ...calendars import month_number, valid_date
from ...document import Document
from ...rules import rules_of
from ...spans import Span
from ..patterns import Emitter, GatedTable, Pattern, run
from .numeric import (COMPACT, ISO, MONTH_DAY, MONTH_DAY_RANGE, MONTH_YEAR2, NUMERIC_MDY,
                      NUMERIC_MONTH_YEAR, NUMERIC_RANGE, ORDINAL_DAY, _compact, _iso, _month_day,
                      _month_yy, _numeric_mdy, _numeric_month_year, _numeric_range, _ordinal_day,
                      _slash_range)
# (_ANCHOR3 and the regexes are read by the tests as dates._ANCHOR3, dates._MONTH_DAY ...)
from .shapes import (_ANCHOR3, _ANCHOR3_VARIANTS, _COMPACT, _DAY_MONTH, _HOLIDAY, _ISO, _MONTH3_VARIANTS,
                     _MONTH_DAY, _MONTH_WORD, _MONTH_YEAR, _MONTH_YY, _NUM_MONTH_YEAR, _NUMERIC,
                     _NUMERIC_RANGE, _ORDINAL, _SLASH, _SLASH_RANGE, _WEEKDAY3_VARIANTS, _WEEKDAY_ABBR, _WEEKDAY_WORD, _YEAR4,
                     _YEAR_APOS, _YY_HISTORY)
from .words import (DAY_MONTH_NAME, DAY_MONTH_NAME_YEAR, HOLIDAY, MONTH_ALONE, MONTH_NAME_DAY,
                    MONTH_NAME_DAY_YEAR, MONTH_NAME_YEAR, WEEKDAY, WEEKDAY_ABBR, _day_month_name, _holiday, _weekday_abbr,
                    _month_alone, _month_name_day, _month_name_year)
from .years import (DECADE, YEAR2_HISTORY, YEAR_APOSTROPHE, YEAR_BARE, YEAR_CONTEXT, YEAR_MODEL,
                    YEAR_PAREN, _year4, _year_apostrophe, _yy_history)

__all__ = ["PATTERNS", "RULES", "detect", "month_number", "valid_date"]

#: The table, in the order the patterns run (the first accepted span wins an overlap).
PATTERNS: tuple[Pattern, ...] = (
    Pattern(NUMERIC_RANGE, _NUMERIC_RANGE, "DATE", validator=_numeric_range),
    Pattern(ISO, _ISO, "DATE", validator=_iso),
    Pattern(NUMERIC_MDY, _NUMERIC, "DATE", validator=_numeric_mdy),
    Pattern(HOLIDAY, _HOLIDAY, "DATE", validator=_holiday, at_anchors=True),
    Pattern((MONTH_NAME_DAY, MONTH_NAME_DAY_YEAR), _MONTH_DAY, "DATE", validator=_month_name_day,
            at_anchors="month"),
    Pattern((DAY_MONTH_NAME, DAY_MONTH_NAME_YEAR), _DAY_MONTH, "DATE", validator=_day_month_name),
    Pattern(MONTH_NAME_YEAR, _MONTH_YEAR, "DATE", validator=_month_name_year, at_anchors="month"),
    Pattern(NUMERIC_MONTH_YEAR, _NUM_MONTH_YEAR, "DATE", validator=_numeric_month_year),
    Pattern(COMPACT, _COMPACT, "DATE", validator=_compact),
    Pattern(MONTH_DAY_RANGE, _SLASH_RANGE, "DATE", validator=_slash_range),
    Pattern(MONTH_YEAR2, _MONTH_YY, "DATE", validator=_month_yy),
    Pattern(MONTH_DAY, _SLASH, "DATE", validator=_month_day),
    Pattern((YEAR_BARE, DECADE, YEAR_MODEL, YEAR_CONTEXT, YEAR_PAREN), _YEAR4, "DATE", validator=_year4),
    Pattern((YEAR_APOSTROPHE, DECADE), _YEAR_APOS, "DATE", validator=_year_apostrophe),
    Pattern(YEAR2_HISTORY, _YY_HISTORY, "DATE", validator=_yy_history),
    Pattern(MONTH_ALONE, _MONTH_WORD, "DATE", validator=_month_alone, at_anchors="month"),
    Pattern(WEEKDAY, _WEEKDAY_WORD, "DATE", at_anchors="weekday"),
    Pattern(WEEKDAY_ABBR, _WEEKDAY_ABBR, "DATE", validator=_weekday_abbr, at_anchors="weekday"),
    Pattern(ORDINAL_DAY, _ORDINAL, "DATE", validator=_ordinal_day),
)

#: Every rule of the detector, in table order.
RULES = rules_of(p.rules for p in PATTERNS)

#: The table without the patterns that seldom match (in one note in ten or fewer) when one
#: search finds none of them (speed: four scans of the note saved on most notes).
_TABLE = GatedTable(PATTERNS, [p for p in PATTERNS if p.rule in (
    NUMERIC_RANGE, NUMERIC_MONTH_YEAR, MONTH_DAY_RANGE, MONTH_YEAR2, ORDINAL_DAY)])


def detect(doc: Document) -> Iterable[Span]:
    """DATE spans in ``doc.text`` (the rules: :data:`RULES`, ``docs/rules.md``).

    Returns:
        Non-overlapping spans sorted by start, label ``DATE``, source ``dates:<rule>``.
    """
    tokens = [t for t in doc.tokens if t.word[:3] in _ANCHOR3_VARIANTS]
    months = [t.start for t in tokens if t.word[:3] in _MONTH3_VARIANTS]
    text = doc.text
    if "-" in text:                 # "mid-March", "Early-April": a month after a word and a hyphen
        for t in doc.tokens:
            if "-" in t.word:
                at = t.start + t.word.index("-") + 1
                if text[at - 2].isalpha() and text[at:at + 3] in _MONTH3_VARIANTS:
                    months.append(at)
        months.sort()
    named = {"month": months,
             "weekday": [t.start for t in tokens if t.word[:3] in _WEEKDAY3_VARIANTS]}
    return list(run(_TABLE.for_text(text), text, Emitter(), [t.start for t in tokens], named))
