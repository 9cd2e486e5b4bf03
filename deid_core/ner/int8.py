"""The CLI's model forms: the shipped weight-only int8 graph run in fp32 (``exact``), or rewritten,
in memory, to integer matrix products that are exact on every x86 CPU (``integer``, ``fast``).

The shipped models keep their matrix weights as int8 but compute in fp32: each weight is
``DequantizeLinear(W_int8, scale, 0)`` feeding a float ``MatMul`` (``training/weight_only.py``),
so onnxruntime in CPython and onnxruntime-web in the page give the same spans.

``exact``: that graph as it is, with onnxruntime told to dequantise each weight once, at load
(:data:`EXACT_CONFIG`), instead of at every run: the same logits bit for bit, 15 % sooner.

``integer`` and ``fast`` (:func:`integer_graph`): every ``MatMul(A, DequantizeLinear(W))``
becomes an integer product with the same int8 weights and scales (nothing is re-quantised)::

    per row r of A (one token):  lo = min(A_r, 0), hi = max(A_r, 0), s_r = (hi - lo) / 126
                                 z_r = round(-lo / s_r)                      (0 .. 126)
                                 Q_r = round(A_r / s_r) + z_r                (0 .. 127)
    MatMulIntegerToFloat([Q | z_r ... z_r], [W ; R]) * s_r  =  s_r * sum_k (Q_rk - z_r) W_kn * w_scale_n

**Why 7-bit activations.** x86 CPUs without int8 dot-product instructions (AVX2, AVX-512 without
VNNI) multiply u8 by s8 with ``vpmaddubsw``, which adds two products into a SATURATING int16:
with u8 activations up to 255 and s8 weights down to -128 a pair reaches 65,280 and is clipped
(the form of ``quantize_dynamic`` computed other numbers there: logits up to 1.75 apart).
Activations of 0..127 bound a pair by 2 * 127 * 128 = 32,512 < 32,767, so the integer products
are exact on AVX2, AVX-512, AVX-VNNI, AVX512-VNNI and AMX alike (``tests/test_ner_int8.py``
checks them against numpy; under ``qemu-x86_64 -cpu Haswell`` too when that is installed).

**Why per row, with its own zero point.** Each token is quantised from its own range, so a note's
spans do not depend on which other notes or windows share its batch (the per-tensor scale of
``DynamicQuantizeLinear`` did: see :meth:`deid_core.ner.onnx_runtime.OnnxNer.spans_many`); the
zero point puts the 128 steps where the row's values are (a GELU output lies in -0.17..3: a
symmetric scale would spend half its steps on nothing). onnxruntime's integer product takes one
zero point per tensor, so the row's is folded into the product itself: ``J`` extra columns of A
hold ``z_r`` and ``J`` extra rows of W hold ``-sum_k W_kn`` cut into int8 pieces (``J`` = 5 to
58 here, a few % more columns); the result is exactly ``sum_k (Q_rk - z_r) W_kn``.

Measured on the 6-layer model (this 2-core machine, an Intel Xeon with AMX and AVX512-VNNI,
shared with others: load 9 to 12; one thread; 128-position windows of real notes), and rules +
model on the real-notes development half (``deid eval``; recall certain / with review):

==================================================  ==========  =================
form                                                ms/window   recall
==================================================  ==========  =================
shipped graph, fp32, weights dequantised every run  24 - 29     0.9709 / 0.9809
``exact`` (weights dequantised once, same logits)   15 % less   0.9709 / 0.9809
``integer`` (per row, 7 bits, zero point)           10.6 - 12   0.9692 / 0.9792
per row, 7 bits, symmetric (no zero point)          3 % less    0.9692 / 0.9792
per window, 8 bits, ``quantize_dynamic``'s form     8.6         0.9657 / 0.9756
==================================================  ==========  =================

(ASQ-PHI dev and the project corpus: ``integer`` 0.9806 / 0.9817 and 0.9901 / 0.9958, as
``exact``.) The 8-bit form saturates on AVX2 and, quantised per window, loses half a point of
recall; per row it keeps the exact form's recall within 0.2 points.

The integer forms' spans are NOT the page's (their logits are within about 1 of the exact
form's, mean 0.03); ``exact`` is. ``fast`` is the 4-layer model of ``model/fast/`` (the same
training run cut to the base encoder's first 4 layers, model card) in integer form.

The integer forms need the ``onnx`` package (a dependency of the CLI), imported only inside
:func:`integer_graph`: importing this module stays standard library only.
"""
from __future__ import annotations

from math import ceil
from pathlib import Path

__all__ = ["ACTIVATION_STEPS", "CLI_FORM", "EXACT_CONFIG", "FAST_DIR", "FORMS", "INT8_OPTIMIZATION",
           "INTEGER_FORMS", "integer_graph", "split_column_sums"]

#: The model forms the CLI can run: ``exact`` (the model folder's ``ner.onnx`` in fp32, the page's
#: spans), ``integer`` (the same model in integer form) and ``fast`` (its ``fast/`` sub-folder's
#: smaller model, in integer form).
FORMS = ("exact", "integer", "fast")

#: The forms run with integer matrix products.
INTEGER_FORMS = ("integer", "fast")

#: The form ``deid detect``, ``eval``, the text commands and ``deid batch`` run by default: the
#: fastest whose recall on every development set is within 0.2 points of ``exact``
#: (module docstring; the page always runs the shipped graph).
CLI_FORM = "integer"

#: The fast model's folder inside the model folder.
FAST_DIR = "fast"

#: Steps of a row's range: activations take the values 0..127 (zero point included).
ACTIVATION_STEPS = 126

#: Most an int8 piece of a split column sum holds (|piece| <= 127: R rows stay int8).
_PIECE = 127

#: onnxruntime graph optimisation of the integer forms: the extended fusions (skip-LayerNorm,
#: bias-GELU) reorder float sums, which the integer forms' spans do not promise to keep.
INT8_OPTIMIZATION = "ORT_ENABLE_EXTENDED"

#: Session config entries of the ``exact`` form. ``disable_quant_qdq``: onnxruntime then folds
#: each ``DequantizeLinear`` of a constant weight once, at load, instead of running it at every
#: call (a fifth of the fp32 form's time); ``disable_prepacking``: the folded weights are not
#: re-packed for the float kernel, whose sums would then round differently from the shipped
#: graph's. With both, the logits are the shipped graph's bit for bit (``tests/test_ner_int8.py``).
EXACT_CONFIG = {"session.disable_quant_qdq": "1", "session.disable_prepacking": "1"}


def _weight_matmuls(graph, numpy_helper, TensorProto):
    """``[(matmul node, dequantize node, int8 weight [K, N], scale [N] or scalar)]`` for every
    ``MatMul(A, DequantizeLinear(W_int8 initializer, scale, 0))`` whose weight is 2-D with a
    zero point of 0 and a per-tensor or per-column (axis 1) scale; others are left as they are."""
    inits = {i.name: i for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    out = []
    for n in graph.node:
        deq = producer.get(n.input[1]) if n.op_type == "MatMul" and len(n.input) == 2 else None
        if deq is None or deq.op_type != "DequantizeLinear" or deq.input[0] not in inits \
                or inits[deq.input[0]].data_type != TensorProto.INT8 \
                or any(i not in inits for i in deq.input[1:]):
            continue
        w = numpy_helper.to_array(inits[deq.input[0]])
        scale = numpy_helper.to_array(inits[deq.input[1]])
        zero = numpy_helper.to_array(inits[deq.input[2]]) if len(deq.input) > 2 else None
        axis = next((a.i for a in deq.attribute if a.name == "axis"), 1)
        if w.ndim != 2 or (zero is not None and zero.any()) or \
                not (scale.size == 1 or (scale.ndim == 1 and axis in (1, -1) and scale.size == w.shape[1])):
            continue
        out.append((n, deq, w, scale))
    return out


def _replace_nodes(graph, nodes, dropped: set[str]) -> None:
    """Put ``nodes`` in ``graph`` without the ``DequantizeLinear`` nodes whose outputs in
    ``dropped`` nothing reads any more, and drop the initializers no node reads."""
    still = {i for n in nodes for i in n.input}
    nodes = [n for n in nodes if not (n.op_type == "DequantizeLinear" and n.output[0] in dropped
                                      and n.output[0] not in still)]
    del graph.node[:]
    graph.node.extend(nodes)
    used = {i for n in nodes for i in n.input} | {o.name for o in graph.output}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)


def _reduce(helper, op: str, x: str, y: str, opset: int, axis1: str):
    """``op`` (ReduceMax / ReduceMin) of ``x`` over axis 1, without keeping it: an attribute
    before opset 18, an input (the initializer ``axis1``) from 18 on."""
    if opset >= 18:
        return helper.make_node(op, [x, axis1], [y], keepdims=0, name=y)
    return helper.make_node(op, [x], [y], axes=[1], keepdims=0, name=y)


def split_column_sums(w, pieces: int):
    """``R`` (``pieces`` x N, int8 values) whose rows add up to ``-sum_k w[k, n]`` per column:
    the extra rows of W that fold a row's zero point into the integer product (module docstring).

    Raises:
        ValueError: when a column sum needs more than ``pieces`` int8 pieces.
    """
    import numpy as np
    rest = -w.astype(np.int64).sum(axis=0)
    if pieces < 1 or int(np.abs(rest).max(initial=0)) > _PIECE * pieces:
        raise ValueError(f"a column sum of {int(np.abs(rest).max())} needs more than {pieces} pieces")
    out = np.zeros((pieces, w.shape[1]), np.int64)
    for r in range(pieces):
        share = np.trunc(rest / (pieces - r))
        out[r] = share
        rest = rest - share
    return out.astype(np.int8)


def integer_graph(path: str | Path) -> tuple[bytes, int]:
    """The ONNX model at ``path`` with every weight-only int8 ``MatMul`` made an integer one that
    no x86 CPU can saturate (module docstring: per-row 7-bit activations with a zero point).

    Args:
        path: a weight-only int8 ONNX file (``DequantizeLinear`` of an int8 initializer with a zero
            point of 0 as the second input of ``MatMul``), such as ``model/ner.onnx``.

    Returns:
        ``(serialized model bytes, number of MatMuls rewritten)``; the bytes load with
        ``onnxruntime.InferenceSession(bytes)`` (they use the ``com.microsoft`` operator
        ``MatMulIntegerToFloat`` of onnxruntime's CPU provider).

    Raises:
        ImportError: when the ``onnx`` package is missing.
        ValueError: when the file holds no weight-only int8 MatMul (nothing to rewrite).
    """
    import numpy as np
    import onnx
    from onnx import TensorProto as T, helper, numpy_helper

    model = onnx.load(str(path))
    g = model.graph
    found = _weight_matmuls(g, numpy_helper, T)
    if not found:
        raise ValueError(f"{path} has no weight-only int8 MatMul to make an integer one")
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset < 13:
        raise ValueError(f"{path} is ONNX opset {opset}: the integer form needs 13 or later")
    taken = {i.name for i in g.initializer} | {o for n in g.node for o in n.output} | \
        {i.name for i in g.input}
    consts: dict[str, str] = {}

    def const(key: str, value) -> str:
        """The name of an initializer holding ``value`` (one per ``key``)."""
        if key not in consts:
            name = f"int8form_{key}"
            while name in taken:
                name += "_"
            taken.add(name)
            g.initializer.append(numpy_helper.from_array(np.asarray(value), name))
            consts[key] = name
        return consts[key]

    # the extra columns an activation needs: the most any of its weights' column sums takes
    pieces: dict[str, int] = {}
    for n, _, w, _ in found:
        need = ceil(int(np.abs(w.astype(np.int64).sum(axis=0)).max(initial=0)) / _PIECE)
        pieces[n.input[0]] = max(pieces.get(n.input[0], 1), need)
    target = {id(n): (deq, w, scale) for n, deq, w, scale in found}
    zero, one = const("f0", np.float32(0.0)), const("f1", np.float32(1.0))
    tiny, step = const("tiny", np.float32(1e-30)), const("step", np.float32(1.0 / ACTIVATION_STEPS))
    axis1 = const("axis1", np.array([1], np.int64))
    a_zero, w_zero = const("u0", np.uint8(0)), const("i0", np.int8(0))
    quantized: dict[str, tuple[str, str, str]] = {}
    nodes, dropped = [], set()
    for n in g.node:
        if id(n) not in target:
            nodes.append(n)
            continue
        deq, w, scale = target[id(n)]
        a = n.input[0]
        k, cols = w.shape
        j = pieces[a]
        if a not in quantized:
            p = f"{a}_int8form"
            nodes += [
                helper.make_node("Reshape", [a, const(f"rows{k}", np.array([-1, k], np.int64))],
                                 [f"{p}_2d"], name=f"{p}_2d"),
                _reduce(helper, "ReduceMax", f"{p}_2d", f"{p}_max", opset, axis1),
                _reduce(helper, "ReduceMin", f"{p}_2d", f"{p}_min", opset, axis1),
                helper.make_node("Max", [f"{p}_max", zero], [f"{p}_hi"], name=f"{p}_hi"),
                helper.make_node("Min", [f"{p}_min", zero], [f"{p}_lo"], name=f"{p}_lo"),
                helper.make_node("Sub", [f"{p}_hi", f"{p}_lo"], [f"{p}_range0"], name=f"{p}_range0"),
                helper.make_node("Max", [f"{p}_range0", tiny], [f"{p}_range"], name=f"{p}_range"),
                helper.make_node("Mul", [f"{p}_range", step], [f"{p}_scale"], name=f"{p}_scale"),
                helper.make_node("Div", [f"{p}_lo", f"{p}_scale"], [f"{p}_zneg"], name=f"{p}_zneg"),
                helper.make_node("Neg", [f"{p}_zneg"], [f"{p}_zfloat"], name=f"{p}_zfloat"),
                helper.make_node("Round", [f"{p}_zfloat"], [f"{p}_zround"], name=f"{p}_zround"),
                helper.make_node("Cast", [f"{p}_zround"], [f"{p}_zero"], to=T.UINT8, name=f"{p}_zero"),
                helper.make_node("QuantizeLinear", [f"{p}_2d", f"{p}_scale", f"{p}_zero"], [f"{p}_q"],
                                 axis=0, name=f"{p}_q"),
                helper.make_node("Unsqueeze", [f"{p}_zero", axis1], [f"{p}_zcol"], name=f"{p}_zcol"),
                helper.make_node("Expand", [f"{p}_zcol", const(f"cols{j}", np.array([1, j], np.int64))],
                                 [f"{p}_zblock"], name=f"{p}_zblock"),
                helper.make_node("Concat", [f"{p}_q", f"{p}_zblock"], [f"{p}_qz"], axis=1,
                                 name=f"{p}_qz"),
                helper.make_node("Unsqueeze", [f"{p}_scale", axis1], [f"{p}_scol"], name=f"{p}_scol"),
                helper.make_node("Shape", [a], [f"{p}_shape"], name=f"{p}_shape"),
                helper.make_node("Slice", [f"{p}_shape", const("start0", np.array([0], np.int64)),
                                           const("end-1", np.array([-1], np.int64))],
                                 [f"{p}_lead"], name=f"{p}_lead"),
            ]
            quantized[a] = (f"{p}_qz", f"{p}_scol", f"{p}_lead")
        qz, scol, lead = quantized[a]
        base = f"{n.name or n.output[0]}_int8form"
        wz = np.concatenate([w.astype(np.int8), split_column_sums(w, j)])
        w_scale = np.broadcast_to(scale.astype(np.float32).reshape(-1), (cols,)).copy()
        nodes += [
            helper.make_node("MatMulIntegerToFloat",
                             [qz, const(f"{base}_w", wz), one, const(f"{base}_scale", w_scale),
                              a_zero, w_zero], [f"{base}_y"], domain="com.microsoft", name=base),
            helper.make_node("Mul", [f"{base}_y", scol], [f"{base}_rows"], name=f"{base}_rows"),
            helper.make_node("Concat", [lead, const(f"n{cols}", np.array([cols], np.int64))],
                             [f"{base}_shape"], axis=0, name=f"{base}_shape"),
            helper.make_node("Reshape", [f"{base}_rows", f"{base}_shape"], [n.output[0]],
                             name=f"{base}_out"),
        ]
        dropped.add(deq.output[0])
    _replace_nodes(g, nodes, dropped)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return model.SerializeToString(), len(found)
