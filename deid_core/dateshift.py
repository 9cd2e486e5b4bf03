"""Date parsing, shifting and re-formatting in the note's own format.

:func:`shift_date_text` moves the date written in a DATE span by a number of days and writes
it back in the same layout: only the day, month, year and weekday characters change; every
separator, comma, ``of``, time of day and time-zone offset stays as written.

Formats read (case-insensitive): ``03/05/2014``, ``3/5/14``, ``3-5-2014``, ``3.5.2014``,
``2014-03-05`` (also followed by a time and offset, ``2014-03-05T14:30:00-05:00``),
``20140305``, ``March 5th, 2014``, ``Mar. 5``, ``Mar-05-2014``, ``5 March 2014``,
``05-Mar-14``, ``12th of March``, ``Jan-2019``, ``March of 2019``, ``03/2014``, ``2014-03``,
``3/4``, ``March``, ``2019``, ``'98``, ``the 13th``, a weekday alone or with any of these
(``Monday, March 5, 2014``, ``Tues 3/4``).

How each kind moves by ``offset`` days (documented rule, see :func:`shift_date_text`):

* day, month and year known: the calendar date plus ``offset`` (leap days handled by
  :mod:`datetime`); so intervals between such dates survive exactly.
* day and month, no year: the date in ``context_year`` (or the leap year 2000 when none is given
  or the date does not exist in it) plus ``offset``; the year stays unwritten.
* month and year: the 15th of that month plus ``offset``.
* month alone: the 15th of that month (in the context year) plus ``offset``; if that lands in
  the same month (only for offsets near a whole year) the month moves one in the offset's
  direction.
* year alone: one year in the offset's direction. A bare year is not a Safe Harbor identifier,
  but i2b2 marks it; moving it by the sign keeps the order and gaps between bare years and never
  leaves it unchanged.
* day of the month alone (``the 13th``): ``(day - 1 + offset) mod 31 + 1`` (one up if that
  leaves it unchanged); no calendar is known, so this only hides the day.
* weekday alone: ``(weekday + offset) mod 7`` (true in every calendar); with a full date the
  weekday of the new date.
* two-digit years: ``00``-``49`` are read as 20xx, ``50``-``99`` as 19xx, and written back as
  two digits.
* a holiday (``Christmas 2019``, ``Thanksgiving``, ``Memorial Day``, ``Easter``) is read as its
  date in its year (or the context year) and written as the shifted ``Month D[, YYYY]`` in the
  holiday name's letter case; a holiday without a fixed rule (Hanukkah, Ramadan) keeps its name
  and its year moves like a bare year.
* a numeric date is read month first (``03/05`` is March 5); day first only when the first
  number cannot be a month (``25/12/2014``).

Unparseable text gives ``None``; the surrogate writer then uses :func:`fake_date`.
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field

__all__ = ["ParsedDate", "parse_date", "shift_date_text", "fake_date", "format_like_case",
           "MONTHS", "WEEKDAYS"]

MONTHS: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july",
                           "august", "september", "october", "november", "december")
WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday",
                             "saturday", "sunday")
_MONTH_ABBR: dict[str, int] = {m[:3]: i + 1 for i, m in enumerate(MONTHS)}
_MONTH_ABBR["sept"] = 9
_WEEKDAY_ABBR: dict[str, int] = {w[:3]: i for i, w in enumerate(WEEKDAYS)}
_WEEKDAY_ABBR.update({"tues": 1, "thur": 3, "thurs": 3})

_MON = (r"(?<![^\W\d_])(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
        r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![^\W\d_])\.?")
_WD = re.compile(r"(?<![^\W\d_])(?P<wd>mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|"
                 r"thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)(?![^\W\d_])",
                 re.I)
_SUF = r"(?P<suf>st|nd|rd|th)?"
_YEAR_SEP = r"(?:,?\s+of\s+|,\s*'?|\s*[-/.]\s*'?|\s+'?|')"

#: (name, regex) tried in order; the first that matches decides the fields. Named groups:
#: y (year), m (numeric month), mon (month name), d (day), suf (ordinal suffix).
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(rx, re.I)) for name, rx in (
    ("iso", r"(?<!\d)(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?!\d)"),
    ("compact", r"^(?P<y>(?:1[89]|20)\d\d)(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])(?!\d)"),
    ("mdy", r"(?<![\d.])(?P<m>\d{1,2})(?P<s>[-/.])(?P<d>\d{1,2})(?P=s)(?P<y>\d{4}|\d{2})(?![\d:])"),
    ("day_month", r"(?<![\d.])(?P<d>\d{1,2})" + _SUF + r"(?:\s+of\s+(?:the\s+)?|\s*[-/.]\s*|\s+)" + _MON
     + r"(?:" + _YEAR_SEP + r"(?P<y>\d{4}|\d{2})(?![\d:]))?"),
    ("month_day", _MON + r"(?:\s*[-/.]\s*|\s+(?:the\s+)?)(?P<d>\d{1,2})" + _SUF + r"(?![\d:])"
     + r"(?:(?:,\s*'?|\s*[-/.]\s*'?|\s+'?)(?P<y>\d{4}|\d{2})(?![\d:]))?"),
    ("month_year", _MON + _YEAR_SEP + r"(?P<y>\d{4}|\d{2})(?![\d:])"),
    ("numeric_month_year", r"(?<![\d.])(?P<m>\d{1,2})(?P<s>[-/.])(?P<y>\d{4})(?!\d)"),
    ("iso_month", r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})(?![\d\-])"),
    ("month_day_numeric", r"(?<![\d.])(?P<m>\d{1,2})[/-](?P<d>\d{1,2})(?![\d/\-])"),
    ("month", _MON),
    ("year", r"(?<!\d)(?P<y>(?:1[6-9]|2\d)\d\d)(?!\d)"),
    ("year_apostrophe", r"['’](?P<y>\d\d)(?!\d)"),
    ("day", r"(?<![\d.])(?P<d>\d{1,2})(?P<suf>st|nd|rd|th)(?![^\W\d_])"),
))

#: The leap year used for a date written without its year when no context year fits.
REFERENCE_YEAR = 2000


def format_like_case(new: str, like: str) -> str:
    """``new`` in the letter case of ``like``: ALL CAPS, all lower, or capitalised."""
    letters = [c for c in like if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 1:
        return new.upper()
    if letters and all(c.islower() for c in letters):
        return new.lower()
    return new[:1].upper() + new[1:].lower()


@dataclass
class ParsedDate:
    """What :func:`parse_date` read from a text.

    Attributes:
        pattern: the name of the pattern that matched (``"mdy"``, ``"month_day"``, ...;
            ``"weekday"`` when only a weekday was found).
        year, month, day: the values read, ``None`` where the text does not give them
            (``year`` is four-digit, two-digit years already expanded).
        weekday: 0 = Monday ... 6 = Sunday, or ``None``.
        fields: field name (``y``, ``m``, ``mon``, ``d``, ``suf``, ``wd``) -> ``(start, end)``
            character offsets of that field in the text.
        end: offset just past the date's text (where the next date may start).
    """

    pattern: str
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    fields: dict[str, tuple[int, int]] = field(default_factory=dict)
    end: int = 0


def _expand_year(digits: str) -> int:
    y = int(digits)
    if len(digits) == 2:
        return 2000 + y if y < 50 else 1900 + y
    return y


def _valid(y: int | None, m: int | None, d: int | None) -> bool:
    if m is not None and not 1 <= m <= 12:
        return False
    if d is not None:
        if m is None:
            return 1 <= d <= 31
        try:
            _dt.date(y if y is not None else REFERENCE_YEAR, m, d)
        except ValueError:
            return False
    if y is not None and not 1 <= y <= 9998:
        return False
    return True


def _leftmost(text: str, pos: int) -> tuple[str, re.Match[str]] | None:
    """The pattern match starting first at or after ``pos``; ties go to the earlier pattern."""
    best: tuple[int, int, str, re.Match[str]] | None = None
    for rank, (name, rx) in enumerate(_PATTERNS):
        m = rx.search(text, pos)
        if m and (best is None or (m.start(), rank) < best[:2]):
            best = (m.start(), rank, name, m)
    return None if best is None else (best[2], best[3])


def parse_date(text: str, pos: int = 0) -> ParsedDate | None:
    """Read the first date in ``text`` at or after ``pos`` (formats: the module docstring).

    A weekday is taken as part of the date when it comes before it or right after it
    (``Monday, March 5``; ``3/5/14 (Wed)``).

    Returns:
        A :class:`ParsedDate` (its ``end`` is where the date's text ends), or ``None`` when no
        format matches or the values are impossible (``02/30/2014``, ``13/13/2014``).
    """
    wd = _WD.search(text, pos)
    found = _leftmost(text, pos)
    if found is None:
        if wd is None:
            return None
        return ParsedDate("weekday", weekday=_WEEKDAY_ABBR[_wd_key(wd.group("wd"))],
                          fields={"wd": wd.span("wd")}, end=wd.end())
    name, m = found
    groups = m.groupdict()
    fields = {k: m.span(k) for k, v in groups.items()
              if v is not None and k in ("y", "m", "mon", "d", "suf")}
    year = _expand_year(groups["y"]) if groups.get("y") else None
    month = None
    if groups.get("m"):
        month = int(groups["m"])
    elif groups.get("mon"):
        month = _MONTH_ABBR[groups["mon"].lower()[:3]]
    day = int(groups["d"]) if groups.get("d") else None
    if name == "mdy" and month is not None and day is not None and month > 12 and day <= 12:
        month, day = day, month
        fields["m"], fields["d"] = fields["d"], fields["m"]
    if not _valid(year, month, day):
        return None
    parsed = ParsedDate(name, year, month, day, fields=fields, end=m.end())
    if wd and (wd.end() <= m.start()
               or (wd.start() >= m.end() and not text[m.end():wd.start()].strip(" ,(")
                   and wd.start() - m.end() <= 3)):
        parsed.weekday = _WEEKDAY_ABBR[_wd_key(wd.group("wd"))]
        parsed.fields["wd"] = wd.span("wd")
        parsed.end = max(parsed.end, wd.end())
    return parsed


def _wd_key(word: str) -> str:
    w = word.lower()
    return w if w in _WEEKDAY_ABBR else w[:3]


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


#: Patterns written all in digits, where a two-digit field means zero-padding.
_NUMERIC = frozenset({"iso", "compact", "mdy", "numeric_month_year", "iso_month", "month_day_numeric"})


def _num(value: int, like: str, padded: bool) -> str:
    """``value`` zero-padded to two digits when the original field was (``like`` starts with
    ``0``, or ``padded``: a numeric date whose day and month fields are both two digits)."""
    return f"{value:02d}" if like.startswith("0") or (padded and len(like) == 2) else str(value)


def _month_name(month: int, like: str) -> str:
    full = MONTHS[month - 1]
    low = like.lower()
    if low in MONTHS:  # a full name ("May" counts as one)
        new = full
    elif low == "sept":
        new = "sept" if month == 9 else full[:3]
    else:
        new = full[:3]
    return format_like_case(new, like)


def _weekday_name(weekday: int, like: str) -> str:
    full = WEEKDAYS[weekday]
    low = like.lower()
    if low in WEEKDAYS:
        new = full
    elif len(low) > 3:  # Tues, Thur, Thurs
        new = {1: "tues", 3: "thurs"}.get(weekday, full[:3])
    else:
        new = full[:3]
    return format_like_case(new, like)


def _context_date(year: int | None, month: int, day: int) -> _dt.date:
    for y in (year, REFERENCE_YEAR):
        if y is None:
            continue
        try:
            return _dt.date(y, month, day)
        except ValueError:
            continue
    return _dt.date(REFERENCE_YEAR, month, day)


def _add_days(d: _dt.date, offset: int) -> _dt.date | None:
    try:
        return d + _dt.timedelta(days=offset)
    except OverflowError:
        return None


_HOLIDAY = re.compile(
    r"(?<![^\W\d_])(?P<h>christmas(?:\s+eve)?|x-?mas|new\s+year['’]?s(?:\s+(?:day|eve))?|thanksgiving|"
    r"easter|good\s+friday|halloween|memorial\s+day|labou?r\s+day|independence\s+day|"
    r"fourth\s+of\s+july|july\s+4th|veterans['’]?\s+day|valentine['’]?s\s+day|mother['’]?s\s+day|"
    r"father['’]?s\s+day|(?:martin\s+luther\s+king|mlk)\s+(?:jr\.?\s+)?day|presidents['’]?\s+day|"
    r"columbus\s+day|st\.?\s+patrick['’]?s\s+day|juneteenth|boxing\s+day)"
    r"(?:[ \t,]{1,3}(?:of\s+)?(?P<y>(?:1[6-9]|2\d)\d\d))?(?![^\W\d_])", re.I)
#: Fixed-date holidays: first word(s) of the normalised name -> (month, day).
_FIXED_HOLIDAYS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("christmas eve", (12, 24)), ("christmas", (12, 25)), ("xmas", (12, 25)), ("x-mas", (12, 25)),
    ("new years eve", (12, 31)), ("new years", (1, 1)), ("halloween", (10, 31)),
    ("independence", (7, 4)), ("fourth of july", (7, 4)), ("july 4th", (7, 4)),
    ("veterans", (11, 11)), ("valentines", (2, 14)), ("juneteenth", (6, 19)),
    ("st patricks", (3, 17)), ("boxing", (12, 26)),
)
#: Floating holidays: name -> (month, weekday 0=Mon, n-th; -1 = last).
_FLOATING_HOLIDAYS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("thanksgiving", (11, 3, 4)), ("memorial", (5, 0, -1)), ("labor", (9, 0, 1)),
    ("labour", (9, 0, 1)), ("martin luther king", (1, 0, 3)), ("mlk", (1, 0, 3)),
    ("presidents", (2, 0, 3)), ("columbus", (10, 0, 2)), ("mothers", (5, 6, 2)),
    ("fathers", (6, 6, 3)),
)


def _easter(year: int) -> _dt.date:
    """Gregorian Easter Sunday (the anonymous Gregorian algorithm)."""
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


def holiday_date(name: str, year: int) -> _dt.date | None:
    """The date of a U.S. holiday named ``name`` (as :data:`_HOLIDAY` reads it) in ``year``;
    ``None`` for a name not in the tables."""
    key = re.sub(r"[^a-z0-9 \-]", "", " ".join(name.lower().replace(".", " ").split()))
    key = " ".join(key.split())
    if key.startswith("easter"):
        return _easter(year)
    if key.startswith("good friday"):
        return _easter(year) - _dt.timedelta(days=2)
    for prefix, (month, day) in _FIXED_HOLIDAYS:
        if key.startswith(prefix):
            return _dt.date(year, month, day)
    for prefix, (month, weekday, nth) in _FLOATING_HOLIDAYS:
        if key.startswith(prefix):
            if nth > 0:
                first = _dt.date(year, month, 1)
                return first + _dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
            last = _dt.date(year + (month == 12), month % 12 + 1, 1) - _dt.timedelta(days=1)
            return last - _dt.timedelta(days=(last.weekday() - weekday) % 7)
    return None


def _shift_holiday(text: str, offset: int, context_year: int | None) -> str | None:
    m = _HOLIDAY.search(text)
    if not m:
        return None
    year = int(m.group("y")) if m.group("y") else (context_year or REFERENCE_YEAR)
    day = holiday_date(m.group("h"), year)
    new = _add_days(day, offset) if day else None
    if new is None:
        return None
    written = f"{MONTHS[new.month - 1]} {new.day}"
    if m.group("y"):
        written += f", {new.year}"
    return text[:m.start()] + format_like_case(written, m.group("h")) + text[m.end():]


def shift_date_text(text: str, offset: int, context_year: int | None = None) -> str | None:
    """Move the date written in ``text`` by ``offset`` days, keeping its layout.

    Args:
        text: the characters of a DATE span, e.g. ``"Monday, March 5th, 2014 at 10:00"``;
            every date in it is moved (``"3/5 - 3/7/2014"``).
        offset: days to add (negative moves back), non-zero.
        context_year: the year to assume for a date written without one (e.g. the year of
            other dates in the note); ``None`` uses :data:`REFERENCE_YEAR`.

    Returns:
        The shifted text (same separators, padding, letter case, abbreviation style and
        ordinal suffix style), or ``None`` when ``text`` holds no readable date.
    """
    if _HOLIDAY.search(text):
        return _shift_holiday(text, offset, context_year)
    values: dict[tuple[int, int], str] = {}
    pos = 0
    while pos < len(text):
        parsed = parse_date(text, pos)
        new = _shift_parsed(parsed, text, offset, context_year) if parsed else None
        if new is None:
            break
        values.update(new)
        pos = max(parsed.end, pos + 1)
    if not values:
        return None
    out = text
    for (s, e), new_text in sorted(values.items(), reverse=True):
        out = out[:s] + new_text + out[e:]
    return out


def _shift_parsed(parsed: ParsedDate, text: str, offset: int,
                  context_year: int | None) -> dict[tuple[int, int], str] | None:
    """New text for each field of one parsed date, keyed by the field's ``(start, end)``."""
    y, m, d = parsed.year, parsed.month, parsed.day
    sign = 1 if offset > 0 else -1
    new_y, new_m, new_d, new_wd = y, m, d, None
    if m is not None and d is not None:
        base = _dt.date(y, m, d) if y is not None else _context_date(context_year, m, d)
        new = _add_days(base, offset)
        if new is None:
            return None
        new_m, new_d = new.month, new.day
        new_y = new.year if y is not None else None
        if parsed.weekday is not None:
            new_wd = new.weekday() if y is not None else (parsed.weekday + offset) % 7
    elif m is not None:
        base = _dt.date(y if y is not None else (context_year or REFERENCE_YEAR), m, 15)
        new = _add_days(base, offset)
        if new is None:
            return None
        new_m = new.month
        new_y = new.year if y is not None else None
        if y is None and new_m == m:
            new_m = (m - 1 + sign) % 12 + 1
    elif d is not None:  # a day of the month alone ("the 13th"): moved within a 31-day month
        new_d = (d - 1 + offset) % 31 + 1
        if new_d == d:  # the offset is a multiple of 31 days
            new_d = d % 28 + 1
    elif y is not None:
        new_y = y + sign
    if parsed.weekday is not None and new_wd is None:
        new_wd = (parsed.weekday + offset) % 7
    f = parsed.fields
    values: dict[tuple[int, int], str] = {}
    if "y" in f:
        like = text[f["y"][0]:f["y"][1]]
        if new_y is None or not 0 <= new_y <= 9999:
            return None
        values[f["y"]] = f"{new_y % 100:02d}" if len(like) == 2 else f"{new_y:04d}"
    padded = parsed.pattern in _NUMERIC and all(e - s == 2 for k, (s, e) in f.items() if k in ("m", "d"))
    if "m" in f:
        values[f["m"]] = _num(new_m, text[f["m"][0]:f["m"][1]], padded)
    if "mon" in f:
        values[f["mon"]] = _month_name(new_m, text[f["mon"][0]:f["mon"][1]])
    if "d" in f:
        values[f["d"]] = _num(new_d, text[f["d"][0]:f["d"][1]], padded)
    if "suf" in f:
        values[f["suf"]] = format_like_case(_ordinal(new_d), text[f["suf"][0]:f["suf"][1]])
    if "wd" in f:
        values[f["wd"]] = _weekday_name(new_wd, text[f["wd"][0]:f["wd"][1]])
    return values


def fake_date(n: int) -> str:
    """A fake date in the neutral ISO format ``YYYY-MM-DD`` from a keyed number ``n``: a day
    between 1990-01-01 and 2019-12-31 (for text no format above can read)."""
    start = _dt.date(1990, 1, 1)
    span = (_dt.date(2019, 12, 31) - start).days + 1
    return (start + _dt.timedelta(days=n % span)).isoformat()
