"""Turn a ``quantize_dynamic`` int8 model into a weight-only int8 model.

``onnxruntime.quantization.quantize_dynamic`` also quantises the ACTIVATIONS at run time
(DynamicQuantizeLinear -> MatMulInteger), and onnxruntime's CPU kernels and onnxruntime-web's
WebAssembly kernels round those differently: on the 210 corpus notes the CLI's and the page's
logits differed by up to 0.68 and their spans on 189 notes. Here every MatMulInteger becomes
DequantizeLinear(int8 weight) -> fp32 MatMul on the original fp32 activation, so the file keeps
its int8 weights (same size) while both runtimes compute in fp32 and agree span for span.

Usage: ``python -m training.weight_only SRC.onnx DST.onnx``.
"""
from __future__ import annotations

import collections
import sys
from pathlib import Path


def weight_only_int8(src: str | Path, dst: str | Path) -> dict:
    """Rewrite ``src`` (a ``quantize_dynamic`` model) to ``dst`` as weight-only int8.

    Returns:
        Operator counts of the written graph.

    Raises:
        AssertionError: if the graph is not the shape ``quantize_dynamic`` writes
            (MatMulInteger fed by DynamicQuantizeLinear or an int8 initializer, then Cast, Mul).
    """
    import onnx
    from onnx import helper

    model = onnx.load(str(src))
    g = model.graph
    inits = {i.name for i in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    consumers: dict[str, list] = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    new_nodes, drop = [], set()

    def float_source(name: str) -> str:
        if name in inits:                      # an int8 weight: dequantise it
            base = name[: -len("_quantized")]
            out = base + "_weight_only"
            new_nodes.append(helper.make_node(
                "DequantizeLinear", [name, base + "_scale", base + "_zero_point"], [out]))
            return out
        quant = producer[name]                 # an activation: take the fp32 input back
        assert quant.op_type == "DynamicQuantizeLinear", quant.op_type
        return quant.input[0]

    for n in g.node:
        if n.op_type != "MatMulInteger":
            continue
        a, b = float_source(n.input[0]), float_source(n.input[1])
        (cast,) = consumers[n.output[0]]
        assert cast.op_type == "Cast", cast.op_type
        (mul,) = consumers[cast.output[0]]
        assert mul.op_type == "Mul", mul.op_type
        new_nodes.append(helper.make_node("MatMul", [a, b], [mul.output[0]], name=n.name + "_weight_only"))
        drop |= {id(n), id(cast), id(mul)}
    nodes = [n for n in g.node if id(n) not in drop] + new_nodes
    need = {o.name for o in g.output}          # drop nodes nothing needs any more
    while True:
        keep = [n for n in nodes if any(o in need for o in n.output)]
        grown = need | {i for n in keep for i in n.input}
        if grown == need:
            break
        need = grown
    ready = {i.name for i in g.input} | inits | {""}
    ordered, pending = [], keep                # topological order
    while pending:
        rest = []
        for n in pending:
            if all(i in ready for i in n.input):
                ordered.append(n)
                ready |= set(n.output)
            else:
                rest.append(n)
        assert len(rest) < len(pending), "graph has a cycle or a missing input"
        pending = rest
    del g.node[:]
    g.node.extend(ordered)
    used = {i for n in ordered for i in n.input}
    kept = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(kept)
    onnx.checker.check_model(model)
    onnx.save(model, str(dst))
    return dict(collections.Counter(n.op_type for n in ordered))


if __name__ == "__main__":
    print(weight_only_int8(sys.argv[1], sys.argv[2]))
