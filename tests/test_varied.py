"""The varied development set (corpus/varied/): every span checked, the file equal to what its
sources build now, and the coverage it was written for (12 note types, every i2b2 category)."""
from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from deid_core.spans import CATEGORIES, LABELS

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("build_corpus", ROOT / "corpus" / "build_corpus.py")
bc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bc)

NOTES = bc.load_corpus(bc.VARIED_OUT_PATH)


@pytest.mark.parametrize("note", NOTES, ids=[n["id"] for n in NOTES])
def test_note_valid(note):
    text, prev_end = note["text"], 0
    assert note["origin"] == "hand-written"
    assert "\u27e6" not in text and "\u27e7" not in text
    for sp in note["spans"]:
        assert sp["label"] in LABELS
        assert prev_end <= sp["start"] < sp["end"] <= len(text)
        piece = text[sp["start"]:sp["end"]]
        assert piece == piece.strip(), f"untrimmed span {piece!r}"
        prev_end = sp["end"]


def test_jsonl_is_current():
    built = bc.render_jsonl(bc.build_notes(bc.VARIED_SRC_DIR, with_templates=False))
    assert bc.VARIED_OUT_PATH.read_bytes() == built.encode("utf-8")


def test_no_note_shared_with_the_training_corpus():
    train_ids = {n["id"] for n in bc.load_corpus(bc.OUT_PATH)}
    train_texts = {n["text"] for n in bc.load_corpus(bc.OUT_PATH)}
    assert not train_ids & {n["id"] for n in NOTES}
    assert not train_texts & {n["text"] for n in NOTES}


def test_coverage():
    types = Counter(n["note_type"] for n in NOTES)
    assert len(types) >= 12 and min(types.values()) >= 9, types
    cats = {LABELS[s["label"]] for n in NOTES for s in n["spans"]}
    assert cats == set(CATEGORIES)
    assert len(NOTES) >= 100
