"""Names (PATIENT, DOCTOR, USERNAME) and occupations (PROFESSION).

One pass over :attr:`Document.tokens` computes a bit mask of word-list facts per token (a
dictionary look-up, memoised per distinct word), then a few cheap passes apply the rules:

1. Context (certain): a title (``Dr.``, ``Mrs.``) or a relation (``his wife``) or a label
   (``Patient:``, ``Electronically signed by``, ``cc:``) before name-shaped words; a credential
   after them (``Anne Whitcombe, MD``); signature initials (``-- JS``, ``/js``); ``user: jsmith12``.
   The title, label and credential are never inside the span.
2. Lists: ``LAST, FIRST M``; a given name followed by a capitalised word or an initial; an
   initial followed by a surname; a lone word in the Census surname or given-name list. The tier
   follows the collision rules: a MeSH word (``Parkinson``) goes to review, an ordinary English
   word (``Will``, ``Hope``) holds fire at the start of a sentence and goes to review elsewhere,
   a word followed by an eponym follower (``Bell's palsy``, ``Glasgow Coma Scale``) is a
   diagnosis and gives no span, one followed by a clinical noun (``Foley catheter``) goes to
   review. In an ALL-CAPS note or line, in a (nearly) all-lowercase note and in a lower-case
   line or sentence of a note that has capitals elsewhere, capitalisation is no evidence:
   lone English-word names give nothing (review before a person's verb: ``kim saw``), other
   lone list names go to review only next to a person word (``seen by``, ``called``), two-word
   list names go to review, and a name stops before a verb or adverb (``gonzalez agrees``).
   A hyphenated pair of eponyms before a clinical noun (``Swan-Ganz catheter``) gives nothing;
   a hospital named after people (``Johns Hopkins``) is a HOSPITAL.
   Heads of lines: a name opening a line and followed by an age or an identifier label
   (``leopold fairweather, 96,``, ``Grimsby, Dmitri | MRN``), or after ``pt`` / ``name:``;
   ``LAST, FIRST`` before an identifier anywhere; the subject of ``X is a 42 yo``; a name in
   brackets after a service (``Neurosurgery (Okwu)``, review unless listed). Initials after
   dictation words (``transcribed by m.o.``, ``Transcriptionist: mlr``, ``Tech ZQ /``).
   Lone eponyms that name a test or antigen (``Kell``, ``Holter``, ``Morse``) and a
   collision word before a model code (``Azure XT``) give nothing.
3. Document consistency: a word of a name found with high confidence is certain wherever it
   appears again as a name-shaped word (``Mr. Hope ... Hope reports``), and a review candidate
   made only of such words becomes certain.
   A lower-case word made of a name found in the note plus up to three letters or digits
   (``gasamoahb`` after ``Asamoah-Brandt``) is that person's log-in (USERNAME).
4. Occupations from the professions list with context (``works as a``, ``retired``,
   ``occupation:``, ``by trade``, ``67 yo``, ``Name, 54,``, ``he is a``, ``Name, a``) are
   PROFESSION, certain; after ``is a`` with no person as subject review;
   after ``retired`` / ``former`` / ``works as a`` a short phrase with an occupational ending
   (``court stenographer``) is certain too.

Data: :mod:`deid_core.lists` (Census 2000 surnames, Census 1990 given names, MeSH/English
collisions, eponym followers, clinical nouns, hand-written titles, relations, professions and
note headings) plus the hand-written supplements in :mod:`.name_rules`.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .. import lists
from ..document import Document
from ..spans import CERTAIN, REVIEW, Span
from . import name_rules as R

# Bit flags describing a lower-case word (see Lexicon.flags).
SUR, GIV, MED, ENG, NON, FOL, CLN = 1, 2, 4, 8, 16, 32, 64
TTL_D, TTL_P, REL, CRED, MONTH, LBL, PROF, STRONG = 128, 256, 512, 1024, 2048, 4096, 8192, 16384
COMMON, STATE = 32768, 65536
#: Surnames with at least this many Census 2000 bearers are "common": at the start of a
#: sentence ``Mary Smith`` is a name even though both words are also English words.
COMMON_SURNAME_BEARERS = 20_000
LIST = SUR | GIV
TITLE = TTL_D | TTL_P

# Token shapes.
OTHER, CAP, UP, INI, LOW = 0, 1, 2, 3, 4

#: Titles after which any name-shaped word is a name (others, e.g. ``nurse``, ``patient``,
#: need the next word to be in the name lists).
STRONG_TITLES: frozenset[str] = frozenset({
    "dr", "dra", "drs", "doctor", "prof", "professor", "mr", "mrs", "ms", "miss", "mister", "mx",
    "mme", "mlle", "madam", "sra", "srta", "herr", "frau", "rev", "reverend",
})

_SPACES = frozenset(" \t")
_ID_WORDS = ("mrn", "dob", "d.o.b", "med rec", "acct", "age", "sex", "room", "rm ", "bed ", "ssn",
             "id ", "id:", "id#", "hosp")
#: Lower-case particles inside a name (``Villalobos de la Cruz``, ``Willemine ten Pas``).
_PARTICLES = frozenset("de la del della der den van von ten ter da di du le al el bin ibn ní ó mac "
                       "dos das do st".split())
_OPENERS = " \"'“‘(*•·-–—#>[0123456789"
_SENTENCE_END = ".!?:;\n\r|\t"
#: Words just before / after a lone list word in a case-less (ALL CAPS or lower-case) text
#: that make it read as a person (``seen by nguyen``, ``NGUYEN CALLED``).
_PERSON_BEFORE = frozenset("by with per to from and called saw see cc tell told asked spoke seen "
                           "paged notified contacted informed discussed".split())
#: Verbs after a lone name that is also an English word (``kim saw``, ``rose says``) in text
#: without capitals that make it a review candidate: a person's verbs, not auxiliaries.
_ENG_PERSON_AFTER = frozenset(w for w in R.PERSON_VERBS if w.endswith("s") and w not in (
    "is", "was", "has", "does", "goes")) | frozenset(
    "saw said told called agreed denied declined reported stated asked spoke visited wanted "
    "thought felt lived recommended".split())
_PERSON_AFTER = frozenset("said says states stated reports reported called agrees agreed was is "
                          "has had will would notified aware".split()) | _ENG_PERSON_AFTER
#: Full-word titles: a full stop after one ends a sentence (``saw the patient. jessica``).
_WORD_TITLES = frozenset("patient doctor nurse attending resident intern fellow surgeon physician "
                         "midwife therapist dietitian pharmacist chaplain provider psychologist "
                         "aide interpreter translator scribe doula sitter navigator coordinator "
                         "technician technologist counselor counsellor paramedic caseworker "
                         "master madam officer judge adjuster attorney lawyer advocate landlord "
                         "supervisor mister captain sergeant pastor rabbi imam reverend".split())
_CONTRACTIONS = frozenset({"m", "re", "ve", "ll", "d", "t"})
#: Generational suffixes kept inside a name span (``Kevin Veitonen II``, ``John Smith Jr.``).
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
#: After a name: an age (``, 96,``, ``— 67 yo``, ``82 year old``) or an identifier label
#: (``(MRN``, ``| DOB``): the name is the patient's, at the head of a note or a row.
_AGE_ID_AFTER_RE = re.compile(
    r"[ \t]*(?:[,|(:\-–—][ \t]*)*(?:(?P<label>mrn|dob\b|d\.o\.b|med rec|acct|age\b|sex\b|ssn|nhs)"
    r"|\d{1,3}(?:[ \t]*(?:,|yo\b|y/o|y\.o|y\b|-?years?\b|-?yrs?\b|m\b|f\b|\)|$)|-y))",
    re.IGNORECASE | re.MULTILINE)
#: Where a line's first word starts (after spaces, dashes and bullets).
_LINE_WORD_RE = re.compile(r"(?m)^[ \t\-–—•*>]*(?=[^\W_])")
#: Words before a name at the head of a line that say it is the patient (``pt raymond dufresne``).
_HEAD_PREFIXES = frozenset({"pt", "patient", "name", "re"})
#: A word with any of these facts is not taken as part of a name by the head-of-line rules.
_NOT_NAME = NON | FOL | CLN | TTL_D | TTL_P | REL | LBL | CRED | PROF | MONTH
#: The first letter of each line (after bullets, dashes and digits).
_LINE_START_RE = re.compile(r"(?m)^[^\w\n]*(?:\d[^\w\n]*)*([^\W\d_])")
_UNITS = frozenset("ml dl hr hrs kg mg mcg mm cm min l g ul hpf lpf wk wks mo yr yrs d h s o u".split())


def _lower_set(getter: Callable[[], Iterable[str]]) -> frozenset[str]:
    """A word list, lower-cased, as a frozen set (a missing list file is an error)."""
    return frozenset(w.lower() for w in getter())


def _handwritten(name: str) -> frozenset[str]:
    return _lower_set(lambda: lists.handwritten(name))


def _strip_accents(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@dataclass
class Lexicon:
    """Word sets the name rules use, all lower-case.

    Attributes:
        surnames, given: Census name lists (``lists.surnames()``, ``lists.given_names()``).
        common_surnames: surnames with >= :data:`COMMON_SURNAME_BEARERS` bearers.
        medical, english: names that are also MeSH words / ordinary English words.
        followers, clinical: eponym followers / clinical nouns.
        doctor_titles, patient_titles, relations, credentials, non_names: context words.
        professions: occupation phrases as word tuples.
        states: U.S. state names; departments: one-word hospital services (``cardiology``).
        labels: label phrases ``(words, label, needs_colon)``.
    """

    surnames: frozenset[str]
    given: frozenset[str]
    common_surnames: frozenset[str] = frozenset()
    medical: frozenset[str] = frozenset()
    english: frozenset[str] = frozenset()
    followers: frozenset[str] = R.FOLLOWERS_EXTRA
    clinical: frozenset[str] = R.CLINICAL_NOUNS_EXTRA
    doctor_titles: frozenset[str] = R.DOCTOR_TITLES
    patient_titles: frozenset[str] = R.PATIENT_TITLES
    relations: frozenset[str] = R.RELATIONS
    credentials: frozenset[str] = R.CREDENTIALS
    non_names: frozenset[str] = R.NON_NAMES
    professions: frozenset[tuple[str, ...]] = frozenset()
    states: frozenset[str] = frozenset()
    departments: frozenset[str] = frozenset()
    labels: tuple = R.LABELS
    _memo: dict = field(default_factory=dict, repr=False)
    _labels_by_last: dict = field(default_factory=dict, repr=False)
    _prof_by_first: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        by_last: dict[str, list] = {}
        for words, label, colon in self.labels:
            by_last.setdefault(words[-1], []).append((words, label, colon))
        self._labels_by_last = {k: sorted(v, key=lambda e: -len(e[0])) for k, v in by_last.items()}
        by_first: dict[str, list] = {}
        for phrase in self.professions:
            by_first.setdefault(phrase[0], []).append(phrase)
        self._prof_by_first = {k: sorted(v, key=len, reverse=True) for k, v in by_first.items()}

    @classmethod
    def from_lists(cls) -> "Lexicon":
        """Build from :mod:`deid_core.lists` plus the :mod:`.name_rules` supplements.

        Raises:
            FileNotFoundError: if the surname or given-name list is missing.
        """
        headings = _handwritten("note_headings")
        titles = _handwritten("titles")
        profs = _handwritten("professions") | R.PROFESSIONS_EXTRA
        counts = lists.surnames()
        return cls(
            surnames=frozenset(counts),
            common_surnames=frozenset(w for w, c in counts.items() if c >= COMMON_SURNAME_BEARERS),
            given=frozenset(lists.given_names()),
            medical=_lower_set(lists.medical_collisions) | R.MEDICAL_EXTRA,
            english=_lower_set(lists.english_collisions),
            followers=_lower_set(lists.eponym_followers) | R.FOLLOWERS_EXTRA,
            clinical=_lower_set(lists.clinical_nouns) | R.CLINICAL_NOUNS_EXTRA,
            # hand-written titles not known as care-provider titles make the name PATIENT
            patient_titles=R.PATIENT_TITLES | {t.rstrip(".") for t in titles
                                               if t.rstrip(".") not in R.DOCTOR_TITLES and " " not in t},
            relations=R.RELATIONS | {r for r in _handwritten("relations") if " " not in r},
            non_names=R.NON_NAMES | {h for h in headings if " " not in h},
            professions=frozenset(tuple(p.split()) for p in profs if p.strip()),
            states=_lower_set(lambda: [w for w in lists.us_states() if " " not in w]),
            departments=frozenset(d for d in _handwritten("departments") if " " not in d),
        )

    def flags(self, low: str) -> int:
        """Bit mask of facts about a lower-case word (memoised). A possessive ``'s`` is
        ignored; apostrophes and accents are dropped for the list look-ups; a hyphenated
        word is in a name list when either part is."""
        f = self._memo.get(low)
        if f is not None:
            return f
        key = low.replace("’", "'")
        if key.endswith("'s") and len(key) > 3:
            key = key[:-2]
        if "'" in key and key.rsplit("'", 1)[1] in _CONTRACTIONS:
            f = NON  # I'm, don't, we'll: not names
            self._memo[low] = f
            return f
        f = 0
        forms = {key}
        if not key.isascii():
            forms.add(_strip_accents(key))
        for form in list(forms):
            if "'" in form:
                forms.add(form.replace("'", ""))
        sur, giv = self.surnames, self.given
        for form in forms:
            if form in sur:
                f |= SUR
                if form in self.common_surnames:
                    f |= COMMON
            if form in giv:
                f |= GIV
            if "-" in form:
                for part in form.split("-"):
                    if part in sur:
                        f |= SUR
                    if part in giv:
                        f |= GIV
                    if part in self.medical:
                        f |= MED
        if key in self.medical:
            f |= MED
        if key in self.english:
            f |= ENG
        if key in self.non_names or low in self.non_names:
            f |= NON
        if key in R.MONTHS:
            f |= MONTH | NON
        if key in self.states:
            f |= STATE
        if low in self.followers or (not f & LIST and len(key) > 5
                                     and key.endswith(R.FOLLOWER_SUFFIXES)):
            f |= FOL
        if low in self.clinical:
            f |= CLN
        if low in self.doctor_titles:
            f |= TTL_D
        elif low in self.patient_titles:
            f |= TTL_P
        if low in STRONG_TITLES:
            f |= STRONG
        if low in self.relations:
            f |= REL
        if low in self.credentials:
            f |= CRED
        if low in self._labels_by_last:
            f |= LBL
        if low in self._prof_by_first:
            f |= PROF
        if len(self._memo) < 200_000:
            self._memo[low] = f
        return f


_LEXICON: Lexicon | None = None


def lexicon() -> Lexicon:
    """The shared :class:`Lexicon`, built from the word lists on first use."""
    global _LEXICON
    if _LEXICON is None:
        _LEXICON = Lexicon.from_lists()
    return _LEXICON


def set_lexicon(lex: Lexicon | None) -> None:
    """Replace the shared lexicon (``None``: rebuild from the lists on next use)."""
    global _LEXICON
    _LEXICON = lex


_SHAPES: dict[str, int] = {}


def _by_first(phrases: Iterable[tuple[str, ...]]) -> dict[str, list[tuple[str, ...]]]:
    """Word tuples indexed by their first word, longest first."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for words in sorted(phrases, key=len, reverse=True):
        out.setdefault(words[0], []).append(words)
    return out


_INSTITUTIONS_BY_FIRST = _by_first(R.INSTITUTIONS)


def _shape(w: str) -> int:
    if w.isalpha():
        core = w
    else:
        core = w.replace("'", "").replace("’", "").replace("-", "")
        if not core.isalpha():
            return OTHER
    if len(core) == 1:
        return INI if w.isupper() else LOW
    if w.isupper():
        return UP
    if w.islower():
        return LOW
    if w[0].isupper():
        if "-" in w and not all(p[:1].isupper() and len(p) > 1 for p in w.split("-")):
            return OTHER  # Roux-en-Y, X-ray, On-X: not a name shape
        return CAP
    return OTHER


class _Scan:
    """Per-document state of one detection run."""

    def __init__(self, doc: Document, lex: Lexicon) -> None:
        self.text = text = doc.text
        self.toks = toks = doc.tokens
        self.n = len(toks)
        self.lex = lex
        self.low = [t.word.lower() for t in toks]
        fl = lex.flags
        self.fl = [fl(w) for w in self.low]
        memo = _SHAPES
        shape = []
        for t in toks:
            sh = memo.get(t.word)
            if sh is None:
                sh = _shape(t.word)
                if len(memo) < 200_000:
                    memo[t.word] = sh
            shape.append(sh)
        self.shape = shape
        # a lower-case note: (almost) no capitals, so capitalisation is no evidence
        if text == text.lower():
            self.lower_doc = True
        elif text == text.upper():
            self.lower_doc = False
        else:   # at most one capitalised word in 25 (acronyms and a stray capital allowed)
            capped = shape.count(CAP) + shape.count(UP) + shape.count(INI)
            lows = shape.count(LOW)
            self.lower_doc = capped * 25 <= lows
            if not self.lower_doc and capped * 6 <= lows:
                # a lower-case note with a few proper nouns typed in capitals: its lines
                # start in lower case ("pt ngozi rosenthal ... University Hospital")
                starts = _LINE_START_RE.findall(text)
                low_starts = sum(1 for c in starts if c.islower())
                self.lower_doc = low_starts >= 4 and low_starts >= 5 * (len(starts) - low_starts)
        #: per token: capitalisation is no evidence here (the whole note, or a line or a
        #: sentence written all in lower case inside a note that has capitals elsewhere)
        self.lower = bytearray(b"\x01") * self.n if self.lower_doc else self._lower_segments()
        lower = self.lower
        # a single letter is an initial in lower-case text ("smith, john c")
        for k, w in enumerate(self.low):
            if lower[k] and shape[k] == LOW and len(w) == 1 \
                    and (w not in "ai" or text.startswith(".", toks[k].end)):
                shape[k] = INI
        self.caps_doc = not self.lower_doc and text == text.upper()
        self._caps_line: dict[int, bool] = {}
        self._starts = [t.start for t in toks]
        self.used = bytearray(self.n)
        self.spans: list[Span] = []
        self.found: dict[str, tuple[str, str]] = {}
        self.reviewed: list[tuple[int, int, list[int]]] = []

    def _lower_segments(self) -> bytearray:
        """Per token, 1 where the text around it is written in lower case although the note
        has capitals elsewhere (a heading ``Progress Note 5/6/2025`` above the line ``pt john
        smith seen by dr jones``), else 0.

        A line counts when it has no capitalised word, starts with a lower-case word and has
        at least two lower-case words (and three times as many as ALL-CAPS acronyms). Inside
        other lines, a sentence (split at ``. ! ?``, ``;``, table column gaps and a heading's
        colon, not at a label's colon: ``Tech: boosterhuis``) counts by the same test with at least three lower-case words, and a
        shorter capital-free sentence next to one that counts on the same line counts too
        (``wife mary called. dr. jones.``)."""
        n, shape, toks, text = self.n, self.shape, self.toks, self.text
        out = bytearray(n)
        if n == 0:
            return out
        # split into lines, and each line into sentences: lists of token indices
        lines: list[list[list[int]]] = [[[0]]]
        glued = bytearray(n)   # part of an e-mail address, a URL or a path: not prose
        for k in range(1, n):
            g = text[toks[k - 1].end:toks[k].start]
            if g and not any(c.isspace() for c in g) and any(c in "@._/\\" for c in g):
                glued[k - 1] = glued[k] = 1
            if "\n" in g or "\r" in g:
                lines.append([[k]])
            elif g[-1:] in " \t" and (any(c in ".!?;" for c in g)
                                       or ":" in g and not self.fl[k - 1] & (LBL | TITLE | REL)) \
                    or "\t" in g or "   " in g:
                lines[-1].append([k])   # a heading's colon splits ("Progress Note: pt ..."), a label's not
            else:
                lines[-1][-1].append(k)

        def lowercase(idx: list[int], need: int) -> bool:
            first = next((k for k in idx if shape[k] != OTHER), None)
            if first is None or shape[first] != LOW:
                return False
            lows = ups = 0
            for k in idx:
                s = shape[k]
                if s == CAP:
                    return False
                if s == LOW and len(toks[k].word) > 1 and not glued[k]:
                    lows += 1
                elif s == UP:
                    ups += 1
            return lows >= need and ups * 3 <= lows   # not a row of acronyms and units

        for sents in lines:
            if lowercase([k for sent in sents for k in sent], 2):
                for sent in sents:
                    for k in sent:
                        out[k] = not glued[k]
                continue
            if len(sents) < 2:
                continue
            flags = [lowercase(sent, 3) for sent in sents]
            free = [not any(shape[k] == CAP for k in sent) for sent in sents]
            for m in range(1, len(sents)):           # spread to short capital-free neighbours
                if flags[m - 1] and free[m]:
                    flags[m] = True
            for m in range(len(sents) - 2, -1, -1):
                if flags[m + 1] and free[m]:
                    flags[m] = True
            for sent, f in zip(sents, flags):
                if f:
                    for k in sent:
                        out[k] = not glued[k]
        return out

    # -- small predicates -------------------------------------------------------------
    def gap(self, i: int) -> str:
        """Text between token i and token i+1 (after the last token: the rest of the text
        plus a blank line, so that nothing joins across the end)."""
        if i + 1 >= self.n:
            return self.text[self.toks[i].end:] + "\n\n"
        return self.text[self.toks[i].end:self.toks[i + 1].start]

    def caps_line(self, i: int) -> bool:
        if self.caps_doc:
            return True
        if self.lower_doc:
            return False
        text = self.text
        pos = self.toks[i].start
        ls = text.rfind("\n", 0, pos) + 1
        c = self._caps_line.get(ls)
        if c is None:
            le = text.find("\n", pos)
            line = text[ls:le if le >= 0 else len(text)]
            c = self._caps_line[ls] = line == line.upper()
        return c

    def strict(self, i: int) -> bool:
        """Capitalisation is no evidence here (lower-case note, or ALL-CAPS note or line)."""
        return self.lower[i] or (self.shape[i] == UP and self.caps_line(i))

    def shaped(self, i: int) -> bool:
        """Name-shaped without context: Title-case; ALL CAPS in a capitals line; any word in
        a lower-case note."""
        s = self.shape[i]
        if s == CAP:
            return True
        if s == UP:
            return self.caps_line(i) and not self.lower[i]
        if s == LOW:
            return self.lower[i]
        return False

    def ctx_ok(self, i: int) -> bool:
        """Name-shaped after a title, label or relation: capitalised, ALL CAPS, or a list
        word in lower case; not a non-name word unless it is also in a name list."""
        if i >= self.n:
            return False
        s, f = self.shape[i], self.fl[i]
        if s == INI:
            return True
        if s == CAP or s == UP:
            pass
        elif s == LOW:
            if not self.lower[i] and (not f & LIST or f & (NON | ENG)):
                return False
        else:
            return False
        if f & NON and not (f & LIST and not f & MONTH and s != LOW) and not f & MONTH:
            return False
        if f & MONTH and s == LOW:
            return False
        return not (f & (TITLE | CRED) and s == UP and not f & LIST)

    def sentence_start(self, i: int) -> bool:
        text = self.text
        j = self.toks[i].start - 1
        while j >= 0 and text[j] in _OPENERS:
            if text[j] == " " and j > 0 and text[j - 1] == " ":
                return True   # a column gap in a table
            j -= 1
        return j < 0 or text[j] in _SENTENCE_END

    def plain_gap(self, i: int, allow_newline: bool = False) -> bool:
        """Token i and i+1 separated only by spaces/tabs (after an initial: an optional dot)."""
        g = self.gap(i)
        if self.shape[i] == INI and g.startswith("."):
            g = g[1:]
        if not g:
            return self.shape[i] == INI
        if all(c in _SPACES for c in g):
            return True
        if allow_newline:
            s = g.strip(" \t")
            return s in ("\n", "\r\n")
        return False

    def line_starts_at(self, i: int) -> bool:
        """Token i is the first word on its line (dashes, bullets and spaces may precede it)."""
        text = self.text
        p = self.toks[i].start - 1
        while p >= 0 and text[p] in " \t-–—•*>":
            p -= 1
        return p < 0 or text[p] == "\n"

    def line_ends_after(self, i: int) -> bool:
        """Nothing but spaces, a comma or a full stop follows token i on its line."""
        text = self.text
        e = self.toks[i].end
        while e < len(text) and text[e] in " \t,.":
            e += 1
        return e >= len(text) or text[e] in "\r\n"

    def id_after(self, i: int) -> bool:
        """An identifier follows token i on its line: ``(MRN ...``, ``| DOB``, ``, 80 yo``,
        ``   5518830`` (a patient header line)."""
        text = self.text
        e = self.toks[i].end
        stop = min(len(text), e + 12)
        while e < stop and text[e] in " \t(,|:-–—":
            e += 1
        if e >= len(text) or text[e] in "\r\n":
            return False
        if text[e].isdigit():
            return True
        return text[e:e + 7].lower().startswith(_ID_WORDS)

    def next_is_lower_word(self, i: int) -> bool:
        j = i + 1
        return (j < self.n and self.shape[j] == LOW and not self.lower[j]
                and all(c in _SPACES for c in self.gap(i)))

    def eponym_after(self, i: int) -> bool:
        """Token i is followed by an eponym follower (``Bell's palsy``, ``Graves' disease``,
        ``Glasgow Coma Scale``), or token i is a hyphenated pair of eponyms followed by a
        clinical noun (``Swan-Ganz catheter``): a diagnosis or device, not a name."""
        j = i + 1
        if j >= self.n:
            return False
        g = self.gap(i).strip(" \t\r\n'’")
        if g not in ("", "-", "/") or self.gap(i).count("\n") > 1:
            return False
        fj = self.fl[j]
        if fj & FOL:
            return True
        if "-" in self.low[i] and self.shape[i] in (CAP, UP) and g == "" and "\n" not in self.gap(i) \
                and (fj & CLN and not fj & NON or self.low[j] in R.HYPHEN_EPONYM_NEXT):
            return True   # "Swan-Ganz catheter", "Child-Pugh class B": two eponyms and a clinical word
        if j + 1 >= self.n or self.gap(j).strip(" \t") not in ("", "-", "/"):
            return False
        if self.low[j] in ("and", "&") and j + 2 < self.n and self.shape[j + 1] in (CAP, UP):
            return bool(self.fl[j + 2] & FOL) and self.gap(j + 1).strip(" \t") == ""  # Hoehn and Yahr stage
        if self.shape[j] in (CAP, UP, INI) and not fj & LIST and self.fl[j + 1] & FOL:
            return True   # "Kerley B lines", "Denver II screen"
        # "Ramsay sedation scale": a lower-case word, then a measure
        return (self.shape[j] == LOW and not fj & (NON | LIST) and self.low[j + 1] in R.MEASURE_FOLLOWERS
                and self.shape[i] != LOW)

    def clinical_after(self, i: int) -> bool:
        """Token i is followed by a clinical noun (``Foley catheter``)."""
        j = i + 1
        return (j < self.n and self.fl[j] & (CLN | NON) == CLN
                and self.gap(i).strip(" \t'’") == "")

    # -- emitting ---------------------------------------------------------------------
    def emit(self, idx: list[int], label: str, tier: str, source: str, remember: bool) -> None:
        for k in idx:
            self.used[k] = 1
        if tier is None:
            return
        nxt = idx[-1] + 1
        if nxt < self.n and self.low[nxt] in _SUFFIXES and self.shape[nxt] in (CAP, UP) \
                and self.gap(idx[-1]).strip(" \t") in ("", ","):
            idx = idx + [nxt]
            self.used[nxt] = 1
        # one span per run of tokens that are adjacent in idx (LAST, FIRST gives two runs)
        first = len(self.spans)
        run = [idx[0]]
        for k in idx[1:]:
            g = self.gap(run[-1])
            if k == run[-1] + 1 and "\n" not in g:
                run.append(k)
            else:
                self._emit_run(run, label, tier, source)
                run = [k]
        self._emit_run(run, label, tier, source)
        if tier == REVIEW:
            self.reviewed.append((first, len(self.spans), idx))
        if remember and tier == CERTAIN:
            last = idx[-1] if len(idx) == 1 or "," not in self.gap(idx[0]) else idx[0]
            listed_only = not source.startswith(("names:title", "names:label", "names:relation",
                                                 "names:credential"))
            for k in idx:
                if self.shape[k] in (INI, OTHER) or len(self.low[k]) < 2:
                    continue
                if listed_only and self.fl[k] & (ENG | MED):
                    continue
                key = self._key(k)
                role = "sur" if k == last else "giv"
                if key not in self.found or role == "sur":
                    self.found[key] = (label, role)

    def _key(self, k: int) -> str:
        w = self.low[k].replace("’", "'")
        return w[:-2] if w.endswith("'s") and len(w) > 3 else w

    def _emit_run(self, run: list[int], label: str, tier: str, source: str) -> None:
        toks, text = self.toks, self.text
        start = toks[run[0]].start
        last = run[-1]
        end = toks[last].end
        w = toks[last].word
        if self.shape[last] == INI:
            if end < len(text) and text[end] == ".":
                end += 1
        elif len(w) > 3 and w[-2] in "'’" and w[-1] in "sS":
            end -= 2
        self.spans.append(Span(start, end, label, tier, source))

    # -- hospitals named after people ---------------------------------------------------
    def institution_pass(self) -> None:
        """``Johns Hopkins``, ``NYU Langone``: a hand-written hospital name made of name-list
        words (:data:`.name_rules.INSTITUTIONS`) is a HOSPITAL, certain, and no person."""
        low, shape, n = self.low, self.shape, self.n
        for i in range(n):
            cands = _INSTITUTIONS_BY_FIRST.get(low[i])
            if not cands or self.used[i] or not (shape[i] in (CAP, UP) or self.lower[i]):
                continue
            for words in cands:
                m = len(words)
                if tuple(low[i:i + m]) == words and all(
                        self.plain_gap(k) and "\n" not in self.gap(k) for k in range(i, i + m - 1)):
                    for k in range(i, i + m):
                        self.used[k] = 1
                    self.spans.append(Span(self.toks[i].start, self.toks[i + m - 1].end, "HOSPITAL",
                                           CERTAIN, "names:institution"))
                    break

    # -- context rules ----------------------------------------------------------------
    def take(self, j: int, allow_comma: bool = False, max_tokens: int = 4,
             second_free: bool = False) -> list[int]:
        """Name tokens from j on (j must satisfy ctx_ok): further words join when they are
        list names, initials, or follow a given name or initial (or, with ``second_free``, any
        capitalised second word: ``Dr. Cettina Fanucci``); at most one line break."""
        idx = [j]
        k = j
        n, fl, shape = self.n, self.fl, self.shape
        newline_used = False
        if allow_comma and k + 1 < n and self.gap(k).strip(" \t") == "," and "\n" not in self.gap(k) \
                and (fl[k + 1] & GIV or shape[k + 1] == shape[k] and not fl[k + 1] & (NON | TITLE | CRED)) \
                and self.ctx_ok(k + 1) and shape[k] != INI and shape[k + 1] != INI:
            idx.append(k + 1)
            k += 1
            if k + 1 < n and shape[k + 1] == INI and self.plain_gap(k):
                idx.append(k + 1)
            return idx
        while len(idx) < max_tokens and k + 1 < n:
            if shape[k] != INI and self.low[k][-2:] in ("'s", "’s"):
                break
            nxt = k + 1
            if not self.plain_gap(k, allow_newline=not newline_used):
                break
            if self.low[nxt] in _PARTICLES and shape[nxt] in (LOW, CAP) and nxt + 1 < n \
                    and "\n" not in self.gap(k) and (len(idx) > 1 or fl[k] & GIV or shape[k] == CAP):
                m = nxt
                while m < n and self.low[m] in _PARTICLES and m - nxt < 2 and self.plain_gap(m):
                    m += 1
                if m < n and m > nxt and shape[m] == CAP and not fl[m] & NON and self.plain_gap(m - 1) \
                        and "\n" not in self.gap(m - 1):
                    idx.extend(range(nxt, m + 1))
                    k = m
                    continue
                break
            g = self.gap(k)
            nl = "\n" in g
            common_low = (shape[nxt] == LOW and shape[k] == LOW and fl[k] & GIV and fl[nxt] & COMMON
                          and not fl[nxt] & NON and not nl)   # "pt john smith" in a note with capitals
            if not (self.ctx_ok(nxt) or common_low) \
                    or fl[nxt] & (FOL | CLN | CRED | TITLE) and not fl[nxt] & LIST:
                break
            if self.low[nxt] in R.ID_LABEL_WORDS or "\t" in g or "   " in g:
                break   # "Mrs Philippa Ashdown-Reyes   DOB": a header's next column
            if fl[nxt] & NON and self.strict(nxt) or self.stops(nxt):
                break   # "WIFE GRETA TO CALL", "dr gonzalez agrees": no capitals to tell name from word
            if shape[nxt] == INI:
                after = nxt + 1
                dotted = self.toks[nxt].end < len(self.text) and self.text[self.toks[nxt].end] == "."
                if not dotted and after < n and shape[after] == LOW:
                    break
                if nl:
                    break
            elif not (fl[nxt] & LIST or shape[k] == INI or fl[k] & GIV
                      or second_free and len(idx) == 1 and shape[nxt] == shape[k]):
                break
            if nl:
                if fl[nxt] & NON or not (fl[nxt] & LIST and self.line_ends_after(nxt)
                                         or fl[k] & GIV and self.line_ends_after(nxt)
                                         or second_free and len(idx) == 1 and not fl[k] & SUR
                                         and (fl[nxt] & LIST and not fl[nxt] & ENG
                                              or not self.strict(nxt))):
                    break   # "son kwame\ndrives": a lower-case word on the next line is a verb
                newline_used = True
            idx.append(nxt)
            k = nxt
        return idx

    def credential_at(self, i: int) -> int:
        """0 if no credential starts at token i, else the number of tokens it spans
        (``MD`` 1, ``M.D.`` 2)."""
        s = self.shape[i]
        if self.fl[i] & CRED and (s == UP or s == CAP and self.low[i] not in ("do", "ms", "ma")
                                  or s == LOW and self.lower[i]):
            return 1
        if s == INI and i + 1 < self.n and self.shape[i + 1] == INI and self.gap(i) == "." \
                and self.low[i] + self.low[i + 1] in self.lex.credentials:
            return 2
        if self.low[i] == "ph" and i + 1 < self.n and self.low[i + 1] == "d" and self.gap(i) == ".":
            return 2
        return 0

    def credential_after(self, last: int) -> bool:
        j = last + 1
        if j >= self.n:
            return False
        g = self.gap(last)
        if "\n" in g or g.strip(" \t") not in ("", ","):
            return False
        if not self.credential_at(j):
            return False
        return "," in g or self.low[j] not in R.AMBIGUOUS_CREDENTIALS

    def context_pass(self) -> None:
        n, fl, low, shape = self.n, self.fl, self.low, self.shape
        for i in range(n):
            f = fl[i]
            if f & TITLE and i + 1 < n:
                self._title(i)
            if f & REL and i + 1 < n and not self.used[i + 1]:
                self._relation(i)
            if f & LBL and i + 1 < n and not self.used[i + 1]:
                self._label(i)
            if f & CRED or shape[i] == INI or low[i] == "ph":
                c = self.credential_at(i)
                if c and i > 0:
                    self._credential(i)
            if shape[i] in (UP, LOW) and 2 <= len(low[i]) <= 3 and not self.used[i]:
                self._initials(i)
            if low[i] in R.INITIALS_LABELS and i + 1 < n and not self.used[i + 1]:
                self._initials_after_label(i)

    def _title(self, i: int) -> None:
        """``Dr. Anne Whitcombe``, ``Mrs. Thao``, ``RN Chiara Bellweather``, ``Pt Achterberg,
        Willem``: the name after a title (the title itself stays outside the span)."""
        s, low, f, n = self.shape[i], self.low[i], self.fl[i], self.n
        if s not in (CAP, UP, LOW):
            return
        g = self.gap(i)
        dotted = g.startswith(".")
        if dotted and low in _WORD_TITLES:
            return   # "saw the patient. jessica reports": the full stop ends a sentence
        rest = g[1:] if dotted else g
        if not all(c in _SPACES for c in rest) and not (
                dotted and f & STRONG and rest.strip(" \t") in ("\n", "\r\n") and self.shape[i + 1] == CAP):
            return   # "referral to Dr.\nSaoirse Ní Bhriain": a line break after "Dr." is fine
        if s == UP and not self.caps_line(i) and low not in ("rn", "np", "dr", "mr", "mrs"):
            return
        j = i + 1
        if self.used[j]:
            return
        fj, sj = self.fl[j], self.shape[j]
        if low == "ms" and i > 0 and (self.toks[i - 1].word.isdigit() or self.text[
                :self.toks[i].start].rstrip(" \t")[-1:] in ("*", "<", ">", "=")):
            return   # 0.4 ms, "PR interval * ms": a unit
        if fj & (FOL | CLN) and (not fj & LIST or not f & STRONG and self.strict(j)):
            return   # "mr safety", "MR CONDITIONAL", "stroke nurse line": a thing, not a person
        # "MR CONDITIONAL" (capitals, no dot) and "dr smith" in a mixed-case note are weak;
        # "dr. uzoma" (lower case with a dot) is strong
        strong = bool(f & STRONG) and (s == CAP or s == UP and dotted
                                       or s == LOW and self.lower[i] and not (sj == UP and not fj & LIST)
                                       or s == LOW and dotted and low in ("dr", "mr", "mrs"))
        if not self.ctx_ok(j) and not (strong and sj == LOW and not fj & NON
                                       and self.toks[j].word.isalpha()):
            return
        if fj & TITLE and not fj & LIST:
            return
        comma = not strong and sj in (CAP, UP) and j + 1 < n and self.gap(j).strip(" \t") == "," \
            and "\n" not in self.gap(j) and (self.fl[j + 1] & GIV or self.shape[j + 1] == sj
                                            and not self.fl[j + 1] & (NON | TITLE | CRED))
        if not strong:
            ok = bool(fj & LIST) and not fj & NON and not (
                self.lower[i] and low in ("patient", "pt") and (fj & ENG or not fj & GIV))
            if not ok and sj == INI and j + 1 < n and self.text.startswith(".", self.toks[j].end):
                ok = True                                   # rn g. abernathy
            if not ok and sj == CAP and j + 1 < n and self.shape[j + 1] == CAP and self.plain_gap(j) \
                    and not self.fl[j + 1] & (NON | FOL | CLN | TITLE | CRED) and not fj & (FOL | CLN):
                ok = True                                   # RN Chiara Bellweather
            if not ok and comma:
                ok = True                                   # Pt Achterberg, Willem
            if not ok:
                return
        idx = self.take(j, allow_comma=comma, second_free=True)
        if not f & STRONG and self.eponym_after(idx[-1]):
            return   # "Sister Mary Joseph nodule": an eponym after a weak title
        label = "DOCTOR" if f & TTL_D or self.credential_after(idx[-1]) else "PATIENT"
        self.emit(idx, label, CERTAIN, f"names:title:{low}", remember=True)

    def _relation(self, i: int) -> None:
        """``his wife Mary``, ``daughter, Ana Lopez``, ``brother Pieter Achterberg``."""
        g = self.gap(i).strip(" \t")
        j = i + 1
        poss = i > 0 and self.low[i - 1] in R.POSSESSIVES and self.plain_gap(i - 1)
        if g in ("\n", "\r\n"):
            # "his daughter\nharriet", "father\nBlaž": a line break after the relation word
            if not (poss or self.shape[j] == CAP and not self.strict(j)):
                return
        elif g not in ("", ",", ":", "(", "-", "–", "—", ", (", "="):
            return
        w = self.low[j]
        fj = self.fl[j]
        calendar = poss and w in R.CALENDAR_NAMES and self.shape[j] != INI \
            and (j + 1 >= self.n or self.gap(j).lstrip(" \t")[:1] in ("\n", "\r", "(", ",", ";"))
        if not calendar and (not self.ctx_ok(j) or self.shape[j] == INI):
            return
        if fj & (FOL | CLN | REL) and not fj & LIST:
            return
        if self.strict(j) and w in R.PERSON_VERBS:
            return   # "his mother fell at home", "WIFE SAID": a verb, no name
        tier = CERTAIN
        idx = self.take(j, allow_comma=self.shape[j] == UP, second_free=True)
        if self.eponym_after(idx[-1]) and not (fj & LIST and not fj & (ENG | MED) and len(idx) > 1):
            return   # "her mother, Whipple procedure in 2010": a procedure, not the mother's name
        if calendar:
            idx = [j]
        elif fj & ENG and self.strict(j) and j + 1 < self.n and self.shape[j + 1] == LOW \
                and not self.fl[j + 1] & (NON | GIV) and self.plain_gap(j, allow_newline=True) \
                and self.low[j + 1] not in _ENG_PERSON_AFTER:
            idx, tier = [j], REVIEW   # "his wife will call": no capitals to tell Will from will
        elif not fj & LIST:
            if self.shape[j] == CAP and not self.strict(j):
                # "Mother: Folasade Adeyemi-Clarke" is a name, "Mother: Alive" is not
                tier = REVIEW if g == ":" and len(idx) < 2 else CERTAIN
            elif (self.lower[j] or poss and self.strict(j)) and not fj & NON \
                    and not w.endswith(("s", "ed", "ing", "ly")) and w not in R.NAME_STOP_WORDS:
                # "with wife ngozi if eating well": a function word after it reads as a name;
                # so does a bracket, a comma or the end of the line after "his son ROALD"
                nxt = idx[-1] + 1
                after = self.gap(idx[-1]).lstrip(" \t")[:1]
                tier = CERTAIN if (nxt < self.n and (self.fl[nxt] & NON or self.stops(nxt))
                                   and self.plain_gap(idx[-1])
                                   or poss and (after in ("(", ",", "\n", "\r") or nxt >= self.n)) \
                    else REVIEW
            else:
                return
        self.emit(idx, "PATIENT", tier, f"names:relation:{self.low[i]}", remember=tier == CERTAIN)

    def _label(self, i: int) -> None:
        low = self.low
        for words, label, colon in self.lex._labels_by_last[low[i]]:
            m = len(words)
            if i + 1 < m or tuple(low[i - m + 1:i + 1]) != words:
                continue
            if i - m + 1 > 0 and m == 1 and low[i] in ("name", "user", "contact") \
                    and self.shape[i - 1] != OTHER and "\n" not in self.gap(i - 1) \
                    and self.gap(i - 1).strip(" \t") == "" and low[i - 1] not in ("patient", "pt"):
                # "first name", "brand name": only the listed multi-word phrases count
                continue
            g = self.gap(i).strip(" \t\r\n")
            if colon and g not in (":", "-", ":-", "#:", "=", "–", "|"):
                continue
            if g == "|" and self.fl[i] & CRED:
                continue   # "Kenji Arakawa, MD | Core": a table cell, not a label
            if not colon and g not in ("", ":", "-"):
                continue
            j = i + 1
            if label == "USERNAME":
                self._username(j, words, colon)
                return
            if m == 1 and self.lower[j] and low[i] in ("reviewed", "verified") and i > 0 \
                    and not self.fl[j] & LIST and not low[i - 1].endswith("ly") \
                    and not self.line_starts_at(i) \
                    and self.gap(i - 1).strip(" \t") == "" and "\t" not in self.gap(i - 1) \
                    and "   " not in self.gap(i - 1):
                return   # "meds reviewed: furosemide": a verb and its object, no label
            if self.fl[j] & (TITLE | REL) and not self.fl[j] & LIST:
                return  # "Attending: Dr. Smith", "next of kin: mother greta": the title or relation rule
            if label == "DOCTOR" and colon and self._login_shaped(j):
                self._username(j, words, colon)   # "Tech: dferreiral2"
                return
            if self.used[j] or not self.ctx_ok(j):
                return
            if self.shape[j] == LOW and words[-1] in R.AMBIGUOUS_LABELS and (
                    not self.fl[j] & LIST or self.fl[j] & ENG):
                return   # "cc: facial droop", "re: inhaler refill"
            if not colon and not self.fl[j] & LIST and self.shape[j] not in (CAP, UP) \
                    and not (self.shape[j] == INI and self.text.startswith(".", self.toks[j].end)):
                return
            idx = self.take(j, allow_comma=True, second_free=True)
            tier = CERTAIN
            if len(idx) == 1 and self.fl[j] & ENG and self.next_is_lower_word(j):
                tier = REVIEW
            if label == "PATIENT" and self.credential_after(idx[-1]):
                label = "DOCTOR"
            self.emit(idx, label, tier, f"names:label:{' '.join(words)}", remember=tier == CERTAIN)
            return

    def _login_shaped(self, j: int) -> bool:
        """Token j looks like a login: letters then digits (``dferreiral2``), or one lower-case
        word of 5+ letters in a note that has capitals (``boosterhuis``), alone on its line or
        before a space."""
        w = self.toks[j].word
        if not w.isalnum() or not w[0].isalpha() or w.isupper():
            return False
        if any(c.isdigit() for c in w):
            return w[-1].isdigit() and not self.fl[j] & LIST
        return (w.islower() and len(w) >= 5 and not self.lower_doc
                and not self.fl[j] & (LIST | NON) and self.line_ends_after(j))

    def _username(self, j: int, words: tuple[str, ...], colon: bool) -> None:
        """The login after ``user:`` / ``tech ID`` (up to the next space or bracket)."""
        text = self.text
        start = self.toks[j].start
        end = start
        while end < len(text) and not text[end].isspace() and text[end] not in ",;)]":
            end += 1
        while end > start and text[end - 1] in ".:":
            end -= 1
        value = text[start:end]
        if not colon and not (any(c.isdigit() or c == "_" for c in value)
                              or value.islower() and value.isalnum() and not self.fl[j] & NON):
            return
        if end > start:
            k = j
            while k < self.n and self.toks[k].end <= end:
                self.used[k] = 1
                k += 1
            self.spans.append(Span(start, end, "USERNAME", CERTAIN,
                                   f"names:label:{' '.join(words)}"))

    def _credential(self, i: int) -> None:
        e = self.toks[i + self.credential_at(i) - 1].end
        g = self.gap(i - 1)
        if self.text.startswith(":", e) and "," not in g:
            return   # "Triage RN: ..." is a label ("from aoife hughes, md:" is a sign-off)
        if "\n" in g or g.strip(" \t") not in ("", ","):
            return
        k = i - 1
        modifier = False
        if "," not in g and self.shape[k] == LOW and not self.lower[k] and k >= 1 \
                and not self.fl[k] & (NON | LIST) and self.toks[k].word.isalpha() \
                and self.gap(k - 1).strip(" \t") == "," and "\n" not in self.gap(k - 1):
            k -= 1   # "Bram Oosterhuis, device RN": a role word between name and credential
            modifier = True
        elif "," not in g and self.low[i] in R.AMBIGUOUS_CREDENTIALS:
            return
        ambiguous = self.low[i] in R.AMBIGUOUS_CREDENTIALS
        idx: list[int] = []
        lower = self.lower
        while k >= 0 and len(idx) < 4:
            s, f = self.shape[k], self.fl[k]
            if self.used[k]:
                break
            if s == INI or s == CAP or s == UP and (self.caps_line(k) or f & LIST) \
                    or s == LOW and lower[k]:
                if s == INI and (self.text.startswith(".", self.toks[k].end) or self.toks[k].word.isupper()):
                    pass   # "Yusuf A. Farouk, RN", "a. szymanska, np": an initial, never a word
                elif f & NON and not (f & LIST and s != LOW) or f & CRED and s == UP and not f & LIST:
                    break
                if f & TITLE and not f & LIST:
                    break
                if lower[k] and f & (LBL | REL | PROF) and s == LOW:
                    break   # "the ordering clinician fatima el-amin, md": the role is no name
                idx.append(k)
                if k == 0:
                    break
                g = self.gap(k - 1)
                if self.shape[k - 1] == INI and g.startswith("."):
                    g = g[1:]
                if not all(c in _SPACES for c in g) or not g and self.shape[k - 1] != INI:
                    break
                k -= 1
            else:
                break
        if not idx or all(self.shape[k] == INI for k in idx) or modifier and len(idx) < 2:
            return
        idx.reverse()
        listed = any(self.fl[k] & LIST for k in idx)
        if lower[idx[0]] and not listed and self.shape[idx[0]] != INI and not (
                len(idx) >= 2 and self.line_starts_at(idx[0])):
            return   # "kwame asante, pharmd" opening a line is a signature
        if lower[idx[0]] and ambiguous and not self.line_starts_at(idx[0]):
            return   # "tolerating diet well, pt walking": "pt" is the patient here
        tier = CERTAIN if listed or len(idx) >= 2 else REVIEW
        self.emit(idx, "DOCTOR", tier, f"names:credential:{self.low[i]}", remember=tier == CERTAIN)

    def _initials_after_label(self, i: int) -> None:
        """Initials after a dictation or signature word: ``transcribed 9/16 by m.o.``,
        ``Transcriptionist: mlr``, ``transcribed: ks   Job ...``, ``Tech ZQ / reviewed``."""
        text, toks, low = self.text, self.toks, self.low
        j = i + 1
        g = self.gap(i)
        tok = toks[j]
        if g == " " and tok.end < len(text) and text[tok.end] == ".":
            k = j   # dotted initials "m.o." / "J.S."
            letters = ""
            while k < self.n and len(toks[k].word) == 1 and toks[k].word.isalpha() \
                    and text.startswith(".", toks[k].end) and (k == j or toks[k].start == toks[k - 1].end + 1):
                letters += low[k]
                k += 1
            after = text[toks[k - 1].end + 1:toks[k - 1].end + 40].lstrip(" \t")[:1]
            if 2 <= len(letters) <= 3 and letters not in self.lex.credentials \
                    and after in ("", "\n", "\r", ",", ";", ")"):   # not "by U.S. Army"
                for m in range(j, k):
                    self.used[m] = 1
                self.spans.append(Span(tok.start, toks[k - 1].end + 1, "DOCTOR", CERTAIN,
                                       f"names:initials_after:{low[i]}"))
            return
        if low[i] == "by":
            return
        colon = g.strip(" \t") in (":", ":-", "-")
        w = tok.word
        if not (colon or g == " " and w.isupper() and low[i] in ("tech", "technologist", "scribe")):
            return
        if not (2 <= len(w) <= 4 and w.isalpha() and (w.isupper() or w.islower())) \
                or self.fl[j] & (NON | CRED | LIST) or self.shape[j] == CAP:
            return
        e = tok.end
        rest = text[e:e + 3]
        if not (e >= len(text) or rest[:1] in "\r\n" or rest.startswith(("  ", " /", "/", "\t"))):
            return
        self.used[j] = 1
        self.spans.append(Span(tok.start, tok.end, "DOCTOR", CERTAIN, f"names:initials_after:{low[i]}"))

    def _initials(self, i: int) -> None:
        """Signature initials alone at the end of a line: ``-- JS``, ``—JS``, ``/js``, ``AB/cd``."""
        text, tok = self.text, self.toks[i]
        if tok.start == 0 or text[tok.start - 1] not in "/-–— \t":
            return
        w = tok.word
        if not (w.isupper() or w.islower()) or not w.isalpha():
            return
        if w.isupper() and text[tok.start - 1] == "/" and (tok.start == 1 or text[tok.start - 2] == "\n") \
                and not self.fl[i] & NON:
            self.used[i] = 1   # "/JTW James T. Wolcott-Mbeki, MD": initials opening a line
            self.spans.append(Span(tok.start, tok.end, "DOCTOR", CERTAIN, "names:signature_initials"))
            return
        # rest of the line must be empty
        e = tok.end
        while e < len(text) and text[e] in " \t":
            e += 1
        if e < len(text) and text[e] not in "\r\n/" and not (
                e > tok.end and text[e:e + 5].lower().startswith(("pgy", "(pgy", "cc:", "cc ", "ms3", "ms4"))):
            return   # initials stand alone at the end of a line (or before more initials / "pgy2")
        p = tok.start - 1
        while p >= 0 and text[p] in " \t":
            p -= 1
        if p < 0:
            return
        c = text[p]
        if c == "/" and p == tok.start - 1 and i > 0 and self.toks[i - 1].end == p and w.islower() \
                and (e >= len(text) or text[e] in "\r\n") and self.line_starts_at(i - 1) \
                and self.toks[i - 1].start == text.rfind("\n", 0, p) + 1:
            pw = self.low[i - 1]
            if self.toks[i - 1].word.islower() and pw.isalpha() and 2 <= len(pw) <= 3 \
                    and pw not in _UNITS and not (self.fl[i - 1] | self.fl[i]) & NON:
                self.used[i] = self.used[i - 1] = 1   # "ads/mo" alone on the last line
                for t in (self.toks[i - 1], tok):
                    self.spans.append(Span(t.start, t.end, "DOCTOR", CERTAIN, "names:signature_initials"))
                return
        if c in "-–—" and (w.isupper() or not self.fl[i] & (NON | ENG | LIST)):
            q = p
            while q >= 0 and text[q] in "-–—":
                q -= 1
            if (q < 0 or text[q] in " \t\n") and (p - q >= 2 or text[p] in "–—"):
                self.used[i] = 1
                self.spans.append(Span(tok.start, tok.end, "DOCTOR", CERTAIN, "names:signature_initials"))
            return
        if c == "/" and p == tok.start - 1 and w.lower() not in _UNITS:
            q = p - 1
            if q < 0 or text[q] in " \t\n":
                self.used[i] = 1
                self.spans.append(Span(tok.start, tok.end, "DOCTOR", CERTAIN, "names:signature_initials"))
                return
            if i > 0 and self.toks[i - 1].end == p and w.islower():
                prev = self.toks[i - 1]
                pw = prev.word
                ls = prev.start - 1
                if pw.isupper() and pw.isalpha() and 2 <= len(pw) <= 3 and (ls < 0 or text[ls] in " \t\n"):
                    self.used[i] = self.used[i - 1] = 1
                    self.spans.append(Span(prev.start, prev.end, "DOCTOR", CERTAIN, "names:signature_initials"))
                    self.spans.append(Span(tok.start, tok.end, "DOCTOR", CERTAIN, "names:signature_initials"))

    # -- heads of lines and "X is a 42 yo" -----------------------------------------------
    def name_like(self, k: int) -> bool:
        """Token k could be part of a name here: a capitalised word (ALL CAPS in a capitals
        line, any case in a lower-case note), no title, label, role or clinical word."""
        s = self.shape[k]
        if self.fl[k] & _NOT_NAME or s == OTHER or s == INI:
            return False
        if s == LOW:
            return self.lower[k]
        if s == UP:
            return self.caps_line(k)
        return True

    def _run_from(self, j: int) -> list[int]:
        """Name-like tokens from j: ``LAST, FIRST [M]`` or up to 3 words (and an initial)
        separated by single spaces on one line."""
        n, shape = self.n, self.shape
        if not self.name_like(j) or self.used[j]:
            return []
        if j + 1 < n and self.gap(j).strip(" \t") == "," and "\n" not in self.gap(j):
            if self.name_like(j + 1) and not self.used[j + 1] and shape[j + 1] == shape[j]:
                idx = [j, j + 1]
                if j + 2 < n and len(self.low[j + 2]) == 1 and self.low[j + 2].isalpha() \
                        and self.plain_gap(j + 1):
                    idx.append(j + 2)   # "pemberton, roderick a": a middle initial
                return idx
            return [j]
        idx = [j]
        k = j
        while k + 1 < n and len(idx) < 4 and self.gap(k) in (" ", ". ") and not self.used[k + 1]:
            if self.gap(k) == ". " and shape[k] != INI:
                break
            nxt = k + 1
            if shape[nxt] == INI and len(idx) < 3:
                idx.append(nxt)
            elif self.name_like(nxt) and not self.stops(nxt) \
                    and len([m for m in idx if shape[m] != INI]) < 3 and (
                    len(idx) < 2 or self.fl[nxt] & LIST and not self.fl[nxt] & ENG):
                idx.append(nxt)   # a third word only from the name lists ("... hd#4")
            else:
                break
            k = nxt
        if shape[idx[-1]] == INI and not self.text.startswith(".", self.toks[idx[-1]].end) \
                and not self.lower[idx[-1]] and idx[-1] + 1 < n and self.plain_gap(idx[-1]):
            idx.pop()
        return idx

    def head_pass(self) -> None:
        """A name heading a line and followed by the patient's age or an identifier label
        (``leopold fairweather, 96,``, ``Grimsby, Dmitri | MRN``, ``okafor, chinedu — 67
        yo``), optionally after ``pt`` / ``name:`` (``pt ngozi rosenthal hd#4``); and the
        subject of ``X is a 42 yo`` at the start of a sentence."""
        toks, low, fl, n, text = self.toks, self.low, self.fl, self.n, self.text
        starts = self._starts
        for m in _LINE_WORD_RE.finditer(text):
            i = bisect_left(starts, m.end())
            if i >= n or starts[i] != m.end() or self.used[i]:
                continue
            prefix = None
            j = i
            if low[i] in _HEAD_PREFIXES and i + 1 < n and self.gap(i).strip(" \t") in ("", ":", ".", ".:"):
                prefix, j = low[i], i + 1
            idx = self._run_from(j)
            if not idx:
                continue
            words = [k for k in idx if self.shape[k] != INI]
            clean = [k for k in words if fl[k] & LIST and not fl[k] & ENG and not self.eponym_after(k)]
            last = idx[-1]
            end = toks[last].end + (1 if self.shape[last] == INI and text.startswith(".", toks[last].end) else 0)
            after = _AGE_ID_AFTER_RE.match(text, end)
            if after and (clean and (len(words) >= 2 or prefix) or len(words) >= 2 and (
                    prefix or after.group("label")
                    or "," in text[toks[idx[0]].end:toks[idx[1]].start])):
                # an age after two unlisted words counts only after "pt" or in "LAST, FIRST"
                source = "names:head+age_or_identifier"
            elif prefix in ("pt", "patient", "name") and len(words) >= 2 and fl[words[-1]] & LIST \
                    and not fl[words[-1]] & ENG and not self.eponym_after(words[-1]) \
                    and not low[words[0]].endswith(("ing", "ed")) \
                    and not fl[words[0]] & ENG:
                source = f"names:head:{prefix}"
            else:
                continue
            label = "DOCTOR" if self.credential_after(last) else "PATIENT"
            self.emit(idx, label, CERTAIN, source, remember=True)
        depts = self.lex.departments
        for i in range(n - 1):
            if low[i] in depts and text.startswith(" (", toks[i].end) and not self.used[i + 1]:
                self._service_contact(i)
        for i in range(2, n - 2):
            if low[i] != "is" or low[i + 1] not in ("a", "an") or self.used[i - 1]:
                continue
            w = toks[i + 2].word
            if not (w[:1].isdigit() and (len(w) <= 3 and w.isdigit() or "-y" in w.lower())):
                continue
            idx = []
            k = i - 1
            while k >= 0 and len(idx) < 4 and (self.name_like(k) or idx and low[k] in _PARTICLES) \
                    and not self.used[k] and self.gap(k) in (" ",):
                idx.append(k)
                if self.sentence_start(k):
                    break
                k -= 1
            if idx and self.sentence_start(idx[-1]) and low[idx[-1]] not in _PARTICLES:
                idx.reverse()
                self.emit(idx, "PATIENT", CERTAIN, "names:subject_of_age", remember=True)

    def _service_contact(self, i: int) -> None:
        """``Neurosurgery (Okwu)``: a capitalised name alone in brackets after a service is
        the consultant; certain if in the name lists, else review."""
        j = i + 1
        idx = [j]
        if j + 1 < self.n and self.plain_gap(j) and self.shape[j + 1] == CAP:
            idx.append(j + 1)
        last = idx[-1]
        if not self.text.startswith(")", self.toks[last].end):
            return
        if not all(self.shape[k] == CAP and self.name_like(k) for k in idx):
            return
        listed = any(self.fl[k] & LIST and not self.fl[k] & (ENG | MED) for k in idx)
        tier = CERTAIN if listed else REVIEW
        self.emit(idx, "DOCTOR", tier, f"names:service_contact:{self.low[i]}", remember=listed)

    # -- list rules -------------------------------------------------------------------
    def list_pass(self) -> None:
        n, fl, shape, used = self.n, self.fl, self.shape, self.used
        for i in range(n):
            if used[i]:
                continue
            f = fl[i]
            s = shape[i]
            if s == INI:
                if i + 1 < n and not self.lower[i]:
                    self._initial_surname(i)
                continue
            if not f & LIST or not (self.shaped(i) or s == UP and i + 2 < n):
                if s in (CAP, UP) and i + 1 < n and self.text.startswith(",", self.toks[i].end) \
                        and self._last_first(i):
                    continue
                if s == CAP and not f & (NON | FOL | CLN | TITLE | REL | LBL | CRED):
                    if i + 2 < n and shape[i + 1] == INI and shape[i + 2] == CAP:
                        if self._unlisted_initial_name(i):
                            continue
                    if not self.toks[i].word.replace("’", "'").isascii():
                        self._accented(i)
                continue
            if f & SUR and i + 2 < n and self._last_first(i):
                continue
            if not self.shaped(i):
                continue
            if f & GIV and i + 1 < n and self._given_next(i):
                continue
            self._lone(i)

    def _last_first(self, i: int) -> bool:
        """``SMITH, JOHN C`` / ``Smith, John``: a surname, a comma, a given name, an initial."""
        shape, fl = self.shape, self.fl
        if self.gap(i).strip(" \t") != "," or "\n" in self.gap(i):
            return False
        j = i + 1
        if not fl[j] & GIV and shape[j] == shape[i] and self.name_like(i) and self.name_like(j) \
                and not fl[j] & STATE and not self.used[j]:
            idx = [i, j]
            if j + 1 < self.n and shape[j + 1] == INI and self.plain_gap(j) and "\n" not in self.gap(j):
                idx.append(j + 1)
            end = self.toks[idx[-1]].end
            if shape[idx[-1]] == INI and self.text.startswith(".", end):
                end += 1
            if _AGE_ID_AFTER_RE.match(self.text, end):
                # "Lab comment for Jablonski, Odalys (MRN 00230630)": LAST, FIRST before an identifier
                label = "DOCTOR" if self.credential_after(idx[-1]) else "PATIENT"
                self.emit(idx, label, CERTAIN, "names:last_first+identifier", remember=True)
                return True
        if not fl[j] & GIV or fl[j] & (NON | STATE) or shape[j] != shape[i] or shape[i] not in (CAP, UP, LOW):
            return False
        if not fl[i] & SUR:   # Wexley, Cornelius: an unlisted surname
            if fl[i] & (NON | FOL | CLN | TITLE | REL | LBL | CRED) or fl[j] & ENG or self.strict(i):
                return False
        if shape[i] == LOW and not self.lower[i]:
            return False
        idx = [i, j]
        middle = j + 1 < self.n and shape[j + 1] == INI and self.plain_gap(j) \
            and "\n" not in self.gap(j)
        if middle:
            idx.append(j + 1)
        if not middle and self.eponym_after(j):
            return False
        strict = self.strict(i)
        if middle:
            tier = CERTAIN
        elif strict or (fl[i] | fl[j]) & MED or fl[i] & fl[j] & ENG or not fl[i] & SUR:
            tier = REVIEW
        else:
            tier = CERTAIN
        if fl[i] & NON and not middle:
            return False
        if shape[i] == UP and not self.caps_line(i) and not middle:
            tier = REVIEW
        if tier == REVIEW and self.id_after(idx[-1]) and not (fl[i] | fl[j]) & MED:
            tier = CERTAIN   # "Wexley, Cornelius (MRN 3206731)"
        label = "DOCTOR" if self.credential_after(idx[-1]) else "PATIENT"
        self.emit(idx, label, tier, "names:last_first", remember=True)
        return True

    def _given_next(self, i: int) -> bool:
        """A given name followed by a capitalised word or an initial (``Anna S.``, ``Maria
        Okonkwo``, ``Mary A. Johnson``)."""
        fl, shape, n = self.fl, self.shape, self.n
        j = i + 1
        if not self.plain_gap(i) or self.used[j]:
            return False
        fj = fl[j]
        sj = shape[j]
        fi = fl[i]
        if sj == INI:
            dotted = self.toks[j].end < len(self.text) and self.text[self.toks[j].end] == "."
            if not dotted and j + 1 < n and shape[j + 1] == LOW:
                return False
            if fi & NON and not fi & MONTH:
                return False
            idx = [i, j]
            if j + 1 < n and self.plain_gap(j) and self.shaped(j + 1) and not fl[j + 1] & NON \
                    and (fl[j + 1] & LIST or dotted and not fl[j + 1] & (FOL | CLN | TITLE | CRED)):
                idx.append(j + 1)   # Mary A. Johnson, Osvaldo K. Oyelaran
            last = idx[-1]
            if self.eponym_after(last):
                self.emit(idx, "PATIENT", None, "", remember=False)
                return True
            if fi & MONTH or self.strict(i) or fi & ENG and self.sentence_start(i) and not (
                    len(idx) == 3 and fl[idx[2]] & SUR):
                tier = REVIEW
            else:
                tier = CERTAIN
            label = "DOCTOR" if self.credential_after(last) else "PATIENT"
            self.emit(idx, label, tier, "names:given+initial", remember=True)
            return True
        if not self.shaped(j) or fj & (NON | FOL | CLN | TITLE | CRED | REL) and not (fj & LIST and not fj & NON):
            return False
        if self.stops(j) or self.stops(i):
            return False   # "jessica lives", "she will self-inject": a verb, not a name
        if fi & NON and not fi & MONTH:
            return False
        idx = [i, j]
        if j + 1 < n and self.plain_gap(j) and self.shaped(j + 1) and fl[j + 1] & SUR \
                and not fl[j + 1] & (NON | FOL | CLN) and fj & LIST and not self.eponym_after(j + 1):
            idx.append(j + 1)   # Mary Ann Smith
        last = idx[-1]
        if self.eponym_after(last):
            self.emit(idx, "PATIENT", None, "", remember=False)
            return True
        strict = self.strict(i)
        start = self.sentence_start(i)
        if fj & LIST:
            if strict and not (fj & COMMON or self.person_context(i) or self.person_context(j)):
                return False   # MILES DAILY, will start
            if strict or fi & MONTH:
                tier = REVIEW
            elif start and fi & ENG and fj & ENG and not fj & COMMON:
                tier = REVIEW
            else:
                tier = CERTAIN
            source = "names:given+surname"
        else:
            if strict:
                if fi & ENG:
                    return False
                tier = REVIEW
            elif fi & MONTH:
                if start:
                    return False
                tier = REVIEW
            elif fi & ENG and start:
                tier = REVIEW
            else:
                tier = CERTAIN
            source = "names:given+capitalised"
        label = "DOCTOR" if self.credential_after(last) else "PATIENT"
        self.emit(idx, label, tier, source, remember=True)
        return True

    def _initial_surname(self, i: int) -> None:
        """``J. Smith``: an initial, a dot, a surname."""
        j = i + 1
        text = self.text
        if self.gap(i).rstrip(" \t") != "." or self.used[j] or not self.shaped(j):
            return
        fj = self.fl[j]
        if not fj & SUR or fj & NON:
            return
        if i > 0 and self.shape[i - 1] in (CAP, UP) and self.plain_gap(i - 1):
            return  # "Hep B. Smith" / handled by given+initial
        if i > 0 and text[self.toks[i].start - 1:self.toks[i].start] in ".-/":
            return
        if self.eponym_after(j) or fj & MED and self.strict(j):
            return
        tier = REVIEW if self.strict(j) else CERTAIN
        label = "DOCTOR" if self.credential_after(j) else "PATIENT"
        self.emit([i, j], label, tier, "names:initial+surname", remember=True)

    def _unlisted_initial_name(self, i: int) -> bool:
        """``Faina D. Yefremova``: capitalised word, initial, capitalised word, none listed as
        a non-name; review (an undotted initial only after a listed given name)."""
        j, k = i + 1, i + 2
        fk = self.fl[k]
        if fk & (NON | FOL | CLN | TITLE | CRED) or self.used[j] or self.used[k]:
            return False
        dotted = self.text.startswith(".", self.toks[j].end)
        if not (self.plain_gap(i) and self.plain_gap(j)) or "\n" in self.gap(i) + self.gap(j):
            return False
        if not dotted and not self.fl[i] & GIV:
            return False
        if self.eponym_after(k):
            return False
        label = "DOCTOR" if self.credential_after(k) else "PATIENT"
        tier = CERTAIN if dotted and self.id_after(k) else REVIEW   # "Ngozi W. Okafor, 80 yo"
        self.emit([i, j, k], label, tier, "names:capitalised+initial+capitalised",
                  remember=tier == CERTAIN)
        return True

    def _accented(self, i: int) -> None:
        """A capitalised word with non-ASCII letters that is in no list (``Krisztián
        Szöllösy``): in an English note most likely a name; review."""
        if self.eponym_after(i) or self.lower[i]:
            return
        idx = [i]
        k = i
        while k + 1 < self.n and len(idx) < 3 and self.plain_gap(k) and self.shape[k + 1] in (CAP, INI) \
                and not self.fl[k + 1] & (NON | FOL | CLN | TITLE | CRED) and not self.used[k + 1]:
            k += 1
            idx.append(k)
        if i > 0 and not self.used[i - 1] and self.shape[i - 1] == CAP and self.plain_gap(i - 1) \
                and not self.fl[i - 1] & (NON | FOL | CLN | TITLE | REL | LBL):
            idx.insert(0, i - 1)
        if self.shape[idx[-1]] == INI and len(idx) > 1 and not self.text.startswith(".", self.toks[idx[-1]].end):
            idx.pop()
        if self.eponym_after(idx[-1]):
            return
        label = "DOCTOR" if self.credential_after(idx[-1]) else "PATIENT"
        self.emit(idx, label, REVIEW, "names:accented_capitalised", remember=False)

    def stops(self, k: int) -> bool:
        """Token k ends a name being collected in text without capitals (``gonzalez
        agrees``, ``son david visits weekly``, ``dr jones will call``): a person's verb, a
        modal, an adverb of time or place, or an unlisted word ending in -ed, -ing or -ly."""
        if not self.strict(k):
            return False
        w = self.low[k]
        return w in R.NAME_STOP_WORDS or (not self.fl[k] & LIST and len(w) > 4
                                          and w.endswith(("ed", "ing", "ly")))

    def person_context(self, i: int) -> bool:
        """A word before or after token i that reads as a person (``seen by``, ``called``)."""
        return (i > 0 and self.low[i - 1] in _PERSON_BEFORE
                or i + 1 < self.n and self.low[i + 1] in _PERSON_AFTER)

    def _lone(self, i: int) -> None:
        """A single word in the surname or given-name list, tiered by the collision rules."""
        f = self.fl[i]
        if f & (NON | TITLE | REL | FOL):
            return   # ... and "Screening Test": a follower word is no name on its own
        if i + 1 < self.n and self.gap(i).startswith(":") and self.sentence_start(i):
            return  # "Lines:" at the start of a line is a heading
        kind = "surname" if f & SUR else "given"
        if self.eponym_after(i):
            self.used[i] = 1
            return
        # "Smith J." after a surname: take the initial too
        idx = [i]
        source = f"names:{kind}_list"
        strict = self.strict(i)
        eng_person = False
        if f & ENG and (strict or self.sentence_start(i)):
            if not (strict and not f & MED and i + 1 < self.n and self.low[i + 1] in _ENG_PERSON_AFTER
                    and self.plain_gap(i) and self.low[i] not in R.NAME_STOP_WORDS):
                return
            eng_person = True   # "kim saw the patient": a person's verb after it; review
        if strict and (f & MED or "-" in self.low[i] or not self.person_context(i)):
            return  # no capitals to go by: only with a person word next to it
        if f & MED and i + 1 < self.n and self.toks[i + 1].word[0].isdigit():
            return  # Apgar 8/9, Gleason 7: a score
        if self._key(i) in R.TEST_EPONYMS:
            return  # "anti-K (Kell)", "Holter not needed", "Morse fall score": a test, not a person
        if f & (ENG | MED) and i + 1 < self.n and self.shape[i + 1] == UP and not self.strict(i) \
                and self.plain_gap(i) and not self.fl[i + 1] & (CRED | LIST) \
                and self.low[i + 1] not in _SUFFIXES and self.low[i + 1] not in R.ID_LABEL_WORDS:
            return  # "Medtronic Azure XT DR": a product and its model code
        if self.clinical_after(i):
            tier, source = REVIEW, source + "+clinical_noun"
        elif eng_person:
            tier, source = REVIEW, source + "+person_verb"
        elif strict:
            tier = REVIEW
            source += "+no_case_evidence"
        elif f & ENG:
            tier, source = REVIEW, source + "+english_collision"
        elif f & (MED | STATE):
            tier, source = REVIEW, source + ("+medical_collision" if f & MED else "+state_name")
        else:
            tier = CERTAIN
            if f & SUR and i + 1 < self.n and self.shape[i + 1] == INI and self.plain_gap(i) \
                    and self.text.startswith(".", self.toks[i + 1].end):
                idx.append(i + 1)   # Smith J.
        p = i - 1
        if f & SUR and tier == CERTAIN and p >= 0 and not self.used[p] and self.shape[p] == CAP \
                and not self.fl[p] & (NON | FOL | CLN | TITLE | REL | LBL | CRED | ENG | MED) \
                and all(c in _SPACES for c in self.gap(p)):
            idx.insert(0, p)   # Tilly Nicholson: an unlisted capitalised word before a surname
            source += "+preceding_word"
        label = "DOCTOR" if self.credential_after(idx[-1]) else "PATIENT"
        self.emit(idx, label, tier, source, remember=False)

    # -- document consistency ---------------------------------------------------------
    def consistency_pass(self) -> None:
        """Words of names found with high confidence are certain elsewhere too; a review
        candidate made only of such words becomes certain."""
        if not self.found:
            return
        found, used, shape = self.found, self.used, self.shape
        for a, b, idx in self.reviewed:
            if all(shape[k] == INI or self._key(k) in found for k in idx):
                for m in range(a, b):
                    sp = self.spans[m]
                    self.spans[m] = Span(sp.start, sp.end, sp.label, CERTAIN,
                                         sp.source + "+document_consistency")
        for i in range(self.n):
            if used[i] or shape[i] in (INI, OTHER):
                continue
            hit = found.get(self._key(i))
            if hit is None:
                continue
            if shape[i] == LOW and not self.lower[i]:
                continue
            if self.eponym_after(i):
                continue
            label, role = hit
            if self.fl[i] & ENG and self.sentence_start(i) and (
                    role == "giv" or i + 1 < self.n and self.low[i + 1] in R.VERB_READING_NEXT):
                continue
            self.emit([i], label, CERTAIN, "names:document_consistency", remember=False)

    # -- log-ins made from a name ----------------------------------------------------------
    def username_pass(self) -> None:
        """A lower-case word that is a name found in this note plus a few letters or digits
        (``Gideon R. Asamoah-Brandt, MD (gasamoahb)``, ``Protocol tech: boosterhuis`` after
        ``Bram Oosterhuis``, ``Entered by kosei-tutu`` after ``Kwabena Osei-Tutu``) is that
        person's log-in: USERNAME. Not in lower-case notes, not inside e-mail addresses."""
        if self.lower_doc:
            return
        parts: set[str] = set()
        text = self.text
        for sp in self.spans:
            if sp.tier != CERTAIN or sp.label not in ("PATIENT", "DOCTOR"):
                continue
            for word in text[sp.start:sp.end].split():
                word = _strip_accents(word.lower().replace("’", "").replace("'", "").rstrip(".,"))
                for part in {word, word.replace("-", "")} | set(word.split("-")):
                    if len(part) >= 4 and part.isalpha():
                        parts.add(part)
        if not parts:
            return
        toks, used, fl = self.toks, self.used, self.fl
        shortest = min(len(p) for p in parts)
        for k, w in enumerate(self.low):
            if len(w) <= shortest or used[k] or fl[k] & NON or not w[0].isalpha():
                continue
            tok = toks[k]
            if not tok.word.islower():
                continue
            bare = w.replace("-", "")
            if not bare.isascii():
                bare = _strip_accents(bare)
            if not any(p in bare and len(bare) - len(p) <= 3 for p in parts):
                continue
            if text[tok.start - 1:tok.start] in "@./" and tok.start or text[tok.end:tok.end + 1] in ("@", ".", "/") \
                    and text[tok.end + 1:tok.end + 2].isalnum():
                continue   # inside an e-mail address, a URL or a path
            if bare not in parts:
                used[k] = 1
                self.spans.append(Span(tok.start, tok.end, "USERNAME", CERTAIN, "names:username_from_name"))

    # -- professions ------------------------------------------------------------------
    def profession_pass(self) -> None:
        """Occupations: a professions-list phrase with context, and after ``retired`` /
        ``former`` / ``works as a`` a short noun phrase ending in an occupational suffix."""
        low, fl, n = self.low, self.fl, self.n
        by_first = self.lex._prof_by_first
        done = bytearray(n)
        for i in range(n):
            if fl[i] & PROF and not self.used[i] and not done[i]:
                for phrase in by_first[low[i]]:
                    m = len(phrase)
                    if tuple(low[i:i + m]) != phrase:
                        continue
                    end_i = i + m - 1
                    start_i = self._profession_left(i)
                    tier = self._profession_tier(start_i, end_i)
                    if tier:
                        for k in range(start_i, end_i + 1):
                            done[k] = 1
                        self.spans.append(Span(self.toks[start_i].start, self.toks[end_i].end,
                                               "PROFESSION", tier, "names:profession:list"))
                    break
        for k in range(n):
            w = low[k]
            if w in R.PROFESSION_OPENERS or w == "as" and k > 0 and low[k - 1] in R.PROFESSION_CONTEXT:
                self._profession_run(k, done)

    def _profession_run(self, k: int, done: bytearray) -> None:
        low, n = self.low, self.n
        j = k + 1
        while j < n and low[j] in ("a", "an", "as") and self.plain_gap(j - 1, allow_newline=True):
            j += 1
        run: list[int] = []
        while j < n and len(run) < 4 and self.plain_gap(j - 1, allow_newline=True) and not done[j]:
            w = low[j]
            if not self.toks[j].word.replace("-", "").isalpha() or self.fl[j] & NON \
                    or w in R.PROFESSION_STOP or self.shape[j] == CAP and not self.caps_line(j):
                break
            run.append(j)
            j += 1
        while run:
            w = low[run[-1]]
            if (w.endswith(R.PROFESSION_SUFFIXES) or self.fl[run[-1]] & PROF) and w not in R.NOT_PROFESSIONS:
                break
            run.pop()
        if run:
            for m in run:
                done[m] = 1
            self.spans.append(Span(self.toks[run[0]].start, self.toks[run[-1]].end, "PROFESSION",
                                   CERTAIN, f"names:profession:after_{low[k]}"))

    def _profession_left(self, i: int) -> int:
        """Extend an occupation over the words before it (``line cook``, ``piano teacher``)."""
        k = i
        while k > 0 and i - k < 3 and self.plain_gap(k - 1, allow_newline=True):
            w, s = self.low[k - 1], self.shape[k - 1]
            if s not in (LOW, UP) or s == UP and not self.caps_line(k - 1) or self.fl[k - 1] & NON \
                    or w in R.PROFESSION_CONTEXT or w in R.PROFESSION_STOP:
                break
            k -= 1
        return k

    def _profession_tier(self, i: int, end_i: int) -> str | None:
        low, text = self.low, self.text
        if end_i + 2 < self.n and low[end_i + 1] == "by" and low[end_i + 2] == "trade":
            return CERTAIN
        k = i - 1
        steps = 0
        while k >= 0 and steps < 5:
            g = text[self.toks[k].end:self.toks[k + 1].start]
            if any(c in ".;" for c in g) or g.count("\n") > 1:
                break   # one line break inside a sentence is fine ("a 68 yo\ncommercial pilot")
            w = low[k]
            if w in R.PROFESSION_CONTEXT or w.endswith("-year-old") or w.endswith("-yr-old") \
                    or w in ("o", "old") and k > 0 and low[k - 1] in ("y", "year", "yr"):
                return CERTAIN
            if k == i - 1 and w.isdigit() and len(w) <= 3 and "," in g and k > 0 \
                    and "," in self.gap(k - 1) and self.used[k - 1]:
                return CERTAIN   # "Rutendo Mapfumo, 54, high school chemistry teacher"
            k -= 1
            steps += 1
        if i >= 2 and low[i - 1] in ("a", "an"):
            if low[i - 2] == "as":
                return CERTAIN
            if low[i - 2] in ("is", "was"):
                # "he is a plumber", "Father Marcus Clarke is a firefighter": a person subject
                subj = i - 3
                return CERTAIN if subj >= 0 and (low[subj] in R.PROFESSION_SUBJECTS or self.used[subj]) \
                    else REVIEW
            if self.gap(i - 2).strip(" \t") == "," and self.used[i - 2]:
                return CERTAIN   # "her grandson Mateus Lund, a civil engineer"
        return None


def detect(doc: Document) -> Iterable[Span]:
    """Find names and occupations in ``doc``.

    Args:
        doc: the note (:class:`~deid_core.document.Document`).

    Returns:
        A list of candidate spans with labels PATIENT, DOCTOR, USERNAME or PROFESSION (and
        HOSPITAL for a hospital named after a person, ``Johns Hopkins``), tiers
        ``certain`` or ``review``, sources ``names:<rule>[:<context word>]``; they may overlap
        (the resolver merges them). Titles, labels and credentials are outside the spans.

    Raises:
        FileNotFoundError: if the surname or given-name list is missing.
    """
    if not doc.tokens:
        return []
    scan = _Scan(doc, lexicon())
    scan.institution_pass()
    scan.context_pass()
    scan.head_pass()
    scan.list_pass()
    scan.consistency_pass()
    scan.username_pass()
    scan.profession_pass()
    return scan.spans
