"""The location detector read with knowledge (lists/clinical_abbreviations.tsv,
lists/english_frequency.tsv, lists/facility_short_forms.tsv, lists/care_chains.txt,
lists/organisation_shapes.txt): what a facility, organisation or ward rule must find, and the
clinical shorthand and ordinary words it must never take. Every example is invented."""
from __future__ import annotations

import pytest

from deid_core import analyze
from deid_core.detectors.locations.lexicon import clinical_shorthand, ordinary_word

#: Clinical shorthand or ordinary words after at/from/to that no location rule may take.
SHORTHAND_AFTER_CONTEXT = [
    "PICC at RUE placed without issue.",
    "NS @ KVO overnight, flushes fine.",
    "cx sent from LLE wound yesterday.",
    "Pt arrived from CVICU this morning.",
    "diuresed from LASIX 40 iv x2.",
    "Line dressing changed at LUE site.",
    "Transferred to SICU after the case.",
    "She gets anxious at Night, sleeps at Home.",
    "Tele box placed, drip at TKO.",
]


@pytest.mark.parametrize("text", SHORTHAND_AFTER_CONTEXT, ids=[t[:30] for t in SHORTHAND_AFTER_CONTEXT])
def test_no_location_taken_from_shorthand(text):
    spans = [s for s in analyze(text).spans if s.source.startswith("locations:")]
    assert spans == [], [(text[s.start:s.end], s.source) for s in spans]


@pytest.mark.parametrize("word,expected", [
    ("RUE", True), ("kvo", True), ("CVICU", True), ("Lasix", True), ("LLE.", True),
    ("MH", False),        # weak shorthand that is also the initials of many Memorial Hospitals
    ("Maimonides", False), ("Hazelden", False), ("MGH", False),
])
def test_clinical_shorthand(word, expected):
    assert clinical_shorthand(word) is expected


@pytest.mark.parametrize("word,expected", [
    ("Home", True), ("Night", True), ("Mercy", False), ("Stanford", False), ("Hazelden", False),
])
def test_ordinary_word(word, expected):
    assert ordinary_word(word) is expected
