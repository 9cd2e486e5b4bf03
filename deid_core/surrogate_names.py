"""Fake person names that keep the person, the sex of the given name, the case and the layout.

A name span's text is split into *units* (words joined by hyphens, ``Smith-Jones``), initials
(``C``, ``C.``), and kept words (suffixes and credentials: ``Jr``, ``III``, ``MD``; surname
particles before another name: ``van der``, ``DE LA``). Each unit
gets a role:

* ``LAST, FIRST M`` (a comma after the first unit): the units before the comma are the surname,
  the first after it the given name, the rest middle names.
* otherwise, two or more units: the last is the surname, the first the given name, others middle.
* one unit: a surname when the note already used it as one, when an initial or a title
  (``Dr``, ``Mrs``...) comes before it, or when it is not a given name in the Census list;
  otherwise a given name.

Every part is replaced by a keyed pick (:class:`deid_core.keys.LinkageKey`) made from its
normalised spelling and role only, so the same surname maps to the same fake surname wherever and
in whatever layout it appears, in this note and in every note run with the same key. A given name
is replaced by one of the same sex (Census 1990 lists: ``M``, ``F`` or ``MF`` for both; a name
in both lists counts as the sex it is far more common in, see :func:`usual_sex`). An
initial becomes the initial of the fake name of the same person when the note spells that person
out elsewhere (``John Smith`` ... ``J. Smith``), else a keyed letter. A pick never equals the
original part nor any other name part written in the note (re-picked with the next attempt).
"""
from __future__ import annotations

import re
import string
from functools import lru_cache
from collections.abc import Iterable

from . import lists as _lists
from .dateshift import format_like_case
from .keys import LinkageKey, normalise

__all__ = ["NameFaker", "name_parts", "word_keys"]

#: Words kept as written inside a name span (generational suffixes, degrees, credentials).
KEPT_WORDS: frozenset[str] = frozenset({
    "jr", "sr", "ii", "iii", "iv", "v", "md", "do", "rn", "np", "pa", "phd", "dds", "dmd", "pharmd",
    "mph", "msn", "bsn", "lpn", "cnp", "crna", "facp", "facs", "pac", "esq",
})
#: Surname particles kept as written when another name follows (``van der Berg``, ``DE LA CRUZ``).
PARTICLES: frozenset[str] = frozenset({"van", "von", "der", "den", "de", "del", "della", "di", "da",
                                       "dos", "das", "du", "la", "le", "st", "ste", "bin", "ibn",
                                       "al", "el", "ter", "ten"})
#: Titles that make a following lone name a surname (``Dr Smith``).
TITLES: frozenset[str] = frozenset({"mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "madam"})

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
        elif _key(w) in KEPT_WORDS and parts:
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


class _Pools:
    """Sorted pick lists built from the Census lists (rebuilt if the lists change)."""

    def __init__(self) -> None:
        self._src: tuple[object, ...] = ()

    def get(self) -> "_Pools":
        """The pools for the current list objects, rebuilt when an accessor returns another."""
        given = _lists.given_names()
        sur = _lists.surnames()
        percents = given_name_percents()
        src = (given, sur, percents)
        if len(src) != len(self._src) or any(a is not b for a, b in zip(src, self._src)):
            given = {n: usual_sex(n, sex, percents) for n, sex in given.items()}
            self.given_sex = given
            self.surname_set = sur
            by_sex: dict[str, list[str]] = {"M": [], "F": [], "MF": []}
            for name, sex in given.items():
                by_sex.setdefault(sex, []).append(name)
            self.given_by_sex = {s: tuple(sorted(v)) for s, v in by_sex.items()}
            self.given_all = tuple(sorted(given))
            self.surnames = tuple(sorted(sur))
            self._src = src
        return self


_POOLS = _Pools()


class NameFaker:
    """Fake names for one note.

    Args:
        key: the linkage key deciding every pick.
        originals: the texts of every name span in the note; their full names teach initials
            (``John Smith`` lets ``J. Smith`` follow).
        excluded: normalised words never used as a fake (default: the words of ``originals``;
            the surrogate writer passes the words of every span in the note).

    Raises:
        FileNotFoundError: if the Census list files are missing (see :mod:`deid_core.lists`).
    """

    def __init__(self, key: LinkageKey, originals: Iterable[str] = (),
                 excluded: Iterable[str] | None = None) -> None:
        self.key = key
        self.pools = _POOLS.get()
        originals = list(originals)
        self.excluded: set[str] = set(excluded) if excluded is not None else set()
        self.known_surnames: set[str] = set()
        self.given_for: dict[tuple[str, str], str] = {}  # (surname, initial) -> given name
        if excluded is None:
            for text in originals:
                self.excluded.update(word_keys(text))
        for text in originals:
            roles = self._roles(text, "")
            given = [k for k, r in roles if r == "given"]
            surs = [k for k, r in roles if r == "surname"]
            self.known_surnames.update(surs)
            if given and surs:
                self.given_for.setdefault((surs[-1], given[0][0]), given[0])

    # -- roles --------------------------------------------------------------------------------
    def _roles(self, text: str, before: str) -> list[tuple[str, str]]:
        """``(normalised part, role)`` per part, role ``surname``/``given``/``initial``/``kept``."""
        parts = name_parts(text)
        roles: dict[int, str] = {i: p[2] for i, p in enumerate(parts)}
        for i, p in enumerate(parts[:-1]):
            if (p[2] == "unit" and parts[i + 1][2] == "unit"
                    and _key(text[p[0]:p[1]]) in PARTICLES):
                roles[i] = "kept"
        units = [i for i, p in enumerate(parts) if roles[i] == "unit"]
        comma = text.find(",")
        if units and comma >= parts[units[0]][1] and any(parts[i][0] > comma for i in units):
            after = [i for i in units if parts[i][0] > comma]
            for i in units:
                roles[i] = "surname" if parts[i][0] < comma else "given"
            roles[after[0]] = "given"
        elif len(units) >= 2:
            for i in units:
                roles[i] = "given"
            roles[units[-1]] = "surname"
        elif len(units) == 1:
            i = units[0]
            k = _key(text[parts[i][0]:parts[i][1]])
            initial_before = any(p[2] == "initial" for p in parts[:i])
            title_inside = any(_key(text[p[0]:p[1]]) in TITLES for p in parts[:i])
            if (k in getattr(self, "known_surnames", ()) or initial_before
                    or title_inside or _TITLE_BEFORE.search(before) or k not in self.pools.given_sex):
                roles[i] = "surname"
            else:
                roles[i] = "given"
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
        """Fake given name (lower case) of the same sex for a normalised given name."""
        sex = self.pools.given_sex.get(original)
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

    # -- whole span ---------------------------------------------------------------------------
    def fake(self, text: str, before: str = "") -> str:
        """The fake for a name span's ``text`` with the same layout, case and punctuation.

        Args:
            text: the span's characters, e.g. ``"SMITH, JOHN C"``.
            before: text just before the span (to see a title such as ``Dr.``).
        """
        parts = name_parts(text)
        roles = self._roles(text, before)
        surname = next((k for k, r in roles if r == "surname"), None)
        out = []
        pos = 0
        for (s, e, _), (k, role) in zip(parts, roles):
            out.append(text[pos:s])
            word = text[s:e]
            if role == "kept":
                out.append(word)
            elif role == "initial":
                letter = self.initial(k, surname)
                out.append(letter.upper() if word.isupper() or not word.islower() else letter)
            else:
                pieces = word.split("-")
                fakes = []
                for piece in pieces:
                    pk = _key(piece)
                    if not pk:
                        fakes.append(piece)
                        continue
                    new = self.surname(pk) if role == "surname" else self.given(pk)
                    fakes.append(format_like_case(new, piece))
                out.append("-".join(fakes))
            pos = e
        out.append(text[pos:])
        return "".join(out)
