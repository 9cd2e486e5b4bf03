"""deid_core.spark on a local Spark session (local[2]) equals deid batch on the same input and
key, per-patient linkage included. Skipped when pyspark or Java is absent. Invented notes only."""
import json
import os
import shutil
import sys

import pytest

from deid_core.batch import Config, run_batch

pytest.importorskip("pyspark", reason="pyspark not installed (pip install 'deid-core[spark]')")
pytest.importorskip("pandas", reason="pandas not installed (pip install 'deid-core[spark]')")
pytest.importorskip("pyarrow", reason="pyarrow not installed (pip install 'deid-core[spark]')")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Java not found (Spark needs Java 17: apt-get install openjdk-17-jre-headless)",
                allow_module_level=True)

from pathlib import Path

KEY = "spark-test-key"
CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "notes.jsonl"
ROWS = [
    {"id": "1", "patient": "P-100", "text": "Admitted on 03/05/2014. Seen by Dr. Anne Whitcombe. Pt: John Smith."},
    {"id": "2", "patient": "P-200", "text": "Admitted on 03/05/2014. Seen by Dr. Anne Whitcombe. Pt: John Smith."},
    {"id": "3", "patient": "P-100", "text": "Discharged 03/19/2014, Pt: John Smith. Foley catheter out; GCS 15."},
    {"id": "4", "patient": "P-300", "text": "Parkinson disease, stable. Metoprolol 25 mg BID. Call 617-555-0199."},
    {"id": "5", "patient": None, "text": "No patient id here."},
]


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (SparkSession.builder.master("local[2]").appName("deid-test")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.memory", "1g").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.mark.parametrize("mode", ["surrogate", "redact"])
def test_spark_equals_batch(spark, tmp_path, mode):
    from deid_core.spark import deidentify
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_batch(src, out, Config(mode=mode, master_key=KEY, per_patient=True, rules_only=True),
              patient_field="patient")
    batch = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    df = spark.createDataFrame(ROWS, "id string, patient string, text string").repartition(2)
    rows = deidentify(df, mode=mode, key=KEY, patient_col="patient", rules_only=True).collect()
    got = {r["id"]: r for r in rows}
    assert sorted(got) == sorted(batch)
    for rid, rec in batch.items():
        row = got[rid]
        assert row["deid_text"] == rec["text"], rid
        assert [s.asDict() for s in row["spans"]] == rec["spans"], rid
        assert row["error"] == rec["error"] or (rec["error"] and row["error"].startswith("no patient"))
    if mode == "surrogate":
        assert batch["1"]["text"] != batch["2"]["text"]  # two patients differ


def test_spark_equals_batch_on_the_corpus(spark, tmp_path):
    """The project corpus (invented notes), five invented patient ids, surrogate mode."""
    from deid_core.spark import deidentify
    notes = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()][:60]
    rows = [{"id": n["id"], "patient": f"P{k % 5}", "text": n["text"]} for k, n in enumerate(notes)]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_batch(src, out, Config(mode="surrogate", master_key=KEY, per_patient=True, rules_only=True),
              patient_field="patient", jobs=2)
    batch = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    df = spark.createDataFrame(rows, "id string, patient string, text string").repartition(2)
    got = {r["id"]: r for r in deidentify(df, mode="surrogate", key=KEY, patient_col="patient",
                                          rules_only=True).collect()}
    assert len(got) == len(batch) == 60
    for rec in batch:
        assert got[rec["id"]]["deid_text"] == rec["text"], rec["id"]
        assert [s.asDict() for s in got[rec["id"]]["spans"]] == rec["spans"], rec["id"]


def test_spark_rejects_a_missing_column(spark):
    from deid_core.spark import deidentify
    df = spark.createDataFrame([{"id": "1", "body": "x"}])
    with pytest.raises(ValueError, match="no column 'text'"):
        deidentify(df, rules_only=True)


def test_spark_keep_safe_harbor_gives_the_shared_table(spark):
    """Issue 24: ``deidentify(..., safe_harbor=True)`` writes what deid redact --keep-safe-harbor
    writes, row for row (deid_core.safe_harbor.safe_harbor_cases)."""
    from deid_core.safe_harbor import safe_harbor_cases
    from deid_core.spark import deidentify
    cases = safe_harbor_cases()
    df = spark.createDataFrame([(c["kind"], c["text"]) for c in cases], ["id", "text"])
    got = {r["id"]: r["deid_text"] for r in
           deidentify(df, mode="redact", rules_only=True, safe_harbor=True).collect()}
    assert got == {c["kind"]: c["expected"] for c in cases}
