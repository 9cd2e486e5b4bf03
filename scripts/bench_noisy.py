"""Text with nothing to find: CPU seconds per MB and peak memory, rules only and with the NER model.

    python scripts/bench_noisy.py                           # every kind at 1 MB, the CLI's form
    python scripts/bench_noisy.py --size 100000 --kinds base64 number_table --model-form exact

Kinds (invented, deterministic): ``random_words`` (clinical nouns and English words that are
also names, in random order, lower case with some Capitalised, sentences of 8 to 20 words),
``punctuation`` (runs of punctuation with one- and two-letter pieces between), ``base64`` (random
bytes, 76 characters a line), ``number_table`` (rows of numbers between ``|``, a header row of
lab names every 40 rows). Each kind runs in a fresh process, twice: the rules alone
(``deid_core.analyze``) and the rules with the model (what ``deid detect`` runs: the model's spans
of the note, then the ensemble), and prints CPU seconds per MB of text (user + system of the
process, onnxruntime's threads included), the ratio of the two, the windows the model ran of the
note's windows, and the process's peak resident memory (``ru_maxrss``, the model loaded).
Bars (issue 21): with the model at most 3 times the rules' CPU, and at most 500 MB.
Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import base64
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _words(name: str) -> list[str]:
    """The first column of a list file in ``lists/`` (comment lines skipped)."""
    out = []
    for line in (ROOT / "lists" / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            out.append(line.split("\t")[0])
    return out


def random_words(size: int) -> str:
    rng = random.Random(1)
    pool = _words("clinical_nouns.txt") + _words("english_collisions.txt")
    parts: list[str] = []
    n = 0
    while n < size:
        words = [rng.choice(pool) for _ in range(rng.randint(8, 20))]
        words = [w.capitalize() if rng.random() < 0.15 else w for w in words]
        words[0] = words[0].capitalize()
        s = " ".join(words) + ". "
        parts.append(s)
        n += len(s)
    return "".join(parts)[:size]


def punctuation(size: int) -> str:
    rng = random.Random(2)
    marks = "!?.,;:-_()[]{}<>/\\|*&^%$#@~`'\"+="
    parts, n = [], 0
    while n < size:
        s = "".join(rng.choice(marks) for _ in range(rng.randint(1, 6)))
        if rng.random() < 0.3:
            s += rng.choice("abcdefghijklmnopqrstuvwxyz") * rng.randint(1, 2)
        s += " " if rng.random() < 0.4 else ""
        parts.append(s)
        n += len(s)
    return "".join(parts)[:size]


def base64_text(size: int) -> str:
    raw = base64.b64encode(random.Random(3).randbytes(size)).decode()
    return "\n".join(raw[i:i + 76] for i in range(0, size, 76))[:size]


def number_table(size: int) -> str:
    rng = random.Random(4)
    header = "| Na | K | Cl | HCO3 | BUN | Cr | Glu | WBC | Hgb | Plt |\n"
    parts, n, row = [], 0, 0
    while n < size:
        s = header if row % 40 == 0 else "| " + " | ".join(
            f"{rng.uniform(0, 300):.{rng.randint(0, 2)}f}" for _ in range(10)) + " |\n"
        parts.append(s)
        n += len(s)
        row += 1
    return "".join(parts)[:size]


KINDS = {"random_words": random_words, "punctuation": punctuation, "base64": base64_text,
         "number_table": number_table}

CHILD = r"""
import json, os, resource, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/scripts")
from bench_noisy import KINDS
kind, size, with_model, form, model_dir = sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5], sys.argv[6] or None
from deid_core import analyze
text = KINDS[kind](size)
analyze("Warm up: Dr. Smith seen 3/5/2014, MRN 1234567.")
out = {}
if with_model:
    from deid_core.ner.loading import load_model
    ner = load_model(model_dir, threads=1, form=form)
    run = lambda t: analyze(t, model=ner.spans)
    run("Warm up: Dr. Smith seen 3/5/2014, MRN 1234567.")
    prep = ner.model.prepare(text)
    out["windows"] = [len(prep.windows), len(prep.all_windows or prep.windows)]
    del prep
else:
    run = analyze
out["rss_before_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
c0 = os.times()
run(text)
c1 = os.times()
out["cpu"] = (c1.user - c0.user) + (c1.system - c0.system)
out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def measure(kind: str, size: int, with_model: bool, form: str, model_dir: str | None) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), kind, str(size),
                           "1" if with_model else "0", form, model_dir or ""],
                          capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"{kind}: {proc.stderr.strip().splitlines()[-1]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from deid_core.ner.int8 import CLI_FORM, FORMS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1_000_000, help="characters per note")
    ap.add_argument("--kinds", nargs="*", default=list(KINDS), choices=list(KINDS))
    ap.add_argument("--model-form", default=CLI_FORM, choices=FORMS)
    ap.add_argument("--model-dir", default=None)
    args = ap.parse_args()
    mb = args.size / 1e6
    print(f"{args.size} characters a note, model form {args.model_form}")
    print(f"{'kind':14} {'rules s/MB':>10} {'model s/MB':>10} {'ratio':>6} {'windows run':>14} "
          f"{'rules MB':>9} {'model MB':>9}")
    for kind in args.kinds:
        rules = measure(kind, args.size, False, args.model_form, args.model_dir)
        model = measure(kind, args.size, True, args.model_form, args.model_dir)
        ratio = model["cpu"] / max(rules["cpu"], 1e-9)
        run, every = model["windows"]
        flag = "  <-- over a bar" if ratio > 3 or model["rss_mb"] > 500 else ""
        print(f"{kind:14} {rules['cpu'] / mb:10.2f} {model['cpu'] / mb:10.2f} {ratio:6.2f} "
              f"{run:>6}/{every:<7} {rules['rss_mb']:9.0f} {model['rss_mb']:9.0f}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
