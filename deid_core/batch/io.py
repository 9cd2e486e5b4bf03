"""Streaming readers for ``deid batch`` inputs (the output side: :mod:`deid_core.batch.output`).

Readers yield one :class:`Record` per input record, in input order, holding at most one record
in memory at a time (Parquet: one row group batch). A record that cannot be read (bad JSON,
not UTF-8, no text) is still yielded, with ``error`` set and ``text`` None, so the output keeps
one line per input record.

Formats (:func:`detect_format` picks one from the path):

* ``jsonl``: one JSON object per line (blank lines skipped; a UTF-8 BOM allowed);
* ``csv``: a header row, then one row per note (UTF-8; quoted fields may span lines); a row the
  strict parser refuses (an unterminated quote) or with another field count than the header is
  an error record, and reading goes on at its next line;
* ``parquet``: needs the optional ``pyarrow`` (``pip install 'deid-core[parquet]'``);
* ``txt``: a folder; every regular file below it whose name ends in ``.txt`` (any case), in
  sorted path order, id = path relative to the folder; with a patient field, the patient is the
  file's first sub-folder. Every other entry (another file, a dangling link, a FIFO, a link to
  a folder...) is an error record saying why it was skipped (:func:`folder_entries`).
"""
from __future__ import annotations

import csv
import json
import os
import re
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import jsonl

__all__ = ["FORMATS", "InputError", "Record", "count_records", "detect_format", "folder_entries",
           "read_records"]

FORMATS: tuple[str, ...] = ("jsonl", "csv", "parquet", "txt")
#: A lone surrogate of the range ``surrogateescape`` decodes undecodable bytes to (``\udc80``-
#: ``\udcff``): a text holding one was not UTF-8. One regex search instead of a Python loop over
#: every character (about 25 us a 1 KB note).
_ESCAPED_BYTE_RE = re.compile("[\udc80-\udcff]")


class InputError(Exception):
    """The input as a whole cannot be read (missing file, unknown format, missing column,
    pyarrow absent); reported with exit status 2."""


@dataclass
class Record:
    """One input record.

    Attributes:
        index: 0-based position in the input.
        id: the record's id (the id field's value, else its 1-based line/row number as a str).
        patient: the patient id as a str, or None.
        text: the note, or None when ``error`` is set.
        error: why the record cannot be processed, or None.
    """

    index: int
    id: object
    patient: str | None = None
    text: str | None = None
    error: str | None = None


def detect_format(path: str | os.PathLike, fmt: str | None = None) -> str:
    """The input format: ``fmt`` if given, a folder -> ``txt``, else by extension.

    Raises:
        InputError: if the path is missing or the format cannot be told.
    """
    p = Path(path)
    if fmt:
        if fmt not in FORMATS:
            raise InputError(f"unknown format {fmt!r}; expected one of {list(FORMATS)}")
        return fmt
    if p.is_dir():
        return "txt"
    if not p.exists():
        raise InputError(f"{path}: no such file or folder")
    ext = p.suffix.lower()
    for f, exts in (("jsonl", (".jsonl", ".ndjson", ".json")), ("csv", (".csv",)),
                    ("parquet", (".parquet", ".pq"))):
        if ext in exts:
            return f
    raise InputError(f"{path}: cannot tell the format from the extension; pass --format "
                     f"({'|'.join(FORMATS)})")


def _patient(value: object) -> str | None:
    return None if value is None or value == "" else str(value)


def _from_mapping(index: int, rec: object, text_field: str, id_field: str,
                  patient_field: str | None) -> Record:
    if not isinstance(rec, dict):
        return Record(index, str(index + 1), error="not a JSON object")
    rid = rec.get(id_field, str(index + 1))
    if isinstance(rid, (list, dict)):   # (a deeply nested id could not even be written back)
        return Record(index, str(index + 1),
                      error=f"{id_field!r} must be a string or a number, not {type(rid).__name__}")
    patient = _patient(rec.get(patient_field)) if patient_field else None
    text = rec.get(text_field)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            return Record(index, rid, patient, error=f"{text_field}: not UTF-8 (byte {e.start})")
    if not isinstance(text, str):
        why = ("missing" if text_field not in rec else "null") if text is None \
            else f"a {type(text).__name__}, not text"
        return Record(index, rid, patient, error=f"no text: field {text_field!r} is {why}")
    if _ESCAPED_BYTE_RE.search(text) is not None:
        return Record(index, rid, patient, error=f"{text_field}: not UTF-8")
    if patient_field and patient is None:
        return Record(index, rid, None, error=f"no patient: field {patient_field!r} is missing or empty")
    return Record(index, rid, patient, text)


def _jsonl(path: Path, text_field: str, id_field: str, patient_field: str | None) -> Iterator[Record]:
    with path.open("rb") as f:
        for index, line in enumerate(jsonl.records(f)):
            if line.error is not None:
                yield Record(index, str(line.number), error=f"line {line.number}: {line.error}")
                continue
            rec = line.value
            if isinstance(rec, dict) and id_field not in rec:
                rec = {**rec, id_field: str(line.number)}
            yield _from_mapping(index, rec, text_field, id_field, patient_field)


class _Lines:
    """The lines of a binary file, decoded (UTF-8, undecodable bytes kept as lone surrogates for
    :func:`_from_mapping` to report; a byte-order mark before the first line dropped), counted."""

    def __init__(self, f) -> None:
        self.f, self.count = f, 0

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        raw = self.f.readline()
        if not raw:
            raise StopIteration
        self.count += 1
        line = raw.decode("utf-8", "surrogateescape")
        return line.removeprefix("\ufeff") if self.count == 1 else line


def _csv(path: Path, text_field: str, id_field: str, patient_field: str | None) -> Iterator[Record]:
    """CSV rows, strictly parsed. A record the parser refuses (a quote that is never closed, a
    character after a closing quote) or whose field count is not the header's is an error
    record, and reading goes on at the line after the one it started on: an unterminated quote
    can no longer merge the rows after it into one note."""
    csv.field_size_limit(sys.maxsize)
    with path.open("rb") as f:
        lines = _Lines(f)
        reader = csv.reader(lines, strict=True)
        try:
            header = next(reader, [])
        except csv.Error as e:
            raise InputError(f"{path}: the header row is not CSV: {e}") from None
        if text_field not in header:
            raise InputError(f"{path}: no column {text_field!r} (columns: {', '.join(header)}); "
                             f"pass --text-field")
        index = 0
        while True:
            start, first = f.tell(), lines.count + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as e:
                yield Record(index, str(index + 1), error=f"line {first}: not CSV: {e} (a quote "
                             f"that is never closed?); reading goes on at line {first + 1}")
                index += 1
                f.seek(start)
                f.readline()
                lines.count = first
                reader = csv.reader(lines, strict=True)
                continue
            if not row:
                continue   # a blank line
            if len(row) != len(header):
                yield Record(index, str(index + 1), error=f"line {first}: {len(row)} fields, the "
                             f"header has {len(header)} (an unquoted comma or quote?)")
            else:
                rec = dict(zip(header, row))
                rec.setdefault(id_field, str(index + 1))
                yield _from_mapping(index, rec, text_field, id_field, patient_field)
            index += 1


def _parquet(path: Path, text_field: str, id_field: str, patient_field: str | None) -> Iterator[Record]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("Parquet input needs pyarrow: pip install pyarrow "
                         "(or pip install 'deid-core[parquet]')") from None
    pf = pq.ParquetFile(path)
    names = pf.schema_arrow.names
    if text_field not in names:
        raise InputError(f"{path}: no column {text_field!r} (columns: {', '.join(names)}); "
                         f"pass --text-field")
    cols = [c for c in dict.fromkeys((text_field, id_field, patient_field)) if c and c in names]
    index = 0
    for batch in pf.iter_batches(batch_size=1024, columns=cols):
        for row in batch.to_pylist():
            if id_field not in row:
                row[id_field] = str(index + 1)
            yield _from_mapping(index, row, text_field, id_field, patient_field)
            index += 1


def _kind(mode: int) -> str:
    """What a file system entry that is neither a folder nor a regular file is."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def folder_entries(root: Path, _rel: str = "") -> Iterator[tuple[str, Path | None, str | None]]:
    """Every entry below the folder ``root``, depth first in sorted name order (the sorted path
    order of earlier versions): ``(relative path, file to read or None, why it is skipped or
    None)``. A regular file whose name ends in ``.txt`` in any case (also through a symbolic
    link) is read; everything else is reported, never dropped silently: another file, a FIFO,
    socket or device (never opened: a FIFO would block), a dangling symbolic link, a symbolic
    link to a folder (not followed: it may loop or leave the folder), a folder that cannot be
    listed."""
    try:
        with os.scandir(root / _rel if _rel else root) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as e:
        yield _rel.rstrip("/") or ".", None, f"skipped: cannot list the folder: {e.strerror}"
        return
    for e in entries:
        rel = _rel + e.name
        try:
            link = e.is_symlink()
            mode = os.stat(e.path).st_mode if link else e.stat(follow_symlinks=False).st_mode
        except FileNotFoundError:
            yield rel, None, "skipped: a symbolic link to nothing (dangling)"
            continue
        except OSError as err:
            yield rel, None, f"skipped: cannot read: {err.strerror}"
            continue
        if stat.S_ISDIR(mode):
            if link:
                yield rel, None, "skipped: a symbolic link to a folder (not followed)"
            else:
                yield from folder_entries(root, rel + "/")
        elif not stat.S_ISREG(mode):
            yield rel, None, f"skipped: {_kind(mode)}, not a regular file"
        elif not e.name.lower().endswith(".txt"):
            yield rel, None, "skipped: not a .txt file"
        else:
            yield rel, Path(e.path), None


def _txt(path: Path, patient_field: str | None) -> Iterator[Record]:
    for index, (rel, p, skipped) in enumerate(folder_entries(path)):
        patient = rel.split("/")[0] if patient_field and "/" in rel else None
        if skipped is not None:
            yield Record(index, rel, patient, error=skipped)
            continue
        try:
            data = p.read_bytes()
        except OSError as e:
            yield Record(index, rel, patient, error=f"cannot read: {e.strerror}")
            continue
        try:
            text = data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError as e:
            yield Record(index, rel, patient, error=f"not UTF-8 (byte {e.start})")
            continue
        if patient_field and patient is None:
            yield Record(index, rel, None, error="no patient: the file is not in a patient sub-folder")
            continue
        yield Record(index, rel, patient, text)


def read_records(path: str | os.PathLike, fmt: str | None = None, text_field: str = "text",
                 id_field: str = "id", patient_field: str | None = None) -> Iterator[Record]:
    """Stream the input's records (module doc).

    Raises:
        InputError: when the input as a whole cannot be read (raised on first iteration for
            column checks).
    """
    p = Path(path)
    kind = detect_format(p, fmt)
    if kind == "txt":
        if not p.is_dir():
            raise InputError(f"{path}: the txt format needs a folder")
        return _txt(p, patient_field)
    if not p.is_file():
        raise InputError(f"{path}: no such file")
    reader = {"jsonl": _jsonl, "csv": _csv, "parquet": _parquet}[kind]
    return reader(p, text_field, id_field, patient_field)


def count_records(path: str | os.PathLike, fmt: str | None = None) -> int | None:
    """How many records the input holds, when that is cheap to know (JSONL lines, Parquet
    metadata, txt files); None for CSV (fields may span lines)."""
    p = Path(path)
    kind = detect_format(p, fmt)
    if kind == "jsonl":
        with p.open("rb") as f:
            return sum(1 for line in f if line.strip())
    if kind == "txt":
        return sum(1 for _ in folder_entries(p))
    if kind == "parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError:
            return None
        return pq.ParquetFile(p).metadata.num_rows
    return None
