"""One de-identification engine per process: the lists, the NER model and the harvested rules
loaded once, then one call per note.

:class:`Engine` is what every ``deid batch`` worker process and every Spark executor process
holds (:func:`engine_for` caches one per process and configuration). :meth:`Engine.process`
turns one note into a JSON-ready dict:

``{"text": de-identified text (absent in detect mode), "spans": [{"start", "end", "label",
"tier", "source", "replaced"}, ...], "phi_free": [[start, end], ...]}``

with offsets into the ORIGINAL text, spans in text order, and ``phi_free`` the sentences the
harvested inclusion list marks as known PHI-free (:mod:`deid_core.harvest`), whose spans are
dropped.

Modes: ``detect`` (spans only), ``redact`` (category tags), ``surrogate`` (fakes, with the
patient's linkage key, :mod:`deid_core.linkage`). In redact and surrogate modes ``certain`` spans
are replaced; ``review`` (amber) spans keep their text unless ``mask_review`` is set, which masks
them too. (Decisions are passed explicitly, so this does not depend on the API's default.)
"""
from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field

from ..analyze import Analysis
from ..keys import LinkageKey
from ..linkage import patient_linkage_key
from ..ner.int8 import CLI_FORM
from ..write import write

__all__ = ["BATCH_MODES", "Config", "Engine", "ModelError", "engine_for", "load_model", "warm_rules"]

#: The modes ``deid batch`` writes.
BATCH_MODES: tuple[str, ...] = ("redact", "surrogate", "detect")
#: Patients whose derived keys a process keeps (least recently used dropped first).
KEY_CACHE = 4096


class ModelError(RuntimeError):
    """The NER model cannot be used; the one-line message says what to do."""


@dataclass(frozen=True)
class Config:
    """What an engine needs; picklable, so it can be handed to worker and executor processes.

    Attributes:
        mode: one of :data:`BATCH_MODES`.
        master_key: the master linkage key string (:func:`deid_core.linkage.master_key`);
            never shown by ``repr``.
        per_patient: derive one key per patient id (:func:`deid_core.linkage.patient_key`);
            False: every note uses ``master_key`` itself.
        rules_only: run the rules without the NER model.
        model_dir: the model folder (None: ``$DEID_MODEL_DIR``, else the packaged model).
        threads: onnxruntime threads per process (1 suits one worker per core).
        model_form: ``"integer"`` (the shipped model with integer matrix products, the
            default: :data:`deid_core.ner.int8.CLI_FORM`), ``"exact"`` (the shipped model in
            fp32, the page's spans) or ``"fast"`` (the smaller model of ``fast/`` in integer
            form), :mod:`deid_core.ner.int8`.
        mask_review: also replace review (amber) spans.
        rules: harvested rules as the JSON text of a ``rules.json`` (:mod:`deid_core.harvest`),
            or None.
    """

    mode: str = "redact"
    master_key: str = field(default="", repr=False)
    per_patient: bool = False
    rules_only: bool = False
    model_dir: str | None = None
    threads: int = 1
    model_form: str = CLI_FORM
    mask_review: bool = False
    rules: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in BATCH_MODES:
            raise ValueError(f"unknown mode {self.mode!r}; expected one of {list(BATCH_MODES)}")
        if self.mode == "surrogate" and not self.master_key:
            raise ValueError("surrogate mode needs a master key")
        if self.threads < 0:
            raise ValueError(f"threads must be >= 0, got {self.threads}")
        from ..ner.int8 import FORMS
        if self.model_form not in FORMS:
            raise ValueError(f"unknown model form {self.model_form!r}; expected one of {list(FORMS)}")


def load_model(model_dir: str | None, threads: int | None = 1, form: str = CLI_FORM):
    """The NER model (``OnnxNer``) from ``model_dir``, in ``form`` (``"integer"``, ``"exact"``
    or ``"fast"``, :meth:`deid_core.ner.onnx_runtime.OnnxNer.load`).

    Raises:
        ModelError: the model is missing or cannot run; the message names the folder and says
            to install onnxruntime, pass ``--model-dir``, set ``DEID_MODEL_DIR`` or use
            ``--rules-only``. Never falls back to the rules silently.
    """
    from ..ner import onnx_runtime
    from ..ner.pipeline import model_dir as _model_dir
    from ..ner.int8 import FAST_DIR
    where = _model_dir(model_dir)
    if form == "fast":
        fast = where / FAST_DIR
        if not onnx_runtime.model_present(fast):
            raise ModelError(f"no fast model at {fast} (ner.onnx missing): --model-form fast reads "
                             f"the {FAST_DIR}/ folder inside the model folder (--model-dir DIR, "
                             f"DEID_MODEL_DIR, else the packaged model); use --model-form exact, "
                             f"reinstall deid-core, or use --rules-only")
        advice = f"model folder {fast}; fix it, use --model-form exact, or use --rules-only"
    else:
        if not onnx_runtime.model_present(model_dir):
            raise ModelError(f"no NER model at {where} (ner.onnx missing): pass --model-dir DIR or set "
                             f"DEID_MODEL_DIR to the folder with ner.onnx, ner.json and vocab.txt, "
                             f"reinstall deid-core, or use --rules-only")
        advice = f"model folder {where}; fix it, pass --model-dir, or use --rules-only"
    try:
        return onnx_runtime.OnnxNer.load(model_dir, threads=threads, form=form)
    except onnx_runtime.OnnxUnavailable as e:
        raise ModelError(f"{e} ({advice})") from None


class Engine:
    """The lists, model and harvested rules of one process.

    Args:
        config: the :class:`Config`.

    Raises:
        ModelError: when the model is wanted and cannot be loaded.
        ValueError: when ``config.rules`` is not a valid harvested rules file.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.model = None if config.rules_only else load_model(config.model_dir, config.threads,
                                                                  config.model_form)
        self.rules = None
        if config.rules is not None:
            from ..corpus_rules import parse
            self.rules = parse(config.rules)
        self._keys: OrderedDict[str | None, LinkageKey] = OrderedDict()

    def key(self, patient: str | None) -> LinkageKey:
        """The linkage key of ``patient``'s notes (cached; the master key when not per patient)."""
        pid = patient if self.config.per_patient else None
        k = self._keys.get(pid)
        if k is None:
            k = patient_linkage_key(self.config.master_key, pid)
            self._keys[pid] = k
            if len(self._keys) > KEY_CACHE:
                self._keys.popitem(last=False)
        else:
            self._keys.move_to_end(pid)
        return k

    def analysis(self, text: str) -> tuple[Analysis, list[tuple[int, int]]]:
        """The note's :class:`~deid_core.analyze.Analysis` and its PHI-free sentence ranges.

        Rules (plus harvested template rules) and the model on the whole text (the model
        skipped when every sentence is PHI-free); spans inside a PHI-free sentence dropped
        (:func:`deid_core.harvest.analyze_harvested`).
        """
        from ..harvest import analyze_harvested
        return analyze_harvested(text, self.rules, None if self.model is None else self.model.spans)

    def process(self, text: str, patient: str | None = None) -> dict:
        """De-identify one note (see the module doc for the dict returned).

        Raises:
            TypeError: if ``text`` is not a ``str``.
        """
        an, safe = self.analysis(text)
        mode = self.config.mode
        out: dict = {}
        if mode == "detect":
            spans = [_with_replaced(s, False) for s in an.spans]
        else:
            key = self.key(patient) if mode == "surrogate" else None
            rendered = write(an, mode, key=key, mask_review=self.config.mask_review)
            out["text"] = rendered.text
            spans = [_with_replaced(p.span, p.replaced) for p in rendered.placed]
        out["spans"] = spans
        out["phi_free"] = [list(r) for r in safe]
        return out


def _with_replaced(span, replaced: bool) -> dict:
    """``span.to_dict()`` with ``"replaced"`` added last (no copy of the dict)."""
    d = span.to_dict()
    d["replaced"] = replaced
    return d


_ENGINES: dict[Config, Engine] = {}

#: An invented note that touches every detector's word lists and patterns.
WARM_NOTE = ("Seen by Dr. Helen Achterberg on 09/14/2016 at Mercy Hospital, 12 Elm Street, "
             "Springfield, MA 01103; MRN 00781245; call 617-555-0142. Retired teacher, 93 yo.\n"
             "pt lives in boston with her daughter; seen in cardiology clinic, room 4B.")


def warm_rules() -> None:
    """Read the word lists and compile the patterns in this process (one rules run on
    :data:`WARM_NOTE`), so that worker processes forked afterwards inherit them instead of each
    loading them again (about 0.5 s of CPU a worker). Never loads the model (onnxruntime's
    threads do not survive a fork). Errors are left for the workers to report."""
    from ..analyze import analyze
    try:
        analyze(WARM_NOTE)
    except Exception:  # noqa: BLE001 - the worker's own engine reports it
        pass


def engine_for(config: Config) -> Engine:
    """This process's :class:`Engine` for ``config`` (built on first use, then reused)."""
    eng = _ENGINES.get(config)
    if eng is None:
        eng = _ENGINES[config] = Engine(config)
    return eng


def default_jobs() -> int:
    """Worker processes by default: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
