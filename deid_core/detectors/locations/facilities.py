"""Facilities: hospitals, clinics, practices, named units, companies, schools and landmarks
found by the phrase that ends their name (``Mercy General Hospital``, ``Cobalt Bay Urology``,
``Acme Logistics Inc``, ``Bellwether Mall``), by context (``seen at Cedar Crest``, ``works at
...``), and saints' possessives (``St. Jude's``). Each rule is declared above the function that
applies it.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ... import lists
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW, Span
from .lexicon import (Tables, clinical_shorthand, lookup_place, name_kind, ordinary_word, proper_evidence,
                      strip_leading, tables)
from .organizations import _EMPLOYER_PREPOSITIONS
from .terse import after_transfer
from .text import (ADVERBS, DIRECTION, GAP, SP, UP, after_title, alternation, is_connector, norm, Note,
                   phrase_key, Run, segment, sentence_initial, tail_words, same_line_words, trim_end,
                   split_words, Word)

#: The words of ``lists/facility_cues.txt`` by use (saint_follower, hospital_after ...).
_CUES = "facility_cues.txt"


def _cue_words(use: str) -> str:
    """The ``use`` entries of :data:`_CUES` as an alternation, a space as ``[ \t]+``."""
    return alternation(lists.tagged(_CUES, use), SP)


_SAINT_RE = re.compile(
    r"S(?<![\w]S)(?:t\.?|aint|T\.?|AINT)[ \t]+[A-Z][A-Za-z]{1,30}(?:'s|’s|'S|’S)"
    r"(?![ \t]+(?i:" + _cue_words("saint_follower") + r"))")
_LOWER_HW_AFTER_RE = re.compile(r"[ \t]+(?:" + _cue_words("hospital_after") + r")(?![\w'’])")
_BOAT_RE = re.compile(rf"{GAP}(?:{_cue_words('place_part_after')})(?![\w])")
_UNIT_NUMBER_AFTER_RE = re.compile(rf"[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]?{DIRECTION})?(?![\w])")
#: A word after a facility phrase, right after it or one word on, that makes the phrase part of
#: something else (``her health care proxy``, ``HEALTH`` of ``health care decisions``, ``a home
#: health aide``): the ``not_facility_after`` words of :data:`_CUES`, any case.
_NOT_FACILITY_AFTER_RE = re.compile(r"(?:[ \t]+[A-Za-z]+)?[ \t]+(?i:" + _cue_words("not_facility_after")
                                    + r")(?![\w'’-])")
_LABEL_AFTER_RE = re.compile(r"[ \t]*(?:(?:No|NO|no|Number|NUMBER|ID|Id|#)\b\.?[ \t]*[:#]?|#)")
#: Words after a hospital name that belong to it (``lists/facility_tail_words.txt``), as written.
_TAIL_WORDS = frozenset(w for r in lists.read_list("facility_tail_words.txt").rows
                        for w in ((r[0].title(), r[0].upper()) if r[1] == "yes" else (r[0].title(),)))
#: Weak company words (``lists/company_suffixes.txt`` strength ``weak``/``weak-initial``), and
#: those that are no company alone at a sentence start (``weak-initial``).
_COMPANY_STRENGTH = {r[0]: r[1] for r in lists.read_list("company_suffixes.txt").rows}
_COMPANY_WEAK = frozenset(w for w, s in _COMPANY_STRENGTH.items() if s.startswith("weak"))
_COMPANY_WEAK_INITIAL = frozenset(w for w, s in _COMPANY_STRENGTH.items() if s == "weak-initial")


#: The phrase kinds of hospital words (strong and weak).
_HOSPITAL_KINDS = frozenset({"hosp", "hosp_weak"})
#: A Title-case word's start (a capital, then a lower-case ASCII letter).
_TITLE_CASE_RE = re.compile(rf"[{UP}][a-z]")


def proper_institution(text: str, name: list, t: Tables, caps: bool = False) -> bool:
    """A hospital name of institution words only (``Memorial``, ``General``) is a proper name
    when every word of it is capitalised and it comes right after a word of transferring, a
    facility verb or a bare ``at`` (or ``in``, in a note with lower case: ``caps`` is whether
    the note is ALL CAPS) without an article (``transferred from Memorial Hospital``, ``TAKEN
    TO GENERAL HOSPITAL``, ``seen at General Hospital``, ``surgery at County General``, ``is in
    City Hospital``; not ``sent to the general hospital``, ``a Community Hospital``)."""
    if not all(w.text[:1].isupper() for w in name if not is_connector(w)):
        return False
    # (determiners that make a common noun phrase: "sent to the general hospital", "a local one")
    return after_care_word(text, name[0].start, t, caps,
                           ("the", "our", "a", "an", "this", "that", "another", "local"))


def after_care_word(text: str, start: int, t: Tables, caps: bool,
                    articles: tuple[str, ...] = ("the", "a", "an", "our")) -> bool:
    """The words before ``start`` (a name's first character) end with a word of transferring,
    a facility verb or a bare ``at`` (:func:`_facility_context_word`), or with ``in`` in a note
    that is not ALL CAPS (``caps`` False): ``transferred from``, ``seen at``, ``is in``; and
    the last of them is none of ``articles``."""
    tail = tail_words(text, start)
    if not tail or tail[-1] in articles:
        return False
    return after_transfer(tail, t.transfer_words) or bool(_facility_context_word(tail)) \
        or not caps and tail[-1] == "in"   # "Knows she is in General Hospital"


_C, _CR, _R = (CERTAIN,), (CERTAIN, REVIEW), (REVIEW,)
_CAPS_AMBER = "written all in capitals, the words may be ordinary ones"
_NAME_LISTS = ("facility_stop_words.txt", "generic_service_words.txt", "not_facility_first.txt")
HOSPITAL_DISTINCT = Rule(
    "locations:hospital:distinct", ("HOSPITAL",), _CR,
    "a hospital or clinic name: a distinctive name before a hospital word (Mercy General Hospital)",
    amber="an acronym, words in capitals or a name after a title may be no hospital's name",
    list="hospital_words.txt", reads=("hospital_words_weak.txt", "facility_tail_words.txt") + _NAME_LISTS)
HOSPITAL_INSTITUTION = Rule(
    "locations:hospital:institution", ("HOSPITAL",), _CR,
    "a hospital name made of generic words (General Hospital, Memorial Hospital)",
    amber="a name of generic words names one hospital only right after a transfer or facility word",
    list="hospital_words.txt", reads=("generic_institution_words.txt", "transfer_words.txt",
                                      "facility_context_words.txt"))
PRACTICE = Rule("locations:practice", ("HOSPITAL",), _CR,
                "a practice's name before its specialty (Cobalt Bay Urology)", amber=_CAPS_AMBER,
                list="practice_words.txt", reads=("departments.txt",) + _NAME_LISTS)
NAMED_UNIT = Rule("locations:department:named_unit", ("DEPARTMENT",), _CR,
                  "a unit's name before a unit word (Wexford Chest Pain Unit)", amber=_CAPS_AMBER,
                  list="unit_words.txt", reads=("departments.txt",) + _NAME_LISTS)
COMPANY = Rule("locations:organization:company", ("ORGANIZATION",), _CR,
               "a company or business name before a business word (Acme Logistics Inc)",
               amber=_CAPS_AMBER, list="company_suffixes.txt", reads=_NAME_LISTS)
UNIVERSITY = Rule("locations:organization:university", ("ORGANIZATION",), _C,
                  "a university's name (University of Vermont)", list="school_words.txt")
SCHOOL = Rule("locations:organization:school", ("ORGANIZATION",), _C,
              "a school's name before a school word (Northgate Elementary School)", list="school_words.txt",
              reads=_NAME_LISTS)
LANDMARK = Rule("locations:landmark", ("LOCATION-OTHER",), _CR, "a landmark name",
                amber="with no place word before it (near, at, in) the words may be ordinary",
                list="landmark_words.txt", reads=_NAME_LISTS)
STREET_NO_NUMBER = Rule("locations:street_no_number", ("STREET",), _R, "a street name without a house number",
                        amber="without a house number the words may be no street (Main Street Pharmacy)",
                        list="street_words.txt", reads=_NAME_LISTS)


def phrase_rules(n: Note, t: Tables, r: Run, i: int, j: int, kinds: frozenset) -> Iterator[Span]:
    """Spans for the phrase ``r.words[i..j]`` of the given ``kinds`` (``hosp``, ``hosp_weak``,
    ``practice``, ``unit``, ``company``, ``school``, ``landmark``, ``street``) with the name
    words before it: HOSPITAL, DEPARTMENT, ORGANIZATION, LOCATION-OTHER or STREET."""
    text = n.text
    words = r.words
    if any(words[k].nl for k in range(i + 1, j + 1)) and not kinds & _HOSPITAL_KINDS:
        return
    phrase_end = words[j].end
    nxt = words[j + 1] if j + 1 < len(words) and not words[j + 1].nl else None
    if words[i].nl and (not kinds & _HOSPITAL_KINDS or (i != j and all(
            w.text.isupper() for w in words[max(0, i - 3):i]) and not n.caps)):
        name = []   # a name on the line above, except after a capitals heading (DISCHARGE SUMMARY)
    else:
        name = strip_leading(segment(words, max(0, i - 6), i))
    if _LABEL_AFTER_RE.match(text, phrase_end):
        return  # "Unit No: 123", "Insurance ID": a field label, not a name
    if _NOT_FACILITY_AFTER_RE.match(text, phrase_end):
        return  # "his health care decisions", "a home health aide": no facility
    if not name:
        if "school" in kinds and nxt and nxt.text.lower() == "of":
            pass  # University of X
        else:
            return
    kind = name_kind(name, t.generic) if name else "none"
    title = bool(name) and after_title(text, name[0].start)
    colon = text[phrase_end:phrase_end + 2].lstrip(" \t").startswith(":")
    all_caps = bool(name) and all(w.text.isupper() for w in name) and words[j].text.isupper() and not n.caps
    weak_after_at = False
    if n.caps and kind == "distinct" and not proper_evidence(name, t) and not after_transfer(
            tail_words(text, name[0].start), t.transfer_words):
        # ALL-CAPS note: "REQUIRE REHAB", "PROPOFOL INC", "TRANSFUSED ONE UNIT" are no names;
        # only a transfer word before it (TAKEN TO FENWICK REGIONAL), a strong hospital word
        # (HOSPITAL, MEDICAL CENTER) or a practice or company phrase of two words or more
        # (PHYSICAL THERAPY, HOME HEALTH) keeps such a run
        if any(len(w.text) > 4 and w.text.endswith(("ING", "ED")) for w in name):
            return   # "SEEN PACING HOSPITAL HALLS", "STARTED MEDICAL CENTER DIET": a verb, no name
        keep = {"hosp", "practice", "company"} if i < j else {"hosp"}
        weak_after_at = False
        if "hosp_weak" in kinds and len(name) == 1 and i == j and norm(words[j].text) in t.institution \
                and tail_words(text, name[0].start)[-1:] in (["at"], ["from"]):
            # "SON SAYS THAT AT FENWICK MEMORIAL, ...": a weak hospital word that is also an
            # institution word (MEMORIAL, REGIONAL; not HEALTH, CENTER) after a one-word name
            # right after at/from (review)
            keep, weak_after_at = keep | {"hosp_weak"}, True
        kinds = kinds & keep
        if not kinds:
            return

    if kinds & _HOSPITAL_KINDS and kind not in ("none", "generic") and not colon:
        weak_block = "hosp" not in kinds and nxt is not None and (
            _TITLE_CASE_RE.match(nxt.text) or "hosp" in t.phrases.get(phrase_key(nxt.text), ()))
        if not weak_block:
            end, k = phrase_end, j
            if nxt is not None and nxt.text in _TAIL_WORDS:
                end, k = nxt.end, j + 1
            if k + 2 < len(words) and words[k + 1].text.lower() == "of" and not words[k + 2].nl:
                seg = []
                for w in words[k + 2:k + 7]:
                    if w.nl:
                        break
                    seg.append(w)
                if seg:
                    end = seg[-1].end
            if kind == "distinct":
                acronym = all(w.text.isupper() for w in name) and len(name) == 1 and len(name[0].text) <= 3
                tier = REVIEW if acronym or all_caps or title or weak_after_at else CERTAIN
            elif kind == "institution" and end > phrase_end and nxt is not None and \
                    nxt.text.lower() in ("of", "for"):
                tier = CERTAIN   # University Hospital of Fort Wayne
            elif kind == "institution" and proper_institution(text, name, t, n.caps):
                tier = CERTAIN   # "transferred from Memorial Hospital", "TAKEN TO GENERAL HOSPITAL"
            else:
                tier = REVIEW
            yield (HOSPITAL_DISTINCT if kind == "distinct" else HOSPITAL_INSTITUTION).span(
                name[0].start, end, tier=tier)
    if "practice" in kinds and kind == "distinct" and not title and not colon:
        yield PRACTICE.span(name[0].start, phrase_end, tier=REVIEW if all_caps else CERTAIN)
    if "unit" in kinds and kind == "distinct" and not title:
        end = phrase_end
        m = _UNIT_NUMBER_AFTER_RE.match(text, end)
        if m:
            end = m.end()
        tier = REVIEW if all_caps and len(name) == 1 and len(name[0].text) <= 3 else CERTAIN
        yield NAMED_UNIT.span(name[0].start, end, tier=tier)
    if "company" in kinds and kind == "distinct" and not title and words[j].text != "CO":
        # ("FICK CO", "TD CO": cardiac output, not a company)
        low = phrase_key(words[i].text) if i == j else ""
        weak = low in _COMPANY_WEAK
        if not (weak and (colon or (nxt is not None and _TITLE_CASE_RE.match(nxt.text)))) and \
                not (low in _COMPANY_WEAK_INITIAL and len(name) == 1
                     and sentence_initial(text, name[0].start)):
            yield COMPANY.span(name[0].start, phrase_end, tier=REVIEW if all_caps else CERTAIN)
    if "school" in kinds:
        if nxt is not None and nxt.text.lower() == "of" and words[i].text.lower() in ("university", "college"):
            seg = []
            for w in words[j + 2:j + 6]:
                if w.nl:
                    break
                seg.append(w)
            seg = [w for w in seg if not is_connector(w)] and seg
            if seg and n.caps:
                seg = _caps_university_tail(t, seg)
            if seg:
                start = name[0].start if kind == "distinct" else words[i].start
                yield UNIVERSITY.span(start, seg[-1].end)
        elif kind == "distinct" and not title:
            yield SCHOOL.span(name[0].start, phrase_end)
    if "landmark" in kinds and kind == "distinct" and not title:
        end = phrase_end
        m = _BOAT_RE.match(text, end)
        if m:
            end = m.end()
        before = text[max(0, name[0].start - 12):name[0].start].lower().split()
        context = bool(before) and before[-1] in ("near", "at", "in", "on", "by", "from", "to",
                                                  "outside", "behind", "the")
        yield LANDMARK.span(name[0].start, end, tier=CERTAIN if context else REVIEW)
    if "street" in kinds and kind != "none" and name and not title:
        yield STREET_NO_NUMBER.span(name[0].start, phrase_end)


def _caps_university_tail(t: Tables, seg: list[Word]) -> list[Word]:
    """The words after ``UNIVERSITY OF`` in an ALL-CAPS note, where every word is capitalised:
    a listed place and then only hospital and facility tail words (``UNIVERSITY OF VERMONT
    MEDICAL CENTER``; not ``UNIVERSITY OF VERMONT MEDICAL LAST WEEK FOR``); ``seg`` as it is
    when it starts with no listed place."""
    found = lookup_place(t, seg)
    if not found:
        return seg
    k = found[0]
    while k < len(seg) and (norm(seg[k].text) in t.hospital_words or seg[k].text in _TAIL_WORDS):
        k += 1
    return seg[:k]


HOSPITAL_LOWER_CASE_WORD = Rule(
    "locations:hospital:lower_case_word", ("HOSPITAL",), _CR,
    "a capitalised name before a hospital word in lower case (Mt. Sinai hospital)",
    amber="only right after a transfer or facility word is such a name surely a hospital's",
    list="hospital_words.txt", reads=("transfer_words.txt", "facility_context_words.txt"))


def lowercase_facility_after(n: Note, t: Tables, r: Run) -> Iterator[Span]:
    """``Mt. Sinai hospital``, ``Cedars-Sinai clinic``: a capitalised name, then a lower-case
    hospital word: certain in a note with lower case after a transfer word, a facility verb, a
    bare ``at`` or ``in`` (``was in St Mary hospital``), review otherwise."""
    m = _LOWER_HW_AFTER_RE.match(n.text, r.end)
    if not m:
        return
    name = strip_leading(segment(r.words, max(0, len(r.words) - 6), len(r.words)))
    found = lookup_place(t, name) if name else None
    if found and found[0] == len(name):
        return  # "our Chicago clinic": the city rule labels the city
    if name and name_kind(name, t.generic) == "distinct" and not after_title(n.text, name[0].start):
        # after a transfer or facility word, a proper-shaped name: "was in St Mary hospital"
        sure = not n.caps and proper_shaped(name) and after_care_word(n.text, name[0].start, t, n.caps)
        yield HOSPITAL_LOWER_CASE_WORD.span(name[0].start, m.end(), tier=CERTAIN if sure else REVIEW)



#: The words :func:`facility_context` needs last before a run, and the articles that may
#: follow them (``admitted to the``).
CONTEXT_LAST = ("at", "to", "from", "@")
CONTEXT_ARTICLES = ("the", "our")


FACILITY_CONTEXT = Rule(
    "locations:facility_context", ("HOSPITAL", "ORGANIZATION"), _CR,
    "a name after a facility word (admitted to, transferred to)",
    amber="the words after the facility word are not all written as a proper name",
    reads=("facility_context_words.txt", "transfer_words.txt", "titles.txt", "company_suffixes.txt",
           "school_words.txt", "clinical_abbreviations.tsv", "facility_short_forms.tsv"))
AT_CAPITALISED = Rule(
    "locations:at_capitalised", ("HOSPITAL", "ORGANIZATION"), _CR, "capitalised words after 'at'",
    amber="only the word 'at' before the capitalised words suggests a place",
    reads=("company_suffixes.txt", "school_words.txt", "clinical_abbreviations.tsv",
           "facility_short_forms.tsv", "english_common.tsv"))


def _facility_context_word(tail: list[str]) -> Rule | None:
    """:data:`FACILITY_CONTEXT` after ``seen at``/``admitted to``..., :data:`AT_CAPITALISED`
    after a bare ``at``, else ``None``."""
    words = tail[:-1] if tail and tail[-1] in CONTEXT_ARTICLES else tail
    if not words or words[-1] not in CONTEXT_LAST:
        return None
    verbs = tables().facility_verbs | tables().transfer_words
    for w in reversed(words[-4:-1]):
        if w in verbs:
            return FACILITY_CONTEXT
        if w not in ADVERBS:
            break
    if words[-1] == "from" and len(words) >= 2 and words[-2] in _care_team_titles():
        return FACILITY_CONTEXT   # "Surgeon from Harwick called": the team's hospital
    return AT_CAPITALISED if words[-1] in ("at", "@") else None



@lru_cache(maxsize=1)
def _care_team_titles() -> frozenset[str]:
    """The care-team role titles of ``lists/titles.txt`` (``surgeon``, ``nurse``, ``doctor``:
    role ``doctor``), lower case."""
    return frozenset(r[0].lower() for r in lists.read_list("titles.txt").rows if r[1] == "doctor"
                     and r[0].isalpha())


def facility_context(n: Note, t: Tables, r: Run, tail: list[str]) -> Iterator[Span]:
    """Capitalised words after ``seen at``, ``admitted to`` or a bare ``at``: HOSPITAL (or
    ORGANIZATION when the last word is a company or school word: ``at Acme Corp``), certain
    in a note with lower case when every word is proper-shaped (:func:`proper_shaped`: on
    ASQ-PHI dev and the real notes such spans were PHI), else review; ``tail`` is
    ``tail_words(n.text, r.start)``."""
    text = n.text
    rule = _facility_context_word(tail)
    if rule is None:
        return
    first_line = [r.words[0]]
    for w in same_line_words(r.words[1:]):
        if w.text in ("for", "the"):
            break   # "Calloway Rehabilitation Center for LSVT BIG"
        first_line.append(w)
    words = strip_leading(first_line)
    if len(words) == 1 and (len(words[0].text.rstrip("'’s")) < 2 or (
            len(words[0].text) <= 3 and not words[0].text.isupper())):
        return   # "at R", "at Rt": a side or a letter, not a place
    if len(words) > 6:
        words = words[:6]
    if not words or name_kind(words, t.generic) != "distinct":
        return
    if n.caps and all(w.text.isupper() for w in words):
        return
    if len(words) == 1 and words[0].text.rstrip(".").upper() in t.acronyms:
        return   # "refer to Careview": a clinical abbreviation or system in any case, no facility
    content = [w.text for w in words if not is_connector(w)]
    if (len(content) == 1 or all(c.isupper() for c in content)) and all(map(clinical_shorthand, content)):
        return   # "PICC at RUE", "NS @ KVO", "from CVICU", "diuresed from LASIX": shorthand
    if rule is AT_CAPITALISED and len(content) == 1 and ordinary_word(content[0]):
        return   # "at Home", "at Night": an ordinary word after a bare "at"
    found = lookup_place(t, words)
    if found and found[0] == len(words):
        return  # a bare city/state/country: the place rules label it
    end = trim_end(words[-1].end, text, words[0].start)
    tier = CERTAIN if not n.caps and proper_shaped(words) else REVIEW
    # "works at Acme Corp", "teacher at Northgate Elementary School": a company or a school
    org = t.phrases.get(phrase_key(words[-1].text), ())
    label = "ORGANIZATION" if "company" in org or "school" in org else "HOSPITAL"
    yield rule.span(words[0].start, end, label, tier)


def proper_shaped(words: list[Word]) -> bool:
    """Every word of a facility name is written as a proper name: Title case (``Cedar Crest``,
    ``Children's``) or an acronym of 2 to 6 capitals (``UCSF``), connectors allowed
    (``Brigham and Women's``); a lower-case word (``Sinai hospital``) is not."""
    content = [w for w in words if not is_connector(w)]
    return bool(content) and all(
        _TITLE_CASE_RE.match(w.text) or w.text.isupper() and 2 <= len(w.text) <= 6 and w.text.isalpha()
        for w in content)



SAINT_POSSESSIVE = Rule("locations:saint_possessive", ("HOSPITAL",), _R, "a Saint's name (St. Mary's)",
                        amber="a saint's possessive may be a church, a plant (St. John's wort) or a person",
                        reads=("facility_cues.txt",))


def saints(n: Note, t: Tables) -> Iterator[Span]:
    """``St. Jude's`` (review): a saint's possessive, often a hospital's short name."""
    for m in _SAINT_RE.finditer(n.text):
        yield SAINT_POSSESSIVE.span(m.start(), m.end())


HOSPITAL_LOWER = Rule("locations:hospital_lower", ("HOSPITAL",), _R, "a hospital name in lower case",
                      amber="in a note without capitals the words before a hospital word may be ordinary",
                      list="lower_case_facility_words.txt")
ORGANIZATION_LOWER = Rule(
    "locations:organization:lower_case", ("ORGANIZATION",), _R,
    "a business or school name in lower case before a business or school word",
    amber="in a note without capitals the words before a business word may be ordinary",
    list="company_suffixes.txt", reads=("school_words.txt",))


def lower_case_facilities(n: Note, t: Tables) -> Iterator[Span]:
    """All-lower-case notes: facilities and businesses before a lower-case facility or company
    word (review). Nothing in a note with capitals (:attr:`.text.Note.lower`)."""
    if not n.lower:
        return
    text = n.text
    for rx, rule, first in ((t.hospital_lower_re, HOSPITAL_LOWER, t.hospital_lower_first),
                            (t.org_lower_re, ORGANIZATION_LOWER, t.org_lower_first)):
        if not any(w in text for w in first):
            continue   # no keyword of the pattern (case-sensitive) anywhere in the note
        for m in rx.finditer(text):
            words = _after_employer_cue(strip_leading(split_words(m.group("name"), m.start("name"))))
            if name_kind(words, t.generic) != "distinct":
                continue
            yield rule.span(words[0].start, m.end())


#: The work words of ``lists/facility_cues.txt`` (``works``, ``employed``: use employer_context)
#: and the prepositions after them (:data:`.organizations._EMPLOYER_PREPOSITIONS`).
_EMPLOYER_CUES = frozenset(lists.tagged(_CUES, "employer_context"))


def _after_employer_cue(words: list[Word]) -> list[Word]:
    """The words after the last work word and its preposition (``works for northline
    logistics`` -> ``northline logistics``); ``words`` when none is a work word."""
    preps = _EMPLOYER_PREPOSITIONS.split("|")
    cut = max((i + 1 for i, w in enumerate(words) if w.text.lower() in _EMPLOYER_CUES), default=0)
    while cut < len(words) and (words[cut].text.lower() in preps or is_connector(words[cut])):
        cut += 1
    return words[cut:]



OUR_LADY = Rule("locations:our_lady", ("HOSPITAL",), _C,
                "a hospital named Our Lady of ... (Our Lady of Lourdes)", reads=("facility_stop_words.txt",))


_OUR_LADY_RE = re.compile(
    r"O(?<![\w'’-]O)(?:ur|UR)[ \t]+(?:Lady|LADY)[ \t]+(?:of|OF)[ \t]+"
    r"(?P<name>[A-Z][A-Za-z'’-]{1,20}(?:[ \t]+[A-Z][A-Za-z'’-]{1,20})?)")


def our_lady(n: Note, t: Tables) -> Iterator[Span]:
    """``OUR LADY OF MERCY``, ``Our Lady of Lourdes``: a Catholic hospital's name (HOSPITAL,
    certain), up to two capitalised words after ``of`` that are no stop or hospital words."""
    for m in _OUR_LADY_RE.finditer(n.text):
        words = split_words(m.group("name"), m.start("name"))
        keep = []
        for w in words:
            low = norm(w.text)
            if low in t.stop or low in t.hospital_words or low in t.generic:
                break
            keep.append(w)
        if keep:
            yield OUR_LADY.span(m.start(), keep[-1].end)


#: The rules :func:`phrase_rules`, :func:`lowercase_facility_after` and :func:`facility_context`
#: may give (run inside the capitalised runs by :func:`deid_core.detectors.locations.detect`), and
#: the passes of this module over the note.
RUN_RULES = (HOSPITAL_DISTINCT, HOSPITAL_INSTITUTION, PRACTICE, NAMED_UNIT, COMPANY, UNIVERSITY, SCHOOL,
             LANDMARK, STREET_NO_NUMBER, HOSPITAL_LOWER_CASE_WORD, FACILITY_CONTEXT, AT_CAPITALISED)
SAINTS_PASS = Pass(saints, (SAINT_POSSESSIVE,))
OUR_LADY_PASS = Pass(our_lady, (OUR_LADY,))
LOWER_CASE_FACILITIES_PASS = Pass(lower_case_facilities, (HOSPITAL_LOWER, ORGANIZATION_LOWER))
