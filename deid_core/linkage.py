"""Per-patient linkage keys for batch work: one key per patient, derived from one master key.

The design asks that "every unique PII token in all records for a patient has the same
transformation", and a different one for another patient. :func:`patient_key` derives each
patient's key string as ``HMAC-SHA256(master, "deid-patient" + "\\x00" + patient id)`` in hex
(64 characters) and hands it to the ordinary key functions (:func:`deid_core.keys.as_key`), so

* every note of one patient gets one date offset and one set of fake values (same as running
  ``deid surrogate`` on each note with that derived key);
* another patient gets another offset and other fakes;
* without the master key nothing can be recomputed, and the derived key reveals nothing of it.

The master key comes from a key file or the ``DEID_KEY`` environment variable
(:func:`master_key`), never from a command-line argument (which lands in shell history and in
``ps``). Without one, :func:`master_key` makes a fresh random secret for the run that is never
written anywhere, so nothing links this run's output to any other run.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from .keys import LinkageKey, as_key

__all__ = ["KEY_ENV", "KeyFileError", "master_key", "patient_key", "patient_linkage_key"]

#: The environment variable that may hold the master key.
KEY_ENV = "DEID_KEY"
_PURPOSE = b"deid-patient\x00"


class KeyFileError(ValueError):
    """The key file cannot be read or is empty (message says what to do)."""


def master_key(key_file: str | os.PathLike | None = None,
               environ: "os._Environ[str] | dict[str, str] | None" = None) -> tuple[str, bool]:
    """The run's master key string and whether the user gave it.

    Args:
        key_file: a file whose content (UTF-8, trailing newline and surrounding whitespace
            stripped) is the key; wins over the environment.
        environ: where to look for :data:`KEY_ENV` (default ``os.environ``).

    Returns:
        ``(key, given)``: the key string and True when it came from the file or the environment;
        else a fresh random 64-hex-digit secret (``secrets.token_hex(32)``) and False.

    Raises:
        KeyFileError: if the key file cannot be read, is not UTF-8 or is empty.
    """
    if key_file is not None:
        try:
            key = Path(key_file).read_bytes().decode("utf-8").strip()
        except OSError as e:
            raise KeyFileError(f"key file {key_file}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise KeyFileError(f"key file {key_file}: not UTF-8 text") from None
        if not key:
            raise KeyFileError(f"key file {key_file} is empty; write the key on its first line")
        return key, True
    env = (os.environ if environ is None else environ).get(KEY_ENV, "").strip()
    if env:
        return env, True
    return secrets.token_hex(32), False


def patient_key(master: str, patient: str) -> str:
    """The derived key string of one patient: ``HMAC-SHA256(master, "deid-patient\\x00" +
    patient)`` as 64 lower-case hex digits. Same master and patient id -> same string.

    Raises:
        TypeError: if ``master`` or ``patient`` is not a ``str``.
        ValueError: if ``master`` is empty.
    """
    if not isinstance(master, str) or not isinstance(patient, str):
        raise TypeError("master key and patient id must be strings")
    if not master:
        raise ValueError("master key must not be empty")
    return hmac.new(master.encode("utf-8"), _PURPOSE + patient.encode("utf-8"),
                    hashlib.sha256).hexdigest()


def patient_linkage_key(master: str, patient: str | None) -> LinkageKey:
    """The :class:`~deid_core.keys.LinkageKey` for a patient's notes (``patient`` None: the
    master key itself, as ``deid surrogate`` would use it)."""
    return as_key(master if patient is None else patient_key(master, patient))
