"""The Safe Harbor output option of Redact: what each masked span becomes when the output keeps
what 45 CFR 164.514(b)(2) permits and nothing more (``deid redact --keep-safe-harbor``,
``deid batch --keep-safe-harbor``, ``deidentify(..., safe_harbor=True)`` in Spark, the page's
option; ``safe_harbor=True`` in :func:`deid_core.api.process` and :func:`deid_core.write.write`).

Which spans are masked does not change (certain spans always, amber ones by decision or
``mask_review``, as Redact); only what a masked span is written as:

=========  ==================================================================================
DATE       its year: ``3/14/2021`` -> ``2021`` (several years: ``2019-2020``); a two-digit year
           is written with four digits, read as the latest such year not after the reference
           year (``3/14/21`` -> ``2021``, ``MI '30`` -> ``1930``); a decade stays (``1990s``).
           No year in it (``3/14``, ``Monday``, ``Christmas``) -> ``[DATE]``. A year that
           implies an age over 89 (the reference year minus it is 90 or more: a birth year
           ``1931`` in 2026) -> ``[DATE]``, as is a decade with such a year in it.
ZIP        its first three digits and ``XX`` (``02139`` -> ``021XX``, ``02139-4307`` ->
           ``021XX``), or ``000XX`` where the three-digit area holds 20,000 people or fewer
           (``lists/zip3_population.tsv``, keep ``no``: the union of the 17 prefixes of the
           HHS guidance and the ZCTA areas at or under 20,000 people) or is absent from that
           table; no five digits in it -> ``[LOCATION]``.
STATE      kept as written (``MA``, ``Texas``): the rule names subdivisions smaller than a state.
AGE        ``90+`` for an age over 89 (``92``, ``ninety-four``, ``90s``, ``101``); an age under
           90 written in digits is kept (the rule permits it); anything else -> ``[AGE]``.
others     the Redact tag (``[NAME]``, ``[LOCATION]``, ``[ID]``, ``[CONTACT]``,
           ``[PROFESSION]``): COUNTRY too, which the rule would let stay, is masked as Redact
           masks it.
=========  ==================================================================================

The reference year (the "now" an age is judged at): the later of the current calendar year
(``datetime.date.today()``, the release date) and the latest four-digit year written in a DATE
span of the note (notes dated ahead, such as shifted corpora). A birth year judged at the
release date covers the patient's age at the time of any note. Pass ``today`` to fix it.

:func:`safe_harbor_cases` is the one table of (note, expected output) that the CLI, batch and
page tests all run, so the three give the same output.
"""
from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from . import lists as _lists
from .datereader import iter_dates
from .detectors.ages import words_to_number
from .spans import LABELS, Span

__all__ = ["AGE_AGGREGATE", "OPTION_RULES", "SafeHarborWriter", "ZIP3_LIST", "age_text", "date_text",
           "reference_year", "restricted_zip3", "safe_harbor_cases", "safe_harbor_text",
           "zip_text"]

#: What an age over 89 is written as (the rule's "single category of age 90 or older").
AGE_AGGREGATE = "90+"
#: The ZIP3 table (``scripts/build_lists.py``: build_zip3).
ZIP3_LIST = "zip3_population.tsv"
#: An age the rule lets stay is under this (45 CFR 164.514(b)(2)(i)(C)).
AGE_LIMIT = 90

_ZIP = re.compile(r"(?<!\d)(\d{3})\d{2}(?:[ \t]?-[ \t]?\d{4})?(?!\d)")
_AGE_DIGITS = re.compile(r"(?<!\d)\d{1,3}(?!\d)")
_FOUR_DIGIT_YEAR = re.compile(r"(?<!\d)(?:1[6-9]|2\d)\d\d(?!\d)")


@lru_cache(maxsize=None)
def _zip3_rows() -> dict[str, bool]:
    return {row[0]: row[4] == "yes" for row in _lists.read_list(ZIP3_LIST).rows}


def restricted_zip3(prefix: str) -> bool:
    """Whether the three-digit ZIP ``prefix`` must become ``000``: its row in
    ``lists/zip3_population.tsv`` says keep ``no``, or it has no row."""
    return not _zip3_rows().get(prefix, False)


def zip_text(original: str) -> str:
    """A ZIP span under the option: ``"021XX"``, ``"000XX"`` (restricted) or ``"[LOCATION]"``
    when it holds no five-digit ZIP code."""
    m = _ZIP.search(original)
    if m is None:
        return "[LOCATION]"
    prefix = m.group(1)
    return ("000" if restricted_zip3(prefix) else prefix) + "XX"


def _age_value(original: str) -> int | None:
    digits = _AGE_DIGITS.findall(original)
    if len(digits) == 1:
        return int(digits[0])
    if digits:
        return None
    low = original.lower()
    if _lists.decade_words() and _lists.decade_words()[-1] in low:  # "nineties"
        return AGE_LIMIT
    return words_to_number(original.strip())


def age_text(original: str) -> str:
    """An AGE span under the option: ``"90+"`` for an age (or decade) over 89, the text as
    written for an age under 90 in digits, else ``"[AGE]"``."""
    value = _age_value(original)
    if value is None:
        return "[AGE]"
    return AGE_AGGREGATE if value >= AGE_LIMIT else original


def _full_year(digits: str, ref: int) -> int:
    if len(digits) == 4:
        return int(digits)
    yy = int(digits)
    year = ref - ref % 100 + yy
    return year if year <= ref else year - 100


def date_text(original: str, ref: int) -> str:
    """A DATE span under the option: its year(s) (``"2021"``, ``"2019-2020"``), a decade
    (``"1990s"``), or ``"[DATE]"`` when it holds no year or a year (or decade) that implies an
    age over 89 at the reference year ``ref`` (``ref - year >= 90``)."""
    years: list[int] = []
    decade: int | None = None
    for parsed, m in iter_dates(original):
        if parsed.pattern == "decade":
            written = m.group("dec").lstrip("'’")
            decade = _full_year(written, ref)
            continue
        y = parsed.fields.get("y")
        if y is not None:
            years.append(_full_year(original[y[0]:y[1]], ref))
    if not years and decade is not None:
        return "[DATE]" if ref - decade >= AGE_LIMIT else f"{decade}s"
    if not years or any(ref - y >= AGE_LIMIT for y in years):
        return "[DATE]"
    return "-".join(str(y) for y in dict.fromkeys(years))


def reference_year(date_texts: Iterable[str], today: _dt.date | None = None) -> int:
    """The year ages are judged at (module doc): the later of ``today``'s year (default: the
    current date) and the latest four-digit year in ``date_texts`` (the note's DATE spans)."""
    year = (today or _dt.date.today()).year
    for text in date_texts:
        for m in _FOUR_DIGIT_YEAR.finditer(text):
            year = max(year, int(m.group()))
    return year


def safe_harbor_text(label: str, original: str, ref: int) -> str:
    """What a masked span of ``label`` whose text is ``original`` is written as under the
    option (module doc), at reference year ``ref``.

    Raises:
        KeyError: for a label that is not an i2b2 subtype.
    """
    category = LABELS[label]
    if label == "DATE":
        return date_text(original, ref)
    if label == "ZIP":
        return zip_text(original)
    if label == "STATE":
        return original
    if label == "AGE":
        return age_text(original)
    return f"[{category}]"


class SafeHarborWriter:
    """The option's replacement for the spans of one note (holds the note's reference year).

    Args:
        text: the original note.
        spans: the note's final spans (its DATE spans set the reference year).
        today: the release date (default: the current date).
    """

    def __init__(self, text: str, spans: Sequence[Span], today: _dt.date | None = None) -> None:
        self.year = reference_year((text[s.start:s.end] for s in spans if s.label == "DATE"), today)

    def replace(self, span: Span, original: str) -> str:
        """What ``span`` (whose characters are ``original``) is written as."""
        return safe_harbor_text(span.label, original, self.year)


#: What the option writes, per kind of span, for the docs and the page:
#: (span, what Redact writes, what the option writes).
OPTION_RULES: tuple[tuple[str, str, str], ...] = (
    ("DATE", "[DATE]", "its year: 3/14/2021 -> 2021, March 5, 2019 -> 2019, 3/14/21 -> 2021, "
     "1/2/2019 - 3/4/2020 -> 2019 - 2020, 1990s stays; a date without a year (3/14, Monday, "
     "Christmas) -> [DATE]; a year that implies an age over 89 -> [DATE]"),
    ("ZIP", "[LOCATION]", "the first three digits: 02139 -> 021XX, 02139-4307 -> 021XX; an area "
     "of 20,000 people or fewer, or one the table lacks -> 000XX"),
    ("STATE", "[LOCATION]", "the state as written (MA, Texas)"),
    ("AGE", "[AGE]", "90+ for an age over 89 (92, ninety-four, 101, 90s); an age under 90 in "
     "digits stays"),
    ("every other label", "its tag", "its tag ([NAME], [LOCATION], [ID], [CONTACT], "
     "[PROFESSION]); a country too"),
)

#: (invented note, expected output under the option with certain spans only). Kinds covered:
#: one row per identifier kind the engine finds, the ZIP3 rule with an unrestricted (021) and a
#: restricted (036, 059) prefix, ages 89 and 90, a birth year that implies 90+, a date with and
#: without a year, a two-digit year, a state kept, a country masked. Years chosen so the
#: expected output holds for any reference year from 2026 to 2079.
_CASES: tuple[tuple[str, str, str], ...] = (
    ("name", "Seen by Dr. Anne Whitcombe today.", "Seen by Dr. [NAME] today."),
    ("date_with_year", "Admitted 3/14/2021 for chest pain.", "Admitted 2021 for chest pain."),
    ("date_words_with_year", "Surgery on March 5, 2019 went well.", "Surgery on 2019 went well."),
    ("date_without_year", "Follow up on 3/14 in clinic.", "Follow up on [DATE] in clinic."),
    ("two_digit_year", "Admitted 3/14/21 with sepsis.", "Admitted 2021 with sepsis."),
    ("birth_year_over_89", "DOB: 02/11/1921. Lives alone.", "DOB: [DATE]. Lives alone."),
    ("birth_year_under_90", "DOB: 02/11/1990. Lives alone.", "DOB: 1990. Lives alone."),
    ("birth_year_alone_over_89", "He was born 1918 in Ohio.", "He was born [DATE] in Ohio."),
    ("weekday", "Seen Monday in clinic.", "Seen [DATE] in clinic."),
    ("holiday_with_year", "Admitted Christmas 2019.", "Admitted 2019."),
    ("date_range", "Seen 1/2/2019 - 3/4/2020 weekly.", "Seen 2019 - 2020 weekly."),
    ("age_90", "Patient is a 90 yo woman.", "Patient is a 90+ yo woman."),
    ("age_101", "Patient is 101 years old.", "Patient is 90+ years old."),
    ("age_decade_over_89", "She is in her 90s now.", "She is in her 90+ now."),
    ("age_over_89_words", "She is ninety-four years old.", "She is 90+ years old."),
    ("age_89", "Patient is an 89 yo woman.", "Patient is an 89 yo woman."),
    ("zip_unrestricted", "Lives at 12 Elm Street, Cambridge, MA 02139.",
     "Lives at [LOCATION], [LOCATION], MA 021XX."),
    ("zip_restricted", "Home address 4 Birch Road, Walpole, NH 03608.",
     "Home address [LOCATION], [LOCATION], NH 000XX."),
    ("zip_plus_four_restricted", "Mail to PO Box 12, Rutland, VT 05901-1234.",
     "Mail to [LOCATION], [LOCATION], VT 000XX."),
    ("state_kept", "Moved from Texas last year.", "Moved from Texas last year."),
    ("country", "Born in Portugal, moved here.", "Born in [LOCATION], moved here."),
    ("city", "Lives in Springfield with her son.", "Lives in [LOCATION] with her son."),
    ("hospital", "Transferred from Mercy General Hospital.", "Transferred from [LOCATION]."),
    ("organization", "Works at Acme Logistics Inc downtown.", "Works at [LOCATION] downtown."),
    ("room", "Moved to room 4B overnight.", "Moved to room [LOCATION] overnight."),
    ("username", "Login: jsmith12", "Login: [NAME]"),
    ("phone", "Call 617-555-0142 with results.", "Call [CONTACT] with results."),
    ("fax", "Fax: 617-555-0199", "Fax: [CONTACT]"),
    ("email", "Email anne.whitcombe@example.org today.", "Email [CONTACT] today."),
    ("ssn", "SSN 123-45-6789 on file.", "SSN [ID] on file."),
    ("mrn", "MRN: 4471203", "MRN: [ID]"),
    ("health_plan", "Medicaid ID: XGH884512301", "Medicaid ID: [ID]"),
    ("account", "Acct# A99812 billed.", "Acct# [ID] billed."),
    ("license", "DEA AB1234563 on the script.", "DEA [ID] on the script."),
    ("vehicle", "License plate 7ABC123 in the lot.", "License plate [ID] in the lot."),
    ("device", "Pacemaker serial number PM4471203X.", "Pacemaker serial number [ID]."),
    ("biometric_id", "Fingerprint ID FP-99812 scanned.", "Fingerprint ID [ID] scanned."),
    ("other_number", "Badge #4471 at the door.", "Badge #[ID] at the door."),
    ("url", "See https://www.whitcombe-family.org/blog for notes.", "See [CONTACT] for notes."),
    ("ip", "Logged in from 192.168.14.22 overnight.", "Logged in from [CONTACT] overnight."),
    ("profession", "She works as a carpenter.", "She works as a [PROFESSION]."),
)


def safe_harbor_cases() -> list[dict]:
    """The shared test table of the option: ``[{"kind", "text", "expected"}]``, each note
    invented; ``expected`` is the output of Redact with the option, certain spans only, the
    rules alone or with the NER model (the same), at any reference year from 2026 to 2079. The CLI, batch and page tests run
    every row and must give ``expected`` (:func:`deid_core.api.process` with
    ``safe_harbor=True``)."""
    return [{"kind": k, "text": t, "expected": e} for k, t, e in _CASES]
