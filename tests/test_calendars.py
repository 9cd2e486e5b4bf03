"""The calendar, the one date reader and the pattern runner the shape detectors share.
Every example is invented."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from deid_core import calendars, datereader
from deid_core.detectors.patterns import Emitter, Hit, Pattern, clear_before, label_before, run
from deid_core.rules import Rule
from deid_core.spans import CERTAIN, REVIEW


@pytest.mark.parametrize("digits,pivot,year", [
    ("49", 50, 2049), ("50", 50, 1950), ("30", 31, 2030), ("31", 31, 1931), ("1987", 50, 1987),
])
def test_two_digit_year_rule_is_a_parameter(digits, pivot, year):
    assert calendars.expand_year(digits, pivot) == year


@pytest.mark.parametrize("name,year,expected", [
    ("Christmas Eve", 2020, dt.date(2020, 12, 24)), ("X-mas", 2021, dt.date(2021, 12, 25)),
    ("Easter Sunday", 2024, dt.date(2024, 3, 31)), ("St. Patrick's Day", 2023, dt.date(2023, 3, 17)),
    ("Presidents Day", 2024, dt.date(2024, 2, 19)), ("Labour Day", 2019, dt.date(2019, 9, 2)),
    ("Memorial Day", 2024, dt.date(2024, 5, 27)), ("Ramadan", 2024, None), ("Tuesday", 2024, None),
])
def test_holiday_dates_from_the_list(name, year, expected):
    assert calendars.holiday_date(name, year) == expected


def test_holiday_regex_reads_every_listed_name():
    rx = re.compile(calendars.holiday_regex() + r"$", re.I)
    for name in calendars.holiday_names():
        assert rx.match(name.replace("'", "’")), name
    dated = re.compile(calendars.holiday_regex(dated_only=True) + r"$", re.I)
    assert not dated.match("hanukkah") and dated.match("labor day")


def test_valid_and_real_dates():
    assert calendars.valid_date(2, 29) and not calendars.valid_date(4, 31)
    assert calendars.real_date(2016, 2, 29, 2000) and not calendars.real_date(2015, 2, 29, 2000)
    assert calendars.real_date(None, 2, 29, 2000) and calendars.real_date(None, None, 31)
    assert calendars.month_number("Sept.") == 9 and calendars.weekday_number("Thurs") == 3


def test_reader_gives_field_offsets_and_every_date():
    text = "seen 03/05/2014, then Mar. 7, 2014; 02/30/2014 is no date; 1950-03-02"
    got = [(p.pattern, text[m.start():m.end()]) for p, m in datereader.iter_dates(text)]
    # the impossible date is skipped; its year alone is still read
    assert got == [("mdy", "03/05/2014"), ("month_day", "Mar. 7, 2014"), ("year", "2014"),
                   ("iso", "1950-03-02")]
    p, m = next(datereader.iter_dates("on 3/2/50"))
    assert p.year == 1950 and p.fields["d"] == (5, 6)
    assert datereader.day_readings(p, m) == {(1950, 3, 2), (1950, 2, 3)}
    assert next(datereader.iter_dates("3/2/30", pivot=31))[0].year == 2030


@pytest.mark.parametrize("value,is_date", [
    ("3/5/2014", True), ("2014-03-05", True), ("3/5", True), ("13/13/2014", False),
    ("4471203", False), ("3/5/2014x", False),
])
def test_numeric_date(value, is_date):
    assert datereader.numeric_date(value) is is_date


_LABEL = re.compile(r"\bref[ :]*$")
#: Invented rules of an invented detector "t" for the runner's tests.
_PAIR = Rule("t:pair", ("IDNUM",), (CERTAIN,), "two numbers joined by a hyphen")
_NUM = Rule("t:num", ("IDNUM",), (CERTAIN, REVIEW), "four digits", amber="no label before them")
_NEVER = Rule("t:never", ("IDNUM",), (CERTAIN,), "a digit in a note holding zzz")


@pytest.mark.parametrize("text,expected", [
    ("ref 1234 and 5678", [("1234", CERTAIN, "t:num"), ("5678", REVIEW, "t:num")]),
    ("x9999 pair 12-34", [("12", CERTAIN, "t:pair"), ("34", CERTAIN, "t:pair")]),
])
def test_runner(text, expected):
    table = (
        Pattern(_PAIR, re.compile(r"(\d\d)-(\d\d)"), "IDNUM",
                validator=lambda m: [Hit(m.start(1), m.end(1)), Hit(m.start(2), m.end(2))]),
        Pattern(_NUM, re.compile(r"\d{4}"), "IDNUM", context=_LABEL, without_context=REVIEW,
                validator=lambda m: clear_before(m.string, m.start())),
        Pattern(_NEVER, re.compile(r"\d"), "IDNUM", gate=("zzz",)),
    )
    spans = list(run(table, text, Emitter()))
    assert [(text[s.start:s.end], s.tier, s.source) for s in spans] == expected


def test_label_before_stays_on_the_line():
    assert label_before("ref\n1234", 4, _LABEL)          # a label ending the previous line
    assert not label_before("ref\n\n1234", 5, _LABEL)    # not across a blank line
