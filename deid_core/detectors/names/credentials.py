"""The credential rule: a name before a credential (``Anne Whitcombe, MD``, ``K. Lau NP``,
``R. PELLAS PA AWARE``), never ordinary words before it (``KCL GIVEN, RN TO RECHECK``, ``BP
STAYS LOW MD AWARE``). Run by :func:`.context.context_pass` at each credential token; words:
``credentials.txt`` via :mod:`.words`.
"""
from __future__ import annotations

from ... import lists
from ...document import CAP, INI, LOW, UP
from ...rules import Rule
from ...spans import CERTAIN, REVIEW
from . import words as W
from .evidence import UPGRADES
from .lexicon import CLN, CRED, ENG, LBL, LIST, NON, ORD, PROF, REL, TITLE
from .runs import service_word
from .scan import SPACES_STR, Scan

__all__ = ["CREDENTIAL", "credential_rule", "initial_and_name_before"]


CREDENTIAL = Rule("names:credential", ("DOCTOR",), (CERTAIN, REVIEW),
                  "a name before the credential '{detail}'",
                  amber="the word before a credential may not be a name", list="credentials.txt",
                  reads=("generic_service_words.txt", "number_words.tsv"), evidence=UPGRADES,
                  detail="the credential after the name")


def initial_and_name_before(sc: Scan, i: int) -> bool:
    """Before the credential at token i (one that counts only after a comma: ``PA``, ``PT``),
    a dotted initial and a name-shaped word, and after it a word that follows a care-team
    member (cue ``clinician_after``): ``R. PELLAS PA AWARE``, ``j. moreau pa notified``."""
    k = i - 1
    if k < 1 or i + 1 >= sc.n or sc.low[i + 1] not in W.CLINICIAN_AFTER or not sc.plain_gap(i):
        return False
    f = sc.fl[k]
    return sc.shape[k] in (CAP, UP, LOW) and sc.toks[k].word.isalpha() and len(sc.low[k]) > 1 \
        and not f & (NON | ORD | CRED | TITLE | REL | CLN) \
        and sc.shape[k - 1] == INI and sc.text.startswith(".", sc.toks[k - 1].end) \
        and sc.plain_gap(k - 1) and sc.plain_gap(k)


def credential_rule(sc: Scan, i: int) -> None:
    """The names before the credential at token ``i`` (up to four words, certain when listed or
    two or more, else review); emits into ``sc``, nothing when the words are no name."""
    e = sc.toks[i + sc.credential_at(i) - 1].end
    g = sc.gap(i - 1)
    if sc.text.startswith(":", e) and "," not in g:
        return   # "Triage RN: ..." is a label ("from aoife hughes, md:" is a sign-off)
    if "\n" in g or g.strip(" \t") not in ("", ","):
        return
    k = i - 1
    modifier = False
    if "," not in g and sc.shape[k] == LOW and not sc.lower[k] and k >= 1 \
            and not sc.fl[k] & (NON | LIST) and sc.toks[k].word.isalpha() \
            and sc.gap(k - 1).strip(" \t") == "," and "\n" not in sc.gap(k - 1):
        k -= 1   # "Bram Oosterhuis, device RN": a role word between name and credential
        modifier = True
    elif "," not in g and sc.low[i] in W.AMBIGUOUS_CREDENTIALS and not initial_and_name_before(sc, i):
        return
    ambiguous = sc.low[i] in W.AMBIGUOUS_CREDENTIALS and "," in g
    if ambiguous:
        after = sc.text[sc.toks[i + sc.credential_at(i) - 1].end:].lstrip(" \t.")[:1]
        if after.isalnum():
            return   # "RT PAGED, PT SUCTIONED ...": "pt" opens a clause, no signature
    idx: list[int] = []
    lower = sc.lower
    while k >= 0 and len(idx) < 4:
        s, f = sc.shape[k], sc.fl[k]
        if sc.used[k]:
            break
        if s == INI or s == CAP or s == UP and (sc.caps_line(k) or f & LIST) \
                or s == LOW and lower[k]:
            if s == INI and (sc.text.startswith(".", sc.toks[k].end) or sc.toks[k].word.isupper()):
                pass   # "Yusuf A. Farouk, RN", "a. szymanska, np": an initial, never a word
            elif f & NON and not (f & LIST and s != LOW) or f & CRED and s == UP and not f & LIST:
                break
            if f & TITLE and not f & LIST:
                break
            if lower[k] and f & (LBL | REL | PROF) and s == LOW:
                break   # "the ordering clinician fatima el-amin, md": the role is no name
            idx.append(k)
            if k == 0:
                break
            g = sc.gap(k - 1)
            if sc.shape[k - 1] == INI and g.startswith("."):
                g = g[1:]
            if g.strip(SPACES_STR) or not g and sc.shape[k - 1] != INI:
                break
            k -= 1
        else:
            break
    if not idx or all(sc.shape[k] == INI for k in idx) or modifier and len(idx) < 2:
        return
    idx.reverse()
    a = idx[0]
    if not (a > 0 and sc.used[a - 1] and sc.plain_gap(a - 1)):   # ("ANH-THU DO, MD": a name goes on)
        if all(sc.shape[k] == INI or sc.shape[k] in (UP, LOW) and sc.fl[k] & ORD for k in idx):
            return   # "KCL GIVEN, RN TO RECHECK", "BP STAYS LOW MD AWARE": ordinary words, no name
        while sc.shape[idx[0]] in (UP, LOW) and sc.fl[idx[0]] & ORD:
            idx.pop(0)   # "NOTIFIED JOHN VOSS RN": the ordinary word before the name stays
    listed = any(sc.fl[k] & LIST for k in idx)
    if lower[idx[0]] and not listed and sc.shape[idx[0]] != INI and not (
            len(idx) >= 2 and sc.line_starts_at(idx[0])):
        return   # "kwame asante, pharmd" opening a line is a signature
    if lower[idx[0]] and ambiguous and not sc.line_starts_at(idx[0]):
        return   # "tolerating diet well, pt walking": "pt" is the patient here
    if "," not in sc.gap(idx[-1]) and all(sc.strict(k) for k in idx) and (
            all(sc.fl[k] & ENG for k in idx) or any(
                sc.shape[k] != INI and (sc.fl[k] & NON or service_word(sc.low[k])
                                        or sc.low[k] in lists.number_words()
                                        or sc.low[k].endswith(("ed", "ly", "ing")) and not sc.fl[k] & LIST)
                for k in idx)):
        return   # "WEANED TO NP", "WILL KEEP NP", "GRIPS BILATERALLY MD": no name before it
    if len(idx) == 1 and "," not in sc.gap(idx[0]) and service_word(sc.low[idx[0]]) \
            and not sc.fl[idx[0]] & LIST:
        return   # "Stoma RN following", "Wound CNS in to see": a specialty, no name
    tier = CERTAIN if listed or len(idx) >= 2 else REVIEW
    if tier == REVIEW and (idx[0] and sc.toks[idx[0] - 1].word[:1].isdigit()
                           or sc.text[e:e + 3].lstrip(".")[:2].lower() in ("'d", "’d")):
        return   # "O2 AT 2 LITERS NP": nasal prongs after an amount; "TUBE D.C.'D": stopped
    sc.emit(idx, "DOCTOR", tier, CREDENTIAL, remember=tier == CERTAIN, detail=sc.low[i], context=True,
            strong=True)
