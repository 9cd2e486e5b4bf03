"""DATE detector: calendar dates in the formats clinicians write, as i2b2 2014 annotates them.

Finds (source ``dates:<pattern>``):

* ``iso``: ``2014-03-05``, ``2014/3/5``, ISO 8601 timestamps with time and offset as one span
  (``2014-03-05T14:30:00-05:00``); a time after a space is left out (``2014-03-05`` 14:30).
* ``numeric_mdy``: ``03/05/2014``, ``3-5-14``, ``3.5.2014`` (month/day or day/month, validated),
  with a weekday in front when there is one (``Tuesday, 3/5/2014``); ``numeric_range``:
  ``10/27/2020-10/28/2020`` as two spans. A dotted date with a two-digit year (``3.5.14``) is
  review unless in date context.
* ``month_name_day_year``, ``day_month_name_year``, ``month_name_year``: ``March 5th, 2014``,
  ``Tue, Mar. 5``, ``5 March 2014``, ``12th of March``, ``05-MAR-2014``, ``Jan-2019``, ``Sept '19``.
* ``numeric_month_year``: ``03/2014``, ``2014-03``; ``compact``: ``19500302`` after a date label.
* ``holiday``: ``Christmas 2019``, ``Thanksgiving of 2021``, ``Christmas``.
* ``month_day``: ``3/4`` - certain in date context (``seen 3/4``, ``on\n9/15``, ``Fri 11/10``,
  ``5/6 14:30``) or when not fraction-shaped,
  review when it could be a fraction or a score (a denominator of 15 or more under a numerator
  of 3 or more, ``11/17``, ``4/16``, is no fraction one writes: certain unless a score word is on
  the line, ``GCS: EYES OPEN, 7/15``); nothing after score words (``GCS 3/15``,
  ``strength 4/5``), before fraction words (``3/4 strength``, ``2/3 of``), after a whole number
  (``24 2/7 weeks``) or as a duration (``for 3/7``).
  After a clock time or a decimal lab value it is still a date (``ARRIVED 2300 9/14``,
  ``WBC 16.0 8/22``); near vent words, ABGs, pain scores and fractions it is not (``PS 10/5``,
  ``CPAP 5/5 40%``, ``pain 5/10``, ``crackles 1/3 of fields``, ``1/2 amp``). A comma or full stop may glue
  it to a word (``seen,4/17,and``).
* ``month_day_range``: ``9/12-9/14`` as two spans; ``10/02/10/03`` (written run together) as one.
* ``month_year2``: month and a two-digit year that cannot be a day (``ECHO 3/91``, ``fx4/97``):
  certain in date or history context, else review.
* ``year2_history``: a two-digit year after a history word (``MI 93``, ``CVA 81'``,
  ``CABG X2 99'``, ``REPAIR IN 14'``; after ``in`` only with the apostrophe, which stays
  outside the span); never a plural (``in 80's``) nor a count (``MI 12 hours``).
* ``year_context``, ``year_paren``, ``year_apostrophe``, ``decade``, ``year_bare``: years alone
  (``in 2019``, ``since 2008``, ``diagnosed 2003``, ``from 2008-2012``, ``(2015)``,
  ``(On-X, 2015)``; bare ``2019`` and ``1990s`` review). ``year_apostrophe``: ``class of '98``,
  ``s/p AVR '07`` (the span is the digits, the apostrophe stays out, as the real notes' gold
  has it), certain in date context or after a history word within 20 characters, else review.
  ``year_model`` (review): a year before a vehicle or model word (``owned a 2012 pickup``,
  ``struck by 2019 Honda``) is never certain, unless a time word precedes it (``in 2012``).
* ``weekday``: a capitalised weekday alone (``seen Tuesday``); ``month_alone``: ``in March``.

Validation: month 1-12, day within the month (29 February allowed), four-digit years
1900-2099. Month words that are also ordinary words (``may``, ``march``, ``mar``, ``dec``,
``oct``) count in lower case (or as ``MAR``/``OCT``) only with a year, an ordinal ``of``
(``12th of march``) or date context; a full stop after a full month name stays outside.
Speed: digit-led patterns start with ``\\d``; month/weekday/holiday patterns are matched only at
word tokens (shared :attr:`Document.tokens`) whose first three letters can start one.

Not dates: doses, ratios (1:1000), ranges (10-12 beers), blood pressures (132/84), times of
day (14:30), decimals and version numbers, ``x2``, ``q4h``, vent triples (``PS 10/5/40%``).

The patterns are a table (:data:`PATTERNS`) of :class:`~deid_core.detectors.patterns.Pattern`
run by :func:`~deid_core.detectors.patterns.run`; the patterns find candidates, the one date
reader (:func:`~deid_core.datereader.read_match`, :func:`~deid_core.datereader.read_text`) reads
their values, :func:`~deid_core.calendars.valid_date` checks them. Context words are hand-written
lists: ``lists/history_words.txt``, ``date_context_words.txt``, ``vehicle_words.txt``.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from .. import lists
from ..document import Document
from ..spans import CERTAIN, REVIEW, Span
from ..calendars import MONTH_REGEX, MONTHS, WEEKDAYS, holiday_anchors, holiday_regex, month_number, valid_date
from ..datereader import WEEKDAY_REGEX, ParsedDate, read_match, read_text
from .patterns import (UNITS, Emitter, GatedTable, alternation, Hit, Pattern, Verdict, clear_before, just_before, label_before,
                       line_before, run)

__all__ = ["detect", "month_number", "valid_date"]

#: Month words that are also ordinary words or clinical abbreviations: written in lower case
#: (or as ``MAR``/``OCT``, medication administration record and optical coherence tomography)
#: they count only with a year, an ordinal ``of`` or date context, and never alone.
#: The ``ambiguous_month`` entries of ``lists/date_context_words.txt``.
_AMBIGUOUS_MONTHS = frozenset(lists.tagged("date_context_words.txt", "ambiguous_month"))


#: Word lists (``lists/``): history words (``MI``, ``CABG``, ``s/p``); words before a date or not.
_HISTORY, _CONTEXT = "history_words.txt", "date_context_words.txt"

_MON = r"(?P<mon>" + MONTH_REGEX + r")\.?"
#: (speed: ``(?=[jfmasond])`` before ``_MON`` inside a pattern passes over a position where no
#: month name can start at once instead of trying each name)
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?(?!\d)"
_DAY2 = r"(?:[ \t]{0,2}(?:-|–|to|through|&|and)[ \t]{0,2}[0-3]?\d(?:st|nd|rd|th)?(?!\d))?"
_YEAR_AFTER = (r"(?:(?:,[ \t]{0,2}|[ \t]{1,3}|[ \t]{0,2}of[ \t]{1,2})(?P<y>(?:19|20)\d\d|['’]\d\d)"
               r"|[-/.](?P<y_alt>(?:19|20)\d\d|\d\d))")
_END = r"(?![A-Za-z0-9]|[.,]\d)"

# Speed: Python's re scans fastest when a pattern starts with a plain character or class, so
# digit-led patterns start with ``\d`` and check the character before it with a two-character
# look-behind; word-led patterns are matched only at word tokens that can start them.
_ISO = re.compile(
    r"(?P<y>(?:19|20)(?<![\w.\-/:]19|[\w.\-/:]20)\d\d)(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})"
    r"(?P<t>T\d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?(?:Z|[+-]\d\d(?::?\d\d)?)?)?"
    r"(?![\d/]|[.\-]\d)")
_NUMERIC = re.compile(
    r"(?P<m>\d(?<![\w./:]\d)(?<![\d.\-/:]-\d)\d?)(?P<s>[-/.])(?P<d>\d{1,2})(?P=s)"
    r"(?P<y>(?:19|20)\d\d|\d\d)(?![\d/]|[.\-]\d|:\d)")
_NUMERIC_RANGE = re.compile(
    r"(?P<first>\d\d?(?P<s>[/.])\d{1,2}(?P=s)(?:19|20)?\d\d)[ \t]{0,2}[-–][ \t]{0,2}"
    r"(?P<second>\d{1,2}(?P=s)\d{1,2}(?P=s)(?:19|20)?\d\d)(?![\d/]|[.\-]\d)")
_MONTH_DAY = re.compile(
    _MON + r"[ \t.,-]{0,3}(?:the[ \t]{1,2})?" + _DAY + _DAY2 + r"(?:" + _YEAR_AFTER + r")?" + _END, re.I)
_DAY_MONTH = re.compile(
    r"(?P<d>\d(?<![\w.\-/]\d)\d?)(?P<suf>st|nd|rd|th|ST|ND|RD|TH)?"
    r"(?:[ \t]{0,2}[-–][ \t]{0,2}[0-3]?\d(?:st|nd|rd|th)?(?!\d))?(?P<of>[ \t]{1,3}of[ \t]{1,3}|[ \t.,/-]{0,3})"
    r"(?i:(?=[jfmasond])" + _MON + r"(?:(?:,?[ \t]{1,3}|[-/.]|[ \t]{1,2}of[ \t]{1,2})?(?P<y>(?:19|20)\d\d|['’]?\d\d))?)"
    + _END)
_MONTH_YEAR = re.compile(
    _MON + r"(?:[ \t.,/-]{1,3}|[ \t]{1,2}of[ \t]{1,2})(?P<y>(?:19|20)\d\d|['’]\d\d)" + _END, re.I)
_MONTH_WORD = re.compile(_MON + r"(?![\w'’])", re.I)
_NUM_MONTH_YEAR = re.compile(
    r"(?P<m>\d(?<![\w.\-/:]\d)\d?)(?:[-/](?P<y>(?:19|20)\d\d)|(?<=[12]\d)(?<=(?:19|20))(?P<y2>\d\d)-(?P<m2>0\d|1[0-2]))"
    r"(?![\d/]|[.\-]\d)")
_HOLIDAY = re.compile(
    r"(?P<h>" + holiday_regex(r"[ \t]") + r")"
    r"(?:[ \t,]{1,3}(?:of[ \t]{1,2})?(?P<year>(?:19|20)\d\d))?(?![\w'’])", re.I)

#: Three-letter starts of every word that can begin a month-name date, a weekday or a holiday.
#: Detailed patterns run only at word tokens starting with one of these (cheap: the tokens are
#: shared with the other detectors), so the whole note is not scanned case-insensitively.
_ANCHOR3 = frozenset({m[:3] for m in MONTHS} | {w[:3] for w in WEEKDAYS} | holiday_anchors())


def _variants(starts: frozenset[str]) -> frozenset[str]:
    """Each of ``starts`` (lower case) as written in lower case, Title case and capitals."""
    return frozenset(v for w in starts for v in (w, w.title(), w.upper()))


_ANCHOR3_VARIANTS = _variants(_ANCHOR3)
#: The anchors that can start a month name and a weekday (a subset of the anchors: every
#: month and weekday pattern begins with a name's first three letters, so a token whose first
#: three characters are none of these cannot start one); holidays are tried at every anchor.
_MONTH3_VARIANTS = _variants(frozenset(m[:3] for m in MONTHS))
_WEEKDAY3_VARIANTS = _variants(frozenset(w[:3] for w in WEEKDAYS))
_WEEKDAY_WORD = re.compile(r"(?i:" + "|".join(WEEKDAYS) + r")(?![^\W_])")
#: A weekday written just before a date (``Tuesday, ``, ``Thurs ``, ``Thu. ``), from the date
#: reader's weekday words (so not ``thus``).
_WD_BEFORE = re.compile(
    r"(?<![\w'’])(?i:" + WEEKDAY_REGEX + r")\.?,?[ \t]{1,3}(?:the[ \t]{1,2})?$")
_SLASH = re.compile(r"(?P<m>\d(?<![\w/:+]\d)(?<![^A-Za-z]-\d)\d?)/(?P<d>\d{1,2})(?![\d/]|[.,]\d|-\d)")
#: Two month/day dates as a range (``9/12-9/14``) or run together (``10/02/10/03``).
_SLASH_RANGE = re.compile(
    r"(?P<first>\d(?<![\w\-/:+.,]\d)\d?/\d{1,2})(?:[ \t]{0,2}[-–][ \t]{0,2}|/)(?P<second>\d{1,2}/\d{1,2})"
    r"(?![\d/]|[.,]\d|-\d)")
#: Month and two-digit year (``ECHO 3/91``, ``fx 6/98``, ``fx4/97``): the year cannot be a day.
_MONTH_YY = re.compile(r"(?P<m>\d(?<![\d\-/:+.,'’]\d)\d?)/(?P<y>3[2-9]|[4-9]\d)(?![\d/%'’]|[.,]\d|-\d)")
#: A two-digit year alone after a history word (``MI 93``, ``CVA 81'``, ``CABG X2 99'``,
#: ``prostate CA'88``): the event's year.
_YY_HISTORY = re.compile(r"(?P<y>\d(?<=[ \t'’]\d)\d)(?P<q>['’](?![sS]))?(?![\w'’/%:-]|[.,]\d)")
_YY_HISTORY_BEFORE = re.compile(
    r"(?i:\b(?:" + alternation(lists.tagged(_HISTORY, "year2"), count=lists.tagged(_HISTORY, "count"))
    + r"|(?P<weak>in))(?:[ \t]{1,2}|['’]))$")
#: Vent settings, scores and fractions around ``a/b`` (``PS 10/5``, ``CPAP 5/5 40%``,
#: ``pain 5/10``, ``crackles 1/3 of fields``, ``1/2 amp``): never a date. Before it: the ``vent`` words.
_NOT_DATE_NEAR_BEFORE = re.compile(
    r"\b(?:" + alternation(lists.tagged(_CONTEXT, "vent")) + r"|ventilat\w*)\b")
_PERCENT_AFTER = re.compile(r"[ \t]?%|(?i:bpm|lpm)\b")
_NOT_DATE_NEAR_AFTER = re.compile(
    r"[ \t,(]{0,3}(?:c[ \t]{1,2})?(?:\d{2,3}[ \t]?%|(?i:"
    + alternation(lists.tagged(_CONTEXT, "vent_after")) + r"|bilat\w*)\b)")
#: A clock time (``2300``, ``0330``) or a decimal lab value (``16.0``) just before ``a/b``:
#: the number before does not make ``a/b`` a mixed fraction.
_CLOCK_OR_DECIMAL_BEFORE = re.compile(r"(?:(?<!\d)(?:[01]\d|2[0-3])[0-5]\d|\d\.\d{1,2})[ \t]{1,2}$")
#: The history words that date an event by the month and year after them (``lists/history_words.txt``,
#: use ``month_year2``), as one alternation for the three patterns below.
_HISTORY_WORDS = alternation(lists.tagged(_HISTORY, "month_year2"))
#: History context before a month and two-digit year (``s/p repair 3/91``), on the lower-cased line.
_HISTORY_CONTEXT = re.compile(
    r"\b(?:" + _HISTORY_WORDS + r"|since|in)\b[^\n]{0,20}$")
#: A history word (``lists/history_words.txt``, use ``month_year2``) somewhere before a decade on
#: its line (``HX OF MI IN 1980S``; not ``THINKS BACK IN 1940S``).
_HISTORY_WORD_BEFORE = re.compile(
    r"(?i:\b(?:" + _HISTORY_WORDS + r"))\b")
#: A history word right after a year (``'09 PTCA``, ``'95 CABG``): the year dates that event.
_HISTORY_AFTER = re.compile(
    r"[ \t]{1,2}(?i:" + _HISTORY_WORDS + r")\b")
_RANGE_START = re.compile(r"(?<![\w.\-/:])(?:19|20)\d\d[-–]$")
_RANGE_END = re.compile(r"[-–](?:19|20)\d\d(?![\w]|[.,:/-]\d)")
_LIST_BEFORE = re.compile(r"\([^()\n]{0,30}[ \t,]$")
_PAREN_AFTER = re.compile(r"[ \t]?[),]")
#: A morning or afternoon mark right after ``a/b`` (``3/9 AM``, ``4/2 pm``): a date and its
#: part of the day, whatever stands before it.
_MERIDIEM_AFTER = re.compile(r"[ \t]{1,2}(?:AM|PM|am|pm|a\.m\.|p\.m\.)(?![\w])")
_NUMBER_END = re.compile(r"\d[\d.]*[ \t]+$")
_TIME_AFTER = re.compile(r"[ \t]{1,2}(?:at[ \t]{1,2}|@[ \t]?)?(?:[01]?\d|2[0-3]):?[0-5]\d(?!\d)")
_YEAR4 = re.compile(r"(?:19|20)\d\d(?P<s>['’]?[sS])?")
_YEAR_APOS = re.compile(r"['’](?<![\w'’]['’])(?P<y>\d\d)(?P<s>s)?(?![\w'’]|[.,]\d)")
_COMPACT = re.compile(r"(?P<y>(?:19|20)(?<![\w]19|[\w]20)\d\d)(?P<m>\d\d)(?P<d>\d\d)(?!\d)")
#: A birth or date label before ``20190304``: the ``compact`` words of :data:`_CONTEXT`.
_COMPACT_BEFORE = re.compile(r"(?i:\b(?:" + alternation(lists.tagged(_CONTEXT, "compact"), " ") + r")\W{1,3})$")
#: Prepositions before a year (grammar); the other words before one are the ``year_before``
#: words of :data:`_CONTEXT` (summer, born, circa) and the ``year`` history words.
_YEAR_PREPOSITIONS = r"in|since|from|until|till|during|by|before|after|around|of|through|thru|between|as[ \t]of"
#: Adverbs between that word and the year (``in early 2019``, ``since the year 2000``): grammar.
_YEAR_QUALIFIERS = r"(?:early|late|mid|the[ \t]year)"
_YEAR_CTX = re.compile(
    r"(?i:\b(?:" + _YEAR_PREPOSITIONS + "|" + alternation(lists.tagged(_CONTEXT, "year_before")) + r"|"
    r"[a-z]{3,}ed|" + alternation(lists.tagged(_HISTORY, "year")) + r")"
    r"(?:[ \t]{1,3}|[ \t]{0,2}\r?\n[ \t]{0,2})(?:" + _YEAR_QUALIFIERS + r"[- \t]{1,2})?"
    r"|(?:19|20)\d\d[ \t]{0,2}(?:-|–|to|and|through|&)[ \t]{0,2})$")

_UNITS_AFTER = re.compile(r"[ \t]{0,2}" + UNITS, re.I)
#: Prepositions that make a year a time even before a model noun (``in 2012 cars were``).
_TIME_WORD_BEFORE = re.compile(r"(?i:\b(?:in|since|from|until|till|during|circa|year|between)[ \t]{1,3})$")
#: A year naming a model or an edition, not an event in the patient's life (``2012 pickup``,
#: ``2019 Honda``): never certain, whatever came before it (``owned``, ``of``, ``by``). The
#: words are ``lists/vehicle_words.txt``; vehicles and edition words also as plurals.
_MODEL_AFTER = re.compile(r"[ \t]{1,2}(?i:" + alternation(
    w + s for w, kind in lists.read_list("vehicle_words.txt").rows
    for s in (("", "s") if kind in ("vehicle", "edition") else ("",))) + r")(?![\w-])")
#: Date context just before a value, on the lower-cased line (``seen 3/4``, ``on 9/15``,
#: ``admitted 3/5``, ``Tues 3/5``): the ``date`` words of :data:`_CONTEXT`, past participles, weekdays.
_DATE_CONTEXT = re.compile(
    r"(?:^|[^\w])(?:" + alternation(lists.tagged(_CONTEXT, "date"), " ") + r"|[a-z]{3,}ed|"
    + WEEKDAY_REGEX + r")"
    r"[ \t:#.,(-]{0,3}(?:the[ \t]{1,2})?$")
_MONTH_CONTEXT = re.compile(
    r"(?:^|[^\w])(?:in|since|from|until|till|through|during|by|before|after|early|late|mid|last|"
    r"next|this|of|around|between|and|or)[ \t-]{1,2}$", re.I)
#: A score, count or ratio before ``a/b`` (``GCS 3/15``, ``strength 4/5``): the ``score`` words.
_NOT_DATE_BEFORE = re.compile(
    r"\b(?:" + alternation(lists.tagged(_CONTEXT, "score"), " ") + r"|phq-?\d*|gad-?\d*)[ \t:=|]{0,20}$"
    r"|\d[ \t]{1,2}$|(?:[+/=]|(?<![a-z])-)[ \t]?$|-[ \t]$")
#: A score, dose or fraction word just after ``a/b`` (``3/4 strength``, ``1/2 tsp``, ``3/4 of``):
#: the ``after`` words as prefixes, the ``after_word`` ones whole, ``+``, or a unit.
_NOT_DATE_AFTER = re.compile(
    r"[ \t]{0,2}(?:" + alternation(lists.tagged(_CONTEXT, "after")) + r"|(?:"
    + alternation(lists.tagged(_CONTEXT, "after_word")) + r")\b|\+)|[ \t]{0,2}" + UNITS, re.I)
#: A score word anywhere on the 30 characters before ``a/b`` (``GCS of 7/15``, ``GCS E4 7/15``).
_SCORE_ON_LINE = re.compile(r"\b(?:" + alternation(lists.tagged(_CONTEXT, "score"), " ") + r")\b")
_DURATION_BEFORE = re.compile(r"(?:for|x|past|last|over|within|in)[ \t]{0,2}$", re.I)
#: Before a bare year-shaped number that is no year (``room 2004``, ``plt 1998``, ``@ 2012``):
#: ``at``, ``@``, ``#`` or a ``bare_year_bad`` word of :data:`_CONTEXT`.
_BARE_YEAR_BAD_BEFORE = re.compile(
    r"(?:at|@|#|~|" + alternation(lists.tagged(_CONTEXT, "bare_year_bad")) + r")[ \t:.]{0,3}$")
#: ``5/5 ABG``: a blood gas right after a vent-shaped pair (its setting).
_GAS_AFTER = re.compile(r"[ \t]{1,2}(?i:abgs?|vbgs?)\b")
#: ``1900>>0700``, ``1900->0700``: a shift written as clock times, no year.
_SHIFT_AFTER = re.compile(r"[ \t]?-?>{1,2}[ \t]?[0-2]\d[0-5]\d\b")
#: ``MI 12``: a two-digit year after a history word that the reader, with this pivot, puts in
#: 20xx (00-31) is as likely a count, so it needs an apostrophe.
_COUNT_PIVOT = 32
_COMMON_FRACTION_DEN = frozenset({2, 3, 4, 5, 6, 8, 10, 15, 16, 20})
_WORDCH = frozenset("'’_")


def _word_start(text: str, i: int) -> bool:
    """True when no letter, digit, underscore or apostrophe precedes offset ``i``."""
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] in _WORDCH)


def _in_context(text: str, start: int, regex: re.Pattern[str] = _DATE_CONTEXT) -> bool:
    return label_before(text, start, regex)


def _month_ok(word: str, has_year: bool, text: str, start: int) -> str | None:
    """Tier for a month-name date, or None to drop it (``may`` in ``may be``)."""
    base = word.rstrip(".")
    low = base.lower()
    ambiguous = low in _AMBIGUOUS_MONTHS and (base.islower() or (base.isupper() and len(base) == 3))
    if not ambiguous or has_year or _in_context(text, start):
        return CERTAIN
    return None


def _units_follow(text: str, end: int) -> bool:
    return _UNITS_AFTER.match(text, end) is not None


def _with_weekday(text: str, start: int) -> int:
    """``start`` moved back over a weekday written before a date (``Tuesday, ``)."""
    m = just_before(text, start, _WD_BEFORE, 16)
    return m.start() if m else start


def _month_end(m: re.Match[str], end: int) -> int:
    """``end`` without the full stop after a full month name (``on 22nd of November.``)."""
    if end == m.end("mon") + 1 and m.string[end - 1] == "." and len(m["mon"]) > 4:
        return end - 1
    return end


# --------------------------------------------------------------------------------------------
# Validators: one per pattern, ``f(match) -> Verdict`` (see patterns.Pattern)
# --------------------------------------------------------------------------------------------

def _halves(m: re.Match[str]) -> list[ParsedDate | None]:
    """The two dates of a range match (groups ``first`` and ``second``), read by the date reader."""
    return [read_text(m.string, m.start(g), m.end(g)) for g in ("first", "second")]


def _either_order(p: ParsedDate | None) -> bool:
    """True when a numeric date is valid read month first or day first (year not checked)."""
    return p is not None and (valid_date(p.month, p.day) or valid_date(p.day, p.month))


def _numeric_range(m: re.Match[str]) -> Verdict:
    if clear_before(m.string, m.start(), ".-/:") and all(_either_order(p) for p in _halves(m)):
        return [Hit(m.start(g), m.end(g)) for g in ("first", "second")]
    return None


def _iso(m: re.Match[str]) -> Verdict:
    p = read_match(m)
    return valid_date(p.month, p.day)


def _past_month_end(p: ParsedDate | None) -> bool:
    """``2/31/14``, ``4/31/2019``: a month 1-12 and a day of 29-31 that the month lacks, in a
    date with a year: a slip of the pen or a shifted date, still a date (issue 8)."""
    return p is not None and p.day is not None and 1 <= p.month <= 12 and 29 <= p.day <= 31


def _numeric_mdy(m: re.Match[str]) -> Verdict:
    text = m.string
    p = read_match(m)
    if not (_either_order(p) or _past_month_end(p)):
        return None
    y = m["y"]
    if len(y) == 2 and (_PERCENT_AFTER.match(text, m.end()) or (
            _NOT_DATE_NEAR_BEFORE.search(line_before(text, m.start(), 30))
            and not _in_context(text, m.start()))):
        return None                                    # "PS 10/5/40%": vent settings
    tier = CERTAIN
    if m["s"] == "." and len(y) == 2 and not _in_context(text, m.start()):
        tier = REVIEW
    return Hit(_with_weekday(text, m.start()), m.end(), tier)


def _month_name_day(m: re.Match[str]) -> Verdict:
    text = m.string
    p = read_match(m)
    if not valid_date(p.month, p.day):
        return None
    has_year = p.year is not None
    if not has_year and _units_follow(text, m.end()):
        return None
    tier = _month_ok(m["mon"], has_year, text, m.start())
    if tier is None:
        return None
    return Hit(_with_weekday(text, m.start()), m.end(), tier,
               name="month_name_day_year" if has_year else "month_name_day")


def _day_month_name(m: re.Match[str]) -> Verdict:
    text = m.string
    p = read_match(m)
    if not valid_date(p.month, p.day):
        return None
    has_year = p.year is not None
    tier = _month_ok(m["mon"], has_year or bool(m["suf"] and "of" in m["of"]), text, m.start())
    if tier is None:
        return None
    return Hit(_with_weekday(text, m.start()), _month_end(m, m.end()), tier,
               name="day_month_name_year" if has_year else "day_month_name")


def _month_name_year(m: re.Match[str]) -> Verdict:
    return _month_ok(m["mon"], True, m.string, m.start())


def _numeric_month_year(m: re.Match[str]) -> Verdict:
    if m["y2"] and not _word_start(m.string, m.start()):
        return None
    p = read_text(m.string, m.start(), m.end())           # "03/2014", "2014-03"
    return p is not None and valid_date(p.month) and not _units_follow(m.string, m.end())


def _holiday(m: re.Match[str]) -> Verdict:
    return CERTAIN if (m["h"][0].isupper() or m["year"]) else REVIEW


def _compact(m: re.Match[str]) -> Verdict:
    if not just_before(m.string, m.start(), _COMPACT_BEFORE, 20):
        return False
    p = read_match(m)
    return valid_date(p.month, p.day, p.year)


def _month_day(m: re.Match[str]) -> Verdict:
    text = m.string
    p = read_match(m)
    mo, d = p.month, p.day
    if not valid_date(mo, d):
        return None
    if not _slash_start_ok(text, m.start()):
        return None
    before = line_before(text, m.start(), 30)
    meridiem = _MERIDIEM_AFTER.match(text, m.end()) is not None \
        and not (d in _COMMON_FRACTION_DEN and mo < d)
    if meridiem:
        before = _NUMBER_END.sub("", before)   # "FROM 30 3/9 AM": the lab value before it
    clock = _CLOCK_OR_DECIMAL_BEFORE.search(before)
    if _slash_guarded(before if clock is None else before[:clock.start()], text, m.end(),
                      vent_shaped=d in (5, 10) and d <= mo <= 25):
        return None
    if d in (7, 12) and _DURATION_BEFORE.search(before):
        return None                                    # "for 3/7": three days
    if _DATE_CONTEXT.search(before) or _TIME_AFTER.match(text, m.end()) or clock is not None \
            or meridiem:
        tier = CERTAIN
    elif d >= 15 and mo >= 3 and not _SCORE_ON_LINE.search(before):
        tier = CERTAIN                                 # 11/17, 4/16, 8/20: no fraction one writes
    elif (d in _COMMON_FRACTION_DEN and mo <= d) or mo == d:
        tier = REVIEW                                  # 3/4, 4/5, 7/10: fraction or score?
    else:
        tier = CERTAIN
    return Hit(_with_weekday(text, m.start()), m.end(), tier)


def _slash_start_ok(text: str, start: int) -> bool:
    """A comma or full stop may glue ``a/b`` to a word (``seen,4/17,and``), not to a number."""
    return not (start >= 2 and text[start - 1] in ".," and not text[start - 2].isalpha())


def _slash_guarded(before: str, text: str, end: int, vent_shaped: bool = False) -> bool:
    """True when what surrounds ``a/b`` makes it a score, a vent setting, a fraction or a dose.
    A date word just before (``on 9/14``) outweighs a vent word further back, unless the value
    is ``vent_shaped`` (``on 5/5``, ``12/5``: pressure support over PEEP)."""
    if _NOT_DATE_BEFORE.search(before) or _NOT_DATE_AFTER.match(text, end):
        return True
    if vent_shaped and _GAS_AFTER.match(text, end):
        return True                                    # "on 5/5 ABG 7.41/38": the setting of a gas
    return bool(_NOT_DATE_NEAR_AFTER.match(text, end)
                or (_NOT_DATE_NEAR_BEFORE.search(before)
                    and (vent_shaped or not _DATE_CONTEXT.search(before))))


def _slash_range(m: re.Match[str]) -> Verdict:
    text = m.string
    parts = [(p.month, p.day) if p is not None else (0, 0) for p in _halves(m)]
    if not all(valid_date(a, b) for a, b in parts) or all(
            b in _COMMON_FRACTION_DEN and a < b for a, b in parts):
        return None                                    # "1/3-1/2": a fraction range
    if _slash_guarded(line_before(text, m.start(), 30), text, m.end()):
        return None
    if m.string[m.end("first")] == "/":
        return Hit(m.start(), m.end())                 # 10/02/10/03: written as one
    return [Hit(m.start(g), m.end(g)) for g in ("first", "second")]


def _month_yy(m: re.Match[str]) -> Verdict:
    text = m.string
    if not valid_date(read_match(m).month):
        return None
    if m.start() and text[m.start() - 1].isalpha() and not _HISTORY_CONTEXT.search(
            line_before(text, m.end(), 30)):
        return None                                    # glued to a word: only in a history
    before = line_before(text, m.start(), 30)
    if _slash_guarded(before, text, m.end()):
        return None
    if _DATE_CONTEXT.search(before) or _HISTORY_CONTEXT.search(before) or (
            m.start() and text[m.start() - 1].isalpha()):
        return CERTAIN
    return REVIEW


def _year4(m: re.Match[str]) -> Verdict:
    text = m.string
    n = len(text)
    s, end = m.start(), m.end()
    if s and (text[s - 1].isalnum() or text[s - 1] in ".-/:$#@_'’") and not (
            text[s - 1] in "-–" and just_before(text, s, _RANGE_START, 6)):
        return None
    if end < n and (text[end].isalnum() or text[end] == "_"
                    or (text[end] in ".,:/-" and end + 1 < n and text[end + 1].isdigit()
                        and not _RANGE_END.match(text, end))):
        return None
    if m["s"]:
        # "HX OF POSSIBLE MI IN 1980S": a history word on the line before dates the event
        sure = _HISTORY_WORD_BEFORE.search(line_before(text, s, 30)) is not None
        return Hit(s, end, CERTAIN if sure else REVIEW, name="decade")
    if _units_follow(text, end) or _SHIFT_AFTER.match(text, end):
        return None
    if _MODEL_AFTER.match(text, end) and not just_before(text, s, _TIME_WORD_BEFORE, 12):
        return Hit(s, end, REVIEW, name="year_model")        # "owned a 2012 pickup"
    if _seen_before(_YEAR_CTX, text, s, 30):
        return Hit(s, end, CERTAIN, name="year_context")
    if _PAREN_AFTER.match(text, end) and s and (
            text[s - 1] == "(" or _seen_before(_LIST_BEFORE, text, s, 40)):
        return Hit(s, end, CERTAIN, name="year_paren")       # (2015), (On-X, 2015), (2017, 2021)
    if not _seen_before(_COMPACT_BEFORE, text, s, 20) and not _bare_year_bad(text, s):
        return Hit(s, end, REVIEW, name="year_bare")
    return None


#: Results of the window searches before a value, by regex, width and the window's text
#: (speed: a note repeating one stretch asks the same question at every value); cleared when
#: it grows past 4096 entries.
_BEFORE_MEMO: dict[tuple[int, int, str, bool], bool] = {}   # id(regex): hashing a Pattern hashes its code


def _seen_before(rx: re.Pattern[str], text: str, i: int, width: int) -> bool:
    """``just_before(text, i, rx, width) is not None``, memoised on the ``width`` characters
    before ``i`` and the one before them (what ``\\b`` at the window's start reads): only for
    ``$``-anchored regexes that look behind one character at most."""
    lo = max(0, i - width)
    key = (id(rx), width, text[max(0, lo - 1):i], lo == 0)
    hit = _BEFORE_MEMO.get(key)
    if hit is None:
        hit = rx.search(text, lo, i) is not None
        if len(_BEFORE_MEMO) > 4096:
            _BEFORE_MEMO.clear()
        _BEFORE_MEMO[key] = hit
    return hit


def _bare_year_bad(text: str, s: int) -> bool:
    """Whether ``_BARE_YEAR_BAD_BEFORE`` matches the 12-character line before ``s``
    (``room 2014``), memoised on those 12 characters."""
    key = (id(_BARE_YEAR_BAD_BEFORE), 12, text[max(0, s - 12):s], False)
    hit = _BEFORE_MEMO.get(key)
    if hit is None:
        hit = _BARE_YEAR_BAD_BEFORE.search(line_before(text, s, 12)) is not None
        if len(_BEFORE_MEMO) > 4096:
            _BEFORE_MEMO.clear()
        _BEFORE_MEMO[key] = hit
    return hit


def _year_apostrophe(m: re.Match[str]) -> Verdict:
    if m["s"]:
        return Hit(m.start(), m.end(), REVIEW, name="decade")
    text, start = m.string, m.start()
    strong = _in_context(text, start) or _HISTORY_CONTEXT.search(line_before(text, start, 30)) \
        or _HISTORY_AFTER.match(text, m.end())   # "'09 PTCA to LAD": the event after the year
    return Hit(m.start("y"), m.end(), CERTAIN if strong else REVIEW)   # the apostrophe stays out


#: ``_YY_HISTORY_BEFORE`` results by the window they read (speed: a note repeating one
#: stretch asks the same question at every number); cleared when it grows past 4096 entries.
_YY_BEFORE_MEMO: dict[tuple[str, bool], tuple[bool, bool]] = {}


def _yy_before(text: str, s: int) -> tuple[bool, bool]:
    """(found, weak) of ``just_before(text, s, _YY_HISTORY_BEFORE, 24)``, memoised on the 24
    characters before ``s`` and the one before them (what ``\\b`` at the window's start reads)."""
    lo = max(0, s - 24)
    key = (text[max(0, lo - 1):s], lo == 0)
    hit = _YY_BEFORE_MEMO.get(key)
    if hit is None:
        before = _YY_HISTORY_BEFORE.search(text, lo, s)
        hit = (before is not None, before is not None and bool(before["weak"]))
        if len(_YY_BEFORE_MEMO) > 4096:
            _YY_BEFORE_MEMO.clear()
        _YY_BEFORE_MEMO[key] = hit
    return hit


def _yy_history(m: re.Match[str]) -> Verdict:
    s = m.start("y")
    found, weak = _yy_before(m.string, s)
    if not found or (weak and not m["q"]):
        return None                                    # "in 70": a rate; "REPAIR IN 14'": a year
    if not (m["q"] or read_match(m, _COUNT_PIVOT).year < 2000 or m.string[s - 1] in "'’"):
        return None                                    # "MI 12": a count as likely as a year
    if _UNITS_AFTER.match(m.string, m.end()):
        return None
    return Hit(m.start("y"), m.end("y"))              # the apostrophe stays outside


def _month_alone(m: re.Match[str]) -> Verdict:
    text, pos, word = m.string, m.start(), m["mon"]
    if word.isupper() and len(word.rstrip(".")) == 3 and word.lower() in _AMBIGUOUS_MONTHS:
        return None                                    # "THIS MAY BE", "INC RR AND DEC FIO2"
    if _in_context(text, pos, _MONTH_CONTEXT):
        if word[0].isupper() or word.lower() not in _AMBIGUOUS_MONTHS:
            return Hit(m.start(), _month_end(m, m.end()), CERTAIN)
        return None
    if len(word) > 3 and word[0].isupper() and word[1:].islower() and word not in ("May", "March", "Sept"):
        return Hit(m.start(), _month_end(m, m.end()), REVIEW)
    return None


#: The table, in the order the patterns run (the first accepted span wins an overlap).
PATTERNS: tuple[Pattern, ...] = (
    Pattern("numeric_range", _NUMERIC_RANGE, "DATE", validator=_numeric_range),
    Pattern("iso", _ISO, "DATE", validator=_iso),
    Pattern("numeric_mdy", _NUMERIC, "DATE", validator=_numeric_mdy),
    Pattern("month_name_day", _MONTH_DAY, "DATE", validator=_month_name_day, at_anchors="month"),
    Pattern("day_month_name", _DAY_MONTH, "DATE", validator=_day_month_name),
    Pattern("month_name_year", _MONTH_YEAR, "DATE", validator=_month_name_year, at_anchors="month"),
    Pattern("numeric_month_year", _NUM_MONTH_YEAR, "DATE", validator=_numeric_month_year),
    Pattern("holiday", _HOLIDAY, "DATE", validator=_holiday, at_anchors=True),
    Pattern("compact", _COMPACT, "DATE", validator=_compact),
    Pattern("month_day_range", _SLASH_RANGE, "DATE", validator=_slash_range),
    Pattern("month_year2", _MONTH_YY, "DATE", validator=_month_yy),
    Pattern("month_day", _SLASH, "DATE", validator=_month_day),
    Pattern("year", _YEAR4, "DATE", validator=_year4),
    Pattern("year_apostrophe", _YEAR_APOS, "DATE", validator=_year_apostrophe),
    Pattern("year2_history", _YY_HISTORY, "DATE", validator=_yy_history),
    Pattern("month_alone", _MONTH_WORD, "DATE", validator=_month_alone, at_anchors="month"),
    Pattern("weekday", _WEEKDAY_WORD, "DATE", at_anchors="weekday"),
)


#: The table without the patterns that seldom match (in one note in ten or fewer) when one
#: search finds none of them (speed: four scans of the note saved on most notes).
_TABLE = GatedTable(PATTERNS, [p for p in PATTERNS if p.name in (
    "numeric_range", "numeric_month_year", "month_day_range", "month_year2")])


def detect(doc: Document) -> Iterable[Span]:
    """DATE spans in ``doc.text`` (see the module docstring for the patterns and tiers).

    Returns:
        Non-overlapping spans sorted by start, label ``DATE``, source ``dates:<pattern>``.
    """
    tokens = [t for t in doc.tokens if t.word[:3] in _ANCHOR3_VARIANTS]
    named = {"month": [t.start for t in tokens if t.word[:3] in _MONTH3_VARIANTS],
             "weekday": [t.start for t in tokens if t.word[:3] in _WEEKDAY3_VARIANTS]}
    text = doc.text
    return list(run(_TABLE.for_text(text), text, Emitter("dates"), [t.start for t in tokens], named))
