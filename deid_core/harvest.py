"""``deid harvest``: learn from a corpus which sentences are PHI-free and which sentence
templates hold PHI, as a ``rules.json`` (its format and loader: :mod:`deid_core.corpus_rules`)
that ``--rules`` applies in ``deid batch``, ``redact``, ``surrogate``, ``review``, ``detect``,
``eval`` and the page (:func:`deid_core.analyze.analyze`).

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

The corpus is read and analysed by ``deid batch``'s readers and worker pool
(:mod:`deid_core.batch.io`, :mod:`deid_core.batch.pool`), each worker with its own engine.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from . import lists
from .corpus_rules import HarvestRules, Template, normalise, sentences, shape
from .document import Document
from .spans import CERTAIN, Span
from .batch.engine import Config, Engine
from .batch.io import Record, read_records
from .batch.pool import ordered_map

__all__ = ["HarvestRules", "Template", "harvest", "observe", "sentences", "shape"]

#: Sentences of more words than this are not made into templates (templates are short lines).
MAX_TEMPLATE_TOKENS = 16
#: Words a sentence needs to join the inclusion list (``1.`` or ``A/P:`` alone say nothing).
MIN_SENTENCE_WORDS = 3
#: Records per task sent to a worker.
CHUNKSIZE = 8


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
            free.add(normalise(text[a:b]))
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


def _observe_records(engine: Engine, records: Sequence[Record]) -> list[tuple | None]:
    """``(patient, PHI-free sentences, dirty sentences, templates)`` of each record (None for
    a record without text): a :mod:`deid_core.batch.pool` task."""
    todo = [r for r in records if r.text is not None]
    analyses = dict(zip(map(id, todo), engine.analyses([r.text for r in todo])))
    out: list[tuple | None] = []
    for rec in records:
        an = analyses.get(id(rec))
        if an is None:
            out.append(None)
            continue
        free, shapes = observe(rec.text, an.spans, an.candidates)
        dirty = {normalise(rec.text[a:b]) for a, b in sentences(rec.text)
                 if any(c.start < b and a < c.end for c in an.candidates)}
        pid = rec.patient if rec.patient is not None else f"\x00{rec.index}"
        out.append((pid, free, dirty, shapes))
    return out


def harvest(corpus, config: Config, *, fmt=None, text_field="text", id_field="id", patient_field=None,
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
    if min(min_notes, min_patients, min_instances) < 1:
        raise ValueError("min_notes, min_patients and min_instances must be at least 1")
    sent_notes: dict[str, int] = defaultdict(int)
    sent_pats: dict[str, set] = defaultdict(set)
    tmpl: dict[tuple, dict[tuple, int]] = defaultdict(lambda: defaultdict(int))
    tmpl_pats: dict[tuple, set] = defaultdict(set)
    dirty: set[str] = set()
    notes = 0
    recs = read_records(corpus, fmt, text_field, id_field, patient_field)
    mapped = ordered_map(_observe_records, recs, config, jobs=jobs, chunksize=CHUNKSIZE)
    results: Iterable = mapped
    if progress:
        from tqdm import tqdm   # the CLI's progress bar (a dependency of the CLI, not the engine)
        results = tqdm(results, unit="note", desc="harvest")
    try:
        for res in results:
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
        mapped.close()   # stops the workers
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
