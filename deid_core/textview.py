"""A normalised view of a note for the detectors, with an offset map back to the original.

Identifiers are sometimes written to slip past pattern matchers (issue 11): invisible
characters inside them, look-alike dashes and spaces as separators, percent-encoding, an
upper-case URL scheme. :func:`normalised_view` builds the text the detectors read:

* removed: zero-width space, non-joiner and joiner (U+200B-U+200D), word joiner (U+2060),
  zero-width no-break space (U+FEFF) and soft hyphen (U+00AD);
* folded to ``-``: hyphen, non-breaking hyphen, figure dash, en and em dash, horizontal bar
  (U+2010-U+2015) and minus sign (U+2212);
* folded to a space: no-break space (U+00A0), the typographic spaces U+2002-U+200A, narrow
  no-break space (U+202F), medium mathematical space (U+205F) and ideographic space (U+3000);
* decoded where it joins two letters or digits: ``%40`` (``@``), ``%2D`` (``-``), ``%2E``
  (``.``), ``%5F`` (``_``), ``%2B`` (``+``): ``a.lee%40example.com``, ``617%2D555%2D0142``;
* lower-cased: a URL scheme before ``://`` (``HTTPS://`` -> ``https://``);
* folded to ASCII (issue 22 item 5: the same identifier gets the same tier in any digits): a
  decimal digit of any script (``unicodedata`` category Nd: fullwidth ``０``-``９``,
  Arabic-Indic ``٠``-``٩``, Devanagari, mathematical digits) to its ASCII digit; a fullwidth
  form (U+FF01-U+FF5E: ``＠``, ``／``, ``Ａ``), a small form (U+FE50-U+FE6B: ``﹫``), a Latin
  ligature (U+FB00-U+FB06: ``ﬁ`` -> ``fi``) and a mathematical letter (U+1D400-U+1D7FF) to
  its NFKC form. Superscripts, subscripts, fractions and circled digits stay as written (``m²``
  and ``10³/µL`` are units, not digits of a number);
* composed: a letter followed by combining marks (the Combining Diacritical Marks blocks:
  U+0300-U+036F, U+1AB0-U+1AFF, U+1DC0-U+1DFF, U+20D0-U+20FF, U+FE20-U+FE2F) is one view
  character, its NFC form (``Jo`` + U+0301 + ``hn`` reads as ``Jóhn``, as a precomposed note
  does); marks with no precomposed form are dropped from the view and a mark after no letter is
  removed, so a decomposed accent never splits a word.

A note holding none of these is its own view (no map; spans are exactly what they were); an
ASCII note is never folded or composed (the fold branch is only searched in a note with a
character outside ASCII).
:meth:`TextView.to_original` turns a span of the view into the original characters it came
from, so a span covers the original exactly, invisible characters inside it included.

Speed: :func:`ascii_twin` compiles a regex again with ``re.ASCII``; on a note that
:func:`plain_ascii` accepts (nearly every note) the twin finds exactly the same matches, faster.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["TextView", "ascii_twin", "normalised_view", "plain_ascii"]

_REMOVED = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_SPACES = "\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_DECODED = {"40": "@", "2d": "-", "2e": ".", "5f": "_", "2b": "+"}
#: Speed: every branch below starts with a plain character (the characters one by one, the
#: look-behinds after the first character), so Python's re skips to the characters a match can
#: start with (a class or a look-behind first would have it try every position).
_CHARS = "|".join(_REMOVED + _DASHES + _SPACES)
#: ``%40`` between word characters (``(?<=[^\W_])%...``).
_PERCENT = r"%(?<=[^\W_]%)(?:40|2[dDeEbB]|5[fF])(?=[^\W_])"
#: ``(?<![^\W_])(?=[A-Za-z]*[A-Z])(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp])(?=://)``, each first
#: letter a branch: after a capital the look-ahead for a capital holds already.
_SCHEME = (r"H(?<![^\W_]H)[Tt][Tt][Pp][Ss]?(?=://)|h(?<![^\W_]h)(?=[A-Za-z]*[A-Z])[Tt][Tt][Pp][Ss]?(?=://)"
           r"|F(?<![^\W_]F)[Tt][Pp](?=://)|f(?<![^\W_]f)(?=[A-Za-z]*[A-Z])[Tt][Pp](?=://)")
#: Combining marks that compose with the letter before them (the Combining Diacritical Marks
#: blocks); a run of them is one match.
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_MARK_RUN = re.compile(f"[{_MARKS}]+")
#: Characters folded to their NFKC form (fullwidth and small forms, Latin ligatures,
#: mathematical letters and digits), or a decimal digit outside ASCII (``(?![0-9])\d``).
_FOLDED = "[\uff01-\uff5e\ufe50-\ufe6b\ufb00-\ufb06\U0001d400-\U0001d7ff]|(?![0-9])\\d"
_FOLD = f"{_FOLDED}|[{_MARKS}]+"
#: One pattern per (has "%", has "://", not ASCII): a note without them pays only the
#: characters' scan.
_SPECIAL = {(p, u, f): re.compile("|".join([_CHARS] + [_PERCENT] * p + [_SCHEME] * u + [_FOLD] * f))
            for p in (0, 1) for u in (0, 1) for f in (0, 1)}
#: :func:`_folded` by character.
_FOLD_MEMO: dict[str, str] = {}


def _folded(c: str) -> str:
    """The view text of one folded character (module docstring): a decimal digit as its ASCII
    digit, any other as its NFKC form when that is printable ASCII, else ``c`` itself."""
    hit = _FOLD_MEMO.get(c)
    if hit is None:
        if unicodedata.category(c) == "Nd":
            hit = str(unicodedata.decimal(c))
        else:
            nfkc = unicodedata.normalize("NFKC", c)
            hit = nfkc if nfkc.isascii() and nfkc.isprintable() and nfkc.strip() == nfkc else c
        if len(_FOLD_MEMO) < 10_000:
            _FOLD_MEMO[c] = hit
    return hit


def _replacement(m: re.Match[str]) -> str:
    s = m.group()
    if s in _REMOVED:
        return ""
    if s in _DASHES:
        return "-"
    if s in _SPACES:
        return " "
    if s[0] == "%":
        return _DECODED[s[1:].lower()]
    if len(s) == 1 and not s.isascii():
        return _folded(s)
    return s.lower()


@dataclass(frozen=True)
class TextView:
    """The text the detectors read and where each of its characters came from.

    Attributes:
        text: the normalised text.
        starts: ``starts[i]`` is the original offset of view character ``i``'s first source
            character; ``None`` when the view is the original itself.
        ends: ``ends[i]`` is one past its last source character (``None`` likewise).
    """

    text: str
    starts: list[int] | None = None
    ends: list[int] | None = None

    @property
    def identity(self) -> bool:
        """True when the view is the original text (nothing was normalised)."""
        return self.starts is None

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Original ``(start, end)`` of the view's characters ``[start, end)``.

        Raises:
            ValueError: unless ``0 <= start < end <= len(self.text)``.
        """
        if not 0 <= start < end <= len(self.text):
            raise ValueError(f"view span ({start}, {end}) outside 0..{len(self.text)}")
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


def normalised_view(text: str) -> TextView:
    """The :class:`TextView` of ``text`` (see the module docstring for what is normalised).
    Linear in ``len(text)``; a text with nothing to normalise gives an identity view."""
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    changed = False
    rx = _SPECIAL[("%" in text, "://" in text, not text.isascii())]
    for m in rx.finditer(text):
        a, b = m.start(), m.end()
        first = text[a]
        if "\u0300" <= first and _MARK_RUN.fullmatch(text, a, b):
            # combining marks: composed with the letter just before them, else removed
            if a > pos and text[a - 1].isalpha():
                if a - 1 > pos:
                    pieces.append(text[pos:a - 1])
                    starts.extend(range(pos, a - 1))
                    ends.extend(range(pos + 1, a))
                composed = unicodedata.normalize("NFC", text[a - 1:b])
                pieces.append(composed[0])
                starts.append(a - 1)
                ends.append(b)
            else:
                if a > pos:
                    pieces.append(text[pos:a])
                    starts.extend(range(pos, a))
                    ends.extend(range(pos + 1, a + 1))
                if a == pos and ends and pieces and pieces[-1][-1:].isalpha():
                    # after a replaced letter (or a ligature's letters): the marks join it
                    k, src = len(ends) - 1, starts[-1]
                    while k >= 0 and starts[k] == src:
                        ends[k] = b
                        k -= 1
            pos = b
            changed = True
            continue
        new = _replacement(m)
        if new == first and b - a == 1:
            continue                                   # nothing to fold: stays in the gap
        changed = True
        if a > pos:
            pieces.append(text[pos:a])
            starts.extend(range(pos, a))
            ends.extend(range(pos + 1, a + 1))
        pieces.append(new)
        if len(new) == b - a:
            starts.extend(range(a, b))
            ends.extend(range(a + 1, b + 1))
        elif new:  # one character from an escape, or a ligature's letters from one
            starts.extend([a] * len(new))
            ends.extend([b] * len(new))
        pos = b
    if not changed:
        return TextView(text)
    pieces.append(text[pos:])
    starts.extend(range(pos, len(text)))
    ends.extend(range(pos + 1, len(text) + 1))
    return TextView("".join(pieces), starts, ends)


#: Control characters (file, group, record and unit separators) that ``\s`` matches in a str
#: pattern but not under ``re.ASCII``: the one difference between the two modes on ASCII text.
_UNICODE_ONLY_SPACES = ("\x1c", "\x1d", "\x1e", "\x1f")
#: An escape that can write a character outside ASCII in a pattern's source (``\u017f``, ``\x85``,
#: ``\N{...}``, octal): its source is not checked character by character, so it gets no twin.
_CODE_ESCAPE = re.compile(r"\\[xuUN0-7]")


def plain_ascii(text: str) -> bool:
    r"""True when ``text`` is ASCII and holds none of the separators U+001C-U+001F: on such a
    text every regex finds exactly what its :func:`ascii_twin` finds (``\w``, ``\d``, ``\b``
    and case-insensitive letters agree on ASCII characters; ``\s`` differs only on those four).
    Speed: ``str.isascii`` reads a flag; the four look-ups are C scans."""
    return text.isascii() and not any(c in text for c in _UNICODE_ONLY_SPACES)


def ascii_twin(rx: re.Pattern[str]) -> re.Pattern[str]:
    r"""``rx`` compiled with ``re.ASCII`` (same source, same other flags), or ``rx`` itself when
    its source writes a cased character outside ASCII (under ``re.IGNORECASE`` ``ſ`` matches
    ``s`` only in Unicode mode) or a character code escape (``\u...``, not checked here).
    On a :func:`plain_ascii` text the twin matches exactly what ``rx`` matches, at the same
    places with the same groups.

    Speed: ``re.ASCII`` reads ``\d``, ``\w`` and letter case from a table instead of the
    Unicode database, a fifth less time for a whole-note scan."""
    src = rx.pattern
    if not isinstance(src, str) or rx.flags & re.ASCII or _CODE_ESCAPE.search(src) or any(
            ord(c) > 127 and (c.lower() != c or c.upper() != c or c.casefold() != c) for c in src):
        return rx
    return re.compile(src, (rx.flags & ~re.UNICODE) | re.ASCII)
