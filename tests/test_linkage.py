"""Per-patient linkage: one date offset and one set of fake names per patient (HMAC of the
stretched master key and the patient id), another for another patient; the same as `deid
surrogate --patient`. One key reader for every command. Invented notes only."""
import json

import pytest

from deid_core import api
from deid_core.batch import Config, run_batch
from deid_core.cli import build_parser, main
from deid_core.keys import stretch
from deid_core.linkage import (KeyFileError, master_secret, patient_linkage_key, patient_secret,
                               read_key)

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


def test_patient_secret_is_a_keyed_hmac_of_the_stretched_master():
    import hashlib
    import hmac
    m = master_secret(KEY)
    assert m == stretch(KEY) and len(m) == 32
    assert patient_secret(m, "P-1") == hmac.new(m, b"deid-patient\x00P-1", hashlib.sha256).digest()
    assert patient_secret(m, "P-1") != patient_secret(m, "P-2")
    assert patient_secret(m, "P-1") != patient_secret(master_secret("other key"), "P-1")
    assert patient_linkage_key(m, None) == patient_linkage_key(m, None)
    assert master_secret(None) != master_secret(None) and len(master_secret("")) == 32
    with pytest.raises(ValueError):
        patient_secret(b"", "P-1")


def test_same_patient_same_offset_and_names_across_notes(tmp_path):
    out = run(tmp_path)
    a1, b1 = fakes(out[1]), fakes(out[3])
    assert a1[1:] == b1[1:]  # same fake doctor and patient name in both of P-100's notes
    offset = patient_linkage_key(master_secret(KEY), "P-100").date_offset_days()
    from datetime import date, timedelta
    assert a1[0] == (date(2014, 3, 5) + timedelta(days=offset)).strftime("%m/%d/%Y")
    assert b1[0] == (date(2014, 3, 19) + timedelta(days=offset)).strftime("%m/%d/%Y")


def test_two_patients_differ(tmp_path):
    out = run(tmp_path)
    p1, p2 = fakes(out[1]), fakes(out[2])
    assert p1[0] != p2[0] and p1[1] != p2[1] and p1[2] != p2[2]
    assert patient_linkage_key(master_secret(KEY), "P-100").date_offset_days() != \
        patient_linkage_key(master_secret(KEY), "P-200").date_offset_days()


def test_same_as_surrogate_with_the_patient_option(tmp_path, capsys):
    """Each batch record equals ``deid surrogate --key-file K --patient P`` and the API with the
    patient's key; the same key without --patient-field equals ``deid surrogate`` without it."""
    out = run(tmp_path)
    kf = tmp_path / "k.key"
    kf.write_text(KEY + "\n", encoding="utf-8")
    for rec in out.values():
        text = NOTE_A if rec["id"] in (1, 2) else NOTE_B
        derived = patient_linkage_key(master_secret(KEY), rec["patient"])
        assert api.process(text, "surrogate", key=derived)["output"] == rec["text"]
        note = tmp_path / f"note{rec['id']}.txt"
        note.write_text(text, encoding="utf-8")
        assert main(["surrogate", str(note), "--key-file", str(kf), "--patient", rec["patient"],
                     "--rules-only"]) == 0
        assert capsys.readouterr().out == rec["text"]
    src = tmp_path / "plain.jsonl"
    src.write_text(json.dumps({"id": 1, "text": NOTE_A}) + "\n", encoding="utf-8")
    run_batch(src, tmp_path / "plain.out", Config(mode="surrogate", master_key=KEY, rules_only=True))
    plain = json.loads((tmp_path / "plain.out").read_text(encoding="utf-8"))["text"]
    assert plain == api.process(NOTE_A, "surrogate", key=KEY)["output"]
    assert main(["surrogate", str(tmp_path / "note1.txt"), "--key-file", str(kf), "--rules-only"]) == 0
    assert capsys.readouterr().out == plain


def test_same_across_jobs_and_runs(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = run(tmp_path / "a")
    two = run(tmp_path / "b", jobs=2, chunksize=1)
    assert one == two


def test_without_key_a_fresh_secret_per_run(tmp_path, monkeypatch):
    monkeypatch.delenv("DEID_KEY", raising=False)
    assert read_key() is None
    k1, k2 = master_secret(None), master_secret(None)
    assert k1 != k2 and len(k1) == 32
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    r1, r2 = run(tmp_path / "a", key=k1), run(tmp_path / "b", key=k2)
    assert fakes(r1[1])[1:] == fakes(r1[3])[1:]  # linked within the run
    assert fakes(r1[1]) != fakes(r2[1])           # not across runs
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["in.jsonl", "out.jsonl",
                                                                 "out.jsonl.settings.json"]
    assert json.loads((tmp_path / "a" / "out.jsonl.settings.json").read_text())["key"] != \
        json.loads((tmp_path / "b" / "out.jsonl.settings.json").read_text())["key"]


def test_key_from_file_or_environment(tmp_path, monkeypatch):
    kf = tmp_path / "k.txt"
    kf.write_text(KEY + "\n", encoding="utf-8")
    monkeypatch.setenv("DEID_KEY", "from-env")
    assert read_key(kf) == KEY
    assert read_key() == "from-env"
    assert read_key(key=" given ") == "given"
    monkeypatch.setenv("DEID_KEY", "  ")
    assert read_key() is None
    kf.write_text("\n", encoding="utf-8")
    with pytest.raises(KeyFileError, match="empty"):
        read_key(kf)
    with pytest.raises(KeyFileError):
        read_key(tmp_path / "missing.key")


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
