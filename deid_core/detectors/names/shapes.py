"""Name rules by the shape of the words, without a list name or a context word to go by: an
initial and a surname (``J. Smith``, ``R. BASKOV AWARE``, ``per d hill``), capitalised words
around an initial (``Faina D. Yefremova``), a capitalised word with accented letters
(``Krisztián Szöllösy``) and an unlisted word before a verb only a person does (``Radka
wishes``). Called by :func:`.list_rules.list_pass`; each rule is declared above its function.
"""
from __future__ import annotations

from ...document import CAP, INI, LOW, UP
from ...rules import Rule
from ...spans import CERTAIN, REVIEW
from . import words as W
from .evidence import (CAPITALISED as CAPITALISED_NEXT, INITIAL, PERSON_WORD, PHONE_LABEL,
                       SPEAKER_VERB, SURNAME, UPGRADES)
from .lexicon import CLN, CRED, ENG, FOL, GIV, LBL, LIST, MED, MONTH, NON, PROF, REL, STATE, SUR, TITLE
from .runs import service_word
from .scan import SPACES_STR, Scan

_PD = ("PATIENT", "DOCTOR")


INITIAL_RULE = Rule("names:initial", _PD, (CERTAIN, REVIEW), "an initial and a name",
                    amber="the words may not be a name", reads=("surnames.tsv", "name_cues.txt"),
                    evidence=(SURNAME, PERSON_WORD) + UPGRADES)


def caps_initial_surname(sc: Scan, i: int, dotted: bool = True) -> bool:
    """``R. BASKOV AWARE``, ``PER T. HALLORAN``: in capitals, an initial, a dot and a surname
    (listed or not) next to a person word (a person's verb or ``aware`` after it, ``per`` /
    ``by`` / ``with`` before it); without the dot (``J HALLORAN ORDERED``) only a listed
    surname before a care-team verb (``ordered``, ``aware``). Certain; False when the words
    do not fit."""
    j = i + 1
    w, fj = sc.low[j], sc.fl[j]
    start = sc.toks[i].start
    if start and sc.text[start - 1] not in " \t\n\r(":
        return False   # "D/C. PULSES", "C&D. DRESSING": an abbreviation, no initial
    if fj & (NON | CLN | FOL | CRED | TITLE | REL) or not sc.toks[j].word.isalpha() or len(w) < 3 \
            or w.endswith(("ed", "ing", "ly")) or w in W.NAME_STOP_WORDS or sc.eponym_after(j):
        return False
    after = sc.low[j + 1] if j + 1 < sc.n and sc.plain_gap(j) else ""
    before = sc.low[i - 1] if i > 0 and sc.plain_gap(i - 1) else ""
    if not dotted and not (fj & SUR and after in W.CLINICIAN_AFTER):
        return False
    if not (after in W.NAME_STOP_WORDS or after in W.PERSON_AFTER or before in W.PERSON_BEFORE
            or fj & SUR and after in W.CLINICIAN_AFTER):
        return False
    label = "DOCTOR" if sc.credential_after(j) or after in W.CLINICIAN_AFTER else "PATIENT"
    sc.emit([i, j], label, CERTAIN, INITIAL_RULE, remember=bool(fj & LIST), evidence=(SURNAME, PERSON_WORD))
    return True


def initial_surname(sc: Scan, i: int) -> None:
    """``J. Smith``: an initial, a dot, a surname."""
    j = i + 1
    text = sc.text
    if sc.gap(i) == " " and not sc.used[j] and sc.shape[j] == UP and sc.strict(j):
        caps_initial_surname(sc, i, dotted=False)   # "J HALLORAN ORDERED"
        return
    if sc.gap(i).rstrip(" \t") != "." or sc.used[j] or not sc.shaped(j):
        return
    fj = sc.fl[j]
    if sc.shape[j] == UP and sc.strict(j) and caps_initial_surname(sc, i):
        return
    if not fj & SUR or fj & NON:
        return
    before = text[:sc.toks[i].start].rstrip(" \t")
    if before.endswith("&") or fj & ENG and sc.low[i] in ("s", "o", "a", "p") and (
            not before or before.endswith("\n")):
        return   # "A&O. PLEASANT", "STRICT I & O. KEEP NEG", "O. SEE CHART": a SOAP heading or I&O
    if i > 0 and sc.shape[i - 1] in (CAP, UP) and sc.plain_gap(i - 1):
        return  # "Hep B. Smith" / handled by given+initial
    if i > 0 and text[sc.toks[i].start - 1:sc.toks[i].start] in ".-/":
        return
    if sc.eponym_after(j) or fj & MED and sc.strict(j):
        return
    tier = REVIEW if sc.strict(j) else CERTAIN
    label = "DOCTOR" if sc.credential_after(j) else "PATIENT"
    sc.emit([i, j], label, tier, INITIAL_RULE, remember=True, evidence=(SURNAME,))


def _lower_pair(sc: Scan, i: int, collisions: bool = False) -> int:
    """In lower-case text, token i is an initial and token i+1 a listed surname that is no
    clinical word and (unless ``collisions``) no ordinary or medical word (``k. varga``,
    ``d hill``): 2 if the initial is dotted, 1 if not, 0 if the two do not fit."""
    j = i + 1
    if j >= sc.n or sc.shape[i] != INI or not sc.lower[i] or sc.shape[j] != LOW or sc.used[j]:
        return 0
    start = sc.toks[i].start
    if start and sc.text[start - 1] not in " \t\n\r(":
        return 0   # "w/c", "s/p d": an abbreviation, no initial
    g = sc.gap(i)
    dotted = g.startswith(".")
    if (g[1:] if dotted else g).strip(SPACES_STR) or not g.strip(".") and not dotted:
        return 0
    fj = sc.fl[j]
    if not fj & SUR or fj & (NON | CLN | FOL | TITLE | REL | CRED) \
            or fj & (ENG | MED) and not collisions \
            or len(sc.low[j]) < 3 or sc.eponym_after(j):
        return 0
    return 2 if dotted else 1


def lower_initial_surname(sc: Scan, i: int) -> bool:
    """``per d hill``, ``nsg (k. varga and t. osei) verified``: in lower-case text an
    initial and a listed surname (:func:`_lower_pair`) after a person word (``per``, ``by``,
    ``with``), before a person's verb (``aware``, ``ordered``), or two dotted pairs joined
    by ``and``. Certain; DOCTOR (staff write their colleagues so); False when nothing fits."""
    j = i + 1
    before = sc.low[i - 1] if i > 0 and sc.plain_gap(i - 1) else ""
    kind = _lower_pair(sc, i, collisions=before in W.INITIAL_BEFORE)   # "per d hill"
    if not kind:
        return False
    after = sc.low[j + 1] if j + 1 < sc.n and sc.plain_gap(j) else ""
    joined = after in ("and", "&") and _lower_pair(sc, j + 2) == 2 and sc.plain_gap(j + 1) \
        or before in ("and", "&") and i >= 3 and _lower_pair(sc, i - 3) == 2 and sc.plain_gap(i - 2)
    if not (before in W.INITIAL_BEFORE or kind == 2 and (before in W.PERSON_BEFORE or
            joined or after in W.NAME_STOP_WORDS or after in W.CLINICIAN_AFTER)):
        return False
    sc.emit([i, j], "DOCTOR", CERTAIN, INITIAL_RULE, remember=True, evidence=(SURNAME, PERSON_WORD))
    return True


CAPITALISED = Rule(
    "names:capitalised", _PD, (CERTAIN, REVIEW), "capitalised words in a name position",
    amber="the words are on no name list, or also ordinary words: only their shape and place "
          "suggest a name",
    reads=("name_cues.txt",), evidence=(INITIAL, CAPITALISED_NEXT, SPEAKER_VERB, PHONE_LABEL) + UPGRADES)


def unlisted_initial_name(sc: Scan, i: int) -> bool:
    """``Faina D. Yefremova``: capitalised word, initial, capitalised word, none listed as
    a non-name; review (an undotted initial only after a listed given name)."""
    j, k = i + 1, i + 2
    fk = sc.fl[k]
    if fk & (NON | FOL | CLN | TITLE | CRED) or sc.used[j] or sc.used[k]:
        return False
    dotted = sc.text.startswith(".", sc.toks[j].end)
    if not (sc.plain_gap(i) and sc.plain_gap(j)) or "\n" in sc.gap(i) + sc.gap(j):
        return False
    if not dotted and not sc.fl[i] & GIV:
        return False
    if sc.eponym_after(k):
        return False
    label = "DOCTOR" if sc.credential_after(k) else "PATIENT"
    tier = CERTAIN if dotted and sc.id_after(k) else REVIEW   # "Ngozi W. Okafor, 80 yo"
    sc.emit([i, j, k], label, tier, CAPITALISED, remember=tier == CERTAIN,
            evidence=(INITIAL, CAPITALISED_NEXT))
    return True


ACCENTED_CAPITALISED = Rule("names:accented_capitalised", _PD, (REVIEW,),
                            "a capitalised word with accented letters, as names often are",
                            amber="the word is on no name list; only its shape suggests a name",
                            evidence=UPGRADES)


def accented(sc: Scan, i: int) -> None:
    """A capitalised word with non-ASCII letters that is in no list (``Krisztián
    Szöllösy``): in an English note most likely a name; review."""
    if sc.eponym_after(i) or sc.lower[i]:
        return
    idx = [i]
    k = i
    while k + 1 < sc.n and len(idx) < 3 and sc.plain_gap(k) and sc.shape[k + 1] in (CAP, INI) \
            and not sc.fl[k + 1] & (NON | FOL | CLN | TITLE | CRED) and not sc.used[k + 1]:
        k += 1
        idx.append(k)
    if i > 0 and not sc.used[i - 1] and sc.shape[i - 1] == CAP and sc.plain_gap(i - 1) \
            and not sc.fl[i - 1] & (NON | FOL | CLN | TITLE | REL | LBL):
        idx.insert(0, i - 1)
    if sc.shape[idx[-1]] == INI and len(idx) > 1 and not sc.text.startswith(".", sc.toks[idx[-1]].end):
        idx.pop()
    if sc.eponym_after(idx[-1]):
        return
    label = "DOCTOR" if sc.credential_after(idx[-1]) else "PATIENT"
    sc.emit(idx, label, REVIEW, ACCENTED_CAPITALISED, remember=False)


def speaker(sc: Scan, i: int) -> None:
    """``At this time, Radka wishes ...``: an unlisted capitalised word inside a sentence
    (capitals are evidence) before a verb only a person does (cue ``speaker_verb``:
    ``wishes``, ``verbalizes``, ``states``) is a name; certain, remembered for the note."""
    j = i + 1
    w = sc.low[i]
    if sc.lower[i] or sc.used[j] or not sc.plain_gap(i) or sc.low[j] not in W.SPEAKER_VERBS \
            or len(w) < 3 or not w.isalpha() or sc.fl[i] & (PROF | MONTH | STATE) \
            or service_word(w) or sc.sentence_start(i):
        return
    sc.emit([i], "PATIENT", CERTAIN, CAPITALISED, remember=True, evidence=(SPEAKER_VERB,))
