"""One de-identification engine per process: the lists, the NER model and the harvested rules
loaded once, then one call per note.

:class:`Engine` is what every ``deid batch`` and ``deid harvest`` worker process, every Spark
executor process and ``deid detect``/``eval`` hold (:func:`engine_for` caches one per process and
configuration). :meth:`Engine.analyses` is the one place a worker turns notes into analyses
(:func:`deid_core.analyze.analyze` with the engine's model and rules); :meth:`Engine.output`
writes one analysis as a JSON-ready dict:

``{"text": de-identified text (absent in detect mode), "spans": [{"start", "end", "label",
"tier", "source", "replaced"}, ...], "phi_free": [[start, end], ...]}``

with offsets into the ORIGINAL text, spans in text order, and ``phi_free`` the sentences the
harvested inclusion list marks as known PHI-free (:mod:`deid_core.corpus_rules`), whose spans are
dropped.

Modes: ``detect`` (spans only), ``redact`` (category tags), ``surrogate`` (fakes, with the
patient's linkage key, :mod:`deid_core.linkage`). In redact and surrogate modes ``certain`` spans
are replaced; ``review`` (amber) spans keep their text unless ``mask_review`` is set, which masks
them too. (Decisions are passed explicitly, so this does not depend on the API's default.)
"""
from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..analyze import Analysis, analyze
from ..corpus_rules import parse
from ..keys import LinkageKey
from ..linkage import master_secret, patient_linkage_key
from ..ner.int8 import CLI_FORM, FORMS
from ..ner.loading import ModelError, load_model
from ..write import write

__all__ = ["BATCH_MODES", "WARM_NOTE", "Config", "Engine", "ModelError", "default_jobs",
           "engine_for", "warm_rules"]

#: The modes ``deid batch`` writes.
BATCH_MODES: tuple[str, ...] = ("redact", "surrogate", "detect")
#: Patients whose derived keys a process keeps (least recently used dropped first).
KEY_CACHE = 4096


@dataclass(frozen=True)
class Config:
    """What an engine needs; picklable, so it can be handed to worker and executor processes.

    Attributes:
        mode: one of :data:`BATCH_MODES`.
        master_key: the master linkage key: a key string (:func:`deid_core.linkage.read_key`),
            stretched here once (:func:`deid_core.linkage.master_secret`) so that only the
            32-byte secret is kept and travels to the workers, or that secret as ``bytes``;
            never shown by ``repr``.
        per_patient: derive one key per patient id (:func:`deid_core.linkage.patient_linkage_key`:
            one HMAC); False: every note uses the master secret itself, as ``deid surrogate``
            uses the key.
        rules_only: run the rules without the NER model.
        model_dir: the model folder (None: ``$DEID_MODEL_DIR``, else the packaged model).
        threads: onnxruntime threads per process (1 suits one worker per core; None:
            onnxruntime's host default, :meth:`deid_core.ner.onnx_runtime.OnnxNer.load`).
        model_form: ``"integer"`` (the shipped model with integer matrix products, the
            default: :data:`deid_core.ner.int8.CLI_FORM`), ``"exact"`` (the shipped model in
            fp32, the page's spans) or ``"fast"`` (the smaller model of ``fast/`` in integer
            form), :mod:`deid_core.ner.int8`.
        mask_review: also replace review (amber) spans.
        rules: harvested rules as the JSON text of a ``rules.json`` (:mod:`deid_core.corpus_rules`),
            or None.
        safe_harbor: redact mode only: a replaced span keeps what Safe Harbor permits
            (:mod:`deid_core.safe_harbor`).

    Raises:
        ValueError: an unknown mode or model form, surrogate mode without a key, threads < 0.
    """

    mode: str = "redact"
    master_key: str | bytes = field(default=b"", repr=False)
    per_patient: bool = False
    rules_only: bool = False
    model_dir: str | None = None
    threads: int | None = 1
    model_form: str = CLI_FORM
    mask_review: bool = False
    rules: str | None = field(default=None, repr=False)
    safe_harbor: bool = False

    def __post_init__(self) -> None:
        if self.mode not in BATCH_MODES:
            raise ValueError(f"unknown mode {self.mode!r}; expected one of {list(BATCH_MODES)}")
        if self.safe_harbor and self.mode != "redact":
            raise ValueError(f"the Safe Harbor option applies to redact mode, not {self.mode}")
        if self.mode == "surrogate" and not self.master_key:
            raise ValueError("surrogate mode needs a master key")
        if self.threads is not None and self.threads < 0:
            raise ValueError(f"threads must be >= 0, got {self.threads}")
        if self.model_form not in FORMS:
            raise ValueError(f"unknown model form {self.model_form!r}; expected one of {list(FORMS)}")
        if isinstance(self.master_key, str) and self.master_key:
            object.__setattr__(self, "master_key", master_secret(self.master_key))


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
        self.rules = None if config.rules is None else parse(config.rules)
        self._model = None if self.model is None else self.model.spans
        self._keys: OrderedDict[str | None, LinkageKey] = OrderedDict()

    def key(self, patient: str | None) -> LinkageKey:
        """The linkage key of ``patient``'s notes (cached; the master secret when not per
        patient)."""
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

    def analyses(self, texts: Sequence[str]) -> list[Analysis]:
        """The :class:`~deid_core.analyze.Analysis` of each note (with its PHI-free sentence
        ranges), in order: the one place a batch worker turns notes into analyses.

        Rules (plus harvested template rules) and the model on the whole text (the model
        skipped when every sentence is PHI-free); spans inside a PHI-free sentence dropped.
        Without harvested rules the model runs the windows of all ``texts`` together
        (:meth:`deid_core.ner.onnx_runtime.OnnxNer.spans_many`: the same spans as note by note,
        sooner for short notes).

        Raises:
            TypeError: if a text is not a ``str``; anything the engine raises on a note (the
                caller retries note by note to tell which).
        """
        if self.model is not None and self.rules is None and len(texts) > 1:
            spans = self.model.spans_many(texts)
            return [analyze(text, model=sp) for text, sp in zip(texts, spans)]
        return [analyze(text, model=self._model, rules=self.rules) for text in texts]

    def analysis(self, text: str) -> Analysis:
        """:meth:`analyses` of one note."""
        return self.analyses([text])[0]

    def output(self, an: Analysis, patient: str | None = None) -> dict:
        """One analysed note written in the engine's mode (see the module doc for the dict)."""
        mode = self.config.mode
        out: dict = {}
        if mode == "detect":
            spans = [_with_replaced(s, False) for s in an.spans]
        else:
            key = self.key(patient) if mode == "surrogate" else None
            rendered = write(an, mode, key=key, mask_review=self.config.mask_review,
                             safe_harbor=self.config.safe_harbor)
            out["text"] = rendered.text
            spans = [_with_replaced(p.span, p.replaced) for p in rendered.placed]
        out["spans"] = spans
        out["phi_free"] = [list(r) for r in an.phi_free]
        return out

    def process(self, text: str, patient: str | None = None) -> dict:
        """De-identify one note: :meth:`output` of :meth:`analysis`.

        Raises:
            TypeError: if ``text`` is not a ``str``.
        """
        return self.output(self.analysis(text), patient)


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
