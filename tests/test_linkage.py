"""Per-patient linkage: one date offset and one set of fake names per patient (HMAC of the key
and the patient id), another for another patient; the same as `deid surrogate` with the derived
key. Invented notes only."""
import json

import pytest

from deid_core import api
from deid_core.batch import Config, run_batch
from deid_core.cli import build_parser, main
from deid_core.linkage import KeyFileError, master_key, patient_key, patient_linkage_key

NOTE_A = "Admitted on 03/05/2014. Seen by Dr. Anne Whitcombe. Pt: John Smith."
NOTE_B = "Discharged 03/19/2014, Pt: John Smith, by Dr. Anne Whitcombe."
ROWS = [{"id": 1, "patient": "P-100", "text": NOTE_A}, {"id": 2, "patient": "P-200", "text": NOTE_A},
        {"id": 3, "patient": "P-100", "text": NOTE_B}, {"id": 4, "patient": "P-200", "text": NOTE_B}]
KEY = "correct horse battery staple"


def run(tmp_path, rows=ROWS, key=KEY, **kw):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_batch(src, out, Config(mode="surrogate", master_key=key, per_patient=True, rules_only=True),
              patient_field="patient", **kw)
    return {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


def fakes(rec):
    """(fake date, fake doctor, fake patient) read from the surrogate text of NOTE_A/NOTE_B."""
    text = rec["text"]
    date = text.split("on ")[1][:10] if text.startswith("Admitted") else text.split(" ")[1][:10]
    doctor = text.split("Dr. ")[1].split(".")[0]
    patient = text.split("Pt: ")[1].split(",")[0].rstrip(".")
    return date, doctor, patient


def test_patient_key_is_a_keyed_hmac():
    assert patient_key("k", "P-1") == patient_key("k", "P-1")
    assert len(patient_key("k", "P-1")) == 64
    assert patient_key("k", "P-1") != patient_key("k", "P-2")
    assert patient_key("k", "P-1") != patient_key("other", "P-1")
    assert patient_linkage_key("k", None) == patient_linkage_key("k", None)
    with pytest.raises(ValueError):
        patient_key("", "P-1")


def test_same_patient_same_offset_and_names_across_notes(tmp_path):
    out = run(tmp_path)
    a1, b1 = fakes(out[1]), fakes(out[3])
    assert a1[1:] == b1[1:]  # same fake doctor and patient name in both of P-100's notes
    offset = patient_linkage_key(KEY, "P-100").date_offset_days()
    from datetime import date, timedelta
    assert a1[0] == (date(2014, 3, 5) + timedelta(days=offset)).strftime("%m/%d/%Y")
    assert b1[0] == (date(2014, 3, 19) + timedelta(days=offset)).strftime("%m/%d/%Y")


def test_two_patients_differ(tmp_path):
    out = run(tmp_path)
    p1, p2 = fakes(out[1]), fakes(out[2])
    assert p1[0] != p2[0] and p1[1] != p2[1] and p1[2] != p2[2]
    assert patient_linkage_key(KEY, "P-100").date_offset_days() != \
        patient_linkage_key(KEY, "P-200").date_offset_days()


def test_same_as_surrogate_with_the_derived_key(tmp_path, capsys):
    out = run(tmp_path)
    for rec in out.values():
        derived = patient_key(KEY, rec["patient"])
        text = NOTE_A if rec["id"] in (1, 2) else NOTE_B
        assert api.process(text, "surrogate", key=derived)["output"] == rec["text"]
        note = tmp_path / f"note{rec['id']}.txt"
        note.write_text(text, encoding="utf-8")
        opts = {a for action in build_parser()._subparsers._group_actions[0].choices["surrogate"]._actions
                for a in action.option_strings}
        if "--key-file" in opts:
            kf = tmp_path / "derived.key"
            kf.write_text(derived + "\n", encoding="utf-8")
            argv = ["surrogate", str(note), "--key-file", str(kf), "--rules-only"]
        else:
            argv = ["surrogate", str(note), "--key", derived, "--rules-only"]
        assert main(argv) == 0
        assert capsys.readouterr().out == rec["text"]


def test_same_across_jobs_and_runs(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = run(tmp_path / "a")
    two = run(tmp_path / "b", jobs=2, chunksize=1)
    assert one == two


def test_without_key_a_fresh_secret_per_run(tmp_path, monkeypatch):
    monkeypatch.delenv("DEID_KEY", raising=False)
    k1, given1 = master_key()
    k2, given2 = master_key()
    assert not given1 and not given2 and k1 != k2 and len(k1) == 64
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    r1, r2 = run(tmp_path / "a", key=k1), run(tmp_path / "b", key=k2)
    assert fakes(r1[1])[1:] == fakes(r1[3])[1:]  # linked within the run
    assert fakes(r1[1]) != fakes(r2[1])           # not across runs
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["in.jsonl", "out.jsonl"]


def test_key_from_file_or_environment(tmp_path, monkeypatch):
    kf = tmp_path / "k.txt"
    kf.write_text(KEY + "\n", encoding="utf-8")
    monkeypatch.setenv("DEID_KEY", "from-env")
    assert master_key(kf) == (KEY, True)
    assert master_key() == ("from-env", True)
    kf.write_text("\n", encoding="utf-8")
    with pytest.raises(KeyFileError, match="empty"):
        master_key(kf)
    with pytest.raises(KeyFileError):
        master_key(tmp_path / "missing.key")


def test_batch_cli_key_file_and_env_agree_and_no_key_option(tmp_path, monkeypatch, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    kf = tmp_path / "k.txt"
    kf.write_text(KEY, encoding="utf-8")
    base = ["batch", str(src), "--mode", "surrogate", "--patient-field", "patient", "--rules-only",
            "--jobs", "1", "--no-progress"]
    monkeypatch.delenv("DEID_KEY", raising=False)
    assert main(base + ["--out", str(tmp_path / "f.jsonl"), "--key-file", str(kf)]) == 0
    monkeypatch.setenv("DEID_KEY", KEY)
    assert main(base + ["--out", str(tmp_path / "e.jsonl")]) == 0
    assert (tmp_path / "f.jsonl").read_bytes() == (tmp_path / "e.jsonl").read_bytes()
    assert KEY not in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(base + ["--out", str(tmp_path / "x.jsonl"), "--key", KEY])
