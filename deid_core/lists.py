"""Loader for the derived word lists in ``lists/`` (contract; accessors filled in by the lists work).

File format (every file in ``lists/``): UTF-8, ``\\n`` line ends. Leading lines starting with
``#`` are the provenance header (``# key: value``), including ``# columns: a<TAB>b``.
Then one row per line, fields separated by TAB. Words are stored lower-case.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


def lists_dir() -> Path:
    """Where the list files are: ``$DEID_LISTS_DIR`` if set, else ``lists/`` beside the package
    (a source checkout, an editable install, or the page's virtual file system), else the copy
    packaged as ``deid_core/_lists``.

    Raises:
        FileNotFoundError: if none of these exists.
    """
    env = os.environ.get("DEID_LISTS_DIR")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve().parent
    candidates += [here.parent / "lists", here / "_lists"]
    for c in candidates:
        if c.is_dir():
            return c
    raise FileNotFoundError(f"word lists not found; looked in {[str(c) for c in candidates]}")


@dataclass(frozen=True)
class ListFile:
    """A parsed list file: ``header`` (provenance key -> value) and ``rows`` (tuples of fields)."""

    name: str
    header: dict
    rows: tuple[tuple[str, ...], ...]


@lru_cache(maxsize=None)
def read_list(filename: str) -> ListFile:
    """Read ``lists/<filename>`` once and cache it.

    Raises:
        FileNotFoundError: if the file does not exist.
    """
    header: dict[str, str] = {}
    rows: list[tuple[str, ...]] = []
    with open(lists_dir() / filename, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                key, _, value = line[1:].strip().partition(":")
                if value:
                    header[key.strip()] = value.strip()
                continue
            if line:
                rows.append(tuple(line.split("\t")))
    return ListFile(filename, header, tuple(rows))


@lru_cache(maxsize=None)
def word_set(filename: str) -> frozenset[str]:
    """The first column of ``lists/<filename>`` as a frozen set of lower-case words."""
    return frozenset(r[0] for r in read_list(filename).rows)
