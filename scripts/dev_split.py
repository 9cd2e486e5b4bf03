"""Split the real-notes development half by patient into an explore part and a check part.

Rules fitted to the sentences one reads do not carry to notes nobody read: on the held-out half of
the same corpus (other patients) the engine scored about 9 points less recall than on this half.
To see that gap before the held-out sets do, read misses only in the ``explore`` part and judge a
change by its figures on the ``check`` part, whose notes you do not read.

The split is by patient (the part of the note id before ``-``): a patient is in ``check`` when the
first byte of the SHA-256 of ``"deid-split:" + patient`` is odd. Both parts are written outside the
repository (real notes never enter it), as JSONL in the corpus's own format.

Usage::

    python scripts/dev_split.py [--src PATH] [--out DIR]   # writes DIR/dev_explore.jsonl, DIR/dev_check.jsonl
    deid eval DIR/dev_check.jsonl                          # figures on notes you did not read

Defaults: ``--src ../shared/corpora/physionet-deid-dev/physionet_deid_dev.jsonl``, ``--out /tmp/deid-split``.
Prints the number of patients, notes and gold spans in each part.

Raises (exit 2): the source file is missing.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SRC = ROOT.parent / "shared" / "corpora" / "physionet-deid-dev" / "physionet_deid_dev.jsonl"


def part_of(note_id: str) -> str:
    """``"check"`` or ``"explore"`` for a note id ``"<patient>-<note>"`` (see the module doc)."""
    patient = note_id.split("-", 1)[0]
    return "check" if hashlib.sha256(f"deid-split:{patient}".encode()).digest()[0] & 1 else "explore"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, default=DEFAULT_SRC)
    ap.add_argument("--out", type=Path, default=Path("/tmp/deid-split"))
    args = ap.parse_args(argv)
    if not args.src.exists():
        print(f"dev_split: {args.src} not found", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    parts: dict[str, list[str]] = {"explore": [], "check": []}
    stats = {k: [set(), 0] for k in parts}
    for line in args.src.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        note = json.loads(line)
        p = part_of(note["id"])
        parts[p].append(line)
        stats[p][0].add(note["id"].split("-", 1)[0])
        stats[p][1] += len(note.get("spans", []))
    for p, lines in parts.items():
        (args.out / f"dev_{p}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{p:8} {len(stats[p][0]):3} patients {len(lines):5} notes {stats[p][1]:5} gold spans"
              f" -> {args.out / f'dev_{p}.jsonl'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
