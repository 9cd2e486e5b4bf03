"""The linkage key: one secret that decides the date offset and every surrogate pick.

Every pseudo-random choice the surrogate writer makes is ``HMAC-SHA256(secret, purpose + "\\x00"
+ normalised value)`` read as an integer, so:

* two notes run with the same key get the same date offset and the same fake value for the same
  original value (linkage across notes);
* without the key the choices cannot be recomputed, so a fake name cannot be reversed by trying
  candidate names (the choice is never derived from the text alone);
* with no key a fresh random 32-byte secret (:func:`secrets.token_bytes`) is used: never a fixed
  default.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["LinkageKey", "as_key", "normalise", "OFFSET_MIN_DAYS", "OFFSET_MAX_DAYS"]

T = TypeVar("T")

#: The date offset's magnitude lies in ``[OFFSET_MIN_DAYS, OFFSET_MAX_DAYS]`` days, either sign,
#: and is never a multiple of 7. Why: at least 30 days so every date visibly moves; at most 364
#: so a date written without its year (``3/5``) can never land on the same month and day a year
#: later; not a whole number of weeks so a weekday written alone (``Monday``) always changes.
OFFSET_MIN_DAYS = 30
OFFSET_MAX_DAYS = 364
_OFFSETS: tuple[int, ...] = tuple(
    sign * n for n in range(OFFSET_MIN_DAYS, OFFSET_MAX_DAYS + 1) if n % 7 for sign in (-1, 1))


def _utf8(text: str) -> bytes:
    """UTF-8 bytes of any Python ``str``, a lone surrogate code point (``"\\ud800"``, which
    strict UTF-8 refuses) included: encoded as its three bytes (``surrogatepass``), so every
    distinct string still gives distinct bytes."""
    return text.encode("utf-8", "surrogatepass")


def normalise(value: str) -> str:
    """Normalise a value for keyed lookups: NFKD, accents dropped, case-folded, whitespace
    collapsed to single spaces and trimmed. ``"  José  NGUYỄN "`` -> ``"jose nguyen"``."""
    decomposed = unicodedata.normalize("NFKD", value)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


class LinkageKey:
    """A secret for keyed (HMAC-SHA256) pseudo-random choices.

    Build one with :meth:`from_user` (a user's key string, UTF-8 encoded; ``None`` or ``""``
    gives a fresh random secret) or :meth:`random`. The secret is never shown by ``repr``.

    Args:
        secret: the raw key bytes (at least one byte).

    Raises:
        TypeError: if ``secret`` is not ``bytes``.
        ValueError: if ``secret`` is empty.
    """

    __slots__ = ("_secret", "_offset")

    def __init__(self, secret: bytes) -> None:
        if not isinstance(secret, (bytes, bytearray)):
            raise TypeError(f"secret must be bytes, not {type(secret).__name__}")
        if not secret:
            raise ValueError("secret must not be empty")
        self._secret = bytes(secret)
        self._offset: int | None = None

    @classmethod
    def random(cls) -> "LinkageKey":
        """A key with a fresh 32-byte secret from :func:`secrets.token_bytes`."""
        return cls(secrets.token_bytes(32))

    @classmethod
    def from_user(cls, key: str | None) -> "LinkageKey":
        """A key from a user's key string (its UTF-8 bytes, lone surrogates kept); ``None`` or ``""`` -> :meth:`random`.

        Raises:
            TypeError: if ``key`` is neither ``str`` nor ``None``.
        """
        if key is None or key == "":
            return cls.random()
        if not isinstance(key, str):
            raise TypeError(f"key must be a str or None, not {type(key).__name__}")
        return cls(_utf8(key))

    def __repr__(self) -> str:
        return "LinkageKey(<secret>)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LinkageKey) and hmac.compare_digest(self._secret, other._secret)

    def __hash__(self) -> int:
        return hash(hashlib.sha256(b"linkage-key\x00" + self._secret).digest())

    def digest(self, purpose: str, value: str, attempt: int = 0) -> bytes:
        """``HMAC-SHA256(secret, purpose + "\\x00" + value [+ "\\x00" + attempt])``: 32 bytes.

        ``attempt`` > 0 gives an independent re-pick (used when a pick collides with the
        original). ``value`` is used as given; pass it through :func:`normalise` first when
        spelling variants should agree.
        """
        msg = purpose + "\x00" + value
        if attempt:
            msg += "\x00" + str(attempt)
        return hmac.new(self._secret, _utf8(msg), hashlib.sha256).digest()

    def number(self, purpose: str, value: str, attempt: int = 0) -> int:
        """:meth:`digest` read as a big-endian 256-bit non-negative integer. Nothing is cached:
        a key may live for a whole page load and must not keep the values it has seen."""
        return int.from_bytes(self.digest(purpose, value, attempt), "big")

    def below(self, n: int, purpose: str, value: str, attempt: int = 0) -> int:
        """A keyed pick in ``range(n)`` (bias below 2**-200 for any realistic ``n``).

        Raises:
            ValueError: if ``n`` < 1.
        """
        if n < 1:
            raise ValueError(f"cannot pick from an empty range (n={n})")
        return self.number(purpose, value, attempt) % n

    def choice(self, seq: Sequence[T], purpose: str, value: str, attempt: int = 0) -> T:
        """A keyed pick from a non-empty sequence.

        Raises:
            ValueError: if ``seq`` is empty.
        """
        if not seq:
            raise ValueError(f"nothing to choose from for purpose {purpose!r}")
        return seq[self.below(len(seq), purpose, value, attempt)]

    def date_offset_days(self) -> int:
        """This key's one date offset in days: in ``[-364, -30] ∪ [30, 364]``, never a multiple
        of 7 (see :data:`OFFSET_MIN_DAYS`). Same key -> same offset."""
        if self._offset is None:
            self._offset = self.choice(_OFFSETS, "date-offset", "")
        return self._offset


def as_key(key: "LinkageKey | str | None") -> LinkageKey:
    """Coerce a :class:`LinkageKey`, a user key string, or ``None``/``""`` (fresh random secret).

    Raises:
        TypeError: for any other type.
    """
    if isinstance(key, LinkageKey):
        return key
    return LinkageKey.from_user(key)
