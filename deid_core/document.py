"""The note being analysed, with lazily computed views shared by all detectors."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

#: A word token: letters/digits joined by internal apostrophes (' and U+2019) or hyphens,
#: so ``O'Brien``, ``O’Sullivan-Reyes`` and ``Nguyễn`` are one token each.
WORD_RE = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")


@dataclass(frozen=True, slots=True)
class Token:
    """A word token: ``text[start:end] == word``, offsets in characters."""

    start: int
    end: int
    word: str


@dataclass(frozen=True)
class Known:
    """Identifiers the caller already knows for this patient; every occurrence is certain.

    Attributes:
        names: full names as written anywhere, e.g. ``("John C Smith",)``; each name's
            parts, initials and reordered forms (``SMITH, JOHN``) are found too.
        mrns: medical record numbers, e.g. ``("0045-2231",)``; matched ignoring separators.
        addresses: street addresses, e.g. ``("12 Elm Street, Springfield, IL 62704",)``.
        birth_dates: birth dates in any format the date detector reads, e.g. ``("1950-03-02",)``.
    """

    names: tuple[str, ...] = ()
    mrns: tuple[str, ...] = ()
    addresses: tuple[str, ...] = ()
    birth_dates: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("names", "mrns", "addresses", "birth_dates"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise TypeError(f"Known.{name} must be a sequence of strings, not a single string")
            object.__setattr__(self, name, tuple(str(v) for v in value if str(v).strip()))

    def __bool__(self) -> bool:
        return bool(self.names or self.mrns or self.addresses or self.birth_dates)


@dataclass
class Document:
    """A note and cached views of it.

    Attributes:
        text: the original note; never modified.
        known: identifiers the caller supplied (:class:`Known`).
    """

    text: str
    known: Known = field(default_factory=Known)

    @cached_property
    def tokens(self) -> list[Token]:
        """Word tokens in text order (see :data:`WORD_RE`)."""
        return [Token(m.start(), m.end(), m.group()) for m in WORD_RE.finditer(self.text)]
