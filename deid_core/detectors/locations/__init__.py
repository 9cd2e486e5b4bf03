"""LOCATION detector: street addresses, cities, states, ZIP codes, countries, hospitals,
organisations, rooms, departments and landmarks, by pattern, word list and context.

:func:`detect` runs the passes of :data:`PASSES` in order over one scan of the note (its
capitalised runs: :func:`.text.scan_note`), then those of :data:`FOLLOW_UPS`, which read the
spans found so far; each pass names the :class:`~deid_core.rules.Rule` values it may give (what
each finds, its tiers and lists: ``docs/rules.md``). Whether the note is ALL CAPS or all lower
case is the document's decision (:attr:`Document.mostly_caps`, :attr:`Document.mostly_lower`).
In an ALL-CAPS note a facility phrase needs a name-list word or a transfer word before it (not
``REQUIRE REHAB``, ``PROPOFOL INC``), and places are also found inside a capitalised run
(``LIVES IN SPOKANE``).

Not PHI here: ``the hospital``, ``ICU``, ``ED``, ``OR`` alone, ``IN 2 weeks``, ``Orange juice``,
``Glasgow Coma Scale``, ``St. John's wort``, ``room air``, ``POD 1``, plain ``cardiology``,
``TO MICU``, ``FROM OSH``, ``SENT TO CT``, ``FOLEY TO GRAVITY``, ``TRANSFUSED 2 UNITS``.

Word lists: every one lives in ``lists/`` (see :mod:`.lexicon`, :data:`SHARED_LISTS`); a missing
file is an error.

Modules: :mod:`.text` (words, capitalised runs, helpers), :mod:`.lexicon` (the word lists and
word classes), :mod:`.addresses` (street, ZIP, city/state), :mod:`.places` (city, state,
country by context), :mod:`.facilities` (hospital, practice, organization, landmark),
:mod:`.organizations` (employers, universities by place), :mod:`.units` (room, ward, department), :mod:`.terse` (ward numbers and hospital abbreviations
after transfer words, and their other mentions).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...document import Document
from ...rules import Pass, rules_of
from ...spans import CERTAIN, Span
from . import addresses as A, facilities as F, known as K, organizations as O, places as P, terse as T, units as U
from .addresses import city_after
from .facilities import (_LOWER_HW_AFTER_RE, CONTEXT_ARTICLES, CONTEXT_LAST, facility_context,
                         lowercase_facility_after, phrase_rules)
from .lexicon import may_start_place, Tables, tables
from .places import PLACE_CONTEXT_ALONE, place_rules
from .terse import same_note_facilities
from .text import is_connector, Note, PREPOSITIONS, scan_note, tail_may_end, tail_words

__all__ = ["FOLLOW_UPS", "PASSES", "RULES", "SHARED_LISTS", "detect"]

#: The last words of a run's tail that :func:`.places.place_rules` and
#: :func:`.facilities.facility_context` read (any other tail gives them nothing): the tail is
#: split only where its last word ends with one (:func:`.text.tail_may_end`).
_TAIL_ENDS = tuple(sorted(PREPOSITIONS | set(PLACE_CONTEXT_ALONE) | set(CONTEXT_LAST)
                          | set(CONTEXT_ARTICLES)))


def _run_rules(n: Note, t: Tables) -> Iterator[Span]:
    """Facility, practice, unit, company, school, landmark and bare-street names inside
    capitalised runs, and places right after context words or commas.

    Speed: the rules that begin with a test nothing in most runs passes (a hospital word right
    after the run, a context word right before it) are called only when it passes."""
    last = t.phrase_last
    text = n.text
    hospital_word_after = _LOWER_HW_AFTER_RE.match
    for r in n.runs:
        words = r.words
        # a phrase's key is its words' keys joined (phrase_key of one word, which has no space)
        if len(words) == 1:   # (most runs: no list comprehension to call)
            keys = (words[0].text.lower().replace("’", "'"),)
        else:
            keys = [w.text.lower().replace("’", "'") for w in words]
        for j, key in enumerate(keys) if not last.isdisjoint(keys) else ():
            if key not in last:
                continue   # no phrase ends with this word
            for length in range(1, min(t.max_phrase, j + 1) + 1):
                i = j - length + 1
                if is_connector(words[i]):
                    continue
                kinds = t.phrases.get(" ".join(keys[i:j + 1]))
                if kinds:
                    yield from phrase_rules(n, t, r, i, j, kinds)
        if hospital_word_after(text, r.end):
            yield from lowercase_facility_after(n, t, r)
        # (read by both rules below; [] where its last word is none they read)
        tail = tail_words(text, r.start) if tail_may_end(text, r.start, _TAIL_ENDS) else []
        if tail or len(words) > 1 or may_start_place(words[0].text):
            yield from place_rules(n, t, r, tail)   # (else it finds nothing)
        if tail and (tail[-1] in CONTEXT_LAST or tail[-1] in CONTEXT_ARTICLES):
            yield from facility_context(n, t, r, tail)   # (after any other word it finds nothing)


#: The passes of :func:`detect` over the note, in the order they run; each module declares its
#: passes and the rules each may give beside its code.
PASSES: tuple[Pass, ...] = (
    Pass(_run_rules, F.RUN_RULES + P.RUN_RULES), A.STREETS_PASS, A.CITY_STATE_PASS, U.DEPARTMENTS_PASS,
    O.EMPLOYERS_PASS, F.SAINTS_PASS, U.ROOMS_PASS, T.TERSE_PASS, O.UNIVERSITY_PLACE_PASS,
    T.SAINT_AFTER_TRANSFER_PASS, F.OUR_LADY_PASS, P.REGIONS_PASS, T.CAMPUS_PASS, P.LOWER_CASE_PLACES_PASS,
    F.LOWER_CASE_FACILITIES_PASS, K.KNOWN_PASS,
)

#: The sources of the certain hospital names whose first word :func:`.terse.same_note_facilities`
#: looks for again (the hospital rules that run before it).
_HOSPITAL_NAMES = frozenset(r.id for r in (F.HOSPITAL_DISTINCT, F.HOSPITAL_INSTITUTION,
                                           F.HOSPITAL_LOWER_CASE_WORD, T.CAMPUS, T.ABBREVIATION_AFTER_AT,
                                           T.ABBREVIATION_STAFF))
#: The labels of the spans a city right after them follows (``2284 Granite Street, Bangor``).
_ANCHOR_LABELS = ("STREET", "HOSPITAL", "ORGANIZATION", "LOCATION-OTHER", "DEPARTMENT")


def _same_note(n: Note, t: Tables, out: list[Span]) -> Iterable[Span]:
    return same_note_facilities(n, t, out, _HOSPITAL_NAMES)


def _city_after(n: Note, t: Tables, out: list[Span]) -> Iterable[Span]:
    return city_after(n, t, [s for s in out if s.tier == CERTAIN and s.label in _ANCHOR_LABELS])


#: The passes that read the spans of the passes before them (``run(note, tables, spans)``).
FOLLOW_UPS: tuple[Pass, ...] = (Pass(_same_note, T.SAME_NOTE_RULES), Pass(_city_after, A.CITY_AFTER_RULES))
#: Every rule of the detector, in the order the passes meet them.
RULES = rules_of(PASSES + FOLLOW_UPS)
#: The lists the detector's shared word tables read (:func:`.lexicon.tables`), whatever the rule.
SHARED_LISTS = ("us_places.tsv", "us_states.tsv", "us_territories.tsv", "countries.txt", "given_names.tsv",
                "surnames.tsv", "english_collisions.txt", "medical_collisions.txt", "abbreviations.txt",
                "address_forms.tsv", "titles.txt", "credentials.txt", "hospital_words.txt",
                "hospital_words_weak.txt", "departments.txt", "generic_service_words.txt",
                "unit_words.txt", "practice_words.txt", "street_suffixes.txt",
                "street_suffixes_not_in_caps.txt", "company_suffixes.txt", "school_words.txt",
                "landmark_words.txt", "street_words.txt", "lower_case_facility_words.txt",
                "ward_words.txt", "facility_stop_words.txt", "not_facility_first.txt",
                "generic_institution_words.txt", "place_common_words.txt", "place_name_collisions.txt",
                "state_abbr_ambiguous.txt", "place_context_words.txt", "facility_context_words.txt",
                "transfer_words.txt", "place_aliases.txt", "country_aliases.txt", "facility_tail_words.txt",
                "facility_cues.txt", "quantity_after_words.txt", "room_words.txt")


def detect(doc: Document) -> Iterable[Span]:
    """Find location candidates in ``doc.text``.

    Args:
        doc: the note (:class:`~deid_core.document.Document`): its text and its case decision.

    Returns:
        A list of :class:`~deid_core.spans.Span` candidates (labels STREET, CITY, STATE, ZIP,
        COUNTRY, HOSPITAL, ORGANIZATION, ROOM, DEPARTMENT, LOCATION-OTHER), possibly
        overlapping; the resolver merges them. Sources are ``locations:<rule>`` (:data:`RULES`).

    Raises:
        FileNotFoundError: a word list file is missing (on the first call).
    """
    if not doc.text:
        return []
    t = tables()
    n = scan_note(doc)
    out: list[Span] = []
    for p in PASSES:
        out.extend(p.run(n, t))
    for p in FOLLOW_UPS:
        out.extend(p.run(n, t, out))
    return out
