"""The linkage key: one secret that decides the date offset and every surrogate pick.

A user's key string is first *stretched* (:func:`stretch`: PBKDF2-HMAC-SHA256, 600,000
iterations, a fixed salt) into a 32-byte secret, once per key per process. Every pseudo-random
choice the surrogate writer makes is then ``HMAC-SHA256(secret, purpose + "\\x00" + normalised
value)`` read as an integer, so:

* two notes run with the same key get the same date offset and the same fake value for the same
  original value (linkage across notes);
* without the key the choices cannot be recomputed, so a fake name cannot be reversed by trying
  candidate names (the choice is never derived from the text alone);
* guessing a weak key from one known (original, fake) pair costs a full stretch per guess
  (about 0.5 s of one core, against about 2 microseconds for a raw HMAC key): see
  :func:`stretch` and :func:`key_strength`;
* with no key a fresh random 32-byte secret (:func:`secrets.token_bytes`) is used: never a fixed
  default (and nothing to stretch).
"""
from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import unicodedata
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["LinkageKey", "as_key", "normalise", "stretch", "remember_stretched", "key_strength", "OFFSET_MIN_DAYS",
           "OFFSET_MAX_DAYS", "STRETCH_ITERATIONS", "STRETCH_SALT", "MIN_KEY_CHARS"]

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


#: PBKDF2-HMAC-SHA256 iterations for a user's key (OWASP's 2023 minimum for this PRF).
STRETCH_ITERATIONS = 600_000
#: Fixed salt: linkage needs the same secret from the same key in every run, so the salt cannot
#: be random; a salt of this tool's own stops tables precomputed for other uses of PBKDF2.
STRETCH_SALT = b"deid linkage key v1"
#: Keys shorter than this are weak (:func:`key_strength`); the page asks before using one.
MIN_KEY_CHARS = 12
_STRETCHED: dict[bytes, bytes] = {}
_STRETCHED_MAX = 16


def _pbkdf2_sha256(password: bytes, salt: bytes, iterations: int) -> bytes:
    """PBKDF2-HMAC-SHA256 with a 32-byte output (RFC 8018), standard library only.
    :func:`hashlib.pbkdf2_hmac` when the build has it (CPython with OpenSSL), else the same
    bytes computed in Python (Pyodide's ``hashlib`` has no ``pbkdf2_hmac``)."""
    native = getattr(hashlib, "pbkdf2_hmac", None)
    if native is not None:
        return native("sha256", password, salt, iterations)
    if len(password) > 64:
        password = hashlib.sha256(password).digest()
    password = password.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in password))
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in password))

    def prf(msg: bytes) -> bytes:
        i = inner.copy()
        i.update(msg)
        o = outer.copy()
        o.update(i.digest())
        return o.digest()

    u = prf(salt + b"\x00\x00\x00\x01")
    acc = int.from_bytes(u, "big")
    for _ in range(iterations - 1):
        u = prf(u)
        acc ^= int.from_bytes(u, "big")
    return acc.to_bytes(32, "big")


def stretch(key: str) -> bytes:
    """The 32-byte secret for a user's key string: ``PBKDF2-HMAC-SHA256(utf8(key),
    STRETCH_SALT, STRETCH_ITERATIONS)``, computed once per key per process (the last 16 keys
    are cached, so a batch of notes pays it once).

    Cost, measured on this project's machine (2 shared cores, one of them busy): about 0.5 s in
    CPython 3.12 (OpenSSL's ``pbkdf2_hmac``); about 8.5 s in Pyodide 0.314 under Node, which
    has no ``pbkdf2_hmac`` and runs the same function in Python. A host with a native PBKDF2
    (the page's WebCrypto ``deriveBits``) may derive the same bytes itself with these
    parameters and hand it over with :func:`remember_stretched`.

    Raises:
        TypeError: if ``key`` is not a ``str``.
        ValueError: if ``key`` is empty.
    """
    if not isinstance(key, str):
        raise TypeError(f"key must be a str, not {type(key).__name__}")
    if not key:
        raise ValueError("an empty key has nothing to stretch")
    raw = _utf8(key)
    cache_key = _cache_key(raw)
    hit = _STRETCHED.get(cache_key)
    if hit is None:
        hit = _pbkdf2_sha256(raw, STRETCH_SALT, STRETCH_ITERATIONS)
        if len(_STRETCHED) >= _STRETCHED_MAX:
            _STRETCHED.pop(next(iter(_STRETCHED)))
        _STRETCHED[cache_key] = hit
    return hit


def remember_stretched(key: str, secret: bytes) -> None:
    """Store ``secret`` as :func:`stretch`'s result for ``key`` in this process, for a host
    that derived it natively (the page's WebCrypto ``deriveBits`` with PBKDF2, SHA-256,
    :data:`STRETCH_SALT`, :data:`STRETCH_ITERATIONS`, 256 bits), so Pyodide skips its slow
    Python PBKDF2. A wrong ``secret`` only gives other (still keyed) picks.

    Raises:
        TypeError: if ``key`` is not a ``str`` or ``secret`` is not 32 ``bytes``.
        ValueError: if ``key`` is empty or ``secret`` is not 32 bytes long.
    """
    if not isinstance(key, str):
        raise TypeError(f"key must be a str, not {type(key).__name__}")
    if not isinstance(secret, (bytes, bytearray)):
        raise TypeError(f"secret must be bytes, not {type(secret).__name__}")
    if not key or len(secret) != 32:
        raise ValueError("need a non-empty key and a 32-byte secret")
    _STRETCHED[_cache_key(_utf8(key))] = bytes(secret)


def _cache_key(raw: bytes) -> bytes:
    return hashlib.sha256(b"stretch-cache\x00%d\x00%s\x00%s" % (
        STRETCH_ITERATIONS, STRETCH_SALT, raw)).digest()


def key_strength(key: str) -> dict:
    """A strength hint for a user's key string (for the page; nothing is refused here).

    Returns:
        ``{"length": int, "bits": float, "ok": bool, "verdict": str, "message": str}``:
        ``length`` in code points; ``bits`` an estimate of the guessing entropy (length times
        log2 of the alphabet its character classes span, halved for a key of one repeated
        character or a run of consecutive characters); ``ok`` is False under
        :data:`MIN_KEY_CHARS` characters or under 50 bits; ``verdict`` one of ``"empty"``,
        ``"weak"``, ``"fair"`` (50-79 bits), ``"strong"`` (80 bits or more).

    Raises:
        TypeError: if ``key`` is not a ``str``.
    """
    if not isinstance(key, str):
        raise TypeError(f"key must be a str, not {type(key).__name__}")
    n = len(key)
    if not n:
        return {"length": 0, "bits": 0.0, "ok": False, "verdict": "empty",
                "message": "No key: a fresh random key is used and nothing links the outputs."}
    alphabet = 0
    alphabet += 26 if any(c.islower() for c in key) else 0
    alphabet += 26 if any(c.isupper() for c in key) else 0
    alphabet += 10 if any(c.isdigit() for c in key) else 0
    alphabet += 33 if any(not c.isalnum() and ord(c) < 128 for c in key) else 0
    alphabet += 100 if any(ord(c) >= 128 and not c.isdigit() for c in key) else 0
    bits = n * math.log2(max(alphabet, 2))
    steps = {ord(b) - ord(a) for a, b in zip(key, key[1:])}
    if n > 1 and len(steps) == 1 and steps <= {-1, 0, 1}:
        bits /= 2
    bits = round(bits, 1)
    if n < MIN_KEY_CHARS:
        verdict, ok = "weak", False
        message = f"Under {MIN_KEY_CHARS} characters: a key this short can be guessed."
    elif bits < 50:
        verdict, ok = "weak", False
        message = "Easy to guess: use a longer key with words, digits and symbols."
    elif bits < 80:
        verdict, ok = "fair", True
        message = "Fair: a longer key (several random words) is harder to guess."
    else:
        verdict, ok = "strong", True
        message = "Strong."
    return {"length": n, "bits": bits, "ok": ok, "verdict": verdict, "message": message}


def normalise(value: str) -> str:
    """Normalise a value for keyed lookups: NFKD, accents dropped, case-folded, whitespace
    collapsed to single spaces and trimmed. ``"  José  NGUYỄN "`` -> ``"jose nguyen"``."""
    decomposed = unicodedata.normalize("NFKD", value)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


class LinkageKey:
    """A secret for keyed (HMAC-SHA256) pseudo-random choices.

    Build one with :meth:`from_user` (a user's key string, stretched by :func:`stretch`;
    ``None`` or ``""`` gives a fresh random secret) or :meth:`random`. The secret is never shown by ``repr``.

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
        """A key from a user's key string, stretched by :func:`stretch` (about 0.5 s the first
        time a process sees the key); ``None`` or ``""`` -> :meth:`random`.

        Raises:
            TypeError: if ``key`` is neither ``str`` nor ``None``.
        """
        if key is None or key == "":
            return cls.random()
        if not isinstance(key, str):
            raise TypeError(f"key must be a str or None, not {type(key).__name__}")
        return cls(stretch(key))

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
