"""The name rules' speed helpers give what the slower forms they replace give, on invented
inputs (no timing here: tests/test_names.py checks what the rules find)."""
from __future__ import annotations

import pytest

from deid_core.detectors.names import Scan, lexicon
from deid_core.detectors.names import words as W
from deid_core.detectors.names.lexicon import CUE
from deid_core.detectors.names.scan import indices_of
from deid_core.detectors.names.signatures import after_slash_or_dash
from deid_core.document import INI, Document


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
