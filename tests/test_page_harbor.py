"""Issue 24 in the page, in headless Chromium from its file:// URL, offline: the Safe Harbor output
option (the same output as ``deid redact --keep-safe-harbor`` and :func:`deid_core.api.process`),
"What is removed" (the 18 identifiers), the residual risk beside recall in the benchmark panel,
and "About" (the licence and the third-party notices). Expected values come from the CPython
engine and ``deid_core.api``.

Needs Debian's ``/usr/bin/chromium``, the Python ``playwright`` package and a built page
(``python build.py``); skipped without them.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pagehelpers import CHROMIUM, after_run, chromium_page, poll, rules_only_run, text_of

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(os.environ.get("DEID_PAGE", ROOT / "dist" / "deid.html")).resolve()

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
if not PAGE.is_file():
    pytest.skip(f"{PAGE} is not built (python build.py)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from deid_core import api  # noqa: E402
from deid_core.harbor_figures import FIGURES  # noqa: E402
from deid_core.notices import notice_data  # noqa: E402

pytestmark = pytest.mark.slow   # drives the built page in Chromium (bash scripts/test.sh --all runs it)
MANIFEST = build.read_manifest(PAGE)
needs_model = pytest.mark.skipif(MANIFEST.get("model") is None, reason="the page was built without the NER model")

#: Invented: a date with and without a year, a ZIP of an unrestricted (021) and a restricted (036)
#: prefix, ages 89 and 90.
HARBOR_NOTE = ("Admitted 3/14/2021 with chest pain; follow up on 4/2 in clinic.\n"
               "Lives in Boston, MA 02139; her sister in Keene, NH 03601.\n"
               "Father 89 yo, mother 90 yo, both well.")


@pytest.fixture(scope="module")
def session():
    with chromium_page(sync_api, PAGE.as_uri()) as page:
        yield page


@pytest.fixture
def page(session):
    assert session.evaluate("document.body.dataset.state") == "ready"
    session.evaluate("""(() => { for (const d of document.querySelectorAll('dialog[open]')) d.close();
        document.getElementById('safe-harbor').checked = false; window.scrollTo(0, 0); return true; })()""")
    yield session
    assert session.errors == []


def cli_redact(text: str, *flags: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "deid_core.cli", "redact", "--keep-safe-harbor", *flags, "-"],
                          input=text, capture_output=True, text=True, cwd=ROOT, check=True)
    return proc.stdout.rstrip("\n")


def test_the_safe_harbor_option_writes_what_the_cli_and_the_api_write(page):
    want = api.process(HARBOR_NOTE, mode="redact", safe_harbor=True)["output"]
    assert want == cli_redact(HARBOR_NOTE, "--rules-only")
    # what the rule permits stays, and nothing more
    for kept in ("Admitted 2021 with", "on [DATE] in", "MA 021XX;", "NH 000XX.", "Father 89 yo",
                 "mother 90+ yo"):
        assert kept in want, (kept, want)
    plain = rules_only_run(page, HARBOR_NOTE, "redact")
    assert plain == api.process(HARBOR_NOTE, mode="redact")["output"] != want
    assert after_run(page, lambda: page.check("#safe-harbor")) == "done"
    assert text_of(page, "output") == want
    # Review with the option: the same as the API's review output with it
    assert after_run(page, lambda: page.check("input[name=mode][value=review]")) == "done"
    assert text_of(page, "output") == api.process(HARBOR_NOTE, mode="review", safe_harbor=True)["output"]
    # Surrogate never takes it (the engine refuses it there): the box is off for Surrogate
    assert after_run(page, lambda: page.check("input[name=mode][value=surrogate]")) == "done"
    assert page.is_disabled("#safe-harbor")
    assert "mother 90+ yo" in text_of(page, "output")   # Surrogate writes 90+ too, never a fake age over 89
    assert after_run(page, lambda: page.check("input[name=mode][value=redact]")) == "done"
    assert text_of(page, "output") == want


@needs_model
def test_the_safe_harbor_option_with_the_model_is_the_cli_with_the_model(page):
    page.evaluate("window.deid.modelReady")
    got = page.evaluate("(t) => window.deid.processDetailed(t, {mode: 'redact', safeHarbor: true})", HARBOR_NOTE)
    assert got["engine"] == "ensemble"
    assert got["result"]["output"] == cli_redact(HARBOR_NOTE, "--model-form", "exact")


def test_what_is_removed_lists_the_18_identifiers_with_outputs_and_recall(page):
    harbor = api.page_harbor()
    assert MANIFEST["texts"]["harbor"] == json.loads(json.dumps(harbor))
    assert not page.evaluate("document.getElementById('removed').open")
    page.click("#removed summary")
    assert page.is_visible("#removed-table")
    rows = page.evaluate("""[...document.querySelectorAll('#removed-table tbody tr')].map(tr => ({
        letter: tr.dataset.letter, head: tr.querySelector('th').textContent,
        redact: tr.querySelector('.redact').textContent, surrogate: tr.querySelector('.surrogate').textContent,
        harbor: tr.querySelector('.safe-harbor').textContent, labels: tr.querySelector('.labels').textContent,
        recall: [...tr.querySelectorAll('.recall div')].map(d => [d.dataset.corpus, Number(d.dataset.certain), d.textContent])}))""")
    assert [r["letter"] for r in rows] == list("ABCDEFGHIJKLMNOPQR")
    for got, want in zip(rows, harbor["rows"]):
        assert got["head"].startswith(f"{want['letter']}. {want['name']}")
        assert (got["redact"], got["surrogate"], got["harbor"]) == (want["redact"], want["surrogate"], want["safe_harbor"])
        for label in want["labels"]:
            assert label in got["labels"]
        assert [c for c, _, _ in got["recall"]] == [r["corpus"] for r in want["recall"]]
    names = {r["letter"]: r for r in rows}
    real_a = FIGURES["corpora"]["real_notes"]["per_identifier"]["A"]
    assert names["A"]["recall"][0][:2] == ["real_notes", real_a["certain"]]
    assert f"{100 * real_a['certain']:.1f} %" in names["A"]["recall"][0][2]
    assert "021XX" in names["B"]["harbor"] and "000XX" in names["B"]["harbor"]
    assert "90+" in names["C"]["harbor"]
    knowledge = text_of(page, "actual-knowledge")
    assert "actual knowledge" in knowledge
    for paragraph in harbor["actual_knowledge"]:
        assert paragraph in knowledge
    assert harbor["text_limits"][0] in text_of(page, "text-limits")


def test_the_benchmark_shows_residual_risk_next_to_recall(page):
    real = FIGURES["corpora"]["real_notes"]["residual_risk"]
    box = page.evaluate("""(b => ({text: b.textContent, certain: Number(b.dataset.certain), upper: Number(b.dataset.certainUpper),
        review: Number(b.dataset.review), reviewUpper: Number(b.dataset.reviewUpper)}))(document.querySelector('#bench-real .real-risk'))""")
    assert (box["certain"], box["upper"]) == (real["certain"]["per_1000_notes"], real["certain"]["upper_95_per_1000_notes"])
    assert (box["review"], box["reviewUpper"]) == (real["with_review"]["per_1000_notes"],
                                                  real["with_review"]["upper_95_per_1000_notes"])
    assert f"{real['certain']['per_1000_notes']:.1f} with the certain marks alone (95 % upper bound " \
           f"{real['certain']['upper_95_per_1000_notes']:.1f})" in box["text"]
    assert "Poisson upper bound (Garwood)" in box["text"] and "per 1,000 real ICU nursing notes" in box["text"]
    # the self-benchmark's own residual risk, rules only, from the engine in the page
    page.evaluate("document.getElementById('rules-only').checked = true")
    page.click("#bench-run")
    poll(page, "document.body.dataset.bench === 'done'", timeout=300)
    from deid_core.evaluate import evaluate_corpus_json
    report = json.loads(evaluate_corpus_json((ROOT / "corpus" / "notes.jsonl").read_text(encoding="utf-8")))
    want = api.residual_risk_summary(report["residual_risk"], "invented notes like these")
    got = page.evaluate("""[...document.querySelectorAll('#bench-risk .risk')].map(b => [b.dataset.engine,
        Number(b.dataset.certain), Number(b.dataset.certainUpper), b.textContent])""")
    assert len(got) == 1 and got[0][0] == "rules only, invented corpus"
    assert got[0][1:3] == [want["certain"]["per_1000_notes"], want["certain"]["upper_95_per_1000_notes"]]
    for sentence in want["sentences"]:
        assert sentence in got[0][3]


def test_about_shows_the_licence_and_every_third_party_part(page):
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    page.click("#about summary")
    assert page.is_visible("#licence-text")
    assert text_of(page, "licence-text") == licence.strip()
    summary = text_of(page, "about-licence")
    assert "MIT License" in summary and "Copyright (c) 2026 the deid contributors" in summary
    parts = page.evaluate("""[...document.querySelectorAll('#notices tr[data-part]')].map(tr =>
        [tr.dataset.part, tr.querySelector('.licence').textContent])""")
    want = [[p["name"], p["licence"]] for sec in notice_data()["sections"] for p in sec["parts"]]
    assert parts == want
    assert ["pyodide", "MPL-2.0"] in parts and ["onnxruntime-web", "MIT"] in parts


@pytest.mark.parametrize("rules_only", [True, False], ids=["rules", "model"])
def test_every_safe_harbor_case_in_the_page(page, rules_only):
    """The shared table of the option (deid_core.safe_harbor.safe_harbor_cases: every identifier
    kind, both ZIP3 cases, ages 89 and 90, a birth year implying 90+, dates with and without a
    year), through the page's engine as the checkbox sends it, with the rules alone and with the
    model (where the page has it)."""
    from deid_core.safe_harbor import safe_harbor_cases
    if not rules_only and MANIFEST.get("model") is None:
        pytest.skip("the page was built without the NER model")
    cases = safe_harbor_cases()
    got = page.evaluate("""async ([texts, rulesOnly]) => { const out = [];
        for (const t of texts) out.push((await window.deid.process(t, {mode: 'redact', safeHarbor: true, rulesOnly})).output);
        return out; }""", [[c["text"] for c in cases], rules_only])
    assert {c["kind"]: g for c, g in zip(cases, got)} == {c["kind"]: c["expected"] for c in cases}
