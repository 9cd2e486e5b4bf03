"""``patterns.lead_alternation`` matches what ``(?<!B)(?:alternation(words))`` matches, at the
same places, with and without ``re.IGNORECASE``: a table of invented texts, including the
non-ASCII characters that case folding maps to i, k and s, and the entries that must not match
after a word character."""
from __future__ import annotations

import re

import pytest

from deid_core.detectors.patterns import alternation, lead_alternation

WORDS = ["ward", "Ward", "west wing", "bed", "bay", "ICU", "kingsbury", "stone", "Saint", "i"]
TEXTS = [
    "moved to ward 4, then WARD 5 and Ward 6",
    "bed 12; bay 3 west wing",
    "reward the steward; abed; embay",              # entries after a letter: no match
    "ICU icu Icu then iCU",
    "\u212aingsbury and \u017ftone and \u0130CU and \u0131cu",   # Kelvin K, long s, dotted/dotless i
    "Saint SAINT saint; 1bed _bay -bay",
    "west\twing west  wing westwing",
    "i I \u0130 \u0131 in",
    "",
]


def spans(pattern: str, text: str, flags: int) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text, flags)]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("ignorecase", [False, True])
@pytest.mark.parametrize("before", [r"\w", r"[\w-]"])
def test_lead_alternation_matches_the_guarded_alternation(text, ignorecase, before):
    plain = rf"(?<!{before})(?:{alternation(WORDS)})"
    lead = lead_alternation(WORDS, before, ignorecase=ignorecase)
    if ignorecase:
        want = spans(f"(?i:{plain})", text, 0)
    else:
        want = spans(plain, text, 0)
    assert spans(f"(?:{lead})", text, 0) == want


def test_some_rows_match_and_some_do_not():
    """The table exercises both outcomes (a test that never matches could not fail)."""
    lead = lead_alternation(WORDS, r"\w", ignorecase=True)
    assert spans(lead, TEXTS[0], 0) == [(9, 13), (22, 26), (33, 37)]
    assert spans(lead, TEXTS[2], 0) == []
    assert len(spans(lead, TEXTS[4], 0)) == 4


@pytest.mark.parametrize("bad", ["", " ward", "\u0130stanbul"])
def test_entries_that_cannot_lead_a_branch_are_refused(bad):
    with pytest.raises(ValueError, match="cannot lead a branch"):
        lead_alternation(["ward", bad], r"\w", ignorecase=True)
