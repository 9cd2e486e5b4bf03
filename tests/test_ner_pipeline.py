"""NER runtime pipeline (deid_core.ner.case, deid_core.ner.pipeline) with a fake, pure-Python
model: no ONNX file and no onnxruntime needed."""
from __future__ import annotations

import pytest

from deid_core.ner.case import (CAPITALISED, LOWER, MIXED, NONE, SINGLE, UPPER, case_id,
                                case_ids)

# (text, start, end, word_start, expected)
CASE_TABLE = [
    ("Smith", 0, 5, 0, CAPITALISED),
    ("smith", 0, 5, 0, LOWER),
    ("SMITH", 0, 5, 0, UPPER),
    ("McDonald", 0, 8, 0, MIXED),
    ("McDonald", 2, 8, 0, MIXED),      # continuation piece "##Donald": not capitalised
    ("McDonald", 0, 2, 0, CAPITALISED),  # first piece "Mc"
    ("SMITH", 2, 5, 0, UPPER),          # "##ITH"
    ("Smith", 2, 5, 0, LOWER),          # "##ith"
    ("J", 0, 1, 0, SINGLE),
    ("j", 0, 1, 0, LOWER),
    ("A1", 0, 2, 0, SINGLE),
    ("1234", 0, 4, 0, NONE),
    (".", 0, 1, 0, NONE),
    ("", 0, 0, 0, NONE),
    ("iPhone", 0, 6, 0, MIXED),
    ("Élise", 0, 5, 0, CAPITALISED),
    ("E\u0301lise", 0, 6, 0, CAPITALISED),  # decomposed accent: the mark has no case
    ("ÉLISE", 0, 5, 0, UPPER),
    ("straße", 0, 6, 0, LOWER),
    ("Dr", 0, 2, None, CAPITALISED),    # word_start None: the token begins its word
    ("x Dr", 2, 4, 2, CAPITALISED),
    ("東京", 0, 2, 0, NONE),             # caseless script
    ("ǅemal", 0, 5, 0, CAPITALISED),    # title-case letter counts as upper
]


@pytest.mark.parametrize("text,start,end,word_start,expected", CASE_TABLE)
def test_case_id_table(text, start, end, word_start, expected):
    assert case_id(text, start, end, word_start) == expected


def test_case_ids_uses_word_starts():
    text = "Seen by McDonald"
    # tokens: seen | by | mc ##don ##ald
    offsets = [(0, 4), (5, 7), (8, 10), (10, 13), (13, 16)]
    word_ids = [0, 1, 2, 2, 2]
    assert case_ids(text, offsets, word_ids) == [CAPITALISED, LOWER, CAPITALISED, MIXED, LOWER]


# -- the pipeline with a fake model -------------------------------------------------------------

import json
import random

from deid_core.ner import pipeline as pl
from deid_core.ner.pipeline import NerModel, finish_json, load_model_json, prepare_json, spans_json
from deid_core.ner.wordpiece import WordPiece
from deid_core.spans import Span

LABELS = ["O", "B-NAME", "I-NAME", "B-LOCATION", "I-LOCATION", "B-HOSPITAL", "I-HOSPITAL",
          "B-ORGANIZATION", "I-ORGANIZATION", "B-AGE", "I-AGE", "B-PROFESSION", "I-PROFESSION"]
WORDS = ["seen", "by", "dr", ".", ",", "and", "the", "patient", "was", "today", "in", "clinic",
         "jose", "nunez", "elodie", "martin", "smith", "reviewed", "notes"]
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
VOCAB_LIST = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS + LETTERS + ["##" + c for c in LETTERS]
VOCAB = "\n".join(VOCAB_LIST) + "\n"
TOKEN = {i: t for i, t in enumerate(VOCAB_LIST)}
CONFIG = {"name": "fake", "labels": LABELS, "max_len": 16, "threshold": 0.7, "case_feature": True,
          "inputs": ["input_ids", "attention_mask", "case_ids"], "output": "logits"}


def fake_model(**over) -> NerModel:
    return NerModel.from_texts(json.dumps({**CONFIG, **over}), VOCAB)


def fake_infer(input_ids, attention_mask, case_ids, extra_pad=0, seed=0):
    """A context-dependent fake model: after "dr" or "dr ." a Capitalised word begins a NAME, and
    Capitalised words right after a name word continue it (continuation pieces follow their word).
    [CLS], [SEP] and padding rows get random logits, which the pipeline must ignore."""
    rng = random.Random(seed)
    out = []
    for ids, mask, cases in zip(input_ids, attention_mask, case_ids):
        rows, words = [], []      # words: first-piece tokens seen so far in this window
        in_name = False
        for j, (tid, m, c) in enumerate(zip(ids, mask, cases)):
            tok = TOKEN[tid]
            if not m or tok in ("[CLS]", "[SEP]"):
                rows.append([rng.uniform(-9, 9) for _ in LABELS])
                continue
            tag = "O"
            if tok.startswith("##"):
                tag = "I-NAME" if in_name else "O"
            else:
                after_dr = words[-1:] == ["dr"] or words[-2:] == ["dr", "."]
                if c == CAPITALISED and (after_dr or in_name):
                    tag = "I-NAME" if in_name else "B-NAME"
                    in_name = True
                else:
                    in_name = False
                words.append(tok)
            row = [0.0] * len(LABELS)
            row[LABELS.index(tag)] = 5.0
            rows.append(row)
        for _ in range(extra_pad):
            rows.append([rng.uniform(-9, 9) for _ in LABELS])
        out.append(rows)
    return out


def triples(text, spans):
    return [(text[s.start:s.end], s.label, s.tier) for s in spans]


SHORT = "Seen by Dr. José Ñúñez today.\r\nThe patient was reviewed by Dr. E\u0301lodie Martin in clinic. "


def test_short_note_spans_map_to_the_original_text():
    m = fake_model()
    spans = m.predict(SHORT, fake_infer)
    assert triples(SHORT, spans) == [("José Ñúñez", "PATIENT", "certain"),
                                     ("E\u0301lodie Martin", "PATIENT", "certain")]
    assert all(s.source.startswith("ner:fake:p=") for s in spans)
    # what must NOT be marked: capitalised words not after "Dr."
    assert not any(SHORT[s.start:s.end] in ("Seen", "The") for s in spans)


def test_windowed_long_note_gives_the_short_notes_spans_at_every_repeat():
    m = fake_model()
    assert len(m.prepare(SHORT).windows) >= 2          # even the short note is windowed (max_len 16)
    long_text = SHORT * 12
    prep = m.prepare(long_text)
    assert len(prep.all_windows) > 20
    assert len(prep.windows) < len(prep.all_windows)    # repeated windows run once
    short_spans = m.predict(SHORT, fake_infer)
    want = [(s.start + k * len(SHORT), s.end + k * len(SHORT), s.label, s.tier)
            for k in range(12) for s in short_spans]
    got = [(s.start, s.end, s.label, s.tier) for s in m.predict(long_text, fake_infer)]
    assert got == want


def test_one_infer_call_per_note_with_every_window():
    m = fake_model()
    calls = []

    def infer(ids, mask, cases):
        calls.append((len(ids), len(ids[0])))
        return fake_infer(ids, mask, cases)

    prep = m.prepare(SHORT * 3)
    m.predict(SHORT * 3, infer)
    assert calls == [(len(prep.windows), 16)]
    assert m.predict("", infer) == [] and len(calls) == 1   # empty note: no model run


def test_padding_is_masked_and_extra_padding_changes_nothing():
    m = fake_model(max_len=40)
    text = SHORT * 6
    prep = m.prepare(text)
    b, t = prep.dims
    assert b == len(prep.windows) >= 2 and t == 40
    for ids, mask, cases, (s, e) in zip(prep.input_ids, prep.attention_mask, prep.case_ids,
                                        prep.windows):
        n = e - s + 2
        assert len(ids) == len(mask) == len(cases) == t
        assert mask == [1] * n + [0] * (t - n)
        assert ids[n:] == [0] * (t - n) and cases[n:] == [0] * (t - n)
        assert ids[0] == 2 and ids[n - 1] == 3 and cases[0] == cases[n - 1] == 0
    base = m.spans(text, prep, fake_infer(prep.input_ids, prep.attention_mask, prep.case_ids))
    # a host that pads every row with 9 more [PAD] positions (mask 0) gets the same spans
    more = [row + [0] * 9 for row in prep.input_ids]
    more_mask = [row + [0] * 9 for row in prep.attention_mask]
    more_case = [row + [0] * 9 for row in prep.case_ids]
    padded = m.spans(text, prep, fake_infer(more, more_mask, more_case, extra_pad=0, seed=3))
    assert base == padded and len(base) == 12
    # a note that fits one window is not padded at all
    one = m.prepare("Seen by Dr. Smith.")
    assert one.dims == (1, len(one.encoding.ids) + 2) and one.attention_mask == [[1] * one.dims[1]]


def test_case_feature_off_gives_zero_case_ids():
    m = fake_model(case_feature=False)
    prep = m.prepare(SHORT)
    assert {v for row in prep.case_ids for v in row} == {0}


def test_threshold_tiers_and_confidence():
    m = fake_model()
    text = "Seen by Dr. Smith today."
    prep = m.prepare(text)

    def infer_with(p_name):
        out = fake_infer(prep.input_ids, prep.attention_mask, prep.case_ids)
        # soften the NAME rows to the wanted probability
        import math
        for rows in out:
            for r in rows:
                if r[1] == 5.0:
                    # logits giving softmax p_name on B-NAME: others 0
                    # B-NAME gets p_name, I-NAME ~0, the 11 others share the rest
                    r[1] = math.log(p_name * (len(LABELS) - 2) / (1 - p_name))
                    r[2] = -60.0
        return out

    hi = m.spans(text, prep, infer_with(0.9))
    lo = m.spans(text, prep, infer_with(0.4))
    assert triples(text, hi) == [("Smith", "PATIENT", "certain")] and hi[0].source == "ner:fake:p=0.90"
    assert triples(text, lo) == [("Smith", "PATIENT", "review")] and lo[0].source == "ner:fake:p=0.40"
    # the threshold is 0.7
    assert triples(text, m.spans(text, prep, infer_with(0.701))) == [("Smith", "PATIENT", "certain")]
    assert triples(text, m.spans(text, prep, infer_with(0.699))) == [("Smith", "PATIENT", "review")]


@pytest.mark.parametrize("bad,err", [
    ({"labels": ["B-NAME", "O"]}, "starting with 'O'"),
    ({"labels": ["O", "B-ALIEN", "I-ALIEN"]}, "no i2b2 label"),
    ({"max_len": 2}, "max_len"),
    ({"threshold": 1.5}, "threshold"),
    ({"floor": -0.1}, "floor"),
    ({"floor": "high"}, "floor"),
])
def test_bad_configs_are_rejected(bad, err):
    with pytest.raises(ValueError, match=err):
        fake_model(**bad)


def test_bad_logits_are_rejected():
    m = fake_model()
    prep = m.prepare(SHORT)
    good = fake_infer(prep.input_ids, prep.attention_mask, prep.case_ids)
    with pytest.raises(ValueError, match="windows"):
        m.spans(SHORT, prep, good[:-1])
    with pytest.raises(ValueError, match="labels"):
        m.spans(SHORT, prep, [[r[:-1] for r in rows] for rows in good])
    with pytest.raises(ValueError, match="another text"):
        m.spans(SHORT + "x", prep, good)
    nan = [[list(r) for r in rows] for rows in good]
    nan[0][1][0] = float("nan")
    with pytest.raises(ValueError, match="NaN"):
        m.spans(SHORT, prep, nan)


# -- the page's JSON route gives the CLI's spans ---------------------------------------------------

@pytest.fixture
def page_model():
    saved = pl._page_model
    info = json.loads(load_model_json(json.dumps(CONFIG), VOCAB))
    assert info["name"] == "fake" and info["inputs"] == CONFIG["inputs"]
    yield fake_model()
    pl._page_model = saved
    pl._prepared_cache.clear()


BLOB_NOTE = ("Seen by Dr. Smith today. " + "0123 4567 / 89 " * 20 + "by Dr. Martin. "
             + "aGVsbG8gd29ybGQhIQ==aGVsbG8gd29y " * 6 + "- - " * 30 + "Dr. Nunez")


@pytest.mark.parametrize("text", [SHORT, SHORT * 5, SHORT * 40, "", "   ", "Dr. Smith", BLOB_NOTE,
                                  "0123 4567 " * 40])
def test_json_route_equals_predict(page_model, text):
    prep = json.loads(prepare_json(text))
    b, t = prep["dims"]
    assert len(prep["input_ids"]) == len(prep["attention_mask"]) == len(prep["case_ids"]) == b * t
    rows = lambda flat, i, j: [flat[k * t:(k + 1) * t] for k in range(i, j)]
    assert [c[0] for c in prep["chunks"]] == list(range(0, b, 64))
    flat = []
    for i, j in prep["chunks"]:        # the page runs each chunk and concatenates the outputs
        logits = fake_infer(rows(prep["input_ids"], i, j), rows(prep["attention_mask"], i, j),
                            rows(prep["case_ids"], i, j))
        flat += [v for win in logits for r in win for v in r]
    got = json.loads(finish_json(text, flat, [b, t, len(LABELS)]))
    want = [s.to_dict() for s in page_model.predict(text, fake_infer)]
    assert got == want
    assert json.loads(spans_json(text, json.dumps(prep), json.dumps(flat), json.dumps([b, t]))) == want
    assert all(Span(**d) for d in got)


def test_json_helpers_report_errors(page_model):
    prep = json.loads(prepare_json(SHORT))
    b, t = prep["dims"]
    assert "error" in json.loads(finish_json(SHORT, [0.0] * 5, [b, t]))
    assert "error" in json.loads(finish_json(SHORT, [0.0] * (b * t * 13), [b + 1, t]))
    assert "error" in json.loads(finish_json(SHORT, "not json", [b, t]))
    assert "error" in json.loads(spans_json(SHORT, json.dumps(prep), [0.0] * (b * t * 13), [b, t + 1]))
    assert "error" in json.loads(prepare_json(None))
    assert "error" in json.loads(load_model_json("{}", VOCAB))


def test_float32_buffer_gives_the_same_spans_as_a_list(page_model):
    """The page hands a Float32Array (a memoryview in Pyodide); the CLI, float32 numbers as a list."""
    from array import array
    text = SHORT * 3
    prep = json.loads(prepare_json(text))
    b, t = prep["dims"]
    rows = lambda flat: [flat[i * t:(i + 1) * t] for i in range(b)]
    logits = fake_infer(rows(prep["input_ids"]), rows(prep["attention_mask"]), rows(prep["case_ids"]))
    f32 = array("f", [v for win in logits for r in win for v in r])
    as_list = json.loads(finish_json(text, f32.tolist(), [b, t]))
    assert json.loads(finish_json(text, memoryview(f32), [b, t])) == as_list
    assert len(as_list) == 6


def test_long_notes_run_in_chunks_of_max_batch_windows():
    m = fake_model(max_batch=5)
    text = SHORT * 12
    prep = m.prepare(text)
    calls = []

    def infer(ids, mask, cases):
        calls.append(len(ids))
        return fake_infer(ids, mask, cases)

    got = m.predict(text, infer)
    b = len(prep.windows)
    assert calls == [5] * (b // 5) + ([b % 5] if b % 5 else [])
    assert got == fake_model().predict(text, fake_infer)
    with pytest.raises(ValueError, match="max_batch"):
        fake_model(max_batch=0)


@pytest.mark.parametrize("text", [
    "\x00\x01Dr.\u200bSmith\ufeff", "Dr. \ud800Smith", "Dr. 東京 Smith", "Dr.\tJOHN O'BRIEN\n\n",
    "Dr. " * 200, "x" * 500, "Dr. Smith" + "\u0301" * 50, "\r\n" * 100,
])
def test_odd_text_gives_spans_inside_the_text(text):
    m = fake_model()
    prep = m.prepare(text)
    spans = m.predict(text, fake_infer)
    assert all(0 <= s.start < s.end <= len(text) for s in spans)
    assert all(len(r) <= m.max_len for r in prep.input_ids)
    assert all(0 <= c < 6 for row in prep.case_ids for c in row)


# -- windows the model is not run on (deid_core.ner.skip) ------------------------------------------

from deid_core.ner.skip import nameable

#: (window text, could hold a name or place). Invented values.
NAMEABLE_TABLE = [
    ("0123 4567 / 89 12.5 -- 03/05/2014", False),                 # digits and punctuation
    ("aGVsbG8gd29ybGQhIQ==aGVsbG8gd29y", False),                  # base64
    ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ", False),      # base64 of a PNG header
    ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB", True),  # "data", "image": words
    ("3f9a0c77e1b24d6c8a5f0e2d9b7c4a1e 9f86d081884c7d659a2feaa0c55ad015", False),  # hex digests
    ("a b c d e f 1 2 3", False),                                  # single letters only
    ("- - - = = = * * *", False),
    ("", False),
    ("0123 4567 Smith 89", True),                                  # a name among digits
    ("seen by dr li", True),                                       # two-letter surname
    ("12/03 Boston 617-555-0142", True),                           # a place among numbers
    ("Ortega-Villanueva-Santamaria", True),                        # long hyphenated surname, no digit
    ("O'Brien", True),
    ("Müller 0123", True),
    ("東京 0123", True),                                            # caseless script
    ("patient:JohnSmith;MRN:0012345", True),                        # glued fields
    ("Parkinson Foley catheter", True),                            # words are kept (the model decides)
]


@pytest.mark.parametrize("text,expected", NAMEABLE_TABLE)
def test_nameable_table(text, expected):
    assert nameable(text) is expected


def test_skipped_windows_change_no_span_and_run_no_model():
    m = fake_model()
    prep = m.prepare(BLOB_NOTE)
    off = fake_model(skip=False)
    # windows jumped over after a skipped one (anchored_windows) are not even listed
    assert len(prep.windows) < len(prep.all_windows) < len(off.prepare(BLOB_NOTE).windows)
    assert -1 in prep.rows
    got = triples(BLOB_NOTE, m.predict(BLOB_NOTE, fake_infer))
    assert got == triples(BLOB_NOTE, off.predict(BLOB_NOTE, fake_infer))
    assert [t for t, _, _ in got] == ["Smith", "Martin", "Nunez"]
    calls = []
    assert m.predict("0123 4567 " * 40, lambda *a: calls.append(a) or fake_infer(*a)) == []
    assert calls == []          # nothing nameable: the model is not run at all


def test_repeated_windows_run_once_with_their_offsets_moved():
    m, off = fake_model(), fake_model(skip=False)
    text = "Seen by Dr. Smith. " * 30
    prep = m.prepare(text)
    assert len(prep.windows) <= 6 < len(prep.all_windows)   # 6 tokens a sentence, stride 7
    spans = m.predict(text, fake_infer)
    assert spans == off.predict(text, fake_infer)
    assert [text[s.start:s.end] for s in spans] == ["Smith"] * 30


def test_skip_changes_no_window_of_the_project_corpus():
    """On every project corpus note the real model's tokenizer gives the same batch with and
    without the skip: no window is skipped or run twice, so the model's spans are the same."""
    from pathlib import Path
    from deid_core.readers import read_corpus
    root = Path(__file__).resolve().parent.parent
    if not (root / "model" / "ner.json").is_file():
        pytest.skip("no model/ner.json")
    m = NerModel.load(root / "model")
    assert m.skip
    for doc in read_corpus(root / "corpus" / "notes.jsonl"):
        prep = m.prepare(doc.text)
        assert prep.rows == tuple(range(len(prep.all_windows))), doc.text[:60]
        assert prep.windows == prep.all_windows
