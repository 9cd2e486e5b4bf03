"""deid batch under faults (issue 22, items 8-17): hostile JSON, killed workers, resume, full or
read-only output, folder and CSV input, keys. Every input record must be in the output exactly
once, a bad one as an error line, and the run must never crash or hang. Invented notes only."""
from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from deid_core.batch import Config, Engine, run_batch
from deid_core.cli import main

GOOD = ["Pt: John Smith, MRN: 4471203.", "Seen by Dr. Anne Whitcombe on 03/05/2014.",
        "Parkinson disease, stable. Foley catheter in place."]
DEEP = 3000


def rules_only(mode="redact", **kw):
    return Config(mode=mode, rules_only=True, master_key="test-key", **kw)


def read_out(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _hostile_lines():
    """(name, a JSON line, what its error says, or None when the record is fine)."""
    return [
        ("array 3,000 deep", '{"id": "h", "text": "x", "a": ' + "[" * DEEP + "]" * DEEP + "}",
         "nested too deeply"),
        ("object 3,000 deep", '{"id": "h", "text": "x", "a": ' + '{"k": ' * DEEP + "1" + "}" * DEEP + "}",
         "nested too deeply"),
        ("text 3,000 deep", '{"id": "h", "text": ' + "[" * DEEP + "]" * DEEP + "}", "nested too deeply"),
        ("id 500 deep", '{"id": ' + "[" * 500 + "]" * 500 + ', "text": "x"}', "must be a string or"),
        ("NaN text", '{"id": "h", "text": NaN}', "NaN"),
        ("lone surrogates", '{"id": "h\\ud800", "text": "Pt: John Smith \\udfff ok"}', None),
    ]


HOSTILE = _hostile_lines()


def _with_hostile(tmp_path, line):
    src = tmp_path / "in.jsonl"
    rows = [json.dumps({"id": "a", "text": GOOD[0]}), line, json.dumps({"id": "c", "text": GOOD[1]})]
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return src


@pytest.mark.parametrize("name, line, says", HOSTILE, ids=[h[0] for h in HOSTILE])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hostile_json_line_is_an_error_line_and_the_run_goes_on(tmp_path, capsys, name, line,
                                                                  says, jobs):
    src = _with_hostile(tmp_path, line)
    out = tmp_path / "out.jsonl"
    code = main(["batch", str(src), "--out", str(out), "--rules-only", "--jobs", str(jobs),
                 "--no-progress"])
    recs = read_out(out)
    assert len(recs) == 3 and recs[0]["id"] == "a" and recs[2]["id"] == "c"
    assert recs[0]["text"] == "Pt: [NAME], MRN: [ID]." and recs[2]["error"] is None
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["in.jsonl", "out.jsonl", "out.jsonl.settings.json"]
        + ([] if says is None else ["out.jsonl.errors.jsonl"]))
    if says is None:
        assert code == 0 and recs[1]["error"] is None and "[NAME]" in recs[1]["text"]
    else:
        assert code == 1 and says in recs[1]["error"]
        assert [e["id"] for e in read_out(tmp_path / "out.jsonl.errors.jsonl")] == [recs[1]["id"]]
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("name, line, says", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_json_line_is_an_error_line_in_detect(tmp_path, capsys, name, line, says):
    src = _with_hostile(tmp_path, line)
    code = main(["detect", "--input", str(src), "--rules-only"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x.get("id") for x in (lines[0], lines[2])] == ["a", "c"] and len(lines) == 3
    if says is None:
        assert code == 0 and "error" not in lines[1]
    else:
        assert code == 1 and lines[1]["line"] == 2 and says in lines[1]["error"]


@pytest.mark.parametrize("option", ["--decisions", "--known"])
@pytest.mark.parametrize("deep", ['{"a": ' + "[" * DEEP + "]" * DEEP + "}",
                                  "[" * DEEP + "]" * DEEP, '{"a": ' + '{"b": ' * DEEP + "1" + "}" * DEEP + "}"])
def test_a_deep_json_option_file_is_one_line_and_exit_2_in_review(tmp_path, capsys, option, deep):
    note = tmp_path / "note.txt"
    note.write_text(GOOD[0], encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(deep, encoding="utf-8")
    code = main(["review", str(note), "--rules-only", option, str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and "nested too deeply" in err and len(err.strip().splitlines()) == 1


def test_resume_after_a_deep_line_finishes_and_leaves_no_part_settings_file(tmp_path, monkeypatch):
    src = tmp_path / "in.jsonl"
    deep = HOSTILE[0][1]
    rows = [json.dumps({"id": k, "text": GOOD[k % 3]}) for k in range(6)]
    rows[2] = deep.replace('"h"', "2")
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    real = Engine.output
    calls = []

    def interrupting(self, an, patient=None):
        calls.append(1)
        if len(calls) == 3:
            signal.raise_signal(signal.SIGINT)
        return real(self, an, patient)
    monkeypatch.setattr(Engine, "output", interrupting)
    first = run_batch(src, out, rules_only(), chunksize=1)
    monkeypatch.setattr(Engine, "output", real)
    assert first.interrupted and first.notes == 4 and first.errors == 1
    second = run_batch(src, out, rules_only(), resume=True)
    assert second.skipped == 4 and second.notes == 2 and not second.interrupted
    # the unreadable line's id is its line number, as a string
    assert [r["id"] for r in read_out(out)] == [0, 1, "3", 3, 4, 5]
    assert [r["id"] for r in read_out(tmp_path / "out.jsonl.errors.jsonl")] == ["3"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl",
                                                          "out.jsonl.errors.jsonl",
                                                          "out.jsonl.settings.json"]


# --- killed workers (item 10) --------------------------------------------------------------

def _die(how):
    import faulthandler
    import os
    faulthandler.disable()   # (pytest's: no stack dump from the crashing worker)
    if how == "exit":
        os._exit(3)
    os.kill(os.getpid(), how)


DEATHS = [signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM, "exit"]


def _rows(tmp_path, n=40, poison=()):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": k, "text": "POISON " + GOOD[k % 3] if k in poison
                                       else GOOD[k % 3]}) + "\n" for k in range(n)),
                   encoding="utf-8")
    return src


@pytest.mark.parametrize("how", DEATHS, ids=lambda h: getattr(h, "name", h))
def test_a_worker_killed_once_is_replaced_and_its_records_redone(tmp_path, monkeypatch, how):
    """A worker dies (kill -9, the out-of-memory killer's SIGKILL, a crash, an abrupt exit) while
    it holds a chunk: a new worker takes its place, the chunk is done again, and the output is
    the one of a run without the death."""
    src = _rows(tmp_path)
    want = tmp_path / "want.jsonl"
    run_batch(src, want, rules_only(), jobs=2, chunksize=4)
    marker = tmp_path / "died"
    real = Engine.analyses

    def dying_once(self, texts):
        import os
        if GOOD[1] in texts:
            try:   # atomic: of two workers at the same chunk kind, one dies
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return real(self, texts)
            _die(how)
        return real(self, texts)
    monkeypatch.setattr(Engine, "analyses", dying_once)
    out = tmp_path / "out.jsonl"
    summary = run_batch(src, out, rules_only(), jobs=2, chunksize=4)
    assert marker.exists() and summary.workers_replaced == 1
    assert out.read_bytes() == want.read_bytes()
    assert summary.notes == 40 and summary.errors == 0


@pytest.mark.parametrize("how", DEATHS, ids=lambda h: getattr(h, "name", h))
def test_a_record_that_kills_every_worker_is_an_error_line(tmp_path, monkeypatch, how):
    """A record whose worker dies every time (a native crash on that note) is tried alone and
    then given up as an error line; every other record is written; the run ends."""
    src = _rows(tmp_path, 20, poison={7})
    real = Engine.analyses

    def poisoned(self, texts):
        if any(t.startswith("POISON") for t in texts):
            _die(how)
        return real(self, texts)
    monkeypatch.setattr(Engine, "analyses", poisoned)
    out = tmp_path / "out.jsonl"
    summary = run_batch(src, out, rules_only(), jobs=2, chunksize=4)
    recs = read_out(out)
    assert [r["id"] for r in recs] == list(range(20))
    assert [r["id"] for r in recs if r["error"]] == [7]
    assert "worker process died while processing this record" in recs[7]["error"]
    assert [r["id"] for r in read_out(tmp_path / "out.jsonl.errors.jsonl")] == [7]
    assert summary.errors == 1 and summary.workers_replaced == 4   # chunk twice, record twice


def test_workers_that_die_while_starting_stop_the_run_with_one_line(tmp_path, monkeypatch, capsys):
    import os
    parent = os.getpid()
    real = Engine.__init__

    def dying_init(self, config):
        if os.getpid() != parent:
            os._exit(5)
        real(self, config)
    monkeypatch.setattr(Engine, "__init__", dying_init)
    src = _rows(tmp_path, 8)
    code = main(["batch", str(src), "--out", str(tmp_path / "o.jsonl"), "--rules-only", "--jobs", "2",
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "die while building the engine" in err and "Traceback" not in err
    assert not (tmp_path / "o.jsonl").exists()


def test_a_killed_parent_leaves_no_worker_behind(tmp_path):
    """kill -9 of ``deid batch`` itself: its workers notice and exit (no orphan keeps a core)."""
    import os
    import time
    src = _rows(tmp_path, 3000)
    proc = subprocess.Popen([sys.executable, "-m", "deid_core.cli", "batch", str(src), "--out",
                             str(tmp_path / "o.jsonl"), "--rules-only", "--jobs", "2", "--no-progress"],
                            stderr=subprocess.DEVNULL)
    kids: list[int] = []
    for _ in range(200):
        time.sleep(0.05)
        try:
            kids = [int(x) for x in open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()]
        except OSError:
            kids = []
        if len(kids) == 2:
            break
    assert len(kids) == 2
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 15
    alive = kids
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [k for k in alive if os.path.exists(f"/proc/{k}") and
                 open(f"/proc/{k}/stat").read().split()[2] != "Z"]
    assert not alive


# --- kill -9 of deid batch, then --resume (item 11) ----------------------------------------

def _mixed(tmp_path, n):
    """``n`` records, every third one bad (no text), so the errors file has lines to lose."""
    src = tmp_path / "in.jsonl"
    src.write_text("".join((json.dumps({"id": k, "text": GOOD[k % 2]}) if k % 3 else
                            json.dumps({"id": k})) + "\n" for k in range(n)), encoding="utf-8")
    return src


@pytest.mark.parametrize("jobs, at_lines", [(2, 40), (1, 500)])
def test_kill_9_then_resume_loses_no_error_line(tmp_path, jobs, at_lines):
    import time
    src = _mixed(tmp_path, 1200)
    out = tmp_path / "out.jsonl"
    part = tmp_path / "out.jsonl.part"
    argv = [sys.executable, "-m", "deid_core.cli", "batch", str(src), "--out", str(out),
            "--rules-only", "--jobs", str(jobs), "--chunksize", "4", "--no-progress"]
    proc = subprocess.Popen(argv, stderr=subprocess.DEVNULL)
    while proc.poll() is None and (not part.exists() or part.read_bytes().count(b"\n") < at_lines):
        time.sleep(0.005)
    proc.kill()
    proc.wait()
    assert part.exists() and not out.exists()
    done = subprocess.run(argv + ["--resume"], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    recs = read_out(out)
    assert [r["id"] for r in recs] == list(range(1200))
    errors = read_out(tmp_path / "out.jsonl.errors.jsonl")
    assert [e["id"] for e in errors] == [k for k in range(1200) if k % 3 == 0]
    assert errors == [r for r in recs if r["error"]]


# --- disk full, read-only folder, output under a file (item 12) ------------------------------

def _read_only_folder(tmp_path):
    """A folder this process cannot create files in: a chmod 555 folder, or (as root, whom
    permissions do not stop) /sys, where even root cannot create a file."""
    import os
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        return ro
    return __import__("pathlib").Path("/sys")


def _set_file_size_limit(limit):
    def limit_it():
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_it


@pytest.mark.parametrize("kind", ["under a file", "read-only folder", "file-size limit",
                                  "summary under a file"])
def test_an_output_that_cannot_be_written_is_one_line_exit_2_and_resumable(tmp_path, kind):
    """No room (modelled by a file-size limit, ``ulimit -f``: a write past it fails with EFBIG
    as one past a full disk fails with ENOSPC; deid ignores SIGXFSZ so it is an error, not a
    kill), a read-only folder, a path under a file: one line on standard error, exit status 2,
    and after the fix ``--resume`` writes every record once."""
    src = _mixed(tmp_path, 600)
    (tmp_path / "afile").write_text("x")
    out = {"under a file": tmp_path / "afile" / "o.jsonl",
           "read-only folder": _read_only_folder(tmp_path) / "o.jsonl"}.get(kind, tmp_path / "o.jsonl")
    argv = [sys.executable, "-m", "deid_core.cli", "batch", str(src), "--out", str(out),
            "--rules-only", "--jobs", "2", "--no-progress"]
    extra = ["--summary-json", str(tmp_path / "afile" / "s.json")] if kind.startswith("summary") else []
    limit = _set_file_size_limit(40_000) if kind == "file-size limit" else None
    run = subprocess.run(argv + extra, capture_output=True, text=True, preexec_fn=limit)
    err = [x for x in run.stderr.splitlines() if x.startswith("deid:")]
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and len(err) == 1 and "cannot write" in err[0]
    if kind != "file-size limit":
        return
    part = tmp_path / "o.jsonl.part"
    assert part.exists() and (tmp_path / "o.jsonl.part.settings.json").exists()
    done = subprocess.run(argv + ["--resume"], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    recs = read_out(out)
    assert [r["id"] for r in recs] == list(range(600))
    assert read_out(tmp_path / "o.jsonl.errors.jsonl") == [r for r in recs if r["error"]]


# --- folder input (item 13) ----------------------------------------------------------------

def _make_entry(folder, name, how):
    import os
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if how == "file":
        path.write_text(GOOD[0], encoding="utf-8")
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "dangling":
        os.symlink(folder / "nowhere", path)
    elif how == "link to file":   # (the targets lie outside the folder)
        (folder.parent / "target.note").write_text(GOOD[0], encoding="utf-8")
        os.symlink(folder.parent / "target.note", path)
    elif how == "link to folder":
        (folder.parent / "elsewhere").mkdir(exist_ok=True)
        (folder.parent / "elsewhere" / "x.txt").write_text(GOOD[1], encoding="utf-8")
        os.symlink(folder.parent / "elsewhere", path)


# (entry name, what it is, None: read as a note, else what its error line says)
FOLDER_ENTRIES = [
    ("a.txt", "file", None),
    ("B.TXT", "file", None),
    ("sub/c.Txt", "file", None),
    ("notes.md", "file", "not a .txt file"),
    ("pipe.txt", "fifo", "FIFO"),
    ("gone.txt", "dangling", "dangling"),
    ("via-link.txt", "link to file", None),
    ("linked-folder", "link to folder", "symbolic link to a folder"),
]


@pytest.mark.parametrize("name, how, says", FOLDER_ENTRIES, ids=[e[0] for e in FOLDER_ENTRIES])
def test_folder_input_reads_every_regular_txt_file_and_reports_each_entry_it_skips(tmp_path, name,
                                                                                   how, says):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "zz.txt").write_text(GOOD[1], encoding="utf-8")   # one ordinary file besides
    _make_entry(folder, name, how)
    out = tmp_path / "out.jsonl"
    code = main(["batch", str(folder), "--out", str(out), "--rules-only", "--jobs", "1",
                 "--no-progress"])
    recs = {r["id"]: r for r in read_out(out)}
    assert recs["zz.txt"]["text"] == "Seen by Dr. [NAME] on [DATE]."
    if says is None:
        assert code == 0 and recs[name]["text"] == "Pt: [NAME], MRN: [ID]." and recs[name]["error"] is None
    else:
        assert code == 1 and says in recs[name]["error"] and recs[name]["text"] is None
    assert set(recs) == {name, "zz.txt"}


# --- CSV parse errors (item 14) --------------------------------------------------------------

# (CSV text, per record: its text, or ("error", what the error line says))
CSV_CASES = [
    ('id,text\n1,"Pt John Smith\n2,Mary Jones\n3,stable\n',            # a quote never closed
     [("error", "line 2: not CSV"), "Mary Jones", "stable"]),
    ('id,text\n1,"Pt John Smith\n2,"Mary Jones"\n3,stable\n',          # ... closed by the next row's
     [("error", "not CSV"), "Mary Jones", "stable"]),
    ('id,text\n1,"Pt said "hi" today"\n2,stable\n',                     # text after a closing quote
     [("error", "not CSV"), "stable"]),
    ('id,text\n1,Pt John Smith, stable\n2,stable\n',                    # an unquoted comma
     [("error", "3 fields, the header has 2"), "stable"]),
    ('id,text,extra\n1,Pt John Smith\n2,stable,x\n',                    # a field missing
     [("error", "2 fields, the header has 3"), "stable"]),
    # what must stay: a quoted field over lines, doubled quotes, an inch mark, a blank line, CRLF
    ('id,text\r\n1,"Pt Mary Jones\r\nstable"\r\n\r\n2,"said ""no"" to Foley"\r\n3,is 5\'6" tall\r\n',
     ["Pt Mary Jones\r\nstable", 'said "no" to Foley', "is 5'6\" tall"]),
]


@pytest.mark.parametrize("content, want", CSV_CASES)
def test_a_csv_parse_error_is_an_error_line_and_never_merges_records(tmp_path, content, want):
    from deid_core.batch import read_records
    src = tmp_path / "in.csv"
    src.write_bytes(content.encode("utf-8"))
    recs = list(read_records(src))
    assert len(recs) == len(want)
    for rec, w in zip(recs, want):
        if isinstance(w, tuple):
            assert rec.text is None and w[1] in rec.error
        else:
            assert rec.error is None and rec.text == w
    out = tmp_path / "out.jsonl"
    run_batch(src, out, rules_only("detect"))
    assert len(read_out(out)) == len(want)


# --- one key reader (items 8 and 15) ---------------------------------------------------------

NOTE_KEYED = "Admitted on 03/05/2014. Seen by Dr. Anne Whitcombe. Pt: John Smith, MRN 4471203."


@pytest.mark.parametrize("content", [b"key of study 7\n", b"key of study 7 \n", b"key of study 7\r\n",
                                     b"  key of study 7\t\n\n", b"\xef\xbb\xbfkey of study 7\n",
                                     b"key of study 7"], ids=repr)
def test_one_key_file_gives_one_key_in_every_command(tmp_path, monkeypatch, capsys, content):
    """The same key file (trailing space, CRLF, a byte-order mark, blank lines after) gives the
    same fakes and date offset in deid surrogate, deid batch, --key, $DEID_KEY and the API."""
    from deid_core import api
    monkeypatch.delenv("DEID_KEY", raising=False)
    want = api.process(NOTE_KEYED, "surrogate", key="key of study 7")["output"]
    kf = tmp_path / "k.key"
    kf.write_bytes(content)
    note = tmp_path / "note.txt"
    note.write_text(NOTE_KEYED, encoding="utf-8")
    assert main(["surrogate", str(note), "--rules-only", "--key-file", str(kf)]) == 0
    assert capsys.readouterr().out == want
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "text": NOTE_KEYED}) + "\n", encoding="utf-8")
    for i, extra in enumerate([["--key-file", str(kf)], []]):
        if not extra:
            monkeypatch.setenv("DEID_KEY", content.decode("utf-8-sig"))
        out = tmp_path / f"out{i}.jsonl"
        assert main(["batch", str(src), "--out", str(out), "--mode", "surrogate", "--rules-only",
                     "--jobs", "1", "--no-progress", *extra]) == 0
        assert read_out(out)[0]["text"] == want
    assert main(["surrogate", str(note), "--rules-only"]) == 0   # $DEID_KEY
    assert capsys.readouterr().out == want
    monkeypatch.delenv("DEID_KEY")
    assert main(["surrogate", str(note), "--rules-only", "--key", content.decode("utf-8-sig")]) == 0
    assert capsys.readouterr().out == want


@pytest.mark.parametrize("content", [b"caf\xe9-secret\n", b"\xff\xfezq9w", b"s3cr\xc3t\n",
                                     b"ok-part\x80\x81tail"], ids=repr)
@pytest.mark.parametrize("command", ["surrogate", "review", "batch"])
def test_a_key_file_that_is_not_utf8_is_reported_without_a_byte_of_the_key(tmp_path, capsys,
                                                                          content, command):
    kf = tmp_path / "k.key"
    kf.write_bytes(content)
    note = tmp_path / "note.txt"
    note.write_text(NOTE_KEYED, encoding="utf-8")
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "text": NOTE_KEYED}) + "\n", encoding="utf-8")
    argv = ([command, str(note)] if command != "batch" else
            ["batch", str(src), "--out", str(tmp_path / "o.jsonl"), "--mode", "surrogate",
             "--jobs", "1", "--no-progress"])
    assert main(argv + ["--rules-only", "--key-file", str(kf)]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8" in err and len(err.strip().splitlines()) == 1
    for b in content:   # no byte of the key, in any form
        assert f"\\x{b:02x}" not in err and f"{b:02x}" not in err.replace(str(kf), "")
    for piece in (b"secret", b"zq9w", b"s3cr", b"ok-part", b"tail"):
        if piece in content:
            assert piece.decode() not in err.replace(str(kf), "")


# --- --resume of a finished output (item 16) -------------------------------------------------

# (settings of the second run, what the refusal names); the first run: redact, rules only
OTHER_SETTINGS = [
    (dict(mode="surrogate"), "mode 'redact' (now 'surrogate')"),
    (dict(mode="detect"), "mode 'redact' (now 'detect')"),
    (dict(mask_review=True), "mask_review False (now True)"),
    (dict(rules_only=False, model_form="fast"), "model 'rules only' (now 'fast')"),
]


@pytest.mark.parametrize("second, what", OTHER_SETTINGS)
def test_resume_refuses_a_finished_output_written_with_other_settings(tmp_path, second, what):
    src = _rows(tmp_path, 6)
    out = tmp_path / "out.jsonl"
    run_batch(src, out, rules_only())
    before = out.read_bytes()
    settings = {"mode": "redact", "rules_only": True, "master_key": "test-key", **second}
    with pytest.raises(Exception, match="other settings") as e:
        run_batch(src, out, Config(**settings), resume=True)
    assert what in str(e.value) and type(e.value).__name__ == "InputError"
    assert out.read_bytes() == before and not (tmp_path / "out.jsonl.part").exists()


def test_resume_of_a_surrogate_output_with_another_key_is_refused(tmp_path):
    src = _rows(tmp_path, 6)
    out = tmp_path / "out.jsonl"
    run_batch(src, out, rules_only("surrogate"))
    before = out.read_bytes()
    with pytest.raises(Exception, match="another key"):
        run_batch(src, out, Config(mode="surrogate", rules_only=True, master_key="other key"),
                  resume=True)
    assert out.read_bytes() == before
    assert "test-key" not in (tmp_path / "out.jsonl.settings.json").read_text()


def test_resume_of_a_finished_output_with_the_same_settings_adds_only_what_is_new(tmp_path):
    src = _rows(tmp_path, 6)
    out = tmp_path / "out.jsonl"
    run_batch(src, out, rules_only())
    again = run_batch(src, out, rules_only(), resume=True)
    assert again.skipped == 6 and again.notes == 0
    full = _rows(tmp_path / "more", 9) if (tmp_path / "more").mkdir() is None else None
    more = run_batch(full, out, rules_only(), resume=True)
    assert more.skipped == 6 and more.notes == 3
    assert [r["id"] for r in read_out(out)] == list(range(9))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "more", "out.jsonl",
                                                          "out.jsonl.settings.json"]


def test_resume_of_a_finished_output_without_its_settings_is_refused(tmp_path, capsys):
    src = _rows(tmp_path, 3)
    out = tmp_path / "out.jsonl"
    run_batch(src, out, rules_only())
    (tmp_path / "out.jsonl.settings.json").unlink()   # as an older deid wrote it
    code = main(["batch", str(src), "--out", str(out), "--rules-only", "--jobs", "1",
                 "--no-progress", "--resume"])
    assert code == 2 and "no record of the settings" in capsys.readouterr().err
