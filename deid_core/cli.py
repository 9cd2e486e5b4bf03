"""The ``deid`` command line.

Usage::

    deid redact    [FILE|-] [--known KNOWN.json] [--decisions D.json] [--mask-review] [--rules R.json]
                   [--keep-safe-harbor]
    deid surrogate [FILE|-] [--key-file F | --key K] [--known KNOWN.json] [--decisions D.json] [--mask-review]
    deid review    [FILE|-] [--key-file F | --key K] [--known KNOWN.json] [--decisions D.json]
                   [--mask-review | --accept-all | --reject-all] [--json]
    deid detect --input FILE.jsonl [--rules-only] [--model-dir DIR]
    deid eval [--format auto|corpus|i2b2|physionet|presidio] PATH [--json] [--details] [--rules-only] [--model-dir DIR]
    deid eval PATH --rules-report [--json]

Text commands read UTF-8 (``-`` or no FILE: standard input), keep line ends as they are, and write
the output text to standard output. One rule in every mode (as in the page and
:func:`deid_core.api.process`): certain spans are masked; amber (review) candidates stay as text
unless a decision (``--decisions``, ``{"start:end": true (mask) | false (keep)}``) masks them;
``--mask-review`` masks every undecided candidate too, for unattended runs. An explicit decision
always wins over ``--mask-review``, ``--accept-all`` (mask the undecided) and ``--reject-all``
(keep the undecided); a decisions file with a key twice, or an id that is no review candidate, is
an error. ``deid review`` also lists the review candidates on standard error with their
explanation (or everything as JSON with ``--json``). ``--keep-safe-harbor`` (redact, review)
writes what Safe Harbor permits in place of a masked span's tag (a date's year, ZIP3, a state,
``90+``; :mod:`deid_core.safe_harbor`). ``KNOWN.json`` is
``{"names": [...], "mrns": [...], "addresses": [...], "birth_dates": [...]}``.
Linkage key (surrogate, review): ``--key-file F``, else ``$DEID_KEY``, else a fresh random
secret; ``--key K`` also works but leaves the key in the shell history. One reader for every
command (:func:`deid_core.linkage.read_key`): the key is the file's one line, surrounding
whitespace removed, so ``deid batch`` reads the same key from the same file. ``--patient ID``
uses the key ``deid batch --patient-field`` derives for that patient.

``deid detect`` streams: it reads one JSONL line (split on ``\\n`` only, strict JSON: no NaN),
writes one line ``{"id", "spans": [{"start", "end", "label", "tier", "source"}]}`` and goes on,
so memory stays flat. A record that cannot be processed (not JSON, no string ``text``, an id that
is not a string or integer, an id seen before, an engine error) gives an error line
``{"id", "line", "error"}`` in its place (and a message on standard error); the run goes on and
ends with exit status 1.

Every command runs the one pipeline (:func:`deid_core.analyze.analyze`): the rules and the NER
model together (:mod:`deid_core.ensemble`) when
the model directory (``--model-dir``, else ``$DEID_MODEL_DIR``, else ``model/`` beside the package)
holds ``ner.onnx``; the model needs the optional ``onnxruntime`` package, and without it they stop
with a one-line error (exit 2) suggesting ``pip install onnxruntime`` or ``--rules-only``.
``--rules-only`` runs the rules alone; so does a missing model file.
``--rules rules.json`` (every command above; from ``deid harvest``) applies harvested corpus
rules exactly as ``deid batch --rules`` does (:mod:`deid_core.corpus_rules`): the spans of a
known PHI-free sentence are dropped and the sentence reported (``"phi_free": [[start, end],
...]`` in ``detect`` lines and ``review --json``; a ``phi-free`` line per sentence from ``review``);
template rules add spans with source ``harvest:template:<n>``.
Exit status: 0 on success, 1 when ``detect`` had records that failed, 2 on bad input (with a
one-line message on standard error).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import api, corpus_rules, jsonl
from .batch.cli import add_batch_parser, add_model_arguments, add_safe_harbor_option
from .batch.engine import Config, Engine
from .evaluate import evaluate, format_report
from . import rulehits
from .keys import LinkageKey
from .linkage import KEY_ENV, KeyFileError, master_secret, patient_linkage_key, read_key
from .ner.loading import ModelError, load_model
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
        value = jsonl.loads(_read_text(name), object_pairs_hook=_no_duplicate_keys)
    except ValueError as e:   # not JSON, NaN, nested too deeply
        raise InputError(f"{name}: not JSON: {e}") from None
    except _DuplicateKey as e:
        raise InputError(f"{name}: key {e.args[0]!r} appears more than once") from None
    if not isinstance(value, dict):
        raise InputError(f"{name}: expected a JSON object")
    return value


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def _write(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


def _decisions(args: argparse.Namespace) -> tuple[dict[str, bool], bool]:
    """The reviewer's decisions (``--decisions``) and ``mask_review`` for a text command.

    An explicit decision always wins; ``--accept-all`` / ``--reject-all`` decide only the
    candidates the file leaves undecided (``--accept-all`` masks them, as ``--mask-review`` does).
    """
    decisions = _read_json(args.decisions) or {}
    mask_review = bool(args.mask_review or getattr(args, "accept_all", False))
    return decisions, mask_review


def _cmd_text(args: argparse.Namespace) -> int:
    text = _read_text(args.file)
    known = _read_json(args.known)
    decisions, mask_review = _decisions(args)
    rules = rules_for(args)
    model = model_for(args)
    try:
        result = api.process(text, mode=args.command, key=_key(args), decisions=decisions,
                             known=known, model_spans=model, mask_review=mask_review,
                             rules=rules, safe_harbor=getattr(args, "keep_safe_harbor", False))
    except ValueError as e:
        raise InputError(str(e)) from None
    ids = {item["id"] for item in result["review"]}
    stray = sorted(set(decisions) - ids)
    if stray:
        raise InputError(f"{args.decisions}: no review candidate with id {', '.join(stray)}; "
                         f"candidates are {', '.join(sorted(ids)) or 'none'}")
    if args.command == "review":
        if args.json:
            _write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
            return 0
        for item in result["review"]:
            masked = decisions.get(item["id"], mask_review)
            print(f"review {item['id']:>11} {item['label']:<14} {'mask' if masked else 'keep'} "
                  f"{item['text']!r}: {item['explanation']['text']}", file=sys.stderr)
        for a, b in result["phi_free"]:
            print(f"phi-free {a}:{b} known PHI-free sentence ({args.rules}), not searched: "
                  f"{text[a:b]!r}", file=sys.stderr)
    _write(result["output"])
    return 0


def _key(args: argparse.Namespace) -> str | LinkageKey | None:
    """The linkage key of a text command, read by the one key reader
    (:func:`deid_core.linkage.read_key`, as ``deid batch`` reads it): ``--key-file``, else
    ``--key``, else ``$DEID_KEY`` (not for ``redact``, which uses no key), else None (a fresh
    random secret for this run). With ``--patient ID``, that patient's key derived from it as
    ``deid batch --patient-field`` derives it.

    Raises:
        InputError: if the key file cannot be read or holds no key, or ``--patient`` has no key.
    """
    if args.command == "redact":
        return None
    try:
        key = read_key(getattr(args, "key_file", None), getattr(args, "key", None))
    except KeyFileError as e:
        raise InputError(str(e)) from None
    patient = getattr(args, "patient", None)
    if patient is None:
        return key
    if key is None:
        raise InputError(f"--patient needs the master key (--key-file or ${KEY_ENV})")
    return patient_linkage_key(master_secret(key), patient)


def model_for(args: argparse.Namespace):
    """``text -> model spans`` from the NER model, or None with ``--rules-only``.

    Raises:
        InputError: if the model is missing or cannot run (no ``ner.onnx`` in the model folder,
            onnxruntime missing, bad files); the message names the folder, ``--model-dir`` and
            ``--rules-only``. A missing model never falls back to the rules silently.
    """
    if args.rules_only:
        return None
    try:
        return load_model(args.model_dir, threads=None, form=args.model_form).spans
    except ModelError as e:
        raise InputError(str(e)) from None


def rules_for(args: argparse.Namespace):
    """The harvested rules of ``--rules`` (:func:`deid_core.corpus_rules.load`), or None.

    Raises:
        InputError: if the file cannot be read or is no rules file.
    """
    try:
        return corpus_rules.load(getattr(args, "rules", None))
    except corpus_rules.RulesError as e:
        raise InputError(str(e)) from None


def engine_for_args(args: argparse.Namespace) -> Engine:
    """The :class:`~deid_core.batch.engine.Engine` of ``deid detect`` and ``deid eval``: the
    rules (with ``--rules``' harvested rules), and the model when it is there and not turned off,
    as ``deid batch`` builds it (``Engine.analyses`` is the one place notes become analyses).

    Raises:
        InputError: the rules file cannot be read, or the model is missing or cannot run (see
            :func:`model_for`).
    """
    try:
        rules = None if getattr(args, "rules", None) is None else corpus_rules.read(args.rules)
    except corpus_rules.RulesError as e:
        raise InputError(str(e)) from None
    config = Config(mode="detect", rules_only=args.rules_only, model_dir=args.model_dir,
                    threads=None, model_form=args.model_form, rules=rules)
    try:
        return Engine(config)
    except ModelError as e:
        raise InputError(str(e)) from None


def _record_error(line: jsonl.Line, seen: dict[str, int]) -> str | None:
    """Why a ``deid detect`` input line cannot be processed, or None (then its id is recorded)."""
    if line.error is not None:
        return line.error
    rec = line.value
    if not isinstance(rec, dict) or "id" not in rec or not isinstance(rec.get("text"), str):
        return "expected an object with 'id' and a string 'text'"
    rid = rec["id"]
    if isinstance(rid, bool) or not isinstance(rid, (str, int)):
        return f"'id' must be a string or an integer, not {type(rid).__name__}"
    first = seen.get(str(rid))
    if first is not None:
        return f"duplicate id {rid!r} (first on line {first})"
    seen[str(rid)] = line.number
    return None


#: Input lines ``deid detect`` analyses together when it reads a file with the model (their
#: model windows batched across notes); from standard input, or rules only, it streams: each
#: output line is written before the next input line is read.
DETECT_GROUP = 32


def _cmd_detect(args: argparse.Namespace) -> int:
    """Stream JSONL: one line in, one line out, in order; a bad record gives an error line
    ``{"id", "line", "error"}`` and the run goes on; exit status 1 when any record failed."""
    path = args.input
    source = sys.stdin.buffer if path in (None, "-") else path
    if source is path and not Path(path).is_file():
        raise InputError(f"{path}: no such file")
    engine = engine_for_args(args)   # a model or rules file that cannot load stops the run first
    seen: dict[str, int] = {}
    failed = total = 0
    group: list[tuple[jsonl.Line, object, str | None]] = []
    group_size = DETECT_GROUP if source is path and engine.model is not None else 1

    def flush() -> None:
        """Write the grouped lines in order; their valid notes are analysed together
        (:meth:`Engine.analyses`: the model's windows of several notes in one batch), one by one
        if that fails, so a bad record gives its own error line."""
        nonlocal failed
        texts = [line.value["text"] for line, _, why in group if why is None]
        try:
            results: list = list(engine.analyses(texts))
        except Exception:
            results = []
            for text in texts:
                try:
                    results.append(engine.analysis(text))
                except Exception as e:  # one bad record never ends the run
                    results.append(e)
        results.reverse()
        for line, rid, why in group:
            if why is None:
                an = results.pop()
                if not isinstance(an, Exception):
                    out = {"id": rid, "spans": [s.to_dict() for s in an.spans]}
                    if args.rules:
                        out["phi_free"] = [[a, b] for a, b in an.phi_free]
                    _write(jsonl.dumps(out) + "\n")
                    continue
                why = f"{type(an).__name__}: {an}"
            failed += 1
            if isinstance(rid, bool) or not isinstance(rid, (str, int)):
                rid = None
            _write(jsonl.dumps({"id": rid, "line": line.number, "error": why}) + "\n")
            print(f"deid: {path}:{line.number}: {why}", file=sys.stderr)
        group.clear()

    try:
        for line in jsonl.read_file(source):
            total += 1
            why = _record_error(line, seen)
            rid = line.value.get("id") if isinstance(line.value, dict) else None
            group.append((line, rid, why))
            if len(group) >= group_size:
                flush()
        flush()
    except BrokenPipeError:
        raise   # the reader of standard output went away (``| head``): not an input error
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    if failed:
        print(f"deid: {failed} of {total} records failed (error lines in the output)", file=sys.stderr)
        return 1
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    try:
        docs = read(args.format, args.path)
    except (ValueError, OSError) as e:
        raise InputError(str(e)) from None
    if not docs:
        raise InputError(f"{args.path}: no annotated notes to score")
    if args.rules_report:      # per rule: candidates, characters inside/outside gold (rules only)
        table = rulehits.hits(docs)
        _write(json.dumps({k: h.to_dict() for k, h in table.items()}, sort_keys=True) + "\n"
               if args.json else f"engine: rules only; hits per rule on {len(docs)} notes\n"
               + rulehits.format_table(table))
        return 0
    engine = engine_for_args(args)
    report = evaluate(docs, lambda text: engine.analysis(text).spans, details=args.details)
    if args.json:
        _write(json.dumps(report, sort_keys=True) + "\n")
        return 0
    if engine.model is None:
        _write("engine: rules only\n")
    else:
        ner = engine.model.model
        _write(f"engine: rules + model {ner.name} ({ner.onnx_path})\n")
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


def add_model_options(sp: argparse.ArgumentParser) -> None:
    """``--rules-only``, ``--model-dir``, ``--model-form`` (read by :func:`model_for`;
    :func:`deid_core.batch.cli.add_model_arguments`) and ``--rules`` (read by :func:`rules_for`)."""
    add_model_arguments(sp)
    sp.add_argument("--rules", default=None, metavar="RULES.json",
                    help="harvested corpus rules from deid harvest (PHI-free sentences skipped, "
                         "template rules applied), as deid batch --rules")


def _text_options(sp: argparse.ArgumentParser, name: str) -> None:
    sp.add_argument("file", nargs="?", default="-", help="UTF-8 text file, or - for standard input")
    if name != "redact":
        keys = sp.add_mutually_exclusive_group()
        keys.add_argument("--key-file", default=None,
                          help="UTF-8 file holding the linkage key on one line (surrounding "
                               "whitespace ignored, as deid batch reads it): same key, same date "
                               "offset and fake values (default: $DEID_KEY, else a fresh random "
                               "secret for this run)")
        keys.add_argument("--key", default=None,
                          help="the linkage key itself (visible in the shell history and the "
                               "process list: prefer --key-file or $DEID_KEY)")
        sp.add_argument("--patient", default=None, metavar="ID",
                        help="use this patient's key, derived from the linkage key as deid batch "
                             "--patient-field derives it (same fakes and offset as that run)")
    sp.add_argument("--known", default=None,
                    help='JSON file {"names": [...], "mrns": [...], "addresses": [...], '
                         '"birth_dates": [...]} of this patient\'s identifiers (all optional)')
    sp.add_argument("--decisions", default=None,
                    help='JSON file {"start:end": true (mask) | false (keep)} of review decisions '
                         "(they win over --mask-review, --accept-all and --reject-all)")
    sp.add_argument("--mask-review", action="store_true",
                    help="mask every undecided amber (review) candidate too, for unattended runs "
                         "(default: they stay as text until decided)")
    if name != "surrogate":
        add_safe_harbor_option(sp)
    add_model_options(sp)
    sp.set_defaults(func=_cmd_text)



def _add_text_commands(sub) -> None:
    for name, text in (("redact", "replace each certain identifier with [CATEGORY]"),
                       ("surrogate", "replace each certain identifier with a consistent fake value"),
                       ("review", "mask certain spans; list amber candidates; apply decisions")):
        sp = sub.add_parser(name, help=text)
        _text_options(sp, name)
        if name == "review":
            both = sp.add_mutually_exclusive_group()
            both.add_argument("--accept-all", action="store_true",
                              help="mask every review candidate the decisions file leaves undecided")
            both.add_argument("--reject-all", action="store_true",
                              help="keep every review candidate the decisions file leaves undecided "
                                   "(the default)")
            sp.add_argument("--json", action="store_true", help="print output, spans and review list as JSON")


def _add_detect(sub) -> None:
    sp = sub.add_parser("detect", help="JSONL in, one JSON line of spans per note out")
    sp.add_argument("--input", required=True, help='JSONL file of {"id", "text", ...} (or -)')
    add_model_options(sp)
    sp.set_defaults(func=_cmd_detect)


def _add_eval(sub) -> None:
    sp = sub.add_parser("eval", help="score the engine on an annotated corpus")
    sp.add_argument("--format", default="auto", choices=["auto", "corpus", "i2b2", "physionet", "presidio"],
                    help="corpus layout (default auto: from the path; see deid_core.readers)")
    sp.add_argument("path")
    sp.add_argument("--json", action="store_true", help="print the report as JSON")
    sp.add_argument("--details", action="store_true",
                    help="also list each note's misses and false alarms (offsets and text)")
    sp.add_argument("--rules-report", action="store_true",
                    help="instead, per rule of the catalogue: the candidates it gave and their "
                         "characters inside and outside gold, by tier (rules only; docs/rules.md)")
    add_model_options(sp)
    sp.set_defaults(func=_cmd_eval)


#: Each entry adds one subcommand to the parser's subparsers (``add(sub)``); a new subcommand
#: (e.g. ``deid batch``) appends its own function here.
SUBCOMMANDS: list = [_add_text_commands, _add_detect, _add_eval, add_batch_parser]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``deid`` (see the module doc): one entry of :data:`SUBCOMMANDS`
    per subcommand."""
    p = argparse.ArgumentParser(prog="deid", description="Offline de-identifier for clinical notes.")
    sub = p.add_subparsers(dest="command", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the ``deid`` command; returns the exit status (0 ok, 1 some records failed, 2 bad
    input)."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except InputError as e:
        print(f"deid: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of standard output closed it (``deid detect ... | head``): stop quietly, as
        # Unix tools do, and point standard output at /dev/null so that Python's flush at exit
        # does not report the same broken pipe again.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
