"""The LOCATION detector's speed helpers give what the slower forms they stand in for give
(invented inputs; no timing is asserted)."""
import pytest

from deid_core.detectors.locations import _TAIL_ENDS
from deid_core.detectors.locations.places import _place_context_word
from deid_core.detectors.locations.text import ADVERBS, PREPOSITIONS, tail_may_end, tail_words
from deid_core.document import Document

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


def test_low_exact_premise_holds_for_every_code_point():
    # Note.low_exact: where no character lowers to two and none of _CASE_FOLDS is there, a
    # character and its lower-case form are both in [\w'’/-] or both out, and only an ASCII
    # letter lowers to one (so (?i) ASCII letters match text where plain ones match low)
    import re
    import sys

    from deid_core.detectors.locations.text import _CASE_FOLDS
    word, letter = re.compile(r"[\w'’/-]"), re.compile(r"(?i)[a-z]")
    bad = []
    for cp in range(sys.maxunicode + 1):
        c = chr(cp)
        low = c.lower()
        if len(low) != 1 or c in _CASE_FOLDS:
            continue
        if (word.match(c) is None) != (word.match(low) is None) \
                or (letter.match(c) is not None) != ("a" <= low <= "z") \
                or ("a" <= low <= "z" and not c.isascii()):
            bad.append(hex(cp))
    assert bad == []


_CONTEXT_TEXTS = [
    "TRANSFERRED TO HARTWELL 4 FROM ER",
    "to the Quillton clinic; sent to the ICU",
    "Sent to to Hartwell, at\tat  the our Fenwick",
    "xfer:  to  Brenmoor. D/C'd to Our Lady",
    "f/u with Dr Quill; w/u by BVMC, @ Hartwell",
    "\u00e9to Quillton, _to X, -to Y, /to Z, ’to W, 'to V",
    "Arrived from Brenmoor at 5; went to 5 West; came in. to",
    "Admitted\nto\nHartwell",
    "pt moved to caf\u00e9 Brenmoor at Σ to Quillton",
    "sent to \u0130stanbul by K\u212aelvin, to \u017fomewhere",   # folds: the slow path
    "to",
    "",
    "IN  THE  Fenwick; PER THE Hartwell; by our Brenmoor",
]


@pytest.mark.parametrize("text", _CONTEXT_TEXTS + [t.upper() for t in _CONTEXT_TEXTS]
                         + [t.lower() for t in _CONTEXT_TEXTS])
def test_contexts_as_the_one_regex_form(text):
    from deid_core.detectors.locations.terse import _vocab, contexts
    from deid_core.detectors.locations.text import scan_note
    slow = [(m.end(), m.group()) for m in _vocab()[3].finditer(text)]
    assert contexts(scan_note(Document(text))) == slow


_ZIP_TEXTS = [
    "Lives in Quillton 05401 with son; Brenmoor  05401-1234, Fenwick\t12345x",
    "mrn 1234567 zip 12345 Hartwell 123456 Ostrander 12345-12345 Quill 12345-",
    "   12345 at start; a 12345 b12345 c,12345 d \t 54321",
    "Fenwick 98765\nBrenmoor 11111 22222 Quill 33333",
    "\u00c9cole 12345 caf\u00e9 23456 Stra\u00dfe 34567 \u0661\u0662\u0663\u0664\u0665",
    "",
]


@pytest.mark.parametrize("text", _ZIP_TEXTS + [t.upper() for t in _ZIP_TEXTS])
def test_zips_after_word_as_finditer(text):
    from deid_core.detectors.locations.addresses import _ZIP_AFTER_WORD_RE, _zips_after_word
    assert [m.span() for m in _zips_after_word(text)] == \
        [m.span() for m in _ZIP_AFTER_WORD_RE.finditer(text)]


_ROOM_TEXTS = [
    "Hartwell 5 West rm 12", "Blackwood 9 , room 4", "12B bed 3", "5 NORTH,\tBED 2",
    "pt warm, form signed; in bed", "bedside commode, room air", "4 Room", "9 rmx", "West Bed",
    "5 west bed", "Ostrander 7, , room 2", "\u0663 bed 2", "ROOM 9 BED 4", "caf\u00e9 5 rm 3",
]


@pytest.mark.parametrize("text", _ROOM_TEXTS + [t.upper() for t in _ROOM_TEXTS])
def test_number_before_room_is_false_only_without_a_match(text):
    from deid_core.detectors.locations.text import scan_note
    from deid_core.detectors.locations.units import _DEPT_BEFORE_ROOM_RE, number_before_room
    if _DEPT_BEFORE_ROOM_RE.search(text):
        assert number_before_room(scan_note(Document(text)))


@pytest.mark.parametrize("text", ["pt warm, form signed; in bed", "return to clinic", "bedside"])
def test_number_before_room_rejects_a_room_word_after_no_number(text):
    from deid_core.detectors.locations.text import scan_note
    from deid_core.detectors.locations.units import number_before_room
    assert not number_before_room(scan_note(Document(text)))


@pytest.mark.parametrize("word", ["Boston", "St.", "St. Louis", "Ft", "Quillton", "The", "ICU",
                                  "O’Neill", "Mt.Hood", "Zzyzx", "BOSTON"])
def test_may_start_place_as_the_first_test_of_lookup_place(word):
    from deid_core.detectors.locations.lexicon import may_start_place, tables
    from deid_core.detectors.locations.text import place_key
    assert may_start_place(word) == (place_key(word).split(" ", 1)[0] in tables().place_first)
