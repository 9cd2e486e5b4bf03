"""CONTACT detector: phone, fax and pager numbers, email addresses, URLs, IPv4 and IPv6.

The rules are a table (:data:`PATTERNS`, after :data:`_WEB_PATTERNS` and the bare host names of
:func:`_bare_domains`) run by :func:`~deid_core.detectors.patterns.run`; each rule is declared
above its validator (what each finds: ``docs/rules.md``). A phone's label becomes ``FAX`` when
the nearest label before the number (same line) is a fax label (``fax``, ``F:``, ``(f)``) or
``(fax)`` follows it; a label may sit at the end of the previous line (``Phone:\n617-555-0199``).
Label and other words: ``lists/contact_words.txt``. Not contact: lab values, doses, dates, times,
ranges (they lack these shapes).
"""
from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from .. import lists
from ..document import Document
from ..rules import Rule, rules_of
from ..spans import CERTAIN, REVIEW, Span
from .patterns import (Emitter, Hit, Pattern, Verdict, alternation, clear_before, label_before, line_before,
                       run)

__all__ = ["detect"]

_EXT = r"(?P<ext>[ \t]{0,2},?[ \t]{0,2}(?:ext(?:ension)?\.?|x|#)[ \t.:]{0,2}\d{1,6})?"
# Speed: patterns start with a literal, a digit or a small class so Python's re can skip ahead;
# the "not preceded by" checks run in Python on the few hits (see _clear_before).
_PAREN_AREA = r"(?P<pa>\d{3})\)[ \t]{0,2}-?[ \t]{0,2}"          # after the "(" of "(617) "
_AREA_SEP = r"(?P<s1>[ \t]{0,2}[.\-/][ \t]{0,2}|[ \t]{1,2}|)"
_LINE = (r"(?P<x>\d{3})(?P<s2>[ \t]{0,2}[.\-/][ \t]{0,2}|[ \t]{1,2}|)(?P<l>\d{4})" + _EXT
         + r"(?![\d]|[.\-/]\d)")
_REST = r"(?:\(" + _PAREN_AREA + r"|(?P<a>\d{3})" + _AREA_SEP + ")" + _LINE
_PHONE_CC = re.compile(r"(?P<cc>\+1[ \t.-]{0,2}|1[ \t.-]{1,2})" + _REST, re.I)
#: ``_REST`` with its first character (the ``(`` of ``(617)`` or the area code's first digit)
#: matched by one class before the two branches, each of which looks back at it: the same
#: matches, but a regex led by a class skips at once to the characters it can start with
#: (one led by two branches is tried at every position: three times the cost of the scan).
#: Its group ``a`` holds the area code's last two digits (only whether it matched is read).
_PHONE_US = re.compile(r"[(\d](?:(?<=\()" + _PAREN_AREA + r"|(?<=\d)(?P<a>\d\d)" + _AREA_SEP + ")" + _LINE, re.I)
#: Possessive groups: digits are never re-split among the groups after a failure, so a long
#: digit run after ``+`` costs one pass (linear).
_PHONE_INTL = re.compile(r"\+(?!1[ \t.(-]?\(?\d{3}\)?[ \t.-]?\d{3}[ \t.-]?\d{4}(?!\d))"
                         r"\d{1,3}+(?:[ \t.-]{0,2}+\(?\d{1,5}+\)?){1,5}+(?![\d])")
#: Numbers written with a leading trunk 0 (UK, Europe): ``07700 900461``, ``020 7946 0958``,
#: ``0490 75 40 81``, ``03.93.92.16.85``; 10-11 digits in all.
_PHONE_TRUNK = re.compile(r"0(?<![\w\-./+]0)\d{1,4}(?:[ \t.]?\d{2,4}){2,4}(?![\d\-]|[./]\d)")
#: A number in brackets with one digit too many in a group (``(301 555 01993)``,
#: ``(240555-1243)``): a mistyped phone, review.
_PHONE_TYPO = re.compile(r"\((?P<n>\d{3}[ \t.\-]\d{3}[ \t.\-]\d{5}|\d{3}[ \t.\-]\d{4}[ \t.\-]\d{4}|\d{6}-\d{4}"
                         r"|\d{4}[ \t.\-]\d{3}[ \t.\-]\d{4})\)")
#: Words of ``lists/contact_words.txt`` by use (``label``, ``fax``, ``tld`` ...).
_WORDS = "contact_words.txt"
_TYPE_AFTER = re.compile(r"[ \t]{0,2}\(?(?:" + alternation(lists.tagged(_WORDS, "type_after")) + r")\b", re.I)
_PHONE_LOCAL = re.compile(r"(?P<n>\d\d{2}(?P<ls>[- ])\d{4})" + _EXT + r"(?![\d\-]|[./]\d)", re.I)
_PAGER = re.compile(
    r"(?:" + alternation(f for w in lists.tagged(_WORDS, "pager") for f in (w, w.title(), w.upper()))
    + r")\b(?i:[ \t]{0,2}(?:#|no\.?|number)?[ \t:#.]{0,3})"
    r"(?P<n>\d{1,3}-\d{4,5}|\d{4,7})(?![\d\-]|\.\d)")
_X_EXTENSION = re.compile(r"[Xx][ \t]?(?P<n>\d{3,6})(?!\d)")
_EXT_EXTENSION = re.compile(r"[Ee][Xx][Tt](?:[Ee][Nn][Ss][Ii][Oo][Nn])?\.?[ \t]{0,2}(?P<n>\d-\d{4}|\d{3,6})(?![\d-])")

_EMAIL_LOCAL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}$")
# labels of one or more characters: "A@OX3...APPROPRIATE" (alert and oriented) is no address
_EMAIL_DOMAIN = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.){1,8}[A-Za-z]{2,24}(?![\w\-])")
_URL_CHARS = r"[^\s<>\"'`{}|\\^\[\]]"
_URL = re.compile(
    r"(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp]|[Ss][Ff][Tt][Pp])://" + _URL_CHARS + r"{1,2000}|[Ww]{3}\." + _URL_CHARS + r"{1,2000}")
#: The ``tld`` words, one-label ones first (``.co`` before ``.co.uk``, as a hint ends there).
_TLDS = (alternation(w for w in lists.tagged(_WORDS, "tld") if "." not in w) + "|"
         + alternation(w for w in lists.tagged(_WORDS, "tld") if "." in w))
_BARE_DOMAIN = re.compile(
    r"(?<![\w@./\-])(?:[A-Za-z0-9][A-Za-z0-9\-]{0,62}\.){1,6}(?:" + _TLDS + r")(?![\w\-])"
    r"(?:/" + _URL_CHARS + r"{0,2000})?", re.I)
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_IPV4 = re.compile(r"\d\d{0,2}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?:/(?:3[0-2]|[12]?\d)(?!\d))?(?![\w]|\.\d)")
_OCTET = re.compile(r"25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d")
_TLD_HINT = re.compile(r"\.(?:" + _TLDS + r")(?![\w\-])", re.I)
#: IPv6, with an IPv4 tail (``::ffff:203.0.113.7``), a zone (``%eth1``) and a prefix (``/64``).
_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?P<v4>(?:\.\d{1,3}){3})?"
                   r"(?P<zone>%[0-9A-Za-z_.\-]{1,32})?(?P<pfx>/\d{1,3}(?!\d))?(?![\w:])")
#: Two colons with at most four hex digits between them, which every match of :data:`_IPV6`
#: holds: a note without it skips that scan (clock times ``12:30`` alone have no such pair).
_IPV6_PAIR = re.compile(r":[0-9A-Fa-f]{0,4}:")

#: A phone label before the number (``label`` words, a one-letter label ``c``/``h``/``w``...),
#: or one glued to it (``glued``: ``ph6175550144``).
_GLUED = alternation(lists.tagged(_WORDS, "glued"))
_PHONE_LABEL = re.compile(
    r"(?:\b(?:" + alternation(lists.tagged(_WORDS, "label")) + r")\b|(?<![\w/])[chwmopft]\b)\W{0,6}$|"
    r"(?:" + _GLUED + r")$")
#: The ``fax`` words and the one-letter fax labels ``f``, ``(f)``.
_FAX_LABELS = frozenset(lists.tagged(_WORDS, "fax")) | {"f", "(f)"}
_ANY_LABEL = re.compile(
    r"\b(?:" + alternation(lists.tagged(_WORDS, "any_label")) + r"|f(?=[ \t]{0,2}[:#)])|"
    r"[chwmop](?=[ \t]{0,2}[:#)]))|\(f\)|(?:" + _GLUED + r")(?=\d)")
_FAX_AFTER = re.compile(r"[ \t]{0,2}[(\[]?[ \t]{0,2}(?:fax|f)\b", re.I)
_TRAIL = ".,;:!?'\")]}>"


def _labelled(text: str, start: int) -> bool:
    return label_before(text, start, _PHONE_LABEL)


def _phone_label(text: str, start: int, end: int) -> str:
    """``FAX`` when the nearest label before the number is a fax label (or ``(fax)`` follows)."""
    before = line_before(text, start, 40)
    last = None
    for last in _ANY_LABEL.finditer(before):
        pass
    if last is not None and last.group() in _FAX_LABELS:
        return "FAX"
    if _FAX_AFTER.match(text, end):
        return "FAX"
    return "PHONE"


def _strip_url(text: str, start: int, end: int) -> int:
    """End offset with trailing sentence punctuation removed (a ``)`` stays when the URL holds
    its ``(``)."""
    opened = text.count("(", start, end)
    closed = text.count(")", start, end)
    while end > start and text[end - 1] in _TRAIL:
        if text[end - 1] == ")":
            if opened >= closed:
                break
            closed -= 1
        end -= 1
    return end


# --------------------------------------------------------------------------------------------
# Validators: one per pattern, ``f(match) -> Verdict`` (see patterns.Pattern)
# --------------------------------------------------------------------------------------------

_PHONES = ("PHONE", "FAX")
_CR = (CERTAIN, REVIEW)
_DIGITS_AMBER = "the digits may be another kind of number"
PHONE_US = Rule("contact:phone_us", _PHONES, _CR, "a US phone number", amber=_DIGITS_AMBER,
                reads=(_WORDS,))


def _phone_us(m: re.Match[str]) -> Verdict:
    text, start = m.string, m.start()
    if start and (text[start - 1].isdigit() or text[start - 1] in "+./" or (
            text[start - 1] == "-" and not (start >= 2 and text[start - 2].isalpha()))):
        return None                            # "HOME-410 555 0199": a label glued by a dash
    if "/" in m["s2"] and "/" not in (m["s1"] or ""):
        return None
    s1 = m["s1"] if m["a"] else "()"
    s2 = m["s2"]
    cc = m.groupdict().get("cc")
    labelled = _labelled(text, start)
    if s1 == "" and s2 == "":
        if not labelled:
            return None                        # ten bare digits: the ids detector reviews them
        tier = CERTAIN
    elif s1 == "" or s2 == "":
        if labelled or m["pa"]:
            tier = CERTAIN
        elif text[start - 1:start] != "(" and _nanp(m) and not _letter_after(text, m.end()) \
                and not _NUMBER_BEFORE.search(
                line_before(text, start, 12)):
            tier = REVIEW                      # 617448-2093, 508 6641920: an area code run in
        else:
            return None                        # odd shape after a number: two values
    elif (s1.strip() == "" or s2.strip() == "") and not (labelled or cc or m["pa"]):
        tier = REVIEW                          # 617 555 0199 without a label
    else:
        tier = CERTAIN
    return Hit(start, m.end(), tier, _phone_label(text, start, m.end()))


#: A number (or a value with its unit) just before: ``Plt 223 4561234`` is two values.
_NUMBER_BEFORE = re.compile(r"\d[\w.%/]*[ \t]{1,2}$")


def _nanp(m: re.Match[str]) -> bool:
    """Whether the area code and exchange of a ``_PHONE_US`` match can be North American
    numbers (each starts with 2-9)."""
    digits = [ch for ch in m.group() if ch.isdigit()]
    if m.groupdict().get("cc"):
        digits = digits[1:]
    return len(digits) >= 10 and digits[0] >= "2" and digits[3] >= "2"


PHONE_INTL = Rule("contact:phone_intl", _PHONES, (CERTAIN,),
                  "an international phone number after + (+44 20 7946 0958)", reads=(_WORDS,))


def _phone_intl(m: re.Match[str]) -> Verdict:
    digits = sum(ch.isdigit() for ch in m.group())
    if 8 <= digits <= 15 and clear_before(m.string, m.start(), "+"):
        return Hit(m.start(), m.end(), label=_phone_label(m.string, m.start(), m.end()))
    return None


PAGER = Rule("contact:pager", ("PHONE",), (CERTAIN,), "a pager number after a pager word (pgr #4412)",
             reads=(_WORDS,))


def _pager(m: re.Match[str]) -> Verdict:
    return Hit(m.start("n"), m.end("n")) if clear_before(m.string, m.start()) else None


PHONE_TRUNK = Rule("contact:phone_trunk", _PHONES, _CR, "a phone number with a trunk prefix",
                   amber=_DIGITS_AMBER, reads=(_WORDS,))


def _phone_trunk(m: re.Match[str]) -> Verdict:
    if not 10 <= sum(ch.isdigit() for ch in m.group()) <= 11:
        return None
    text = m.string
    labelled = _labelled(text, m.start()) or _TYPE_AFTER.match(text, m.end())
    return Hit(m.start(), m.end(), CERTAIN if labelled else REVIEW,
               _phone_label(text, m.start(), m.end()))


def _letter_after(text: str, end: int) -> bool:
    return end < len(text) and text[end].isalpha()


def _number_range(n: str) -> bool:
    """``500-1000``, ``100-1112``: a low round number, then a higher one."""
    a, b = int(n[:3]), int(n[4:])
    return b > a and (a % 10 == 0 or b % 100 == 0)


PHONE_LOCAL = Rule("contact:phone_local", _PHONES, _CR, "a seven-digit phone number",
                   amber="seven digits may be another kind of number", reads=(_WORDS,))


def _phone_local(m: re.Match[str]) -> Verdict:
    text = m.string
    if not clear_before(text, m.start(), "-./"):
        return None
    labelled = _labelled(text, m.start())
    if m["ls"] == " " and not labelled:
        return None                            # "140 1023": two numbers unless a label says phone
    if not labelled and (_letter_after(text, m.end()) or _number_range(m["n"])):
        return None                            # "500-1000", "900-1000cc": a range of numbers
    return Hit(m.start(), m.end(), CERTAIN if labelled else REVIEW,
               _phone_label(text, m.start(), m.end()))


PHONE_TYPO = Rule("contact:phone_typo", _PHONES, (CERTAIN,),
                  "a phone number in brackets typed with a digit too many or its groups run together",
                  reads=(_WORDS,))


def _phone_typo(m: re.Match[str]) -> Verdict:
    return Hit(m.start("n"), m.end("n"), label=_phone_label(m.string, m.start(), m.end()))


EXTENSION = Rule("contact:extension", ("PHONE",), (CERTAIN,),
                 "a phone extension after a phone label (call x4412)", reads=(_WORDS,))


#: A phone label and up to two short words before an extension (``call back at x317``,
#: ``paged cards fellow x4412``).
_EXT_LABEL_NEAR = re.compile(
    r"\b(?:" + alternation(lists.tagged(_WORDS, "label")) + r")\b(?:[ \t]{1,2}[a-z'’]{1,8}){0,2}[ \t:#.]{1,3}$")


#: A phone label anywhere on the line before (``Call 1-800-FLOWERS or 617-555-CALL``).
_LABEL_ON_LINE = re.compile(r"\b(?:" + alternation(lists.tagged(_WORDS, "label")) + r")\b")


def _extension(m: re.Match[str]) -> Verdict:
    text = m.string
    return clear_before(text, m.start()) and (
        _labelled(text, m.start()) or _EXT_LABEL_NEAR.search(line_before(text, m.start(), 40)) is not None)


#: Ten (or eleven, with the 1) digits each set apart by one space (``6 1 7 5 5 5 0 1 4 2``),
#: or seven after a phone label: a number written out so that no shape finds it.
_PHONE_SPACED = re.compile(r"\d(?<![\w.,/:-]\d)(?:[ \t]\d){6,10}(?![\w,/:]|\.\d|[ \t]\d)")
PHONE_SPACED = Rule("contact:phone_spaced", _PHONES, _CR,
                    "a phone number written with a space between digits (6 1 7 5 5 5 0 1 4 2)",
                    amber="single digits in a row may be a list of values", reads=(_WORDS,))


def _phone_spaced(m: re.Match[str]) -> Verdict:
    text, start = m.string, m.start()
    n = (m.end() - start + 1) // 2
    labelled = _labelled(text, start)
    if n not in (7, 10, 11) or (n == 7 and not labelled) or (n == 11 and text[start] != "1"):
        return None
    return Hit(start, m.end(), CERTAIN if labelled else REVIEW, _phone_label(text, start, m.end()))


#: ``1-800-FLOWERS``, ``617-555-CALL``: a toll-free code or an area code and exchange, then
#: capital letters for the last digits (seven after a toll-free code, as a keypad spells them).
_PHONE_VANITY = re.compile(
    r"(?:1[ \t.-]\(?8(?:00|33|44|55|66|77|88)\)?[ \t.-](?:[A-Z]{7}|[A-Z]{2}-[A-Z]{5}|[A-Z]{3}-[A-Z]{4}"
    r"|[A-Z]{4}-[A-Z]{3}|\d{3}-?[A-Z]{4})"
    r"|[2-9]\d\d-[2-9]\d\d-[A-Z]{4})(?![\w-])")
PHONE_VANITY = Rule("contact:phone_vanity", ("PHONE",), _CR,
                    "a phone number with letters for digits (1-800-FLOWERS, 617-555-CALL)",
                    amber="letters after a toll-free code may name a product rather than a number",
                    reads=(_WORDS,))


def _phone_vanity(m: re.Match[str]) -> Verdict:
    text, start = m.string, m.start()
    if not clear_before(text, start, "-./+"):
        return None
    labelled = _labelled(text, start) or _LABEL_ON_LINE.search(line_before(text, start, 40)) is not None
    return Hit(start, m.end(), CERTAIN if labelled else REVIEW)   # "Call 1-800-... or 617-555-CALL"


EMAIL = Rule("contact:email", ("EMAIL",), (CERTAIN,), "an e-mail address")


def _email(m: re.Match[str]) -> Verdict:
    text, at = m.string, m.start()
    if at == 0:
        return None
    local = _EMAIL_LOCAL.search(text, max(0, at - 64), at)
    domain = _EMAIL_DOMAIN.match(text, at + 1) if local else None
    if domain and clear_before(text, local.start(), ".%+-"):
        return Hit(local.start(), domain.end())
    return None


URL = Rule("contact:url", ("URL",), (CERTAIN,), "a web address (http://, www.)")


def _url(m: re.Match[str]) -> Verdict:
    text = m.string
    end = _strip_url(text, m.start(), m.end())
    if clear_before(text, m.start(), "@") and any(ch.isalnum() for ch in text[m.start() + 4:end]):
        return Hit(m.start(), end)
    return None


IPV4 = Rule("contact:ipv4", ("IPADDR",), (CERTAIN,), "an IPv4 address, with its prefix length")


def _ipv4(m: re.Match[str]) -> Verdict:
    return clear_before(m.string, m.start(), "./") and all(
        _OCTET.fullmatch(o) for o in m.group().split("/")[0].split("."))


IPV6 = Rule("contact:ipv6", ("IPADDR",), (CERTAIN,),
            "an IPv6 address, with its zone and prefix length")


def _ipv6(m: re.Match[str]) -> Verdict:
    cand = m.group()
    for g in ("pfx", "zone"):
        if m[g]:
            cand = cand[:len(cand) - len(m[g])]
    if m["pfx"] and int(m["pfx"][1:]) > 128:
        return None
    if "::" not in cand and cand.count(":") != (6 if m["v4"] else 7):
        return None
    groups = [g for g in cand.split(":") if g]
    if len(groups) < 2 and groups != ["1"]:           # "::1", the loopback, alone
        return None
    try:
        ipaddress.IPv6Address(cand)
    except ValueError:
        return None
    return True


URL_DOMAIN = Rule("contact:url_domain", ("URL",), (CERTAIN,),
                  "a host name ending with a common top-level domain (example.org/path)", reads=(_WORDS,))


def _bare_domains(e: Emitter, text: str) -> None:
    """``example.org/path``: a host name walked back from a common TLD (bounded), not already
    inside an email or URL."""
    prev_end = 0
    for hint in _TLD_HINT.finditer(text):
        floor, prev_end = max(prev_end, hint.start() - 253), hint.end()
        if not e.free(hint.start(), hint.end()):
            continue                               # inside an email or URL already found
        start = hint.start()                       # walk back over the host name (bounded)
        while start > floor and (text[start - 1] in _HOST_CHARS):
            start -= 1
        while start < hint.start() and not text[start].isalnum():
            start += 1
        if start == hint.start() or not clear_before(text, start, "@./-"):
            continue
        m = _BARE_DOMAIN.match(text, start)
        if m is not None:
            e.add(m.start(), _strip_url(text, m.start(), m.end()), "URL", CERTAIN, URL_DOMAIN)


_AT = re.compile("@")
#: Email and URLs; then bare domains (:func:`_bare_domains`); then the rest, in this order.
_WEB_PATTERNS: tuple[Pattern, ...] = (
    Pattern(EMAIL, _AT, "EMAIL", validator=_email),
    Pattern(URL, _URL, "URL", validator=_url, gate=("://", "www.")),
)
PATTERNS: tuple[Pattern, ...] = (
    Pattern(IPV6, _IPV6, "IPADDR", validator=_ipv6,
            gate=lambda t: ("::" in t or t.count(":") >= 6) and _IPV6_PAIR.search(t) is not None),
    Pattern(IPV4, _IPV4, "IPADDR", validator=_ipv4),
    Pattern(PHONE_US, _PHONE_CC, "PHONE", validator=_phone_us),
    Pattern(PHONE_US, _PHONE_US, "PHONE", validator=_phone_us),
    Pattern(PHONE_INTL, _PHONE_INTL, "PHONE", validator=_phone_intl, gate=("+",)),
    Pattern(PAGER, _PAGER, "PHONE", validator=_pager, gate=("pag", "pgr", "pg", "beep", "bpr")),
    Pattern(PHONE_TRUNK, _PHONE_TRUNK, "PHONE", validator=_phone_trunk),
    Pattern(PHONE_LOCAL, _PHONE_LOCAL, "PHONE", validator=_phone_local),
    Pattern(PHONE_TYPO, _PHONE_TYPO, "PHONE", CERTAIN, validator=_phone_typo),
    Pattern(PHONE_SPACED, _PHONE_SPACED, "PHONE", validator=_phone_spaced),
    Pattern(PHONE_VANITY, _PHONE_VANITY, "PHONE", validator=_phone_vanity),
    Pattern(EXTENSION, _X_EXTENSION, "PHONE", validator=_extension),
    Pattern(EXTENSION, _EXT_EXTENSION, "PHONE", validator=_extension, gate=("ext",)),
)

#: Every rule of the detector, in the order they run.
RULES = rules_of([*(p.rules for p in _WEB_PATTERNS), URL_DOMAIN, *(p.rules for p in PATTERNS)])


def detect(doc: Document) -> Iterable[Span]:
    """PHONE, FAX, EMAIL, URL and IPADDR spans in ``doc.text``.

    Returns:
        Non-overlapping spans sorted by start, source ``contact:<rule>`` (:data:`RULES`).
    """
    text = doc.text
    e = run(_WEB_PATTERNS, text, Emitter())
    _bare_domains(e, text)
    return list(run(PATTERNS, text, e))
