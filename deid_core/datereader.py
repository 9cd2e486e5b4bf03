"""The one date reader: a date written in any supported format read into its fields, with the
character offsets of each field, so callers can rewrite a field in place (the date shift) or
compare days (known identifiers, the identifier detector's "is this value a date").

Formats (case-insensitive): ``03/05/2014``, ``3/5/14``, ``3-5-2014``, ``3.5.2014``,
``2014-03-05`` (also followed by a time and offset), ``20140305``, ``March 5th, 2014``,
``Mar. 5``, ``Mar-05-2014``, ``5 March 2014``, ``05-Mar-14``, ``5MAR2014``, ``12th of March``,
``Jan-2019``, ``Dec '19``, ``MAR2014``, ``March of 2019``, ``03/2014``, ``2014-03``, ``3/4``,
``March``, ``2019``, ``'98``, ``1990s``, ``the 13th``, day ranges (``June 3-5, 2014``,
``10-12 January``, ``10th to 12th of March``, ``June 28-3``), a weekday alone or beside any of
these (``Monday, March 5, 2014``, ``Tues 3/4``); holidays with a dating rule
(:func:`parse_holiday`: ``Christmas 2019``, ``Thanksgiving``).

Other date patterns (the date detector's) are read by :func:`read_match` when their named
groups follow :data:`FIELD_GROUPS`; :func:`read_text` reads the date written exactly at an
offset range. Reading gives values; whether they are a valid date is the caller's rule
(:func:`deid_core.calendars.valid_date` or :func:`~deid_core.calendars.real_date`).

Two-digit years are expanded by :func:`deid_core.calendars.expand_year` with the caller's
``pivot`` (the date shift reads ``00``-``49`` as 20xx; known identifiers pass their own).
A numeric date is read month first, day first when the first number cannot be a month or when
``day_first`` is set (:func:`day_first_in` decides it for a note).

Speed: the patterns are compiled once; reading every date of a text searches it about once per
pattern (:class:`_Scanner` caches each pattern's next match), so a long text is linear.
"""
from __future__ import annotations

import datetime as _dt
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .calendars import MONTH_NUMBERS as _MONTH_ABBR
from .calendars import WEEKDAY_NUMBERS as _WEEKDAY_ABBR
from .calendars import MONTH_REGEX, expand_year, holiday_date, holiday_regex, real_date

__all__ = ["ParsedDate", "parse_date", "read_match", "read_text", "iter_dates", "day_first_in",
           "numeric_date", "day_readings", "ParsedHoliday", "parse_holiday", "FIELD_GROUPS", "FULL_DATE_PATTERNS", "REFERENCE_YEAR",
           "SHIFT_PIVOT", "WEEKDAY_REGEX"]

#: Two-digit years below this are 20xx for the date shift (``3/5/49`` is 2049, ``3/5/50`` 1950).
SHIFT_PIVOT = 50

_MON = r"(?<![^\W\d_])(?P<mon>" + MONTH_REGEX + r")(?![^\W\d_])\.?"
#: Regex source (no groups, no flags) of a weekday name or its abbreviation (``mon``, ``tues``,
#: ``thurs``, ``sunday``); the date detector's context words use it too.
WEEKDAY_REGEX = (r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|"
                 r"fri(?:day)?|sat(?:urday)?|sun(?:day)?)")
_WD = re.compile(r"(?<![^\W\d_])(?P<wd>" + WEEKDAY_REGEX + r")(?![^\W\d_])", re.I)
_SUF = r"(?P<suf>st|nd|rd|th)?"
#: Between a month name and a year: ``, `` ``-`` ``/`` ``.`` `` of `` an apostrophe, or nothing
#: (``MAR2014``).
_YEAR_SEP = r"(?:,?\s+of\s+|,\s*['’]?|\s*[-/.]\s*['’]?|\s+['’]?|['’]|)"
#: The second day of a day range: ``3-5``, ``3rd to 5th``, ``3 & 5``, ``3 through 5``.
_RANGE = (r"(?P<rs>\s*[-–—&]\s*|\s+(?:to|through|thru|and)\s+)"
          r"(?P<d2>\d{1,2})(?P<suf2>st|nd|rd|th)?(?![\d:])")

#: (name, regex) tried in order; the first that matches decides the fields. Named groups:
#: y (year), m (numeric month), mon (month name), d (day), suf (ordinal suffix), d2 and suf2
#: (the last day of a day range), dec (a decade).
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(rx, re.I)) for name, rx in (
    ("iso", r"(?<!\d)(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?!\d)"),
    ("compact", r"(?<!\d)(?P<y>(?:1[89]|20)\d\d)(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])(?!\d)"),
    ("mdy", r"(?<![\d.:])(?P<m>\d{1,2})(?P<s>[-/.])(?P<d>\d{1,2})(?P=s)(?P<y>\d{4}|\d{2})(?![\d:])"),
    ("day_month_range", r"(?<![\d.])(?P<d>\d{1,2})" + _SUF + _RANGE
     + r"(?:\s+of\s+(?:the\s+)?|\s*[-/.]\s*|\s+)" + _MON
     + r"(?:" + _YEAR_SEP + r"(?P<y>\d{4}|\d{2})(?![\d:]))?"),
    ("day_month", r"(?<![\d.])(?P<d>\d{1,2})" + _SUF + r"(?:\s+of\s+(?:the\s+)?|\s*[-/.]\s*|\s+|)" + _MON
     + r"(?:" + _YEAR_SEP + r"(?P<y>\d{4}|\d{2})(?![\d:]))?"),
    ("month_day_range", _MON + r"\s+(?:the\s+)?(?P<d>\d{1,2})" + _SUF + _RANGE
     + r"(?:(?:,\s*['’]?|\s+['’]?)(?P<y>\d{4}|\d{2})(?![\d:]))?"),
    ("month_day", _MON + r"(?:\s*[-/.]\s*|\s+(?:the\s+)?)(?P<d>\d{1,2})" + _SUF + r"(?![\d:])"
     + r"(?:(?:,\s*['’]?|\s*[-/.]\s*['’]?|\s+['’]?)(?P<y>\d{4}|\d{2})(?![\d:]))?"),
    ("month_year", _MON + _YEAR_SEP + r"(?P<y>\d{4}|\d{2})(?![\d:])"),
    ("numeric_month_year", r"(?<![\d.])(?P<m>\d{1,2})(?P<s>[-/.])(?P<y>\d{4})(?!\d)"),
    ("iso_month", r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})(?![\d\-])"),
    ("month_day_numeric", r"(?<![\d.:])(?P<m>\d{1,2})(?P<s>[/-])(?P<d>\d{1,2})(?![\d/:])"
     r"(?!-(?:\d{4}|\d\d)(?![\d/.:-]))(?!\s*(?:[ap]\.?m\b|h\b|hrs?\b|hours?\b|min))"),
    ("month", _MON),
    ("decade", r"(?<![\d'’])(?P<dec>(?:1[6-9]|2\d)\d0|['’]?\d0)['’]?s(?![^\W\d_])"),
    ("year", r"(?<!\d)(?P<y>(?:1[6-9]|2\d)\d\d)(?!\d)"),
    ("year_apostrophe", r"['’](?P<y>\d\d)(?!\d)"),
    ("day", r"(?<![\d.])(?P<d>\d{1,2})(?P<suf>st|nd|rd|th)(?![^\W\d_])"),
))

#: The leap year used for a date written without its year when no context year fits.
REFERENCE_YEAR = 2000


@dataclass
class ParsedDate:
    """What :func:`parse_date` read from a text.

    Attributes:
        pattern: the name of the pattern that matched (``"mdy"``, ``"month_day"``, ...;
            ``"weekday"`` when only a weekday was found, ``"decade"`` for ``1990s``).
        year, month, day: the values read, ``None`` where the text does not give them
            (``year`` is four-digit, two-digit years already expanded).
        weekday: 0 = Monday ... 6 = Sunday, or ``None``.
        day2: the last day of a day range (``June 3-5``: 5), or ``None``; smaller than ``day``
            when the range runs into the next month (``June 28-3``).
        fields: field name (``y``, ``m``, ``mon``, ``d``, ``suf``, ``d2``, ``suf2``, ``wd``,
            ``dec``) -> ``(start, end)`` character offsets of that field in the text.
        start: offset of the date's first character (the weekday's when one comes first).
        end: offset just past the date's text (where the next date may start).
    """

    pattern: str
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    fields: dict[str, tuple[int, int]] = field(default_factory=dict)
    end: int = 0
    day2: int | None = None
    start: int = 0


class _Scanner:
    """Each pattern's next match in one text, cached: a match found from an earlier position
    is still the first one from any later position up to its start, so reading every date of a
    long text searches it about once per pattern (linear, not quadratic)."""

    #: Ranks of the patterns that need a month name, and the three letters every month name
    #: starts with (speed: a text holding none of them, and no long s, which matches ``s``
    #: when case is ignored, is never searched with those patterns).
    _MONTH_RANKS = frozenset(i for i, (_n, rx) in enumerate(_PATTERNS) if "(?P<mon>" in rx.pattern)
    _MONTH_STEMS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

    #: Patterns that need one of these characters (their separator or apostrophe): a text
    #: holding none of them is never searched with the pattern.
    _NEEDS = {"iso": "-/.", "mdy": "-/.", "numeric_month_year": "-/.", "iso_month": "-",
              "month_day_numeric": "/-", "year_apostrophe": "'’"}

    def __init__(self, text: str) -> None:
        self.text = text
        self._next: dict[int, re.Match[str] | None] = {}
        for rank, (name, _rx) in enumerate(_PATTERNS):
            need = self._NEEDS.get(name)
            if need is not None and not any(ch in text for ch in need):
                self._next[rank] = None                # no separator: no match
        if "\u017f" not in text:
            low = text.lower()
            if not any(stem in low for stem in self._MONTH_STEMS):
                self._next.update(dict.fromkeys(self._MONTH_RANKS))   # no month name: no match
        self._live: list[tuple[int, str, re.Pattern[str]]] | None = None
        self._wd: re.Match[str] | None = None
        self._wd_done = False

    def candidates(self, pos: int) -> list[tuple[int, int, str, re.Match[str]]]:
        """Every pattern's first match at or after ``pos``, by start, then pattern rank."""
        found = []
        for rank, (name, rx) in enumerate(_PATTERNS):
            m = self._next.get(rank, False)
            if m is False or (m is not None and m.start() < pos):
                m = rx.search(self.text, pos)
                self._next[rank] = m
            if m is not None:
                found.append((m.start(), rank, name, m))
        found.sort(key=lambda c: c[:2])
        return found

    def first(self, pos: int) -> tuple[int, int, str, re.Match[str]] | None:
        """``candidates(pos)[0]`` (or ``None``) without building and sorting the list."""
        best = None
        text, nxt = self.text, self._next
        live = self._live
        if live is None:   # patterns that may still match (no match once is none later)
            live = self._live = [(r, n, rx) for r, (n, rx) in enumerate(_PATTERNS)
                                 if nxt.get(r, False) is not None]
        dead = False
        for rank, name, rx in live:
            m = nxt.get(rank, False)
            if m is False or (m is not None and m.start() < pos):
                m = rx.search(text, pos)
                nxt[rank] = m
            if m is None:
                dead = True
            elif best is None or m.start() < best[0]:
                best = (m.start(), rank, name, m)
        if dead:
            self._live = [c for c in live if nxt[c[0]] is not None]
        return best

    def weekday(self, pos: int) -> re.Match[str] | None:
        """The first weekday word at or after ``pos``."""
        if not self._wd_done or (self._wd is not None and self._wd.start() < pos):
            self._wd = _WD.search(self.text, pos)
            self._wd_done = True
        return self._wd


#: The named groups a date pattern gives its fields in (see :func:`read_match`).
FIELD_GROUPS = ("y", "m", "mon", "d", "suf", "d2", "suf2", "dec")


def read_match(m: re.Match[str], pivot: int = SHIFT_PIVOT, pattern: str = "") -> ParsedDate:
    """The fields of the date that ``m`` matched, read from the match's named groups.

    Any pattern whose groups follow this convention can be read (this module's and the date
    detector's): ``y`` (year, four or two digits, an apostrophe before it left out of the field;
    ``y_alt`` where a pattern writes the year in a second place), ``m`` (numeric month), ``mon``
    (month name or abbreviation), ``d`` (day), ``suf`` (its ordinal suffix), ``d2`` and ``suf2``
    (the last day of a day range), ``dec`` (a decade). Other groups are ignored.

    Args:
        m: a match of such a pattern.
        pivot: two-digit years below it are 20xx, the others 19xx
            (:func:`deid_core.calendars.expand_year`).
        pattern: the name to record in :attr:`ParsedDate.pattern`.

    Returns:
        A :class:`ParsedDate` with the values as written (a numeric month is the first number;
        nothing is swapped) and ``fields`` as offsets in ``m.string``. The values are not
        checked: the caller applies its rule (:func:`deid_core.calendars.valid_date` for the
        detector, :func:`deid_core.calendars.real_date` for the date shift).
    """
    groups = m.groupdict()
    fields = {k: m.span(k) for k in FIELD_GROUPS if groups.get(k) is not None}
    ykey = "y" if groups.get("y") is not None else "y_alt" if groups.get("y_alt") is not None else None
    year = None
    if ykey is not None:
        written = groups[ykey]
        digits = written.lstrip("'’")
        ys, ye = m.span(ykey)
        fields["y"] = (ys + len(written) - len(digits), ye)
        year = expand_year(digits, pivot)
    month = None
    if groups.get("m"):
        month = int(groups["m"])
    elif groups.get("mon"):
        month = _MONTH_ABBR[groups["mon"].lower()[:3]]
    day = int(groups["d"]) if groups.get("d") else None
    day2 = int(groups["d2"]) if groups.get("d2") else None
    return ParsedDate(pattern, year, month, day, fields=fields, end=m.end(), day2=day2,
                      start=m.start())


def read_text(text: str, start: int = 0, end: int | None = None,
              pivot: int = SHIFT_PIVOT) -> ParsedDate | None:
    """The date written as exactly ``text[start:end]`` (``"10/27/2020"``, ``"9/12"``,
    ``"2014-03"``): the first of this module's patterns that matches all of it, read by
    :func:`read_match` (values as written, unchecked; ``fields`` as offsets in ``text``).

    Returns:
        The :class:`ParsedDate`, or ``None`` when no pattern matches the whole of it.
    """
    end = len(text) if end is None else end
    piece = text[start:end]
    for name, rx in _PATTERNS:
        m = rx.fullmatch(piece)
        if m is not None:
            p = read_match(m, pivot, name)
            p.fields = {k: (s + start, e + start) for k, (s, e) in p.fields.items()}
            p.start, p.end = start, end
            return p
    return None


def _read(name: str, m: re.Match[str], day_first: bool, pivot: int = SHIFT_PIVOT) -> ParsedDate | None:
    """The values of one of this module's pattern matches, or ``None`` when they are impossible."""
    p = read_match(m, pivot, name)
    if name == "decade":
        return p
    fields = p.fields
    if name in ("mdy", "month_day_numeric") and p.month is not None and p.day is not None and (
            (p.month > 12 and p.day <= 12) or (day_first and p.day <= 12)):
        p.month, p.day = p.day, p.month
        fields["m"], fields["d"] = fields["d"], fields["m"]
    day, day2 = p.day, p.day2
    if not real_date(p.year, p.month, day, REFERENCE_YEAR) or (day2 is not None and (
            day is None or day2 == day or not 1 <= day2 <= 31
            or (day2 < day and name == "day_month_range"))):  # "28-3 June": which month?
        return None
    return p


def parse_date(text: str, pos: int = 0, day_first: bool = False,
               _scan: _Scanner | None = None, pivot: int = SHIFT_PIVOT) -> ParsedDate | None:
    """Read the first date in ``text`` at or after ``pos`` (formats: the module docstring).

    A weekday is taken as part of the date when it comes before it or right after it
    (``Monday, March 5``; ``3/5/14 (Wed)``); it also decides an ambiguous numeric date when only
    one reading falls on it (``Mon 04/03/2024`` is 4 March). Where two patterns match, the one
    starting first wins (ties: the order of :data:`_PATTERNS`); if its values are impossible the
    text gives
    ``None`` (``02/30/2014`` is not read as the year ``2014``). A day range whose last day is
    smaller (``June 28-3``) runs into the next month.

    Args:
        text: any string.
        pos: character offset to start reading at.
        day_first: read an ambiguous numeric date (``02/03/2014``) day first (2 March), as in a
            note whose other numeric dates can only be read that way (see :func:`day_first_in`).
        pivot: two-digit years below it are 20xx, the others 19xx.

    Returns:
        A :class:`ParsedDate` (its ``end`` is where the date's text ends), or ``None`` when no
        format matches or the values are impossible (``02/30/2014``, ``13/13/2014``).
    """
    scan = _scan if _scan is not None else _Scanner(text)
    wd = scan.weekday(pos)
    parsed = None
    candidates = scan.candidates(pos)
    if candidates:
        parsed = _read(candidates[0][2], candidates[0][3], day_first, pivot)
        if parsed is None:
            return None
    else:
        if wd is None:
            return None
        return ParsedDate("weekday", weekday=_WEEKDAY_ABBR[_wd_key(wd.group("wd"))],
                          fields={"wd": wd.span("wd")}, end=wd.end(), start=wd.start())
    if wd and (wd.end() <= parsed.start
               or (wd.start() >= parsed.end and not text[parsed.end:wd.start()].strip(" ,(")
                   and wd.start() - parsed.end <= 3)):
        parsed.weekday = _WEEKDAY_ABBR[_wd_key(wd.group("wd"))]
        parsed.fields["wd"] = wd.span("wd")
        parsed.end = max(parsed.end, wd.end())
        parsed.start = min(parsed.start, wd.start())
        _weekday_decides_order(parsed)
    return parsed


def _weekday_decides_order(p: ParsedDate) -> None:
    """Swap day and month of an ambiguous numeric date (``Sat 02.03.2024``) when only the
    other reading falls on the weekday written beside it."""
    if (p.pattern != "mdy" or p.year is None or p.month == p.day
            or not (p.month <= 12 and p.day <= 12)):
        return
    try:
        as_read, swapped = _dt.date(p.year, p.month, p.day), _dt.date(p.year, p.day, p.month)
    except ValueError:
        return
    if as_read.weekday() != p.weekday == swapped.weekday():
        p.month, p.day = p.day, p.month
        p.fields["m"], p.fields["d"] = p.fields["d"], p.fields["m"]


def day_first_in(texts: Iterable[str]) -> bool:
    """Whether a note's numeric dates are written day first.

    Args:
        texts: iterable of strings (the note's DATE spans, or the whole note).

    Returns:
        ``True`` when more numeric dates (``14/02/1931``, ``25.12``) can only be read day first
        than can only be read month first (``02/14/1931``); ``False`` otherwise (the U.S.
        default). Pass it as ``day_first`` so the ambiguous ones (``02/03/2014``) are read the
        same way and intervals between them survive.
    """
    votes = 0
    for text in texts:
        for m in _NUMERIC_DM.finditer(text):
            a, b = int(m.group("a")), int(m.group("b") or m.group("b2"))
            if 1 <= a <= 12 < b <= 31:
                votes -= 1
            elif 1 <= b <= 12 < a <= 31:
                votes += 1
    return votes > 0


#: A numeric day-month pair with a year (``14.02.1931``, ``3-5-14``) or a slash (``25/12``).
_NUMERIC_DM = re.compile(r"(?<![\d.:/-])(?P<a>\d{1,2})"
                         r"(?:(?P<s>[-/.])(?P<b>\d{1,2})(?P=s)(?:\d{4}|\d\d)"
                         r"|/(?P<b2>\d{1,2}))(?!\d|[-/.:]\d)")


def _wd_key(word: str) -> str:
    w = word.lower()
    return w if w in _WEEKDAY_ABBR else w[:3]



#: Patterns that give a whole calendar day (year, month and day).
FULL_DATE_PATTERNS = frozenset({"iso", "compact", "mdy", "day_month", "month_day"})


def iter_dates(text: str, pivot: int = SHIFT_PIVOT) -> Iterator[tuple[ParsedDate, re.Match[str]]]:
    """Every date written in ``text``, left to right, each with the match that read it.

    Unlike repeated :func:`parse_date` calls, an impossible date (``02/30/2014``) is skipped
    rather than ending the scan, and a weekday is never attached (use the fields' offsets).
    Linear in ``len(text)``: each pattern's next match is cached.

    Yields:
        ``(ParsedDate, match)``; ``ParsedDate.start``/``end`` are the match's offsets.
    """
    scan = _Scanner(text)
    pos = 0
    while pos < len(text):
        first = scan.first(pos)
        if first is None:
            return
        start, _rank, name, m = first
        parsed = _read(name, m, False, pivot)
        if parsed is not None:
            yield parsed, m
        pos = max(m.end() if parsed is not None else start + 1, pos + 1)


def day_readings(parsed: ParsedDate, m: re.Match[str]) -> set[tuple[int, int, int]]:
    """The whole days a full date may denote: ``{(year, month, day)}``, with the day-first
    reading added for an ambiguous numeric date (``03/02/1950``: 2 March and 3 February).
    Empty for a date without year, month or day (``Jan-2019``, ``3/4``)."""
    if parsed.pattern not in FULL_DATE_PATTERNS or None in (parsed.year, parsed.month, parsed.day):
        return set()
    out = {(parsed.year, parsed.month, parsed.day)}
    if parsed.pattern == "mdy" and real_date(parsed.year, parsed.day, parsed.month):
        out.add((parsed.year, parsed.day, parsed.month))
    return out


@functools.lru_cache(maxsize=4096)
def numeric_date(value: str) -> bool:
    """True when all of ``value`` is a date written in digits (``3/5/2014``, ``2014-03-05``,
    ``3/5``), month or day first, with values that exist. Memoised (speed: a labelled id
    repeated through a note is read once)."""
    parsed = parse_date(value)
    if parsed is None or parsed.start != 0 or parsed.end != len(value):
        return False
    return parsed.pattern in ("iso", "mdy", "month_day_numeric") and (
        parsed.weekday is None)


_HOLIDAY = re.compile(
    r"(?<![^\W\d_])(?P<h>" + holiday_regex(r"\s+", dated_only=True) + r")"
    r"(?:[ \t,]{1,3}(?:of\s+)?(?P<y>(?:1[6-9]|2\d)\d\d))?(?![^\W\d_])", re.I)
_YEAR_ALONE = dict(_PATTERNS)["year"]


@dataclass
class ParsedHoliday:
    """A dated holiday read by :func:`parse_holiday` (``Christmas 2019``, ``Thanksgiving``).

    Attributes:
        name: the holiday's name as written (``"Easter Sunday"``).
        span: ``(start, end)`` of the name and of a year written right after it.
        year: the year it is read in: the one written after it, else the first year written
            elsewhere in the text, else the caller's ``default_year``.
        year_written: whether that year is inside ``span``.
        year_field: ``(start, end)`` of the year written apart from the name
            (``Thanksgiving Thursday 2021``), else ``None``.
        date: the holiday's day in ``year``, ``None`` when no rule gives it.
        weekdays: ``(start, end)`` of each weekday word outside ``span``.
    """

    name: str
    span: tuple[int, int]
    year: int
    year_written: bool
    year_field: tuple[int, int] | None
    date: _dt.date | None
    weekdays: list[tuple[int, int]]


def parse_holiday(text: str, default_year: int = REFERENCE_YEAR) -> ParsedHoliday | None:
    """Read the first holiday with a dating rule in ``text`` (names from ``lists/holidays.tsv``,
    any case; Hanukkah and other holidays without a rule are not read).

    Args:
        text: any string, e.g. a DATE span ``"Thanksgiving Thursday 2021"``.
        default_year: the year to read it in when ``text`` writes none.

    Returns:
        A :class:`ParsedHoliday`, or ``None`` when ``text`` names no such holiday.
    """
    m = _HOLIDAY.search(text)
    if m is None:
        return None
    outside = [y for y in _YEAR_ALONE.finditer(text) if y.end() <= m.start() or y.start() >= m.end()]
    year_field = outside[0].span() if not m.group("y") and outside else None
    if m.group("y"):
        year = int(m.group("y"))
    elif year_field:
        year = int(text[year_field[0]:year_field[1]])
    else:
        year = default_year
    weekdays = [w.span("wd") for w in _WD.finditer(text) if w.end() <= m.start() or w.start() >= m.end()]
    return ParsedHoliday(m.group("h"), m.span(), year, bool(m.group("y")), year_field,
                         holiday_date(m.group("h"), year), weekdays)
