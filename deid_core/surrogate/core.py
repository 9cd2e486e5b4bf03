"""Surrogates: replace each span with a plausible fake that keeps its format.

:func:`surrogate` rewrites a note through :func:`deid_core.render.render`. Which fake each label
gets (the helpers' docstrings give the details):

========================================  ============================================================
PATIENT, DOCTOR                           :class:`~deid_core.surrogate.names.NameFaker` (person,
                                          sex, case and ``LAST, FIRST M`` layout kept)
USERNAME, ZIP, ROOM, all IDs             :func:`~deid_core.surrogate.shapes.shape_map` (digit
                                          count, punctuation, letter case kept)
PHONE, FAX                                :func:`~deid_core.surrogate.shapes.fake_phone` (layout
                                          and ``+1`` kept; NANP shape, ``555-01xx`` line)
DATE                                      :func:`~deid_core.dateshift.shift_date_text` by the key's
                                          one offset; unreadable text -> a fake ISO date; a
                                          year alone -> one year up or down (see below)
AGE                                       :func:`~deid_core.surrogate.shapes.fake_age` (an
                                          age over 89 becomes ``90+``; a decade at or over
                                          90 such as ``90s`` is kept)
EMAIL, URL, IPADDR                        documentation domains and addresses
CITY, STATE, COUNTRY, STREET, HOSPITAL,   :class:`~deid_core.surrogate.places.PlaceFaker`
ORGANIZATION, DEPARTMENT, LOCATION-OTHER
PROFESSION                                hand-written professions list
========================================  ============================================================

Guarantees: every pick depends only on the linkage key and the normalised original value (so
the same value gets the same fake throughout a note and in every note run with the same key);
a fake never equals its original (re-picked; where no different value of the same shape exists,
e.g. a span of punctuation only, the category tag such as ``[ID]`` is written instead), with one
exception: an AGE span that states only a band at or over 90 (``90s``, ``nineties``, ``90+``;
:func:`~deid_core.surrogate.shapes.is_age_category`) is written as is, since it reveals no
more than a 10-year band.

What no output reveals about the date offset (issue 11): a year written alone (``2014``,
``'14``) moves by one year in a direction the key draws on its own (``date:year-alone``), not
in the offset's direction, so it reveals the original year within one year and nothing about
the offset. A weekday or a day of the month written without a month and day (``seen Monday``,
``on the 5th``) moves by a keyed step of its own (``date:lone-day``), not by the offset, so a
reader who knows its original learns nothing about the offset modulo 7 or 31. A month-year or a
month written alone (``March 2014``, ``seen in March``) moves by a keyed number of months of
its own (``date:lone-month``: 1 to 11 either way), and a holiday (``Christmas 2019``; ``July 4th
fireworks``: a month name on a fixed holiday's day), whose original date everyone knows, by a
keyed number of days of its own (``date:holiday``), so neither reveals the offset (issue 22
item 7). A date whose rest no detector read (``3 / 5 / 2014``, ``March the fifth, 2014``;
:func:`deid_core.extend.whole_dates` widens the year's span over it) is shifted whole when it is
numeric, and otherwise replaced by a keyed fake date unrelated to the offset. Every other
date moves by the one offset, so intervals between full dates are kept: a reader who knows one
original full date and its fake learns the offset (that is the design of a shift).
"""
from __future__ import annotations

import re

from .. import lists as _lists
from ..analyze import Analysis
from ..extend import unread_date_rest
from ..dateshift import day_first_in, is_decade, fake_date, parse_date, shift_date_text
from ..keys import OFFSET_MAX_DAYS, OFFSET_MIN_DAYS, LinkageKey, as_key, normalise
from ..render import Rendered, render
from ..spans import REVIEW, Span
from ..textview import normalised_view
from .names import NameFaker, fake_pools, word_keys
from .places import PlaceFaker
from .shapes import (fake_age, fake_email, fake_ip, fake_phone, fake_url,
                               is_age_category, shape_map, ssn_valid)

__all__ = ["surrogate", "Surrogator"]

#: Label words kept as written inside an ID-like span (``MRN 0045-2231`` keeps ``MRN``): kind
#: ``kept`` of ``lists/id_label_words.tsv``.
ID_LABEL_WORDS: frozenset[str] = _lists.id_label_words("kept")

#: Characters of context before a name span given to the name faker (titles, relation words).
NAME_CONTEXT_CHARS = 40

_SHAPED = frozenset({"USERNAME", "ZIP", "ROOM", "SSN", "MEDICALRECORD", "HEALTHPLAN",
                     "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"})
_INSTITUTIONS = frozenset({"HOSPITAL", "ORGANIZATION", "DEPARTMENT", "LOCATION-OTHER"})


class Surrogator:
    """Fakes for the spans of one note (holds the per-note state: the note's original values,
    the context year for dates without one, and a memo so a value is faked once).

    Args:
        text: the original note.
        spans: the spans that will be replaced.
        key: the linkage key.
    """

    def __init__(self, text: str, spans: tuple[Span, ...] | list[Span], key: LinkageKey) -> None:
        self.text = text
        self.key = key
        self.offset = key.date_offset_days()
        #: what a weekday or day of the month written alone moves by: keyed on its own, so it
        #: tells nothing about the offset (never a whole number of weeks or of 31 days)
        self.lone = key.choice(_LONE_STEPS, "date:lone-day", "")
        #: what a month-year or a month written alone moves by (months) and a holiday (days):
        #: keyed on their own, so neither tells anything about the offset (issue 22 item 7)
        self.month_step = key.choice(_MONTH_STEPS, "date:lone-month", "")
        self.holiday_step = key.choice(_HOLIDAY_STEPS, "date:holiday", "")
        self._names_src = [(read_as(text[s.start:s.end]), self._before(s), s.source)
                           for s in spans if s.category == "NAME"]
        self._excluded: set[str] = set()
        for s in spans:
            self._excluded |= word_keys(read_as(text[s.start:s.end]))
        self._names: NameFaker | None = None
        self._places: PlaceFaker | None = None
        self.context_year: int | None = None
        # Whether this note writes numeric dates day first (14.02.1931), judged once per note.
        self.day_first = day_first_in(read_as(text[s.start:s.end]) for s in spans
                                      if s.label == "DATE")
        for s in spans:
            if s.label == "DATE":
                parsed = parse_date(read_as(text[s.start:s.end]), day_first=self.day_first)
                if parsed and parsed.year is not None:
                    self.context_year = parsed.year
                    break
        self._memo: dict[tuple[str, str, str, str], str] = {}

    def _before(self, span: Span) -> str:
        return self.text[max(0, span.start - NAME_CONTEXT_CHARS):span.start]

    @property
    def names(self) -> NameFaker:
        """The note's :class:`NameFaker` (built on first use)."""
        if self._names is None:
            self._names = NameFaker(self.key, self._names_src, self._excluded)
        return self._names

    @property
    def places(self) -> PlaceFaker:
        """The note's :class:`PlaceFaker` (built on first use)."""
        if self._places is None:
            self._places = PlaceFaker(self.key, self._excluded)
        return self._places

    def fake(self, span: Span, original: str) -> str:
        """The fake for one span whose characters are ``original``; never equal to it.
        The fake is made from what the detectors read (:func:`read_as`: ``０３/０５/１９５０``
        as ``03/05/1950``, a decomposed accent composed), so it is written in ASCII digits and
        no combining mark of the original is carried into it."""
        original = read_as(original)
        name = span.category == "NAME"
        before = self._before(span) if name else ""
        memo_key = (span.label, original, before, span.source if name else "")
        hit = self._memo.get(memo_key)
        if hit is None:
            hit = self._fake(span.label, original, before, span.source)
            kept = hit == original and (
                (span.label == "AGE" and is_age_category(original))
                or (span.label == "DATE" and is_decade(original)))
            if hit is None or (normalise(hit) == normalise(original) and not kept):
                hit = f"[{span.category}]"
            self._memo[memo_key] = hit
        return hit

    def _fake(self, label: str, original: str, before: str, source: str = "") -> str | None:
        if not original.strip():
            return None
        if label in ("PATIENT", "DOCTOR"):
            return self.names.fake(original, before, source)
        if label == "DATE":
            return self._date(original)
        if label == "AGE":
            return fake_age(self.key, original)
        if label == "EMAIL":
            return fake_email(self.key, original, fake_pools().surnames)
        if label == "URL":
            return fake_url(self.key, original)
        if label == "IPADDR":
            return fake_ip(self.key, original)
        if label in ("PHONE", "FAX"):
            return fake_phone(self.key, "id:" + label, original, ID_LABEL_WORDS)
        if label in _SHAPED:
            valid = ssn_valid if label == "SSN" else None
            return shape_map(self.key, "id:" + label, original, ID_LABEL_WORDS, valid)
        if label == "PROFESSION":
            return self.places.profession(original)
        if any(c.isdigit() for c in original) or label == "STREET":
            return self.places.address(original, label)
        if label == "CITY":
            return self.places.city(original)
        if label == "STATE":
            return self.places.state(original)
        if label == "COUNTRY":
            return self.places.country(original)
        if label in _INSTITUTIONS:
            return self.places.institution(original, label)
        return None  # pragma: no cover - every label is handled above


    def _date(self, original: str) -> str:
        """A DATE span's fake (see the module docstring: what no output reveals)."""
        alone = _YEAR_ALONE.fullmatch(original)
        if alone:
            # Moved one year by a keyed direction of its own, not the offset's sign.
            step = 1 if self.key.below(2, "date:year-alone", "") else -1
            digits = alone.group("y")
            year = int(digits) + step
            new = f"{year % 100:02d}" if len(digits) == 2 else str(year)
            return original[:alone.start("y")] + new + original[alone.end("y"):]
        rest = unread_date_rest(original)
        if rest == "numeric":
            original = re.sub(r"[ \t]*([-/.])[ \t]*", r"\1", original.strip())
        elif rest == "words":
            return fake_date(self.key.number("date:fake", normalise(original)))
        shifted = shift_date_text(original, self.offset, self.context_year, day_first=self.day_first,
                                  lone=self.lone, month_step=self.month_step,
                                  holiday_step=self.holiday_step)
        if shifted is None:
            shifted = fake_date(self.key.number("date:fake", normalise(original)))
        return shifted


def read_as(original: str) -> str:
    """``original`` as the detectors read it (:func:`deid_core.textview.normalised_view`: digits
    of any script as ASCII, fullwidth forms folded, combining accents composed, invisible
    characters removed); an ASCII string is returned as it is."""
    return original if original.isascii() else normalised_view(original).text


#: Steps for a lone weekday and day of the month (``Surrogator.lone``): every residue modulo 7
#: and 31 but 0, each pair once.
_LONE_STEPS: tuple[int, ...] = tuple(n for n in range(1, 7 * 31) if n % 7 and n % 31)

#: Steps for a month-year and a month alone (``Surrogator.month_step``): one to eleven months
#: either way, never a whole year (a month alone would not change).
_MONTH_STEPS: tuple[int, ...] = tuple(s * n for n in range(1, 12) for s in (-1, 1))
#: Steps for a holiday (``Surrogator.holiday_step``): the offset's range of days
#: (:data:`deid_core.keys.OFFSET_MIN_DAYS` to ``OFFSET_MAX_DAYS``, either way), drawn on its own.
_HOLIDAY_STEPS: tuple[int, ...] = tuple(s * n for n in range(OFFSET_MIN_DAYS, OFFSET_MAX_DAYS + 1)
                                        for s in (-1, 1))

#: A year written alone (``2014``, ``'14``).
#: A DATE span that is only a year: four digits, or two (``'92``; ``92`` alone, as the date
#: detector marks a two-digit year of a history list without its apostrophe: ``MI '92``, ``CVA 81``).
_YEAR_ALONE = re.compile(r"[ \t]*['’]?(?P<y>(?:1[6-9]|2\d)\d\d|\d\d)[ \t]*")


def surrogate(analysis: Analysis, key: LinkageKey | str | None = None,
              include_review: bool = True) -> Rendered:
    """Replace each span of ``analysis`` with a consistent fake value.

    Args:
        analysis: from :func:`deid_core.analyze.analyze` (or built by hand).
        key: a :class:`~deid_core.keys.LinkageKey`, a user key string, or ``None``/``""`` for a
            fresh random secret (then nothing links this output to any other run).
        include_review: replace ``review`` spans too (default); ``False`` keeps their text.

    Returns:
        A :class:`~deid_core.render.Rendered`: the new text and where each span landed.

    Raises:
        TypeError: if ``key`` is of another type.
        FileNotFoundError: if a word list the fakes need is missing.
    """
    k = as_key(key)
    spans = analysis.spans if include_review else tuple(s for s in analysis.spans if s.tier != REVIEW)
    sur = Surrogator(analysis.text, spans, k)
    return render(analysis.text, analysis.spans,
                  lambda span, original: sur.fake(span, original)
                  if include_review or span.tier != REVIEW else None)
