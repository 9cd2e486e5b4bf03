"""Occupations (PROFESSION, i2b2): a phrase of ``lists/professions.txt`` with context, and
after ``retired`` / ``former`` / ``works as a`` a short noun phrase with an occupational
ending.

Context that makes a listed occupation certain: ``works as a``, ``retired``, ``occupation:``,
``by trade``, an age before it (``67 yo``, ``Name, 54,``), ``he is a``, ``Name, a``; after
``is a`` with no person as subject it goes to review. After ``retired`` / ``former`` /
``works as a`` a short phrase ending like an occupation (``court stenographer``) is certain
too. The rules read the name detector's :class:`~deid_core.detectors.names.scan.Scan` (the
same run, cached on the document): a name before ``, a civil engineer`` is context, and a
word inside a name is no occupation. Cue words: ``lists/name_cues.txt`` (``profession_*``).
"""
from __future__ import annotations

from collections.abc import Iterable

from ..document import CAP, LOW, UP, Document
from ..rules import Rule
from ..spans import CERTAIN, REVIEW, Span
from .names import scan_note
from .names import words as W
from .names.lexicon import NON, PROF
from .names.scan import Scan


LIST = Rule("professions:list", ("PROFESSION",), (CERTAIN, REVIEW),
            "an occupation from the professions list",
            amber="after 'is a' with no person as its subject the word may not be someone's occupation",
            list="professions.txt", reads=("name_cues.txt",))
AFTER = Rule("professions:after", ("PROFESSION",), (CERTAIN,),
             "an occupation after the word '{detail}' (retired court stenographer)",
             detail="the word before the occupation", reads=("name_cues.txt", "professions.txt"))
#: Every rule of the detector, in the order they run.
RULES = (LIST, AFTER)


def detect(doc: Document) -> Iterable[Span]:
    """Find occupations in ``doc``.

    Returns:
        A list of PROFESSION spans, tier ``certain`` or ``review``, sources
        ``professions:list`` or ``professions:after:<word>`` (:data:`RULES`).

    Raises:
        FileNotFoundError: if a word list is missing.
    """
    if not doc.tokens:
        return []
    sc = scan_note(doc)
    spans: list[Span] = []
    profession_pass(sc, spans)
    return spans


def profession_pass(sc: Scan, spans: list[Span]) -> None:
    """Occupations: a professions-list phrase with context, and after ``retired`` /
    ``former`` / ``works as a`` a short noun phrase ending in an occupational suffix."""
    low, fl, n = sc.low, sc.fl, sc.n
    by_first = sc.lex.professions_by_first
    done = bytearray(n)
    for i in range(n):
        if fl[i] & PROF and not sc.used[i] and not done[i]:
            for phrase in by_first[low[i]]:
                m = len(phrase)
                if tuple(low[i:i + m]) != phrase:
                    continue
                end_i = i + m - 1
                start_i = profession_left(sc, i)
                tier = profession_tier(sc, start_i, end_i)
                if tier:
                    for k in range(start_i, end_i + 1):
                        done[k] = 1
                    spans.append(LIST.span(sc.toks[start_i].start, sc.toks[end_i].end, tier=tier))
                break
    for k in range(n):
        w = low[k]
        if w in W.PROFESSION_OPENERS or w == "as" and k > 0 and low[k - 1] in W.PROFESSION_CONTEXT:
            profession_run(sc, k, done, spans)


def profession_run(sc: Scan, k: int, done: bytearray, spans: list[Span]) -> None:
    low, n = sc.low, sc.n
    j = k + 1
    while j < n and low[j] in ("a", "an", "as") and sc.plain_gap(j - 1, allow_newline=True):
        j += 1
    run: list[int] = []
    while j < n and len(run) < 4 and sc.plain_gap(j - 1, allow_newline=True) and not done[j]:
        w = low[j]
        if not sc.toks[j].word.replace("-", "").isalpha() or sc.fl[j] & NON \
                or w in W.PROFESSION_STOP or sc.shape[j] == CAP and not sc.caps_line(j):
            break
        run.append(j)
        j += 1
    while run:
        w = low[run[-1]]
        if (w.endswith(W.PROFESSION_SUFFIXES) or sc.fl[run[-1]] & PROF) and w not in W.NOT_PROFESSIONS:
            break
        run.pop()
    if run:
        for m in run:
            done[m] = 1
        spans.append(AFTER.span(sc.toks[run[0]].start, sc.toks[run[-1]].end, detail=low[k]))


def profession_left(sc: Scan, i: int) -> int:
    """Extend an occupation over the words before it (``line cook``, ``piano teacher``)."""
    k = i
    while k > 0 and i - k < 3 and sc.plain_gap(k - 1, allow_newline=True):
        w, s = sc.low[k - 1], sc.shape[k - 1]
        if s not in (LOW, UP) or s == UP and not sc.caps_line(k - 1) or sc.fl[k - 1] & NON \
                or w in W.PROFESSION_CONTEXT or w in W.PROFESSION_STOP:
            break
        k -= 1
    return k


def profession_tier(sc: Scan, i: int, end_i: int) -> str | None:
    low, text = sc.low, sc.text
    if end_i + 2 < sc.n and low[end_i + 1] == "by" and low[end_i + 2] == "trade":
        return CERTAIN
    k = i - 1
    steps = 0
    while k >= 0 and steps < 5:
        g = text[sc.toks[k].end:sc.toks[k + 1].start]
        if any(c in ".;" for c in g) or g.count("\n") > 1:
            break   # one line break inside a sentence is fine ("a 68 yo\ncommercial pilot")
        w = low[k]
        if w in W.PROFESSION_CONTEXT or w.endswith("-year-old") or w.endswith("-yr-old") \
                or w in ("o", "old") and k > 0 and low[k - 1] in ("y", "year", "yr"):
            return CERTAIN
        if k == i - 1 and w.isdigit() and len(w) <= 3 and "," in g and k > 0 \
                and "," in sc.gap(k - 1) and sc.used[k - 1]:
            return CERTAIN   # "Rutendo Mapfumo, 54, high school chemistry teacher"
        k -= 1
        steps += 1
    if i >= 2 and low[i - 1] in ("a", "an"):
        if low[i - 2] == "as":
            return CERTAIN
        if low[i - 2] in ("is", "was"):
            # "he is a plumber", "Father Marcus Clarke is a firefighter": a person subject
            subj = i - 3
            return CERTAIN if subj >= 0 and (low[subj] in W.PROFESSION_SUBJECTS or sc.used[subj]) \
                else REVIEW
        if sc.gap(i - 2).strip(" \t") == "," and sc.used[i - 2]:
            return CERTAIN   # "her grandson Mateus Lund, a civil engineer"
    return None
