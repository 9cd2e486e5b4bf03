"""Names placed by the layout of the note.

A name heading a line and followed by the patient's age or an identifier label
(``leopold fairweather, 96,``, ``Grimsby, Dmitri | MRN``), optionally after ``pt`` /
``name:``; the subject of ``X is a 42 yo``; a name in brackets after a service
(``Neurosurgery (Okwu)``); a name before a phone label and its number (``Ilse Varga cell#
555-0144``); and hospitals named after people (``Johns Hopkins``: HOSPITAL).
"""
from __future__ import annotations

import re
from bisect import bisect_left

from ...document import CAP, INI, LOW, UP
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW
from . import words as W
from .evidence import AGE_OR_IDENTIFIER, ENGLISH_COLLISION, PHONE_LABEL, UPGRADES
from .lexicon import (CLN, COMMON, CRED, ENG, FOL, LIST, MED, MONTH, NON, PROF, REL, STATE, SUR,
                      TITLE, TTL_D)
from .context import relation_phrase_at
from .shapes import CAPITALISED
from .runs import service_word
from .scan import AGE_ID_AFTER_RE, LINE_WORD_RE, Scan

_INSTITUTIONS: dict | None = None



def institutions_by_first() -> dict[str, list[tuple[str, ...]]]:
    """The hospitals named after people (``eponymous_institutions.txt``) as word tuples,
    indexed by their first word, longest first."""
    global _INSTITUTIONS
    if _INSTITUTIONS is None:
        out: dict[str, list[tuple[str, ...]]] = {}
        for words in sorted(W.INSTITUTIONS, key=len, reverse=True):
            out.setdefault(words[0], []).append(words)
        _INSTITUTIONS = out
    return _INSTITUTIONS


INSTITUTION = Rule("names:institution", ("HOSPITAL",), (CERTAIN,),
                   "a name that is part of an institution's name", list="eponymous_institutions.txt")


def institution_pass(sc: Scan) -> None:
    """``Johns Hopkins``, ``NYU Langone``: a hand-written hospital name made of name-list
    words (:data:`.name_rules.INSTITUTIONS`) is a HOSPITAL, certain, and no person."""
    low, shape, n = sc.low, sc.shape, sc.n
    by_first = institutions_by_first()
    for i in sc.indices_in(by_first.keys()):
        cands = by_first[low[i]]
        if sc.used[i] or not (shape[i] in (CAP, UP) or sc.lower[i]):
            continue
        for words in cands:
            m = len(words)
            if tuple(low[i:i + m]) == words and all(
                    sc.plain_gap(k) and "\n" not in sc.gap(k) for k in range(i, i + m - 1)):
                for k in range(i, i + m):
                    sc.used[k] = 1
                sc.spans.append(INSTITUTION.span(sc.toks[i].start, sc.toks[i + m - 1].end))
                break


def run_from(sc: Scan, j: int) -> list[int]:
    """Name-like tokens from j: ``LAST, FIRST [M]`` or up to 3 words (and an initial)
    separated by single spaces on one line."""
    n, shape = sc.n, sc.shape
    if not sc.name_like(j) or sc.used[j]:
        return []
    if j + 1 < n and sc.gap(j).strip(" \t") == "," and "\n" not in sc.gap(j):
        if sc.name_like(j + 1) and not sc.used[j + 1] and shape[j + 1] == shape[j]:
            idx = [j, j + 1]
            if j + 2 < n and len(sc.low[j + 2]) == 1 and sc.low[j + 2].isalpha() \
                    and sc.plain_gap(j + 1):
                idx.append(j + 2)   # "pemberton, roderick a": a middle initial
            return idx
        return [j]
    idx = [j]
    k = j
    while k + 1 < n and len(idx) < 4 and sc.gap(k) in (" ", ". ") and not sc.used[k + 1]:
        if sc.gap(k) == ". " and shape[k] != INI:
            break
        nxt = k + 1
        if shape[nxt] == INI and len(idx) < 3:
            idx.append(nxt)
        elif sc.name_like(nxt) and not sc.stops(nxt) \
                and len([m for m in idx if shape[m] != INI]) < 3 and (
                len(idx) < 2 or sc.fl[nxt] & LIST and not sc.fl[nxt] & ENG):
            idx.append(nxt)   # a third word only from the name lists ("... hd#4")
        else:
            break
        k = nxt
    if shape[idx[-1]] == INI and not sc.text.startswith(".", sc.toks[idx[-1]].end) \
            and not sc.lower[idx[-1]] and idx[-1] + 1 < n and sc.plain_gap(idx[-1]):
        idx.pop()
    return idx


_PD = ("PATIENT", "DOCTOR")
HEAD = Rule("names:head", _PD, (CERTAIN,), "a name at the head of the note",
            reads=("name_cues.txt",), evidence=(AGE_OR_IDENTIFIER,),
            detail="the word before the name (pt, name)")
SUBJECT_OF_AGE = Rule("names:subject_of_age", ("PATIENT",), (CERTAIN,),
                      "a name before an age (Smith is 45)")


def head_pass(sc: Scan) -> None:
    """A name heading a line and followed by the patient's age or an identifier label
    (``leopold fairweather, 96,``, ``Grimsby, Dmitri | MRN``, ``okafor, chinedu — 67
    yo``), optionally after ``pt`` / ``name:`` (``pt ngozi rosenthal hd#4``); and the
    subject of ``X is a 42 yo`` at the start of a sentence."""
    toks, low, fl, n, text = sc.toks, sc.low, sc.fl, sc.n, sc.text
    starts = sc._starts
    for m in LINE_WORD_RE.finditer(text):
        i = bisect_left(starts, m.end())
        if i >= n or starts[i] != m.end() or sc.used[i]:
            continue
        prefix = None
        j = i
        if low[i] in W.HEAD_PREFIXES and i + 1 < n and sc.gap(i).strip(" \t") in ("", ":", ".", ".:"):
            prefix, j = low[i], i + 1
        idx = run_from(sc, j)
        if not idx:
            continue
        words = [k for k in idx if sc.shape[k] != INI]
        clean = [k for k in words if fl[k] & LIST and not fl[k] & ENG and not sc.eponym_after(k)]
        last = idx[-1]
        end = toks[last].end + (1 if sc.shape[last] == INI and text.startswith(".", toks[last].end) else 0)
        after = AGE_ID_AFTER_RE.match(text, end)
        if after and (clean and (len(words) >= 2 or prefix) or len(words) >= 2 and (
                prefix or after.group("label")
                or "," in text[toks[idx[0]].end:toks[idx[1]].start])):
            # an age after two unlisted words counts only after "pt" or in "LAST, FIRST"
            detail, evidence = "", (AGE_OR_IDENTIFIER,)
        elif prefix in ("pt", "patient", "name") and len(words) >= 2 and fl[words[-1]] & LIST \
                and not fl[words[-1]] & ENG and not sc.eponym_after(words[-1]) \
                and not low[words[0]].endswith(("ing", "ed")) \
                and not fl[words[0]] & ENG:
            detail, evidence = prefix, ()
        else:
            continue
        label = "DOCTOR" if sc.credential_after(last) else "PATIENT"
        sc.emit(idx, label, CERTAIN, HEAD, remember=True, detail=detail, evidence=evidence)
    depts = sc.lex.departments
    # (the tokens right before " (", in text order: found with str.find, not a pass over them)
    p = text.find(" (")
    while p >= 0:
        i = bisect_left(starts, p) - 1   # the last token starting before p
        if 0 <= i < n - 1 and toks[i].end == p and low[i] in depts and not sc.used[i + 1]:
            service_contact(sc, i)
        p = text.find(" (", p + 1)
    # (the tokens "is" in range(2, n - 2), in order: found with list.index)
    i = 1
    while True:
        try:
            i = low.index("is", i + 1, n - 2)
        except ValueError:
            break
        if i < 2 or low[i + 1] not in ("a", "an") or sc.used[i - 1]:
            continue
        w = toks[i + 2].word
        if not (w[:1].isdigit() and (len(w) <= 3 and w.isdigit() or "-y" in w.lower())):
            continue
        idx = []
        k = i - 1
        while k >= 0 and len(idx) < 4 and (sc.name_like(k) or idx and low[k] in W.PARTICLES) \
                and not sc.used[k] and sc.gap(k) in (" ",):
            idx.append(k)
            if sc.sentence_start(k):
                break
            k -= 1
        if idx and sc.sentence_start(idx[-1]) and low[idx[-1]] not in W.PARTICLES:
            idx.reverse()
            sc.emit(idx, "PATIENT", CERTAIN, SUBJECT_OF_AGE, remember=True)


#: After a phone label: an optional ``#``, ``:`` or ``.``, then the number's first digit.
_NUMBER_AFTER_RE = re.compile(r"[ \t]*[#:.]?[ \t]*\(?\d")


def _words_before(sc: Scan, k: int, ok) -> list[int]:
    """Token indices of up to three words ending at ``k`` that each pass ``ok(index)`` and are
    joined by single spaces, in text order (``[]`` when ``k`` fails)."""
    idx: list[int] = []
    while k >= 0 and len(idx) < 3 and ok(k):
        idx.append(k)
        if k == 0 or sc.gap(k - 1) != " ":
            break
        k -= 1
    idx.reverse()
    return idx


def phone_owner(sc: Scan) -> None:
    """``Ilse Varga cell# 555-0144``: up to three name-like words right before a phone label
    (cue ``phone_label``) and its number are the person called. Certain with two words and
    no ordinary or medical word among them, else review (one word: only a listed name)."""
    low, fl, toks = sc.low, sc.fl, sc.toks
    for i in sc.indices_in(W.PHONE_LABELS):
        if i < 1 or not _NUMBER_AFTER_RE.match(sc.text, toks[i].end) or sc.gap(i - 1) != " ":
            continue
        idx = _words_before(sc, i - 1, lambda k: sc.name_like(k) and not sc.used[k] and not sc.stops(k)
                            and not service_word(low[k]) and toks[k].word.isalpha())
        if not idx:
            continue
        plain = not any(fl[m] & (ENG | MED) for m in idx)
        if len(idx) == 1 and not (fl[idx[0]] & LIST and plain):
            continue
        tier = CERTAIN if len(idx) >= 2 and plain else REVIEW
        sc.emit(idx, "PATIENT", tier, CAPITALISED, remember=tier == CERTAIN, evidence=(PHONE_LABEL,))


SERVICE_CONTACT = Rule("names:service_contact", ("DOCTOR",), (CERTAIN, REVIEW),
                       "a name given as the {detail} service's contact",
                       amber="the word may name the service rather than a person",
                       list="departments.txt", evidence=UPGRADES, detail="the service")


def service_contact(sc: Scan, i: int) -> None:
    """``Neurosurgery (Okwu)``: a capitalised name alone in brackets after a service is
    the consultant; certain if in the name lists, else review."""
    j = i + 1
    idx = [j]
    if j + 1 < sc.n and sc.plain_gap(j) and sc.shape[j + 1] == CAP:
        idx.append(j + 1)
    last = idx[-1]
    if not sc.text.startswith(")", sc.toks[last].end):
        return
    if not all(sc.shape[k] == CAP and sc.name_like(k) for k in idx):
        return
    listed = any(sc.fl[k] & LIST and not sc.fl[k] & (ENG | MED) for k in idx)
    tier = CERTAIN if listed else REVIEW
    sc.emit(idx, "DOCTOR", tier, SERVICE_CONTACT, remember=listed, detail=sc.low[i])


ROLE_IN_BRACKETS = Rule(
    "names:role_in_brackets", _PD, (CERTAIN, REVIEW),
    "a name before the role '{detail}' in brackets (IMKE VANTERPOOL (DAUGHTER))",
    amber="one word that is on no name list, or also an ordinary word, may not be a name",
    reads=("relations.txt", "titles.txt"), evidence=UPGRADES, detail="the role in brackets")


def role_in_brackets(sc: Scan) -> None:
    """A name followed by the person's role in brackets: ``IMKE VANTERPOOL (DAUGHTER)``,
    ``DIRK CASTELLANO (RESIDENT)``, ``Pia Lund (wife)``. Up to three name-like words on the
    line before ``(`` + one relation or title word + ``)``; PATIENT after a relation, DOCTOR
    after a care-team title. Certain with two words or one listed name that is no ordinary
    word, else review."""
    toks, low, fl, text = sc.toks, sc.low, sc.fl, sc.text
    phrase_ends = W.RELATION_PHRASE_ENDS   # (relation_phrase_at's first test, done here)
    starts = sc._starts
    # (only a token right before ")" can be a role in brackets: those tokens i >= 1, in text
    # order, found with str.find instead of a pass over every token)
    q = -1
    while True:
        q = text.find(")", q + 1)
        if q < 0:
            break
        i = bisect_left(starts, q) - 1   # the last token starting before the ")"
        if i < 1 or toks[i].end != q:
            continue
        phrase = relation_phrase_at(sc, i) if not fl[i] & (REL | TTL_D) and low[i] in phrase_ends else 0
        if not (fl[i] & (REL | TTL_D) or phrase) or fl[i] & LIST and not fl[i] & (REL | TTL_D):
            continue
        first = i - phrase + 1 if phrase else i   # "(SIGNIFICANT OTHER)": a relation phrase
        if first < 1:
            continue
        before = text[toks[first - 1].end:toks[first].start]
        if before.strip(" \t") != "(" or "\n" in before or not text.startswith(")", toks[i].end):
            continue
        idx = _words_before(sc, first - 1, lambda k: sc.name_like(k) and not sc.used[k]
                            and low[k] not in W.NAME_STOP_WORDS and not low[k].endswith(("ed", "ing")))
        if not idx:
            continue
        listed = any(fl[m] & LIST and not fl[m] & (ENG | MED) for m in idx)
        tier = CERTAIN if len(idx) >= 2 or listed else REVIEW
        label = "DOCTOR" if fl[i] & TTL_D and not fl[i] & REL and not phrase else "PATIENT"
        role = "_".join(low[first:i + 1])   # "significant_other"
        sc.emit(idx, label, tier, ROLE_IN_BRACKETS, remember=tier == CERTAIN, detail=role)


FAMILY_NAME = Rule("names:family_name", ("PATIENT",), (CERTAIN, REVIEW),
                   "a surname before the word 'family'",
                   amber="a common surname that is also an ordinary word may be that word",
                   list="surnames.tsv", reads=("name_cues.txt",),
                   evidence=(ENGLISH_COLLISION,) + UPGRADES)


def family_name(sc: Scan) -> None:
    """``the Lindqvist family``, ``KEEP OKAFOR FAMILY AWARE``: the word right before a family
    word (cue ``family_word``: ``family``, ``families``) names the family when it is a listed
    surname that is no ordinary or medical word (certain), a common surname that is also an
    ordinary word (``ROMERO``, ``Green``: review), or an unlisted Capitalised word after
    ``the`` in a note with capitals (certain). Clinical, service, function and title words
    give nothing (``support family``, ``ICU family meeting``, ``pt family``)."""
    for j in sc.indices_in(W.FAMILY_WORDS):
        k = j - 1
        if k < 0 or sc.used[k] or sc.gap(k) != " " or not sc.toks[k].word.isalpha() \
                or len(sc.low[k]) < 3:
            continue
        f, s, w = sc.fl[k], sc.shape[k], sc.low[k]
        if f & (NON | CLN | FOL | TITLE | REL | CRED | PROF | MONTH | STATE) or service_word(w):
            continue
        if not (s in (CAP, UP) and (s == CAP or sc.caps_line(k)) or s == LOW and sc.lower[k]):
            continue   # "the large family": lower case among capitals is an ordinary word
        after_the = k > 0 and sc.low[k - 1] == "the" and sc.plain_gap(k - 1)
        evidence = ()
        if f & SUR and not f & (ENG | MED):
            tier = CERTAIN
        elif f & SUR and f & COMMON and not f & MED:
            tier, evidence = REVIEW, (ENGLISH_COLLISION,)
        elif not f & LIST and s == CAP and not sc.strict(k) and after_the:
            tier = CERTAIN
        else:
            continue
        sc.emit([k], "PATIENT", tier, FAMILY_NAME, remember=tier == CERTAIN, evidence=evidence)


#: The passes of this module, each with the rules it may give (run in :data:`..PASSES` order).
INSTITUTION_PASS = Pass(institution_pass, (INSTITUTION,))
HEAD_PASS = Pass(head_pass, (HEAD, SUBJECT_OF_AGE, SERVICE_CONTACT))
ROLE_PASS = Pass(role_in_brackets, (ROLE_IN_BRACKETS,))
PHONE_OWNER_PASS = Pass(phone_owner, (CAPITALISED,))
FAMILY_PASS = Pass(family_name, (FAMILY_NAME,))
