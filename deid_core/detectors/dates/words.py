"""The DATE rules for dates written with a month's or a weekday's name, and holidays. Month
words that are also ordinary words or clinical abbreviations (``may``, ``march``, ``MAR``,
``OCT``: the ``ambiguous_month`` entries of ``lists/date_context_words.txt``) count in lower case
only with a year, an ordinal ``of`` or date context, and never alone. Each rule is declared above
its validator."""
from __future__ import annotations

import re

from ...calendars import valid_date
from ...datereader import read_match
from ...rules import Rule
from ...spans import CERTAIN, REVIEW
from ..patterns import Hit, Verdict
from ..patterns import just_before
from .shapes import (_AMBIGUOUS_MONTHS, _AMBIGUOUS_WEEKDAYS, _MONTH_CONTEXT, _WEEKDAY_BEFORE, _MONTH_PAIR_AFTER,
                     _MONTH_PAIR_BEFORE, _VALUE_BEFORE_MONTH, _in_context, _month_end, _month_ok, _units_follow, _with_weekday)

_D = ("DATE",)
_CONTEXT = "date_context_words.txt"


MONTH_NAME_DAY = Rule("dates:month_name_day", _D, (CERTAIN,),
                      "a month name and a day (March 5th, Tue, Mar. 5)", reads=(_CONTEXT, "units.txt"))
MONTH_NAME_DAY_YEAR = Rule("dates:month_name_day_year", _D, (CERTAIN,),
                           "a month name, a day and a year (March 5th, 2014)", reads=(_CONTEXT,))


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
               rule=MONTH_NAME_DAY_YEAR if has_year else MONTH_NAME_DAY)


DAY_MONTH_NAME = Rule("dates:day_month_name", _D, (CERTAIN,),
                      "a day and a month name (5 March, the 12th of March)", reads=(_CONTEXT,))
DAY_MONTH_NAME_YEAR = Rule("dates:day_month_name_year", _D, (CERTAIN,),
                           "a day, a month name and a year (5 March 2014, 05-MAR-2014)",
                           reads=(_CONTEXT,))


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
               rule=DAY_MONTH_NAME_YEAR if has_year else DAY_MONTH_NAME)


MONTH_NAME_YEAR = Rule("dates:month_name_year", _D, (CERTAIN,),
                       "a month name and a year (Jan 2019, March of 2019, Sept '19)",
                       reads=(_CONTEXT,))


def _month_name_year(m: re.Match[str]) -> Verdict:
    return _month_ok(m["mon"], True, m.string, m.start())


HOLIDAY = Rule("dates:holiday", _D, (CERTAIN, REVIEW), "a holiday",
               amber="a holiday written in lower case and without a year may not date an event",
               list="holidays.tsv")


def _holiday(m: re.Match[str]) -> Verdict:
    return CERTAIN if (m["h"][0].isupper() or m["year"]) else REVIEW


MONTH_ALONE = Rule("dates:month_alone", _D, (CERTAIN, REVIEW),
                   "a month name on its own (in June, mid-March, Jan/Feb, A1c 7.2 Oct)",
                   amber="a month on its own may be an ordinary word (May, March)", reads=(_CONTEXT,))


def _month_alone(m: re.Match[str]) -> Verdict:
    text, pos, word = m.string, m.start(), m["mon"]
    if word.isupper() and len(word.rstrip(".")) == 3 and word.lower() in _AMBIGUOUS_MONTHS:
        return None                                    # "THIS MAY BE", "INC RR AND DEC FIO2"
    if _in_context(text, pos, _MONTH_CONTEXT) or just_before(text, pos, _MONTH_PAIR_BEFORE, 16) \
            or (word[0].isupper() and _MONTH_PAIR_AFTER.match(text, m.end())) \
            or (word[0].isupper() and just_before(text, pos, _VALUE_BEFORE_MONTH, 10)):
        if word[0].isupper() or word.lower() not in _AMBIGUOUS_MONTHS:
            return Hit(m.start(), _month_end(m, m.end()), CERTAIN)
        return None
    if len(word) > 3 and word[0].isupper() and word[1:].islower() and word not in ("May", "March", "Sept"):
        return Hit(m.start(), _month_end(m, m.end()), REVIEW)
    return None



WEEKDAY = Rule("dates:weekday", _D, (CERTAIN,), "a weekday")
WEEKDAY_ABBR = Rule("dates:weekday_abbr", _D, (REVIEW,),
                    "a weekday abbreviation (Fri, thurs, TUES; mon, sat only after on, next, by)",
                    amber="an abbreviation is weaker evidence than the weekday's name, and a weekday "
                          "alone may not date an event", reads=(_CONTEXT,))

#: A number or percent after a weekday abbreviation (``sat 92%``, ``Mon 2``): not a weekday.
_NUMBER_AFTER = re.compile(r"[ \t]{0,2}[\d%]|['’]s")


def _weekday_abbr(m: re.Match[str]) -> Verdict:
    """``Fri``, ``thurs``, ``TUES``: a weekday; ``mon``, ``sat``, ``sun``, ``wed`` (the
    ``ambiguous_weekday`` words: monitor, saturation) only right after a ``weekday_before``
    word (``on Sat``, ``next mon``), never before a number or ``'s`` (``sat 92%``, ``sat's``)."""
    text = m.string
    if _NUMBER_AFTER.match(text, m.end()):
        return None
    if m.group().rstrip(".").lower() in _AMBIGUOUS_WEEKDAYS and not _in_context(
            text, m.start(), _WEEKDAY_BEFORE):
        return None
    end = m.end() - 1 if m.group().endswith(".") else m.end()
    return Hit(m.start(), end, REVIEW)
