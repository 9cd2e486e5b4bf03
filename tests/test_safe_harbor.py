"""The Safe Harbor output option (issue 24): deid_core.safe_harbor, the write path, the API,
``deid redact --keep-safe-harbor`` and ``deid batch --keep-safe-harbor`` (same output), and the
ZIP3 table."""
import datetime as dt
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core import analyze, api
from deid_core import lists as L
from deid_core.cli import main
from deid_core.safe_harbor import (SafeHarborWriter, age_text, date_text, reference_year,
                                   restricted_zip3, safe_harbor_cases, safe_harbor_text, zip_text)
from deid_core.spans import LABELS
from deid_core.write import write

CASES = safe_harbor_cases()
IDS = [c["kind"] for c in CASES]


# ------------------------------------------------------------------ the shared case table ---
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_api_gives_the_expected_output(case):
    out = api.process(case["text"], mode="redact", safe_harbor=True)
    assert out["output"] == case["expected"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_cli_redact_keep_safe_harbor(case, tmp_path, capsys):
    note = tmp_path / "note.txt"
    note.write_text(case["text"], encoding="utf-8")
    assert main(["redact", str(note), "--rules-only", "--keep-safe-harbor"]) == 0
    assert capsys.readouterr().out == case["expected"]


def test_batch_keep_safe_harbor_gives_the_cli_output(tmp_path, capsys):
    src = tmp_path / "notes.jsonl"
    src.write_text("".join(json.dumps({"id": c["kind"], "text": c["text"]}) + "\n" for c in CASES),
                   encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code = main(["batch", str(src), "--out", str(out), "--rules-only", "--keep-safe-harbor",
                 "--jobs", "1", "--no-progress"])
    capsys.readouterr()
    assert code == 0
    got = {r["id"]: r["text"] for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert got == {c["kind"]: c["expected"] for c in CASES}


def test_the_table_covers_every_label_the_rules_find_and_the_named_rules():
    labels = {s.label for c in CASES for s in analyze(c["text"]).spans}
    assert labels >= {"PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "HOSPITAL", "ORGANIZATION",
                      "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "ROOM", "AGE", "DATE", "PHONE",
                      "FAX", "EMAIL", "URL", "IPADDR", "SSN", "MEDICALRECORD", "HEALTHPLAN",
                      "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"} - {"PATIENT"}
    kinds = set(IDS)
    assert {"zip_unrestricted", "zip_restricted", "age_89", "age_90", "birth_year_over_89",
            "date_with_year", "date_without_year"} <= kinds


# ------------------------------------------------------------------------- the rules ---
@pytest.mark.parametrize("zip_code, expected", [
    ("02139", "021XX"),          # Cambridge MA: 021 holds far more than 20,000 people
    ("02139-4307", "021XX"),     # ZIP+4: the last four go too
    ("90210", "902XX"),
    ("03601", "000XX"),          # 036: one of the HHS 17 and at or under 20,000 by ZCTA
    ("05901", "000XX"),          # 059: the same
    ("06390", "000XX"),          # 063: HHS 17, above 20,000 by ZCTA: restricted all the same
    ("20201", "000XX"),          # 202: at or under 20,000 by ZCTA, not among the HHS 17
    ("00001", "000XX"),          # 000: absent from the ZCTA table
    ("ZIP", "[LOCATION]"),       # no five digits
])
def test_zip3_rule(zip_code, expected):
    assert zip_text(zip_code) == expected


def test_zip3_table_is_the_union_of_hhs_and_small_areas():
    rows = L.read_list("zip3_population.tsv").rows
    hhs = {r[0] for r in rows if r[3] == "yes"}
    small = {r[0] for r in rows if int(r[1]) <= 20_000}
    assert len(hhs) == 17 and "036" in hhs and "890" in hhs
    assert {r[0] for r in rows if r[4] == "no"} == hhs | small
    assert all(restricted_zip3(p) for p in hhs | small)
    assert not restricted_zip3("021") and restricted_zip3("000")


@pytest.mark.parametrize("text, expected", [
    ("3/14/2021", "2021"), ("March 14, 2021", "2021"), ("2021-03-14", "2021"),
    ("14 Mar 2021", "2021"), ("3/14/21", "2021"), ("'21", "2021"), ("2021", "2021"),
    ("March 2021", "2021"), ("Christmas 2019", "2019"), ("1/2/2019 - 3/4/2020", "2019-2020"),
    ("3/14", "[DATE]"), ("March 14th", "[DATE]"), ("Monday", "[DATE]"), ("the 13th", "[DATE]"),
    ("Christmas", "[DATE]"),
    # ages: at reference year 2026 a year 90 or more years back implies an age over 89
    ("02/11/1936", "[DATE]"), ("1936", "[DATE]"), ("02/11/1937", "1937"), ("'30", "[DATE]"),
    ("'45", "1945"), ("1990s", "1990s"), ("1930s", "[DATE]"), ("1940s", "1940s"),
])
def test_date_becomes_its_year(text, expected):
    assert date_text(text, 2026) == expected


@pytest.mark.parametrize("text, expected", [
    ("89", "89"), ("90", "90+"), ("92", "90+"), ("101", "90+"), ("ninety-four", "90+"),
    ("Ninety", "90+"), ("one hundred and two", "90+"), ("90s", "90+"), ("nineties", "90+"),
    ("80s", "80s"), ("45", "45"), ("old", "[AGE]"),
])
def test_age_over_89_becomes_90_plus(text, expected):
    assert age_text(text) == expected


def test_reference_year_is_the_later_of_today_and_the_note():
    assert reference_year(["3/4/2019"], dt.date(2026, 5, 1)) == 2026
    assert reference_year(["3/4/2091", "2019"], dt.date(2026, 5, 1)) == 2091
    assert reference_year([], dt.date(2030, 1, 1)) == 2030


def test_a_note_dated_ahead_masks_more_birth_years():
    text = "DOB 02/11/1990. Seen 3/4/2091."
    a = analyze(text)
    w = SafeHarborWriter(text, a.spans, today=dt.date(2026, 1, 1))
    assert [w.replace(s, text[s.start:s.end]) for s in a.spans] == ["[DATE]", "2091"]


@pytest.mark.parametrize("label, original, expected", [
    ("STATE", "Massachusetts", "Massachusetts"), ("COUNTRY", "Portugal", "[LOCATION]"),
    ("CITY", "Boston", "[LOCATION]"), ("PATIENT", "Ann Lee", "[NAME]"), ("SSN", "123", "[ID]"),
    ("PHONE", "555-0142", "[CONTACT]"), ("PROFESSION", "nurse", "[PROFESSION]"),
])
def test_other_labels_write_the_redact_tag_and_a_state_stays(label, original, expected):
    assert safe_harbor_text(label, original, 2026) == expected


# ------------------------------------------------------------ the write path and the API ---
def test_spans_and_masking_do_not_change_only_what_is_written():
    text = "Seen 3/14/2021 by Dr. Anne Whitcombe, Cambridge, MA 02139. Mr. Bell, 92 yo."
    plain = api.process(text, mode="redact")
    harbor = api.process(text, mode="redact", safe_harbor=True)
    keys = ("id", "label", "tier", "source", "replaced")
    assert [{k: s[k] for k in keys} for s in plain["spans"]] == \
        [{k: s[k] for k in keys} for s in harbor["spans"]]
    assert harbor["output"].startswith("Seen 2021 by Dr. [NAME], [LOCATION], MA 021XX.")
    for s in harbor["spans"]:   # out offsets point at what was written
        assert harbor["output"][s["out_start"]:s["out_end"]] in ("2021", "[NAME]", "[LOCATION]",
                                                                 "MA", "021XX", "90+", s["text"])


def test_amber_spans_follow_decisions_and_mask_review():
    text = "Quit in the 1920s; smoked in the 1990s."
    old, recent = analyze(text).spans
    assert old.tier == recent.tier == "review"
    assert api.process(text, safe_harbor=True)["output"] == text
    assert api.process(text, safe_harbor=True, mask_review=True)["output"] == \
        "Quit in the [DATE]; smoked in the 1990s."
    dec = {f"{old.start}:{old.end}": True, f"{recent.start}:{recent.end}": True}
    assert api.process(text, safe_harbor=True, decisions=dec)["output"] == \
        "Quit in the [DATE]; smoked in the 1990s."
    assert api.process(text, decisions=dec)["output"] == "Quit in the [DATE]; smoked in the [DATE]."
    keep = {f"{old.start}:{old.end}": False}
    assert api.process(text, safe_harbor=True, decisions=keep, mask_review=True)["output"] == text


def test_review_mode_takes_the_option_and_surrogate_refuses_it():
    text = "Admitted 3/14/2021."
    assert api.process(text, mode="review", safe_harbor=True)["output"] == "Admitted 2021."
    with pytest.raises(ValueError, match="safe_harbor"):
        api.process(text, mode="surrogate", safe_harbor=True)
    with pytest.raises(ValueError, match="redact"):
        write(analyze(text), "surrogate", safe_harbor=True)


def test_json_request_field():
    ok = json.loads(api.process_json(json.dumps({"text": "Seen 3/14/2021.", "safe_harbor": True})))
    assert ok["output"] == "Seen 2021."
    bad = json.loads(api.process_json(json.dumps({"text": "x", "safe_harbor": "yes"})))
    assert "safe_harbor" in bad["error"]
    bad = json.loads(api.process_json(json.dumps({"text": "x", "mode": "surrogate",
                                                  "safe_harbor": True})))
    assert "surrogate" in bad["error"]


def test_cli_surrogate_has_no_safe_harbor_option(tmp_path, capsys):
    note = tmp_path / "n.txt"
    note.write_text("x")
    with pytest.raises(SystemExit):
        main(["surrogate", str(note), "--rules-only", "--keep-safe-harbor"])
    capsys.readouterr()


def test_batch_refuses_the_option_outside_redact(tmp_path, capsys):
    src = tmp_path / "n.jsonl"
    src.write_text('{"id": 1, "text": "x"}\n')
    code = main(["batch", str(src), "--out", str(tmp_path / "o.jsonl"), "--rules-only",
                 "--keep-safe-harbor", "--mode", "detect", "--no-progress"])
    assert code == 2 and "redact" in capsys.readouterr().err


def test_surrogate_writes_90_plus_for_an_age_over_89():
    out = api.process("Mr. Bell is a 92 yo man; his sister is ninety-four.", mode="surrogate",
                      key="k")["output"]
    assert "90+ yo" in out and "is 90+." in out


def test_the_batch_and_spark_engine_takes_the_option():
    from deid_core.batch import Config, Engine
    engine = Engine(Config(mode="redact", rules_only=True, safe_harbor=True))
    for c in CASES:
        assert engine.process(c["text"])["text"] == c["expected"], c["kind"]
    with pytest.raises(ValueError, match="redact"):
        Config(mode="surrogate", master_key="k", safe_harbor=True)



@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=40), st.sampled_from(sorted(LABELS)),
       st.integers(min_value=1900, max_value=2200))
def test_any_span_text_any_label_gives_a_string_and_keeps_no_more_than_permitted(value, label, ref):
    out = safe_harbor_text(label, value, ref)
    assert isinstance(out, str) and out
    if label not in ("DATE", "ZIP", "STATE", "AGE"):
        assert out == f"[{LABELS[label]}]"
    if label == "ZIP":
        assert out in ("[LOCATION]", "000XX") or (len(out) == 5 and out.endswith("XX")
                                                  and out[:3] in value)
    if label == "AGE":
        assert out in ("[AGE]", "90+") or out == value
    if label == "DATE":
        assert out == "[DATE]" or all(ref - int(y) < 90 for y in re.findall(r"\d{4}", out))


def test_the_model_gives_the_same_table():
    """The shared table holds with the NER model too (the CLI's default and the page's)."""
    pytest.importorskip("onnxruntime")
    from deid_core.ner.onnx_runtime import OnnxNer
    ner = OnnxNer.load(threads=1)
    for c in CASES:
        out = api.process(c["text"], mode="redact", safe_harbor=True, model_spans=ner.spans(c["text"]))
        assert out["output"] == c["expected"], c["kind"]


def test_cli_review_takes_the_option(tmp_path, capsys):
    note = tmp_path / "n.txt"
    note.write_text("Seen 3/14/2021 in Cambridge, MA 02139.", encoding="utf-8")
    assert main(["review", str(note), "--rules-only", "--keep-safe-harbor"]) == 0
    assert capsys.readouterr().out == "Seen 2021 in [LOCATION], MA 021XX."
