"""The resumable output of ``deid batch``: the files a run writes, how a resumed run picks up,
and the one error for a file that cannot be written.

Files (:class:`Outputs`): lines go to ``OUT.part``, failed records also to
``OUT.errors.jsonl.part``, the run's settings to ``OUT.part.settings.json``; a finished run
renames them to ``OUT``, ``OUT.errors.jsonl`` and ``OUT.settings.json``. ``--resume`` of a
finished output checks its settings and goes on from its end (:func:`reopen_finished`): the
same settings add what the input has more, other settings are refused.

A file that cannot be written (the disk or a quota is full, a file-size limit, a read-only
folder, an output path under a file) is an :class:`OutputError`: one line naming the file and
what to do, exit status 2 (:mod:`deid_core.batch.cli`); what was written stays, and its last
complete line is where ``--resume`` goes on from (:func:`resume_point`).
"""
from __future__ import annotations

import errno
import json
import os
from dataclasses import dataclass
from pathlib import Path

from .. import jsonl
from .io import InputError

__all__ = ["OutputError", "Outputs", "TextOut", "check_settings", "output_error", "reopen_finished",
           "resume_point"]

#: ``errno`` values that mean "no room": free space, then resume.
_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
#: ``errno`` values that mean "not allowed here".
_DENIED = {errno.EACCES, errno.EPERM, errno.EROFS}
#: ``errno`` values that mean "no such folder".
_NO_FOLDER = {errno.ENOTDIR, errno.ENOENT}


class OutputError(Exception):
    """An output file cannot be written; the one-line message names it and says what to do
    (reported with exit status 2)."""


def output_error(path: Path, e: OSError) -> OutputError:
    """The :class:`OutputError` for ``e`` raised while writing ``path``."""
    why = e.strerror or str(e)
    if e.errno in _FULL:
        hint = "free some space (or raise the limit) and rerun with --resume"
    elif e.errno in _DENIED:
        hint = f"the folder {path.parent} cannot be written: fix it or choose another --out"
    elif e.errno in _NO_FOLDER:
        hint = f"{path.parent} is not a folder: choose another --out"
    else:
        hint = "fix it and rerun with --resume"
    return OutputError(f"cannot write {path}: {why}; {hint}")


class TextOut:
    """A UTF-8 text file open for writing (``mode`` ``"w"`` or ``"a"``) whose every ``OSError``
    is an :class:`OutputError` naming it.

    Raises:
        OutputError: when it cannot be opened.
    """

    def __init__(self, path: Path, mode: str) -> None:
        self.path = path
        try:
            self._f = path.open(mode, encoding="utf-8")
        except OSError as e:
            raise output_error(path, e) from None

    def write(self, text: str) -> None:
        """Write ``text`` (buffered).

        Raises:
            OutputError: the file cannot take it (the buffer could not be flushed).
        """
        try:
            self._f.write(text)
        except OSError as e:
            raise output_error(self.path, e) from None

    def close(self, quiet: bool = False) -> None:
        """Flush and close; ``quiet``: after an error, drop what cannot be flushed.

        Raises:
            OutputError: the buffer cannot be flushed (unless ``quiet``).
        """
        try:
            self._f.close()
        except OSError as e:
            if not quiet:
                raise output_error(self.path, e) from None


@dataclass(frozen=True)
class Outputs:
    """The files of the run that writes ``out`` (module doc)."""

    out: Path

    @property
    def part(self) -> Path:
        return self.out.with_name(self.out.name + ".part")

    @property
    def errors(self) -> Path:
        return self.out.with_name(self.out.name + ".errors.jsonl")

    @property
    def errors_part(self) -> Path:
        return self.out.with_name(self.out.name + ".errors.jsonl.part")

    @property
    def settings(self) -> Path:
        """The settings of the run writing ``part``."""
        return self.out.with_name(self.out.name + ".part.settings.json")

    @property
    def finished_settings(self) -> Path:
        """The settings a finished ``out`` was written with."""
        return self.out.with_name(self.out.name + ".settings.json")


def resume_point(part: Path, errors: Path | None = None) -> list:
    """Make a partial output file end at its last complete record and return the ids written.

    A trailing line without its newline (a run killed mid-write, a full disk) is cut off. Only
    the ids are kept in memory. With ``errors``, that file is rewritten from the failed records
    of ``part`` (its lines whose ``error`` is set, in order): the errors file of a killed run may
    have lost the lines still in its buffer, or hold one whose record ``part`` never got;
    rebuilt, it holds each failed record of ``part`` exactly once.

    Raises:
        InputError: if a complete line is not a JSON object with an ``id`` (not our output).
        OutputError: if ``part`` or the errors file cannot be written.
    """
    ids: list = []
    good = failed = 0
    rebuilt = None if errors is None else errors.with_name(errors.name + ".tmp")
    errf = None
    try:
        errf = None if rebuilt is None else rebuilt.open("wb")
        with part.open("rb") as f:
            for raw in f:
                if not raw.endswith(b"\n"):
                    break
                try:
                    rec = jsonl.loads(raw)
                except ValueError:
                    raise InputError(f"{part}: line {len(ids) + 1} is not a batch output record; "
                                     f"delete the file to start again") from None
                if not isinstance(rec, dict) or "id" not in rec:
                    raise InputError(f"{part}: line {len(ids) + 1} is not a batch output record")
                ids.append(rec["id"])
                good += len(raw)
                if errf is not None and rec.get("error") is not None:
                    errf.write(raw)
                    failed += 1
        if errf is not None:
            errf.close()
            if failed:
                os.replace(rebuilt, errors)
            else:
                errors.unlink(missing_ok=True)
        with part.open("r+b") as f:
            f.truncate(good)
    except OSError as e:
        raise output_error(Path(e.filename) if e.filename else part, e) from None
    finally:
        if errf is not None and not errf.closed:
            errf.close()
        if rebuilt is not None and rebuilt.exists():
            rebuilt.unlink()
    return ids


def _read_settings(path: Path, part: Path) -> dict:
    try:
        old = jsonl.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = None
    if not isinstance(old, dict):
        raise InputError(f"{path} is not a settings file; delete it and {part} to start again")
    return old


def _differences(old: dict, settings: dict) -> list[str]:
    return [("another key (without --key-file or $DEID_KEY each run has a fresh one)" if k == "key"
             else f"{k} {old.get(k)!r} (now {v!r})")
            for k, v in settings.items() if old.get(k) != v]


def reopen_finished(files: Outputs, settings: dict) -> None:
    """``--resume`` of a finished output: check that it was written with ``settings``, then
    turn it back into a partial one (``OUT`` -> ``OUT.part``, its settings and errors file
    likewise), so the resume checks its ids against the input and adds any record it lacks.

    Raises:
        InputError: no record of the settings it was written with (an older deid, or the
            settings file deleted), or other settings (the message lists them): resuming would
            mix two kinds of record in one file, e.g. redact lines into a surrogate output.
        OutputError: the files cannot be renamed.
    """
    if not files.finished_settings.exists():
        raise InputError(f"{files.out} is complete and there is no record of the settings it was "
                         f"written with ({files.finished_settings}); drop --resume to write it "
                         f"again")
    diff = _differences(_read_settings(files.finished_settings, files.out), settings)
    if diff:
        raise InputError(f"{files.out} was written with other settings: {'; '.join(diff)}; "
                         f"--resume does not mix them: drop --resume to write it again with these")
    try:
        if files.errors.exists():
            os.replace(files.errors, files.errors_part)
        os.replace(files.finished_settings, files.settings)
        os.replace(files.out, files.part)
    except OSError as e:
        raise output_error(Path(e.filename) if e.filename else files.out, e) from None


def check_settings(part: Path, settings: dict, resuming: bool) -> None:
    """Record the settings a partial output is written with, and refuse to resume it with others.

    ``settings`` (mode, model form, field names, a fingerprint of the key in surrogate mode:
    never the key or any note text) is written beside ``part`` when a run starts; a resumed run
    must ask for the same. A ``.part`` file written before settings were recorded resumes as
    before.

    Raises:
        InputError: when resuming with settings other than those ``part`` was written with
            (the message lists them).
        OutputError: the settings file cannot be written.
    """
    path = Outputs(part.with_name(part.name.removesuffix(".part"))).settings
    if resuming and path.exists():
        diff = _differences(_read_settings(path, part), settings)
        if diff:
            raise InputError(f"{part} was written with other settings: {'; '.join(diff)}; resume "
                             f"with the same ones, or delete {part} to start again")
        return
    try:
        path.write_text(json.dumps(settings, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as e:
        raise output_error(path, e) from None
