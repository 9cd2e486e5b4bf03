"""Adversarial notes give valid spans from every detector and finish: a guard against
catastrophic backtracking (a run that never ends fails CI's time limit). No wall-clock
assertion here: the seconds per shape are measured by ``scripts/bench_engine.py --shapes``."""
import pytest

from deid_core import analyze
from deid_core.detectors import REGISTRY
from deid_core.document import Document

from adversarial import ADVERSARIAL, one_megabyte_note


@pytest.mark.parametrize("detector", REGISTRY, ids=[d.name for d in REGISTRY])
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_detector_on_adversarial_string(detector, name):
    text = ADVERSARIAL[name]
    spans = list(detector.detect(Document(text)))
    assert all(0 <= s.start < s.end <= len(text) for s in spans)


@pytest.mark.slow
def test_whole_engine_on_a_one_megabyte_note():
    text = one_megabyte_note()
    a = analyze(text)
    assert all(0 <= s.start < s.end <= len(text) for s in a.spans)
    assert any(text[s.start:s.end] == "4471203" for s in a.spans)   # real PHI inside is still found


LONE_SURROGATES = [
    ("Call http://x.org/\ud800", "URL"),
    ("Patient: John Sm\udc00ith seen today", "PATIENT"),
    ("email a\ud800b@example.com", "EMAIL"),
    ("MRN 1234\ud8005678", "MEDICALRECORD"),
    ("Seen 3/5/20\ud80014", "DATE"),
    ("Dr. \udfffSmith", "PATIENT"),
]


@pytest.mark.parametrize("text,label", LONE_SURROGATES)
@pytest.mark.parametrize("key", ["k", "k\ud800", None])
def test_surrogate_mode_accepts_a_lone_surrogate_code_point(text, label, key):
    """Issue 11 item 1: a lone surrogate in or next to a span (or in the key) is not an error."""
    from deid_core.api import process
    out = process(text, mode="surrogate", key=key, mask_review=True)  # amber spans replaced too
    assert label in {s["label"] for s in out["spans"]}
    assert isinstance(out["output"], str) and out["output"] != text


@pytest.mark.parametrize("name", ["mrn_words", "zero_width", "spaced_dates", "repeats"])
def test_whole_engine_sources_stay_bounded(name):
    """Issue 11 item 5: a merged span's source lists at most MAX_SOURCE_PARTS parts."""
    from deid_core.resolve import MAX_SOURCE_PARTS
    a = analyze(ADVERSARIAL[name])
    assert all(len(s.source.split(" + ")) <= MAX_SOURCE_PARTS for s in a.spans)
    assert all(len(s.source) < 400 for s in a.spans)


def _adversarial_mix(n: int) -> str:
    """Base64 blobs, long runs of digits and punctuation, hex words and one short invented note
    pasted over and over (the shape of ``scripts/bench_adversarial.py``'s ``adversarial_mix``)."""
    import base64
    import random
    blob = base64.b64encode(random.Random(0).randbytes(1500)).decode()
    unit = "\n".join([blob, "1234567890" * 40, "-=" * 200, "0x7f3a9c " * 40,
                      "Pt seen by Dr. Alder at Mercy Hospital, lives in Boston. " * 12, ""])
    return (unit * (n // len(unit) + 1))[:n]


def test_the_model_is_not_run_where_no_name_can_be():
    """Issue 11: the NER model is not given the windows of blobs and runs (skipped), and text
    repeated in step with the window stride runs once (repeats of a window reuse its logits).
    After a skipped window the next starts at the first nameable word, so every copy of text
    pasted between blobs gets the same windows, whatever its length in tokens."""
    from pathlib import Path
    from deid_core.ner.pipeline import NerModel
    root = Path(__file__).resolve().parent.parent
    if not (root / "model" / "ner.json").is_file():
        pytest.skip("no model/ner.json")
    m = NerModel.load(root / "model")
    for size in (50_000, 150_000):
        prep = m.prepare(_adversarial_mix(size))
        from deid_core.ner.windows import windows
        assert len(windows(len(prep.encoding.ids), 128, 96)) > size // 250   # the plain grid
        assert len(prep.windows) <= 16, (size, len(prep.windows))
        assert -1 in prep.rows                              # blob windows skipped
        prep = m.prepare(("Seen by Dr. Alder at Mercy Hospital. " * size)[:size])
        assert len(prep.windows) <= 8 < len(prep.all_windows)   # the rest are repeats


@pytest.mark.parametrize("enabled", [True, False])
def test_analyze_leaves_the_garbage_collector_as_it_found_it(enabled):
    """analyze() pauses the cyclic collector while it runs (speed) and restores its state, also
    when it raises."""
    import gc
    from deid_core import analyze
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert analyze("Seen by Dr. Quillan on 3/5/2014.").spans
        assert gc.isenabled() is enabled
        with pytest.raises(TypeError):
            analyze(b"bytes")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("text,grid", [
    ("Seen by Dr. Alder at Mercy Hospital, lives in Boston. " * 40, True),   # nothing skipped
    ("0123 4567 " * 200 + "Seen by Dr. Alder. " * 30 + "-=" * 300 + " Seen by Dr. Alder. " * 30, False),
])
def test_windows_restart_at_the_first_nameable_word_after_a_skipped_one(text, grid):
    from deid_core.ner.skip import anchored_windows, nameable
    from deid_core.ner.windows import windows
    from deid_core.ner.wordpiece import WordPiece
    from pathlib import Path
    vocab = Path(__file__).resolve().parent.parent / "model" / "vocab.txt"
    if not vocab.is_file():
        pytest.skip("no model/vocab.txt")
    enc = WordPiece.from_file(vocab).encode(text)
    n = len(enc.ids)
    got = anchored_windows(text, enc.offsets, n, 126, 96)
    if grid:
        assert got == windows(n, 128, 96)
        return
    assert got != windows(n, 128, 96)
    assert all(a < b for (a, _), (b, _) in zip(got, got[1:])) and got[-1][1] == n
    starts = [text[enc.offsets[s][0]:] for s, _ in got]
    after_skip = [starts[k + 1] for k, (s, e) in enumerate(got[:-1])
                  if not nameable(text[enc.offsets[s][0]:enc.offsets[e - 1][1]])]
    assert after_skip and all(t.startswith("Seen by") for t in after_skip[:-1])
