"""The DATE rules for years written alone: four digits (by the words around them: a date
word, brackets, a model word, nothing), a decade, a year with an apostrophe (``'98``) and a
two-digit year after a history word (``MI 93``). Each rule is declared above its validator."""
from __future__ import annotations

import re

from ...datereader import read_match
from ...rules import Rule
from ...spans import CERTAIN, REVIEW
from ..patterns import Hit, Verdict, just_before, line_before
from .shapes import (_BARE_YEAR_BAD_BEFORE, _CLOCK_RANGE_AFTER, _CLOCK_RANGE_BEFORE, _CLOCK_WORD_BEFORE, _COMPACT_BEFORE, _COUNT_PIVOT, _HISTORY_AFTER,
                     _HISTORY_CONTEXT, _HISTORY_WORD_BEFORE, _LIST_BEFORE, _MODEL_AFTER, _PAREN_AFTER,
                     _RANGE_END, _RANGE_START, _SHIFT_AFTER, _TIME_WORD_BEFORE, _UNITS_AFTER, _YEAR_CTX,
                     _YY_HISTORY_BEFORE, _in_context, _units_follow)

_D = ("DATE",)
_CONTEXT, _HISTORY = "date_context_words.txt", "history_words.txt"


YEAR_BARE = Rule("dates:year_bare", _D, (REVIEW,), "a four-digit number that reads as a year",
                 amber="a four-digit number may be a count, a dose or a code rather than a year",
                 reads=(_CONTEXT, "units.txt"))
DECADE = Rule("dates:decade", _D, (CERTAIN, REVIEW), "a decade (1980s, '90s)",
              amber="a decade with no history word before it on its line may not date an event",
              reads=(_HISTORY,))
YEAR_MODEL = Rule("dates:year_model", _D, (REVIEW,), "a year next to a make or model word",
                  amber="a year beside a model word may be part of a product's name",
                  reads=("vehicle_words.txt",))
YEAR_CONTEXT = Rule("dates:year_context", _D, (CERTAIN,), "a year after a date word (in, since)",
                    reads=(_CONTEXT, _HISTORY))
YEAR_PAREN = Rule("dates:year_paren", _D, (CERTAIN,), "a year in brackets")


def _year4(m: re.Match[str]) -> Verdict:
    text = m.string
    n = len(text)
    s, end = m.start(), m.end()
    if s and (text[s - 1].isalnum() or text[s - 1] in ".-/:$#@_'’") and not (
            text[s - 1] in "-–" and just_before(text, s, _RANGE_START, 6)):
        return None
    if end < n and (text[end].isalnum() or text[end] == "_"
                    or (text[end] in ".,:/-" and end + 1 < n and text[end + 1].isdigit()
                        and not _RANGE_END.match(text, end))):
        return None
    if end < n and text[end] == "+":
        return None                                    # "2000+": a quantity, at least so many
    if m["s"]:
        # "HX OF POSSIBLE MI IN 1980S": a history word on the line before dates the event
        sure = _HISTORY_WORD_BEFORE.search(line_before(text, s, 30)) is not None
        return Hit(s, end, CERTAIN if sure else REVIEW, rule=DECADE)
    if _units_follow(text, end) or _SHIFT_AFTER.match(text, end):
        return None
    clock = _clock_shaped(text, s, end)
    if clock is not None:
        return clock
    if _MODEL_AFTER.match(text, end) and not just_before(text, s, _TIME_WORD_BEFORE, 12):
        return Hit(s, end, REVIEW, rule=YEAR_MODEL)        # "owned a 2012 pickup"
    if _seen_before(_YEAR_CTX, text, s, 30):
        return Hit(s, end, CERTAIN, rule=YEAR_CONTEXT)
    if _PAREN_AFTER.match(text, end) and s and (
            text[s - 1] == "(" or _seen_before(_LIST_BEFORE, text, s, 40)):
        return Hit(s, end, CERTAIN, rule=YEAR_PAREN)       # (2015), (On-X, 2015), (2017, 2021)
    if not _seen_before(_COMPACT_BEFORE, text, s, 20) and not _bare_year_bad(text, s):
        return Hit(s, end, REVIEW, rule=YEAR_BARE)
    return None


def _clock_shaped(text: str, s: int, end: int) -> Verdict:
    """For a year-shaped number that can be a clock time (``1930``, ``2015``: minutes 00-59):
    ``False`` (no span) when it is the end of a shift (``1900 to 0700``, ``0700-1930``) or
    stands after ``at``, ``@`` or a room or count word (``off at 1930``); a review year after a
    time word (``around 2030``, ``until 1945``); ``None`` (decide as a year) otherwise."""
    if end - s != 4 or text[s + 2] > "5":
        return None
    if _CLOCK_RANGE_AFTER.match(text, end) or just_before(text, s, _CLOCK_RANGE_BEFORE, 12) \
            or _bare_year_bad(text, s):
        return False
    if just_before(text, s, _CLOCK_WORD_BEFORE, 16):
        return Hit(s, end, REVIEW, rule=YEAR_BARE)
    return None


#: Results of the window searches before a value, by regex, width and the window's text
#: (speed: a note repeating one stretch asks the same question at every value); cleared when
#: it grows past 4096 entries.
_BEFORE_MEMO: dict[tuple[int, int, str, bool], bool] = {}   # id(regex): hashing a Pattern hashes its code


def _seen_before(rx: re.Pattern[str], text: str, i: int, width: int) -> bool:
    """``just_before(text, i, rx, width) is not None``, memoised on the ``width`` characters
    before ``i`` and the one before them (what ``\\b`` at the window's start reads): only for
    ``$``-anchored regexes that look behind one character at most."""
    lo = max(0, i - width)
    key = (id(rx), width, text[max(0, lo - 1):i], lo == 0)
    hit = _BEFORE_MEMO.get(key)
    if hit is None:
        hit = rx.search(text, lo, i) is not None
        if len(_BEFORE_MEMO) > 4096:
            _BEFORE_MEMO.clear()
        _BEFORE_MEMO[key] = hit
    return hit


def _bare_year_bad(text: str, s: int) -> bool:
    """Whether ``_BARE_YEAR_BAD_BEFORE`` matches the 12-character line before ``s``
    (``room 2014``), memoised on those 12 characters."""
    key = (id(_BARE_YEAR_BAD_BEFORE), 12, text[max(0, s - 12):s], False)
    hit = _BEFORE_MEMO.get(key)
    if hit is None:
        hit = _BARE_YEAR_BAD_BEFORE.search(line_before(text, s, 12)) is not None
        if len(_BEFORE_MEMO) > 4096:
            _BEFORE_MEMO.clear()
        _BEFORE_MEMO[key] = hit
    return hit


YEAR_APOSTROPHE = Rule(
    "dates:year_apostrophe", _D, (CERTAIN, REVIEW), "a year written with an apostrophe ('98)",
    amber="a number with an apostrophe may not be a year", reads=(_HISTORY, _CONTEXT))


def _year_apostrophe(m: re.Match[str]) -> Verdict:
    if m["s"]:
        return Hit(m.start(), m.end(), REVIEW, rule=DECADE)
    text, start = m.string, m.start()
    strong = _in_context(text, start) or _HISTORY_CONTEXT.search(line_before(text, start, 30)) \
        or _HISTORY_AFTER.match(text, m.end())   # "'09 PTCA to LAD": the event after the year
    return Hit(m.start("y"), m.end(), CERTAIN if strong else REVIEW)   # the apostrophe stays out


#: ``_YY_HISTORY_BEFORE`` results by the window they read (speed: a note repeating one
#: stretch asks the same question at every number); cleared when it grows past 4096 entries.
_YY_BEFORE_MEMO: dict[tuple[str, bool], tuple[bool, bool, bool]] = {}


def _yy_before(text: str, s: int) -> tuple[bool, bool, bool]:
    """(found, weak, listed) of ``just_before(text, s, _YY_HISTORY_BEFORE, 30)``, memoised on
    the 30 characters before ``s`` and the one before them (what ``\\b`` at the window's start
    reads); ``listed``: the year follows another after the history word (``MI 97 and 03``)."""
    lo = max(0, s - 30)
    key = (text[max(0, lo - 1):s], lo == 0)
    hit = _YY_BEFORE_MEMO.get(key)
    if hit is None:
        before = _YY_HISTORY_BEFORE.search(text, lo, s)
        hit = (before is not None, before is not None and bool(before["weak"]),
               before is not None and bool(before["listed"]))
        if len(_YY_BEFORE_MEMO) > 4096:
            _YY_BEFORE_MEMO.clear()
        _YY_BEFORE_MEMO[key] = hit
    return hit


YEAR2_HISTORY = Rule(
    "dates:year2_history", _D, (CERTAIN,),
    "a two-digit year after a history word (MI 93, CVA 81', CABG X2 99', MI in 97 and 03)",
    reads=(_HISTORY, "units.txt"))


def _yy_history(m: re.Match[str]) -> Verdict:
    s = m.start("y")
    found, weak, listed = _yy_before(m.string, s)
    if not found or (weak and not m["q"]):
        return None                                    # "in 70": a rate; "REPAIR IN 14'": a year
    if not (m["q"] or listed or read_match(m, _COUNT_PIVOT).year < 2000 or m.string[s - 1] in "'’"):
        return None                                    # "MI 12": a count as likely as a year
    if _UNITS_AFTER.match(m.string, m.end()):
        return None
    return Hit(m.start("y"), m.end("y"))              # the apostrophe stays outside

