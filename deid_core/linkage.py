"""The linkage key of the command line, ``deid batch`` and Spark: the one key reader, and one key
per patient derived from one master key.

**One key reader** (:func:`read_key`): every command (``deid surrogate``, ``review``, ``batch``,
``harvest``) and Spark's driver read a key the same way: the key file's text (``--key-file``,
UTF-8), else ``$DEID_KEY``, else ``--key``'s value, each cleaned by :func:`clean_key`
(surrounding whitespace, the line end included, removed; the key is one non-empty line). So one
key file, the same key in ``$DEID_KEY`` or on the command line, gives one secret, one date offset
and one set of fake values in every command. Error messages never show a character of the key.

**Per-patient keys** (:func:`patient_linkage_key`): the design asks that "every unique PII token
in all records for a patient has the same transformation", and a different one for another
patient. The master key is stretched once per process (:func:`deid_core.keys.stretch`,
PBKDF2-HMAC-SHA256, 600,000 iterations; :func:`master_secret`); each patient's secret is
``HMAC-SHA256(master secret, "deid-patient" + "\\x00" + patient id)``, one HMAC (microseconds)
instead of a stretch per patient. So

* every note of one patient gets one date offset and one set of fake values (the same as
  ``deid surrogate --patient ID`` with the master key);
* another patient gets another offset and other fakes;
* without the master key nothing can be recomputed, and a patient's secret reveals nothing of
  the master secret.

Without a key, :func:`master_secret` makes a fresh random secret for the run that is never
written anywhere, so nothing links this run's output to any other run.

Changed by issue 22: the key file was read two ways (``deid surrogate`` took the first line as
written, ``deid batch`` the whole file stripped), and a patient's key was the hex HMAC of the raw
master key string, stretched again per patient. A given key now gives other fakes and offsets
than before (the same in every command).
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from .keys import LinkageKey, stretch

__all__ = ["KEY_ENV", "KeyFileError", "clean_key", "master_secret", "patient_linkage_key",
           "patient_secret", "read_key"]

#: The environment variable that may hold the key.
KEY_ENV = "DEID_KEY"
_PURPOSE = b"deid-patient\x00"


class KeyFileError(ValueError):
    """The key cannot be read or is empty (the message says what to do and shows no character
    of the key)."""


def clean_key(text: str, where: str) -> str:
    """The key in ``text`` (a key file's content, ``$DEID_KEY`` or ``--key``'s value):
    whitespace at both ends (the line end included) removed.

    Args:
        text: the raw text.
        where: what it came from, for the messages (``"key file k.txt"``, ``"$DEID_KEY"``).

    Raises:
        KeyFileError: when nothing is left, or more than one line is (a key is one line: a
            file of several lines is more likely a note than a key).
    """
    key = text.strip()
    if not key:
        raise KeyFileError(f"{where} is empty; write the key on its first line")
    if "\n" in key or "\r" in key:
        raise KeyFileError(f"{where} holds more than one line; a key is one line")
    return key


def read_key(key_file: str | os.PathLike | None = None, key: str | None = None,
             environ: Mapping[str, str] | None = None) -> str | None:
    """The key a command was given: the key file's text, else ``key`` (``--key``), else
    :data:`KEY_ENV`, cleaned by :func:`clean_key`; None when none is given (an empty
    ``$DEID_KEY`` counts as none).

    Args:
        key_file: the path of a UTF-8 file holding the key.
        key: the key itself (``--key``; it lands in the shell history, prefer a file).
        environ: where to look for :data:`KEY_ENV` (default ``os.environ``).

    Raises:
        KeyFileError: the file cannot be read or is not UTF-8 text, or a key is empty or more
            than one line.
    """
    if key_file is not None:
        where = f"key file {key_file}"
        try:
            data = Path(key_file).read_bytes()
        except OSError as e:
            raise KeyFileError(f"{where}: {e.strerror}") from None
        try:
            text = data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise KeyFileError(f"{where}: not UTF-8 text; save the key as UTF-8") from None
        return clean_key(text, where)
    if key is not None:
        return clean_key(key, "--key")
    env = (os.environ if environ is None else environ).get(KEY_ENV, "")
    return clean_key(env, f"${KEY_ENV}") if env.strip() else None


def master_secret(key: str | None) -> bytes:
    """The 32-byte master secret of a run: the key stretched (:func:`deid_core.keys.stretch`,
    about 0.5 s, once per key and process), or a fresh random secret when ``key`` is None or
    ``""`` (never written anywhere)."""
    return stretch(key) if key else secrets.token_bytes(32)


def patient_secret(master: bytes, patient: str) -> bytes:
    """One patient's 32-byte secret: ``HMAC-SHA256(master, "deid-patient\\x00" + utf8(patient))``.
    Same master and patient id -> same secret.

    Raises:
        TypeError: if ``master`` is not bytes or ``patient`` not a ``str``.
        ValueError: if ``master`` is empty.
    """
    if not isinstance(master, (bytes, bytearray)) or not isinstance(patient, str):
        raise TypeError("the master secret must be bytes and the patient id a string")
    if not master:
        raise ValueError("the master secret must not be empty")
    return hmac.new(bytes(master), _PURPOSE + patient.encode("utf-8", "surrogatepass"),
                    hashlib.sha256).digest()


def patient_linkage_key(master: bytes, patient: str | None) -> LinkageKey:
    """The :class:`~deid_core.keys.LinkageKey` of a patient's notes (``patient`` None: the
    master secret itself, as ``deid surrogate`` uses the key)."""
    return LinkageKey(master if patient is None else patient_secret(master, patient))
