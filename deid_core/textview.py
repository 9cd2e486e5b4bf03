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
* lower-cased: a URL scheme before ``://`` (``HTTPS://`` -> ``https://``).

A note holding none of these is its own view (no map; spans are exactly what they were).
:meth:`TextView.to_original` turns a span of the view into the original characters it came
from, so a span covers the original exactly, invisible characters inside it included.

Speed: :func:`ascii_twin` compiles a regex again with ``re.ASCII``; on a note that
:func:`plain_ascii` accepts (nearly every note) the twin finds exactly the same matches, faster.
"""
from __future__ import annotations

import re
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
#: One pattern per (has "%", has "://"): a note without them pays only the characters' scan.
_SPECIAL = {(p, u): re.compile("|".join([_CHARS] + [_PERCENT] * p + [_SCHEME] * u))
            for p in (0, 1) for u in (0, 1)}


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
    for m in _SPECIAL[("%" in text, "://" in text)].finditer(text):
        if m.start() > pos:
            pieces.append(text[pos:m.start()])
            starts.extend(range(pos, m.start()))
            ends.extend(range(pos + 1, m.start() + 1))
        new = _replacement(m)
        pieces.append(new)
        if len(new) == len(m.group()):
            starts.extend(range(m.start(), m.end()))
            ends.extend(range(m.start() + 1, m.end() + 1))
        elif new:  # one character from an escape
            starts.append(m.start())
            ends.append(m.end())
        pos = m.end()
    if not pieces:
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
