"""Names by structure: the given names listed after a plural relation word (``Daughters Lulu,
Frances and Gwen``) and a nickname in quotes next to a name (``Elizabeth "Betsy" Marlow``,
``Reed, Thomas ("Tom")``, ``Robert aka "Bobby"``, ``son "danny" called``).

The words they start at are cues of ``lists/name_cues.txt`` (``relation_plural``,
``nickname_before``); whether a word is name-shaped is read from knowledge
(:func:`.lexicon.ordinary_word` and its SSA given names, ``lists/nicknames.tsv``), not from a
list of names.
"""
from __future__ import annotations

import re
from bisect import bisect_left

from ... import knowledge
from ...document import CAP, LOW, UP
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW
from . import words as W
from .evidence import UPGRADES
from .lexicon import CLN, CRED, FOL, GIV, NON, ORD, REL, TITLE
from .scan import SPACES_STR, Scan

#: The words that join the last name of a list (``Lulu, Frances and Gwen``).
_AND = frozenset(("and", "&"))
#: Characters that open and close a quoted nickname (straight and typographic quotes).
_OPEN_QUOTES = "\"“'‘"
_CLOSE_QUOTES = "\"”'’"
_QUOTE_RE = re.compile("[" + re.escape(_OPEN_QUOTES) + "]")

RELATION_LIST = Rule("names:relation_list", ("PATIENT",), (CERTAIN,),
                     "a list of names after the plural relation word '{detail}'",
                     list="name_cues.txt", evidence=UPGRADES,
                     detail="the plural relation word before the names")


def _list_name(sc: Scan, k: int, last: bool = False) -> bool:
    """Token k may be one name of a list after a plural relation word: a word of letters,
    Title-case (or ALL CAPS on a line in capitals), no function, clinical, title, relation or
    credential word and no ordinary word by knowledge (``Lulu``, ``Frances``; not ``Home``).
    With ``last`` (the word after the list's ``and``: the list's shape is clear), an ordinary
    word that is also a U.S. given name (``Dev``, ``Will``) counts too where no verb reading
    follows it: the line or the sentence ends, or a person verb (``visited``) or a
    preposition (``at bedside``) comes next; not ``Sons Ravi and Will follow up``."""
    s = sc.shape[k]
    if not (s == CAP or s == UP and sc.caps_line(k)) or sc.used[k]:
        return False
    w = sc.toks[k].word
    if not w.isalpha() or len(w) < 2 or sc.fl[k] & (NON | CLN | FOL | TITLE | REL | CRED):
        return False
    if not sc.fl[k] & ORD:
        return True
    if not last or not knowledge.is_ordinary_given_name(w):
        return False
    if k + 1 >= sc.n or not sc.plain_gap(k):
        return True
    nxt = sc.low[k + 1]
    return nxt in W.PERSON_VERBS or nxt in W.ENG_PERSON_AFTER or nxt in W.PROFESSION_STOP


def relation_list_pass(sc: Scan) -> None:
    """``Daughters Lulu, Frances and Gwen at bedside``, ``SONS RAVI AND DEV VISITED``: after a
    plural relation word (cue ``relation_plural``), two or more name-shaped words joined by
    commas and a last ``and`` or ``&`` on the same line are each a relative's name (certain,
    PATIENT). A list that does not end in ``and`` gives nothing (``Sons Ravi, Home``)."""
    for i in sc.indices_in(W.RELATION_PLURALS):
        g = sc.gap(i).strip(SPACES_STR)
        if g not in ("", ":", ",", "-", "(") or "\n" in sc.gap(i):
            continue
        names: list[int] = []
        k = i + 1
        joined = False
        while k < sc.n and _list_name(sc, k):
            names.append(k)
            if k + 1 >= sc.n or "\n" in sc.gap(k):
                break
            sep = sc.gap(k).strip(SPACES_STR)
            if sep == "," and k + 2 < sc.n and sc.low[k + 1] in _AND and sc.plain_gap(k + 1):
                k += 2   # "Lulu, Frances, and Gwen"
                joined = True
            elif sep == "" and sc.low[k + 1] in _AND and k + 2 < sc.n and sc.plain_gap(k + 1):
                k += 2
                joined = True
            elif sep in (",", "&"):
                joined = joined or sep == "&"
                k += 1
            else:
                break
            if joined:
                if k < sc.n and _list_name(sc, k, last=True):
                    names.append(k)
                break
        if len(names) < 2 or not joined:
            continue
        for k in names:
            sc.emit([k], "PATIENT", CERTAIN, RELATION_LIST, remember=True, detail=sc.low[i],
                    context=True, strong=True)


QUOTED_NICKNAME = Rule("names:quoted_nickname", ("PATIENT", "DOCTOR"), (CERTAIN, REVIEW),
                       "a nickname in quotes next to a name",
                       amber="the quoted word is also an ordinary word, so it may be a quotation",
                       list="nicknames.tsv", reads=("ordinary_words.txt", "name_cues.txt"),
                       evidence=UPGRADES)


def _quoted(sc: Scan, j: int) -> bool:
    """Token j stands alone in quotes (``"Tom"``, ``("MOOSE")``, ``“Betsy”``)."""
    text, t = sc.text, sc.toks[j]
    before = text[max(0, t.start - 1):t.start]
    after = text[t.end:t.end + 1]
    return bool(before) and before in _OPEN_QUOTES and bool(after) and after in _CLOSE_QUOTES \
        and not (before == "'" and text[max(0, t.start - 2):t.start - 1].isalpha())


def _label_before(sc: Scan, i: int) -> str | None:
    """The label of the name span that ends at token i; None when no name span ends there."""
    end = sc.toks[i].end
    for sp in reversed(sc.spans):
        if sp.end == end and sp.label in ("PATIENT", "DOCTOR"):
            return sp.label
    return None


def quoted_nickname_pass(sc: Scan) -> None:
    """A word alone in quotes right after a found name (``Elizabeth "Betsy" Marlow``, ``Reed,
    Thomas ("Tom")``), after a nickname cue that follows a found name (``Robert aka
    "Bobby"``, cue ``nickname_before``), or after a relation word (``son "danny" called``) is
    a nickname: certain with the name's label when it is a given name, a listed nickname
    (``lists/nicknames.tsv``) or no ordinary word by knowledge; review otherwise."""
    text = sc.text
    if not any(q in text for q in _OPEN_QUOTES):
        return
    starts = sc._starts
    cands = [j for p in _QUOTE_RE.finditer(text)
             if (j := bisect_left(starts, p.end())) < sc.n and starts[j] == p.end() and j > 0]
    for j in cands:
        if sc.shape[j] not in (CAP, UP, LOW) or not sc.toks[j].word.isalpha() \
                or len(sc.low[j]) < 2 or not _quoted(sc, j):
            continue
        if sc.used[j]:
            if j and sc.fl[j - 1] & REL:   # "son "danny" called": a review candidate is certain
                start = sc.toks[j].start
                for m, sp in enumerate(sc.spans):
                    if sp.start == start and sp.tier == REVIEW and sp.category == "NAME":
                        sc.spans[m] = QUOTED_NICKNAME.span(sp.start, sp.end, sp.label, CERTAIN)
            continue
        i = j - 1
        if "\n" in sc.gap(i) or sc.gap(i).strip(SPACES_STR + "(\"“'‘") != "":
            continue
        label = None
        if sc.used[i]:
            label = _label_before(sc, i)
        elif sc.low[i] in W.NICKNAME_BEFORE and i > 0 and sc.used[i - 1] and sc.plain_gap(i - 1):
            label = _label_before(sc, i - 1)
        elif sc.fl[i] & REL:
            label = "PATIENT"
        if label is None:
            continue
        f = sc.fl[j]
        if f & (TITLE | CRED | REL | CLN | FOL) or f & NON and not f & GIV:
            continue
        named = (f & GIV or knowledge.canonicals_of(sc.low[j])
                 or f & ORD and knowledge.is_ordinary_given_name(sc.low[j]))
        tier = CERTAIN if named or not f & ORD else REVIEW
        sc.emit([j], label, tier, QUOTED_NICKNAME, remember=tier == CERTAIN, context=True,
                strong=True)


#: The passes of this module: the relation list before the lone-name rules (so that a listed
#: name there is certain), the nicknames after them (they need the names found next to them).
RELATION_LIST_PASS = Pass(relation_list_pass, (RELATION_LIST,))
NICKNAME_PASS = Pass(quoted_nickname_pass, (QUOTED_NICKNAME,))

__all__ = ["NICKNAME_PASS", "QUOTED_NICKNAME", "RELATION_LIST", "RELATION_LIST_PASS",
           "quoted_nickname_pass", "relation_list_pass"]
