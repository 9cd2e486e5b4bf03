"""Compiled regular expressions for the page, made at build time: the engine compiles about 300
patterns when it starts, and CPython's ``re`` spends most of the page's start-up parsing them in
pure Python. ``web/build/precompile.mjs`` runs every request the page makes in the same Pyodide
under Node with :func:`record` on, and stores what ``re`` handed to the C engine (``_sre.compile``:
pattern, flags, program, groups, group names) in ``deid_regex_cache.marshal``; in the page
:func:`install` makes ``re`` take a pattern from there instead of parsing it again. The result
is the same compiled pattern (the very arguments ``re`` would pass); a pattern not in the file
is compiled as usual, and a file made by another Python (its cache tag and ``_sre.MAGIC`` are
checked) is ignored.

Standard library only. Packed into the page as ``deid_regex_cache.py`` (``build.py``).
"""
from __future__ import annotations

import marshal
import sys
from pathlib import Path

import _sre
from re import _compiler

__all__ = ["record", "dump", "install", "FILE"]

#: The cache's file name, beside this module in the page.
FILE = "deid_regex_cache.marshal"
_recorded: dict = {}


def _stamp() -> tuple:
    return (sys.implementation.cache_tag, _sre.MAGIC)


def record() -> None:
    """From now on, remember the C engine's arguments for every str pattern ``re`` compiles."""
    original = _compiler.compile
    sre = _compiler._sre

    class Spy:
        def __getattr__(self, name):
            return getattr(sre, name)

        @staticmethod
        def compile(pattern, flags, code, groups, groupindex, indexgroup):
            if Spy.key is not None:
                _recorded[Spy.key] = (pattern, int(flags), [int(c) for c in code], int(groups),
                                      dict(groupindex), tuple(indexgroup))
            return sre.compile(pattern, flags, code, groups, groupindex, indexgroup)

    Spy.key = None

    def compile(p, flags=0):
        Spy.key = (p, int(flags)) if isinstance(p, str) else None
        try:
            return original(p, flags)
        finally:
            Spy.key = None

    _compiler._sre = Spy()
    _compiler.compile = compile


def dump() -> bytes:
    """What :func:`record` saw, as the bytes of the cache file (marshal format 2: it writes no
    back-references, whose presence depends on reference counts, so the same patterns give the
    same bytes and the build stays deterministic)."""
    return marshal.dumps((_stamp(), tuple((k[0], k[1], v) for k, v in sorted(_recorded.items()))), 2)


def install(folder: str | Path) -> int:
    """Make ``re`` take the patterns of ``folder``/:data:`FILE` from it; returns how many (0:
    no file, or one from another Python)."""
    path = Path(folder) / FILE
    if not path.is_file():
        return 0
    stamp, rows = marshal.loads(path.read_bytes())
    if tuple(stamp) != _stamp():
        return 0
    table = {(p, f): args for p, f, args in rows}
    original = _compiler.compile

    def compile(p, flags=0):
        args = table.get((p, int(flags))) if isinstance(p, str) else None
        if args is None:
            return original(p, flags)
        return _sre.compile(*args)

    _compiler.compile = compile
    return len(table)
