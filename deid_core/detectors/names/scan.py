"""Per-note state of one run of the name rules, and the predicates the rules share.

:class:`Scan` holds the note's tokens with their word facts (:mod:`.lexicon` flags) and
letter case (:meth:`deid_core.document.Document.cases`), which tokens a rule has already
taken (``used``), the spans found so far, and the names found with strong evidence
(``found``, for :mod:`.consistency`). The rule modules (:mod:`.context`, :mod:`.heads`,
:mod:`.list_rules`, :mod:`.signatures`, :mod:`.usernames`, :mod:`.consistency`) are functions
of a :class:`Scan`; :func:`deid_core.detectors.names.scan_note` runs them in order. Where
capitals tell nothing, token by token: :mod:`.case` (lines and sentences in lower case) and the
document's note-level decision (:attr:`Document.lower_note`, :meth:`Document.caps_line`).
"""
from __future__ import annotations

import re

from ... import lists
from ...document import CAP, INI, LOW, OTHER, UP, Document
from ...rules import Evidence, Rule
from ...spans import CERTAIN, REVIEW, Span
from ..patterns import alternation
from . import words as W
from .case import lower_segments, one_letter_indices
from .lexicon import (CLN, CRED, ENG, FOL, LBL, LIST, MED, MONTH, NON, ORD, PROF, REL,
                      TITLE, Lexicon)

SPACES_STR = " \t"   #: the spaces a gap inside a name may hold, for str.strip
SPACES = frozenset(SPACES_STR)
#: Starts of identifier labels after a name on a header line (``(MRN``, ``| DOB``, ``rm 4``).
#: Cues ``id_prefix`` (any ending) and ``id_prefix_spaced`` (then a space) of
#: ``lists/name_cues.txt``, and the shapes ``id:``, ``id#``.
ID_WORDS = (tuple(sorted(lists.name_cue_words("id_prefix")))
            + tuple(w + " " for w in sorted(lists.name_cue_words("id_prefix_spaced"))) + ("id:", "id#"))
#: Characters that may open a sentence before its first word, and that end a sentence.
OPENERS = " \"'“‘(*•·-–—#>[0123456789"
SENTENCE_END = ".!?:;\n\r|\t"
#: After a name: an age (``, 96,``, ``— 67 yo``, ``82 year old``) or an identifier label
#: (``(MRN``, ``| DOB``): the name is the patient's, at the head of a note or a row.
#: The labels are cues ``id_after`` (whole words) and ``id_after_prefix`` of ``lists/name_cues.txt``.
AGE_ID_AFTER_RE = re.compile(
    r"[ \t]*(?:[,|(:\-–—][ \t]*)*(?:(?P<label>(?:" + alternation(lists.name_cue_words("id_after"), " ")
    + r")\b|" + alternation(lists.name_cue_words("id_after_prefix"), " ") + r")"
    r"|\d{1,3}(?:[ \t]*(?:,|yo\b|y/o|y\.o|y\b|-?years?\b|-?yrs?\b|m\b|f\b|\)|$)|-y))",
    re.IGNORECASE | re.MULTILINE)
#: Where a line's first word starts (after spaces, dashes and bullets).
LINE_WORD_RE = re.compile(r"(?m)^[ \t\-–—•*>]*(?=[^\W_])")
#: A word with any of these facts is not taken as part of a name by the head-of-line rules.
NOT_NAME = NON | FOL | CLN | TITLE | REL | LBL | CRED | PROF | MONTH


def indices_of(seq: list, value) -> list[int]:
    """The indices ``i`` of ``seq`` with ``seq[i] == value``, ascending: what
    ``[i for i, x in enumerate(seq) if x == value]`` gives, found with ``list.index`` (C speed,
    so cheap when ``value`` is rare: the initials of a note's shapes)."""
    out: list[int] = []
    index, i = seq.index, -1
    try:
        while True:
            i = index(value, i + 1)
            out.append(i)
    except ValueError:
        return out


class Scan:
    """Per-document state of one detection run (see the module docstring).

    Args:
        doc: the note.
        lex: the word facts (:func:`.lexicon.lexicon`).
    """

    def __init__(self, doc: Document, lex: Lexicon) -> None:
        self.doc = doc
        self.text = text = doc.text
        self.toks = toks = doc.tokens
        self.n = len(toks)
        self.lex = lex
        self.low = doc.words_lower
        self.fl = lex.flags_of(self.low)
        self.shape = shape = list(doc.cases)
        #: a lower-case note: (almost) no capitals, so capitalisation is no evidence
        self.lower_doc = doc.lower_note
        #: per token: capitalisation is no evidence here (the whole note but for Title-case words
        #: inside a sentence, or a line or a
        #: sentence written all in lower case inside a note that has capitals elsewhere)
        singles = one_letter_indices(self.low)
        self.lower = bytearray(b"\x01") * self.n if self.lower_doc else lower_segments(
            text, toks, shape, self.fl, singles)
        lower = self.lower
        # a single letter is an initial in lower-case text ("smith, john c")
        low = self.low
        for k in singles:
            if lower[k] and shape[k] == LOW and (low[k] not in "ai" or text.startswith(".", toks[k].end)):
                shape[k] = INI
        if self.lower_doc:
            # in a lower-case note a Title-case word inside a sentence was capitalised on
            # purpose ("consulted with wound rn, Petra Hollis, today"): capitals are evidence there
            for k in indices_of(shape, CAP):
                if not self.sentence_start(k):
                    lower[k] = 0
        self.caps_doc = doc.caps_note
        self._starts = [t.start for t in toks]
        self.used = bytearray(self.n)
        self.spans: list[Span] = []
        self.found: dict[str, tuple[str, str]] = {}
        #: words of a certain name with strong evidence (a label, a strong title) that are
        #: ordinary or non-name words (``Will``, ``ng``): spread only as part of the full name
        self.found_weak: dict[str, tuple[str, str]] = {}
        self.reviewed: list[tuple[int, int, list[int]]] = []
        #: the note's distinct lower-case words (for :meth:`indices_in`)
        self.vocab = set(self.low)

    def indices_in(self, words) -> list[int]:
        """The indices of the tokens whose lower-case word is in ``words`` (a set, or a dict's
        keys), ascending: ``[i for i, w in enumerate(self.low) if w in words]``, found with a
        set intersection and ``list.index`` (cheap when few of the note's words are in ``words``)."""
        low = self.low
        return sorted(i for w in self.vocab & words for i in indices_of(low, w))

    def gap(self, i: int) -> str:
        """Text between token i and token i+1 (after the last token: the rest of the text
        plus a blank line, so that nothing joins across the end)."""
        if i + 1 >= self.n:
            return self.text[self.toks[i].end:] + "\n\n"
        return self.text[self.toks[i].end:self.toks[i + 1].start]

    def caps_line(self, i: int) -> bool:
        """Token i's line is written in capitals (:meth:`Document.caps_line`)."""
        return self.doc.caps_line(self.toks[i].start)

    def strict(self, i: int) -> bool:
        """Capitalisation is no evidence here (lower-case note, or ALL-CAPS note or line)."""
        return self.lower[i] or (self.shape[i] == UP and self.caps_line(i))

    def shaped(self, i: int) -> bool:
        """Name-shaped without context: Title-case; ALL CAPS in a capitals line; any word in
        a lower-case note."""
        s = self.shape[i]
        if s == CAP:
            return True
        if s == UP:
            return self.caps_line(i) and not self.lower[i]
        if s == LOW:
            return self.lower[i]
        return False

    def ctx_ok(self, i: int) -> bool:
        """Name-shaped after a title, label or relation: capitalised, ALL CAPS, or a list
        word in lower case; not a non-name word unless it is also in a name list."""
        if i >= self.n:
            return False
        s, f = self.shape[i], self.fl[i]
        if s == INI:
            return True
        if s == CAP or s == UP:
            pass
        elif s == LOW:
            if not self.lower[i] and (not f & LIST or f & (NON | ENG)):
                return False
        else:
            return False
        if f & NON and not (f & LIST and not f & MONTH and s != LOW) and not f & MONTH:
            return False
        if f & MONTH and s == LOW:
            return False
        return not (f & (TITLE | CRED) and s == UP and not f & LIST)

    def sentence_start(self, i: int) -> bool:
        text = self.text
        j = self.toks[i].start - 1
        while j >= 0 and text[j] in OPENERS:
            if text[j] == " " and j > 0 and text[j - 1] == " ":
                return True   # a column gap in a table
            j -= 1
        return j < 0 or text[j] in SENTENCE_END

    def plain_gap(self, i: int, allow_newline: bool = False) -> bool:
        """Token i and i+1 separated only by spaces/tabs (after an initial: an optional dot)."""
        g = self.gap(i)
        if self.shape[i] == INI and g.startswith("."):
            g = g[1:]
        if not g:
            return self.shape[i] == INI
        if not g.strip(SPACES_STR):
            return True
        if allow_newline:
            s = g.strip(" \t")
            return s in ("\n", "\r\n")
        return False

    def line_starts_at(self, i: int) -> bool:
        """Token i is the first word on its line (dashes, bullets and spaces may precede it)."""
        text = self.text
        p = self.toks[i].start - 1
        while p >= 0 and text[p] in " \t-–—•*>":
            p -= 1
        return p < 0 or text[p] == "\n"

    def line_ends_after(self, i: int) -> bool:
        """Nothing but spaces, a comma or a full stop follows token i on its line."""
        text = self.text
        e = self.toks[i].end
        while e < len(text) and text[e] in " \t,.":
            e += 1
        return e >= len(text) or text[e] in "\r\n"

    def id_after(self, i: int) -> bool:
        """An identifier follows token i on its line: ``(MRN ...``, ``| DOB``, ``, 80 yo``,
        ``   5518830`` (a patient header line)."""
        text = self.text
        e = self.toks[i].end
        stop = min(len(text), e + 12)
        while e < stop and text[e] in " \t(,|:-–—":
            e += 1
        if e >= len(text) or text[e] in "\r\n":
            return False
        if text[e].isdigit():
            return True
        return text[e:e + 7].lower().startswith(ID_WORDS)

    def next_is_lower_word(self, i: int) -> bool:
        j = i + 1
        return (j < self.n and self.shape[j] == LOW and not self.lower[j]
                and not self.gap(i).strip(SPACES_STR))

    def eponym_after(self, i: int) -> bool:
        """Token i is followed by an eponym follower (``Bell's palsy``, ``Graves' disease``,
        ``Glasgow Coma Scale``), or token i is a hyphenated pair of eponyms followed by a
        clinical noun (``Swan-Ganz catheter``): a diagnosis or device, not a name."""
        j = i + 1
        if j >= self.n:
            return False
        g = self.gap(i).strip(" \t\r\n'’")
        if g not in ("", "-", "/") or self.gap(i).count("\n") > 1:
            return False
        fj = self.fl[j]
        if fj & FOL:
            return True
        if "-" in self.low[i] and self.shape[i] in (CAP, UP) and g == "" and "\n" not in self.gap(i) \
                and (fj & CLN and not fj & NON or self.low[j] in W.HYPHEN_EPONYM_NEXT):
            return True   # "Swan-Ganz catheter", "Child-Pugh class B": two eponyms and a clinical word
        if j + 1 >= self.n or self.gap(j).strip(" \t") not in ("", "-", "/"):
            return False
        if self.low[j] in ("and", "&") and j + 2 < self.n and self.shape[j + 1] in (CAP, UP):
            return bool(self.fl[j + 2] & FOL) and self.gap(j + 1).strip(" \t") == ""  # Hoehn and Yahr stage
        if self.shape[j] in (CAP, UP, INI) and not fj & LIST and self.fl[j + 1] & FOL \
                and self.low[j] not in W.NAME_STOP_WORDS and self.low[j] not in W.CLINICIAN_AFTER:
            return True   # "Kerley B lines", "Denver II screen" (not "NP GRETA ORDERED LINES")
        # "Ramsay sedation scale": a lower-case word, then a measure
        return (self.shape[j] == LOW and not fj & (NON | LIST) and self.low[j + 1] in W.MEASURE_FOLLOWERS
                and self.shape[i] != LOW)

    def clinical_after(self, i: int) -> bool:
        """Token i is followed by a clinical noun (``Foley catheter``)."""
        j = i + 1
        return (j < self.n and self.fl[j] & (CLN | NON) == CLN
                and self.gap(i).strip(" \t'’") == "")

    def emit(self, idx: list[int], label: str, tier: str | None, rule: Rule | None, remember: bool,
             detail: str = "", evidence: tuple[Evidence, ...] = (), context: bool = False,
             strong: bool = False) -> None:
        """Mark tokens ``idx`` used and, unless ``tier`` is ``None``, add one span of ``rule``
        (label, tier, source ``rule.source(detail, evidence)``) per run of adjacent tokens (a
        generational suffix after the last joins it). ``remember``: a certain name's words go
        into :attr:`found` for the consistency pass; ``context``: the rule read a title, label,
        relation or credential word; ``strong``: that word is strong evidence (a label, a
        credential, a strong title), so even where capitals tell nothing the words are kept."""
        for k in idx:
            self.used[k] = 1
        if tier is None:
            return
        source = rule.source(detail, evidence)
        nxt = idx[-1] + 1
        if nxt < self.n and self.low[nxt] in W.SUFFIXES and self.shape[nxt] in (CAP, UP) \
                and self.gap(idx[-1]).strip(" \t") in ("", ","):
            idx = idx + [nxt]
            self.used[nxt] = 1
        # one span per run of tokens that are adjacent in idx (LAST, FIRST gives two runs)
        first = len(self.spans)
        run = [idx[0]]
        for k in idx[1:]:
            g = self.gap(run[-1])
            if k == run[-1] + 1 and "\n" not in g and "|" not in g and "\t" not in g:
                run.append(k)
            else:
                self._emit_run(run, label, tier, source)
                run = [k]
        self._emit_run(run, label, tier, source)
        if tier == REVIEW:
            self.reviewed.append((first, len(self.spans), idx))
        if remember and tier == CERTAIN:
            last = idx[-1] if len(idx) == 1 or "," not in self.gap(idx[0]) else idx[0]
            listed_only = not context
            # strong evidence: a strong title (Dr, Mrs), a label or a credential; otherwise,
            # where capitals tell nothing (ALL CAPS, lower case), only a listed name that is
            # no ordinary or medical word is remembered ("HUSBAND IN TO VISIT")
            for k in idx:
                f = self.fl[k]
                if self.shape[k] in (INI, OTHER) or len(self.low[k]) < 2 or k != last and (
                        self.low[k] in W.PARTICLES or self.low[k] in W.SECOND_PARTICLES):
                    continue   # a particle inside the name is no name of its own ("de", "van")
                if listed_only and f & ORD:
                    continue   # a listed name that is an ordinary word ("Will", "Hope") by frequency
                role = "sur" if k == last else "giv"
                if f & NON and not (strong and f & LIST and not f & ORD) \
                        or self.low[k] in W.NAME_STOP_WORDS:
                    if strong and f & LIST and not self.strict(k):
                        self.found_weak.setdefault(self._key(k), (label, role))
                    continue   # but "Pt: Hope Ng": a listed name after a label is remembered
                if not strong and self.strict(k) and (not f & LIST or f & (ENG | MED | CLN | FOL)):
                    continue
                key = self._key(k)
                role = "sur" if k == last else "giv"
                if key not in self.found or role == "sur":
                    self.found[key] = (label, role)

    def _key(self, k: int) -> str:
        w = self.low[k].replace("’", "'")
        return w[:-2] if w.endswith("'s") and len(w) > 3 else w

    def _emit_run(self, run: list[int], label: str, tier: str, source: str) -> None:
        toks, text = self.toks, self.text
        start = toks[run[0]].start
        last = run[-1]
        end = toks[last].end
        w = toks[last].word
        if self.shape[last] == INI:
            if end < len(text) and text[end] == ".":
                end += 1
        elif len(w) > 3 and w[-2] in "'’" and w[-1] in "sS":
            end -= 2
        self.spans.append(Span(start, end, label, tier, source))

    def credential_at(self, i: int) -> int:
        """0 if no credential starts at token i, else the number of tokens it spans
        (``MD`` 1, ``M.D.`` 2)."""
        s = self.shape[i]
        if self.fl[i] & CRED and (s == UP or s == CAP and self.low[i] not in ("do", "ms", "ma")
                                  or s == LOW and self.lower[i]):
            return 1
        if s == INI and i + 1 < self.n and self.shape[i + 1] == INI and self.gap(i) == "." \
                and self.low[i] + self.low[i + 1] in self.lex.credentials:
            return 2
        if self.low[i] == "ph" and i + 1 < self.n and self.low[i + 1] == "d" and self.gap(i) == ".":
            return 2
        return 0

    def credential_after(self, last: int) -> bool:
        j = last + 1
        if j >= self.n:
            return False
        g = self.gap(last)
        if "\n" in g or g.strip(" \t") not in ("", ","):
            return False
        if not self.credential_at(j):
            return False
        return "," in g or self.low[j] not in W.AMBIGUOUS_CREDENTIALS

    def name_like(self, k: int) -> bool:
        """Token k could be part of a name here: a capitalised word (ALL CAPS in a capitals
        line, any case in a lower-case note), no title, label, role or clinical word."""
        s = self.shape[k]
        if self.fl[k] & NOT_NAME or s == OTHER or s == INI:
            return False
        if s == LOW:
            return self.lower[k]
        if s == UP:
            return self.caps_line(k)
        return True

    def stops(self, k: int) -> bool:
        """Token k ends a name being collected in text without capitals (``gonzalez
        agrees``, ``son david visits weekly``, ``dr jones will call``): a person's verb, a
        modal, an adverb of time or place, or an unlisted word ending in -ed, -ing or -ly."""
        if not self.strict(k):
            return False
        w = self.low[k]
        return w in W.NAME_STOP_WORDS or (not self.fl[k] & LIST and len(w) > 4
                                          and w.endswith(("ed", "ing", "ly")))

    def person_context(self, i: int) -> bool:
        """A word before or after token i that reads as a person (``seen by``, ``called``)."""
        return (i > 0 and self.low[i - 1] in W.PERSON_BEFORE
                or i + 1 < self.n and self.low[i + 1] in W.PERSON_AFTER)
