"""The ``deid`` command line.

Usage::

    deid redact    [FILE|-] [--known KNOWN.json]
    deid surrogate [FILE|-] [--key K] [--known KNOWN.json]
    deid review    [FILE|-] [--key K] [--known KNOWN.json] [--decisions D.json | --accept-all | --reject-all] [--json]
    deid detect --input FILE.jsonl [--rules-only] [--model-dir DIR]
    deid eval --format corpus|i2b2|physionet|presidio PATH [--json] [--details] [--rules-only] [--model-dir DIR]

Text commands read UTF-8 (``-`` or no FILE: standard input), keep line ends as they are, and write
the output text to standard output. ``deid review`` writes the text with certain spans masked and
undecided review candidates masked too (fail-safe), and lists the review candidates on standard
error (or everything as JSON with ``--json``). ``KNOWN.json`` is
``{"names": [...], "mrns": [...], "addresses": [...], "birth_dates": [...]}``.
``detect`` and ``eval`` run the rules and the NER model together (:mod:`deid_core.ensemble`) when
the model directory (``--model-dir``, else ``$DEID_MODEL_DIR``, else ``model/`` beside the package)
holds ``ner.onnx``; the model needs the optional ``onnxruntime`` package, and without it they stop
with a one-line error (exit 2) suggesting ``pip install onnxruntime`` or ``--rules-only``.
``--rules-only`` runs the rules alone; so does a missing model file.
Exit status: 0 on success, 2 on bad input (with a one-line message on standard error).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import api
from .analyze import analyze
from .batch.cli import add_batch_parser
from .ensemble import analyze_with_model
from .evaluate import evaluate, format_report
from .readers import read


class InputError(Exception):
    """Bad input: reported on standard error with exit status 2."""


def _read_text(name: str | None) -> str:
    data = sys.stdin.buffer.read() if name in (None, "-") else _read_bytes(name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{name or 'standard input'}: not UTF-8 (byte {e.start}: {data[e.start:e.start+1]!r})") from None


def _read_bytes(name: str) -> bytes:
    try:
        return Path(name).read_bytes()
    except OSError as e:
        raise InputError(f"{name}: {e.strerror}") from None


def _read_json(name: str | None) -> dict | None:
    if name is None:
        return None
    try:
        value = json.loads(_read_text(name))
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: not JSON: {e}") from None
    if not isinstance(value, dict):
        raise InputError(f"{name}: expected a JSON object")
    return value


def _write(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


def _cmd_text(args: argparse.Namespace) -> int:
    text = _read_text(args.file)
    known = _read_json(args.known)
    decisions = None
    if args.command == "review":
        decisions = _read_json(args.decisions) or {}
    model = _model(args)
    model_spans = None if model is None else [m.to_dict() for m in model(text)]
    try:
        result = api.process(text, mode=args.command, key=getattr(args, "key", None),
                             decisions=decisions, known=known, model_spans=model_spans)
    except ValueError as e:
        raise InputError(str(e)) from None
    if args.command == "review":
        ids = {item["id"] for item in result["review"]}
        stray = sorted(set(decisions) - ids)
        if stray:
            raise InputError(f"{args.decisions}: no review candidate with id {', '.join(stray)}; "
                             f"candidates are {', '.join(sorted(ids)) or 'none'}")
        if args.accept_all or args.reject_all:
            decisions = {i: bool(args.accept_all) for i in ids}
            result = api.process(text, mode="review", key=args.key, decisions=decisions, known=known,
                                 model_spans=model_spans)
        if args.json:
            _write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
            return 0
        for item in result["review"]:
            print(f"review {item['id']:>11} {item['label']:<14} {item['text']!r}: {item['reason']}",
                  file=sys.stderr)
    _write(result["output"])
    return 0


def _model(args: argparse.Namespace):
    """``text -> model spans`` when the NER model is there and not turned off, else None.

    Raises:
        InputError: if the model file exists but cannot run (onnxruntime missing, bad files).
    """
    if args.rules_only:
        return None
    from .ner import onnx_runtime
    if not onnx_runtime.model_present(args.model_dir):
        return None
    try:
        ner = onnx_runtime.OnnxNer.load(args.model_dir)
    except onnx_runtime.OnnxUnavailable as e:
        raise InputError(str(e)) from None
    return ner.spans


def _predictor(args: argparse.Namespace):
    """``text -> Analysis``: the ensemble when the model is there and not turned off, else the
    rules alone (see :func:`_model`)."""
    model = _model(args)
    if model is None:
        return analyze
    return lambda text: analyze_with_model(text, model(text))


def _cmd_detect(args: argparse.Namespace) -> int:
    path = args.input
    records = []
    for n, line in enumerate(_read_text(path).removeprefix("\ufeff").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{n}: not JSON: {e}") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("text"), str) or "id" not in rec:
            raise InputError(f"{path}:{n}: expected an object with 'id' and a string 'text'")
        records.append(rec)
    # Every line is checked before any output, so bad input gives an error and no partial result.
    predict = _predictor(args)
    for rec in records:
        spans = predict(rec["text"]).spans
        out = {"id": rec["id"], "spans": [s.to_dict() for s in spans]}
        _write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    try:
        docs = read(args.format, args.path)
    except (ValueError, OSError) as e:
        raise InputError(str(e)) from None
    if not docs:
        raise InputError(f"{args.path}: no annotated notes to score")
    predict = _predictor(args)
    report = evaluate(docs, lambda text: predict(text).spans, details=args.details)
    if args.json:
        _write(json.dumps(report, sort_keys=True) + "\n")
        return 0
    _write(format_report(report) + "\n")
    if args.details:
        texts = {d.id: d.text for d in docs}
        for note in report["notes"]:
            for kind in ("misses", "false_alarms"):
                for start, end in note[kind]:
                    piece = texts[note["id"]][start:end]
                    _write(f"{note['id']}\t{kind[:-2] if kind == 'misses' else 'false alarm'}\t"
                           f"{start}:{end}\t{piece!r}\n")
    return 0


def _model_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--rules-only", action="store_true", help="rules only (no NER model)")
    sp.add_argument("--model-dir", default=None,
                    help="folder with ner.onnx, ner.json, vocab.txt (default: $DEID_MODEL_DIR, "
                         "else model/ beside the package)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``deid`` (see the module doc)."""
    p = argparse.ArgumentParser(prog="deid", description="Offline de-identifier for clinical notes.")
    sub = p.add_subparsers(dest="command", required=True)
    for name, text in (("redact", "replace each identifier with [CATEGORY]"),
                       ("surrogate", "replace each identifier with a consistent fake value"),
                       ("review", "mask certain spans; list amber candidates; apply decisions")):
        sp = sub.add_parser(name, help=text)
        sp.add_argument("file", nargs="?", default="-", help="UTF-8 text file, or - for standard input")
        if name != "redact":
            sp.add_argument("--key", default=None,
                            help="linkage key: same key, same date offset and fake values "
                                 "(default: a fresh random secret for this run)")
        sp.add_argument("--known", default=None,
                        help='JSON file {"names": [...], "mrns": [...], "addresses": [...], '
                             '"birth_dates": [...]} of this patient\'s identifiers (all optional)')
        _model_options(sp)
        sp.set_defaults(func=_cmd_text)
        if name == "review":
            sp.add_argument("--decisions", default=None,
                            help='JSON file {"start:end": true (mask) | false (keep)}')
            both = sp.add_mutually_exclusive_group()
            both.add_argument("--accept-all", action="store_true", help="mask every review candidate")
            both.add_argument("--reject-all", action="store_true", help="keep every review candidate")
            sp.add_argument("--json", action="store_true", help="print output, spans and review list as JSON")
    sp = sub.add_parser("detect", help="JSONL in, one JSON line of spans per note out")
    sp.add_argument("--input", required=True, help='JSONL file of {"id", "text", ...} (or -)')
    _model_options(sp)
    sp.set_defaults(func=_cmd_detect)
    sp = sub.add_parser("eval", help="score the engine on an annotated corpus")
    sp.add_argument("--format", required=True, choices=["corpus", "i2b2", "physionet", "presidio"])
    sp.add_argument("path")
    sp.add_argument("--json", action="store_true", help="print the report as JSON")
    sp.add_argument("--details", action="store_true",
                    help="also list each note's misses and false alarms (offsets and text)")
    _model_options(sp)
    sp.set_defaults(func=_cmd_eval)
    add_batch_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the ``deid`` command; returns the exit status (0 ok, 2 bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except InputError as e:
        print(f"deid: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
