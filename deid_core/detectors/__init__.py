"""The explicit registry of detectors.

A detector is a function ``detect(doc: Document) -> Iterable[Span]`` built mostly from data
(patterns, context words, lists, validators). Each module below exposes ``detect``; the
:data:`REGISTRY` table lists them in the order they run. Order does not affect the result:
overlaps are settled by :func:`deid_core.resolve.resolve` alone.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..document import Document
from ..spans import Span


@dataclass(frozen=True)
class Detector:
    """A registry entry: ``name`` (used as the prefix of span sources), the module that holds
    its ``detect`` function and its ``RULES``, a one-line description of what it finds, and
    ``called``: how an explanation names it to a clinician (``"the name finder"``)."""

    name: str
    module: str
    finds: str
    called: str

    @property
    def detect(self) -> Callable[[Document], Iterable[Span]]:
        """The module's ``detect(doc) -> Iterable[Span]`` function."""
        return importlib.import_module(f"{__name__}.{self.module}").detect


#: Every detector that :func:`deid_core.analyze` runs.
REGISTRY: tuple[Detector, ...] = (
    Detector("dates", "dates", "DATE: numeric, month-name, ISO 8601, weekday, holiday, year in date context",
             "the date patterns"),
    Detector("ages", "ages", "AGE over 89 in digits and words", "the age patterns"),
    Detector("contact", "contact", "PHONE, FAX, EMAIL, URL, IPADDR",
             "the contact patterns (phone, e-mail, web address, IP address)"),
    Detector("ids", "ids", "SSN, MEDICALRECORD, HEALTHPLAN, ACCOUNT, LICENSE, VEHICLE, DEVICE, BIOID, IDNUM",
             "the identifier-number patterns"),
    Detector("locations", "locations", "STREET, CITY, STATE, ZIP, COUNTRY, HOSPITAL, ORGANIZATION, ROOM, DEPARTMENT",
             "the place and address finder"),
    Detector("names", "names", "PATIENT, DOCTOR, USERNAME names (and HOSPITAL named after people)",
             "the name finder"),
    Detector("professions", "professions", "PROFESSION: occupations with context", "the occupation finder"),
    Detector("known", "known", "caller-supplied identifiers and their variants",
             "the identifiers you supplied for this patient"),
)
