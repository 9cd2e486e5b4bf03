"""The CLI's fast model form (``--model-form fast``): the 4-layer model of ``model/fast/`` with
its weight-only int8 graph rewritten, in memory, to integer matrix products.

The shipped models keep their matrix weights as int8 but compute in fp32: each weight is
``DequantizeLinear(W_int8, scale, zero_point)`` feeding a float ``MatMul``
(``training/weight_only.py``), so onnxruntime in CPython and onnxruntime-web in the page give
the same spans. :func:`integer_graph` turns every such ``MatMul(A, DequantizeLinear(W))`` back
into what ``onnxruntime.quantization.quantize_dynamic`` writes::

    DynamicQuantizeLinear(A) -> (A_uint8, a_scale, a_zero_point)
    MatMulInteger(A_uint8, W_int8, a_zero_point, w_zero_point) -> int32
    Cast(float) * (a_scale * w_scale)

with the same int8 weights and scales (nothing is re-quantised): the rewritten 6-layer model's
logits are those of the ``ner_int8.onnx`` that training measured, bit for bit. On CPUs with
int8 dot-product instructions (AVX-VNNI, AVX512-VNNI) onnxruntime runs it 3 to 4 times faster
per window. ``model/fast/`` holds the same training run cut to the base encoder's first 4 layers
(``python -m training.train ... --layers 4 --stride 126 --out model/fast``, model card), and
its ``ner.json`` sets a whole-window stride (2.59 windows a real note instead of 2.97).

Measured on this 2-core machine, CPU per 128-position window, one thread
(``scripts/bench_ner.py``), and on the 1,278 real notes, rules + model, recall certain / with
review (``deid eval ... [--model-form fast] [--model-dir DIR]``):

=====================================  ========  ===============  ===============
form                                   ms/window recall           precision
=====================================  ========  ===============  ===============
6 layers, weight-only (``exact``)      28        0.956 / 0.977    0.867 / 0.837
6 layers, integer                      7.5       0.950 / 0.972    0.869 / 0.839
4 layers, integer (``fast``)           5.5       0.953 / 0.974    0.862 / 0.833
3 layers, integer                      4.0       0.942 / 0.972    0.871 / 0.841
=====================================  ========  ===============  ===============

The integer forms' spans are NOT the page's: the activations are quantised per batch from their
own range, so a last-bit difference in a float (a LayerNorm summed in another order) moves a
rounding step, and the change grows layer by layer (6-layer integer form against the page on 510
notes: logits up to 1.8 apart, model spans different on 41 notes). So the default form is the
shipped graph, and ``fast`` is chosen by name, for corpus runs that trade a third of a point of
recall for four times the speed.

Needs the ``onnx`` package (a dependency of the CLI), imported only inside :func:`integer_graph`:
importing this module stays standard library only.
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["FAST_DIR", "FORMS", "INT8_OPTIMIZATION", "integer_graph"]

#: The model forms the CLI can run: ``exact`` (the model folder's ``ner.onnx`` as shipped) and
#: ``fast`` (its ``fast/`` sub-folder's model, in integer form).
FORMS = ("exact", "fast")

#: The fast model's folder inside the model folder.
FAST_DIR = "fast"

#: onnxruntime graph optimisation of the integer form: the extended fusions (quantise + integer
#: product + rescale in one kernel, skip-LayerNorm, GELU) took 8.1 instead of 10.2 ms of CPU per
#: 128-position window of the 6-layer model here. They reorder float sums, which the integer
#: form's spans already do not promise to keep (module docstring).
INT8_OPTIMIZATION = "ORT_ENABLE_EXTENDED"


def integer_graph(path: str | Path) -> tuple[bytes, int]:
    """The ONNX model at ``path`` with every weight-only int8 ``MatMul`` made an integer one.

    Args:
        path: a weight-only int8 ONNX file (``DequantizeLinear`` of an int8 initializer as the
            second input of ``MatMul``), such as ``model/fast/ner.onnx``.

    Returns:
        ``(serialized model bytes, number of MatMuls rewritten)``; the bytes load with
        ``onnxruntime.InferenceSession(bytes)``.

    Raises:
        ImportError: when the ``onnx`` package is missing.
        ValueError: when the file holds no weight-only int8 MatMul (nothing to rewrite).
    """
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    quantized: dict[str, tuple[str, str, str]] = {}   # activation -> (uint8, scale, zero point)
    nodes, dropped, rewritten = [], set(), 0
    for n in g.node:
        deq = producer.get(n.input[1]) if n.op_type == "MatMul" else None
        if deq is None or deq.op_type != "DequantizeLinear" or deq.input[0] not in inits \
                or inits[deq.input[0]].data_type != TensorProto.INT8:
            nodes.append(n)
            continue
        w, w_scale, w_zero = deq.input[0], deq.input[1], deq.input[2]
        a = n.input[0]
        if a not in quantized:
            q = (f"{a}_int8form_q", f"{a}_int8form_scale", f"{a}_int8form_zero")
            nodes.append(helper.make_node("DynamicQuantizeLinear", [a], list(q),
                                          name=f"{a}_int8form_quantize"))
            quantized[a] = q
        aq, a_scale, a_zero = quantized[a]
        out, base = n.output[0], n.name or n.output[0]
        nodes += [
            helper.make_node("MatMulInteger", [aq, w, a_zero, w_zero], [f"{base}_int32"],
                             name=f"{base}_int8form"),
            helper.make_node("Cast", [f"{base}_int32"], [f"{base}_float"], to=TensorProto.FLOAT,
                             name=f"{base}_int8form_cast"),
            helper.make_node("Mul", [a_scale, w_scale], [f"{base}_scale"],
                             name=f"{base}_int8form_scales"),
            helper.make_node("Mul", [f"{base}_float", f"{base}_scale"], [out],
                             name=f"{base}_int8form_rescale"),
        ]
        dropped.add(deq.output[0])
        rewritten += 1
    if not rewritten:
        raise ValueError(f"{path} has no weight-only int8 MatMul to make an integer one")
    still = {i for n in nodes for i in n.input}
    nodes = [n for n in nodes if not (n.op_type == "DequantizeLinear" and n.output[0] in dropped
                                      and n.output[0] not in still)]
    del g.node[:]
    g.node.extend(nodes)
    return model.SerializeToString(), rewritten
