"""Document consistency: a word of a name found with strong evidence is certain wherever it
appears again as a name-shaped word (``Mr. Hope ... Hope reports``), and a review candidate
made only of such words becomes certain. Where capitals tell nothing, an ordinary word by
knowledge (:func:`.lexicon.ordinary_word`: ``RESTLESS``, ``HIGH``) is not spread.
"""
from __future__ import annotations

from ...document import CAP, INI, LOW, OTHER
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW
from . import evidence as E
from . import words as W
from .runs import service_word
from .lexicon import CLN, CRED, ENG, FOL, LIST, MED, MONTH, NON, ORD, PROF, REL, STATE, TITLE
from .scan import Scan


def weak_occurrence(sc: Scan, i: int) -> bool:
    """Token i is a word that the found name cannot make a name where capitals tell nothing
    (ALL CAPS, lower case): a relation, title or clinical word, a service or shorthand word, a
    function word, or an unlisted short word or one ending in -ed, -ing, -ly (``husband``,
    ``RENAL``, ``UP``, ``MEDICATED``); so one wrong find does not mask the word all through
    the note."""
    f = sc.fl[i]
    if f & (REL | TITLE | CLN | CRED):
        return True
    if service_word(sc.low[i]):
        return True
    if not sc.strict(i):
        return False
    w = sc.low[i]
    if not f & LIST and (len(w) < 4 or w.endswith(("ed", "ing", "ly")) or w in W.PERSON_AFTER):
        return True   # "MEDICATED", "UP": an unlisted word that reads as a verb or particle
    return bool(f & NON) or w in W.NAME_STOP_WORDS or len(w) < 3


def found_word_indices(sc: Scan) -> list[int] | range:
    """The indices of the tokens whose word may be a name in ``sc.found`` (a superset of those
    whose :meth:`.scan.Scan._key` is one), ascending: the tokens spelt ``key``, ``key's`` or
    ``key’s``, found with C-level set and list searches; every token (``range(sc.n)``) when a
    found key holds an apostrophe (``o'brien``: then either apostrophe may stand in the note)."""
    if any("'" in key for key in sc.found):
        return range(sc.n)
    return sc.indices_in({key + end for key in sc.found for end in ("", "'s", "’s")})


DOCUMENT_CONSISTENCY = Rule("names:document_consistency", ("PATIENT", "DOCTOR"), (CERTAIN,),
                            "a name found elsewhere in this note")


def consistency_pass(sc: Scan) -> None:
    """Words of names found with high confidence are certain elsewhere too; a review
    candidate made only of such words becomes certain."""
    if not sc.found:
        return
    found, used, shape = sc.found, sc.used, sc.shape
    for a, b, idx in sc.reviewed:
        if all(shape[k] == INI or sc._key(k) in found for k in idx):
            # the person found with strong evidence gives the label (Dr. Okafor ... OKAFOR)
            labels = {found[sc._key(k)][0] for k in idx if shape[k] != INI}
            for m in range(a, b):
                sp = sc.spans[m]
                label = next(iter(labels)) if len(labels) == 1 else sp.label
                sc.spans[m] = E.DOCUMENT_CONSISTENCY.add_to(sp, label, CERTAIN)
    low = sc.low
    for i in found_word_indices(sc):
        if used[i] or shape[i] in (INI, OTHER):
            continue
        key = low[i].replace("’", "'")   # (Scan._key, inlined)
        hit = found.get(key[:-2] if key.endswith("'s") and len(key) > 3 else key)
        if hit is None:
            continue
        if shape[i] == LOW and not sc.lower[i]:
            continue
        if sc.eponym_after(i):
            continue
        if weak_occurrence(sc, i):
            continue
        if sc.fl[i] & ORD and sc.strict(i):
            continue   # "RESTLESS", "HIGH", "KCL" where capitals tell nothing: an ordinary word
        label, role = hit
        nxt = sc.low[i + 1] if i + 1 < sc.n and sc.plain_gap(i) else ""
        if sc.fl[i] & ENG and sc.sentence_start(i) and (
                role == "giv" and nxt not in W.PERSON_VERBS or nxt in W.VERB_READING_NEXT):
            continue   # "Hope to discharge"; but "Patient: Mary Smith. Mary reports pain."
        sc.emit([i], label, CERTAIN, DOCUMENT_CONSISTENCY, remember=False)


COORDINATED = Rule("names:coordinated", ("PATIENT", "DOCTOR"), (CERTAIN,),
                   "a capitalised word after a name and 'and' (Margaret and Bram)")


def coordination_pass(sc: Scan) -> None:
    """``Suzette and Hank``, ``Margaret and Bram``: a Capitalised word right after a certain
    person's name and ``and`` (or ``&``), on the same line, in a note with lower case, is a
    name too, with the first name's label: a review candidate there becomes certain, an
    unlisted word becomes a certain candidate. Clinical, function, title and relation words,
    eponyms and words before a clinical noun give nothing (``Tylenol and Motrin``: no name
    before ``and``)."""
    ends = {sp.end: sp.label for sp in sc.spans
            if sp.tier == CERTAIN and sp.label in ("PATIENT", "DOCTOR")}
    if not ends:
        return
    for a in sc.indices_in({"and", "&"}):
        j = a + 1
        if a == 0 or j >= sc.n or sc.toks[a - 1].end not in ends or not sc.plain_gap(a - 1) \
                or not sc.plain_gap(a):
            continue
        f, w = sc.fl[j], sc.low[j]
        if sc.shape[j] != CAP or sc.strict(j) or not sc.toks[j].word.isalpha() or len(w) < 3 \
                or f & (NON | CLN | FOL | TITLE | REL | CRED | PROF | MONTH | STATE | MED) \
                or service_word(w) or sc.eponym_after(j) or sc.clinical_after(j):
            continue
        label = ends[sc.toks[a - 1].end]
        start = sc.toks[j].start
        if sc.used[j]:
            for m, sp in enumerate(sc.spans):
                if sp.start == start and sp.tier == REVIEW and sp.category == "NAME":
                    sc.spans[m] = E.COORDINATED.add_to(sp, label, CERTAIN)
            continue
        sc.emit([j], label, CERTAIN, COORDINATED, remember=False)


#: The passes of this module, each with the rule it may give.
COORDINATION_PASS = Pass(coordination_pass, (COORDINATED,))
CONSISTENCY_PASS = Pass(consistency_pass, (DOCUMENT_CONSISTENCY,))
