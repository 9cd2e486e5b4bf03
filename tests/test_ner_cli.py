"""`deid detect` / `deid eval` with the NER model: model use by default, --rules-only, the
one-line error without onnxruntime, and the page's JSON route against the CLI with the real
model (skipped when model/ner.onnx or onnxruntime is absent)."""
from __future__ import annotations

import json
import sys

import pytest

from deid_core.analyze import analyze
from deid_core.cli import main
from deid_core.evaluate import evaluate, without_timing
from deid_core.ner import pipeline as pl
from deid_core.ner.onnx_runtime import model_present, onnxruntime_available
from deid_core.readers import read_corpus

NOTES = [
    {"id": "a", "text": "Pt: John Smith, MRN: 4471203\r\nSeen by Dr. Anne Whitcombe on 03/05/2014.\r\n"
                        "Lives in Brackenfold with her sister, a retired schoolteacher. GCS 15."},
    {"id": 2, "text": "Referred by Tran to Lakeside. Works as a welder at Acme Corp Holdings."},
    {"id": "long", "text": ("Mrs. Océane Nguyễn-Ruiz, 84, seen at Saint Brigid Infirmary in Port Talbot "
                            "by Dr. Kwabena Osei. Foley catheter in place; Parkinson disease stable. ") * 12},
    {"id": "empty", "text": ""},
]

HAVE_MODEL = model_present() and onnxruntime_available()
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason="model/ner.onnx or onnxruntime absent")


def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def notes_file(tmp_path):
    p = tmp_path / "notes.jsonl"
    p.write_text("\n".join(json.dumps(n, ensure_ascii=False) for n in NOTES) + "\n", encoding="utf-8")
    return p


@pytest.fixture
def fake_model_dir(tmp_path):
    """A model directory whose ner.onnx is not a model (for the paths that never load it)."""
    d = tmp_path / "model"
    d.mkdir()
    (d / "ner.onnx").write_bytes(b"not an onnx file")
    (d / "ner.json").write_text(json.dumps({"name": "x", "labels": ["O", "B-NAME", "I-NAME"],
                                            "max_len": 16, "threshold": 0.5}), encoding="utf-8")
    (d / "vocab.txt").write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\n", encoding="utf-8")
    return d


def test_rules_only_is_the_rules_engine(capsys, notes_file, fake_model_dir):
    code, out, _ = run(capsys, ["detect", "--input", str(notes_file), "--rules-only",
                                "--model-dir", str(fake_model_dir)])
    assert code == 0
    lines = [json.loads(l) for l in out.splitlines()]
    assert [l["id"] for l in lines] == [n["id"] for n in NOTES]
    for line, note in zip(lines, NOTES):
        assert line == {"id": note["id"], "spans": [s.to_dict() for s in analyze(note["text"]).spans]}


def test_no_model_file_is_an_error_not_rules_only(capsys, notes_file, tmp_path):
    """A folder without ner.onnx stops with exit 2 and says what to do (issue 9: never a silent
    drop to the rules); --rules-only gives the rules' spans."""
    code, out, err = run(capsys, ["detect", "--input", str(notes_file), "--model-dir", str(tmp_path)])
    assert code == 2 and out == ""
    assert str(tmp_path) in err and "--rules-only" in err
    code, out, _ = run(capsys, ["detect", "--input", str(notes_file), "--model-dir", str(tmp_path),
                                "--rules-only"])
    assert code == 0
    assert [json.loads(l)["spans"] for l in out.splitlines()] == \
        [[s.to_dict() for s in analyze(n["text"]).spans] for n in NOTES]


def test_missing_onnxruntime_is_a_one_line_error(capsys, monkeypatch, notes_file, fake_model_dir):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)       # import onnxruntime -> ImportError
    for argv in (["detect", "--input", str(notes_file)],
                 ["eval", "--format", "corpus", "corpus/notes.jsonl"]):
        code, out, err = run(capsys, argv + ["--model-dir", str(fake_model_dir)])
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "pip install onnxruntime" in err and "--rules-only" in err
    # and --rules-only works without it
    code, out, _ = run(capsys, ["detect", "--input", str(notes_file), "--rules-only",
                                "--model-dir", str(fake_model_dir)])
    assert code == 0 and len(out.splitlines()) == len(NOTES)


@pytest.mark.skipif(not onnxruntime_available(), reason="onnxruntime absent")
def test_unusable_model_files_are_a_one_line_error(capsys, notes_file, fake_model_dir):
    code, out, err = run(capsys, ["detect", "--input", str(notes_file), "--model-dir", str(fake_model_dir)])
    assert code == 2 and out == "" and err.count("\n") == 1 and "cannot load" in err
    cfg = json.loads((fake_model_dir / "ner.json").read_text())
    (fake_model_dir / "ner.json").write_text(json.dumps({**cfg, "sha256": "0" * 64}))
    code, out, err = run(capsys, ["detect", "--input", str(notes_file), "--model-dir", str(fake_model_dir)])
    assert code == 2 and "does not match the sha256" in err


def test_eval_rules_only_equals_the_evaluator(capsys, fake_model_dir):
    code, out, _ = run(capsys, ["eval", "--format", "corpus", "corpus/notes.jsonl", "--json",
                                "--rules-only", "--model-dir", str(fake_model_dir)])
    assert code == 0
    report = json.loads(out)
    assert without_timing(report) == json.loads(json.dumps(without_timing(
        evaluate(read_corpus("corpus/notes.jsonl")))))


# -- with the real model ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ner():
    from deid_core.ner.onnx_runtime import OnnxNer
    return OnnxNer.load()


@needs_model
def test_detect_with_and_without_the_model_differ_only_by_model_spans(capsys, notes_file, ner):
    code, out_model, _ = run(capsys, ["detect", "--input", str(notes_file)])
    assert code == 0
    code, out_rules, _ = run(capsys, ["detect", "--input", str(notes_file), "--rules-only"])
    assert code == 0
    for lm, lr, note in zip(out_model.splitlines(), out_rules.splitlines(), NOTES):
        lm, lr = json.loads(lm), json.loads(lr)
        assert list(lm) == ["id", "spans"] and lm["id"] == lr["id"] == note["id"]
        text = note["text"]
        model_spans = ner.spans(text)
        assert lm["spans"] == [s.to_dict() for s in analyze(text, model=model_spans).spans]
        assert lr["spans"] == [s.to_dict() for s in analyze(text).spans]
        rules_spans = [(s["start"], s["end"]) for s in lr["spans"]]
        for s in lm["spans"]:
            if s not in lr["spans"]:            # new or changed: a model span must touch it
                assert any(m.start < s["end"] and s["start"] < m.end for m in model_spans), s
        for a, b in rules_spans:                # every rules character is still masked
            assert any(s["start"] <= a and b <= s["end"] for s in lm["spans"])
        if not model_spans:
            assert lm == lr


@needs_model
def test_page_json_route_equals_the_cli(ner):
    """What the page's worker does (prepare_json, run the ONNX session on the flat buffers,
    finish_json) gives the CLI's model spans."""
    import numpy as np
    saved = pl._page_model
    d = ner.model.directory
    info = json.loads(pl.load_model_json((d / "ner.json").read_text(encoding="utf-8"),
                                         (d / "vocab.txt").read_text(encoding="utf-8")))
    try:
        for note in NOTES:
            text = note["text"]
            prep = json.loads(pl.prepare_json(text))
            b, t = prep["dims"]
            flat = []
            for i, j in prep["chunks"]:
                feeds = {k: np.asarray(prep[k], dtype=np.int64).reshape(b, t)[i:j]
                         for k in info["inputs"]}
                (logits,) = ner.session.run([info["output"]], feeds)
                flat += logits.reshape(-1).tolist()
            dims = [b, t]
            got = json.loads(pl.finish_json(text, flat, dims))
            assert got == [s.to_dict() for s in ner.spans(text)]
    finally:
        pl._page_model = saved
        pl._prepared_cache.clear()


@needs_model
def test_long_note_runs_in_small_session_calls(ner, monkeypatch):
    """The CLI runs a long note's windows in calls of at most DEFAULT_POSITIONS positions
    (two full windows: on this CPU, 64 windows a call took 1.6 times as long a window), each
    window once."""
    from deid_core.ner.batching import DEFAULT_POSITIONS
    calls = []
    real = ner.session.run

    def counting(names, feeds):
        calls.append(feeds["input_ids"].shape)
        return real(names, feeds)

    monkeypatch.setattr(ner.session, "run", counting)
    text = NOTES[2]["text"]
    spans = ner.spans(text)
    n_windows = len(ner.model.prepare(text).windows)
    assert n_windows >= 3 and sum(b for b, _ in calls) == n_windows
    assert all(b * t <= DEFAULT_POSITIONS and t == ner.model.max_len for b, t in calls)
    assert all(0 <= s.start < s.end <= len(text) and s.source.startswith("ner:") for s in spans)


@needs_model
@pytest.mark.parametrize("command", ["redact", "surrogate", "review"])
def test_text_commands_use_the_model_unless_rules_only(capsys, tmp_path, command):
    """A name in no census list and with no context is the model's to find; the text commands
    use the ensemble like detect does, and --rules-only gives the rules' output."""
    from deid_core import api
    from deid_core.ner.onnx_runtime import OnnxNer
    text = "Thandiwe Mthembu from Riverside Home Care will call on 11/02/2026.\n"
    note = tmp_path / "note.txt"
    note.write_text(text, encoding="utf-8")
    key = ["--key", "k"] if command != "redact" else []
    code, with_model, _ = run(capsys, [command, str(note), *key])
    assert code == 0 and "Mthembu" not in with_model
    code, rules, _ = run(capsys, [command, str(note), *key, "--rules-only"])
    assert code == 0 and "Thandiwe Mthembu" in rules
    spans = OnnxNer.load().spans(text)
    assert with_model == api.process(text, mode=command, key="k" if key else None,
                                     model_spans=spans)["output"]
