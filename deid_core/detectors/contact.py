"""CONTACT detector: phone, fax and pager numbers, email addresses, URLs, IPv4 and IPv6.

Finds (source ``contact:<pattern>``):

* ``phone_us``: ``(617) 555-0199``, ``617-555-0199``, ``617.555.0199``, ``+1 617 555 0199``,
  with an extension (``x123``, ``ext. 45``) inside the span, also glued to a label
  (``ph:617-555-0199``, ``Tel617-555-0199``). Space-only separators are certain after a phone
  label, review otherwise; ten bare digits (``6175550199``) only after a phone label.
* ``phone_intl``: ``+44 20 7946 0958`` (8-15 digits after ``+``).
* ``phone_trunk``: numbers with a trunk 0 (``07700 900461``, ``020 7946 0958``): certain after a
  phone label or before ``(mobile)``/``(home)``..., review otherwise.
* ``phone_local``: ``555-0199`` (certain after a phone label, review otherwise; ``555 0199`` only
  after a label); ``pager``:
  ``pager 3-4412``, ``pgr #4412``; ``extension``: ``call x4412``.
* The label becomes ``FAX`` when the nearest label before the number (same line) is a fax
  label (``fax``, ``F:``, ``(f)``) or ``(fax)`` follows it.
* ``email``, ``url`` (``http(s)://``, ``ftp://``, ``www.``, bare domains with a common TLD such
  as ``example.org/path``; trailing sentence punctuation left out), ``ipv4`` (octets 0-255),
  ``ipv6`` (full and compressed, checked by :mod:`ipaddress`).

A label may sit at the end of the previous line (``Phone:\n617-555-0199``).
Not contact: lab values, doses, dates, times, ranges (they lack these shapes).
"""
from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from ..document import Document
from ..spans import CERTAIN, REVIEW, Span
from .patterns import Emitter, line_before

__all__ = ["detect"]

_EXT = r"(?P<ext>[ \t]{0,2},?[ \t]{0,2}(?:ext(?:ension)?\.?|x|#)[ \t.:]{0,2}\d{1,6})?"
# Speed: patterns start with a literal, a digit or a small class so Python's re can skip ahead;
# the "not preceded by" checks run in Python on the few hits (see _clear_before).
_REST = (r"(?:\((?P<pa>\d{3})\)[ \t]{0,2}-?[ \t]{0,2}|(?P<a>\d{3})(?P<s1>[ \t]{0,2}[.\-/][ \t]{0,2}|[ \t]{1,2}|))"
         r"(?P<x>\d{3})(?P<s2>[ \t]{0,2}[.\-][ \t]{0,2}|[ \t]{1,2}|)(?P<l>\d{4})" + _EXT + r"(?![\d]|[.\-/]\d)")
_PHONE_CC = re.compile(r"(?P<cc>\+1[ \t.-]{0,2}|1[ \t.-]{1,2})" + _REST, re.I)
_PHONE_US = re.compile(_REST, re.I)
_PHONE_INTL = re.compile(r"\+(?!1[ \t.(-]?\(?\d{3}\)?[ \t.-]?\d{3}[ \t.-]?\d{4}(?!\d))"
                         r"\d{1,3}(?:[ \t.-]{0,2}\(?\d{1,5}\)?){1,5}(?![\d])")
#: Numbers written with a leading trunk 0 (UK, Europe): ``07700 900461``, ``020 7946 0958``,
#: ``0490 75 40 81``, ``03.93.92.16.85``; 10-11 digits in all.
_PHONE_TRUNK = re.compile(r"0(?<![\w\-./+]0)\d{1,4}(?:[ \t.]?\d{2,4}){2,4}(?![\d\-]|[./]\d)")
_TYPE_AFTER = re.compile(r"[ \t]{0,2}\(?(?:mobile|cell|home|work|landline|office)\b", re.I)
_PHONE_LOCAL = re.compile(r"(?P<n>\d{3}(?P<ls>[- ])\d{4})" + _EXT + r"(?![\d\-]|[./]\d)", re.I)
_PAGER = re.compile(
    r"(?:[Pp]ager|PAGER|[Pp]gr|PGR|[Bb]eeper|BEEPER|[Bb]pr|BPR|[Pp]age|PAGE)\b(?i:[ \t]{0,2}(?:#|no\.?|number)?[ \t:#.]{0,3})"
    r"(?P<n>\d{1,3}-\d{4,5}|\d{4,7})(?![\d\-]|\.\d)")
_X_EXTENSION = re.compile(r"[Xx][ \t]?(?P<n>\d{3,6})(?!\d)")
_EXT_EXTENSION = re.compile(r"[Ee][Xx][Tt](?:[Ee][Nn][Ss][Ii][Oo][Nn])?\.?[ \t]{0,2}(?P<n>\d{3,6})(?!\d)")

_EMAIL_LOCAL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}$")
_EMAIL_DOMAIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}\.){1,8}[A-Za-z]{2,24}(?![\w\-])")
_URL_CHARS = r"[^\s<>\"'`{}|\\^\[\]]"
_URL = re.compile(
    r"(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp]|[Ss][Ff][Tt][Pp])://" + _URL_CHARS + r"{1,2000}|[Ww]{3}\." + _URL_CHARS + r"{1,2000}")
_TLDS = ("com|org|net|edu|gov|mil|io|info|biz|us|uk|ca|au|de|fr|nl|eu|health|co\\.uk|org\\.uk|"
         "nhs\\.uk|gov\\.uk|ac\\.uk")
_BARE_DOMAIN = re.compile(
    r"(?<![\w@./\-])(?:[A-Za-z0-9][A-Za-z0-9\-]{0,62}\.){1,6}(?:" + _TLDS + r")(?![\w\-])"
    r"(?:/" + _URL_CHARS + r"{0,2000})?", re.I)
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_IPV4 = re.compile(r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\w]|\.\d)")
_OCTET = re.compile(r"25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d")
_TLD_HINT = re.compile(r"\.(?:" + _TLDS + r")(?![\w\-])", re.I)
_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])")

_PHONE_LABEL = re.compile(
    r"(?:\b(?:phone|ph|tel|telephone|cell|cellphone|mobile|mob|home|work|office|contact|call|"
    r"calls?|reach|reached|number|num|pager|pgr|beeper|page|paged|fax|facsimile|voice|"
    r"landline|text|callback|cb|hotline|line)\b|\b[chwmopft]\b)\W{0,6}$|"
    r"(?:phone|ph|tel|cell|fax|pgr)$")
_FAX_LABELS = frozenset({"fax", "facsimile", "f", "(f)"})
_ANY_LABEL = re.compile(
    r"\b(?:fax|facsimile|f(?=[ \t]{0,2}[:#)])|phone|ph|tel|telephone|cell|mobile|home|work|office|"
    r"pager|pgr|beeper|call|contact|voice|[chwmop](?=[ \t]{0,2}[:#)]))|\(f\)|"
    r"(?:phone|ph|tel|cell|fax|pgr)(?=\d)")
_FAX_AFTER = re.compile(r"[ \t]{0,2}[(\[]?[ \t]{0,2}(?:fax|f)\b", re.I)
_TRAIL = ".,;:!?'\")]}>"


def _clear_before(text: str, start: int, bad: str) -> bool:
    """True when the character before ``start`` is not a letter/digit/underscore nor in ``bad``."""
    if start == 0:
        return True
    ch = text[start - 1]
    return not (ch.isalnum() or ch == "_" or ch in bad)


def _labelled(text: str, start: int) -> bool:
    return _PHONE_LABEL.search(line_before(text, start, 30)) is not None


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


def _phones(e: Emitter, text: str) -> None:
    for regex in (_PHONE_CC, _PHONE_US):
        for m in regex.finditer(text):
            start = m.start()
            if start and (text[start - 1].isdigit() or text[start - 1] in "+-./"):
                continue
            s1 = m["s1"] if m["a"] else "()"
            s2 = m["s2"]
            cc = m.groupdict().get("cc")
            labelled = _labelled(text, start)
            if s1 == "" and s2 == "":
                if not labelled:
                    continue                   # ten bare digits: the ids detector reviews them
                tier = CERTAIN
            elif s1 == "" or s2 == "":
                if not (labelled or m["pa"]):
                    continue                   # 617555-0199 and the like: odd shape
                tier = CERTAIN
            elif (s1.strip() == "" or s2.strip() == "") and not (labelled or cc or m["pa"]):
                tier = REVIEW                  # 617 555 0199 without a label
            else:
                tier = CERTAIN
            e.add(start, m.end(), _phone_label(text, start, m.end()), tier, "phone_us")
    if "+" in text:
        for m in _PHONE_INTL.finditer(text):
            digits = sum(ch.isdigit() for ch in m.group())
            if 8 <= digits <= 15 and _clear_before(text, m.start(), "+"):
                e.add(m.start(), m.end(), _phone_label(text, m.start(), m.end()), CERTAIN, "phone_intl")
    low = text.lower()
    if "pag" in low or "pgr" in low or "beep" in low or "bpr" in low:   # cheap gate
        for m in _PAGER.finditer(text):
            if _clear_before(text, m.start(), ""):
                e.add(m.start("n"), m.end("n"), "PHONE", CERTAIN, "pager")
    for m in _PHONE_TRUNK.finditer(text):
        if 10 <= sum(ch.isdigit() for ch in m.group()) <= 11:
            labelled = _labelled(text, m.start()) or _TYPE_AFTER.match(text, m.end())
            e.add(m.start(), m.end(), _phone_label(text, m.start(), m.end()),
                  CERTAIN if labelled else REVIEW, "phone_trunk")
    for m in _PHONE_LOCAL.finditer(text):
        if _clear_before(text, m.start(), "-./"):
            labelled = _labelled(text, m.start())
            if m["ls"] == " " and not labelled:
                continue                       # "140 1023": two numbers unless a label says phone
            tier = CERTAIN if labelled else REVIEW
            e.add(m.start(), m.end(), _phone_label(text, m.start(), m.end()), tier, "phone_local")
    for regex in ((_X_EXTENSION, _EXT_EXTENSION) if "ext" in low else (_X_EXTENSION,)):
        for m in regex.finditer(text):
            if _clear_before(text, m.start(), "") and _labelled(text, m.start()):
                e.add(m.start(), m.end(), "PHONE", CERTAIN, "extension")


def _internet(e: Emitter, text: str) -> None:
    at = text.find("@")
    while at > 0:
        local = _EMAIL_LOCAL.search(text, max(0, at - 64), at)
        domain = _EMAIL_DOMAIN.match(text, at + 1) if local else None
        if domain and _clear_before(text, local.start(), ".%+-"):
            e.add(local.start(), domain.end(), "EMAIL", CERTAIN, "email")
        at = text.find("@", at + 1)
    low = text.lower()
    low = text.lower()
    for m in (_URL.finditer(text) if "://" in text or "www." in low else ()):
        end = _strip_url(text, m.start(), m.end())
        if _clear_before(text, m.start(), "@") and any(ch.isalnum() for ch in text[m.start() + 4:end]):
            e.add(m.start(), end, "URL", CERTAIN, "url")
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
        if start == hint.start() or not _clear_before(text, start, "@./-"):
            continue
        m = _BARE_DOMAIN.match(text, start)
        if m is not None:
            e.add(m.start(), _strip_url(text, m.start(), m.end()), "URL", CERTAIN, "url_domain")
    for m in _IPV4.finditer(text):
        if _clear_before(text, m.start(), ".") and all(
                _OCTET.fullmatch(o) for o in m.group().split(".")):
            e.add(m.start(), m.end(), "IPADDR", CERTAIN, "ipv4")
    if "::" in text or text.count(":") >= 7:
        for m in _IPV6.finditer(text):
            cand = m.group()
            if "::" not in cand and cand.count(":") != 7:
                continue
            if sum(1 for g in cand.split(":") if g) < 2:
                continue
            try:
                ipaddress.IPv6Address(cand)
            except ValueError:
                continue
            e.add(m.start(), m.end(), "IPADDR", CERTAIN, "ipv6")


def detect(doc: Document) -> Iterable[Span]:
    """PHONE, FAX, EMAIL, URL and IPADDR spans in ``doc.text`` (see the module docstring).

    Returns:
        Non-overlapping spans sorted by start, source ``contact:<pattern>``.
    """
    text = doc.text
    e = Emitter("contact")
    _internet(e, text)
    _phones(e, text)
    return list(e)
