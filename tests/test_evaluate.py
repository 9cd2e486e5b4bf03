"""The evaluator's figures on small hand-checked cases, and the readers' layouts."""
import json

import pytest

from deid_core.evaluate import evaluate, evaluate_corpus_json, without_timing
from deid_core.readers import GoldDoc, GoldSpan, category_of, parse_jsonl, read
from deid_core.spans import Span

TEXT = "Ann Lee seen 3/4/2019 at Mercy Hospital."
#       0   4   8    13       22 25          38
GOLD = GoldDoc("n1", TEXT, (GoldSpan(0, 7, "NAME", "PATIENT"), GoldSpan(13, 21, "DATE", "DATE"),
                            GoldSpan(25, 39, "LOCATION", "HOSPITAL")))


def fixed(spans):
    return lambda text: spans


def test_perfect_prediction():
    pred = (Span(0, 7, "PATIENT"), Span(13, 21, "DATE"), Span(25, 39, "HOSPITAL"))
    r = evaluate([GOLD], fixed(pred))
    o = r["certain"]["overall"]
    assert (o["tp"], o["fp"], o["fn"]) == (6 + 8 + 13, 0, 0)
    assert r["phi_characters"] == 27
    assert r["certain"]["strict_span"] == {"gold": 3, "exact": 3, "recall": 1.0}


def test_character_counts_skip_whitespace_and_split_by_tier():
    # Name found only as review; date found certain; "seen" wrongly masked certain; hospital missed.
    pred = (Span(0, 7, "PATIENT", "review"), Span(8, 12, "PATIENT"), Span(13, 21, "DATE"))
    r = evaluate([GOLD], fixed(pred), details=True)
    c, w = r["certain"], r["with_review"]
    assert (c["overall"]["tp"], c["overall"]["fp"], c["overall"]["fn"]) == (8, 4, 19)
    assert (w["overall"]["tp"], w["overall"]["fp"], w["overall"]["fn"]) == (14, 4, 13)
    assert c["per_category"]["NAME"] == {"gold": 6, "found": 0, "recall": 0.0,
                                         "predicted": 4, "precision": 0.0}
    assert w["per_category"]["NAME"]["recall"] == 1.0
    assert w["per_category"]["NAME"]["precision"] == round(6 / 10, 6)
    assert w["per_category"]["LOCATION"]["recall"] == 0.0
    assert w["overall"]["recall"] == round(14 / 27, 6)
    assert r["notes"] == [{"id": "n1", "misses": [[25, 39]], "false_alarms": [[8, 12]]}]
    # tokens: Ann Lee | 3 / 4 / 2019 | Mercy Hospital; "seen" a false token
    assert (w["token"]["tp"], w["token"]["fp"], w["token"]["fn"]) == (7, 1, 2)


def test_no_gold_and_no_prediction_scores_one():
    r = evaluate([GoldDoc("e", "nothing here", ())], fixed(()))
    assert r["certain"]["overall"]["recall"] == 1.0 and r["certain"]["overall"]["precision"] == 1.0


def test_corpus_json_matches_evaluate():
    line = json.dumps({"id": "n1", "text": TEXT, "spans": [{"start": 0, "end": 7, "label": "PATIENT"}]})
    a = json.loads(evaluate_corpus_json(line + "\n"))
    b = evaluate(parse_jsonl(line), details=True)
    assert without_timing(a) == json.loads(json.dumps(without_timing(b)))


@pytest.mark.parametrize("label,category", [("PATIENT", "NAME"), ("ZIP", "LOCATION"),
                                            ("GEOGRAPHIC_LOCATION", "LOCATION"),
                                            ("MEDICAL_RECORD_NUMBER", "ID"), ("HCPName", "NAME"),
                                            ("DATE", "DATE"), ("ID", "ID")])
def test_label_tables(label, category):
    assert category_of(label) == category


def test_unknown_label_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown PHI label 'WHATEVER'"):
        category_of("WHATEVER")


def test_jsonl_errors_name_the_line():
    with pytest.raises(ValueError, match=":2: not JSON"):
        parse_jsonl('{"id": 1, "text": "a", "spans": []}\n{oops\n')
    with pytest.raises(ValueError, match="outside the text"):
        parse_jsonl('{"id": 1, "text": "abc", "spans": [{"start": 1, "end": 9, "label": "DATE"}]}')


def test_i2b2_xml_reader(tmp_path):
    xml = ('<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA[Seen by Dr. Ann Lee on '
           '2091-03-04.]]></TEXT>\n<TAGS>\n<NAME id="P0" start="12" end="19" text="Ann Lee" TYPE="DOCTOR" comment="" />\n'
           '<DATE id="P1" start="23" end="33" text="2091-03-04" TYPE="DATE" comment="" />\n</TAGS>\n</deIdi2b2>\n')
    (tmp_path / "100-01.xml").write_text(xml, encoding="utf-8")
    docs = read("i2b2", tmp_path)
    assert [d.id for d in docs] == ["100-01"]
    assert [(s.start, s.end, s.category, s.label) for s in docs[0].spans] == [
        (12, 19, "NAME", "DOCTOR"), (23, 33, "DATE", "DATE")]
    assert docs[0].text[12:19] == "Ann Lee"


def test_physionet_reader(tmp_path):
    (tmp_path / "id.text").write_text(
        "START_OF_RECORD=1||||1||||\nPt Ann Lee seen 3/4.\n||||END_OF_RECORD\n"
        "START_OF_RECORD=1||||2||||\nNo PHI.\n||||END_OF_RECORD\n", encoding="utf-8")
    (tmp_path / "id-phi.phrase").write_text("1 1 3 10 PTName\n1 1 16 19 Date\n", encoding="utf-8")
    docs = read("physionet", tmp_path / "id.text")
    assert [d.id for d in docs] == ["1-1", "1-2"]
    assert [docs[0].text[s.start:s.end] for s in docs[0].spans] == ["Ann Lee", "3/4"]
    assert docs[1].spans == ()


def test_unknown_format():
    with pytest.raises(ValueError, match="unknown format"):
        read("csv", "x")


# An invented note in the real notes' style, with the PhysioNet labels.
PN_TEXT = "DR OKAFOR AWARE. WIFE MARISOL IN. ECHO 3/91. TO HARTWELL 4 ON 9/14."
PN_SPANS = [("OKAFOR", "HCPName"), ("MARISOL", "RelativeProxyName"), ("91", "DateYear"),
            ("HARTWELL", "Location"), ("9/14", "Date")]


def pn_line():
    spans = [{"start": PN_TEXT.index(t), "end": PN_TEXT.index(t) + len(t), "label": lab}
             for t, lab in PN_SPANS]
    return json.dumps({"id": "pn1", "text": PN_TEXT, "spans": spans})


def at(word, label, tier="certain"):
    i = PN_TEXT.index(word)
    return Span(i, i + len(word), label, tier)


def test_per_label_figures_and_amber_marks():
    docs = parse_jsonl(pn_line())
    pred = (at("OKAFOR", "DOCTOR"), at("MARISOL", "PATIENT", "review"), at("ECHO", "PATIENT", "review"),
            at("9/14", "DATE"), at("HART", "HOSPITAL", "review"))
    r = evaluate(docs, fixed(pred))
    c, w = r["certain"]["per_label"], r["with_review"]["per_label"]
    assert set(c) == {"HCPName", "RelativeProxyName", "DateYear", "Location", "Date"}
    assert c["HCPName"] == {"gold": 6, "found": 6, "recall": 1.0, "spans": 1, "spans_full": 1,
                            "span_full_recall": 1.0}
    assert c["RelativeProxyName"]["found"] == 0 and w["RelativeProxyName"]["recall"] == 1.0
    assert w["Location"] == {"gold": 8, "found": 4, "recall": 0.5, "spans": 1, "spans_full": 0,
                             "span_full_recall": 0.0}
    assert w["DateYear"]["recall"] == 0.0
    assert r["with_review"]["span_full"] == {"gold": 5, "full": 3, "recall": 0.6}
    # three amber marks, two of them touch PHI (MARISOL, HART); ECHO does not
    assert r["amber"] == {"marks": 3, "per_note": 3.0, "phi": 2, "share_phi": round(2 / 3, 6)}


@pytest.mark.parametrize("name,content,want", [
    ("pn.jsonl", None, "physionet"),
    ("c.jsonl", json.dumps({"id": 1, "text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PATIENT"}]}), "corpus"),
    ("p.json", "[]", "presidio"),
    ("x.text", "", "physionet"),
    ("x.xml", "<a/>", "i2b2"),
])
def test_detect_format(tmp_path, name, content, want):
    from deid_core.readers import detect_format
    p = tmp_path / name
    p.write_text(pn_line() if content is None else content, encoding="utf-8")
    assert detect_format(p) == want


def test_physionet_jsonl_reads_with_format_physionet(tmp_path):
    p = tmp_path / "pn.jsonl"
    p.write_text(pn_line() + "\n", encoding="utf-8")
    docs = read("physionet", p)
    assert read("auto", p) == docs and [s.label for s in docs[0].spans][:2] == ["HCPName", "RelativeProxyName"]
    assert {s.category for s in docs[0].spans} == {"NAME", "DATE", "LOCATION"}


DEV = "/work/shared/corpora/physionet-deid-dev/physionet_deid_dev.jsonl"
SCORER = "/work/shared/tools/score_detect.py"


@pytest.mark.slow
def test_figures_agree_with_the_independent_scorer_on_real_notes():
    """deid eval's overall figures on the real-notes dev set equal score_detect.py's (rules only)."""
    import importlib.util
    from pathlib import Path
    from deid_core import analyze, jsonl
    if not (Path(DEV).is_file() and Path(SCORER).is_file()):
        pytest.skip(f"the real-notes dev set or its scorer is absent ({DEV}, {SCORER})")
    spec = importlib.util.spec_from_file_location("score_detect", SCORER)
    scorer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scorer)
    recs = [r for r in (line.value for line in jsonl.read_file(DEV))]
    pred = {str(r["id"]): [s.to_dict() for s in analyze(r["text"]).spans] for r in recs}
    for r in recs:
        r["id"] = str(r["id"])
    theirs = scorer.score_corpus(recs, pred)
    burden = scorer.reviewer_burden(recs, pred)
    ours = evaluate(read("auto", DEV), lambda text: [s for s in analyze(text).spans])
    for name in ("certain", "with_review"):
        assert round(ours[name]["overall"]["recall"], 4) == theirs[name]["char_recall"]
        assert round(ours[name]["overall"]["precision"], 4) == theirs[name]["char_precision"]
        assert round(ours[name]["span_full"]["recall"], 4) == theirs[name]["span_recall_full"]
    assert round(ours["amber"]["per_note"], 3) == burden["amber_per_note"]
    assert round(ours["amber"]["share_phi"], 3) == burden["amber_share_real"]
