"""Invented notes for the leak property (issue 22) and the check that finds a leak.

A note is built from *kinds*: each kind is a way names are written in real notes (particles,
hyphens, two-letter names, names that are words, names glued to punctuation, relation words,
tables, tabs, the very end of the text, capitals and lower case, later mentions in another
case). :func:`build_note` writes one note from a person (given name, surname) and the kinds
chosen, with a first mention in a strong context (a label, a title), later mentions in the
kinds' forms, other identifiers (MRN, phone, date) and clinical filler that must stay
(ages, doses, eponyms, abbreviations).

:func:`leaks` runs the engine (rules only) and writes the note (Redact or Surrogate, certain
only or with every amber candidate accepted) and returns what leaked: a token (letters or
digits, two or more, case-folded and accents folded) of an identifier the engine masked that
is still in the output outside every replacement, or (a name's) inside the fake of its own span. Tokens
that identify nobody are not counted: particles (``de``, ``van``), titles, credentials and
suffixes, relation words and identifier label words (each from its list in ``lists/``). Dates
and ages are not counted (a shifted date keeps digits such as ``2014``; a day number written
elsewhere is no leak), nor places (their generic words, ``Medical``, ``Center``, recur).

Every name and value is invented; the names are common given names and surnames.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from deid_core import analyze, lists
from deid_core.spans import Span
from deid_core.write import write

Pick = Callable[[Sequence], object]

#: Given names and surnames by kind: plain, two letters, an English word, hyphenated, with
#: particles, accented.
GIVEN = {
    "plain": ["Maria", "John", "Tomasz", "Aoife", "Raj", "Wei", "Margaret", "Kwame"],
    "two_letter": ["Jo", "Bo", "Al", "Di"],
    "word": ["Hope", "Grace", "Rose", "Will", "Faith"],
    "accented": ["José", "Renée", "Zoë", "Björn"],
}
SURNAMES = {
    "plain": ["Smith", "Patel", "Okafor", "Nguyen", "Kowalczyk", "Haddad", "Lindqvist"],
    "two_letter": ["Le", "Ng", "Wu", "Li", "Do"],
    "word": ["Baker", "Young", "Rivers", "Bird", "Hunter", "Cook"],
    "hyphen": ["Smith-Jones", "Ashdown-Reyes", "Garcia-Lopez"],
    "particle": ["de la Cruz", "van der Berg", "von der Heide", "ten Brink", "di Stefano"],
    #: particles that are also words (``los``, ``las``): joined only after another particle
    "particle_plural": ["de los Santos", "de las Heras"],
    "accented": ["García", "Müller", "Ó Briain", "Nuñez"],
}
RELATIONS = ["husband", "wife", "daughter", "son", "sister", "brother", "mother"]
#: Clinical sentences that must come out as written: doses, scores, eponyms, abbreviations.
FILLER = [
    "Metoprolol 25 mg PO BID, held for HR 52.",
    "Foley catheter draining clear urine.",
    "History of Parkinson disease and Graves disease.",
    "Glasgow Coma Scale 15, PERRL, MAE.",
    "Started heparin drip per protocol.",
    "Afebrile, lungs clear, abdomen soft.",
    "Plan: continue lisinopril 10 mg daily.",
    "Babinski negative; Romberg negative.",
]

#: Kinds of person (what the name is made of), of mention (how the note writes it again) and of
#: note (its letter case, its accents and digits).
PERSON_KINDS = ("particle", "particle_plural", "hyphen", "two_letter", "word_name", "accented")
MENTION_KINDS = ("title_later", "glued", "relation", "tab", "end_of_text", "later_full",
                 "later_other_case", "later_lower", "table", "csv", "last_first")
NOTE_KINDS = ("caps_note", "lower_note", "decomposed", "other_digits")
#: Digits of other scripts for ``other_digits`` (one character per ASCII digit).
DIGITS = ["０１２３４５６７８９", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹"]
#: Every kind :func:`build_note` knows.
KINDS = PERSON_KINDS + MENTION_KINDS + NOTE_KINDS
#: The kinds that give no leak today (``tests/test_leaks.py``); the others are off until the
#: detector rules are rewritten (``tests/test_leaks_detector_round.py``, xfail).
ON = frozenset({"particle", "hyphen", "two_letter", "word_name", "accented", "title_later",
                "glued", "relation", "tab", "end_of_text", "decomposed", "other_digits",
                "particle_plural", "later_other_case", "later_lower", "later_full", "table", "csv",
                "last_first"})


def _person(pick: Pick, kinds: frozenset[str]) -> tuple[str, str]:
    given_kinds = ["plain"] + [k for k, on in (("two_letter", "two_letter"), ("word", "word_name"),
                                               ("accented", "accented")) if on in kinds]
    sur_kinds = ["plain"] + [k for k, on in (("two_letter", "two_letter"), ("word", "word_name"),
                                             ("hyphen", "hyphen"), ("particle", "particle"),
                                             ("particle_plural", "particle_plural"),
                                             ("accented", "accented")) if on in kinds]
    return pick(GIVEN[pick(given_kinds)]), pick(SURNAMES[pick(sur_kinds)])


def _mention(kind: str, pick: Pick, given: str, surname: str, mrn: str) -> str:
    """One later mention of the person in the way ``kind`` writes it."""
    sur = surname.split()[-1] if pick([True, False]) else surname   # "Cruz" or "de la Cruz"
    last = surname.split()[-1]
    rel, other = pick(RELATIONS), pick(GIVEN["plain"])
    forms = {
        "title_later": [f"Mr. {surname} reports pain.", f"Dr. {surname} notified.",
                        f"Discussed with Ms. {surname}."],
        "glued": [f"Discussed with Mr. {surname}, who agrees.", f"(Dr. {surname})",
                  f"Seen by Dr. {surname}; plan reviewed.", f"Mrs. {surname}'s pain is 3/10.",
                  f"Mr. {surname}:"],
        "relation": [f"Her {rel} {other} {surname} visited.", f"Spoke with his {rel}, {other}.",
                     f"{rel.capitalize()} {other} at bedside."],
        "tab": [f"Patient:\t{given} {surname}", f"Attending:\tDr. {given} {surname}"],
        "end_of_text": [f"Signed: Dr. {given} {surname}", f"cc: Dr. {surname}"],
        "later_full": [f"{given} {surname} tolerated the procedure.", f"Seen with {given} {surname}."],
        "later_other_case": [f"{sur.upper()} STABLE.", f"{sur} reports nausea.",
                             f"Plan discussed with {sur.upper()}."],
        "later_lower": [f"later {sur.lower()} was seen.", f"pt {sur.lower()} resting."],
        "table": [f"|{last}|{given}|{mrn}|", f"| {last} | {given} | {mrn} |"],
        "csv": [f"{last},{given},{mrn}"],
        "last_first": [f"Patient: {surname}, {given}.", f"{surname.upper()}, {given.upper()} MRN {mrn}."],
        "other_digits": [f"MRN {mrn.translate(str.maketrans('0123456789', pick(DIGITS)))} verified.",
                         f"Re-entered MRN: {mrn.translate(str.maketrans('0123456789', pick(DIGITS)))}"],
    }
    return pick(forms[kind])


def build_note(pick: Pick, kinds: frozenset[str]) -> str:
    """One invented note using ``kinds`` (a subset of :data:`KINDS`; with no mention kind, a
    later mention after a title), choices made by ``pick`` (``random.choice`` or a Hypothesis
    draw): a first mention after a label, one to three later mentions, an MRN, a phone or a
    date, and filler between them."""
    given, surname = _person(pick, kinds)
    mrn = pick(["4471203", "8965161", "3302917"])
    lines = [pick([f"Patient: {given} {surname}.", f"Name: {given} {surname}.",
                   f"Pt: {given} {surname}, MRN {mrn}."])]
    mention_kinds = [k for k in MENTION_KINDS + ("other_digits",) if k in kinds] or ["title_later"]
    if "other_digits" in kinds:
        lines[0] = f"Pt: {given} {surname}, MRN {mrn}."
    ends = []
    for _ in range(pick([1, 2, 3])):
        kind = pick(mention_kinds)
        if kind == "end_of_text":
            ends.append(_mention(kind, pick, given, surname, mrn))
            continue
        lines.append(pick(FILLER))
        lines.append(_mention(kind, pick, given, surname, mrn))
    lines.append(pick(["Call 617-555-0142 with questions.", "DOB 03/05/1950.", "Seen 4/12/2019."]))
    text = "\n".join(lines + ends[:1])
    if "caps_note" in kinds and pick([True, False]):
        text = text.upper()
    elif "lower_note" in kinds and pick([True, False]):
        text = text.lower()
    if "decomposed" in kinds and pick([True, False]):
        text = unicodedata.normalize("NFD", text)      # Jo + U+0301 + hn
    return text


_TOKEN = re.compile(r"[^\W_]+")


def fold(word: str) -> str:
    """Case-folded, accents dropped (``Nuñez`` -> ``nunez``)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(text: str) -> set[str]:
    """The folded tokens of ``text`` of two or more characters."""
    return {fold(t) for t in _TOKEN.findall(text) if len(t) >= 2}


#: Tokens that identify nobody (module docstring).
EXEMPT: frozenset[str] = frozenset(
    lists.name_particles("names") | lists.name_particles("surrogate") | lists.handwritten("titles")
    | lists.name_suffixes() | lists.relations("names") | lists.relations("surrogate")
    | lists.id_label_words("kept") | lists.id_label_words("label"))
#: Categories whose tokens are checked.
CHECKED = frozenset({"NAME", "ID", "CONTACT"})


def protected(text: str, span: Span) -> set[str]:
    """The tokens of ``span``'s original text that must not survive (module docstring)."""
    if span.category not in CHECKED:
        return set()
    return {t for t in tokens(text[span.start:span.end]) if t not in EXEMPT}


#: The four ways a note is written: Redact and Surrogate, certain only and with review.
WAYS = (("redact", False), ("redact", True), ("surrogate", False), ("surrogate", True))


def all_leaks(text: str, key: str = "leak-property-key") -> dict[str, list[str]]:
    """:func:`leaks` in each of :data:`WAYS` (one analysis), keyed ``"redact"``,
    ``"redact+review"``...; only the ways that leak."""
    analysis = analyze(text)
    out = {}
    for mode, review in WAYS:
        found = leaks(text, mode, review, key, analysis)
        if found:
            out[mode + ("+review" if review else "")] = found
    return out


def leaks(text: str, mode: str, mask_review: bool, key: str = "leak-property-key",
          analysis=None) -> list[str]:
    """What leaked when ``text`` is written in ``mode`` (``"redact"`` or ``"surrogate"``),
    rules only (or from ``analysis``), with every amber candidate masked when ``mask_review``:
    one line per leaked token, saying where (empty: no leak)."""
    analysis = analysis if analysis is not None else analyze(text)
    out = write(analysis, mode, key=key if mode == "surrogate" else None, mask_review=mask_review)
    masked = [p for p in out.placed if p.replaced]
    secret: set[str] = set()
    for p in masked:
        secret |= protected(text, p.span)
    found: list[str] = []
    outside, last = [], 0
    for p in masked:
        outside.append(out.text[last:p.out_start])
        last = p.out_end
        own = (protected(text, p.span) & tokens(out.text[p.out_start:p.out_end])
               if p.span.category == "NAME" else set())
        found += [f"{t!r} copied into the fake of {text[p.span.start:p.span.end]!r}" for t in sorted(own)]
    outside.append(out.text[last:])
    for t in sorted(secret & tokens("\n".join(outside))):
        found.append(f"{t!r} outside every replacement")
    return found
