"""AGE detector: ages over 89, in digits and in words (Safe Harbor lets ages up to 89 stay).

Finds (source ``ages:<pattern>``); the span is the number only, never "years", "yo" or "y/o":

* ``digits_suffix``: ``92 yo``, ``92 y/o``, ``92yoF``, ``92-year-old``, ``92 years old``,
  ``92 yrs old``, ``92 years of age``.
* ``age_label``: ``aged 95``, ``Age: 101``, ``at the age of 93``.
* ``article_sex``: ``a 92 M``, ``is a 94 female``.
* ``words``: ``ninety-four year old``, ``aged one hundred and two``.
* ``words_cue``: a number word after a cue (``He is ninety-four.``, ``turned ninety-one``,
  ``died at ninety-two.``); after ``is``/``was``/``at`` the number must end its clause, and
  vital signs (``pulse was ninety.``) or quantities (``ninety minutes``) are left alone.
* ``subject_is``: digits after a person and ``is``/``was``, ending the clause (``She is 94.``).
* ``decade``: ``in her 90s``, ``in his late nineties``, ``in their 100s``.
* ``article_sex`` also covers ``(F, 93)``; ``age_label`` also ``Age | 96`` and ``turns 90``.
* ``years_review`` (review): ``92 years`` with no ``old``/``of age`` (a duration or an age).
* ``apposition_review`` (review): a number set off after a word, ``dad, 91, has``,
  ``SISTER YVETTE (92)``.

Ages 89 and under yield nothing. Accepted range: 90-130. Speed: only numbers 90-139 (and, when
the note holds "ninet"/"hundred", number words) are examined, each with small anchored patterns.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from ..document import Document
from ..spans import CERTAIN, REVIEW, Span
from .patterns import UNITS, Emitter

__all__ = ["detect", "words_to_number"]

_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
          "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
          "nineteen": 19, "twenty": 20, "thirty": 30}
_UNIT_WORDS = r"(?:one|two|three|four|five|six|seven|eight|nine)"
_NUMBER_WORDS = (
    r"(?P<w>ninety(?:[ \t-]{1,2}" + _UNIT_WORDS + r")?|"
    r"(?:one[ \t-]{1,2})?hundred(?:(?:[ \t-]{1,2}and)?[ \t-]{1,2}(?:" + _UNIT_WORDS
    + r"|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty)"
    r"(?:[ \t-]{1,2}" + _UNIT_WORDS + r")?)?)")
_AGE_SUFFIX = (
    r"(?:y/o|y\.o\.?|yo|y[ \t]?o(?=[ \t,.]|$)|yrs?\.?[ \t-]{0,2}old|years?[ \t-]{1,2}old|-?years?-old|"
    r"-?yr-old|years?[ \t]+of[ \t]+age|yrs?[ \t]+of[ \t]+age|-?y(?=[ \t]?[/,]?[ \t]?[mf]\b)|y(?=[),;]))"
    r"(?:(?![a-z])|(?=[mf](?![a-z])))")
#: Candidate ages in digits (90-139): the detailed checks below run only at these hits.
_NUM = re.compile(r"(?:9\d|1[0-3]\d)(?!\d)")
_NUM_BAD_BEFORE = frozenset(".,/_")
_SUFFIX_AFTER = re.compile(r"[ \t]{0,2}-?[ \t]{0,2}" + _AGE_SUFFIX, re.I)
_LABEL_BEFORE = re.compile(
    r"(?i:\b(?:aged?|ages|age[ \t]+of|at[ \t]+age|turns|turned|turning|will[ \t]+be)[ \t]{0,2}"
    r"(?:[:=|][ \t]{0,2}|is[ \t]{1,2}|was[ \t]{1,2})?)$")
#: A person as the subject of ``is``/``was`` before a number that ends its clause: ``she is 94.``
_SUBJECT_IS_BEFORE = re.compile(
    r"(?i:\b(?:he|she|who|patient|pt|mother|father|mom|dad|husband|wife|brother|sister|son|"
    r"daughter|grandmother|grandfather|aunt|uncle)[ \t]{1,2}(?:is|was)[ \t]{1,2}"
    r"(?:now[ \t]{1,2}|nearly[ \t]{1,2}|almost[ \t]{1,2})?|\b(?:died[ \t]+at|lived[ \t]+to))$")
_DIGIT_CLAUSE_END = re.compile(r"[ \t]{0,2}(?:[.!?;](?!\d)|,[ \t]|$|\r?\n|[ \t](?i:and|when|but)\b)")
_SEX_COMMA_BEFORE = re.compile(r"\([ \t]?[MFmf][ \t]?,[ \t]?$")
_COMMA_BEFORE = re.compile(r"[A-Za-z][a-z'’\-]+,[ \t]$|[A-Z][A-Za-z'’\-]+[ \t]\($")
_COMMA_AFTER = re.compile(r"[ \t]?(?:,|\))")
_LABEL_NOT_AFTER = re.compile(r"[.,/:]\d|[ \t]{0,2}(?:days?|weeks?|wks?|months?|mos?|d|w|m|%)\b", re.I)
_ARTICLE_BEFORE = re.compile(r"(?i:\b(?:a|an|pt|patient)[ \t]{1,2})$")
_SEX_AFTER = re.compile(
    r"[ \t]?(?:[MF]\b|(?i:male|female|man|woman|gentleman|lady|gent|yo[mf]|y/o[mf]))(?![a-z])")
_DECADE_BEFORE = re.compile(
    r"(?i:\b(?:in|into|entering)[ \t]{1,2}(?:his|her|their)[ \t]{1,2}(?:(?:early|mid|late)[ \t-]{1,2})?)$")
_DECADE_AFTER = re.compile(r"['’]?s(?![\w'’])")
_YEARS_AFTER = re.compile(
    r"[ \t]{0,2}-?[ \t]{0,2}(?:years?|yrs?)(?![\w-]|[ \t]+(?:of|ago|since|later|prior|before|after|"
    r"duration|history|hx))", re.I)
_WORDS = re.compile(
    r"(?i:(?<![\w-])" + _NUMBER_WORDS + r"[ \t]{0,2}-?[ \t]{0,2}" + _AGE_SUFFIX + r"|"
    r"\b(?:aged?|age[ \t]+of)[ \t:]{1,3}" + _NUMBER_WORDS.replace("(?P<w>", "(?P<w2>") + r"(?![\w-]))")
#: A bare number word (``ninety-four``), checked for a cue before it and what follows it.
_BARE_WORDS = re.compile(r"(?i:(?<![\w-])" + _NUMBER_WORDS.replace("(?P<w>", "(?P<w3>") + r"(?![\w-]))")
#: Cue before a bare number word: a verb or preposition that states an age (``is``, ``was``,
#: ``turned``, ``at``, ``age``), optionally with an adverb (``is now``, ``was nearly``).
_WORD_CUE_BEFORE = re.compile(
    r"(?i:\b(?P<cue>is|was|turned|turns|turning|at|ages?|aged|will[ \t]+be|be|reached|reaching|"
    r"now|died[ \t]+at|lived[ \t]+to|until)[ \t]{1,2}"
    r"(?:(?:now|nearly|almost|about|over|just|only|still|already|aged?|around)[ \t]{1,2})?)$")
#: Cues that state an age by themselves; the others (``is``, ``was``, ``at``) need the number to
#: end its clause (``He is ninety-four.``, ``was ninety-one when``).
_STRONG_CUES = frozenset({"turned", "turns", "turning", "age", "ages", "aged", "will be", "reached",
                          "reaching", "lived to"})
_CLAUSE_END_AFTER = re.compile(
    r"[ \t]{0,2}(?:[.!?;,)]|$|\r?\n|(?i:and|but|when|with|in|on|now|today|this|last|next|"
    r"years?|yrs?|himself|herself|soon)\b)")
#: A quantity rather than an age: ``ninety minutes``, ``ninety percent``, ``ninety over sixty``.
_WORD_NOT_AGE_AFTER = re.compile(
    r"[ \t]{0,2}-?[ \t]{0,2}(?:" + UNITS + r"|(?i:over|to|per|percent|degrees?|pounds|miles|mph|"
    r"dollars|thousand|million|times|seconds?|milliliters?|millig|beats|pts)\b)")
#: Vital signs or scores just before the cue: ``pulse was ninety.``, ``sats at ninety``.
_VITAL_BEFORE = re.compile(
    r"(?i:\b(?:hr|heart[ \t]+rate|pulse|bp|pressure|systolic|diastolic|sats?|saturation|spo2|o2|"
    r"oxygen|glucose|sugar|bgl?|temp|temperature|weight|rate|score|count|level|rr|map|fio2|"
    r"percent|speed|iq)\b[^.;\n]{0,12})$")
_DECADE_WORD = re.compile(
    r"(?i:\b(?:in|into|entering)[ \t]{1,2}(?:his|her|their)[ \t]{1,2}(?:(?:early|mid|late)[ \t-]{1,2})?)"
    r"(?P<d>nineties)(?![\w'’])")


def words_to_number(words: str) -> int | None:
    """Value of an English number phrase from 90 to 139 (``"ninety-four"`` -> 94,
    ``"one hundred and two"`` -> 102), else None."""
    parts = [p for p in re.split(r"[\s\-]+", words.lower()) if p and p not in ("and", "a")]
    if not parts:
        return None
    total = 0
    if parts[0] == "one" and len(parts) > 1 and parts[1] == "hundred":
        parts = parts[1:]
    for p in parts:
        if p == "ninety":
            total += 90
        elif p == "hundred":
            total += 100
        elif p in _UNITS:
            total += _UNITS[p]
        else:
            return None
    return total if 90 <= total <= 139 else None


def detect(doc: Document) -> Iterable[Span]:
    """AGE spans (ages over 89 only) in ``doc.text``; see the module docstring.

    Returns:
        Non-overlapping spans sorted by start, label ``AGE``, source ``ages:<pattern>``.
    """
    text = doc.text
    e = Emitter("ages")
    for m in _NUM.finditer(text):
        s, end = m.start(), m.end()
        if s and (text[s - 1].isalnum() or text[s - 1] in _NUM_BAD_BEFORE):
            continue
        if int(m.group()) > 130:
            continue
        lo = max(0, s - 24)
        if _SUFFIX_AFTER.match(text, end):
            e.add(s, end, "AGE", CERTAIN, "digits_suffix")
        elif _LABEL_BEFORE.search(text, lo, s) and not _LABEL_NOT_AFTER.match(text, end):
            e.add(s, end, "AGE", CERTAIN, "age_label")
        elif _SUBJECT_IS_BEFORE.search(text, lo, s) and _DIGIT_CLAUSE_END.match(text, end):
            e.add(s, end, "AGE", CERTAIN, "subject_is")         # "she is 94.", "died at 92"
        elif _ARTICLE_BEFORE.search(text, lo, s) and _SEX_AFTER.match(text, end):
            e.add(s, end, "AGE", CERTAIN, "article_sex")
        elif m.group()[-1] == "0" and _DECADE_AFTER.match(text, end) and _DECADE_BEFORE.search(text, lo, s):
            d = _DECADE_AFTER.match(text, end)
            e.add(s, d.end(), "AGE", CERTAIN, "decade")
        elif _SEX_COMMA_BEFORE.search(text, lo, s) and text.startswith(")", end):
            e.add(s, end, "AGE", CERTAIN, "article_sex")        # (F, 93)
        elif _YEARS_AFTER.match(text, end):
            e.add(s, end, "AGE", REVIEW, "years_review")
        elif _COMMA_BEFORE.search(text, lo, s) and _COMMA_AFTER.match(text, end):
            e.add(s, end, "AGE", REVIEW, "apposition_review")  # "dad, 91, has"; "YVETTE (92)"
    low = text.lower()
    if "ninet" in low or "hundred" in low:
        for m in _WORDS.finditer(text):
            g = "w" if m["w"] is not None else "w2"
            if words_to_number(m[g]) is not None:
                e.add(m.start(g), m.end(g), "AGE", CERTAIN, "words")
        for m in _BARE_WORDS.finditer(text):
            s, end = m.start("w3"), m.end("w3")
            if not e.free(s, end) or words_to_number(m["w3"]) is None:
                continue
            lo = max(0, s - 40)
            cue = _WORD_CUE_BEFORE.search(text, lo, s)
            if cue is None or _WORD_NOT_AGE_AFTER.match(text, end) \
                    or _VITAL_BEFORE.search(text, lo, cue.start()):
                continue
            word = " ".join(cue["cue"].lower().split())
            if word in _STRONG_CUES or _CLAUSE_END_AFTER.match(text, end):
                e.add(s, end, "AGE", CERTAIN, "words_cue")      # He is ninety-four.
        for m in _DECADE_WORD.finditer(text):
            e.add(m.start("d"), m.end("d"), "AGE", CERTAIN, "decade")
    return list(e)
