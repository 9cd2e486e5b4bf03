"""Adversarial shapes at two sizes: seconds per MB and the growth exponent (rules only).

    python scripts/bench_adversarial.py                      # every shape at 100 KB and 1 MB
    python scripts/bench_adversarial.py --sizes 20000 100000 --shapes mrn_words zeros_known

Each shape is a short unit repeated to the size (the ones issue 11 reported, plus each
detector's worst case found by reading its patterns). Every shape runs through
:func:`deid_core.analyze` twice: without known identifiers, and with ``Known(names, mrns,
addresses, birth_dates)`` (the ``known`` column), since known MRNs compile patterns of their
own. The growth exponent is ``log(t_big / t_small) / log(size_big / size_small)``: 1.0 is
linear, 2.0 quadratic. Bars (issue 11): under 5 s per MB and an exponent under 1.2.

    python scripts/bench_adversarial.py --model             # the adversarial mix at 1 MB, with the model

``--model`` times each shape (default: ``adversarial_mix``, base64 blobs, long runs and
repeated text) at the big size rules only and with the NER model (``OnnxNer.spans`` and
:func:`~deid_core.analyze.analyze` with ``model=``, what ``deid detect`` runs) and prints the ratio
and the windows the model ran of all the note's windows. Bar: within 3 times the rules-only time.
Figures are wall-clock on whatever machine runs it; no test asserts them.
"""
from __future__ import annotations

import argparse
import base64
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deid_core import Known, analyze  # noqa: E402

KNOWN = Known(names=("Mary Anne Okafor",), mrns=("0045-2231", "00000"),
              addresses=("12 Elm Street, Springfield, IL 62704",), birth_dates=("1950-03-02",))


def _blob(n: int) -> str:
    return base64.b64encode(random.Random(0).randbytes(n)).decode()


def _mix(n: int) -> str:
    """The adversarial note of issue 11: base64 blobs, long runs of digits and punctuation, and
    repeated text (a short note pasted over and over), to ``n`` characters."""
    unit = "\n".join([_blob(1500), "1234567890" * 40, "-=" * 200, "0x7f3a9c " * 40,
                       "Pt seen by Dr. Alder at Mercy Hospital, lives in Boston. " * 12, ""])
    return (unit * (n // len(unit) + 1))[:n]


#: name -> unit repeated to the size (a callable gets the size and returns the text).
SHAPES: dict[str, object] = {
    "mrn_words": "MRN ",                       # issue 11: joined adjacent name spans
    "zeros": "0 ",                             # issue 11: Known(mrns) zero prefix
    "plus_digits": "+44 20 ",                  # international phone
    "lower_words": "lives in boston near main street and ",  # lower-case location rules
    "ones": "1",
    "slashes": "a/",
    "ninety": "92 ",
    "age_words": "ninety ",
    "digit_runs": "1234567890" * 10 + " ",
    "date_like": "1/2/3/4/5/6/7/8/9/",
    "months": "March ",
    "ats": "a@",
    "dots": "a.",
    "colons": "1:",
    "phone_like": "617-555-",
    "hashes": "#1",
    "labels": "MRN: ",
    "dashes": "1-",
    "alnum": "A1",
    "card_like": "4111 ",
    "caps": "A",
    "titles": "Dr. ",
    "names": "Smith ",
    "url": lambda n: "http://" + "a" * (n - 7),
    "base64": lambda n: _blob(n)[:n],
    "zero_width": "a\u200b",
    "spaced_date": "3 / 5 / 2014 ",
    "ssn_repeat": "SSN 123-45-6789 ",
    "adversarial_mix": _mix,
}


def make(shape: str, size: int) -> str:
    """The text of ``shape`` at ``size`` characters."""
    unit = SHAPES[shape]
    if callable(unit):
        return unit(size)
    return (unit * (size // len(unit) + 1))[:size]


#: The clock :func:`timed` reads: wall-clock, or this process's CPU time (``--cpu``: steadier
#: on a machine others share).
CLOCK = time.perf_counter


def timed(text: str, known: Known | None) -> float:
    t0 = CLOCK()
    analyze(text, known)
    return CLOCK() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs=2, default=[100_000, 1_000_000],
                    metavar=("SMALL", "BIG"), help="the two sizes in characters")
    ap.add_argument("--shapes", nargs="*", default=sorted(SHAPES), help="shapes to run")
    ap.add_argument("--no-known", action="store_true", help="skip the runs with known identifiers")
    ap.add_argument("--model", action="store_true",
                    help="time the big size with the NER model against rules only")
    ap.add_argument("--model-dir", default=None, help="the model folder (default: model/)")
    ap.add_argument("--cpu", action="store_true",
                    help="report this process's CPU seconds instead of wall-clock seconds "
                         "(with --model: onnxruntime's threads count too)")
    args = ap.parse_args(argv)
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    small, big = args.sizes
    if args.model:
        shapes = args.shapes if args.shapes != sorted(SHAPES) else ["adversarial_mix"]
        return with_model(shapes, big, args.model_dir)
    analyze("Warm up: Dr. Smith seen 3/5/2014, MRN 1234567.", KNOWN)  # lists load once
    print(f"{'shape':14} {'known':5} {'s/MB@' + str(small):>12} {'s/MB@' + str(big):>12} {'exponent':>8}")
    worst = 0.0
    for shape in args.shapes:
        for known in ((None,) if args.no_known else (None, KNOWN)):
            t_small = timed(make(shape, small), known)
            t_big = timed(make(shape, big), known)
            exp = math.log(max(t_big, 1e-6) / max(t_small, 1e-6)) / math.log(big / small)
            per_mb = t_big / (big / 1e6)
            worst = max(worst, per_mb)
            flag = "  <-- over a bar" if per_mb > 5 or exp > 1.2 else ""
            print(f"{shape:14} {'yes' if known else 'no':5} {t_small / (small / 1e6):12.2f} "
                  f"{per_mb:12.2f} {exp:8.2f}{flag}", flush=True)
    print(f"worst: {worst:.2f} s/MB")
    return 0


def with_model(shapes: list[str], size: int, model_dir: str | None) -> int:
    """Print rules-only and rules-plus-model seconds for ``shapes`` at ``size`` characters."""
    from deid_core.ner.onnx_runtime import OnnxNer
    ner = OnnxNer.load(model_dir)
    warm = "Warm up: Dr. Smith seen 3/5/2014, MRN 1234567."
    analyze(warm, model=ner.spans)
    print(f"{'shape':16} {'size':>9} {'rules s':>8} {'model s':>8} {'ratio':>6} {'windows run':>14}")
    for shape in shapes:
        text = make(shape, size)
        t_rules = timed(text, None)
        t0 = CLOCK()
        analyze(text, model=ner.spans)
        t_model = CLOCK() - t0
        prep = ner.model.prepare(text)
        ratio = t_model / max(t_rules, 1e-6)
        flag = "  <-- over the bar" if ratio > 3 else ""
        print(f"{shape:16} {size:9d} {t_rules:8.2f} {t_model:8.2f} {ratio:6.2f} "
              f"{len(prep.windows):>6}/{len(prep.all_windows or prep.windows):<7}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
