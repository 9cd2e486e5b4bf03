"""Which windows the NER model is not run on (issue 11): windows where no name or place can be,
and windows identical to one already in the batch.

The model finds names, places, hospitals, organisations and professions, each of which needs a
word of letters, and ages (which the rules find too: a window of bare numbers such as
``92 y/o 93 y/o`` is skipped, and so is a line of initials alone). A window is *skipped*
(every one of its tokens gets the label ``O``, unless a window that is run also covers it) when
the text it spans, widened to whole words, holds no *nameable* word: no run of three or more
letters, nor a run of two outside ASCII (``東京``), nor a run of two ASCII letters that can be a
name or a place on its own (a census surname or given name, a US state or territory code, a
country, a courtesy title: ``Li``, ``Ng``, ``MA``, ``Dr``; :func:`short_nameable`), outside an
encoded blob. (A model span must hold two letters or digits,
and the ensemble keeps a one-word name only when it is a census name, a place only with place
evidence: so a window whose letters are single letters and other pairs, ``#$aa (b) ;;xx``, can
give it nothing.) An encoded blob is a chunk (split at whitespace and at
``, ; : " ' ( ) < > [ ] { } |``) of at least :data:`BLOB_MIN` characters of the base64 / hex /
URL-safe alphabet (``A-Z a-z 0-9 + / = _ -``) that holds a digit, ``+`` or ``/`` (random
base64 and hex do within a few characters; a long hyphenated surname does not). So a run of
digits, dates and punctuation, a base64 or hex dump, or a line of single letters is skipped;
``12/03 Smith 617-555-0142`` is not.

After a skipped window the next window starts at the first token of a nameable word at or after
the grid position (:func:`anchored_windows`), so text pasted over and over between blobs or runs
gets the same windows in every copy, which then repeat each other (below); a note with no skipped
window keeps the plain grid of :func:`deid_core.ner.windows.windows`.

A window whose model input (token ids and case ids) equals an earlier window's is run once and
its logits reused: the model's output depends on nothing else (``[CLS]``/``[SEP]`` and padding
are the same; a quantised model's batch-wide activation scaling aside), so repeated text costs
one window.

Pure Python, standard library only (runs in Pyodide: the page's worker follows
:meth:`~deid_core.ner.pipeline.Prepared.chunks`, which hold only the windows that run).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from typing import Sequence

from .. import lists

__all__ = ["BLOB_MIN", "anchored_windows", "nameable", "plan_rows", "short_nameable", "unskip"]

#: Shortest chunk that counts as an encoded blob (characters).
BLOB_MIN = 24
_LETTERS = re.compile(r"[^\W\d_]{2}")
_RUNS = re.compile(r"[^\W\d_]{2,}")
_WORD = re.compile(r"\S+")
_BLOB = re.compile(rf"[A-Za-z0-9+/=_-]{{{BLOB_MIN},}}")
_BLOB_MARK = re.compile(r"[\d+/]")
#: What separates chunks: whitespace, and punctuation base64 never holds (``data:image/png;base64,``).
_CHUNK_GAP = re.compile(r"[\s,;:\"'()<>\[\]{}|]+")


@lru_cache(maxsize=1)
def short_nameable() -> frozenset[str]:
    """The two-letter words (lower case) that can be a name or a place on their own: census
    surnames and given names, US state and territory names and codes, countries and courtesy
    titles of length two (``lists/``)."""
    words = [*lists.surnames(), *lists.given_names(), *lists.countries(), *lists.courtesy_titles()]
    for name, code in lists.us_states_and_territories().items():
        words += [name, code]
    return frozenset(w.lower() for w in words if len(w) == 2)


def _names_a_word(chunk: str) -> bool:
    """A run of three or more letters in ``chunk``, a run of two outside ASCII (a two-character
    word of Chinese, Japanese, Korean or another script: ``東京``, ``王明``), or a run of two in
    :func:`short_nameable`."""
    for m in _RUNS.finditer(chunk):
        run = m.group()
        if len(run) > 2 or not run.isascii() or run.lower() in short_nameable():
            return True
    return False


def nameable(text: str) -> bool:
    """Whether ``text`` holds a word that could be (part of) a name or place: a run of three or
    more letters (any script), or a two-letter name or place (:func:`short_nameable`), in a
    chunk that is not an encoded blob (module docstring).

    >>> nameable("0123 4567 // 89"), nameable("aGVsbG8gd29ybGQhIQ==aGVsbG8gd29y"), nameable("seen by Dr Li")
    (False, False, True)
    >>> nameable("#$aa (b) ;;xx"), nameable("(Ng)"), nameable("in MA")
    (False, True, True)
    """
    if not _LETTERS.search(text):
        return False
    for chunk in _CHUNK_GAP.split(text):
        if _names_a_word(chunk) and not (
                len(chunk) >= BLOB_MIN and _BLOB.fullmatch(chunk) and _BLOB_MARK.search(chunk)):
            return True
    return False


#: Most characters a window's text is widened by on each side (:func:`_word_bounds`).
_WIDEN = 64


def _word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """``start..end`` widened to the whitespace around it, by at most :data:`_WIDEN` characters
    a side (a window cut inside a word sees the whole word; a cut blob stays a blob)."""
    lo = max(0, start - _WIDEN)
    while start > lo and not text[start - 1].isspace():
        start -= 1
    hi = min(len(text), end + _WIDEN)
    while end < hi and not text[end].isspace():
        end += 1
    return start, end


def plan_rows(text: str, offsets: Sequence[tuple[int, int]], wins: Sequence[tuple[int, int]],
              ids: Sequence[int], cases: Sequence[int]) -> list[int]:
    """For each window of ``wins`` (token ranges), the batch row that gives its logits: a new
    row index for a window that runs, the row of the identical earlier window for a repeat,
    ``-1`` for a window the model skips.

    Args:
        text: the note; offsets: per token ``(start, end)`` character offsets into it.
        wins: token windows (:func:`deid_core.ner.windows.windows`).
        ids, cases: per token vocabulary ids and case ids (the window's model input).

    Returns:
        One int per window; the rows that run are ``0..k-1`` in window order.
    """
    rows: list[int] = []
    seen: dict[tuple, int] = {}
    n_rows = 0
    for s, e in wins:
        a, b = _word_bounds(text, offsets[s][0], offsets[e - 1][1])
        if not nameable(text[a:b]):
            rows.append(-1)
            continue
        key = (tuple(ids[s:e]), tuple(cases[s:e]))
        row = seen.get(key)
        if row is None:
            row = seen[key] = n_rows
            n_rows += 1
        rows.append(row)
    return rows


def anchored_windows(text: str, offsets: Sequence[tuple[int, int]], n_tokens: int, size: int,
                     stride: int) -> list[tuple[int, int]]:
    """The windows of :func:`deid_core.ner.windows.windows` (``size`` tokens each, one every
    ``stride``, the last ending at ``n_tokens``), except that after a window with no nameable
    word the next one starts at the first token, at or after its grid position, whose word is
    nameable (module docstring). Tokens jumped over are in no window (they can hold no name;
    the pipeline gives them ``O``).

    Args:
        text: the note; offsets: per token ``(start, end)`` character offsets into it.
        n_tokens: ``len(offsets)``; size: window length in tokens (``max_len - 2``), ``>= 1``;
        stride: tokens between grid starts, ``1 <= stride <= size``.

    Returns:
        Increasing half-open token ranges; the plain grid when no window is skipped.
    """
    if n_tokens == 0:
        return []
    if n_tokens <= size:
        return [(0, n_tokens)]
    out: list[tuple[int, int]] = []
    starts: list[int] | None = None
    start = 0
    while start + size < n_tokens:
        out.append((start, start + size))
        nxt = start + stride
        a, b = _word_bounds(text, offsets[start][0], offsets[start + size - 1][1])
        if not nameable(text[a:b]) and nxt + size < n_tokens:
            if starts is None:
                starts = [o[0] for o in offsets]
            pos = offsets[nxt][0]
            pos = _word_bounds(text, pos, pos)[0]   # the word that holds the grid position's token
            for w in _WORD.finditer(text, pos):
                if nameable(w.group()):
                    nxt = max(nxt, bisect_left(starts, w.start()))
                    break
                if bisect_left(starts, w.end()) + size >= n_tokens:
                    nxt = n_tokens             # nothing nameable left before the last window
                    break
        start = nxt
    out.append((n_tokens - size, n_tokens))
    return out


def unskip(n_tokens: int, all_wins: Sequence[tuple[int, int]], rows: Sequence[int],
           bodies: list, n_labels: int) -> tuple[list, list]:
    """The windows and per-window logit rows :func:`~deid_core.ner.windows.merge` takes for a
    note with skipped or repeated windows: each window that runs or repeats one that runs, with
    its row's logits (a repeat takes the same ones), then one window per stretch of tokens that
    only skipped windows cover, with logits that give ``O`` certainty (no span). ``rows``: per
    window of ``all_wins`` (token offsets), its row in ``bodies`` or -1 when skipped (as
    :func:`plan_rows` gives); ``n_labels``: the logits per token."""
    wins = [w for w, r in zip(all_wins, rows) if r >= 0]
    out = [bodies[r] for r in rows if r >= 0]
    covered = bytearray(n_tokens)
    for s, e in wins:
        covered[s:e] = b"\x01" * (e - s)
    o_row = [0.0] + [-1e4] * (n_labels - 1)
    t = covered.find(0)
    while t >= 0:
        u = covered.find(1, t)
        u = n_tokens if u < 0 else u
        wins.append((t, u))
        out.append([o_row] * (u - t))
        t = covered.find(0, u)
    return wins, out
