"""LOCATION detector: street addresses, cities, states, ZIP codes, countries, hospitals,
organisations, rooms, departments and landmarks, by pattern, word list and context.

Finds (source ``locations:<rule>``):

* ``street`` (STREET, certain): number + capitalised street name + suffix + optional unit, also
  across a line break (``12 Elm Street\\nApt 3``, ``800 Orange Street, 4th Floor``); ``po_box``;
  ``route`` (``Route 9``); ``street_no_number`` (review): ``Elm Street``; ``street_lower``
  (review, lower-case notes only): ``88 cutler st``.
* ``city_state_zip`` / ``city_state_name``: ``Springfield, IL 62704``, ``Boston, MA 02118-1234``,
  ``Boston, Massachusetts``. Certain when the city/state pair is in the place list, a ZIP
  follows, or a Title-case town precedes an unambiguous abbreviation (``Tarrytown, NY``);
  review for a listed city before an abbreviation that is also a word; nothing for
  abbreviations that are also clinical or credential words (``Smith, MD``, ``Head, CT``).
  ``city_zip`` (``Chicago 60630``), ``city_country`` (``Lisbon, Portugal``), ``city_after``
  (``2284 Granite Street, Bangor``; ``Maple Court Nursing Home, Dayton``).
* ``place_context``: a city, state or country after a context word. Residence and travel words
  (``lives in``, ``moved to``, ``born in``) make it certain; a bare preposition (``in``, ``to``,
  ``at``) is certain only for multi-word or large (>= 100,000) cities, states and countries,
  and after ``in`` for any listed city (session 6). Place names that are ordinary words
  (``Mobile``, ``Buffalo``, ``Orange``) or given names (``Charlotte``, ``Chad``) are review at
  best. An unknown Title-case place after a residence word is certain in a note with lower case
  (``relocating to Winooski``), review in capitals.
* ``zip_context``: ``zip code 94103``.
* ``hospital`` (HOSPITAL): capitalised words ending with a hospital word (``Mercy General
  Hospital``, ``St. Luke's Medical Center``, ``Lakeside Clinic``), certain unless every name word
  is generic (``General Hospital``: review, certain right after a transfer or facility word,
  ``at`` or ``in``, capitalised, without an article; ``Cardiology Clinic``: nothing). ``practice``:
  a distinctive name before a specialty (``Cobalt Bay Urology``, ``Mill Pond Primary Care``).
  ``saint_possessive`` (review): ``St. Jude's``. ``facility_context`` and ``at_capitalised``:
  capitalised words after ``seen at``, ``admitted to``, ``at`` (``Cedar Crest``), or after a
  care-team title and ``from`` (``Surgeon from Harwick called``); certain in a note with lower
  case when every word is Title case or an acronym, else review; ORGANIZATION when the last
  word is a company or school word.
* ``organization`` (ORGANIZATION): company and business suffixes (``Acme Logistics Inc``,
  ``Quarry Hill Pharmacy``), schools and universities, employer context (``works at ...``).
* ``room`` (ROOM): the identifier after ``Room``/``Rm``/``Bed``/``Bay``/``Suite``/``Chair``/``Pod``
  (``Room 412`` gives ``412``; ``room ED-14``), ``OR 7``.
* ``department`` (DEPARTMENT): ``5 West``, ``Glenview 5 West``, ``Ward 7B``, ``Ellison 12 MICU``,
  ``Blackwood 9`` before a room, ``Wexford Chest Pain Unit``, ``Ferris Digestive Health Pavilion``.
* ``landmark`` (LOCATION-OTHER): ``Bellwether Mall``, ``Kettle Pond State Park``, ``Lucky Peak Dam``;
  ``region``: ``from the Northern Shore``, ``on the West Coast``.
* Terse nursing notes (:mod:`.terse`): ``ward_number`` (DEPARTMENT, the word only):
  ``TRANSFERRED TO HARTWELL 4``, review ``ON HARTWELL 4`` / ``PER HARTWELL 4 RN``;
  ``facility_abbreviation`` (HOSPITAL): ``REFERRED TO SMH``; both then at every other mention
  in the note (``:same_note``); ``saint_after_transfer``: ``TO GO TO ST. BRIGID``;
  ``hospital:same_note``: ``AT OSTRANDER`` after ``OSTRANDER HOSPITAL``;
  ``hospital:campus`` (review): ``scan on North Campus`` (the word before the campus word);
  ``organization:university_place``: ``U OF MD``, ``U Maryland``. In an ALL-CAPS note a
  facility phrase needs a name-list word or a transfer word before it (not ``REQUIRE REHAB``,
  ``PROPOFOL INC``), and places are also found inside a capitalised run (``LIVES IN SPOKANE``).

Not PHI here: ``the hospital``, ``ICU``, ``ED``, ``OR`` alone, ``IN 2 weeks``, ``Orange juice``,
``Glasgow Coma Scale``, ``St. John's wort``, ``room air``, ``POD 1``, plain ``cardiology``,
``TO MICU``, ``FROM OSH``, ``SENT TO CT``, ``FOLEY TO GRAVITY``, ``TRANSFUSED 2 UNITS``.

Word lists: every one lives in ``lists/`` (see :mod:`.lexicon`); a missing file is an error.

Modules: :mod:`.text` (words, capitalised runs, helpers), :mod:`.lexicon` (the word lists and
word classes), :mod:`.addresses` (street, ZIP, city/state), :mod:`.places` (city, state,
country by context), :mod:`.facilities` (hospital, practice, organization, landmark),
:mod:`.units` (room, ward, department), :mod:`.terse` (ward numbers and hospital abbreviations
after transfer words, and their other mentions).

TODO(document.py): the "is this note ALL CAPS" decision (``text.scan_note``: over 60% capitals in
the first 4,000 characters) is to move to the shared ALL-CAPS note/line decision that
``deid_core/document.py`` will hold (issue 7); until then locations keeps its own.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...document import Document
from ...spans import CERTAIN, Span
from .addresses import city_after, city_state, streets
from .facilities import (_LOWER_HW_AFTER_RE, CONTEXT_ARTICLES, CONTEXT_LAST, facility_context,
                         lower_case_facilities, lowercase_facility_after, our_lady,
                         organizations_context, phrase_rules, saints, university_place)
from .lexicon import may_start_place, Tables, tables
from .places import PLACE_CONTEXT_ALONE, lower_case_places, place_rules, regions
from .terse import campus_names, saint_after_transfer, same_note_facilities, terse_context
from .text import is_connector, Note, PREPOSITIONS, scan_note, tail_may_end, tail_words
from .units import departments, rooms

__all__ = ["detect"]

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


def detect(doc: Document) -> Iterable[Span]:
    """Find location candidates in ``doc.text``.

    Args:
        doc: the note (:class:`~deid_core.document.Document`); only ``doc.text`` is read.

    Returns:
        A list of :class:`~deid_core.spans.Span` candidates (labels STREET, CITY, STATE, ZIP,
        COUNTRY, HOSPITAL, ORGANIZATION, ROOM, DEPARTMENT, LOCATION-OTHER), possibly
        overlapping; the resolver merges them. Sources are ``locations:<rule>``.

    Raises:
        FileNotFoundError: a word list file is missing (on the first call).
    """
    text = doc.text
    if not text:
        return []
    t = tables()
    n = scan_note(text)
    out: list[Span] = []
    for rule in (_run_rules, streets, city_state, departments, organizations_context,
                 saints, rooms, terse_context, university_place, saint_after_transfer, our_lady,
                 regions, campus_names):
        out.extend(rule(n, t))
    if n.lower:
        out.extend(lower_case_places(n, t))
        out.extend(lower_case_facilities(n, t))
    out.extend(same_note_facilities(n, t, out))
    anchors = [s for s in out if s.tier == CERTAIN and s.label in (
        "STREET", "HOSPITAL", "ORGANIZATION", "LOCATION-OTHER", "DEPARTMENT")]
    out.extend(city_after(n, t, anchors))
    return out
