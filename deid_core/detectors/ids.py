"""ID detector: SSN, MEDICALRECORD, HEALTHPLAN, ACCOUNT, LICENSE, VEHICLE, DEVICE, BIOID, IDNUM.

The rules are a table (:data:`PATTERNS`) run by :func:`~deid_core.detectors.patterns.run`; each
is declared above its validator (what each finds: ``docs/rules.md``). An identifier's label is
always outside the span. After a label (``lists/id_labels.txt``, insurers' names of
``lists/insurers.txt`` with a plan word) the value must hold a digit; valid numeric dates, bare
years, phone numbers (after generic labels) and quantities are left alone, and so are, after a
generic ``ID:``/``#`` label, a nurse's values (``ID: T 101.8`` under the infectious-disease
heading, ``#20fr``, ``PA # 35/18``) and a colour (``#aa00ff``). Clinical codes stay: HbA1c, C3,
CD4, B12, pH 7.4, ICD-10 (I10, E11.9), LOINC (4548-4), COVID-19, PHQ-9, CA-125: no label, and too
few digits for the shapes.

Speed: the label pattern runs only at word tokens that can start a label (and at each ``#``),
taken from the shared :attr:`Document.tokens`; shape patterns start with a digit or a capital.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from .. import lists
from ..datereader import numeric_date
from ..document import Document
from ..rules import Rule, rules_of
from ..spans import CERTAIN, REVIEW, Span
from .patterns import (UNITS, Emitter, GatedTable, Hit, Pattern, Verdict, alternation, gapped_alternation, just_before,
                       line_before, luhn_ok, run, vin_check_ok)

__all__ = ["detect", "iban_ok"]

_NO = r"(?:[ \t]{0,2}(?:#|no\b\.?|nos?\.|num\b\.?|number|id\b|identifier))"
#: Health insurers and public plans by name or abbreviation (hand-written); followed by a plan
#: word (``BCBS policy``, ``Aetna member ID``, ``Cigna #``) they label a HEALTHPLAN number.
#: The words are ``lists/insurers.txt`` (kinds name, plan_type, plan_word); ``bcbs`` with state
#: letters, ``part a``-``d``, ``ins``, ``id``, ``#`` and ``no.`` are word shapes.
_INSURER_ROWS = lists.read_list("insurers.txt").rows
_INSURERS = (
    r"(?:bcbs[a-z]{0,3}|" + gapped_alternation((r[0], r[1]) for r in _INSURER_ROWS if r[2] == "name") + r")"
    r"(?:[ \t]{1,2}(?:medicare[ \t]+)?(?:"
    + gapped_alternation((r[0], r[1]) for r in _INSURER_ROWS if r[2] == "plan_type") + r"|part[ \t][a-d]))?"
    r"(?:[ \t]{0,2}(?:" + gapped_alternation((r[0], r[1]) for r in _INSURER_ROWS if r[2] == "plan_word")
    + r"|ins\b\.?|id\b|#|no\b\.?|nos?\.)){1,3}")
#: Lower-cased first words of :data:`_INSURERS` (label starts, matched case-insensitively),
#: from ``lists/id_label_words.tsv``.
_INSURER_FIRST_WORDS = lists.id_label_words("insurer")
#: The label words of ``lists/id_labels.txt`` (entry, gaps, label, no): each entry, longest first,
#: with the number word after it that its ``no`` column asks for.
_ID_LABEL_ROWS = lists.read_list("id_labels.txt").rows
_NO_AFTER = {"none": "", "required": _NO, "optional": _NO + "?"}


def _label_words(label: str) -> str:
    """The ``lists/id_labels.txt`` entries of ``label`` as an alternation, longest first, each
    followed by its number word (``mr`` + ``#``/``No.``: required; ``npi``: optional)."""
    rows = sorted((r for r in _ID_LABEL_ROWS if r[2] == label), key=lambda r: (-len(r[0]), r[0]))
    return "|".join(gapped_alternation([(r[0], r[1])]) + _NO_AFTER[r[3]] for r in rows)


#: Identifier labels by i2b2 subtype; order matters only among labels starting at the same
#: character (the first alternative wins), so the subtypes keep this order. The words are the
#: list's; what stays here are word shapes (abbreviations with optional letters and dots).
_LABELS: tuple[tuple[str, str], ...] = (
    ("SSN", _label_words("SSN") + r"|soc(?:ial)?\.?[ \t]{0,2}sec(?:urity)?\.?" + _NO + "?"),
    ("VEHICLE", _label_words("VEHICLE")),
    ("MEDICALRECORD", _label_words("MEDICALRECORD") + r"|med(?:ical)?\.?[ \t]{0,2}rec(?:ord)?s?\.?" + _NO + r"?|"
                      r"(?:patient|pt\.?)[ \t]?(?:id\b|#)"),
    ("ACCOUNT", _label_words("ACCOUNT")),
    ("HEALTHPLAN", _INSURERS + "|" + _label_words("HEALTHPLAN") + r"|ins(?:urance)?(?=[ \t]{0,2}[:#])"),
    ("LICENSE", _label_words("LICENSE") + r"|(?:driver['’]?s?[ \t]+)?licen[cs]e" + _NO + "?|"
                r"dea[ \t]+reg(?:istration)?" + _NO + "?"),   # after plain dea, which wins first
    ("DEVICE", _label_words("DEVICE")),
    ("BIOID", _label_words("BIOID")),
    ("IDNUM", _label_words("IDNUM") + r"|#"),
)
_LABEL_RE = "|".join(f"(?P<{label}>{regex})" for label, regex in _LABELS)
#: Between label and value: up to four of ``# : = | . -``, ``No.``/``Num``/``number``, ``is``/``was``,
#: in any order and with spaces (``MRN#:1234567``, ``MRN No.: 12-34-56``, ``MRN: #12345``).
#: Each repetition consumes at least one character, so the pattern cannot backtrack badly.
_SEP = (r"(?P<sep>[ \t]{0,20}(?:(?:[:=|#.\-]|no\b\.?|nos?\.|num\b\.?|number\b|is[ \t]|was[ \t])"
        r"[ \t]{0,3}){0,4}(?:\r?\n[ \t]{0,3})?)")
#: The identifier: letters/digits with inner ``-./``, holding a digit; or digit groups split by
#: single spaces (``0004 7719 2208``); an upper-case prefix of 1-3 letters and a space may lead
#: (``MRN RM 008-331-62``).
_VALUE = (r"(?P<v>\d{3,5}(?:[ \t]\d{2,6}){1,3}(?![ \t]?\d|[A-Za-z0-9])|(?-i:[A-Z]{1,3} (?=\d))?"
          r"(?=[A-Za-z0-9\-./]{0,30}\d)[A-Za-z0-9](?:[A-Za-z0-9]|[-./](?=[A-Za-z0-9])){1,39})(?![A-Za-z0-9])")
_LABELLED = re.compile(r"(?<![\w])(?:" + _LABEL_RE + r")(?:(?<=[#.:])|(?![a-z]))" + _SEP + _VALUE, re.I)

#: Lower-cased first words of the labels above: the label pattern is tried only at word tokens
#: that are one of these (plus every ``#``), never scanned over the whole note.
_LABEL_FIRST_WORDS = lists.id_label_words("label")
_PLATE = re.compile(
    r"(?i:(?:licen[cs]e[ \t]+)?plates?(?:[ \t]?(?:#|no\.?|number))?[ \t]{0,3}[:#]?[ \t]{0,3})"
    r"(?P<v>[A-Z0-9]{1,4}(?:[ \t-][A-Z0-9]{1,5}){0,2})(?![A-Za-z0-9])")
#: Medicare Beneficiary Identifier shape (CMS: 11 characters ``1EG4-TE5-MK73``; CMS leaves out the
#: letters S, L, O, I, B and Z, but invented ones often use them, so any letter is accepted).
_MBI = re.compile(
    r"[1-9](?<![\w\-][1-9])(?i:[A-Z][A-Z0-9]\d-?[A-Z][A-Z0-9]\d-?[A-Z]{2}\d\d)(?![\w\-])")
#: ISBT 128 blood unit numbers (``W0419 23 118776``).
_ISBT = re.compile(r"[A-Z](?<![\w][A-Z])\d{4}[ \t]\d{2}[ \t]\d{6}(?!\d)")
#: Upper-case codes with dashes (``S24-3301``, ``TD-88213``): identifiers without a label -> review.
_CODE_SHAPE = re.compile(r"[A-Z](?<![\w\-][A-Z])[A-Z0-9]{0,5}(?:-[A-Z0-9]{1,10}){1,3}(?![\w\-])")
_DIGIT_GROUP4 = re.compile(r"\d{4}")
_SSN_LAST4 = re.compile(
    r"(?i:\b(?:ssn|ss#|social[ \t]+security(?:[ \t]+(?:number|no\.?|#))?)[^\n\d]{0,25}?"
    r"(?:ending(?:[ \t]+in)?|last[ \t]+(?:4|four)(?:[ \t]+digits)?)[ \t:]{0,3})(?P<v>\d{4})(?!\d)")


def _ssn_last4_gate(text: str) -> bool:
    """False only when :data:`_SSN_LAST4` cannot match: its label (``ssn``, ``ss#``, ``social``)
    or its ``ending``/``last`` is missing from the lower-cased ASCII note (a note with other
    characters always runs it: ``re.IGNORECASE`` matches a few of them to ASCII letters)."""
    if not text.isascii():
        return True
    low = text.lower()
    return ("ssn" in low or "ss#" in low or "social" in low) and ("ending" in low or "last" in low)


#: IBAN (ISO 13616): country, two check digits, 11-30 letters/digits, optionally in groups of 4;
#: accepted only when the mod-97 check holds.
_IBAN = re.compile(r"\d(?<=[A-Za-z]{2}\d)\d(?:[ ]?[A-Za-z0-9]{4}){2,7}(?:[ ]?[A-Za-z0-9]{1,4})?(?![\w\-])")
#: Payment card numbers: 13-19 digits, in groups of four split by one space or dash; Luhn-checked.
_CARD = re.compile(r"\d(?<![\w\-.]\d)\d{3}(?P<s>[ \-]?)\d{4}(?P=s)\d{4}(?P=s)\d{1,7}(?![\w\-]|[.,]\d)")
_LABEL_VARIANTS = frozenset(v for w in _LABEL_FIRST_WORDS for v in (w, w.title(), w.upper()))
_SSN = re.compile(r"\d(?<![\w\-/.]\d)\d\d(?P<s>[-.])\d\d(?P=s)\d{4}(?![\w\-]|[./]\d)")
#: ``219 09 9999`` with no SSN label (review); ``21909-9999`` (5-4) only after one (else a ZIP+4).
_SSN_SPACED = re.compile(r"\d(?<![\w\-/.]\d)\d\d \d\d \d{4}(?![\w\-]|[./]\d| \d)")
_SSN_SPLIT = re.compile(r"\d(?<![\w\-/.]\d)\d{4}-\d{4}(?![\w\-]|[./]\d)")
#: A colour code after ``#`` (``#aa00ff``, ``#fa0``): hex digits with a letter, not an identifier.
_COLOUR = re.compile(r"#(?=[0-9a-f]{0,5}[a-f])(?:[0-9a-f]{6}|[0-9a-f]{3})", re.I)
_SSN_LOOSE = re.compile(r"\d(?<![\w\-/.]\d)\d\d(?P<s>[ \t]?)\d{2}(?P=s)\d{4}(?![\w\-]|[./]\d)")
_SSN_CONTEXT = re.compile(r"\b(?:ssn|ss#|social[ \t]+security|soc\.?[ \t]?sec)\b")
#: What every match of :data:`_SSN_CONTEXT` (read on lower-cased text) holds: the gate of the
#: patterns that need that label (a note without one skips their scans).
_SSN_CONTEXT_WORDS = ("ssn", "ss#", "soc")
_VIN = re.compile(r"[A-HJ-NPR-Z0-9](?<![A-Za-z0-9][A-HJ-NPR-Z0-9])[A-HJ-NPR-Z0-9]{16}(?![A-Za-z0-9])")
_BARE = re.compile(r"\d(?<![\d\-./,:+$#_]\d)(?:-?\d){6,}+[A-Za-z]{0,2}(?![\w\-]|[.,]\d)")
_LETTERS_BEFORE = re.compile(r"(?<![\w\-./,:+$#])[A-Za-z]{1,3}$")
_BARE_BAD_BEFORE = "-./,:+$#_"

_PHONE_SHAPE = re.compile(r"\(?\d{3}\)?[ \t.\-]?\d{3}[ \t.\-]?\d{4}|1\d{10}|\d{3}-\d{4}")
_SEPARATED_PHONE = re.compile(r"1?[ \t.\-]?\(?\d{3}\)?[ \t.\-]\d{3}[ \t.\-]\d{4}|\d{3}-\d{4}")
_LIST_NEXT = re.compile(r"[ \t\r\n]{0,3}(?:,|and|&|/|or)[ \t]{0,2}" + _VALUE.replace("(?P<v>", "(?P<v2>")
                        .replace("(?-i:", "(?:"))
_TIME_RANGE = re.compile(r"(?:[01]\d|2[0-4])[0-5]\d-(?:[01]\d|2[0-4])[0-5]\d")
_ZIP4 = re.compile(r"\d{5}-\d{4}")
#: ``500-1000CC``, ``930-1130PM``: a range of two amounts or clock times with its unit glued on.
_RANGE_WITH_UNIT = re.compile(r"\d{1,5}-\d{1,5}(?P<u>[A-Za-z]{1,2})")
_CLOCK_SUFFIX = re.compile(r"(?i)[ap]m?")
_UNITS_AFTER = re.compile(r"[ \t]{0,2}" + UNITS, re.I)


def _context_words(use: str) -> str:
    """The ``lists/id_context_words.txt`` entries tagged ``use`` as an alternation, longest first."""
    return alternation(lists.tagged("id_context_words.txt", use), r"\ ")


#: What follows a generic ``ID:``/``#`` label in a nurse's note and is no identifier: the
#: infectious-disease heading's temperature or count (``ID: T 101.8``, ``ID: WBC 18.4``,
#: ``ID: 98.9``; the ``value_prefix`` words), a pressure (``PA # 35/18``), a size or a count with its unit (``#20fr``,
#: ``#8ETT``, ``#4PRBC``, ``#20x2``), a dose (``order 5cc``).
_NOT_ID_VALUE = re.compile(
    r"(?i)(?:(?:" + _context_words("value_prefix") + r")[ \t]?)?\d{1,3}(?:\.\d{1,2})?[a-z]?"
    r"|\d{1,3}(?:/\d{1,3}){1,2}(?:-\d{1,3})?|\d{1,2}(?:[-x]?[a-z]{1,10}\d?)(?:/\d{1,3}[a-z]{0,3})?"
    r"|\d{1,4}" + UNITS)
_DOSE_VALUE = re.compile(r"\d{1,4}" + UNITS)
#: Words before a value that make it no identifier (``bed # 12``, ``CPT 99214``, ``cell # ...``):
#: the ``not_id``, ``code`` and ``phone`` entries of ``lists/id_context_words.txt``.
_NOT_ID_BEFORE = re.compile(r"\b(?:" + _context_words("not_id") + r"|icd(?:-?\d+)?)\.?[ \t]{0,2}$")
_CODE_BEFORE = re.compile(
    r"\b(?:" + _context_words("code") + r"|icd(?:-?\d+)?(?:-cm)?)[ \t:#]{0,3}$")
_PHONE_WORDS = re.compile(r"\b(?:" + _context_words("phone") + r")\b")


#: word -> whether a label may start at a token of it (:func:`_label_start_word`), for the
#: words seen so far (up to 100,000 of them): most words of a note were seen in notes before.
_LABEL_START_WORDS: dict[str, bool] = {}


def _label_start_word(w: str) -> bool:
    """A label may start at a token ``w``: a label's first word (as written in lower case, Title
    case or capitals), an insurer's first word in any case, or a label's first word with digits
    or a hyphen glued on (``MRN12345``, ``MRN-12345``); remembered in :data:`_LABEL_START_WORDS`."""
    low = w.lower()
    hit = w in _LABEL_VARIANTS or low in _INSURER_FIRST_WORDS or (w[-1].isdigit() or "-" in w) and (
        w.split("-", 1)[0].rstrip("0123456789").lower() in _LABEL_FIRST_WORDS)
    if len(_LABEL_START_WORDS) < 100_000:
        _LABEL_START_WORDS[w] = hit
    return hit


def _label_starts(doc: Document) -> list[int]:
    """Offsets where a label may start: tokens in :data:`_LABEL_FIRST_WORDS` and every ``#``."""
    known = _LABEL_START_WORDS.get
    starts = [t.start for t in doc.tokens
              if (hit := known(t.word)) or hit is None and _label_start_word(t.word)]
    text = doc.text
    i = text.find("#")
    while i >= 0:
        if i == 0 or not text[i - 1].isalnum():     # "MR#" starts at its token already
            starts.append(i)
        i = text.find("#", i + 1)
    return sorted(starts)


_IDS = ("SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM")
SSN_SHAPE = Rule("ids:ssn_shape", ("SSN",), (CERTAIN,),
                 "a social security number's shape (123-45-6789), whatever the issuing rules say")
SSN_LAST4 = Rule("ids:ssn_last4", ("SSN",), (CERTAIN,),
                 "the last four digits of a social security number (SSN ending in 8550)")
SSN_CONTEXT = Rule("ids:ssn_context", ("SSN",), (CERTAIN,),
                   "nine digits, spaced or not, after a social security label")
SSN_SPLIT = Rule("ids:ssn_split", ("SSN",), (CERTAIN,),
                 "a social security number written 12345-6789 after its label")
SSN_SPACED = Rule("ids:ssn_spaced", ("SSN",), (REVIEW,),
                  "digits spaced like a social security number (123 45 6789) with no label",
                  amber="nine digits in three groups may be another kind of number")
LABEL = Rule("ids:label", _IDS, (CERTAIN,), "a number after an identifier label (MRN, account)",
             detail="the label of the value", list="id_labels.txt",
             reads=("insurers.txt", "id_label_words.tsv", "id_context_words.txt", "units.txt"))


def _plate(m: re.Match[str]) -> Verdict:
    v = m["v"]
    if m.string[m.start()] in "pPlL" and any(ch.isdigit() for ch in v) and len(v) >= 4:
        return Hit(m.start("v"), m.end("v"))
    return None


#: A pressure or ratio, with a vessel's or chamber's abbreviation before it (``PA 70/38``,
#: ``110/60``): after a generic ``#`` or ``ID`` label, no identifier.
_PRESSURE_VALUE = re.compile(r"(?:[A-Za-z]{1,4} )?\d{1,3}/\d{1,3}")


def _labelled(m: re.Match[str]) -> Verdict:
    text = m.string
    label = next(name for name, _ in _LABELS if m.group(name) is not None)
    value = m["v"]
    vs, ve = m.start("v"), m.end("v")
    generic = label == "IDNUM" and m.group("IDNUM").lower() in ("id", "identifier", "#")
    if "\n" in m["sep"] and generic:
        return None                                    # a bare "ID:" ending a line labels nothing
    if " " in value and label == "DEVICE":
        return None                                    # "Cart: MAC 5500 HD" is a model name
    if len(value) < (4 if generic else 3):
        return None
    if numeric_date(value) or ((generic or label == "IDNUM") and _UNITS_AFTER.match(text, ve)):
        return None
    if len(value) == 4 and value[:2] in ("19", "20") and value.isdigit():
        return None                                    # "lost job 1990": a year, the dates detector's
    before = line_before(text, m.start(), 24)
    if generic and (_NOT_ID_BEFORE.search(before) or _PHONE_WORDS.search(before)
                    or _PHONE_SHAPE.fullmatch(value)):
        return None
    if label == "VEHICLE" and m.group("VEHICLE").lower().startswith("plate") and (
            value.isdigit() or "." in value):
        return None                                    # orthopaedic "plate 3.5", "plate 6 screws"
    if label == "SSN" and not any(ch.isdigit() for ch in value):
        return None
    if (_NOT_ID_VALUE if generic else _DOSE_VALUE).fullmatch(value) and label == "IDNUM":
        return None                                    # "ID: T 101.8", "#20fr", "order 5cc"
    if generic and _COLOUR.fullmatch(text, max(0, vs - 1), ve):
        return None                                    # "#aa00ff": a colour
    if generic and _PRESSURE_VALUE.fullmatch(value):
        return None                                    # "opening # PA 70/38": a pressure
    hits = [Hit(vs, ve, label=label, detail=label)]
    if not generic:
        nxt = _LIST_NEXT.match(text, ve)               # "SN PJN7721094 and PJN7720841"
        if nxt is not None and abs(len(nxt["v2"]) - len(value)) <= 2 and " " not in nxt["v2"] \
                and sum(ch.isdigit() for ch in nxt["v2"]) >= 4:
            hits.append(Hit(nxt.start("v2"), nxt.end("v2"), label=label, detail=label))
    return hits


VIN = Rule("ids:vin", ("VEHICLE",), (CERTAIN,),
           "a 17-character vehicle identification number whose check digit is right")


def _vin(m: re.Match[str]) -> Verdict:
    v = m.group()
    return not v.isdigit() and not v.isalpha() and vin_check_ok(v)


def iban_ok(value: str) -> bool:
    """True when ``value`` (spaces allowed) passes the IBAN mod-97 check (ISO 13616)."""
    v = value.replace(" ", "").upper()
    if not 15 <= len(v) <= 34 or not v[:2].isalpha() or not v[2:4].isdigit() or not v.isalnum():
        return False
    digits = "".join(str(int(ch, 36)) for ch in v[4:] + v[:4])
    return int(digits) % 97 == 1


IBAN = Rule("ids:iban", ("ACCOUNT",), (CERTAIN,), "an IBAN bank account number passing mod-97")


def _iban(m: re.Match[str]) -> Verdict:
    text = m.string
    start = m.start() - 2                              # matched from the check digits on
    if (start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-")) \
            and iban_ok(text[start:m.end()]):
        return Hit(start, m.end())
    return None


CARD = Rule("ids:card", ("ACCOUNT",), (CERTAIN,), "a card number of 13 to 19 digits passing Luhn")


def _card(m: re.Match[str]) -> Verdict:
    digits = m.group().replace(" ", "").replace("-", "")
    return 13 <= len(digits) <= 19 and luhn_ok(digits)


MBI = Rule("ids:mbi", ("HEALTHPLAN",), (CERTAIN,),
           "a Medicare Beneficiary Identifier's shape (1EG4-TE5-MK73)")
ISBT_UNIT = Rule("ids:isbt_unit", ("IDNUM",), (CERTAIN,), "a blood unit number (W0419 23 118776)")
CODE_SHAPE = Rule("ids:code_shape", ("IDNUM",), (REVIEW,), "a code of letters and digits",
                  amber="a code may be a product or lab code rather than an identifier",
                  reads=("abbreviations.txt",))

#: ``HR-110-133``, ``BP130-140``: a vital sign's abbreviation glued to its range.
_VITAL_RANGE = re.compile(r"(?P<w>[A-Za-z]{2,4})-?\d{2,3}-\d{2,3}")


def _code_shape(m: re.Match[str]) -> Verdict:
    v = m.group()
    r = _VITAL_RANGE.fullmatch(v)
    if r and r["w"].lower() in lists.abbreviations("clinical", "shorthand"):
        return None                      # a clinical abbreviation and a range of values
    digits = sum(ch.isdigit() for ch in v)
    return digits >= 5 or (digits >= 4 and _DIGIT_GROUP4.search(v) is not None)


BARE_NUMBER = Rule("ids:bare_number", ("IDNUM",), (REVIEW,), "a long number with no label",
                   amber="a number with no label may be a lab value or an order number",
                   reads=("id_context_words.txt", "units.txt"))


def _bare(m: re.Match[str]) -> Verdict:
    text = m.string
    start, end = m.start(), m.end()
    if start:
        ch = text[start - 1]
        if ch.isalpha():
            pre = just_before(text, start, _LETTERS_BEFORE, 3)
            if pre is None:
                return None
            start = pre.start()
        elif ch.isdigit() or ch in _BARE_BAD_BEFORE:
            return None
    v = text[start:end]
    if _CODE_BEFORE.search(line_before(text, start, 16)):
        return None                      # NDC 0093-7180-01, CPT, LOINC: codes, not identifiers
    if (_SEPARATED_PHONE.fullmatch(v) or _ZIP4.fullmatch(v) or _TIME_RANGE.fullmatch(v)
            or _UNITS_AFTER.match(text, end)):
        return None                      # ten bare digits stay: contact marks them when labelled
    r = _RANGE_WITH_UNIT.fullmatch(v)
    if r and (_UNITS_AFTER.fullmatch(r["u"]) or _CLOCK_SUFFIX.fullmatch(r["u"])):
        return None                      # "goal 500-1000CC neg", "930-1130PM": amounts, times
    return Hit(start, end)


#: The table, in the order the patterns run (the first accepted span wins an overlap).
PATTERNS: tuple[Pattern, ...] = (
    Pattern(SSN_SHAPE, _SSN, "SSN"),
    Pattern(SSN_LAST4, _SSN_LAST4, "SSN", validator=lambda m: Hit(m.start("v"), m.end("v")),
            gate=_ssn_last4_gate),
    Pattern(SSN_CONTEXT, _SSN_LOOSE, "SSN", context=_SSN_CONTEXT, gate=_SSN_CONTEXT_WORDS),
    Pattern(SSN_SPLIT, _SSN_SPLIT, "SSN", context=_SSN_CONTEXT, gate=_SSN_CONTEXT_WORDS),
    Pattern(SSN_SPACED, _SSN_SPACED, "SSN", REVIEW),
    Pattern(LABEL, _PLATE, "VEHICLE", validator=_plate, at_anchors=True, detail="VEHICLE"),
    Pattern(LABEL, _LABELLED, "IDNUM", validator=_labelled, at_anchors=True),
    Pattern(VIN, _VIN, "VEHICLE", validator=_vin),
    Pattern(IBAN, _IBAN, "ACCOUNT", validator=_iban),
    Pattern(CARD, _CARD, "ACCOUNT", validator=_card),
    Pattern(MBI, _MBI, "HEALTHPLAN"),
    Pattern(ISBT_UNIT, _ISBT, "IDNUM"),
    Pattern(CODE_SHAPE, _CODE_SHAPE, "IDNUM", REVIEW, validator=_code_shape),
    Pattern(BARE_NUMBER, _BARE, "IDNUM", REVIEW, validator=_bare),
)

#: Every rule of the detector, in table order.
RULES = rules_of(p.rules for p in PATTERNS)


#: The table without the patterns that seldom match (in one note in ten or fewer) when one
#: search finds none of them (speed: four scans of the note saved on most notes).
_TABLE = GatedTable(PATTERNS, [p for p in PATTERNS if p.rule in (SSN_SHAPE, SSN_SPACED, IBAN, CARD)])


def detect(doc: Document) -> Iterable[Span]:
    """Identifier spans in ``doc.text`` (the rules: :data:`RULES`).

    Returns:
        Non-overlapping spans sorted by start, source ``ids:<rule>`` (``ids:label:<LABEL>``).
    """
    return list(run(_TABLE.for_text(doc.text), doc.text, Emitter(), _label_starts(doc)))
