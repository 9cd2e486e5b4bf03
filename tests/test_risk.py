"""Residual risk (issue 24): the Poisson upper bound on a hand-computed case, the figures of
deid_core.risk.residual_risk on a small hand-made report, and the field in deid eval --json."""
import json
import math

import pytest

from deid_core.cli import main
from deid_core.evaluate import evaluate
from deid_core.readers import GoldDoc, GoldSpan
from deid_core.risk import SECONDS_PER_MARK, poisson_upper, residual_risk


@pytest.mark.parametrize("k, expected", [
    (0, -math.log(0.05)),   # P(X = 0 | mu) = exp(-mu) = 0.05: mu = ln 20 = 2.995732
    (1, 4.743865),          # exp(-mu) (1 + mu) = 0.05
    (2, 6.295794),          # exp(-mu) (1 + mu + mu^2 / 2) = 0.05
    (3, 7.753657),
    (10, 16.962219),        # chi2(0.95; 22) / 2 = 33.924 / 2
])
def test_poisson_upper_bound_hand_computed(k, expected):
    assert poisson_upper(k) == pytest.approx(expected, abs=2e-6)


def test_the_bound_solves_its_defining_equation():
    for k in (1, 2, 7, 40):
        mu = poisson_upper(k)
        cdf = sum(math.exp(-mu) * mu ** i / math.factorial(i) for i in range(k + 1))
        assert cdf == pytest.approx(0.05, abs=1e-7)


def test_bound_grows_with_the_count_and_handles_large_counts():
    ups = [poisson_upper(k) for k in (0, 1, 5, 50, 500, 5000)]
    assert ups == sorted(ups) and all(u > k for u, k in zip(ups, (0, 1, 5, 50, 500, 5000)))
    assert poisson_upper(5000) == pytest.approx(5000 + 1.645 * math.sqrt(5000), rel=2e-3)
    assert poisson_upper(2, confidence=0.99) > poisson_upper(2)


@pytest.mark.parametrize("k, conf", [(-1, 0.95), (1.5, 0.95), (1, 0.0), (1, 1.0)])
def test_bad_arguments_are_refused(k, conf):
    with pytest.raises(ValueError):
        poisson_upper(k, conf)


def _report(notes, certain, with_review, amber_per_note):
    def labels(rows):
        return {label: {"spans": n, "spans_full": full} for label, (n, full) in rows.items()}
    return {"documents": notes, "certain": {"per_label": labels(certain)},
            "with_review": {"per_label": labels(with_review)},
            "amber": {"per_note": amber_per_note}}


def test_residual_risk_on_a_hand_made_report():
    # 100 notes; certain: 1 of 10 patient names and 0 of 5 dates left; with review: none left
    r = residual_risk(_report(100, {"PATIENT": (10, 9), "DATE": (5, 5)},
                              {"PATIENT": (10, 10), "DATE": (5, 5)}, 0.5))
    c = r["certain"]
    assert (c["gold"], c["left"], c["identifiers_per_note"]) == (15, 1, 0.15)
    assert c["per_1000_notes"] == 10.0                          # 1000 * 1 / 100
    assert c["upper_95_per_1000_notes"] == pytest.approx(47.439, abs=1e-3)   # 1000 * 4.743865 / 100
    assert c["per_identifier"]["A"]["left"] == 1 and c["per_identifier"]["C"]["left"] == 0
    assert c["per_identifier"]["C"]["upper_95_per_1000_notes"] == pytest.approx(29.957, abs=1e-3)
    w = r["with_review"]
    assert w["left"] == 0 and w["upper_95_per_1000_notes"] == pytest.approx(29.957, abs=1e-3)
    assert r["review"] == {"amber_per_note": 0.5, "seconds_per_mark": SECONDS_PER_MARK,
                           "minutes_per_1000_notes": round(1000 * 0.5 * SECONDS_PER_MARK / 60, 3)}
    assert "Poisson" in r["interval"] and r["confidence"] == 0.95


def test_labels_map_to_safe_harbor_letters_or_other():
    r = residual_risk(_report(10, {"HCPName": (4, 3), "PHONE_NUMBER": (2, 2), "PROFESSION": (1, 0),
                                   "STATE": (1, 1)}, {}, 0.0))
    kinds = r["certain"]["per_identifier"]
    assert kinds["A"]["left"] == 1 and kinds["D"]["left"] == 0
    assert kinds["other"] == {**kinds["other"], "gold": 2, "left": 1}


def _doc(text, *values):
    spans = []
    for value, label in values:
        i = text.index(value)
        spans.append(GoldSpan(i, i + len(value), "NAME" if label == "PATIENT" else label, label))
    return GoldDoc(text[:10], text, tuple(spans))


def test_evaluate_reports_residual_risk_next_to_recall():
    docs = [_doc("Seen by Dr. Anne Whitcombe on 03/05/2014.", ("Anne Whitcombe", "PATIENT"),
                 ("03/05/2014", "DATE")),
            _doc("Her friend Zbigwiena visited.", ("Zbigwiena", "PATIENT"))]
    report = evaluate(docs, lambda text: ())        # a predictor that finds nothing
    r = report["residual_risk"]
    assert r["notes"] == 2 and r["certain"]["left"] == 3
    assert r["certain"]["per_1000_notes"] == 1500.0
    assert r["certain"]["upper_95_per_1000_notes"] == pytest.approx(1000 * 7.753657 / 2, abs=1e-2)


def test_eval_json_has_the_residual_risk_fields(tmp_path, capsys):
    corpus = tmp_path / "c.jsonl"
    text = "Seen by Dr. Anne Whitcombe on 03/05/2014."
    corpus.write_text(json.dumps({"id": "1", "text": text, "spans": [
        {"start": 12, "end": 26, "label": "DOCTOR"}, {"start": 30, "end": 40, "label": "DATE"}]}) + "\n")
    assert main(["eval", "--format", "corpus", str(corpus), "--json", "--rules-only"]) == 0
    r = json.loads(capsys.readouterr().out)["residual_risk"]
    for setting in ("certain", "with_review"):
        assert {"per_1000_notes", "upper_95_per_1000_notes", "per_identifier", "left", "gold"} <= set(r[setting])
    assert r["certain"]["left"] == 0 and r["certain"]["upper_95_per_1000_notes"] == pytest.approx(2995.732, abs=1e-3)
    assert set(r["review"]) == {"amber_per_note", "seconds_per_mark", "minutes_per_1000_notes"}
    assert main(["eval", "--format", "corpus", str(corpus), "--rules-only"]) == 0
    assert "identifiers left per 1,000 notes" in capsys.readouterr().out
