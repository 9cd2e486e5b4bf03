"""Signature initials: ``-- JS``, ``/js``, ``AB/cd`` at the end of a line, ``/JTW`` opening
one, and initials after a dictation word (``transcribed by m.o.``, ``Transcriptionist: mlr``,
``Tech ZQ /``). All DOCTOR, certain.
"""
from __future__ import annotations

import re
from bisect import bisect_left

from ...document import CAP
from ...rules import Rule
from ...spans import CERTAIN
from . import words as W
from .lexicon import CLN, CRED, ENG, FOL, LIST, NON, REL, TITLE
from .runs import service_word
from .scan import Scan


def dotted_letters(sc: Scan, j: int) -> tuple[str, int]:
    """The lower-case letters of dotted initials starting at token ``j`` (``P.T.`` -> ``pt``)
    and the index after the last one; ``("", j)`` when token ``j`` is no dotted initial."""
    text, toks, low = sc.text, sc.toks, sc.low
    k, letters = j, ""
    while k < sc.n and len(toks[k].word) == 1 and toks[k].word.isalpha() \
            and text.startswith(".", toks[k].end) and (k == j or toks[k].start == toks[k - 1].end + 1):
        letters += low[k]
        k += 1
    return letters, k


INITIALS_AFTER = Rule("names:initials_after", ("DOCTOR",), (CERTAIN,), "initials after the word '{detail}'",
                      reads=("name_cues.txt", "credentials.txt"),
                      detail="the dictation or signature word before them")


def initials_after_label(sc: Scan, i: int) -> None:
    """Initials after a dictation or signature word: ``transcribed 9/16 by m.o.``,
    ``Transcriptionist: mlr``, ``transcribed: ks   Job ...``, ``Tech ZQ / reviewed``."""
    text, toks, low = sc.text, sc.toks, sc.low
    j = i + 1
    g = sc.gap(i)
    tok = toks[j]
    if g == " " and tok.end < len(text) and text[tok.end] == ".":
        letters, k = dotted_letters(sc, j)   # dotted initials "m.o." / "J.S."
        if service_word(letters):
            return   # "treatment given by R.T.", "walked by P.T.": a service written with dots
        after = text[toks[k - 1].end + 1:toks[k - 1].end + 40].lstrip(" \t")[:1]
        if 2 <= len(letters) <= 3 and letters not in sc.lex.credentials \
                and after in ("", "\n", "\r", ",", ";", ")"):   # not "by U.S. Army"
            for m in range(j, k):
                sc.used[m] = 1
            sc.spans.append(INITIALS_AFTER.span(tok.start, toks[k - 1].end + 1, detail=low[i]))
        return
    if low[i] == "by":
        return
    colon = g.strip(" \t") in (":", ":-", "-")
    w = tok.word
    if not (colon or g == " " and w.isupper() and low[i] in ("tech", "technologist", "scribe")):
        return
    if not (2 <= len(w) <= 4 and w.isalpha() and (w.isupper() or w.islower())) \
            or sc.fl[j] & (NON | CRED | LIST) or sc.shape[j] == CAP:
        return
    e = tok.end
    rest = text[e:e + 3]
    if not (e >= len(text) or rest[:1] in "\r\n" or rest.startswith(("  ", " /", "/", "\t"))):
        return
    sc.used[j] = 1
    sc.spans.append(INITIALS_AFTER.span(tok.start, tok.end, detail=low[i]))


#: A slash or dash, then spaces or tabs, right before a word character.
_SLASH_DASH_BEFORE_RE = re.compile(r"[/\-–—][ \t]*(?=[^\W_])")


def after_slash_or_dash(sc: Scan) -> set[int]:
    """The indices of the tokens whose nearest character before them that is no space or tab
    is a slash or a dash (``/``, ``-``, ``–``, ``—``): the only tokens
    :func:`signature_initials` can mark (``-- JS``, ``/js``, ``AB/cd``), found in one regex
    search of the text instead of a test per token."""
    starts, n, out = sc._starts, sc.n, set()
    for m in _SLASH_DASH_BEFORE_RE.finditer(sc.text):
        e = m.end()
        i = bisect_left(starts, e)
        if i < n and starts[i] == e:   # (not a hyphen inside a word: "x-ray")
            out.add(i)
    return out


#: What may follow signature initials on their line (``JS pgy2``, ``JS cc: ...``), lower-cased;
#: their first characters, in either case, are ``pPcCmM(``.
_AFTER_INITIALS = ("pgy", "(pgy", "cc:", "cc ", "ms3", "ms4")


SIGNATURE_INITIALS = Rule("names:signature_initials", ("DOCTOR",), (CERTAIN,),
                          "initials in a signature line", reads=("name_cues.txt",))


def signature_initials(sc: Scan, i: int) -> None:
    """Signature initials alone at the end of a line: ``-- JS``, ``—JS``, ``/js``, ``AB/cd``."""
    text, tok = sc.text, sc.toks[i]
    if tok.start == 0 or text[tok.start - 1] not in "/-–— \t":
        return
    w = tok.word
    if not (w.isupper() or w.islower()) or not w.isalpha():
        return
    if w.isupper() and text[tok.start - 1] == "/" and (tok.start == 1 or text[tok.start - 2] == "\n") \
            and not sc.fl[i] & NON:
        sc.used[i] = 1   # "/JTW James T. Wolcott-Mbeki, MD": initials opening a line
        sc.spans.append(SIGNATURE_INITIALS.span(tok.start, tok.end))
        return
    # rest of the line must be empty
    e = tok.end
    while e < len(text) and text[e] in " \t":
        e += 1
    if e < len(text) and text[e] not in "\r\n/" and not (
            e > tok.end and text[e] in "pPcCmM(" and text[e:e + 5].lower().startswith(_AFTER_INITIALS)):
        return   # initials stand alone at the end of a line (or before more initials / "pgy2")
    p = tok.start - 1
    while p >= 0 and text[p] in " \t":
        p -= 1
    if p < 0:
        return
    c = text[p]
    if c == "/" and p == tok.start - 1 and i > 0 and sc.toks[i - 1].end == p and w.islower() \
            and (e >= len(text) or text[e] in "\r\n") and sc.line_starts_at(i - 1) \
            and sc.toks[i - 1].start == text.rfind("\n", 0, p) + 1:
        pw = sc.low[i - 1]
        if sc.toks[i - 1].word.islower() and pw.isalpha() and 2 <= len(pw) <= 3 \
                and pw not in W.UNITS and not (sc.fl[i - 1] | sc.fl[i]) & NON:
            sc.used[i] = sc.used[i - 1] = 1   # "ads/mo" alone on the last line
            for t in (sc.toks[i - 1], tok):
                sc.spans.append(SIGNATURE_INITIALS.span(t.start, t.end))
            return
    if c in "-–—" and (w.isupper() or not sc.fl[i] & (NON | ENG | LIST)):
        q = p
        while q >= 0 and text[q] in "-–—":
            q -= 1
        if (q < 0 or text[q] in " \t\n") and (p - q >= 2 or text[p] in "–—"):
            sc.used[i] = 1
            sc.spans.append(SIGNATURE_INITIALS.span(tok.start, tok.end))
        return
    if c == "/" and p == tok.start - 1 and w.lower() not in W.UNITS:
        q = p - 1
        if q < 0 or text[q] in " \t\n":
            sc.used[i] = 1
            sc.spans.append(SIGNATURE_INITIALS.span(tok.start, tok.end))
            return
        if i > 0 and sc.toks[i - 1].end == p and w.islower():
            prev = sc.toks[i - 1]
            pw = prev.word
            ls = prev.start - 1
            if pw.isupper() and pw.isalpha() and 2 <= len(pw) <= 3 and (ls < 0 or text[ls] in " \t\n"):
                sc.used[i] = sc.used[i - 1] = 1
                sc.spans.append(SIGNATURE_INITIALS.span(prev.start, prev.end))
                sc.spans.append(SIGNATURE_INITIALS.span(tok.start, tok.end))


SIGN_OFF = Rule("names:sign_off", ("DOCTOR",), (CERTAIN,),
                "a name glued to the sign-off word '{detail}' (Regards,Anneliese)",
                reads=("name_cues.txt",), detail="the sign-off word")


def sign_off(sc: Scan, i: int) -> None:
    """A name glued to a sign-off word by punctuation, no space: ``Regards,Anneliese``,
    ``thx-Oyelaran``, ``Thanks:Okafor``. The capitalised word after it is the writer, DOCTOR,
    certain (with a space between, the label and list rules decide)."""
    tok, text = sc.toks[i], sc.text
    word = tok.word
    if "-" in word:   # one token: "thx-Oyelaran"
        head, _, rest = word.partition("-")
        if rest[:1].isupper() and rest[1:2].islower() and rest.replace("-", "").isalpha() \
                and not sc.lex.flags(rest.lower()) & (NON | CLN | FOL):
            start = tok.start + len(head) + 1
            sc.used[i] = 1
            sc.spans.append(SIGN_OFF.span(start, tok.end, detail=head.lower()))
        return
    j = i + 1
    if j >= sc.n or sc.used[j] or text[tok.end:sc.toks[j].start] not in (",", ":", "-", ",-"):
        return
    if sc.shape[j] != CAP or sc.fl[j] & (NON | CLN | FOL | TITLE | REL | CRED):
        return
    sc.emit([j], "DOCTOR", CERTAIN, SIGN_OFF, remember=True, detail=sc.low[i])
