"""Which text the NER model is not run on (:func:`deid_core.ner.skip.nameable`): no run of three
or more letters and no two-letter name or place (census names, state codes, countries, titles);
invented examples of what must run and what is skipped."""
from __future__ import annotations

import pytest

from deid_core.ner.skip import nameable, short_nameable


@pytest.mark.parametrize("text, runs", [
    # must run: a word of three letters or more, or a two-letter name or place
    ("seen by Dr Li", True),
    ("(Ng) 12/03", True),
    ("moved to MA 01103", True),
    ("Xu", True),
    ("call Ed at 617-555-0142", True),
    ("Wu, K.", True),
    ("pt: ok", True),
    ("bob", True),
    ("東京 0123", True),
    ("王明", True),
    # skipped: punctuation with single letters and pairs that are no name or place
    ("#$aa (b) ;;xx", False),
    ("--qq-- [z] {kk}", False),
    ("!! ?? .. a. b. c.", False),
    ("0123 4567 // 89", False),
    ("aGVsbG8gd29ybGQhIQ==aGVsbG8gd29y", False),
    ("", False),
])
def test_nameable(text, runs):
    assert nameable(text) is runs


def test_the_two_letter_words_come_from_the_lists():
    words = short_nameable()
    assert {"li", "ng", "ma", "dr", "ed"} <= words
    assert not {"aa", "xx", "qq", "kk"} & words
    assert all(len(w) == 2 and w == w.lower() for w in words)
