"""Fake places, institutions and professions, from the derived lists.

* City: a keyed pick among the 1,000 most populous U.S. places (``lists.us_places()``).
* State: a keyed state name, or a two-letter abbreviation when the original is one
  (``lists.us_states()``).
* Country: a keyed pick from ``lists.countries()``.
* Street and any location text with digits: house and unit numbers shape-kept (see
  :func:`deid_core.surrogate.shapes.shape_map`), street suffixes (``handwritten("street_suffixes")``),
  directions and unit words kept (:data:`STREET_WORDS`), state abbreviations swapped for another, the other words replaced by one
  fake name (a Census surname, ``Elm Street`` -> ``Garza Street``).
* Hospital, organisation, department, other location: a whole new name is built from one fake
  place and the original's generic words (the words of ``lists.handwritten("hospital_words")``
  and ``"departments"``, and :data:`INSTITUTION_WORDS`), so no part of the original
  proper name (``St.``, ``Agnes``, ``Brigham``) survives: ``<Place> <generic tail>``
  (``St. Agnes Women's Hospital`` -> ``Tulsa Women's Hospital``), or ``<generic head> of
  <Place>`` (``Children's Hospital of Boston`` -> ``Children's Hospital of Tulsa``); with no
  generic tail a HOSPITAL gets ``<Place> Hospital`` (``Brigham and Women's`` ->
  ``Tulsa Women's Hospital``) and other labels the place alone.
* Profession: a keyed pick from ``lists.handwritten("professions")``.

Every value keeps the original's letter case (ALL CAPS, lower, Title). Picks come from the
normalised original only, so a value gets the same fake in every note under one key; a pick equal
to the original or to another location written in the note is re-picked.
"""
from __future__ import annotations

import re

from .. import lists as _lists
from ..keys import LinkageKey, normalise
from .names import fake_pools, word_keys
from .shapes import shape_map

__all__ = ["PlaceFaker", "STREET_WORDS", "LINK_WORDS", "INSTITUTION_WORDS", "HEAD_WORDS", "style_like",
           "sorted_pool"]

#: Street suffixes (USPS), directions and unit words kept as written in an address.
STREET_WORDS: frozenset[str] = _lists.surrogate_place_words("street")
#: Linking words kept inside institution names.
LINK_WORDS: frozenset[str] = frozenset({"of", "the", "and", "for", "at", "in", "on", "&", "de", "la"})
#: Generic words of institution names besides the hand-written lists (descriptors and the
#: heads of organisation names); kept when they end the name.
INSTITUTION_WORDS: frozenset[str] = _lists.surrogate_place_words("institution")
#: Words that make a generic tail an institution (a tail of descriptors only, ``Women's``,
#: gets :data:`HOSPITAL_HEAD` added for a HOSPITAL).
HEAD_WORDS: frozenset[str] = _lists.surrogate_place_words("head")
HOSPITAL_HEAD = "Hospital"
#: How many of the biggest places fake cities are drawn from.
CITY_POOL_SIZE = 1000

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def style_like(new: str, like: str) -> str:
    """``new`` in the case style of ``like``: ALL CAPS, all lower, Title Case Words, or as
    written (``new`` given in its natural case, e.g. ``"San Jose"``)."""
    letters = [c for c in like if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return new.upper()
    if letters and all(c.islower() for c in letters):
        return new.lower()
    if new.islower():
        return " ".join(w if w in LINK_WORDS else w[:1].upper() + w[1:] for w in new.split(" "))
    return new


_POOL_CACHE: dict[str, tuple[object, tuple]] = {}


def sorted_pool(name: str, source, values: bool = False) -> tuple:
    """``tuple(sorted(set(source)))`` (of ``source.values()`` when ``values``) cached under
    ``name`` while ``source`` is the very same object (the list accessors return cached
    objects, so each pool is sorted once per process)."""
    hit = _POOL_CACHE.get(name)
    if hit is None or hit[0] is not source:
        hit = (source, tuple(sorted(set(source.values() if values else source))))
        _POOL_CACHE[name] = hit
    return hit[1]


def _institution_words() -> tuple[frozenset[str], frozenset[str]]:
    """(generic words, head words) of institution names: the hand-written hospital words and
    departments (words of 3+ letters) with :data:`INSTITUTION_WORDS` / :data:`HEAD_WORDS`;
    a department's last word (``cardiology``, ``medicine``) is a head word too."""
    hospital = _lists.handwritten("hospital_words")
    departments = _lists.handwritten("departments")
    hit = _POOL_CACHE.get("institution")
    if hit is None or hit[0][0] is not hospital or hit[0][1] is not departments:
        words = {w for entry in hospital | departments for w in entry.split() if len(w) > 2}
        heads = {entry.split()[-1] for entry in departments if len(entry.split()[-1]) > 2}
        hit = ((hospital, departments),
               (frozenset(words | INSTITUTION_WORDS), frozenset(heads | HEAD_WORDS)))
        _POOL_CACHE["institution"] = hit
    return hit[1]


def _norm(text: str) -> str:
    return " ".join(_TOKEN.findall(normalise(text)))


class PlaceFaker:
    """Fake locations and professions for one note.

    Args:
        key: the linkage key deciding every pick.
        excluded_words: normalised words (:func:`deid_core.surrogate.names.word_keys`) no fake
            may contain, e.g. every word of every span in the note.
    """

    def __init__(self, key: LinkageKey, excluded_words=()) -> None:
        self.key = key
        self.excluded = set(excluded_words)

    def _pick(self, pool, purpose: str, original: str) -> str:
        orig = _norm(original)
        for attempt in range(64):
            fake = self.key.choice(pool, purpose, orig, attempt)
            if _norm(fake) != orig and not (word_keys(fake) & self.excluded):
                return fake
        raise ValueError(f"no {purpose} surrogate distinct from the note's values")  # pragma: no cover

    # -- pools --------------------------------------------------------------------------------
    @staticmethod
    def _cities() -> tuple[str, ...]:
        places = _lists.us_places()
        hit = _POOL_CACHE.get("cities")
        if hit is None or hit[0] is not places:
            seen: dict[str, None] = {}
            for row in places:
                seen.setdefault(row[0], None)
                if len(seen) >= CITY_POOL_SIZE:
                    break
            hit = (places, tuple(seen))
            _POOL_CACHE["cities"] = hit
        return hit[1]

    # -- fakes --------------------------------------------------------------------------------
    def city(self, text: str) -> str:
        """A fake U.S. city in the case style of ``text``."""
        return style_like(self._pick(self._cities(), "city", text), text)

    def state(self, text: str) -> str:
        """A fake state: an abbreviation for a two-letter original, else a full name."""
        states = _lists.us_states()
        bare = text.replace(".", "").strip()
        if len(bare) == 2 and bare.isalpha():
            abbr = self._pick(sorted_pool("state:abbr", states, values=True), "state:abbr", bare)
            new = abbr.upper() if not bare.islower() else abbr.lower()
            if "." in text:  # N.Y. style
                new = new[0] + "." + new[1] + "."
            return new
        return style_like(self._pick(sorted_pool("state", states), "state", text), text)

    def country(self, text: str) -> str:
        """A fake country name in the case style of ``text``."""
        return style_like(self._pick(sorted_pool("country", _lists.countries()), "country", text), text)

    def profession(self, text: str) -> str:
        """A fake profession in the case style of ``text``."""
        return style_like(self._pick(sorted_pool("profession", _lists.handwritten("professions")),
                                     "profession", text), text)

    def _street_name(self, run: str) -> str:
        return style_like(self._pick(fake_pools().surnames, "street", run), run)

    def address(self, text: str, label: str) -> str | None:
        """A fake for street/address-like text: numbers shape-kept, :data:`STREET_WORDS` kept,
        two-letter state abbreviations replaced, each run of other words replaced by one fake
        (a city for CITY spans, else a street name)."""
        states = {v.casefold() for v in _lists.us_states().values()}
        keep = STREET_WORDS | _lists.handwritten("street_suffixes")
        out: list[str] = []
        pos = 0
        run: list[tuple[int, int]] = []

        def flush() -> None:
            nonlocal pos
            if not run:
                return
            s, e = run[0][0], run[-1][1]
            out.append(text[pos:s])
            words = text[s:e]
            out.append(self.city(words) if label == "CITY" else self._street_name(words))
            pos = e
            run.clear()

        for m in _TOKEN.finditer(text):
            tok = m.group()
            low = tok.casefold()
            if any(c.isdigit() for c in tok) or (len(tok) == 1 and low not in keep):
                flush()
                out.append(text[pos:m.start()])
                out.append(shape_map(self.key, "address:number", tok) or tok)
                pos = m.end()
            elif low in keep:
                flush()
            elif len(tok) == 2 and tok.isupper() and low in states:
                flush()
                out.append(text[pos:m.start()])
                out.append(self.state(tok))
                pos = m.end()
            else:
                if run and not text[run[-1][1]:m.start()].strip(" \t"):
                    run.append(m.span())
                else:
                    flush()
                    run.append(m.span())
        flush()
        out.append(text[pos:])
        result = "".join(out)
        return None if _norm(result) == _norm(text) else result

    def institution(self, text: str, label: str) -> str:
        """A whole fake hospital/organisation/department/location name: one fake place with the
        original's generic words around it (see the module docstring); no other word of the
        original is kept. ALL CAPS and lower-case originals give ALL CAPS / lower-case fakes."""
        generic, heads = _institution_words()
        toks = [(m.start(), m.end(), m.group().casefold().replace("’", "'"))
                for m in _TOKEN.finditer(text)]

        def is_generic(low: str) -> bool:
            return low in generic or low in LINK_WORDS

        # trailing generic run, without the linking words it starts with
        i = len(toks)
        while i > 0 and is_generic(toks[i - 1][2]):
            i -= 1
        while i < len(toks) and toks[i][2] in LINK_WORDS:
            i += 1
        tail = toks[i:]
        # leading generic run ending in a linking word: "Children's Hospital of"
        j = 0
        while j < len(toks) and is_generic(toks[j][2]):
            j += 1
        while j > 0 and toks[j - 1][2] not in LINK_WORDS:
            j -= 1
        head = toks[:j]
        place = self.city(text)
        upper = sum(c.isupper() for c in text) > 1 and not any(c.islower() for c in text)
        lower = any(c.isalpha() for c in text) and not any(c.isupper() for c in text)

        def case(value: str) -> str:
            return value.upper() if upper else value.lower() if lower else value

        has_head = any(t[2] in heads for t in tail)
        if tail and (has_head or label != "HOSPITAL"):
            result = place + " " + text[tail[0][0]:tail[-1][1]]
        elif head and any(t[2] not in LINK_WORDS for t in head) and j < len(toks):
            result = text[:head[-1][1]] + " " + place
        elif label == "HOSPITAL":
            words = text[tail[0][0]:tail[-1][1]] + " " if tail else ""
            result = place + " " + words + case(HOSPITAL_HEAD)
        else:
            result = place
        return result
