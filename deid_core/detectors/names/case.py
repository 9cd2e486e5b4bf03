"""Where capitals are no evidence of a name inside a note that has capitals elsewhere: the lines
and sentences written in lower case (:func:`lower_segments`), read by :class:`.scan.Scan` for its
per-token ``lower``. The note as a whole (a lower-case note, an ALL-CAPS note or line) is the
document's decision (:attr:`deid_core.document.Document.lower_note`, ``caps_note``, ``caps_line``).
"""
from __future__ import annotations

import re

from ...document import CAP, LOW, OTHER, UP
from .lexicon import LBL, REL, TITLE


#: Gap tests of :func:`lower_segments` (``\s`` is what ``str.isspace`` says).
_SPACE_RE = re.compile(r"\s")
_GLUE_RE = re.compile(r"[@._/\\]")
_STOP_RE = re.compile(r"[.!?;]")


#: How :func:`lower_segments` treats the gap between two tokens (see :func:`_gap_kind`).
_JOIN, _NEW_LINE, _SPLIT, _SPLIT_UNLESS_LABEL = range(4)


def _gap_kind(g: str) -> tuple[bool, int]:
    """For the text ``g`` between two tokens: whether it glues them (an e-mail address, a URL,
    a path), and whether it starts a new line, splits a sentence (a full stop, a table column
    gap), splits unless the word before is a label, title or relation (a heading's colon), or
    joins (``_JOIN``, ``_NEW_LINE``, ``_SPLIT``, ``_SPLIT_UNLESS_LABEL``)."""
    glue = bool(g and not _SPACE_RE.search(g) and _GLUE_RE.search(g))
    if "\n" in g or "\r" in g:
        return glue, _NEW_LINE
    if g[-1:] in " \t" and _STOP_RE.search(g) or "\t" in g or "   " in g:
        return glue, _SPLIT
    if g[-1:] in " \t" and ":" in g:
        return glue, _SPLIT_UNLESS_LABEL
    return glue, _JOIN


def one_letter_indices(words: list[str]) -> list[int]:
    """The indices of the one-letter words of ``words``, ascending: what
    ``[i for i, w in enumerate(words) if len(w) == 1]`` gives, found with C-level ``bytes``
    searches over the words' lengths."""
    try:
        lens = bytes(map(len, words))
    except ValueError:   # a word of more than 255 characters
        lens = bytes(min(len(w), 2) for w in words)
    out: list[int] = []
    k = lens.find(1)
    while k >= 0:
        out.append(k)
        k = lens.find(1, k + 1)
    return out


#: The byte per token that :func:`lower_segments` tests: the token's shape, or this for
#: a lower-case word that does not count (one letter, or part of an e-mail address or path).
_LOW_UNCOUNTED = 5
_OTHER_BYTE, _LOW_BYTES = bytes([OTHER]), (bytes([LOW]), bytes([_LOW_UNCOUNTED]))
#: The bytes a lower-case line or sentence may open with (an OTHER token: look further).
_MAY_OPEN = frozenset((OTHER, LOW, _LOW_UNCOUNTED))


#: :func:`_gap_kind` of the gaps between tokens seen so far (``", "``, ``".\n"``...), shared by
#: every note's scan (gaps of up to 64 characters, up to 4,096 of them, then forgotten).
_GAP_KINDS: dict[str, tuple[bool, int]] = {}


def gap_kind(g: str) -> tuple[bool, int]:
    """:func:`_gap_kind` of ``g`` through the :data:`_GAP_KINDS` cache (bounded: cleared at
    4,096 entries; gaps over 64 characters are not kept)."""
    kind = _GAP_KINDS.get(g)
    if kind is None:
        kind = _gap_kind(g)
        if len(g) <= 64:
            if len(_GAP_KINDS) >= 4096:
                _GAP_KINDS.clear()
            _GAP_KINDS[g] = kind
    return kind



def lower_segments(text: str, toks: list, shape: list[int], fl: list[int],
                   singles: list[int]) -> bytearray:
    """Per token (``toks`` of ``text``, their ``shape`` and word facts ``fl``), 1 where the text
    around it is written in lower case although the note has capitals elsewhere (a heading
    ``Progress Note 5/6/2025`` above the line ``pt john smith seen by dr jones``), else 0. ``singles``: the indices of the one-letter tokens.

    A line counts when it has no capitalised word, starts with a lower-case word and has
    at least two lower-case words (and three times as many as ALL-CAPS acronyms). Inside
    other lines, a sentence (split at ``. ! ?``, ``;``, table column gaps and a heading's
    colon, not at a label's colon: ``Tech: boosterhuis``) counts by the same test with at
    least three lower-case words, and a shorter capital-free sentence next to one that
    counts on the same line counts too (``wife mary called. dr. jones.``). (Lines and
    sentences are runs of token indices; the tests read a byte per token with C-level
    ``bytes`` searches and counts.)"""
    n = len(toks)
    out = bytearray(n)
    if n == 0:
        return out
    # split into lines, and each line into sentences: a line is the list of the token
    # indices its sentences start at (a line ends where the next one starts)
    line = [0]
    lines: list[list[int]] = [line]
    glued: list[int] = []   # in an e-mail address, a URL or a path: not prose
    prev_end = toks[0].end
    for k in range(1, n):
        start, end, _word = toks[k]
        g = text[prev_end:start]
        prev_end = end
        if g == " ":
            continue   # the common gap: it joins (what the tests below give for it)
        glue, how = gap_kind(g)
        if glue:
            glued += (k - 1, k)
        if how == _NEW_LINE:
            line = [k]
            lines.append(line)
        elif how == _SPLIT or how == _SPLIT_UNLESS_LABEL and not fl[k - 1] & (LBL | TITLE | REL):
            line.append(k)   # a heading's colon splits ("Progress Note: pt ..."), a label's not
    # per token: its shape, but _LOW_UNCOUNTED for a lower-case word that is not counted
    # (one letter, or glued); and what a marked token gets (0 when glued)
    code = bytearray(shape)
    mark = bytearray(b"\x01") * n
    for k in glued:
        mark[k] = 0
    for k in (*glued, *singles):
        if code[k] == LOW:
            code[k] = _LOW_UNCOUNTED
    code = bytes(code)

    count, find = code.count, code.find

    def lowercase(a: int, b: int, need: int) -> bool:
        """Tokens a..b-1 (token a no capitalised word nor initial: the caller tests it):
        no capitalised word, the first word lower case, at least ``need`` counted
        lower-case words and three times as many as ALL-CAPS words."""
        lows = count(LOW, a, b)
        if lows < need or find(CAP, a, b) >= 0 or count(UP, a, b) * 3 > lows:
            return False   # (not a row of acronyms and units)
        # the first word that is no OTHER
        return code[a] != OTHER or code[a:b].lstrip(_OTHER_BYTE)[:1] in _LOW_BYTES

    last = len(lines) - 1
    for li, starts in enumerate(lines):
        la, lb = starts[0], lines[li + 1][0] if li < last else n
        if code[la] in _MAY_OPEN and lowercase(la, lb, 2):
            out[la:lb] = mark[la:lb]
            continue
        m = len(starts)
        if m < 2 or count(LOW, la, lb) < 3:
            continue   # one sentence (tested above), or too few lower-case words for one
        bounds = [*starts, lb]
        flags = [code[bounds[j]] in _MAY_OPEN and lowercase(bounds[j], bounds[j + 1], 3)
                 for j in range(m)]
        if True not in flags:
            continue   # nothing to spread nor to mark
        free = [CAP not in code[bounds[j]:bounds[j + 1]] for j in range(m)]
        for j in range(1, m):           # spread to short capital-free neighbours
            if flags[j - 1] and free[j]:
                flags[j] = True
        for j in range(m - 2, -1, -1):
            if flags[j + 1] and free[j]:
                flags[j] = True
        for j in range(m):
            if flags[j]:
                a, b = bounds[j], bounds[j + 1]
                out[a:b] = mark[a:b]
    return out
