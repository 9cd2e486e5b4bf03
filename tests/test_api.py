"""The facade used by the page and the CLI (deid_core.api).

The rules step of the pipeline (``deid_core.analyze._rules``, the detectors) is replaced by a small
stand-in so these tests check the facade, not the detectors; the model spans and harvested rules
are composed with it by the real pipeline.
"""
import importlib
import json
import re

import pytest

import deid_core.api as api
import deid_core.lists as lists
from deid_core.surrogate import names as surrogate_names
from deid_core.analyze import Analysis
from deid_core.document import Known
from deid_core.explain import explain
from deid_core.spans import Span
from enginecaches import clear_engine_caches

# the module (the package's ``deid_core.analyze`` attribute is the function of that name)
pipeline = importlib.import_module("deid_core.analyze")
SEEN = {}


def fake_rules(text, known, detectors):
    """Dates like 3/5/2014 are certain DATEs; 'Hall' is a review DOCTOR; 'Paul Webb' a PATIENT."""
    SEEN["known"] = known
    spans = [Span(m.start(), m.end(), "DATE", "certain", "dates:numeric_mdy")
             for m in re.finditer(r"\d{1,2}/\d{1,2}/\d{4}", text)]
    spans += [Span(m.start(), m.end(), "DOCTOR", "review", "names:surname_list+medical_collision")
              for m in re.finditer(r"\bHall\b", text)]
    spans += [Span(m.start(), m.end(), "PATIENT", "certain", "names:given+surname")
              for m in re.finditer(r"\bPaul Webb\b", text)]
    spans.sort()
    return Analysis(text, tuple(spans), tuple(spans))


@pytest.fixture(autouse=True)
def stand_ins(monkeypatch):
    # Build the engine's lazily made tables (the names lexicon) from the real lists first, so the
    # stand-in lists below reach only what this module tests, never a later test's detection.
    api.analyze("Dr. Paul Webb seen 3/5/2014 at Mercy Hospital, Boston.")
    monkeypatch.setattr(pipeline, "_rules", fake_rules)
    monkeypatch.setattr(lists, "given_names", lambda: {"paul": "M", "ivan": "M", "omar": "M", "ruth": "F"},
                        raising=False)
    monkeypatch.setattr(lists, "surnames", lambda: {n: i for i, n in enumerate(
        ["hall", "webb", "stone", "reed", "moss", "fox", "lane", "cole"])}, raising=False)
    monkeypatch.setattr(surrogate_names, "given_name_percents", lambda: {})
    yield
    clear_engine_caches()   # what was derived from the stand-in lists must not outlive the test


NOTE = "Paul Webb seen 3/5/2014 by Dr. Hall; next visit 4/2/2014."


def test_redact_result_shape():
    r = api.process(NOTE)
    assert r["mode"] == "redact"
    assert r["output"] == "[NAME] seen [DATE] by Dr. Hall; next visit [DATE]."
    assert [s["id"] for s in r["spans"]] == ["0:9", "15:23", "31:35", "48:56"]
    first = r["spans"][0]
    assert first == {"id": "0:9", "start": 0, "end": 9, "label": "PATIENT", "category": "NAME",
                     "tier": "certain", "source": "names:given+surname", "text": "Paul Webb",
                     "out_start": 0, "out_end": 6, "replaced": True,
                     "explanation": explain(Span(0, 9, "PATIENT", "certain", "names:given+surname"))}
    for s in r["spans"]:
        want = f"[{s['category']}]" if s["tier"] == "certain" else s["text"]
        assert r["output"][s["out_start"]:s["out_end"]] == want
        assert s["replaced"] is (s["tier"] == "certain")
        assert NOTE[s["start"]:s["end"]] == s["text"]
    assert [i["id"] for i in r["review"]] == ["31:35"]
    assert "medical term" in r["review"][0]["explanation"]["why_amber"]
    assert r["review"][0]["reason"] == r["review"][0]["explanation"]["text"]


@pytest.mark.parametrize("mode", ["redact", "review", "surrogate"])
@pytest.mark.parametrize("decisions,mask_review,hall_masked", [
    (None, False, False),            # amber stays as text until decided
    ({"31:35": True}, False, True),  # a decision to mask applies in every mode
    ({"31:35": False}, False, False),
    (None, True, True),              # unattended runs mask every undecided candidate
    ({"31:35": False}, True, False),  # an explicit decision wins over mask_review
])
def test_one_rule_in_every_mode(mode, decisions, mask_review, hall_masked):
    r = api.process(NOTE, mode=mode, key="k", decisions=decisions, mask_review=mask_review)
    hall = r["spans"][2]
    assert hall["text"] == "Hall" and hall["replaced"] is hall_masked
    assert ("Dr. Hall;" in r["output"]) is not hall_masked
    assert "Paul Webb" not in r["output"] and "3/5/2014" not in r["output"]


def test_a_decision_cannot_unmask_a_certain_span():
    assert api.process(NOTE, mode="review", decisions={"0:9": False})["output"].startswith("[NAME] seen")


def test_surrogate_mode_with_key_is_deterministic_and_keeps_intervals():
    import datetime as dt
    a = api.process(NOTE, mode="surrogate", key="study-1", decisions={"31:35": True})
    b = api.process(NOTE, mode="surrogate", key="study-1", decisions={"31:35": True})
    assert a == b
    out = a["output"]
    assert "Paul" not in out and "Webb" not in out and "Hall" not in out and "3/5/2014" not in out
    d1, d2 = (dt.datetime.strptime(x, "%m/%d/%Y").date()
              for x in re.findall(r"\d{1,2}/\d{1,2}/\d{4}", out))
    assert (d2 - d1).days == 28
    assert all(s["replaced"] for s in a["spans"])


def test_no_key_means_one_random_key_per_process(monkeypatch):
    monkeypatch.setattr(api, "_session", None)
    first = api.process("seen 3/5/2014", mode="surrogate")["output"]
    assert first != "seen 3/5/2014"
    assert api.process("seen 3/5/2014", mode="surrogate", key="")["output"] == first
    outputs = set()
    for _ in range(8):  # each new process (page load) draws a new secret
        monkeypatch.setattr(api, "_session", None)
        outputs.add(api.process("seen 3/5/2014", mode="surrogate")["output"])
    assert len(outputs) > 1


def test_known_is_passed_as_known():
    api.process(NOTE, known={"names": ["Paul Webb"], "mrns": ["0045-2231"]})
    assert SEEN["known"] == Known(names=("Paul Webb",), mrns=("0045-2231",))
    api.process(NOTE)
    assert SEEN["known"] is None


@pytest.mark.parametrize("kwargs,message", [
    ({"text": b"bytes"}, "text must be a string"),
    ({"text": None}, "text must be a string"),
    ({"text": "x", "mode": "shred"}, "unknown mode"),
    ({"text": "x", "known": {"phones": []}}, "unknown field"),
    ({"text": "x", "known": {"names": "Paul"}}, "list of strings"),
    ({"text": "x", "known": ["Paul"]}, "known must be an object"),
    ({"text": "x", "mode": "surrogate", "key": 5}, "key must be a string"),
    ({"text": "3/5/2014", "mode": "review", "decisions": {"x": True}}, "start:end"),
])
def test_bad_input_raises_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        api.process(**kwargs)


def test_process_json_round_trip():
    out = json.loads(api.process_json(json.dumps({"text": NOTE, "mode": "review",
                                                  "decisions": {"31:35": True}})))
    assert out["output"] == "[NAME] seen [DATE] by Dr. [NAME]; next visit [DATE]."
    assert out == api.process(NOTE, mode="review", decisions={"31:35": True})
    out = json.loads(api.process_json(json.dumps({"text": NOTE, "mask_review": True})))
    assert out == api.process(NOTE, mask_review=True)


@pytest.mark.parametrize("request_json,message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"mode": "redact"}', "no 'text'"),
    ('{"text": "x", "colour": "red"}', "unknown request field"),
    ('{"text": "x", "mode": "nope"}', "unknown mode"),
    ('{"text": 12}', "text must be a string"),
])
def test_process_json_errors(request_json, message):
    out = json.loads(api.process_json(request_json))
    assert set(out) == {"error"} and message in out["error"]


def test_process_json_keeps_unicode():
    out = api.process_json(json.dumps({"text": "José seen 3/5/2014"}))
    assert "José" in out and json.loads(out)["output"] == "José seen [DATE]"


def test_model_spans_are_span_values():
    at = NOTE.index("visit")
    # (a PROFESSION: a model-only place must look like one, and "visit" does not)
    m = [Span(at, at + 5, "PROFESSION", "review", "ner:m:p=0.50")]
    r = api.process(NOTE, model_spans=m)
    assert r == api.process_request({"text": NOTE, "model_spans": [m[0].to_dict()]})
    item = next(i for i in r["review"] if i["source"] == "ner:m:p=0.50")
    assert item["id"] == f"{at}:{at + 5}" and item["explanation"]["detector"] == "ner"


@pytest.mark.parametrize("request_,message", [
    ({"text": "x", "mask_review": "yes"}, "mask_review"),
    ({"text": "x", "decisions": {"1:0": True}}, "start:end"),
    ({"text": "x", "model_spans": [{"start": 0}]}, "integer"),
    ({"text": "x", "model_spans": [{"start": 0, "end": 9, "label": "PATIENT"}]}, "past the text"),
    ({"text": "x", "op": "process"}, "unknown request field"),
    ("x", "JSON object"),
])
def test_check_request_errors(request_, message):
    with pytest.raises(ValueError, match=message):
        api.check_request(request_)


def test_check_request_defaults():
    req = api.check_request({"text": "x", "mode": None, "key": None, "decisions": None,
                             "known": None, "model_spans": None})
    assert req == api.Request("x", "redact", None, {}, None, None, req.mask_review)


def test_page_routes_process_to_the_api():
    """The page's Python holds no request checks of its own: its answer is the API's."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))
    import deid_page
    for req in ({"text": NOTE, "mode": "review", "decisions": {"31:35": False}},
                {"text": NOTE, "mode": "shred"}, {"text": 5}, {"text": "x", "colour": 1}):
        reply = json.loads(deid_page.handle(json.dumps({"op": "process", **req})))
        want = json.loads(api.process_json(json.dumps(req)))
        if "error" in want:
            assert reply["ok"] is False and want["error"] in reply["error"]
        else:
            assert reply == {"ok": True, "result": want}
