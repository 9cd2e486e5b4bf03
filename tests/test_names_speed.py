"""The name rules' speed helpers give what the slower forms they replace give, on invented
inputs (no timing here: tests/test_names.py checks what the rules find)."""
from __future__ import annotations

import pytest

from deid_core.detectors.names import Scan, lexicon
from deid_core.detectors.names import words as W
from deid_core.detectors.names.lexicon import CUE
from deid_core.detectors.names import case as S
from deid_core.detectors.names.lexicon import LBL, REL, TITLE
from deid_core.detectors.names.case import lower_segments, one_letter_indices
from deid_core.detectors.names.scan import indices_of
from deid_core.detectors.names.signatures import after_slash_or_dash
from deid_core.document import CAP, INI, LOW, OTHER, UP, Document


def scan(text: str) -> Scan:
    return Scan(Document(text), lexicon())


@pytest.mark.parametrize("seq,value", [
    ([], 3), ([3], 3), ([1, 3, 3, 0, 3], 3), ([1, 2, 4], 3), ([0, 0], 0),
    (["dr", "okafor", "dr", "x"], "dr"), (["a", "b"], "c"),
])
def test_indices_of_is_the_comprehension(seq, value):
    assert indices_of(seq, value) == [i for i, x in enumerate(seq) if x == value]


def test_indices_of_finds_the_initials_of_a_note():
    sc = scan("J. Smith and Dr K Varga saw the patient. I agree. -- MT")
    assert indices_of(sc.shape, INI) == [k for k, s in enumerate(sc.shape) if s == INI] != []


def _after_slash_or_dash_slow(sc: Scan) -> set[int]:
    """The form replaced: per token, the nearest character before it that is no space or tab."""
    out = set()
    for i, tok in enumerate(sc.toks):
        before = sc.text[:tok.start].rstrip(" \t")
        if before and before[-1] in "/-–—":
            out.add(i)
    return out


@pytest.mark.parametrize("text", [
    "", "no slash here", "-- JS", "—JS", "–\tjs", "/js", "AB/cd", "ads/mo\n", "x-ray and follow-up",
    "Gideon Ashdown-Reyes, MD /gar", "/JTW James T. Wolcott-Mbeki, MD", "bp 120/80 - stable",
    "K 3.1 -  \t KV\nnext line -\nAB", "O'-Brien", "a - b / c — d – e", "- leading dash", "ends with /",
    "__-JS", "x_/y", "12-14 mg/dL", "Pia Lund -- ✓ mo", "ñ-ñ /ñ",
])
def test_after_slash_or_dash_is_the_per_token_test(text):
    sc = scan(text)
    assert after_slash_or_dash(sc) == _after_slash_or_dash_slow(sc)


@pytest.mark.parametrize("word", sorted(W.RELATION_PHRASE_ENDS | W.INITIALS_LABELS | W.SIGN_OFFS)
                         + [f"{w}-okafor" for w in sorted(W.SIGN_OFFS)]
                         + ["ph", "smith", "dr", "wife", "catheter", "i'm", "okafor-thx", "the", "-"])
def test_cue_flag_marks_the_words_a_context_rule_starts_at(word):
    expected = (word in W.RELATION_PHRASE_ENDS or word in W.INITIALS_LABELS or word == "ph"
                or (word.partition("-")[0] if "-" in word else word) in W.SIGN_OFFS)
    assert bool(lexicon().flags(word) & CUE) == expected


def _lower_segments_reference(sc: Scan) -> bytearray:
    """The form :func:`.case.lower_segments` replaced (lists of token indices per sentence and
    a Python loop per test), on the shapes before initials are marked."""
    n, shape, toks, text = sc.n, sc.shape, sc.toks, sc.text
    out = bytearray(n)
    if n == 0:
        return out
    # split into lines, and each line into sentences: lists of token indices
    sent = [0]            # the sentence being read, and its line
    line = [sent]
    lines: list[list[list[int]]] = [line]
    glued = bytearray(n)   # part of an e-mail address, a URL or a path: not prose
    fl = sc.fl
    prev_end = toks[0].end
    for k in range(1, n):
        start, end, _word = toks[k]
        g = text[prev_end:start]
        prev_end = end
        if g == " ":
            sent.append(k)   # the common gap: what the tests below give for it
            continue
        glue, how = S.gap_kind(g)
        if glue:
            glued[k - 1] = glued[k] = 1
        if how == S._NEW_LINE:
            sent = [k]
            line = [sent]
            lines.append(line)
        elif how == S._SPLIT or how == S._SPLIT_UNLESS_LABEL and not fl[k - 1] & (LBL | TITLE | REL):
            sent = [k]   # a heading's colon splits ("Progress Note: pt ..."), a label's not
            line.append(sent)
        else:
            sent.append(k)

    def lowercase(idx: list[int], need: int) -> bool:
        if len(idx) < need:
            return False   # fewer tokens than the lower-case words it needs
        first = next((k for k in idx if shape[k] != OTHER), None)
        if first is None or shape[first] != LOW:
            return False
        lows = ups = 0
        for k in idx:
            s = shape[k]
            if s == CAP:
                return False
            if s == LOW and len(toks[k].word) > 1 and not glued[k]:
                lows += 1
            elif s == UP:
                ups += 1
        return lows >= need and ups * 3 <= lows   # not a row of acronyms and units

    for sents in lines:
        if lowercase(sents[0] if len(sents) == 1 else [k for sent in sents for k in sent], 2):
            for sent in sents:
                for k in sent:
                    out[k] = not glued[k]
            continue
        if len(sents) < 2:
            continue
        flags = [lowercase(sent, 3) for sent in sents]
        if True not in flags:
            continue   # nothing to spread nor to mark
        free = [shape[sent[0]] != CAP if len(sent) == 1 else not any(shape[k] == CAP for k in sent)
                for sent in sents]
        for m in range(1, len(sents)):           # spread to short capital-free neighbours
            if flags[m - 1] and free[m]:
                flags[m] = True
        for m in range(len(sents) - 2, -1, -1):
            if flags[m + 1] and free[m]:
                flags[m] = True
        for sent, f in zip(sents, flags):
            if f:
                for k in sent:
                    out[k] = not glued[k]
    return out


#: Invented notes: mixed case, lower-case lines and sentences, headings, labels, tables, paths.
LOWER_TEXTS = [
    "", "x", "Progress Note 5/6/2025\npt john smith seen by dr jones\nPlan: continue",
    "Wife mary called. dr. jones. She will return. pt ok with plan today",
    "Tech: boosterhuis\nProgress Note: pt ngozi rosenthal seen today, stable",
    "HR 80 BP 120/80\tRR 16   SpO2 98%\nlungs clear bilat, no wheeze; abd soft nt nd",
    "e-mail jsmith@example.org or see /home/a/b.txt later today\nwife called. will return.",
    "a b c d e f g h\nI. J. K. Lmn\ni saw a cat. it ran off fast today.\n2. pt seen by md",
    "NO CAPS? no caps here at all, none. MRI CT ECG EKG ok. ok fine.\r\nnext line here now",
    "Seen w/ wife; she is here. son kwame\ndrives home\n\n   - list item one here\n- Two",
    "dr. uzoma said fine: gave meds. rn. new mepilex placed. Dr Smith: aware; ok.",
    "Ñandú está aquí. josé pérez llamó hoy. ÅSA ok",
    "x" * 300 + " word other words here. yes it is",
]


@pytest.mark.parametrize("text", LOWER_TEXTS + [t.lower() for t in LOWER_TEXTS]
                         + [t.upper() for t in LOWER_TEXTS])
def test_lower_segments_is_the_list_form(text):
    doc = Document(text)
    sc = Scan(doc, lexicon())
    sc.shape = list(doc.cases)   # the shapes lower_segments reads (before initials are marked)
    assert lower_segments(sc.text, sc.toks, sc.shape, sc.fl, one_letter_indices(sc.low)) \
        == _lower_segments_reference(sc)


@pytest.mark.parametrize("words", [[], ["a"], ["ab", "c", "", "d", "efg"], ["x" * 300, "y", "z" * 256],
                                   ["é", "ß", "İ", "ab"]])
def test_one_letter_indices_is_the_comprehension(words):
    assert one_letter_indices(words) == [i for i, w in enumerate(words) if len(w) == 1]
