"""Command-line round trips: each subcommand run as a user would, through main(argv)."""
import json

import pytest

from deid_core import analyze
from deid_core.cli import main
from deid_core.evaluate import evaluate, without_timing
from deid_core.readers import read_corpus

NOTE = ("Pt: John Smith, MRN: 4471203\r\nSeen by Dr. Anne Whitcombe on 03/05/2014.\r\n"
        "Call 617-555-0199 with questions. Foley catheter in place; GCS 15.\r\n")


@pytest.fixture
def note_file(tmp_path):
    p = tmp_path / "note.txt"
    p.write_bytes(NOTE.encode("utf-8"))
    return p


def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_redact_keeps_crlf_and_masks(capsys, note_file):
    code, out, _ = run(capsys, ["redact", str(note_file)])
    assert code == 0
    assert out.count("\r\n") == 3
    for value in ("John Smith", "4471203", "Anne Whitcombe", "03/05/2014", "617-555-0199"):
        assert value not in out
    assert "[NAME]" in out and "[DATE]" in out and "[CONTACT]" in out and "[ID]" in out
    assert "GCS 15" in out and "catheter in place" in out


def test_redact_reads_standard_input(capsys, monkeypatch, note_file):
    import io
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(NOTE.encode("utf-8"))))
    code, out, _ = run(capsys, ["redact", "-"])
    assert code == 0 and "[DATE]" in out


def test_surrogate_is_deterministic_under_a_key_and_differs_between_keys(capsys, note_file):
    a = run(capsys, ["surrogate", str(note_file), "--key", "study-7"])[1]
    b = run(capsys, ["surrogate", str(note_file), "--key", "study-7"])[1]
    c = run(capsys, ["surrogate", str(note_file), "--key", "another key"])[1]
    assert a == b
    assert a != c
    for value in ("John Smith", "4471203", "Whitcombe", "03/05/2014", "617-555-0199"):
        assert value not in a


def test_surrogate_without_key_uses_a_fresh_secret(capsys, monkeypatch, note_file):
    import deid_core.api as api
    monkeypatch.setattr(api, "_session", None)
    a = run(capsys, ["surrogate", str(note_file)])[1]
    monkeypatch.setattr(api, "_session", None)   # a new process: a new secret
    b = run(capsys, ["surrogate", str(note_file)])[1]
    assert "John Smith" not in a and "John Smith" not in b
    assert a != b


AMBER = "A Foley catheter is in place; message left for Parkinson. Pt: John Smith on 03/05/2014.\n"


@pytest.fixture
def amber_file(tmp_path):
    p = tmp_path / "amber.txt"
    p.write_text(AMBER, encoding="utf-8")
    return p


def review_list(capsys, amber_file):
    code, out, _ = run(capsys, ["review", str(amber_file), "--json", "--rules-only"])
    assert code == 0
    review = json.loads(out)["review"]
    assert review, "the note must hold an amber candidate"
    return review


@pytest.mark.parametrize("command", ["redact", "surrogate", "review"])
def test_amber_stays_text_unless_decided_or_mask_review(capsys, tmp_path, amber_file, command):
    first = review_list(capsys, amber_file)[0]
    key = ["--key", "k"] if command != "redact" else []
    base = [command, str(amber_file), "--rules-only", *key]
    code, out, _ = run(capsys, base)
    assert code == 0 and "John Smith" not in out and first["text"] in out
    d = tmp_path / "d.json"
    d.write_text(json.dumps({first["id"]: True}), encoding="utf-8")
    code, masked, _ = run(capsys, base + ["--decisions", str(d)])
    code2, all_masked, _ = run(capsys, base + ["--mask-review"])
    assert code == code2 == 0 and masked != out and all_masked != out
    assert first["text"] not in masked and first["text"] not in all_masked


@pytest.mark.parametrize("flag", ["--accept-all", "--reject-all", "--mask-review", None])
def test_an_explicit_decision_wins_over_the_all_flags(capsys, tmp_path, amber_file, flag):
    review = review_list(capsys, amber_file)
    first = review[0]
    decisions = {first["id"]: True}
    d = tmp_path / "d.json"
    d.write_text(json.dumps(decisions), encoding="utf-8")
    argv = ["review", str(amber_file), "--rules-only", "--json", "--decisions", str(d)]
    code, out, _ = run(capsys, argv + ([flag] if flag else []))
    assert code == 0
    spans = {s["id"]: s for s in json.loads(out)["spans"]}
    assert spans[first["id"]]["replaced"] is True  # mask, whatever the flag says
    decisions = {first["id"]: False}
    d.write_text(json.dumps(decisions), encoding="utf-8")
    code, out, _ = run(capsys, argv + ([flag] if flag else []))
    spans = {s["id"]: s for s in json.loads(out)["spans"]}
    assert code == 0 and spans[first["id"]]["replaced"] is False  # keep, whatever the flag says
    undecided = [s for s in spans.values() if s["tier"] == "review" and s["id"] != first["id"]]
    for s in undecided:
        assert s["replaced"] is (flag in ("--accept-all", "--mask-review"))


def test_duplicate_decision_keys_are_an_error(capsys, tmp_path, amber_file):
    first = review_list(capsys, amber_file)[0]
    d = tmp_path / "d.json"
    d.write_text(f'{{"{first["id"]}": true, "{first["id"]}": false}}', encoding="utf-8")
    code, out, err = run(capsys, ["review", str(amber_file), "--rules-only", "--decisions", str(d)])
    assert code == 2 and "more than once" in err and out == ""


def test_review_lists_candidates_with_explanations(capsys, amber_file):
    code, out, err = run(capsys, ["review", str(amber_file), "--rules-only"])
    assert code == 0 and "review " in err and "Found by the name finder" in err and " keep " in err


def test_detect_jsonl_shape_and_order(capsys, tmp_path):
    inp = tmp_path / "in.jsonl"
    rows = [{"id": "b", "text": "Seen 03/05/2014.", "extra": 1}, {"id": 7, "text": "No identifiers."},
            {"id": "a", "text": NOTE}]
    inp.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, ["detect", "--rules-only", "--input", str(inp)])
    assert code == 0
    lines = [json.loads(l) for l in out.splitlines()]
    assert [l["id"] for l in lines] == ["b", 7, "a"]
    for line, row in zip(lines, rows):
        assert list(line) == ["id", "spans"]
        assert line["spans"] == [s.to_dict() for s in analyze(row["text"]).spans]
        for s in line["spans"]:
            assert list(s) == ["start", "end", "label", "tier", "source"]
    assert lines[0]["spans"][0]["label"] == "DATE"
    assert lines[1]["spans"] == []


def test_eval_json_equals_the_evaluator(capsys):
    code, out, _ = run(capsys, ["eval", "--format", "corpus", "corpus/notes.jsonl", "--json", "--rules-only"])
    assert code == 0
    report = json.loads(out)
    assert without_timing(report) == json.loads(json.dumps(without_timing(evaluate(read_corpus("corpus/notes.jsonl")))))
    assert report["documents"] >= 150


def test_eval_text_report(capsys):
    code, out, _ = run(capsys, ["eval", "--format", "corpus", "corpus/notes.jsonl", "--rules-only"])
    assert code == 0 and "[with_review] character recall" in out and "NAME" in out
    assert out.startswith("engine: rules only\n")


@pytest.mark.parametrize("argv,content,message", [
    (["redact"], b"caf\xe9 au lait", "not UTF-8"),
    (["eval", "--format", "corpus"], b'{"id": 1, "text": "a", "spans": [{"start": 0, "end": 5, "label": "DATE"}]}\n',
     "outside the text"),
])
def test_bad_input_is_a_clear_error(capsys, tmp_path, argv, content, message):
    p = tmp_path / "bad"
    p.write_bytes(content)
    code, out, err = run(capsys, argv + [str(p)])
    assert code == 2
    assert message in err and out == ""


def test_missing_file(capsys):
    code, _, err = run(capsys, ["redact", "/nonexistent/note.txt"])
    assert code == 2 and "No such file" in err


@pytest.mark.parametrize("known,message", [
    ({"foo": "bar"}, "unknown field(s) in known"),
    ({"names": "John Smith"}, "known.names must be a list of strings"),
])
def test_bad_known_file_is_a_clear_error(capsys, tmp_path, note_file, known, message):
    k = tmp_path / "known.json"
    k.write_text(json.dumps(known), encoding="utf-8")
    code, out, err = run(capsys, ["redact", str(note_file), "--known", str(k)])
    assert code == 2 and message in err and out == ""


@pytest.mark.parametrize("decisions,message", [
    ({"abc": True}, "is not of the form 'start:end'"),
    ({"210:215": "yes"}, "must be true (mask) or false (keep)"),
    ({"999:1000": True}, "no review candidate with id 999:1000"),
])
def test_bad_decisions_are_a_clear_error(capsys, tmp_path, note_file, decisions, message):
    d = tmp_path / "d.json"
    d.write_text(json.dumps(decisions), encoding="utf-8")
    code, out, err = run(capsys, ["review", str(note_file), "--decisions", str(d)])
    assert code == 2 and message in err and out == ""


def test_accept_all_and_reject_all_together_are_refused(capsys, note_file):
    with pytest.raises(SystemExit) as e:
        main(["review", str(note_file), "--accept-all", "--reject-all"])
    assert e.value.code == 2


def test_eval_of_an_empty_corpus_is_an_error(capsys, tmp_path):
    p = tmp_path / "empty.jsonl"
    p.write_text("\n", encoding="utf-8")
    code, out, err = run(capsys, ["eval", "--format", "corpus", str(p)])
    assert code == 2 and "no annotated notes" in err


def test_detect_accepts_a_byte_order_mark(capsys, tmp_path):
    p = tmp_path / "bom.jsonl"
    p.write_bytes("\ufeff".encode("utf-8") + b'{"id": 1, "text": "Seen 03/05/2014."}\n')
    code, out, _ = run(capsys, ["detect", "--rules-only", "--input", str(p)])
    assert code == 0 and json.loads(out)["spans"][0]["label"] == "DATE"


def test_eval_details_lists_misses_with_text(capsys, tmp_path):
    p = tmp_path / "one.jsonl"
    p.write_text(json.dumps({"id": "x", "text": "Seen by nobody in particular, blue.",
                             "spans": [{"start": 30, "end": 34, "label": "CITY"}]}) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, ["eval", "--format", "corpus", str(p), "--details", "--rules-only"])
    assert code == 0 and "x\tmiss\t30:34\t'blue'" in out


def detect(capsys, tmp_path, content: bytes, *extra):
    p = tmp_path / "in.jsonl"
    p.write_bytes(content)
    code, out, err = run(capsys, ["detect", "--rules-only", "--input", str(p), *extra])
    return code, [json.loads(l) for l in out.split("\n") if l], err


@pytest.mark.parametrize("content,errors", [
    (b'{"id": 1, "text": "ok"}\n{broken\n{"id": 3, "text": "Seen 03/05/2014."}\n', {2: "not JSON"}),
    (b'{"text": "no id"}\n{"id": 2, "text": "fine"}\n', {1: "expected an object with 'id'"}),
    (b'{"id": NaN, "text": "x"}\n{"id": 2, "text": "y", "score": Infinity}\n{"id": 3, "text": "z"}\n',
     {1: "NaN", 2: "Infinity"}),
    (b'{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n{"id": 1, "text": "z"}\n{"id": "1", "text": "w"}\n',
     {2: "duplicate id 'a' (first on line 1)", 4: "duplicate id '1' (first on line 3)"}),
    (b'{"id": 1.5, "text": "x"}\n{"id": null, "text": "y"}\n', {1: "must be a string or an integer",
                                                             2: "must be a string or an integer"}),
    (b'\xff\xfe\n{"id": 2, "text": "y"}\n', {1: "not UTF-8"}),
])
def test_detect_reports_bad_records_and_goes_on(capsys, tmp_path, content, errors):
    code, lines, err = detect(capsys, tmp_path, content)
    assert code == 1 and f"{len(errors)} of {len(lines)} records failed" in err
    for line in lines:
        if "error" in line:
            assert set(line) == {"id", "line", "error"} and errors[line["line"]] in line["error"]
        else:
            assert set(line) == {"id", "spans"}
    assert sorted(l["line"] for l in lines if "error" in l) == sorted(errors)


def test_detect_reads_line_separators_inside_json_strings(capsys, tmp_path):
    text = "Seen\u2028by Dr. Anne Whitcombe\u0085on 03/05/2014.\u2029"
    rows = [{"id": "u", "text": text}, {"id": "v", "text": "x"}]
    code, lines, _ = detect(capsys, tmp_path,
                            "\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode("utf-8"))
    assert code == 0 and [l["id"] for l in lines] == ["u", "v"]
    assert lines[0]["spans"] == [s.to_dict() for s in analyze(text).spans]


def test_detect_output_is_strict_json_even_for_lone_surrogates(capsys, tmp_path):
    code, lines, _ = detect(capsys, tmp_path, b'{"id": "a\\ud800", "text": "Call 617-555-0142 \\udc00"}\n')
    assert code == 0 and lines[0]["id"] == "a\ud800" and lines[0]["spans"]


def test_detect_streams_one_line_out_per_line_in(capsys, monkeypatch, tmp_path):
    """The first output line is written before the second input line is read."""
    import deid_core.cli as cli
    events = []
    real_write = cli._write
    monkeypatch.setattr(cli, "_write", lambda t: (events.append("out"), real_write(t)))

    class Lines:
        def __iter__(self):
            for n in range(3):
                events.append("in")
                yield json.dumps({"id": n, "text": "Seen 03/05/2014."}).encode() + b"\n"

    class Stdin:
        buffer = Lines()
    monkeypatch.setattr("sys.stdin", Stdin())
    code, out, _ = run(capsys, ["detect", "--rules-only", "--input", "-"])
    assert code == 0 and events == ["in", "out"] * 3 and len(out.splitlines()) == 3


@pytest.mark.parametrize("how", ["key", "key_file", "env"])
def test_key_from_a_file_or_the_environment(capsys, monkeypatch, tmp_path, note_file, how):
    monkeypatch.delenv("DEID_KEY", raising=False)
    want = run(capsys, ["surrogate", str(note_file), "--rules-only", "--key", "study-7"])[1]
    if how == "key":
        argv = ["--key", "study-7"]
    elif how == "key_file":
        k = tmp_path / "key.txt"
        k.write_text("study-7\n", encoding="utf-8")
        argv = ["--key-file", str(k)]
    else:
        monkeypatch.setenv("DEID_KEY", "study-7")
        argv = []
    code, got, _ = run(capsys, ["surrogate", str(note_file), "--rules-only", *argv])
    assert code == 0 and got == want


@pytest.mark.parametrize("content, says", [("", "is empty"), ("\n \t\r\n", "is empty"),
                                           ("study-7\nstudy-8\n", "more than one line")])
def test_an_empty_or_many_line_key_file_is_an_error(capsys, tmp_path, note_file, content, says):
    k = tmp_path / "key.txt"
    k.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, ["surrogate", str(note_file), "--key-file", str(k)])
    assert code == 2 and says in err and out == "" and "study" not in err


@pytest.mark.parametrize("command", [
    ["detect", "--input", "-"],
    ["redact"],
    ["surrogate", "--key-file", "{key}"],
])
def test_a_missing_model_is_an_error_that_names_rules_only(tmp_path, command):
    """No ner.onnx in --model-dir: exit 2 with a message naming the folder and --rules-only;
    the same command with --rules-only runs on the rules."""
    import subprocess
    import sys
    key = tmp_path / "key"
    key.write_text("a linkage key of some length\n", encoding="utf-8")
    argv = [a.replace("{key}", str(key)) for a in command]
    empty = tmp_path / "no-model"
    empty.mkdir()
    text = "Seen by Dr. Okafor on 03/14/2019." if argv[0] != "detect" else '{"id": "a", "text": "Seen 03/14/2019."}'
    run = subprocess.run([sys.executable, "-m", "deid_core.cli", *argv, "--model-dir", str(empty)],
                         input=text, capture_output=True, text=True)
    assert run.returncode == 2
    assert str(empty) in run.stderr and "--rules-only" in run.stderr
    assert run.stdout == ""
    ok = subprocess.run([sys.executable, "-m", "deid_core.cli", *argv, "--model-dir", str(empty),
                         "--rules-only"], input=text, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "03/14/2019" not in ok.stdout


def test_a_closed_standard_output_ends_detect_quietly(tmp_path):
    """``deid detect ... | head``: when the reader closes the pipe, deid stops with status 0
    and no message (not an input error naming the input file)."""
    import subprocess
    import sys
    src = tmp_path / "many.jsonl"
    src.write_text("".join(json.dumps({"id": str(i), "text": "Seen by Dr. Okafor on 03/14/2019. " * 30})
                           + "\n" for i in range(400)), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "deid_core.cli", "detect", "--input", str(src),
                             "--rules-only"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()   # what `head -1` does after its first line
    err = proc.stderr.read().decode()
    assert proc.wait() == 0, err
    assert json.loads(first)["id"] == "0"
    assert err == ""
