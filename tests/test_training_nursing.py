"""Tests for training/nursing.py (generated ICU nursing notes for the NER model)."""
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "training"))
import generate as G  # noqa: E402
import nursing as N  # noqa: E402


@pytest.fixture(scope="module")
def examples():
    return N.generate(600, 5)


def test_deterministic_and_seeded():
    assert N.generate(40, 3) == N.generate(40, 3)
    assert N.generate(40, 3) != N.generate(40, 4)


def test_shape_offsets_and_labels(examples):
    assert len(examples) == 600
    for e in examples:
        assert set(e) == {"text", "spans"}
        assert N.MIN_CHARS <= len(e["text"]) <= N.MAX_CHARS
        G.validate(e)
        assert {s["label"] for s in e["spans"]} <= set(G.LABELS)


def test_phi_kinds_present(examples):
    labels = Counter(s["label"] for e in examples for s in e["spans"])
    for lab in ("DOCTOR", "PATIENT", "HOSPITAL", "DEPARTMENT", "CITY"):
        assert labels[lab] > 10, labels


def test_negative_share(examples):
    share = sum(not e["spans"] for e in examples) / len(examples)
    assert 0.2 < share < 0.5


def test_casing_mix(examples):
    upper = sum(e["text"] == e["text"].upper() for e in examples) / len(examples)
    lower = sum(e["text"] == e["text"].lower() for e in examples) / len(examples)
    assert 0.35 < upper < 0.65 and 0.1 < lower < 0.3


@pytest.mark.parametrize("word", ["MAE", "PERRL", "FOLEY", "PRBC", "MICU", "CCU", "SWAN",
                                  "QUINTON", "DOBHOFF", "LASIX", "PS"])
def test_hard_negatives_never_labelled(examples, word):
    seen = 0
    for e in examples:
        t = e["text"]
        for m in re.finditer(rf"\b{word}\b", t, re.IGNORECASE):
            seen += 1
            assert not any(s["start"] < m.end() and m.start() < s["end"] for s in e["spans"]), t
    assert seen, word


def test_relation_word_without_name_is_not_a_span(examples):
    # "HUSBAND IN TO VISIT": the relation word and what follows stay O when no name follows
    for e in examples:
        t = e["text"]
        for m in re.finditer(r"\b(?:husband|dtr|son|wife)\b (?:in|called|at)\b", t, re.IGNORECASE):
            assert not any(s["start"] < m.end() and m.start() < s["end"] for s in e["spans"]), t


@pytest.mark.parametrize("label,shape", [
    ("DOCTOR", r"^[A-Za-z][A-Za-z' .-]+$"),   # "T. Elston": an initial keeps its period
    # the ward's word only: the gold of the real notes leaves the floor number out
    ("DEPARTMENT", r"(?i)^[a-z][a-z' -]+$"),
])
def test_span_shapes(examples, label, shape):
    vals = [e["text"][s["start"]:s["end"]] for e in examples for s in e["spans"] if s["label"] == label]
    assert vals
    assert all(re.match(shape, v) for v in vals), [v for v in vals if not re.match(shape, v)][:5]


def test_title_without_period_before_doctor(examples):
    # DR X / Dr X: the title stays outside the span
    n = 0
    for e in examples:
        for s in e["spans"]:
            if s["label"] == "DOCTOR" and re.search(r"\bdr\.? $", e["text"][:s["start"]], re.I):
                n += 1
    assert n > 10


def test_ward_number_follows_outside_the_span(examples):
    # "TRANSFER TO HARTWELL 4": the number (and a wing letter or word) is text after the span
    after = [e["text"][s["end"]:s["end"] + 4] for e in examples for s in e["spans"]
             if s["label"] == "DEPARTMENT"]
    assert after and all(re.match(r" ?\d", a) for a in after), [a for a in after if not re.match(r" ?\d", a)][:5]


@pytest.mark.parametrize("pattern", [
    r"\b[A-Z]\.? [A-Z][a-z]+\b",       # an initial + surname, staff with no title
    r"(?i)\b(?:house staff|wound nurse|np|case manager) [a-z]+",   # a role word before a name
])
def test_untitled_staff_names_are_doctor_spans(examples, pattern):
    n = 0
    for e in examples:
        for s in e["spans"]:
            if s["label"] == "DOCTOR" and re.search(pattern, e["text"][max(0, s["start"] - 16):s["end"]]):
                n += 1
    assert n >= 3   # 600 notes hold a few of each

