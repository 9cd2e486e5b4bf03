"""The one runner of the detector tests' tables: (text, expected spans, what must not be masked).

A detector's test module makes its ``found`` with :func:`finder` and its table tests with
:func:`found_test` and :func:`nothing_test` (and :func:`sources_test` for the sources a text
gives); the rule cases of ``tests/rule_cases.py`` (:class:`Case`, grouped by rule id) run through
the whole engine in ``tests/test_rule_cases.py``. Spans are compared as ``(covered text, label,
tier)``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

import pytest

from deid_core import analyze
from deid_core.analyze import Analysis
from deid_core.detectors.catalogue import find
from deid_core.document import Document, Known
from deid_core.explain import parse_source
from deid_core.resolve import resolve

Found = list[tuple[str, str, str]]


class Case(NamedTuple):
    """One rule case: ``text``, every final span of the engine on it (``(covered text, label,
    tier)``, in text order), the words of ``text`` that must stay as written (``keep``) and the
    caller's known identifiers (``known``: the keyword arguments of
    :class:`~deid_core.document.Known`, or ``None``)."""

    text: str
    spans: list[tuple[str, str, str]]
    keep: tuple[str, ...] = ()
    known: dict | None = None

    def analysis(self) -> Analysis:
        """The engine's analysis of :attr:`text` (rules only, with :attr:`known`)."""
        known = Known(**{k: tuple(v) for k, v in self.known.items()}) if self.known else None
        return analyze(self.text, known)


def spans_of(text: str, spans: Iterable) -> Found:
    """``(covered text, label, tier)`` of each span, in the order given."""
    return [(text[s.start:s.end], s.label, s.tier) for s in spans]


def finder(*detects: Callable, resolved: bool = False) -> Callable[[str], Found]:
    """``found(text)``: the spans of the detectors ``detects`` (``detect(doc)`` functions) on
    ``text`` as :func:`spans_of` gives them; resolved into final spans with ``resolved``."""
    def found(text: str) -> Found:
        doc = Document(text)
        spans = [s for d in detects for s in d(doc)]
        return spans_of(text, resolve(spans, text) if resolved else spans)
    return found


def masked(text: str, spans: Iterable, word: str) -> bool:
    """Whether any of ``spans`` (:class:`~deid_core.spans.Span` values) covers a character of the
    first ``word`` in ``text``."""
    start = text.index(word)
    end = start + len(word)
    return any(s.start < end and start < s.end for s in spans)


def _rows(rows: Sequence, label: str | None) -> list:
    out = []
    for text, expected in rows:
        if label is not None:
            expected = [(sub, label, tier) for sub, tier in expected]
        out.append(pytest.param(text, expected, id=text[:40]))
    return out


def found_test(found: Callable[[str], Found], rows: Sequence, label: str | None = None,
               subset: bool = False):
    """A test over ``rows`` of ``(text, expected)``: ``found(text) == expected`` (``expected``
    holds ``(sub, tier)`` pairs when ``label`` is given, else ``(sub, label, tier)``); with
    ``subset``, each expected span is among those found (and found as often)."""
    @pytest.mark.parametrize("text,expected", _rows(rows, label))
    def test(text, expected):
        got = found(text)
        if subset:
            for item in expected:
                assert got.count(item) >= expected.count(item), f"{item} not in {got}"
        else:
            assert got == expected
    return test


def nothing_test(found: Callable[[str], Found], texts: Sequence[str]):
    """A test over ``texts``: ``found(text) == []`` for each (what must not be masked)."""
    @pytest.mark.parametrize("text", [pytest.param(t, id=t[:40]) for t in texts])
    def test(text):
        assert found(text) == []
    return test


def sources_test(detect: Callable, text: str, sources: list[str]):
    """A test that ``detect(Document(text))`` gives spans of exactly ``sources``, in order."""
    def test():
        assert [s.source for s in detect(Document(text))] == sources
    return test


def source_problems(candidates: Iterable, finals: Iterable) -> list[str]:
    """What is wrong with the sources of an analysis: a candidate whose source is no declared
    rule, has a detail its rule takes none of, a label or tier its rule does not declare, or an
    evidence word its rule does not declare; a final span with a part that is no rule. ``[]``
    when nothing is."""
    bad = []
    for c in candidates:
        parts = parse_source(c.source)
        if len(parts) != 1:
            bad.append(f"{c.source}: a candidate's source has {len(parts)} parts")
            continue
        p = parts[0]
        rule, detail = find(p.detector, p.rule, p.detail)
        if rule is None:
            bad.append(f"{c.source}: no declared rule")
            continue
        if detail and rule.detail is None:
            bad.append(f"{c.source}: {rule.id} takes no detail")
        if c.label not in rule.labels or c.tier not in rule.tiers:
            bad.append(f"{c.source}: {c.label}/{c.tier} not among {rule.labels}/{rule.tiers}")
        declared = {e.word for e in rule.evidence}
        if set(p.evidence) - declared:
            bad.append(f"{c.source}: evidence {sorted(set(p.evidence) - declared)} not declared by {rule.id}")
    for s in finals:
        for p in parse_source(s.source):
            if find(p.detector, p.rule, p.detail)[0] is None:
                bad.append(f"{s.source}: a final span's part {p} has no rule")
    return bad
