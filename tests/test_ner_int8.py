"""The fast model form (``--model-form fast``, :mod:`deid_core.ner.int8`): the integer rewrite on
a small invented graph against a numpy reference, on the shipped models, through the CLI and
``deid batch``, and its errors. Skips what needs onnx, onnxruntime or the model when absent."""
from __future__ import annotations

import json
import sys

import pytest

from deid_core.batch import Config
from deid_core.cli import main
from deid_core.ner.onnx_runtime import (OnnxNer, OnnxUnavailable, model_present,
                                        onnxruntime_available)
from deid_core.readers import read_corpus

onnx = pytest.importorskip("onnx")
np = pytest.importorskip("numpy")
needs_ort = pytest.mark.skipif(not onnxruntime_available(), reason="onnxruntime absent")
needs_model = pytest.mark.skipif(not (model_present() and onnxruntime_available()),
                                 reason="model/ner.onnx or onnxruntime absent")

K, N = 8, 5   # the invented graph: A [B, K] @ dequantised W [K, N]


def weight_only_graph(path, w_int8, w_scale, extra_float_matmul=False):
    """An invented weight-only graph: ``Y = A @ DequantizeLinear(W, scale, 0)`` (per column),
    optionally followed by a float ``MatMul`` with a float initializer (left as it is)."""
    from onnx import TensorProto as T, helper, numpy_helper
    nodes = [helper.make_node("DequantizeLinear", ["w_q", "w_scale", "w_zero"], ["w"], axis=1),
             helper.make_node("MatMul", ["a", "w"], ["y" if not extra_float_matmul else "h"],
                              name="dense")]
    inits = [numpy_helper.from_array(w_int8, "w_q"),
             numpy_helper.from_array(w_scale.astype(np.float32), "w_scale"),
             numpy_helper.from_array(np.zeros(N, np.int8), "w_zero")]
    if extra_float_matmul:
        nodes.append(helper.make_node("MatMul", ["h", "f"], ["y"], name="float_dense"))
        inits.append(numpy_helper.from_array(np.eye(N, dtype=np.float32), "f"))
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("a", T.FLOAT, [None, K])],
                          [helper.make_tensor_value_info("y", T.FLOAT, [None, N])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, str(path))


def reference_int8(a, w_int8, w_scale):
    """What the integer form must compute (ONNX DynamicQuantizeLinear, then exact integer
    products, rescaled)."""
    lo, hi = min(0.0, float(a.min())), max(0.0, float(a.max()))
    scale = np.float32((hi - lo) / np.float32(255))
    zero = np.clip(np.round(-lo / scale), 0, 255)
    aq = np.clip(np.round(a / scale) + zero, 0, 255).astype(np.int64)
    acc = (aq - int(zero)) @ w_int8.astype(np.int64)
    return acc.astype(np.float32) * (scale * w_scale.astype(np.float32))


@needs_ort
@pytest.mark.parametrize("extra_float_matmul", [False, True])
def test_rewrite_computes_integer_products(tmp_path, extra_float_matmul):
    import onnxruntime as ort
    from deid_core.ner.int8 import integer_graph
    rng = np.random.default_rng(7)
    w = rng.integers(-127, 128, (K, N)).astype(np.int8)
    w_scale = rng.uniform(0.001, 0.02, N)
    path = tmp_path / "w.onnx"
    weight_only_graph(path, w, w_scale, extra_float_matmul)
    blob, rewritten = integer_graph(path)
    assert rewritten == 1                                   # the float MatMul is left alone
    ops = [n.op_type for n in onnx.load_from_string(blob).graph.node]
    assert "MatMulInteger" in ops and "DynamicQuantizeLinear" in ops
    assert "DequantizeLinear" not in ops
    assert ops.count("MatMul") == int(extra_float_matmul)
    a = rng.normal(0, 2, (3, K)).astype(np.float32)
    got = ort.InferenceSession(blob, providers=["CPUExecutionProvider"]).run(None, {"a": a})[0]
    want = reference_int8(a, w, w_scale)
    assert np.allclose(got, want, rtol=1e-6, atol=1e-6), abs(got - want).max()
    exact = a @ (w.astype(np.float32) * w_scale.astype(np.float32))
    assert not np.array_equal(got, exact)                   # it is not the float product
    assert abs(got - exact).max() < 0.05 * abs(exact).max()  # but close to it


def test_a_graph_without_weight_only_matmul_is_refused(tmp_path):
    from onnx import TensorProto as T, helper
    from deid_core.ner.int8 import integer_graph
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", T.FLOAT, [None])],
                          [helper.make_tensor_value_info("y", T.FLOAT, [None])])
    path = tmp_path / "relu.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    with pytest.raises(ValueError, match="no weight-only int8 MatMul"):
        integer_graph(path)


def test_unknown_forms_and_a_missing_fast_model_are_refused(tmp_path):
    with pytest.raises(OnnxUnavailable, match="unknown model form 'int8'"):
        OnnxNer.load(form="int8")
    with pytest.raises(ValueError, match="unknown model form 'fp16'"):
        Config(model_form="fp16")
    with pytest.raises(OnnxUnavailable, match="fast"):     # no fast/ in this model folder
        OnnxNer.load(tmp_path, form="fast")


@needs_model
def test_missing_onnx_package_is_a_one_line_error(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "onnx", None)          # import onnx -> ImportError
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "text": "Seen by Dr. Tamsin Vorhees."}) + "\n")
    code = main(["detect", "--input", str(src), "--model-form", "fast"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "pip install onnx" in err and "--model-form exact" in err


# -- the shipped model ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def forms():
    return OnnxNer.load(threads=1), OnnxNer.load(threads=1, form="fast")


@needs_model
@pytest.mark.parametrize("sub, layers", [("", 6), ("fast", 4)])
def test_every_weight_matmul_of_the_shipped_models_is_rewritten(sub, layers):
    from deid_core.ner.int8 import integer_graph
    from deid_core.ner.pipeline import model_dir
    path = model_dir() / sub / "ner.onnx"
    graph = onnx.load(str(path)).graph
    producer = {o: n.op_type for n in graph.node for o in n.output}
    weight_matmuls = sum(n.op_type == "MatMul" and producer.get(n.input[1]) == "DequantizeLinear"
                         for n in graph.node)
    assert weight_matmuls == 6 * layers + 1     # q, k, v, out, up, down per layer + the classifier
    assert integer_graph(path)[1] == weight_matmuls


def _recall(docs, ner) -> float:
    """Character recall (non-whitespace, certain + review) of rules + ``ner`` over ``docs``."""
    from deid_core.analyze import analyze
    gold = found = 0
    for d in docs:
        want = {i for g in d.spans for i in range(g.start, g.end) if not d.text[i].isspace()}
        got = {i for s in analyze(d.text, model=ner.spans(d.text)).spans
               for i in range(s.start, s.end)}
        gold, found = gold + len(want), found + len(want & got)
    return found / gold


@needs_model
def test_the_fast_form_finds_nearly_what_the_exact_form_finds(forms):
    """On the last 60 corpus notes, rules + fast model recall (certain + review) is within half
    a point of rules + exact model (measured: fast 1.0000, exact 0.9999; some of these notes were
    trained on, so this checks agreement, not a score); sources name the fast model and form."""
    exact, fast = forms
    assert fast.model.name == "minilm4-int8" and fast.model.stride == fast.model.max_len - 2
    docs = list(read_corpus("corpus/notes.jsonl"))[-60:]
    assert all(s.source.startswith("ner:minilm4-int8:p=") for d in docs for s in fast.spans(d.text))
    r_exact, r_fast = _recall(docs, exact), _recall(docs, fast)
    assert r_exact > 0.98 and r_fast > r_exact - 0.005, (r_exact, r_fast)


@needs_model
def test_batch_and_detect_take_the_form(capsys, tmp_path):
    text = "Tamsin Vorhees called, will visit tomorrow. Transferred from Hollowmere; Foley in place."
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "text": text}) + "\n")
    assert main(["detect", "--input", str(src), "--model-form", "fast"]) == 0
    detected = json.loads(capsys.readouterr()[0])
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(src), "--out", str(out), "--mode", "detect", "--jobs", "1",
                 "--no-progress", "--model-form", "fast"]) == 0
    capsys.readouterr()
    batched = json.loads(out.read_text().splitlines()[0])
    for spans in (detected["spans"], batched["spans"]):
        assert any("-int8:p=" in s["source"] for s in spans)
        masked = [text[s["start"]:s["end"]] for s in spans]
        assert "Tamsin Vorhees" in masked and "Hollowmere" in masked
        assert not any("Foley" in m for m in masked)
    assert [(s["start"], s["end"]) for s in detected["spans"]] == \
        [(s["start"], s["end"]) for s in batched["spans"]]


@needs_model
def test_eval_names_the_engine(capsys, tmp_path):
    p = tmp_path / "one.jsonl"
    p.write_text(json.dumps({"id": "x", "text": "Seen by Dr. Tamsin Vorhees.",
                             "spans": [{"start": 12, "end": 26, "label": "DOCTOR"}]}) + "\n")
    for form, name in (("exact", "minilm6"), ("fast", "minilm4-int8")):
        assert main(["eval", "--format", "corpus", str(p), "--model-form", form]) == 0
        first = capsys.readouterr()[0].splitlines()[0]
        assert first.startswith(f"engine: rules + model {name} (") and first.endswith("ner.onnx)")


@pytest.fixture
def damaged_fast_dir(tmp_path):
    """A model folder whose fast/ner.onnx is cut short (and whose ner.json has no sha256, which
    is optional): onnx cannot parse it."""
    import shutil
    from deid_core.ner.pipeline import model_dir
    src = model_dir()
    d = tmp_path / "md"
    (d / "fast").mkdir(parents=True)
    for name in ("ner.onnx", "ner.json", "vocab.txt"):
        shutil.copy(src / name, d / name)
    shutil.copy(src / "fast" / "vocab.txt", d / "fast" / "vocab.txt")
    (d / "fast" / "ner.onnx").write_bytes((src / "fast" / "ner.onnx").read_bytes()[:100_000])
    cfg = json.loads((src / "fast" / "ner.json").read_text())
    cfg.pop("sha256"), cfg.pop("bytes")
    (d / "fast" / "ner.json").write_text(json.dumps(cfg))
    return d


@needs_model
def test_a_damaged_fast_model_is_a_one_line_error(capsys, tmp_path, damaged_fast_dir):
    note = tmp_path / "note.txt"
    note.write_text("Seen by Dr. Tamsin Vorhees.")
    code = main(["redact", str(note), "--model-dir", str(damaged_fast_dir), "--model-form", "fast"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "cannot read" in err and "--model-form exact" in err
    # the default form of the same folder still works
    assert main(["redact", str(note), "--model-dir", str(damaged_fast_dir)]) == 0


@needs_model
def test_batch_with_a_damaged_fast_model_stops_with_exit_2(tmp_path, damaged_fast_dir):
    """Two worker processes whose engine cannot be built: the run stops (it used to restart
    the workers for ever)."""
    import subprocess
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": k, "text": "Seen by Dr. Vorhees."}) + "\n"
                           for k in range(6)))
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, "-m", "deid_core.cli", "batch", str(src), "--out",
                           str(out), "--jobs", "2", "--no-progress", "--model-form", "fast",
                           "--model-dir", str(damaged_fast_dir)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert "cannot read" in proc.stderr and not out.exists()
    assert not (tmp_path / "out.jsonl.part").exists()


def test_a_model_folder_without_fast_names_the_folder_and_the_way_out(capsys, tmp_path):
    (tmp_path / "ner.onnx").write_bytes(b"x")
    note = tmp_path / "note.txt"
    note.write_text("Seen by Dr. Tamsin Vorhees.")
    code = main(["redact", str(note), "--model-dir", str(tmp_path), "--model-form", "fast"])
    err = capsys.readouterr()[1]
    assert code == 2 and err.count("\n") == 1
    assert f"no fast model at {tmp_path / 'fast'}" in err and "--model-form exact" in err
