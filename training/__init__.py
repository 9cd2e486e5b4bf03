"""Training code for the NER token classifier (issue 4). Not part of the ``deid_core`` package.

Needs the training environment (``requirements-train.lock``: torch, transformers, onnx,
onnxruntime). Run from the repository root, e.g. ``.venv-train/bin/python -m training.train``.

Modules: :mod:`training.data` (train/dev examples), :mod:`training.modeling` (model with the case
feature, vocabulary trimming, ONNX export and quantisation), :mod:`training.train` (fine-tune,
evaluate on the dev split, write ``model/``), :mod:`training.measure` (tokenizer, pipeline,
ensemble and speed checks of the written model), :mod:`training.card` (``model/MODEL_CARD.md``
from the reports), :mod:`training.generate` (generated sentences).
"""
