"""The location detector read with knowledge (lists/clinical_abbreviations.tsv,
lists/english_common.tsv, lists/facility_short_forms.tsv, lists/care_chains.txt,
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


#: Facilities and organisations known by name or shape: (text, the span's text, label).
KNOWN = [
    ("home PT via Kindred at Home starting Monday.", "Kindred at Home", "HOSPITAL"),
    ("labs drawn at quest diagnostics on friday", "quest diagnostics", "ORGANIZATION"),
    ("Walker and commode delivered by Lincare.", "Lincare", "ORGANIZATION"),
    ("admitted to mercy hosp last week with cp", "mercy hosp", "HOSPITAL"),
    ("TRANSFERRED FROM GOOD SHEPHERD HOSP. FOR CABG", "GOOD SHEPHERD HOSP.", "HOSPITAL"),
    ("Spent two weeks at Saint Agnes Rehab after the fall.", "Saint Agnes Rehab", "HOSPITAL"),
    ("Pipefitter, IBEW Local 58 since 1990.", "IBEW Local 58", "ORGANIZATION"),
    ("Daughter teaches at Willow Brook Middle School.", "Willow Brook Middle School", "ORGANIZATION"),
    ("Brought in by Harlan County EMS.", "Harlan County EMS", "ORGANIZATION"),
]


@pytest.mark.parametrize("text,sub,label", KNOWN, ids=[k[1] for k in KNOWN])
def test_known_facilities_and_organisations(text, sub, label):
    spans = [(text[s.start:s.end], s.label) for s in analyze(text).spans]
    assert (sub, label) in spans, spans


#: Text no known-name or shape rule may take: (text, word that must stay).
NOT_KNOWN = [
    ("CVS: RRR, no murmur, no JVD.", "CVS"),
    ("Taken to the county hospital by her son.", "county"),
    ("Given a local anesthetic, tolerated well.", "local"),
    ("Called the fire department about the smoke alarm.", "fire"),
    ("Mental Health was consulted for SI.", "Mental"),
    ("PT rec acute rehab; she prefers Baltimore rehab.", "rehab"),
]


@pytest.mark.parametrize("text,word", NOT_KNOWN, ids=[k[0][:30] for k in NOT_KNOWN])
def test_not_known(text, word):
    a = text.index(word)
    spans = [s for s in analyze(text).spans if s.start < a + len(word) and a < s.end]
    assert spans == [], [(text[s.start:s.end], s.source) for s in spans]
