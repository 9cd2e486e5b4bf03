"""The run of name tokens after a context word (:func:`take`), and the service words
(:func:`service_word`: ``renal``, ``team``, ``nsicu``) that are a team, not a person.

Used by the context rules (:mod:`.context`) and, for :func:`service_word`, by the list, head,
consistency and signature rules.
"""
from __future__ import annotations

from functools import lru_cache

from ... import lists
from ...document import CAP, INI, LOW, UP
from . import words as W
from .lexicon import CLN, COMMON, CRED, ENG, FOL, GIV, LIST, NON, ORD, SUR, TITLE
from .scan import Scan


def service_word(word: str) -> bool:
    """A service, department, unit or shorthand word, lower-cased (``renal``, ``speech``, ``team``,
    ``nsicu``, ``eps``): after ``seen by`` a team, not a person (lists
    ``generic_service_words``, ``departments``, ``abbreviations`` of kinds shorthand and clinical)."""
    return word in _service_words()


@lru_cache(maxsize=None)
def _service_words() -> frozenset[str]:
    """The union :func:`service_word` reads, built once."""
    return (lists.handwritten("generic_service_words") | lists.handwritten("departments")
            | lists.abbreviations("shorthand", "clinical"))


def middle_name(sc: Scan, m: int) -> bool:
    """Token m, after the given name of ``LAST, FIRST``, is a middle name: written in the
    given name's case, on its line with a plain gap, no function, clinical, title or
    credential word, and either a given name more common as a name than as a word, or the last
    word of its line (``MENDOZA, RAFAEL ANTONIO``, ``TRAN, THI HOA``; not ``ACHTERBERG,
    WILLEM ADMITTED``)."""
    k = m - 1
    f = sc.fl[m]
    if sc.shape[m] != sc.shape[k] or sc.shape[m] not in (CAP, UP) or not sc.plain_gap(k) \
            or not sc.toks[m].word.isalpha() or len(sc.low[m]) < 2 \
            or f & (NON | CLN | FOL | CRED | TITLE) or sc.stops(m) \
            or sc.low[m] in W.ID_LABEL_WORDS or sc.low[m] in W.NAME_STOP_WORDS:
        return False
    return bool(f & GIV and not f & ORD) or sc.line_ends_after(m)


def take(sc: Scan, j: int, allow_comma: bool = False, max_tokens: int = 4,
         second_free: bool = False) -> list[int]:
    """Name tokens from j on (j must satisfy ctx_ok): further words join when they are
    list names, initials, or follow a given name or initial (or, with ``second_free``, any
    capitalised second word: ``Dr. Cettina Fanucci``); at most one line break."""
    idx = [j]
    k = j
    n, fl, shape = sc.n, sc.fl, sc.shape
    newline_used = False
    if allow_comma and k + 1 < n and shape[k] in (CAP, UP) and shape[k + 1] == INI \
            and sc.gap(k).strip(" \t") == "," and "\n" not in sc.gap(k) and sc.line_ends_after(k + 1):
        return [k, k + 1]   # "Pt: Adeyinka, F": LAST, first initial ending the line
    if allow_comma and k + 1 < n and sc.gap(k).strip(" \t") == "," and "\n" not in sc.gap(k) \
            and (fl[k + 1] & GIV or shape[k + 1] == shape[k] and not fl[k + 1] & (NON | TITLE | CRED)) \
            and sc.ctx_ok(k + 1) and shape[k] != INI and shape[k + 1] != INI:
        idx.append(k + 1)
        k += 1
        if k + 1 < n and shape[k + 1] == INI and sc.plain_gap(k):
            idx.append(k + 1)
        elif k + 1 < n and middle_name(sc, k + 1):
            idx.append(k + 1)   # "MENDOZA, RAFAEL ANTONIO", "TRAN, THI HOA": a middle name
        return idx
    while len(idx) < max_tokens and k + 1 < n:
        if shape[k] != INI and sc.low[k][-2:] in ("'s", "’s"):
            break
        nxt = k + 1
        if not sc.plain_gap(k, allow_newline=not newline_used):
            break
        if sc.low[nxt] in W.PARTICLES and shape[nxt] in (LOW, CAP) and nxt + 1 < n \
                and "\n" not in sc.gap(k) and (len(idx) > 1 or fl[k] & GIV or shape[k] == CAP):
            m = nxt
            while m < n and sc.low[m] in W.PARTICLES and m - nxt < 2 and sc.plain_gap(m):
                m += 1
            if m < n and m > nxt and shape[m] == CAP and not fl[m] & NON and sc.plain_gap(m - 1) \
                    and "\n" not in sc.gap(m - 1):
                idx.extend(range(nxt, m + 1))
                k = m
                continue
            if not (shape[nxt] == CAP and fl[nxt] & SUR):
                break   # "Dr. Grace Do": a capitalised listed surname that is also a particle
        g = sc.gap(k)
        nl = "\n" in g
        common_low = (shape[nxt] == LOW and shape[k] == LOW and fl[k] & GIV and fl[nxt] & COMMON
                      and not fl[nxt] & NON and not nl)   # "pt john smith" in a note with capitals
        if not (sc.ctx_ok(nxt) or common_low) \
                or fl[nxt] & (FOL | CLN | CRED | TITLE) and not fl[nxt] & LIST:
            break
        if sc.low[nxt] in W.ID_LABEL_WORDS or "\t" in g or "   " in g:
            break   # "Mrs Philippa Ashdown-Reyes   DOB": a header's next column
        if fl[nxt] & NON and sc.strict(nxt) or sc.stops(nxt) or shape[nxt] == UP == shape[k] \
                and sc.low[nxt] in W.NAME_STOP_WORDS and not fl[nxt] & LIST:
            break   # "WIFE GRETA TO CALL", "dr gonzalez agrees", "SON ANTON WENT HOME TO Ohio": a verb
        head = sc.low[nxt].split("-")[0]
        if sc.strict(nxt) and not fl[nxt] & LIST and shape[nxt] != INI and (
                len(head) < 3 or head in W.NAME_STOP_WORDS or head in W.PERSON_AFTER
                or service_word(head)):
            break   # "DR VOSS AWARE-ORDERS GIVEN", "DR VOSS UP TO SEE PT": a word after the name
        if shape[nxt] == INI:
            after = nxt + 1
            dotted = sc.toks[nxt].end < len(sc.text) and sc.text[sc.toks[nxt].end] == "."
            if not dotted and after < n and shape[after] == LOW:
                break
            if nl:
                break
        elif not (fl[nxt] & LIST or shape[k] == INI or fl[k] & GIV
                  or second_free and len(idx) == 1 and shape[nxt] == shape[k]):
            break
        if nl:
            if fl[nxt] & NON or not (fl[nxt] & LIST and sc.line_ends_after(nxt)
                                     or fl[k] & GIV and sc.line_ends_after(nxt)
                                     or second_free and len(idx) == 1 and not fl[k] & SUR
                                     and (fl[nxt] & LIST and not fl[nxt] & ENG
                                          or not sc.strict(nxt))):
                break   # "son kwame\ndrives": a lower-case word on the next line is a verb
            newline_used = True
        idx.append(nxt)
        k = nxt
    return idx
