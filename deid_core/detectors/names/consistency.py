"""Document consistency: a word of a name found with strong evidence is certain wherever it
appears again as a name-shaped word (``Mr. Hope ... Hope reports``), and a review candidate
made only of such words becomes certain.
"""
from __future__ import annotations

from ...document import INI, LOW, OTHER
from ...spans import CERTAIN, Span
from . import words as W
from .lexicon import ENG
from .scan import Scan


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
                sc.spans[m] = Span(sp.start, sp.end, label, CERTAIN,
                                   sp.source + "+document_consistency")
    for i in range(sc.n):
        if used[i] or shape[i] in (INI, OTHER):
            continue
        hit = found.get(sc._key(i))
        if hit is None:
            continue
        if shape[i] == LOW and not sc.lower[i]:
            continue
        if sc.eponym_after(i):
            continue
        label, role = hit
        nxt = sc.low[i + 1] if i + 1 < sc.n and sc.plain_gap(i) else ""
        if sc.fl[i] & ENG and sc.sentence_start(i) and (
                role == "giv" and nxt not in W.PERSON_VERBS or nxt in W.VERB_READING_NEXT):
            continue   # "Hope to discharge"; but "Patient: Mary Smith. Mary reports pain."
        sc.emit([i], label, CERTAIN, "names:document_consistency", remember=False)
