"""Structured explanations: for a span, which detector and rule found it, from which word list,
and why it is amber, in a form Review shows without parsing strings.

A span's ``source`` is written by its :class:`~deid_core.rules.Rule` as
``ID[:DETAIL][+EVIDENCE...]`` (``"names:surname_list+medical_collision"``, ``"names:relation:wife"``,
``"dates:year_bare"``); the model writes ``"ner:<model name>:p=<confidence>"``; the resolver joins
the sources of merged candidates with ``" + "``. :func:`parse_source` is the one place that reads
that grammar; what each part means is the rule catalogue's (:mod:`deid_core.detectors.catalogue`):
the detector's words (:data:`~deid_core.detectors.catalogue.DETECTORS`), the rule's
:attr:`~deid_core.rules.Rule.finds`, :attr:`~deid_core.rules.Rule.list` and
:attr:`~deid_core.rules.Rule.amber`, and each evidence word's :class:`~deid_core.rules.Evidence`.
This module holds no table of its own.

A source the catalogue does not know (a host's own model spans, say) is still explained, from its
words with ``_`` read as spaces; ``tests/test_rules.py`` checks that every source the engine gives
on the corpora and the rule cases is a declared rule with declared evidence.
"""
from __future__ import annotations

from dataclasses import dataclass

from .detectors.catalogue import DETECTORS, EVIDENCE, find
from .spans import REVIEW, Span

__all__ = ["Part", "parse_source", "explain"]

_AMBER_UNKNOWN = "the pattern also matches text that is not an identifier"


@dataclass(frozen=True)
class Part:
    """One detector's share of a source: ``detector``, ``rule``, ``detail`` (the rest of the
    ``:`` path, e.g. ``"wife"`` in ``names:relation:wife``, or ``""``) and its ``evidence`` words
    (the ``+`` suffixes, in order)."""

    detector: str
    rule: str
    detail: str
    evidence: tuple[str, ...]


def parse_source(source: str) -> tuple[Part, ...]:
    """The parts of a span's ``source`` (see the module doc); ``()`` for an empty source."""
    parts = []
    for piece in source.split(" + "):
        piece = piece.strip()
        if not piece:
            continue
        head, *evidence = piece.split("+")
        detector, _, rest = head.partition(":")
        rule, _, detail = rest.partition(":")
        parts.append(Part(detector, rule, detail, tuple(e for e in evidence if e)))
    return tuple(parts)


def _words(name: str) -> str:
    return name.replace("_", " ").replace(":", " ").strip()


def _confidence(part: Part) -> str | None:
    return part.detail[2:] if part.detail.startswith("p=") else None


def _describe(part: Part) -> tuple[str, str | None]:
    """(a clause saying who found it and how, the list used or None)."""
    who = DETECTORS.get(part.detector, f"the {_words(part.detector) or 'unnamed'} detector")
    if part.detector == "ner":
        p = _confidence(part)
        return (f"{who} ({part.rule or 'model'}" + (f", confidence {p})" if p else ")")), None
    rule, detail = find(part.detector, part.rule, part.detail)
    if rule is None:
        saw, lst = _words(part.rule), None
    else:
        saw, lst = rule.finds, rule.list
    if "{detail}" in saw:
        saw = saw.format(detail=_words(detail).lower() or "?")
    elif detail:
        saw += f" ({_words(detail).lower()})"
    extra = []
    for word in part.evidence:
        e = EVIDENCE.get(word)
        extra.append(e.adds if e is not None else _words(word))
        lst = lst or (e.list if e is not None else None)
    clause = f"{who}: {saw}" if saw else who
    if extra:
        clause += ", " + ", ".join(extra)
    return clause, lst


def _why_amber(parts: tuple[Part, ...]) -> str:
    for part in parts:
        for word in part.evidence:
            e = EVIDENCE.get(word)
            if e is not None and e.amber:
                return e.amber
    for part in parts:
        if part.detector == "ner":
            p = _confidence(part)
            return ("the model's confidence" + (f" ({p})" if p else "")
                    + " is below the level at which its finds are masked on sight")
        rule, _ = find(part.detector, part.rule, part.detail)
        if rule is not None and rule.amber:
            return rule.amber
    return _AMBER_UNKNOWN


def explain(span: Span) -> dict:
    """The structured explanation of one span.

    Returns:
        ``{"detector", "rule", "list", "why_amber", "text"}``: ``detector`` and ``rule`` of the
        span's first source part (the rule's name, ``"hospital:same_note"`` for a variant;
        ``""`` when the source is empty; for the model ``"ner"`` and its model name),
        ``list`` the ``lists/`` file the finding rests on or ``None``,
        ``why_amber`` one clause for a ``review`` span and ``None`` for a certain one, and
        ``text`` one plain sentence for a clinician naming every part and, for amber, why.
    """
    parts = parse_source(span.source)
    if not parts:
        clauses, lst = ["a detector that gave no reason"], None
    else:
        described = [_describe(p) for p in parts]
        clauses = [c for c, _ in described]
        lst = next((x for _, x in described if x), None)
    why = _why_amber(parts) if span.tier == REVIEW else None
    text = "Found by " + "; and by ".join(clauses)
    text += (f"; amber because {why}." if why else ".")
    first = parts[0] if parts else Part("", "", "", ())
    rule = find(first.detector, first.rule, first.detail)[0] if parts and first.detector != "ner" else None
    return {"detector": first.detector, "rule": rule.name if rule is not None else first.rule,
            "list": lst, "why_amber": why, "text": text}
