"""Readers for annotated corpora: every reader yields :class:`GoldDoc` values.

Layouts read:

* ``corpus`` — JSONL, one note a line: ``{"id", "text", "spans": [{"start", "end", "label"}]}``.
  Labels may be i2b2 2014 subtypes (this project's ``corpus/notes.jsonl``), i2b2 categories, or the
  ASQ-PHI labels of ``../shared/corpora/asq-phi/asq_phi_dev.jsonl`` (see :data:`FOREIGN_LABELS`).
* ``i2b2`` — the i2b2 2014 XML layout: a file or a folder of ``*.xml`` files, each
  ``<deIdi2b2><TEXT><![CDATA[...]]></TEXT><TAGS><DATE start=".." end=".." TYPE=".."/>...``.
* ``physionet`` — the PhysioNet deid corpus, either as the real-notes JSONL of
  ``../shared/corpora/physionet-deid-dev/`` (the ``corpus`` layout with the PhysioNet labels
  HCPName, PTName, PTNameInitial, RelativeProxyName, Date, DateYear, Location, Phone, Age, Other)
  or in its original layout: ``NAME.text`` holding records
  ``START_OF_RECORD=patient||||note||||`` ... ``||||END_OF_RECORD`` and ``NAME-phi.phrase`` beside it
  with lines ``patient note start end TYPE`` (offsets into the record's text, end exclusive).

:func:`detect_format` picks the layout from the path (``deid eval --format auto``).
* ``presidio`` — presidio-research's JSON list ``[{"full_text", "spans": [{"entity_type",
  "start_position", "end_position"}]}]``.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import jsonl
from .spans import CATEGORIES, LABELS


@dataclass(frozen=True)
class GoldSpan:
    """A gold annotation: half-open character offsets, its i2b2 category, and the label as the
    source wrote it."""

    start: int
    end: int
    category: str
    label: str


@dataclass(frozen=True)
class GoldDoc:
    """One annotated note: ``id``, ``text`` and its gold spans (sorted by start)."""

    id: str
    text: str
    spans: tuple[GoldSpan, ...]


#: Labels of other corpora -> i2b2 category. Sources: ASQ-PHI's label set (its README),
#: presidio-research entity types, the PhysioNet deid categories.
FOREIGN_LABELS: dict[str, str] = {
    # ASQ-PHI (Safe Harbor names)
    "NAME": "NAME", "DATE": "DATE", "AGE": "AGE", "GEOGRAPHIC_LOCATION": "LOCATION",
    "LOCATION": "LOCATION", "MEDICAL_RECORD_NUMBER": "ID", "HEALTH_PLAN_BENEFICIARY_NUMBER": "ID",
    "PHONE_NUMBER": "CONTACT", "FAX_NUMBER": "CONTACT", "EMAIL_ADDRESS": "CONTACT",
    "SOCIAL_SECURITY_NUMBER": "ID", "UNIQUE_IDENTIFIER": "ID", "ACCOUNT_NUMBER": "ID",
    "CERTIFICATE_LICENSE_NUMBER": "ID", "VEHICLE_IDENTIFIER": "ID", "DEVICE_IDENTIFIER": "ID",
    "URL": "CONTACT", "IP_ADDRESS": "CONTACT", "BIOMETRIC_IDENTIFIER": "ID",
    # presidio-research
    "PERSON": "NAME", "STREET_ADDRESS": "LOCATION", "GPE": "LOCATION", "ORGANIZATION": "LOCATION",
    "DATE_TIME": "DATE", "US_SSN": "ID", "CREDIT_CARD": "ID", "IBAN_CODE": "ID",
    "US_DRIVER_LICENSE": "ID", "NRP": "LOCATION", "TITLE": "NAME", "TIME": "DATE",
    # PhysioNet deid
    "PTName": "NAME", "PTNameInitial": "NAME", "RelativeProxyName": "NAME", "HCPName": "NAME",
    "Location": "LOCATION", "Date": "DATE", "DateYear": "DATE", "Phone": "CONTACT",
    "Age": "AGE", "Other": "ID",
}


def category_of(label: str) -> str:
    """The i2b2 category for a label from any supported corpus.

    Raises:
        ValueError: for a label no table knows.
    """
    if label in LABELS:
        return LABELS[label]
    if label in CATEGORIES:
        return label
    if label in FOREIGN_LABELS:
        return FOREIGN_LABELS[label]
    raise ValueError(f"unknown PHI label {label!r}; add it to deid_core.readers.FOREIGN_LABELS")


def _doc(doc_id: str, text: str, raw: list[tuple[int, int, str]]) -> GoldDoc:
    spans = []
    for start, end, label in raw:
        if not (0 <= start < end <= len(text)):
            raise ValueError(f"{doc_id}: span {start}-{end} outside the text ({len(text)} characters)")
        spans.append(GoldSpan(start, end, category_of(label), label))
    return GoldDoc(doc_id, text, tuple(sorted(spans, key=lambda s: (s.start, s.end))))


def parse_jsonl(text: str, source: str = "<jsonl>") -> list[GoldDoc]:
    """Parse corpus JSONL text (see module doc) with the one JSONL reader
    (:mod:`deid_core.jsonl`: lines split on ``\\n`` only, blank lines skipped).

    Raises:
        ValueError: on a line that is not JSON, lacks ``text``, or has a bad span.
    """
    return [_gold_record(line, source) for line in jsonl.records([text])]


def _gold_record(line: "jsonl.Line", source: str) -> GoldDoc:
    if line.error is not None:
        raise ValueError(f"{source}:{line.number}: {line.error}")
    rec = line.value
    if not isinstance(rec, dict) or not isinstance(rec.get("text"), str):
        raise ValueError(f"{source}:{line.number}: expected an object with a string 'text'")
    try:
        raw = [(int(s["start"]), int(s["end"]), str(s["label"])) for s in rec.get("spans", [])
               if s.get("start") is not None and s.get("end") is not None]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ValueError(f"{source}:{line.number}: each span needs 'start', 'end' and 'label'") from None
    return _doc(str(rec.get("id", line.number)), rec["text"], raw)


def read_corpus(path: str | Path) -> list[GoldDoc]:
    """Read a corpus JSONL file (UTF-8), streaming it line by line.

    Raises:
        ValueError: on malformed lines; ``OSError`` if the file cannot be read.
    """
    return [_gold_record(line, str(path)) for line in jsonl.read_file(path)]


def read_i2b2(path: str | Path) -> list[GoldDoc]:
    """Read i2b2 2014 XML: one file, or every ``*.xml`` in a folder (sorted by name).

    Raises:
        ValueError: if a file has no ``TEXT`` element or no XML file is found.
    """
    path = Path(path)
    files = sorted(path.glob("*.xml")) if path.is_dir() else [path]
    if not files:
        raise ValueError(f"no .xml files in {path}")
    docs = []
    for f in files:
        root = ET.parse(f).getroot()
        text_el = root.find("TEXT")
        if text_el is None or text_el.text is None:
            raise ValueError(f"{f}: no TEXT element")
        text = text_el.text
        raw = []
        tags = root.find("TAGS")
        for tag in (tags if tags is not None else []):
            subtype = tag.get("TYPE", tag.tag)
            label = subtype if subtype in LABELS else tag.tag
            raw.append((int(tag.get("start")), int(tag.get("end")), label))
        docs.append(_doc(f.stem, text, raw))
    return docs


_RECORD_RE = re.compile(r"START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\r?\n(.*?)\|\|\|\|END_OF_RECORD", re.S)


def read_physionet(path: str | Path) -> list[GoldDoc]:
    """Read the PhysioNet deid layout from ``NAME.text`` and ``NAME-phi.phrase`` beside it.

    ``path`` is the ``.text`` file. Each phrase line is ``patient note start end TYPE...``.
    A ``.jsonl`` path is read as the real-notes JSONL (:func:`read_corpus`).

    Raises:
        ValueError: if the phrase file is missing or a line cannot be read.
    """
    path = Path(path)
    if path.suffix == ".jsonl":
        return read_corpus(path)
    phrase = path.with_name(path.stem + "-phi.phrase")
    if not phrase.exists():
        raise ValueError(f"{phrase} not found (expected beside {path})")
    records = {(m.group(1), m.group(2)): m.group(3)
               for m in _RECORD_RE.finditer(path.read_text(encoding="utf-8", errors="strict"))}
    raw: dict[tuple[str, str], list[tuple[int, int, str]]] = {k: [] for k in records}
    for n, line in enumerate(phrase.read_text(encoding="utf-8").split("\n"), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) < 5:
            raise ValueError(f"{phrase}:{n}: expected 'patient note start end TYPE'")
        key = (parts[0], parts[1])
        if key not in raw:
            raise ValueError(f"{phrase}:{n}: no record {key} in {path}")
        raw[key].append((int(parts[2]), int(parts[3]), parts[4]))
    return [_doc(f"{p}-{n}", records[(p, n)], raw[(p, n)]) for (p, n) in records]


def read_presidio(path: str | Path) -> list[GoldDoc]:
    """Read presidio-research's synthetic JSON list (see module doc)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except RecursionError:
        raise ValueError(f"{path}: not JSON: nested too deeply") from None
    return [_doc(str(i), rec["full_text"],
                 [(s["start_position"], s["end_position"], s["entity_type"]) for s in rec["spans"]])
            for i, rec in enumerate(data)]


READERS = {"corpus": read_corpus, "i2b2": read_i2b2, "physionet": read_physionet,
           "presidio": read_presidio}


def detect_format(path: str | Path) -> str:
    """The :data:`READERS` layout of ``path``: a folder or ``.xml`` -> ``i2b2``; ``.text`` ->
    ``physionet``; ``.json`` -> ``presidio``; ``.jsonl`` -> ``physionet`` when its first record's
    labels are PhysioNet's (``PTName``, ``HCPName``...), else ``corpus``.

    Raises:
        ValueError: for any other path.
    """
    path = Path(path)
    if path.is_dir() or path.suffix == ".xml":
        return "i2b2"
    if path.suffix == ".text":
        return "physionet"
    if path.suffix == ".json":
        return "presidio"
    if path.suffix == ".jsonl":
        for line in jsonl.read_file(path):
            labels = {s.get("label") for s in (line.value or {}).get("spans", [])} \
                if isinstance(line.value, dict) else set()
            if labels & _PHYSIONET_ONLY:
                return "physionet"
            if labels:
                return "corpus"
        return "corpus"
    raise ValueError(f"{path}: cannot tell its layout; give --format "
                     f"({', '.join(sorted(READERS))})")


#: Labels only the PhysioNet deid corpus uses (:func:`detect_format`).
_PHYSIONET_ONLY = frozenset({"PTName", "PTNameInitial", "RelativeProxyName", "HCPName",
                             "DateYear", "Phone", "Location", "Date", "Age", "Other"})


def read(format: str, path: str | Path) -> list[GoldDoc]:
    """Read ``path`` in one of the :data:`READERS` layouts (``"auto"``: :func:`detect_format`).

    Raises:
        ValueError: for an unknown format or malformed data; ``FileNotFoundError`` if absent.
    """
    if format == "auto":
        format = detect_format(path)
    if format not in READERS:
        raise ValueError(f"unknown format {format!r}; expected one of {sorted(READERS)}")
    return READERS[format](path)
