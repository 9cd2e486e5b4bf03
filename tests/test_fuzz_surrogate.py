"""Fuzz properties of the surrogate writer (issue 11): for generated notes whose identifiers are
marked by hand (names with particles, initials, credentials and relation words; dates in every
supported format; record numbers), no original identifier string and no name part of three or
more letters appears in the output, and the same name gets the same fake everywhere.

The default run uses a small profile (120 examples per property). The full profile, 20,000
examples per property (the CI-sized run; about 10-20 ms of one core per example, some 10 minutes
for both), runs as the ``*_full`` copies, marked ``slow`` (so ``.ci/run`` and
``scripts/test.sh --all``, which run ``-m ""``, run it; ``pytest -m slow -k fuzz`` alone);
``DEID_FUZZ=full`` makes the default copies full too, ``DEID_FUZZ_EXAMPLES=N`` sets the count of
every copy. All names and values are invented.
"""
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from deid_core.analyze import Analysis
from deid_core.spans import Span
from deid_core.surrogate import surrogate

EXAMPLES = int(os.environ.get("DEID_FUZZ_EXAMPLES",
                              20_000 if os.environ.get("DEID_FUZZ") == "full" else 120))
FULL_EXAMPLES = int(os.environ.get("DEID_FUZZ_EXAMPLES", 20_000))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FULL = settings(SETTINGS, max_examples=FULL_EXAMPLES)

GIVEN = ["Mary", "John", "Grace", "Della", "Van", "Al", "Di", "Maria", "Hope", "Tomasz", "Le"]
SURNAMES = ["Smith", "Young", "Rivers", "Johnson", "Le", "Do", "Cruz", "Berg", "Okafor", "Van"]
PARTICLES = ["de la", "van der", "van", "di", "le", "del"]
TITLES = ["Dr.", "Mr.", "Mrs", "Ms."]
CREDENTIALS = ["MD", "RN", "PhD", "Jr."]
RELATIONS = ["husband", "wife", "spouse", "daughter", "son", "partner"]
DATES = ["03/05/2014", "3/5/14", "2014-03-05", "March 5, 2014", "5 March 2014", "Mar 5th",
         "March 2014", "05-Mar-2014", "20140305", "Monday, March 5th, 2014", "3/5", "12.11.2013",
         "Jan 2nd", "2014", "June 3-5, 2014", "the 13th"]
KEPT_WORDS = {c.casefold().strip(".") for c in CREDENTIALS}


def _case(word: str, style: str) -> str:
    return word.upper() if style == "upper" else word


@st.composite
def name_mention(draw):
    """``(text, label, before)``: one name span and the words written just before it."""
    given_ = draw(st.sampled_from(GIVEN))
    sur = draw(st.sampled_from(SURNAMES))
    particle = draw(st.one_of(st.none(), st.sampled_from(PARTICLES)))
    surname = f"{particle} {sur}" if particle else sur
    initial = draw(st.one_of(st.none(), st.sampled_from("ACJKMT")))
    style = draw(st.sampled_from(["title", "upper"]))
    layout = draw(st.sampled_from(["full", "last_first", "title_last", "relation_first", "initial_last",
                                   "full_credential"]))
    if layout == "full":
        text, before = f"{given_} {initial + '. ' if initial else ''}{surname}", "Patient: "
    elif layout == "last_first":
        text, before = f"{surname}, {given_}{' ' + initial if initial else ''}", "Name: "
    elif layout == "title_last":
        text, before = surname, draw(st.sampled_from(TITLES)) + " "
    elif layout == "relation_first":
        text, before = given_, f"Her {draw(st.sampled_from(RELATIONS))} "
    elif layout == "initial_last":
        text, before = f"{initial or 'J'}. {surname}", "Seen by "
    else:
        text, before = f"{given_} {surname}, {draw(st.sampled_from(CREDENTIALS))}", "Attending: "
    label = "DOCTOR" if before in ("Seen by ", "Attending: ") or before.startswith("Dr") else "PATIENT"
    return _case(text, style), label, before


@st.composite
def note(draw):
    """An :class:`Analysis` of a generated note with every identifier marked."""
    pieces = draw(st.lists(st.one_of(
        name_mention(),
        st.tuples(st.sampled_from(DATES), st.just("DATE"), st.sampled_from(["Seen on ", "DOB: ", "on "])),
        st.tuples(st.from_regex(r"[1-9]\d{6}", fullmatch=True), st.just("MEDICALRECORD"), st.just("MRN ")),
    ), min_size=1, max_size=8))
    text, spans = "", []
    for value, label, before in pieces:
        text += before
        spans.append(Span(len(text), len(text) + len(value), label, "certain", "fuzz"))
        text += value + draw(st.sampled_from([". ", " reports pain. ", "\n", ", "]))
    return Analysis(text, tuple(spans), tuple(spans))


WORD = re.compile(r"[^\W\d_]+")


def _name_words(a: Analysis) -> set[str]:
    words = set()
    for s in a.spans:
        if s.category == "NAME":
            words |= {w.casefold() for w in WORD.findall(a.text[s.start:s.end]) if len(w) >= 3}
    return words - KEPT_WORDS


def _no_original_identifier_survives(a, key):
    out = surrogate(a, key)
    gap_words = {w.casefold() for w in WORD.findall(re.sub(r"\S*\d\S*", " ", "".join(
        a.text[p:q] for p, q in zip([0] + [s.end for s in a.spans], [s.start for s in a.spans] + [len(a.text)]))))}
    fake_words = set()
    for p in out.placed:
        fake_words |= {w.casefold() for w in WORD.findall(out.text[p.out_start:p.out_end])}
    leaked = (_name_words(a) - gap_words) & fake_words
    assert not leaked, (a.text, out.text)
    for s in a.spans:
        original = a.text[s.start:s.end]
        if s.label == "MEDICALRECORD" or (s.label == "DATE" and sum(c.isdigit() for c in original) >= 5):
            assert original not in out.text, (original, out.text)


def _same_value_same_fake(a, key):
    out = surrogate(a, key)
    seen: dict[tuple[str, str, str], str] = {}
    for p in out.placed:
        s = p.span
        original = a.text[s.start:s.end]
        before = a.text[max(0, s.start - 12):s.start]
        fake = out.text[p.out_start:p.out_end]
        if s.category == "NAME" and len(WORD.findall(original)) < 2:
            continue  # a lone word's role may depend on its context (title, relation word)
        k = (s.label if s.category != "NAME" else "NAME", original, before if s.category == "NAME" else "")
        assert seen.setdefault(k, fake) == fake, (original, a.text, out.text)


_LEAK_ARGS = (note(), st.sampled_from(["study-1", "ward seven", "k"]))
_SAME_ARGS = (note(), st.sampled_from(["study-1", "k"]))
test_no_original_identifier_survives_a_surrogate = SETTINGS(
    given(*_LEAK_ARGS)(_no_original_identifier_survives))
test_the_same_value_gets_the_same_fake_everywhere = SETTINGS(given(*_SAME_ARGS)(_same_value_same_fake))
test_no_original_identifier_survives_a_surrogate_full = pytest.mark.slow(
    FULL(given(*_LEAK_ARGS)(_no_original_identifier_survives)))
test_the_same_value_gets_the_same_fake_everywhere_full = pytest.mark.slow(
    FULL(given(*_SAME_ARGS)(_same_value_same_fake)))
