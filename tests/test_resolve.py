"""The resolver: a table of candidate sets and the final spans they must give."""
import pytest

from deid_core.resolve import resolve
from deid_core.spans import Span

C, R = "certain", "review"

CASES = [
    # (text, candidates, expected final spans as (start, end, label, tier))
    ("John Smith", [Span(0, 4, "PATIENT", C, "a"), Span(5, 10, "PATIENT", C, "b")],
     [(0, 10, "PATIENT", C)]),                                   # adjacent, one space: joined
    ("Dr. Anne\nWhitcombe", [Span(4, 8, "DOCTOR", C), Span(9, 18, "DOCTOR", C)],
     [(4, 18, "DOCTOR", C)]),                                    # split over a line break: joined
    ("Anne\n\nWhitcombe", [Span(0, 4, "DOCTOR", C), Span(6, 15, "DOCTOR", C)],
     [(0, 4, "DOCTOR", C), (6, 15, "DOCTOR", C)]),               # blank line between: not joined
    ("Smith, MA 02118", [Span(0, 5, "CITY", C), Span(7, 9, "STATE", C)],
     [(0, 5, "CITY", C), (7, 9, "STATE", C)]),                   # comma between: not joined
    ("03/05/2014", [Span(0, 10, "DATE", C), Span(3, 10, "PHONE", R)],
     [(0, 10, "DATE", C)]),                                      # certain beats overlapping review
    ("abc 555-0199 x12", [Span(4, 12, "PHONE", C), Span(4, 16, "PHONE", C)],
     [(4, 16, "PHONE", C)]),                                     # nested: union
    ("ab 1234567 cd", [Span(3, 10, "IDNUM", R), Span(5, 10, "PHONE", C)],
     [(3, 5, "IDNUM", R), (5, 10, "PHONE", C)]),                 # review touching certain: remainder
    ("Parkinson here", [Span(0, 9, "PATIENT", R)], [(0, 9, "PATIENT", R)]),
    ("x 12345 y", [Span(2, 7, "ZIP", C), Span(2, 7, "MEDICALRECORD", C)],
     [(2, 7, "MEDICALRECORD", C)]),                              # equal length: LABEL_RANK decides
    ("Mercy Hospital", [Span(0, 5, "PATIENT", C), Span(0, 14, "HOSPITAL", C)],
     [(0, 14, "HOSPITAL", C)]),                                  # longest label wins
    ("Ann 3/4", [Span(0, 3, "PATIENT", C), Span(4, 7, "DATE", C)],
     [(0, 3, "PATIENT", C), (4, 7, "DATE", C)]),                 # different categories: not joined
    ("IL 62704", [Span(0, 2, "STATE", C), Span(3, 8, "ZIP", C)],
     [(0, 2, "STATE", C), (3, 8, "ZIP", C)]),                    # different labels: not joined
    ("Ann Lee", [Span(0, 3, "PATIENT", C), Span(4, 7, "DOCTOR", R)],
     [(0, 3, "PATIENT", C), (4, 7, "DOCTOR", R)]),               # different tiers: not joined
    ("", [], []),
]


#: Issue 22 item 1: a certain span inside or across a review candidate keeps the rest of the
#: candidate as review (so accepting every amber candidate masks every part of a name), trimmed
#: of spaces and punctuation; what is left with no letter or digit, or one character that is no
#: initial of a name (the s of 's, a digit), is dropped.
REMAINDER_CASES = [
    ("SMITH, JOHN MRN", [Span(0, 11, "PATIENT", R, "names:last_first"), Span(7, 11, "PATIENT", C)],
     [(0, 5, "PATIENT", R), (7, 11, "PATIENT", C)]),             # surname of LAST, FIRST kept
    ("Dr. Anne B. Whitcombe", [Span(4, 21, "DOCTOR", R), Span(4, 8, "DOCTOR", C),
                               Span(12, 21, "DOCTOR", C)],
     [(4, 8, "DOCTOR", C), (9, 10, "DOCTOR", R), (12, 21, "DOCTOR", C)]),   # the initial between
    ("Mercy West Hospital ER", [Span(0, 22, "HOSPITAL", R), Span(0, 19, "HOSPITAL", C)],
     [(0, 19, "HOSPITAL", C), (20, 22, "HOSPITAL", R)]),         # the tail after a certain head
    ("lives at 12 Elm St, Salem", [Span(9, 25, "STREET", R), Span(20, 25, "CITY", C)],
     [(9, 18, "STREET", R), (20, 25, "CITY", C)]),               # other label: its own remainder
    ("03/05/2014", [Span(0, 10, "DATE", C), Span(3, 10, "PHONE", R)],
     [(0, 10, "DATE", C)]),                                      # covered whole: nothing left
    ("(617) 555-0142", [Span(0, 14, "PHONE", R), Span(1, 14, "PHONE", C)],
     [(1, 14, "PHONE", C)]),                                     # only "(" left: dropped
    ("Dr. Ames's clinic", [Span(4, 10, "HOSPITAL", R), Span(4, 8, "DOCTOR", C)],
     [(4, 8, "DOCTOR", C)]),                                     # the s of 's: dropped
    ("Osler 4 at 1900", [Span(0, 7, "DEPARTMENT", R), Span(0, 5, "DEPARTMENT", C)],
     [(0, 5, "DEPARTMENT", C)]),                                 # one digit: no initial, dropped
    ("555-0142N", [Span(0, 9, "IDNUM", R), Span(0, 8, "PHONE", C)],
     [(0, 8, "PHONE", C)]),                                      # a letter glued to a number
    ("Parkinson disease, seen 3/4", [Span(0, 9, "PATIENT", R), Span(24, 27, "DATE", C)],
     [(0, 9, "PATIENT", R), (24, 27, "DATE", C)]),               # untouched review: unchanged
]


#: Issue 22 item 3: two person-name spans of one tier are joined over name particles between
#: them, so the whole name is one span (one tag, one fake); other gaps and labels are not.
PARTICLE_CASES = [
    ("Seen Mr. de la Cruz today.", [Span(9, 11, "PATIENT", C), Span(15, 19, "PATIENT", C)],
     [(9, 19, "PATIENT", C)]),                                   # de + la + Cruz
    ("Dr. Aoife de los Santos", [Span(4, 9, "DOCTOR", C), Span(17, 23, "PATIENT", C)],
     [(4, 23, "PATIENT", C)]),                                   # either person label: joined
    ("JAN VAN DER BERG", [Span(0, 3, "PATIENT", R), Span(12, 16, "PATIENT", R)],
     [(0, 16, "PATIENT", R)]),                                   # capitals, review with review
    ("Smith and Jones", [Span(0, 5, "PATIENT", C), Span(10, 15, "PATIENT", C)],
     [(0, 5, "PATIENT", C), (10, 15, "PATIENT", C)]),            # not a particle: two people
    ("Ann de Lee", [Span(0, 3, "PATIENT", C), Span(7, 10, "PATIENT", R)],
     [(0, 3, "PATIENT", C), (7, 10, "PATIENT", R)]),             # different tiers: not joined
    ("Salem de Paris", [Span(0, 5, "CITY", C), Span(9, 14, "CITY", C)],
     [(0, 5, "CITY", C), (9, 14, "CITY", C)]),                   # places are not joined so
    ("Ann de\nLee", [Span(0, 3, "PATIENT", C), Span(7, 10, "PATIENT", C)],
     [(0, 3, "PATIENT", C), (7, 10, "PATIENT", C)]),             # a line break in the gap
]


def test_remainder_between_many_certain_spans_is_made_once():
    """A gap between two certain spans inside many review candidates gives one piece (the
    longest candidate's label): the work stays O(n log n) for n candidates."""
    n = 2_000
    text = "Ann B " * n
    cands = [Span(6 * i, 6 * i + 3, "PATIENT", C) for i in range(n)]
    cands += [Span(0, len(text) - 1, "DOCTOR", R)] * 50 + [Span(0, 11, "PATIENT", R)]
    got = resolve(cands, text)
    pieces = [(s.start, s.end, s.label) for s in got if s.tier == R]
    # the short candidate's own right end (" B" at 10) ties with the long one's piece: the
    # label ranked first (PATIENT) wins, as for any two review candidates of equal length
    assert pieces == ([(4, 5, "DOCTOR"), (10, 11, "PATIENT")]
                      + [(6 * i + 4, 6 * i + 5, "DOCTOR") for i in range(2, n)])


@pytest.mark.parametrize("text,candidates,expected", CASES + REMAINDER_CASES + PARTICLE_CASES)
def test_resolve_table(text, candidates, expected):
    got = resolve(candidates, text)
    assert [(s.start, s.end, s.label, s.tier) for s in got] == expected


def test_sources_of_merged_parts_are_kept():
    got = resolve([Span(0, 4, "PATIENT", C, "names:given"), Span(5, 10, "PATIENT", C, "names:surname")],
                  "John Smith")
    assert got[0].source == "names:given + names:surname"


def test_order_of_candidates_does_not_matter():
    text = "Seen 03/05/2014 by Dr. Ann Lee at 617-555-0199"
    cands = [Span(5, 15, "DATE"), Span(23, 26, "DOCTOR"), Span(27, 30, "DOCTOR"),
             Span(34, 46, "PHONE"), Span(38, 46, "PHONE", R), Span(23, 30, "PATIENT", R)]
    assert resolve(cands, text) == resolve(list(reversed(cands)), text)


def test_candidate_past_end_is_an_error():
    with pytest.raises(ValueError, match="past the text"):
        resolve([Span(0, 9, "DATE")], "short")


@pytest.mark.parametrize("kwargs,message", [
    ({"start": 3, "end": 3, "label": "DATE"}, "start < end"),
    ({"start": -1, "end": 3, "label": "DATE"}, "start < end"),
    ({"start": 0, "end": 3, "label": "NAME"}, "unknown label"),
    ({"start": 0, "end": 3, "label": "DATE", "tier": "maybe"}, "unknown tier"),
])
def test_span_rejects_bad_values(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Span(**kwargs)


@pytest.mark.parametrize("sources", [("a", "b"), ("a",), tuple(f"s{i}" for i in range(20))])
def test_joining_many_adjacent_spans_keeps_the_source_bounded(sources):
    """Issue 11 item 5: ``"MRN " * N`` joined N spans and rebuilt a growing source (quadratic).
    Now each run is merged once and a source lists at most MAX_SOURCE_PARTS distinct parts."""
    from deid_core.resolve import MAX_SOURCE_PARTS
    n = 20_000
    text = "MRN " * n
    cands = [Span(4 * i, 4 * i + 3, "PATIENT", C, sources[i % len(sources)]) for i in range(n)]
    got = resolve(cands, text)
    assert [(s.start, s.end) for s in got] == [(0, len(text) - 1)]
    parts = got[0].source.split(" + ")
    assert parts == list(sources[:MAX_SOURCE_PARTS])
    assert len(got[0].source) <= MAX_SOURCE_PARTS * (max(map(len, sources)) + 3)


def test_merged_sources_of_nested_merges_are_not_repeated():
    text = "Ann Bea Cid"
    cands = [Span(0, 3, "PATIENT", C, "x + y"), Span(4, 7, "PATIENT", C, "y"), Span(8, 11, "PATIENT", C, "x")]
    assert resolve(cands, text)[0].source == "x + y"
