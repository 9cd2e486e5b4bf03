"""Harvested corpus rules: the ``rules.json`` format that ``deid harvest`` writes
(:mod:`deid_core.harvest`) and the one loader every caller uses (``deid batch``, ``redact``,
``surrogate``, ``review``, ``detect``, ``eval``, Spark and the page).

A rules file holds two things (how they are learnt: :mod:`deid_core.harvest`):

1. **Inclusion list**: normalised sentences (:func:`sentences`, whitespace collapsed) known to be
   PHI-free. At run time such a sentence's spans are dropped, the model is not run on a note
   made only of such sentences, and the output lists them under ``phi_free``
   (:func:`deid_core.analyze.analyze` applies both).
2. **Templates**: a :class:`Template` is a sentence of fixed words and slots by shape (``<W>``
   letters, ``<N>`` digits, ``<A>`` letters and digits); its regex (:attr:`Template.regex`) over a
   whole sentence turns each slot into a span of its label, source ``harvest:template:<n>``.

``rules.json``: ``{"format": "deid-harvest", "version": 1, "params": {...}, "notes": int,
"sentences": [normalised sentence, ...], "templates": [{"n", "tokens", "slots", "regex",
"instances", "patients", "tier"}, ...]}``.

:func:`parse` reads the JSON text, :func:`read` a file (its text, checked), :func:`load` a file
into :class:`HarvestRules`. Standard library only (the page loads it).
"""
from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .document import WORD_RE, Document
from .rules import Rule
from .spans import CERTAIN, LABELS, REVIEW, TIERS, Span

#: The spans of a harvested template: ``harvest:template:<n>``, ``<n>`` the template's number in
#: its ``rules.json`` (the catalogue lists it beside the detectors' rules).
HARVEST = Rule("harvest:template", tuple(LABELS), (CERTAIN, REVIEW),
               "template ({detail}) learned from this corpus by deid harvest",
               amber="a template learned from the corpus may also match text that is not an identifier",
               detail="the template's number")

__all__ = ["FORMAT", "HARVEST", "VERSION", "HarvestRules", "RulesError", "Template", "load", "normalise",
           "parse", "read", "sentences", "shape", "summary"]

FORMAT = "deid-harvest"
VERSION = 1
#: Sentence ends: a line end, or space after ``. ! ? ;`` unless the period ends a short
#: capitalised abbreviation (``Dr.``, ``Mr.``, ``St.``: the name that follows belongs to it).
_SENT_END = re.compile(r"(?<![\s(][A-Z][A-Za-z]\.)(?<![\s(][A-Z][A-Za-z]{2}\.)(?<![\s(][A-Z]\.)"
                       r"(?<=[.!?;])[ \t]+|\r?\n|\r")
#: The text a slot of each shape matches.
SLOT_RES: dict[str, str] = {"<W>": r"[^\W\d_]+(?:['’\-][^\W\d_]+)*", "<N>": r"\d+(?:['’\-]\d+)*",
                            "<A>": r"[^\W_]+(?:['’\-][^\W_]+)*"}
_SEP, _EDGE = r"[\W_]+", r"[\W_]*"


class RulesError(ValueError):
    """A rules file that cannot be read or is no ``deid harvest`` file; the message starts with
    where it came from (the path, or the name the page gave)."""


def sentences(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each sentence of ``text`` (split at line ends and after ``. ! ? ;``
    followed by space, but not after a short capitalised abbreviation such as ``Dr.``), trimmed
    of surrounding whitespace, empty ones left out."""
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


def normalise(sentence: str) -> str:
    """A sentence as the inclusion list stores it: whitespace runs collapsed to one space."""
    return " ".join(sentence.split())


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
            if t in SLOT_RES:
                parts.append(f"(?P<s{k}>{SLOT_RES[t]})")
                k += 1
            else:
                parts.append(re.escape(t))
        return "(?i)" + _EDGE + _SEP.join(parts) + _EDGE

    def to_dict(self) -> dict:
        """The JSON form (module doc)."""
        return {"n": self.n, "tokens": list(self.tokens), "slots": [list(s) for s in self.slots],
                "regex": self.regex, "instances": self.instances, "patients": self.patients,
                "tier": self.tier}


class TemplateDetector:
    """The templates as a detector (``detect(doc) -> spans``) for
    :func:`deid_core.analyze.analyze`: each sentence of as many words as a template is matched
    against the templates of that length, the first that matches gives its spans."""

    name = "harvest"

    def __init__(self, templates: Iterable[Template]) -> None:
        self._by_len: dict[int, list[tuple[Template, re.Pattern]]] = defaultdict(list)
        for t in templates:
            self._by_len[len(t.tokens)].append((t, re.compile(t.regex)))

    def detect(self, doc: Document) -> Iterator[Span]:
        """The template spans of ``doc`` (tier: the template's; source ``harvest:template:<n>``)."""
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
                    yield HARVEST.span(s, e, label, t.tier, detail=str(t.n))
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
        self.detector = TemplateDetector(self.templates)

    def phi_free(self, text: str) -> list[tuple[int, int]]:
        """``[start, end)`` of each sentence of ``text`` in the inclusion list, in text order."""
        if not self.sentences:
            return []
        return [(a, b) for a, b in sentences(text) if normalise(text[a:b]) in self.sentences]

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
        except RecursionError:
            raise ValueError("not a rules file: nested too deeply") from None
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
            n_slots = sum(x in SLOT_RES for x in tokens)
            if n_slots != len(slots) or any(lab not in LABELS for lab, _ in slots) or tier not in TIERS \
                    or not all(isinstance(x, str) and (x in SLOT_RES or WORD_RE.fullmatch(x)) for x in tokens):
                raise ValueError(f"templates[{k}] is malformed")
            templates.append(Template(int(t.get("n", k)), tokens, slots, int(t.get("instances", 0)),
                                      int(t.get("patients", 0)), tier))
        return cls(sents, templates, int(d.get("notes", 0)), d.get("params") or {})


def parse(text: str, where: str = "rules.json") -> HarvestRules:
    """The :class:`HarvestRules` of a ``rules.json`` text.

    Args:
        text: the file's content (a ``str``).
        where: the name used in error messages.

    Raises:
        RulesError: not a string, not JSON, not a deid-harvest version 1 file, a malformed template.
    """
    if not isinstance(text, str):
        raise RulesError(f"{where}: expected the file's text, not {type(text).__name__}")
    try:
        return HarvestRules.from_json(text)
    except ValueError as e:
        raise RulesError(f"{where}: {e}") from None


def read(path: str | os.PathLike) -> str:
    """The UTF-8 text of the rules file at ``path``, checked by :func:`parse` (the form
    :class:`deid_core.batch.engine.Config` carries to worker processes).

    Raises:
        RulesError: the file cannot be read, is not UTF-8, or is no rules file.
    """
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RulesError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise RulesError(f"{path}: not UTF-8 (byte {e.start})") from None
    parse(text, str(path))
    return text


def load(path: str | os.PathLike | None) -> HarvestRules | None:
    """The rules in the file at ``path`` (None: no rules, None back).

    Raises:
        RulesError: as :func:`read`.
    """
    return None if path is None else parse(read(path), str(path))


def summary(rules: HarvestRules) -> dict:
    """``{"sentences": int, "templates": int, "notes": int}``: what a rules file holds (the page
    shows it once loaded)."""
    return {"sentences": len(rules.sentences), "templates": len(rules.templates),
            "notes": rules.notes}
