"""Terse nursing-note context rules: wards named by a building and a number, and hospital
abbreviations, after a transfer word (``TRANSFERRED TO HARTWELL 4``, ``transfer to lindqvist
7``, ``REFERRED TO SMH``, ``followed at gmc``), then every other mention of the same name in
the note (``PER HARTWELL 4 RN``, ``ARRIVED AT SMH``).

The context is a word of ``lists/transfer_words.txt`` (``transferred``, ``sent``, ``taken``,
``admitted``, ``arrived`` ...), within three words before ``to``/``from``/``at``/``by``/``in``
(or right before the name). The name must not be clinical vocabulary: generic service words,
department and ward words, generic and clinical acronyms (``lists/abbreviations.txt``:
``TO MICU``, ``TO CT``, ``FROM OSH``), stop words, clinical nouns and medical words.

The rules (declared above :func:`terse_context` and the functions after it) and how each is
tiered: ``docs/rules.md``; the conditions are in :func:`terse_context`'s docstring.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ... import lists
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW, Span
from .lexicon import Tables, frequent_shorthand, proper_evidence
from .text import Note, Word, after_words, note_may_hold, norm, tail_words

_VOWELS = frozenset("AEIOUY")

#: A candidate right after the context: a word and a number, or a short token.
_CANDIDATE_RE = re.compile(
    r"(?P<w>[A-Za-z][A-Za-z'’-]{1,24})(?![\w'’-])"
    r"(?P<num>[ \t]{1,2}[1-9]\d?[A-Za-z]?(?![\w]|[/:.,]\d|[ \t]*(?i:" + after_words("ward") + r"|%|x\d)))?"
    r"|(?P<glued>[A-Za-z]{4,24}[1-9]\d?)(?![\w'’/-])")
#: After a transfer word, a ward number with a second one (``TRANSFER TO HARTWELL 2/3``: a
#: choice of two wards, no date).
_WARD_PAIR_RE = re.compile(r"(?P<w>[A-Za-z]{4,24})[ \t]{1,2}[1-9]/[1-9](?![\w/:]|[.,]\d)")
#: A preposition after which a facility name may stand.
_PREPS = frozenset({"to", "from", "at", "by", "in", "@"})
#: Words before a ward without a transfer word: the ward is review, and needs a name-list word
#: (``ON HARTWELL 4``, ``PER HARTWELL 4 RN``).
_WEAK_PREPS = frozenset({"on", "per", "to", "from"})
#: ``on`` and ``from`` before a ward number: a place (``CODED ON HARTWELL 4 LAST WEEK``,
#: ``wallet recovered from hartwell 5.``) when a word or the end of a sentence follows the
#: number (not ``ON DOPAMINE 3-5MCG``, ``ON HEPARIN 12U/KG``; a dose's unit or frequency is no
#: ward number: ``quantity_after_words``).
_PLACE_PREPS = frozenset({"on", "from"})
_WARD_END_RE = re.compile(r"[ \t]+[A-Za-z]|[.;](?:\s|$)|[ \t]*(?:\r?\n|$)")
#: Words after a ward number that make it a ward (``HARTWELL 4 RN``, ``HARTWELL 4 WHEN BED``).
#: The ``ward_staff`` words of ``lists/quantity_after_words.txt`` and ``step-down``.
_WARD_AFTER_RE = re.compile(r"[ \t]+(?i:" + after_words("ward_staff") + r"|step[ -]?down)")
#: A ward number before a ward follower with no context word (``DISPO: HARTWELL 4 WHEN BED``).
#: (No word test before its scan: most notes hold a follower word, ``rn`` inside many words,
#: and the test cost more than the scan of :func:`_ward_followers` it saved.)
_WARD_FOLLOWER_RE = re.compile(r"(?<![\w'’/-])(?P<w>[A-Za-z]{4,24})[ \t]{1,2}[1-9]\d?(?="
                               + _WARD_AFTER_RE.pattern + ")")
#: The number of every match of :data:`_WARD_FOLLOWER_RE` (after a blank, and before a
#: follower): found first by :func:`_ward_followers` (a scan that skips to the digits 1-9).
_WARD_NUMBER_RE = re.compile(r"[1-9](?<=[ \t][1-9])(?=\d?" + _WARD_AFTER_RE.pattern + ")")


def _ward_followers(text: str) -> Iterator[re.Match]:
    """The matches of ``_WARD_FOLLOWER_RE.finditer(text)``, found from their numbers: before a
    number of :data:`_WARD_NUMBER_RE` at ``q``, one or two blanks end the word, and the word
    (letters only, its start not after a word character) can only start where its letters
    start, so the one candidate start is matched there (the same matches in the same order:
    a match is what ``finditer`` finds at its start, and none overlaps the one before)."""
    last = 0
    for h in _WARD_NUMBER_RE.finditer(text):
        e = h.start() - 1                      # the blank before the number
        if e > 0 and text[e - 1] in " \t":
            e -= 1
        s = e
        while s > 0 and e - s <= 24 and ("a" <= text[s - 1] <= "z" or "A" <= text[s - 1] <= "Z"):
            s -= 1
        if s < last or not 4 <= e - s <= 24:
            continue
        m = _WARD_FOLLOWER_RE.match(text, s)
        if m is not None:
            last = m.end()
            yield m


@lru_cache(maxsize=1)
def _vocab() -> tuple[frozenset, frozenset, frozenset, re.Pattern, frozenset]:
    """(transfer words, clinical words that are no ward name, clinical abbreviations in
    capitals, the regex of a preposition or transfer word before a candidate, the names that
    are medical vocabulary only as one eponym), built once from the lists."""
    transfer = lists.handwritten("transfer_words")
    words = transfer | _PREPS | _WEAK_PREPS
    # (the look-ahead for a word's first character first: a faster scan, the same matches)
    context_re = re.compile(
        r"(?=(?i:[" + "".join(sorted({re.escape(w[0]) for w in words})) + r"]))"
        r"(?<![\w'’/-])(?i:" + _trie(words) + r")(?![\w'’/-])[:,]?[ \t]+"
        r"(?:(?i:the|our)[ \t]+)?(?=[A-Za-z])")
    clinical = (lists.clinical_nouns() | lists.medical_collisions() | lists.eponym_followers()
                | lists.handwritten("unit_words") | lists.handwritten("ward_words")
                | lists.handwritten("place_common_words")
                | frozenset(w for d in lists.handwritten("departments") for w in d.split()))
    abbr = frozenset(a.upper() for a in lists.abbreviations("clinical", "service", "shorthand")
                     | lists.handwritten("departments")
                     if " " not in a)
    # names that are medical vocabulary only as one eponym (ellison of Zollinger-Ellison Syndrome:
    # headings 1 in lists/medical_collisions.txt) and no other clinical word: a building's name
    # before a floor number
    others = clinical - lists.medical_collisions()
    eponyms = frozenset(r[0] for r in lists.read_list("medical_collisions.txt").rows
                        if r[1] == "1" and r[0] not in others)
    return transfer, clinical - eponyms, abbr, context_re, eponyms


def _trie(words) -> str:
    """A regex matching exactly the literal ``words``, as a trie (one branch per first letter,
    so a position that starts no word fails at once; much faster than a flat alternation)."""
    root: dict = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        ends = "" in node
        branches = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            return "(?:" + body + ")?"
        return body

    return emit(root)


def after_transfer(tail: list[str], transfer: frozenset) -> bool:
    """True when the words before a candidate end with a word of transferring (``transfer``,
    ``xfer``), or with a preposition (and ``the``/``our``) that has a transfer word among the
    three words before it (``sent back to``, ``admitted 9/30 to``)."""
    words = [w.rsplit(".", 1)[-1].lstrip("?(\"“'‘") for w in tail]   # "calmer.transfer to", "?transfer to"
    words = words[:-1] if words and words[-1] in ("the", "our") else words
    if not words:
        return False
    if words[-1].rstrip(":,") in transfer:
        # right before the name only a word of transferring ("TRANSFER HARTWELL 4"), not
        # "received percocet 2"
        return words[-1].startswith(("transf", "tranf", "xf"))
    if words[-1] not in _PREPS:
        return False
    return any(w.rstrip(":,") in transfer for w in words[-4:-1])


def _abbreviation_shape(word: str, note_lower: bool) -> bool:
    """``GH``, ``SMH``, ``PVMC``, ``UMMC``: 2-5 capitals with no vowel or ending in ``MC``; in
    lower case (``gmc``) of 3 letters or more, or 2 in an all-lower-case note."""
    if not (2 <= len(word) <= 5 and word.isalpha()):
        return False
    if not (word.isupper() or (word.islower() and (note_lower or len(word) >= 3))):
        return False
    up = word.upper()
    return not (_VOWELS & set(up)) or up.endswith("MC")


def _abbreviation_weak_context(tail: list[str], context: str) -> bool:
    """True before a hospital abbreviation without a transfer word: after ``at``/``@`` written
    in lower case or capitals (``DONE AT SMH``; not a sentence's ``At PMD check``), after a
    transfer word right before it (``LEAVE SMH``), or where a person says where he is (``says
    she is in SMH``, ``I'm in SMH``; not ``pt is in CHB``)."""
    last = tail[-1]
    if last in ("at", "@"):
        return not context.startswith("At")
    if last == "in":
        return tail[-2:-1] == ["i'm"] or len(tail) > 2 and tail[-2] in ("is", "was") \
            and tail[-3] in ("he", "she")
    return last in _vocab()[0]


def contexts(n: Note) -> list[tuple[int, str]]:
    """``(end, text)`` of every match of the context regex of :func:`_vocab` in the note (a
    preposition or transfer word and the blanks after it), found once for
    :func:`terse_context` and :func:`saint_after_transfer`.

    Speed: where ``n.low_exact`` (nearly every note) the words are found in ``n.low`` by
    :func:`_lower_context_res` instead, the same matches at the same offsets."""
    got = n.memo.get("terse_contexts")
    if got is None:
        text = n.text
        if n.low_exact:
            low = n.low
            first, word, rest = _lower_context_res()
            got = []
            m = first.match(low)
            if m is not None:
                end = rest.match(low, m.end()).end()
                got.append((end, text[:end]))
            for m in word.finditer(low):
                end = rest.match(low, m.end()).end()
                got.append((end, text[m.start() + 1:end]))
        else:
            got = [(m.end(), m.group()) for m in _vocab()[3].finditer(text)]
        n.memo["terse_contexts"] = got
    return got


#: What follows a context word (:func:`_vocab`), in lower case.
_CONTEXT_REST = r"[:,]?[ \t]+(?:(?:the|our)[ \t]+)?(?=[a-z])"


@lru_cache(maxsize=1)
def _lower_context_res() -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """The context regex of :func:`_vocab` for a lower-cased note, in three parts: (the
    context word at the very start of the note; a context word after the character before it,
    which it consumes; what follows the word, matched at the word's end). Every match of the
    second is the word the context regex finds there: a match of that regex ends right before
    a letter, so the next one starts after it (the ``the``/``our`` it may hold is no context
    word), and the word is followed by what the third matches (a look-ahead here, so the blanks
    stay for the next word's character before it).

    The consumed character is tested first against ``[^a-z0-9_'’/-]`` (a set the scan
    skips to at C speed, unlike the ``\\w`` class), then by the look-behind of the regex."""
    words = {w.lower() for w in lists.handwritten("transfer_words") | _PREPS | _WEAK_PREPS}
    if words & {"the", "our"}:
        raise ValueError("a context word that may follow a context word: contexts() would differ")
    words = _trie(words)
    follow = r"(?=(?![\w'’/-])" + _CONTEXT_REST + ")"
    return (re.compile(r"(?:" + words + ")" + follow),
            re.compile(r"[^a-z0-9_'’/-](?<=[^\w'’/-])(?:" + words + ")" + follow),
            re.compile(_CONTEXT_REST))


_C = (CERTAIN,)
_TERSE_LISTS = ("transfer_words.txt", "abbreviations.txt", "facility_stop_words.txt",
                "generic_service_words.txt", "clinical_abbreviations.tsv", "facility_short_forms.tsv")
WARD_NUMBER = Rule("locations:ward_number", ("DEPARTMENT",), _C,
                   "a ward named by a building word and a floor number (HARTWELL 4)", list="transfer_words.txt",
                   reads=_TERSE_LISTS[1:] + ("quantity_after_words.txt",))
WARD_WEAK_CONTEXT = Rule(
    "locations:ward_number:weak_context", ("DEPARTMENT",), _C,
    "a ward and its number after on, per, to or from, with a name-list word or a staff word "
    "(PER HARTWELL 4 RN)",
    reads=_TERSE_LISTS + ("quantity_after_words.txt",))
WARD_AFTER_ON = Rule("locations:department:ward_after_on", ("DEPARTMENT",), (REVIEW,),
                     "a word and a number after on or from, ending its clause (CODED ON HARTWELL 4 LAST WEEK)",
                     amber="a plural drug class reads the same (ON PRESSORS 2 NOW)", reads=_TERSE_LISTS)
FACILITY_ABBREVIATION = Rule("locations:facility_abbreviation", ("HOSPITAL",), _C,
                             "a hospital abbreviation after a transfer word (to SMH)",
                             list="transfer_words.txt",
                             reads=_TERSE_LISTS[1:])
ABBREVIATION_AFTER_AT = Rule(
    "locations:hospital:abbreviation_after_at", ("HOSPITAL",), (REVIEW,),
    "a hospital abbreviation in capitals after at or in, or after a leaving word (DIALYSIS IS DONE AT SMH)",
    amber="capitals after 'at' may be a clinical abbreviation rather than a hospital", reads=_TERSE_LISTS)
ABBREVIATION_STAFF = Rule(
    "locations:hospital:abbreviation_staff", ("HOSPITAL",), (REVIEW,),
    "a hospital abbreviation in capitals before a staff word (PER SMH STAFF)",
    amber="capitals before a staff word may be a service rather than a hospital",
    reads=_TERSE_LISTS + ("quantity_after_words.txt",))
WARD_BEFORE_STAFF = Rule("locations:department:ward_before_staff", ("DEPARTMENT",), _C,
                         "a ward and its number before a staff or bed word (HARTWELL 4 WHEN BED READY)",
                         reads=_TERSE_LISTS + ("quantity_after_words.txt",))
WARD_SAME_NOTE = Rule("locations:ward_number:same_note", ("DEPARTMENT",), _C,
                      "another mention of a ward found after a transfer word in this note")
ABBREVIATION_SAME_NOTE = Rule("locations:facility_abbreviation:same_note", ("HOSPITAL",), _C,
                              "another mention of a hospital abbreviation found after a transfer word "
                              "in this note")


def terse_context(n: Note, t: Tables) -> Iterator[Span]:
    """Ward numbers and hospital abbreviations after a transfer word, and their other mentions
    in the note. Yields DEPARTMENT and HOSPITAL spans:

    * ``ward_number`` (DEPARTMENT, certain): a word of 4+ letters then a number 1-99 (the span is
      the word: the gold convention of the real notes leaves the number out); not before a unit
      (``2 UNITS``, ``5 MG``), a dose frequency (``25 BID``) or a time, date or decimal; also a
      choice of two (``transfer to hartwell 2/3``) and a number glued on (``TRANSFER TO
      HARTWELL4``: the span is the whole token).
    * ``ward_number:weak_context`` (certain since issue 8: with its name-list word or ward
      follower, real notes dev 22 characters of wards, no false alarm, with the last rule): after
      ``on``/``per``/``to``/``from`` without a transfer word, with a name-list word or a ward
      follower (``PER HARTWELL 4 RN``); ``department:ward_after_on`` (review: a plural drug class
      reads the same, ``ON PRESSORS 2 NOW``): after ``on``/``from`` with a word or a sentence end
      after the number (``CODED ON HARTWELL 4 LAST WEEK``, ``wallet recovered from hartwell 5.``;
      not ``ON DOPAMINE 3-5MCG``, ``ON METOPROLOL 50 TID``, nor a listed drug or shorthand).
    * ``department:ward_before_staff`` (certain: a ward follower after the number): a ward number
      before a ward follower with no context word at all (``DISPO: HARTWELL 4 WHEN BED READY``).
    * ``facility_abbreviation`` (HOSPITAL, certain): an ALL-CAPS token of 2-5 letters with no vowel
      (``GH``, ``SMH``, ``PVMC``), or ending in ``MC``; lower-case of 3+ letters (``gmc``), or 2 in
      an all-lower-case note.
    * ``hospital:abbreviation_after_at`` (HOSPITAL, review): the same shape in capitals after
      ``at`` (not a sentence's ``At``), a transfer word right before it (``MAY HAVE TO LEAVE SMH``)
      or where a person says where he is (``says she is in SMH``, ``I'm in SMH``).
    * ``hospital:abbreviation_staff`` (HOSPITAL, review): the same shape in capitals after a
      preposition without a transfer word, before a staff word (``VISITED BY SMH NURSE``, ``PER SMH
      STAFF``).
    * ``<rule>:same_note``: the same word elsewhere in the note (whole word; case-insensitive for a
      ward word, same case for an abbreviation).
    """
    text = n.text
    transfer, clinical, abbr, _context_re, eponyms = _vocab()
    wards: set[str] = set()
    abbrs: set[str] = set()
    for pos, context in contexts(n):
        c = _CANDIDATE_RE.match(text, pos)
        if c is None:
            continue
        glued = c.group("glued")
        word = c.group("w") or glued.rstrip("0123456789")
        low = norm(word)
        if low in t.stop or low in t.generic or low in t.not_first or low in transfer:
            continue
        ward_shape = len(word) >= 4 and word.isalpha() and low not in clinical \
            and word.upper() not in abbr and low not in t.hospital_words
        if not ward_shape and not _abbreviation_shape(word, n.lower):
            continue   # neither a ward nor an abbreviation: no rule below can fire
        tail = tail_words(text, pos)
        if not tail:
            continue
        strong = after_transfer(tail, transfer)
        last = tail[-1]   # "bed alarm on, Braden 15": a comma ends the context
        if glued or not c.group("num") and _WARD_PAIR_RE.match(text, pos):
            # "TRANSFER TO HARTWELL4", "transfer to hartwell 2/3": after a transfer word only
            if strong and ward_shape:
                wards.add(low)
                yield WARD_NUMBER.span(c.start(), c.end() if glued else c.end("w"))
            continue
        if c.group("num") and ward_shape:
            if strong:
                wards.add(low)
                yield WARD_NUMBER.span(c.start("w"), c.end("w"))
            elif last in _WEAK_PREPS and (_WARD_AFTER_RE.match(text, c.end()) or low in eponyms
                                          or proper_evidence([Word(c.start(), c.end(), word)], t)):
                yield WARD_WEAK_CONTEXT.span(c.start("w"), c.end("w"))
            elif last in _PLACE_PREPS and _WARD_END_RE.match(text, c.end()):
                yield WARD_AFTER_ON.span(c.start("w"), c.end("w"))
        elif strong and _abbreviation_shape(word, n.lower) and word.upper() not in abbr \
                and low not in clinical and not frequent_shorthand(word):
            # (a bare "TO LCX" / "AT TLC" is no evidence: tried, far more false alarms than hits)
            abbrs.add(word)
            yield FACILITY_ABBREVIATION.span(c.start("w"), c.end("w"))
        elif _abbreviation_shape(word, n.lower) and word.isupper() and word.upper() not in abbr \
                and low not in clinical and not frequent_shorthand(word) and _abbreviation_weak_context(tail, context):
            # "DIALYSIS IS DONE AT SMH", "says she is in SMH", "HAVE TO LEAVE SMH" (review)
            yield ABBREVIATION_AFTER_AT.span(c.start("w"), c.end("w"))
        elif _abbreviation_shape(word, n.lower) and word.isupper() and word.upper() not in abbr \
                and low not in clinical and not frequent_shorthand(word) and _WARD_AFTER_RE.match(text, c.end()):
            # "VISITED BY SMH NURSE", "PER SMH STAFF": a hospital's staff (review)
            yield ABBREVIATION_STAFF.span(c.start("w"), c.end("w"))
    for m in _ward_followers(text):
        word = m.group("w")
        low = norm(word)
        if low in t.stop or low in t.generic or low in t.not_first or low in transfer \
                or low in clinical or word.upper() in abbr or low in t.hospital_words:
            continue
        yield WARD_BEFORE_STAFF.span(m.start("w"), m.end("w"))
    if wards:
        rx = re.compile(r"(?<![\w'’-])(?i:" + "|".join(re.escape(w) for w in sorted(wards))
                        + r")(?:[1-9]\d?)?(?![\w'’]|-\w)")
        for m in rx.finditer(text):
            yield WARD_SAME_NOTE.span(m.start(), m.end())
    if abbrs:
        rx = re.compile(r"(?<![\w'’/-])(?:" + "|".join(re.escape(w) for w in sorted(abbrs))
                        + r")(?![\w'’/-])")
        for m in rx.finditer(text):
            yield ABBREVIATION_SAME_NOTE.span(m.start(), m.end())


_SAINT_AFTER_RE = re.compile(r"(?:ST|St|SAINT|Saint)\.?[ \t]+(?:[A-Z][a-z]{2,20}|[A-Z]{3,20})"
                            r"(?:['’][sS])?(?![\w'’-])")


SAINT_AFTER_TRANSFER = Rule("locations:saint_after_transfer", ("HOSPITAL",), _C,
                            "a Saint's name after a transfer word (to St. Brigid)", list="transfer_words.txt")


def saint_after_transfer(n: Note, t: Tables) -> Iterator[Span]:
    """``WILL GO TO ST. BRIGID TOMORROW``, ``transferred to Saint Brigid``, ``hopes to go back to
    St Brigid's``: a saint's name, possessive or not, after a transfer word is a hospital
    (HOSPITAL, certain; a possessive without one is the saints rule, review)."""
    text = n.text
    transfer = _vocab()[0]
    for pos, _context in contexts(n):
        s = _SAINT_AFTER_RE.match(text, pos)
        if s and after_transfer(tail_words(text, pos), transfer):
            yield SAINT_AFTER_TRANSFER.span(s.start(), s.end())


#: ``North Campus``, ``the quillton campus ed``: one name word before a ``name_before`` word of
#: ``lists/facility_cues.txt``.
_NAME_BEFORE_RE = re.compile(
    r"(?<![\w'’/-])(?P<w>[A-Za-z][A-Za-z'’-]{2,24})[ \t]+(?i:"
    + "|".join(re.escape(w) for w in lists.tagged("facility_cues.txt", "name_before")) + r")(?![\w'’-])")
#: The lower-case first words of those cues: a note without one skips the scan.
_NAME_BEFORE_WORDS = tuple(sorted({w.split()[0].lower() for w in lists.tagged("facility_cues.txt", "name_before")}))


CAMPUS = Rule("locations:hospital:campus", ("HOSPITAL",), (CERTAIN, REVIEW),
              "the name before a campus word (North Campus)",
              amber="the word before the campus word is on no name list", list="facility_cues.txt",
              reads=_TERSE_LISTS + ("place_common_words.txt",))


def campus_names(n: Note, t: Tables) -> Iterator[Span]:
    """``a scan on North Campus``, ``came from the quillton campus ed``: the name
    word before a campus word (HOSPITAL; certain for a compass word or a name-list word, real
    notes dev 10 characters, no false alarm, else review; the campus word is left out, as the
    ward number is), not a stop, generic, hospital, clinical or common place word unless a capitalised
    compass word (``region_compass`` of ``lists/facility_cues.txt``); in lower case only a
    name-list word (a surname, given name or town that is no English word)."""
    transfer, clinical, abbr, _context_re, _eponyms = _vocab()
    compass = lists.tagged("facility_cues.txt", "region_compass")
    if not note_may_hold(n, _NAME_BEFORE_WORDS):
        return
    for m in _NAME_BEFORE_RE.finditer(n.text):
        word = m.group("w")
        low = norm(word)
        if low in compass and word[0].isupper():
            pass   # "North Campus"
        elif low in t.stop or low in t.generic or low in t.hospital_words or low in clinical \
                or low in t.common_words or word.upper() in abbr or low in transfer:
            continue
        elif word.islower() and not proper_evidence([Word(m.start("w"), m.end("w"), word)], t):
            continue   # "the entire campus"; "the quillton campus" needs a name-list word
        strong = low in compass or proper_evidence([Word(m.start("w"), m.end("w"), word)], t)
        yield CAMPUS.span(m.start("w"), m.end("w"), tier=CERTAIN if strong else REVIEW)


HOSPITAL_SAME_NOTE = Rule(
    "locations:hospital:same_note", ("HOSPITAL",), _C,
    "another mention of the first word of a hospital's name found in this note (AT BRIARWOOD)",
    reads=("generic_service_words.txt", "facility_stop_words.txt", "place_common_words.txt"))


def same_note_facilities(n: Note, t: Tables, spans: list[Span],
                         hospital_names: frozenset[str]) -> Iterator[Span]:
    """The first word of a certain hospital name (``BRIARWOOD`` of ``BRIARWOOD HOSPITAL``) at its
    other mentions in the note (``3/11 AT BRIARWOOD``), when it is a listed surname or place that
    is no ordinary word (HOSPITAL, certain; same case, whole word). ``hospital_names``: the
    sources of the spans whose names count (the hospital rules' ids)."""
    text = n.text
    names = set()
    for s in spans:
        if s.label != "HOSPITAL" or s.tier != CERTAIN or s.source not in hospital_names:
            continue
        first = re.match(r"[A-Za-z]{4,20}(?![\w'’-])", text[s.start:s.end])
        if first is None:
            continue
        word = first.group()
        low = word.lower()
        if low in t.generic or low in t.stop or low in t.hospital_words or low in t.common_words:
            continue
        if proper_evidence([Word(s.start, s.start + len(word), word)], t):
            names.add(word)
    if names:
        rx = re.compile(r"(?<![\w'’/-])(?:" + "|".join(re.escape(w) for w in sorted(names))
                        + r")(?![\w'’/]|-\w)")
        for m in rx.finditer(text):
            yield HOSPITAL_SAME_NOTE.span(m.start(), m.end())


#: The passes of this module over the note, each with the rules it may give; and the rule of
#: :func:`same_note_facilities`, which reads the spans of the passes before it.
TERSE_PASS = Pass(terse_context, (WARD_NUMBER, WARD_WEAK_CONTEXT, WARD_AFTER_ON, FACILITY_ABBREVIATION,
                                  ABBREVIATION_AFTER_AT, ABBREVIATION_STAFF, WARD_BEFORE_STAFF, WARD_SAME_NOTE,
                                  ABBREVIATION_SAME_NOTE))
SAINT_AFTER_TRANSFER_PASS = Pass(saint_after_transfer, (SAINT_AFTER_TRANSFER,))
CAMPUS_PASS = Pass(campus_names, (CAMPUS,))
SAME_NOTE_RULES = (HOSPITAL_SAME_NOTE,)
