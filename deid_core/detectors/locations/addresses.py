"""Addresses: streets, PO boxes, routes, ``City, ST 12345``, ZIP codes and the place after an
address or a facility (``2284 Granite Street, Bangor``); each rule is declared above the
function that applies it."""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ... import lists
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW, Span
from .lexicon import (CREDENTIAL_ABBR, city_words_after_facility, known_city_suffix,
                      lookup_place, plain_city, Tables)
from .places import before_clinical_noun
from .text import (PREPOSITIONS, note_may_hold, place_key, Note, norm, run_at, same_line_words,
                   split_words, tail_words, words_before)

_PO_BOX_RE = re.compile(
    r"(?:p(?<![\w]p)|P(?<![\w]P))(?i:\.?[ \t]?o\.?[ \t]*box|ost[ \t]+office[ \t]+box)[ \t]*#?[ \t]*\d{1,7}(?!\w)")
_ROUTE_RE = re.compile(
    r"(?:R(?<![\w]R)(?:oute|OUTE|te\.?)|H(?<![\w]H)(?:ighway|IGHWAY|wy\.?)|I(?<![\w]I)nterstate"
    r"|S(?<![\w]S)tate Route|U(?<![\w]U)S Route)"
    r"[ \t]+\d{1,3}[A-Z]?(?![\w])")
_ZIP_CONTEXT_RE = re.compile(
    r"(?i:zip(?:[ \t]*code)?|postal[ \t]+code)[ \t]*(?:#|:|is)?[ \t]*(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")
#: (a note without ``zip`` or ``postal`` in any case skips the scan of :data:`_ZIP_CONTEXT_RE`)
_ZIP_AFTER_WORD_RE = re.compile(r"[ \t](?<=[^\W\d_][ \t])[ \t]*(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")
#: Five ASCII digits (the first one a set the scan skips to at C speed).
_FIVE_DIGITS_RE = re.compile(r"[0-9][0-9]{4}")


def _zips_after_word(text: str) -> Iterator[re.Match]:
    """The matches of ``_ZIP_AFTER_WORD_RE.finditer(text)``, found from their digits: a match's
    ZIP starts a run of five digits or more (blanks before it), and the match starts at the
    first of those blanks, right after a letter; so each run of :data:`_FIVE_DIGITS_RE` that
    follows blanks gives the one place to try (the same matches in the same order: none
    overlaps the one before, whose ZIP ends before the next blanks). Where ``text`` is not
    ASCII (``\\d`` is more than 0-9 there), ``finditer`` itself."""
    if not text.isascii():
        yield from _ZIP_AFTER_WORD_RE.finditer(text)
        return
    for d in _FIVE_DIGITS_RE.finditer(text):
        q = d.start()
        while q and text[q - 1] in " \t":
            q -= 1
        if q < d.start():
            m = _ZIP_AFTER_WORD_RE.match(text, q)
            if m is not None:
                yield m


_ABBR_RE = re.compile(
    r"(?P<sep>,(?<=[^\W\d_],)[ \t]*| (?<=[^\W\d_] )[ \t]*|\t(?<=[^\W\d_]\t)[ \t]*)(?P<st>[A-Z]{2})(?![\w-])"
    r"(?:(?:,?[ \t]+|,)(?P<zip>\d{5}(?:-\d{4})?)(?![\w-]))?")
_LOWER_CSZ_RE = re.compile(
    r"(?<![\w])(?P<city>[a-z]{1,30}(?:[ \t][a-z]{1,30}){0,2}),[ \t]*(?P<st>[a-z]{2})[ \t]+"
    r"(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")

_CITY_AFTER_RE = re.compile(r"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?")


#: After a final ``ST``: a heart rate or an ST-segment word (``4 EPISODES ST IN 120'S``, ``RUNS
#: ST TO 140``, ``2 LEADS ST ELEVATION``, ``ST CHANGES``): sinus tachycardia or the ST segment.
_ST_CARDIAC_AFTER_RE = re.compile(
    r"[ \t]+(?:(?:in|to|at)[ \t]+'?\d{2,3}(?!\d)|'?\d{2,3}'?s\b)"
    r"|[ \t]*-?[ \t]*(?:elev|depress|chang)",
    re.IGNORECASE)


_C, _CR = (CERTAIN,), (CERTAIN, REVIEW)
_STREET_LISTS = ("street_suffixes.txt", "street_suffixes_not_in_caps.txt", "facility_stop_words.txt")
STREET = Rule("locations:street", ("STREET",), _C, "a street address", list="street_suffixes.txt",
              reads=_STREET_LISTS[1:])
PO_BOX = Rule("locations:po_box", ("STREET",), _C, "a post office box (PO Box 123)")
ROUTE = Rule("locations:route", ("STREET",), _C, "a numbered route or highway (Route 9, I-95)")
STREET_LOWER = Rule("locations:street_lower", ("STREET",), (REVIEW,), "a street address in lower case",
                    amber="in a note without capitals a number, a word and a street word may be "
                          "something else (2 ct scan)",
                    list="street_suffixes.txt", reads=("facility_stop_words.txt", "clinical_nouns.txt"))


def streets(n: Note, t: Tables) -> Iterator[Span]:
    """Streets with a house number (certain), PO boxes, routes, and in all-lower-case notes
    ``88 cutler st`` (review). Yields STREET spans."""
    text = n.text
    for m in t.street_re.finditer(text):
        if n.caps and any(norm(w) in t.stop or w in t.acronyms
                          for w in re.findall(r"[A-Za-z][A-Za-z'’.]*", m.group())[:-1]):
            continue   # ALL-CAPS note: "3 WAY FOLEY DRAINING", "90-110 SR TO ST", "50 BY DR"
        end = m.end()
        if text[m.start():end].rstrip(".").lower().endswith(" st") and _ST_CARDIAC_AFTER_RE.match(text, end):
            continue
        if text[end - 1] == "." and not re.search(r"(?i)\b(?:st|ave|rd|dr|blvd|ln|ct|pl|hwy|pkwy|ter)\.$",
                                                  text[m.start():end]):
            end -= 1
        yield STREET.span(m.start(), end)
    for m in _PO_BOX_RE.finditer(text) if note_may_hold(n, ("box",)) else ():
        yield PO_BOX.span(m.start(), m.end())
    for m in _ROUTE_RE.finditer(text):
        yield ROUTE.span(m.start(), m.end())
    if n.lower:
        for m in t.street_lower_re.finditer(text):
            words = split_words(m.group("name"), m.start("name"))
            if any(norm(w.text) in t.stop or norm(w.text) in t.generic for w in words):
                continue
            if before_clinical_noun(text, m.end()):
                continue   # "1 degree av block", "2 ct scan": the suffix reads as a clinical word
            yield STREET_LOWER.span(m.start(), m.end())


@lru_cache(maxsize=1)
def _shorthand() -> frozenset[str]:
    """Clinical abbreviations and ICU shorthand (``lists/abbreviations.txt``: ``K``, ``MG``,
    ``CA``, ``AM``, ``TX``), in capitals: no town or state code in a lab or care list."""
    return frozenset(a.upper() for a in lists.abbreviations("clinical", "shorthand"))


CITY_STATE_ZIP = Rule(
    "locations:city_state_zip", ("CITY", "STATE", "ZIP"), _CR, "a city, state and ZIP code",
    amber="the state code is also an ordinary word, or the town before it is on no list",
    list="us_states.tsv", reads=("us_places.tsv", "us_territories.tsv", "state_abbr_ambiguous.txt",
                                 "credentials.txt", "abbreviations.txt"))
ZIP_CONTEXT = Rule("locations:zip_context", ("ZIP",), _C, "a ZIP code after the words zip code")
CITY_ZIP = Rule("locations:city_zip", ("CITY", "ZIP"), _C, "a listed city before a ZIP code (Chicago 60630)",
                list="us_places.tsv")


def city_state(n: Note, t: Tables) -> Iterator[Span]:
    """``City, ST 12345`` and its parts (CITY, STATE, ZIP; tier by the place list, the ZIP and
    whether the code is also a word), ``zip code 94103``, ``Chicago 60630``."""
    text = n.text
    for m in _ABBR_RE.finditer(text):
        st, zip_ = m.group("st"), m.group("zip")
        if st not in t.abbrs:
            continue
        comma = m.group("sep").startswith(",")
        words = words_before(n, m.start())
        if not words:
            continue
        city = known_city_suffix(words, t)
        key = place_key(" ".join(w.text for w in city))
        if city and (key, st) in t.place_pairs:
            tier = CERTAIN
        elif zip_:
            tier = CERTAIN
            if not city:
                city = city_words_after_facility(words, t)[-3:]
        elif city and comma and st not in CREDENTIAL_ABBR:
            tier = REVIEW if st in t.ambiguous_abbr else CERTAIN
        elif comma and st not in t.ambiguous_abbr:
            # "Tarrytown, NY": an unlisted town before an unambiguous abbreviation.
            city = city_words_after_facility(words, t)[-2:]
            if city and (any(w.text.upper() in _shorthand() for w in city) or (
                    n.caps and st in _shorthand() and all(w.text.isupper() for w in city)
                    and tail_words(text, city[0].start)[-1:] not in ([p] for p in PREPOSITIONS))):
                # "K, CA GIVEN", "HCT 26 THIS AM, TX 1 UNIT", "ALLERGIES: ASPIRIN,CA": lab and
                # care shorthand (not "MOVED FROM QUILLTON, CA")
                continue
            tier = CERTAIN if city and all(w.text[:1].isupper() and not w.text.isupper() for w in city) \
                else REVIEW
        else:
            continue
        if city and norm(city[0].text) not in t.not_first:
            yield CITY_STATE_ZIP.span(city[0].start, city[-1].end, "CITY", tier)
        yield CITY_STATE_ZIP.span(m.start("st"), m.end("st"), "STATE", tier)
        if zip_:
            yield CITY_STATE_ZIP.span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN)
    zips = _ZIP_CONTEXT_RE.finditer(text) if note_may_hold(n, ("zip", "postal")) else ()
    for m in zips:
        yield ZIP_CONTEXT.span(m.start("zip"), m.end("zip"))
    for m in _zips_after_word(text):
        city = known_city_suffix(words_before(n, m.start()), t)
        if city:
            yield CITY_ZIP.span(city[0].start, city[-1].end, "CITY")
            yield CITY_ZIP.span(m.start("zip"), m.end("zip"), "ZIP")
    if n.lower:
        for m in _LOWER_CSZ_RE.finditer(text):
            if m.group("st").upper() not in t.abbrs:
                continue
            words = [w for w in split_words(m.group("city"), m.start("city")) if norm(w.text) not in t.stop]
            if words:
                yield CITY_STATE_ZIP.span(words[0].start, words[-1].end, "CITY", CERTAIN)
            yield CITY_STATE_ZIP.span(m.start("st"), m.end("st"), "STATE", CERTAIN)
            yield CITY_STATE_ZIP.span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN)



_AFTER_AMBER = "the place name is also an ordinary word or a person's name"
CITY_AFTER = Rule("locations:city_after", ("CITY",), _CR,
                  "a town right after an address or a facility (2284 Granite Street, Bangor)",
                  amber="the word is on no place list, or is also an ordinary word or a name",
                  list="us_places.tsv", reads=("place_common_words.txt", "place_name_collisions.txt"))
STATE_AFTER = Rule("locations:state_after", ("STATE",), _CR,
                   "a state right after an address or a facility", amber=_AFTER_AMBER,
                   list="us_states.tsv", reads=("place_common_words.txt", "place_name_collisions.txt"))
COUNTRY_AFTER = Rule("locations:country_after", ("COUNTRY",), _CR,
                     "a country right after an address or a facility", amber=_AFTER_AMBER,
                     list="countries.txt", reads=("place_common_words.txt", "place_name_collisions.txt"))
_AFTER = {"CITY": CITY_AFTER, "STATE": STATE_AFTER, "COUNTRY": COUNTRY_AFTER}


def city_after(n: Note, t: Tables, anchors: list[Span]) -> Iterator[Span]:
    """A city right after an address or a facility: ``2284 Granite Street, Bangor;``."""
    text = n.text
    for a in anchors:
        m = _CITY_AFTER_RE.match(text, a.end)
        if not m:
            continue
        r = run_at(n, m.end())
        if r is None:
            continue
        words = [r.words[0]] + list(same_line_words(r.words[1:]))
        if not re.match(r"[ \t]*(?:[;.,)\r\n]|$)", text[words[-1].end:words[-1].end + 2]):
            continue
        found = lookup_place(t, words)
        if found and found[0] == len(words):
            label = found[1]
            key = place_key(" ".join(w.text for w in words))
            tier = REVIEW if key in t.common_words or key in t.name_collisions else CERTAIN
            yield _AFTER[label].span(words[0].start, words[-1].end, label, tier)
        elif plain_city(words, t) and not any(w.text.isupper() and len(w.text) <= 3 for w in words):
            yield CITY_AFTER.span(words[0].start, words[-1].end, "CITY", REVIEW)


#: The passes of this module over the note, each with the rules it may give; and the rules of
#: :func:`city_after`, which reads the spans of the passes before it.
STREETS_PASS = Pass(streets, (STREET, PO_BOX, ROUTE, STREET_LOWER))
CITY_STATE_PASS = Pass(city_state, (CITY_STATE_ZIP, ZIP_CONTEXT, CITY_ZIP))
CITY_AFTER_RULES = (CITY_AFTER, STATE_AFTER, COUNTRY_AFTER)
