"""Shape-keeping fakes for numbers and codes, contact details and ages.

* :func:`shape_map`: every digit becomes a keyed digit and every letter a keyed ASCII letter of
  the same case; punctuation, spaces and listed label words (``MRN``, ``Apt``, ``ext``) stay, so
  digit count, separators and letter positions survive (``(617) 555-0142`` -> ``(208) 913-7715``).
  The keyed stream is indexed by the position among the letters and digits, and seeded from them
  alone, so the same number written ``617-555-0142`` or ``(617) 555 0142`` gets the same digits.
* :func:`fake_email`, :func:`fake_url`, :func:`fake_ip`: valid-looking values in the reserved
  documentation domains (``example.org``, ``example.com``, ``example.net``; RFC 2606), private
  IPv4 ``10.0.0.0/8`` and documentation IPv6 ``2001:db8::/32`` (RFC 3849).
* :func:`fake_phone`: a North American (NANP) number keeps its layout and any ``+1``/``1``
  country prefix, gets a keyed area code of valid shape (first digit 2-9, no ``N11``, middle
  digit not 9; toll-free ``800`` etc. kept) and a line in the fictional ``555-0100``-``555-0199``
  range; other numbers keep
  a ``+CC`` country code and are shape-mapped; an extension is shape-mapped.
* :func:`fake_age`: an age over 89, in digits or words, becomes the Safe Harbor category
  ``90+`` (``92`` -> ``90+``, ``ninety-four`` -> ``90+``): never a specific fake age over 89
  (45 CFR 164.514(b)(2)(i)(C)). An age under 90 becomes another in the same band and form. A
  decade (``90s``, ``90's``, ``nineties``, ``100s``) or the Safe Harbor category itself
  (``90+``) is kept as written: it reveals no more than a 10-year band at or over 90
  (:func:`is_age_category`); a decade under 90 becomes another decade under 90.

Every function returns ``None`` when it cannot produce a value different from the original
(the caller then writes the category tag instead).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from .. import lists as _lists
from ..dateshift import format_like_case
from ..keys import LinkageKey

__all__ = ["shape_map", "fake_email", "fake_url", "fake_ip", "fake_age", "age_words", "fake_phone",
           "is_age_category"]

_RUN = re.compile(r"[^\W\d_]+|\d+")
_ASCII_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ATTEMPTS = 32


def _stream(key: LinkageKey, purpose: str, value: str, attempt: int, n: int) -> bytes:
    out = bytearray()
    block = 0
    while len(out) < n:
        out += key.digest(purpose, f"{value}\x00{block}", attempt)
        block += 1
    return bytes(out)


def shape_map(key: LinkageKey, purpose: str, text: str, keep_words: frozenset[str] = frozenset(),
              valid: Callable[[str], bool] | None = None) -> str | None:
    """Replace each digit and letter of ``text`` by a keyed one of the same kind and case.

    Args:
        key: the linkage key.
        purpose: keeps picks for different kinds apart (``"id:PHONE"``).
        text: the original characters.
        keep_words: lower-case letter runs left as written (label words such as ``mrn``).
        valid: optional check the result must pass (e.g. no SSN area ``000``); re-picked if not.

    Returns:
        The fake, different from ``text`` (ignoring case), or ``None`` when ``text`` has no
        letter or digit outside ``keep_words``.
    """
    runs = [(m.start(), m.end()) for m in _RUN.finditer(text)
            if not (m.group()[0].isalpha() and m.group().casefold() in keep_words)]
    seed = "".join(text[s:e] for s, e in runs).casefold()
    if not seed:
        return None
    for attempt in range(_ATTEMPTS):
        rnd = _stream(key, purpose, seed, attempt, len(seed))
        chars = list(text)
        i = 0
        for s, e in runs:
            for j in range(s, e):
                c = text[j]
                b = rnd[i]
                i += 1
                if c.isdigit():
                    chars[j] = str(b % 10)
                else:
                    new = _ASCII_LOWER[b % 26]
                    chars[j] = new.upper() if c.isupper() else new
        out = "".join(chars)
        if out.casefold() != text.casefold() and (valid is None or valid(out)):
            return out
    return None


_SSN = re.compile(r"(\d{3})[- ]?(\d{2})[- ]?(\d{4})")


def ssn_valid(text: str) -> bool:
    """True unless an SSN-shaped value has an area never issued (000, 666, 900-999) or a
    zero group or serial."""
    m = _SSN.fullmatch(text.strip())
    if not m:
        return True
    area, group, serial = m.groups()
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


_DOMAINS = ("example.org", "example.com", "example.net")
_EMAIL = re.compile(r"(?P<local>[^@\s]+)@(?P<domain>[^@\s]+)")


def fake_email(key: LinkageKey, text: str, surnames: tuple[str, ...]) -> str | None:
    """``initial + surname [+ digits]@example.org``-style fake for the email address in ``text``
    (other characters of the span kept). ``surnames`` is the pick list for the local part."""
    m = _EMAIL.search(text)
    if not m or not surnames:
        return shape_map(key, "email", text)
    local, domain = m.group("local"), m.group("domain")
    digits = sum(c.isdigit() for c in local)
    norm = text.casefold()
    for attempt in range(_ATTEMPTS):
        new_local = (_ASCII_LOWER[key.below(26, "email:initial", norm, attempt)]
                     + key.choice(surnames, "email:surname", norm, attempt))
        new_local = "".join(c for c in new_local if c.isalnum())
        if digits:
            n = key.below(10 ** digits, "email:digits", norm, attempt)
            new_local += f"{n:0{digits}d}"
        new_domain = key.choice(_DOMAINS, "email:domain", norm, attempt)
        if local.isupper():
            new_local = new_local.upper()
        if domain.isupper():
            new_domain = new_domain.upper()
        out = text[:m.start()] + new_local + "@" + new_domain + text[m.end():]
        if out.casefold() != norm:
            return out
    return None


_URL = re.compile(r"(?P<scheme>[a-z][a-z0-9+.\-]*://)?(?P<www>www\d?\.)?(?P<host>[^/\s:?#]+)"
                  r"(?P<rest>.*)", re.I | re.S)


def fake_url(key: LinkageKey, text: str) -> str | None:
    """Same scheme and ``www.``; host -> a documentation domain; path letters and digits
    shape-mapped (``https://www.clinic-a.org/pt/8812`` -> ``https://www.example.net/qx/4410``)."""
    m = _URL.fullmatch(text)
    if not m:
        return shape_map(key, "url", text)
    norm = text.casefold()
    host = m.group("host")
    for attempt in range(_ATTEMPTS):
        new_host = key.choice(_DOMAINS, "url:host", norm, attempt)
        if host.isupper():
            new_host = new_host.upper()
        rest = m.group("rest")
        new_rest = shape_map(key, f"url:path:{attempt}", rest) if rest.strip("/") else rest
        out = (m.group("scheme") or "") + (m.group("www") or "") + new_host + (new_rest or rest)
        if out.casefold() != norm:
            return out
    return None


_IPV4 = re.compile(r"(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d.])")
_IPV6 = re.compile(r"[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}", re.I)


def fake_ip(key: LinkageKey, text: str) -> str | None:
    """An IPv4 address becomes one in ``10.0.0.0/8``; an IPv6 one ``2001:db8:`` plus six keyed
    groups; other characters of the span kept."""
    norm = text.casefold()
    m = _IPV4.search(text)
    if m:
        for attempt in range(_ATTEMPTS):
            n = key.number("ipv4", norm, attempt)
            new = f"10.{n % 256}.{(n >> 8) % 256}.{1 + (n >> 16) % 254}"
            out = text[:m.start()] + new + text[m.end():]
            if out != text:
                return out
        return None  # pragma: no cover
    m = _IPV6.search(text)
    if m and ":" in m.group():
        for attempt in range(_ATTEMPTS):
            n = key.number("ipv6", norm, attempt)
            groups = [f"{(n >> (16 * i)) & 0xFFFF:x}" for i in range(6)]
            new = "2001:db8:" + ":".join(groups)
            if m.group().isupper():
                new = new.upper()
            out = text[:m.start()] + new + text[m.end():]
            if out.casefold() != norm:
                return out
    return shape_map(key, "ip", text)


#: The number words of ``lists/number_words.tsv``: zero to nineteen by value, the tens by digit.
_ONES = [w for w, v in sorted(_lists.number_words().items(), key=lambda wv: wv[1]) if v < 20]
_TENS = {v // 10: w for w, v in _lists.number_words().items() if 20 <= v < 100}
_WORD_VALUES = {w: i for i, w in enumerate(_ONES)} | {w: 10 * t for t, w in _TENS.items()}
_AGE_WORDS = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(sorted(list(_WORD_VALUES) + ["hundred"], key=len, reverse=True))
    + r")(?:(?:[\s\-]+|\s+and\s+)(?:" + "|".join(sorted(list(_WORD_VALUES) + ["hundred"], key=len, reverse=True))
    + r"))*(?![^\W\d_])", re.I)


def age_words(n: int, hyphen: str = "-", and_: bool = False) -> str:
    """``n`` (0-999) in English words, lower case: ``94`` -> ``ninety-four``,
    ``101`` -> ``one hundred one`` (``one hundred and one`` with ``and_``)."""
    if n >= 100:
        head = _ONES[n // 100] + " hundred"
        rest = n % 100
        return head if not rest else head + (" and " if and_ else " ") + age_words(rest, hyphen)
    if n < 20:
        return _ONES[n]
    tens = _TENS[n // 10]
    return tens if n % 10 == 0 else tens + hyphen + _ONES[n % 10]


def _words_value(phrase: str) -> int:
    total = 0
    for w in re.split(r"[\s\-]+", phrase.lower()):
        if w == "hundred":
            total = max(total, 1) * 100
        elif w != "and":
            total += _WORD_VALUES[w]
    return total


def _age_band(value: int, digits: int) -> range:
    """The ages a fake for an age under 90 is drawn from: 1-9 for one digit, else 10-89."""
    return range(1 if digits == 1 else 10, 10 if digits == 1 else 90)


#: A decade in digits: ``90s``, ``90's``, ``100s`` (the number ends in 0).
_DECADE_DIGITS = re.compile(r"(?<!\d)(?P<n>[1-9]\d?0)(?P<s>['’]?s)(?![^\W\d_])", re.I)
#: ``teens`` ... ``nineties`` (``lists/number_words.tsv``, kind decade), youngest first.
_DECADE_WORDS = _lists.decade_words()
_DECADE_WORD = re.compile(r"(?<![^\W\d_])(?:" + "|".join(_DECADE_WORDS) + r")(?![^\W\d_])", re.I)
#: The Safe Harbor aggregate written out: ``90+``, ``>89``, ``over 89``, ``90 or older``.
_AGE_AGGREGATE = re.compile(
    r"(?:(?<!\d)(?:9\d|1\d\d)\s*\+|(?:>\s*=?|\bover\s+|\bolder\s+than\s+)(?:89|9\d|1\d\d)(?!\d)"
    r"|(?<!\d)(?:9\d|1\d\d)\s+(?:or|and)\s+(?:older|over|above)\b)", re.I)


#: What a surrogate writes for an age over 89 (the Safe Harbor category; the same text as
#: :data:`deid_core.safe_harbor.AGE_AGGREGATE`).
AGE_OVER_89 = "90+"


def is_age_category(text: str) -> bool:
    """True when ``text`` states an age only as a band at or over 90 that it is safe to keep as
    written: a decade (``90s``, ``90's``, ``nineties``, ``100s``) or the Safe Harbor aggregate
    itself (``90+``, ``>89``, ``over 89``, ``90 or older``). Such a span reveals at most a
    10-year band, never the age, so :func:`fake_age` returns it unchanged."""
    if _AGE_AGGREGATE.search(text):
        return True
    m = _DECADE_DIGITS.search(text)
    if m:
        return int(m.group("n")) >= 90 and not re.search(r"\d", text[:m.start()] + text[m.end():])
    m = _DECADE_WORD.search(text)
    return bool(m) and m.group().lower() == "nineties" and not re.search(r"\d", text)


def fake_age(key: LinkageKey, text: str) -> str | None:
    """An age over 89 (digits or words) becomes ``90+`` in its place (``92 yo`` -> ``90+ yo``);
    an age under 90 becomes another in the same band and form (digits stay digits, words stay
    words in the same case). A decade stays a decade (``40s`` -> ``70s``, ``forties`` ->
    ``seventies``); a band at or over 90 (:func:`is_age_category`) is returned unchanged."""
    if is_age_category(text):
        return text
    m = _DECADE_DIGITS.search(text)
    if m:
        value = int(m.group("n"))
        band = tuple(d for d in range(10, 90, 10) if d != value)
        new = key.choice(band, "age:decade", str(value))
        return text[:m.start("n")] + str(new) + text[m.end("n"):]
    m = _DECADE_WORD.search(text)
    if m:
        word = m.group().lower()
        band = tuple(w for w in _DECADE_WORDS[:-1] if w != word)
        new = key.choice(band, "age:decade", word)
        return text[:m.start()] + format_like_case(new, m.group()) + text[m.end():]
    m = re.search(r"\d+", text)
    if m and len(m.group()) <= 3:
        value = int(m.group())
        if value >= 90:
            return text[:m.start()] + AGE_OVER_89 + text[m.end():]
        band = tuple(v for v in _age_band(value, len(m.group())) if v != value)
        new = key.choice(band, "age", str(value))
        return text[:m.start()] + str(new) + text[m.end():]
    m = None if m else _AGE_WORDS.search(text)
    if m:
        phrase = m.group()
        value = _words_value(phrase)
        if value >= 90:
            return text[:m.start()] + AGE_OVER_89 + text[m.end():]
        band = tuple(v for v in _age_band(value, 2 if value >= 10 else 1) if v != value)
        new = key.choice(band, "age", str(value))
        hyphen = " " if re.search(r"[a-z]\s+[a-z]", phrase.lower()) and "-" not in phrase else "-"
        words = age_words(new, hyphen, " and " in phrase.lower())
        return text[:m.start()] + format_like_case(words, phrase) + text[m.end():]
    return shape_map(key, "age", text)


# ------------------------------------------------------------------------------- phones ---
#: A leading country code: ``+1``, ``+44``, ``001``/``011`` international prefixes are not
#: treated as country codes (they are shape-mapped with the rest).
_COUNTRY = re.compile(r"\s*\(?\+\s?(?P<cc>\d{1,3})\)?(?=[\s.\-(/]|$)")
#: A trailing extension: ``x204``, ``ext. 12``, ``extension 7``, ``#3``.
_EXTENSION = re.compile(r"(?i:\s*(?:x|ext\.?|extn\.?|extension|#)\s*)(?P<ext>\d{1,6})\s*$")


#: Toll-free area codes: kept as written (a business line; the line number is still faked).
TOLL_FREE: frozenset[str] = frozenset({"800", "833", "844", "855", "866", "877", "888"})


def _nanp_area_ok(area: str) -> bool:
    return area[0] in "23456789" and area[1] != "9" and area[1:] != "11"


def _nanp_digits(key: LinkageKey, purpose: str, seed: str, attempt: int, n: int) -> str:
    """Keyed NANP digits: ``n`` = 10 (area, ``555``, ``01xx``) or 7 (``555``, ``01xx``)."""
    rnd = _stream(key, purpose, seed, attempt, 8)
    line = "01" + str(rnd[3] % 10) + str(rnd[4] % 10)
    if n == 7:
        return "555" + line
    if seed[:3] in TOLL_FREE:
        return seed[:3] + "555" + line
    for i in range(0, 6, 3):  # two tries within one stream before the next attempt
        area = str(2 + rnd[i] % 8) + str(rnd[i + 1] % 9) + str(rnd[i + 2] % 10)
        if _nanp_area_ok(area):
            return area + "555" + line
    return "201555" + line


def fake_phone(key: LinkageKey, purpose: str, text: str,
               keep_words: frozenset[str] = frozenset()) -> str | None:
    """A fake phone/fax number keeping the layout of ``text``.

    A country code written ``+CC`` is kept as written, as is the leading ``1`` of an 11-digit
    number (``1-800-...``). When the rest has 10 digits (with no country code, or ``1``) or 7
    digits (no country code), it becomes a North American number of valid shape: area code
    first digit 2-9, middle digit 0-8, not ``N11`` (a toll-free one, :data:`TOLL_FREE`, is
    kept); exchange ``555``; line ``0100``-``0199`` (the range reserved for fiction). Other
    numbers are shape-mapped (:func:`shape_map`). An extension (``x204``) is shape-mapped; label words in ``keep_words`` (``tel``, ``fax``) stay;
    a span with any other word is shape-mapped whole. The digits are keyed from the number's
    digits alone (country code and extension apart), so ``+1 617 555 0142`` and
    ``(617) 555-0142`` get the same fake.

    Returns:
        The fake, or ``None`` when no different value can be made (no digit or letter).
    """
    first = re.search(r"[+\d]", text)
    lead = first.start() if first else 0
    cc_m = _COUNTRY.match(text, lead)
    head = cc_m.end() if cc_m else lead
    cc = cc_m.group("cc") if cc_m else None
    ext_m = _EXTENSION.search(text, max(head, len(text) - 40))  # bounded: no quadratic scan
    tail = ext_m.start() if ext_m else len(text)
    body = text[head:tail]
    positions = [head + i for i, c in enumerate(body) if c.isdigit()]
    digits = "".join(text[i] for i in positions)
    if cc is None and len(digits) == 11 and digits[0] == "1":  # 1-617-555-0142, +16175550142
        cc, positions, digits = "1", positions[1:], digits[1:]
    nanp = (len(digits) == 10 and cc in (None, "1")) or (len(digits) == 7 and cc is None)
    ext = ext_m.group("ext") if ext_m else ""
    words = [w.casefold() for w in re.findall(r"[^\W\d_]+", text[:lead] + body)]
    if any(w not in keep_words for w in words):
        return shape_map(key, purpose, text, keep_words)
    if not nanp:
        new_body = shape_map(key, purpose, body) or body
        new_ext = (shape_map(key, purpose + ":ext", ext) or ext) if ext_m else ""
        out = (text[:head] + new_body
               + (text[tail:ext_m.start("ext")] + new_ext + text[ext_m.end("ext"):] if ext_m else ""))
        return out if out != text else shape_map(key, purpose, text, keep_words)
    for attempt in range(_ATTEMPTS):
        new = _nanp_digits(key, purpose, digits, attempt, len(digits))
        if new == digits:
            continue
        chars = list(text)
        for i, d in zip(positions, new):
            chars[i] = d
        if ext_m:
            new_ext = shape_map(key, purpose + ":ext", ext) or ext
            chars[ext_m.start("ext"):ext_m.end("ext")] = list(new_ext)
        return "".join(chars)
    return None  # pragma: no cover - 100 lines x 700 area codes
