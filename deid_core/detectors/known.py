"""KNOWN detector: the identifiers the caller already holds for this patient, and their variants.

``doc.known`` (:class:`~deid_core.document.Known`) may carry the patient's names, medical record
numbers, addresses and birth dates. Every occurrence in the note, and every simple variant, is
certain, but for a lone name part that may be an ordinary word and glued initials (review): the
rules are declared beside the function that applies them (what each finds: ``docs/rules.md``).
Names match in any case and order, with or without commas, periods and initials, accents
optional, straight or curly apostrophes; MRNs ignoring separators, letter case and leading zeros;
addresses with street suffixes and abbreviations interchangeable (``lists/address_forms.tsv``);
birth dates whatever their format, read by :mod:`deid_core.datereader` (numeric dates month-first
and, where possible, day-first too). The patterns are built per call, only when ``doc.known`` is
non-empty.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache

from .. import datereader, lists
from ..document import Document, Known
from ..rules import Rule
from ..spans import CERTAIN, REVIEW, Span

# --------------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------------

_NAME_TOKEN_RE = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
_TITLES = lists.courtesy_titles()
_SUFFIXES = lists.name_suffixes()


def _fold(s: str) -> str:
    """``s`` without combining accents (``Nguyễn`` -> ``Nguyen``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def _part_regex(part: str) -> str:
    """Regex for one name part: apostrophes either way or absent, hyphen or space, accents optional."""
    variants = {part, _fold(part)}
    out = []
    for v in sorted(variants, key=len, reverse=True):
        pieces = []
        for ch in v:
            if ch in "'’":
                pieces.append("['’]?")
            elif ch == "-":
                pieces.append(r"[-\s]?")
            else:
                pieces.append(re.escape(ch))
        out.append("".join(pieces))
    return "|".join(out)


def _part_key(word: str) -> str:
    """Comparison key of a name part: accents, apostrophes, hyphens/spaces and case ignored."""
    return re.sub(r"['’\-\s]", "", _fold(word)).lower()


def _name_parts(name: str) -> tuple[list[str], list[str], list[str]]:
    """Split a full name into (given names, middle names, surnames), titles and suffixes dropped.

    ``"Smith, John C"`` and ``"John C Smith"`` both give ``(["John"], ["C"], ["Smith"])``.
    """
    if "," in name:
        last, _, first = name.partition(",")
        sur = [t for t in _NAME_TOKEN_RE.findall(last) if t.lower() not in _TITLES | _SUFFIXES]
        rest = [t for t in _NAME_TOKEN_RE.findall(first) if t.lower() not in _TITLES | _SUFFIXES]
        return rest[:1], rest[1:], sur
    toks = [t for t in _NAME_TOKEN_RE.findall(name) if t.lower() not in _TITLES]
    while len(toks) > 1 and toks[-1].lower() in _SUFFIXES:
        toks.pop()
    if len(toks) == 1:
        return [], [], toks
    return toks[:1], toks[1:-1], toks[-1:]


_NEXT_WORD_RE = re.compile(r"(?:['’]s)?[ \t]+([A-Za-z]+)")


@lru_cache(maxsize=1)
def _clinical_followers() -> frozenset[str]:
    """Words after a name that make it an eponym or a device: ``lists/eponym_followers.txt``
    and ``lists/known_part_followers.txt`` (``catheter``, ``wort``)."""
    return lists.eponym_followers() | lists.word_set("known_part_followers.txt")


def _before_clinical_word(text: str, end: int) -> bool:
    m = _NEXT_WORD_RE.match(text, end)
    return bool(m) and m.group(1).lower() in _clinical_followers()


NAME = Rule("known:name", ("PATIENT",), (CERTAIN,),
            "the patient's name as you supplied it, in any order or case (SMITH, JOHN; J. Smith)",
            reads=("titles.txt", "name_cues.txt", "credentials.txt"))
NAME_PART = Rule("known:name_part", ("PATIENT",), (CERTAIN,), "a part of the patient's name")
NAME_PART_LOWERCASE = Rule("known:name_part_lowercase", ("PATIENT",), (REVIEW,),
                           "a part of the patient's name, in lower case",
                           amber="a part of the name in lower case may be an ordinary word")
NAME_PART_EPONYM = Rule("known:name_part_eponym", ("PATIENT",), (REVIEW,),
                        "a part of the patient's name, next to an eponym word",
                        amber="a part of the name next to an eponym word may be a disease or sign",
                        reads=("eponym_followers.txt", "known_part_followers.txt"))
INITIALS = Rule("known:initials", ("PATIENT",), (REVIEW,), "the patient's initials",
                amber="the letters may be an abbreviation")


def _names(text: str, names: Iterable[str]) -> Iterator[Span]:
    parts: dict[str, int] = {}      # lower-case part -> minimum length to stand alone
    initials: set[str] = set()
    glued: set[str] = set()
    for name in names:
        given, middle, sur = _name_parts(name)
        for p in sur:
            parts[p.lower()] = min(parts.get(p.lower(), 99), 2)
            for piece in re.split(r"[-\s]", p):
                if len(piece) >= 3:
                    parts.setdefault(piece.lower(), 3)
        for p in given + middle:
            if len(p) >= 2:
                parts[p.lower()] = min(parts.get(p.lower(), 99), 3)
        seq = given + middle + sur
        for p in given + middle + sur:
            initials.add(p[0].upper())
        if len(seq) >= 2:
            glued.add("".join(p[0].upper() for p in seq))
            glued.add("".join(p[0].upper() for p in given + sur))
    if not parts:
        return
    by_len = sorted(parts, key=len, reverse=True)
    part_alt = "|".join(f"(?:{_part_regex(p)})" for p in by_len)
    init_alt = "".join(sorted(re.escape(i) for i in initials))
    tok = rf"(?:{part_alt}|(?-i:[{init_alt}])\.?)" if init_alt else rf"(?:{part_alt})"
    sep = r"(?:[ \t]*,[ \t]*|[ \t]+|(?<=\.)[ \t]*|[ \t]*\r?\n[ \t]*)"
    run_re = re.compile(rf"(?i)(?<![\w])(?:{tok})(?:{sep}(?:{tok})){{0,4}}(?![\w])")
    need_len = {}
    for p, n in parts.items():
        k = _part_key(p)
        need_len[k] = min(need_len.get(k, 99), n)
    part_re = re.compile(rf"(?i)(?:{part_alt})")
    has_upper = text != text.lower() if text.isascii() else any(map(str.isupper, text))
    for m in run_re.finditer(text):
        s, e = m.start(), m.end()
        # Which pieces of the run are full parts?
        full = [pm for pm in part_re.finditer(text, s, e)
                if (pm.start() == s or not text[pm.start() - 1].isalnum())
                and (pm.end() == e or not text[pm.end()].isalnum())]
        if not full:
            continue
        # Trim trailing separators an initial may leave (``Smith, J`` keeps ``J``).
        while e > s and text[e - 1] in " \t,\r\n":
            e -= 1
        pieces = _NAME_TOKEN_RE.findall(text[s:e])
        if len(pieces) == 1:
            word = text[s:e]
            if len(word) < need_len.get(_part_key(word), 2):
                continue
            if has_upper and word.islower():
                yield NAME_PART_LOWERCASE.span(s, e)
            elif _before_clinical_word(text, e):
                yield NAME_PART_EPONYM.span(s, e)
            else:
                yield NAME_PART.span(s, e)
        else:
            yield NAME.span(s, e)
    glued = {g for g in glued if len(g) >= 2}
    if glued:
        alts = "|".join(sorted((r"\.?".join(g) + r"\.?" for g in glued), key=len, reverse=True))
        for m in re.finditer(rf"(?<![\w.])(?:{alts})(?![\w])", text):
            yield INITIALS.span(m.start(), m.end())


# --------------------------------------------------------------------------------------------
# MRNs
# --------------------------------------------------------------------------------------------

_MRN_SEP = r"[-. /]?"


def _normal_mrn(mrn: str) -> str:
    """Letters and digits only, upper-case, leading zeros dropped (``0045-2231`` -> ``452231``)."""
    return re.sub(r"[^0-9A-Za-z]", "", mrn).upper().lstrip("0")


MRN = Rule("known:mrn", ("MEDICALRECORD",), (CERTAIN,),
           "the medical record number you supplied, whatever its separators")


def _mrns(text: str, mrns: Iterable[str]) -> Iterator[Span]:
    alts = []
    for mrn in mrns:
        norm = _normal_mrn(mrn)
        if len(norm) < 4:
            continue
        alts.append(_MRN_SEP.join(re.escape(c) for c in norm))
    if not alts:
        return
    # A match starts only where a run of leading zeros starts (not after "0" or "0-"), so a
    # long run of "0 0 0 ..." is tried once, not once per zero: linear, not quadratic.
    rx = re.compile(rf"(?i)(?<![0-9A-Za-z])(?<!0[-. /])(?:0{_MRN_SEP})*(?:{'|'.join(sorted(set(alts), key=len, reverse=True))})"
                    r"(?![0-9A-Za-z])")
    for m in rx.finditer(text):
        yield MRN.span(m.start(), m.end())


# --------------------------------------------------------------------------------------------
# Addresses
# --------------------------------------------------------------------------------------------

#: Interchangeable address words (each group: forms that may replace one another) and the words
#: that open the unit part of a street line: ``lists/address_forms.tsv``.
_ADDRESS_FORMS = [(r[0], *r[1].split(), r[2].split())
                  for r in lists.read_list("address_forms.tsv").rows]
_ADDRESS_EQUIV = [tuple(g[:-1]) for g in _ADDRESS_FORMS if "equivalent" in g[-1]]
_EQUIV: dict[str, tuple[str, ...]] = {}
for _group in _ADDRESS_EQUIV:
    for _w in _group:
        _EQUIV[_w] = tuple(sorted(set(_EQUIV.get(_w, ())) | set(_group), key=len, reverse=True))

_STATE_ABBR = lists.us_states_and_territories()
_ABBR_STATE = {v: k for k, v in _STATE_ABBR.items()}
_ADDR_TOKEN_RE = re.compile(r"#|[^\W_]+(?:['’][^\W_]+)*")
_ZIP_RE = re.compile(r"(?<!\d)(\d{5})(?:-(\d{4}))?(?!\d)")
_UNIT_WORDS = frozenset(w for g in _ADDRESS_FORMS if "unit" in g[-1] for w in g[:-1])


def _street_regex(line: str) -> str | None:
    """Flexible regex for a street line: tokens in order, any spacing/punctuation between them,
    suffixes and unit words interchangeable, the unit part optional."""
    toks = _ADDR_TOKEN_RE.findall(line)
    if len(toks) < 2:
        return None
    sep = r"[ \t.,]*(?:\r?\n[ \t]*)?"

    def tok_rx(tok: str) -> str:
        forms = _EQUIV.get(tok.lower(), (tok,))
        return "(?:" + "|".join(re.escape(f) for f in forms) + ")"

    cut = next((i for i, t in enumerate(toks) if i >= 2 and t.lower() in _UNIT_WORDS), len(toks))
    base = sep.join(tok_rx(t) for t in toks[:cut])
    if cut < len(toks):
        unit = sep.join(tok_rx(t) for t in toks[cut:])
        return rf"{base}(?:{sep}{unit})?"
    return base


ADDRESS = Rule("known:address", ("STREET",), (CERTAIN,), "the street line of the address you supplied",
               reads=("address_forms.tsv",))
ADDRESS_CITY = Rule("known:address_city", ("CITY",), (CERTAIN,), "the city of the address you supplied")
ADDRESS_STATE = Rule("known:address_state", ("STATE",), (CERTAIN,),
                     "the state of the address you supplied (its abbreviation only after the city)",
                     reads=("us_states.tsv", "us_territories.tsv"))
ADDRESS_ZIP = Rule("known:address_zip", ("ZIP",), (CERTAIN,), "the ZIP code of the address you supplied")


def _addresses(text: str, addresses: Iterable[str]) -> Iterator[Span]:
    street_alts: list[str] = []
    cities: set[str] = set()
    city_state: list[tuple[str, str]] = []
    state_names: set[str] = set()
    zips: set[str] = set()
    for addr in addresses:
        comps = [c.strip() for c in re.split(r"[,\n]", addr) if c.strip()]
        if not comps:
            continue
        rest = comps
        if any(ch.isdigit() for ch in comps[0]) and not _ZIP_RE.fullmatch(comps[0]):
            rx = _street_regex(comps[0])
            if rx:
                street_alts.append(rx)
            rest = comps[1:]
        # State, ZIP and city from the remaining components, last to first.
        city = state = None
        for comp in reversed(rest):
            zm = _ZIP_RE.search(comp)
            if zm:
                zips.add(zm.group(1))
                comp = (comp[:zm.start()] + comp[zm.end():]).strip()
            words = comp.split()
            if state is None and words:
                if words[-1].upper() in _ABBR_STATE and words[-1].isupper():
                    state = words[-1]
                    words = words[:-1]
                else:
                    for n in (3, 2, 1):
                        if len(words) >= n and " ".join(words[-n:]).lower() in _STATE_ABBR:
                            state = " ".join(words[-n:])
                            words = words[:-n]
                            break
            if city is None and words and state is not None:
                city = " ".join(words)
        if city:
            cities.add(city)
            if state:
                city_state.append((city, state))
        if state and len(state) > 2:
            state_names.add(state)
        elif state:
            state_names.add(_ABBR_STATE[state.upper()].title())
    if street_alts:
        rx = re.compile(rf"(?i)(?<![\w])(?:{'|'.join(sorted(street_alts, key=len, reverse=True))})(?![\w])")
        for m in rx.finditer(text):
            yield ADDRESS.span(m.start(), m.end())
    for city in cities:
        forms = {city, city.upper(), city.title()}
        rx = re.compile(r"(?<![\w])(?:" + "|".join(
            r"[ \t]+".join(re.escape(w) for w in f.split()) for f in sorted(forms)) + r")(?![\w])")
        for m in rx.finditer(text):
            yield ADDRESS_CITY.span(m.start(), m.end())
    for city, state in city_state:
        abbr = state.upper() if len(state) == 2 else _STATE_ABBR.get(state.lower(), "")
        if not abbr:
            continue
        rx = re.compile(rf"(?i:{re.escape(city)}),?[ \t]+(?P<st>{abbr})(?![\w])")
        for m in rx.finditer(text):
            yield ADDRESS_STATE.span(m.start("st"), m.end("st"))
    for name in state_names:
        forms = {name.title(), name.upper()}
        rx = re.compile(r"(?<![\w])(?:" + "|".join(
            r"[ \t]+".join(re.escape(w) for w in f.split()) for f in sorted(forms)) + r")(?![\w])")
        for m in rx.finditer(text):
            yield ADDRESS_STATE.span(m.start(), m.end())
    for z in zips:
        for m in re.finditer(rf"(?<![\d-]){z}(?:-\d{{4}})?(?![\d])", text):
            yield ADDRESS_ZIP.span(m.start(), m.end())


# --------------------------------------------------------------------------------------------
# Birth dates: read by the one date reader (:mod:`deid_core.datereader`).
# --------------------------------------------------------------------------------------------

#: Two-digit years below this are 20xx here (``1/1/05`` is 2005, ``2 Mar 50`` is 1950).
_PIVOT = 31


def parse_date(text: str) -> set[tuple[int, int, int]]:
    """Read one date written alone into the day it denotes.

    Args:
        text: e.g. ``"1950-03-02"``, ``"3/2/1950"``, ``"March 2, 1950"``, ``"2 Mar 1950"``.

    Returns:
        A set of ``(year, month, day)`` (one element; empty when ``text`` holds no readable
        whole date). Numeric forms are read month-first (``3/2/1950`` is 2 March), day-first
        only when the first number cannot be a month (``25/12/1950``); a two-digit year ``yy``
        is read as ``20yy`` when ``yy <= 30``, otherwise ``19yy``.
    """
    parsed = datereader.parse_date(text.strip(), pivot=_PIVOT)
    if parsed is None or parsed.pattern not in datereader.FULL_DATE_PATTERNS \
            or None in (parsed.year, parsed.month, parsed.day):
        return set()
    return {(parsed.year, parsed.month, parsed.day)}


BIRTH_DATE = Rule("known:birth_date", ("DATE",), (CERTAIN,),
                  "a date that is the birth date you supplied, whatever its format")


def _birth_dates(text: str, birth_dates: Iterable[str]) -> Iterator[Span]:
    known: set[tuple[int, int, int]] = set()
    for b in birth_dates:
        known |= parse_date(b)
    if not known:
        return
    if text.isascii() and not any(f"{y % 100:02d}" in text for y, _mo, _d in known):
        return   # speed: a date of a known year writes its last two digits (``1950``, ``'50``)
    short = {(y % 100, mo, d) for y, mo, d in known}
    for parsed, m in datereader.iter_dates(text, _PIVOT):
        readings = datereader.day_readings(parsed, m)
        if not readings:
            continue
        ys, ye = parsed.fields["y"]
        two = ye - ys == 2
        if any((y % 100, mo, d) in short if two else (y, mo, d) in known for y, mo, d in readings):
            yield BIRTH_DATE.span(m.start(), m.end())


#: Every rule of the detector, in the order they run.
RULES = (NAME, NAME_PART, NAME_PART_LOWERCASE, NAME_PART_EPONYM, INITIALS, MRN, ADDRESS, ADDRESS_CITY,
         ADDRESS_STATE, ADDRESS_ZIP, BIRTH_DATE)


def detect(doc: Document) -> Iterable[Span]:
    """Find every occurrence (and simple variant) of the caller's known identifiers.

    Args:
        doc: the note; ``doc.known`` (:class:`~deid_core.document.Known`) says what to look for.
            An empty ``Known`` gives no spans and costs nothing.

    Returns:
        A list of certain spans (review only for lower-case lone name parts and glued
        initials): PATIENT, MEDICALRECORD, STREET, CITY, STATE, ZIP, DATE, with sources
        ``known:<rule>`` (:data:`RULES`).
    """
    known: Known = doc.known
    text = doc.text
    if not known or not text:
        return []
    out: list[Span] = []
    out.extend(_names(text, known.names))
    out.extend(_mrns(text, known.mrns))
    out.extend(_addresses(text, known.addresses))
    out.extend(_birth_dates(text, known.birth_dates))
    return out
