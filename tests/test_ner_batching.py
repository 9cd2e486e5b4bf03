"""The windows of many notes run together (:mod:`deid_core.ner.batching`): the calls planned,
the same spans as one note at a time (with an invented model function, and with the shipped
model in its exact and integer forms, whose window logits do not depend on the batch)."""
from __future__ import annotations

import pytest

from deid_core.ner.batching import plan_batches, predict_many
from deid_core.ner.onnx_runtime import OnnxNer, model_present, onnxruntime_available
from deid_core.ner.pipeline import NerModel, model_dir
from deid_core.readers import read_corpus

needs_model = pytest.mark.skipif(not (model_present() and onnxruntime_available()),
                                 reason="model/ner.onnx or onnxruntime absent")
has_vocab = pytest.mark.skipif(not (model_dir() / "vocab.txt").is_file(), reason="model/ absent")

#: Invented notes: short, long (several windows), empty, and one with nothing nameable.
NOTES = [
    "Seen by Dr. Tamsin Vorhees today.",
    "Pt walked with PT. " * 60 + "Daughter Odalys Brandt called from Hollowmere.",
    "",
    "0123 4567 // 89 12/03",
    "Spoke with Mr. Quill about the Foley.",
    "BP 120/80 HR 72. Wife Marisol at bedside. " * 25,
]


@pytest.fixture(scope="module")
def model():
    return NerModel.load()


def fake_infer(calls):
    """An invented model: per position, logits that say NAME for a token id that is odd and
    over 2000, else O; padding positions get garbage, which must be ignored. Records each
    call's (batch, width)."""
    def infer(ids, mask, case):
        calls.append((len(ids), len(ids[0])))
        out = []
        for row_ids, row_mask in zip(ids, mask):
            rows = []
            for t, m in zip(row_ids, row_mask):
                if not m:
                    rows.append([99.0] * 13)                # padding: never read
                elif t > 2000 and t % 2:
                    rows.append([0.0, 5.0, 1.0] + [-3.0] * 10)
                else:
                    rows.append([6.0, -2.0, -2.0] + [-4.0] * 10)
            out.append(rows)
        return out
    return infer


@has_vocab
@pytest.mark.parametrize("max_positions", [1, 64, 256, 100_000])
def test_predict_many_gives_each_notes_own_spans(model, max_positions):
    calls: list = []
    alone = [model.predict(t, fake_infer([])) for t in NOTES]
    assert any(alone)                                        # the invented model finds something
    many = predict_many(model, NOTES, fake_infer(calls), max_positions)
    assert [[s.to_dict() for s in x] for x in many] == [[s.to_dict() for s in x] for x in alone]
    assert all(b * w <= max_positions or b == 1 for b, w in calls)
    windows = sum(len(model.prepare(t).windows) for t in NOTES)
    assert sum(b for b, _ in calls) == windows               # every window run once


@has_vocab
def test_plan_batches_sorts_by_length_and_keeps_the_budget(model):
    prepared = [model.prepare(t) for t in NOTES]
    calls = plan_batches(prepared, 300)
    lengths = [length for call in calls for _, _, length in call]
    assert lengths == sorted(lengths)
    assert all(len(call) * call[-1][2] <= 300 or len(call) == 1 for call in calls)
    assert sorted((i, r) for call in calls for i, r, _ in call) == \
        sorted((i, r) for i, p in enumerate(prepared) for r in range(len(p.windows)))
    assert not any(i == 2 or i == 3 for call in calls for i, _, _ in call)  # no window to run
    with pytest.raises(ValueError, match="max_positions"):
        plan_batches(prepared, 0)


@has_vocab
def test_an_infer_that_returns_too_few_rows_is_an_error(model):
    def short(ids, mask, case):
        return fake_infer([])(ids, mask, case)[:-1]
    with pytest.raises(ValueError, match="infer returned"):
        predict_many(model, NOTES[:2], short)


@needs_model
@pytest.mark.parametrize("form", ["exact", "integer"])
def test_the_shipped_models_spans_do_not_depend_on_the_batch(form):
    """Corpus notes one at a time (each note's windows in one call, as the page runs them) and
    all together in batches of several notes: the same spans."""
    ner = OnnxNer.load(threads=1, form=form)
    texts = [d.text for d in read_corpus("corpus/notes.jsonl")[:40]] + NOTES
    alone = [[s.to_dict() for s in ner.model.predict(t, ner.infer)] for t in texts]
    for max_positions in (128, 1024):
        many = ner.spans_many(texts, max_positions)
        assert [[s.to_dict() for s in x] for x in many] == alone
