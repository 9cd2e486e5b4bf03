"""deid batch: formats, order, bad records, resume, jobs, model errors (invented notes only)."""
import csv
import json

import pytest

from deid_core.batch import Config, Engine, InputError, ModelError, read_records, run_batch
from deid_core.cli import main

# (text, expected redacted text): amber (review) spans keep their text by default; clinical
# words (Foley catheter, GCS, Glasgow Coma Scale, Parkinson, drug names, doses) are not masked.
NOTES = [
    ("Seen by Dr. Anne Whitcombe on 03/05/2014. Called Will about it; GCS 15.",
     "Seen by Dr. [NAME] on [DATE]. Called Will about it; GCS 15."),
    ("Pt: John Smith, MRN: 4471203. Call 617-555-0199.",
     "Pt: [NAME], MRN: [ID]. Call [CONTACT]."),
    ("Parkinson disease, stable. Foley catheter in place. Metoprolol 25 mg BID.",
     "Parkinson disease, stable. Foley catheter in place. Metoprolol 25 mg BID."),
    ("Glasgow Coma Scale 15. Mrs. Grace Oduya, 93 years old, lives in Springfield, IL.",
     "Glasgow Coma Scale 15. Mrs. [NAME], [AGE] years old, lives in [LOCATION], [LOCATION]."),
]
SPANS_0 = [(12, 26, "DOCTOR", "certain", True), (30, 40, "DATE", "certain", True),
           (49, 53, "PATIENT", "review", False)]


def rules_only(mode="redact", **kw):
    return Config(mode=mode, rules_only=True, master_key="test-key", **kw)


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def read_out(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def notes_jsonl(tmp_path):
    return write_jsonl(tmp_path / "in.jsonl", [{"id": f"n{i}", "text": t} for i, (t, _) in enumerate(NOTES)])


@pytest.mark.parametrize("i", range(len(NOTES)))
def test_redact_each_note(tmp_path, notes_jsonl, i):
    out = tmp_path / "out.jsonl"
    run_batch(notes_jsonl, out, rules_only())
    rec = read_out(out)[i]
    assert rec["id"] == f"n{i}" and rec["error"] is None
    assert rec["text"] == NOTES[i][1]


def test_spans_fields(tmp_path, notes_jsonl):
    out = tmp_path / "out.jsonl"
    summary = run_batch(notes_jsonl, out, rules_only())
    rec = read_out(out)[0]
    assert [(s["start"], s["end"], s["label"], s["tier"], s["replaced"]) for s in rec["spans"]] == SPANS_0
    assert all(s["source"] for s in rec["spans"])
    assert summary.notes == 4 and summary.errors == 0 and summary.amber == 1
    assert summary.spans["NAME"] == 4 and summary.spans["DATE"] == 1
    assert summary.chars == sum(len(t) for t, _ in NOTES)


def test_mask_review_masks_amber(tmp_path, notes_jsonl):
    out = tmp_path / "out.jsonl"
    run_batch(notes_jsonl, out, rules_only(mask_review=True))
    assert read_out(out)[0]["text"] == "Seen by Dr. [NAME] on [DATE]. Called [NAME] about it; GCS 15."


def test_detect_mode_has_no_text(tmp_path, notes_jsonl):
    out = tmp_path / "out.jsonl"
    run_batch(notes_jsonl, out, rules_only("detect"))
    rec = read_out(out)[0]
    assert "text" not in rec
    assert [(s["start"], s["end"], s["label"]) for s in rec["spans"]] == [x[:3] for x in SPANS_0]


def test_two_jobs_same_output_same_order(tmp_path):
    rows = [{"id": k, "text": NOTES[k % len(NOTES)][0]} for k in range(24)]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_batch(src, one, rules_only("surrogate"), jobs=1)
    run_batch(src, two, rules_only("surrogate"), jobs=2, chunksize=2)
    assert one.read_bytes() == two.read_bytes()
    assert [r["id"] for r in read_out(two)] == list(range(24))


def test_bad_records_go_to_errors_file_and_run_goes_on(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_bytes(b'{"id": "a", "text": "Pt: John Smith."}\n'
                    b'{"id": "b", "text": "caf\xe9"}\n'  # Latin-1 byte: not UTF-8
                    b'{"id": "c"}\n'                     # no text
                    b'not json\n'
                    b'{"id": "e", "text": "GCS 15."}\n'
                    b'{"id": "f", "text": null}\n'
                    b'{"id": "g", "text": "Pt: John Sm')     # the last line cut off
    out = tmp_path / "out.jsonl"
    code = main(["batch", str(src), "--out", str(out), "--rules-only", "--jobs", "1", "--no-progress"])
    assert code == 1
    recs = read_out(out)
    assert [r["id"] for r in recs] == ["a", "2", "c", "4", "e", "f", "7"]
    assert [r["error"] is None for r in recs] == [True, False, False, False, True, False, False]
    assert [r["error"] for r in recs[2:4]] == [
        "no text: field 'text' is missing", "line 4: not JSON: Expecting value at column 1"]
    assert "not UTF-8" in recs[1]["error"]
    assert recs[5]["error"] == "no text: field 'text' is null"
    assert recs[6]["error"] == ("line 7: not JSON: Unterminated string starting at column 21; "
                                "the line ends early (cut off?)")
    assert recs[4]["text"] == "GCS 15."
    errors = read_out(tmp_path / "out.jsonl.errors.jsonl")
    assert [e["id"] for e in errors] == ["2", "c", "4", "f", "7"]
    assert "some records failed" in capsys.readouterr().err


def test_clean_run_exit_0_and_no_part_file(tmp_path, notes_jsonl):
    out = tmp_path / "out.jsonl"
    code = main(["batch", str(notes_jsonl), "--out", str(out), "--rules-only", "--jobs", "1",
                 "--no-progress"])
    assert code == 0 and out.exists()
    assert not (tmp_path / "out.jsonl.part").exists()
    assert not (tmp_path / "out.jsonl.errors.jsonl").exists()


@pytest.mark.parametrize("flag, value, says", [
    ("--jobs", "-3", "must be 1 or more, not -3"),
    ("--jobs", "0", "must be 1 or more, not 0"),
    ("--threads", "0", "must be 1 or more, not 0"),
    ("--chunksize", "-1", "must be 1 or more, not -1"),
    ("--chunksize", "x", "'x' is not a whole number"),
])
def test_bad_counts_are_usage_errors_before_any_output(tmp_path, notes_jsonl, capsys, flag,
                                                       value, says):
    out = tmp_path / "out.jsonl"
    with pytest.raises(SystemExit) as e:
        main(["batch", str(notes_jsonl), "--out", str(out), "--rules-only", "--no-progress",
              flag, value])
    assert e.value.code == 2
    assert f"argument {flag}: {says}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [notes_jsonl]


def test_resume_skips_written_records_and_cuts_a_half_line(tmp_path):
    rows = [{"id": k, "text": NOTES[k % len(NOTES)][0]} for k in range(6)]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    full = tmp_path / "full.jsonl"
    run_batch(src, full, rules_only())
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    out = tmp_path / "out.jsonl"
    (tmp_path / "out.jsonl.part").write_text("".join(lines[:2]) + lines[2][:15], encoding="utf-8")
    summary = run_batch(src, out, rules_only(), resume=True)
    assert summary.skipped == 2 and summary.notes == 4
    assert out.read_bytes() == full.read_bytes()


def test_resume_refuses_another_input(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [{"id": "x", "text": "GCS 15."}])
    (tmp_path / "out.jsonl.part").write_text('{"id": "other", "spans": []}\n', encoding="utf-8")
    with pytest.raises(InputError, match="not the same input"):
        run_batch(src, tmp_path / "out.jsonl", rules_only(), resume=True)


def _interrupted_run(tmp_path, monkeypatch, config):
    """Run ``config`` over 6 notes and press Ctrl-C while the second is written:
    (input path, output path, the run's summary)."""
    import signal
    rows = [{"id": k, "text": NOTES[k % len(NOTES)][0]} for k in range(6)]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out = tmp_path / "out.jsonl"
    real = Engine.output
    calls = []

    def interrupting(self, an, patient=None):
        calls.append(1)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)
        return real(self, an, patient)
    monkeypatch.setattr(Engine, "output", interrupting)
    summary = run_batch(src, out, config, chunksize=1)   # one record a task: stops after the 2nd
    monkeypatch.setattr(Engine, "output", real)
    assert summary.interrupted
    return src, out, summary


@pytest.mark.parametrize("second, what", [
    (rules_only("detect"), "mode 'redact' (now 'detect')"),
    (rules_only(mask_review=True), "mask_review False (now True)"),
    (Config(mode="redact", model_form="fast", master_key="test-key"), "model 'rules only' (now 'fast')"),
])
def test_resume_refuses_other_settings(tmp_path, monkeypatch, second, what):
    """An interrupted run resumed with another mode, model form or masking would mix two kinds
    of record in one file: refused, naming what differs; the same settings resume, and the
    settings file (no key, no text) goes when the output is complete."""
    src, out, _ = _interrupted_run(tmp_path, monkeypatch, rules_only())
    settings = tmp_path / "out.jsonl.part.settings.json"
    kept = json.loads(settings.read_text(encoding="utf-8"))
    assert kept["mode"] == "redact" and kept["model"] == "rules only"
    assert "test-key" not in settings.read_text(encoding="utf-8")
    with pytest.raises(InputError, match="other settings") as e:
        run_batch(src, out, second, resume=True)
    assert what in str(e.value)
    summary = run_batch(src, out, rules_only(), resume=True)
    assert summary.skipped == 2 and summary.notes == 4 and summary.model == "rules only"
    assert out.exists() and not settings.exists()


def test_csv_and_txt_folder_inputs(tmp_path):
    src = tmp_path / "in.csv"
    with src.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["note_id", "body"])
        for i, (t, _) in enumerate(NOTES):
            w.writerow([f"c{i}", t.replace(". ", ".\n", 1)])  # a field over two lines
    out = tmp_path / "out.jsonl"
    run_batch(src, out, rules_only(), text_field="body", id_field="note_id")
    recs = read_out(out)
    assert [r["id"] for r in recs] == ["c0", "c1", "c2", "c3"]
    assert recs[1]["text"] == NOTES[1][1].replace(". ", ".\n", 1)
    folder = tmp_path / "notes"
    (folder / "p1").mkdir(parents=True)
    (folder / "p1" / "b.txt").write_text(NOTES[1][0], encoding="utf-8")
    (folder / "p1" / "a.txt").write_text(NOTES[0][0], encoding="utf-8")
    (folder / "p1" / "bad.txt").write_bytes(b"\xff\xfe bad")
    run_batch(folder, out, rules_only())
    recs = read_out(out)
    assert [r["id"] for r in recs] == ["p1/a.txt", "p1/b.txt", "p1/bad.txt"]
    assert recs[0]["text"] == NOTES[0][1] and "not UTF-8" in recs[2]["error"]


def test_csv_without_text_column_is_an_input_error(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("id,body\n1,hello\n", encoding="utf-8")
    with pytest.raises(InputError, match="no column 'text'"):
        run_batch(src, tmp_path / "out.jsonl", rules_only())


def test_parquet_input_or_clear_error(tmp_path, monkeypatch):
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        pa = None
    src = tmp_path / "in.parquet"
    if pa is not None:
        pq.write_table(pa.table({"id": ["q0", "q1"], "text": [NOTES[0][0], NOTES[1][0]]}), src)
        out = tmp_path / "out.jsonl"
        run_batch(src, out, rules_only())
        assert [r["text"] for r in read_out(out)] == [NOTES[0][1], NOTES[1][1]]
    src.write_bytes(b"PAR1")
    import builtins
    real_import = builtins.__import__

    def no_pyarrow(name, *a, **kw):
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real_import(name, *a, **kw)
    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    with pytest.raises(InputError, match="pip install pyarrow"):
        list(read_records(src))


def test_missing_model_is_an_error_that_says_what_to_do(tmp_path, notes_jsonl, capsys):
    with pytest.raises(ModelError, match="--rules-only"):
        Engine(Config(model_dir=str(tmp_path / "nowhere")))
    code = main(["batch", str(notes_jsonl), "--out", str(tmp_path / "o.jsonl"), "--model-dir",
                 str(tmp_path / "nowhere"), "--jobs", "2", "--no-progress"])
    assert code == 2
    err = capsys.readouterr().err
    assert "no NER model" in err and "--rules-only" in err and "--model-dir" in err
    assert not (tmp_path / "o.jsonl").exists() and not (tmp_path / "o.jsonl.part").exists()


def test_unreadable_model_is_an_error(tmp_path):
    bad = tmp_path / "model"
    bad.mkdir()
    (bad / "ner.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="--rules-only"):
        Engine(Config(model_dir=str(bad)))


def test_with_model_equals_the_ensemble(tmp_path):
    pytest.importorskip("onnxruntime")
    from deid_core.analyze import analyze
    from deid_core.ner.onnx_runtime import OnnxNer
    src = write_jsonl(tmp_path / "in.jsonl", [{"id": 0, "text": NOTES[3][0]}])
    out = tmp_path / "out.jsonl"
    run_batch(src, out, Config(mode="detect"), jobs=1)
    ner = OnnxNer.load(threads=1)
    want = analyze(NOTES[3][0], model=ner.spans(NOTES[3][0])).spans
    assert [(s["start"], s["end"], s["label"], s["tier"]) for s in read_out(out)[0]["spans"]] == \
        [(s.start, s.end, s.label, s.tier) for s in want]


def test_ctrl_c_stops_on_a_whole_record_and_resume_finishes(tmp_path, monkeypatch):
    src, out, summary = _interrupted_run(tmp_path, monkeypatch, rules_only())
    assert summary.interrupted and summary.notes == 2
    assert not out.exists()
    part = (tmp_path / "out.jsonl.part").read_text(encoding="utf-8")
    assert part.endswith("\n") and [json.loads(x)["id"] for x in part.splitlines()] == [0, 1]
    summary = run_batch(src, out, rules_only(), resume=True)
    assert summary.skipped == 2 and not summary.interrupted
    assert [r["id"] for r in read_out(out)] == list(range(6))


def test_worker_failure_with_more_records_than_read_ahead_stops_cleanly(tmp_path):
    rows = [{"id": k, "text": "GCS 15."} for k in range(40)]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    with pytest.raises(ModelError, match="no NER model"):
        run_batch(src, tmp_path / "out.jsonl", Config(model_dir=str(tmp_path / "nowhere")),
                  jobs=2, chunksize=1)
    assert not (tmp_path / "out.jsonl.part").exists()
