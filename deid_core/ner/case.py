"""Case feature for the uncased encoder: one small integer per token, from the ORIGINAL text.

The packaged encoders lowercase their input, so ``"Glasgow"`` and ``"glasgow"`` get the same
ids. The model therefore takes a second input, ``case_ids`` (int64, same shape as
``input_ids``), embedded (``nn.Embedding(N_CASES, hidden)``, initialised to zeros) and added to
the word embeddings. Training (``training/``), the CLI and the page all compute it here, so the
three agree exactly.

Values (:func:`case_id`), looking only at the CASED characters (those with an upper or lower
form; digits, punctuation and caseless scripts are ignored) of ``text[start:end]``:

===  ===========  =====================================================================
id   name         when
===  ===========  =====================================================================
0    NONE         special tokens ([CLS], [SEP], [PAD]) and tokens without cased letters
1    LOWER        every cased letter is lower case (``"patient"``, ``"##son"``)
2    CAPITALISED  the token begins its word, its first cased letter is upper case and the
                  rest lower case, with at least 2 cased letters (``"Smith"``, ``"Élise"``)
3    UPPER        at least 2 cased letters, all upper case (``"NHS"``, ``"##ITH"``)
4    MIXED        anything else: ``"McDonald"``, ``"iPhone"``, a continuation piece that
                  starts upper and goes on lower (``"Mc" + "##Donald"``: ``"##Donald"`` is 4)
5    SINGLE       exactly one cased letter and it is upper case (``"J"`` in ``"J. Smith"``,
                  ``"A1"``)
===  ===========  =====================================================================

Whether the whole line is upper or lower case is deliberately not encoded. Title-case
characters (``"ǅ"``) count as upper case. Results depend on the running Python's Unicode tables
(``str.islower``/``str.isupper``) only for rare letters.
"""
from __future__ import annotations

from typing import Sequence

NONE, LOWER, CAPITALISED, UPPER, MIXED, SINGLE = range(6)
#: Number of case values (the embedding table's size).
N_CASES = 6
CASE_NAMES = ("none", "lower", "capitalised", "upper", "mixed", "single")


def case_id(text: str, start: int, end: int, word_start: int | None = None) -> int:
    """Case value of the token ``text[start:end]`` (table in the module docstring).

    Args:
        text: the ORIGINAL note text (not lowercased).
        start, end: the token's half-open character offsets into ``text``.
        word_start: character offset of the first character of the token's word; the token
            begins its word when ``start == word_start``. ``None`` means it does.

    Returns:
        an int in ``0..5``.
    """
    lower = upper = 0
    first_upper = False
    for ch in text[start:end]:
        if ch.islower():
            lower += 1
        elif ch.isupper() or ch.istitle():
            if lower == 0 and upper == 0:
                first_upper = True
            upper += 1
    n = lower + upper
    if n == 0:
        return NONE
    if upper == 0:
        return LOWER
    if n == 1:
        return SINGLE
    if lower == 0:
        return UPPER
    begins = word_start is None or start == word_start
    if begins and first_upper and upper == 1:
        return CAPITALISED
    return MIXED


def case_ids(text: str, offsets: Sequence[tuple[int, int]], word_ids: Sequence[int]) -> list[int]:
    """:func:`case_id` for every token of an encoding (no special tokens).

    Args:
        text: the original text the encoding was made from.
        offsets: per-token ``(start, end)`` (``Encoding.offsets``).
        word_ids: per-token word index (``Encoding.word_ids``); a word starts at the start of
            its first token.

    Returns:
        one int per token.
    """
    out: list[int] = []
    prev_word = None
    word_start = 0
    for (s, e), w in zip(offsets, word_ids):
        if w != prev_word:
            prev_word = w
            word_start = s
        out.append(case_id(text, s, e, word_start))
    return out


def encoding_case_ids(text: str, encoding) -> list[int]:
    """:func:`case_ids` of a :class:`~deid_core.ner.wordpiece.Encoding`."""
    return case_ids(text, encoding.offsets, encoding.word_ids)
