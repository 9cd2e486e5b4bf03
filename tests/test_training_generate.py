"""Tests for training/generate.py (generated NER training sentences)."""
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "training"))
import generate as G  # noqa: E402

CORE_EPONYMS = ("parkinson", "foley", "glasgow", "bell", "hodgkin", "crohn", "babinski", "apgar",
                "swan", "ganz", "whipple", "wolff", "cheyne", "stokes", "jackson", "pratt",
                "gleason", "holter", "murphy", "romberg", "homans", "kernig", "hashimoto",
                "graves", "cushing", "addison", "alzheimer", "nissen", "breslow", "mobitz")
NAME_LABELS = {"PATIENT", "DOCTOR", "USERNAME"}


@pytest.fixture(scope="module")
def examples():
    return G.generate(2000, 7)


def test_deterministic():
    assert G.generate(200, 3) == G.generate(200, 3)
    assert G.generate(200, 3) != G.generate(200, 4)


def test_prefix_stable():
    assert G.generate(50, 11) == G.generate(120, 11)[:50]


def test_shape_and_lengths(examples):
    assert len(examples) == 2000
    for e in examples:
        assert set(e) == {"text", "spans"}
        assert G.MIN_CHARS <= len(e["text"]) <= G.MAX_CHARS
        for s in e["spans"]:
            assert set(s) == {"start", "end", "label"}


def test_offsets_valid(examples):
    for e in examples:
        t = e["text"]
        prev = 0
        for s in sorted(e["spans"], key=lambda s: s["start"]):
            assert 0 <= s["start"] < s["end"] <= len(t)
            assert s["start"] >= prev, e
            seg = t[s["start"]:s["end"]]
            assert seg == seg.strip() and seg, e
            prev = s["end"]
        G.validate(e)


def test_labels_valid_and_all_present(examples):
    labels = Counter(s["label"] for e in examples for s in e["spans"])
    assert set(labels) <= set(G.LABELS)
    for lab in ("PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "HOSPITAL", "ORGANIZATION",
                "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "ROOM", "DEPARTMENT",
                "LOCATION-OTHER", "AGE"):
        assert labels[lab] > 10, lab


def test_validate_rejects_bad():
    with pytest.raises(ValueError):
        G.validate({"text": "Seen by Ann today", "spans": [{"start": 7, "end": 11,
                                                            "label": "PATIENT"}]})
    with pytest.raises(ValueError):
        G.validate({"text": "Seen by Ann today", "spans": [{"start": 8, "end": 11,
                                                            "label": "NAME"}]})
    with pytest.raises(ValueError):
        G.validate({"text": "abc", "spans": [{"start": 1, "end": 9, "label": "CITY"}]})


def test_negative_share(examples):
    no_span = sum(not e["spans"] for e in examples) / len(examples)
    assert no_span >= 0.05
    # negative or mixed: examples with clinical content that stays O (eponym, drug, dose, lab)
    never = [x.lower() for x in G.EPONYMS + G.DRUGS]
    mixed = sum(any(x in e["text"].lower() for x in never) for e in examples) / len(examples)
    assert mixed >= 0.4


def test_no_eponym_in_name_spans(examples):
    for e in examples:
        for s in e["spans"]:
            if s["label"] in NAME_LABELS:
                words = {w.lower() for w in re.split(r"[^\w]+", e["text"][s["start"]:s["end"]])}
                assert not words & set(CORE_EPONYMS), e


def test_eponyms_stay_unlabelled(examples):
    for e in examples:
        t = e["text"].lower()
        for ep in ("foley catheter", "glasgow coma scale", "parkinson disease"):
            i = t.find(ep)
            if i >= 0:
                assert not any(s["start"] < i + len(ep) and i < s["end"] for s in e["spans"]), e


def test_ages(examples):
    words = {"ninet", "hundred"}
    for e in examples:
        for s in e["spans"]:
            if s["label"] == "AGE":
                seg = e["text"][s["start"]:s["end"]]
                digits = re.sub(r"\D", "", seg)
                if digits:
                    assert int(digits) >= 90, seg
                else:
                    assert any(w in seg.lower() for w in words), seg
    # spelled-out ages occur
    assert any(s["label"] == "AGE" and not e["text"][s["start"]].isdigit()
               for e in examples for s in e["spans"])


def test_no_titles_or_credentials_in_names(examples):
    for e in examples:
        for s in e["spans"]:
            if s["label"] in ("PATIENT", "DOCTOR"):
                seg = e["text"][s["start"]:s["end"]].lower()
                assert not seg.startswith(("dr.", "mr.", "mrs.", "ms.")), seg
                assert not seg.endswith((", md", " md", ", rn", " rn")), seg


def test_case_variety(examples):
    upper = sum(e["text"].isupper() for e in examples)
    lower = sum(e["text"] == e["text"].lower() and any(c.isalpha() for c in e["text"])
                for e in examples)
    assert upper > 50 and lower > 50


def test_adjacent_same_label_spans_not_split(examples):
    for e in examples:
        ss = sorted(e["spans"], key=lambda s: s["start"])
        for a, b in zip(ss, ss[1:]):
            if a["label"] == b["label"]:
                gap = e["text"][a["end"]:b["start"]]
                assert gap.strip() != "" or "\n" in gap, e


def test_template_count():
    assert len(G.POSITIVE) + len(G.NEGATIVE) >= 80
