"""Word facts for the name rules: one :class:`Word` flag set per lower-case word.

:class:`Lexicon` looks a word up once in every list the rules use (Census surnames and given
names, MeSH and English collisions, eponym followers, clinical nouns, titles, relations,
credentials, label words, professions, U.S. states, non-names) and memoises the answer as a
bit mask. The rules test the masks with the plain ``int`` constants below (``SUR``,
``GIV`` ...), which equal the :class:`Word` members: an ``int`` is much faster than an
``enum`` in the per-token loops.
"""
from __future__ import annotations

import enum
import math
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ... import knowledge, lists
from . import words as W


class Word(enum.IntFlag):
    """Facts about a lower-case word."""

    SUR = 1             #: in the Census 2000 surname list
    GIV = 2             #: in the Census 1990 given-name lists
    MED = 4             #: a name that is also a medical word (MeSH, medical_eponyms.txt)
    ENG = 8             #: a name that is also an ordinary English word
    NON = 16            #: never a name without context (non_names.txt, note headings, months)
    FOL = 32            #: an eponym follower (``syndrome``, ``palsy``)
    CLN = 64            #: a clinical noun (``catheter``)
    TTL_D = 128         #: a title of a care-team member (``Dr``, ``RN``)
    TTL_P = 256         #: another title (``Mrs``, ``Capt``)
    REL = 512           #: a relation word (``wife``)
    CRED = 1024         #: a credential (``MD``)
    MONTH = 2048        #: a month name or abbreviation
    LBL = 4096          #: the last word of a label phrase (``signed by``)
    PROF = 8192         #: the first word of an occupation phrase
    STRONG = 16384      #: a strong title: any name-shaped word after it is a name
    COMMON = 32768      #: a surname with >= :data:`COMMON_SURNAME_BEARERS` bearers
    STATE = 65536       #: a U.S. state name
    CUE = 131072        #: a word a context rule starts at that no flag above marks: the last
    #: word of a relation phrase (``other``), an initials label (``transcribed``), a sign-off
    #: (``regards``, also before a hyphen: ``thx-oyelaran``), ``ph`` (of ``Ph.D.``)
    ORD = 262144        #: an ordinary word by knowledge, not name-shaped on its own:
    #: :func:`ordinary_word` (``given``, ``restless``, ``kcl``; not ``mark``, ``baker``)


SUR, GIV, MED, ENG, NON, FOL, CLN = (int(Word.SUR), int(Word.GIV), int(Word.MED), int(Word.ENG),
                                     int(Word.NON), int(Word.FOL), int(Word.CLN))
TTL_D, TTL_P, REL, CRED, MONTH, LBL, PROF, STRONG = (
    int(Word.TTL_D), int(Word.TTL_P), int(Word.REL), int(Word.CRED), int(Word.MONTH),
    int(Word.LBL), int(Word.PROF), int(Word.STRONG))
COMMON, STATE, CUE, ORD = int(Word.COMMON), int(Word.STATE), int(Word.CUE), int(Word.ORD)
LIST = SUR | GIV
TITLE = TTL_D | TTL_P

#: Surnames with at least this many Census 2000 bearers are "common": at the start of a
#: sentence ``Mary Smith`` is a name even though both words are also English words.
COMMON_SURNAME_BEARERS = 20_000


#: The Zipf value a clinical short form counts as when English gives it less (``kcl``,
#: ``bp``: a name must be about as common as a word used once in 10,000 to beat it).
ABBREVIATION_ZIPF = 4.0
#: People per billion that one Census 2010 bearer or one living SSA bearer stands for (the
#: U.S. population of 2010, 308.7 million), so that a name's frequency reads on the Zipf scale.
_PER_BILLION = 1e9 / 308.7e6


def name_zipf(word: str) -> float:
    """How common ``word`` is as a U.S. name on the Zipf scale: log10 of its bearers per
    billion people, the larger of its Census 2010 surname count and its SSA living given-name
    count (``smith`` 6.9, ``mark`` 6.6, ``low`` 4.6, ``given`` 4.1); 0.0 when neither list
    has it. Sources: ``lists/surnames_census2010.tsv``, ``lists/given_names_ssa.tsv``."""
    g = knowledge.given_name(word)
    m = max(knowledge.surname_count(word), g.living if g else 0)
    return math.log10(m * _PER_BILLION) if m else 0.0


def ordinary_word(word: str) -> bool:
    """Whether ``word`` (lower case) is an ordinary word and not name-shaped on its own: an
    English word of Zipf >= :data:`deid_core.knowledge.ZIPF_COMMON` or a clinical short form
    (counted at least :data:`ABBREVIATION_ZIPF`), unless it is more common as a name
    (:func:`name_zipf`) than as that word (``given``, ``low``, ``restless``, ``kcl``, ``will``
    are ordinary; ``mark``, ``grace``, ``baker``, ``ng`` are names)."""
    z = knowledge.zipf(word)
    if knowledge.is_clinical_abbreviation(word):
        z = max(z, ABBREVIATION_ZIPF)
    elif z < knowledge.ZIPF_COMMON:
        return False
    return name_zipf(word) <= z


def _lower_set(getter: Callable[[], Iterable[str]]) -> frozenset[str]:
    """A word list, lower-cased, as a frozen set (a missing list file is an error)."""
    return frozenset(w.lower() for w in getter())


def _handwritten(name: str) -> frozenset[str]:
    return _lower_set(lambda: lists.handwritten(name))


def strip_accents(word: str) -> str:
    """``word`` without combining accents (``josé`` -> ``jose``); an ASCII word as it is."""
    if word.isascii():
        return word   # (no accents: its NFD form is itself)
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@dataclass
class Lexicon:
    """Word sets the name rules use, all lower-case.

    Attributes:
        surnames, given: Census name lists (``lists.surnames()``, ``lists.given_names()``).
        common_surnames: surnames with >= :data:`COMMON_SURNAME_BEARERS` bearers.
        medical, english: names that are also medical words / ordinary English words.
        followers, clinical: eponym followers / clinical nouns.
        doctor_titles, patient_titles, strong_titles, relations, credentials, non_names:
            context words.
        professions: occupation phrases as word tuples.
        states: U.S. state names; departments: one-word hospital services (``cardiology``).
        labels: label phrases ``(words, label, needs_colon)``.
        abbreviations: clinical abbreviations and device eponyms (also in ``non_names``).
    """

    surnames: frozenset[str]
    given: frozenset[str]
    common_surnames: frozenset[str] = frozenset()
    medical: frozenset[str] = frozenset()
    english: frozenset[str] = frozenset()
    followers: frozenset[str] = frozenset()
    clinical: frozenset[str] = frozenset()
    doctor_titles: frozenset[str] = frozenset()
    patient_titles: frozenset[str] = frozenset()
    strong_titles: frozenset[str] = frozenset()
    relations: frozenset[str] = frozenset()
    credentials: frozenset[str] = frozenset()
    non_names: frozenset[str] = frozenset()
    professions: frozenset[tuple[str, ...]] = frozenset()
    states: frozenset[str] = frozenset()
    departments: frozenset[str] = frozenset()
    labels: tuple = ()
    abbreviations: frozenset[str] = frozenset()
    _memo: dict = field(default_factory=dict, repr=False)
    labels_by_last: dict = field(default_factory=dict, repr=False)
    professions_by_first: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        by_last: dict[str, list] = {}
        for words, label, colon in self.labels:
            by_last.setdefault(words[-1], []).append((words, label, colon))
        #: last word of a label phrase -> its phrases ``(words, label, colon)``, longest first
        self.labels_by_last = {k: sorted(v, key=lambda e: -len(e[0])) for k, v in by_last.items()}
        by_first: dict[str, list] = {}
        for phrase in self.professions:
            by_first.setdefault(phrase[0], []).append(phrase)
        #: first word of an occupation -> its phrases (word tuples), longest first
        self.professions_by_first = {k: sorted(v, key=len, reverse=True) for k, v in by_first.items()}

    @classmethod
    def from_lists(cls) -> "Lexicon":
        """Build from :mod:`deid_core.lists` (derived and hand-written lists).

        Raises:
            FileNotFoundError: if a list file is missing.
        """
        counts = lists.surnames()
        return cls(
            surnames=frozenset(counts),
            common_surnames=frozenset(w for w, c in counts.items() if c >= COMMON_SURNAME_BEARERS),
            given=frozenset(lists.given_names()),
            medical=_lower_set(lists.medical_collisions) | W.MEDICAL_EPONYMS,
            english=_lower_set(lists.english_collisions),
            followers=_lower_set(lists.eponym_followers),
            clinical=_lower_set(lists.clinical_nouns),
            doctor_titles=W.DOCTOR_TITLES,
            patient_titles=W.PATIENT_TITLES,
            strong_titles=W.STRONG_TITLES,
            relations=W.RELATIONS,
            credentials=W.CREDENTIALS,
            non_names=W.NON_NAMES | {h for h in _handwritten("note_headings") if " " not in h}
            | lists.abbreviations("clinical"),
            abbreviations=lists.abbreviations("clinical"),
            professions=frozenset(tuple(p.split()) for p in _handwritten("professions") if p.strip()),
            states=_lower_set(lambda: [w for w in lists.us_states() if " " not in w]),
            departments=frozenset(d for d in _handwritten("departments") if " " not in d),
            labels=W.LABELS,
        )

    def facts(self, low: str) -> Word:
        """:meth:`flags` as a :class:`Word` flag set (for reading; the rules use the int)."""
        return Word(self.flags(low))

    def flags_of(self, lows: list[str]) -> list[int]:
        """``[self.flags(w) for w in lows]``, reading the memo first (one call less a word)."""
        known, flags = self._memo.get, self.flags
        return [f if (f := known(w)) is not None else flags(w) for w in lows]

    def flags(self, low: str) -> int:
        """Bit mask (:class:`Word` values) of facts about a lower-case word (memoised). A
        possessive ``'s`` is ignored; apostrophes and accents are dropped for the list
        look-ups; a hyphenated word is in a name list when either part is."""
        f = self._memo.get(low)
        if f is not None:
            return f
        cue = CUE if (low in W.RELATION_PHRASE_ENDS or low in W.INITIALS_LABELS or low == "ph"
                      or low.partition("-")[0] in W.SIGN_OFFS) else 0
        key = low.replace("’", "'")
        if key.endswith("'s") and len(key) > 3:
            key = key[:-2]
        if "'" in key and key.rsplit("'", 1)[1] in W.CONTRACTIONS:
            f = NON | cue  # I'm, don't, we'll: not names
            self._memo[low] = f
            return f
        f = cue
        forms = {key}
        if not key.isascii():
            forms.add(strip_accents(key))
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
        if key in W.MONTHS:
            f |= MONTH | NON
        if key in self.states:
            f |= STATE
        if low in self.followers or (not f & LIST and len(key) > 5
                                     and key.endswith(W.FOLLOWER_SUFFIXES)):
            f |= FOL
        if low in self.clinical:
            f |= CLN
        if low in self.doctor_titles:
            f |= TTL_D
        elif low in self.patient_titles:
            f |= TTL_P
        if low in self.strong_titles:
            f |= STRONG
        if low in self.relations:
            f |= REL
        if low in self.credentials:
            f |= CRED
        if low in self.labels_by_last:
            f |= LBL
        if low in self.professions_by_first:
            f |= PROF
        if key.isalpha() and ordinary_word(key):
            f |= ORD
        if len(self._memo) < 200_000:
            self._memo[low] = f
        return f


_LEXICON: Lexicon | None = None


def lexicon() -> Lexicon:
    """The shared :class:`Lexicon`, built from the word lists on first use.

    Raises:
        FileNotFoundError: if a list file is missing.
    """
    global _LEXICON
    if _LEXICON is None:
        _LEXICON = Lexicon.from_lists()
    return _LEXICON


def set_lexicon(lex: Lexicon | None) -> None:
    """Replace the shared lexicon (``None``: rebuild from the lists on next use)."""
    global _LEXICON
    _LEXICON = lex
