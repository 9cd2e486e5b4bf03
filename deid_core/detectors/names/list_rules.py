"""List rules: names found by the Census lists, without context (the rules by the shape of the
words alone are :mod:`.shapes`; :func:`list_pass` runs both).

``LAST, FIRST M``; a given name followed by a capitalised word or an initial; a lone word in
the surname or given-name list. The tier follows the
collision rules: a medical word (``Parkinson``) goes to review, an ordinary English word
(``Will``, ``Hope``) holds fire at the start of a sentence and goes to review elsewhere, a
word followed by an eponym follower (``Bell's palsy``) gives no span, one followed by a
clinical noun (``Foley catheter``) goes to review. Where capitals are no evidence (ALL-CAPS
or lower-case text) lone names need a person word next to them and pairs go to review.
"""
from __future__ import annotations

import re

from ... import lists
from ...document import CAP, INI, LOW, UP
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW
from . import words as W
from .evidence import (CAPITALISED as CAPITALISED_NEXT, CLINICAL_NOUN, ENGLISH_COLLISION, IDENTIFIER,
                       INITIAL, MEDICAL_COLLISION, NO_CASE_EVIDENCE, NOTE_END, PERSON_VERB,
                       PRECEDING_WORD, SOCIAL_HEADING, STATE_NAME, SURNAME, UPGRADES)
from .lexicon import (CLN, COMMON, CRED, ENG, FOL, GIV, LBL, LIST, MED, MONTH, NON, ORD, REL, STATE, SUR,
                      TITLE)
from .runs import service_word
from .scan import AGE_ID_AFTER_RE, SPACES, Scan
from .shapes import (ACCENTED_CAPITALISED, CAPITALISED, INITIAL_RULE, accented, initial_surname,
                     lower_initial_surname, speaker, unlisted_initial_name)


_PD = ("PATIENT", "DOCTOR")
_NAME_LISTS = ("surnames.tsv", "given_names.tsv")


def list_pass(sc: Scan) -> None:
    n, fl, shape, used = sc.n, sc.fl, sc.shape, sc.used
    for i in range(n):
        if used[i]:
            continue
        f = fl[i]
        s = shape[i]
        if s == INI:
            if i + 1 < n and not sc.lower[i]:
                initial_surname(sc, i)
            elif i + 1 < n:
                lower_initial_surname(sc, i)
            continue
        if s == LOW and f & GIV and 0 < i < n - 2 and not sc.lower[i] and shape[i - 1] == UP \
                and shape[i + 2] == UP and lower_in_caps(sc, i):
            continue
        if not f & LIST or not (sc.shaped(i) or s == UP and i + 2 < n):
            if s in (CAP, UP) and i + 1 < n and (sc.text.startswith(",", sc.toks[i].end)
                                                  or cell_gap(sc, i)) and last_first(sc, i):
                continue
            if s == CAP and not f & (NON | FOL | CLN | TITLE | REL | LBL | CRED):
                if i + 2 < n and shape[i + 1] == INI and shape[i + 2] == CAP:
                    if unlisted_initial_name(sc, i):
                        continue
                if not sc.toks[i].word.replace("’", "'").isascii():
                    accented(sc, i)
                elif i + 1 < n:
                    speaker(sc, i)
            continue
        if f & SUR and i + 1 < n and last_first(sc, i):
            continue
        if not sc.shaped(i):
            continue
        if f & GIV and i + 1 < n and given_next(sc, i):
            continue
        lone(sc, i)


_PLACES: frozenset[str] | None = None


def place_names() -> frozenset[str]:
    """Lower-case names of the listed U.S. places and states (``lists.us_places()``,
    ``lists.us_states()``): ``new york``, ``long beach``."""
    global _PLACES
    if _PLACES is None:
        _PLACES = frozenset(name.lower() for name, _state, _pop in lists.us_places()) \
            | frozenset(lists.us_states())
    return _PLACES


def part_listed(sc: Scan, part: str) -> bool:
    """A part of a hyphenated word is a Census name (``mary`` of ``mary-ann``)."""
    return bool(part) and bool(sc.lex.flags(part) & LIST)


LAST_FIRST = Rule("names:last_first", _PD, (CERTAIN, REVIEW), "a name written last name, first name",
                  amber="the words may not be a name", reads=_NAME_LISTS,
                  evidence=(IDENTIFIER,) + UPGRADES)


def particles_before(sc: Scan, i: int) -> list[int]:
    """The particles right before surname token ``i`` on its line (``de la`` of ``de la Cruz,
    Maria``; ``de los``: a particle that is also a word, ``los``, only after another), in
    the surname's shape or lower case; ``[]`` when none."""
    out: list[int] = []
    k = i - 1
    while k >= 0 and len(out) < 2 and not sc.used[k] and sc.plain_gap(k) \
            and sc.shape[k] in (LOW, sc.shape[i]):
        w = sc.low[k]
        if w in W.PARTICLES:
            out.insert(0, k)
        elif w in W.SECOND_PARTICLES and k > 0 and sc.low[k - 1] in W.PARTICLES and sc.plain_gap(k - 1):
            out.insert(0, k)
        else:
            break
        k -= 1
    while out and sc.low[out[0]] not in W.PARTICLES:
        out.pop(0)
    return out


#: A number of five or more digits in the next cell or after a comma: a record number.
_NUMBER_CELL_RE = re.compile(r"[ \t]*[,|\t][ \t]*\d{5,}\b")
#: A comma glued between two cells (``Smith,John``), counted on a line by :func:`cell_gap`.
_GLUED_COMMA_RE = re.compile(r"[^\s,],(?=[^\s,])")


def cell_gap(sc: Scan, i: int) -> bool:
    """Tokens i and i+1 are in adjacent cells of a table row: ``|Smith|John|``, ``| Garcia |
    Grace |`` (a line with two pipes or more), ``Smith,John,4471203`` (a comma with no space,
    on a line with two such commas or more) or a tab (``Kowalczyk, Tomasz<TAB>``: the tab is
    the next cell's edge, so only ``|`` and ``,`` are read here)."""
    g = sc.gap(i)
    if g == ",":
        return len(_GLUED_COMMA_RE.findall(_line(sc, i))) >= 2
    if "|" not in g or "\n" in g or g.strip(" \t") != "|":
        return False
    return _line(sc, i).count("|") >= 2


def _line(sc: Scan, i: int) -> str:
    text, a = sc.text, sc.toks[i].start
    return text[text.rfind("\n", 0, a) + 1:(text.find("\n", a) + 1 or len(text) + 1) - 1]


def last_first(sc: Scan, i: int) -> bool:
    """``SMITH, JOHN C`` / ``Smith, John``: a surname, a comma, a given name, an initial; and
    the same two cells of a table row (``|Smith|John|4471203|``, ``Okafor,Amara,8965161``:
    :func:`cell_gap`), certain before a record number."""
    shape, fl = sc.shape, sc.fl
    cells = cell_gap(sc, i)
    if not cells and (sc.gap(i).strip(" \t") != "," or "\n" in sc.gap(i)):
        return False
    j = i + 1
    if cells and sc.shape[j] in (CAP, UP) and sc.name_like(i) and sc.name_like(j) \
            and (fl[i] | fl[j]) & LIST and not (fl[i] | fl[j]) & (ORD | NON | STATE | CLN) \
            and not fl[i] & fl[j] & MED \
            and not sc.used[j] and _NUMBER_CELL_RE.match(sc.text, sc.toks[j].end):
        sc.emit([i, j], "PATIENT", CERTAIN, LAST_FIRST, remember=True, evidence=(IDENTIFIER,))
        return True   # a table row of a record: surname, given name, record number
    if cells and sc.gap(i) != ",":
        return False   # "| Rehab | Rhonda Tillman |": other cells
    if fl[i] & REL and not sc.id_after(j):
        return False   # "Son, Marcus at bedside": a relation word, then the relative's name
    if not fl[j] & GIV and shape[j] == shape[i] and sc.name_like(i) and sc.name_like(j) \
            and not fl[j] & STATE and not sc.used[j]:
        idx = [i, j]
        if j + 1 < sc.n and shape[j + 1] == INI and sc.plain_gap(j) and "\n" not in sc.gap(j):
            idx.append(j + 1)
        end = sc.toks[idx[-1]].end
        if shape[idx[-1]] == INI and sc.text.startswith(".", end):
            end += 1
        if AGE_ID_AFTER_RE.match(sc.text, end) or _NUMBER_CELL_RE.match(sc.text, end):
            # "Lab comment for Jablonski, Odalys (MRN 00230630)": LAST, FIRST before an identifier
            label = "DOCTOR" if sc.credential_after(idx[-1]) else "PATIENT"
            sc.emit(particles_before(sc, i) + idx, label, CERTAIN, LAST_FIRST, remember=True,
                    evidence=(IDENTIFIER,))
            return True
    if not fl[j] & GIV or fl[j] & (NON | STATE) or shape[j] != shape[i] or shape[i] not in (CAP, UP, LOW):
        return False
    if not fl[i] & SUR:   # Wexley, Cornelius: an unlisted surname
        if fl[i] & (NON | FOL | CLN | TITLE | REL | LBL | CRED) or fl[j] & ENG or sc.strict(i):
            return False
    if shape[i] == LOW and not sc.lower[i]:
        return False
    idx = [i, j]
    middle = j + 1 < sc.n and shape[j + 1] == INI and sc.plain_gap(j) \
        and "\n" not in sc.gap(j)
    if middle:
        idx.append(j + 1)
    if not middle and sc.eponym_after(j):
        return False
    strict = sc.strict(i)
    if middle:
        tier = CERTAIN
    elif strict or (fl[i] | fl[j]) & MED or fl[i] & fl[j] & ENG or not fl[i] & SUR:
        tier = REVIEW
    else:
        tier = CERTAIN
    if (strict or shape[i] == UP) and fl[i] & fl[j] & ENG and not middle and not sc.id_after(idx[-1]):
        return False   # "SMALL, GOLDEN BMS", "page, will update": two English words, no capitals
    if service_word(sc.low[j]) and not middle:
        return False   # "NTG SPRAY, KCL PO": a list of drugs
    if fl[i] & NON and not middle:
        return False
    if shape[i] == UP and not sc.caps_line(i) and not middle:
        tier = REVIEW
    if tier == REVIEW and sc.id_after(idx[-1]) and not (fl[i] | fl[j]) & ORD:
        tier = CERTAIN   # "Wexley, Cornelius (MRN 3206731)", "SMITH, JOHN MRN 4471203"
    label = "DOCTOR" if sc.credential_after(idx[-1]) else "PATIENT"
    sc.emit(particles_before(sc, i) + idx, label, tier, LAST_FIRST, remember=True)
    return True


GIVEN = Rule("names:given", _PD, (CERTAIN, REVIEW), "a given name followed by another name part",
             amber="the words may not be a name", list="given_names.tsv", reads=("surnames.tsv",),
             evidence=(INITIAL, SURNAME, CAPITALISED_NEXT, IDENTIFIER) + UPGRADES)


def given_next(sc: Scan, i: int) -> bool:
    """A given name followed by a capitalised word or an initial (``Anna S.``, ``Maria
    Okonkwo``, ``Mary A. Johnson``)."""
    fl, shape, n = sc.fl, sc.shape, sc.n
    j = i + 1
    if not sc.plain_gap(i) or sc.used[j]:
        return False
    fj = fl[j]
    sj = shape[j]
    fi = fl[i]
    if "-" in sc.low[i] and not all(part_listed(sc, p) for p in sc.low[i].split("-")):
        return False   # "P-WILL DIURESE", "SPUTUM-AN IMPROVEMENT": a heading or word glued to it
    if sj == INI:
        dotted = sc.toks[j].end < len(sc.text) and sc.text[sc.toks[j].end] == "."
        if not dotted and j + 1 < n and shape[j + 1] == LOW:
            return False
        if sc.text[sc.toks[j].end:sc.toks[j].end + 1] in ("/", "&"):
            return False   # "CHECK I/O SHEET", "CAN D/C IV": an abbreviation, no initial
        if not dotted and sc.strict(i) and not (j + 1 < n and fl[j + 1] & SUR and sc.plain_gap(j)):
            return False   # "SOON P EXTUBATION": in capitals an undotted letter is no initial
        if fi & NON and not fi & MONTH:
            return False
        idx = [i, j]
        if j + 1 < n and sc.plain_gap(j) and sc.shaped(j + 1) and not fl[j + 1] & NON \
                and (fl[j + 1] & LIST or dotted and not fl[j + 1] & (FOL | CLN | TITLE | CRED)):
            idx.append(j + 1)   # Mary A. Johnson, Osvaldo K. Oyelaran
        last = idx[-1]
        if sc.eponym_after(last):
            sc.emit(idx, "PATIENT", None, None, remember=False)
            return True
        if fi & MONTH or sc.strict(i) or fi & ENG and sc.sentence_start(i) and not (
                len(idx) == 3 and fl[idx[2]] & SUR):
            tier = REVIEW
        else:
            tier = CERTAIN
        label = "DOCTOR" if sc.credential_after(last) else "PATIENT"
        sc.emit(idx, label, tier, GIVEN, remember=True, evidence=(INITIAL,))
        return True
    device_name = (sj == CAP and fj & LIST and not fi & ENG and not sc.strict(j)
                   and sc.low[j] in sc.lex.abbreviations)   # "Osvaldo Foley", not "Foley catheter"
    if not sc.shaped(j) or fj & (NON | FOL | CLN | TITLE | CRED | REL) and not (
            fj & LIST and not fj & NON or device_name):
        return False
    if sc.low[j] in W.ID_LABEL_WORDS and fi & ORD:
        return False   # "who will fax": an ordinary word before the label word
    if sc.low[j] in W.ID_LABEL_WORDS:
        # "MARGARET MRN 3302917": the label of the identifier after the name is no name part
        sc.emit([i], "PATIENT", CERTAIN if sc.id_after(j) and not fi & MED else REVIEW,
                GIVEN, remember=False, evidence=(IDENTIFIER,))
        return True
    if sc.stops(j) or sc.stops(i):
        return False   # "jessica lives", "she will sc-inject": a verb, not a name
    if fi & NON and not fi & MONTH:
        return False
    idx = [i, j]
    if j + 1 < n and sc.plain_gap(j) and sc.shaped(j + 1) and fl[j + 1] & SUR \
            and not fl[j + 1] & (NON | FOL | CLN) and fj & LIST and not sc.eponym_after(j + 1) \
            or j + 1 < n and fi & fj & GIV and sc.plain_gap(j) and sc.name_like(j + 1) \
            and not fl[j + 1] & (LIST | ENG | MED) and sc.toks[j + 1].word.isalpha() \
            and len(sc.low[j + 1]) > 2 and sc.line_ends_after(j + 1) and not sc.stops(j + 1):
        idx.append(j + 1)   # Mary Ann Smith; "CONTACTS IRMA LYNN VOSKUIJLEN" ending the line
    last = idx[-1]
    if sc.eponym_after(last):
        sc.emit(idx, "PATIENT", None, None, remember=False)
        return True
    strict = sc.strict(i)
    start = sc.sentence_start(i)
    if fj & LIST:
        if strict and not (fj & COMMON or sc.person_context(i) or sc.person_context(j)
                           or not (fi | fj) & (ENG | MED | MONTH | STATE)):
            return False   # MILES DAILY, will start (IRMA HOLLOWAY: review)
        if strict and fi & ENG and fj & ENG and not (sc.person_context(i) or sc.person_context(j)):
            return False   # "SECRETIONS GOLDEN TAN", "see below": two English words
        if strict and not fi & MONTH and not fi & fj & ENG and not (fi | fj) & MED \
                and (sc.person_context(i) or sc.person_context(j)):
            tier = CERTAIN   # "TALK WITH IRMA ROWLAND", "OLGA CARVALHO CALLED"
        elif strict or fi & MONTH:
            tier = REVIEW
        elif start and fi & ENG and fj & ENG and not fj & COMMON:
            tier = REVIEW
        else:
            tier = CERTAIN
        evidence = (SURNAME,)
    else:
        if strict:
            if fi & ENG:
                return False
            tier = REVIEW
            if not fi & (MONTH | MED) and sc.person_context(j) and len(sc.low[j]) > 2 \
                    and sc.toks[j].word.isalpha():
                tier = CERTAIN   # "IDA VORHEES AWARE": a person word after the pair
            elif sc.lower_doc and shape[i] == CAP == sj and not (fi | fj) & (MONTH | MED):
                tier = CERTAIN   # a lower-case note: "Irma Vantongeren came up from the ed"
        elif fi & MONTH:
            if start:
                return False
            tier = REVIEW
        elif fi & ENG and start:
            tier = REVIEW
        else:
            tier = CERTAIN
        evidence = (CAPITALISED_NEXT,)
    label = "DOCTOR" if sc.credential_after(last) else "PATIENT"
    sc.emit(idx, label, tier, GIVEN, remember=True, evidence=evidence)
    return True


def lower_in_caps(sc: Scan, i: int) -> bool:
    """``NIGHT FLOAT dana kovac AWARE``: between words in capitals, a lower-case given name and
    a listed surname (no ordinary, medical or clinical word) next to a person word. Certain."""
    j = i + 1
    fj = sc.fl[j]
    if sc.shape[j] != LOW or sc.used[j] or not sc.plain_gap(i) or sc.fl[i] & NON \
            or not fj & SUR or fj & (ENG | MED | NON | CLN | FOL) \
            or not (sc.person_context(i) or sc.person_context(j)):
        return False
    sc.emit([i, j], "PATIENT", CERTAIN, GIVEN, remember=True, evidence=(SURNAME,))
    return True


def social_heading_before(sc: Scan, i: int) -> bool:
    """Token i follows a social heading (cue ``social_heading`` of ``name_cues.txt``) and its
    colon or dash on the same line (``social: bob visited``, ``SOCIAL- JOE CALLED``)."""
    return i > 0 and sc.low[i - 1] in W.SOCIAL_HEADINGS and "\n" not in sc.gap(i - 1) \
        and sc.gap(i - 1).strip(" \t") in (":", "-", "--", ":-", "-:")


_LONE_EVIDENCE = (CLINICAL_NOUN, PERSON_VERB, SOCIAL_HEADING, NOTE_END, NO_CASE_EVIDENCE,
                  ENGLISH_COLLISION, MEDICAL_COLLISION, STATE_NAME, PRECEDING_WORD) + UPGRADES
_LONE_AMBER = "a lone word of a name list, with nothing around it that says it is a person"
SURNAME_LIST = Rule("names:surname_list", _PD, (CERTAIN, REVIEW), "a word in the surname list",
                    amber=_LONE_AMBER, list="surnames.tsv",
                    reads=("note_headings.txt", "name_cues.txt", "us_places.tsv"), evidence=_LONE_EVIDENCE)
GIVEN_LIST = Rule("names:given_list", _PD, (CERTAIN, REVIEW), "a word in the given-name list",
                  amber=_LONE_AMBER, list="given_names.tsv",
                  reads=("note_headings.txt", "name_cues.txt", "us_places.tsv"), evidence=_LONE_EVIDENCE)


def lone(sc: Scan, i: int) -> None:
    """A single word in the surname or given-name list, tiered by the collision rules."""
    f = sc.fl[i]
    if f & (NON | TITLE | REL | FOL):
        return   # ... and "Screening Test": a follower word is no name on its own
    if i + 1 < sc.n and sc.gap(i).startswith(":") and sc.sentence_start(i):
        return  # "Lines:" at the start of a line is a heading
    if any(service_word(p) or p in lists.handwritten("note_headings") for p in sc.low[i].split("-") if p) \
            and not sc.person_context(i):
        return   # "GU-Foley with clear urine", "ID-Max T 99.8": shorthand or a heading, no person
    if sc.eponym_after(i):
        sc.used[i] = 1
        return
    if i >= 2 and sc.low[i - 1] in ("and", "&") and sc.shape[i - 2] in (CAP, UP) and sc.fl[i - 2] & LIST \
            and i + 1 < sc.n and (sc.toks[i + 1].word[:1].isdigit() or sc.fl[i + 1] & FOL) \
            and sc.plain_gap(i - 2) and sc.plain_gap(i - 1):
        return   # "HUNT AND HESS 2", "Hunt and Hess grade 3": a scale named after two people
    # "Smith J." after a surname: take the initial too
    idx = [i]
    rule = SURNAME_LIST if f & SUR else GIVEN_LIST
    evidence: tuple = ()
    strict = sc.strict(i)
    eng_person = False
    if f & ENG and (strict or sc.sentence_start(i)):
        nxt = sc.low[i + 1] if i + 1 < sc.n and sc.plain_gap(i) else ""
        ok = not f & MED and sc.low[i] not in W.NAME_STOP_WORDS and (
            nxt in W.ENG_PERSON_AFTER if strict else
            sc.shape[i] == CAP and f & GIV and not f & ORD
            and (nxt in W.ENG_PERSON_AFTER or nxt in W.PERSON_VERBS or nxt in W.CLINICIAN_AFTER))
        if not ok:
            return   # "Mark placed the IV": a given name more common as a name than as a word
        eng_person = True   # "kim saw the patient": a person's verb after it; review
    closing = i == sc.n - 1 and f & GIV and not f & (ENG | MED) and sc.shape[i] in (CAP, UP) \
        and sc.sentence_start(i) and not sc.text[sc.toks[i].end:].strip()   # "... AT 900U/HR. GRETCHEN"
    if strict and (f & MED or "-" in sc.low[i] or not sc.person_context(i)) and not closing:
        return  # no capitals to go by: only with a person word next to it
    if f & MED and i + 1 < sc.n and sc.toks[i + 1].word[0].isdigit():
        return  # Apgar 8/9, Gleason 7: a score
    if sc._key(i) in W.TEST_EPONYMS:
        return  # "anti-K (Kell)", "Holter not needed", "Morse fall score": a test, not a person
    if f & (ENG | MED) and i + 1 < sc.n and sc.shape[i + 1] == UP and not sc.strict(i) \
            and sc.plain_gap(i) and not sc.fl[i + 1] & (CRED | LIST) \
            and sc.low[i + 1] not in W.SUFFIXES and sc.low[i + 1] not in W.ID_LABEL_WORDS:
        return  # "Medtronic Azure XT DR": a product and its model code
    if sc.clinical_after(i):
        if i > 0 and service_word(sc.low[i - 1]) and sc.plain_gap(i - 1):
            return   # "intolerant of Ca Channel Blockers": shorthand, a word, a clinical noun
        tier, evidence = REVIEW, (CLINICAL_NOUN,)
    elif eng_person and f & GIV and social_heading_before(sc, i):
        tier, evidence = CERTAIN, (PERSON_VERB, SOCIAL_HEADING)   # "social: bob visited"
    elif eng_person:
        tier, evidence = REVIEW, (PERSON_VERB,)
    elif closing:
        tier, evidence = CERTAIN, (NOTE_END,)   # the writer signing off
    elif strict:
        tier = REVIEW
        evidence = (NO_CASE_EVIDENCE,)
        if not f & (ENG | MED) and i > 0 and sc.low[i - 1] in W.INITIAL_BEFORE and sc.plain_gap(i - 1):
            tier = CERTAIN   # "spoke with greta today", "HELD PER HALVORSEN"
    elif f & ENG:
        apposition = sc.text.startswith(",", sc.toks[i].end)   # "a 20yo female, Anna, seen"
        after_given = i > 0 and sc.shape[i - 1] == CAP and sc.fl[i - 1] & GIV \
            and not sc.fl[i - 1] & ENG and sc.plain_gap(i - 1)   # "John Smith"
        after_title = i > 0 and sc.fl[i - 1] & TITLE   # "Dr. \udfffSmith": a title, odd gap
        place = sc.low[i] in place_names() or i > 0 and sc.plain_gap(i - 1) \
            and f"{sc.low[i - 1]} {sc.low[i]}" in place_names()   # "Hospital, Boston", "New York"
        initial = i + 1 < sc.n and sc.shape[i + 1] == INI and sc.plain_gap(i) \
            and sc.text.startswith(".", sc.toks[i + 1].end)   # "COPD, Smith J., visited"
        if not (sc.person_context(i) or apposition or after_given or after_title or place or initial):
            return   # "Face Mask", "Activity/Comfort:", "Lungs Clear": an English word, no person near
        tier, evidence = REVIEW, (ENGLISH_COLLISION,)
    elif f & MED:
        if not (i > 0 and sc.low[i - 1] in W.EPONYM_PERSON_BEFORE and sc.plain_gap(i - 1)
                or i + 1 < sc.n and sc.low[i + 1] in W.PERSON_AFTER):
            return   # "Parkinson stable", "Hx: Parkinson, CHF": the disease, no person near
        tier, evidence = REVIEW, (MEDICAL_COLLISION,)   # "message for Parkinson"
    elif f & STATE:
        tier, evidence = REVIEW, (STATE_NAME,)
    else:
        tier = CERTAIN
        if f & SUR and i + 1 < sc.n and sc.shape[i + 1] == INI and sc.plain_gap(i) \
                and sc.text.startswith(".", sc.toks[i + 1].end):
            idx.append(i + 1)   # Smith J.
    p = i - 1
    if f & SUR and tier == CERTAIN and p >= 0 and not sc.used[p] and sc.shape[p] == CAP \
            and not sc.fl[p] & (NON | FOL | CLN | TITLE | REL | LBL | CRED | ENG | MED) \
            and all(c in SPACES for c in sc.gap(p)):
        idx.insert(0, p)   # Tilly Nicholson: an unlisted capitalised word before a surname
        evidence += (PRECEDING_WORD,)
    label = "DOCTOR" if closing or sc.credential_after(idx[-1]) else "PATIENT"
    sc.emit(idx, label, tier, rule, remember=False, evidence=evidence)


#: The pass of this module and the rules it may give (with those of :mod:`.shapes`).
LIST_PASS = Pass(list_pass, (LAST_FIRST, GIVEN, INITIAL_RULE, CAPITALISED, ACCENTED_CAPITALISED, SURNAME_LIST,
                             GIVEN_LIST))
