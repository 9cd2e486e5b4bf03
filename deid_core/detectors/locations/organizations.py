"""Organisations named by their context: an employer after ``works at`` / ``employed by`` or an
``Employer:`` label, and a university named by a state or a large city (``U OF MD``). (A company
or school named by its own last word, ``Acme Logistics Inc``, is :mod:`.facilities`'.) Each rule
is declared above the function that applies it.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ... import lists
from ...rules import Pass, Rule
from ...spans import CERTAIN, Span
from ..patterns import lead_alternation
from .lexicon import BIG_CITY, Tables, name_kind, strip_leading
from .text import SP, Note, after_title, note_may_hold, place_key, run_at, same_line_words, trim_end

_C = (CERTAIN,)
#: The words of ``lists/facility_cues.txt`` by use (employer_context, employer_label).
_CUES = "facility_cues.txt"
#: Prepositions between a work word and an employer (grammar).
_EMPLOYER_PREPOSITIONS = "at|for|by|with|from"
_ORG_CONTEXT_RE = re.compile(
    r"(?:" + lead_alternation(lists.tagged(_CUES, "employer_context"), r"[\w]", SP, ignorecase=True) + r")"
    r"[ \t]+(?:(?i:full|part)[- ]time[ \t]+)?(?:(?i:as)[ \t]+(?:an?[ \t]+)?[a-z-]{1,20}(?:[ \t]+[a-z-]{1,20}){0,2}[ \t]+)?"
    r"(?i:" + _EMPLOYER_PREPOSITIONS + r")(?:[ \t]+|[ \t]*\r?\n[ \t]*)(?:the[ \t]+)?(?=[A-Z])")
_ORG_LABEL_RE = re.compile(
    r"(?:" + lead_alternation(lists.tagged(_CUES, "employer_label"), r"[\w]", SP, ignorecase=True) + r")[ \t]*:[ \t]*"
    r"(?:the[ \t]+)?(?=[A-Z])")
#: The first words of the cues of :data:`_ORG_CONTEXT_RE` / :data:`_ORG_LABEL_RE`: every match
#: holds one, lower-cased (the cheap test of ``may_hold`` before the scan).
_ORG_CONTEXT_WORDS = tuple(sorted({e.split()[0] for e in lists.tagged(_CUES, "employer_context")}))
_ORG_LABEL_WORDS = tuple(sorted({e.split()[0] for e in lists.tagged(_CUES, "employer_label")}))

EMPLOYER_CONTEXT = Rule("locations:organization:employer_context", ("ORGANIZATION",), _C,
                        "an employer's name after works at or employed by", list="facility_cues.txt")
EMPLOYER_LABEL = Rule("locations:organization:employer_label", ("ORGANIZATION",), _C,
                      "an employer's name after an Employer: label", list="facility_cues.txt")


def organizations_context(n: Note, t: Tables) -> Iterator[Span]:
    """An employer after ``works at``/``employed by`` or ``Employer:`` (ORGANIZATION, certain)."""
    text = n.text
    low = n.low
    for rx, rule, words in ((_ORG_CONTEXT_RE, EMPLOYER_CONTEXT, _ORG_CONTEXT_WORDS),
                            (_ORG_LABEL_RE, EMPLOYER_LABEL, _ORG_LABEL_WORDS)):
        if not note_may_hold(n, words):
            continue   # the pattern's keyword is nowhere in the note
        for m in rx.finditer(text):
            r = run_at(n, m.end())
            if r is None:
                continue
            words = strip_leading([r.words[0]] + list(same_line_words(r.words[1:6])))
            if not words or name_kind(words, t.generic) != "distinct" or after_title(text, words[0].start):
                continue
            end = trim_end(words[-1].end, text, words[0].start)
            yield rule.span(words[0].start, end)


UNIVERSITY_PLACE = Rule(
    "locations:organization:university_place", ("ORGANIZATION",), _C,
    "a university named by a state or a large city (U of MD, University of Maryland)",
    list="us_states.tsv", reads=("us_places.tsv",))


#: ``U of MD``, ``U Maryland``, ``UOf Maryland``, ``university of maryland``, ``UNIV. OF OHIO``:
#: a university named by a state or a state code (after ``of``) or a large city.
_UNIVERSITY_PLACE_RE = re.compile(
    r"(?P<u>U(?<![\w.]U)(?<!\d[ \t]U)(?:|NIV\.?|niv\.?|niversity|NIVERSITY)"
    r"|u(?<![\w.]u)(?<!\d[ \t]u)(?:niv\.?|niversity))"
    r"(?:[ \t]*(?P<of>of|OF|Of)[ \t]+|[ \t]+)"
    r"(?P<place>[A-Za-z]{2,20}(?:[ \t][A-Za-z]{2,20})?|[A-Z](?![\w'’-]))")


def university_place(n: Note, t: Tables) -> Iterator[Span]:
    """``U OF MD``, ``U Maryland scale``, ``university of maryland hospital``: ``U``/``Univ``/
    ``University`` and a state, a state code after ``of`` (not ``10 U OF NPH``), or a city of
    100,000 or more (ORGANIZATION, certain; the school rule covers Title-case names too)."""
    text = n.text
    for m in _UNIVERSITY_PLACE_RE.finditer(text):
        words = m.group("place").split()
        for k in range(len(words), 0, -1):
            phrase = " ".join(words[:k])
            key = place_key(phrase)
            state_code = k == 1 and m.group("of") and phrase.isupper() and (
                phrase in t.abbrs or (len(phrase) == 1 and m.group("u") == "U"))   # U OF M
            if key in t.states or state_code or t.places.get(key, 0) >= BIG_CITY:
                if m.group("u") == "U" and not (m.group("of") or phrase[:1].isupper()):
                    break   # "U heparin": a unit of a drug
                end = m.start("place") + len(" ".join(m.group("place").split()[:k]))
                yield UNIVERSITY_PLACE.span(m.start(), end)
                break


#: The passes of this module, each with the rules it may give.
EMPLOYERS_PASS = Pass(organizations_context, (EMPLOYER_CONTEXT, EMPLOYER_LABEL))
UNIVERSITY_PLACE_PASS = Pass(university_place, (UNIVERSITY_PLACE,))
