"""``deid harvest``: learn from a corpus which sentences are PHI-free and which sentence
templates hold PHI, as a ``rules.json`` that ``--rules`` applies in ``deid batch``, ``redact``,
``surrogate``, ``review``, ``detect``, ``eval`` and the page (loaded by :mod:`deid_core.corpus_rules`).

Two corpus features (both counted over whole notes, a note's repeated sentence counted once):

1. **Inclusion list.** A sentence (split at line ends and after ``. ! ? ;`` followed by space;
   but not after a short capitalised abbreviation such as ``Dr.``; whitespace-normalised; at
   least three words) that occurs in at least ``min_notes`` notes of at least
   ``min_patients`` distinct patients and in which the engine finds no candidate at all (of
   either tier, kept or not) is known PHI-free. At run time such a sentence's spans are dropped,
   the model is not run on a note made only of such sentences, and the batch output lists them
   under ``phi_free``.
2. **Templates.** For a sentence with PHI, its *syntax template* keeps each word the engine did
   not mark as a fixed word (lower-cased) and writes each marked word as a slot by its shape:
   ``<W>`` letters, ``<N>`` digits, ``<A>`` letters and digits (only sentences whose marked
   words are all in ``certain`` spans count); its *NER template* lists each
   slot's label and which span it belongs to. A syntax template seen at least ``min_instances``
   times in notes of at least ``min_patients`` patients, always with one and the same NER
   template, becomes a rule: a regex (:attr:`Template.regex`) over a whole sentence whose slots
   become spans of that label, source ``harvest:template:<n>``, tier ``review`` by default.

No PHI in the file: slot values are never stored, only their shapes; a sentence or template is
kept only if it was seen in notes of ``min_patients`` patients, no word of it was a candidate,
and no capitalised word is a census given name or surname (in a sentence: any word, the first
included; in a template's fixed words: unless also an English or medical word), since a name the
engine missed in boilerplate would otherwise become a fixed word.

``rules.json``: ``{"format": "deid-harvest", "version": 1, "params": {...}, "notes": int,
"sentences": [normalised sentence, ...], "templates": [{"n", "tokens", "slots", "regex",
"instances", "patients", "tier"}, ...]}``.
"""
from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from . import lists
from .document import WORD_RE, Document
from .spans import CERTAIN, LABELS, TIERS, Span

__all__ = ["HarvestRules", "Template", "analyze_harvested", "harvest", "load_rules", "observe",
           "sentences", "shape"]

FORMAT = "deid-harvest"
VERSION = 1
#: Sentences of more words than this are not made into templates (templates are short lines).
MAX_TEMPLATE_TOKENS = 16
#: Sentence ends: a line end, or space after ``. ! ? ;`` unless the period ends a short
#: capitalised abbreviation (``Dr.``, ``Mr.``, ``St.``: the name that follows belongs to it).
_SENT_END = re.compile(r"(?<![\s(][A-Z][A-Za-z]\.)(?<![\s(][A-Z][A-Za-z]{2}\.)(?<![\s(][A-Z]\.)"
                       r"(?<=[.!?;])[ \t]+|\r?\n|\r")
#: Words a sentence needs to join the inclusion list (``1.`` or ``A/P:`` alone say nothing).
MIN_SENTENCE_WORDS = 3
_SLOT_RE = {"<W>": r"[^\W\d_]+(?:['’\-][^\W\d_]+)*", "<N>": r"\d+(?:['’\-]\d+)*",
            "<A>": r"[^\W_]+(?:['’\-][^\W_]+)*"}
_SEP, _EDGE = r"[\W_]+", r"[\W_]*"


def sentences(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each sentence of ``text`` (module doc), trimmed of surrounding
    whitespace, empty ones left out."""
    out, pos = [], 0
    for m in [*_SENT_END.finditer(text), None]:
        end = len(text) if m is None else m.start()
        piece = text[pos:end]
        a = pos + len(piece) - len(piece.lstrip())
        b = pos + len(piece.rstrip())
        if a < b:
            out.append((a, b))
        if m is not None:
            pos = m.end()
    return out


def _norm(s: str) -> str:
    return " ".join(s.split())


def shape(word: str) -> str:
    """A slot's shape: ``<N>`` all digits, ``<W>`` no digits, else ``<A>`` (joiners ignored)."""
    core = re.sub(r"['’\-]", "", word)
    if core.isdigit():
        return "<N>"
    if not any(c.isdigit() for c in core):
        return "<W>"
    return "<A>"


@dataclass(frozen=True)
class Template:
    """One harvested template rule.

    Attributes:
        n: its number (``harvest:template:<n>``).
        tokens: fixed words (lower case) and slot shapes ``<W>``/``<N>``/``<A>``, in order.
        slots: per slot, ``(label, group)``; slots of one group form one span.
        instances, patients: how often and for how many patients it was seen.
        tier: the tier of the spans it finds.
    """

    n: int
    tokens: tuple[str, ...]
    slots: tuple[tuple[str, int], ...]
    instances: int = 0
    patients: int = 0
    tier: str = "review"

    @property
    def regex(self) -> str:
        """The rule's regex over one whole sentence (case-insensitive fixed words; slot ``k``
        is group ``s<k>``)."""
        parts, k = [], 0
        for t in self.tokens:
            if t in _SLOT_RE:
                parts.append(f"(?P<s{k}>{_SLOT_RE[t]})")
                k += 1
            else:
                parts.append(re.escape(t))
        return "(?i)" + _EDGE + _SEP.join(parts) + _EDGE

    def to_dict(self) -> dict:
        """The JSON form (module doc)."""
        return {"n": self.n, "tokens": list(self.tokens), "slots": [list(s) for s in self.slots],
                "regex": self.regex, "instances": self.instances, "patients": self.patients,
                "tier": self.tier}


class _Detector:
    """The templates as a detector object for :func:`deid_core.analyze.analyze`."""

    name = "harvest"

    def __init__(self, templates: Iterable[Template]) -> None:
        self._by_len: dict[int, list[tuple[Template, re.Pattern]]] = defaultdict(list)
        for t in templates:
            self._by_len[len(t.tokens)].append((t, re.compile(t.regex)))

    def detect(self, doc: Document) -> Iterator[Span]:
        if not self._by_len:
            return
        toks = doc.tokens
        i = 0
        for a, b in sentences(doc.text):
            while i < len(toks) and toks[i].start < a:
                i += 1
            j = i
            while j < len(toks) and toks[j].end <= b:
                j += 1
            for t, rx in self._by_len.get(j - i, ()):
                m = rx.fullmatch(doc.text, a, b)
                if m is None:
                    continue
                groups: dict[int, list[int]] = {}
                for k, (label, g) in enumerate(t.slots):
                    s, e = m.span(f"s{k}")
                    cur = groups.setdefault(g, [s, e, label])
                    cur[0], cur[1] = min(cur[0], s), max(cur[1], e)
                for s, e, label in groups.values():
                    yield Span(s, e, label, t.tier, f"harvest:template:{t.n}")
                break


class HarvestRules:
    """A loaded ``rules.json``: the PHI-free sentence set and the template detector.

    Args:
        sentences: normalised PHI-free sentences.
        templates: the template rules.
        notes: how many notes they were harvested from.
        params: the harvest parameters.
    """

    def __init__(self, sentences: Iterable[str] = (), templates: Iterable[Template] = (),
                 notes: int = 0, params: dict | None = None) -> None:
        self.sentences = frozenset(sentences)
        self.templates = tuple(templates)
        self.notes = notes
        self.params = dict(params or {})
        self.detector = _Detector(self.templates)

    def phi_free(self, text: str) -> list[tuple[int, int]]:
        """``[start, end)`` of each sentence of ``text`` in the inclusion list, in text order."""
        if not self.sentences:
            return []
        return [(a, b) for a, b in sentences(text) if _norm(text[a:b]) in self.sentences]

    def to_json(self) -> str:
        """The ``rules.json`` text (module doc)."""
        return json.dumps({"format": FORMAT, "version": VERSION, "params": self.params,
                           "notes": self.notes, "sentences": sorted(self.sentences),
                           "templates": [t.to_dict() for t in self.templates]},
                          ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "HarvestRules":
        """Parse a ``rules.json`` text.

        Raises:
            ValueError: not JSON, not a deid-harvest file, or a malformed template.
        """
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not JSON: {e}") from None
        if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} rules file")
        sents = d.get("sentences", [])
        if not isinstance(sents, list) or not all(isinstance(s, str) for s in sents):
            raise ValueError("'sentences' must be a list of strings")
        templates = []
        for k, t in enumerate(d.get("templates", [])):
            try:
                tokens = tuple(t["tokens"])
                slots = tuple((str(lab), int(g)) for lab, g in t["slots"])
                tier = t.get("tier", "review")
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"templates[{k}] is malformed") from None
            n_slots = sum(x in _SLOT_RE for x in tokens)
            if n_slots != len(slots) or any(lab not in LABELS for lab, _ in slots) or tier not in TIERS \
                    or not all(isinstance(x, str) and (x in _SLOT_RE or WORD_RE.fullmatch(x)) for x in tokens):
                raise ValueError(f"templates[{k}] is malformed")
            templates.append(Template(int(t.get("n", k)), tokens, slots, int(t.get("instances", 0)),
                                      int(t.get("patients", 0)), tier))
        return cls(sents, templates, int(d.get("notes", 0)), d.get("params") or {})


def load_rules(path: str | os.PathLike) -> HarvestRules:
    """Read a ``rules.json`` file (for ``detect``, ``eval`` and other callers).

    Raises:
        OSError: if it cannot be read; ValueError: if it is not a rules file.
    """
    with open(path, encoding="utf-8") as f:
        return HarvestRules.from_json(f.read())


def _blank(text: str, ranges: list[tuple[int, int]]) -> str:
    """``text`` with each range's characters replaced by spaces (offsets kept)."""
    pieces, pos = [], 0
    for a, b in ranges:
        pieces += [text[pos:a], " " * (b - a)]
        pos = b
    pieces.append(text[pos:])
    return "".join(pieces)


def analyze_harvested(text: str, rules: HarvestRules | None, model=None, known=None):
    """Analyse a note with harvested rules: what ``deid batch --rules`` does, for other callers
    (``detect``, ``eval``).

    The rules plus the template detector run on the whole text; ``model`` (a callable
    ``text -> [Span]``, e.g. ``OnnxNer.spans``; None: rules only) runs on the whole text too
    (not at all when every sentence is PHI-free) and joins as in :mod:`deid_core.ensemble`;
    final spans inside a PHI-free sentence are dropped.

    Returns:
        ``(analysis, phi_free)``: a :class:`deid_core.analyze.Analysis` and the ``[start, end)``
        PHI-free sentence ranges.

    Raises:
        TypeError: if ``text`` is not a ``str``.
    """
    from .analyze import Analysis, analyze
    from .detectors import REGISTRY
    from .ensemble import adapt_model_spans, analyze_with_model
    from .resolve import resolve
    if rules is None:
        return analyze_with_model(text, model(text) if model is not None else None, known), []
    safe = rules.phi_free(text)
    base = analyze(text, known, detectors=(*REGISTRY, rules.detector))
    an = base
    if model is not None and (not safe or _blank(text, safe).strip()):
        # The model sees the whole note (blanking the PHI-free sentences changed its context and
        # cost certain precision on the project corpus, 0.9985 -> 0.9926); it is skipped only
        # when every sentence of the note is PHI-free.
        extra = adapt_model_spans(model(text), base.candidates, text)
        if extra:
            cands = sorted([*base.candidates, *extra])
            an = Analysis(text, resolve(cands, text), tuple(cands))
    if safe:
        keep = tuple(s for s in an.spans if not any(a <= s.start and s.end <= b for a, b in safe))
        an = Analysis(text, keep, an.candidates)
    return an, safe


def _name_like(word: str, strict: bool = True) -> bool:
    """A capitalised census given name or surname. ``strict`` (PHI-free sentences): even the
    first word and even when it is also an English word (on the real-notes dev set, a
    clinician's name that is also an English word began a sentence shared by two patients'
    notes); not strict (a template's fixed words): unless it is also an English or medical word
    (``Call``, ``Parkinson``)."""
    w = word.lower()
    if not word[:1].isupper() or (w not in lists.given_names() and w not in lists.surnames()):
        return False
    return strict or (w not in lists.english_collisions() and w not in lists.medical_collisions())


def observe(text: str, spans: Iterable[Span], candidates: Iterable[Span]) -> tuple[set[str], set[tuple]]:
    """What one note contributes: ``(PHI-free normalised sentences, {(syntax template, NER
    template)})`` (module doc). Pure function of the note and its analysis."""
    doc = Document(text)
    toks = doc.tokens
    spans, cands = sorted(spans), sorted(candidates)
    free: set[str] = set()
    shapes: set[tuple] = set()
    i = 0
    for a, b in sentences(text):
        while i < len(toks) and toks[i].start < a:
            i += 1
        j = i
        while j < len(toks) and toks[j].end <= b:
            j += 1
        words = toks[i:j]
        if not words:
            continue
        hit_c = [any(c.start < t.end and t.start < c.end for c in cands) for t in words]
        if not any(hit_c):
            if len(words) < MIN_SENTENCE_WORDS or any(c.start < b and a < c.end for c in cands) \
                    or any(_name_like(t.word) for t in words):
                continue
            free.add(_norm(text[a:b]))
            continue
        if len(words) > MAX_TEMPLATE_TOKENS:
            continue
        tokens, slots, ok = [], [], True
        for t, hc in zip(words, hit_c):
            owner = next((k for k, s in enumerate(spans) if s.start <= t.start and t.end <= s.end), None)
            if owner is not None and spans[owner].tier != CERTAIN:
                ok = False  # amber: the engine itself is unsure, so no template learns from it
                break
            if owner is None:
                if hc or _name_like(t.word, strict=False):  # a candidate that did not win, a
                    ok = False                              # span cutting the word, a name: unsure
                    break
                tokens.append(t.word.lower())
            else:
                tokens.append(shape(t.word))
                slots.append((spans[owner].label, owner))
        if not ok or not slots or len(slots) == len(tokens):
            continue
        first = {}
        slots = [(lab, first.setdefault(g, len(first))) for lab, g in slots]
        shapes.add((tuple(tokens), tuple(slots)))
    return free, shapes


def _observe_record(engine, rec):
    """``(patient, PHI-free sentences, dirty sentences, templates)`` of one record, or None."""
    if rec.text is None:
        return None
    an, _ = engine.analysis(rec.text)
    free, shapes = observe(rec.text, an.spans, an.candidates)
    dirty = {_norm(rec.text[a:b]) for a, b in sentences(rec.text)
             if any(c.start < b and a < c.end for c in an.candidates)}
    pid = rec.patient if rec.patient is not None else f"\x00{rec.index}"
    return pid, free, dirty, shapes


def _observe_in_worker(rec):
    """One record in a pool worker of :func:`deid_core.batch.run.init_worker`."""
    from .batch.engine import ModelError
    from .batch.run import worker_engine
    return _observe_record(worker_engine(ModelError), rec)


def harvest(corpus, config, *, fmt=None, text_field="text", id_field="id", patient_field=None,
            min_notes=5, min_patients=3, min_instances=5, tier="review",
            progress=False, jobs=1) -> HarvestRules:
    """Harvest ``corpus`` (any ``deid batch`` input) with the engine of ``config`` (rules, plus
    the model unless ``config.rules_only``).

    Args:
        min_notes: N, notes a PHI-free sentence must occur in.
        min_patients: M, distinct patients (a note without a patient id counts as its own).
        min_instances: K, instances a template needs.
        tier: tier of the template rules' spans.
        jobs: worker processes (1: this process), each with its own engine.

    Returns:
        The :class:`HarvestRules`.

    Raises:
        deid_core.batch.InputError, deid_core.batch.ModelError: as :func:`deid_core.batch.run_batch`.
        ValueError: if a threshold is below 1.
    """
    from .batch.engine import Engine
    from .batch.io import read_records
    if min(min_notes, min_patients, min_instances) < 1:
        raise ValueError("min_notes, min_patients and min_instances must be at least 1")
    sent_notes: dict[str, int] = defaultdict(int)
    sent_pats: dict[str, set] = defaultdict(set)
    tmpl: dict[tuple, dict[tuple, int]] = defaultdict(lambda: defaultdict(int))
    tmpl_pats: dict[tuple, set] = defaultdict(set)
    dirty: set[str] = set()
    notes = 0
    recs = read_records(corpus, fmt, text_field, id_field, patient_field)
    pool = None
    if jobs > 1:
        import multiprocessing
        import threading
        from .batch.run import _bounded, init_worker
        gate, closing, ahead = threading.Semaphore(32 * jobs), threading.Event(), 32 * jobs
        from .batch.engine import warm_rules
        warm_rules()   # the lists, read once here, are inherited by every worker
        pool = multiprocessing.get_context("fork").Pool(jobs, initializer=init_worker,
                                                         initargs=(config,))
        results = pool.imap(_observe_in_worker, _bounded(recs, gate, closing), 8)
    else:
        engine = Engine(config)
        results = (_observe_record(engine, rec) for rec in recs)
    if progress:
        from tqdm import tqdm
        results = tqdm(results, unit="note", desc="harvest")
    try:
        for res in results:
            if pool is not None:
                gate.release()
            if res is None:
                continue
            notes += 1
            pid, free, dirt, shapes = res
            dirty |= dirt
            for s in free:
                sent_notes[s] += 1
                if len(sent_pats[s]) < min_patients:
                    sent_pats[s].add(pid)
            for syn, ner in shapes:
                tmpl[syn][ner] += 1
                if len(tmpl_pats[syn]) < min_patients:
                    tmpl_pats[syn].add(pid)
    finally:
        if pool is not None:
            closing.set()
            gate.release(ahead + 1)
            pool.terminate()
            pool.join()
    keep = [s for s, n in sent_notes.items()
            if n >= min_notes and len(sent_pats[s]) >= min_patients and s not in dirty]
    rules = []
    for syn in sorted(tmpl):
        ners = tmpl[syn]
        total = sum(ners.values())
        if len(ners) == 1 and total >= min_instances and len(tmpl_pats[syn]) >= min_patients:
            (ner,) = ners
            rules.append(Template(len(rules) + 1, syn, ner, total, len(tmpl_pats[syn]), tier))
    params = {"min_notes": min_notes, "min_patients": min_patients, "min_instances": min_instances,
              "tier": tier, "model": not config.rules_only}
    return HarvestRules(keep, rules, notes, params)
