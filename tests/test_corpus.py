"""Corpus validity: every span of corpus/notes.jsonl checked, the file equal to what the sources
build now, coverage of categories, note types, layouts and hard cases, and the source parser."""
from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from deid_core.spans import LABELS

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"

_spec = importlib.util.spec_from_file_location("build_corpus", CORPUS / "build_corpus.py")
bc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bc)

NOTES = bc.load_corpus(CORPUS / "notes.jsonl")
HAND = [n for n in NOTES if n["origin"] == "hand-written"]


def _span_texts(notes, label=None):
    return [n["text"][s["start"]:s["end"]] for n in notes for s in n["spans"]
            if label is None or s["label"] == label]


# ---------------------------------------------------------------- every span checked
@pytest.mark.parametrize("note", NOTES, ids=[n["id"] for n in NOTES])
def test_note_valid(note):
    assert list(note) == ["id", "note_type", "text", "spans", "origin"]
    assert note["origin"] in ("hand-written", "template")
    text = note["text"]
    assert text.strip(), "empty note"
    assert "\u27e6" not in text and "\u27e7" not in text
    prev_end = 0
    for sp in note["spans"]:
        assert list(sp) == ["start", "end", "label"]
        assert 0 <= sp["start"] < sp["end"] <= len(text)
        assert sp["label"] in LABELS
        assert sp["start"] >= prev_end, f"overlap or unsorted at {sp}"
        piece = text[sp["start"]:sp["end"]]
        assert piece == piece.strip(), f"untrimmed span {piece!r}"
        prev_end = sp["end"]


def test_ids_unique():
    ids = [n["id"] for n in NOTES]
    assert len(ids) == len(set(ids))


def test_jsonl_is_current():
    built = bc.render_jsonl(bc.build_notes())
    assert (CORPUS / "notes.jsonl").read_bytes() == built.encode("utf-8")


def test_build_is_deterministic():
    assert bc.render_jsonl(bc.build_notes()) == bc.render_jsonl(bc.build_notes())


# ---------------------------------------------------------------- coverage
def test_sizes():
    assert len(NOTES) >= 150
    assert len(HAND) >= 60


def test_hand_written_lengths():
    for n in HAND:
        assert 400 <= len(n["text"]) <= 2500, (n["id"], len(n["text"]))


@pytest.mark.parametrize("category", ["NAME", "LOCATION", "DATE", "CONTACT", "ID", "AGE", "PROFESSION"])
def test_category_counts(category):
    count = sum(1 for n in NOTES for s in n["spans"] if LABELS[s["label"]] == category)
    assert count >= 10, count


def test_every_subtype_present():
    present = Counter(s["label"] for n in HAND for s in n["spans"])
    missing = [label for label in LABELS if present[label] == 0]
    assert not missing


@pytest.mark.parametrize("note_type", bc.REQUIRED_NOTE_TYPES)
def test_note_types_present(note_type):
    assert sum(n["note_type"] == note_type for n in HAND) >= 2


def test_layouts_present():
    assert sum("\r\n" in n["text"] for n in NOTES) >= 3
    assert sum("\t" in n["text"] for n in NOTES) >= 3
    letters = lambda t: [c for c in t if c.isalpha()]
    assert any(all(c.isupper() for c in letters(n["text"])) for n in HAND), "no ALL CAPS note"
    assert any(all(c.islower() for c in letters(n["text"])) for n in HAND), "no lowercase note"
    assert any(n["text"].count("|") >= 6 for n in HAND), "no pipe table"


def test_spans_across_line_breaks():
    labels = {s["label"] for n in HAND for s in n["spans"] if "\n" in n["text"][s["start"]:s["end"]]}
    assert "STREET" in labels, "no street address across a line break"
    assert labels & {"PATIENT", "DOCTOR"}, "no name across a line break"


# Hard cases that must be annotated exactly like this somewhere in the hand-written notes.
MUST_BE_SPANS = [
    ("O\u2019Sullivan-Reyes", "PATIENT"),
    ("Jos\u00e9 Nguy\u1ec5n", "PATIENT"),
    ("ninety-four", "AGE"),
    ("Christmas 2019", "DATE"),
    ("12th of march", "DATE"),
    ("Jan-2019", "DATE"),
    ("March 5th, 2014", "DATE"),
    ("Tuesday, 3/4/2014", "DATE"),
    ("617.555.0199", "PHONE"),
]


@pytest.mark.parametrize("text,label", MUST_BE_SPANS)
def test_hard_case_annotated(text, label):
    found = {(t, lab) for n in HAND for s in n["spans"]
             for t, lab in [(n["text"][s["start"]:s["end"]], s["label"])]}
    assert (text, label) in found


def test_hard_case_patterns():
    texts = _span_texts(HAND)
    assert any("O'Brien" in t for t in _span_texts(HAND, "PATIENT") + _span_texts(HAND, "DOCTOR"))
    assert any(t.count(",") == 1 and t.isupper() and len(t.split()) >= 3
               for t in _span_texts(HAND, "PATIENT")), "no LAST, FIRST M name"
    assert any("T" in t and ("+" in t or t.count("-") >= 3) and ":" in t
               for t in _span_texts(HAND, "DATE")), "no ISO 8601 timestamp"
    assert any("ext" in t.lower() or " x" in t for t in _span_texts(HAND, "PHONE"))
    assert any(t.isdigit() and int(t) > 89 for t in _span_texts(HAND, "AGE"))
    assert texts


# Clinical content that must appear in the hand-written notes and never inside a span.
MUST_STAY = ["Parkinson", "Hodgkin", "Crohn", "Bell's palsy", "Foley", "Swan-Ganz", "Glasgow Coma Scale",
             "Babinski", "Murphy's sign", "Apgar", "HbA1c", "mg/kg", "1:1000", "2/3 strength",
             "2/7 weeks", "10-12 beers", "GCS 3/15", "14:30", "67 yo", "warfarin"]


@pytest.mark.parametrize("phrase", MUST_STAY)
def test_clinical_content_stays(phrase):
    hits = 0
    for n in HAND:
        text = n["text"]
        start = text.find(phrase)
        while start != -1:
            hits += 1
            end = start + len(phrase)
            for s in n["spans"]:
                assert not (s["start"] < end and start < s["end"]), (n["id"], phrase)
            start = text.find(phrase, start + 1)
    assert hits >= 1, f"{phrase!r} not in any hand-written note"


def test_no_age_at_or_below_89():
    for t in _span_texts(NOTES, "AGE"):
        digits = "".join(c for c in t if c.isdigit())
        if digits:
            assert int(digits) > 89, t


# ---------------------------------------------------------------- the parser
PARSE_CASES = [
    # (source, expected [(id, type, text, [(span text, label)])])
    ("=== id: a | type: ecg\nDr. \u27e6DOCTOR|Ann Lee\u27e7 read it.\n",
     [("a", "ecg", "Dr. Ann Lee read it.", [("Ann Lee", "DOCTOR")])]),
    ("# comment\n\n=== id: a | type: ecg\nx\n\n=== id: b | type: nursing | crlf\n"
     "l1\n\u27e6PATIENT|Ann\nLee\u27e7\tok\n",
     [("a", "ecg", "x\n", []), ("b", "nursing", "l1\r\nAnn\r\nLee\tok", [("Ann\r\nLee", "PATIENT")])]),
    ("=== id: c | type: ecg\nno newline at end", [("c", "ecg", "no newline at end", [])]),
]


@pytest.mark.parametrize("source,expected", PARSE_CASES)
def test_parse_notes(source, expected):
    got = bc.parse_notes(source)
    assert [(n["id"], n["note_type"], n["text"],
             [(n["text"][s["start"]:s["end"]], s["label"]) for s in n["spans"]]) for n in got] == expected


@pytest.mark.parametrize("source", [
    "text before header\n=== id: a | type: ecg\nx\n",
    "=== id: a | type: ecg\n\u27e6NOPE|x\u27e7\n",
    "=== id: a | type: ecg\n\u27e6DATE|x\n",
    "=== id: a | type: ecg\nx\u27e7\n",
    "=== id: a | type: ecg\n\u27e6DATE x\u27e7\n",
    "=== id: a | type: ecg\n\u27e6DATE|\u27e7\n",
    "=== id: a | type: ecg\n\u27e6DATE|a \u27e6AGE|92\u27e7\u27e7\n",
    "=== id a type ecg\nx\n",
    "=== id: a | type: ecg\r\nx\r\n",
])
def test_parse_rejects(source):
    with pytest.raises(bc.CorpusError):
        bc.parse_notes(source)


@pytest.mark.parametrize("spans", [
    [{"start": 0, "end": 99, "label": "DATE"}],
    [{"start": 0, "end": 3, "label": "BOGUS"}],
    [{"start": 0, "end": 4, "label": "DATE"}],          # trailing space inside the span
    [{"start": 4, "end": 7, "label": "DATE"}, {"start": 0, "end": 3, "label": "DATE"}],
    [{"start": 0, "end": 3, "label": "DATE"}, {"start": 2, "end": 5, "label": "DATE"}],
])
def test_validate_rejects(spans):
    note = {"id": "x", "note_type": "ecg", "text": "abc def ghi", "spans": spans}
    with pytest.raises(bc.CorpusError):
        bc.validate_note(note)
