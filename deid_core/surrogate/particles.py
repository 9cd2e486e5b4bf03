"""Surname particles in fake names (issue 22 item 3): what replaces ``de la`` in ``Maria de la
Cruz`` and ``al`` in ``al-Rashid``, so a fake name with particles has the shape of a real one.

A run of particles (parts of a name span with role ``particle``, next to each other with only
spaces between: ``de la``, ``VAN DER``) is replaced as one, by one keyed pick made from its
normalised words (so ``de la`` gets the same fake run wherever it is written): a two-word or
longer run by a real run of :data:`PHRASE_POOL`, one word by a particle of
:data:`PARTICLE_POOL`; each word in the letter case of the original word in its place. A
particle joined to a surname by a hyphen is replaced from :data:`HYPHEN_POOL`. A pick never
equals the original run and holds none of the note's words (particles included).

Sources: ``lists/name_particles.txt`` (rows used by ``surrogate``) and
``lists/particle_phrases.txt`` (forms ``spaced`` and ``hyphen``), both hand-written.
"""
from __future__ import annotations

from collections.abc import Callable, Collection

from .. import lists as _lists
from ..dateshift import format_like_case
from ..keys import LinkageKey

__all__ = ["PARTICLES", "PARTICLE_POOL", "PHRASE_POOL", "HYPHEN_POOL", "particle_runs", "pick_run"]

#: Surname particles kept as particles when another name follows (``van der Berg``,
#: ``DE LA CRUZ``): the rows of ``lists/name_particles.txt`` used by ``surrogate``.
PARTICLES: frozenset[str] = _lists.name_particles("surrogate")
#: What one particle is replaced by.
PARTICLE_POOL: tuple[str, ...] = tuple(sorted(PARTICLES))
#: Real runs of two or more particles (``de la``, ``van der``, ``von dem``).
PHRASE_POOL: tuple[str, ...] = tuple(r[0] for r in _lists.read_list("particle_phrases.txt").rows
                                     if r[1] == "spaced")
#: Particles written joined to a surname by a hyphen (``al``, ``el``).
HYPHEN_POOL: tuple[str, ...] = tuple(r[0] for r in _lists.read_list("particle_phrases.txt").rows
                                     if r[1] == "hyphen")

#: Keyed attempts at a run that holds none of the note's words, then at one that only differs.
_ATTEMPTS = 64


def pick_run(key: LinkageKey, excluded: Collection[str], pool: tuple[str, ...], original: str) -> str:
    """A keyed pick from ``pool`` for the particle run ``original`` (normalised words joined by
    single spaces, ``"de la"``): not ``original`` and, when the pool allows, holding none of
    ``excluded`` (the note's normalised words: the fake of ``de la`` is never ``de los``)."""
    fake = original
    for attempt in range(_ATTEMPTS):
        fake = key.choice(pool, "particles", original, attempt)
        if fake != original and not any(w in excluded for w in fake.split()):
            return fake
    for attempt in range(_ATTEMPTS):   # a note that uses every listed particle: differ at least
        fake = key.choice(pool, "particles", original, _ATTEMPTS + attempt)
        if fake != original:
            return fake
    return fake  # pragma: no cover - a pool of one entry equal to the original


def particle_runs(text: str, parts: list[tuple[int, int, str]], roles: list[tuple[str, str]],
                  pick: Callable[[tuple[str, ...], str], str]) -> dict[int, str]:
    """The fake of each run of particles of a name span, keyed by the index of its first part.

    Args:
        text: the name span's characters.
        parts: its ``(start, end, kind)`` parts (:func:`deid_core.surrogate.names.name_parts`).
        roles: ``(normalised part, role)`` per part; a run is parts with role ``particle``.
        pick: ``pick(pool, run)`` -> the fake run (:func:`pick_run` with the note's key).

    Returns:
        ``{index of the run's first part: its fake text}``: the words of the pick, each in the
        case of the original word in its place (past the end: the last one's), separated by the
        run's own spaces when the word counts agree, else by single spaces.
    """
    out: dict[int, str] = {}
    n = 0
    while n < len(parts):
        if roles[n][1] != "particle":
            n += 1
            continue
        m = n + 1
        while (m < len(parts) and roles[m][1] == "particle"
               and not text[parts[m - 1][1]:parts[m][0]].strip()):
            m += 1
        words = [text[parts[i][0]:parts[i][1]] for i in range(n, m)]
        run = " ".join(roles[i][0] for i in range(n, m))
        pool = PHRASE_POOL if m - n >= 2 and PHRASE_POOL else PARTICLE_POOL
        fake = pick(pool, run).split()
        seps = [text[parts[i][1]:parts[i + 1][0]] for i in range(n, m - 1)]
        if len(seps) != len(fake) - 1:
            seps = [" "] * (len(fake) - 1)
        cased = [format_like_case(w, words[min(i, len(words) - 1)]) for i, w in enumerate(fake)]
        out[n] = "".join(w + (seps[i] if i < len(seps) else "") for i, w in enumerate(cased))
        n = m
    return out
