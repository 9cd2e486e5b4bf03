"""deid harvest: inclusion list, templates, no PHI in the file, rules applied by deid batch.
Invented notes only."""
import json

import pytest

from deid_core.analyze import analyze
from deid_core.batch import Config, run_batch
from deid_core.cli import main
from deid_core.document import Document
from deid_core.corpus_rules import HarvestRules, Template, load, sentences, shape
from deid_core.harvest import harvest


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
    return load(path)


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
    an = analyze(note, rules=rules)
    assert an.phi_free == ((0, 23),)
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
    an = analyze(note, model=model, rules=rules)
    assert seen == [note] and an.phi_free == ((0, len(BOILERPLATE)),)
    assert [note[s.start:s.end] for s in an.spans] == ["John Smith"]
    an = analyze(BOILERPLATE, model=model, rules=rules)
    assert seen == [note] and an.spans == ()


# --rules on every command: the same loader (deid_core.corpus_rules) and the same analysis as
# deid batch --rules. An invented note: its first sentence is in the inclusion list (skipped and
# reported as PHI-free), its third matches the template "seen by <W> <W>" (an amber DOCTOR);
# Foley catheter, Parkinson disease and PS 10/5 are never masked.
RULES_NOTE = ("Pt: John Smith, stable.\nCall 617-555-0199 with questions.\nSeen by zorblat quinnick.\n"
              "Foley catheter in place; Parkinson disease; PS 10/5.\n")
RULES = HarvestRules(sentences=["Pt: John Smith, stable."], templates=[TEMPLATE])
WITH_RULES = ([("617-555-0199", "PHONE", "certain", "contact:phone_us"),
               ("zorblat quinnick", "DOCTOR", "review", "harvest:template:1")], [[0, 23]])
WITHOUT_RULES = ([("John Smith", "PATIENT", "certain", "names:label:pt"),
                  ("617-555-0199", "PHONE", "certain", "contact:phone_us")], [])


@pytest.fixture
def rules_files(tmp_path):
    (tmp_path / "note.txt").write_text(RULES_NOTE, encoding="utf-8")
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": 7, "text": RULES_NOTE}) + "\n",
                                       encoding="utf-8")
    (tmp_path / "rules.json").write_text(RULES.to_json(), encoding="utf-8")
    return tmp_path


def _spans_by(command, d, capsys):
    """(final spans as (text, label, tier, source), phi_free) that ``command`` reports."""
    rules = [] if command.endswith("plain") else ["--rules", str(d / "rules.json")]
    if command.startswith("review"):
        assert main(["review", str(d / "note.txt"), "--json", "--rules-only", *rules]) == 0
        res = json.loads(capsys.readouterr().out)
    elif command.startswith("detect"):
        assert main(["detect", "--input", str(d / "in.jsonl"), "--rules-only", *rules]) == 0
        res = json.loads(capsys.readouterr().out)
        res.setdefault("phi_free", [])
    else:
        out = d / "out.jsonl"
        assert main(["batch", str(d / "in.jsonl"), "--out", str(out), "--mode", "detect",
                     "--rules-only", "--jobs", "1", "--no-progress", *rules]) == 0
        res = json.loads(out.read_text(encoding="utf-8"))
    spans = [(RULES_NOTE[s["start"]:s["end"]], s["label"], s["tier"], s["source"])
             for s in res["spans"]]
    return spans, res["phi_free"]


@pytest.mark.parametrize("command, expected", [
    ("review", WITH_RULES), ("detect", WITH_RULES), ("batch", WITH_RULES),
    ("review plain", WITHOUT_RULES), ("detect plain", WITHOUT_RULES), ("batch plain", WITHOUT_RULES),
])
def test_every_command_applies_rules_as_batch_does(rules_files, capsys, command, expected):
    assert _spans_by(command, rules_files, capsys) == expected


@pytest.mark.parametrize("argv, expected", [
    (["redact", "--mask-review"], "Pt: John Smith, stable.\nCall [CONTACT] with questions.\n"
                                  "Seen by [NAME].\n" + RULES_NOTE.split("\n")[3] + "\n"),
    (["redact"], "Pt: John Smith, stable.\nCall [CONTACT] with questions.\n"
                 "Seen by zorblat quinnick.\n" + RULES_NOTE.split("\n")[3] + "\n"),
])
def test_redact_with_rules(rules_files, capsys, argv, expected):
    assert main([argv[0], str(rules_files / "note.txt"), "--rules-only", "--rules",
                 str(rules_files / "rules.json"), *argv[1:]]) == 0
    assert capsys.readouterr().out == expected


def test_review_reports_the_phi_free_sentence(rules_files, capsys):
    assert main(["review", str(rules_files / "note.txt"), "--rules-only", "--rules",
                 str(rules_files / "rules.json")]) == 0
    err = capsys.readouterr().err
    assert "phi-free 0:23 known PHI-free sentence" in err
    assert "corpus rules (rules.json from deid harvest): template (1)" in err


# Gold: the phone and the doctor. With the rules the template finds the doctor (amber) and the
# PHI-free first sentence gives no false alarm; without them "John Smith" is one (9 characters).
@pytest.mark.parametrize("rules, expected", [
    (True, {"certain": (0.444444, 1.0), "with_review": (1.0, 1.0), "amber": 1}),
    (False, {"certain": (0.444444, 0.571429), "with_review": (0.444444, 0.571429), "amber": 0}),
])
def test_eval_with_rules(rules_files, capsys, rules, expected):
    gold = [{"start": 29, "end": 41, "label": "PHONE"}, {"start": 66, "end": 82, "label": "DOCTOR"}]
    corpus = rules_files / "gold.jsonl"
    corpus.write_text(json.dumps({"id": "g1", "text": RULES_NOTE, "spans": gold}) + "\n",
                      encoding="utf-8")
    extra = ["--rules", str(rules_files / "rules.json")] if rules else []
    assert main(["eval", "--format", "corpus", str(corpus), "--json", "--rules-only", *extra]) == 0
    r = json.loads(capsys.readouterr().out)
    got = {tier: (r[tier]["overall"]["recall"], r[tier]["overall"]["precision"])
           for tier in ("certain", "with_review")}
    assert dict(got, amber=r["amber"]["marks"]) == expected


@pytest.mark.parametrize("command", ["redact", "review", "detect", "eval", "batch"])
@pytest.mark.parametrize("content, message", [
    ("not json", "not JSON"), ('{"format": "other"}', "not a deid-harvest version 1 rules file"),
    (None, "No such file"),
])
def test_a_bad_rules_file_stops_every_command(rules_files, capsys, command, content, message):
    bad = rules_files / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    target = {"redact": [str(rules_files / "note.txt")], "review": [str(rules_files / "note.txt")],
              "detect": ["--input", str(rules_files / "in.jsonl")],
              "eval": ["--format", "corpus", "corpus/notes.jsonl"],
              "batch": [str(rules_files / "in.jsonl"), "--out", str(rules_files / "o.jsonl"),
                        "--no-progress", "--jobs", "1"]}[command]
    assert main([command, *target, "--rules-only", "--rules", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"deid: {bad}: " in err and message in err
