"""Shared building blocks for the shape-based detectors (dates, ages, contact, ids).

A shape detector is a table of :class:`Pattern` (its :class:`~deid_core.rules.Rule` or the rules
its validator chooses among, regex, label, tier, context words, validator) run in order by
:func:`run` into an :class:`Emitter`; :func:`label_before` is the one
"is there a label before the value" check and :func:`clear_before` the one "does the value start
a run" check. Pure data and small validators, standard library only. Every regex here is compiled once at
import and written so that no input can make it backtrack catastrophically: runs of word
characters are bounded, and patterns that begin with a character class are guarded by a
look-behind so a match can only start at the beginning of a run.
"""
from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Union

from .. import lists
from ..rules import Rule
from ..spans import CERTAIN, Span
from ..textview import ascii_twin, plain_ascii


def alternation(words: Iterable[str], space: str = r"[ \t]", count: Iterable[str] = ()) -> str:
    """Regex source (no groups) matching any of ``words`` (a word list's entries), longest first
    (ties alphabetical, duplicates once), each escaped, a space inside an entry written as ``space``
    (``r"[ \t]+"``: any run of blanks; ``" "``: one space); the entries in ``count`` may take a
    count after them (``CABG X2``). ``""`` for no words (wrap it: ``(?:...)``).

    Speed: four entries or more are guarded by a look-ahead for the first characters they can
    start with (``(?=[ab...])(?:...)``), so a position where none can start is passed over at
    once instead of trying every entry (the regex engine tries a case-insensitive alternation's
    entries one by one); the guard matches nothing itself, so the regex matches the same text."""
    count, words = frozenset(count), sorted(set(words), key=lambda w: (-len(w), w))
    body = "|".join(re.escape(w).replace(r"\ ", space)
                    + (r"(?:[ \t]?x[ \t]?\d)?" if w in count else "") for w in words)
    if len(words) < 4 or any(not w or w[0].isspace() for w in words):
        return body
    firsts = "".join(re.escape(c) for c in sorted({w[0] for w in words}))
    return f"(?=[{firsts}])(?:{body})"


#: The characters other than its two cases that ``re.IGNORECASE`` matches to an ASCII letter.
_IGNORECASE_FOLDS = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}


def lead_alternation(words: Iterable[str], before: str, space: str = r"[ \t]",
                     ignorecase: bool = False) -> str:
    r"""Regex source (no groups) that matches what ``(?<!B)(?:A)`` matches, at the same places
    and with the same entry first, where ``B`` is ``before`` (a regex of one character, e.g.
    ``[\w]``) and ``A`` is ``alternation(words, space)`` (inside ``(?i:...)`` when
    ``ignorecase``): one branch per character an entry can start with, that character, then
    ``(?<!B<character>)``, then the rests of the entries that start with it (longest first).

    Speed: every branch starts with a plain character, so Python's re skips at once to the
    characters an entry can start with; a pattern led by a look-behind (even after a look-ahead
    guard) is tried at every position of the note.

    Raises:
        ValueError: an entry is empty, or starts with a space or (``ignorecase``) a non-ASCII
            character (what ``re.IGNORECASE`` matches to those is not spelled out here).
    """
    groups: dict[str, list[str]] = {}
    for w in sorted(set(words), key=lambda w: (-len(w), w)):   # alternation's order
        if not w or w[0].isspace() or ignorecase and not w[0].isascii():
            raise ValueError(f"cannot lead a branch with the entry {w!r}")
        groups.setdefault(w[0].lower() if ignorecase else w[0], []).append(w[1:])
    branches = []
    for first, rests in groups.items():
        body = "|".join(re.escape(r).replace(r"\ ", space) for r in rests)
        body = f"(?i:{body})" if ignorecase else f"(?:{body})"
        chars = first
        if ignorecase and first.isalpha():
            chars = first + first.upper() + _IGNORECASE_FOLDS.get(first, "")
        for c in chars:
            branches.append(f"{re.escape(c)}(?<!{before}{re.escape(c)}){body}")
    return "|".join(branches)


#: Measurement units and count nouns that, right after a number, make the number a quantity
#: rather than part of a date, an age or an identifier (``May 5 mg``, ``in 2000 mL``): the
#: entries of ``lists/units.txt`` and their other spellings (``mL``), ``u`` and ``%``.
#: Used as a negative look-ahead: ``(?!\s*UNITS)``.
UNITS = (
    r"(?:" + alternation([r[0] for r in lists.read_list("units.txt").rows]
                         + [f for r in lists.read_list("units.txt").rows if r[1] != "-" for f in r[1].split()], " ")
    + r"|u\b|%)(?![A-Za-z])"
)


def luhn_ok(digits: str) -> bool:
    """True when the digit string passes the Luhn mod-10 check (NPI with prefix, card numbers).

    Args:
        digits: a string of ASCII digits only (no separators); an empty string gives False.
    """
    if not digits or not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_VIN_VALUES = {**{str(d): d for d in range(10)},
               **dict(zip("ABCDEFGH", range(1, 9))),
               **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
               **dict(zip("STUVWXYZ", range(2, 10)))}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin_check_ok(vin: str) -> bool:
    """True when a 17-character VIN's 9th character is its valid check digit (49 CFR 565).

    Args:
        vin: 17 characters, digits and upper-case letters except I, O and Q. Anything else
            (wrong length, forbidden letters) gives False.
    """
    if len(vin) != 17:
        return False
    total = 0
    for ch, w in zip(vin.upper(), _VIN_WEIGHTS):
        v = _VIN_VALUES.get(ch)
        if v is None:
            return False
        total += v * w
    check = total % 11
    return vin[8].upper() == ("X" if check == 10 else str(check))


def ssn_plausible(area: str, group: str, serial: str) -> bool:
    """True when an SSN's parts follow the SSA issuing rules.

    Area ``000``, ``666`` and ``900``-``999``, group ``00`` and serial ``0000`` are never issued.
    Invented SSNs often break these rules on purpose, so the caller decides what an
    implausible one means (the ids detector still reports the ``3-2-4`` shape).
    """
    return not (area in ("000", "666") or area[:1] == "9" or group == "00" or serial == "0000")


def gapped_alternation(rows: Iterable[tuple[str, str]]) -> str:
    """Regex source (no groups) matching any of the phrases ``rows`` gives as ``(entry, gaps)``,
    longest entry first: ``gaps`` says how each space of the entry is matched, in order, one
    token each (``?``: an optional blank, ``+``: one or more, ``{0,2}``: up to two), or is ``-``
    for an entry without spaces. ``("united health care", "? ?")`` gives
    ``united[ \t]?health[ \t]?care``.

    Raises:
        ValueError: a token is none of ``? + {m,n}`` or the tokens do not match the spaces.
    """
    out = []
    for entry, gaps in sorted(set(rows), key=lambda r: (-len(r[0]), r)):
        words, toks = entry.split(" "), ([] if gaps == "-" else gaps.split())
        if len(toks) != len(words) - 1 or not all(re.fullmatch(r"[?+]|\{\d,\d\}", t) for t in toks):
            raise ValueError(f"gaps {gaps!r} do not fit {entry!r}")
        out.append(re.escape(words[0]) + "".join(r"[ \t]" + t + re.escape(w) for t, w in zip(toks, words[1:])))
    return "|".join(out)


def line_before(text: str, start: int, width: int = 40) -> str:
    """Up to ``width`` characters before ``start`` on the same line (the context a label sits
    in), lower-cased. When ``start`` begins a line, the end of the previous line counts as the
    same line (joined by one space), so ``since\n2009`` and ``Phone:\n617-...`` keep their label.
    """
    lo = max(0, start - width)
    chunk = text[lo:start]
    stripped = chunk.rstrip(" \t\r\n")
    tail = chunk[len(stripped):]
    if "\n" in tail or "\r" in tail:
        if tail.count("\n") + tail.replace("\r\n", "").count("\r") <= 1:
            chunk = stripped + " "
        else:
            return ""
    nl = max(chunk.rfind("\n"), chunk.rfind("\r"))
    if nl >= 0:
        chunk = chunk[nl + 1:]
    return chunk.lower()


#: :class:`Span`'s order as a sort key (``sorted(spans)`` without a ``__lt__`` call per comparison).
_SPAN_ORDER = operator.attrgetter("start", "end", "label", "tier", "source")


class Emitter:
    """Collects spans of one detector, skipping any that overlap a span already accepted.

    Patterns run from most to least specific, so the first accepted interpretation of a
    stretch of text wins inside a detector (the resolver settles clashes between detectors).
    Offsets are characters; a span's source is its :class:`~deid_core.rules.Rule`'s.
    """

    __slots__ = ("spans", "_starts", "_ends")

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self._starts: list[int] = []   # accepted intervals, sorted, non-overlapping
        self._ends: list[int] = []

    def free(self, start: int, end: int) -> bool:
        """True when ``[start, end)`` overlaps no span accepted so far."""
        i = bisect.bisect_left(self._starts, end)   # intervals starting before ``end``
        return not (i and self._ends[i - 1] > start)

    def add(self, start: int, end: int, label: str, tier: str, rule: Rule, detail: str = "") -> bool:
        """Accept ``rule.span(start, end, label, tier, detail)`` unless it is empty or overlaps
        an accepted span; returns whether it was accepted."""
        if end <= start or not self.free(start, end):
            return False
        i = bisect.bisect_left(self._starts, start)
        self._starts.insert(i, start)
        self._ends.insert(i, end)
        self.spans.append(Span(start, end, label, tier, rule.source(detail)))
        return True

    def __iter__(self) -> Iterator[Span]:
        return iter(sorted(self.spans, key=_SPAN_ORDER))


def clear_before(text: str, i: int, bad: str = "") -> bool:
    """True when the character before offset ``i`` is not a letter, digit, ``_`` nor one of
    ``bad`` (the value starts a run: ``12/3`` in ``x12/3`` does not)."""
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_" or text[i - 1] in bad)


def label_before(text: str, start: int, words: re.Pattern[str], width: int = 30) -> bool:
    """True when ``words`` (a regex anchored with ``$``) matches the lower-cased text just
    before ``start`` on the same line (see :func:`line_before`; ``width`` characters at most):
    the one "label before the value" check (``seen 3/4``, ``SSN 123 45 6789``, ``ph: 555-0199``)."""
    return words.search(line_before(text, start, width)) is not None


def just_before(text: str, i: int, words: re.Pattern[str], width: int) -> re.Match[str] | None:
    """The match of ``words`` (a regex anchored with ``$``) ending at offset ``i`` within the
    ``width`` characters before it, in the text as written (any case, across lines), or
    ``None``. :func:`label_before` is the lower-cased, same-line check."""
    return words.search(text, max(0, i - width), i)


class Hit(NamedTuple):
    """A span a validator asks for: offsets, and the tier, label, rule and detail where they
    differ from the :class:`Pattern`'s (``None`` keeps the pattern's). The rule must be one of
    the pattern's :attr:`Pattern.rules`."""

    start: int
    end: int
    tier: str | None = None
    label: str | None = None
    rule: Rule | None = None
    detail: str | None = None


#: What a validator returns: ``None``/``False`` (no span), ``True`` (the match as found), a tier
#: string (the match with that tier), one :class:`Hit` or several.
Verdict = Union[None, bool, str, Hit, Sequence[Hit]]


@dataclass(frozen=True)
class Pattern:
    """One identifier shape of a detector's table.

    Attributes:
        rules: the :class:`~deid_core.rules.Rule` of its spans, or a tuple of the rules its
            validator chooses among (the first when the validator names none); set to a tuple.
        regex: compiled pattern; a match is a candidate.
        label: i2b2 label of its spans (``"DATE"``, ``"SSN"``...).
        tier: ``"certain"`` or ``"review"``.
        context: a label-before regex (``$``-anchored, lower case, see :func:`label_before`);
            with it a match needs that label before it, else it gets ``without_context``.
        without_context: tier for a match with no context label; ``None`` drops it.
        validator: ``f(match) -> Verdict`` (``match.string`` is the text); ``None`` accepts.
        at_anchors: match only at the offsets :func:`run` is given (word tokens that can start
            the pattern) instead of scanning the whole text: ``True`` for its ``anchors``, a
            name for its ``named_anchors[name]`` (a subset: the tokens that can start this
            pattern, so fewer tries).
        gate: lower-case substrings, the pattern running only when the lower-cased text holds
            one; or ``f(text) -> bool``.
        detail: the detail of its spans' sources (``"VEHICLE"`` in ``ids:label:VEHICLE``), for a
            rule that takes one; a validator's :class:`Hit` may give another.
        ascii_regex: :func:`ascii_twin` of ``regex`` (set from it; what :func:`run` scans a
            :func:`plain_ascii` note with).

    Raises:
        ValueError: on construction, if ``rules`` is empty or holds something that is no rule.
    """

    rules: Rule | tuple[Rule, ...]
    regex: re.Pattern[str]
    label: str
    tier: str = CERTAIN
    context: re.Pattern[str] | None = None
    without_context: str | None = None
    validator: Callable[[re.Match[str]], Verdict] | None = None
    at_anchors: bool | str = False
    gate: tuple[str, ...] | Callable[[str], bool] = ()
    detail: str = ""
    ascii_regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = (self.rules,) if isinstance(self.rules, Rule) else tuple(self.rules)
        if not rules or not all(isinstance(r, Rule) for r in rules):
            raise ValueError(f"a pattern names its rule or rules, not {self.rules!r}")
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "ascii_regex", ascii_twin(self.regex))

    @property
    def rule(self) -> Rule:
        """The rule of a span the validator names none for (the first of :attr:`rules`)."""
        return self.rules[0]


def run(patterns: Iterable[Pattern], text: str, emitter: Emitter,
        anchors: Sequence[int] = (), named_anchors: Mapping[str, Sequence[int]] | None = None) -> Emitter:
    """Run a table of patterns over ``text`` in order into ``emitter`` (the first accepted
    span wins where two overlap) and return it.

    Args:
        patterns: the detector's table.
        text: the note.
        emitter: where spans go.
        anchors: sorted offsets where ``at_anchors=True`` patterns are tried.
        named_anchors: sorted offsets by name, for patterns whose ``at_anchors`` is a name.

    Raises:
        KeyError: a pattern names anchors that ``named_anchors`` lacks.
        ValueError: a validator names a rule that is not one of its pattern's :attr:`~Pattern.rules`.
    """
    low: str | None = None
    ascii = plain_ascii(text)
    for p in patterns:
        if callable(p.gate):
            if not p.gate(text):
                continue
        elif p.gate:
            low = text.lower() if low is None else low
            if not any(g in low for g in p.gate):
                continue
        rx = p.ascii_regex if ascii else p.regex
        if p.at_anchors:
            offsets = anchors if p.at_anchors is True else named_anchors[p.at_anchors]  # type: ignore[index]
            matches: Iterable[re.Match[str] | None] = (rx.match(text, a) for a in offsets)
        else:
            matches = rx.finditer(text)
        rule = p.rules[0]
        for m in matches:
            if m is None:
                continue
            tier = p.tier
            if p.context is not None and not label_before(text, m.start(), p.context):
                if p.without_context is None:
                    continue
                tier = p.without_context
            verdict = p.validator(m) if p.validator is not None else True
            if verdict is None or verdict is False:
                continue
            if verdict is True:
                emitter.add(m.start(), m.end(), p.label, tier, rule, p.detail)
            elif isinstance(verdict, str):
                emitter.add(m.start(), m.end(), p.label, verdict, rule, p.detail)
            else:
                for h in ((verdict,) if isinstance(verdict, Hit) else verdict):
                    r = h.rule
                    if r is None:
                        r = rule
                    elif r not in p.rules:
                        raise ValueError(f"the validator of {rule.id} chose {r.id}, which the "
                                         "pattern does not declare")
                    emitter.add(h.start, h.end, h.label or p.label, h.tier or tier, r,
                                p.detail if h.detail is None else h.detail)
    return emitter


#: A named group's opening and a backreference to a named group, not escaped.
_NAMED_GROUP = re.compile(r"(?<!\\)\(\?P<(\w+)>")
_NAMED_BACKREF = re.compile(r"(?<!\\)\(\?P=(\w+)\)")
#: What :func:`union_regex` does not rewrite: numbered backreferences and conditionals.
_UNSUPPORTED = re.compile(r"\\[1-9]|\(\?\(")
#: The global flags a source can carry into a scoped group (``(?i:...)``).
_SCOPED_FLAGS = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"))


def union_regex(regexes: Sequence[re.Pattern[str]]) -> re.Pattern[str]:
    """One regex whose ``search`` finds a match exactly when one of ``regexes`` finds one (the
    sources as alternatives, each with its flags scoped to it; named groups made plain except
    those a backreference names, which are renamed per alternative so none clash).

    Speed: when every source starts with the same element (``\\d``), the alternatives share it
    and Python's re skips to the characters it matches, so the search costs about one scan.

    Raises:
        ValueError: a source holds a numbered backreference or a conditional group, or a flag
            other than ``re.IGNORECASE``, ``re.MULTILINE`` and ``re.DOTALL`` (``re.UNICODE`` aside).
    """
    alternatives = []
    for i, rx in enumerate(regexes):
        src, flags = rx.pattern, rx.flags & ~re.UNICODE
        if _UNSUPPORTED.search(src) or flags & ~(re.IGNORECASE | re.MULTILINE | re.DOTALL):
            raise ValueError(f"cannot join {src!r} (flags {flags}) into a union")
        referred = set(_NAMED_BACKREF.findall(src))
        src = _NAMED_GROUP.sub(lambda m: f"(?P<u{i}_{m[1]}>" if m[1] in referred else "(?:", src)
        src = _NAMED_BACKREF.sub(lambda m: f"(?P=u{i}_{m[1]})", src)
        scoped = "".join(f for flag, f in _SCOPED_FLAGS if flags & flag)
        alternatives.append(f"(?{scoped}:{src})" if scoped else f"(?:{src})")
    return re.compile("|".join(alternatives))


class GatedTable:
    """A pattern table with a set of ``rare`` patterns that one regex search rules out for most
    notes: :meth:`for_text` gives the table without them when none of them matches anywhere in
    the text (:func:`union_regex`), else the whole table; the order is the table's either way,
    so :func:`run` finds the same spans with it.

    Args:
        table: the detector's patterns, in order.
        rare: the patterns of ``table`` (the same objects) that seldom match.

    Raises:
        ValueError: a pattern of ``rare`` is not in ``table``; or see :func:`union_regex`.
    """

    __slots__ = ("table", "without", "gate", "ascii_gate")

    def __init__(self, table: Sequence[Pattern], rare: Sequence[Pattern]) -> None:
        if not all(any(r is p for p in table) for r in rare):
            raise ValueError("every rare pattern must be one of the table's")
        self.table = tuple(table)
        self.without = tuple(p for p in table if not any(p is r for r in rare))
        self.gate = union_regex([p.regex for p in rare])
        self.ascii_gate = ascii_twin(self.gate)

    def for_text(self, text: str) -> tuple[Pattern, ...]:
        """The patterns to run on ``text``: the whole table, or it without the rare patterns
        when their union finds nothing in ``text``."""
        gate = self.ascii_gate if plain_ascii(text) else self.gate
        return self.table if gate.search(text) is not None else self.without
