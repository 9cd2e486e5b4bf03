"""Tables for the AGE detector: ages over 89 (span = the number only), and ages 89 and under,
durations, temperatures and doses that must yield nothing."""
from __future__ import annotations


import pytest
import ruletable

from deid_core.detectors import ages
from deid_core.spans import CERTAIN, REVIEW

C, R = CERTAIN, REVIEW


found = ruletable.finder(ages.detect)


FOUND = [
    ("92 yo F with AF", [("92", C)]),
    ("92 y/o male", [("92", C)]),
    ("92yoF", [("92", C)]),
    ("a 92-year-old woman", [("92", C)]),
    ("92 year old", [("92", C)]),
    ("92 years old", [("92", C)]),
    ("93 yrs old", [("93", C)]),
    ("91 years of age", [("91", C)]),
    ("104 y.o.", [("104", C)]),
    ("aged 95", [("95", C)]),
    ("Age: 101", [("101", C)]),
    ("AGE 92", [("92", C)]),
    ("Age:92", [("92", C)]),
    ("at the age of 93,", [("93", C)]),
    ("a 90 year old", [("90", C)]),
    ("a 94 M presents", [("94", C)]),
    ("is a 96 female", [("96", C)]),
    ("ninety-four year old", [("ninety-four", C)]),
    ("Ninety four year-old", [("Ninety four", C)]),
    ("aged ninety-one", [("ninety-one", C)]),
    ("one hundred and two years old", [("one hundred and two", C)]),
    ("in her 90s", [("90s", C)]),
    ("in his late 90's", [("90's", C)]),
    ("in their nineties", [("nineties", C)]),
    ("in her 100s", [("100s", C)]),
    ("he is 92 years.", [("92", R)]),
    ("DOB: 1/15/1929 (93 y)", [("93", C)]),
    ("Barrowman, Cecily (F, 93)", [("93", C)]),
    ("Age | 96", [("96", C)]),
    ("(turns 90 next month)", [("90", C)]),
    ("leopold fairweather, 96, lives at", [("96", R)]),
    ("SISTER YVETTE (92) IN", [("92", R)]),
    ("92-year-old and 95-year-old sisters", [("92", C), ("95", C)]),
    ("He is ninety-four.", [("ninety-four", C)]),
    ("She was ninety-one when widowed", [("ninety-one", C)]),
    ("He is now ninety-three, lives alone", [("ninety-three", C)]),
    ("She turned ninety-one last week.", [("ninety-one", C)]),
    ("turns ninety in May", [("ninety", C)]),
    ("Mother died at ninety-two.", [("ninety-two", C)]),
    ("Father is one hundred and one.", [("one hundred and one", C)]),
    ("age ninety", [("ninety", C)]),
    ("She turns 90 today.", [("90", C)]),
    ("She is 94.", [("94", C)]),
    ("he was 96, lives alone", [("96", C)]),
]

NOTHING = [
    "67 yo",
    "a 45-year-old man",
    "age 89",
    "89-year-old",
    "in her 80s",
    "92 years of smoking",
    "100 years ago",
    "temp 98 F",
    "98.6 F",
    "95 mg",
    "HR 92",
    "SpO2 98%",
    "ninety minutes",
    "age 95 days",
    "BP 132/92",
    "gestational age 36 weeks",
    "1992",
    "the 1990s",
    "x 92",
    "92.5 kg",
    "150 years old",
    "HR 95, BP 140/92",
    "SpO2 (98%)",
    "Temp is 98 F",
    "sats in the 90s",
    "SBP in the 90s",
    "pulse was ninety.",
    "HR at ninety",
    "BP was ninety over sixty",
    "He is ninety percent better",
    "waited ninety.",
    "flexed at ninety degrees",
    "is ninety minutes away",
    "she is 92% on RA",
    "he is 98.6",
    "she is 90 pounds",
    "HR is 94.",
    "he is 92 kg",
]


test_found = ruletable.found_test(found, FOUND, label="AGE")
test_nothing = ruletable.nothing_test(found, NOTHING)
test_sources_named = ruletable.sources_test(
    ages.detect, "92 yo; Age: 101; a 94 M; ninety-four year old; in her 90s",
    ["ages:digits_suffix", "ages:age_label", "ages:article_sex", "ages:words", "ages:decade"])


@pytest.mark.parametrize("words,value", [
    ("ninety", 90), ("ninety-four", 94), ("Ninety Nine", 99), ("one hundred", 100),
    ("hundred and two", 102), ("one hundred twenty", 120), ("eighty-nine", None), ("fish", None)])
def test_words_to_number(words, value):
    assert ages.words_to_number(words) == value
