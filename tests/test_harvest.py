"""deid harvest: inclusion list, templates, no PHI in the file, rules applied by deid batch.
Invented notes only."""
import json

import pytest

from deid_core.analyze import analyze
from deid_core.batch import Config, run_batch
from deid_core.cli import main
from deid_core.document import Document
from deid_core.harvest import (HarvestRules, Template, analyze_harvested, harvest, load_rules,
                               sentences, shape)


@pytest.mark.parametrize("text, expected", [
    ("Vitals stable. Seen today.", ["Vitals stable.", "Seen today."]),
    ("Seen by Dr. Anne Whitcombe. Plan: rest", ["Seen by Dr. Anne Whitcombe.", "Plan: rest"]),
    ("Line one\r\n\r\n  Line two;  then three\n", ["Line one", "Line two;", "then three"]),
    ("PS 10/5, FiO2 40%. GCS 15!", ["PS 10/5, FiO2 40%.", "GCS 15!"]),
    ("", []),
])
def test_sentences(text, expected):
    assert [text[a:b] for a, b in sentences(text)] == expected


@pytest.mark.parametrize("word, expected", [
    ("Smith", "<W>"), ("O'Brien", "<W>"), ("4471203", "<N>"), ("617-555-0199", "<N>"),
    ("HH-0771239", "<A>"), ("pgy2", "<A>"),
])
def test_shape(word, expected):
    assert shape(word) == expected


# Patients with known PHI (names, MRNs, dates, phones), six patients, two notes each.
PATIENTS = [("Teodora Vasquez-Lind", "4471203", "03/05/2014", "617-555-0142"),
            ("Marek Oyelaran", "5582314", "04/11/2015", "617-555-0177"),
            ("Ingrid Pellucci", "6693425", "05/19/2016", "617-555-0103"),
            ("Desmond Achterberg", "7704536", "06/23/2017", "617-555-0188"),
            ("Halvard Quenneville", "8815647", "07/30/2018", "617-555-0121"),
            ("Lucinda Farquharson", "9926758", "08/02/2019", "617-555-0165")]
BOILERPLATE = "Patient seen and examined at bedside with the team."


def corpus_rows():
    rows = []
    for p, (name, mrn, day, phone) in enumerate(PATIENTS):
        for k in range(2):
            rows.append({"id": f"{p}-{k}", "patient": f"P{p}", "text":
                         f"Pt: {name}\nMRN: {mrn}\nAdmitted {day}. {BOILERPLATE}\n"
                         f"Foley catheter in place; GCS 15.\nCall {phone} with questions.\n"})
    return rows


@pytest.fixture
def harvested(tmp_path):
    src = tmp_path / "corpus.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in corpus_rows()), encoding="utf-8")
    rules = harvest(src, Config(mode="detect", rules_only=True), patient_field="patient",
                    min_notes=3, min_patients=3, min_instances=3)
    return src, rules


def test_inclusion_list_and_templates(harvested):
    _, rules = harvested
    assert rules.notes == 12
    assert BOILERPLATE in rules.sentences
    # the amber Foley line never joins the list, and is no template either (amber slots)
    assert not any("foley" in s.lower() for s in rules.sentences)
    tokens = {t.tokens: t.slots for t in rules.templates}
    assert tokens[("mrn", "<N>")] == (("MEDICALRECORD", 0),)
    assert tokens[("call", "<N>", "with", "questions")] == (("PHONE", 0),)
    assert all(t.tier == "review" for t in rules.templates)


def test_harvested_file_holds_no_phi(harvested, tmp_path):
    _, rules = harvested
    text = rules.to_json().lower()
    for patient in PATIENTS:
        for value in patient:
            for part in value.replace("/", " ").replace("-", " ").split():
                assert part.lower() not in text, part
    assert load_rules_roundtrip(rules, tmp_path).to_json() == rules.to_json()


def load_rules_roundtrip(rules, tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(rules.to_json(), encoding="utf-8")
    return load_rules(path)


def test_a_sentence_seen_for_too_few_patients_is_not_listed(tmp_path):
    rows = [{"id": k, "patient": "P1", "text": BOILERPLATE} for k in range(6)]
    src = tmp_path / "c.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    rules = harvest(src, Config(mode="detect", rules_only=True), patient_field="patient",
                    min_notes=3, min_patients=3, min_instances=3)
    assert rules.sentences == frozenset()


# (note, expected spans (start, end, label, source)) for a template "seen by <W> <W>" (DOCTOR);
# words outside the template stay (Parkinson, Foley catheter).
TEMPLATE = Template(1, ("seen", "by", "<W>", "<W>"), (("DOCTOR", 0), ("DOCTOR", 0)), 5, 3, "review")


@pytest.mark.parametrize("text, expected", [
    ("Seen by zorblat quinnick.", [(8, 24, "DOCTOR", "harvest:template:1")]),
    ("seen by  Ava Li", [(9, 15, "DOCTOR", "harvest:template:1")]),
    ("Seen by neurology for Parkinson.", []),       # five words: not the template
    ("Foley catheter in place.", []),
])
def test_template_detector(text, expected):
    det = HarvestRules(templates=[TEMPLATE]).detector
    assert [(s.start, s.end, s.label, s.source) for s in det.detect(Document(text))] == expected


def test_phi_free_sentence_spans_dropped_and_reported(tmp_path):
    note = "Pt: John Smith, stable.\nCall 617-555-0199 with questions."
    rules = HarvestRules(sentences=["Pt: John Smith, stable."])
    an, safe = analyze_harvested(note, rules)
    assert safe == [(0, 23)]
    assert [note[s.start:s.end] for s in an.spans] == ["617-555-0199"]
    assert [note[s.start:s.end] for s in analyze(note).spans] == ["John Smith", "617-555-0199"]
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "text": note}) + "\n", encoding="utf-8")
    rules_file = tmp_path / "rules.json"
    rules_file.write_text(rules.to_json(), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(src), "--out", str(out), "--rules", str(rules_file), "--rules-only",
                 "--jobs", "1", "--no-progress"]) == 0
    rec = json.loads(out.read_text(encoding="utf-8"))
    assert rec["phi_free"] == [[0, 23]]
    assert rec["text"] == "Pt: John Smith, stable.\nCall [CONTACT] with questions."


def test_harvest_cli_then_batch_with_rules(harvested, tmp_path, capsys):
    src, _ = harvested
    rules_file = tmp_path / "r.json"
    assert main(["harvest", str(src), "--out", str(rules_file), "--rules-only", "--patient-field",
                 "patient", "--min-notes", "3", "--min-patients", "3", "--min-instances", "3",
                 "--no-progress"]) == 0
    assert "PHI-free sentences" in capsys.readouterr().err
    out = tmp_path / "o.jsonl"
    run_batch(src, out, Config(mode="redact", rules_only=True, rules=rules_file.read_text()))
    rec = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert rec["text"].startswith("Pt: [NAME]\nMRN: [ID]\nAdmitted [DATE]. " + BOILERPLATE)
    assert len(rec["phi_free"]) == 1


@pytest.mark.parametrize("bad", [
    "not json", "{}", '{"format": "deid-harvest", "version": 1, "templates": [{"tokens": ["<W>"], "slots": []}]}',
    '{"format": "deid-harvest", "version": 1, "templates": [{"tokens": ["<W>"], "slots": [["NOPE", 0]]}]}',
    '{"format": "deid-harvest", "version": 1, "sentences": [1]}',
])
def test_malformed_rules_rejected(bad):
    with pytest.raises(ValueError):
        HarvestRules.from_json(bad)


def test_two_jobs_harvest_the_same(harvested):
    src, one = harvested
    two = harvest(src, Config(mode="detect", rules_only=True), patient_field="patient",
                  min_notes=3, min_patients=3, min_instances=3, jobs=2)
    assert two.to_json() == one.to_json()


def test_model_sees_the_whole_note_and_is_skipped_when_all_is_phi_free():
    seen = []

    def model(text):
        seen.append(text)
        return []
    rules = HarvestRules(sentences=[BOILERPLATE])
    note = BOILERPLATE + "\nPt: John Smith."
    an, safe = analyze_harvested(note, rules, model)
    assert seen == [note] and safe == [(0, len(BOILERPLATE))]
    assert [note[s.start:s.end] for s in an.spans] == ["John Smith"]
    an, safe = analyze_harvested(BOILERPLATE, rules, model)
    assert seen == [note] and an.spans == ()
