"""Pin the engine's final spans (rules only) on every corpus, so a refactor cannot move one silently.

For each corpus, writes ``tests/pins/<name>.json`` (``corpus``, ``varied``, ``asq_dev``, ``real_notes_dev``): ``{"corpus", "notes", "digest", "per_note"}`` where
``per_note`` maps a note id to the first 16 hex digits of the SHA-256 of its final spans, written as
``start:end:label:tier`` lines (character offsets, half-open). Only digests are stored: no note text
and no span text, so the real notes (``../shared``, GPL, real) and ASQ-PHI stay out of the repository.
The ``source`` of a span is not pinned (explanations may be reworded); offsets, label and tier are.

Usage::

    python scripts/pin_spans.py            # compare; prints the ids whose spans changed, exit 1 if any
    python scripts/pin_spans.py --write    # record the current spans (name the change in the commit)
                                           # and rewrite docs/rules.md (its hits per rule)

Corpora: ``corpus/notes.jsonl`` and ``corpus/varied/notes.jsonl`` (always), ``../shared/corpora/asq-phi/asq_phi_dev.jsonl`` and
``../shared/corpora/physionet-deid-dev/physionet_deid_dev.jsonl`` (skipped when absent).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deid_core import analyze, jsonl  # noqa: E402

PIN_DIR = ROOT / "tests" / "pins"
CORPORA = {
    "corpus": ROOT / "corpus" / "notes.jsonl",
    "varied": ROOT / "corpus" / "varied" / "notes.jsonl",
    "asq_dev": ROOT.parent / "shared" / "corpora" / "asq-phi" / "asq_phi_dev.jsonl",
    "real_notes_dev": ROOT.parent / "shared" / "corpora" / "physionet-deid-dev"
    / "physionet_deid_dev.jsonl",
}


def note_digest(text: str) -> str:
    """Digest of the final rules-only spans of one note: 16 hex characters."""
    spans = analyze(text).spans
    body = "\n".join(f"{s.start}:{s.end}:{s.label}:{s.tier}" for s in spans)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def pin(path: Path) -> dict:
    """Digests for every note of a JSONL corpus at ``path`` (read by :func:`deid_core.jsonl.parse`)."""
    per_note: dict[str, str] = {}
    for rec in jsonl.parse(path.read_text(encoding="utf-8"), str(path)):
        per_note[str(rec["id"])] = note_digest(rec["text"])
    whole = hashlib.sha256(json.dumps(per_note, sort_keys=True).encode()).hexdigest()
    return {"corpus": path.name, "notes": len(per_note), "digest": whole, "per_note": per_note}


def changed(old: dict, new: dict) -> list[str]:
    """Ids whose digest differs, or that are in only one of the two pins."""
    ids = set(old["per_note"]) | set(new["per_note"])
    return sorted(i for i in ids if old["per_note"].get(i) != new["per_note"].get(i))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="record the current spans")
    ap.add_argument("names", nargs="*", default=list(CORPORA), help="corpora to pin")
    args = ap.parse_args(argv)
    bad = 0
    for name in args.names:
        path = CORPORA[name]
        if not path.exists():
            print(f"{name}: skipped ({path} absent)")
            continue
        new = pin(path)
        pin_file = PIN_DIR / f"{name}.json"
        if args.write:
            PIN_DIR.mkdir(parents=True, exist_ok=True)
            pin_file.write_text(json.dumps(new, indent=0, sort_keys=True) + "\n", encoding="utf-8")
            print(f"{name}: wrote {new['notes']} notes, digest {new['digest'][:16]}")
            continue
        old = json.loads(pin_file.read_text(encoding="utf-8"))
        diff = changed(old, new)
        print(f"{name}: {len(diff)} of {new['notes']} notes changed" + (f": {diff[:20]}" if diff else ""))
        bad += bool(diff)
    if args.write:   # the hits per rule of docs/rules.md move with the spans: record both
        spec = importlib.util.spec_from_file_location("rules_doc", ROOT / "scripts" / "rules_doc.py")
        rules_doc = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(rules_doc)
        rules_doc.main([])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
