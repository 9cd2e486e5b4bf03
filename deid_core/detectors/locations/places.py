"""Places: a city, state or country after a context word (``lives in Boston``, ``from Ohio``),
before a state or country after a comma (``Boston, Massachusetts``, ``Lisbon, Portugal``), or
in ``our Chicago clinic``; the same after context words in all-lower-case notes; regions
(``the West Coast``). Each rule is declared above the function that applies it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from collections.abc import Iterator

from ... import lists
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW, Span
from .lexicon import (BIG_CITY, city_words_after_facility, known_city_suffix, lookup_place,
                      plain_city, relative_before, Tables, tables)
from .text import (ADVERBS, PREPOSITIONS, SP, Word, alternation, is_connector, note_may_hold,
                   place_key, norm, Note, Run, tail_words, same_line_words, trim_end, split_words, words_before_comma)

#: After our/the + a city, a facility word (``our Boston clinic``, ``the Boston VA``): the
#: ``city_facility_after`` words of ``lists/facility_cues.txt``, and the ``_caps`` ones in capitals.
_CITY_FACILITY_AFTER_RE = re.compile(
    r"[ \t]+(?:" + alternation(list(lists.tagged("facility_cues.txt", "city_facility_after"))
                               + [w.upper() for w in lists.tagged("facility_cues.txt", "city_facility_after_caps")])
    + r")(?![\w])")

#: ``from the Northern Shore``, ``on the West Coast``: a preposition and ``the``, a capitalised
#: compass word and a geographic noun (the ``region_compass`` and ``region_noun`` words of
#: ``lists/facility_cues.txt``, Title case or capitals).
def _region_re() -> re.Pattern:
    def forms(use: str) -> list[str]:
        words = lists.tagged("facility_cues.txt", use)
        return [w.title() for w in words] + [w.upper() for w in words]
    return re.compile(r"(?<![\w'’-])(?i:from|on|at|to|in|near)[ \t]+(?i:the)[ \t]+"
                      r"(?P<r>(?:" + alternation(forms("region_compass"), SP) + r")[ \t]+(?:"
                      + alternation(forms("region_noun"), SP) + r"))(?![\w'’]|-\w)")


_REGION_RE = _region_re()
#: The lower-case first words of the geographic nouns, one of which every match of
#: :data:`_REGION_RE` holds: a note without one skips the scan (:func:`.text.may_hold`).
_REGION_NOUNS = tuple(sorted({w.split()[0].lower() for w in lists.tagged("facility_cues.txt", "region_noun")}))


_C, _CR = (CERTAIN,), (CERTAIN, REVIEW)
_PLACES = ("CITY", "STATE", "COUNTRY")
_PLACE_LISTS = ("us_places.tsv", "us_states.tsv", "countries.txt", "place_context_words.txt",
                "place_common_words.txt", "place_name_collisions.txt", "place_aliases.txt",
                "country_aliases.txt")
REGION = Rule("locations:region", ("LOCATION-OTHER",), _C,
              "a region named by a compass word and a place noun (the Western Shore)",
              list="facility_cues.txt")


def regions(n: Note, t: Tables) -> Iterator[Span]:
    """``FROM THE NORTHERN SHORE``, ``on the West Coast``: a region named by a compass word and a
    geographic noun after a preposition and ``the`` (LOCATION-OTHER, certain)."""
    if not note_may_hold(n, _REGION_NOUNS):
        return
    for m in _REGION_RE.finditer(n.text):
        yield REGION.span(m.start("r"), m.end("r"))


def _context_tier(t: Tables, key: str, label: str, n_words: int, pop: int, ctx_first: str,
                  followed: bool) -> str | None:
    """Tier of a place found after a context word, or ``None`` to skip it."""
    strong = ctx_first in t.strong_context
    if key in t.common_words and n_words == 1:
        return REVIEW if strong and ctx_first != "from" and not followed else None
    person = key in t.name_collisions or (label == "CITY" and key in t.person_places)
    if followed:
        # Another capitalised word right after: ``Ohio River``, ``Alice Brown``.
        if person or n_words == 1 and label == "CITY" and pop < BIG_CITY:
            return None
        return REVIEW
    if person:
        # ``from Charlotte`` / ``spoke to Austin`` may be a person; ``lives in Austin`` is not.
        if (strong and ctx_first != "from") or (ctx_first in ("in", "near", "outside") and pop >= BIG_CITY):
            return CERTAIN
        return REVIEW
    if strong:
        return CERTAIN
    if label == "CITY" and n_words == 1 and pop < BIG_CITY and ctx_first != "in":
        return REVIEW
    return CERTAIN


#: Words that make a following place likely on their own (``visiting Lisbon``), with no
#: preposition (see :func:`_place_context_word`).
PLACE_CONTEXT_ALONE = ("visiting", "hometown")


def place_rules(n: Note, t: Tables, r: Run, tail: list[str]) -> list[Span]:
    """A place at the start of a run: after a context word (``lives in Boston``), after a city
    and a comma (``Boston, Massachusetts``; ``Lisbon, Portugal``), or ``our Chicago clinic``;
    and a place inside the run after ``of`` or, in an ALL-CAPS note, after a preposition.
    ``tail`` is ``tail_words(n.text, r.start)``, or ``[]`` where its last word is none of
    :data:`.text.PREPOSITIONS`, :data:`PLACE_CONTEXT_ALONE`, ``our``, ``the`` (after opening
    punctuation): those are the only tails it reads. Returns the spans in order (a list, not a
    generator: called once per run, and most runs give none)."""
    run_words = r.words
    ctx_first = _place_context_word(tail) if tail else ""
    st = run_words[0].text
    out: list[Span] = []
    if len(st) == 2 and st.isupper():
        # a state abbreviation (handled by city_state), unless a residence word precedes an
        # unambiguous one: "lives in DC"
        if ctx_first in t.strong_context and st in t.abbrs and st not in t.ambiguous_abbr and (
                len(run_words) == 1 or run_words[1].nl):
            w = run_words[0]
            out.append(PLACE_CODE.span(w.start, w.end))
    else:
        found = lookup_place(t, run_words)
        # (nothing below can come of a run that starts no place, after no context word, our
        # or the: most runs)
        if found or ctx_first or tail and tail[-1] in ("our", "the"):
            out.extend(_run_start_place(n, t, r, list(run_words), tail, ctx_first, found))
    if len(run_words) > 1:
        caps = n.caps
        for k in range(1, len(run_words)):
            prev = run_words[k - 1].text
            if prev == "of" or (caps and prev in _CAPS_PREPOSITIONS):
                out.extend(_inner_place(n, t, run_words, k))
    return out


PLACE_CODE = Rule("locations:place_context:code", ("STATE",), _C,
                  "a state code after a residence word (lives in DC)", list="us_states.tsv",
                  reads=("place_context_words.txt", "state_abbr_ambiguous.txt"))
PLACE_UNKNOWN = Rule("locations:place_context:unknown", ("CITY",), _CR,
                     "a capitalised name on no place list after a residence or travel word "
                     "(relocating to Winooski)",
                     amber="in a note written in capitals the words may be ordinary",
                     reads=("place_context_words.txt", "hospital_words.txt"))
CITY_FACILITY = Rule("locations:city_facility", ("CITY", "STATE"), _C,
                     "a city or state before a facility word (our Boston clinic)",
                     list="us_places.tsv", reads=("us_states.tsv", "facility_cues.txt"))


def _run_start_place(n: Note, t: Tables, r: Run, words: list[Word], tail: list[str],
                     ctx_first: str, found) -> Iterator[Span]:
    """The place rules for the words at the start of a run (see :func:`place_rules`); ``found``
    is ``lookup_place(t, words)``."""
    text = n.text
    if ctx_first:
        if found:
            yield from _context_place(n, t, words, found, ctx_first)
        elif ctx_first in t.strong_context and ctx_first != "from" or _facility_in(t, tail):
            words = [words[0]] + list(same_line_words(words[1:]))
            if len(words) <= 2 and plain_city(words, t) and not any(w.text.isupper() for w in words):
                # certain in a note with lower case, every word Title case (lives in Bel Air)
                sure = not n.caps and all(w.text[:1].isupper() and w.text[1:].islower() for w in words)
                yield PLACE_UNKNOWN.span(words[0].start, trim_end(words[-1].end, text, words[0].start),
                                         tier=CERTAIN if sure else REVIEW)
    if found:
        k, label, pop = found
        prev = words_before_comma(n, r.start)
        if prev and label in ("STATE", "COUNTRY"):
            yield from _city_then_state_or_country(n, t, prev, words, k, label)
    if tail and tail[-1] in ("our", "the") and _CITY_FACILITY_AFTER_RE.match(text, r.end):
        run = list(r.words)
        state = next((run[-k:] for k in range(min(3, len(run)), 1, -1)
                      if place_key(" ".join(w.text for w in run[-k:])) in t.states), [])
        if state:   # "our New York clinic": a state of two or three words, not its last word
            yield CITY_FACILITY.span(state[0].start, state[-1].end, "STATE")
            return
        city = known_city_suffix(run, t)
        if city and not (len(city) == 1 and norm(city[0].text) in t.common_words):
            yield CITY_FACILITY.span(city[0].start, city[-1].end, "CITY")


def _facility_in(t: Tables, tail: list[str]) -> bool:
    """``from the VA in X``, ``a rehab in X``: ``in`` right after a hospital word (the town of
    the facility)."""
    return len(tail) >= 2 and tail[-1] == "in" and tail[-2] in t.hospital_words


_CAPS_PREPOSITIONS = frozenset(p.upper() for p in PREPOSITIONS)
_NEXT_WORD_RE = re.compile(r"(?:'s)?[ \t]+([A-Za-z]{2,30})")


def before_clinical_noun(text: str, end: int) -> bool:
    """Whether the word right after ``end`` (on the same line) is a clinical noun or an eponym
    follower (``catheter``, ``syndrome``, ``palsy``: lists/clinical_nouns.txt and
    lists/eponym_followers.txt, less the facility words: ``Boston clinic`` stays a place), so
    the place-shaped word before it names a device or disease."""
    m = _NEXT_WORD_RE.match(text, end)
    return bool(m) and m.group(1).lower() in _clinical_followers()


def _clinical_followers() -> frozenset[str]:
    global _FOLLOWERS
    if _FOLLOWERS is None:
        facility = (lists.handwritten("hospital_words") | lists.handwritten("departments")
                    | lists.handwritten("practice_words") | lists.handwritten("unit_words"))
        _FOLLOWERS = (lists.clinical_nouns() | lists.eponym_followers()) - facility
    return _FOLLOWERS


_FOLLOWERS: frozenset[str] | None = None


@lru_cache(maxsize=1)
def _clinical_abbr() -> frozenset[str]:
    """The ``clinical`` entries of ``lists/abbreviations.txt`` in capitals (``FOLEY``, ``CT``)."""
    return frozenset(a.upper() for a in lists.abbreviations("clinical"))


PLACE_CONTEXT = Rule(
    "locations:place_context", _PLACES, _CR, "a {detail} name after a place word (lives in, from)",
    amber="a place name after a bare preposition, or one that is also an ordinary word or a "
          "person's name, may not be a place",
    list="us_places.tsv", reads=_PLACE_LISTS[1:] + ("clinical_nouns.txt", "eponym_followers.txt"),
    detail="the kind of place")


def _context_place(n: Note, t: Tables, words: list[Word], found: tuple, ctx_first: str) -> Iterator[Span]:
    """The place ``found`` (``(n_words, label, population)``) at the start of ``words``, after
    the context word ``ctx_first``, with its tier (or nothing)."""
    text = n.text
    k, label, pop = found
    end = trim_end(words[k - 1].end, text, words[0].start)
    if text[end - 1] == "." and not words[k - 1].text.lower().startswith(("st.", "ft.", "mt.")):
        end -= 1
    if before_clinical_noun(text, end):
        return  # an eponym, not a place: "Hx of Foley catheter", "of Bell's palsy"
    if k == 1 and ctx_first in ("to", "from", "at", "on") and words[0].text.upper() in _clinical_abbr():
        return  # "DIURESIS FROM FOLEY", "TO CT": a device or test (lists/abbreviations.txt, clinical)
    key = place_key(" ".join(w.text for w in words[:k]))
    # another capitalised word right after (``Ohio River``) says nothing in an ALL-CAPS note
    followed = k < len(words) and not words[k].nl and not is_connector(words[k]) and not n.caps
    tier = _context_tier(t, key, label, k, pop, ctx_first, followed)
    if tier:
        yield PLACE_CONTEXT.span(words[0].start, end, label, tier, detail=label.lower())


def _inner_place(n: Note, t: Tables, run_words: tuple, k: int) -> Iterator[Span]:
    """A place inside a run, after ``of`` (``Ivo Brandt of Tacoma``) or, in an ALL-CAPS note,
    after a capitalised preposition (``SISTER WHO LIVES IN SPOKANE``); a city after a relative's
    name and ``of`` is certain (``daughter Ines of Chillicothe``)."""
    word = run_words[k]
    if word.nl:
        return
    if word.text.isupper() and len(word.text) == 2:
        return
    words = list(run_words[k:])
    found = lookup_place(t, words)
    if not found:
        return
    ctx_first = _place_context_word(tail_words(n.text, word.start))
    # "daughter Ines of Tilbury": a relative's name and "of" say where the relative lives
    kin = ctx_first == "of" and relative_before(n.text, run_words[0].start)
    for s in _context_place(n, t, words, found, ctx_first) if ctx_first else ():
        yield Span(s.start, s.end, s.label, CERTAIN, s.source) if kin and s.label == "CITY" else s



def _place_context_word(tail: list[str]) -> str:
    """The context word that makes a following place likely (``in``, ``lives``, ``from``), or ``""``."""
    k = len(tail) - 1 if tail and tail[-1] == "the" else len(tail)   # the words before "the"
    if not k:
        return ""
    last = tail[k - 1].lstrip("(\"“'‘")   # 'NEPHEW ("FROM X") CALLED'
    if last in PREPOSITIONS:
        place_verbs = tables().place_verbs
        for w in reversed(tail[max(0, k - 4):k - 1]):
            if w in place_verbs:
                return w
            if w not in ADVERBS:
                break
        return last
    return last if last in PLACE_CONTEXT_ALONE else ""



CITY_COUNTRY = Rule("locations:city_country", ("CITY", "COUNTRY"), _C,
                    "a city and its country after a comma (Lisbon, Portugal)", list="countries.txt",
                    reads=("place_name_collisions.txt",))
CITY_STATE_NAME = Rule("locations:city_state_name", ("CITY", "STATE", "ZIP"), _CR,
                       "a city and its state written out (Boston, Massachusetts)",
                       amber="the state's name is also a person's name, or the town is on no list",
                       list="us_states.tsv", reads=("us_places.tsv", "place_name_collisions.txt"))


def _city_then_state_or_country(n: Note, t: Tables, prev: list[Word], words: list[Word], k: int,
                                label: str) -> Iterator[Span]:
    text = n.text
    key = place_key(" ".join(w.text for w in words[:k]))
    if label == "COUNTRY":
        if key in t.name_collisions:
            return  # "Smith, Jordan" is a name
        yield CITY_COUNTRY.span(words[0].start, words[k - 1].end, "COUNTRY")
        city = city_words_after_facility(prev, t)
        if plain_city(city, t):
            yield CITY_COUNTRY.span(city[0].start, city[-1].end, "CITY")
        return
    abbr = t.states.get(key, "")
    city = known_city_suffix(prev, t)
    zip_m = re.compile(r",?[ \t]+(\d{5}(?:-\d{4})?)(?![\w-])").match(text, words[k - 1].end)
    ckey = place_key(" ".join(w.text for w in city))
    if city and (ckey, abbr) in t.place_pairs:
        tier = CERTAIN
    elif zip_m or (key not in t.name_collisions and (city or len(prev) <= 3)):
        tier = CERTAIN
    else:
        tier = REVIEW
    city_tier = tier
    if not city:
        city = city_words_after_facility(prev, t)[-3:]
        city_tier = REVIEW if tier == CERTAIN and not zip_m else tier
    if city and norm(city[0].text) not in t.not_first:
        yield CITY_STATE_NAME.span(city[0].start, city[-1].end, "CITY", city_tier)
    yield CITY_STATE_NAME.span(words[0].start, words[k - 1].end, "STATE", tier)
    if zip_m:
        yield CITY_STATE_NAME.span(zip_m.start(1), zip_m.end(1), "ZIP", CERTAIN)



PLACE_CONTEXT_LOWER = Rule(
    "locations:place_context_lower", _PLACES, _CR, "a {detail} name in lower case after a place word",
    amber="in a note without capitals only the place word before it suggests a place",
    list="us_places.tsv", reads=_PLACE_LISTS[1:], detail="the kind of place")


def lower_case_places(n: Note, t: Tables) -> Iterator[Span]:
    """All-lower-case notes: places after context words: certain after a residence word or
    ``from`` (``lives in southlake``; any population since session 6), review after another
    context word (``in southlake``). Nothing in a note with capitals (:attr:`.text.Note.lower`)."""
    if not n.lower:
        return
    text = n.text
    for m in t.context_lower_re.finditer(text):
        words = split_words(m.group("run"), m.start("run"))
        found = lookup_place(t, words)
        if not found:
            continue
        k, label, pop = found
        key = place_key(" ".join(w.text for w in words[:k]))
        ctx_first = _place_context_word(tail_words(text, m.start("ctx")) + [m.group("ctx")])
        if not ctx_first:
            continue
        tier = _context_tier(t, key, label, k, pop, ctx_first, False)
        if tier == CERTAIN and ctx_first not in t.strong_context:
            tier = REVIEW
        if tier:
            yield PLACE_CONTEXT_LOWER.span(words[0].start, words[k - 1].end, label, tier, detail=label.lower())


#: The rules :func:`place_rules` may give (run inside the capitalised runs by
#: :func:`deid_core.detectors.locations.detect`), and the passes of this module over the note.
RUN_RULES = (PLACE_CONTEXT, PLACE_CODE, PLACE_UNKNOWN, CITY_FACILITY, CITY_COUNTRY, CITY_STATE_NAME)
REGIONS_PASS = Pass(regions, (REGION,))
LOWER_CASE_PLACES_PASS = Pass(lower_case_places, (PLACE_CONTEXT_LOWER,))
