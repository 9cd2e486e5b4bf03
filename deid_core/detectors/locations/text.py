"""Words, capitalised runs and small text helpers shared by the LOCATION rules (no word lists).

A note is scanned once for *capitalised runs* (:data:`RUN_RE`): up to 12 Title-case or
capitalised words joined by single spaces, one line break, ``and``/``&``/``of``/``for``/``the``.
Each run is a :class:`Run` of :class:`Word` objects with absolute character offsets; the rules
in the sibling modules look up phrases inside runs and the words just before a position.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ... import lists
from ...document import Document
from ..patterns import alternation as _alternation

# --------------------------------------------------------------------------------------------
# Regex pieces. Every pattern is linear: words have bounded length, runs a bounded number of
# words, and a run can only start where no word character, apostrophe or hyphen precedes it.
# --------------------------------------------------------------------------------------------

UP = "A-ZÀ-ÖØ-Þ"
#: A capitalised word: Title case or capitals, with internal apostrophes and hyphens, or one of
#: a few abbreviations with a period (``St.``, ``Mt.``, ``Med.``).
CAPW = (rf"(?:(?:St|ST|Mt|MT|Ft|FT|Med|MED|Gen|GEN|Univ|UNIV|Hosp|HOSP|Ctr|CTR)\.|"
         rf"[{UP}][^\W\d_]{{0,30}}(?:['’][^\W\d_]{{1,20}}){{0,2}}"
         rf"(?:-[^\W\d_]{{1,20}}(?:['’][^\W\d_]{{1,20}}){{0,2}}){{0,3}}(?:['’]s?)?)(?![^\W_])")
SP = r"[ \t]+"
#: Spaces, or one line break with spaces around it.
GAP = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
DIRECTION = r"(?:North|South|East|West|NORTH|SOUTH|EAST|WEST)"
_START = r"(?<![\w'’.-])"
#: Speed: a look-ahead for a capital before the look-behind of :data:`_START` (every word of
#: :data:`CAPW` starts with one), so the scan passes other characters at once; it matches
#: nothing itself, so the runs are the same. The same idea below: a pattern that starts with a
#: look-behind either takes such a guard or consumes its first character before the look-behind
#: (``\d(?<![\w.]\d)\d?`` for ``(?<![\w.])\d{1,2}``), which lets the regex engine skip to the
#: characters that can start a match.
_CAP_GUARD = f"(?=[{UP}])"
#: A capitalised run: capitalised words joined by one or two spaces, one line break, ``and``,
#: ``&``, ``of``, ``for``, ``the`` (at most 12 words; a longer run continues as the next run).
#: Tabs and wider gaps separate table columns, so they end a run.
_RUN_RE = re.compile(
    rf"{_CAP_GUARD}{_START}{CAPW}(?:(?:(?: (?:and|&|of|for|the|de|del|la|du|van|von)){{1,2}} "
    rf"| ?& ?| {{1,2}}| *\r?\n[ \t]*){CAPW}){{0,11}}")
_RUN_WORD_RE = re.compile(r"[^\s&]+|&")
LOWER_WORD = r"[a-z][a-z'’-]{0,30}"


#: The only non-ASCII characters that ``re.IGNORECASE`` matches to an ASCII letter (``İ``, ``ı``
#: to ``i``, ``ſ`` to ``s``, the Kelvin sign to ``k``).
_CASE_FOLDS = "\u0130\u0131\u017f\u212a"


def may_hold(text: str, low: str, words: Iterable[str]) -> bool:
    """False only when no case-insensitive pattern needing one of the lower-case ASCII ``words``
    can match in ``text`` (``low`` is ``text.lower()``): a cheap test before a slow scan."""
    return any(w in low for w in words) or any(c in text for c in _CASE_FOLDS)


def note_may_hold(n: "Note", words: Iterable[str]) -> bool:
    """``may_hold(n.text, n.low, words)``, its case-fold test made once per note (``n.folds``)."""
    return n.folds or any(w in n.low for w in words)


def after_words(use: str) -> str:
    """Regex source (no groups) of the ``lists/quantity_after_words.txt`` words of ``use`` (``room``,
    ``ward``, ``ward_staff``): the ``use`` ones as whole words, the ``use_prefix`` ones as prefixes."""
    whole = lists.tagged("quantity_after_words.txt", use)
    prefix = lists.tagged("quantity_after_words.txt", use + "_prefix")
    return "|".join(p for p in ((r"(?:" + _alternation(whole, SP) + r")\b") if whole else "",
                                _alternation(prefix, SP)) if p)


def first_guard(alt: str) -> str:
    """The look-ahead for the first characters that :func:`alternation` puts before its
    entries (``(?=[ABC])``), ``""`` when it has none: put before a look-behind that precedes the
    alternation, it lets the scan skip the other characters (it matches nothing itself)."""
    m = re.match(r"\(\?=\[(?:[^\]\\]|\\.)*\]\)", alt)
    return m.group() if m else ""


def alternation(words: Iterable[str], gap: str = GAP) -> str:
    """Regex alternation of literal phrases, longest first, a space inside a phrase matching
    ``gap`` (:func:`deid_core.detectors.patterns.alternation` with the locations' default gap)."""
    return _alternation(words, gap)





class Word(NamedTuple):
    """A word of a capitalised run: offsets, text, and whether a line break precedes it (a
    named tuple: built once per word of every run, so it must be cheap)."""

    start: int
    end: int
    text: str
    nl: bool = False


class Run(NamedTuple):
    """A capitalised run: its offsets and its :class:`Word` objects (a named tuple: built once
    per run, so it must be cheap)."""

    start: int
    end: int
    words: tuple


_new = tuple.__new__   # builds a Word or a Run from a tuple without the keyword-argument call


@dataclass
class Note:
    """The text, its capitalised runs and document-level facts the rules share."""

    text: str
    caps: bool            # mostly capitals (an ALL-CAPS note: Document.mostly_caps)
    lower: bool           # almost no capitals (an all-lower-case note: Document.mostly_lower)
    runs: list
    run_starts: list
    #: ``text.lower()``, made once for the rules' cheap tests (:func:`may_hold`) and scans.
    low: str = ""
    #: True when ``low`` lines up with ``text`` character for character (no character lowers to
    #: two) and holds none of :data:`_CASE_FOLDS`: then a case-sensitive pattern of lower-case
    #: ASCII letters matches ``low`` exactly where its ``re.IGNORECASE`` form matches ``text``,
    #: and ``\w``, ``[a-z]`` and other classes test the same there (checked over every code
    #: point by ``tests/test_locations_speed.py``).
    low_exact: bool = False
    #: Whether ``text`` holds one of :data:`_CASE_FOLDS` (the test :func:`may_hold` makes, once).
    folds: bool = False
    #: Results several rules of this note share (:func:`.terse.contexts`), by name.
    memo: dict = field(default_factory=dict)


def scan_note(doc: Document) -> Note:
    """The runs of ``doc.text``, and whether it is an ALL-CAPS note or an all-lower-case one
    (:attr:`Document.mostly_caps`, :attr:`Document.mostly_lower`: the document decides)."""
    text = doc.text
    runs = []
    append = runs.append
    for m in _RUN_RE.finditer(text):
        g = m.group()
        base, end = m.span()
        if " " not in g and "\n" not in g and "&" not in g:   # one word (gaps hold one of these)
            append(_new(Run, (base, end, (_new(Word, (base, end, g, False)),))))
            continue
        words = []
        if "\n" not in g and "&" not in g and "\t" not in g and "\r" not in g:
            # words joined by spaces only (one or two, or a lower-case connector): split there
            pos = base
            for w in g.split(" "):
                if w:
                    words.append(_new(Word, (pos, pos + len(w), w, False)))
                pos += len(w) + 1
            append(_new(Run, (base, end, tuple(words))))
            continue
        prev_end = 0
        for w in _RUN_WORD_RE.finditer(g):
            s, e = w.span()
            words.append(_new(Word, (base + s, base + e, w.group(), "\n" in g[prev_end:s])))
            prev_end = e
        append(_new(Run, (base, end, tuple(words))))
    low = text.lower()
    folds = not text.isascii() and any(c in text for c in _CASE_FOLDS)
    return Note(text, doc.mostly_caps, doc.mostly_lower, runs, [r.start for r in runs], low,
                len(low) == len(text) and not folds, folds)


def split_words(text: str, offset: int) -> list[Word]:
    """Whitespace-separated words of ``text`` with absolute offsets."""
    return [Word(offset + m.start(), offset + m.end(), m.group()) for m in _RUN_WORD_RE.finditer(text)]


@lru_cache(maxsize=8192)
def norm(word: str) -> str:
    """Lower-case a word, straighten its apostrophe and drop a trailing period."""
    return word.lower().replace("’", "'").rstrip(".")


def phrase_key(phrase: str) -> str:
    """Lookup key of a phrase of the phrase table: lower-cased words, straight apostrophes."""
    return " ".join(w.lower().replace("’", "'") for w in phrase.split())


#: Abbreviations spelled out at the start of a place name (``st`` -> ``saint``, ``ste`` ->
#: ``sainte``): the forms of the ``place`` rows of ``lists/address_forms.tsv``.
_ABBREV_EXPANSIONS = {f: r[0] for r in lists.read_list("address_forms.tsv").rows
                      if "place" in r[2].split() for f in r[1].split()}


@lru_cache(maxsize=8192)
def place_key(phrase: str) -> str:
    """Lookup key of a place name: words lower-cased, periods dropped, ``St``/``Ft``/``Mt``
    spelled out (``St. Louis`` and ``Saint Louis`` give ``saint louis``)."""
    words = [norm(w) for w in phrase.replace(".", ". ").split()]
    words = [w for w in words if w]
    if words and words[0] in _ABBREV_EXPANSIONS:
        words[0] = _ABBREV_EXPANSIONS[words[0]]
    return " ".join(words)


_CONNECTOR_WORDS = frozenset({"and", "&", "of", "for", "the", "de", "del", "la", "du", "van", "von"})


def is_connector(w: Word) -> bool:
    """``&`` or a lower-case connector (``and``, ``of``, ``the``, ``de`` ...) inside a run."""
    return w.text == "&" or (w.text.islower() and w.text in _CONNECTOR_WORDS)


def sentence_initial(text: str, pos: int) -> bool:
    """True when ``pos`` starts a line or follows sentence punctuation (``. ``, ``: ``); a
    wrapped line (the previous line ends in a lower-case letter or a comma) does not count."""
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i >= 0 and text[i] in "\r\n":
        while i >= 0 and text[i].isspace():
            i -= 1
        return i < 0 or not (text[i].islower() or text[i] in ",&")
    return i < 0 or text[i] in ".!?:;|·—-("


@lru_cache(maxsize=1)
def _title_endings() -> tuple[str, ...]:
    titles = lists.courtesy_titles()
    return tuple(sorted(titles | {t + "." for t in titles}))


def after_title(text: str, pos: int) -> bool:
    """True when a courtesy title (``Dr.``, ``Mr``, ``Prof``: ``lists.courtesy_titles()``) stands
    right before ``pos``."""
    before = text[max(0, pos - 7):pos].rstrip().lower()
    return before.endswith(_title_endings())


def trim_end(end: int, text: str, start: int) -> int:
    """Drop trailing apostrophes and hyphens from a span end."""
    while end > start + 1 and text[end - 1] in "'’-":
        end -= 1
    return end


def segment(words: tuple, i: int, j: int) -> list[Word]:
    """Words ``i..j-1`` of a run, cut after the last line break inside them."""
    out = list(words[i:j])
    for k in range(len(out) - 1, 0, -1):
        if out[k].nl:
            return out[k:]
    return out


def words_before(n: Note, pos: int) -> list[Word]:
    """The capitalised words (one line) that end right before ``pos``, separated from it by
    spaces or tabs only; ``[]`` when none."""
    i = bisect.bisect_left(n.run_starts, pos) - 1
    if i < 0:
        return []
    run = n.runs[i]
    words = [w for w in run.words if w.end <= pos]
    if not words or n.text[words[-1].end:pos].strip(" \t"):
        return []
    return segment(tuple(words), 0, len(words))


def run_at(n: Note, pos: int):
    """The run that starts exactly at ``pos``, or ``None``."""
    i = bisect.bisect_left(n.run_starts, pos)
    return n.runs[i] if i < len(n.runs) and n.runs[i].start == pos else None



#: Prepositions before a place, and adverbs that may stand between a verb and one (``moved
#: back to``): grammar, not vocabulary.
PREPOSITIONS = frozenset({"in", "to", "from", "at", "near", "of", "outside"})
ADVERBS = frozenset({"here", "back", "home", "recently", "originally", "up", "last", "previously",
                      "initially", "currently", "again", "nearby", "alone", "close", "now", "still"})


def tail_words(text: str, pos: int) -> list[str]:
    """The last few whitespace-separated words before ``pos``, lower-cased (a leading article
    ``the``/``our`` kept as the last item); ``[]`` when punctuation ends the text before ``pos``.

    The list is shared between calls (memoised on the 48 characters it reads: the rules ask
    for the same position several times, and repeated text repeats them): do not modify it."""
    if 0 < pos <= len(text) and not text[pos - 1].isspace():
        return []
    if pos > 48:
        chunk = text[pos - 48:pos]
        words = _TAILS.get(chunk)
        if words is None:
            words = _tail_words(chunk, True)
            if len(_TAILS) >= 4096:
                _TAILS.clear()
            _TAILS[chunk] = words
        return words
    return _tail_words(text[0:pos], False)


def _tail_words(chunk: str, cut: bool) -> list[str]:
    """:func:`tail_words` of the characters before the position (``cut``: the text goes on
    before them)."""
    if chunk and not chunk[-1].isspace():
        return []
    words = chunk.lower().rsplit(None, 5)   # the last five words, after what is left
    if len(words) == 6 or cut and chunk and not chunk[0].isspace() and words:
        words = words[1:]   # what is left before the last five, or a cut-off word
    return words


def tail_may_end(text: str, pos: int, ends: tuple[str, ...]) -> bool:
    """False only when ``tail_words(text, pos)`` is empty or its last word ends with none of the
    lower-case ``ends``: a cheap test (a slice, no split) before :func:`tail_words`, for rules
    that read the tail only when its last word is one of a few words (or ends with one, after
    punctuation such as an opening quote)."""
    if 0 < pos <= len(text) and not text[pos - 1].isspace():
        return False
    return text[max(0, pos - 48):pos].lower().rstrip().endswith(ends)


#: chunk of 48 characters before a position (the text going on before it) -> its tail words
_TAILS: dict[str, list[str]] = {}



_COMMA_GAP_RE = re.compile(r"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?")


def words_before_comma(n: Note, pos: int) -> list[Word]:
    """The capitalised words ending right before ``, `` that precedes ``pos``."""
    i = bisect.bisect_left(n.run_starts, pos) - 1
    if i < 0:
        return []
    prev = n.runs[i]
    if not _COMMA_GAP_RE.fullmatch(n.text, prev.end, pos):
        return []
    return segment(prev.words, 0, len(prev.words))



def same_line_words(words) -> Iterator[Word]:
    """``words`` up to the first one that starts a new line."""
    for w in words:
        if w.nl:
            return
        yield w

