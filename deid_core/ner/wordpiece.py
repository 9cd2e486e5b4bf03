"""WordPiece tokenizer with character offsets, for uncased BERT vocabularies.

Pure standard library, so the page (Pyodide) and the CLI (CPython) produce the same token ids
for the same note. It reproduces what HuggingFace ``tokenizers`` (``BertTokenizerFast``) does
with an uncased BERT ``tokenizer.json`` (``BertNormalizer`` with ``clean_text``,
``handle_chinese_chars``, ``lowercase`` and accent stripping; ``BertPreTokenizer``;
``WordPiece`` with ``##`` continuation and ``max_input_chars_per_word=100``):

1. Clean: drop U+0000, U+FFFD, controls other than tab/line feed/carriage return, format
   characters (zero-width space, joiners, soft hyphen, ...) and private-use characters; every
   white-space character becomes a space.
2. CJK: each CJK ideograph (the BERT code-point blocks, :data:`CJK_RANGES`) becomes a word.
3. Strip accents: NFD, then drop non-spacing marks.
4. Lowercase, character by character (no final-sigma context, as ``tokenizers`` does).
5. Split on white space; every punctuation character (ASCII ``!``-``/``, ``:``-``@``,
   ``[``-`````, ``{``-``~`` and Unicode punctuation) is a word of its own.
6. WordPiece: greedy longest match first, continuation pieces prefixed ``##``; a word longer
   than ``max_input_chars_per_word`` characters, or one that cannot be covered by the
   vocabulary, becomes a single ``[UNK]``.

Offsets are half-open ``[start, end)`` indices into the ORIGINAL text (Python ``str`` code
points). Every normalized character remembers the original character it came from, so
lowercasing or NFD that change lengths (``"İ"`` -> ``"i"``, ``"é"`` -> ``"e"``) keep offsets
right. As in ``tokenizers``, characters removed by normalization (controls, zero-width
characters, combining marks in decomposed input) belong to no token: a token's offsets run from
its first to its last kept character, so a trailing removed character falls outside it (the
decoder, :mod:`deid_core.ner.decode`, widens spans over such characters).

Which characters count as removed (step 1 and the marks of step 3) or as punctuation comes from
:mod:`deid_core.ner._tables`, measured per code point on ``tokenizers`` itself (see
:mod:`deid_core.ner.make_tables`), not from :mod:`unicodedata`: CPython 3.11 and Pyodide's 3.14
have different Unicode versions and neither matches the library's tables. NFD and lowercasing
still use the running Python's :mod:`unicodedata`/``str.lower``. A lone surrogate (possible in a
Python ``str``, never in ``tokenizers`` input) is an ordinary word character, hence ``[UNK]``.

Literal ``"[CLS]"``/``"[SEP]"`` in the note are tokenized as ordinary text (``tokenizers`` with
``encode_special_tokens=True``): note text cannot inject control tokens.
"""
from __future__ import annotations

import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from . import _tables

# Kinds of normalized characters.
_WORD = 0      # part of a word
_SPACE = 1     # separates words
_ALONE = 2     # a word by itself (punctuation)

#: Code-point blocks BERT treats as CJK ideographs (each becomes its own word).
CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)

#: White space as Rust's ``char::is_whitespace`` (Unicode White_Space) that is not a control
#: character, plus tab, line feed and carriage return: these become a space.
_WHITESPACE = frozenset(
    "\t\n\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _parse_ranges(text: str) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for part in text.split():
        a, _, b = part.partition("-")
        starts.append(int(a, 16))
        ends.append(int(b or a, 16))
    return starts, ends


_GONE = _parse_ranges(_tables.GONE)
_ALONE = _parse_ranges(_tables.ALONE)


def _in(table: tuple[list[int], list[int]], cp: int) -> bool:
    starts, ends = table
    k = bisect_right(starts, cp) - 1
    return k >= 0 and cp <= ends[k]


def _is_cjk(cp: int) -> bool:
    for lo, hi in CJK_RANGES:
        if lo <= cp <= hi:
            return True
    return False


def _is_punctuation(ch: str) -> bool:
    """BERT punctuation: ASCII symbol ranges and Unicode P* (as ``tokenizers`` sees them)."""
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return _in(_ALONE, cp)


def _normalize_char(ch: str) -> tuple[tuple[int, str], ...]:
    """What one original character becomes: a tuple of ``(kind, normalized_char)``."""
    if ch in _WHITESPACE:
        return ((_SPACE, " "),)
    cp = ord(ch)
    if _in(_GONE, cp):                  # controls, format, private use, marks, U+0000
        return ()
    if ch == "\ufffd":
        return ()
    cjk = _is_cjk(cp)
    out: list[tuple[int, str]] = []
    if cjk:
        out.append((_SPACE, " "))
    for d in unicodedata.normalize("NFD", ch):
        if d != ch and _in(_GONE, ord(d)):     # non-spacing mark produced by NFD
            continue
        for low in d.lower():
            if low in _WHITESPACE:
                out.append((_SPACE, " "))
            elif _is_punctuation(low):
                out.append((_ALONE, low))
            else:
                out.append((_WORD, low))
    if cjk:
        out.append((_SPACE, " "))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Encoding:
    """Result of :meth:`WordPiece.encode`, without special tokens.

    Attributes:
        ids: vocabulary ids, one per token.
        tokens: the token strings (``"pat"``, ``"##ient"``, ``"[UNK]"``).
        offsets: ``(start, end)`` half-open character offsets into the original text, per token.
        word_ids: index of the pre-tokenized word each token belongs to (0, 1, 2, ...);
            the sub-tokens of one word share it.
    """

    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]
    word_ids: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.ids)


class WordPiece:
    """Uncased BERT WordPiece tokenizer over a ``vocab.txt`` vocabulary.

    Args:
        vocab: token string -> id.
        unk_token, cls_token, sep_token, pad_token: special tokens; each must be in ``vocab``.
        max_input_chars_per_word: longer words (in normalized characters) become ``[UNK]``.
        cache_size: most distinct words whose pieces are remembered (the cache is emptied
            when it fills).

    Raises:
        ValueError: if a special token is missing from the vocabulary.
    """

    def __init__(self, vocab: dict[str, int], *, unk_token: str = "[UNK]",
                 cls_token: str = "[CLS]", sep_token: str = "[SEP]", pad_token: str = "[PAD]",
                 max_input_chars_per_word: int = 100, cache_size: int = 50_000) -> None:
        for tok in (unk_token, cls_token, sep_token, pad_token):
            if tok not in vocab:
                raise ValueError(f"special token {tok!r} is not in the vocabulary")
        self.vocab = vocab
        self.unk_token = unk_token
        self.unk_id = vocab[unk_token]
        self.cls_id = vocab[cls_token]
        self.sep_id = vocab[sep_token]
        self.pad_id = vocab[pad_token]
        self.max_input_chars_per_word = max_input_chars_per_word
        self._cache_size = cache_size
        # Longest vocabulary entry (in characters, "##" excluded): no longer piece can match,
        # so the greedy search never tries one (same result, linear time on long words).
        self._longest = max((len(t) - 2 if t.startswith("##") else len(t)) for t in vocab)
        self._words: dict[str, tuple[tuple[int, str, int, int], ...]] = {}
        self._chars: dict[str, tuple[tuple[int, str], ...]] = {}

    @classmethod
    def from_vocab_text(cls, text: str, **kwargs) -> "WordPiece":
        """Build from the contents of a ``vocab.txt``: one token per line, id = line number
        (0-based); trailing ``\\r`` is ignored; a repeated token keeps its last id.

        Raises:
            ValueError: if the text is empty or lacks a special token.
        """
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not lines:
            raise ValueError("empty vocabulary")
        vocab = {line.rstrip("\r"): i for i, line in enumerate(lines)}
        return cls(vocab, **kwargs)

    @classmethod
    def from_file(cls, path: str | Path, **kwargs) -> "WordPiece":
        """Build from a UTF-8 ``vocab.txt`` file (see :meth:`from_vocab_text`).

        Raises:
            OSError: if the file cannot be read; ValueError: as :meth:`from_vocab_text`.
        """
        return cls.from_vocab_text(Path(path).read_text(encoding="utf-8"), **kwargs)

    # -- word pieces -------------------------------------------------------------------------
    def _pieces(self, word: str) -> tuple[tuple[int, str, int, int], ...]:
        """``(id, token, start, end)`` per piece of a normalized word; start/end index ``word``."""
        hit = self._words.get(word)
        if hit is not None:
            return hit
        n = len(word)
        vocab = self.vocab
        pieces: list[tuple[int, str, int, int]] = []
        if n > self.max_input_chars_per_word:
            pieces = [(self.unk_id, self.unk_token, 0, n)]
        else:
            start = 0
            longest = self._longest
            while start < n:
                end = n if n - start <= longest else start + longest
                found = None
                while start < end:
                    sub = word[start:end] if start == 0 else "##" + word[start:end]
                    tid = vocab.get(sub)
                    if tid is not None:
                        found = (tid, sub, start, end)
                        break
                    end -= 1
                if found is None:
                    pieces = [(self.unk_id, self.unk_token, 0, n)]
                    break
                pieces.append(found)
                start = end
        result = tuple(pieces)
        if len(self._words) >= self._cache_size:
            self._words.clear()
        self._words[word] = result
        return result

    # -- encoding ----------------------------------------------------------------------------
    def words(self, text: str) -> list[tuple[str, list[int]]]:
        """Normalize and pre-tokenize ``text``.

        Returns:
            ``(normalized_word, origin)`` per word, in order; ``origin[k]`` is the index in
            ``text`` of the original character that normalized character ``k`` came from.
        """
        chars = self._chars
        words: list[tuple[str, list[int]]] = []
        buf: list[str] = []
        origin: list[int] = []
        for i, ch in enumerate(text):
            parts = chars.get(ch)
            if parts is None:
                parts = _normalize_char(ch)
                if len(chars) < 200_000:
                    chars[ch] = parts
            for kind, nc in parts:
                if kind == _WORD:
                    buf.append(nc)
                    origin.append(i)
                else:
                    if buf:
                        words.append(("".join(buf), origin))
                        buf = []
                        origin = []
                    if kind == _ALONE:
                        words.append((nc, [i]))
        if buf:
            words.append(("".join(buf), origin))
        return words

    def encode(self, text: str) -> Encoding:
        """Tokenize ``text`` without special tokens.

        Args:
            text: any string (empty allowed).
        Returns:
            an :class:`Encoding` with ids, tokens, original-text offsets and word ids.
        Raises:
            TypeError: if ``text`` is not a ``str``.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        word_ids: list[int] = []
        for w, (word, origin) in enumerate(self.words(text)):
            for tid, tok, s, e in self._pieces(word):
                ids.append(tid)
                tokens.append(tok)
                offsets.append((origin[s], origin[e - 1] + 1))
                word_ids.append(w)
        return Encoding(tuple(ids), tuple(tokens), tuple(offsets), tuple(word_ids))

    def with_special(self, ids: list[int] | tuple[int, ...]) -> list[int]:
        """``[CLS] + ids + [SEP]``: the model input for one window."""
        return [self.cls_id, *ids, self.sep_id]
