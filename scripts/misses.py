"""Print the engine's misses and false alarms on an annotated corpus, with context.

Usage: python scripts/misses.py [--format corpus] [PATH] [--category NAME] [--certain] [--limit N]

Each line: note id, kind (MISS or FALSE), the gold or predicted label, the text, and 30 characters
of context either side. For finding what to fix; the figures come from ``deid eval``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deid_core import analyze  # noqa: E402
from deid_core.readers import read  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default="corpus/notes.jsonl")
    ap.add_argument("--format", default="corpus")
    ap.add_argument("--category", default=None, help="only this i2b2 category")
    ap.add_argument("--certain", action="store_true", help="count certain spans only")
    ap.add_argument("--limit", type=int, default=400)
    args = ap.parse_args()
    shown = 0
    for doc in read(args.format, args.path):
        spans = [s for s in analyze(doc.text).spans if not args.certain or s.tier == "certain"]
        covered = set()
        for s in spans:
            covered.update(range(s.start, s.end))
        gold_chars = set()
        for g in doc.spans:
            gold_chars.update(range(g.start, g.end))
        rows = []
        for g in doc.spans:
            missed = [i for i in range(g.start, g.end) if i not in covered and not doc.text[i].isspace()]
            if missed and (not args.category or g.category == args.category):
                rows.append(("MISS", g.label, g.start, g.end))
        for s in spans:
            extra = [i for i in range(s.start, s.end) if i not in gold_chars and not doc.text[i].isspace()]
            if extra and (not args.category or s.category == args.category):
                rows.append(("FALSE", f"{s.label}/{s.tier}/{s.source}", s.start, s.end))
        for kind, label, start, end in rows:
            ctx = lambda a, b: doc.text[a:b].replace("\n", "⏎").replace("\r", "")
            print(f"{doc.id:>8} {kind:5} {label:40.40} {doc.text[start:end]!r:32} "
                  f"…{ctx(max(0, start - 30), start)}[[{ctx(start, end)}]]{ctx(end, end + 30)}…")
            shown += 1
            if shown >= args.limit:
                return


if __name__ == "__main__":
    main()
