"""The DATE rules for dates written in digits: ISO 8601, numeric dates with a year, ranges,
month and year, compact dates after a label, month/day pairs and a month with a two-digit year.
Each rule is declared above its validator (``f(match) -> Verdict``, see
:class:`~deid_core.detectors.patterns.Pattern`)."""
from __future__ import annotations

import re

from ...calendars import valid_date
from ...datereader import ParsedDate, read_match, read_text
from ...rules import Rule
from ...spans import CERTAIN, REVIEW
from ..patterns import Hit, Verdict, clear_before, just_before, line_before

#: Denominators of the fractions a mixed number is written with (``2 1/2``, ``1 3/4``, ``5 4/5``).
_MIXED_DEN = frozenset({2, 3, 4, 5, 6, 8, 10, 16})
from .shapes import (_CLOCK_OR_DECIMAL_BEFORE, _COMMON_FRACTION_DEN, _COMPACT_BEFORE, _COUNT_BEFORE,
                     _DATE_CONTEXT, _DURATION_BEFORE, _ORDINAL_AFTER, _ORDINAL_BEFORE, _VENT_MODE, _VENT_MODE_AFTER, _WHOLE_BEFORE, _GAS_AFTER, _HISTORY_CONTEXT, _MERIDIEM_AFTER, _NOT_DATE_AFTER,
                     _NOT_DATE_BEFORE, _NOT_DATE_NEAR_AFTER, _NOT_DATE_NEAR_BEFORE, _NUMBER_END,
                     _PERCENT_AFTER, _SCORE_ON_LINE, _TIME_AFTER, _either_order, _halves, _in_context,
                     _units_follow, _with_weekday, _word_start)

_D = ("DATE",)
_CONTEXT = "date_context_words.txt"

NUMERIC_RANGE = Rule(
    "dates:numeric_range", _D, (CERTAIN,),
    "two numeric dates written as a range (10/27/2020-10/28/2020), one span each")


def _numeric_range(m: re.Match[str]) -> Verdict:
    if clear_before(m.string, m.start(), ".-/:") and all(_either_order(p) for p in _halves(m)):
        return [Hit(m.start(g), m.end(g)) for g in ("first", "second")]
    return None


ISO = Rule("dates:iso", _D, (CERTAIN,),
           "an ISO 8601 date (2014-03-05), with a time glued to it by T")


def _iso(m: re.Match[str]) -> Verdict:
    p = read_match(m)
    return valid_date(p.month, p.day)


def _past_month_end(p: ParsedDate | None) -> bool:
    """``2/31/14``, ``4/31/2019``: a month 1-12 and a day of 29-31 that the month lacks, in a
    date with a year: a slip of the pen or a shifted date, still a date (issue 8)."""
    return p is not None and p.day is not None and 1 <= p.month <= 12 and 29 <= p.day <= 31


NUMERIC_MDY = Rule(
    "dates:numeric_mdy", _D, (CERTAIN, REVIEW),
    "a numeric date with a year (03/05/2014, 3-5-14, 3.5.2014), with a weekday before it",
    amber="a dotted number with a two-digit year and no date word before it may be a version "
          "or a lab value (3.5.14)",
    reads=(_CONTEXT,))


def _numeric_mdy(m: re.Match[str]) -> Verdict:
    """Month/day or day/month, validated; vent settings (``PS 10/5/40%``) give nothing; a
    dotted date with a two-digit year is review unless in date context."""
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


NUMERIC_MONTH_YEAR = Rule(
    "dates:numeric_month_year", _D, (CERTAIN,),
    "a month and a four-digit year in digits (03/2014, 2014-03)", reads=("units.txt",))


def _numeric_month_year(m: re.Match[str]) -> Verdict:
    if m["y2"] and not _word_start(m.string, m.start()):
        return None
    p = read_text(m.string, m.start(), m.end())           # "03/2014", "2014-03"
    return p is not None and valid_date(p.month) and not _units_follow(m.string, m.end())


COMPACT = Rule("dates:compact", _D, (CERTAIN,),
               "eight digits read as a date after a birth or date label (DOB 19500302)",
               reads=(_CONTEXT,))


def _compact(m: re.Match[str]) -> Verdict:
    if not just_before(m.string, m.start(), _COMPACT_BEFORE, 20):
        return False
    p = read_match(m)
    return valid_date(p.month, p.day, p.year)


MONTH_DAY = Rule(
    "dates:month_day", _D, (CERTAIN, REVIEW), "a month/day number pair",
    amber="a number pair may be a ratio, a score or a setting rather than a date",
    reads=(_CONTEXT, "units.txt"))


def _month_day(m: re.Match[str]) -> Verdict:
    """``3/4``: certain in date context (``seen 3/4``, ``on\\n9/15``, ``Fri 11/10``, ``5/6
    14:30``, after a clock time or a decimal lab value) or when not fraction-shaped (a
    denominator of 15 or more under a numerator of 3 or more, ``11/17``, unless a score word is
    on the line); review when it could be a fraction or a score; nothing after score words
    (``GCS 3/15``), before fraction words (``3/4 strength``), after a whole number, as a
    duration (``for 3/7``) or near vent words (``PS 10/5``, ``CPAP 5/5 40%``)."""
    text = m.string
    p = read_match(m)
    mo, d = p.month, p.day
    if not valid_date(mo, d):
        return None
    if not _slash_start_ok(text, m.start()):
        return None
    weekday = _with_weekday(text, m.start())
    if weekday != m.start():
        return Hit(weekday, m.end(), CERTAIN)          # "TUE 10/29 DAYS": a weekday dates it
    before = line_before(text, m.start(), 30)
    meridiem = _MERIDIEM_AFTER.match(text, m.end()) is not None \
        and not (d in _COMMON_FRACTION_DEN and mo < d)
    if meridiem:
        before = _NUMBER_END.sub("", before)   # "FROM 30 3/9 AM": the lab value before it
    clock = _CLOCK_OR_DECIMAL_BEFORE.search(before)
    vent_shaped = d in (5, 10) and d <= mo <= 25
    fraction = d in _MIXED_DEN and mo <= d          # "2 1/2", "5 4/5": a mixed number
    guard = before if clock is None else before[:clock.start()]
    if _slash_guarded(guard, text, m.end(), vent_shaped=vent_shaped, fraction=fraction):
        return None
    dated = _DATE_CONTEXT.search(before) is not None
    if vent_shaped and not dated and _vent_near(text, m.start(), m.end()):
        return None                                    # "weaned to 12/5 on PS": a setting
    if d in (7, 12) and _DURATION_BEFORE.search(before):
        return None                                    # "for 3/7": three days
    if clock is None and _WHOLE_BEFORE.search(before):
        # "X 2 6/19", "x1 5/3": a count, then the date; another number before: review
        if dated or _COUNT_BEFORE.search(before):
            return Hit(m.start(), m.end(), CERTAIN)
        if _SCORE_ON_LINE.search(before):
            return None                                # "GCS E3 V2 M2 7/15": the total
        return Hit(m.start(), m.end(), REVIEW)
    if dated or _TIME_AFTER.match(text, m.end()) or clock is not None or meridiem:
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


def _vent_near(text: str, start: int, end: int) -> bool:
    """A ventilator mode or setting word (``vent_mode`` words) in the 120 characters before
    ``start`` (a few lines: ``PS 10/5 ... changed to 8/5``) or just after ``end`` (``12/5 on PS``)."""
    return bool(_VENT_MODE_AFTER.match(text, end)
                or _VENT_MODE.search(text[max(0, start - 120):start].lower()))


def _slash_guarded(before: str, text: str, end: int, vent_shaped: bool = False,
                   fraction: bool = True) -> bool:
    """True when what surrounds ``a/b`` makes it a score, a vent setting, a fraction or a dose.
    A date word just before (``on 9/14``) outweighs a vent word further back, unless the value
    is ``vent_shaped`` (``on 5/5``, ``12/5``: pressure support over PEEP). A whole number just
    before makes a mixed number only of a ``fraction``-shaped pair (``2 1/2``, not ``X 2 6/19``)."""
    if _NOT_DATE_BEFORE.search(before) or _NOT_DATE_AFTER.match(text, end):
        return True
    if fraction and _WHOLE_BEFORE.search(before):
        return True
    if vent_shaped and _GAS_AFTER.match(text, end):
        return True                                    # "on 5/5 ABG 7.41/38": the setting of a gas
    return bool(_NOT_DATE_NEAR_AFTER.match(text, end)
                or (_NOT_DATE_NEAR_BEFORE.search(before)
                    and (vent_shaped or not _DATE_CONTEXT.search(before))))


MONTH_DAY_RANGE = Rule(
    "dates:month_day_range", _D, (CERTAIN,),
    "two month/day pairs written as a range (9/12-9/14) or run together (10/02/10/03)",
    reads=(_CONTEXT,))


def _slash_range(m: re.Match[str]) -> Verdict:
    text = m.string
    parts = [(p.month, p.day) if p is not None else (0, 0) for p in _halves(m)]
    same_month_on = parts[0][0] == parts[1][0] and parts[1][1] > parts[0][1]
    if not all(valid_date(a, b) for a, b in parts) or (not same_month_on and all(
            b in _COMMON_FRACTION_DEN and a < b for a, b in parts)):
        return None                                    # "1/3-1/2": a fraction range, smaller first
    # ("1/15-1/20", "2/3-2/4": one month, the day going on; as fractions it would shrink)
    if _slash_guarded(line_before(text, m.start(), 30), text, m.end(), fraction=not same_month_on):
        return None
    if m.string[m.end("first")] == "/":
        return Hit(m.start(), m.end())                 # 10/02/10/03: written as one
    return [Hit(m.start(g), m.end(g)) for g in ("first", "second")]


MONTH_YEAR2 = Rule(
    "dates:month_year2", _D, (CERTAIN, REVIEW),
    "a month and a two-digit year that cannot be a day (ECHO 3/91, fx4/97)",
    amber="without a date or history word before it the pair may be a ratio or a score",
    reads=("history_words.txt", _CONTEXT))


def _month_yy(m: re.Match[str]) -> Verdict:
    """Certain in date or history context (or glued to a word there), else review."""
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


ORDINAL_DAY = Rule(
    "dates:ordinal_day", _D, (CERTAIN,),
    "an ordinal day of the month after on the, by the, since the or a weekday (on the 23rd)",
    reads=(_CONTEXT,))


def _ordinal_day(m: re.Match[str]) -> Verdict:
    """``on the 23rd``, ``sent on the 9th.``, ``Tuesday the 4th``: a day 1-31 after the
    ``ordinal_before`` words and ``the``, before punctuation, the line's end or an
    ``ordinal_after`` word; nothing before a noun (``on the 5th floor``, ``the 5th metatarsal``)."""
    text = m.string
    if not 1 <= int(m["d"]) <= 31 or not _ORDINAL_AFTER.match(text, m.end()):
        return None
    return _ORDINAL_BEFORE.search(line_before(text, m.start(), 30)) is not None
