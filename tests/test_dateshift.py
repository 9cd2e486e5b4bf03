"""Date parsing, shifting and format keeping (deid_core.dateshift)."""
import datetime as dt
import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st

from deid_core.dateshift import (MONTHS, day_first_in, fake_date, holiday_date, parse_date,
                                 shift_date_text)
from deid_core.keys import _OFFSETS, LinkageKey

# March 5, 2014 + 40 days = Monday April 14, 2014; - 100 days = Monday November 25, 2013.
SHIFT_TABLE = [
    ("03/05/2014", 40, "04/14/2014"),
    ("3/5/2014", 40, "4/14/2014"),
    ("3/5/14", -100, "11/25/13"),
    ("3-5-2014", 40, "4-14-2014"),
    ("3.5.2014", 40, "4.14.2014"),
    ("2014-03-05", 40, "2014-04-14"),
    ("2014/03/05", -100, "2013/11/25"),
    ("2014-03-05T14:30:00-05:00", 40, "2014-04-14T14:30:00-05:00"),
    ("2014-03-05 08:15", -100, "2013-11-25 08:15"),
    ("20140305", 40, "20140414"),
    ("March 5th, 2014", 40, "April 14th, 2014"),
    ("March 5, 2014", -100, "November 25, 2013"),
    ("MARCH 5TH, 2014", 40, "APRIL 14TH, 2014"),
    ("march 5 2014", 40, "april 14 2014"),
    ("Mar. 5, 2014 10:30", 40, "Apr. 14, 2014 10:30"),
    ("Mar-05-2014", 40, "Apr-14-2014"),
    ("5 March 2014", 40, "14 April 2014"),
    ("05-Mar-14", -100, "25-Nov-13"),
    ("5 Mar '14", 40, "14 Apr '14"),
    ("Jan-2019", 40, "Feb-2019"),      # the 15th + 40 days = Feb 24, 2019
    ("January 2019", -100, "October 2018"),
    ("march of 2019", 40, "april of 2019"),
    ("03/2014", -100, "12/2013"),
    ("2014-03", 40, "2014-04"),
    ("12th of March", 40, "21st of April"),  # no year: leap reference year 2000
    ("Mar 12", 40, "Apr 21"),
    ("3/12", 40, "4/21"),
    ("Sept 5", 40, "Oct 15"),
    ("Monday, March 5, 2014", 300, "Tuesday, December 30, 2014"),
    ("Mon 3/5/14", -100, "Mon 11/25/13"),
    ("2019", 40, "2020"),
    ("2019", -40, "2018"),
    ("'98", 40, "'99"),
    ("Christmas 2019", -100, "September 16, 2019"),
    ("Thanksgiving of 2021", 40, "January 4, 2022"),   # 4th Thursday: Nov 25, 2021
    ("christmas", 40, "february 3"),
    ("NEW YEAR'S EVE", 40, "FEBRUARY 9"),
    ("Easter 2024", -100, "December 22, 2023"),        # Easter 2024 = March 31
    ("Memorial Day 2023", 40, "July 8, 2023"),         # last Monday of May = May 29
    ("Hanukkah 2019", 40, "Hanukkah 2020"),            # no rule: the year moves
    ("Dec 31, 1999", 40, "Feb 9, 2000"),
    ("12/15/2014", 40, "01/24/2015"),
    ("25/12/2014", 40, "03/02/2015"),     # day first only when the first number > 12
    ("2016-02-29", 45, "2016-04-14"),
    ("2/29/2016", -60, "12/31/2015"),
    ("Feb 29, 2016", 365, "Feb 28, 2017"),
    # several dates in one span all move
    ("3/5/2014-3/9/2014", 40, "4/14/2014-4/18/2014"),
    ("from 3/5/2014 to 4/1/2014", -100, "from 11/25/2013 to 12/22/2013"),
    ("Mon 3/5 - Wed 3/7", 40, "Sat 4/14 - Mon 4/16"),
    ("3/5/14 (Wed)", 40, "4/14/14 (Mon)"),
    # a day of the month alone only hides the day
    ("Friday the 13th", 40, "Wednesday the 22nd"),
    ("the 31st", 62, "the 4th"),
]


@pytest.mark.parametrize("text,offset,expected", SHIFT_TABLE)
def test_shift_keeps_format(text, offset, expected):
    assert shift_date_text(text, offset) == expected


@pytest.mark.parametrize("name,year,expected", [
    ("Thanksgiving", 2021, dt.date(2021, 11, 25)), ("Easter", 2019, dt.date(2019, 4, 21)),
    ("Good Friday", 2024, dt.date(2024, 3, 29)), ("Labor Day", 2020, dt.date(2020, 9, 7)),
    ("Mother's Day", 2024, dt.date(2024, 5, 12)), ("MLK Jr. Day", 2022, dt.date(2022, 1, 17)),
    ("Fourth of July", 2020, dt.date(2020, 7, 4)), ("Memorial Day", 2021, dt.date(2021, 5, 31)),
    ("Hanukkah", 2019, None),
])
def test_holiday_dates(name, year, expected):
    assert holiday_date(name, year) == expected


@pytest.mark.parametrize("text", [
    "the holidays", "the day before", "02/30/2014", "13/13/2014", "00/10/2014", "", "   ", "2014-13-01",
])
def test_unreadable_or_impossible_dates_give_none(text):
    assert shift_date_text(text, 40) is None


def test_context_year_decides_a_yearless_leap_day():
    # Feb 28 + 1 day is Feb 29 in a leap context year, Mar 1 otherwise.
    assert shift_date_text("2/28", 1, context_year=2016) == "2/29"
    assert shift_date_text("2/28", 1, context_year=2015) == "3/1"
    # Feb 29 written without a year still reads when the context year is not a leap year.
    assert shift_date_text("2/29", 1, context_year=2015) == "3/1"


def test_parse_fields():
    p = parse_date("Monday, March 5th, 2014")
    assert (p.year, p.month, p.day, p.weekday) == (2014, 3, 5, 0)
    assert p.fields["mon"] == (8, 13) and p.fields["wd"] == (0, 6)
    assert parse_date("3/5/49").year == 2049 and parse_date("3/5/50").year == 1950


@pytest.mark.parametrize("offset", _OFFSETS)
def test_every_offset_moves_every_partial_date(offset):
    for text in ("3/5", "Mar 5", "March", "Monday", "2019", "Jan-2019", "12th of March", "2/29"):
        out = shift_date_text(text, offset)
        assert out is not None and out != text, (text, offset, out)
    leap = shift_date_text("2016-02-29", offset)
    assert dt.date.fromisoformat(leap) == dt.date(2016, 2, 29) + dt.timedelta(days=offset)


dates = st.dates(min_value=dt.date(1901, 1, 1), max_value=dt.date(2098, 12, 31))
offsets = st.sampled_from(_OFFSETS)
NUMERIC_FORMATS = [
    ("{d.month:02d}/{d.day:02d}/{d.year}", r"(\d\d)/(\d\d)/(\d{4})", "mdy"),
    ("{d.year}-{d.month:02d}-{d.day:02d}", r"(\d{4})-(\d\d)-(\d\d)", "ymd"),
    ("{d.month}/{d.day}/{d.year}", r"(\d{1,2})/(\d{1,2})/(\d{4})", "mdy"),
]


def _read(text, rx, order):
    m = re.fullmatch(rx, text)
    assert m, text
    a, b, c = map(int, m.groups())
    return dt.date(c, a, b) if order == "mdy" else dt.date(a, b, c)


@settings(max_examples=200, deadline=None)
@given(dates, dates, offsets, st.sampled_from(NUMERIC_FORMATS))
def test_intervals_survive_and_format_kept(d1, d2, offset, fmt):
    template, rx, order = fmt
    out1 = shift_date_text(template.format(d=d1), offset)
    out2 = shift_date_text(template.format(d=d2), offset)
    n1, n2 = _read(out1, rx, order), _read(out2, rx, order)
    assert n1 - d1 == dt.timedelta(days=offset)
    assert n2 - n1 == d2 - d1


@settings(max_examples=200, deadline=None)
@given(dates, offsets, st.booleans())
def test_weekday_follows_the_new_date(d, offset, abbreviated):
    wd = d.strftime("%a" if abbreviated else "%A")
    text = f"{wd}, {d.strftime('%B')} {d.day}, {d.year}"
    out = shift_date_text(text, offset)
    new = d + dt.timedelta(days=offset)
    expected_wd = new.strftime("%a" if abbreviated else "%A")
    assert out == f"{expected_wd}, {new.strftime('%B')} {new.day}, {new.year}"


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40), offsets)
def test_any_text_gives_str_or_none(text, offset):
    out = shift_date_text(text, offset)
    assert out is None or isinstance(out, str)


def test_fake_date_is_iso_and_in_range():
    for n in (0, 1, 10**30, 2**255):
        d = dt.date.fromisoformat(fake_date(n))
        assert dt.date(1990, 1, 1) <= d <= dt.date(2019, 12, 31)


# Bugs reported by the dates detector's author, each checked against datetime by hand:
# Jan 10 + 40 days = Feb 19 (leap reference year 2000); Jun 3, 2014 + 40 = Jul 13;
# Mar 5, 2014 + 40 = Apr 14, - 100 = Nov 25, 2013; Mar 15, 2014 + 40 = Apr 24.
REPORTED_BUGS = [
    ("10-12 January", 40, "19-21 February"),           # was "10-22 February"
    ("June 3-5, 2014", 40, "July 13-15, 2014"),        # was "June 13-5, 2015"
    ("5MAR2014", 40, "14APR2014"),                     # was "5APR2015"
    ("05MAR14", -100, "25NOV13"),
    ("MAR2014", 40, "APR2014"),
    # month-year forms always change, even with an offset too small to leave the month
    ("Jan-2019", 5, "Feb-2019"),
    ("Jan-2019", -5, "Dec-2018"),
    ("Jan-2019", 20, "Feb-2019"),                      # Jan 15 + 20 = Feb 4: no extra step
    ("Jan-2019", 50, "Mar-2019"),                      # Jan 15 + 50 = Mar 6
    ("Dec '19", 5, "Jan '20"),
    ("Dec ’19", -40, "Nov ’19"),                  # a curly apostrophe too
    ("Jan 9th ’23", -40, "Nov 30th ’22"),
    ("03/2014", 1, "04/2014"),
    ("2014-03", -1, "2014-02"),
    ("March of 2019", 16, "April of 2019"),            # Mar 15 + 16 = Mar 31 -> one more month
]

# Day ranges: both ends move; a range whose ends land in different months names both.
RANGES = [
    ("June 3 to 5", 40, "July 13 to 15"),
    ("June 3rd & 5th", -40, "April 24th & 26th"),
    ("10th to 12th of March 2014", 40, "19th to 21st of April 2014"),
    ("June 28-30, 2014", 2, "June 30-July 2, 2014"),
    ("Dec 28-30, 2014", 2, "Dec 30, 2014-Jan 1, 2015"),
    ("28th-30th of December 2014", 2, "30th of December 2014-1st of January 2015"),
    ("28-30 June", 2, "30 June-2 July"),
    ("June 28-3", 5, "July 3-8"),                      # Jun 28-Jul 3 + 5 = Jul 3-8
    ("June 28-3", 2, "June 30-5"),                     # + 2 = Jun 30-Jul 5: layout kept
    ("June 28-3", 40, "August 7-12"),
    # several dates in one span: a yearless one takes the year of its dated neighbour
    ("3/5-3/7/2014", -40, "1/24-1/26/2014"),
    ("3/5 - 3/7/2014", 40, "4/14 - 4/16/2014"),
    ("12/30 - 1/2/2015", 2, "01/01 - 1/4/2015"),       # Dec 30, 2014 - Jan 2, 2015
    ("from 2008-2012", 40, "from 2009-2013"),
]

# Times of day inside a span never move, and are never read as dates.
TIMES_KEPT = [
    ("2014-03-05T14:30-05:00", 40, "2014-04-14T14:30-05:00"),
    ("2014-03-05T14:12:11-05:00", 40, "2014-04-14T14:12:11-05:00"),
    ("2014-03-05 08:15-08:30", 40, "2014-04-14 08:15-08:30"),
    ("3/5/2014 at 10-11am", 40, "4/14/2014 at 10-11am"),
    ("3/5/2014 1930", 40, "4/14/2014 1930"),
]

# Holidays: a weekday or year written beside the holiday follows the new date.
HOLIDAYS = [
    ("Easter Sunday", 5, "April 28"),                  # Easter 2000 = April 23
    ("Thanksgiving Thursday 2021", 40, "January 4 Tuesday 2022"),
    ("Good Friday 2024", -100, "December 20, 2023"),   # Mar 29, 2024 - 100
    ("July 4th, 2000", -30, "June 4th, 2000"),         # a date, not a holiday name
    ("4th of July", 40, "13th of August"),
    ("Fourth of July 2020", 40, "August 13, 2020"),
]

# Leap days, written with and without a year.
LEAP = [
    ("29 Feb 2016", -1, "28 Feb 2016"),
    ("2/28/2016", 1, "2/29/2016"),
    ("2/28/2015", 1, "3/1/2015"),
    ("12/31/2015", 60, "02/29/2016"),                  # two-digit fields: padded
    ("12/31/2016", -306, "02/29/2016"),
    ("Feb 29", 365, "Feb 28"),                         # reference year 2000 + 365 = 2001
]

# "May" alone is read as a full month name, "May." as an abbreviation.
MAY = [
    ("May 5", 40, "June 14"),
    ("May. 5, 2014", 40, "Jun. 14, 2014"),
    ("MAY 5 2014", -40, "MARCH 26 2014"),
]


@pytest.mark.parametrize("text,offset,expected",
                         REPORTED_BUGS + RANGES + TIMES_KEPT + HOLIDAYS + LEAP + MAY)
def test_shift_reported_and_wider_formats(text, offset, expected):
    assert shift_date_text(text, offset) == expected


@pytest.mark.parametrize("text", ["1990s", "'90s", "1990's", "mid-1990s", "the 2000s"])
@pytest.mark.parametrize("offset", [-364, -30, 30, 364])
def test_decades_stay_as_written(text, offset):
    # documented choice: a decade is no more specific than a ten-year span; never "1991s"
    assert shift_date_text(text, offset) == text


def test_decade_beside_a_date_only_the_date_moves():
    assert shift_date_text("1990s, last seen 3/5/2014", 40) == "1990s, last seen 4/14/2014"


@pytest.mark.parametrize("text", ["28-3 June", "June 5-5", "June 3-45, 2014"])
def test_unreadable_ranges_give_none(text):
    assert shift_date_text(text, 40) is None


MONTH_YEAR_FORMS = [("Jan-2019", "%b-%Y"), ("Dec '19", "%b '%y"), ("03/2014", "%m/%Y"),
                    ("2014-03", "%Y-%m"), ("March of 2019", "%B of %Y"), ("MAR2014", "%b%Y")]


@pytest.mark.parametrize("text,fmt", MONTH_YEAR_FORMS)
@pytest.mark.parametrize("offset", [1, -1, 7, -7, 15, -15, 16, -16, 30, -30, 45, 200, -364])
def test_month_year_always_moves_in_the_offsets_direction(text, fmt, offset):
    out = shift_date_text(text, offset)
    before = dt.datetime.strptime(text.title() if "%b" in fmt or "%B" in fmt else text, fmt)
    after = dt.datetime.strptime(out.title() if "%b" in fmt or "%B" in fmt else out, fmt)
    months = (after.year - before.year) * 12 + after.month - before.month
    assert out != text
    assert months * offset > 0                       # same direction as the offset
    # the 15th moved by the offset lands in that month, or one month further for small offsets
    expected = dt.date(before.year, before.month, 15) + dt.timedelta(days=offset)
    natural = (expected.year - before.year) * 12 + expected.month - before.month
    assert months == (natural if natural else (1 if offset > 0 else -1))


@pytest.mark.parametrize("texts,expected", [
    (["14.02.1931", "02.03.2024"], True),
    (["3/5/2014", "25/12"], True),
    (["02/14/2014", "25/12/2014", "13/5/14"], True),
    (["02/14/2014", "3/5/2014"], False),
    (["02/14/2014", "25/12/2014"], False),           # a tie keeps the U.S. default
    (["13.5 g/dL", "1.2.2014"], False),               # decimals are no evidence
    ([], False),
])
def test_day_first_in(texts, expected):
    assert day_first_in(texts) is expected


def test_day_first_reads_ambiguous_dates_day_first():
    # 2 March 2024 + 40 = 11 April; month first it would be 3 February + 40 = 14 March
    assert shift_date_text("02.03.2024", 40, day_first=True) == "11.04.2024"
    assert shift_date_text("02.03.2024", 40) == "03.14.2024"
    # a date only readable month first stays month first
    assert shift_date_text("02/14/2014", 40, day_first=True) == "03/26/2014"
    # yearless too: 3 Feb -> 3 February (2000) + 40 = 14 March, written day first
    assert shift_date_text("3/2", 40, day_first=True) == "14/3"


def test_weekday_decides_an_ambiguous_numeric_date():
    # 4 March 2024 is a Monday, 3 April 2024 a Wednesday
    assert (parse_date("Mon 04/03/2024").month, parse_date("Mon 04/03/2024").day) == (3, 4)
    assert (parse_date("Wed 04/03/2024").month, parse_date("Wed 04/03/2024").day) == (4, 3)
    assert shift_date_text("Mon 04/03/2024", 40) == "Sat 13/04/2024"    # 4 Mar + 40 = 13 Apr
    assert shift_date_text("Wed 04/03/2024", 40) == "Mon 05/13/2024"    # 3 Apr + 40 = 13 May
    # a weekday matching neither reading changes nothing: month first, weekday of the new date
    assert shift_date_text("Fri 04/03/2024", 40) == "Mon 05/13/2024"


def test_parse_range_fields():
    p = parse_date("June 3-5, 2014")
    assert (p.pattern, p.year, p.month, p.day, p.day2) == ("month_day_range", 2014, 6, 3, 5)
    assert p.fields["d2"] == (7, 8)
    assert parse_date("1990s").pattern == "decade"


_MON_RX = "|".join(m.title() for m in MONTHS)
_RANGE_OUT = re.compile(rf"(?P<m1>{_MON_RX}) (?P<d1>\d+)(?:, (?P<y1>\d{{4}}))?-(?:(?P<m2>{_MON_RX}) )?"
                        rf"(?P<d2>\d+), (?P<y2>\d{{4}})")


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=dt.date(1901, 1, 1), max_value=dt.date(2098, 12, 31)),
       st.integers(min_value=1, max_value=27), offsets)
def test_range_ends_move_by_the_offset(start, length, offset):
    end = start + dt.timedelta(days=length)
    if end.month != start.month:
        start, end = start.replace(day=1), start.replace(day=1) + dt.timedelta(days=length)
    text = f"{start.strftime('%B')} {start.day}-{end.day}, {start.year}"
    out = shift_date_text(text, offset)
    m = _RANGE_OUT.fullmatch(out)
    assert m, (text, out)
    new1, new2 = start + dt.timedelta(days=offset), end + dt.timedelta(days=offset)
    y1 = int(m["y1"] or m["y2"])
    got1 = dt.date(y1, MONTHS.index(m["m1"].lower()) + 1, int(m["d1"]))
    got2 = dt.date(int(m["y2"]), MONTHS.index((m["m2"] or m["m1"]).lower()) + 1, int(m["d2"]))
    assert (got1, got2) == (new1, new2)


# A two-digit day is written padded in numeric and fixed-width layouts (%d), not beside a
# month name after a space (%-d); "10 January" (%d or %-d?) is read as not padded. %o: the
# ordinal suffix of the day.
FULL_FORMATS = ["%m/%d/%Y", "%-m/%-d/%y", "%Y-%m-%d", "%B %-d, %Y", "%b %-d, %Y", "%-d %B %Y",
                "%d-%b-%Y", "%d%b%Y", "%A, %B %-d, %Y", "%a %m/%d/%Y", "%b. %-d, %Y", "%d.%m.%Y",
                "%-d%o of %B %Y", "%B %-d%o, %Y", "%Y%m%d", "%Y-%m-%dT08:30:00-05:00", "%b-%d-%y"]


def _fmt(d: dt.date, fmt: str, upper: bool) -> str:
    # %-d (no zero padding) is not portable: written by hand
    suffix = "th" if 10 <= d.day <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d.day % 10, "th")
    fmt = fmt.replace("%-d", str(d.day)).replace("%-m", str(d.month)).replace("%o", suffix)
    out = d.strftime(fmt)
    return out.upper() if upper else out


@settings(max_examples=400, deadline=None)
@given(st.dates(min_value=dt.date(1951, 1, 1), max_value=dt.date(2048, 6, 30)), offsets,
       st.sampled_from(FULL_FORMATS), st.booleans())
def test_every_full_format_moves_exactly_and_keeps_its_layout(d, offset, fmt, upper):
    # "May" without a full stop reads as a full month name (documented), so "%b" is ambiguous
    assume(not (d.month == 5 and "%b" in fmt and "%b." not in fmt))
    # "10/10/00" (%-m/%-d or %m/%d?) is read as padded
    assume(not ("%-m/%-d" in fmt and d.month >= 10 and d.day >= 10))
    text = _fmt(d, fmt, upper)
    out = shift_date_text(text, offset, day_first=fmt.startswith("%d."))
    assert out == _fmt(d + dt.timedelta(days=offset), fmt, upper), (text, offset)


CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "notes.jsonl"


@pytest.mark.skipif(not CORPUS.exists(), reason="corpus/notes.jsonl absent")
@pytest.mark.parametrize("key", ["k1", "k2", "k3"])
def test_every_corpus_date_span_moves(key):
    """Every gold DATE span of the corpus is read, changes (decades excepted, by design), and
    every full date moves by exactly the key's offset, so intervals within a note survive."""
    from deid_core.readers import read_corpus

    offset = LinkageKey.from_user(key).date_offset_days()
    problems = []
    for doc in read_corpus(str(CORPUS)):
        texts = [doc.text[s.start:s.end] for s in doc.spans if s.category == "DATE"]
        day_first = day_first_in(texts)
        for text in texts:
            out = shift_date_text(text, offset, day_first=day_first)
            if out is None or (out == text and parse_date(text).pattern != "decade"):
                problems.append((doc.id, text, out))
                continue
            before = parse_date(text, day_first=day_first)
            after = parse_date(out, day_first=day_first)
            if before is None:  # a holiday: written as the shifted month and day
                continue
            if None not in (before.year, before.month, before.day):
                moved = (dt.date(after.year, after.month, after.day)
                         - dt.date(before.year, before.month, before.day))
                if moved != dt.timedelta(days=offset):
                    problems.append((doc.id, text, out))
    assert problems == []
