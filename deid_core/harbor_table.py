"""The 18 Safe Harbor identifiers of 45 CFR 164.514(b)(2)(i), one by one: which i2b2 labels and
detectors find each, what Redact, Surrogate and the Safe Harbor option write for it, and its
measured recall (``docs/safe-harbor.md``; the page's "What is removed").

Data: :data:`IDENTIFIERS` (one :class:`Identifier` per clause (A)-(R), in the rule's order; the
clause words are the regulation's, a U.S. government work), :data:`LABEL_IDENTIFIER` (i2b2
label -> clause letter) and :data:`GOLD_LABEL_IDENTIFIER` (the gold labels of the corpora
``deid eval`` reads -> letter). :func:`identifier_rows` adds, per identifier, the detectors that
emit its labels (read from the registry), an invented example run through the engine in all
three outputs, and the measured recall (:mod:`deid_core.harbor_figures`, written by
``scripts/safe_harbor_figures.py`` from ``deid eval``). :func:`markdown_table` renders the docs
table. :data:`ACTUAL_KNOWLEDGE` and :data:`TEXT_LIMITS` are what the releasing person must
still check.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass

from .detectors import REGISTRY
from .harbor_figures import FIGURES
from .ner.decode import DEFAULT_LABEL_MAP
from .spans import LABELS

__all__ = ["ACTUAL_KNOWLEDGE", "EXAMPLE_KEY", "GOLD_LABEL_IDENTIFIER", "IDENTIFIERS", "Identifier",
           "LABEL_IDENTIFIER", "MODEL_TYPES", "TEXT_LIMITS", "identifier_of_gold_label",
           "identifier_rows", "knowledge_text", "markdown_table", "recall_per_identifier"]


@dataclass(frozen=True)
class Identifier:
    """One Safe Harbor identifier.

    Attributes:
        letter: the clause, ``"A"`` ... ``"R"``.
        name: short name (``"Names"``).
        rule: the clause's words (abridged where marked ``...``).
        labels: the i2b2 2014 labels that stand for it (empty: none).
        redact, surrogate, safe_harbor: what each output writes for it, in words.
        example: an invented sentence holding one, or ``""`` where text holds none.
        note: what a text tool can and cannot do for it, or ``""``.
    """

    letter: str
    name: str
    rule: str
    labels: tuple[str, ...]
    redact: str
    surrogate: str
    safe_harbor: str
    example: str
    note: str = ""


_TAG = "the category tag"
IDENTIFIERS: tuple[Identifier, ...] = (
    Identifier("A", "Names", "Names", ("PATIENT", "DOCTOR"),
               "[NAME]", "a consistent fake name (sex, case and layout kept)", "[NAME]",
               "Seen by Dr. Anne Whitcombe with her son Paul Nelson.",
               "The rule covers the names of the individual and of relatives, employers and "
               "household members; clinicians' names are masked as well."),
    Identifier("B", "Geographic subdivisions smaller than a state",
               "All geographic subdivisions smaller than a State, including street address, city, "
               "county, precinct, ZIP code, and their equivalent geocodes, except for the initial "
               "three digits of a ZIP code if the area they cover holds more than 20,000 people",
               ("STREET", "CITY", "ZIP", "LOCATION-OTHER", "HOSPITAL", "ORGANIZATION",
                "DEPARTMENT", "ROOM"),
               "[LOCATION]", "a fake place of the same kind (street, city, ZIP shape, hospital)",
               "[LOCATION]; a ZIP code keeps its first three digits (021XX), or 000XX where the "
               "three-digit area holds 20,000 people or fewer (lists/zip3_population.tsv); a "
               "state stays",
               "Lives at 12 Elm Street, Cambridge, MA 02139; seen at Mercy General Hospital.",
               "Hospitals, organisations, departments and rooms are masked as places (i2b2 "
               "LOCATION). A state (STATE) and a country (COUNTRY) are not subdivisions smaller "
               "than a state: the option keeps a state and masks a country as Redact does."),
    Identifier("C", "Dates and ages over 89",
               "All elements of dates (except year) for dates directly related to an individual, "
               "... and all ages over 89 and all elements of dates (including year) indicative of "
               "such age, except that such ages and elements may be aggregated into a single "
               "category of age 90 or older", ("DATE", "AGE"),
               "[DATE], [AGE]",
               "dates shifted by the key's one offset (intervals kept); an age over 89 becomes 90+",
               "a date becomes its year (3/14/2021 -> 2021; no year -> [DATE]; a year implying "
               "an age over 89 -> [DATE]); an age over 89 becomes 90+",
               "Admitted 3/14/2021; follow up on 4/2. DOB 02/11/1921. She is a 92 yo widow.",
               "Ages 89 and under are not identifiers: the engine leaves them in every output."),
    Identifier("D", "Telephone numbers", "Telephone numbers", ("PHONE",),
               "[CONTACT]", "a fictional 555-01xx number, layout kept", "[CONTACT]",
               "Call her at 617-555-0142."),
    Identifier("E", "Fax numbers", "Fax numbers", ("FAX",),
               "[CONTACT]", "a fictional 555-01xx number, layout kept", "[CONTACT]",
               "Fax: 617-555-0199"),
    Identifier("F", "Email addresses", "Electronic mail addresses", ("EMAIL",),
               "[CONTACT]", "an address at a documentation domain (example.org)", "[CONTACT]",
               "Email anne.whitcombe@example.org with results."),
    Identifier("G", "Social Security numbers", "Social security numbers", ("SSN",),
               "[ID]", "a fake number of valid SSN shape", "[ID]", "SSN 123-45-6789 on file."),
    Identifier("H", "Medical record numbers", "Medical record numbers", ("MEDICALRECORD",),
               "[ID]", "a keyed number of the same shape", "[ID]", "MRN: 4471203"),
    Identifier("I", "Health plan beneficiary numbers", "Health plan beneficiary numbers",
               ("HEALTHPLAN",), "[ID]", "a keyed number of the same shape", "[ID]",
               "Medicaid ID: XGH884512301"),
    Identifier("J", "Account numbers", "Account numbers", ("ACCOUNT",),
               "[ID]", "a keyed number of the same shape", "[ID]", "Acct# A99812 billed."),
    Identifier("K", "Certificate and licence numbers", "Certificate/license numbers",
               ("LICENSE",), "[ID]", "a keyed number of the same shape", "[ID]",
               "DEA AB1234563 on the script."),
    Identifier("L", "Vehicle identifiers", "Vehicle identifiers and serial numbers, including "
               "license plate numbers", ("VEHICLE",),
               "[ID]", "a keyed number of the same shape", "[ID]",
               "License plate 7ABC123 in the lot."),
    Identifier("M", "Device identifiers", "Device identifiers and serial numbers", ("DEVICE",),
               "[ID]", "a keyed number of the same shape", "[ID]",
               "Pacemaker serial number PM4471203X."),
    Identifier("N", "URLs", "Web Universal Resource Locators (URLs)", ("URL",),
               "[CONTACT]", "a URL at a documentation domain", "[CONTACT]",
               "See https://www.whitcombe-family.org/blog for photos."),
    Identifier("O", "IP addresses", "Internet Protocol (IP) address numbers", ("IPADDR",),
               "[CONTACT]", "an address in 10.0.0.0/8 or 2001:db8::/32", "[CONTACT]",
               "Logged in from 192.168.14.22 overnight."),
    Identifier("P", "Biometric identifiers", "Biometric identifiers, including finger and voice "
               "prints", ("BIOID",),
               "[ID]", "a keyed code of the same shape", "[ID]",
               "Fingerprint ID FP-99812 scanned.",
               "A text tool finds the identifier of a biometric record written in the note "
               "(a fingerprint or voice-print ID) and nothing else: the fingerprint, voice "
               "recording, retinal scan or genome itself is not text and never reaches it. A "
               "written description of a trait (a tattoo, a scar) is left to the releasing "
               "person (clause R)."),
    Identifier("Q", "Full-face photographs", "Full-face photographs and any comparable images",
               (), "nothing (not text)", "nothing (not text)", "nothing (not text)", "",
               "Images, scanned pages and attachments are outside a text tool: remove them "
               "before release. The engine sees only the note's characters: a link to a "
               "photograph is masked as a URL, a file name is not looked for."),
    Identifier("R", "Any other unique identifying number, characteristic or code",
               "Any other unique identifying number, characteristic, or code, except as "
               "permitted by paragraph (c)", ("IDNUM", "USERNAME"),
               "[ID], [NAME] (a user name)", "a keyed code of the same shape", "[ID], [NAME]",
               "Badge #4471 at the door. Login: jsmith12",
               "Numbers and codes with a label (badge, employee, study, order numbers) and user "
               "names are found; a unique characteristic written in words (a rare occupation, "
               "a famous event, a unique diagnosis with a place) is not a pattern a tool can "
               "know: the releasing person must read for it. Professions (i2b2 PROFESSION) are "
               "masked in every output."),
)

#: i2b2 label -> Safe Harbor clause letter (labels of none: STATE, COUNTRY, PROFESSION).
LABEL_IDENTIFIER: dict[str, str] = {label: i.letter for i in IDENTIFIERS for label in i.labels}

#: Gold labels of the corpora ``deid eval`` reads (:data:`deid_core.readers.FOREIGN_LABELS`)
#: -> clause letter; ``None``: none of the 18 (or not tied to one). ASQ-PHI's labels are the
#: Safe Harbor names; PhysioNet deid: names, Location, Date, DateYear, Age, Phone, Other.
GOLD_LABEL_IDENTIFIER: dict[str, str | None] = {
    **LABEL_IDENTIFIER, "STATE": None, "COUNTRY": None, "PROFESSION": None,
    # i2b2 categories
    "NAME": "A", "LOCATION": "B", "DATE": "C", "AGE": "C", "CONTACT": None, "ID": None,
    # ASQ-PHI
    "GEOGRAPHIC_LOCATION": "B", "MEDICAL_RECORD_NUMBER": "H",
    "HEALTH_PLAN_BENEFICIARY_NUMBER": "I", "PHONE_NUMBER": "D", "FAX_NUMBER": "E",
    "EMAIL_ADDRESS": "F", "SOCIAL_SECURITY_NUMBER": "G", "UNIQUE_IDENTIFIER": "R",
    "ACCOUNT_NUMBER": "J", "CERTIFICATE_LICENSE_NUMBER": "K", "VEHICLE_IDENTIFIER": "L",
    "DEVICE_IDENTIFIER": "M", "IP_ADDRESS": "O", "BIOMETRIC_IDENTIFIER": "P",
    # presidio-research
    "PERSON": "A", "STREET_ADDRESS": "B", "GPE": "B", "DATE_TIME": "C", "TIME": "C",
    "US_SSN": "G", "CREDIT_CARD": "J", "IBAN_CODE": "J", "US_DRIVER_LICENSE": "K",
    "NRP": None, "TITLE": None,
    # PhysioNet deid
    "PTName": "A", "PTNameInitial": "A", "RelativeProxyName": "A", "HCPName": "A",
    "Location": "B", "Date": "C", "DateYear": "C", "Age": "C", "Phone": "D", "Other": "R",
}

#: The entity types of the NER model (``model/ner.json`` labels without B-/I-).
MODEL_TYPES: tuple[str, ...] = ("NAME", "LOCATION", "HOSPITAL", "ORGANIZATION", "AGE", "PROFESSION")

#: The labels the caller's known identifiers (``--known``) can give.
KNOWN_LABELS: tuple[str, ...] = ("PATIENT", "MEDICALRECORD", "STREET", "CITY", "STATE", "ZIP",
                                 "DATE")

#: The linkage key the examples' surrogates are written with (a fixed, public demo key).
EXAMPLE_KEY = "safe-harbor-table-example"

#: What the "actual knowledge" clause (45 CFR 164.514(b)(2)(ii)) leaves to the releasing person.
ACTUAL_KNOWLEDGE: tuple[str, ...] = (
    "Safe Harbor also requires that the covered entity has no actual knowledge that the "
    "information left could identify the individual, alone or with other information. No tool "
    "can know that; before a release the releasing person must still check:",
    "that the people who will receive the data cannot re-identify a patient from what is left "
    "(a rare diagnosis with a year and a state, a newsworthy event, a relative's story, an "
    "occupation named in words);",
    "every amber mark that was not decided, and a sample of the output for misses (the residual "
    "risk figures of deid eval say how many to expect in notes like the evaluated ones);",
    "that no image, scanned page, attachment or file name travels with the text;",
    "that the notes are of the kind the figures were measured on: other kinds of note can hold "
    "identifiers in forms the engine was not measured on.",
)

#: What a text tool cannot do (biometrics and photographs, clause P and Q).
TEXT_LIMITS: tuple[str, ...] = tuple(i.note for i in IDENTIFIERS if i.letter in ("P", "Q"))


def identifier_of_gold_label(label: str) -> str | None:
    """The Safe Harbor clause letter of a gold label (:data:`GOLD_LABEL_IDENTIFIER`), or
    ``None`` for a label that is none of the 18, not tied to one, or unknown."""
    return GOLD_LABEL_IDENTIFIER.get(label)


def recall_per_identifier(report: dict) -> dict[str, dict]:
    """Recall per Safe Harbor identifier from a :func:`deid_core.evaluate.evaluate` report
    (its ``per_label``, gold labels mapped by :data:`GOLD_LABEL_IDENTIFIER`; ``other`` for
    labels of none): ``{letter: {"gold" (spans), "chars", "certain", "with_review" (character
    recall), "full_certain", "full_with_review" (share of spans found in full)}}``."""
    acc: dict[str, list[int]] = {}
    for setting, base in (("certain", 0), ("with_review", 2)):
        for label, row in report[setting]["per_label"].items():
            kind = identifier_of_gold_label(label) or "other"
            a = acc.setdefault(kind, [0] * 6)   # chars, found c, found w, spans, full c, full w
            if setting == "certain":
                a[0] += row["gold"]
                a[3] += row["spans"]
            a[1 + base // 2] += row["found"]
            a[4 + base // 2] += row["spans_full"]

    def ratio(n: int, d: int) -> float:
        return round(n / d, 6) if d else 1.0
    return {k: {"gold": a[3], "chars": a[0], "certain": ratio(a[1], a[0]),
                "with_review": ratio(a[2], a[0]), "full_certain": ratio(a[4], a[3]),
                "full_with_review": ratio(a[5], a[3])} for k, a in sorted(acc.items())}


def _detectors() -> dict[str, list[str]]:
    """label -> names of the detectors that emit it: the registry's ``finds`` lines, ``known``
    (:data:`KNOWN_LABELS`) and ``model`` (:data:`MODEL_TYPES` through the decoder's label map)."""
    out: dict[str, list[str]] = {label: [] for label in LABELS}
    for det in REGISTRY:
        for label in LABELS:
            if re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", det.finds):
                out[label].append(det.name)
    for label in KNOWN_LABELS:
        out[label].append("known")
    for t in MODEL_TYPES:
        label = DEFAULT_LABEL_MAP[t]
        if label is not None and "model" not in out[label]:
            out[label].append("model")
    return out


def _outputs(example: str, process: Callable[..., dict]) -> dict:
    if not example:
        return {}
    return {"redact": process(example, mode="redact")["output"],
            "surrogate": process(example, mode="surrogate", key=EXAMPLE_KEY)["output"],
            "safe_harbor": process(example, mode="redact", safe_harbor=True)["output"]}


def identifier_rows(figures: dict | None = None, examples: bool = True,
                    process: Callable[..., dict] | None = None) -> list[dict]:
    """One JSON-ready dict per identifier (A-R): the :class:`Identifier` fields, ``detectors``
    (names of the detectors that emit its labels), ``example_outputs`` (``{"redact",
    "surrogate", "safe_harbor"}`` of the example, rules only; ``{}`` without one or with
    ``examples`` false or no ``process``: :func:`deid_core.api.process`, which the caller
    passes) and ``recall`` (per corpus: ``{"corpus": {"gold", "certain",
    "with_review", "full_certain", "full_with_review"}}`` from ``figures``, default
    :data:`deid_core.harbor_figures.FIGURES`; ``{}`` where no corpus has it)."""
    if figures is None:
        figures = FIGURES
    dets = _detectors()
    rows = []
    for ident in IDENTIFIERS:
        row = asdict(ident)
        row["labels"] = list(ident.labels)
        row["detectors"] = sorted({d for label in ident.labels for d in dets[label]})
        row["example_outputs"] = _outputs(ident.example, process) if examples and process else {}
        row["recall"] = {name: c["per_identifier"][ident.letter]
                         for name, c in figures.get("corpora", {}).items()
                         if ident.letter in c.get("per_identifier", {})}
        rows.append(row)
    return rows


def _pct(v: float) -> str:
    return f"{100 * v:.1f}"


def markdown_table(rows: list[dict] | None = None, figures: dict | None = None) -> str:
    """The docs table of :func:`identifier_rows` (Markdown), then the recall table (per corpus:
    character recall certain / with review and the gold spans)."""
    if figures is None:
        figures = FIGURES
    rows = identifier_rows(figures, examples=False) if rows is None else rows
    out = ["| | identifier | i2b2 labels | found by | Redact | Surrogate | Safe Harbor option |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['letter']} | {r['name']} | {', '.join(r['labels']) or '-'} | "
                   f"{', '.join(r['detectors']) or '-'} | {r['redact']} | {r['surrogate']} | "
                   f"{r['safe_harbor']} |")
    corpora = list(figures.get("corpora", {}))
    if corpora:
        out += ["", "Measured recall per identifier (characters, certain / with review, in %; "
                    "gold spans in brackets; `-`: the corpus has none):", "",
                "| | identifier | " + " | ".join(figures["corpora"][c]["title"] for c in corpora)
                + " |", "|---|---|" + "---|" * len(corpora)]
        for r in rows:
            cells = []
            for c in corpora:
                f = r["recall"].get(c)
                cells.append("-" if not f else
                             f"{_pct(f['certain'])} / {_pct(f['with_review'])} ({f['gold']})")
            out.append(f"| {r['letter']} | {r['name']} | " + " | ".join(cells) + " |")
    out += ["", "Notes:", ""]
    out += [f"- **{r['letter']}. {r['name']}.** {r['note']}" for r in rows if r["note"]]
    return "\n".join(out) + "\n"


def knowledge_text() -> str:
    """:data:`ACTUAL_KNOWLEDGE` as Markdown (a paragraph, then a list)."""
    head, *items = ACTUAL_KNOWLEDGE
    return head + "\n\n" + "\n".join(f"- {i}" for i in items) + "\n"
