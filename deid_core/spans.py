"""Span values and the i2b2 2014 label set.

A :class:`Span` is a frozen value: half-open character offsets ``[start, end)`` into the
original text (Python ``str`` indices, i.e. Unicode code points), a label from the i2b2 2014
de-identification subtypes, a tier (``certain`` or ``review``) and a ``source`` naming the
detector, pattern, list or rule that produced it, so Review can explain every amber mark.
"""
from __future__ import annotations

from dataclasses import dataclass

#: i2b2 2014 subtype -> category. Source: Stubbs & Uzuner, "Annotating longitudinal clinical
#: narratives for de-identification: The 2014 i2b2/UTHealth corpus", J Biomed Inform 2015.
LABELS: dict[str, str] = {
    "PATIENT": "NAME",
    "DOCTOR": "NAME",
    "USERNAME": "NAME",
    "PROFESSION": "PROFESSION",
    "HOSPITAL": "LOCATION",
    "ORGANIZATION": "LOCATION",
    "STREET": "LOCATION",
    "CITY": "LOCATION",
    "STATE": "LOCATION",
    "COUNTRY": "LOCATION",
    "ZIP": "LOCATION",
    "ROOM": "LOCATION",
    "DEPARTMENT": "LOCATION",
    "LOCATION-OTHER": "LOCATION",
    "AGE": "AGE",
    "DATE": "DATE",
    "PHONE": "CONTACT",
    "FAX": "CONTACT",
    "EMAIL": "CONTACT",
    "URL": "CONTACT",
    "IPADDR": "CONTACT",
    "SSN": "ID",
    "MEDICALRECORD": "ID",
    "HEALTHPLAN": "ID",
    "ACCOUNT": "ID",
    "LICENSE": "ID",
    "VEHICLE": "ID",
    "DEVICE": "ID",
    "BIOID": "ID",
    "IDNUM": "ID",
}

#: The seven i2b2 categories, in the order reports list them.
CATEGORIES: tuple[str, ...] = ("NAME", "PROFESSION", "LOCATION", "AGE", "DATE", "CONTACT", "ID")

CERTAIN = "certain"
REVIEW = "review"
TIERS: tuple[str, ...] = (CERTAIN, REVIEW)


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """One identifier candidate or final span.

    Attributes:
        start: first character offset (inclusive), ``0 <= start < end``.
        end: offset one past the last character (exclusive), ``end <= len(text)``.
        label: an i2b2 2014 subtype, a key of :data:`LABELS` (``"PATIENT"``, ``"DATE"``, ...).
        tier: ``"certain"`` (masked on sight) or ``"review"`` (amber: a human decides).
        source: which detector and pattern, list or rule produced it and why, e.g.
            ``"dates:month_day_year"`` or ``"names:surname_list+title"``.

    Raises:
        ValueError: on construction, if offsets are not ``0 <= start < end``, the label is
            unknown or the tier is not one of :data:`TIERS`.
    """

    start: int
    end: int
    label: str
    tier: str = CERTAIN
    source: str = ""

    def __post_init__(self) -> None:
        if not (0 <= self.start < self.end):
            raise ValueError(f"span offsets must satisfy 0 <= start < end, got {self.start}, {self.end}")
        if self.label not in LABELS:
            raise ValueError(f"unknown label {self.label!r}; expected one of {sorted(LABELS)}")
        if self.tier not in TIERS:
            raise ValueError(f"unknown tier {self.tier!r}; expected one of {TIERS}")

    @property
    def category(self) -> str:
        """The i2b2 category of :attr:`label` (``"NAME"``, ``"LOCATION"``, ...)."""
        return LABELS[self.label]

    @property
    def tag(self) -> str:
        """The redaction tag: the i2b2 category in brackets (``"[NAME]"``, ``"[ID]"``)."""
        return f"[{LABELS[self.label]}]"

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: "Span") -> bool:
        """True when the two spans share at least one character."""
        return self.start < other.end and other.start < self.end

    def to_dict(self) -> dict:
        """JSON-ready mapping ``{"start", "end", "label", "tier", "source"}``."""
        return {"start": self.start, "end": self.end, "label": self.label,
                "tier": self.tier, "source": self.source}
