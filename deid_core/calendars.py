"""The calendar every date reader shares: months, weekdays, holidays, Easter, valid dates and
the two-digit-year rule.

Standard library only. The names of months and weekdays live here (their one home); the
holidays live in ``lists/holidays.tsv`` (hand-written: name and the rule that dates it) and are
read once. Callers that need a regex of month or holiday names build it from these tables.
"""
from __future__ import annotations

import datetime as _dt
import re
from functools import lru_cache

from . import lists

__all__ = ["MONTHS", "WEEKDAYS", "MONTH_REGEX", "MONTH_NUMBERS", "WEEKDAY_NUMBERS", "month_number",
           "weekday_number", "valid_date", "real_date", "expand_year", "easter",
           "holiday_names", "holiday_regex", "holiday_date", "holiday_anchors"]

#: Full English month names, January first.
MONTHS: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july",
                           "august", "september", "october", "november", "december")
#: Full English weekday names, Monday first (``datetime.date.weekday()`` order).
WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday",
                             "saturday", "sunday")
#: Lower-case month abbreviation (three letters, and ``sept``) -> month number 1-12.
MONTH_NUMBERS: dict[str, int] = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}
#: Lower-case weekday abbreviation (three letters, ``tues``, ``thur``, ``thurs``) -> 0-6.
WEEKDAY_NUMBERS: dict[str, int] = ({w[:3]: i for i, w in enumerate(WEEKDAYS)}
                                   | {"tues": 1, "thur": 3, "thurs": 3})

#: Regex source (no groups, no flags) of a month name or its abbreviation (``jan``, ``sept``,
#: ``september``); the date readers wrap it in their own groups and boundaries.
MONTH_REGEX = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
               r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")

_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def month_number(word: str) -> int | None:
    """Month number 1-12 of an English month name or abbreviation (``"Sept."`` -> 9), else None.

    Only the first three letters count (``"Marchx"`` -> 3); callers match whole words first.
    """
    return MONTH_NUMBERS.get(word.strip(". ").lower()[:3])


def weekday_number(word: str) -> int | None:
    """0 (Monday) to 6 (Sunday) for a weekday name or abbreviation (``"Thurs"`` -> 3), else None."""
    w = word.strip(". ").lower()
    return WEEKDAY_NUMBERS.get(w, WEEKDAY_NUMBERS.get(w[:3]))


def valid_date(month: int, day: int | None = None, year: int | None = None) -> bool:
    """True when ``month`` is 1-12, ``day`` (if given) exists in that month (29 February is
    accepted for any year, since two-digit years hide leap years) and ``year`` (if given with
    more than two digits) is 1900-2099. The detectors' test: a plausible date in a note."""
    if not 1 <= month <= 12:
        return False
    if day is not None and not 1 <= day <= _DAYS_IN_MONTH[month - 1]:
        return False
    if year is not None and year >= 100 and not 1900 <= year <= 2099:
        return False
    return True


def real_date(year: int | None, month: int | None, day: int | None, leap_year: int = 2000) -> bool:
    """True when the fields name a day that exists: month 1-12, a day in that month of
    ``year`` (of ``leap_year`` when the year is unknown), a day alone 1-31, year 1-9998.
    The date shift's test: a date it can compute with."""
    if month is not None and not 1 <= month <= 12:
        return False
    if day is not None:
        if month is None:
            return 1 <= day <= 31
        try:
            _dt.date(year if year is not None else leap_year, month, day)
        except ValueError:
            return False
    return year is None or 1 <= year <= 9998


def expand_year(digits: str, pivot: int) -> int:
    """A written year as four digits: two digits ``yy`` below ``pivot`` are ``20yy``, the
    others ``19yy`` (``expand_year("49", 50) == 2049``); longer years are returned as written.

    Each caller passes its own ``pivot`` (the date shift 50, known identifiers 31)."""
    y = int(digits)
    if len(digits) == 2:
        return 2000 + y if y < pivot else 1900 + y
    return y


def easter(year: int) -> _dt.date:
    """Gregorian Easter Sunday of ``year`` (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month = (h + l - 7 * m + 114) // 31
    day = (h + l - 7 * m + 114) % 31 + 1
    return _dt.date(year, month, day)


def _key(name: str) -> str:
    """Comparison key of a holiday name: lower case, ``.`` as space, only letters, digits,
    spaces and hyphens, single-spaced (``"St. Patrick's  Day"`` -> ``"st patricks day"``)."""
    key = re.sub(r"[^a-z0-9 \-]", "", " ".join(name.lower().replace(".", " ").split()))
    return " ".join(key.split())


@lru_cache(maxsize=None)
def _rules() -> dict[str, tuple[str, tuple[int, ...]]]:
    """Holiday key -> (rule kind, numbers) from ``lists/holidays.tsv``."""
    out = {}
    for name, rule in lists.holidays():
        kind, *nums = rule.split()
        out[_key(name)] = (kind, tuple(int(n) for n in nums))
    return out


def holiday_names(dated_only: bool = False) -> tuple[str, ...]:
    """Holiday names as listed (lower case, ``'`` and ``.`` where they may be written);
    ``dated_only`` leaves out those without a rule (Hanukkah, Ramadan)."""
    return tuple(name for name, rule in lists.holidays() if not (dated_only and rule == "none"))


@lru_cache(maxsize=None)
def holiday_regex(space: str = r"[ \t]", dated_only: bool = False) -> str:
    """A regex source matching any holiday name: ``space`` between words, apostrophes straight,
    curly or absent, ``.`` and ``-`` optional; longest names first. No groups, no flags:
    callers compile it case-insensitively inside their own pattern."""
    alts = []
    for name in sorted(holiday_names(dated_only), key=len, reverse=True):
        piece = []
        for ch in name:
            if ch == " ":
                piece.append(space)
            elif ch == "'":
                piece.append("['’]?")
            elif ch in ".-":
                piece.append(re.escape(ch) + "?")
            else:
                piece.append(re.escape(ch))
        alts.append("".join(piece))
    return "(?:" + "|".join(alts) + ")"


def holiday_anchors() -> frozenset[str]:
    """Lower-case first three characters of the first word token of each holiday name
    (``"st. patrick's day"`` -> ``"st"``, ``"x-mas"`` -> ``"x-m"``)."""
    out = set()
    for name in holiday_names():
        m = re.match(r"[^\W_]+(?:['’\-][^\W_]+)*", name)
        out.add(m.group()[:3])
    return frozenset(out)


def holiday_date(name: str, year: int) -> _dt.date | None:
    """The date of the holiday called ``name`` (any case, as :func:`holiday_regex` matches it)
    in ``year``; ``None`` for a name with no rule (Hanukkah) or not listed."""
    key = _key(name)
    rules = _rules()
    rule = rules.get(key)
    if rule is None:   # longest listed name that starts the key
        best = max((k for k in rules if key.startswith(k)), key=len, default=None)
        rule = rules.get(best) if best else None
    if rule is None or rule[0] == "none":
        return None
    kind, nums = rule
    if kind == "easter":
        return easter(year) + _dt.timedelta(days=nums[0])
    if kind == "fixed":
        return _dt.date(year, nums[0], nums[1])
    month, weekday, nth = nums
    if nth > 0:
        first = _dt.date(year, month, 1)
        return first + _dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    last = _dt.date(year + (month == 12), month % 12 + 1, 1) - _dt.timedelta(days=1)
    return last - _dt.timedelta(days=(last.weekday() - weekday) % 7)
