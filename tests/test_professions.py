"""Profession detector (deid_core.detectors.professions): occupations with context, and what
must be left alone. All names and notes are invented."""
from __future__ import annotations

import ruletable

from deid_core.detectors import professions
from deid_core.document import Document
from deid_core.spans import CERTAIN, REVIEW

C, R = CERTAIN, REVIEW


#: Resolved profession spans as (covered text, label, tier).
found = ruletable.finder(professions.detect, resolved=True)


FOUND = [
    ("Patient: Rutendo Mapfumo, 54, high school chemistry teacher",
     [("high school chemistry teacher", "PROFESSION", C)]),
    ("The patient, a 68 yo\ncommercial pilot, asked", [("commercial pilot", "PROFESSION", C)]),
    ("her grandson Mateus Lund, a civil engineer living abroad", [("civil engineer", "PROFESSION", C)]),
    ("Father Marcus Clarke is a firefighter on shifts.", [("firefighter", "PROFESSION", C)]),
    ("He works as a carpenter.", [("carpenter", "PROFESSION", C)]),
    ("She is a retired teacher.", [("teacher", "PROFESSION", C)]),
    ("Occupation: plumber", [("plumber", "PROFESSION", C)]),
    ("He is a mechanic by trade.", [("mechanic", "PROFESSION", C)]),
    ("42 yo line cook at a diner", [("line cook", "PROFESSION", C)]),
    ("a 67 yo retired court stenographer", [("court stenographer", "PROFESSION", C)]),
    ("Former tobacco farmer, widowed.", [("tobacco farmer", "PROFESSION", C)]),
    ("Works as a sous-chef at a bistro.", [("sous-chef", "PROFESSION", C)]),
    ("She was a piano teacher for 50 years.", [("piano teacher", "PROFESSION", C)]),
    ("Her hero is a teacher.", [("teacher", "PROFESSION", R)]),   # no person subject: review
]


test_found = ruletable.found_test(found, FOUND)


# Occupation-like words that are not someone's occupation.
NOT_FOUND = [
    "Former smoker, quit 2010.",
    "Retired from the clinic list.",
    "Foley catheter placed by nursing.",
    "Patient is a 67 yo man with COPD.",
    "WORKS AS NEEDED, PRN.",
]


test_not_found = ruletable.nothing_test(found, NOT_FOUND)


def test_sources_and_registry():
    from deid_core.detectors import REGISTRY
    assert "professions" in {d.name for d in REGISTRY}
    text = "He works as a carpenter. Retired lamplighter."
    sources = {s.source for s in professions.detect(Document(text))}
    assert sources == {"professions:list", "professions:after:retired"}
