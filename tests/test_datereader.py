"""The one date reader's field readers (read_match, read_text) and holidays (parse_holiday),
as the date detector and the date shift use them. Every example is invented."""
from __future__ import annotations

import datetime as dt

import pytest

from deid_core import datereader
from deid_core.detectors import dates


@pytest.mark.parametrize("text,pattern,ymd,fields", [
    ("10/27/2020", "mdy", (2020, 10, 27), {"m": "10", "d": "27", "y": "2020"}),
    ("3.5.14", "mdy", (2014, 3, 5), {"y": "14"}),
    ("13/02/2014", "mdy", (2014, 13, 2), {}),        # as written: nothing swapped, nothing checked
    ("9/12", "month_day_numeric", (None, 9, 12), {"d": "12"}),
    ("03/2014", "numeric_month_year", (2014, 3, None), {"m": "03"}),
    ("2014-03", "iso_month", (2014, 3, None), {"y": "2014"}),
    ("Mar. 7, 2014", "month_day", (2014, 3, 7), {"mon": "Mar", "d": "7"}),
    ("12th of March", "day_month", (None, 3, 12), {"suf": "th"}),
])
def test_read_text_reads_the_whole_value(text, pattern, ymd, fields):
    note = "seen " + text + " today"
    p = datereader.read_text(note, 5, 5 + len(text))
    assert p is not None and p.pattern == pattern
    assert (p.year, p.month, p.day) == ymd
    assert (p.start, p.end) == (5, 5 + len(text))
    for name, written in fields.items():
        s, e = p.fields[name]
        assert note[s:e] == written


@pytest.mark.parametrize("text", ["", "seen today", "3/5/2014 and more", "Foley catheter"])
def test_read_text_gives_none_unless_all_of_it_is_a_date(text):
    assert datereader.read_text(text) is None


@pytest.mark.parametrize("regex,text,pivot,ymd,year_field", [
    (dates._MONTH_DAY, "March 5th, '19", 50, (2019, 3, 5), "19"),   # the apostrophe stays out
    (dates._MONTH_DAY, "Mar-05-49", 50, (2049, 3, 5), "49"),        # the year in its second place
    (dates._MONTH_DAY, "Mar-05-49", 31, (1949, 3, 5), "49"),        # the pivot is a parameter
    (dates._DAY_MONTH, "5 MAR 2014", 50, (2014, 3, 5), "2014"),
    (dates._NUMERIC, "02/30/14", 50, (2014, 2, 30), "14"),           # values as written
    (dates._COMPACT, "19500302", 50, (1950, 3, 2), "1950"),
])
def test_read_match_reads_the_detectors_groups(regex, text, pivot, ymd, year_field):
    m = regex.match(text)
    p = datereader.read_match(m, pivot)
    assert (p.year, p.month, p.day) == ymd
    s, e = p.fields["y"]
    assert text[s:e] == year_field


@pytest.mark.parametrize("text,default,name,year,written,date,weekdays", [
    ("Christmas 2019", 2000, "Christmas", 2019, True, dt.date(2019, 12, 25), []),
    ("Thanksgiving Thursday 2021", 2000, "Thanksgiving", 2021, False, dt.date(2021, 11, 25),
     ["Thursday"]),
    ("Easter", 2024, "Easter", 2024, False, dt.date(2024, 3, 31), []),
])
def test_parse_holiday(text, default, name, year, written, date, weekdays):
    h = datereader.parse_holiday(text, default)
    assert (h.name, h.year, h.year_written, h.date) == (name, year, written, date)
    assert [text[s:e] for s, e in h.weekdays] == weekdays
    assert (h.year_field is not None) == (not written and str(year) in text)


@pytest.mark.parametrize("text", ["Hanukkah", "Tuesday", "seen on 3/5", ""])
def test_parse_holiday_reads_only_dated_holidays(text):
    assert datereader.parse_holiday(text) is None
