"""Word and name frequencies from the full knowledge lists of ``lists/`` (issue 20): how common a
word is in English, how common a surname or given name is in the U.S., and the ordinary-word test
on those numbers, from which ``scripts/build_lists.py`` derives ``lists/ordinary_words.txt``.

The detectors read the derived file (:func:`deid_core.knowledge.is_ordinary_word`), not these
tables, so the page need not carry the four large lists this module reads; the page's build
leaves a list out when only modules outside the page name it. This module is for the list
build, the training code, the tests and data teams. Every table is read on first use and kept.
Words are compared lower-cased; a word no list has gives 0, 0.0 or None, never an error.

Sources (each file's header gives the version, SHA-256, licence and derivation):

* ``english_frequency.tsv``: symspellpy 6.10.1 word counts (Google Books Ngram x SCOWL, MIT),
  as Zipf values: log10 of the frequency per billion words (7.6 the, 3.4 catheter);
* ``surnames_census2010.tsv``: every Census 2010 surname with 100+ bearers (public domain);
* ``given_names_ssa.tsv``: SSA baby names 1880-2017 weighted by survival to 2017 (public domain).
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from .knowledge import ZIPF_COMMON, _key, zipf_in
from .lists import iter_rows


# ------------------------------------------------------------------------------------ English
@lru_cache(maxsize=None)
def _zipf_table() -> dict[str, float]:
    return {w: float(z) for w, z in iter_rows("english_frequency.tsv")}


def zipf(word: str) -> float:
    """How common ``word`` is in English on the Zipf scale (log10 of its uses per billion words;
    ``the`` 7.6, ``high`` 5.8, ``restless`` 3.5, ``catheter`` 3.4); a possessive ``'s`` is
    dropped; 0.0 for a word the list lacks (its smallest value is 2.7).
    Source: ``lists/english_frequency.tsv``."""
    return zipf_in(_zipf_table(), word)


def is_common_word(word: str, threshold: float = ZIPF_COMMON) -> bool:
    """Whether ``word`` is an ordinary English word: :func:`zipf` >= ``threshold``."""
    return zipf(word) >= threshold


# -------------------------------------------------------------------------------- names
@lru_cache(maxsize=None)
def _surnames() -> tuple[dict[str, int], dict[str, int]]:
    counts: dict[str, int] = {}
    ranks: dict[str, int] = {}
    prev, rank = None, 0
    for i, (name, count) in enumerate(iter_rows("surnames_census2010.tsv"), start=1):
        n = int(count)
        if n != prev:
            rank, prev = i, n
        counts[name] = n
        ranks[name] = rank
    return counts, ranks


def surname_count(word: str) -> int:
    """The number of people with surname ``word`` in Census 2010 (``smith`` 2,442,977); 0 for a
    surname with fewer than 100 bearers or none. Source: ``lists/surnames_census2010.tsv``."""
    return _surnames()[0].get(_key(word), 0)


def surname_rank(word: str) -> int | None:
    """The Census 2010 rank of surname ``word`` (1 = most common; ties share a rank, as the
    Census ranks them); None when absent (fewer than 100 bearers)."""
    return _surnames()[1].get(_key(word))


@dataclass(frozen=True)
class GivenName:
    """A given name of the SSA file: ``living`` the estimated people alive in 2017 who were
    given it (two significant digits), ``female`` and ``adult`` the shares (%) of them born
    female and aged 18 or more."""

    name: str
    living: int
    female: int
    adult: int


@lru_cache(maxsize=None)
def _given() -> dict[str, GivenName]:
    return {n: GivenName(n, int(a), int(f), int(d))
            for n, a, f, d in iter_rows("given_names_ssa.tsv")}


def given_name(word: str) -> GivenName | None:
    """``word`` as a U.S. given name (``GivenName('margaret', 560000, 100, 93)``); None when
    fewer than 20 living people are estimated to bear it. Source: ``lists/given_names_ssa.tsv``."""
    return _given().get(_key(word))


# ------------------------------------------------------------------ the ordinary-word test
#: The Zipf value a clinical short form counts as when English gives it less (``kcl``,
#: ``bp``: a name must be about as common as a word used once in 10,000 to beat it).
ABBREVIATION_ZIPF = 4.0
#: People per billion that one Census 2010 bearer or one living SSA bearer stands for (the
#: U.S. population of 2010, 308.7 million), so that a name's frequency reads on the Zipf scale.
_PER_BILLION = 1e9 / 308.7e6


def bearers_zipf(bearers: int) -> float:
    """``bearers`` people of a name (Census 2010 or living SSA estimate) on the Zipf scale:
    log10 of bearers per billion people (2,442,977 -> 6.9); 0.0 for none."""
    return math.log10(bearers * _PER_BILLION) if bearers > 0 else 0.0


def name_zipf(word: str) -> float:
    """How common ``word`` is as a U.S. name on the Zipf scale (:func:`bearers_zipf` of the
    larger of its Census 2010 surname count and its SSA living given-name count: ``smith``
    6.9, ``mark`` 6.6, ``low`` 4.6, ``given`` 4.1); 0.0 when neither list has it.
    Sources: ``lists/surnames_census2010.tsv``, ``lists/given_names_ssa.tsv``."""
    g = given_name(word)
    return bearers_zipf(max(surname_count(word), g.living if g else 0))


def ordinary_by_frequency(english_zipf: float, abbreviation: bool, bearers: int) -> bool:
    """The ordinary-word test on its three numbers: a word whose English Zipf value is
    ``english_zipf`` (0.0 when unlisted), which is (``abbreviation``) or is not a clinical short
    form, and which ``bearers`` people bear as a surname or given name, is ordinary (not
    name-shaped on its own) when it is an English word of Zipf >= :data:`ZIPF_COMMON` or a short
    form (counted at least :data:`ABBREVIATION_ZIPF`) and is not more common as a name."""
    z = english_zipf
    if abbreviation:
        z = max(z, ABBREVIATION_ZIPF)
    elif z < ZIPF_COMMON:
        return False
    return bearers_zipf(bearers) <= z


def ordinary_words_from(english: Mapping[str, float], abbreviations: Iterable[str],
                        surnames: Mapping[str, int], living: Mapping[str, int]) -> list[str]:
    """Every word of letters that :func:`ordinary_by_frequency` calls ordinary, sorted: the
    derivation of ``lists/ordinary_words.txt`` (``scripts/build_lists.py``). ``english``: word
    -> Zipf; ``abbreviations``: the short forms (lower case); ``surnames``: Census 2010 count;
    ``living``: SSA living estimate."""
    abbr = {a for a in abbreviations if a.isalpha()}
    words = {w for w, z in english.items() if z >= ZIPF_COMMON and w.isalpha()} | abbr
    return sorted(w for w in words
                  if ordinary_by_frequency(english.get(w, 0.0), w in abbr,
                                           max(surnames.get(w, 0), living.get(w, 0))))
