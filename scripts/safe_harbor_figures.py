#!/usr/bin/env python3
"""Measure recall and residual risk per Safe Harbor identifier with ``deid eval --json`` and
write them where the docs and the page read them.

Usage::

    python scripts/safe_harbor_figures.py              # rules only and rules + model (minutes)
    python scripts/safe_harbor_figures.py --rules-only # rules only; the model figures kept
    python scripts/safe_harbor_figures.py --corpus varied  # the model figures of one corpus
    python scripts/safe_harbor_figures.py --check      # exit 1 if the rules-only figures differ

Runs ``deid eval --json`` (``python -m deid_core.cli``) on each corpus of :data:`CORPORA` that
is present (the real notes and ASQ-PHI live in ``../shared``, outside the repository), keeps of
each report the per-identifier recall (:func:`deid_core.harbor_table.recall_per_identifier`)
and the residual risk (``residual_risk``), and writes

* ``deid_core/harbor_figures.py`` (``FIGURES``: rules + model, ``FIGURES_RULES_ONLY``), the data
  :func:`deid_core.harbor_table.identifier_rows` and the page read; no text of any note;
* the generated parts of ``docs/safe-harbor.md``, each between ``<!-- NAME -->`` and
  ``<!-- /NAME -->`` (option, identifiers, knowledge, zip3, risk).

A corpus that is absent keeps its earlier figures.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deid_core.harbor_table import markdown_table, recall_per_identifier  # noqa: E402

FIGURES_PY = ROOT / "deid_core" / "harbor_figures.py"
DOC = ROOT / "docs" / "safe-harbor.md"
#: name -> (title, eval format, path)
CORPORA: dict[str, tuple[str, str, Path]] = {
    "real_notes": ("real ICU nursing notes (PhysioNet deid, dev half, 1,278)", "physionet",
                   ROOT.parent / "shared" / "corpora" / "physionet-deid-dev" / "physionet_deid_dev.jsonl"),
    "asq_phi": ("ASQ-PHI dev (526)", "corpus",
                ROOT.parent / "shared" / "corpora" / "asq-phi" / "asq_phi_dev.jsonl"),
    "corpus": ("project corpus (210, invented)", "corpus", ROOT / "corpus" / "notes.jsonl"),
    "varied": ("varied note types (119, invented, 12 types)", "corpus",
               ROOT / "corpus" / "varied" / "notes.jsonl"),
}


def eval_report(fmt: str, path: Path, rules_only: bool) -> dict:
    """The ``deid eval --json`` report of one corpus.

    Raises:
        RuntimeError: when the command fails.
    """
    cmd = [sys.executable, "-m", "deid_core.cli", "eval", "--format", fmt, str(path), "--json"]
    if rules_only:
        cmd.append("--rules-only")
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {r.stderr.strip()}")
    return json.loads(r.stdout)


def corpus_figures(title: str, report: dict) -> dict:
    """What is kept of one report: title, notes, recall per identifier, residual risk."""
    return {"title": title, "notes": report["documents"],
            "recall": {s: report[s]["overall"]["recall"] for s in ("certain", "with_review")},
            "per_identifier": recall_per_identifier(report),
            "residual_risk": report["residual_risk"]}


def measure(rules_only: bool, old: dict, only: set[str] | None = None) -> dict:
    """Figures of every corpus present (of ``only``, when given); the others keep ``old``'s."""
    out = {"engine": "rules only" if rules_only else "rules + NER model (model/ner.onnx)",
           "command": "deid eval --json" + (" --rules-only" if rules_only else ""),
           "corpora": {}}
    for name, (title, fmt, path) in CORPORA.items():
        if path.is_file() and (only is None or name in only):
            print(f"{name}: deid eval {'--rules-only ' if rules_only else ''}{path}", file=sys.stderr)
            out["corpora"][name] = corpus_figures(title, eval_report(fmt, path, rules_only))
        elif name in old.get("corpora", {}):
            out["corpora"][name] = old["corpora"][name]
    return out


def _literal(value, indent: int = 0) -> str:
    """A Python literal of ``value``: a dict whose values are all scalars on one line, other
    dicts one key a line (so the module stays short and diffs stay readable)."""
    if not isinstance(value, dict) or all(not isinstance(v, dict) for v in value.values()):
        return repr(value)
    pad = " " * (indent + 4)
    items = [f"{pad}{k!r}: {_literal(v, indent + 4)}," for k, v in value.items()]
    return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"


def _ordered(figures: dict) -> dict:
    """``figures`` with its corpora in :data:`CORPORA` order (the docs' column order)."""
    corpora = figures.get("corpora", {})
    return {**figures, "corpora": {k: corpora[k] for k in CORPORA if k in corpora}}


def slim(figures: dict) -> dict:
    """``figures`` without the residual risk per identifier (what the rules-only figures keep)."""
    def corpus(c: dict) -> dict:
        risk = c["residual_risk"]
        return {**c, "residual_risk": {
            k: ({kk: vv for kk, vv in v.items() if kk != "per_identifier"}
                if k in ("certain", "with_review") else v) for k, v in risk.items()}}
    return {**figures, "corpora": {n: corpus(c) for n, c in figures.get("corpora", {}).items()}}


def render_module(figures: dict, rules_only: dict) -> str:
    """The text of ``deid_core/harbor_figures.py`` (corpora in :data:`CORPORA` order; the
    rules-only figures :func:`slim`)."""
    figures, rules_only = _ordered(figures), slim(_ordered(rules_only))
    return ('"""Recall and residual risk per Safe Harbor identifier, measured by\n'
            '``scripts/safe_harbor_figures.py`` with ``deid eval --json`` (do not edit by hand: rerun\n'
            'the script). ``FIGURES``: rules + NER model (what every ``deid`` command runs);\n'
            '``FIGURES_RULES_ONLY``: ``--rules-only`` (no residual risk per identifier). Per corpus: ``title``, ``notes``, overall\n'
            '``recall``, ``per_identifier`` (:func:`deid_core.harbor_table.recall_per_identifier`)\n'
            'and ``residual_risk`` (:func:`deid_core.risk.residual_risk`)."""\n\n'
            f"FIGURES: dict = {_literal(figures)}\n\n"
            f"FIGURES_RULES_ONLY: dict = {_literal(rules_only)}\n")


def risk_table(figures: dict) -> str:
    """The residual-risk table of the docs (per corpus, certain and with review)."""
    out = ["| corpus | notes | identifiers per note | left per 1,000 notes, certain (95% upper) "
           "| with review (95% upper) | amber marks per note | review minutes per 1,000 notes |",
           "|---|---|---|---|---|---|---|"]
    for c in figures["corpora"].values():
        r = c["residual_risk"]
        ce, wr, rv = r["certain"], r["with_review"], r["review"]
        out.append(f"| {c['title']} | {c['notes']} | {ce['identifiers_per_note']:.2f} | "
                   f"{ce['per_1000_notes']:.1f} ({ce['upper_95_per_1000_notes']:.1f}) | "
                   f"{wr['per_1000_notes']:.1f} ({wr['upper_95_per_1000_notes']:.1f}) | "
                   f"{rv['amber_per_note']:.3f} | {rv['minutes_per_1000_notes']:.1f} |")
    return "\n".join(out) + "\n"


def _between(text: str, tag: str, body: str) -> str:
    start, end = f"<!-- {tag} -->\n", f"<!-- /{tag} -->"
    i, j = text.index(start) + len(start), text.index(end)
    return text[:i] + body + text[j:]


def zip3_text() -> str:
    """The restricted prefixes of ``lists/zip3_population.tsv`` for the docs."""
    from deid_core import lists
    rows = lists.read_list("zip3_population.tsv").rows
    no = [r for r in rows if r[4] == "no"]
    return (f"{len(rows)} prefixes in the table, {len(no)} restricted: "
            + ", ".join(f"`{r[0]}`" + (" (HHS)" if r[3] == "yes" else "") for r in no)
            + "; every prefix absent from the table is restricted too.\n")


def option_table() -> str:
    """The option's rules (:data:`deid_core.safe_harbor.OPTION_RULES`) as a Markdown table."""
    from deid_core.safe_harbor import OPTION_RULES
    rows = ["| span | Redact writes | the option writes |", "|---|---|---|"]
    rows += [f"| {a} | {b} | {c} |" for a, b, c in OPTION_RULES]
    return "\n".join(rows) + "\n"


def render_doc(text: str, figures: dict) -> str:
    """``docs/safe-harbor.md`` with its generated parts replaced."""
    from deid_core.harbor_table import knowledge_text
    text = _between(text, "identifiers", markdown_table(figures=figures))
    text = _between(text, "knowledge", knowledge_text())
    text = _between(text, "option", option_table())
    text = _between(text, "zip3", zip3_text())
    return _between(text, "risk", risk_table(figures))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules-only", action="store_true", help="measure rules only; keep the model figures")
    ap.add_argument("--corpus", action="append", choices=sorted(CORPORA), default=None,
                    help="measure the model figures of this corpus only (repeatable); the "
                         "others are kept")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if the rules-only figures or the docs differ")
    a = ap.parse_args(argv)
    from deid_core import harbor_figures as old
    rules = measure(True, old.FIGURES_RULES_ONLY)
    model = _ordered(old.FIGURES) if a.rules_only or a.check else \
        measure(False, old.FIGURES, set(a.corpus) if a.corpus else None)
    doc = render_doc(DOC.read_text(encoding="utf-8"), model)
    if a.check:
        bad = slim(rules) != slim(old.FIGURES_RULES_ONLY) or doc != DOC.read_text(encoding="utf-8")
        print("differs" if bad else "same", file=sys.stderr)
        return 1 if bad else 0
    FIGURES_PY.write_text(render_module(model, rules), encoding="utf-8")
    DOC.write_text(doc, encoding="utf-8")
    print(f"wrote {FIGURES_PY.relative_to(ROOT)} and {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
