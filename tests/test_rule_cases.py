"""The rule cases (tests/rule_cases.py, grouped by rule id) through the whole engine: each gives
exactly its expected final spans, names its rule in the source of one of them, leaves its
``keep`` words as written, and every candidate is a declared rule (tests/test_rules.py checks the
same on the corpora). Every rule of the catalogue has a case, but the model's and the harvested
templates' (their own tests: test_ensemble.py, test_harvest.py)."""
from __future__ import annotations

import pytest
from rule_cases import CASES
from ruletable import masked, source_problems, spans_of

from deid_core.detectors.catalogue import BY_ID, HARVEST, NER, RULES, find
from deid_core.explain import parse_source

_PARAMS = [pytest.param(rid, case, id=f"{rid}-{k}") for rid, cases in CASES.items()
           for k, case in enumerate(cases)]


@pytest.mark.parametrize("rule_id,case", _PARAMS)
def test_rule_case(rule_id, case):
    a = case.analysis()
    assert spans_of(case.text, a.spans) == case.spans
    rules = {find(p.detector, p.rule, p.detail)[0] for s in a.spans for p in parse_source(s.source)}
    assert BY_ID[rule_id] in rules, f"no final span of {rule_id}: {[s.source for s in a.spans]}"
    for word in case.keep:
        assert not masked(case.text, a.spans, word), word
    assert source_problems(a.candidates, a.spans) == []


def test_every_rule_has_a_case():
    assert set(CASES) == {r.id for r in RULES} - {NER.id, HARVEST.id}
    assert all(CASES.values())
