"""Rule values: the one thing that gives a span its ``source``, and what explains it.

Every rule of every detector is a :class:`Rule`, declared next to its code. A rule says what it
finds (a clause a clinician reads), the labels and tiers it may give, why a span of it is amber
when it is, the word lists it reads and the :class:`Evidence` it may add. A detector builds its
spans with :meth:`Rule.span` (or the source with :meth:`Rule.source`), never with a string of its
own, so every source names a declared rule; :mod:`deid_core.detectors.catalogue` collects the
rules, and :mod:`deid_core.explain`, ``docs/rules.md`` and the hits report
(:mod:`deid_core.rulehits`) are derived from them.

A source is written ``ID[:DETAIL][+EVIDENCE...]``: the rule's id (``names:title``,
``locations:hospital:distinct``), then, for a rule that takes one (:attr:`Rule.detail`), the word
that fired (``names:title:dr``, ``ids:label:ACCOUNT``), then the evidence words in the order they
were added (``names:surname_list+medical_collision``). The resolver joins the sources of merged
candidates with ``" + "``. :func:`deid_core.explain.parse_source` reads that grammar.

Standard library only; the values are frozen and compared by identity (each is declared once).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .spans import LABELS, REVIEW, TIERS, Span

__all__ = ["Evidence", "Pass", "Rule", "rules_of"]

_ID = re.compile(r"[a-z]+:[a-z0-9_]+(?::[a-z0-9_]+)?")
_WORD = re.compile(r"[a-z][a-z0-9_]*")
_LIST = re.compile(r"[a-z0-9_]+\.(?:txt|tsv)")


@dataclass(frozen=True, eq=False)
class Evidence:
    """One ``+EVIDENCE`` word a rule may add to a span's source.

    Attributes:
        word: the word in the source (lower case, ``_`` between words: ``medical_collision``).
        adds: what it adds to the explanation, a clause (``"also a medical term (MeSH)"``).
        amber: why it makes a span amber, a clause; ``None`` when it is supporting evidence only.
        list: the ``lists/`` file the evidence rests on (``"medical_collisions.txt"``) or ``None``.

    Raises:
        ValueError: on construction, if ``word`` is not a lower-case word or ``list`` no list file.
    """

    word: str
    adds: str
    amber: str | None = None
    list: str | None = None

    def __post_init__(self) -> None:
        if not _WORD.fullmatch(self.word):
            raise ValueError(f"evidence word {self.word!r} must be lower case letters, digits and _")
        if not self.adds.strip():
            raise ValueError(f"evidence {self.word!r}: 'adds' is empty")
        if self.list is not None and not _LIST.fullmatch(self.list):
            raise ValueError(f"evidence {self.word!r}: {self.list!r} is no list file name")

    def add_to(self, span: Span, label: str, tier: str) -> Span:
        """``span`` with this evidence added to its source (``+word``), and ``label`` and
        ``tier`` (a later pass that upgrades a candidate: ``names:given+document_consistency``)."""
        return Span(span.start, span.end, label, tier, f"{span.source}+{self.word}")


@dataclass(frozen=True, eq=False)
class Rule:
    """One rule of a detector: its id and everything that explains its spans.

    Attributes:
        id: ``"detector:rule"`` (``"dates:month_day"``), or ``"detector:rule:variant"`` for the
            variants of one family of rules (``"locations:hospital:same_note"``); lower case.
        labels: the i2b2 labels its spans may have (keys of :data:`deid_core.spans.LABELS`).
        tiers: the tiers its spans may have (``"certain"``, ``"review"``).
        finds: what it finds, a clause that follows "Found by <the detector>: " in an
            explanation (``"a month/day number pair"``); ``{detail}`` stands for the detail.
        amber: why a span of it is amber when no evidence says why; required exactly when
            ``"review"`` is one of its tiers.
        list: the ``lists/`` file whose entries it finds (``"surnames.tsv"``), or ``None``.
        reads: the other ``lists/`` files it reads (context words, exclusions), in order.
        evidence: the :class:`Evidence` it may add to a source.
        detail: what the detail part of its sources names (``"the title"``), or ``None`` for a
            rule whose sources have none.
        detector: the part of ``id`` before the first ``:`` (set from it).
        name: the rest of ``id`` (set from it: ``"month_day"``, ``"hospital:same_note"``).

    Raises:
        ValueError: on construction, if the id is malformed, a label or tier is unknown, ``amber``
            is missing for a rule that gives review spans (or given for one that does not),
            ``{detail}`` appears in ``finds`` of a rule without a detail, or a list is no list
            file name.
    """

    id: str
    labels: tuple[str, ...]
    tiers: tuple[str, ...]
    finds: str
    amber: str | None = None
    list: str | None = None
    reads: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    detail: str | None = None
    detector: str = field(init=False, repr=False)
    name: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.id):
            raise ValueError(f"rule id {self.id!r} must be 'detector:rule' in lower case")
        if not self.labels or not set(self.labels) <= LABELS.keys():
            raise ValueError(f"rule {self.id}: labels {self.labels!r} must be i2b2 labels")
        if not self.tiers or not set(self.tiers) <= set(TIERS):
            raise ValueError(f"rule {self.id}: tiers {self.tiers!r} must be among {TIERS}")
        if not self.finds.strip():
            raise ValueError(f"rule {self.id}: 'finds' is empty")
        if (REVIEW in self.tiers) != bool(self.amber):
            raise ValueError(f"rule {self.id}: 'amber' says why its review spans are amber, and "
                             "only a rule that gives review spans has one")
        if "{detail}" in self.finds and self.detail is None:
            raise ValueError(f"rule {self.id}: 'finds' names {{detail}} but the rule takes none")
        for name in ((self.list,) if self.list else ()) + self.reads:
            if not _LIST.fullmatch(name):
                raise ValueError(f"rule {self.id}: {name!r} is no list file name")
        detector, _, name = self.id.partition(":")
        object.__setattr__(self, "detector", detector)
        object.__setattr__(self, "name", name)

    @property
    def lists(self) -> tuple[str, ...]:
        """Every ``lists/`` file it names: :attr:`list` (if any), then :attr:`reads`."""
        return ((self.list,) if self.list else ()) + self.reads

    def source(self, detail: str = "", evidence: Iterable[Evidence] = ()) -> str:
        """The source of a span of this rule: ``id[:detail][+evidence...]`` (see the module doc).

        ``detail``: the word that fired, for a rule that takes one (``"dr"``, ``"ACCOUNT"``);
        ``""`` for none. ``evidence``: the :class:`Evidence` values to add, in order.
        """
        s = f"{self.id}:{detail}" if detail else self.id
        for e in evidence:
            s += "+" + e.word
        return s

    def span(self, start: int, end: int, label: str | None = None, tier: str | None = None,
             detail: str = "", evidence: Iterable[Evidence] = ()) -> Span:
        """A :class:`~deid_core.spans.Span` ``[start, end)`` (characters) of this rule.

        ``label`` and ``tier`` may be left out when the rule declares only one; ``detail`` and
        ``evidence`` as for :meth:`source`.

        Raises:
            ValueError: ``label`` or ``tier`` left out of a rule that declares several, or the
                span itself is invalid (see :class:`~deid_core.spans.Span`).
        """
        if label is None:
            if len(self.labels) != 1:
                raise ValueError(f"rule {self.id} gives several labels: name one")
            label = self.labels[0]
        if tier is None:
            if len(self.tiers) != 1:
                raise ValueError(f"rule {self.id} gives several tiers: name one")
            tier = self.tiers[0]
        return Span(start, end, label, tier, self.source(detail, evidence))


@dataclass(frozen=True)
class Pass:
    """One pass of a detector that runs its passes in order (``names/``, ``locations/``): the
    function and the rules whose spans it may give (in the order a reader meets them)."""

    run: Callable
    rules: tuple[Rule, ...]


def rules_of(items: Iterable[Pass | Rule | Iterable[Rule]]) -> tuple[Rule, ...]:
    """The distinct rules of passes, rules and tuples of rules, in first-seen order."""
    out: dict[int, Rule] = {}
    for item in items:
        rules = item.rules if isinstance(item, Pass) else (item,) if isinstance(item, Rule) else item
        for r in rules:
            out.setdefault(id(r), r)
    return tuple(out.values())
