"""Date parsing, shifting and re-formatting in the note's own format.

:func:`shift_date_text` moves the date written in a DATE span by a number of days and writes
it back in the same layout: only the day, month, year and weekday characters change; every
separator, comma, ``of``, time of day and time-zone offset stays as written.

Formats read (case-insensitive): ``03/05/2014``, ``3/5/14``, ``3-5-2014``, ``3.5.2014``,
``2014-03-05`` (also followed by a time and offset, ``2014-03-05T14:30:00-05:00``),
``20140305``, ``March 5th, 2014``, ``Mar. 5``, ``Mar-05-2014``, ``5 March 2014``,
``05-Mar-14``, ``5MAR2014``, ``12th of March``, ``Jan-2019``, ``Dec '19``, ``MAR2014``,
``March of 2019``, ``03/2014``, ``2014-03``, ``3/4``, ``March``, ``2019``, ``'98``, ``1990s``,
``the 13th``, day ranges (``June 3-5, 2014``, ``10-12 January``, ``10th to 12th of March``,
``June 28-3``), a weekday alone or with any of these (``Monday, March 5, 2014``, ``Tues 3/4``),
several dates in one span (``3/5-3/7/2014``), holidays (below).

How each kind moves by ``offset`` days (documented rule, see :func:`shift_date_text`):

* day, month and year known: the calendar date plus ``offset`` (leap days handled by
  :mod:`datetime`); so intervals between such dates survive exactly.
* day and month, no year: the year is taken from the nearest date with a year in the same span
  (``12/30 - 1/2/2015``: 30 December 2014), else ``context_year`` (the surrogate writer passes
  the note's), else the leap year 2000 (also when the date does not exist in the context year);
  then plus ``offset``; the year stays unwritten. So a yearless date and a dated one in one span
  keep their interval.
* a day range (``June 3-5, 2014``, ``10-12 January``): both ends move by ``offset``; when they
  land in different months the range is written with both months (``June 30-July 2, 2014``,
  ``30 June-2 July``), and with both years when those differ. A range written across a month end
  (``June 28-3``) keeps that layout when the ends again straddle one month end. ``28-3 June``
  (which month starts it?) is not read.
* month and year (``Jan-2019``, ``Dec '19``, ``03/2014``, ``2014-03``): with ``month_step``
  (:func:`shift_date_text`; the surrogate writer passes a keyed step unrelated to the offset)
  the month moves by that many months, the year with it; so a reader who knows the original
  month-years of notes learns nothing about the offset (issue 22 item 7: with the rule below,
  24 known month-years gave the exact offset for 40 of 500 keys). Without it: the 15th of that
  month plus ``offset`` gives the new month and year, and if that is the same month and year
  (possible for offsets under about 16 days) the month moves one further in the offset's
  direction, so a month-year value always changes.
* month alone: by ``month_step`` months around the year (``month_step`` is never a multiple of
  12 in the surrogate writer), else the rule above in the context year; the year stays unwritten.
* a holiday (``Christmas``, ``Thanksgiving 2019``): its date in the context year (or its
  written year) plus ``holiday_step`` days, else plus ``offset``, written as month and day (a
  written year and weekday follow the new date). Everyone knows the date of a holiday, so
  moving it by the offset would give the offset away from one note: the surrogate writer
  passes a keyed step of its own. So does a span that is one date written with a month name on
  the day of a fixed-date holiday of ``lists/holidays.tsv`` (``July 4th fireworks``, ``Dec 25th
  with family``, ``Friday, October 31``): the date is the holiday's name there
  (:func:`holiday_dates`). A numeric date (``7/4``) moves by the offset as any other.
* year alone: one year in the offset's direction. A bare year is not a Safe Harbor identifier,
  but i2b2 marks it; moving it by the sign keeps the order and gaps between bare years and never
  leaves it unchanged.
* a decade (``1990s``, ``'90s``, ``1990's``) stays as written, on purpose: a decade reveals
  nothing more specific than a span of ten years, which Safe Harbor allows (it permits the year
  itself), and moving it by the offset's sign would claim a precision the note never had and
  shift a whole decade of history. When a span holds only decades, :func:`shift_date_text`
  returns it unchanged (the caller decides whether to keep it or write a tag).
* day of the month alone (``the 13th``): ``(day - 1 + lone) mod 31 + 1`` (one up if that
  leaves it unchanged); no calendar is known, so this only hides the day.
* weekday alone (or with no month and day): ``(weekday + lone) mod 7``; with a month and day
  the weekday of the new date. ``lone`` (:func:`shift_date_text`) defaults to ``offset``; the
  surrogate writer passes a keyed step unrelated to the offset, so a lone weekday or day whose
  original a reader knows tells nothing about the offset modulo 7 or 31.
* two-digit years: ``00``-``49`` are read as 20xx, ``50``-``99`` as 19xx, and written back as
  two digits.
* a holiday (``Christmas 2019``, ``Thanksgiving``, ``Easter Sunday``, ``Memorial Day``) is read
  as its date in its year (or a year written elsewhere in the span, or the context year) and
  written as the shifted ``Month D[, YYYY]`` in the holiday name's letter case; a weekday or year
  beside it follows the new date. A holiday without a fixed rule (Hanukkah, Ramadan) keeps its
  name and its year moves like a bare year; written without a year it is not read.
* a numeric date is read month first (``03/05`` is March 5); day first when the first number
  cannot be a month (``25/12/2014``) or when ``day_first`` is set (:func:`day_first_in` decides
  it for a note whose other numeric dates can only be read day first), so the ambiguous ones
  of such a note keep their intervals.

Unparseable text (``last week``, ``Passover`` without a year, ``28-3 June``) gives ``None``; the
surrogate writer then uses :func:`fake_date`. A time of day in a span (``14:30``, ``10-11am``,
``T08:15-05:00``, ``1930`` after a full date) is never read as a date and stays as written.

Reading is done by :mod:`deid_core.datereader` (the one date reader: fields with their offsets,
linear in the text; holidays by its :func:`~deid_core.datereader.parse_holiday`) and the calendar (months, weekdays, holidays, Easter) by
:mod:`deid_core.calendars`; this module only moves the fields and writes them back.
"""
from __future__ import annotations

import datetime as _dt

from functools import lru_cache

from .calendars import MONTHS, WEEKDAYS, holiday_date, holiday_names
from .datereader import (REFERENCE_YEAR, ParsedDate, ParsedHoliday, _Scanner, day_first_in,
                         parse_date, parse_holiday)

__all__ = ["ParsedDate", "parse_date", "shift_date_text", "fake_date", "format_like_case",
           "day_first_in", "holiday_date", "holiday_dates", "MONTHS", "WEEKDAYS", "REFERENCE_YEAR"]


def format_like_case(new: str, like: str) -> str:
    """``new`` in the letter case of ``like``: ALL CAPS, all lower, or capitalised."""
    letters = [c for c in like if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 1:
        return new.upper()
    if letters and all(c.islower() for c in letters):
        return new.lower()
    return new[:1].upper() + new[1:].lower()


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


def _month_name(month: int, like: str, dotted: bool = False) -> str:
    """The name of ``month`` in the style of ``like``: full, three letters, or ``Sept``; in its
    letter case. ``May`` counts as a full name unless ``dotted`` (``May.``: an abbreviation)."""
    full = MONTHS[month - 1]
    low = like.lower()
    if low in MONTHS and not (dotted and low == "may"):  # a full name
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


def _shift_holiday(text: str, h: ParsedHoliday, offset: int) -> str | None:
    """The holiday ``h`` of ``text`` written as its date plus ``offset`` days (module doc)."""
    new = _add_days(h.date, offset) if h.date else None
    if new is None:
        return None
    written = f"{MONTHS[new.month - 1]} {new.day}"
    if h.year_written:
        written += f", {new.year}"
    # the holiday becomes a month and day; a weekday or a year written beside it
    # (``Thanksgiving Thursday 2021``) follows the new date
    edits = {h.span: format_like_case(written, h.name)}
    for s, e in h.weekdays:
        edits[(s, e)] = _weekday_name(new.weekday(), text[s:e])
    if h.year_field:
        edits[h.year_field] = f"{new.year:04d}"
    return _apply(text, edits)


@lru_cache(maxsize=1)
def holiday_dates() -> frozenset[tuple[int, int]]:
    """``(month, day)`` of every holiday of ``lists/holidays.tsv`` with a fixed date
    (Christmas ``(12, 25)``, the Fourth of July ``(7, 4)``): those whose date is the same in
    three consecutive years."""
    out = set()
    for name in holiday_names(dated_only=True):
        days = {(d.month, d.day) for d in (holiday_date(name, y) for y in (2001, 2002, 2003)) if d}
        if len(days) == 1:
            out |= days
    return frozenset(out)


def _named_holiday(dates: list[ParsedDate]) -> bool:
    """True when ``dates`` is one date written with a month name on a fixed holiday's day."""
    if len(dates) != 1:
        return False
    p = dates[0]
    return ("mon" in p.fields and p.day is not None and p.day2 is None
            and (p.month, p.day) in holiday_dates())


def _span_years(dates: list[ParsedDate], context_year: int | None) -> list[int | None]:
    """The year to assume for each date written without one: from the nearest date with a year
    in the same span (the next one, else the one before; the year turned so the yearless date
    comes before the next one or after the previous one: ``12/30 - 1/2/2015`` is 30 December
    2014), else ``context_year``."""
    dated = [p.year is not None and p.month is not None for p in dates]
    next_dated: list[ParsedDate | None] = [None] * len(dates)
    following = None
    for i in range(len(dates) - 1, -1, -1):
        next_dated[i] = following
        if dated[i]:
            following = dates[i]
    years: list[int | None] = []
    previous = None
    for i, p in enumerate(dates):
        if p.year is not None or p.month is None:
            years.append(p.year)
        else:
            key = (p.month, p.day or 15)
            ctx = context_year
            q = next_dated[i]
            if q is not None:
                ctx = q.year - (key > (q.month, q.day or 15))
            elif previous is not None:
                ctx = previous.year + (key < (previous.month, previous.day or 15))
            years.append(ctx)
        if dated[i]:
            previous = p
    return years


def is_decade(text: str) -> bool:
    """True when ``text`` is only a decade (``1990s``, ``'90s``, ``1990's``): such a value is kept
    as written by the surrogate (see the module doc)."""
    parsed = parse_date(text.strip())
    return parsed is not None and parsed.pattern == "decade" and len(text.strip()) <= 7


def shift_date_text(text: str, offset: int, context_year: int | None = None,
                    day_first: bool = False, lone: int | None = None,
                    month_step: int | None = None, holiday_step: int | None = None) -> str | None:
    """Move the date written in ``text`` by ``offset`` days, keeping its layout.

    Args:
        text: the characters of a DATE span, e.g. ``"Monday, March 5th, 2014 at 10:00"``;
            every date in it is moved (``"3/5 - 3/7/2014"``, ``"June 3-5, 2014"``).
        offset: days to add (negative moves back), non-zero.
        context_year: the year to assume for a date written without one (e.g. the year of
            other dates in the note) when the span itself has no dated neighbour; ``None`` uses
            :data:`REFERENCE_YEAR`.
        day_first: read ambiguous numeric dates day first (see :func:`day_first_in`).
        lone: days to move a day of the month or a weekday written without a month and day
            (module docstring); ``None``: ``offset``.
        month_step: months to move a month-year or a month written without a day (non-zero;
            for a month alone, not a multiple of 12); ``None``: the offset rule of the module
            docstring.
        holiday_step: days to move a holiday (non-zero); ``None``: ``offset``.

    Returns:
        The shifted text (same separators, padding, letter case, abbreviation style and
        ordinal suffix style); ``text`` itself when it holds only decades (``1990s``, kept on
        purpose: see the module docstring); ``None`` when ``text`` holds no readable date.
    """
    holiday = parse_holiday(text, context_year or REFERENCE_YEAR)
    if holiday is not None:
        return _shift_holiday(text, holiday, offset if holiday_step is None else holiday_step)
    dates: list[ParsedDate] = []
    pos = 0
    scan = _Scanner(text)
    while pos < len(text):
        parsed = parse_date(text, pos, day_first, scan)
        if parsed is None:
            break
        pos = max(parsed.end, pos + 1)
        if parsed.pattern == "year" and dates and None not in (dates[-1].year, dates[-1].day):
            continue  # "3/5/2014 1930": a time of day after a full date, not a year
        dates.append(parsed)
    if not dates:
        return None
    if holiday_step is not None and _named_holiday(dates):
        offset = lone = holiday_step           # July 4th fireworks: a holiday by its date
    values: dict[tuple[int, int], str] = {}
    for parsed, year in zip(dates, _span_years(dates, context_year)):
        new = _shift_parsed(parsed, text, offset, year, offset if lone is None else lone,
                            month_step)
        if new is None:
            return None
        values.update(new)
    return _apply(text, values)


def _apply(text: str, values: dict[tuple[int, int], str]) -> str:
    """``text`` with each ``(start, end)`` range replaced (non-overlapping; a zero-width range
    inserts before a range starting at the same place)."""
    pieces, last = [], 0
    for (s, e), new_text in sorted(values.items()):
        pieces.append(text[last:s])
        pieces.append(new_text)
        last = e
    pieces.append(text[last:])
    return "".join(pieces)


def _month_step(y: int, m: int, step: int) -> tuple[int, int]:
    n = y * 12 + (m - 1) + step
    return n // 12, n % 12 + 1


def _shift_parsed(parsed: ParsedDate, text: str, offset: int, context_year: int | None,
                  lone: int, month_step: int | None = None) -> dict[tuple[int, int], str] | None:
    """New text for each field of one parsed date, keyed by the field's ``(start, end)``
    (a zero-width key inserts text there)."""
    if parsed.pattern == "decade":
        return {}
    y, m, d = parsed.year, parsed.month, parsed.day
    sign = 1 if offset > 0 else -1
    new_y, new_m, new_d, new_wd = y, m, d, None
    new2: _dt.date | None = None
    new1: _dt.date | None = None
    if m is not None and d is not None:
        base = _dt.date(y, m, d) if y is not None else _context_date(context_year, m, d)
        new1 = _add_days(base, offset)
        if new1 is None:
            return None
        new_m, new_d = new1.month, new1.day
        new_y = new1.year if y is not None else None
        if parsed.day2 is not None:
            end = _range_end(base, parsed.day2)
            new2 = _add_days(end, offset) if end else None
            if new2 is None:
                return None
        if parsed.weekday is not None:
            new_wd = new1.weekday() if y is not None else (parsed.weekday + offset) % 7
    elif m is not None and month_step is not None:
        # month and year, or month alone: a keyed number of months of its own
        ny, nm = _month_step(y if y is not None else REFERENCE_YEAR, m, month_step)
        if nm == m and (y is None or ny == y):
            ny, nm = _month_step(ny, nm, 1)
        new_m = nm
        new_y = ny if y is not None else None
    elif m is not None:
        # month and year, or month alone: the 15th of the month moves; the written month
        # always changes (one more month in the offset's direction if it would not).
        base = _dt.date(y if y is not None else (context_year or REFERENCE_YEAR), m, 15)
        new = _add_days(base, offset)
        if new is None:
            return None
        ny, nm = new.year, new.month
        if nm == m and (y is None or ny == y):
            ny, nm = _month_step(ny, nm, sign)
        new_m = nm
        new_y = ny if y is not None else None
    elif d is not None:  # a day of the month alone ("the 13th"): moved within a 31-day month
        new_d = (d - 1 + lone) % 31 + 1
        if new_d == d:  # the step is a multiple of 31 days
            new_d = d % 28 + 1
    elif y is not None:
        new_y = y + sign
    if parsed.weekday is not None and new_wd is None:
        new_wd = (parsed.weekday + lone) % 7   # no month and day: the lone step
    f = parsed.fields
    values: dict[tuple[int, int], str] = {}

    def like(k: str) -> str:
        return text[f[k][0]:f[k][1]]

    if "y" in f:
        if new_y is None or not 0 <= new_y <= 9999:
            return None
        values[f["y"]] = _year(new_y, like("y"))
    padded = parsed.pattern in _NUMERIC and all(e - s == 2 for k, (s, e) in f.items() if k in ("m", "d"))
    if "m" in f:
        values[f["m"]] = _num(new_m, like("m"), padded)
    if "mon" in f:
        values[f["mon"]] = _month_name(new_m, like("mon"), text[f["mon"][1]:f["mon"][1] + 1] == ".")
    if "d" in f:
        # a two-digit day joined to a month name without a space is fixed width ("10-Jan-2014",
        # "10JAN2014"): padded; with a space ("10 January") only a leading zero means padding
        joined = "mon" in f and not any(c.isspace() for c in text[f["d"][1]:f["mon"][0]]
                                        + text[f["mon"][1]:f["d"][0]])
        values[f["d"]] = _num(new_d, like("d"), padded or joined)
    if "suf" in f:
        values[f["suf"]] = format_like_case(_ordinal(new_d), like("suf"))
    if "wd" in f:
        values[f["wd"]] = _weekday_name(new_wd, like("wd"))
    if new2 is not None:
        values[f["d2"]] = _num(new2.day, like("d2"), False)
        if "suf2" in f:
            values[f["suf2"]] = format_like_case(_ordinal(new2.day), like("suf2"))
        same_month = (new2.year, new2.month) == (new1.year, new1.month)
        wraps = ((new2.year, new2.month) == _month_step(new1.year, new1.month, 1)
                 and new2.day < new1.day)
        if not (same_month or (wraps and parsed.day2 < parsed.day)):
            _split_range(parsed, text, new1, new2, values)
    return values


def _range_end(start: _dt.date, day2: int) -> _dt.date | None:
    """The last day of a day range starting at ``start``: ``day2`` in the same month, or in
    the next month when it is smaller (``June 28-3``); ``None`` when that day does not exist."""
    if day2 > start.day:
        y, m = start.year, start.month
    else:
        y, m = _month_step(start.year, start.month, 1)
    try:
        return _dt.date(y, m, day2)
    except ValueError:
        return None


def _year(value: int, like: str) -> str:
    return f"{value % 100:02d}" if len(like) == 2 else f"{value:04d}"


def _split_range(parsed: ParsedDate, text: str, new1: _dt.date, new2: _dt.date,
                 values: dict[tuple[int, int], str]) -> None:
    """Rewrite a day range whose two ends land in different months after the shift:
    ``June 28-30, 2014`` + 3 days -> ``July 1-3`` is fine, but + 2 -> ``June 30-July 2, 2014``;
    ``28-30 June`` -> ``30 June-2 July``; a year written once is written at both ends when
    they land in different years (``Dec 30, 2014-Jan 1, 2015``)."""
    f = parsed.fields
    mon_like = text[f["mon"][0]:f["mon"][1]]
    end1 = f["suf"][1] if "suf" in f else f["d"][1]
    end2 = f["suf2"][1] if "suf2" in f else f["d2"][1]
    year_part = ""
    if "y" in f and new1.year != new2.year:
        values[f["y"]] = _year(new2.year, text[f["y"][0]:f["y"][1]])
        year_sep = text[f["mon"][1] if parsed.pattern.startswith("day_") else end2:f["y"][0]]
        year_part = year_sep + _year(new1.year, text[f["y"][0]:f["y"][1]])
    if parsed.pattern == "month_day_range":
        values[f["mon"]] = _month_name(new1.month, mon_like)
        sep = text[f["mon"][1]:f["d"][0]]
        values[f["d2"]] = _month_name(new2.month, mon_like) + sep + values[f["d2"]]
        if year_part:
            values[(end1, end1)] = year_part
    else:  # day_month_range: "28-30 June"
        sep = text[end2:f["mon"][0]]
        values[(end1, end1)] = sep + _month_name(new1.month, mon_like) + year_part
        values[f["mon"]] = _month_name(new2.month, mon_like)


def fake_date(n: int) -> str:
    """A fake date in the neutral ISO format ``YYYY-MM-DD`` from a keyed number ``n``: a day
    between 1990-01-01 and 2019-12-31 (for text no format above can read)."""
    start = _dt.date(1990, 1, 1)
    span = (_dt.date(2019, 12, 31) - start).days + 1
    return (start + _dt.timedelta(days=n % span)).isoformat()
