"""The note being analysed, with lazily computed views shared by all detectors.

:class:`Document` is also the one per-note state of letter case: whether capitals are evidence
of a name in this note (:attr:`Document.lower_note`, :attr:`Document.caps_note`,
:meth:`Document.caps_line`) and whether the note is mostly capitals or mostly lower case by its
share of capital letters (:attr:`Document.mostly_caps`, :attr:`Document.mostly_lower`). The name
and the place detectors read these; neither decides on its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from .textview import ascii_twin, plain_ascii

#: A word token: letters/digits joined by internal apostrophes (' and U+2019) or hyphens,
#: so ``O'Brien``, ``O’Sullivan-Reyes`` and ``Nguyễn`` are one token each. (Speed: the runs
#: are possessive, ``++``/``*+``: a letter run never gives a letter back, as no apostrophe or
#: hyphen could follow it inside the run, so the matches are those of the greedy form.)
WORD_RE = re.compile(r"[^\W_]++(?:['’\-][^\W_]++)*+")
_WORD_RE_ASCII = ascii_twin(WORD_RE)

#: Letter case of a word token (:func:`word_case`): not a plain word (a digit, a lower-case
#: first letter before capitals as in ``iPhone``, ``Roux-en-Y``), Title-case (``McDonald`` too),
#: ALL CAPS, a single capital letter (an initial), lower case.
OTHER, CAP, UP, INI, LOW = 0, 1, 2, 3, 4
#: The first letter of each line (after bullets, dashes and digits).
_LINE_START_RE = re.compile(r"(?m)^[^\w\n]*(?:\d[^\w\n]*)*([^\W\d_])")
_CASES: dict[str, int] = {}
#: How many characters :attr:`Document.mostly_caps` and :attr:`Document.mostly_lower` read (the
#: note's start), and their shares of capitals among the letters there.
CASE_SAMPLE, MOSTLY_CAPS, MOSTLY_LOWER = 4000, 0.6, 0.02
_ASCII_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))
_ASCII_UPPER = bytes(range(65, 91))
_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]")


def letters_upper(s: str) -> tuple[int, int]:
    """How many characters of ``s`` are letters (``str.isalpha``) and how many capitals
    (``str.isupper``): the ASCII ones counted by deleting ASCII letters from its bytes (an ASCII
    character is a letter or a capital exactly when it is one of A-Z, a-z), the few others one by
    one; the same counts as a loop over every character, at C speed."""
    b = s.encode("ascii", "ignore")
    n = len(b)
    letters = n - len(b.translate(None, _ASCII_LETTERS))
    upper = n - len(b.translate(None, _ASCII_UPPER))
    if n < len(s):
        others = _NON_ASCII_RE.findall(s)
        letters += sum(map(str.isalpha, others))
        upper += sum(map(str.isupper, others))
    return letters, upper


def word_case(w: str) -> int:
    """The case of a word token: ``OTHER``, ``CAP``, ``UP``, ``INI`` or ``LOW``.

    Apostrophes and hyphens are ignored (``O'Brien`` is ``CAP``, ``o'neil`` ``LOW``); a
    hyphenated word is ``CAP`` only when every part is capitalised and longer than one letter
    (``Ashdown-Reyes``; ``X-ray`` and ``Roux-en-Y`` are ``OTHER``); a word with a digit is
    ``OTHER``. A one-letter word is ``INI`` when a capital, else ``LOW``.
    """
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
            return OTHER
        return CAP
    return OTHER


class Token(NamedTuple):
    """A word token: ``text[start:end] == word``, offsets in characters (a named tuple: one is
    built for every word of every note, so it must be cheap; a frozen dataclass took twice as
    long)."""

    start: int
    end: int
    word: str


_new_token = tuple.__new__   # builds a Token from a tuple without the keyword-argument call


def _case_of(w: str) -> int:
    """:func:`word_case` of ``w``, remembered in ``_CASES`` (up to 200,000 words)."""
    c = word_case(w)
    if len(_CASES) < 200_000:
        _CASES[w] = c
    return c


@dataclass(frozen=True)
class Known:
    """Identifiers the caller already knows for this patient; every occurrence is certain.

    Attributes:
        names: full names as written anywhere, e.g. ``("John C Smith",)``; each name's
            parts, initials and reordered forms (``SMITH, JOHN``) are found too.
        mrns: medical record numbers, e.g. ``("0045-2231",)``; matched ignoring separators.
        addresses: street addresses, e.g. ``("12 Elm Street, Springfield, IL 62704",)``.
        birth_dates: birth dates in any format the date detector reads, e.g. ``("1950-03-02",)``.
    """

    names: tuple[str, ...] = ()
    mrns: tuple[str, ...] = ()
    addresses: tuple[str, ...] = ()
    birth_dates: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("names", "mrns", "addresses", "birth_dates"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise TypeError(f"Known.{name} must be a sequence of strings, not a single string")
            object.__setattr__(self, name, tuple(str(v) for v in value if str(v).strip()))

    def __bool__(self) -> bool:
        return bool(self.names or self.mrns or self.addresses or self.birth_dates)


@dataclass
class Document:
    """A note and cached views of it.

    Attributes:
        text: the original note; never modified.
        known: identifiers the caller supplied (:class:`Known`).
    """

    text: str
    known: Known = field(default_factory=Known)
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def memo(self, key: str, build):
        """A result shared by the detectors of this note: ``build(self)`` on the first call
        for ``key``, the same object afterwards (e.g. the name rules' scan, which the name
        and the profession detectors both read)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = build(self)
            return value

    def release(self) -> None:
        """Forget the shared results of :meth:`memo` (the name rules' scan refers back to this
        document, a cycle only the garbage collector would free): call it when every detector
        has run, so the note's tokens and scans are freed at once."""
        self._memo.clear()

    @cached_property
    def tokens(self) -> list[Token]:
        """Word tokens in text order (see :data:`WORD_RE`; its ASCII twin on a plain ASCII note,
        :func:`~deid_core.textview.plain_ascii`)."""
        new, tok, text = _new_token, Token, self.text
        rx = _WORD_RE_ASCII if plain_ascii(text) else WORD_RE
        return [new(tok, (m.start(), m.end(), m.group())) for m in rx.finditer(text)]

    @cached_property
    def words_lower(self) -> list[str]:
        """Per token, its word lower-cased (read by the ids and the name detectors; do not
        modify the list)."""
        return [t.word.lower() for t in self.tokens]

    @cached_property
    def cases(self) -> list[int]:
        """Per token, its :func:`word_case` (``OTHER``, ``CAP``, ``UP``, ``INI``, ``LOW``)."""
        known = _CASES.get
        return [c if (c := known(t.word)) is not None else _case_of(t.word) for t in self.tokens]

    @cached_property
    def lower_note(self) -> bool:
        """The note is written in lower case, so capitals are no evidence of a name: no
        capital at all; or at most one capitalised word (Title-case, ALL CAPS or an initial)
        in 25 lower-case words; or at most one in 6 when at least 4 lines, and 5 times as many
        as the rest, start with a lower-case letter (``pt ngozi rosenthal ... University
        Hospital``: a few proper nouns typed in capitals). A note that is all capitals is not."""
        text = self.text
        if text == text.lower():
            return True
        if text == text.upper():
            return False
        cases = self.cases
        capped = cases.count(CAP) + cases.count(UP) + cases.count(INI)
        lows = cases.count(LOW)
        if capped * 25 <= lows:
            return True
        if capped * 6 <= lows:
            starts = _LINE_START_RE.findall(text)
            low_starts = sum(1 for c in starts if c.islower())
            return low_starts >= 4 and low_starts >= 5 * (len(starts) - low_starts)
        return False

    @cached_property
    def _letters_upper(self) -> tuple[int, int]:
        return letters_upper(self.text[:CASE_SAMPLE])

    @cached_property
    def mostly_caps(self) -> bool:
        """Over 60% of the letters of the note's first 4,000 characters are capitals (an ALL-CAPS
        note, as the place and facility rules read it)."""
        letters, upper = self._letters_upper
        return letters > 0 and upper > MOSTLY_CAPS * letters

    @cached_property
    def mostly_lower(self) -> bool:
        """Under 2% of the letters of the note's first 4,000 characters are capitals (an
        all-lower-case note, as the place and facility rules read it)."""
        letters, upper = self._letters_upper
        return letters > 0 and upper < MOSTLY_LOWER * letters

    @cached_property
    def caps_note(self) -> bool:
        """The whole note is in capitals (``text == text.upper()``) and is not a
        :attr:`lower_note` (a note with no letters at all is neither)."""
        return not self.lower_note and self.text == self.text.upper()

    @cached_property
    def _caps_lines(self) -> dict[int, bool]:
        return {}

    def caps_line(self, pos: int) -> bool:
        """The line holding character offset ``pos`` is written in capitals: always in a
        :attr:`caps_note`, never in a :attr:`lower_note`, else ``line == line.upper()``
        (memoised per line)."""
        if self.caps_note:
            return True
        if self.lower_note:
            return False
        text = self.text
        ls = text.rfind("\n", 0, pos) + 1
        memo = self._caps_lines
        c = memo.get(ls)
        if c is None:
            le = text.find("\n", pos)
            line = text[ls:le if le >= 0 else len(text)]
            c = memo[ls] = line == line.upper()
        return c
