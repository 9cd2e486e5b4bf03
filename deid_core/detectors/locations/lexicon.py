"""The LOCATION detector's word lists, loaded once, and the word classifications built on them.

Every list lives in ``lists/`` (read through :mod:`deid_core.lists`): the GeoNames-derived
``us_places()``, ``us_states_and_territories()`` and ``countries()``, ``given_names()``, and
the hand-written ``hospital_words``, ``departments``, ``street_suffixes`` and
``lists.LOCATION_LISTS`` files. :func:`tables` reads them and compiles the list-dependent
regexes on the first call; a missing list file raises ``FileNotFoundError`` there (an empty
list would silently lose recall).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ... import knowledge, lists
from ..patterns import lead_alternation
from .text import (CAPW, GAP, LOWER_WORD, SP, Word, is_connector, place_key, norm, phrase_key,
                   alternation, tail_words)

#: Credentials that, after ``Name,``, are no state: ``Smith, MD`` is a doctor, not Maryland; the
#: rows of ``lists/credentials.txt`` whose ``not_state`` column is ``yes``, in capitals.
CREDENTIAL_ABBR = frozenset(r[0].upper() for r in lists.read_list("credentials.txt").rows if r[3] == "yes")

#: Large-city threshold for a bare preposition (``in Dallas``): population.
BIG_CITY = 100_000


def _hw(name: str) -> frozenset[str]:
    return lists.handwritten(name)


@dataclass(frozen=True)
class Tables:
    """Word lists and the list-dependent regexes, built once by :func:`tables`."""

    places: dict              # place key -> max population
    person_places: frozenset  # one-word city keys that are also given names (Austin, Charlotte)
    place_pairs: frozenset    # (place key, state abbreviation)
    states: dict              # state key -> abbreviation
    abbrs: frozenset          # state abbreviations
    countries: frozenset      # country keys
    generic: frozenset        # generic service words (lower-case)
    hospital_words: frozenset
    phrases: dict             # lower-case phrase -> frozenset of kinds
    max_phrase: int
    street_re: re.Pattern
    street_lower_re: re.Pattern
    hospital_lower_re: re.Pattern
    org_lower_re: re.Pattern
    context_lower_re: re.Pattern
    max_place_words: int
    ward_lead: str            # the ward words in their written forms, not after a word character
                              # (patterns.lead_alternation)
    stop: frozenset           # facility_stop_words
    not_first: frozenset      # not_facility_first
    acronyms: frozenset       # abbreviations.txt kinds service and clinical, in capitals
    institution: frozenset    # generic_institution_words
    common_words: frozenset   # place_common_words
    name_collisions: frozenset  # place_name_collisions
    ambiguous_abbr: frozenset   # state_abbr_ambiguous, in capitals
    place_verbs: frozenset      # place_context_words
    strong_context: frozenset   # place_context_words and "from"
    facility_verbs: frozenset   # facility_context_words
    proper: frozenset           # names and one-word places that are no English or medical word
    transfer_words: frozenset   # transfer_words (sent, transferred, admitted ...)
    phrase_last: frozenset = frozenset()  # the last word of every key of ``phrases``
    place_first: frozenset = frozenset()  # the first word of every key of states, countries, places
    hospital_lower_first: tuple = ()  # first word of each keyword of hospital_lower_re
    org_lower_first: tuple = ()       # first word of each keyword of org_lower_re


def _ward_forms(words: Iterable[str]) -> list[str]:
    """The written forms of the ward words: Title case and capitals (``Ward``, ``WARD``), the
    ICU names in capitals (``MICU``) or, after a prefix of 3 letters or more, as ``NeuroICU``,
    and lower-case ``ward``."""
    forms = []
    for w in words:
        if w.endswith("icu"):
            forms.append(w[:-3].title() + "ICU" if len(w) > 5 else w.upper())
        else:
            forms += [w.title(), w.upper()]
    return forms + ["ward"]


@lru_cache(maxsize=1)
def tables() -> Tables:
    """Load the word lists and compile the list-dependent regexes (once per process).

    Raises:
        FileNotFoundError: a list file is missing.
    """
    places: dict[str, int] = {}
    pairs = set()
    for row in lists.us_places():
        city, state = row[0], row[1]
        pop = int(row[2]) if len(row) > 2 and str(row[2]).isdigit() else 0
        key = place_key(city)
        places[key] = max(places.get(key, 0), pop)
        pairs.add((key, state.upper()))
    for key in [k for k in places if k.startswith("the ")]:
        places.setdefault(key[4:], places[key])   # "the bronx" -> also "bronx"
    for alias, city, st in lists.read_list("place_aliases.txt").rows:
        places.setdefault(alias, places.get(city, 0))
        pairs.add((alias, st.upper()))
    states = {place_key(k): v.upper() for k, v in lists.us_states_and_territories().items()}
    abbrs = frozenset(states.values())
    countries = frozenset(place_key(c) for c in lists.countries()) | frozenset(
        place_key(c) for c in _hw("country_aliases"))
    hospital_words = _hw("hospital_words")
    weak_hospital_words = _hw("hospital_words_weak")
    depts = lists.handwritten("departments")
    generic = _hw("generic_service_words") | frozenset(w for d in depts for w in d.lower().split())
    unit_words = _hw("unit_words") | frozenset(
        d for d in depts if d.split()[-1] in ("unit", "ward", "icu") or (len(d) <= 5 and d.endswith("icu")))
    practice_words = _hw("practice_words") | frozenset(
        d for d in depts if d not in unit_words and len(d) > 3)
    suffixes = frozenset(s.lower().rstrip(".") for s in _hw("street_suffixes"))
    caps_excluded = frozenset(s.upper() for s in _hw("street_suffixes_not_in_caps"))
    company_suffixes = _hw("company_suffixes")
    school_words = _hw("school_words")

    phrases: dict[str, set] = {}

    def add(words: Iterable[str], kind: str) -> None:
        for w in words:
            phrases.setdefault(phrase_key(w), set()).add(kind)

    add((w for w in hospital_words if w not in weak_hospital_words), "hosp")
    add((w for w in hospital_words if w in weak_hospital_words), "hosp_weak")
    add(practice_words, "practice")
    add(unit_words, "unit")
    add(company_suffixes, "company")
    add(school_words, "school")
    add(_hw("landmark_words"), "landmark")
    add(_hw("street_words"), "street")
    frozen = {k: frozenset(v) for k, v in phrases.items()}

    suffix_forms = set()
    for s in suffixes:
        suffix_forms.add(s.title())
        suffix_forms.add(s)
        if len(s) > 4 or s.upper() not in caps_excluded:
            suffix_forms.add(s.upper())
    # a house number: \d{1,6}(?:-\d{1,5})?[A-Za-z]? after no word character, dot, comma,
    # slash or hyphen, written with its first digit before the look-behind (a faster scan)
    num_rest = r"\d{0,5}(?:-\d{1,5})?[A-Za-z]?"
    direction = r"(?:North|South|East|West|NORTH|SOUTH|EAST|WEST|[NSEW]\.?|[NS][EW]\.?)"
    name_w = rf"(?:{CAPW}|\d{{1,3}}(?:st|nd|rd|th|ST|ND|RD|TH))"
    unit = (r"(?:[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?(?:(?:(?i:apt|apartment|unit|suite|ste|fl|floor|bldg|"
            r"building|rm|room|lot|trlr)\.?[ \t]*#?[ \t]*|#[ \t]*)[A-Za-z0-9][A-Za-z0-9-]{0,5}"
            r"|\d{1,3}(?:st|nd|rd|th)[ \t]+(?i:floor|fl)\.?)(?![\w]))")
    street_re = re.compile(
        rf"\d(?<![\w.,/-]\d){num_rest}[ \t]+(?:{direction}\.?[ \t]+)?{name_w}(?:{GAP}{name_w}){{0,3}}"
        rf"{GAP}(?:{alternation(suffix_forms, SP)})\.?(?![\w])(?:[ \t]+{direction}(?![\w])\.?)?{unit}?")
    street_lower_re = re.compile(
        rf"\d(?<![\w.,/-]\d)\d{{0,5}}[a-z]?[ \t]+(?P<name>{LOWER_WORD}(?:[ \t]+{LOWER_WORD}){{0,2}})"
        rf"[ \t]+(?:{alternation((s for s in suffixes if len(s) >= 2), SP)})\.?(?![\w])")
    lower_hw = alternation(_hw("lower_case_facility_words"))
    lower_name = rf"{LOWER_WORD}(?:(?:[ \t]+|[ \t]*\r?\n[ \t]*|[ \t]+&[ \t]+){LOWER_WORD}){{0,4}}"
    hospital_lower_re = re.compile(rf"(?<![\w])(?P<name>{lower_name}){GAP}(?P<hw>{lower_hw})(?![\w])")
    org_lower_re = re.compile(
        rf"(?<![\w])(?P<name>{lower_name}){GAP}"
        rf"(?P<kw>{alternation(s for s in company_suffixes | school_words if len(s) > 4)})(?![\w])")
    context_lower_re = re.compile(
        rf"(?<![\w])(?P<ctx>from|in|near|to|at|of|visiting){GAP}"
        rf"(?=(?P<run>{LOWER_WORD}(?:[ \t]+{LOWER_WORD}){{0,3}}))")
    given = lists.given_names()
    person_places = frozenset(k for k in places if " " not in k and k in given)
    max_words = max([len(k.split()) for k in list(places) + list(states) + list(countries)] or [1])
    place_verbs = _hw("place_context_words")
    common_words = _hw("place_common_words")
    proper = (frozenset(lists.surnames()) | frozenset(given) | frozenset(
        k for k in places if " " not in k)) - lists.english_collisions() - lists.medical_collisions() \
        - common_words - generic
    return Tables(places, person_places, frozenset(pairs), states, abbrs, countries, generic,
                   hospital_words, frozen, max(len(k.split()) for k in frozen), street_re,
                   street_lower_re, hospital_lower_re, org_lower_re, context_lower_re,
                   min(max_words, 4), lead_alternation(_ward_forms(_hw("ward_words")), r"[\w]", SP),
                   _hw("facility_stop_words"), _hw("not_facility_first"),
                   frozenset(a.upper() for a in lists.abbreviations("clinical", "service")),
                   _hw("generic_institution_words"), common_words,
                   _hw("place_name_collisions"),
                   frozenset(a.upper() for a in _hw("state_abbr_ambiguous")), place_verbs,
                   place_verbs | {"from"}, _hw("facility_context_words"), proper,
                   _hw("transfer_words"), frozenset(k.rsplit(" ", 1)[-1] for k in frozen),
                   frozenset(k.split(" ", 1)[0] for k in (*places, *states, *countries)),
                   tuple(sorted({w.split()[0] for w in _hw("lower_case_facility_words")})),
                   tuple(sorted({w.split()[0] for w in company_suffixes | school_words if len(w) > 4})))


# --------------------------------------------------------------------------------------------
# Word classifications that need the lists
# --------------------------------------------------------------------------------------------


def strip_leading(words: Iterable[Word]) -> list[Word]:
    """Keep the part of a capitalised run after its last stop word (``The``, ``Our``, ``Call``,
    ``FOLLOW UP IN`` ...), then drop leading connectors: what remains is the candidate name."""
    t = tables()
    words = list(words)
    cut = 0
    for i, w in enumerate(words):
        n = norm(w.text)
        if (n in t.stop or w.text.lower() in t.stop) and not is_connector(w):
            cut = i + 1
    while cut < len(words) and is_connector(words[cut]):
        cut += 1
    return words[cut:]


def name_kind(words: list[Word], generic: frozenset) -> str:
    """Classify a facility name's words: ``"distinct"`` (at least one non-generic word),
    ``"institution"`` (only generic words, one of them institution-like), ``"generic"`` or
    ``"none"`` (no words, or a title/month/weekday first)."""
    t = tables()
    content = [w for w in words if not is_connector(w)]
    if not content or norm(content[0].text) in t.not_first:
        return "none"
    distinct = False
    institution = False
    for w in content:
        n = norm(w.text)
        bare = n[:-2] if n.endswith("'s") else n
        if w.text.isupper() and len(w.text) > 1 and w.text.rstrip(".") in t.acronyms:
            continue
        if n in generic or bare in generic or ("-" in bare and all(p in generic for p in bare.split("-"))):
            institution = institution or n in t.institution or bare in t.institution
            continue
        distinct = True
    if distinct:
        return "distinct"
    return "institution" if institution else "generic"


@lru_cache(maxsize=8192)
def may_start_place(word: str) -> bool:
    """False only when no state, country or known city key starts with the key of ``word``'s
    first piece (``place_key(word)`` up to its first space): then :func:`lookup_place` finds
    nothing in a run that starts with ``word``."""
    return place_key(word).split(" ", 1)[0] in tables().place_first


def lookup_place(t: Tables, words: list[Word]):
    """Longest prefix of ``words`` (up to 4) that is a state, a country or a known city.

    Returns ``(n_words, label, population)`` or ``None``.
    """
    if not words or not may_start_place(words[0].text):
        return None   # every key starts with the key of the first word's first piece
    for n in range(min(len(words), t.max_place_words), 0, -1):
        if any(w.nl for w in words[1:n]):
            continue
        key = place_key(" ".join(w.text for w in words[:n]))
        if key in t.states:
            return n, "STATE", 10**7
        if key in t.countries:
            return n, "COUNTRY", 10**7
        if key in t.places:
            return n, "CITY", t.places[key]
    return None


def known_city_suffix(words: list[Word], t: Tables) -> list[Word]:
    """Longest suffix of ``words`` (at most 4) that is a known city; returns the word list or []."""
    for k in range(min(4, len(words)), 0, -1):
        if place_key(" ".join(w.text for w in words[-k:])) in t.places:
            return words[-k:]
    return []


def city_words_after_facility(words: list[Word], t: Tables) -> list[Word]:
    """Drop words up to and including the last hospital, stop or generic word in a city run."""
    cut = 0
    for i, w in enumerate(words):
        n = norm(w.text)
        if n in t.hospital_words or n in t.stop or n in t.not_first or n in t.generic \
                or phrase_key(w.text) in t.phrases:
            cut = i + 1
    return words[cut:]


def plain_city(words: list[Word], t: Tables) -> bool:
    """An unknown capitalised run that may be a city name: 1-3 words, none generic, a stop
    word, a hospital word, a title, month or weekday."""
    return 0 < len(words) <= 3 and city_words_after_facility(words, t) == words and all(
        w.text[0].isupper() for w in words)


def proper_evidence(words: list[Word], t: Tables) -> bool:
    """True when a word of a name is a listed surname, given name or one-word place that is not
    also an ordinary English, medical, generic or common place word (``OSTRANDER``,
    ``BALTIMORE``; not ``REQUIRE``, ``PROPOFOL``, ``MONITOR``): in an ALL-CAPS note, where every
    word is capitalised, the evidence that a run is a name."""
    for w in words:
        if is_connector(w):
            continue
        low = norm(w.text)
        if (low[:-2] if low.endswith("'s") else low) in t.proper:
            return True
    return False


def relative_before(text: str, start: int) -> bool:
    """True when a relation word (``lists.relations("names")``: daughter, nephew, wife) stands
    right before the name starting at ``start``, a comma allowed after it (``daughter Ines``,
    ``Nephew, Ivo Brandt``): the name is a relative's, so ``of Tilbury`` after it says where
    the relative lives."""
    words = tail_words(text, start)
    return bool(words) and words[-1].rstrip(",:") in lists.relations("names")


#: How often (Vanderbilt note count) or in how many inventories a clinical short form must be
#: seen for it to stay shorthand even where it is also a facility's initials (``MH`` seen 5
#: times in 2 inventories may be Memorial Hospital; ``RUE`` seen 50 times in 4 is an arm).
_SHORTHAND_COUNT = 10
_SHORTHAND_SOURCES = 3
#: The Zipf frequency at or above which a lone Title-case word after a bare ``at`` is an
#: ordinary word, not a place name (``at Night``), unless it is a facility's short name (``at
#: Mercy``, ``at Stanford``): 4.0 is about ten uses per million words; at or above
#: :data:`VERY_COMMON_ZIPF` (a hundred per million: ``home``, ``rest``) even a facility's short
#: name is the ordinary word.
ORDINARY_ZIPF = 4.0
VERY_COMMON_ZIPF = 5.0


@lru_cache(maxsize=8192)
def clinical_shorthand(word: str) -> bool:
    """Whether ``word`` (any case, a trailing full stop ignored) is clinical shorthand and so no
    facility name on its own: a form of ``lists/clinical_abbreviations.tsv`` or the hand-written
    ``lists/abbreviations.txt`` (``RUE``, ``KVO``, ``CVICU``, ``Lasix``), unless it is also the
    short name or initials of facilities (``lists/facility_short_forms.tsv``) and is weak
    shorthand (seen fewer than :data:`_SHORTHAND_COUNT` times in fewer than
    :data:`_SHORTHAND_SOURCES` inventories, none of them the hand-written list: ``MH``)."""
    a = knowledge.clinical_abbreviation(word)
    if a is None:
        return False
    if not knowledge.facility_form(word):
        return True
    return ("hand-written" in a.sources or a.count >= _SHORTHAND_COUNT
            or len(a.sources) >= _SHORTHAND_SOURCES)


@lru_cache(maxsize=8192)
def ordinary_word(word: str) -> bool:
    """Whether ``word`` is an ordinary English word: Zipf >= :data:`VERY_COMMON_ZIPF` in
    ``lists/english_common.tsv`` (``Home``), or >= :data:`ORDINARY_ZIPF` and no facility's
    short name (``Night``; not ``Mercy``)."""
    z = knowledge.common_zipf(word)
    return z >= VERY_COMMON_ZIPF or z >= ORDINARY_ZIPF and not knowledge.facility_form(word)


@lru_cache(maxsize=8192)
def frequent_shorthand(word: str) -> bool:
    """Whether ``word`` is clinical shorthand seen at least :data:`_SHORTHAND_COUNT` times in the
    Vanderbilt notes (``lists/clinical_abbreviations.tsv``) and no facility's initials or short
    name (``lists/facility_short_forms.tsv``): ``CVS``, ``LCX``; not ``GH`` (the initials of 90
    facilities), not ``CHB`` (seen in no note count)."""
    a = knowledge.clinical_abbreviation(word)
    return a is not None and a.count >= _SHORTHAND_COUNT and not knowledge.facility_form(word)
