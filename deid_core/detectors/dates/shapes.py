"""The DATE detector's regexes and the context tests its validators share.

The patterns find candidates (digit-led ones start with ``\\d`` and check the character before
it with a short look-behind; month, weekday and holiday patterns are matched only at word tokens
whose first three letters can start one: :data:`_ANCHOR3`); the context regexes read the line
before a value (:func:`~deid_core.detectors.patterns.line_before`) or the text after it.
Context words are the hand-written lists ``lists/history_words.txt``,
``date_context_words.txt`` and ``vehicle_words.txt`` (and ``units.txt`` through
:data:`~deid_core.detectors.patterns.UNITS`).
"""
from __future__ import annotations

import re

from ... import lists
from ...calendars import MONTH_REGEX, MONTHS, WEEKDAYS, holiday_anchors, holiday_regex, valid_date
from ...datereader import WEEKDAY_REGEX, ParsedDate, read_text
from ...spans import CERTAIN
from ..patterns import UNITS, alternation, just_before, label_before

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
#: A weekday abbreviation alone (``Fri``, ``thurs``, ``TUES``, ``sat``): the date reader's
#: weekday words; the ``ambiguous_weekday`` ones (``mon``, ``sat``) need a date word before.
_WEEKDAY_ABBR = re.compile(r"(?i:" + WEEKDAY_REGEX + r")\.?(?![^\W_]|\.\w|[/-]\d)")
_AMBIGUOUS_WEEKDAYS = frozenset(lists.tagged("date_context_words.txt", "ambiguous_weekday"))
#: The ``weekday_before`` words just before an ambiguous weekday abbreviation (``on sat``).
_WEEKDAY_BEFORE = re.compile(
    r"(?:^|[^\w])(?:" + alternation(lists.tagged("date_context_words.txt", "weekday_before")) + r")[ \t]{1,2}$")
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
#: ``MI in 97``: ``in`` between the history word and the year; ``MI 93 and 03``, ``CVA '81, 94``:
#: a year listed after one (group ``listed``).
_YY_HISTORY_WORD = (r"(?:" + alternation(lists.tagged(_HISTORY, "year2"), count=lists.tagged(_HISTORY, "count"))
                    + r")(?:[ \t]{1,2}in)?")
_YY_HISTORY_BEFORE = re.compile(
    r"(?i:\b(?:" + _YY_HISTORY_WORD + r"(?P<listed>(?:[ \t]{1,2}|[ \t]?['’])\d\d['’]?"
    r"(?:[ \t]{0,2}(?:,|&|and)[ \t]{0,2}['’]?\d\d['’]?)*[ \t]{0,2}(?:,|&|and))?"
    r"|(?P<weak>in))(?:[ \t]{1,2}|['’]))$")
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
_CLOCK_OR_DECIMAL_BEFORE = re.compile(
    r"(?:(?:(?<!\d)(?:[01]\d|2[0-3])[0-5]\d[ \t]?[-–][ \t]?)?(?<!\d)(?:[01]\d|2[0-3])[0-5]\d|\d\.\d{1,2})[ \t]{1,2}$")
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
#: An ordinal day alone (``23rd``, ``9th``); :data:`_ORDINAL_BEFORE` and :data:`_ORDINAL_AFTER`
#: decide whether it is a day of the month.
_ORDINAL = re.compile(r"(?P<d>\d(?<![\w.\-/:]\d)\d?)(?:[sS][tT]|[nNrR][dD]|[tT][hH])(?![\w'’])")
#: ``on the``, ``by the``, ``since the`` (the ``ordinal_before`` words), or a weekday (``Tuesday
#: the``), just before an ordinal day, on the lower-cased line.
_ORDINAL_BEFORE = re.compile(
    r"(?:^|[^\w])(?:" + alternation(lists.tagged(_CONTEXT, "ordinal_before"), " ") + r"|"
    + WEEKDAY_REGEX + r")[ \t,]{1,2}the[ \t]{1,2}$")
#: What may follow a day of the month (punctuation, the line's end, an ``ordinal_after`` word);
#: a noun after it makes the ordinal count a thing (``the 5th floor``, ``the 2nd attempt``).
_ORDINAL_AFTER = re.compile(
    r"[ \t]{0,2}(?:[.,;:!?)]|\r?\n|$)|[ \t]{1,2}(?i:" + alternation(lists.tagged(_CONTEXT, "ordinal_after"))
    + r")\b")
#: A month name and a joiner just before another month (``Jan/Feb``, ``Nov-Dec``, ``June or``):
#: the second month is as much a date as the first.
_MONTH_PAIR_BEFORE = re.compile(r"(?i:\b" + MONTH_REGEX + r"\.?[ \t]{0,2}(?:[/&–-]|and|or|to)[ \t]{0,2})$")
_MONTH_PAIR_AFTER = re.compile(r"(?i:\.?[ \t]{0,2}(?:[/&–-]|and|or|to)[ \t]{0,2}" + MONTH_REGEX + r"\b)")
#: A decimal lab value just before a month (``A1c 7.2 Oct``, ``INR 2.4 Sept``): the month is
#: when it was drawn.
_VALUE_BEFORE_MONTH = re.compile(r"(?:(?<![\d.])\d{1,3}\.\d{1,2}|\d[ \t]?" + UNITS + r"\.?)[ \t]{1,2}$", re.I)
_MONTH_CONTEXT = re.compile(
    r"(?:^|[^\w])(?:in|since|from|until|till|through|during|by|before|after|early|late|mid|last|"
    r"next|this|of|around|between|and|or)[ \t-]{1,2}$", re.I)
#: A score, count or ratio before ``a/b`` (``GCS 3/15``, ``strength 4/5``): the ``score`` words.
_NOT_DATE_BEFORE = re.compile(
    r"\b(?:" + alternation(lists.tagged(_CONTEXT, "score"), " ") + r"|phq-?\d*|gad-?\d*)[ \t:=|]{0,20}$"
    r"|(?:[/=]|(?<![a-z])-)[ \t]?$|(?<![a-z])(?<![a-z][ \t])\+[ \t]?$|-[ \t]$")
#: A whole number just before ``a/b`` (``2 1/2``, ``X 2 6/19``): a mixed number only when
#: ``a/b`` is fraction-shaped; a ``+`` after a word (``troponin + 1/6``) is a result mark.
_WHOLE_BEFORE = re.compile(r"\d[ \t]{1,2}$")
#: A count of times just before ``a/b`` (``x1 5/3``, ``X 2 6/19``): the event happened, then its date.
_COUNT_BEFORE = re.compile(r"(?<![a-z0-9])x[ \t]?\d{1,2}[ \t]{1,2}$")
#: Ventilator modes and settings (the ``vent_mode`` words): a vent-shaped pair (``12/5``) a few
#: lines after one, or just before one (``weaned to 12/5 on PS``), is a setting.
_VENT_MODE = re.compile(r"\b(?:" + alternation(lists.tagged(_CONTEXT, "vent_mode")) + r"|ventilat\w*)\b")
_VENT_MODE_AFTER = re.compile(
    r"[ \t,]{0,2}(?:(?:on|c|via)[ \t]{1,2})?(?i:" + alternation(lists.tagged(_CONTEXT, "vent_mode")) + r")\b")
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
#: A time word before a clock-shaped four-digit number (``around 2030``, ``until 1945``): the
#: ``clock_before`` words of :data:`_CONTEXT`; such a number is at most a review year.
_CLOCK_WORD_BEFORE = re.compile(
    r"(?i:\b(?:" + alternation(lists.tagged(_CONTEXT, "clock_before")) + r")[ \t]{1,2})$")
#: A clock time that cannot be a year on the other side of a range (``1900 to 0700``,
#: ``0700-1930``, ``2000 until 0400``): the number is the other end of a shift.
_CLOCK_RANGE_AFTER = re.compile(
    r"[ \t]{0,2}(?:-|–|to|until|till)[ \t]{0,2}(?:0\d|1[0-8]|2[1-3])[0-5]\d(?!\d)")
_CLOCK_RANGE_BEFORE = re.compile(
    r"(?<!\d)(?:0\d|1[0-8]|2[1-3])[0-5]\d[ \t]{0,2}(?:-|–|to|until|till)[ \t]{0,2}$")
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



def _halves(m: re.Match[str]) -> list[ParsedDate | None]:
    """The two dates of a range match (groups ``first`` and ``second``), read by the date reader."""
    return [read_text(m.string, m.start(g), m.end(g)) for g in ("first", "second")]


def _either_order(p: ParsedDate | None) -> bool:
    """True when a numeric date is valid read month first or day first (year not checked)."""
    return p is not None and (valid_date(p.month, p.day) or valid_date(p.day, p.month))

