"""Training and dev examples for the NER model: sources, label mapping, BIO windows.

Sources (:func:`build`):

* ``corpus/notes.jsonl`` (invented annotated notes, i2b2 subtypes), split by :func:`is_dev`:
  a note is DEV when ``int(sha256(id)[:8], 16) % 100 < 30`` (about 30%); dev notes are never
  trained on.
* Generated sentences, :func:`training.generate.generate` (i2b2 subtypes).
* Generated ICU nursing notes in the style of real bedside notes (ALL CAPS, terse,
  abbreviations, hard negatives), :func:`training.nursing.generate` (i2b2 subtypes).
* presidio-research ``synth_dataset_v2.json`` (MIT licence, Microsoft presidio-research; read
  from ``../shared/corpora``, never copied into the repository): :data:`PRESIDIO_MAP`.
* ASQ-PHI is NEVER used (held-out benchmark).

Labels: i2b2 subtype -> model type by :data:`SUBTYPE_TO_TYPE` (DATE, CONTACT and ID subtypes
become O: the rules own shaped PHI). Char spans become BIO tags over WordPiece tokens
(:func:`bio_tags`): every token overlapping a span is inside it; the first such token is ``B-``,
the rest ``I-`` (sub-tokens of a word included). Each example is cut with
:func:`deid_core.ner.windows` into windows of at most ``max_len`` positions with ``[CLS]`` and
``[SEP]`` (label -100, ignored by the loss), exactly as the runtime does; case ids come from
:func:`deid_core.ner.case.case_ids` on the original text.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from deid_core import jsonl
from deid_core.ner import DEFAULT_MAX_LEN, WordPiece, windows
from deid_core.ner.case import case_ids as _case_ids

from .modeling import LABELS

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "notes.jsonl"
PRESIDIO = ROOT.parent / "shared" / "corpora" / "presidio-research" / "synth_dataset_v2.json"
DEV_PERCENT = 30
IGNORE = -100

#: The six model types.
TYPES: tuple[str, ...] = ("NAME", "LOCATION", "HOSPITAL", "ORGANIZATION", "AGE", "PROFESSION")
LABEL_ID = {lab: i for i, lab in enumerate(LABELS)}

#: i2b2 subtype -> model type (absent: O).
SUBTYPE_TO_TYPE: dict[str, str] = {
    "PATIENT": "NAME", "DOCTOR": "NAME", "USERNAME": "NAME",
    "STREET": "LOCATION", "CITY": "LOCATION", "STATE": "LOCATION", "COUNTRY": "LOCATION",
    "ZIP": "LOCATION", "ROOM": "LOCATION", "DEPARTMENT": "LOCATION", "LOCATION-OTHER": "LOCATION",
    "HOSPITAL": "HOSPITAL", "ORGANIZATION": "ORGANIZATION", "AGE": "AGE",
    "PROFESSION": "PROFESSION",
}

#: presidio-research entity type -> model type (absent: O). AGE and ZIP_CODE follow the
#: conventions of the corpus (``corpus/GUIDELINE.md``), so the sources do not contradict each
#: other: AGE -> AGE only for ages over 89 (Safe Harbor; younger ages -> O), ZIP -> LOCATION;
#: TITLE is PROFESSION unless it is an honorific (:data:`HONORIFICS`, then O).
PRESIDIO_MAP: dict[str, str] = {
    "PERSON": "NAME", "GPE": "LOCATION", "STREET_ADDRESS": "LOCATION", "ZIP_CODE": "LOCATION",
    "ORGANIZATION": "ORGANIZATION", "AGE": "AGE", "TITLE": "PROFESSION",
}
HONORIFICS = frozenset({"dr", "mr", "mrs", "ms", "miss", "mx", "prof", "sir", "madam", "dame",
                        "rev", "fr", "sr", "jr"})


@dataclass
class Example:
    """One text with gold spans ``(start, end, type)`` (model types), from ``source``."""

    id: str
    text: str
    spans: list[tuple[int, int, str]]
    source: str


@dataclass
class Window:
    """One model input row (lists of equal length, ``[CLS]``/``[SEP]`` included)."""

    input_ids: list[int]
    case_ids: list[int]
    labels: list[int]
    source: str = ""


@dataclass
class Dataset:
    """Everything :func:`build` assembled."""

    train: list[Example]
    dev: list[Example]
    dev_ids: list[str]
    counts: dict = field(default_factory=dict)


def is_dev(note_id: str) -> bool:
    """True for the ~30% of corpus notes held out as dev: ``int(sha256(id)[:8],16) % 100 < 30``."""
    h = int(hashlib.sha256(note_id.encode("utf-8")).hexdigest()[:8], 16)
    return h % 100 < DEV_PERCENT


def _map_spans(spans: Iterable[dict], mapping: dict[str, str], key: str = "label",
               start: str = "start", end: str = "end") -> list[tuple[int, int, str]]:
    out = []
    for s in spans:
        typ = mapping.get(s[key])
        if typ is not None:
            out.append((int(s[start]), int(s[end]), typ))
    return sorted(out)


def load_corpus(path: Path = CORPUS) -> tuple[list[Example], list[Example]]:
    """``(train, dev)`` examples of the annotated corpus (split by :func:`is_dev`)."""
    train, dev = [], []
    for rec in jsonl.parse(path.read_text(encoding="utf-8"), str(path)):
        ex = Example(rec["id"], rec["text"], _map_spans(rec["spans"], SUBTYPE_TO_TYPE), "corpus")
        (dev if is_dev(rec["id"]) else train).append(ex)
    return train, dev


def load_presidio(path: Path = PRESIDIO) -> list[Example]:
    """presidio-research synthetic sentences (MIT), spans mapped by :data:`PRESIDIO_MAP`;
    ``[]`` when the file is absent."""
    if not path.exists():
        return []
    out = []
    for k, rec in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        spans = []
        for s in rec["spans"]:
            typ = PRESIDIO_MAP.get(s["entity_type"])
            value = s["entity_value"].strip()
            if typ == "PROFESSION" and value.rstrip(".").lower() in HONORIFICS:
                typ = None
            if typ == "AGE" and not (value.isdigit() and int(value) > 89):
                typ = None
            if typ is not None:
                spans.append((int(s["start_position"]), int(s["end_position"]), typ))
        out.append(Example(f"presidio-{k}", rec["full_text"], sorted(spans), "presidio"))
    return out


def load_generated(n: int, seed: int) -> list[Example]:
    """``n`` sentences from :func:`training.generate.generate` (i2b2 subtypes mapped)."""
    if n <= 0:
        return []
    from .generate import generate
    return [Example(f"gen-{seed}-{k}", ex["text"], _map_spans(ex["spans"], SUBTYPE_TO_TYPE),
                    "generated")
            for k, ex in enumerate(generate(n, seed))]


def load_nursing(n: int, seed: int) -> list[Example]:
    """``n`` nursing notes from :func:`training.nursing.generate` (i2b2 subtypes mapped)."""
    if n <= 0:
        return []
    from .nursing import generate
    return [Example(f"nursing-{seed}-{k}", ex["text"], _map_spans(ex["spans"], SUBTYPE_TO_TYPE),
                    "nursing")
            for k, ex in enumerate(generate(n, seed))]


def load_notetypes(n: int, seed: int) -> list[Example]:
    """``n`` notes of 13 note types from :func:`training.notetypes.generate` (i2b2 subtypes
    mapped); the example's source is ``notetypes``."""
    if n <= 0:
        return []
    from .notetypes import generate
    return [Example(f"notetypes-{seed}-{k}", ex["text"], _map_spans(ex["spans"], SUBTYPE_TO_TYPE),
                    "notetypes")
            for k, ex in enumerate(generate(n, seed))]


def build(n_generated: int = 6000, seed: int = 13, presidio: bool = True,
          corpus: Path = CORPUS, n_nursing: int = 0, n_notetypes: int = 0) -> Dataset:
    """Assemble train (corpus train split + generated sentences + generated nursing notes +
    generated notes of 13 types + presidio) and dev (corpus dev split). The real-notes
    development half and ``corpus/varied/`` are never read here."""
    train, dev = load_corpus(corpus)
    gen = load_generated(n_generated, seed)
    nurse = load_nursing(n_nursing, seed)
    types = load_notetypes(n_notetypes, seed)
    pres = load_presidio() if presidio else []
    counts = {"corpus_train_notes": len(train), "corpus_dev_notes": len(dev),
              "generated": len(gen), "nursing": len(nurse), "notetypes": len(types),
              "presidio": len(pres)}
    return Dataset(train + gen + nurse + types + pres, dev, sorted(e.id for e in dev), counts)


def bio_tags(spans: Sequence[tuple[int, int, str]], offsets: Sequence[tuple[int, int]]) -> list[int]:
    """Label id per token: the first token overlapping a span gets ``B-type``, the following
    tokens overlapping the same span ``I-type``; other tokens ``O``. Where gold spans overlap,
    the earlier span keeps the token."""
    tags = [LABEL_ID["O"]] * len(offsets)
    taken = [False] * len(offsets)
    k0 = 0
    for s, e, typ in sorted(spans):
        first = True
        while k0 < len(offsets) and offsets[k0][1] <= s:
            k0 += 1
        k = k0
        while k < len(offsets) and offsets[k][0] < e:
            ts, te = offsets[k]
            if te > s and ts < e and not taken[k]:
                tags[k] = LABEL_ID[("B-" if first else "I-") + typ]
                taken[k] = True
                first = False
            k += 1
    return tags


def featurize(ex: Example, wp: WordPiece, max_len: int = DEFAULT_MAX_LEN,
              use_case: bool = True) -> list[Window]:
    """Cut one example into model windows (the runtime's windows; see module doc)."""
    enc = wp.encode(ex.text)
    tags = bio_tags(ex.spans, enc.offsets)
    cases = _case_ids(ex.text, enc.offsets, enc.word_ids) if use_case else [0] * len(enc.ids)
    out = []
    for s, e in windows(len(enc.ids), max_len):
        out.append(Window(wp.with_special(enc.ids[s:e]), [0, *cases[s:e], 0],
                          [IGNORE, *tags[s:e], IGNORE], ex.source))
    return out


def featurize_all(examples: Iterable[Example], wp: WordPiece, max_len: int = DEFAULT_MAX_LEN,
                  use_case: bool = True) -> list[Window]:
    """:func:`featurize` over many examples, concatenated."""
    out: list[Window] = []
    for ex in examples:
        out.extend(featurize(ex, wp, max_len, use_case))
    return out


def vocab_keep(examples: Iterable[Example], wp: WordPiece, vocab: Sequence[str],
               top_n: int = 6000, extra_texts: Iterable[str] = ()) -> set[str]:
    """Tokens to keep when trimming the vocabulary: every token the full-vocabulary tokenizer
    produces on ``examples`` and ``extra_texts``, every single character and ``##`` + single
    character (so any word still splits into pieces), and the first ``top_n`` whole-word
    entries after the reserved block (BERT's vocabulary lists word pieces roughly by frequency
    from id 1996 on)."""
    keep: set[str] = set()
    for ex in examples:
        keep.update(wp.encode(ex.text).tokens)
    for t in extra_texts:
        keep.update(wp.encode(t).tokens)
    for tok in vocab:
        if len(tok) == 1 or (tok.startswith("##") and len(tok) == 3):
            keep.add(tok)
    words = [t for t in vocab[1996:] if not t.startswith("[")]
    keep.update(words[:top_n])
    keep.discard("[UNK]")   # re-added with the specials; never "learned" from text
    return keep


def vocab_keep_capped(examples: Iterable[Example], wp: WordPiece, vocab: Sequence[str],
                      size: int, extra_texts: Iterable[str] = ()) -> set[str]:
    """Tokens to keep for a vocabulary of at most ``size`` entries (special tokens included):
    every single character and ``##`` + single character of the vocabulary (so any word still
    splits into pieces and nothing new becomes ``[UNK]``), then the tokens the full-vocabulary
    tokenizer produces most often on ``examples`` and ``extra_texts`` (each extra text counts
    once), commonest first, ties in vocabulary order.

    Raises:
        ValueError: if ``size`` is smaller than the characters alone.
    """
    from collections import Counter
    keep: set[str] = {t for t in vocab if len(t) == 1 or (t.startswith("##") and len(t) == 3)}
    keep.discard("[UNK]")
    room = size - len(keep) - 5
    if room < 0:
        raise ValueError(f"vocabulary size {size} is below the {len(keep) + 5} characters and specials")
    counts: Counter = Counter()
    for ex in examples:
        counts.update(wp.encode(ex.text).tokens)
    for t in extra_texts:
        counts.update(wp.encode(t).tokens)
    order = {t: i for i, t in enumerate(vocab)}
    ranked = sorted((t for t in counts if t not in keep and t in order and not t.startswith("[")),
                    key=lambda t: (-counts[t], order[t]))
    keep.update(ranked[:room])
    return keep
