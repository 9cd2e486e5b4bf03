"""Log-ins (USERNAME): the value after ``user:`` / ``tech ID`` / a staff label (``Tech:
dferreiral2``), and a lower-case word made of a name found in the note plus up to three
letters or digits (``gasamoahb`` after ``Asamoah-Brandt``).
"""
from __future__ import annotations

from ...rules import Pass, Rule
from ...spans import CERTAIN
from .lexicon import LIST, NON, strip_accents
from .scan import Scan


def login_shaped(sc: Scan, j: int) -> bool:
    """Token j looks like a login: letters then digits (``dferreiral2``), or one lower-case
    word of 5+ letters in a note that has capitals (``boosterhuis``), alone on its line or
    before a space."""
    w = sc.toks[j].word
    if not w.isalnum() or not w[0].isalpha() or w.isupper():
        return False
    if any(c.isdigit() for c in w):
        return w[-1].isdigit() and not sc.fl[j] & LIST
    return (w.islower() and len(w) >= 5 and not sc.lower_doc
            and not sc.fl[j] & (LIST | NON) and sc.line_ends_after(j))


def username_after_label(sc: Scan, j: int, words: tuple[str, ...], colon: bool, rule: Rule) -> None:
    """The login after ``user:`` / ``tech ID`` (up to the next space or bracket): a USERNAME span
    of ``rule`` (the label rule, :data:`.context.LABEL`) with the label's words as its detail."""
    text = sc.text
    start = sc.toks[j].start
    end = start
    while end < len(text) and not text[end].isspace() and text[end] not in ",;)]":
        end += 1
    while end > start and text[end - 1] in ".:":
        end -= 1
    value = text[start:end]
    if not colon and not (any(c.isdigit() or c == "_" for c in value)
                          or value.islower() and value.isalnum() and not sc.fl[j] & NON):
        return
    if end > start:
        k = j
        while k < sc.n and sc.toks[k].end <= end:
            sc.used[k] = 1
            k += 1
        sc.spans.append(rule.span(start, end, "USERNAME", CERTAIN, detail=" ".join(words)))


USERNAME_FROM_NAME = Rule("names:username_from_name", ("USERNAME",), (CERTAIN,),
                          "a user name made from a name in this note")


def username_pass(sc: Scan) -> None:
    """A lower-case word that is a name found in this note plus a few letters or digits
    (``Gideon W. Asamoah-Brandt, MD (gasamoahb)``, ``Protocol tech: boosterhuis`` after
    ``Bram Oosterhuis``, ``Entered by kosei-tutu`` after ``Kwabena Osei-Tutu``) is that
    person's log-in: USERNAME. Not in lower-case notes, not inside e-mail addresses."""
    if sc.lower_doc:
        return
    parts: set[str] = set()
    text = sc.text
    for sp in sc.spans:
        if sp.tier != CERTAIN or sp.label not in ("PATIENT", "DOCTOR"):
            continue
        for word in text[sp.start:sp.end].split():
            word = strip_accents(word.lower().replace("’", "").replace("'", "").rstrip(".,"))
            for part in {word, word.replace("-", "")} | set(word.split("-")):
                if len(part) >= 4 and part.isalpha():
                    parts.add(part)
    if not parts:
        return
    toks, used, fl = sc.toks, sc.used, sc.fl
    shortest = min(len(p) for p in parts)
    # (a word holding a part is at most three letters longer than it: the longest part + 3)
    longest = max(len(p) for p in parts) + 3
    for k, w in enumerate(sc.low):
        if len(w) <= shortest or len(w) > longest and "-" not in w or used[k] or fl[k] & NON \
                or not w[0].isalpha():
            continue
        tok = toks[k]
        if not tok.word.islower():
            continue
        bare = w.replace("-", "")
        bare = strip_accents(bare)
        if len(bare) > longest:
            continue
        for p in parts:
            if p in bare and len(bare) - len(p) <= 3 \
                    and not (p.endswith("ing") and bare.endswith(p) and len(bare) - len(p) > 1):
                break
        else:
            continue   # "feeling" after Dr Ling: an English -ing word, no log-in
        if text[tok.start - 1:tok.start] in "@./" and tok.start or text[tok.end:tok.end + 1] in ("@", ".", "/") \
                and text[tok.end + 1:tok.end + 2].isalnum():
            continue   # inside an e-mail address, a URL or a path
        if bare not in parts:
            used[k] = 1
            sc.spans.append(USERNAME_FROM_NAME.span(tok.start, tok.end))


#: The pass of this module and the rule it may give.
USERNAME_PASS = Pass(username_pass, (USERNAME_FROM_NAME,))
