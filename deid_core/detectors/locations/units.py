"""Units inside a facility: rooms and beds (``Room 412`` gives ``412``), wards and departments
(``5 West``, ``Ward 7B``, ``Ellison 12 MICU``, ``Blackwood 9`` before a room). Each rule is
declared above the function that applies it.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ... import lists
from ...rules import Pass, Rule
from ...spans import CERTAIN, REVIEW, Span
from .lexicon import name_kind, strip_leading, Tables
from ..patterns import lead_alternation
from .text import (CAPW, DIRECTION, GAP, Word, after_title, after_words, note_may_hold,
                   norm, Note,
                   split_words, words_before)

#: After a ward or room number, a duration or quantity word means it is not a place
#: (``in ICU 3 days``, ``head of bed 30 degrees``).
#: The ``room`` words of ``lists/quantity_after_words.txt``, and ``°``, ``%``.
_NOT_AFTER_NUMBER = r"(?![ \t]*(?i:" + after_words("room") + r"|°|%))"
_ROOM_ID = r"[A-Za-z]{1,3}-\d{1,4}[A-Za-z]?|\d{1,4}[A-Za-z]?(?:-[A-Za-z0-9]{1,4})?|[A-HJ-Z](?:-?\d{1,3})?"
#: Room and bed words (``lists/room_words.txt``): any case, or only as the ``case`` column says.
_ROOM_ROWS = lists.read_list("room_words.txt").rows
#: The forms written in one case only (``OR``, ``Pod``, ``POD``), and the any-case words lower-cased
#: without a dot (``room``, ``rm``, ``ste``...): every match of :data:`_ROOM_RE` holds one.
_ROOM_CASED = tuple(f for r in _ROOM_ROWS if r[1] != "any" for c in r[1].split("+")
                    for f in ((r[0].title(),) if c == "title" else (r[0].upper(),)))
_ROOM_ANY = tuple(sorted({r[0].rstrip(".") for r in _ROOM_ROWS if r[1] == "any"}))
#: (each word's first character leads its branch, the look-behind after it: a faster scan)
_ROOM_KEYWORDS = (lead_alternation((r[0] for r in _ROOM_ROWS if r[1] == "any"), r"[\w]", GAP, ignorecase=True)
                  + "|" + lead_alternation(_ROOM_CASED, r"[\w]", GAP))
_ROOM_RE = re.compile(
    rf"(?P<kw>{_ROOM_KEYWORDS})"
    rf"[ \t]*(?:#|(?i:no\.?|number))?[ \t]*:?[ \t]*(?:\r?\n[ \t]*)?(?P<id>{_ROOM_ID})(?![\w])"
    + _NOT_AFTER_NUMBER)
_DEPT_DIR_RE = re.compile(rf"\d(?<![\w/.]\d)\d?[A-Z]?[ \t]?{DIRECTION}(?![\w])")


@lru_cache(maxsize=4)
def _dept_ward_re(ward_lead: str) -> re.Pattern:
    """``Ward 7B``, ``MICU 3``, ``Tower 2 West``, ``Ward B``: a ward word (``ward_lead``, from the
    list) and a number, or a letter after a space or ``#`` (``UNITS`` and ``MICUB`` are no ward);
    not the first letter or number of a slash abbreviation or a date (``SENT TO MICU D/T SEPSIS``,
    ``IN SICU S/P FALL``, ``back in MICU 4/9``) nor a clock time (``SICU 7 PM TO 7 AM``)."""
    return re.compile(
        rf"(?:{ward_lead})(?:[ \t]*#?[ \t]*\d{{1,2}}[A-Z]?|(?:[ \t]+#?|[ \t]*#)[ \t]*[A-Z]\d{{0,2}})"
        rf"(?:[ \t]?{DIRECTION})?"
        rf"(?![\w]|/\w){_NOT_AFTER_NUMBER}")


_DEPT_NUMBER_UNIT_RE = re.compile(
    r"\d(?<![\w/.:-]\d)\d?[A-Z]?[ \t]+(?:[A-Za-z-]{1,20}[ \t]+){0,2}"
    r"(?:ICU|MICU|SICU|CCU|CICU|NICU|PICU|Unit|unit|Ward|ward|Floor|floor)(?![\w])")
#: The unit words :data:`_DEPT_NUMBER_UNIT_RE` ends with (a note without one skips it).
_UNIT_LITERALS = ("ICU", "CCU", "Unit", "unit", "Ward", "ward", "Floor", "floor")
_DEPT_BEFORE_ROOM_RE = re.compile(
    rf"\d(?<![\w/.:-]\d)\d?[A-Z]?(?:[ \t]?{DIRECTION})?(?=[ \t]*,?[ \t]*(?i:rm|room|bed)\b)")
_DEPT_AFTER_ROOM_RE = re.compile(
    rf"(?:b(?<![\w]b)(?i:ed)|B(?<![\w]B)(?i:ed)|r(?<![\w]r)(?i:oom|m)|R(?<![\w]R)(?i:oom|m))[ \t]*#?[ \t]*[A-Za-z0-9-]{{1,6}},[ \t]*(?P<name>{CAPW}(?:[ \t]+{CAPW}){{0,2}})"
    rf"[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]?{DIRECTION})?(?![\w])")
_DEPT_ON_AT_RE = re.compile(
    rf"(?=[otf])(?<![\w])(?:on|to|from)[ \t]+(?P<name>{CAPW})[ \t]+\d{{1,2}}[A-Z]?(?=[ \t]+at[ \t]+\d{{3,4}})")

#: A room word that may follow a ward number (:data:`_DEPT_BEFORE_ROOM_RE`), in a lower-cased note.
_ROOM_AFTER_NUMBER_RE = re.compile(r"(?:rm|room|bed)\b")
#: The characters a match of :data:`_DEPT_BEFORE_ROOM_RE` can end with besides a digit: a capital
#: (``12B``) or the last letter of a compass word (``5 West``, ``5 NORTH``).
_NUMBER_END = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZhHtT")


def number_before_room(n: Note) -> bool:
    """False only when :data:`_DEPT_BEFORE_ROOM_RE` matches nowhere in the note: no room word
    (``rm``, ``room``, ``bed``, any case, a word boundary after it) has, before the blanks and
    the one comma that may precede it, a digit, a capital or a compass word's last letter (the
    only characters its match can end with). A cheap test before the scan (most notes with a
    bed or room have no ward number before it); True where ``n.low_exact`` is False."""
    if not n.low_exact:
        return True
    text, low = n.text, n.low
    for m in _ROOM_AFTER_NUMBER_RE.finditer(low):
        j = m.start()
        while j and low[j - 1] in " \t":
            j -= 1
        if j and low[j - 1] == ",":
            j -= 1
        while j and low[j - 1] in " \t":
            j -= 1
        if j and (text[j - 1].isdigit() or text[j - 1] in _NUMBER_END):
            return True
    return False


#: What every match of :data:`_DEPT_ON_AT_RE` ends with: a note without it skips that scan.
_AT_TIME_RE = re.compile(r"at[ \t]+\d{3}")


_D, _C = ("DEPARTMENT",), (CERTAIN,)
_NAME_LISTS = ("facility_stop_words.txt", "generic_service_words.txt")
DEPT_DIRECTION = Rule("locations:department:direction", _D, _C,
                 "a ward named by a number and a compass word (5 West, Glenview 5 West)", reads=_NAME_LISTS)
WARD = Rule("locations:department:ward", _D, _C, "a ward after a ward word (Ward 7B)",
            list="ward_words.txt", reads=_NAME_LISTS)
BUILDING_NUMBER_UNIT = Rule("locations:department:building_number_unit", _D, _C,
                            "a building's name and a number before a unit word (Ellison 12 MICU)",
                            list="unit_words.txt", reads=_NAME_LISTS)
BUILDING_NUMBER_ROOM = Rule("locations:department:building_number_room", _D, _C,
                            "a building's name and a number before a room (Blackwood 9, room 4)",
                            list="room_words.txt", reads=_NAME_LISTS)
AFTER_ROOM = Rule("locations:department:after_room", _D, _C,
                  "a building's name and a number after a room (Room 4, Ellison 12)",
                  list="room_words.txt", reads=_NAME_LISTS)
ON_NUMBER_AT = Rule("locations:department:on_number_at", _D, (REVIEW,),
                    "a name and a number after on and before a time (on Hale 5 at 0800)",
                    amber="a word and a number before a time may be a drug and its dose",
                    reads=_NAME_LISTS)


def departments(n: Note, t: Tables) -> Iterator[Span]:
    """Wards and departments (DEPARTMENT): ``5 West``, ``Ward 7B``, ``Ellison 12 MICU``,
    ``Blackwood 9`` before a room, ``Room 4, Ellison 12``, ``on Hale 5 at 0800`` (review)."""
    text = n.text

    def name_before(pos: int) -> list[Word]:
        words = strip_leading(words_before(n, pos))
        if words and name_kind(words, t.generic) == "distinct" and not after_title(text, words[0].start):
            return words
        return []

    low = n.low
    # Each pattern needs a literal word; a note without it skips the scan (same spans, faster).
    has_direction = any(d in low for d in ("north", "south", "east", "west"))
    has_unit = any(u in text for u in _UNIT_LITERALS)
    has_room = any(r in low for r in ("rm", "room", "bed"))
    for rx, rule in ((_DEPT_DIR_RE if has_direction else None, DEPT_DIRECTION),
                     (_dept_ward_re(t.ward_lead), WARD)):
        for m in rx.finditer(text) if rx else ():
            name = name_before(m.start())
            yield rule.span(name[0].start if name else m.start(), m.end())
    for rx, rule in ((_DEPT_NUMBER_UNIT_RE if has_unit else None, BUILDING_NUMBER_UNIT),
                     (_DEPT_BEFORE_ROOM_RE if has_room and number_before_room(n) else None,
                      BUILDING_NUMBER_ROOM)):
        for m in rx.finditer(text) if rx else ():
            if re.fullmatch(r"\d{1,2}[ \t]+(?i:units?)", m.group()):
                continue   # "Received 1 unit", "given 2 units": a quantity
            name = name_before(m.start())
            if not name and n.lower:
                lw = re.search(r"([a-z]{3,})[ \t]+$", text[max(0, m.start() - 32):m.start()])
                if lw and norm(lw.group(1)) not in t.generic | t.stop:
                    name = [Word(m.start() - len(lw.group()), m.start(), lw.group(1))]
            if name:
                yield rule.span(name[0].start, m.end())
    for rx, rule in ((_DEPT_AFTER_ROOM_RE if has_room else None, AFTER_ROOM),
                     (_DEPT_ON_AT_RE if _AT_TIME_RE.search(text) else None, ON_NUMBER_AT)):
        for m in rx.finditer(text) if rx else ():
            words = strip_leading(split_words(m.group("name"), m.start("name")))
            if not words or name_kind(words, t.generic) != "distinct":
                continue
            yield rule.span(words[0].start, m.end())



ROOM = Rule("locations:room", ("ROOM",), _C, "a room or bed number (Room 412, Bed 3)", list="room_words.txt",
            reads=("quantity_after_words.txt",))


def rooms(n: Note, t: Tables) -> Iterator[Span]:
    """The identifier after ``Room``/``Rm``/``Bed``/``Bay``/``Suite``/``Chair``/``Pod``, ``OR 7``."""
    text = n.text
    if not (note_may_hold(n, _ROOM_ANY) or any(f in text for f in _ROOM_CASED)):
        return   # no room keyword anywhere in the note
    for m in _ROOM_RE.finditer(text):
        kw = m.group("kw")
        ident = m.group("id")
        if kw in _ROOM_CASED:
            if kw == "OR" and (n.caps or not ident[0].isdigit() or
                               re.search(r"\d[ \t]*$", text[max(0, m.start() - 4):m.start()])):
                continue  # "1 OR 2 tablets", ALL-CAPS prose
            if kw in ("POD", "Pod") and not ident.isalpha():
                continue  # POD 1 is post-operative day 1
        if ident.isalpha() and kw.islower() and re.match(r"[ \t]+[a-z]", text[m.end():m.end() + 2]):
            continue  # "in bed A few ..." lower-case keyword, letter, then prose
        if ident.isalpha() and m.start("id") == m.end("kw"):
            continue  # "RML pneumonia", "RMs": a letter glued to the keyword is one word
        if re.fullmatch(r"[Xx]\d*", ident) or (n.caps and ident.isalpha()):
            continue  # "CHAIR X2" is twice; "BED P" in an ALL-CAPS note is shorthand
        yield ROOM.span(m.start("id"), m.end("id"))


#: The passes of this module, each with the rules it may give.
DEPARTMENTS_PASS = Pass(departments, (DEPT_DIRECTION, WARD, BUILDING_NUMBER_UNIT, BUILDING_NUMBER_ROOM,
                                      AFTER_ROOM, ON_NUMBER_AT))
ROOMS_PASS = Pass(rooms, (ROOM,))
