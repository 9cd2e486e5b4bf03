"""U.S. care facilities by full name and organisations by name (issue 20): the full tables of
``lists/us_care_facilities.tsv`` and ``lists/sec_companies.tsv``, for the training code, the tests
and data teams. The engine does not import this module (it reads the facilities' short forms and
initials through :mod:`deid_core.knowledge`), so the page's build leaves these lists out.
Every table is read on first use and kept; names are compared lower-cased with spacing
collapsed; a name no list has gives ``()`` or None, never an error.

Sources (each file's header gives the version, SHA-256, licence and derivation): CMS hospitals,
VA facilities and CMS hospices (public domain, CC0); SEC EDGAR company tickers (public domain);
the hand-written ``care_chains.txt``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .knowledge import _key
from .lists import iter_rows, read_list


@dataclass(frozen=True)
class Facility:
    """A U.S. care facility: lower-case ``name`` and ``city`` (``-`` when the source gives
    none), postal ``state``, ``kind`` (acute care, critical access, psychiatric, childrens, va,
    hospice)."""

    name: str
    city: str
    state: str
    kind: str


@lru_cache(maxsize=None)
def _facilities() -> dict[str, tuple[Facility, ...]]:
    by: dict[str, list[Facility]] = {}
    for name, city, state, kind in iter_rows("us_care_facilities.tsv"):
        by.setdefault(name, []).append(Facility(name, city, state, kind))
    return {k: tuple(v) for k, v in by.items()}


def facilities_named(name: str) -> tuple[Facility, ...]:
    """The facilities whose full name is ``name`` (case and spacing ignored; ``memorial
    hospital`` gives many); ``()`` when none. Source: ``lists/us_care_facilities.tsv``."""
    return _facilities().get(_key(name), ())



@lru_cache(maxsize=None)
def _organisations() -> dict[str, str]:
    table = {n: k for n, _t, k in iter_rows("sec_companies.tsv")}
    table.update({r[0]: r[1] for r in read_list("care_chains.txt").rows})
    return table


def organisation(name: str) -> str | None:
    """The kind of the organisation named ``name``: ``company`` or ``fund`` (an SEC-listed
    company or fund, legal words such as Inc dropped: ``costco wholesale``) or a care chain's
    kind (``pharmacy``, ``laboratory``, ``supplier``, ``home_health``, ``hospice``,
    ``dialysis``, ``urgent_care``, ``senior_living``, ``pbm``); None when neither list has it.
    Sources: ``lists/sec_companies.tsv`` and the hand-written ``lists/care_chains.txt``."""
    return _organisations().get(_key(name))
