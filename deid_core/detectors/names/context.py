"""Context rules: a name after a title, a relation word or a label, or before a credential.

``Dr. Anne Whitcombe``, ``his wife Mary``, ``daughter, Ana Lopez``, ``Patient: Smith``,
``Electronically signed by ...``, ``cc: ...``, ``Anne Whitcombe, MD``: the title, relation,
label and credential are never inside the span. Certain, except where the word after the
context could be an ordinary word (review). Words: ``titles.txt``, ``relations.txt``,
``name_labels.txt``, ``credentials.txt`` via :mod:`.words`. The credential rule itself is
:mod:`.credentials`; this module's pass runs it.
"""
from __future__ import annotations

from ...document import CAP, INI, LOW, OTHER, UP
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW
from . import words as W
from .credentials import CREDENTIAL, credential_rule
from .evidence import AND, GLUED, UPGRADES
from .lexicon import (CLN, CRED, CUE, ENG, FOL, GIV, LBL, LIST, MED, NON, ORD, REL, STRONG,
                      SUR, TITLE, TTL_D)
from .runs import service_word, take
from .scan import SPACES_STR, Scan, indices_of
from .signatures import (INITIALS_AFTER, SIGN_OFF, SIGNATURE_INITIALS, after_slash_or_dash, dotted_letters,
                         initials_after_label, sign_off, signature_initials)
from .usernames import login_shaped, username_after_label


#: The word facts of the tokens a context rule can start at (besides initials and the tokens
#: after a slash or dash, which :func:`context_pass` adds).
_STARTS = TITLE | REL | LBL | CRED | CUE


def context_pass(sc: Scan) -> None:
    """Run the context rules at each token where one can start, in text order: a title,
    relation, label or credential word, a :data:`.lexicon.CUE` word, an initial, a token after
    a slash or dash (:func:`.signatures.after_slash_or_dash`); the other tokens start none."""
    n, fl, low, shape, used = sc.n, sc.fl, sc.low, sc.shape, sc.used
    # (the tables as locals and relation_phrase_at's first test done here; the rules run in
    # the same order with the same arguments as in a pass over every token)
    phrase_ends, initials_labels, sign_offs = W.RELATION_PHRASE_ENDS, W.INITIALS_LABELS, W.SIGN_OFFS
    slash_dash = after_slash_or_dash(sc)
    starts = {i for i, f in enumerate(fl) if f & _STARTS}
    starts.update(indices_of(shape, INI), slash_dash)
    for i in sorted(starts):
        f = fl[i]
        w = low[i]
        if f & TITLE and i + 1 < n:
            title_rule(sc, i)
        if (f & REL or w in phrase_ends and relation_phrase_at(sc, i)) and i + 1 < n and not used[i + 1]:
            relation_rule(sc, i)
        if f & LBL and i + 1 < n and not used[i + 1]:
            label_rule(sc, i)
        s = shape[i]
        if f & CRED or s == INI or w == "ph":
            c = sc.credential_at(i)
            if c and i > 0:
                credential_rule(sc, i)
        if (s == UP or s == LOW) and 2 <= len(w) <= 3 and not used[i] and i in slash_dash:
            signature_initials(sc, i)
        if w in initials_labels and i + 1 < n and not used[i + 1]:
            initials_after_label(sc, i)
        if (w.partition("-")[0] if "-" in w else w) in sign_offs:
            sign_off(sc, i)


def ending_only(sc: Scan, j: int) -> bool:
    """Token j is a capitalised word that reads as a diagnosis or procedure only by its ending
    (cue ``follower_ending``: ``Rimkaitis``, ``Kalamosis``), not a listed follower or clinical
    noun, and no follower or clinical noun comes next: after a strong title it is a surname."""
    w = sc.low[j]
    if sc.shape[j] not in (CAP, UP) or w in sc.lex.followers or sc.fl[j] & (CLN | NON | ORD) \
            or not sc.toks[j].word.isalpha():
        return False
    return not (j + 1 < sc.n and sc.plain_gap(j) and sc.fl[j + 1] & (FOL | CLN))


def half_capitalised(sc: Scan, i: int) -> bool:
    """Token i is a hyphenated surname typed with a lower-case second part (``Ashdown-reyes``):
    a capitalised first part and, after each hyphen, a lower-case listed name."""
    first, *rest = sc.toks[i].word.split("-")
    return bool(rest) and len(first) > 1 and first.isalpha() and first[0].isupper() \
        and first[1:].islower() and all(p.isalpha() and p.islower() and sc.lex.flags(p) & LIST
                                         for p in rest)


def glued_word(sc: Scan, i: int) -> bool:
    """Token i is a capitalised word glued by a hyphen to a lower-case -ing word
    (``Voss-thinking``): typed without a space, the second part is no name."""
    first, *rest = sc.toks[i].word.split("-")
    return len(rest) == 1 and len(first) > 1 and first.isalpha() and first[0].isupper() \
        and first[1:].islower() and rest[0].isalpha() and rest[0].islower() \
        and rest[0].endswith("ing") and not sc.lex.flags(rest[0]) & LIST


def glued_clause(sc: Scan, i: int) -> int:
    """The length of the name in token i when it is a name glued by a hyphen to the word that
    goes on the sentence (``Bram-who states``, ``LISA-WILL CALL``): a listed name, or a
    Capitalised word, then one function word, modal or person's verb (``lists/non_names.txt``,
    cues ``person_verb`` and ``name_stop``); 0 otherwise."""
    first, _, rest = sc.toks[i].word.partition("-")
    if len(first) < 2 or not first.isalpha() or not rest.isalpha():
        return 0
    low = rest.lower()
    if not (low in W.NAME_STOP_WORDS or low in W.NON_NAMES):
        return 0
    if not (sc.lex.flags(first.lower()) & LIST or first[0].isupper() and first[1:].islower()):
        return 0
    return len(first)


def relation_phrase_at(sc: Scan, i: int) -> int:
    """The number of words of a relation phrase of ``relations.txt`` (``significant other``)
    that ends at token i, its words separated by spaces only; 0 if none."""
    if sc.low[i] not in W.RELATION_PHRASE_ENDS:
        return 0
    for words in W.RELATION_PHRASES:
        m = len(words)
        a = i - m + 1
        if a >= 0 and tuple(sc.low[a:i + 1]) == words and all(
                sc.plain_gap(k) and "\n" not in sc.gap(k) for k in range(a, i)):
            return m
    return 0


_PD = ("PATIENT", "DOCTOR")
TITLE_RULE = Rule("names:title", _PD, (CERTAIN, REVIEW), "a name after the title '{detail}'",
             amber="after a weak title, where capitals tell nothing, a lone name that is also an "
                   "ordinary word may be that word",
             list="titles.txt", reads=("name_cues.txt", "credentials.txt"),
             evidence=(AND,) + UPGRADES, detail="the title before the name")


def title_rule(sc: Scan, i: int) -> None:
    """``Dr. Anne Whitcombe``, ``Mrs. Thao``, ``RN Chiara Bellweather``, ``Pt Achterberg,
    Willem``: the name after a title (the title itself stays outside the span)."""
    s, low, f, n = sc.shape[i], sc.low[i], sc.fl[i], sc.n
    if s not in (CAP, UP, LOW):
        return
    g = sc.gap(i)
    if g[:1] in ("'", "’") and low.endswith("s") and f & STRONG:
        g = g[1:]   # "Drs' Marrow and Quillfeather": a stray plural apostrophe
    dotted = g.startswith(".")
    if dotted and low in W.WORD_TITLES:
        return   # "saw the patient. jessica reports": the full stop ends a sentence
    rest = g[1:] if dotted else g
    bracket = not dotted and rest.strip(SPACES_STR) == "(" and low in W.WORD_TITLES
    if rest.strip(SPACES_STR) and not bracket and not (
            dotted and f & STRONG and rest.strip(" \t") in ("\n", "\r\n") and sc.shape[i + 1] == CAP):
        return   # "referral to Dr.\nSaoirse Ní Bhriain": a line break after "Dr." is fine
    if s == UP and not sc.caps_line(i) and low not in ("rn", "np", "dr", "mr", "mrs"):
        return
    j = i + 1
    if sc.used[j]:
        return
    if low == "mr" and i > 0 and (sc.low[i - 1] in W.SEVERITY_WORDS and sc.plain_gap(i - 1)
                                  or sc.text[sc.toks[i].start - 1] in "+"):
        return   # "2+MR. Given ...", "mild MR": mitral regurgitation
    fj, sj = sc.fl[j], sc.shape[j]
    if low == "ms" and i > 0 and (sc.toks[i - 1].word.isdigit() or sc.text[
            :sc.toks[i].start].rstrip(" \t")[-1:] in ("*", "<", ">", "=")):
        return   # 0.4 ms, "PR interval * ms": a unit
    if fj & (FOL | CLN) and (not fj & LIST or not f & STRONG and sc.strict(j)) \
            and not (f & STRONG and ending_only(sc, j)):
        return   # "mr safety", "MR CONDITIONAL", "stroke nurse line": a thing, not a person
    if f & STRONG and fj & MED and j + 1 < n and sc.low[j + 1] in sc.lex.followers \
            and sc.plain_gap(j):
        return   # "Dr. Down syndrome", "Dr. Graves disease": an eponym and its disease
    if low == "ms" and s == LOW and (not fj & LIST or fj & (ENG | MED | NON) or sc.stops(j)
                                     or sc.toks[i - 1].word.lower().endswith("mg") if i else False):
        return   # "2mg ms given", "check ms. q4", "when ms improves": morphine, mental status
    if dotted and not f & STRONG and sj == LOW and s == LOW:
        return   # "checked by wound rn. new mepilex placed": the full stop ends a sentence
    # "MR CONDITIONAL" (capitals, no dot) and "dr smith" in a mixed-case note are weak;
    # "dr. uzoma" (lower case with a dot) is strong
    strong = bool(f & STRONG) and (s == CAP or s == UP and dotted
                                   or s == LOW and sc.lower[i] and not (sj == UP and not fj & LIST)
                                   or s == LOW and dotted and low in ("dr", "mr", "mrs"))
    nxt_word = sc.low[j + 1] if j + 1 < n and sc.plain_gap(j) else ""
    person_next = nxt_word in W.NAME_STOP_WORDS or nxt_word in W.PERSON_AFTER
    if sj == LOW and sc.low[j].endswith("ing") and not fj & LIST:
        return   # "spoke to Dr regarding goals": a word, no name
    if not strong and low in ("dr", "drs", "mr", "mrs") and s == UP and sj == UP and sc.caps_line(i) \
            and not fj & (NON | CLN | FOL | CRED | TITLE | REL) and sc.toks[j].word.isalpha() \
            and sc.low[j] not in W.NAME_STOP_WORDS and not (sc.low[j].endswith(("ed", "ing"))
                                                         or sc.low[j].endswith("ly") and not person_next) \
            and not (j + 1 < n and sc.fl[j + 1] & (CLN | FOL) and not sc.fl[j + 1] & LIST) \
            and not (low == "mr" and i > 0 and (sc.low[i - 1] in W.SEVERITY_WORDS
                                                or sc.text[sc.toks[i].start - 1:sc.toks[i].start] == "+")):
        strong = True   # "DR OKONKWO AWARE", "MR HALVARD HAD A GOOD DAY" ("MILD MR": the valve)
    elif not strong and low in ("np", "rn", "pa") and s == UP and sj == UP and sc.caps_line(i) \
            and not fj & (NON | CLN | FOL | CRED | TITLE | REL) and sc.toks[j].word.isalpha() \
            and sc.low[j] not in W.NAME_STOP_WORDS and not sc.low[j].endswith(("ed", "ing", "ly")) \
            and (nxt_word in W.NAME_STOP_WORDS or nxt_word in W.CLINICIAN_AFTER):
        strong = True   # "NP BRANKOVIC MADE AWARE", "NP GRETA ORDERED" ("4L NP WITH SATS" is oxygen)
    if strong and sj == OTHER and glued_word(sc, j):
        first = sc.toks[j].word.split("-")[0]   # "Dr. Voss-thinking is ...": the name, glued
        sc.used[j] = 1
        sc.spans.append(TITLE_RULE.span(sc.toks[j].start, sc.toks[j].start + len(first), "DOCTOR", CERTAIN,
                                   detail=low))
        return
    if not sc.ctx_ok(j) and not (strong and sj == LOW and not fj & NON
                                   and sc.toks[j].word.isalpha()) \
            and not (strong and sj == OTHER and half_capitalised(sc, j)) \
            and not (strong and dotted and sj == LOW and fj & LIST and sc.low[j][-2:] in ("'s", "’s")
                     and sc.low[j][:-2].isalpha()):   # "per dr. park's order"
        return
    if fj & TITLE and not fj & LIST:
        return
    comma = not strong and sj in (CAP, UP) and j + 1 < n and sc.gap(j).strip(" \t") == "," \
        and sc.low[j] not in W.NAME_STOP_WORDS and not (
            not fj & LIST and sc.low[j].endswith(("ed", "ing", "ly"))) \
        and "\n" not in sc.gap(j) and (sc.fl[j + 1] & GIV or sc.shape[j + 1] == sj
                                        and not sc.fl[j + 1] & (NON | TITLE | CRED))
    if not strong and fj & REL:
        return   # "Ilse Varga, NP. Son Bram called": a relative opens the next sentence
    if not strong:
        ok = bool(fj & LIST) and not fj & NON and not (
            sc.lower[i] and low in ("patient", "pt") and (fj & ENG or not fj & GIV))
        if not ok and sj == INI and j + 1 < n and sc.text.startswith(".", sc.toks[j].end) \
                and not (low in ("pt", "patient") and not sc.fl[j + 1] & SUR):
            ok = True                                   # rn g. abernathy ("pt. v.rapid": no)
        if not ok and sj == CAP and j + 1 < n and sc.shape[j + 1] == CAP and sc.plain_gap(j) \
                and not sc.fl[j + 1] & (NON | FOL | CLN | TITLE | CRED) and not fj & (FOL | CLN):
            ok = True                                   # RN Chiara Bellweather
        if not ok and comma and not (low in ("pt", "patient") and not fj & SUR and (
                sc.low[j].endswith(("s", "ed", "ing")) or service_word(sc.low[j + 1])
                or len(sc.low[j + 1]) <= 3 and not sc.fl[j + 1] & GIV)):
            ok = True                                   # Pt Achterberg, Willem ("PT DROWSY, NON VERBAL": no)
        if not ok:
            return
        if low in ("pt", "patient") and (sc.strict(j) or sj == LOW) and sc.low[j].endswith(("s", "ed", "ing")) \
                and not fj & GIV and not comma:
            return   # "if pt spikes", "ONCE PT WAKES": a verb after the patient
        if sc.strict(j) and (fj & ENG and sc.low[j] in W.NAME_STOP_WORDS or fj & ENG and j + 1 < n
                             and sc.low[j + 1] in W.NAME_STOP_WORDS):
            return   # "RN WILL DANGLE PT": a modal after a weak title
        if low in ("pt", "patient") and not comma and (
                sj == UP and sc.caps_line(j) or fj & (ENG | MED) or sc.low[j] in W.NAME_STOP_WORDS):
            return   # "PT STILL SEDATED", "Pt. given 1L", "pt more awake": "pt" is the patient
    idx = take(sc, j, allow_comma=comma, second_free=True)
    if bracket and not sc.text.startswith(")", sc.toks[idx[-1]].end):
        return   # "lawyer (Ilse Varga)": only the name in brackets
    if not f & STRONG and sc.eponym_after(idx[-1]):
        return   # "Sister Mary Joseph nodule": an eponym after a weak title
    label = "DOCTOR" if f & TTL_D or sc.credential_after(idx[-1]) else "PATIENT"
    # "the intern last night", "major post op": after a weak title, where capitals tell
    # nothing, a lone name that is also an ordinary word may be that word (review)
    tier = REVIEW if not strong and len(idx) == 1 and fj & ENG and sc.strict(j) \
        and sc.shape[i] == LOW and low not in ("pt", "patient") else CERTAIN
    sc.emit(idx, label, tier, TITLE_RULE, remember=True, detail=low, context=True,
            strong=low in W.STRONG_TITLES)
    if strong:
        second_after_and(sc, idx[-1], label, low)


def second_after_and(sc: Scan, last: int, label: str, title: str) -> None:
    """``Dr. Rask and Velde aware``, ``DRS HOLM AND ARDAL``: a second surname after ``and``
    shares the title when it is a clean listed name, the title is plural, or a person word
    (``aware``, ``notified``) follows it."""
    a, j = last + 1, last + 2
    if j >= sc.n or sc.low[a] not in ("and", "&") or not sc.plain_gap(last) or not sc.plain_gap(a) \
            or sc.used[j]:
        return
    fj, sj, w = sc.fl[j], sc.shape[j], sc.low[j]
    if not (sj == CAP or sj == UP and sc.caps_line(j)) or not sc.toks[j].word.isalpha() \
            or fj & (NON | CLN | FOL | TITLE | REL | CRED) or w in W.NAME_STOP_WORDS:
        return
    nxt = sc.low[j + 1] if j + 1 < sc.n and sc.plain_gap(j) else ""
    if fj & LIST and not fj & (ENG | MED) or title == "drs" or nxt in W.CLINICIAN_AFTER:
        sc.emit([j], label, CERTAIN, TITLE_RULE, remember=True, detail=title, evidence=(AND,), context=True)


RELATION = Rule("names:relation", ("PATIENT",), (CERTAIN, REVIEW),
                "a name after the relation word '{detail}'",
                amber="the word after a relation word may not be a name", list="relations.txt",
                reads=("name_cues.txt",), evidence=(GLUED,) + UPGRADES,
                detail="the relation word before the name")


def relation_rule(sc: Scan, i: int) -> None:
    """``his wife Mary``, ``daughter, Ana Lopez``, ``brother Pieter Achterberg``."""
    if sc.toks[i].word == "MOM" and not sc.caps_line(i):
        return   # "given MOM enema", "MOM 30 ml": milk of magnesia in a note with lower case
    g = sc.gap(i).strip(" \t")
    j = i + 1
    poss = i > 0 and sc.low[i - 1] in W.POSSESSIVES and sc.plain_gap(i - 1)
    if g in ("\n", "\r\n"):
        # "his daughter\nharriet", "father\nBlaž": a line break after the relation word
        if not (poss or sc.shape[j] == CAP and not sc.strict(j)):
            return
    elif g not in ("", ",", ":", "(", "-", "–", "—", ", (", "="):
        return
    w = sc.low[j]
    fj = sc.fl[j]
    cut = glued_clause(sc, j) if "-" in w else 0
    if cut:
        sc.used[j] = 1   # "son Bram-who states": the name, glued to the next word
        sc.spans.append(RELATION.span(sc.toks[j].start, sc.toks[j].start + cut, "PATIENT", CERTAIN,
                                      detail=sc.low[i], evidence=(GLUED,)))
        return
    calendar = poss and w in W.CALENDAR_NAMES and sc.shape[j] != INI \
        and (j + 1 >= sc.n or sc.gap(j).lstrip(" \t")[:1] in ("\n", "\r", "(", ",", ";"))
    if not calendar and (not sc.ctx_ok(j) or sc.shape[j] == INI):
        return
    if fj & (FOL | CLN | REL) and not fj & LIST:
        return
    if fj & NON and not calendar and (sc.strict(j) or sc.shape[j] == LOW):
        return   # "HUSBAND IN TO VISIT", "SON AT BEDSIDE": a function word, however listed
    if sc.strict(j) and w in W.PERSON_VERBS:
        return   # "his mother fell at home", "WIFE SAID": a verb, no name
    if fj & REL or sc.strict(j) and (len(w) <= 2 and not fj & GIV or not fj & LIST and not w.isalpha()):
        return   # "CALLED WIFE, NIECE", "WIFE RE: PLAN", "SON HERE AT BEDSIDE"
    if sc.strict(j) and fj & ENG and w in W.NAME_STOP_WORDS:
        return   # "SON WILL CALL TONIGHT": a modal, no name
    if fj & ENG and w in W.NAME_STOP_WORDS and sc.shape[j] == UP and j + 1 < sc.n \
            and sc.shape[j + 1] == UP and not sc.fl[j + 1] & LIST and sc.plain_gap(j):
        return   # "SON WILL ARRIVE FROM Tulsa" on a line with lower case: a modal and a verb
    tier = CERTAIN
    idx = take(sc, j, allow_comma=sc.shape[j] == UP, second_free=True)
    if sc.eponym_after(idx[-1]) and not (fj & LIST and not fj & (ENG | MED) and len(idx) > 1):
        return   # "her mother, Whipple procedure in 2010": a procedure, not the mother's name
    if calendar:
        idx = [j]
    elif fj & ENG and sc.strict(j) and j + 1 < sc.n and sc.shape[j + 1] == LOW \
            and not sc.fl[j + 1] & (NON | GIV) and sc.plain_gap(j, allow_newline=True) \
            and sc.low[j + 1] not in W.ENG_PERSON_AFTER:
        idx, tier = [j], REVIEW   # "his wife will call": no capitals to tell Will from will
    elif not fj & LIST:
        if sc.shape[j] == CAP and not sc.strict(j):
            # "Mother: Folasade Adeyemi-Clarke" is a name, "Mother: Alive" is not
            tier = REVIEW if g == ":" and len(idx) < 2 else CERTAIN
        elif (sc.lower[j] or poss and sc.strict(j)) and not fj & NON \
                and not w.endswith(("s", "ed", "ing", "ly")) and w not in W.NAME_STOP_WORDS:
            # "with wife ngozi if eating well": a function word after it reads as a name;
            # so does a bracket, a comma or the end of the line after "his son ROALD"
            nxt = idx[-1] + 1
            after = sc.gap(idx[-1]).lstrip(" \t")[:1]
            tier = CERTAIN if (nxt < sc.n and (sc.fl[nxt] & NON or sc.stops(nxt))
                               and sc.plain_gap(idx[-1])
                               or poss and (after in ("(", ",", "\n", "\r") or nxt >= sc.n)) \
                else REVIEW
        elif sc.strict(j) and sc.shape[j] == UP and not fj & (NON | CLN | FOL | CRED) and len(w) > 2 \
                and sc.toks[j].word.isalpha() and not w.endswith(("ed", "ing", "ly")) \
                and w not in W.NAME_STOP_WORDS:
            # "SON TEODOR VISITED", "DTR MARISOL CALLED": in capitals, only before a
            # person's verb ("HUSBAND IN TO VISIT", "WIFE VERY TEARFUL" give nothing)
            idx = [j]
            nxt = j + 1
            if not (nxt < sc.n and sc.plain_gap(j) and (sc.low[nxt] in W.PERSON_VERBS
                                                         or sc.low[nxt] in W.PERSON_AFTER)):
                return
        else:
            return
    m = 0 if sc.fl[i] & REL else relation_phrase_at(sc, i)
    rel = "_".join(sc.low[i - m + 1:i + 1]) if m else sc.low[i]   # "significant_other"
    sc.emit(idx, "PATIENT", tier, RELATION, remember=tier == CERTAIN, detail=rel, context=True)


LABEL = Rule("names:label", ("PATIENT", "DOCTOR", "USERNAME"), (CERTAIN, REVIEW),
             "a name after the field label '{detail}'",
             amber="the word after the label is also an ordinary word, and a lower-case word "
                   "follows it",
             list="name_labels.txt", reads=("name_cues.txt", "generic_service_words.txt"),
             evidence=UPGRADES, detail="the label before the name")


def label_rule(sc: Scan, i: int) -> None:
    low = sc.low
    for words, label, colon in sc.lex.labels_by_last[low[i]]:
        m = len(words)
        if i + 1 < m or tuple(low[i - m + 1:i + 1]) != words:
            continue
        if i - m + 1 > 0 and m == 1 and low[i] in ("name", "user", "contact") \
                and sc.shape[i - 1] != OTHER and "\n" not in sc.gap(i - 1) \
                and sc.gap(i - 1).strip(" \t") == "" and low[i - 1] not in ("patient", "pt"):
            # "first name", "brand name": only the listed multi-word phrases count
            continue
        g = sc.gap(i).strip(" \t\r\n")
        if colon and g not in (":", "-", ":-", "#:", "=", "–", "|"):
            continue
        if g == "|" and sc.fl[i] & CRED:
            continue   # "Kenji Arakawa, MD | Core": a table cell, not a label
        if words == ("re",) and not sc.line_starts_at(i) \
                and sc.text[:sc.toks[i].start].rstrip(" \t")[-1:] != "(":
            return   # "MEETING W FAMILY RE: PEG": regarding, mid-sentence
        if not colon and g not in ("", ":", "-"):
            continue
        j = i + 1
        if label == "USERNAME":
            username_after_label(sc, j, words, colon, LABEL)
            return
        if m == 1 and sc.lower[j] and low[i] in ("reviewed", "verified") and i > 0 \
                and not sc.fl[j] & LIST and not low[i - 1].endswith("ly") \
                and not sc.line_starts_at(i) \
                and sc.gap(i - 1).strip(" \t") == "" and "\t" not in sc.gap(i - 1) \
                and "   " not in sc.gap(i - 1):
            return   # "meds reviewed: furosemide": a verb and its object, no label
        if sc.fl[j] & (TITLE | REL) and not sc.fl[j] & LIST:
            return  # "Attending: Dr. Smith", "next of kin: mother greta": the title or relation rule
        if sc.fl[j] & REL and sc.shape[j] != CAP or not colon and sc.fl[j] & NON and sc.shape[j] in (LOW, UP):
            return  # "form witnessed by wife", "HER PCP IN TO SEE HER": a relation or a function word
        if label == "DOCTOR" and colon and login_shaped(sc, j):
            username_after_label(sc, j, words, colon, LABEL)   # "Tech: dferreiral2"
            return
        if sc.used[j] or not sc.ctx_ok(j):
            return
        if sc.shape[j] == LOW and words[-1] in W.AMBIGUOUS_LABELS and (
                not sc.fl[j] & LIST or sc.fl[j] & ENG):
            return   # "cc: facial droop", "re: inhaler refill"
        if not colon and not sc.fl[j] & LIST and sc.shape[j] not in (CAP, UP) \
                and not (sc.shape[j] == INI and sc.text.startswith(".", sc.toks[j].end)):
            return
        if not colon and sc.shape[j] == INI and len(dotted := dotted_letters(sc, j)[0]) >= 2 \
                and service_word(dotted):
            return   # "VISITED BY O.T.", "per S.L.P.": a service written with dots
        device_surname = sc.shape[j] == CAP and sc.fl[j] & SUR and not sc.fl[j] & (ORD | CLN) \
            and service_word(low[j]) and not sc.clinical_after(j) and not sc.eponym_after(j)
        if not colon and sc.shape[j] != INI and not device_surname and (
                service_word(low[j]) or sc.fl[j] & CLN
                or not sc.fl[j] & LIST and (sc.strict(j) or j + 1 < sc.n and sc.plain_gap(j)
                                            and service_word(low[j + 1]))):
            return   # "SEEN BY NEURO", "seen by Pain team", "CONFIRMED BY XRAY": a service
        if colon and g == "-" and m == 1 and not sc.line_starts_at(i):
            return   # "TALKED WITH PT - REVIEWING GOALS", "ON 3L NP- DESATS": a dash mid-sentence
        idx = take(sc, j, allow_comma=True, second_free=True)
        tier = CERTAIN
        if len(idx) == 1 and (sc.fl[j] & ENG and sc.next_is_lower_word(j) or device_surname
                              or not colon and sc.fl[j] & MED):
            tier = REVIEW   # "seen by Grace today"; "seen by Foley", "message for Parkinson"
        if label == "PATIENT" and sc.credential_after(idx[-1]):
            label = "DOCTOR"
        sc.emit(idx, label, tier, LABEL, remember=tier == CERTAIN, detail=" ".join(words),
                context=True, strong=True)
        return


#: The pass of this module and the rules it may give (with :mod:`.signatures`' and the log-in
#: after a label, :func:`.usernames.username_after_label`, a ``names:label`` span).
CONTEXT_PASS = Pass(context_pass, (TITLE_RULE, RELATION, LABEL, CREDENTIAL, SIGNATURE_INITIALS,
                                   INITIALS_AFTER, SIGN_OFF))
