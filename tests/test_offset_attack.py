"""Issue 11 item 3: the date offset cannot be read back from surrogate output alone.

The attacker sees only the output of invented notes made with random keys. Two attacks:

* bare years: a year written alone moved by exactly one year in the offset's direction, so its
  direction told the offset's sign; now its direction is drawn from the key on its own, so a
  guess of the sign from it is right about half the time;
* pairing: a date only partly detected (``3 / 5 / 2014``, ``March the fifth, 2014``: only the
  year found) kept its month and day in clear beside a fully shifted copy of the same date, so
  the difference of the two gave the exact offset; now the whole date is one span, shifted or
  faked, and no candidate difference gives the offset.

Documented range (deid_core.surrogate.core): a bare year reveals the original year within one
year and nothing about the offset; a reader who knows an original full date learns the offset
(what a shift is), which these attacks do not assume.
"""
import datetime as dt
import random
import re

from deid_core import analyze
from deid_core.keys import OFFSET_MAX_DAYS, OFFSET_MIN_DAYS, LinkageKey
from deid_core.surrogate import surrogate

NOTES = [
    "Seen on March the fifth, 2014 for follow-up. Visit 03/05/2014 confirmed. In 2014 she moved.",
    "Admitted 3 / 5 / 2014. Discharged 03/05/2014 home. Prior surgery in 2009.",
    "Clinic note of March the fifth, 2014; labs drawn 03/05/2014; moved here in 2011.",
]
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10}
MONTHS = {m: i for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july",
                                       "august", "september", "october", "november", "december"], 1)}
YEARS_IN = {2014, 2009, 2011}


def keys(n=200, seed=11):
    rng = random.Random(seed)
    return [LinkageKey(rng.randbytes(32)) for _ in range(n)]


def _dates(out: str) -> list[dt.date]:
    """Every date the attacker can read in the output (spaces around separators allowed)."""
    found = []
    for m in re.finditer(r"(\d{1,2})\s*/\s*(\d{1,2})\s*/\s*(\d{4})", out):
        try:
            found.append(dt.date(int(m.group(3)), int(m.group(1)), int(m.group(2))))
        except ValueError:
            pass
    for m in re.finditer(r"(\d{4})-(\d\d)-(\d\d)", out):
        try:
            found.append(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
        except ValueError:
            pass
    for m in re.finditer(r"([A-Za-z]+) the ([a-z]+), (\d{4})", out):
        if m.group(1).lower() in MONTHS and m.group(2) in ORDINALS:
            found.append(dt.date(int(m.group(3)), MONTHS[m.group(1).lower()], ORDINALS[m.group(2)]))
    return found


def _pairing_candidates(out: str) -> set[int]:
    """Offsets the pairing attack proposes: differences between two dates of the output, with
    the year of either moved by up to one (what a bare-year move could hide)."""
    ds = _dates(out)
    cands = set()
    for a in ds:
        for b in ds:
            for dy in (-1, 0, 1):
                try:
                    diff = (b - a.replace(year=a.year + dy)).days
                except ValueError:
                    continue
                if OFFSET_MIN_DAYS <= abs(diff) <= OFFSET_MAX_DAYS and diff % 7:
                    cands.add(diff)
    return cands


def test_pairing_attack_recovers_no_offset():
    recovered = 0
    for key in keys():
        offset = key.date_offset_days()
        for note in NOTES:
            cands = _pairing_candidates(surrogate(analyze(note), key).text)
            if offset in cands and len(cands) <= 4:
                recovered += 1
                break
    assert recovered == 0


def test_bare_year_direction_says_nothing_about_the_offset():
    agree = total = 0
    for key in keys():
        sign = 1 if key.date_offset_days() > 0 else -1
        out = surrogate(analyze("Moved here in 2011. Retired 2009."), key).text
        years = [int(y) for y in re.findall(r"\b(\d{4})\b", out)]
        assert years and not set(years) & YEARS_IN  # the years themselves changed
        step = years[0] - 2011
        assert step in (-1, 1)
        agree += step == sign
        total += 1
    assert 0.35 <= agree / total <= 0.65  # chance: the direction is independent of the offset


import pytest  # noqa: E402


@pytest.mark.parametrize("text,date", [
    ("Seen March the fifth, 2014 in clinic.", "March the fifth, 2014"),
    ("Seen 3 / 5 / 2014.", "3 / 5 / 2014"),
    ("Seen 3 - 5 - 2014.", "3 - 5 - 2014"),
    ("Parkinson since 2014, on Foley catheter.", "2014"),           # a year alone stays a year
    ("Glasgow Coma Scale 15 in 2014.", "2014"),
    ("PEEP 5 / 10 / 2014 settings", "5 / 10 / 2014"),              # shape of a date: masked whole
    ("Dose 40 / 50 / 2014 mg", None),                               # not a month and day: no change
])
def test_a_partly_detected_date_is_masked_whole(text, date):
    spans = [text[s.start:s.end] for s in analyze(text).spans if s.label == "DATE"]
    if date is None:
        assert not any("/" in s for s in spans)
    else:
        assert date in spans


# -- lone weekdays and days of the month ---------------------------------------------------------
# A weekday or a day of the month written without a month and day used to move by the offset
# (mod 7, mod 31): a reader who knew the original ("seen Monday", "on the 5th": clinic days,
# a note's own heading) read the offset modulo 7 and 31, and with both, modulo 217, which leaves
# two or three of the 670 possible offsets. Now they move by a keyed step of their own.

from deid_core.analyze import Analysis  # noqa: E402
from deid_core.dateshift import WEEKDAYS  # noqa: E402
from deid_core.spans import Span  # noqa: E402

_OFFSETS = [s * n for n in range(OFFSET_MIN_DAYS, OFFSET_MAX_DAYS + 1) if n % 7 for s in (-1, 1)]
_WD = {w.lower(): i for i, w in enumerate(WEEKDAYS)}


def _marked(text: str, *values: str) -> Analysis:
    """``text`` with each of ``values`` marked as a DATE span (what the surrogate writer gets)."""
    spans = []
    for v in values:
        i = text.index(v)
        spans.append(Span(i, i + len(v), "DATE", "certain", "test"))
    spans.sort()
    return Analysis(text, tuple(spans), tuple(spans))


def _lone_candidates(out: str) -> set[int]:
    """Offsets a reader who knows the originals (Monday, the 5th) proposes from the output."""
    wd = re.search(r"seen (\w+)day", out)
    day = re.search(r"on the (\d+)", out)
    step_wd = (_WD[wd.group(1).lower() + "day"] - _WD["monday"]) % 7
    step_d = (int(day.group(1)) - 5) % 31
    return {o for o in _OFFSETS if o % 7 == step_wd and o % 31 == step_d}


@pytest.mark.parametrize("note,values", [
    ("Patient seen Monday in clinic; return on the 5th.", ("Monday", "the 5th")),
    ("SEEN MONDAY. Labs on the 5th of each month.", ("MONDAY", "the 5th")),
])
def test_lone_weekday_and_day_recover_no_offset(note, values):
    recovered = agree_mod7 = 0
    ks = keys()
    for key in ks:
        offset = key.date_offset_days()
        out = surrogate(_marked(note, *values), key).text.lower()
        assert "monday" not in out and "the 5th" not in out     # both still change
        cands = _lone_candidates(out)
        recovered += offset in cands and len(cands) <= 4
        wd = re.search(r"seen (\w+day)", out).group(1)
        agree_mod7 += (_WD[wd] - _WD["monday"]) % 7 == offset % 7
    assert recovered <= 4                      # chance: about 3 of 670 offsets per key
    assert agree_mod7 / len(ks) <= 0.3         # chance: 1 in 6 (before: every key)


@pytest.mark.parametrize("text,value,kept", [
    ("Seen Monday, March 5, 2014 in clinic.", "Monday, March 5, 2014", None),
    ("Seen Tues 3/4 for Parkinson follow-up.", "Tues 3/4", "Parkinson"),
])
def test_a_weekday_with_a_month_and_day_follows_the_shifted_date(text, value, kept):
    """With a month and day the weekday stays the new date's (the offset moves it, as before)."""
    for key in keys(20):
        out = surrogate(_marked(text, value), key)
        fake = out.text[out.placed[0].out_start:out.placed[0].out_end]
        if kept:
            assert kept in out.text
        if "2014" in value:
            d = dt.date(2014, 3, 5) + dt.timedelta(days=key.date_offset_days())
            assert fake == f"{WEEKDAYS[d.weekday()].capitalize()}, {d:%B} {d.day}, {d.year}"
        else:
            d = dt.date(2000, 3, 4) + dt.timedelta(days=key.date_offset_days())
            assert fake.split()[1] == f"{d.month}/{d.day}"


@pytest.mark.parametrize("text,value", [
    ("PMH: MI '92, CABG X3 '95", "92"),        # the span is the digits; the apostrophe stays text
    ("PMH: MI '92, CABG X3 '95", "'95"),
    ("S/P CVA 81 AND CABG 1995", "81"),
])
def test_a_two_digit_year_stays_a_two_digit_year(text, value):
    i = text.index(value)
    a = Analysis(text, (Span(i, i + len(value), "DATE", "certain", "dates:year_apostrophe"),), ())
    for key in ("k" * 16, "another key 1234"):
        out = surrogate(a, key).text
        new = out[i:len(out) - (len(text) - i - len(value))]
        digits = value.lstrip("'")
        assert re.fullmatch(r"'?\d\d", new) and new != value, (value, new)
        assert (int(new.lstrip("'")) - int(digits)) % 100 in (1, 99)   # one year up or down
