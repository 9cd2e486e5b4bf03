"""Behaviour kept: the final rules-only spans of every corpus equal the recorded pins.

The pins (``tests/pins/*.json``, digests only) are written by ``scripts/pin_spans.py --write``; a change
that moves spans on purpose rewrites them and names the change and its figure in the commit.
The shared corpora (``../shared``) are skipped when absent.
"""
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("pin_spans", ROOT / "scripts" / "pin_spans.py")
pin_spans = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pin_spans)


@pytest.mark.parametrize("name", sorted(pin_spans.CORPORA))
def test_spans_match_pins(name):
    path = pin_spans.CORPORA[name]
    if not path.exists():
        pytest.skip(f"{path} absent")
    old = json.loads((pin_spans.PIN_DIR / f"{name}.json").read_text(encoding="utf-8"))
    new = pin_spans.pin(path)
    assert new["notes"] == old["notes"]
    assert pin_spans.changed(old, new) == []


def test_digest_sees_a_moved_span():
    base = pin_spans.note_digest("Seen by Dr. Alvarez on 03/04/2019.")
    assert base != pin_spans.note_digest("  Seen by Dr. Alvarez on 03/04/2019.")
    assert base != pin_spans.note_digest("Seen by Dr. Alvarez.")
    assert base == pin_spans.note_digest("Seen by Dr. Alvarez on 03/04/2019.")
