"""Look-ups in the knowledge lists of ``lists/`` that the engine reads (issue 20): whether a word
is clinical shorthand, whether it is an ordinary word (not name-shaped on its own), the
nicknames of a name, the U.S. care facilities and their short forms, the organisations a note
may name. The full English, Census and SSA frequency tables are in
:mod:`deid_core.frequencies`, the facilities by full name and the SEC companies in
:mod:`deid_core.providers`; the engine imports neither, so the page does not carry those lists.

Every table is read from its list file on first use and kept (``functools.lru_cache``):
nothing is read at import, and a look-up never touches the disk again. Standard library only.
Words are compared lower-cased; a look-up of ``""`` or of a word no list has gives the "absent"
value each function names (0, None or an empty set), never an error.

Sources (each file's header gives the version, SHA-256, licence and derivation):

* ``english_common.tsv``: the words of Zipf 4.0 or more of ``english_frequency.tsv``;
* ``ordinary_words.txt``: derived by ``scripts/build_lists.py`` from the English, abbreviation,
  Census and SSA lists (:func:`deid_core.frequencies.ordinary_words_from`);
* ``clinical_abbreviations.tsv``: the clinical inventories of the Medical Abbreviation and
  Acronym Meta-Inventory (CC BY 4.0), with the hand-written ``abbreviations.txt``;
* ``nicknames.tsv``: carltonnorthern/nicknames 1.0.1 (Apache-2.0);
* ``us_care_facilities.tsv``, ``facility_short_forms.tsv``: CMS hospitals, VA facilities,
  CMS hospices (public domain, CC0) and their derived short names and initials;
* ``sec_companies.tsv`` (SEC EDGAR, public domain), ``care_chains.txt`` and
  ``organisation_shapes.txt`` (hand-written).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from .lists import iter_rows, read_list

#: A Zipf value at or above which a word is an ordinary English word for the guards of
#: :func:`deid_core.frequencies.is_common_word` and :meth:`FacilityForm.ambiguous` (3.0: about
#: one use per million words: ``catheter`` 3.4, ``restless`` 3.5; rare words and most surnames
#: are lower).
ZIPF_COMMON = 3.0


def _key(word: str) -> str:
    return " ".join(word.lower().split())


# ---------------------------------------------------------------------- clinical shorthand
@dataclass(frozen=True)
class Abbreviation:
    """A clinical short form: ``sources`` the inventories listing it (``berman``, ``columbia``,
    ``stetson``, ``vanderbilt1``, ``vanderbilt2``, ``hand-written``), ``senses`` its number of
    distinct long forms there, ``count`` the times it was seen in the Vanderbilt notes."""

    form: str
    sources: tuple[str, ...]
    senses: int
    count: int


@lru_cache(maxsize=None)
def _abbreviations() -> dict[str, Abbreviation]:
    table = {f: Abbreviation(f, tuple(s.split("+")), int(n), int(c))
             for f, s, n, c in iter_rows("clinical_abbreviations.tsv")}
    for row in read_list("abbreviations.txt").rows:
        f = row[0]
        old = table.get(f)
        table[f] = (Abbreviation(f, old.sources + ("hand-written",), old.senses, old.count)
                    if old else Abbreviation(f, ("hand-written",), 0, 0))
    return table


def clinical_abbreviation(word: str) -> Abbreviation | None:
    """The clinical short form ``word`` is (``KVO``, ``tlc``, ``s/p``, ``P.N.D.`` is not: dots
    inside stay), compared lower-cased with a trailing full stop dropped; None when no
    inventory lists it. Sources: ``lists/clinical_abbreviations.tsv`` and the hand-written
    ``lists/abbreviations.txt``."""
    k = _key(word).rstrip(".")
    return _abbreviations().get(k) if k else None


def is_clinical_abbreviation(word: str) -> bool:
    """Whether ``word`` is a known clinical short form (:func:`clinical_abbreviation`)."""
    return clinical_abbreviation(word) is not None


# ----------------------------------------------------------------------- common English
#: The Zipf value from which ``lists/english_common.tsv`` lists a word (4.0: about one use in
#: 100,000 words: ``home`` 5.6, ``bay`` 4.7); the engine's guards compare at this value or above.
COMMON_ZIPF_FLOOR = 4.0


@lru_cache(maxsize=None)
def _common() -> dict[str, float]:
    return {w: float(z) for w, z in iter_rows("english_common.tsv")}


def zipf_in(table: Mapping[str, float], word: str) -> float:
    """``word``'s Zipf value in ``table`` (word -> Zipf, lower case), a possessive ``'s``
    dropped when the word itself is absent; 0.0 when neither is there."""
    k = _key(word)
    if k in table:
        return table[k]
    if k.endswith(("'s", "’s")):
        return table.get(k[:-2], 0.0)
    return 0.0


def common_zipf(word: str) -> float:
    """How common ``word`` is in English on the Zipf scale when that is at least
    :data:`COMMON_ZIPF_FLOOR` (``home`` 5.6), else 0.0; a possessive ``'s`` is dropped. Equal to
    :func:`deid_core.frequencies.zipf` for every word it lists, so a guard ``>= 4.0`` or above
    reads the same. Source: ``lists/english_common.tsv``, derived by ``scripts/build_lists.py``
    from ``english_frequency.tsv`` (the page carries this file, not that one)."""
    return zipf_in(_common(), word)


# ------------------------------------------------------------------------ ordinary words
@lru_cache(maxsize=None)
def _ordinary() -> dict[str, bool]:
    return {w: g == "given" for w, g in iter_rows("ordinary_words.txt")}


def is_ordinary_word(word: str) -> bool:
    """Whether ``word`` (letters only; compared lower-cased) is an ordinary word, not
    name-shaped on its own: an English word of Zipf >= 3.0 or a clinical short form that is not
    more common as a U.S. name (``given``, ``low``, ``restless``, ``kcl``, ``will`` are;
    ``mark``, ``grace``, ``baker``, ``ng`` are not). Read from ``lists/ordinary_words.txt``,
    which ``scripts/build_lists.py`` derives from the English, abbreviation, Census and SSA
    lists (:func:`deid_core.frequencies.ordinary_words_from`), so the page need not carry those
    four lists."""
    return _key(word) in _ordinary()


def is_ordinary_given_name(word: str) -> bool:
    """Whether ``word`` is an ordinary word (:func:`is_ordinary_word`) that is also a U.S.
    given name (:func:`deid_core.frequencies.given_name` is not None: ``will``, ``hope``); False
    for any other word. Source: the ``given`` column of ``lists/ordinary_words.txt``."""
    return _ordinary().get(_key(word), False)


@lru_cache(maxsize=None)
def _nicknames() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    of: dict[str, frozenset[str]] = {}
    back: dict[str, set[str]] = {}
    for name, nicks in iter_rows("nicknames.tsv"):
        of[name] = frozenset(nicks.split(" "))
        for n in of[name]:
            back.setdefault(n, set()).add(name)
    return of, {k: frozenset(v) for k, v in back.items()}


def nicknames_of(name: str) -> frozenset[str]:
    """The nicknames of given name ``name`` (``margaret`` -> peg, maggie, ...); empty when none
    is listed. Source: ``lists/nicknames.tsv`` (carltonnorthern/nicknames, Apache-2.0)."""
    return _nicknames()[0].get(_key(name), frozenset())


def canonicals_of(nickname: str) -> frozenset[str]:
    """The given names ``nickname`` is a nickname of (``peg`` -> margaret, ...); empty when
    none."""
    return _nicknames()[1].get(_key(nickname), frozenset())


# ---------------------------------------------------------------------- care facilities
@dataclass(frozen=True)
class FacilityForm:
    """A short name (``kind="short"``: ``saint brigid``) or the initials (``kind="initials"``:
    ``sbmc``) of ``facilities`` facilities; ``zipf`` the form's English frequency,
    ``abbreviation`` the inventories listing it as clinical shorthand (``()`` when none)."""

    form: str
    kind: str
    facilities: int
    zipf: float
    abbreviation: tuple[str, ...]

    @property
    def ambiguous(self) -> bool:
        """Whether the form is also clinical shorthand or an ordinary English word (Zipf >=
        :data:`ZIPF_COMMON`): no facility on its own (``MH``, ``SCH``; ``mercy``)."""
        return bool(self.abbreviation) or self.zipf >= ZIPF_COMMON


@lru_cache(maxsize=None)
def _forms() -> dict[str, tuple[FacilityForm, ...]]:
    by: dict[str, list[FacilityForm]] = {}
    for form, kind, n, z, abbr in iter_rows("facility_short_forms.tsv"):
        by.setdefault(form, []).append(FacilityForm(
            form, kind, int(n), float(z), () if abbr == "-" else tuple(abbr.split("+"))))
    return {k: tuple(v) for k, v in by.items()}


def facility_form(text: str) -> tuple[FacilityForm, ...]:
    """The facility short names and initials equal to ``text`` (``MGH``, ``Good Shepherd``);
    ``()`` when none. Source: ``lists/facility_short_forms.tsv``."""
    k = _key(text).rstrip(".")
    return _forms().get(k, ()) if k else ()


@lru_cache(maxsize=None)
def _name_words() -> dict[str, str]:
    return {r[0]: r[1] for r in read_list("facility_name_words.txt").rows}


def facility_forms(name: str, words: Mapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """(short name, initials) of a facility name, by the rules of
    ``lists/facility_name_words.txt`` (``words``: entry -> kind; default that file). The base
    is the lower-cased name before `` - `` and before a campus word that follows a generic word
    (``Marshall Medical Center South`` -> marshall medical center); the short name is the base
    without generic words, without joiners or number-only words at its start and joiners at
    its end, ``st``/``st.`` read as saint (``St Brigid Medical Center`` -> saint brigid); the
    initials are the first letters of the base's words, hyphenated parts apart, joiners
    skipped (``sbmc``; ``University of Ridgefield Medical Center`` -> urmc). Either is None when
    empty; the initials also when shorter than 2 or longer than 8 letters. The build derives
    ``facility_short_forms.tsv`` with this function."""
    words = _name_words() if words is None else words
    base = _key(name).split(" - ")[0].split()
    seen_generic = False
    for i, w in enumerate(base):
        kind = words.get(w)
        if kind == "campus" and seen_generic and i > 0:
            base = base[:i]
            break
        if kind == "generic":
            seen_generic = True
    short = [("saint" if words.get(w) == "saint" else w) for w in base if words.get(w) != "generic"]
    while short and (words.get(short[0]) == "joiner" or not any(c.isalpha() for c in short[0])):
        short.pop(0)
    while short and words.get(short[-1]) == "joiner":
        short.pop()
    letters = [p[0] for w in base if words.get(w) != "joiner"
               for p in w.split("-") if p and p[0].isalpha()]
    initials = "".join(letters) if 2 <= len(letters) <= 8 else None
    return (" ".join(short) or None), initials


# ------------------------------------------------------------------------- organisations
def organisation_shapes(kind: str | None = None, position: str | None = None) -> tuple[tuple[str, str, str], ...]:
    """Heads of organisation names by shape, as ``(entry, kind, position)`` in file order:
    ``position`` ``after`` (Quarry Hill Elementary School), ``before_number`` (Local 290) or
    ``before_name`` (Church of the Nazarene); filtered by ``kind`` (a kind of the file:
    school, daycare, church, union, fire, ems, police, service) and ``position`` when given.
    Source: the hand-written ``lists/organisation_shapes.txt``.

    Raises:
        ValueError: ``kind`` or ``position`` is not one the file has.
    """
    rows = read_list("organisation_shapes.txt").rows
    if kind is not None and kind not in {r[1] for r in rows}:
        raise ValueError(f"unknown kind {kind!r}; expected one of {sorted({r[1] for r in rows})}")
    if position is not None and position not in {r[2] for r in rows}:
        raise ValueError(f"unknown position {position!r}")
    return tuple(r for r in rows
                 if (kind is None or r[1] == kind) and (position is None or r[2] == position))
