"""Review items, structured explanations and reviewer decisions (deid_core.review, explain, write)."""
import re

import pytest

import deid_core.lists as lists
from deid_core.surrogate import names as surrogate_names
from deid_core.analyze import Analysis
from deid_core.explain import explain, parse_source, Part
from deid_core.review import check_decisions, review_items, span_id
from deid_core.write import write
from deid_core.spans import Span
from enginecaches import clear_engine_caches

TEXT = "Dr. Foley placed a Foley catheter on 3/5/2014; Parkinson noted by Grace Hall."
SPANS = (
    Span(4, 9, "DOCTOR", "review", "names:surname_list+clinical_noun"),
    Span(37, 45, "DATE", "certain", "dates:numeric_mdy"),
    Span(47, 56, "PATIENT", "review", "names:surname_list+medical_collision"),
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
    clear_engine_caches()
    yield
    monkeypatch.undo()
    clear_engine_caches()   # what was derived from the stand-in lists must not outlive the test


def test_review_items_describe_each_review_span():
    items = review_items(A)
    assert [i["id"] for i in items] == ["4:9", "47:56"]
    first = items[0]
    assert first == {"id": "4:9", "start": 4, "end": 9, "label": "DOCTOR", "category": "NAME",
                     "text": "Foley", "source": "names:surname_list+clinical_noun",
                     "explanation": explain(SPANS[0]), "reason": first["explanation"]["text"]}
    assert first["explanation"]["detector"] == "names" and first["explanation"]["list"] == "surnames.tsv"
    assert "clinical noun" in first["explanation"]["why_amber"]
    assert "medical term" in items[1]["explanation"]["why_amber"]


@pytest.mark.parametrize("source,tier,want", [
    ("names:surname_list+english_collision", "review",
     {"detector": "names", "rule": "surname_list", "list": "surnames.tsv",
      "why_amber": "the word is also an ordinary English word"}),
    ("names:surname_list+medical_collision", "review",
     {"detector": "names", "rule": "surname_list", "list": "surnames.tsv",
      "why_amber": "the word is also a medical term, so it is not masked on sight"}),
    ("names:given_list+clinical_noun", "review",
     {"detector": "names", "rule": "given_list", "list": "given_names.tsv"}),
    ("names:relation:wife", "review",
     {"detector": "names", "rule": "relation", "list": "relations.txt",
      "why_amber": "the word after a relation word may not be a name"}),
    ("names:title:dr", "certain",
     {"detector": "names", "rule": "title", "list": "titles.txt", "why_amber": None}),
    ("dates:year_bare", "review", {"detector": "dates", "rule": "year_bare", "list": None}),
    ("dates:numeric_mdy", "certain", {"detector": "dates", "list": None, "why_amber": None}),
    # the model's candidates: detector "ner", its name as the rule, the confidence in the reason
    ("ner:minilm6:p=0.62", "review", {"detector": "ner", "rule": "minilm6", "list": None}),
    ("ner:minilm6:p=0.99", "certain", {"detector": "ner", "rule": "minilm6", "why_amber": None}),
    ("names:given_list+english_collision + ner:minilm6:p=0.99", "certain",
     {"detector": "names", "rule": "given_list", "why_amber": None}),
    ("", "review", {"detector": "", "rule": "", "list": None}),
    ("mystery:rule_x", "review", {"detector": "mystery", "rule": "rule_x", "list": None}),
])
def test_explain_fields(source, tier, want):
    got = explain(Span(0, 4, "PATIENT", tier, source))
    assert set(got) == {"detector", "rule", "list", "why_amber", "text"}
    assert {k: got[k] for k in want} == want
    assert (got["why_amber"] is None) == (tier == "certain")
    assert got["text"].startswith("Found by ") and got["text"].endswith(".")
    assert got["text"].count(". ") == 0  # one sentence


@pytest.mark.parametrize("source,tier,needles", [
    ("ner:minilm6:p=0.62", "review", ["NER model", "0.62", "confidence"]),
    ("names:relation:wife", "review", ["relation word 'wife'"]),
    ("ids:digits + names:title:dr", "certain", ["identifier-number patterns", "title 'dr'"]),
    ("", "review", ["no reason"]),
    ("mystery:rule_x", "review", ["mystery detector", "rule x"]),
    ("locations:place_context:city", "review", ["city name", "place"]),
])
def test_explain_text(source, tier, needles):
    text = explain(Span(0, 4, "PATIENT", tier, source))["text"]
    for needle in needles:
        assert needle in text


def test_parse_source():
    assert parse_source("names:relation:wife+capitalised + ner:m:p=0.5") == (
        Part("names", "relation", "wife", ("capitalised",)), Part("ner", "m", "p=0.5", ()))
    assert parse_source("") == ()


@pytest.mark.parametrize("decisions,expected", [
    # amber stays amber (as text) until decided; certain spans are always masked
    (None, "Dr. Foley placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
    ({}, "Dr. Foley placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
    ({"4:9": True}, "Dr. [NAME] placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
    ({"4:9": False, "47:56": True}, "Dr. Foley placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
    ({"37:45": False, "66:76": False, "1:2": True}, "Dr. Foley placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
])
def test_write_default_keeps_undecided_amber(decisions, expected):
    assert write(A, "redact", decisions).text == expected


@pytest.mark.parametrize("decisions,expected", [
    (None, "Dr. [NAME] placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
    ({}, "Dr. [NAME] placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
    ({"4:9": False}, "Dr. Foley placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
    ({"4:9": False, "47:56": False}, "Dr. Foley placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
    ({"4:9": True, "47:56": False}, "Dr. [NAME] placed a Foley catheter on [DATE]; Parkinson noted by [NAME]."),
    # certain spans are always masked; stale ids are ignored
    ({"37:45": False, "66:76": False, "1:2": False}, "Dr. [NAME] placed a Foley catheter on [DATE]; [NAME] noted by [NAME]."),
])
def test_write_mask_review_masks_undecided_amber(decisions, expected):
    """--mask-review (unattended runs): every undecided amber candidate masked; decisions win."""
    assert write(A, "redact", decisions, mask_review=True).text == expected


def test_surrogate_after_review_is_certain_plus_accepted():
    r = write(A, "surrogate", {"47:56": True}, key="review-key")
    assert "Dr. Foley placed" in r.text and "Parkinson" not in r.text and "Grace Hall" not in r.text
    assert [p.replaced for p in r.placed] == [False, True, True, True]


def test_apply_decisions_surrogate_keeps_rejected_text_and_masks_the_rest():
    r = write(A, "surrogate", {"47:56": False}, key="review-key", mask_review=True)
    assert "Parkinson noted" in r.text and "3/5/2014" not in r.text and "Grace Hall" not in r.text
    assert "Foley placed" not in r.text
    assert [p.replaced for p in r.placed] == [True, True, False, True]
    assert re.search(r"on \d{1,2}/\d{1,2}/\d{4};", r.text)
    assert r == write(A, "surrogate", {"47:56": False}, key="review-key", mask_review=True)


@pytest.mark.parametrize("bad", [
    {"4-9": True}, {"9:4": True}, {"a:b": False}, {4: True}, {"4:9": "yes"}, {"4:9": 1}, ["4:9"],
])
def test_malformed_decisions_rejected(bad):
    with pytest.raises(ValueError):
        write(A, "redact", bad)


def test_unknown_mode_rejected():
    with pytest.raises(ValueError, match="unknown mode"):
        write(A, "shred")


def test_check_decisions_and_span_id():
    assert check_decisions({"4:9": True}) == {"4:9": True}
    assert span_id(SPANS[0]) == "4:9"
