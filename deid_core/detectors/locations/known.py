"""Facilities and organisations known by name or by shape, in any case: a care chain of
``lists/care_chains.txt`` (``home PT via kindred at home``, ``fax rx to cvs``), a facility's
short name of ``lists/facility_short_forms.tsv`` before a hospital word (``mercy hosp``,
``GOOD SHEPHERD HOSP.``, ``st agnes rehab``), and an organisation by the shape of its name
(``lists/organisation_shapes.txt``: ``UA Local 290``, ``Quarry Hill Elementary School``,
``Church of the Nazarene``). Each rule is declared above the function that applies it.

Not PHI here: ``CVS: RRR, no murmur`` (cardiovascular system), ``the county hospital``, ``a
local anesthetic``, ``the fire department``, ``Engine 2`` at a sentence start without a name.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ... import knowledge, lists
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW, Span
from .facilities import CONTEXT_LAST
from .lexicon import Tables, clinical_shorthand, lookup_place, name_kind, ordinary_word
from .text import SP, Note, Word, alternation, note_may_hold, split_words, trim_end

_C, _CR = (CERTAIN,), (CERTAIN, REVIEW)
#: The chain kinds of ``lists/care_chains.txt`` that are care facilities (HOSPITAL); the other
#: kinds (pharmacy, laboratory, supplier, pbm) are businesses (ORGANIZATION).
_CARE_KINDS = frozenset({"home_health", "hospice", "dialysis", "urgent_care", "senior_living"})
#: A facility context word right before a chain name (:data:`.facilities.CONTEXT_LAST`: ``to``,
#: ``at``, ``from``, ``@``), an article allowed between: a place one goes to or sends to.
_TO_RE = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, CONTEXT_LAST)) + r")[ \t]+(?:the[ \t]+)?$",
                    re.IGNORECASE)
#: A word character or an apostrophe/hyphen that would join the next word.
_JOIN = r"[\w'’-]"
#: A word of a name, as written (letters, apostrophes, hyphens, a period of ``St.``, ``&``).
_NAME_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’.&-]*")

def _scanners(phrases) -> tuple[re.Pattern, re.Pattern]:
    """Two patterns of the lower-case ``phrases`` as whole words: one case-sensitive over a
    note's lower-cased text (:attr:`.text.Note.low`, where it lines up with the text), one
    case-insensitive over the text; each starts with a look-ahead for a first letter (speed)."""
    first = "".join(sorted({re.escape(p[0]) for p in phrases}))
    body = rf"(?<!{_JOIN})(?:{alternation(phrases, SP)})(?!{_JOIN})"
    return re.compile(rf"(?=[{first}]){body}"), re.compile(rf"(?=(?i:[{first}])){body}", re.IGNORECASE)


def _scan(n: Note, scanners: tuple[re.Pattern, re.Pattern]) -> Iterator[re.Match]:
    """The matches of :func:`_scanners`' patterns in ``n`` (offsets of ``n.text``)."""
    return scanners[0].finditer(n.low) if n.low_exact else scanners[1].finditer(n.text)


CARE_CHAIN = Rule(
    "locations:care_chain", ("HOSPITAL", "ORGANIZATION"), _CR,
    "a pharmacy, laboratory, supplier or care chain by its name (kindred at home, walgreens)",
    amber="the chain's name is also clinical shorthand or an ordinary word (CVS)",
    list="care_chains.txt", reads=("clinical_abbreviations.tsv", "english_common.tsv"))


@lru_cache(maxsize=1)
def _chains() -> tuple[tuple[re.Pattern, re.Pattern], dict[str, str], tuple[str, ...]]:
    rows = {r[0]: r[1] for r in lists.read_list("care_chains.txt").rows}
    return _scanners(rows), rows, tuple(sorted(rows))


def care_chains(n: Note, t: Tables) -> Iterator[Span]:
    """A chain of ``lists/care_chains.txt`` anywhere, any case: HOSPITAL for a care kind
    (home health, hospice, dialysis, urgent care, senior living), else ORGANIZATION; certain,
    except a one-word name that is clinical shorthand or an ordinary English word (``CVS``), which
    needs ``at``/``to``/``from``/``via`` before it and no colon after it, and is review."""
    rx, rows, firsts = _chains()
    if not note_may_hold(n, firsts):
        return   # no chain's name anywhere in the note, one space apart (the cheap test)
    text = n.text
    for m in _scan(n, rx):
        key = " ".join(m.group().lower().split())
        kind = rows.get(key)
        if kind is None:
            continue
        label = "HOSPITAL" if kind in _CARE_KINDS else "ORGANIZATION"
        if " " not in key and (clinical_shorthand(key) or ordinary_word(key)):
            if not _TO_RE.search(text, max(0, m.start() - 12), m.start()) or text[m.end():m.end() + 1] == ":":
                continue
            yield CARE_CHAIN.span(m.start(), m.end(), label, REVIEW)
        else:
            yield CARE_CHAIN.span(m.start(), m.end(), label, CERTAIN)


SHORT_NAME_HEAD = Rule(
    "locations:facility_short_name", ("HOSPITAL",), _CR,
    "a facility's short name before a hospital word, any case (mercy hosp, GOOD SHEPHERD HOSP.)",
    amber="the short name is one word before a weak hospital word (rehab, health), or lower case "
          "in a note with capitals",
    list="facility_short_forms.tsv", reads=("hospital_words.txt", "hospital_words_weak.txt",
                                            "facility_name_words.txt"))

#: A short name of one word at or above this Zipf is an ordinary word (``city``, ``home``,
#: ``university``), no facility's name before a hospital word.
_SHORT_ZIPF = 5.0
#: The words a short name may have at most (the longest form of the list that is common in
#: notes has four: ``our lady of lourdes``).
_SHORT_WORDS = 4
#: A one-word short name before a weak hospital word only (``health``, ``rehab``) must be rarer
#: than this Zipf (``Baptist Health`` 4.2; not ``Mental Health`` 4.8) and no city.
_WEAK_HEAD_ZIPF = 4.5


@lru_cache(maxsize=1)
def _heads() -> tuple[tuple[re.Pattern, re.Pattern], frozenset[str], dict[str, str], frozenset[str]]:
    strong = lists.handwritten("hospital_words")
    weak = lists.handwritten("hospital_words_weak")
    saint = {r[0]: r[1] for r in lists.read_list("facility_name_words.txt").rows}
    return _scanners(strong | weak), frozenset(weak), saint, strong | weak


def _short_key(words: list[str], name_words: dict[str, str]) -> str:
    """The lookup key of a short name written as ``words``: lower case, ``st``/``st.`` as
    saint (``lists/facility_name_words.txt`` kind saint)."""
    return " ".join("saint" if name_words.get(w) == "saint" else w for w in (x.lower() for x in words))


def short_name_heads(n: Note, t: Tables) -> Iterator[Span]:
    """A facility's short name (``lists/facility_short_forms.tsv`` kind short, its English
    frequency below :data:`_SHORT_ZIPF` when one word, no clinical shorthand) right before a
    hospital word of ``lists/hospital_words.txt`` on the same line, in any case: HOSPITAL,
    certain; review when the name is one word and the hospital word is a weak one only, or when
    the name is in lower case in a note with capitals (``mercy hosp`` in a note written in
    sentence case; in an all-lower-case note it is certain)."""
    rx, weak_only, name_words, heads = _heads()
    text = n.text
    for m in _scan(n, rx):
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = list(_NAME_WORD_RE.finditer(text, max(line_start, m.start() - 60), m.start()))[-_SHORT_WORDS:]
        # the words must run up to the head, one space apart
        while before and text[before[-1].end():m.start()].strip(" \t"):
            before = []
        found = None
        for k in range(len(before), 0, -1):
            ws = before[-k:]
            if any(text[a.end():b.start()].strip(" \t") for a, b in zip(ws, ws[1:])):
                continue
            forms = [f for f in knowledge.facility_form(_short_key([w.group() for w in ws], name_words))
                     if f.kind == "short"]
            if not forms:
                continue
            if k == 1 and (forms[0].zipf >= _SHORT_ZIPF or clinical_shorthand(ws[0].group())
                           or ws[0].group().lower() in heads):
                continue
            found = ws
            break
        if not found:
            continue
        head = " ".join(m.group().lower().split())
        place = lookup_place(t, [Word(w.start(), w.end(), w.group()) for w in found])
        if place and place[0] == len(found) \
                or len(found) == 1 and head in weak_only and knowledge.common_zipf(found[0].group()) >= _WEAK_HEAD_ZIPF:
            continue   # "our New York clinic", "Baltimore rehab": the place rules label the city;
            # "Mental Health": an ordinary word before a weak hospital word
        written = n.lower or all(w.group()[:1].isupper() for w in found)
        tier = REVIEW if len(found) == 1 and head in weak_only or not written else CERTAIN
        end = m.end() + (1 if text[m.end():m.end() + 1] == "." and head in ("hosp", "gen") else 0)
        yield SHORT_NAME_HEAD.span(found[0].start(), trim_end(end, text, found[0].start()), "HOSPITAL", tier)


ORGANISATION_SHAPE = Rule(
    "locations:organisation_shape", ("ORGANIZATION",), _C,
    "an organisation by the shape of its name (UA Local 290, Quarry Hill Elementary School, "
    "Church of the Nazarene)", list="organisation_shapes.txt")

#: A capitalised word of a name (Title case or capitals, apostrophes and hyphens inside).
_CAP = r"(?:[A-Z][A-Za-z'’-]*|St\.)"


def _title(entry: str) -> str:
    """``church of`` -> ``Church of``, ``sheriff's office`` -> ``Sheriff's Office``: each word
    capitalised but the joiners ``of``, ``the``, ``and``."""
    return " ".join(w if w in ("of", "the", "and") else w[:1].upper() + w[1:] for w in entry.split())


@lru_cache(maxsize=1)
def _shapes() -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """The shape words of ``lists/organisation_shapes.txt`` by position, as written in a name
    (Title case or capitals), each pattern starting at the shape word."""
    rows = knowledge.organisation_shapes()

    def rx(position: str, after: str) -> re.Pattern:
        forms = sorted({f for e, _k, p in rows if p == position for f in (_title(e), e.upper())})
        first = "".join(sorted({re.escape(f[0]) for f in forms}))
        return re.compile(rf"(?=[{first}])(?<!{_JOIN})(?P<shape>{alternation(forms, SP)}){after}")
    return (rx("before_number", r"[ \t]+#?(?P<num>\d{1,4})(?![\w/.:])"),
            rx("after", rf"(?!{_JOIN})"),
            rx("before_name", rf"[ \t]+(?:the[ \t]+|The[ \t]+)?(?P<name>{_CAP}(?:[ \t]+{_CAP}){{0,2}})"))


#: The capitals of a union before its local's number (``UA``, ``IBEW``), right before the shape.
_ACRONYM_BEFORE_RE = re.compile(r"(?<![\w'’-])[A-Z]{2,5}[ \t]+$")
#: A capitalised word of a name before a shape word, or a joiner inside the name.
_NAME_PART_RE = re.compile(rf"(?:{_CAP}|of|and|&)$")


def organisation_shapes(n: Note, t: Tables) -> Iterator[Span]:
    """Organisations by shape (``lists/organisation_shapes.txt``), ORGANIZATION, certain: a
    union local, fire engine, medic unit or troop and its number (``Local 290``, with the union's
    capitals before it, whatever they also abbreviate: ``UA Local 290``), up to four capitalised
    words on the same line before a school, day-care, church, fire, EMS, police or service word
    (``Quarry Hill Elementary School``), and a church or order word before a capitalised name
    (``Church of the Nazarene``). The name's words must hold one that is no generic service word
    (not ``the Fire Department``). Nothing in an ALL-CAPS note but the numbered shapes (there
    every word is capitalised)."""
    number, after, before = _shapes()
    text = n.text
    for m in number.finditer(text):
        a = _ACRONYM_BEFORE_RE.search(text, max(0, m.start() - 8), m.start())
        yield ORGANISATION_SHAPE.span(a.start() if a else m.start(), m.end())
    if n.caps:
        return
    for m in after.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        prior = list(_NAME_WORD_RE.finditer(text, max(line_start, m.start() - 80), m.start()))[-4:]
        words: list[Word] = []
        for w in reversed(prior):   # the words that run up to the shape word, one space apart
            end = words[0].start if words else m.start()
            if text[w.end():end].strip(" \t") or not _NAME_PART_RE.match(w.group()):
                break
            words.insert(0, Word(w.start(), w.end(), w.group()))
        while words and (words[0].text in ("of", "and", "&") or knowledge.common_zipf(words[0].text) >= _SHORT_ZIPF
                         and words[0].start == _sentence_start(text, words[0].start)):
            words = words[1:]   # "Called Grace Church": a common word that starts a sentence
        if not words or name_kind(words, t.generic) != "distinct":
            continue
        yield ORGANISATION_SHAPE.span(words[0].start, m.end())
    for m in before.finditer(text):
        words = split_words(m.group("name"), m.start("name"))
        if name_kind(words, t.generic) != "distinct":
            continue
        yield ORGANISATION_SHAPE.span(m.start(), m.end())


def _sentence_start(text: str, i: int) -> int:
    """Where the sentence holding offset ``i`` starts: after ``. ``, ``! `` or ``? `` and the
    spaces after it, else -1 (a line's start is no sentence's: list items and headings)."""
    j = max(text.rfind(". ", 0, i), text.rfind("! ", 0, i), text.rfind("? ", 0, i))
    if j < 0:
        return -1
    j += 1
    while j < len(text) and text[j] in " \t":
        j += 1
    return j


def known(n: Note, t: Tables) -> Iterator[Span]:
    """:func:`care_chains`, :func:`short_name_heads` and :func:`organisation_shapes`."""
    yield from care_chains(n, t)
    yield from short_name_heads(n, t)
    yield from organisation_shapes(n, t)


#: The passes of this module, each with the rules it may give.
KNOWN_PASS = Pass(known, (CARE_CHAIN, SHORT_NAME_HEAD, ORGANISATION_SHAPE))
