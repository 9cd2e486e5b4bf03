"""The LOCATION detector's speed helpers give what the slower forms they stand in for give
(invented inputs; no timing is asserted)."""
import pytest

from deid_core.detectors.locations import _TAIL_ENDS
from deid_core.detectors.locations.places import _place_context_word
from deid_core.detectors.locations.text import ADVERBS, PREPOSITIONS, tail_may_end, tail_words

_TEXTS = [
    "Lives in Quillton with her son.",
    "MOVED BACK TO HARTWELL LAST YEAR",
    'NEPHEW ("FROM Quillton") CALLED',
    "seen at the Ostrander clinic",
    "Admitted   \n  to\tOur Lady of Fenwick",
    "x" * 60 + " Quillton",
    "a" * 47 + " Quillton",
    "in" + " " * 50 + "Quillton",
    "    Quillton",
    "visiting Brenmoor; hometown Lisbon",
    "pt within Quillton, sent TO@ Hartwell",
    "(to Brenmoor) ‘from Fenwick",
    "Pt was here. Within Quillton.",
]


def _positions(text):
    return range(len(text) + 1)


@pytest.mark.parametrize("text", _TEXTS)
def test_tail_may_end_is_false_only_where_the_tail_ends_with_none(text):
    # the slow form: split the tail, then test its last word
    for pos in _positions(text):
        tail = tail_words(text, pos)
        if tail and tail[-1].endswith(_TAIL_ENDS):
            assert tail_may_end(text, pos, _TAIL_ENDS), (text, pos)


@pytest.mark.parametrize("text", _TEXTS)
def test_tail_may_end_passes_few_other_positions(text):
    # a cheap test is of use only when it rejects: every word start after a word that ends
    # with none of the ends, on the same line, is rejected
    for pos in _positions(text):
        tail = tail_words(text, pos)
        if tail and not any(w.endswith(_TAIL_ENDS) for w in tail[-1:]):
            assert not tail_may_end(text, pos, _TAIL_ENDS), (text, pos)


def _place_context_word_slow(tail):
    """The list-building form :func:`_place_context_word` replaced."""
    words = tail[:-1] if tail and tail[-1] == "the" else tail
    if not words:
        return ""
    last = words[-1].lstrip("(\"“'‘")
    words = words[:-1] + [last]
    if last in PREPOSITIONS:
        from deid_core.detectors.locations.lexicon import tables
        for w in reversed(words[-4:-1]):
            if w in tables().place_verbs:
                return w
            if w not in ADVERBS:
                break
        return last
    return last if last in ("visiting", "hometown") else ""


@pytest.mark.parametrize("tail", [
    [], ["the"], ["in"], ["in", "the"], ["lives", "in"], ["lives", "back", "in"],
    ["moved", "back", "to", "the"], ["recently", "moved", "originally", "back", "to"],
    ["x", "lives", "up", "back", "from"], ['("from'], ["‘to"], ["visiting"], ["hometown", "the"],
    ["mg", "po"], ["the", "the"], ["lives", "at", "near"], ["born", "of"], ["dose", "of", "the"],
])
def test_place_context_word_as_the_list_form(tail):
    assert _place_context_word(tail) == _place_context_word_slow(tail)
