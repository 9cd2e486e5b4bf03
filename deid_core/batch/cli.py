"""Argument parsing for ``deid batch`` and ``deid harvest`` (registered by :mod:`deid_core.cli`
through :func:`add_batch_parser`).

``deid batch INPUT --out OUTPUT.jsonl [--mode redact|surrogate|detect] [--jobs N] ...``
(see :mod:`deid_core.batch.run`); ``deid harvest CORPUS --out rules.json`` (see
:mod:`deid_core.harvest`). Exit status: 0 every record done, 1 some record failed (listed in
``OUTPUT.errors.jsonl``), 2 bad input, unusable model/key or an output that cannot be written
(disk full, read-only folder: rerun with ``--resume`` once fixed), 130 interrupted (Ctrl-C; rerun
with ``--resume``).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..corpus_rules import RulesError, read
from ..harvest import harvest
from ..linkage import KEY_ENV, KeyFileError, master_secret, read_key
from ..ner.int8 import CLI_FORM, FORMS as MODEL_FORMS
from .engine import BATCH_MODES, Config, ModelError, default_jobs
from .io import FORMATS, InputError
from .output import OutputError, output_error
from .run import DEFAULT_CHUNKSIZE, run_batch

__all__ = ["add_batch_parser", "add_model_arguments", "add_safe_harbor_option", "config_from_args"]


def add_model_arguments(sp: argparse.ArgumentParser) -> None:
    """``--rules-only``, ``--model-dir`` and ``--model-form``: the same three for ``deid batch``,
    ``harvest`` and the single-note commands (``deid_core.cli.add_model_options``)."""
    sp.add_argument("--rules-only", action="store_true", help="rules only (no NER model)")
    sp.add_argument("--model-dir", default=None,
                    help="folder with ner.onnx, ner.json, vocab.txt (default: $DEID_MODEL_DIR, "
                         "else the packaged model); --model-form fast reads its fast/ folder")
    sp.add_argument("--model-form", choices=MODEL_FORMS, default=CLI_FORM,
                    help="integer: the shipped model with integer matrix products, exact on every "
                         "x86 CPU, 2 to 3 times faster than exact at the same recall, about 1 s "
                         "more start-up (default); exact: the shipped model in fp32, the page's "
                         "spans; fast: the smaller model of the fast/ folder in integer form, "
                         "faster still, less recall. Integer spans are not the page's")


def add_safe_harbor_option(sp: argparse.ArgumentParser) -> None:
    """``--keep-safe-harbor`` (``deid redact``, ``review``, ``batch``): see
    :mod:`deid_core.safe_harbor`."""
    sp.add_argument("--keep-safe-harbor", action="store_true",
                    help="keep what HIPAA Safe Harbor permits in place of the tag: a date's year "
                         "(3/14/2021 -> 2021), a ZIP code's first three digits (021XX; 000XX "
                         "where that area has 20,000 people or fewer), a state; an age over 89 "
                         "becomes 90+ (docs/safe-harbor.md)")


def positive_int(value: str) -> int:
    """``argparse`` type of a count that must be 1 or more (jobs, threads, records a task).

    Raises:
        argparse.ArgumentTypeError: when ``value`` is not a whole number of at least 1.
    """
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def _common(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--format", choices=FORMATS, default=None,
                    help="input format (default: from the extension; a folder is txt)")
    sp.add_argument("--text-field", default="text", help="field/column with the note (default: text)")
    sp.add_argument("--id-field", default="id", help="field/column with the record id (default: id)")
    sp.add_argument("--patient-field", default=None,
                    help="field/column with the patient id (txt folders: any value; the patient "
                         "is the first sub-folder)")
    add_model_arguments(sp)
    sp.add_argument("--threads", type=positive_int, default=1,
                    help="onnxruntime threads per worker process (default 1)")
    sp.add_argument("--jobs", type=positive_int, default=None,
                    help="worker processes (default: all cores)")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def add_batch_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``batch`` and ``harvest`` subcommands to ``deid``'s subparsers."""
    sp = sub.add_parser("batch", allow_abbrev=False, help="de-identify a corpus (JSONL, CSV, Parquet, folder of .txt) "
                                      "into JSONL on every core")
    sp.add_argument("input", help="JSONL, CSV or Parquet file, or a folder of .txt files")
    sp.add_argument("--out", required=True, help="output JSONL file (written as OUT.part, renamed "
                                                 "when complete)")
    sp.add_argument("--mode", choices=BATCH_MODES, default="redact")
    sp.add_argument("--key-file", default=None,
                    help=f"UTF-8 file holding the linkage key on one line (else ${KEY_ENV}; else a "
                         f"fresh secret for this run, never written down); read as deid "
                         f"surrogate reads it")
    sp.add_argument("--mask-review", action="store_true",
                    help="also replace review (amber) spans (default: kept as text)")
    add_safe_harbor_option(sp)
    sp.add_argument("--rules", default=None, help="rules.json from deid harvest")
    sp.add_argument("--resume", action="store_true", help="continue OUT.part from an earlier run")
    sp.add_argument("--chunksize", type=positive_int, default=DEFAULT_CHUNKSIZE,
                    help=f"records per task sent to a worker (default {DEFAULT_CHUNKSIZE})")
    sp.add_argument("--summary-json", default=None, help="also write the summary as JSON here")
    _common(sp)
    sp.set_defaults(func=_cmd_batch)
    hp = sub.add_parser("harvest", allow_abbrev=False, help="harvest a PHI-free sentence list and template rules "
                                        "from a corpus")
    hp.add_argument("corpus", help="JSONL, CSV or Parquet file, or a folder of .txt files")
    hp.add_argument("--out", required=True, help="rules.json to write")
    hp.add_argument("--min-notes", type=positive_int, default=5, help="N: a sentence must occur in N notes")
    hp.add_argument("--min-patients", type=positive_int, default=3,
                    help="M: ... of M distinct patients (notes without a patient count as their own)")
    hp.add_argument("--min-instances", type=positive_int, default=5,
                    help="K: a template needs K instances (of M patients) to become a rule")
    hp.add_argument("--tier", choices=("review", "certain"), default="review",
                    help="tier of spans found by template rules (default review)")
    _common(hp)
    hp.set_defaults(func=_cmd_harvest)


def _fail(msg: str) -> int:
    print(f"deid: {msg}", file=sys.stderr)
    return 2


def config_from_args(args: argparse.Namespace, mode: str, rules_text: str | None = None) -> Config:
    """The engine :class:`~deid_core.batch.engine.Config` for parsed arguments.

    Raises:
        KeyFileError: the key file or ``$DEID_KEY`` cannot be read (:func:`deid_core.linkage.read_key`).
    """
    secret = b""
    if mode == "surrogate":   # (the other modes use no key: nothing to read or stretch)
        key = read_key(getattr(args, "key_file", None))
        if key is None:
            print(f"deid: no key (--key-file or ${KEY_ENV}): a fresh secret for this run; fake "
                  f"values and offsets link only within this run", file=sys.stderr)
        secret = master_secret(key)
    return Config(mode=mode, master_key=secret, per_patient=bool(args.patient_field),
                  rules_only=args.rules_only, model_dir=args.model_dir, threads=args.threads,
                  model_form=args.model_form, mask_review=getattr(args, "mask_review", False), rules=rules_text,
                  safe_harbor=getattr(args, "keep_safe_harbor", False))


def _cmd_batch(args: argparse.Namespace) -> int:
    try:
        rules_text = None if args.rules is None else read(args.rules)  # the one rules loader
    except RulesError as e:
        return _fail(str(e))
    try:
        config = config_from_args(args, args.mode, rules_text)
        jobs = args.jobs or default_jobs()
        summary = run_batch(args.input, args.out, config, fmt=args.format,
                            text_field=args.text_field, id_field=args.id_field,
                            patient_field=args.patient_field, jobs=jobs, chunksize=args.chunksize,
                            resume=args.resume, progress=not args.no_progress)
    except (InputError, ModelError, KeyFileError, OutputError, ValueError) as e:
        return _fail(str(e))
    print(summary.text(), file=sys.stderr)
    if args.summary_json:
        path = Path(args.summary_json)
        try:
            path.write_text(json.dumps(summary.to_dict(), indent=1) + "\n")
        except OSError as e:
            return _fail(str(output_error(path, e)))
    if summary.interrupted:
        return 130
    err_file = Path(args.out).with_name(Path(args.out).name + ".errors.jsonl")
    if err_file.exists():
        print(f"deid: some records failed; see {err_file}", file=sys.stderr)
        return 1
    return 0


def _cmd_harvest(args: argparse.Namespace) -> int:
    try:
        config = Config(mode="detect", rules_only=args.rules_only, model_dir=args.model_dir,
                        threads=args.threads)
        rules = harvest(args.corpus, config, fmt=args.format, text_field=args.text_field,
                        id_field=args.id_field, patient_field=args.patient_field,
                        min_notes=args.min_notes, min_patients=args.min_patients,
                        min_instances=args.min_instances, tier=args.tier,
                        progress=not args.no_progress, jobs=args.jobs or default_jobs())
    except (InputError, ModelError, ValueError) as e:
        return _fail(str(e))
    try:
        Path(args.out).write_text(rules.to_json(), encoding="utf-8")
    except OSError as e:
        return _fail(str(output_error(Path(args.out), e)))
    print(f"harvest: {len(rules.sentences)} PHI-free sentences, {len(rules.templates)} template "
          f"rules from {rules.notes} notes -> {args.out}", file=sys.stderr)
    return 0
