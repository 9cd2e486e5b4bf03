"""The ensemble: the rules' candidates and the NER model's spans, resolved once.

A span is PHI when the rules OR the model say so. The pipeline (:func:`deid_core.analyze.analyze`
with ``model=``) runs the rules, adapts each model span as below (:func:`adapt_model_spans`),
adds it to the rules' candidates and runs the one resolver (:func:`deid_core.resolve.resolve`)
over them all.

Label priority (where a model span overlaps a rules candidate, the RULES' label wins: the rules
know i2b2 subtypes, e.g. CITY vs STATE vs ZIP, DOCTOR vs PATIENT, that the model's six coarse
types do not):

1. A model span that overlaps no rules candidate keeps the model's label (NAME -> PATIENT,
   LOCATION -> LOCATION-OTHER, HOSPITAL, ORGANIZATION, AGE, PROFESSION; see
   :mod:`deid_core.ner.pipeline`).
2. A model span that overlaps rules candidates takes the label of one of them: a certain one
   if any overlaps (the rules' own resolution lets certain beat review), among those the one it
   shares most characters with, then the first in the resolver's
   :data:`~deid_core.resolve.LABEL_RANK`.
3. A model span whose every letter and digit is already covered by rules candidates of
   the same or a stronger tier adds nothing and is dropped (so ``Springfield, IL`` found by the
   rules as CITY + STATE is not merged into one span by a model LOCATION over both).

Line breaks (issue 23 item 5): a model span is first cut at every line break inside it that no
rules candidate crosses too (the rules read ``Willow Creek\nNursing Home`` over two lines: that
break stays). A piece that is a line's heading, a field label before a colon or only shorthand,
heading, unit or clinical words, is dropped (``Bedford Falls\nUnit: MICU West`` -> ``Bedford
Falls``; ``Unit`` stays text). A NAME piece is validated on its own (a NAME span was already cut
to its first line); the other pieces of a place span that passes the validators as a whole keep
that verdict, since a place wrapped over two lines (``pine hollow state\npark``, ``maple\nrun
patient service center``) has its evidence only as a whole; where two such pieces of the same
label remain on adjacent lines the resolver joins them, as it joins the rules' (its rule 4).

Validators (what a model span must be to count at all, as the rules' validators do):
a span is first trimmed of punctuation and a leading article at its edges (``the Ohio River
Valley`` -> ``Ohio River Valley``, ``lupus,`` -> ``lupus``); it then needs at least two letters or
digits; a model AGE span must hold an age over 89 in digits or words (Safe Harbor leaves ages up
to 89 in the record, so ``a 45-year-old`` stays); and a model-only NAME span of one word must be a
word of the census name lists (``lists.surnames()``/``given_names()``, either part of a hyphenated
word): on the held-out ASQ-PHI queries the model's one-word names outside the lists were drug and
brand names (Losartan, Eliquis, Xarelto) and abbreviations, while names outside the lists almost
always come with a second word or an initial, which the model span then covers.
For terse ICU nursing notes (mostly ALL CAPS, where the case feature says nothing), read on the
real-notes dev set (issue 8): a digit AGE needs an age cue (``92 yo``, ``92-year-old``,
``Age: 92``, ``Ann Lee, 96,``), so ``HR 90'S`` and ``SATS 95%`` are not ages; a span made only of
nursing shorthand, unit, department, heading or clinical-noun words (``lists/abbreviations.txt`` kind shorthand
and the other lists; one-letter side words and numbers ignored: ``R RAD ALINE``, ``MICU``,
``SAO2``) is dropped; and an ALL-CAPS or lower-case NAME span needs a census name word that is not
shorthand, or a title or relation word before it (``BS DIMINISHED`` goes, ``DTR MARISOL`` and
``DR OKONKWO`` stay). Also read there: a NAME span is cut to its first line and loses title,
relation, credential, shorthand and person words, and function words in lower case
(``lists/non_names.txt``: ``may extubate``, ``no complaints``), at its edges (``DR. VOSSBERG
AWARE`` -> ``VOSSBERG``, ``DTR X`` -> ``X``); a one-word NAME that is shorthand, or an
English-word name in capitals or lower case (``PEARL``, ``green``), needs a title before it, a
bracket before it or a person's verb after it, and so does a Capitalised one-word NAME that
opens a sentence and is an English word (``Cuff was 18``, ``Ginger tea given``);
``90s``/``100s`` are decades, no ages; and a model-only LOCATION-OTHER or ORGANIZATION span
(one under no rules candidate) needs place evidence: a listed city, country
or (in a note with lower case) state, a ward shape (``HARTWELL 4``, ``MICU/HARTWELL``), a
landmark word (``state park``), a postcode, ``apt 3b``, or a Capitalised word in a note with
capitals; a time or amount (``AT 1130``, ``7a``) and an ALL-CAPS or lower-case common word
(``IN FLUTTER``, ``in pudding``) are not. Spans below the model's ``floor`` (``ner.json``) never
reach here.

Tier: a model span is ``certain`` when its confidence is at or above the model's threshold (chosen
on the dev split, written in ``model/ner.json`` and the model card) and ``review`` below; the
pipeline already sets it. The resolver then applies its usual rule, certain beats review, so a
certain model span over a rules review candidate (a name that is also a medical word) makes it
certain, and a review model span never overrides a certain rules span. Model spans keep their
source ``"ner:<name>:p=<confidence>"``, so Review can explain them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import re
from bisect import bisect_left
from functools import lru_cache

from . import lists
from .detectors.ages import words_to_number
from .detectors.names import words as W
from .resolve import LABEL_RANK
from .spans import CERTAIN, REVIEW, Span

__all__ = ["adapt_model_spans", "plausible", "spans_from_dicts", "trimmed"]

_RANK = {label: i for i, label in enumerate(LABEL_RANK)}
_TIER_STRENGTH = {CERTAIN: 1, REVIEW: 0}


def spans_from_dicts(items: Iterable[Mapping[str, Any]] | None, text: str) -> list[Span]:
    """Model spans from JSON dicts ``{"start", "end", "label", "tier"?, "source"?}`` (what
    :func:`deid_core.ner.pipeline.finish_json` returns).

    Raises:
        ValueError: on a non-list, an item that is not an object, missing or non-int offsets,
            an unknown label or tier, or a span past the end of ``text``.
    """
    if items is None:
        return []
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise ValueError("model_spans must be a list of span objects")
    out: list[Span] = []
    for k, d in enumerate(items):
        if not isinstance(d, Mapping):
            raise ValueError(f"model_spans[{k}] must be an object")
        start, end = d.get("start"), d.get("end")
        if type(start) is not int or type(end) is not int:
            raise ValueError(f"model_spans[{k}] needs integer 'start' and 'end'")
        if end > len(text):
            raise ValueError(f"model_spans[{k}] ends at {end}, past the text ({len(text)} characters)")
        source = d.get("source", "ner")
        if not isinstance(source, str):
            raise ValueError(f"model_spans[{k}].source must be a string")
        out.append(Span(start, end, d.get("label"), d.get("tier", CERTAIN), source))
    return out


_NUMBER_RE = re.compile(r"\d+")


_EDGE_RE = re.compile(r"^(?:[\W_]*\b(?:the|a|an)\s+)?[\W_]*|[\W_]*$", re.IGNORECASE)
_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def trimmed(span: Span, text: str) -> Span | None:
    """``span`` without punctuation or a leading article at its edges; None if nothing is left."""
    piece = text[span.start:span.end]
    lead = _EDGE_RE.match(piece).end()
    tail = len(piece) - len(piece.rstrip("".join(ch for ch in set(piece) if not ch.isalnum())))
    start, end = span.start + lead, span.end - tail
    if start >= end:
        return None
    if (start, end) == (span.start, span.end):
        return span
    return Span(start, end, span.label, span.tier, span.source)


def _in_name_lists(word: str) -> bool:
    parts = [p for p in re.split(r"[-'’]", word.lower()) if p]
    sur, given = lists.surnames(), lists.given_names()
    return any(p in sur or p in given for p in parts) or word.lower() in sur


_AGE_CUE_AFTER = re.compile(r"\s*-?\s*(?:y(?:ears?|rs?|/?o|\.o\.?)?\b|year|yr|[MF]\b|male|female|man\b|"
                            r"woman\b|old\b|\))", re.IGNORECASE)
_AGE_CUE_BEFORE = re.compile(r"(?:\bage[ds]?\b[\s:=]*|,\s*|\(\s*)$", re.IGNORECASE)
_AGE_APPOSITION_AFTER = re.compile(r"\s*[,)]")


def _age_cue(span: Span, text: str) -> bool:
    """A digit age has a cue: ``92-year-old``, ``92 yo``, ``92M``, ``Age: 92``, or stands
    between commas or in brackets after a name (``Ann Lee, 96, lives``, ``(92)``). Without one
    a number of 90 or more is a measurement (``HR 90's``, ``sats 95%``, ``MI '92``)."""
    if _AGE_CUE_AFTER.match(text, span.end):
        before = text[max(0, span.start - 12):span.start]
        return not before.endswith(("'", "’", "/", "-", "."))
    before = text[max(0, span.start - 12):span.start]
    if re.search(r"\bage[ds]?\b[\s:=]*$", before, re.IGNORECASE):
        return True
    return bool(_AGE_CUE_BEFORE.search(before)) and bool(_AGE_APPOSITION_AFTER.match(text, span.end))


def _shorthand_only(piece: str) -> bool:
    """Every word of ``piece`` is nursing shorthand, a unit or department word, a note heading
    or a clinical noun (``MAE``, ``R RAD ALINE``, ``MICU``, ``CATH LAB``, ``GROIN``)."""
    words = [w.lower() for w in re.findall(r"[^\W_]+(?:['’-][^\W_]+)?", piece)]
    # R GROIN, L SC: a side letter says nothing; nor does a number (SAO2 is one word)
    words = [w for w in words if len(w) > 1 and not w.isdigit()]
    if not words:
        return False
    return all(_never_phi(w) for w in words)


def _never_phi(word: str) -> bool:
    never = _never_phi_words()
    return (word in never or word.rstrip("s") in never or word.replace("-", "") in never
            or word.rstrip("0123456789") in never)


def _after_title(span: Span, text: str) -> bool:
    """The word before the span is a title or a relation word (``DR X``, ``MRS X``, ``DTR X``)."""
    m = re.search(r"([^\W\d_]+)\.?\s+$", text[max(0, span.start - 20):span.start])
    if not m:
        return False
    w = m.group(1).lower()
    if w in ("pt", "patient") and not any(ch.islower() for ch in text[span.start:span.end]):
        return False   # "PT BLADDR SCANNED": in capitals "PT" is the patient, no title
    return w in lists.handwritten("titles") or w in lists.relations("names")


def _person_next(span: Span, text: str) -> bool:
    """A bracket before the span or a person's verb after it (``(HOPE IS AWAY)``, ``dale
    called``)."""
    if text[:span.start].rstrip(" \t").endswith("("):
        return True
    m = re.match(r"[ \t]+([^\W\d_]+)", text[span.end:span.end + 30])
    return bool(m) and (m.group(1).lower() in W.PERSON_VERBS or m.group(1).lower() in W.PERSON_AFTER)


_SENTENCE_END_BEFORE = re.compile(r"(?:^|[.!?:;]|\n)[ \t\r\n]*$")


def _sentence_start_word(span: Span, text: str, words: list[str]) -> bool:
    """A Capitalised one-word model NAME span that opens a sentence and is a census name that is
    also an English word (``Cuff was 18``, ``Ginger tea given``; not ``Ann Lee``, ``Heather``),
    with no title before it and no person's verb or bracket after it: the capital is the
    sentence's."""
    if not words or not words[0][:1].isupper() or words[0].isupper():
        return False
    if not _SENTENCE_END_BEFORE.search(text[max(0, span.start - 12):span.start]):
        return False
    if len(words) != 1 or words[0].lower() not in lists.english_collisions():
        return False   # "Ann Lee", "Oskar Brandvold": two words are a name's shape
    return not (_after_title(span, text) or _person_next(span, text))


def _uncased_name_without_list_word(piece: str) -> bool:
    """An ALL-CAPS or lower-case name span none of whose words is a census name (other than
    shorthand): without the case cue the model reads clinical phrases as names (``BS
    DIMINISHED``, ``AMIO BOLUS``); a Capitalised span (``Thandiwe Mthembu``) is left alone."""
    letters = [ch for ch in piece if ch.isalpha()]
    if not letters or not (all(ch.isupper() for ch in letters) or all(ch.islower() for ch in letters)):
        return False
    words = [w.lower() for w in _WORD_RE.findall(piece)]
    return not any(_in_name_lists(w) and not _never_phi(w) for w in words if len(w) > 1)


@lru_cache(maxsize=None)
def _never_phi_words() -> frozenset[str]:
    """Shorthand, clinical abbreviations, departments, headings and clinical nouns: a model span
    made only of these is never PHI."""
    return (lists.abbreviations("shorthand", "clinical") | lists.handwritten("departments")
            | lists.handwritten("note_headings") | lists.clinical_nouns())


@lru_cache(maxsize=None)
def _name_edge_words() -> frozenset[str]:
    """Words a model NAME span may not start or end with: titles, relations, credentials and
    the person words after a name (``DTR WILHELMINA``, ``VOSSBERG AWARE``, ``OSKAR BRANDVOLD RRT``)."""
    return (lists.handwritten("titles") | lists.handwritten("relations") | W.CREDENTIALS
            | W.PERSON_AFTER | W.PERSON_VERBS)


@lru_cache(maxsize=None)
def _non_names() -> frozenset[str]:
    """Function and note words never a name without context (``lists/non_names.txt``): in lower
    case at the edge of a model NAME span they are cut off (``may extubate``, ``no complaints``)."""
    return lists.handwritten("non_names")


_TOKEN_RE = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*\.?")


def name_core(span: Span, text: str) -> Span | None:
    """A model NAME span cut to its first line and without title, relation, credential,
    shorthand or person words at its edges (``DR. VOSSBERG AWARE`` -> ``VOSSBERG``, ``HO Margaret``
    -> ``Margaret``, ``Quayle\nA`` -> ``Quayle``), nor function words in lower case (``may
    extubate`` -> ``extubate``, which then needs the name lists); ``None`` if no word is left.
    Other spans are returned as they are."""
    if span.category != "NAME":
        return span
    piece = text[span.start:span.end]
    cut = piece.find("\n")
    if cut > 0 and piece[:cut].strip():
        piece = piece[:cut]
    toks = [(m.start(), m.end(), m.group().rstrip(".").lower()) for m in _TOKEN_RE.finditer(piece)]
    edge = _name_edge_words()

    def weak(tok: tuple[int, int, str]) -> bool:
        w = tok[2]
        return w in edge or (len(w) > 1 and _never_phi(w)) or (
            w in _non_names() and piece[tok[0]:tok[1]].islower())
    while toks and weak(toks[0]):
        toks.pop(0)
    while toks and weak(toks[-1]):
        toks.pop()
    if not toks:
        return None
    start, end = span.start + toks[0][0], span.start + toks[-1][1]
    if text[end - 1] == "." and not (toks[-1][1] - toks[-1][0] == 2):   # keep "J." of an initial
        end -= 1
    if (start, end) == (span.start, span.end):
        return span
    return Span(start, end, span.label, span.tier, span.source)


def _place_evidence(span: Span, text: str) -> bool:
    """A model-only place span (not a hospital) looks like one: a Capitalised word in a note
    with capitals (``Glenmorrow``, ``West Annex``), a listed city or country (``TUCSON``), or a
    ward shape, a name word and a number or a unit word (``HARTWELL 4``, ``MICU/HARTWELL``);
    a lower-case or ALL-CAPS common word is not (``in pudding``, ``ON AIRBED``, ``IN FLUTTER``)."""
    piece = text[span.start:span.end]
    if re.search(r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b", piece):
        return True    # a postcode (BS35 1DQ)
    if piece[:1].isdigit():
        # "AT 1130", "to 250cc", "11p to 7a": a time or an amount; "apt 3b" is an address
        return bool(re.search(r"(?i)\b(?:apt|apartment|unit|suite|ste|room|rm|#)\.?\s*$",
                              text[max(0, span.start - 12):span.start]))
    words = re.findall(r"[^\W\d_]+", piece)
    if not words:
        return False
    if any(w.lower() in _landmarks() for w in words[1:]) and not _never_phi(words[0].lower()) \
            and words[0].lower() not in lists.handwritten("generic_service_words"):
        return True    # "pine hollow state park", "CEDAR LAKE" ("church shelter": no name)
    low = " ".join(w.lower() for w in words)
    if low in _places() or any(w.lower() in _places() for w in words if len(w) > 3):
        return True
    states = lists.us_states()
    if (low in states or piece.strip() in states.values()) and re.search(
            r"[a-z]", text[max(0, span.start - 40):span.end + 40]):
        return True    # "Cedar Falls Med Center, IA" (an ALL-CAPS note's "LIVES IN VT" is no place)
    named = [w for w in words if len(w) > 1 and not _never_phi(w.lower())]
    if not named:
        return False
    if re.search(r"[^\W\d_]{3,}\s*-?\s*\d", piece) or any(w.lower() in _wards() for w in words):
        return True    # "HARTWELL 4", "MICU/HARTWELL": a ward
    letters = [ch for ch in piece if ch.isalpha()]
    if all(ch.isupper() for ch in letters) or all(ch.islower() for ch in letters):
        return False
    return any(w[0].isupper() and not w.isupper() for w in named)


@lru_cache(maxsize=None)
def _landmarks() -> frozenset[str]:
    return lists.handwritten("landmark_words") | lists.handwritten("street_words")


@lru_cache(maxsize=None)
def _wards() -> frozenset[str]:
    return lists.handwritten("departments") | lists.handwritten("ward_words")


@lru_cache(maxsize=None)
def _places() -> frozenset[str]:
    return frozenset(n.lower() for n, _s, _c in lists.us_places()) | frozenset(
        c.lower() for c in lists.countries())


def plausible(span: Span, text: str) -> bool:
    """The validators of the module docstring: True when a (trimmed) model span may become a
    candidate."""
    piece = text[span.start:span.end]
    if sum(ch.isalnum() for ch in piece) < 2:
        return False
    if span.category == "NAME":
        words = _WORD_RE.findall(piece)
        if len(words) == 1 and len(piece.split()) == 1 and not _in_name_lists(words[0]):
            return False
        if _uncased_name_without_list_word(piece) and not _after_title(span, text):
            return False
        if len(words) == 1 and not _after_title(span, text) and (
                _never_phi(words[0].lower()) or words[0].lower() in lists.english_collisions()
                and (words[0].isupper() or words[0].islower()) and not _person_next(span, text)):
            return False   # "PEARL, MAE", "asp green", "Aline waveform": a word, no name
        if _sentence_start_word(span, text, words):
            return False   # "Wedge was 18.", "May come today.": an English word opens the sentence
    if span.label == "AGE":
        numbers = [int(n) for n in _NUMBER_RE.findall(piece) if len(n) <= 3]
        if re.fullmatch(r"\d+\s*'?s|\d+[^\W\d_]{3,}", piece.strip(), re.IGNORECASE):
            return False   # "HR 100s", "rate 110this evening": decades, a glued word
        if numbers:
            return max(numbers) > 89 and (not piece.strip().isdigit() or _age_cue(span, text))
        value = words_to_number(re.sub(r"(?i)[\s-]*(?:years?|yrs?|yo|y/o)?[\s-]*old$", "", piece))
        return value is not None and value > 89
    if _shorthand_only(piece) and not (span.category == "NAME" and _after_title(span, text)):
        return False   # ... but "DR. FOLEY AWARE": a device eponym after a title is a name
    return True


def _hospital_evidence(span: Span, text: str) -> bool:
    """A model-only hospital span of one word looks like one: an abbreviation without a vowel
    (``GH``, ``SMH``), a Capitalised word in a note with capitals (``Glenmorrow``), or a listed
    place or census name; an ALL-CAPS or lower-case word with a vowel that is none of these
    (``NIDDM``, ``mva``, ``pulm``, ``WINCE``) is a clinical word or shorthand. Spans of more
    words pass."""
    words = re.findall(r"[^\W\d_]+", text[span.start:span.end])
    if len(words) != 1:
        return True
    word = words[0]
    if not set(word.upper()) & set("AEIOUY"):
        return True
    if word[0].isupper() and not word.isupper():
        return True
    low = word.lower()
    return low in _places() or _in_name_lists(word) and low not in lists.english_collisions()


def _model_only_ok(span: Span, text: str) -> bool:
    """A model span that overlaps no rules candidate: a place (not a hospital) needs
    :func:`_place_evidence`, a one-word hospital :func:`_hospital_evidence`."""
    if span.label in ("LOCATION-OTHER", "ORGANIZATION"):
        return _place_evidence(span, text)
    if span.label == "HOSPITAL":
        return _hospital_evidence(span, text)
    return True


def _covered(span: Span, rules: list[Span], text: str) -> bool:
    strength = _TIER_STRENGTH[span.tier]
    for i in range(span.start, span.end):
        if not text[i].isalnum():
            continue
        if not any(r.start <= i < r.end and _TIER_STRENGTH[r.tier] >= strength for r in rules):
            return False
    return True


def _line_pieces(model_spans: Iterable[Span], rules: list[Span], starts: list[int], longest: int,
                 text: str) -> Iterable[tuple[Span, Span | None]]:
    """Each model span cut at every line break inside it, except a line break that a rules
    candidate crosses as well (the rules read a multi-line name or address: ``Willow
    Creek\nNursing Home``, ``Margarethe\nOkonkwo-Lindqvist``); ``rules`` sorted, ``starts``
    their starts, ``longest`` the longest rules candidate. Yields ``(piece, whole)``: ``whole``
    the model span a piece was cut from, ``None`` for a span left whole. ``Bedford
    Falls\nUnit: MICU`` read by the model as one place gives ``Bedford Falls`` and ``Unit``."""
    for m in model_spans:
        cut = text.find("\n", m.start, m.end)
        if cut < 0:
            yield m, None
            continue
        start, pieces = m.start, []
        while cut >= 0:
            lo, hi = bisect_left(starts, cut - longest), bisect_left(starts, cut)
            if not any(r.end > cut + 1 for r in rules[lo:hi]):
                if cut > start:
                    pieces.append(Span(start, cut, m.label, m.tier, m.source))
                start = cut + 1
            cut = text.find("\n", cut + 1, m.end)
        if m.end > start:
            pieces.append(Span(start, m.end, m.label, m.tier, m.source) if start != m.start else m)
        for piece in pieces:
            yield piece, (None if piece is m else m)


_FIELD_LABEL_AFTER = re.compile(r"[ \t]*:")


def _line_heading(piece: Span, text: str) -> bool:
    """A piece of a cut model span that is a line's heading, not PHI: a field label (``Unit:``,
    ``Dept:``) or only shorthand, heading, unit or clinical words (``Allergies``, ``Unit``)."""
    return bool(_FIELD_LABEL_AFTER.match(text, piece.end)) or _shorthand_only(text[piece.start:piece.end])


def _whole_ok(whole: Span, rules: list[Span], text: str) -> bool:
    """The model span a piece was cut from passes the validators as the model read it (a place
    wrapped over two lines, ``pine hollow state\npark``, has its evidence only as a whole)."""
    w = trimmed(whole, text)
    if w is None or w.category == "NAME" or not plausible(w, text):
        return False
    return any(r.start < w.end and w.start < r.end for r in rules) or _model_only_ok(w, text)


def adapt_model_spans(model_spans: Iterable[Span], rules: Iterable[Span], text: str) -> list[Span]:
    """Apply the label priority (module docstring, rules 1-3) to model spans.

    Args:
        model_spans: the model's spans (any order).
        rules: the rules' candidates (before resolution).
        text: the note.

    Returns:
        The model spans to add to the candidates, relabelled where they overlap the rules.
    """
    rules = sorted(rules)
    starts = [r.start for r in rules]
    longest = max((r.end - r.start for r in rules), default=0)
    out: list[Span] = []
    whole_ok: dict[Span, bool] = {}
    for m, whole in _line_pieces(model_spans, rules, starts, longest, text):
        m = trimmed(m, text)
        m = None if m is None else name_core(m, text)
        if m is None:
            continue
        vouched = False   # a piece of a cut place span, which passed as a whole, and no heading
        if whole is not None:
            if _line_heading(m, text):
                continue
            if whole not in whole_ok:
                whole_ok[whole] = _whole_ok(whole, rules, text)
            vouched = whole_ok[whole] and sum(ch.isalnum() for ch in text[m.start:m.end]) >= 2
        if not vouched and not plausible(m, text):
            continue
        # the rules overlapping m, in order: only those starting within ``longest`` before it
        lo, hi = bisect_left(starts, m.start - longest), bisect_left(starts, m.end)
        hits = [r for r in rules[lo:hi] if r.start < m.end and m.start < r.end]
        if not hits:
            if vouched or _model_only_ok(m, text):
                out.append(m)
            continue
        if _covered(m, hits, text):
            continue
        best = min(hits, key=lambda r: (-_TIER_STRENGTH[r.tier],
                                        -(min(r.end, m.end) - max(r.start, m.start)),
                                        _RANK[r.label], r.start))
        out.append(m if best.label == m.label else Span(m.start, m.end, best.label, m.tier, m.source))
    return out

