"""Review items and reviewer decisions (deid_core.review)."""
import re

import pytest

import deid_core.lists as lists
from deid_core.surrogate import names as surrogate_names
from deid_core.analyze import Analysis
from deid_core.review import apply_decisions, check_decisions, explain, review_items, span_id
from deid_core.spans import Span

TEXT = "Dr. Foley placed a Foley catheter on 3/5/2014; Parkinson noted by Grace Hall."
SPANS = (
    Span(4, 9, "DOCTOR", "review", "names:surname_list+clinical_noun"),
    Span(37, 45, "DATE", "certain", "dates:numeric_mdy"),
    Span(47, 56, "PATIENT", "review", "names:surname_list+mesh_collision"),
    Span(66, 76, "DOCTOR", "certain", "names:given+surname"),
)
A = Analysis(TEXT, SPANS, SPANS)


@pytest.fixture(autouse=True)
def small_lists(monkeypatch):
    monkeypatch.setattr(lists, "given_names", lambda: {"grace": "F", "helen": "F", "ruth": "F", "ivan": "M"},
                        raising=False)
    monkeypatch.setattr(lists, "surnames", lambda: {n: i for i, n in enumerate(
        ["hall", "foley", "parkinson", "stone", "reed", "moss", "fox", "webb"])}, raising=False)
    monkeypatch.setattr(surrogate_names, "given_name_percents", lambda: {})


def test_review_items_describe_each_review_span():
    items = review_items(A)
    assert [i["id"] for i in items] == ["4:9", "47:56"]
    first = items[0]
    assert first == {"id": "4:9", "start": 4, "end": 9, "label": "DOCTOR", "category": "NAME",
                     "text": "Foley", "source": "names:surname_list+clinical_noun",
                     "reason": first["reason"]}
    assert "clinical noun" in first["reason"] and first["reason"].startswith("Found by the name finder")
    assert "MeSH" in items[1]["reason"]


@pytest.mark.parametrize("source,needle", [
    ("names:surname_list+english_collision", "ordinary English word"),
    ("dates:year_alone+context", "surrounding words"),
    ("ids:digits + names:title", "identifier-number patterns"),
    ("", "no reason"),
    ("mystery:rule_x", "mystery (rule x)"),
])
def test_explain(source, needle):
    assert needle in explain(source)


@pytest.mark.parametrize("decisions,expected", [
    (None, "Dr. [NAME] placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
    ({}, "Dr. [NAME] placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
    ({"4:9": False}, "Dr. Foley placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
    ({"4:9": False, "47:56": False}, "Dr. Foley placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
    ({"4:9": True, "47:56": False}, "Dr. [NAME] placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
    # certain spans are always masked; stale ids are ignored
    ({"37:45": False, "66:76": False, "1:2": False}, "Dr. [NAME] placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
])
def test_apply_decisions_redact(decisions, expected):
    assert apply_decisions(A, decisions).text == expected


def test_apply_decisions_surrogate_keeps_rejected_text_and_masks_the_rest():
    r = apply_decisions(A, {"47:56": False}, mode="surrogate", key="review-key")
    assert "Parkinson noted" in r.text and "3/5/2014" not in r.text and "Grace Hall" not in r.text
    assert "Foley placed" not in r.text
    assert [p.replaced for p in r.placed] == [True, True, False, True]
    assert re.search(r"on \d{1,2}/\d{1,2}/\d{4};", r.text)
    assert r == apply_decisions(A, {"47:56": False}, mode="surrogate", key="review-key")


@pytest.mark.parametrize("bad", [
    {"4-9": True}, {"9:4": True}, {"a:b": False}, {4: True}, {"4:9": "yes"}, {"4:9": 1}, ["4:9"],
])
def test_malformed_decisions_rejected(bad):
    with pytest.raises(ValueError):
        apply_decisions(A, bad)


def test_unknown_mode_rejected():
    with pytest.raises(ValueError, match="unknown mode"):
        apply_decisions(A, None, mode="shred")


def test_check_decisions_and_span_id():
    assert check_decisions({"4:9": True}) == {"4:9": True}
    assert span_id(SPANS[0]) == "4:9"
