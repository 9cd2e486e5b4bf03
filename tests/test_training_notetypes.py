"""Tests for training/notetypes.py (generated notes of 13 types for the NER model, issue 21)."""
import re
from collections import Counter

import pytest

from training import generate as G
from training import notetypes as NT
from training.notetemplates import NOTE_TYPES


@pytest.fixture(scope="module")
def examples():
    return NT.generate(520, 7)


def _inside(e, start, end):
    return any(s["start"] < end and start < s["end"] for s in e["spans"])


def test_deterministic_and_seeded():
    assert NT.generate(26, 3) == NT.generate(26, 3)
    assert NT.generate(26, 3) != NT.generate(26, 4)


def test_every_note_type_and_valid_spans(examples):
    kinds = Counter(e["type"] for e in examples)
    assert set(kinds) == set(NOTE_TYPES) and len(kinds) >= 12
    for e in examples:
        G.validate(e)
        assert {s["label"] for s in e["spans"]} <= set(G.LABELS)
        assert 0 < len(e["text"]) <= 2400


def test_phi_kinds_present(examples):
    labels = Counter(s["label"] for e in examples for s in e["spans"])
    for lab in ("DOCTOR", "PATIENT", "HOSPITAL", "DEPARTMENT", "CITY", "ORGANIZATION", "AGE",
                "PROFESSION", "STREET"):
        assert labels[lab] >= 5, labels


def test_casing_mix(examples):
    upper = sum(e["text"] == e["text"].upper() for e in examples) / len(examples)
    lower = sum(e["text"] == e["text"].lower() for e in examples) / len(examples)
    assert 0.15 < upper < 0.6 and 0.03 < lower < 0.3
    icu = [e for e in examples if e["type"] == "icu_nursing"]
    assert sum(e["text"] == e["text"].upper() for e in icu) > len(icu) / 2


@pytest.mark.parametrize("shape", [
    r"^[A-Za-z'\-]+, [A-Za-z]",                 # LAST, FIRST (M)
    r"^[A-Z][a-z]+, [A-Z]$",                    # Surname, initial (Pt: Adeyinka, F)
    r"^[A-Z]\.? [A-Za-z'\-]+$",                 # initial + surname
])
def test_name_forms(examples, shape):
    vals = [e["text"][s["start"]:s["end"]] for e in examples for s in e["spans"]
            if s["label"] in ("PATIENT", "DOCTOR")]
    assert sum(bool(re.match(shape, v)) for v in vals) >= 5


def test_quoted_nickname_is_a_span_without_its_quotes(examples):
    n = 0
    for e in examples:
        for m in re.finditer(r'\("([^"]+)"\)', e["text"]):
            if any(s["start"] == m.start(1) and s["end"] == m.end(1) for s in e["spans"]):
                n += 1
    assert n >= 5


def test_facility_short_forms_and_initials(examples):
    vals = [e["text"][s["start"]:s["end"]] for e in examples for s in e["spans"] if s["label"] == "HOSPITAL"]
    assert sum(bool(re.fullmatch(r"[A-Z]{2,6}", v)) for v in vals) >= 5          # SBMC
    assert sum(not re.search(r"(?i)hosp|center|clinic|health|medical|manor|care", v) for v in vals) >= 20


def test_ward_number_outside_the_span_and_named_units_whole(examples):
    # a ward's name before its floor number is the span (Hartwell of Hartwell 4); a named unit
    # (4 West, Tower 6, Lindqvist Heart Center) is one span, number included
    wards = [(e["text"][s["start"]:s["end"]], e["text"][s["end"]:s["end"] + 3]) for e in examples
             for s in e["spans"] if s["label"] == "DEPARTMENT"]
    before_number = [v for v, after in wards if re.match(r" \d", after)]
    assert len(before_number) >= 10 and not any(re.search(r"\d", v) for v in before_number)
    assert sum(bool(re.fullmatch(r"\d+ (?:North|South|East|West|Tower|Annex)", v)) for v, _ in wards) >= 3


@pytest.mark.parametrize("pattern", [
    r"\b(?:MAE|PERRL|FOLEY|SATS|TF|GUAIAC)\b",           # nursing shorthand
    r"(?i)\b(?:DR|MD|RN|ROLE) AWARE\b",                   # a role with no name after it
    r"(?i)\bTO (?:CT|MRI|OR|PACU|IR|the floor|rehab|HD|cath lab)\b",   # a service after 'to'
    r"(?i)\b(?:Kussmaul|Babinski|Murphy's|Romberg|Foley catheter)\b",  # eponyms
])
def test_hard_negatives_never_labelled(examples, pattern):
    seen = 0
    for e in examples:
        for m in re.finditer(pattern, e["text"]):
            seen += 1
            word = m.group().split()[0] if "AWARE" in m.group() else m.group()
            assert not _inside(e, m.start(), m.start() + len(word)), e["text"][m.start() - 30:m.end() + 10]
    assert seen, pattern


def test_ordinary_words_fill_hard_negative_slots():
    # the English frequency list (or, without a registry, lists/) gives thousands of words
    f = NT.Filler(__import__("random").Random(1))
    words = {f.word() for _ in range(2000)}
    assert len(words) > 500
