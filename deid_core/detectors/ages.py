"""AGE detector: ages over 89, in digits and in words (Safe Harbor lets ages up to 89 stay).

The span is the number only, never "years", "yo" or "y/o". The rules are a table
(:data:`PATTERNS`) run by :func:`~deid_core.detectors.patterns.run`: a candidate number (90-139 in
digits, or a number word) is examined by its validator, which names the :class:`~deid_core.rules.Rule`
that read it as an age (what each finds: ``docs/rules.md``). Number words come from
``lists/number_words.tsv``, the words around a number from ``lists/age_context_words.txt``.
Ages 89 and under yield nothing; accepted range 90-130. Speed: only numbers 90-139 (and, when the
note holds "ninet"/"hundred", number words) are examined, each with small anchored patterns.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from ..document import Document
from ..rules import Rule, rules_of
from ..spans import CERTAIN, REVIEW, Span
from .. import lists
from .patterns import UNITS, Emitter, Hit, Pattern, Verdict, alternation, line_before, run

__all__ = ["PATTERNS", "RULES", "detect", "words_to_number"]


def _number_words(lo: int, hi: int) -> str:
    """``lists/number_words.tsv`` words worth ``lo`` to ``hi`` (in value order) as an alternation."""
    return "|".join(w for w, v in sorted(lists.number_words().items(), key=lambda x: x[1]) if lo <= v <= hi)


def _context_words(use: str) -> str:
    """The ``lists/age_context_words.txt`` entries tagged ``use`` as an alternation, longest
    first, a space as ``[ \\t]+`` (``heart rate``)."""
    return alternation(lists.tagged("age_context_words.txt", use), r"[ \t]+")


#: Number words of ages 90-130 (``ninety-four``, ``one hundred and two``, ``hundred thirty``).
_UNIT_WORDS = r"(?:" + _number_words(1, 9) + r")"
_NUMBER_WORDS = (
    r"(?P<w>ninety(?:[ \t-]{1,2}" + _UNIT_WORDS + r")?|"
    r"(?:one[ \t-]{1,2})?hundred(?:(?:[ \t-]{1,2}and)?[ \t-]{1,2}(?:" + _UNIT_WORDS
    + r"|" + _number_words(10, 30) + r")"
    r"(?:[ \t-]{1,2}" + _UNIT_WORDS + r")?)?)")
_AGE_SUFFIX = (
    r"(?=[-yY])(?:y/o|y\.o\.?|yo|y[ \t]?o(?=[ \t,.]|$)|yrs?\.?[ \t-]{0,2}old|years?[ \t-]{1,2}old|-?years?-old|"
    r"-?yr-old|years?[ \t]+of[ \t]+age|yrs?[ \t]+of[ \t]+age|-?y(?=[ \t]?[/,]?[ \t]?[mf]\b)|y(?=[),;]))"
    r"(?:(?![a-z])|(?=[mf](?![a-z])))")
#: Candidate ages in digits (90-139): the detailed checks below run only at these hits.
_NUM = re.compile(r"(?:9\d|1[0-3]\d)(?!\d)")
_NUM_BAD_BEFORE = frozenset(".,/_")
_SUFFIX_AFTER = re.compile(r"[ \t]{0,2}-?[ \t]{0,2}" + _AGE_SUFFIX, re.I)
#: An age label just before the number (``aged 94``, ``turned 91``): the ``label`` words.
_LABEL_BEFORE = re.compile(
    r"(?i:\b(?:" + _context_words("label") + r")[ \t]{0,2}"
    r"(?:[:=|][ \t]{0,2}|is[ \t]{1,2}|was[ \t]{1,2})?)$")
#: A person as the subject of ``is``/``was`` before a number that ends its clause: ``she is 94.``
_SUBJECT_IS_BEFORE = re.compile(
    r"(?i:\b(?:he|she|who|" + _context_words("subject") + r")[ \t]{1,2}(?:is|was)[ \t]{1,2}"
    r"(?:now[ \t]{1,2}|nearly[ \t]{1,2}|almost[ \t]{1,2})?|\b(?:died[ \t]+at|lived[ \t]+to))$")
_DIGIT_CLAUSE_END = re.compile(r"[ \t]{0,2}(?:[.!?;](?!\d)|,[ \t]|$|\r?\n|[ \t](?i:and|when|but)\b)")
_SEX_COMMA_BEFORE = re.compile(r"\([ \t]?[MFmf][ \t]?,[ \t]?$")
_COMMA_BEFORE = re.compile(r"[A-Za-z][a-z'’\-]+,[ \t]$|[A-Z][A-Za-z'’\-]+[ \t]\($")
_COMMA_AFTER = re.compile(r"[ \t]?(?:,|\))")
#: After a labelled number, a duration (``age 94 days``: the ``duration_after`` words; d, w, m, %).
_LABEL_NOT_AFTER = re.compile(
    r"[.,/:]\d|[ \t]{0,2}(?:" + _context_words("duration_after") + r"|d|w|m|%)\b", re.I)
_ARTICLE_BEFORE = re.compile(r"(?i:\b(?:a|an|pt|patient)[ \t]{1,2})$")
_SEX_AFTER = re.compile(
    r"[ \t]?(?:[MF]\b|(?i:" + _context_words("sex_after") + r"|yo[mf]|y/o[mf]))(?![a-z])")
_DECADE_BEFORE = re.compile(
    r"(?i:\b(?:in|into|entering)[ \t]{1,2}(?:his|her|their)[ \t]{1,2}(?:(?:early|mid|late)[ \t-]{1,2})?)$")
_DECADE_AFTER = re.compile(r"['’]?s(?![\w'’])")
_YEARS_AFTER = re.compile(
    r"[ \t]{0,2}-?[ \t]{0,2}(?:years?|yrs?)(?![\w-]|[ \t]+(?:" + _context_words("not_years_after") + r"))", re.I)
_WORDS = re.compile(
    r"(?i:(?<![\w-])" + _NUMBER_WORDS + r"[ \t]{0,2}-?[ \t]{0,2}" + _AGE_SUFFIX + r"|"
    r"\b(?:aged?|age[ \t]+of)[ \t:]{1,3}" + _NUMBER_WORDS.replace("(?P<w>", "(?P<w2>") + r"(?![\w-]))")
#: A bare number word (``ninety-four``), checked for a cue before it and what follows it.
_BARE_WORDS = re.compile(r"(?i:(?<![\w-])" + _NUMBER_WORDS.replace("(?P<w>", "(?P<w3>") + r"(?![\w-]))")
#: Cue before a bare number word: a verb or preposition that states an age (``is``, ``was``,
#: ``turned``, ``at``, ``age``), optionally with an adverb (``is now``, ``was nearly``).
#: Adverbs between the cue and the number word (grammar).
_CUE_ADVERBS = r"(?:now|nearly|almost|about|over|just|only|still|already|aged?|around)"
_WORD_CUE_BEFORE = re.compile(
    r"(?i:\b(?P<cue>" + _context_words("cue") + r")[ \t]{1,2}"
    r"(?:" + _CUE_ADVERBS + r"[ \t]{1,2})?)$")
#: Cues that state an age by themselves; the others (``is``, ``was``, ``at``) need the number to
#: end its clause (``He is ninety-four.``, ``was ninety-one when``).
#: The ``strong_cue`` entries of ``lists/age_context_words.txt``.
_STRONG_CUES = frozenset(lists.tagged("age_context_words.txt", "strong_cue"))
_CLAUSE_END_AFTER = re.compile(
    r"[ \t]{0,2}(?:[.!?;,)]|$|\r?\n|(?i:and|but|when|with|in|on|now|today|this|last|next|"
    r"years?|yrs?|himself|herself|soon)\b)")
#: A quantity rather than an age: ``ninety minutes``, ``ninety percent``, ``ninety over sixty``.
_WORD_NOT_AGE_AFTER = re.compile(
    r"[ \t]{0,2}-?[ \t]{0,2}(?:" + UNITS + r"|(?i:" + _context_words("quantity_after") + r")\b)")
#: Vital signs or scores just before the cue: ``pulse was ninety.``, ``sats at ninety``.
_VITAL_BEFORE = re.compile(
    r"(?i:\b(?:" + _context_words("vital") + r")\b[^.;\n]{0,12})$")
_DECADE_WORD = re.compile(
    r"(?i:\b(?:in|into|entering)[ \t]{1,2}(?:his|her|their)[ \t]{1,2}(?:(?:early|mid|late)[ \t-]{1,2})?)"
    r"(?P<d>nineties)(?![\w'’])")


def words_to_number(words: str) -> int | None:
    """Value of an English number phrase from 90 to 139 (``"ninety-four"`` -> 94,
    ``"one hundred and two"`` -> 102), else None."""
    parts = [p for p in re.split(r"[\s\-]+", words.lower()) if p and p not in ("and", "a")]
    if not parts:
        return None
    if parts[0] == "one" and len(parts) > 1 and parts[1] == "hundred":
        parts = parts[1:]
    values = lists.number_words()
    total = 0
    for p in parts:
        if p not in values or p == "zero" or (40 <= values[p] <= 80):
            return None
        total += values[p]
    return total if 90 <= total <= 139 else None


_A = ("AGE",)
_WORDS_LISTS = ("number_words.tsv", "age_context_words.txt")
_CONTEXT = ("age_context_words.txt",)
DIGITS_SUFFIX = Rule("ages:digits_suffix", _A, (CERTAIN,),
                     "an age in digits before years old or its shorthand (92 yo, 92-year-old, 92yoF)")
AGE_LABEL = Rule("ages:age_label", _A, (CERTAIN,), "a number after an age label",
                 reads=_CONTEXT)
SUBJECT_IS = Rule("ages:subject_is", _A, (CERTAIN,),
                  "a number after a person and is or was, ending its clause (She is 94.)",
                  reads=_CONTEXT)
ARTICLE_SEX = Rule("ages:article_sex", _A, (CERTAIN,),
                   "a number between an article and a sex (a 92 M, is a 94 female, (F, 93))",
                   reads=_CONTEXT)
DECADE = Rule("ages:decade", _A, (CERTAIN,),
              "a decade of life over 89 (in her 90s, in his late nineties)", reads=_WORDS_LISTS)
YEARS_REVIEW = Rule("ages:years_review", _A, (REVIEW,), "a number of years that may be an age",
                    amber="the number may be a duration rather than the patient's age",
                    reads=_CONTEXT)
APPOSITION_REVIEW = Rule("ages:apposition_review", _A, (REVIEW,),
                         "a number beside a name that may be an age",
                         amber="the number may not be an age")
WORDS = Rule("ages:words", _A, (CERTAIN,), "an age written in words", reads=_WORDS_LISTS)
WORDS_CUE = Rule("ages:words_cue", _A, (CERTAIN,),
                 "a number word after a word that states an age (is ninety-four, turned ninety-one)",
                 reads=_WORDS_LISTS + ("units.txt",))


def _digits(m: re.Match[str]) -> Verdict:
    # Speed: each check tries the cheap anchored pattern after the number first, and the
    # ``$``-anchored search over the window before it only when that one matched; the label
    # search runs only when the line before holds a literal every label word contains.
    text = m.string
    s, end = m.start(), m.end()
    if s and (text[s - 1].isalnum() or text[s - 1] in _NUM_BAD_BEFORE):
        return None
    if int(m.group()) > 130:
        return None
    lo = max(0, s - 24)
    if _SUFFIX_AFTER.match(text, end):
        return Hit(s, end, rule=DIGITS_SUFFIX)
    low = text[lo:s].lower()
    if ("age" in low or "turn" in low or "ll" in low) and not _LABEL_NOT_AFTER.match(text, end):
        line = line_before(text, s, 24)
        if ("age" in line or "turn" in line or "ll" in line) and _LABEL_BEFORE.search(line):
            return Hit(s, end, rule=AGE_LABEL)
    if text[end:end + 8].lstrip(" \t-")[:1].isdigit():
        return None           # another number next: every check below needs a letter or a mark
    if _DIGIT_CLAUSE_END.match(text, end) and _SUBJECT_IS_BEFORE.search(text, lo, s):
        return Hit(s, end, rule=SUBJECT_IS)               # "she is 94.", "died at 92"
    if _SEX_AFTER.match(text, end) and _ARTICLE_BEFORE.search(text, lo, s):
        return Hit(s, end, rule=ARTICLE_SEX)
    if m.group()[-1] == "0" and _DECADE_AFTER.match(text, end) and _DECADE_BEFORE.search(text, lo, s):
        return Hit(s, _DECADE_AFTER.match(text, end).end(), rule=DECADE)
    if text.startswith(")", end) and _SEX_COMMA_BEFORE.search(text, lo, s):
        return Hit(s, end, rule=ARTICLE_SEX)              # (F, 93)
    if _YEARS_AFTER.match(text, end):
        return Hit(s, end, REVIEW, rule=YEARS_REVIEW)
    if _COMMA_AFTER.match(text, end) and _COMMA_BEFORE.search(text, lo, s):
        return Hit(s, end, REVIEW, rule=APPOSITION_REVIEW)  # "dad, 91, has"; "YVETTE (92)"
    return None


def _words(m: re.Match[str]) -> Verdict:
    g = "w" if m["w"] is not None else "w2"
    return Hit(m.start(g), m.end(g)) if words_to_number(m[g]) is not None else None


def _words_cue(m: re.Match[str]) -> Verdict:
    text = m.string
    s, end = m.start("w3"), m.end("w3")
    if words_to_number(m["w3"]) is None:
        return None
    lo = max(0, s - 40)
    cue = _WORD_CUE_BEFORE.search(text, lo, s)
    if cue is None or _WORD_NOT_AGE_AFTER.match(text, end) \
            or _VITAL_BEFORE.search(text, lo, cue.start()):
        return None
    word = " ".join(cue["cue"].lower().split())
    if word in _STRONG_CUES or _CLAUSE_END_AFTER.match(text, end):
        return Hit(s, end)                                  # He is ninety-four.
    return None


_WORD_GATE = ("ninet", "hundred")
#: The table, in the order the patterns run (the first accepted span wins an overlap).
PATTERNS: tuple[Pattern, ...] = (
    Pattern((DIGITS_SUFFIX, AGE_LABEL, SUBJECT_IS, ARTICLE_SEX, DECADE, YEARS_REVIEW, APPOSITION_REVIEW),
            _NUM, "AGE", validator=_digits),
    Pattern(WORDS, _WORDS, "AGE", validator=_words, gate=_WORD_GATE),
    Pattern(WORDS_CUE, _BARE_WORDS, "AGE", validator=_words_cue, gate=_WORD_GATE),
    Pattern(DECADE, _DECADE_WORD, "AGE", validator=lambda m: Hit(m.start("d"), m.end("d")),
            gate=_WORD_GATE),
)

#: Every rule of the detector, in table order.
RULES = rules_of(p.rules for p in PATTERNS)


def detect(doc: Document) -> Iterable[Span]:
    """AGE spans (ages over 89 only) in ``doc.text`` (the rules: :data:`RULES`).

    Returns:
        Non-overlapping spans sorted by start, label ``AGE``, source ``ages:<rule>``.
    """
    return list(run(PATTERNS, doc.text, Emitter()))
