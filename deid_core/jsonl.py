"""The one JSONL reader and writer: one JSON value a line, lines split on ``\\n`` only.

``str.splitlines()`` also splits at U+2028, U+2029, U+0085, U+000B/C and U+001C-1E, which JSON
allows raw inside a string, so it would cut a valid record in two; every JSONL parser of the
project goes through this module instead. A line may end in ``\\r\\n`` (the ``\\r`` is dropped);
a UTF-8 byte-order mark before the first line is ignored; blank lines are skipped.

JSON is strict both ways: ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's ``json`` accepts
and writes by default, and strict readers reject) are refused on input (:func:`loads`) and on
output (:func:`dumps`). A value nested more deeply than Python's parser follows (about 1,000
levels of ``[`` or ``{``; it raises ``RecursionError``) is refused like any other bad JSON: a
``ValueError`` (:data:`TOO_DEEP`), so one hostile line is one error line.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["Line", "TOO_DEEP", "loads", "dumps", "lines", "records", "parse", "read_file",
           "why_not_json"]

#: The message of a value nested too deeply for Python's JSON parser.
TOO_DEEP = "nested too deeply (more levels of [ or { than the parser follows)"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (strict JSON has no NaN or Infinity)")


def loads(text: str, **kw: Any) -> Any:
    """Strict ``json.loads`` (``kw``: its other arguments, e.g. ``object_pairs_hook``): raises
    ``ValueError`` (``json.JSONDecodeError``, the NaN refusal, or :data:`TOO_DEEP` instead of
    the parser's ``RecursionError``) on anything that is not standard JSON it can read."""
    try:
        return json.loads(text, parse_constant=_reject_constant, **kw)
    except RecursionError:
        raise ValueError(TOO_DEEP) from None


def dumps(value: Any) -> str:
    """One JSON line (no newline) of ``value``: UTF-8 characters as they are, ``NaN`` refused.

    A string holding a lone surrogate code point (which UTF-8 cannot encode) is written with
    ``\\uXXXX`` escapes instead, so the line can always be written.

    Raises:
        ValueError: if ``value`` holds a float NaN or infinity.
        TypeError: if ``value`` holds something JSON cannot represent.
    """
    out = json.dumps(value, ensure_ascii=False, allow_nan=False)
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:
        out = json.dumps(value, ensure_ascii=True, allow_nan=False)
    return out


@dataclass(frozen=True)
class Line:
    """One non-blank JSONL line: its 1-based number and either the parsed ``value`` (``error``
    is ``None``) or the ``error`` message (``value`` is then ``None``)."""

    number: int
    value: Any = None
    error: str | None = None


def lines(chunks: Iterable[str | bytes]) -> Iterator[tuple[int, str | bytes]]:
    """``(line number, line)`` for each non-blank line of ``chunks``, split on ``\\n`` only.

    ``chunks`` is either one whole text (a ``str`` or ``bytes`` in a one-item list) or an
    iterable of lines as a binary file yields them (each ending in ``\\n``: binary files split on
    ``\\n`` only). Lines keep the type of their chunk (bytes are not decoded here). A trailing
    ``\\r`` is dropped, blank lines are skipped (but counted), and a byte-order mark before the
    first line is removed.
    """
    number = 0
    for chunk in chunks:
        nl, cr, bom = (b"\n", b"\r", "\ufeff".encode()) if isinstance(chunk, bytes) \
            else ("\n", "\r", "\ufeff")
        parts = chunk.split(nl)
        if parts and not parts[-1]:
            parts.pop()  # the piece after the last newline of this chunk
        for part in parts:
            number += 1
            if number == 1:
                part = part.removeprefix(bom)
            part = part.removesuffix(cr)
            if part.strip():
                yield number, part


def records(chunks: Iterable[str | bytes]) -> Iterator[Line]:
    """Each non-blank line of ``chunks`` (see :func:`lines`) parsed with :func:`loads`. A line
    that is not UTF-8 (bytes) or not strict JSON gives a :class:`Line` with ``error`` set and the
    reading goes on (streaming: one line is held at a time)."""
    for number, raw in lines(chunks):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                yield Line(number, error=f"not UTF-8 (byte {e.start} of the line)")
                continue
        try:
            yield Line(number, loads(raw))
        except ValueError as e:
            yield Line(number, error=why_not_json(e, raw))


def why_not_json(error: ValueError, line: str) -> str:
    """The message for a line that :func:`loads` refused: ``"not JSON: <what> at column <c>"``
    (1-based, in characters, within the line), with ``"; the line ends early (cut off?)"`` when
    the parser ran out of text, e.g. the last line of a file whose writing was interrupted."""
    if not isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error}"
    at = " " if error.msg.endswith(" at") else " at "   # "Unterminated string starting at"
    why = f"not JSON: {error.msg}{at}column {error.colno}"
    if error.msg.startswith("Unterminated") or error.pos >= len(line.rstrip()):
        why += "; the line ends early (cut off?)"
    return why


def parse(text: str, source: str = "<jsonl>") -> list[Any]:
    """Every value of a whole JSONL text, in order.

    Raises:
        ValueError: ``"SOURCE:LINE: not JSON: ..."`` at the first bad line.
    """
    out = []
    for line in records([text]):
        if line.error is not None:
            raise ValueError(f"{source}:{line.number}: {line.error}")
        out.append(line.value)
    return out


def read_file(path: str | Path | BinaryIO | Iterable[bytes]) -> Iterator[Line]:
    """Stream the lines of a JSONL file (a path, or an open binary file such as
    ``sys.stdin.buffer``, or any iterable of byte lines) as :class:`Line` values; memory stays
    flat whatever the file's size.

    Raises:
        OSError: if the path cannot be opened.
    """
    if not isinstance(path, (str, os.PathLike)):
        yield from records(path)
        return
    with open(path, "rb") as fh:
        yield from records(fh)
