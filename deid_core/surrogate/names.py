"""Fake person names that keep the person, the sex of the given name, the case and the layout.

A name span's text is split into *units* (words joined by hyphens, ``Smith-Jones``), initials
(``C``, ``C.``), kept words (suffixes and credentials: ``Jr``, ``III``, ``MD``; a credential
that is also a name, ``Do``, only in capitals) and surname particles (``van der``, ``DE LA``: a
particle with another name after it on its side of the comma, not the first word of a two-word
name such as ``Della Johnson`` or ``Van Young``, where it is the given name). A particle is
replaced by another particle (never copied: ``Le``, ``Van`` are name parts too), and a run of
them as one: a two-word run by a real two-word run (``de la Cruz`` -> ``van der ...``, not
``bin ibn ...``; ``lists/particle_phrases.txt``), each word in the case of the word it
replaces; a particle joined by a hyphen (``al-Rashid``) by another such particle
(``el-...``); a span that is only a particle (``de`` when the detector found ``de`` and
``Cruz`` apart) by a particle, never by a surname. Each unit gets a role:

* ``LAST, FIRST M`` (a comma after the first unit): the units before the comma are the surname,
  the first after it the given name, the rest middle names.
* otherwise, two or more units: the last is the surname, the first the given name, others middle.
* one unit: a given name when a relation word (``husband``, ``his daughter``; the detector's
  ``names:relation:<word>`` source says the same) or a first-name cue (``first name:``,
  ``goes by``) comes just before it, unless the note uses it as a surname and never as a given
  name (``Her spouse Rivers`` after ``Di Rivers``); a surname when an initial or a title
  (``Dr``, ``Mrs``...) comes before it, when the note already used it as one, or when it is
  neither a given name in the Census list nor used as a given name elsewhere in the note;
  otherwise a given name.
* a lone word of 2-4 capital letters that is in neither Census list (``JS``, ``RMT``, a
  signature or ``cc:`` line), 2-4 capitals inside a longer span that are the initials of the
  rest of it (``JTW James T. Wolcott``), or a lone 2-4 letter word the detector found as initials
  (source containing ``initials``: ``-- jkm``), is a set of initials: it becomes as many fake
  letters in the same case (the initials of that person's fake name when the note spells the
  person out, ``John Smith`` ... ``JS``). Dotted initials (``J.S.``) are initials letter by
  letter.

Every part is replaced by a keyed pick (:class:`deid_core.keys.LinkageKey`) made from its
normalised spelling and role only, so the same surname maps to the same fake surname wherever and
in whatever layout it appears, in this note and in every note run with the same key. A given name
is replaced by one of the same sex (Census 1990 lists: ``M``, ``F`` or ``MF`` for both; a name
in both lists counts as the sex it is far more common in, see :func:`usual_sex`); a name after a
relation word takes the relation's sex (:func:`relation_sex`: husband, son -> ``M``; wife,
daughter -> ``F``), for that name throughout the note. An
initial becomes the initial of the fake name of the same person when the note spells that person
out elsewhere (``John Smith`` ... ``J. Smith``), else a keyed letter. A pick never equals the
original part nor any other name part written in the note (re-picked with the next attempt).
Fake picks never use a name that is also an ordinary English word or a medical term
(``lists.english_collisions()``, ``lists.medical_collisions()``: no ``Mr. Kind``, no
``Dr. Parkinson``): see :func:`fake_pools`.
"""
from __future__ import annotations

import re
import string
from functools import lru_cache
from collections.abc import Iterable

from .. import lists as _lists
from ..dateshift import format_like_case
from ..keys import LinkageKey, normalise
from .particles import HYPHEN_POOL, PARTICLES, particle_runs, pick_run

__all__ = ["NameFaker", "name_parts", "word_keys", "relation_sex", "fake_pools", "is_initials"]

#: Words kept as written inside a name span (generational suffixes, degrees, credentials):
#: :func:`deid_core.lists.name_suffixes`.
KEPT_WORDS: frozenset[str] = _lists.name_suffixes()
#: Credentials that are also names: kept only when written in capitals (``Dr. Grace Do``: a name).
NAME_LIKE_CREDENTIALS: frozenset[str] = _lists.name_suffixes(caps_only=True)
#: Titles that make a following lone name a surname (``Dr Smith``): the courtesy titles of
#: ``lists/titles.txt``.
TITLES: frozenset[str] = _lists.courtesy_titles()

#: Relation words with a sex (``lists/relations.txt``, rows used by ``surrogate``); prefixes
#: ``step``/``grand``/``god``/``great``/``half``/``ex`` and ``-in-law`` are looked through
#: (``granddaughter`` -> F, ``brother-in-law`` -> M).
MALE_RELATIONS: frozenset[str] = frozenset(w for w, s in _lists.relation_sexes().items() if s == "M")
FEMALE_RELATIONS: frozenset[str] = frozenset(w for w, s in _lists.relation_sexes().items()
                                             if s == "F")
#: Relation words without a sex (the name list's sex is used).
NEUTRAL_RELATIONS: frozenset[str] = frozenset(w for w, s in _lists.relation_sexes().items()
                                              if s == "any")
_REL_PREFIXES = ("great-", "great", "step-", "step", "grand", "god", "half-", "ex-", "foster ")
#: Words just before a lone name that make it a first name (``first name: Tomasz``).
#: Cue ``first_name`` of ``lists/name_cues.txt``.
FIRST_NAME_CUES: tuple[str, ...] = tuple(sorted(_lists.name_cue_words("first_name")))

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_UNIT = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*(?:-[^\W\d_]+(?:['’][^\W\d_]+)*)*")
_TITLE_BEFORE = re.compile(r"(?<![^\W\d_])(" + "|".join(sorted(TITLES, key=len, reverse=True))
                           + r")\.?\s*$", re.I)


def _key(word: str) -> str:
    """Lookup form of a name word: accents and punctuation dropped, case-folded."""
    return "".join(c for c in normalise(word) if c.isalnum())


def word_keys(text: str) -> set[str]:
    """The normalised words of ``text`` (letters only, accents and punctuation dropped)."""
    return {k for k in (_key(m.group()) for m in _WORD.finditer(text)) if k}


def relation_sex(word: str) -> str | None:
    """``"M"``/``"F"`` for a relation word with a sex (``husband``, ``Granddaughter``,
    ``brother-in-law``), ``"?"`` for a relation without one (``partner``), ``None`` for a word
    that is not a relation."""
    w = re.sub(r"['’]s$", "", normalise(word).strip(" .,:;")) if word else ""
    w = w.replace("-in-law", "").replace(" in law", "")
    for _ in range(3):
        if w in MALE_RELATIONS:
            return "M"
        if w in FEMALE_RELATIONS:
            return "F"
        if w in NEUTRAL_RELATIONS:
            return "?"
        for p in _REL_PREFIXES:
            if w.startswith(p) and len(w) > len(p) + 1:
                w = w[len(p):]
                break
        else:
            return None
    return None


_RELATION_SOURCE = re.compile(r":relation:([^\W\d][\w\-]*)")
_RELATION_BEFORE = re.compile(r"([^\W\d_][^\W\d_'’\-]*(?:-[^\W\d_]+)*)(?:['’]s)?[\s,:;(\-]*$")
_CUE_BEFORE = re.compile(r"(?<![^\W\d_])(" + "|".join(sorted((re.escape(c) for c in FIRST_NAME_CUES),
                                                           key=len, reverse=True))
                         + r")\s*[:,\-]?\s*$", re.I)


def context_sex(before: str, source: str = "") -> str | None:
    """What the text ``before`` a lone name (and the detector's ``source``) say about it:
    ``"M"``/``"F"``/``"?"`` when it is a first name (after a relation word or a first-name cue;
    ``"?"`` = sex unknown), ``None`` when they say nothing."""
    for word in _RELATION_SOURCE.findall(source):
        sex = relation_sex(word.replace("_", " "))
        if sex:
            return sex
    m = _RELATION_BEFORE.search(before)
    if m:
        sex = relation_sex(m.group(1))
        if sex:
            return sex
    if _CUE_BEFORE.search(before):
        return "?"
    return None


_INITIALS = re.compile(r"[A-Z]{2,4}")


def is_initials(word: str, listed: object = ()) -> bool:
    """True for 2-4 capital letters (``JS``, ``RMT``) that are not a name in ``listed``
    (a container of lower-case names: ``LEE``, ``NG`` stay names), nor a particle, suffix,
    credential or title (``DE``, ``JR``, ``MD``, ``DR``)."""
    low = word.lower()
    return (bool(_INITIALS.fullmatch(word)) and low not in listed
            and low not in PARTICLES and low not in KEPT_WORDS and low not in TITLES)


def name_parts(text: str) -> list[tuple[int, int, str]]:
    """Split a name span's text into ``(start, end, kind)`` parts, ``kind`` one of ``"unit"``
    (a name, possibly hyphenated), ``"initial"`` (one letter) or ``"kept"`` (suffix/credential,
    or a leading title such as ``Dr``).
    Characters between parts (spaces, commas, dots, line breaks) are not listed."""
    parts = []
    for m in _UNIT.finditer(text):
        w = m.group()
        if len(_key(w)) == 1 and "-" not in w:
            kind = "initial"
        elif (_key(w) in KEPT_WORDS and parts
              and (w.isupper() or _key(w) not in NAME_LIKE_CREDENTIALS)):
            kind = "kept"
        elif _key(w) in TITLES and not parts and _UNIT.search(text, m.end()):
            kind = "kept"  # a title the detector included: "Dr. Smith"
        else:
            kind = "unit"
        parts.append((m.start(), m.end(), kind))
    return parts


#: A name in both Census given-name files counts as one sex when its share among that sex is at
#: least this many times its share among the other (``john``: 3.27 % of men, 0.01 % of women).
SEX_DOMINANCE = 4.0


@lru_cache(maxsize=1)
def given_name_percents() -> dict[str, dict[str, float]]:
    """``{name: {"M": percent, "F": percent}}`` from ``lists/given_names.tsv`` (Census 1990;
    columns name, sex, percent), to tell the usual sex of a name found in both files."""
    out: dict[str, dict[str, float]] = {}
    for row in _lists.read_list("given_names.tsv").rows:
        out.setdefault(row[0], {})[row[1]] = float(row[2])
    return out


def usual_sex(name: str, listed: str, percents: dict[str, dict[str, float]]) -> str:
    """``"M"``, ``"F"`` or ``"MF"`` for a given name listed with sex ``listed``: an ``MF`` name
    whose share in one sex is :data:`SEX_DOMINANCE` times the other's counts as that sex."""
    if listed != "MF":
        return listed
    p = percents.get(name, {})
    m, f = p.get("M", 0.0), p.get("F", 0.0)
    if m and m >= SEX_DOMINANCE * f:
        return "M"
    if f and f >= SEX_DOMINANCE * m:
        return "F"
    return "MF"


#: A pick list keeps only names that are not English or medical words when at least this many
#: remain (the real lists keep about 21,000 surnames and 4,400 given names); a smaller
#: stand-in list is used whole.
MIN_CLEAN_POOL = 20


class _Pools:
    """Sorted pick lists built from the Census lists, less the English and medical collisions
    (rebuilt if the lists change)."""

    def __init__(self) -> None:
        self._src: tuple[object, ...] = ()

    def get(self) -> "_Pools":
        """The pools for the current list objects, rebuilt when an accessor returns another."""
        given = _lists.given_names()
        sur = _lists.surnames()
        percents = given_name_percents()
        english = _lists.english_collisions()
        medical = _lists.medical_collisions()
        src = (given, sur, percents, english, medical)
        if len(src) != len(self._src) or any(a is not b for a, b in zip(src, self._src)):
            given = {n: usual_sex(n, sex, percents) for n, sex in given.items()}
            self.given_sex = given
            self.surname_set = sur
            bad = english | medical

            def clean(names) -> tuple[str, ...]:
                kept = tuple(sorted(n for n in names if n not in bad))
                return kept if len(kept) >= MIN_CLEAN_POOL else tuple(sorted(names))

            by_sex: dict[str, list[str]] = {"M": [], "F": [], "MF": []}
            for name, sex in given.items():
                by_sex.setdefault(sex, []).append(name)
            self.given_by_sex = {s: clean(v) for s, v in by_sex.items()}
            self.given_all = clean(given)
            self.surnames = clean(sur)
            self.listed = set(given) | set(sur)
            self._src = src
        return self


_POOLS = _Pools()


def fake_pools() -> "_Pools":
    """The current pick lists: ``surnames``, ``given_all`` and ``given_by_sex`` (``"M"``,
    ``"F"``, ``"MF"``) are sorted tuples of lower-case Census names that are neither
    ``lists.english_collisions()`` nor ``lists.medical_collisions()`` (unless fewer than
    :data:`MIN_CLEAN_POOL` would remain); ``given_sex`` maps
    every listed given name to its usual sex; ``listed`` is every listed name."""
    return _POOLS.get()


class NameFaker:
    """Fake names for one note.

    Args:
        key: the linkage key deciding every pick.
        originals: every name span in the note, each its text or a ``(text, before, source)``
            triple (``before``: up to ~40 characters just before the span; ``source``: the
            span's detector source). Full names teach initials (``John Smith`` lets
            ``J. Smith`` and ``JS`` follow); relation contexts teach first names and their sex.
        excluded: normalised words never used as a fake (default: the words of ``originals``;
            the surrogate writer passes the words of every span in the note).

    Raises:
        FileNotFoundError: if the Census list files are missing (see :mod:`deid_core.lists`).
    """

    def __init__(self, key: LinkageKey, originals: Iterable[str | tuple[str, str, str]] = (),
                 excluded: Iterable[str] | None = None) -> None:
        self.key = key
        self.pools = _POOLS.get()
        items = [(o, "", "") if isinstance(o, str) else (o[0], o[1], o[2]) for o in originals]
        self.excluded: set[str] = set(excluded) if excluded is not None else set()
        self.known_surnames: set[str] = set()
        self.known_given: set[str] = set()
        self.learned_sex: dict[str, str] = {}  # first name -> sex its relation word gave
        self.given_for: dict[tuple[str, str], str] = {}  # (surname, initial) -> given name
        self.initials_for: dict[str, list[tuple[str, str]] | None] = {}  # "js" -> parts, None if ambiguous
        if excluded is None:
            for text, _, _ in items:
                self.excluded.update(word_keys(text))
        # pass 1: full names and names in a first-name context; pass 2: everything else
        lone: list[tuple[str, str, str]] = []
        cued: list[tuple[str, str, str]] = []
        for text, before, source in items:
            roles = self._roles(text, before, source)
            named = [(k, r) for k, r in roles if r in ("given", "surname", "initial")]
            sex = context_sex(before, source)
            if sex in ("M", "F"):
                for k, r in roles:
                    if r == "given":
                        self.learned_sex.setdefault(k, sex)
                        break
            if sum(r != "initial" for _, r in named) >= 2:
                self._learn(roles)
                initials = "".join(k[0] for k, _ in named)
                if 2 <= len(initials) <= 4:
                    seen = self.initials_for.get(initials, named)
                    self.initials_for[initials] = named if seen == named else None
            elif any(r == "given" for _, r in roles) and sex:
                cued.append((text, before, source))
            else:
                lone.append((text, before, source))
        # full names first, so a surname written alone after a relation word is seen as one
        for text, before, source in cued + lone:
            self._learn(self._roles(text, before, source))

    def _learn(self, roles: list[tuple[str, str]]) -> None:
        given = [k for k, r in roles if r == "given"]
        surs = [k for k, r in roles if r == "surname"]
        self.known_surnames.update(surs)
        self.known_given.update(given)
        if given and surs:
            self.given_for.setdefault((surs[-1], given[0][0]), given[0])

    # -- roles --------------------------------------------------------------------------------
    def _roles(self, text: str, before: str, source: str = "") -> list[tuple[str, str]]:
        """``(normalised part, role)`` per part, role ``surname``/``given``/``initial``/
        ``initials``/``particle``/``kept``."""
        parts = name_parts(text)
        roles: dict[int, str] = {i: p[2] for i, p in enumerate(parts)}
        unit_idx = [i for i, p in enumerate(parts) if p[2] == "unit"]
        by_source = "initials" in source and len(unit_idx) == 1
        for i in unit_idx:
            word = text[parts[i][0]:parts[i][1]]
            if len(unit_idx) == 1:
                lone = (i == 0 or parts[i - 1][2] != "initial") and (
                    is_initials(word, self.pools.listed) or (by_source and is_initials(word.upper())))
                if lone:
                    roles[i] = "initials"
            elif is_initials(word):  # "JTW James T. Wolcott": the letters of the rest
                rest = "".join(_key(text[p[0]:p[1]])[:1] for j, p in enumerate(parts)
                               if j != i and p[2] in ("unit", "initial"))
                if rest == word.lower():
                    roles[i] = "initials"
        comma = text.find(",")
        all_units = [i for i in range(len(parts)) if roles[i] == "unit"]
        for n, i in enumerate(all_units):
            side = comma >= 0 and parts[i][0] > comma
            after = [j for j in all_units[n + 1:] if (comma >= 0 and parts[j][0] > comma) == side]
            if (_key(text[parts[i][0]:parts[i][1]]) in PARTICLES and after
                    and any(_key(text[parts[j][0]:parts[j][1]]) not in PARTICLES for j in after)
                    and (n > 0 and (comma < 0 or side == (parts[all_units[n - 1]][0] > comma))
                         or len(after) >= 2 or (comma >= 0 and not side))):
                roles[i] = "particle"
        units = [i for i, p in enumerate(parts) if roles[i] == "unit"]
        if units and comma >= parts[units[0]][1] and any(parts[i][0] > comma for i in units):
            after = [i for i in units if parts[i][0] > comma]
            for i in units:
                roles[i] = "surname" if parts[i][0] < comma else "given"
            roles[after[0]] = "given"
        elif len(units) >= 2:
            for i in units:
                roles[i] = "given"
            roles[units[-1]] = "surname"
        elif (len(units) == 1 and len(parts) == 1 and _key(text[parts[0][0]:parts[0][1]]) in PARTICLES
              and not text[parts[0][0]:parts[0][1]].isupper() and text[parts[0][0]].islower()):
            roles[units[0]] = "particle"   # "de" found apart from "la Cruz": a particle
        elif len(units) == 1:
            i = units[0]
            word = text[parts[i][0]:parts[i][1]]
            k = _key(word)
            initial_before = any(p[2] == "initial" for p in parts[:i])
            title = (any(_key(text[p[0]:p[1]]) in TITLES for p in parts[:i])
                     or _TITLE_BEFORE.search(before))
            known_sur = (k in getattr(self, "known_surnames", ())
                         and k not in getattr(self, "known_given", ()))
            if initial_before or title or known_sur:
                roles[i] = "surname"
            elif context_sex(before, source):
                roles[i] = "given"
            elif k in getattr(self, "known_surnames", ()):
                roles[i] = "surname"
            elif k in getattr(self, "known_given", ()) or k in self.pools.given_sex:
                roles[i] = "given"
            else:
                roles[i] = "surname"
        return [(_key(text[s:e]), roles[i]) for i, (s, e, _) in enumerate(parts)]

    # -- picks --------------------------------------------------------------------------------
    def _pick(self, pool: tuple[str, ...], purpose: str, original: str) -> str:
        for attempt in range(64):
            fake = self.key.choice(pool, purpose, original, attempt)
            if fake != original and fake not in self.excluded:
                return fake
        raise ValueError(f"no {purpose} surrogate distinct from the note's names")  # pragma: no cover

    def surname(self, original: str) -> str:
        """Fake surname (lower case) for a normalised surname."""
        return self._pick(self.pools.surnames, "surname", original)

    def given(self, original: str) -> str:
        """Fake given name (lower case) of the same sex for a normalised given name (the sex
        a relation word gave it in this note, else its usual sex in the Census lists)."""
        sex = self.learned_sex.get(original) or self.pools.given_sex.get(original)
        pool = self.pools.given_by_sex.get(sex) if sex else None
        return self._pick(pool or self.pools.given_all, "given:" + (sex or "?"), original)

    def initial(self, letter: str, surname: str | None) -> str:
        """Fake initial (lower case) for an initial written before ``surname`` (if any)."""
        if surname:
            given = self.given_for.get((surname, letter))
            if given:
                return self.given(given)[0]
        letters = tuple(c for c in string.ascii_lowercase if c != letter)
        return self.key.choice(letters, "initial", letter)

    def initials(self, original: str) -> str:
        """Fake initials (lower case, same length) for run-together initials such as ``js``:
        the initials of the fake name of the person the note spells out with those initials
        (one person only), else keyed letters; never equal to ``original``."""
        parts = self.initials_for.get(original)
        if parts:
            surname = next((k for k, r in parts if r == "surname"), None)
            fake = "".join((self.surname(k) if r == "surname" else self.given(k) if r == "given"
                            else self.initial(k, surname))[0] for k, r in parts)
            if fake != original:
                return fake
        for attempt in range(_ATTEMPTS_INITIALS):
            fake = "".join(self.key.choice(string.ascii_lowercase, f"initials:{i}", original, attempt)
                           for i in range(len(original)))
            if fake != original:
                return fake
        return "".join("a" if c != "a" else "b" for c in original)  # pragma: no cover

    # -- whole span ---------------------------------------------------------------------------
    def fake(self, text: str, before: str = "", source: str = "") -> str:
        """The fake for a name span's ``text`` with the same layout, case and punctuation.

        Args:
            text: the span's characters, e.g. ``"SMITH, JOHN C"``.
            before: text just before the span (to see a title such as ``Dr.`` or a relation
                word such as ``husband``; ~40 characters are plenty).
            source: the span's detector source (``names:relation:wife`` marks a first name).
        """
        parts = name_parts(text)
        roles = self._roles(text, before, source)
        surname = next((k for k, r in roles if r == "surname"), None)
        out = []
        pos = 0
        runs = particle_runs(text, parts, roles,
                             lambda pool, run: pick_run(self.key, self.excluded, pool, run))
        for n, ((s, e, _), (k, role)) in enumerate(zip(parts, roles)):
            if role == "particle":
                if n in runs:
                    out.append(text[pos:s])
                    out.append(runs[n])
                pos = e
                continue
            out.append(text[pos:s])
            word = text[s:e]
            if role == "kept":
                out.append(word)
            elif role == "initial":
                letter = self.initial(k, surname)
                out.append(letter.upper() if word.isupper() or not word.islower() else letter)
            elif role == "initials":
                new = self.initials(k)
                out.append(new if word.islower() else new.upper())
            else:
                pieces = word.split("-")
                fakes = []
                for j, piece in enumerate(pieces):
                    pk = _key(piece)
                    if not pk:
                        fakes.append(piece)
                        continue
                    if j < len(pieces) - 1 and pk in PARTICLES and HYPHEN_POOL:
                        # "al-Rashid": a particle joined by a hyphen stays a particle
                        new = self._pick(HYPHEN_POOL, "particle:hyphen", pk)
                    else:
                        new = self.surname(pk) if role == "surname" else self.given(pk)
                    fakes.append(format_like_case(new, piece))
                out.append("-".join(fakes))
            pos = e
        out.append(text[pos:])
        return "".join(out)


_ATTEMPTS_INITIALS = 32
