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


def rewritten_session(path, extra_outputs=()):
    """An onnxruntime session of :func:`integer_graph` ``(path)`` that also outputs the
    ``(name, ONNX element type)`` tensors of the rewritten graph (the quantised activation, the
    row steps)."""
    import onnxruntime as ort
    from deid_core.ner.int8 import integer_graph
    blob, rewritten = integer_graph(path)
    m = onnx.load_from_string(blob)
    for name, elem in extra_outputs:
        m.graph.output.append(onnx.helper.make_tensor_value_info(name, elem, None))
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]), m, rewritten


def reference_rows(a, w_int8, w_scale):
    """What the integer form must compute, in numpy: each row of ``a`` quantised to 0..127 from
    its own range (zero point included), exact integer products, rescaled (module docstring of
    :mod:`deid_core.ner.int8`)."""
    lo, hi = np.minimum(a.min(axis=1), 0), np.maximum(a.max(axis=1), 0)
    step = np.maximum(hi - lo, np.float32(1e-30)) * np.float32(1 / 126)
    zero = np.round(-(lo / step))
    q = np.clip(np.round(a / step[:, None]) + zero[:, None], 0, 255).astype(np.int64)
    acc = (q - zero[:, None].astype(np.int64)) @ w_int8.astype(np.int64)
    return (acc.astype(np.float32) * w_scale.astype(np.float32)) * step[:, None], q


def _adversarial_rows(rng):
    """Rows that drive the 8-bit form into int16 saturation on AVX2: every value at the row's
    top (all quantise to the highest step), alternating extremes, and random rows."""
    return np.concatenate([np.full((2, K), 3.0), np.tile([5.0, -0.2], (2, K // 2)),
                           -np.full((1, K), 2.0), rng.normal(0, 2, (5, K))]).astype(np.float32)


@needs_ort
@pytest.mark.parametrize("extra_float_matmul", [False, True])
def test_rewrite_computes_integer_products(tmp_path, extra_float_matmul):
    """The rewritten graph's integer products equal numpy's, exactly, and its activations stay
    in 0..127, so that no pair of u8 x s8 products can pass 32,767 (the int16 that AVX2's
    vpmaddubsw saturates): 2 * 127 * 128 = 32,512."""
    rng = np.random.default_rng(7)
    w = rng.integers(-128, 128, (K, N)).astype(np.int8)
    w[:, 0], w[:, 1] = 127, -128                           # the extreme columns
    w_scale = rng.uniform(0.001, 0.02, N)
    path = tmp_path / "w.onnx"
    weight_only_graph(path, w, w_scale, extra_float_matmul)
    qz, step = "a_int8form_qz", "a_int8form_scale"
    sess, m, rewritten = rewritten_session(path, ((qz, onnx.TensorProto.UINT8),
                                                  (step, onnx.TensorProto.FLOAT)))
    assert rewritten == 1                                   # the float MatMul is left alone
    ops = [n.op_type for n in m.graph.node]
    assert "MatMulIntegerToFloat" in ops and "QuantizeLinear" in ops
    assert "DequantizeLinear" not in ops and "DynamicQuantizeLinear" not in ops
    assert ops.count("MatMul") == int(extra_float_matmul)
    weights = {i.name: onnx.numpy_helper.to_array(i) for i in m.graph.initializer}
    (mm,) = [n for n in m.graph.node if n.op_type == "MatMulIntegerToFloat"]
    wz, ws = weights[mm.input[1]], weights[mm.input[3]]
    assert wz.dtype == np.int8 and wz.shape[0] > K        # W plus its split column sums
    assert np.array_equal(wz[:K], w)
    a = _adversarial_rows(rng)
    got, q, s = sess.run(["y", qz, step], {"a": a})
    assert q.dtype == np.uint8 and int(q.max()) <= 127     # 7 bits: the products cannot saturate
    odd = q.shape[1] % 2                                    # adjacent products, in pairs
    qp = np.pad(q.astype(np.int64), ((0, 0), (0, odd)))[:, :, None]
    wp = np.pad(wz.astype(np.int64), ((0, odd), (0, 0)))
    pairs = np.abs(qp[:, 0::2] * wp[0::2] + qp[:, 1::2] * wp[1::2])
    assert int(pairs.max()) <= 32512
    # the integer product itself: exact (float32 holds these integers exactly)
    exact = (q.astype(np.int64) @ wz.astype(np.int64)).astype(np.float32) * ws * s[:, None]
    y_integer = got if not extra_float_matmul else got   # the float MatMul is the identity
    assert np.array_equal(y_integer, exact)
    want, q_ref = reference_rows(a, w, w_scale)
    assert np.array_equal(q[:, :K], q_ref)                 # the same quantisation as numpy's
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6), abs(got - want).max()
    dense = a @ (w.astype(np.float32) * w_scale.astype(np.float32))
    assert not np.array_equal(got, dense)                   # it is not the float product
    assert abs(got - dense).max() < 0.02 * abs(dense).max()  # but close to it


def test_split_column_sums_add_up_to_minus_the_column_sums():
    from deid_core.ner.int8 import split_column_sums
    w = np.array([[127, -128, 5], [127, -128, -5], [127, -128, 0]], np.int8)
    r = split_column_sums(w, 4)                  # 384 = 3 * 127 + 3: four int8 pieces
    assert r.dtype == np.int8 and r.shape == (4, 3) and abs(r.astype(int)).max() <= 127
    assert r.astype(int).sum(axis=0).tolist() == [-381, 384, 0]
    with pytest.raises(ValueError, match="needs more than 3 pieces"):
        split_column_sums(w, 3)


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
def test_the_exact_form_gives_the_shipped_graphs_logits_bit_for_bit():
    """``exact`` folds each weight's dequantisation at load (EXACT_CONFIG): on windows of the
    corpus, short and long, its logits equal those of the shipped graph run as it is."""
    import onnxruntime as ort
    exact = OnnxNer.load(threads=1)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    shipped = ort.InferenceSession(str(exact.model.onnx_path), opts,
                                   providers=["CPUExecutionProvider"])
    docs = read_corpus("corpus/notes.jsonl")[:12]
    for d in docs:
        p = exact.model.prepare(d.text)
        feeds = {k: np.asarray(getattr(p, k), dtype=np.int64) for k in exact._feeds}
        assert np.array_equal(exact.session.run(None, feeds)[0], shipped.run(None, feeds)[0])


@needs_model
def test_the_integer_form_finds_what_the_exact_form_finds(forms):
    """The shipped model in integer form: sources name it, and on the last 60 corpus notes
    rules + model recall (certain + review) is within 0.2 points of the exact form's (measured:
    the same); some of these notes were trained on, so this checks agreement, not a score."""
    exact, _ = forms
    integer = OnnxNer.load(threads=1, form="integer")
    assert integer.model.name == "minilm6-int8" and integer.model.stride == exact.model.stride
    docs = list(read_corpus("corpus/notes.jsonl"))[-60:]
    assert all(s.source.startswith("ner:minilm6-int8:p=") for d in docs for s in integer.spans(d.text))
    r_exact, r_integer = _recall(docs, exact), _recall(docs, integer)
    assert r_exact > 0.98 and r_integer > r_exact - 0.002, (r_exact, r_integer)


#: Run under an emulated CPU without AVX-512 or VNNI: the 8-bit form of quantize_dynamic
#: (u8 activations 0..255) saturates there, the integer form does not.
_NO_VNNI_CHECK = r"""
import sys
import numpy as np, onnx, onnxruntime as ort
from onnx import TensorProto as T, helper, numpy_helper
sys.path.insert(0, sys.argv[1])
from deid_core.ner.int8 import integer_graph
K, N = 64, 8
a_u8 = np.full((4, K), 255, np.uint8)
w = np.full((K, N), 127, np.int8)
g = helper.make_graph([helper.make_node("MatMulInteger", ["a", "w"], ["y"])], "g",
                      [helper.make_tensor_value_info("a", T.UINT8, [None, K])],
                      [helper.make_tensor_value_info("y", T.INT32, [None, N])],
                      [numpy_helper.from_array(w, "w")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]); m.ir_version = 8
y = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"a": a_u8})[0]
print("eight_bit_exact", bool((y == 255 * 127 * K).all()))
sess = ort.InferenceSession(integer_graph(sys.argv[2])[0], providers=["CPUExecutionProvider"])
rng = np.random.default_rng(3)
a = np.concatenate([np.full((2, K_IN), 3.0), rng.normal(0, 2, (6, K_IN))]).astype(np.float32)
got = sess.run(None, {"a": a})[0]
np.save(sys.argv[3], got)
"""


@pytest.mark.slow
@needs_ort
def test_the_integer_form_is_exact_on_a_cpu_without_vnni(tmp_path):
    """Where ``qemu-x86_64`` is installed (Debian ``qemu-user``): on an emulated Haswell (AVX2,
    no AVX-512, no VNNI) onnxruntime's 8-bit u8 x s8 product saturates, and the integer form's
    output equals this CPU's bit for bit (its integer products are exact on both)."""
    import shutil
    import subprocess
    import onnxruntime as ort
    from pathlib import Path
    from deid_core.ner.int8 import integer_graph
    qemu = shutil.which("qemu-x86_64")
    if qemu is None:
        pytest.skip("qemu-x86_64 absent (apt-get install qemu-user)")
    rng = np.random.default_rng(11)
    w = rng.integers(-128, 128, (K, N)).astype(np.int8)
    path = tmp_path / "w.onnx"
    weight_only_graph(path, w, rng.uniform(0.001, 0.02, N))
    script = tmp_path / "check.py"
    script.write_text(_NO_VNNI_CHECK.replace("K_IN", str(K)))
    out = tmp_path / "emulated.npy"
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.run([qemu, "-cpu", "Haswell", sys.executable, str(script), root, str(path),
                           str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "eight_bit_exact False" in proc.stdout      # the emulated CPU has no VNNI
    rng = np.random.default_rng(3)
    a = np.concatenate([np.full((2, K), 3.0), rng.normal(0, 2, (6, K))]).astype(np.float32)
    here = ort.InferenceSession(integer_graph(path)[0], providers=["CPUExecutionProvider"])
    assert np.array_equal(np.load(out), here.run(None, {"a": a})[0])


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
    for form, name in (("exact", "minilm6"), ("integer", "minilm6-int8"), ("fast", "minilm4-int8")):
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
