"""Date parsing, shifting and format keeping (deid_core.dateshift)."""
import datetime as dt
import re

import pytest
from hypothesis import given, settings, strategies as st

from deid_core.dateshift import fake_date, holiday_date, parse_date, shift_date_text
from deid_core.keys import _OFFSETS

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
