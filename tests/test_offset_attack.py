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
