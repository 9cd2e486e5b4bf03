"""Tests for training/model_alone.py (the model alone on names and places, issue 21): the label
sets and the scoring, on invented notes (skipped without ../shared/tools/score_detect.py)."""
import pytest

from training import model_alone as MA

pytestmark = pytest.mark.skipif(not (MA.SHARED_TOOLS / "score_detect.py").is_file(),
                                reason="../shared/tools/score_detect.py absent")

NOTES = [
    {"id": "a", "text": "Seen by Dr Orla Penhallow at Kestrel Ridge Medical Center on 4/2.",
     "spans": [{"start": 11, "end": 25, "label": "DOCTOR"}, {"start": 29, "end": 57, "label": "HOSPITAL"},
               {"start": 61, "end": 64, "label": "DATE"}]},
    {"id": "b", "text": "WIFE TAMSIN CALLED FROM DUNMORE, FOLEY D/C'D.",
     "spans": [{"start": 5, "end": 11, "label": "PATIENT"}, {"start": 24, "end": 31, "label": "CITY"}]},
]


@pytest.mark.parametrize("pred,recall,precision", [
    # every name and place found, nothing else: the date is no name or place, so not needed
    ({"a": [{"start": 11, "end": 25, "label": "PATIENT"}, {"start": 29, "end": 57, "label": "HOSPITAL"}],
      "b": [{"start": 5, "end": 11, "label": "PATIENT"}, {"start": 24, "end": 31, "label": "LOCATION-OTHER"}]},
     1.0, 1.0),
    # a clinical word marked as a name costs precision; a model AGE span is not counted at all
    ({"a": [{"start": 11, "end": 25, "label": "PATIENT"}, {"start": 29, "end": 57, "label": "HOSPITAL"},
            {"start": 61, "end": 64, "label": "AGE"}],
      "b": [{"start": 5, "end": 11, "label": "PATIENT"}, {"start": 24, "end": 31, "label": "CITY"},
            {"start": 33, "end": 38, "label": "PATIENT"}]},
     1.0, 51 / 56),
    # the town missed: 7 of the 51 name and place characters (white space not counted)
    ({"a": [{"start": 11, "end": 25, "label": "PATIENT"}, {"start": 29, "end": 57, "label": "HOSPITAL"}],
      "b": [{"start": 5, "end": 11, "label": "PATIENT"}]},
     round(44 / 51, 4), 1.0),
])
def test_names_and_places_scoring(pred, recall, precision):
    fig = MA.score(NOTES, pred)
    assert fig["char_recall"] == pytest.approx(recall, abs=1e-4)
    assert fig["char_precision"] == pytest.approx(precision, abs=1e-4)
    assert fig["notes"] == 2


def test_confidence_from_source():
    assert MA._p({"source": "ner:minilm6:p=0.97"}) == 0.97
    assert MA._p({"source": "names:title"}) == 0.0
