"""Fault trials for ``deid batch``: kill workers, kill the run and resume it, fill the disk, make
the output folder read-only, put the output under a file, feed hostile JSON, odd folders and
broken CSV, and check that every input record is in the output (or its errors file) exactly
once, with nothing crashing or hanging.

Usage: python scripts/fault_batch.py [--quick] [--seed 7] [--records 600] [--jobs 2]
       [--engine-root DIR]

(``--engine-root``: a folder holding another ``deid_core/`` and ``lists/`` to run instead of this
checkout's, e.g. an export of an older commit, to see what the faults did before.)

Each trial runs ``deid batch`` (rules only) as a child process, with a time limit; a trial:

* **crashes** when the exit status is not the one the fault should give (0 or 1 after a fault
  the run survives, 2 with one ``deid:`` line for an output that cannot be written) or a
  Python traceback is printed;
* **hangs** when it runs past the limit (it is then killed);
* **loses** a record when an input id is missing from the finished output, or an error line
  is missing from ``OUT.errors.jsonl``;
* **duplicates** one when an id (or an error line) is there more than once.

Where the output can be compared, it must equal the output of a run without the fault, byte
for byte (a worker's records redone by another worker, a resumed run). Kinds:

``kill-worker``   kill -9 one to three workers at random moments (what the out-of-memory killer
                  does); surrogate mode with a key file, so redone records must get the same fakes
``kill-resume``   kill -9 ``deid batch`` itself at random moments, check that its workers exit,
                  then ``--resume`` (up to three kills a trial); the errors file must be whole
``disk-full``     a file-size limit (``ulimit -f``, RLIMIT_FSIZE) at a random share of the
                  output's size: writing past it fails with EFBIG just as writing to a full disk
                  fails with ENOSPC (a write that stops part way; deid ignores SIGXFSZ, so it is
                  an error, not a kill). Expect exit 2 and one line, then ``--resume`` with the
                  limit raised, again and again until the output is complete
``read-only``     the output folder read-only (chmod 555; as root, whom permissions do not stop,
                  a folder of /sys, where root cannot create files either): exit 2, one line
``under-file``    ``--out a_file/out.jsonl``: exit 2, one line
``hostile-json``  deep arrays and objects (3,000 levels), a deep id, NaN, lone surrogates, bytes
                  that are not UTF-8, a non-object, a cut-off last line, between good records
``folder``        a folder of notes with .TXT names, a FIFO, a dangling link, a link to a
                  folder, a file that is no .txt: every entry once, read or reported
``csv``           CSV rows with unterminated quotes, stray quotes and extra commas: every intact
                  row once, each broken one an error line, no two rows merged

Prints one line per trial and the totals; exit status 1 if any trial crashed, hung, lost or
duplicated a record. ``--quick`` runs one trial of each kind on fewer records (the test suite's
short version, ``tests/test_fault_batch.py``).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where the deid_core that the trials run lives (``--engine-root``).
ENGINE = ROOT
KEY = "fault trial key, invented\n"
#: Invented notes (a few PHI kinds each) that records are made from.
NOTES = [
    "Pt: John Smith, MRN: 4471203. Seen 03/05/2014 by Dr. Anne Whitcombe.",
    "Mrs. Grace Oduya, 93 years old, lives in Springfield, IL. Call 617-555-0199.",
    "Parkinson disease, stable. Foley catheter in place. Metoprolol 25 mg BID.",
    "Discharged 04/11/2015 to Mercy Hospital, 12 Elm Street, Boston, MA 02115.",
    "Called daughter Marisol Vance at 508-555-0142 about the plan; GCS 15.",
]


@dataclass
class Totals:
    """Counts over all trials."""

    trials: int = 0
    crashes: int = 0
    hangs: int = 0
    lost: int = 0
    duplicated: int = 0
    notes: list = field(default_factory=list)

    def add(self, kind: str, crashes=0, hangs=0, lost=0, duplicated=0, note="") -> None:
        self.trials += 1
        self.crashes += crashes
        self.hangs += hangs
        self.lost += lost
        self.duplicated += duplicated
        bad = crashes or hangs or lost or duplicated
        line = (f"{kind:13s} {'FAIL' if bad else 'ok  '} crashes {crashes} hangs {hangs} "
                f"lost {lost} duplicated {duplicated}  {note}")
        self.notes.append(line)
        print(line, flush=True)


@dataclass
class Run:
    rc: int | None
    err: str
    hung: bool


def deid(args: list, *, timeout: float, limit: int | None = None) -> Run:
    """Run ``deid`` with ``args``; ``limit``: RLIMIT_FSIZE in bytes for the child."""
    def pre():
        os.setsid()
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    proc = subprocess.Popen([sys.executable, "-m", "deid_core.cli", *map(str, args)], cwd=ENGINE,
                            env={**os.environ, "PYTHONPATH": str(ENGINE)}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, preexec_fn=pre)
    try:
        _, err = proc.communicate(timeout=timeout)
        return Run(proc.returncode, err, False)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        return Run(None, err, True)


def start(args: list) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "deid_core.cli", *map(str, args)], cwd=ENGINE,
                            env={**os.environ, "PYTHONPATH": str(ENGINE)}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def account(want_ids: list, out: Path) -> tuple[int, int]:
    """(lost, duplicated) records of ``out`` and its errors file against the input's ids."""
    recs = read_lines(out)
    ids = [json.dumps(r["id"]) for r in recs]
    want = [json.dumps(i) for i in want_ids]
    lost = sum(1 for i in set(want) if i not in set(ids))
    dup = len(ids) - len(set(ids)) + sum(1 for i in ids if i not in set(want))
    errors = [json.dumps(r, sort_keys=True) for r in read_lines(out.with_name(out.name + ".errors.jsonl"))]
    failed = [json.dumps(r, sort_keys=True) for r in recs if r.get("error")]
    lost += sum(1 for e in set(failed) if e not in set(errors))
    dup += len(errors) - len(set(errors)) + sum(1 for e in set(errors) if e not in set(failed))
    return lost, dup


def crashed(run: Run, codes: set[int]) -> int:
    return int(not run.hung and (run.rc not in codes or "Traceback" in run.err))


def one_line(run: Run) -> bool:
    lines = [x for x in run.err.splitlines() if x.startswith("deid:")]
    return run.rc == 2 and len(lines) == 1 and "Traceback" not in run.err


def make_jsonl(path: Path, n: int, rng: random.Random) -> list:
    """``n`` records, one in seven without text (an error line each); returns their ids."""
    rows = []
    for k in range(n):
        note = " ".join(rng.choice(NOTES) for _ in range(rng.randint(1, 4)))
        rows.append({"id": f"r{k}"} if k % 7 == 3 else {"id": f"r{k}", "text": note})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return [r["id"] for r in rows]


class Trials:
    def __init__(self, tmp: Path, n: int, jobs: int, seed: int, timeout: float) -> None:
        self.tmp, self.n, self.jobs, self.timeout = tmp, n, jobs, timeout
        self.rng = random.Random(seed)
        self.totals = Totals()
        self.src = tmp / "in.jsonl"
        self.ids = make_jsonl(self.src, n, self.rng)
        self.key = tmp / "trial.key"
        self.key.write_text(KEY, encoding="utf-8")
        self.count = 0
        self.want = {}
        for mode in ("redact", "surrogate"):
            ref = tmp / f"ref-{mode}.jsonl"
            deid(self.base(ref, mode), timeout=self.timeout * 4)
            self.want[mode] = ref.read_bytes()

    def base(self, out: Path, mode: str = "redact", src: Path | None = None) -> list:
        return ["batch", src or self.src, "--out", out, "--mode", mode, "--rules-only", "--jobs",
                self.jobs, "--chunksize", 4, "--no-progress", "--key-file", self.key]

    def fresh(self, name: str) -> Path:
        self.count += 1
        d = self.tmp / f"{self.count:02d}-{name}"
        d.mkdir()
        return d / "out.jsonl"

    def finish(self, kind: str, out: Path, runs: list[Run], codes: set[int], mode: str,
               note: str) -> None:
        lost, dup = account(self.ids, out)
        same = out.exists() and out.read_bytes() == self.want[mode]
        self.totals.add(kind, crashes=sum(crashed(r, codes) for r in runs),
                        hangs=sum(r.hung for r in runs), lost=lost, duplicated=dup,
                        note=note + ("" if same else "; OUTPUT DIFFERS from a run without the fault"))
        if not same and not (lost or dup):
            self.totals.lost += 1   # counted, so the exit status says so

    def kill_worker(self) -> None:
        out = self.fresh("kill-worker")
        proc = start(self.base(out, "surrogate"))
        kills = self.rng.randint(1, 3)
        done = 0
        t0 = time.monotonic()
        while done < kills and proc.poll() is None and time.monotonic() - t0 < self.timeout:
            time.sleep(self.rng.uniform(0.2, 1.2))
            kids = children(proc.pid)
            if kids and proc.poll() is None:
                os.kill(self.rng.choice(kids), signal.SIGKILL)
                done += 1
        try:
            err = proc.communicate(timeout=self.timeout)[1]
            run = Run(proc.returncode, err, False)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            run = Run(None, proc.communicate()[1], True)
        self.finish("kill-worker", out, [run], {1}, "surrogate", f"{done} worker(s) killed")

    def kill_resume(self) -> None:
        out = self.fresh("kill-resume")
        runs, kills, orphans = [], 0, 0
        for attempt in range(4):
            args = self.base(out) + (["--resume"] if attempt else [])
            if attempt < 3 and self.rng.random() < 0.85:
                proc = start(args)
                time.sleep(self.rng.uniform(0.3, 2.0))
                kids = children(proc.pid)
                if proc.poll() is None:
                    os.kill(proc.pid, signal.SIGKILL)
                    kills += 1
                proc.communicate()
                deadline = time.monotonic() + 10
                while any(alive(k) for k in kids) and time.monotonic() < deadline:
                    time.sleep(0.1)
                left = [k for k in kids if alive(k)]
                orphans += len(left)
                for k in left:
                    os.kill(k, signal.SIGKILL)
                if out.exists():
                    break
                continue
            runs.append(deid(args, timeout=self.timeout))
            break
        if not out.exists():
            runs.append(deid(self.base(out) + ["--resume"], timeout=self.timeout))
        self.finish("kill-resume", out, runs, {1}, "redact",
                    f"{kills} kill(s) of deid batch, {orphans} worker(s) left behind")
        self.totals.crashes += orphans

    def disk_full(self) -> None:
        out = self.fresh("disk-full")
        size = len(self.want["redact"])
        limit = int(size * self.rng.uniform(0.1, 0.6))
        runs, fills = [], 0
        while True:
            r = deid(self.base(out) + (["--resume"] if fills else []), timeout=self.timeout,
                     limit=limit)
            if r.rc == 2:
                fills += 1
                runs.append(r if one_line(r) else Run(99, r.err, r.hung))
                limit = int(limit * 1.8) + 4096
                continue
            runs.append(r)
            break
        self.finish("disk-full", out, runs, {1, 2}, "redact",
                    f"full {fills} time(s), then resumed with room")

    def read_only(self) -> None:
        out = self.fresh("read-only")
        if os.geteuid() == 0:
            folder = Path("/sys")
        else:
            folder = out.parent / "ro"
            folder.mkdir()
            folder.chmod(0o555)
        r = deid(self.base(folder / "out.jsonl"), timeout=self.timeout)
        ok = one_line(r)
        runs = [r if ok else Run(99, r.err, r.hung)]
        if folder.name == "ro":
            folder.chmod(0o755)
            runs.append(deid(self.base(folder / "out.jsonl"), timeout=self.timeout))
            out = folder / "out.jsonl"
        else:   # nothing can be written there: check the one line, and a run elsewhere
            runs.append(deid(self.base(out), timeout=self.timeout))
        self.finish("read-only", out, runs, {1, 2}, "redact", f"{folder}: exit {r.rc}")

    def under_file(self) -> None:
        out = self.fresh("under-file")
        blocker = out.parent / "a_file"
        blocker.write_text("x")
        r = deid(self.base(blocker / "out.jsonl"), timeout=self.timeout)
        runs = [r if one_line(r) else Run(99, r.err, r.hung)]
        runs.append(deid(self.base(out), timeout=self.timeout))
        self.finish("under-file", out, runs, {1, 2}, "redact", f"exit {r.rc}")

    def hostile_json(self) -> None:
        out = self.fresh("hostile-json")
        deep = 3000
        bad = [b'{"id": "h0", "text": "x", "a": ' + b"[" * deep + b"]" * deep + b"}",
               b'{"id": "h1", "text": "x", "a": ' + b'{"k": ' * deep + b"1" + b"}" * deep + b"}",
               b'{"id": "h2", "text": ' + b"[" * deep + b"]" * deep + b"}",
               b'{"id": ' + b"[" * 500 + b"]" * 500 + b', "text": "x"}',
               b'{"id": "h4", "text": NaN}', b'{"id": "h5\\ud800", "text": "Pt John Smith \\udfff"}',
               b'{"id": "h6", "text": "caf\xe9"}', b'["not", "an", "object"]', b"not json at all",
               b'{"id": "h9", "text": "' + b"a" * 200_000 + b'"}']
        lines = [json.dumps({"id": f"g{k}", "text": self.rng.choice(NOTES)}).encode() for k in range(60)]
        for b in bad:
            lines.insert(self.rng.randrange(len(lines) + 1), b)
        lines.append(b'{"id": "cut", "text": "Pt: John Sm')   # a last line cut off
        src = out.parent / "hostile.jsonl"
        src.write_bytes(b"\n".join(lines))
        r = deid(self.base(out, src=src), timeout=self.timeout)
        recs = read_lines(out)
        lost = max(0, len(lines) - len(recs))
        dup = max(0, len(recs) - len(lines))
        good = [json.loads(x)["id"] for x in lines if x.startswith(b'{"id": "g')]
        got = [r["id"] for r in recs if isinstance(r["id"], str) and r["id"].startswith("g")]
        lost += sum(1 for g in good if g not in got)
        e_lost, e_dup = account([r["id"] for r in recs], out)
        self.totals.add("hostile-json", crashes=crashed(r, {1}), hangs=int(r.hung),
                        lost=lost + e_lost, duplicated=dup + e_dup,
                        note=f"{len(bad) + 1} hostile lines among {len(lines)}, exit {r.rc}")

    def folder(self) -> None:
        out = self.fresh("folder")
        f = out.parent / "notes"
        (f / "p1").mkdir(parents=True)
        (f / "p2").mkdir()
        entries = {}
        for k in range(12):
            name = f"p{k % 2 + 1}/n{k}." + self.rng.choice(["txt", "TXT", "Txt"])
            (f / name).write_text(self.rng.choice(NOTES), encoding="utf-8")
            entries[name] = True
        os.mkfifo(f / "p1" / "pipe.txt")
        os.symlink(f / "nowhere", f / "p1" / "gone.txt")
        os.symlink(out.parent, f / "p2" / "loop")
        (f / "README.md").write_text("not a note")
        entries.update({"p1/pipe.txt": False, "p1/gone.txt": False, "p2/loop": False,
                        "README.md": False})
        r = deid(["batch", f, "--out", out, "--rules-only", "--jobs", self.jobs, "--no-progress"],
                 timeout=self.timeout)
        recs = {}
        dup = 0
        for rec in read_lines(out):
            dup += rec["id"] in recs
            recs[rec["id"]] = rec
        lost = sum(1 for e in entries if e not in recs)
        wrong = sum(1 for e, read in entries.items() if e in recs and (recs[e]["error"] is None) != read)
        self.totals.add("folder", crashes=crashed(r, {1}) + wrong, hangs=int(r.hung), lost=lost,
                        duplicated=dup + sum(1 for i in recs if i not in entries),
                        note=f"{len(entries)} entries, {sum(not v for v in entries.values())} to report")

    def csv(self) -> None:
        out = self.fresh("csv")
        rows, broken = [], 0
        for k in range(80):
            text = self.rng.choice(NOTES)
            fault = self.rng.random()
            if fault < 0.1:
                rows.append(f'b{k},"{text}')                 # a quote never closed
                broken += 1
            elif fault < 0.15:
                rows.append(f'b{k},"{text}" and more')       # text after the closing quote
                broken += 1
            elif fault < 0.2:
                rows.append(f"b{k},{text},extra")            # one field too many
                broken += 1
            elif fault < 0.3:
                rows.append(f'g{k},"{text}\nsecond line ""quoted"""')   # what must stay
            else:
                rows.append(f'g{k},"{text}"')
        src = out.parent / "notes.csv"
        src.write_text("id,text\n" + "\n".join(rows) + "\n", encoding="utf-8")
        r = deid(["batch", src, "--out", out, "--rules-only", "--jobs", self.jobs, "--no-progress"],
                 timeout=self.timeout)
        recs = read_lines(out)
        good = [row.split(",", 1)[0] for row in rows if row.startswith("g")]
        got = [x["id"] for x in recs if x["error"] is None]
        lost = sum(1 for g in good if g not in got)
        dup = len(got) - len(set(got)) + sum(1 for x in got if x not in good)
        errors = sum(1 for x in recs if x["error"])
        lost += max(0, broken - errors)
        dup += max(0, errors - broken)
        self.totals.add("csv", crashes=crashed(r, {1} if broken else {0}), hangs=int(r.hung),
                        lost=lost, duplicated=dup, note=f"{broken} broken rows of {len(rows)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one trial of each kind, fewer records")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--records", type=int, default=None, help="records per JSONL trial")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=None, help="seconds a run may take")
    ap.add_argument("--engine-root", type=Path, default=ROOT,
                    help="folder with the deid_core/ and lists/ to run (default: this checkout)")
    args = ap.parse_args()
    global ENGINE
    ENGINE = args.engine_root.resolve()
    n = args.records or (150 if args.quick else 600)
    timeout = args.timeout or (60.0 if args.quick else 120.0)
    rounds = {"kill-worker": 1, "kill-resume": 1, "disk-full": 1} if args.quick else \
        {"kill-worker": 8, "kill-resume": 6, "disk-full": 4}
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="deid-fault-") as tmp:
        trials = Trials(Path(tmp), n, args.jobs, args.seed, timeout)
        plan = ([trials.kill_worker] * rounds["kill-worker"] + [trials.kill_resume] * rounds["kill-resume"]
                + [trials.disk_full] * rounds["disk-full"]
                + [trials.read_only, trials.under_file, trials.hostile_json, trials.folder, trials.csv])
        for trial in plan:
            trial()
        t = trials.totals
        print(f"trials {t.trials}, crashes {t.crashes}, hangs {t.hangs}, lost {t.lost}, "
              f"duplicated {t.duplicated} ({n} records a JSONL trial, --jobs {args.jobs}, "
              f"seed {args.seed}, {time.monotonic() - t0:.0f} s)")
        return 1 if (t.crashes or t.hangs or t.lost or t.duplicated) else 0


if __name__ == "__main__":
    raise SystemExit(main())
