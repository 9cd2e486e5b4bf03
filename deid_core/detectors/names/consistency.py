"""Document consistency: a word of a name found with strong evidence is certain wherever it
appears again as a name-shaped word (``Mr. Hope ... Hope reports``), and a review candidate
made only of such words becomes certain. Where capitals tell nothing, an ordinary word by
knowledge (:func:`.lexicon.ordinary_word`: ``RESTLESS``, ``HIGH``) is not spread.
"""
from __future__ import annotations

from ... import knowledge
from ...document import CAP, INI, LOW, OTHER, UP
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
    if service_word(sc.low[i]) and (not f & LIST or f & ORD or sc.clinical_after(i)):
        return True   # "RENAL", "NG TUBE"; but "NG STABLE" after "Pt: Hope Ng
    if not sc.strict(i):
        return False
    w = sc.low[i]
    if not f & LIST and (len(w) < 4 or w.endswith(("ed", "ing", "ly")) or w in W.PERSON_AFTER):
        return True   # "MEDICATED", "UP": an unlisted word that reads as a verb or particle
    if len(w) < 3 and (not f & LIST or sc.clinical_after(i)):
        return True   # "UP", "NG TUBE"; but a listed two-letter name found in the note: "WU STABLE"
    return bool(f & NON) and not (f & LIST and not f & ORD) or w in W.NAME_STOP_WORDS


def found_word_indices(sc: Scan) -> list[int] | range:
    """The indices of the tokens whose word may be a name in ``sc.found`` (a superset of those
    whose :meth:`.scan.Scan._key` is one), ascending: the tokens spelt ``key``, ``key's`` or
    ``key’s``, found with C-level set and list searches; every token (``range(sc.n)``) when a
    found key holds an apostrophe (``o'brien``: then either apostrophe may stand in the note)."""
    if any("'" in key for key in sc.found):
        return range(sc.n)
    return sc.indices_in({key + end for key in sc.found for end in ("", "'s", "’s")})


def glued(sc: Scan, i: int) -> bool:
    """Token i is part of an address or handle: glued by ``@``, ``.``, ``_`` or ``/`` to a
    letter or digit (``wendell.dunleavy@example.org``, ``www.smith.com``)."""
    text, t = sc.text, sc.toks[i]
    a, b = t.start, t.end
    return (b + 1 < len(text) and text[b] in "@._/" and text[b + 1].isalnum()
            or a >= 2 and text[a - 1] in "@._/" and text[a - 2].isalnum())


#: A found given name written in lower case in a note with capitals is spread only when the
#: word is rarer than this in English (Zipf scale, :func:`deid_core.knowledge.common_zipf`,
#: exact from 4.0 up): ``raj``,
#: ``li`` (0) yes; ``hope`` (5.1), ``mark``, ``will`` no. A surname is spread unless it is an
#: ordinary word by the ORD fact (``later cook was seen``, ``later patel was seen``).
LOWER_MENTION_ZIPF = 4.0


def _found_as(sc: Scan, k: int, role: str) -> bool:
    hit = sc.found.get(sc._key(k)) or sc.found_weak.get(sc._key(k))
    return hit is not None and hit[1] == role


def _partner(sc: Scan, i: int, ahead: bool, cells: bool) -> int:
    """The index of the word next to token i (after it with ``ahead``, else before it) on its
    line, in its letter case, past particles (``von der``) when the gap is plain, or across
    a comma or a table cell's edge with ``cells``; -1 when there is none."""
    k = i + 1 if ahead else i - 1
    if k < 0 or k >= sc.n:
        return -1
    g = sc.gap(i if ahead else k)
    if "\n" in g:
        return -1
    if g.strip(" \t") in (",", "|"):
        return k if cells and sc.shape[k] == sc.shape[i] else -1
    if g.strip(" \t"):
        return -1
    step = 1 if ahead else -1
    while (sc.low[k] in W.PARTICLES or sc.low[k] in W.SECOND_PARTICLES) and sc.shape[k] != sc.shape[i] \
            and 0 <= k + step < sc.n and sc.plain_gap(min(k, k + step)):
        k += step   # "Will di Stefano": past a particle in lower case
    return k if sc.shape[k] == sc.shape[i] else -1


def written_whole(sc: Scan, i: int, role: str) -> bool:
    """Token i (found as ``role``, ``"giv"`` or ``"sur"``) stands next to the other part of
    the found name: ``Faith Okonjo``, ``Will di Stefano`` (given, then surname), ``Stefano,
    Will``, ``|Do|Rose|`` (surname, a comma or a cell edge, given): the found name written
    again, so even a word part (``Will``, ``Do``) is the name here."""
    giv = role == "giv"
    k = _partner(sc, i, True, not giv)
    if k >= 0 and _found_as(sc, k, "giv" if not giv else "sur"):
        return True
    k = _partner(sc, i, False, giv)
    return k >= 0 and _found_as(sc, k, "sur" if giv else "giv")


DOCUMENT_CONSISTENCY = Rule("names:document_consistency", ("PATIENT", "DOCTOR"), (CERTAIN,),
                            "a name found elsewhere in this note")


def consistency_pass(sc: Scan) -> None:
    """Words of names found with high confidence are certain elsewhere too; a review
    candidate made only of such words becomes certain."""
    if not sc.found and not sc.found_weak:
        return
    found, used, shape = sc.found, sc.used, sc.shape
    weak = sc.found_weak
    for a, b, idx in sc.reviewed:
        if all(shape[k] == INI or sc._key(k) in found or sc._key(k) in weak
               or sc.low[k] in W.PARTICLES or sc.low[k] in W.SECOND_PARTICLES for k in idx) \
                and any(sc._key(k) in found for k in idx) \
                and not any(shape[k] == LOW and not sc.lower_doc and sc._key(k) in found
                            and found[sc._key(k)][1] == "giv"
                            and knowledge.common_zipf(sc._key(k)) >= LOWER_MENTION_ZIPF for k in idx):
            # the person found with strong evidence gives the label (Dr. Okafor ... OKAFOR)
            labels = {found[sc._key(k)][0] for k in idx if sc._key(k) in found}
            for m in range(a, b):
                sp = sc.spans[m]
                label = next(iter(labels)) if len(labels) == 1 else sp.label
                sc.spans[m] = E.DOCUMENT_CONSISTENCY.add_to(sp, label, CERTAIN)
    low = sc.low
    for i in sc.indices_in(weak.keys() - found.keys()) if weak else ():
        if shape[i] not in (CAP, UP) or not written_whole(sc, i, weak[low[i]][1]):
            continue
        if not used[i]:
            sc.emit([i], weak[low[i]][0], CERTAIN, DOCUMENT_CONSISTENCY, remember=False)
            continue
        start = sc.toks[i].start   # "Do,Will": a review candidate here becomes certain
        for m, sp in enumerate(sc.spans):
            if sp.start == start and sp.tier == REVIEW and sp.category == "NAME":
                sc.spans[m] = E.DOCUMENT_CONSISTENCY.add_to(sp, weak[low[i]][0], CERTAIN)
    for i in found_word_indices(sc):
        if used[i] or shape[i] in (INI, OTHER):
            continue
        key = low[i].replace("’", "'")   # (Scan._key, inlined)
        hit = found.get(key[:-2] if key.endswith("'s") and len(key) > 3 else key)
        if hit is None:
            continue
        if shape[i] == LOW and not sc.lower_doc and (glued(sc, i) or hit[1] == "giv"
                                                     and knowledge.common_zipf(key) >= LOWER_MENTION_ZIPF):
            continue   # "we hope for", "will mark the site": a given name in lower case is a word
        if shape[i] == LOW and not sc.lower[i] and (
                sc.fl[i] & (ORD | CLN | NON | FOL) or sc.clinical_after(i)):
            continue   # but "later patel was seen": a name
        if sc.eponym_after(i):
            continue
        if weak_occurrence(sc, i):
            continue
        label, role = hit
        if written_whole(sc, i, role):
            sc.emit([i], label, CERTAIN, DOCUMENT_CONSISTENCY, remember=False)
            continue   # "Faith von der Heide tolerated": the found full name again
        if sc.fl[i] & ORD and sc.strict(i):
            continue   # "RESTLESS", "HIGH", "KCL" where capitals tell nothing: an ordinary word
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
