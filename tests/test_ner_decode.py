"""Windowing (deid_core.ner.windows) and decoding (deid_core.ner.decode), with hand-made
probability tables: no model and no downloaded vocabulary needed."""
from __future__ import annotations

import math

import pytest

from deid_core.ner import (WordPiece, decode, merge, owner_windows, parse_labels,
                           rows_from_flat, softmax, softmax_rows, windows)
from deid_core.spans import Span

VOCAB = "\n".join([
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",
    "seen", "by", "dr", ".", "john", "smith", "mary", "jones", "and", "in", "boston",
    "today", "o", "'", "brien", "pat", "##ient", "##s", "jose", "came", ",", "glasgow",
    "coma", "scale", "15", "is", "aged", "67", "-", "reyes", "ok", "##af", "##or", "filler",
]) + "\n"
WP = WordPiece.from_vocab_text(VOCAB)

LABELS = ["O", "B-NAME", "I-NAME", "B-LOCATION", "I-LOCATION", "B-AGE", "I-AGE"]


def row(tag: str, p: float = 0.9) -> list[float]:
    """A probability row: ``p`` on ``tag``, the rest shared equally by the other labels."""
    rest = (1.0 - p) / (len(LABELS) - 1)
    return [p if lab == tag else rest for lab in LABELS]


def rows_for(text: str, tags: list) -> tuple:
    """Encode ``text``; ``tags`` gives one entry per TOKEN: a tag name or a ready row."""
    enc = WP.encode(text)
    assert len(tags) == len(enc), (enc.tokens, tags)
    return enc, [row(t) if isinstance(t, str) else t for t in tags]


def spans_of(text: str, tags: list, **kw) -> list[tuple]:
    enc, probs = rows_for(text, tags)
    kw.setdefault("threshold", 0.8)
    return [(s.start, s.end, s.label, s.tier) for s in decode(text, enc, probs, LABELS, **kw)]


# (text, per-token tags, expected (start, end, label, tier)) -- includes what must NOT be
# masked and what must NOT be merged.
CASES = [
    ("seen by john smith today", ["O", "O", "B-NAME", "I-NAME", "O"],
     [(8, 18, "PATIENT", "certain")]),
    # must not merge: B B of the same type are two names
    ("john smith mary jones", ["B-NAME", "I-NAME", "B-NAME", "I-NAME"],
     [(0, 10, "PATIENT", "certain"), (11, 21, "PATIENT", "certain")]),
    # must not merge: a different type after a name starts a new span (I- without B- starts one)
    ("smith boston", ["B-NAME", "I-LOCATION"],
     [(0, 5, "PATIENT", "certain"), (6, 12, "LOCATION-OTHER", "certain")]),
    # must not merge across an O word
    ("john and smith", ["B-NAME", "O", "I-NAME"],
     [(0, 4, "PATIENT", "certain"), (9, 14, "PATIENT", "certain")]),
    # I- at the very start opens a span
    ("smith came", ["I-NAME", "O"], [(0, 5, "PATIENT", "certain")]),
    # punctuation inside a name is joined by I- tags
    ("o'brien came", ["B-NAME", "I-NAME", "I-NAME", "O"], [(0, 7, "PATIENT", "certain")]),
    ("okafor-reyes", ["B-NAME", "I-NAME", "I-NAME", "I-NAME", "I-NAME"],
     [(0, 12, "PATIENT", "certain")]),
    # sub-tokens follow their word's FIRST token (aggregation="first")
    ("patients came", ["B-NAME", "O", "O", "O"], [(0, 8, "PATIENT", "certain")]),
    ("aged 67 in boston", ["O", "B-AGE", "O", "B-LOCATION"],
     [(5, 7, "AGE", "certain"), (11, 17, "LOCATION-OTHER", "certain")]),
    # must not mask: clinical words tagged O, even with some entity probability
    ("glasgow coma scale 15", [[0.55, 0.0, 0.0, 0.25, 0.2, 0.0, 0.0], "O", "O", "O"], []),
    ("seen by dr. smith", ["O", "O", "O", "O", [0.51, 0.25, 0.24, 0.0, 0.0, 0.0, 0.0]], []),
    # B/I mass together beats O: 0.3 + 0.3 > 0.4 -> a NAME word with confidence 0.6 -> review
    ("smith came", [[0.4, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0], "O"], [(0, 5, "PATIENT", "review")]),
    # a word whose I- mass exceeds B- continues the open span of the same type
    ("john smith", ["B-NAME", [0.05, 0.4, 0.55, 0.0, 0.0, 0.0, 0.0]],
     [(0, 10, "PATIENT", "certain")]),
    # ... but a B- heavy word does not
    ("john smith", ["B-NAME", [0.05, 0.55, 0.4, 0.0, 0.0, 0.0, 0.0]],
     [(0, 4, "PATIENT", "certain"), (5, 10, "PATIENT", "certain")]),
    ("", [], []),
]


@pytest.mark.parametrize("text,tags,expected", CASES)
def test_decode_table(text: str, tags: list, expected: list) -> None:
    assert spans_of(text, tags) == expected


def test_average_aggregation_differs_from_first() -> None:
    text, tags = "patients came", ["B-NAME", "O", "O", "O"]
    assert spans_of(text, tags, aggregation="first") == [(0, 8, "PATIENT", "certain")]
    assert spans_of(text, tags, aggregation="average") == []       # 2 of 3 pieces say O
    tags = ["B-NAME", "I-NAME", "I-NAME", "O"]
    enc, probs = rows_for(text, tags)
    (span,) = decode(text, enc, probs, LABELS, aggregation="average")
    assert (span.start, span.end) == (0, 8)
    assert span.source == "ner:ner:p=0.92"        # B+I mass of each piece: 0.9 + 0.1 / 6


def test_confidence_min_mean_threshold_and_source() -> None:
    text = "john smith"
    probs_tags = ["B-NAME", [0.35, 0.05, 0.6, 0.0, 0.0, 0.0, 0.0]]   # word 2: mass 0.65
    enc, probs = rows_for(text, probs_tags)
    (lo,) = decode(text, enc, probs, LABELS, threshold=0.7, model_name="minilm")
    assert lo == Span(0, 10, "PATIENT", "review", "ner:minilm:p=0.65")
    (mean,) = decode(text, enc, probs, LABELS, threshold=0.7, confidence="mean", model_name="m")
    assert mean.tier == "certain" and mean.source == "ner:m:p=0.78"  # (0.9 + 0.65) / 2
    # at exactly the threshold: certain
    (eq,) = decode(text, enc, probs, LABELS, threshold=0.65, model_name="m")
    assert eq.tier == "certain"


@pytest.mark.parametrize("floor,kept", [(0.0, True), (0.65, True), (0.66, False), (0.95, False)])
def test_floor_drops_spans_below_it(floor, kept) -> None:
    text = "john smith"
    enc, probs = rows_for(text, ["B-NAME", [0.35, 0.05, 0.6, 0.0, 0.0, 0.0, 0.0]])  # p = 0.65
    got = decode(text, enc, probs, LABELS, threshold=0.7, floor=floor)
    assert [(s.start, s.end) for s in got] == ([(0, 10)] if kept else [])


def test_label_map() -> None:
    text = "john smith in boston"
    tags = ["B-NAME", "I-NAME", "O", "B-LOCATION"]
    enc, probs = rows_for(text, tags)
    got = decode(text, enc, probs, LABELS, label_map={"NAME": "DOCTOR", "LOCATION": "CITY",
                                                       "AGE": None})
    assert [(s.start, s.end, s.label) for s in got] == [(0, 10, "DOCTOR"), (14, 20, "CITY")]
    got = decode(text, enc, probs, LABELS, label_map={"NAME": None, "LOCATION": "CITY",
                                                       "AGE": "AGE"})
    assert [(s.start, s.end, s.label) for s in got] == [(14, 20, "CITY")]
    with pytest.raises(ValueError, match="AGE"):
        decode(text, enc, probs, LABELS, label_map={"NAME": "DOCTOR", "LOCATION": "CITY"})
    with pytest.raises(ValueError, match="not an i2b2 subtype"):
        decode(text, enc, probs, LABELS, label_map={"NAME": "PERSON", "LOCATION": "CITY",
                                                     "AGE": "AGE"})


def test_span_widened_over_trailing_combining_mark() -> None:
    text = "jose\u0301 came"
    enc, probs = rows_for(text, ["B-NAME", "O"])
    assert enc.offsets[0] == (0, 4)
    (span,) = decode(text, enc, probs, LABELS)
    assert (span.start, span.end) == (0, 5)
    text = "jose\u200b came"                                     # zero-width space too
    enc, probs = rows_for(text, ["B-NAME", "O"])
    assert [(s.start, s.end) for s in decode(text, enc, probs, LABELS)] == [(0, 5)]


def test_io_labels_and_no_o_label() -> None:
    types, index, o = parse_labels(["O", "NAME", "B-AGE", "I-AGE"])
    assert types == ["NAME", "AGE"] and index == {"NAME": (None, 1), "AGE": (2, 3)} and o == 0
    text = "john smith came"
    enc = WP.encode(text)
    io = ["O", "NAME"]
    probs = [[0.1, 0.9], [0.2, 0.8], [0.9, 0.1]]
    # IO scheme: consecutive NAME words join (they are all "I")
    assert [(s.start, s.end) for s in decode(text, enc, probs, io)] == [(0, 10)]


@pytest.mark.parametrize("labels", [[], ["O", "O"], ["O", "B-"]])
def test_bad_label_lists(labels: list) -> None:
    with pytest.raises(ValueError):
        parse_labels(labels)


def test_decode_rejects_mismatches() -> None:
    text = "john smith"
    enc, probs = rows_for(text, ["B-NAME", "I-NAME"])
    with pytest.raises(ValueError, match="rows"):
        decode(text, enc, probs[:1], LABELS)
    with pytest.raises(ValueError, match="values"):
        decode(text, enc, [probs[0], probs[1][:-1]], LABELS)
    with pytest.raises(ValueError, match="past the end"):
        decode("john", enc, probs, LABELS)
    with pytest.raises(ValueError, match="aggregation"):
        decode(text, enc, probs, LABELS, aggregation="max")
    with pytest.raises(ValueError, match="confidence"):
        decode(text, enc, probs, LABELS, confidence="max")


def test_softmax_and_flat_rows() -> None:
    p = softmax([0.0, math.log(3.0)])
    assert p == pytest.approx([0.25, 0.75])
    assert softmax([1000.0, 1000.0]) == pytest.approx([0.5, 0.5])   # no overflow
    a, b = softmax_rows([[0.0, 0.0], [0.0, math.log(4.0)]])
    assert a == pytest.approx([0.5, 0.5]) and b == pytest.approx([0.2, 0.8])
    assert rows_from_flat([1, 2, 3, 4, 5, 6], 3) == [[1, 2, 3], [4, 5, 6]]
    with pytest.raises(ValueError):
        rows_from_flat([1, 2, 3], 2)
    with pytest.raises(ValueError):
        softmax([])


# ---------------------------------------------------------------------------------------------
# Windows.

@pytest.mark.parametrize("n,max_len,stride,expected", [
    (0, 128, None, []),
    (5, 128, None, [(0, 5)]),
    (126, 128, None, [(0, 126)]),
    (127, 128, None, [(0, 126), (1, 127)]),
    (300, 128, None, [(0, 126), (63, 189), (126, 252), (174, 300)]),
    (10, 6, 2, [(0, 4), (2, 6), (4, 8), (6, 10)]),
    (11, 6, 4, [(0, 4), (4, 8), (7, 11)]),
    (9, 6, 4, [(0, 4), (4, 8), (5, 9)]),
    (3, 3, None, [(0, 1), (1, 2), (2, 3)]),
])
def test_windows_table(n: int, max_len: int, stride, expected: list) -> None:
    assert windows(n, max_len, stride) == expected


@pytest.mark.parametrize("n", [1, 50, 126, 127, 200, 251, 252, 253, 1000, 4097])
@pytest.mark.parametrize("max_len,stride", [(128, None), (128, 100), (128, 126), (16, 3), (512, None)])
def test_windows_cover_and_fit(n: int, max_len: int, stride) -> None:
    wins = windows(n, max_len, stride)
    size = max_len - 2
    covered = set()
    for s, e in wins:
        assert 0 <= s < e <= n and e - s <= size
        assert e - s == min(size, n)                         # full windows whenever possible
        covered.update(range(s, e))
    assert covered == set(range(n))
    starts = [s for s, _ in wins]
    assert starts == sorted(set(starts))
    owners = owner_windows(n, wins)
    assert len(owners) == n and all(wins[k][0] <= t < wins[k][1] for t, k in enumerate(owners))


@pytest.mark.parametrize("args", [(-1,), (10, 2), (10, 128, 0), (10, 128, 127)])
def test_windows_bad_arguments(args: tuple) -> None:
    with pytest.raises(ValueError):
        windows(*args)


def test_owner_rule_prefers_most_context() -> None:
    wins = windows(300)                      # [(0,126), (63,189), (126,252), (174,300)]
    owners = owner_windows(300, wins)
    assert owners[0] == 0 and owners[62] == 0          # only window 0 has them
    assert owners[94] == 0                 # w0: 31 from right (note start is no edge); w1: 31: tie
    assert owners[100] == 1                            # w0: 25 from right edge; w1: 37 from left
    assert owners[125] == 1                            # w0: 0 from right edge; w1: 62
    assert owners[157] == 1                            # w1: 31 from right; w2: 31 from left: tie
    assert owners[158] == 2                            # w1: 30; w2: 32
    assert owners[200] == 2                            # w2: 51 from right; w3: 26 from left
    assert owners[220] == 3 and owners[299] == 3       # w2: 31; w3: 46 (note end is no edge)


def test_owner_ties_go_to_earlier_window() -> None:
    # windows (0,4) and (2,6) of 6 tokens: token 3 is 0 from w0's right edge, 1 from w1's left
    assert owner_windows(6, [(0, 4), (2, 6)]) == [0, 0, 0, 1, 1, 1]
    # windows (1,5) and (2,6) of 8 tokens: token 3 is 1 from both edges in both -> earlier
    assert owner_windows(8, [(0, 4), (1, 5), (2, 6), (4, 8)])[3] == 1
    with pytest.raises(ValueError, match="no window"):
        owner_windows(5, [(0, 2), (3, 5)])


def test_merge_takes_whole_rows_from_owner() -> None:
    n = 10
    wins = windows(n, 6, 2)                            # [(0,4),(2,6),(4,8),(6,10)]
    rows = [[[k, t] for t in range(s, e)] for k, (s, e) in enumerate(wins)]
    merged = merge(n, wins, rows)
    assert [r[1] for r in merged] == list(range(n))
    assert [r[0] for r in merged] == owner_windows(n, wins)
    # the model's full output with [CLS]/[SEP] rows is accepted and those rows dropped
    full = [[[-1, -1]] + r + [[-2, -2]] for r in rows]
    assert merge(n, wins, full) == merged
    with pytest.raises(ValueError, match="rows"):
        merge(n, wins, [r[:-1] for r in rows])
    with pytest.raises(ValueError, match="windows"):
        merge(n, wins, rows[:-1])


def test_end_to_end_name_on_a_window_edge() -> None:
    """A fake model that cannot see names within 8 tokens of a window edge (no context there)
    still finds every name once windows are merged by the most-context rule."""
    words = ["filler"] * 400
    name_at = [0, 60, 123, 125, 126, 130, 250, 399]
    for i in name_at:
        words[i] = "smith"
    text = " ".join(words)
    enc = WP.encode(text)
    assert len(enc) == 400
    wins = windows(len(enc), 32)                       # 30 tokens a window, stride 15

    def fake_model(ids: list[int], s: int, e: int) -> list[list[float]]:
        out = [row("O")]                                # [CLS]
        for j, tid in enumerate(ids[1:-1]):
            t = s + j
            blind = (s > 0 and j < 8) or (e < len(enc) and (e - s - 1 - j) < 8)
            out.append(row("B-NAME") if WP.vocab["smith"] == tid and not blind else row("O"))
        out.append(row("O"))                            # [SEP]
        return out

    outputs = [fake_model(WP.with_special(enc.ids[s:e]), s, e) for s, e in wins]
    probs = merge(len(enc), wins, outputs)
    got = decode(text, enc, probs, LABELS)
    starts = [sum(len(w) + 1 for w in words[:i]) for i in name_at]
    assert [(s.start, s.end) for s in got] == [(c, c + 5) for c in starts]
    # while a naive "last window wins" merge misses some of them
    naive = [None] * len(enc)
    for (s, e), out in zip(wins, outputs):
        for j in range(s, e):
            naive[j] = out[j - s + 1]
    assert len(decode(text, enc, naive, LABELS)) < len(name_at)
