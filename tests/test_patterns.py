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


# --- union_regex and GatedTable (speed): one search rules out the rare patterns of a table ---

from deid_core.detectors import dates, ids  # noqa: E402
from deid_core.detectors.patterns import Emitter, GatedTable, Pattern, run, union_regex  # noqa: E402
from deid_core.rules import Rule  # noqa: E402

UNION_SOURCES = [
    (r"(?P<m>\d(?<![\w./:]\d)\d?)(?P<s>[-/.])(?P<d>\d{1,2})(?P=s)(?P<y>\d\d)(?!\d)", 0),
    (r"\d(?<!\w\d)\d\d(?P<s>[-.])\d\d(?P=s)\d{4}(?!\d)", 0),
    (r"mrn(?P<s>#)?\d+", re.I),
    (r"^ward(?P<n>\d)$", re.M),
    (r"a.b", re.S),
]
UNION_TEXTS = [
    "", "no digits here", "seen 3/4/21 today", "x3/4/21", "SSN 123-45-6789", "123-45.6789",
    "MRN#4471 and Mrn 22", "line\nward4\nnext", "ward4 x", "a\nb", "3.4.21 and 1.2/33",
]


@pytest.mark.parametrize("text", UNION_TEXTS)
@pytest.mark.parametrize("k", range(1, len(UNION_SOURCES) + 1))
def test_union_regex_searches_like_any_of_its_regexes(text, k):
    regexes = [re.compile(src, flags) for src, flags in UNION_SOURCES[:k]]
    assert (union_regex(regexes).search(text) is not None) == any(rx.search(text) for rx in regexes)


@pytest.mark.parametrize("src,flags", [(r"(a)\1", 0), (r"(?P<a>x)?(?(a)y|z)", 0), (r"a b", re.X)])
def test_union_regex_refuses_what_it_cannot_rewrite(src, flags):
    with pytest.raises(ValueError):
        union_regex([re.compile(src, flags)])


def _rule(name, label):
    """An invented rule of an invented detector "t"."""
    return Rule(f"t:{name}", (label,), ("certain",), f"the shape {name}")


def _run_spans(patterns, text):
    starts = [m.start() for m in re.finditer(r"\w+", text)]          # every word as an anchor
    return list(run(patterns, text, Emitter(), starts, {"month": starts, "weekday": starts}))


#: Invented notes with and without the rare shapes the dates and ids tables gate.
GATED_TEXTS = [
    "Seen 10/27/2020-10/28/2020 then 9/12-9/14; ECHO 3/91; last 03/2014 and 2014-03.",
    "BP 120/80, HR 88, seen 3/4 and 4/17; MI 93; in 2019.",
    "SSN 123-45-6789, 219 09 9999, card 4111 1111 1111 1111, IBAN GB82 WEST 1234 5698 7654 32.",
    "MRN 4471203, bare 55512345, nothing rare at all",
    "",
]


@pytest.mark.parametrize("text", GATED_TEXTS)
@pytest.mark.parametrize("module", [dates, ids], ids=["dates", "ids"])
def test_gated_table_runs_what_the_whole_table_runs(module, text):
    table = module._TABLE
    assert _run_spans(table.for_text(text), text) == _run_spans(table.table, text)
    assert table.table == module.PATTERNS


def test_gated_table_leaves_the_rare_patterns_out_only_without_a_match():
    a = Pattern(_rule("a", "DATE"), re.compile(r"\d(?<!\d\d)\d/\d\d"), "DATE")
    b = Pattern(_rule("b", "PHONE"), re.compile(r"\d(?<!\d\d)\d-\d{4}"), "PHONE")
    c = Pattern(_rule("c", "IDNUM"), re.compile(r"\d+"), "IDNUM")
    table = GatedTable((a, b, c), (a, b))
    assert table.for_text("only 12 here") == (c,)
    assert table.for_text("on 12/21") == (a, b, c) == table.for_text("call 55-0199")
    with pytest.raises(ValueError):
        GatedTable((a, c), (b,))
