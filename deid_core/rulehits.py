"""Hits per rule: how many spans each rule of the catalogue gives on an annotated corpus, and how
many of their characters the gold marks, by tier, so one can see which rules generalise and
which fire on one development sentence only.

A rule's hits are the candidates it gave (before the resolver merges overlaps: what the rule
itself found) over the rules engine (:func:`deid_core.analyze`, no model). Characters are
counted as ``deid eval`` counts them: the non-whitespace characters of the span, inside or
outside any gold span (labels ignored). Read by ``deid eval --rules-report`` and by
``scripts/rules_doc.py``, which writes the hits into ``docs/rules.md``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .analyze import Analysis, analyze
from .detectors.catalogue import RULES, find
from .explain import parse_source
from .readers import GoldDoc
from .spans import CERTAIN, REVIEW, TIERS

__all__ = ["RuleHits", "format_table", "hits", "rule_id"]


@dataclass
class RuleHits:
    """The hits of one rule on one corpus, by tier (``"certain"``, ``"review"``).

    Attributes:
        spans: candidates it gave.
        inside: their non-whitespace characters inside a gold span.
        outside: their non-whitespace characters outside every gold span.
        notes: the notes where it gave at least one candidate.
    """

    spans: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TIERS, 0))
    inside: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TIERS, 0))
    outside: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TIERS, 0))
    notes: int = 0

    def to_dict(self) -> dict:
        """``{"spans": {tier: n}, "inside": {...}, "outside": {...}, "notes": n}``."""
        return {"spans": dict(self.spans), "inside": dict(self.inside),
                "outside": dict(self.outside), "notes": self.notes}


def rule_id(source: str) -> str:
    """The id of the declared rule of a (one-part) candidate source (``names:title:dr`` ->
    ``names:title``), or ``"undeclared:<detector:rule>"`` when the catalogue has none."""
    parts = parse_source(source)
    if not parts:
        return "undeclared:"
    p = parts[0]
    rule, _ = find(p.detector, p.rule, p.detail)
    return rule.id if rule is not None else f"undeclared:{p.detector}:{p.rule}"


def hits(docs: Iterable[GoldDoc], analyse: Callable[[str], Analysis] = analyze) -> dict[str, RuleHits]:
    """Rule id -> its :class:`RuleHits` over ``docs``: every rule of the catalogue (zero where
    it gave nothing), then any undeclared source met (``undeclared:...``), in catalogue order.

    ``analyse``: text -> :class:`~deid_core.analyze.Analysis` (the rules engine by default).
    """
    out: dict[str, RuleHits] = {r.id: RuleHits() for r in RULES}
    for doc in docs:
        text = doc.text
        gold = bytearray(len(text))
        for g in doc.spans:
            end = min(g.end, len(text))
            if g.start < end:
                gold[g.start:end] = b"\x01" * (end - g.start)
        seen: set[str] = set()
        for c in analyse(text).candidates:
            rid = rule_id(c.source)
            h = out.get(rid)
            if h is None:
                h = out[rid] = RuleHits()
            h.spans[c.tier] += 1
            for i in range(c.start, c.end):
                if not text[i].isspace():
                    if gold[i]:
                        h.inside[c.tier] += 1
                    else:
                        h.outside[c.tier] += 1
            if rid not in seen:
                seen.add(rid)
                h.notes += 1
    return out


_HEADER = ("| rule | notes | spans certain | in gold | outside gold | spans review | in gold "
           "| outside gold |\n|---|---|---|---|---|---|---|---|\n")


def format_table(table: dict[str, RuleHits], zero: bool = False) -> str:
    """A Markdown table of ``table`` (:func:`hits`): one row per rule that gave a span (every
    rule with ``zero``), its notes, then per tier spans, characters inside and outside gold."""
    rows = []
    for rid, h in table.items():
        if not zero and not any(h.spans.values()):
            continue
        rows.append(f"| `{rid}` | {h.notes} | {h.spans[CERTAIN]} | {h.inside[CERTAIN]} | "
                    f"{h.outside[CERTAIN]} | {h.spans[REVIEW]} | {h.inside[REVIEW]} | "
                    f"{h.outside[REVIEW]} |\n")
    return _HEADER + "".join(rows)
