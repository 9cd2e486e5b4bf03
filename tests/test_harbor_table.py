"""The 18 Safe Harbor identifiers as data (issue 24): deid_core.harbor_table, the figures
written by scripts/safe_harbor_figures.py, the generated parts of docs/safe-harbor.md, and what
the page reads through deid_core.api."""
import importlib.util
import json
import string
import sys
from pathlib import Path

import pytest

from deid_core import analyze, api
from deid_core import harbor_table as H
from deid_core.analyze import analyze as analyze_known
from deid_core.document import Known
from deid_core.readers import FOREIGN_LABELS
from deid_core.spans import LABELS

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("safe_harbor_figures",
                                                  ROOT / "scripts" / "safe_harbor_figures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_eighteen_identifiers_in_the_rule_order():
    assert [i.letter for i in H.IDENTIFIERS] == list(string.ascii_uppercase[:18])
    assert all(i.name and i.rule and i.redact and i.surrogate and i.safe_harbor for i in H.IDENTIFIERS)


def test_every_label_is_one_identifier_or_named_as_none():
    labels = [label for i in H.IDENTIFIERS for label in i.labels]
    assert len(labels) == len(set(labels))
    assert set(LABELS) - set(labels) == {"STATE", "COUNTRY", "PROFESSION"}


def test_every_gold_label_the_readers_know_has_a_row():
    """A new corpus label must say which identifier it is, or the per-identifier figures would
    put it in 'other' silently."""
    assert set(FOREIGN_LABELS) | set(LABELS) <= set(H.GOLD_LABEL_IDENTIFIER)
    assert set(H.GOLD_LABEL_IDENTIFIER.values()) <= set(string.ascii_uppercase[:18]) | {None}


def test_model_types_are_the_model_s():
    labels = json.loads((ROOT / "model" / "ner.json").read_text())["labels"]
    assert tuple(dict.fromkeys(lab[2:] for lab in labels if lab != "O")) == H.MODEL_TYPES


def test_known_labels_are_what_the_known_detector_gives():
    text = "John Smith, MRN 4471203, lives at 12 Elm Street, Springfield, IL 62704; DOB 1950-03-02."
    known = Known(names=("John Smith",), mrns=("4471203",),
                  addresses=("12 Elm Street, Springfield, IL 62704",), birth_dates=("1950-03-02",))
    got = {s.label for s in analyze_known(text, known).candidates if s.source.startswith("known:")}
    assert got == set(H.KNOWN_LABELS)


@pytest.mark.parametrize("ident", [i for i in H.IDENTIFIERS if i.example], ids=lambda i: i.letter)
def test_each_example_is_found_as_its_identifier(ident):
    found = {s.label for s in analyze(ident.example).spans}
    assert found & set(ident.labels), (ident.letter, found)


def test_rows_hold_detectors_examples_and_recall():
    rows = H.identifier_rows(process=api.process)
    by = {r["letter"]: r for r in rows}
    assert by["A"]["detectors"] == ["known", "model", "names"]
    assert "dates" in by["C"]["detectors"] and "ages" in by["C"]["detectors"]
    assert by["Q"]["detectors"] == [] and by["Q"]["example_outputs"] == {}
    c = by["C"]["example_outputs"]
    assert "2021" in c["safe_harbor"] and "90+" in c["safe_harbor"] and "2021" not in c["redact"]
    assert "90+" in c["surrogate"]
    assert "021XX" in by["B"]["example_outputs"]["safe_harbor"]
    for r in rows:
        for out in r["example_outputs"].values():
            assert out != r["example"]


def test_recall_per_identifier_on_a_hand_made_report():
    rep = {"certain": {"per_label": {
               "PTName": {"gold": 10, "found": 8, "spans": 2, "spans_full": 1},
               "HCPName": {"gold": 10, "found": 10, "spans": 2, "spans_full": 2},
               "STATE": {"gold": 2, "found": 0, "spans": 1, "spans_full": 0}}},
           "with_review": {"per_label": {
               "PTName": {"gold": 10, "found": 10, "spans": 2, "spans_full": 2},
               "HCPName": {"gold": 10, "found": 10, "spans": 2, "spans_full": 2},
               "STATE": {"gold": 2, "found": 2, "spans": 1, "spans_full": 1}}}}
    got = H.recall_per_identifier(rep)
    assert got["A"] == {"gold": 4, "chars": 20, "certain": 0.9, "with_review": 1.0,
                        "full_certain": 0.75, "full_with_review": 1.0}
    assert got["other"]["certain"] == 0.0 and got["other"]["with_review"] == 1.0


def test_docs_generated_parts_are_current():
    s = _script()
    doc = (ROOT / "docs" / "safe-harbor.md").read_text(encoding="utf-8")
    from deid_core.harbor_figures import FIGURES
    assert s.render_doc(doc, FIGURES) == doc, "run: python scripts/safe_harbor_figures.py --rules-only"


def test_figures_cover_the_corpora_with_residual_risk():
    from deid_core.harbor_figures import FIGURES, FIGURES_RULES_ONLY
    for figs in (FIGURES, FIGURES_RULES_ONLY):
        assert "corpus" in figs["corpora"]
        for c in figs["corpora"].values():
            r = c["residual_risk"]
            assert r["certain"]["upper_95_per_1000_notes"] >= r["certain"]["per_1000_notes"]
            assert set(c["per_identifier"]) <= set(string.ascii_uppercase[:18]) | {"other"}


@pytest.mark.slow
def test_rules_only_figures_are_what_deid_eval_gives_now():
    """The stored rules-only figures of the project corpus are recomputed by the script's own
    path (deid eval --json --rules-only); a detector change that moves them needs
    python scripts/safe_harbor_figures.py --rules-only."""
    s = _script()
    from deid_core.harbor_figures import FIGURES_RULES_ONLY
    title, fmt, path = s.CORPORA["corpus"]
    fresh = s.corpus_figures(title, s.eval_report(fmt, path, rules_only=True))
    assert s.slim({"corpora": {"corpus": fresh}})["corpora"]["corpus"] == \
        FIGURES_RULES_ONLY["corpora"]["corpus"]


def test_api_gives_the_page_its_data():
    info = json.loads(json.dumps(api.safe_harbor_info(examples=False)))
    assert [r["letter"] for r in info["identifiers"]] == list(string.ascii_uppercase[:18])
    assert info["actual_knowledge"] and len(info["text_limits"]) == 2
    assert {"span", "redact", "safe_harbor"} == set(info["option"][0])
    assert info["cases"] and "corpora" in info["figures"]
    notices = api.third_party_notices()
    assert notices["markdown"] == (ROOT / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
