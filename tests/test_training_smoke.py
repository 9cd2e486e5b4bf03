"""Smoke test of the training code (training/train.py) on a tiny, randomly initialised BERT.

Runs the real entry point end to end -- data windows, BIO labels, case ids, training steps, dev
figures, ONNX export, int8 quantisation, model/ files -- in well under a minute, with no
download. Needs the training environment (torch, transformers, onnx, onnxruntime):
``.venv-train/bin/python -m pytest tests/test_training_smoke.py``; skipped where torch is not
importable. Full training is not part of CI.
"""
from __future__ import annotations

import hashlib
import json
import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("onnxruntime")

from deid_core.ner import WordPiece  # noqa: E402
from deid_core.spans import Span  # noqa: E402
from training import data as D  # noqa: E402
from training import train as T  # noqa: E402
from training.modeling import LABELS, SPECIAL_TOKENS  # noqa: E402

# Invented sentences (no real people), char spans with model types.
HAND = [
    ("Seen by Dr. Oriel Pemberton at Westbrook General.", [(12, 27, "NAME"), (31, 49, "HOSPITAL")]),
    ("Pt is a 93 yo retired welder from Dunmore.", [(8, 10, "AGE"), (22, 28, "PROFESSION"),
                                                   (34, 41, "LOCATION")]),
    ("Glasgow Coma Scale 15, Foley catheter removed.", []),
    ("MARTA QUILLEN WORKS FOR HALVERSON MILLS.", [(0, 13, "NAME"), (24, 39, "ORGANIZATION")]),
]


def _examples(n: int, prefix: str) -> list[D.Example]:
    out = []
    for k in range(n):
        text, spans = HAND[k % len(HAND)]
        out.append(D.Example(f"{prefix}-{k}", text, list(spans), "test"))
    return out


def _tiny_vocab(texts) -> list[str]:
    chars = sorted({c for t in texts for c in t.lower() if not c.isspace()})
    words = ["seen", "by", "dr", "at", "general", "glasgow", "coma", "scale", "foley"]
    return [*SPECIAL_TOKENS, *chars, *("##" + c for c in chars), *words]


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    from transformers import BertConfig
    tmp = tmp_path_factory.mktemp("train")
    train = _examples(12, "tr")
    try:
        train += D.load_generated(4, seed=1)
    except ImportError:            # generator not present: hand sentences only
        train += _examples(4, "tr2")
    dev = _examples(4, "dev")
    vocab = _tiny_vocab([e.text for e in train + dev])
    (tmp / "vocab.txt").write_text("".join(t + "\n" for t in vocab), encoding="utf-8")
    cfg_bert = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2,
                          num_attention_heads=2, intermediate_size=64,
                          max_position_embeddings=128, pad_token_id=0)
    cfg = T.TrainConfig(base_dir=None, bert_config=cfg_bert, vocab_path=str(tmp / "vocab.txt"),
                        trim_top_n=None, train_examples=train, dev_examples=dev, max_steps=3,
                        batch_size=8, lr=1e-3, head_lr=1e-2, log_every=0,
                        compare_per_tensor=False,
                        out_dir=str(tmp / "model"), work_dir=str(tmp / "work"))
    report = T.run(cfg)
    return tmp, vocab, report


def test_training_steps_and_finite_loss(smoke):
    _, _, report = smoke
    assert report["train"]["steps"] == 3
    assert math.isfinite(report["train"]["first_loss"])
    assert math.isfinite(report["train"]["last_loss"])
    # a fresh 13-way head starts near ln(13)
    assert abs(report["train"]["first_loss"] - math.log(13)) < 1.0


def test_model_files_follow_the_contract(smoke):
    tmp, vocab, report = smoke
    out = tmp / "model"
    meta = json.loads((out / "ner.json").read_text(encoding="utf-8"))
    blob = (out / "ner.onnx").read_bytes()
    assert meta["labels"] == list(LABELS)
    assert meta["inputs"] == ["input_ids", "attention_mask", "case_ids"]
    assert meta["output"] == "logits" and meta["case_feature"] is True
    assert meta["max_len"] == 128
    assert meta["sha256"] == hashlib.sha256(blob).hexdigest()
    assert meta["bytes"] == len(blob)
    assert (out / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1] == vocab


@pytest.mark.parametrize("batch,seq", [(1, 3), (2, 17), (3, 128)])
def test_onnx_io_shapes_dynamic(smoke, batch, seq):
    import numpy as np
    import onnxruntime as ort
    tmp, vocab, _ = smoke
    sess = ort.InferenceSession(str(tmp / "model" / "ner.onnx"), providers=["CPUExecutionProvider"])
    assert [i.name for i in sess.get_inputs()] == ["input_ids", "attention_mask", "case_ids"]
    assert all(i.type == "tensor(int64)" for i in sess.get_inputs())
    rng = np.random.default_rng(0)
    feeds = {"input_ids": rng.integers(0, len(vocab), (batch, seq)).astype(np.int64),
             "attention_mask": np.ones((batch, seq), dtype=np.int64),
             "case_ids": rng.integers(0, 6, (batch, seq)).astype(np.int64)}
    (logits,) = sess.run(["logits"], feeds)
    assert logits.shape == (batch, seq, 13) and logits.dtype == np.float32
    assert np.isfinite(logits).all()


def test_fp32_onnx_matches_torch(smoke):
    import numpy as np
    tmp, vocab, report = smoke
    model = report["_model"]
    ids = [[2, 7, 8, 9, 3], [2, 10, 11, 3, 0]]
    mask = [[1, 1, 1, 1, 1], [1, 1, 1, 1, 0]]
    case = [[0, 2, 1, 5, 0], [0, 3, 4, 0, 0]]
    onnx_out = T.ort_infer(tmp / "work" / "ner_fp32.onnx")(ids, mask, case)
    torch_out = T.torch_infer(model)(ids, mask, case)
    m = np.array(mask, dtype=bool)
    assert np.abs(onnx_out - torch_out)[m].max() < 1e-4


def test_dev_figures_and_spans(smoke):
    tmp, vocab, report = smoke
    for key in ("dev_torch", "dev_fp32", "dev_int8"):
        figs = report[key]
        assert set(figs["per_type"]) == set(D.TYPES)
        assert 0.0 <= figs["overall"]["recall"] <= 1.0
    wp = WordPiece({t: i for i, t in enumerate(vocab)})
    text = HAND[0][0]
    spans = T.predict_spans(text, wp, T.ort_infer(tmp / "model" / "ner.onnx"))
    for s in spans:
        assert isinstance(s, Span) and 0 <= s.start < s.end <= len(text)
        assert s.source.startswith("ner:minilm6:p=")


@pytest.mark.parametrize("spans,offsets,expected", [
    # "Dr. Oriel Pemberton": tokens dr . or ##iel pe ##mber ##ton; span over Oriel Pemberton
    ([(4, 19, "NAME")], [(0, 2), (2, 3), (4, 6), (6, 9), (10, 12), (12, 16), (16, 19)],
     ["O", "O", "B-NAME", "I-NAME", "I-NAME", "I-NAME", "I-NAME"]),
    # two adjacent spans of one type stay two (B B), text outside stays O
    ([(0, 3, "NAME"), (4, 9, "NAME")], [(0, 3), (4, 9), (10, 12)],
     ["B-NAME", "B-NAME", "O"]),
    # a span edge inside a token still marks the token; no span: all O
    ([(1, 2, "HOSPITAL")], [(0, 3)], ["B-HOSPITAL"]),
    ([], [(0, 3), (4, 5)], ["O", "O"]),
])
def test_bio_tags(spans, offsets, expected):
    assert [LABELS[k] for k in D.bio_tags(spans, offsets)] == expected


@pytest.mark.parametrize("note_id", ["a-anticoag-01", "x", "note-123"])
def test_dev_split_is_stable(note_id):
    h = int(hashlib.sha256(note_id.encode()).hexdigest()[:8], 16)
    assert D.is_dev(note_id) == (h % 100 < 30)


def test_featurize_windows_and_case():
    vocab = _tiny_vocab([HAND[3][0]])
    wp = WordPiece({t: i for i, t in enumerate(vocab)})
    ex = D.Example("w", HAND[3][0] * 12, [], "test")       # long: several windows
    wins = D.featurize(ex, wp, max_len=32)
    assert len(wins) > 1
    for w in wins:
        assert len(w.input_ids) <= 32 and w.input_ids[0] == wp.cls_id
        assert w.input_ids[-1] == wp.sep_id
        assert w.labels[0] == w.labels[-1] == D.IGNORE
        assert len(w.case_ids) == len(w.input_ids) == len(w.labels)
    # ALL CAPS text over a character vocabulary: every piece is one capital (SINGLE, 5) or
    # has no letters (0)
    assert set(wins[0].case_ids[1:-1]) <= {0, 5}
    assert 5 in wins[0].case_ids
    no_case = D.featurize(ex, wp, max_len=32, use_case=False)
    assert all(c == 0 for w in no_case for c in w.case_ids)


@pytest.mark.parametrize("n, ok", [(1, True), (2, True), (0, False), (3, False)])
def test_keep_first_layers_cuts_the_encoder(n, ok):
    """``--layers N`` (the fast model: the base encoder's first N layers): the layers kept are
    the first ones, the same objects, and the config says how many; out of range is an error."""
    from transformers import BertConfig
    from training.modeling import keep_first_layers, load_base
    base = load_base(config=BertConfig(vocab_size=40, hidden_size=16, num_hidden_layers=2,
                                       num_attention_heads=2, intermediate_size=32,
                                       max_position_embeddings=32, pad_token_id=0))
    before = list(base.bert.encoder.layer)
    if not ok:
        with pytest.raises(ValueError, match="layers must be between 1 and 2"):
            keep_first_layers(base, n)
        return
    keep_first_layers(base, n)
    assert list(base.bert.encoder.layer) == before[:n]
    assert base.config.num_hidden_layers == n
    ids = torch.tensor([[2, 5, 6, 3]])
    assert base(input_ids=ids).logits.shape == (1, 4, len(LABELS))
