"""The rule catalogue: every :class:`~deid_core.rules.Rule` that can give a span, gathered from the
detectors that declare them, and what else is derived from them.

Each detector module declares its rules next to its code and lists them in ``RULES`` (the shape
detectors from their ``PATTERNS`` tables, ``names`` and ``locations`` from their ordered
``PASSES``); :mod:`deid_core.extend` declares the rules of the spans it adds after a first
resolution; the NER model's source is declared here (:data:`NER`: its spans are made by
:mod:`deid_core.ner.decode`), the harvested templates' beside their code
(:data:`deid_core.corpus_rules.HARVEST`, which emits through it). From these:

* :func:`find` gives the rule of one part of a source (``names:title:dr`` -> ``names:title``
  and its detail ``dr``), which :mod:`deid_core.explain` reads to explain a span;
* :data:`EVIDENCE` is every evidence word a rule declares;
* :func:`list_readers` names every ``lists/`` file and who reads it: the rules, the word tables a
  detector's rules share (``SHARED_LISTS``) and the modules outside the detectors
  (:data:`OTHER_READERS`); the hand-written lists that ``scripts/build_lists.py`` checks are
  those of them whose header says so (:func:`handwritten_lists`);
* ``docs/rules.md`` (``scripts/rules_doc.py``) and the hits per rule (:mod:`deid_core.rulehits`).

Raises (at import):
    ValueError: two rules share an id, two evidence values share a word, or a detector's rule
        is not named after it.
"""
from __future__ import annotations

from .. import extend, lists
from ..corpus_rules import HARVEST
from ..rules import Evidence, Rule
from ..spans import CERTAIN, LABELS, REVIEW
from . import REGISTRY, ages, contact, dates, ids, known, locations, names, professions

__all__ = ["BY_ID", "DETECTORS", "EVIDENCE", "HARVEST", "NER", "OTHER_READERS", "RULES", "SHARED_LISTS",
           "find", "handwritten_lists", "list_readers", "rules_of_detector"]

#: The model's spans: ``ner:<model name>:p=<confidence>`` (written by :mod:`deid_core.ner.decode`).
NER = Rule("ner:model", tuple(LABELS), (CERTAIN, REVIEW),
           "a name, place or other identifier the model read in its context",
           amber="the model's confidence is below the level at which its finds are masked on sight",
           detail="the model's name and its confidence")
#: Detector (the part of a source before the first ``:``) -> the words a clinician reads.
DETECTORS: dict[str, str] = {
    **{d.name: d.called for d in REGISTRY},
    "ner": "the NER model",
    "harvest": "the corpus rules (rules.json from deid harvest)",
}

#: Detector name -> the module that declares its rules (the last part of its module name).
_MODULES = {m.__name__.rsplit(".", 1)[-1]: m for m in (dates, ages, contact, ids, locations, names,
                                                        professions, known)}


#: Detector -> the lists its rules' shared word tables read, whatever the rule (``SHARED_LISTS``
#: of ``names`` and ``locations``).
SHARED_LISTS: dict[str, tuple[str, ...]] = {
    name: m.SHARED_LISTS for name, m in _MODULES.items() if hasattr(m, "SHARED_LISTS")}


def _gather() -> tuple[Rule, ...]:
    out: list[Rule] = []
    for d in REGISTRY:
        out.extend(_MODULES[d.name].RULES)
    out.extend(extend.RULES)
    out.extend((NER, HARVEST))
    seen: dict[str, Rule] = {}
    unique = []
    for r in out:
        if r.detector not in DETECTORS:
            raise ValueError(f"rule {r.id}: no detector {r.detector!r}")
        other = seen.get(r.id)
        if other is r:
            continue
        if other is not None:
            raise ValueError(f"two rules have the id {r.id}")
        seen[r.id] = r
        unique.append(r)
    return tuple(unique)


#: Every rule, detector by detector in :data:`~deid_core.detectors.REGISTRY` order, then the
#: rules of :mod:`deid_core.extend`, then :data:`NER` and :data:`HARVEST`.
RULES: tuple[Rule, ...] = _gather()
#: Rule id -> rule.
BY_ID: dict[str, Rule] = {r.id: r for r in RULES}


def _evidence() -> dict[str, Evidence]:
    out: dict[str, Evidence] = {}
    for r in RULES:
        for e in r.evidence:
            if out.setdefault(e.word, e) is not e:
                raise ValueError(f"two evidence values have the word {e.word!r}")
    return out


#: Evidence word -> the :class:`~deid_core.rules.Evidence` a rule declares.
EVIDENCE: dict[str, Evidence] = _evidence()


def find(detector: str, rule: str, detail: str) -> tuple[Rule | None, str]:
    """The rule of one part of a source and the detail left over, from the part's first three
    pieces (``"locations", "hospital", "same_note"`` -> the rule ``locations:hospital:same_note``
    and ``""``; ``"names", "title", "dr"`` -> ``names:title`` and ``"dr"``); a source of the
    model (``ner:<name>:...``) -> :data:`NER` and its name and confidence. ``(None, detail)``
    when no rule is declared for it."""
    if detector == "ner":
        return NER, f"{rule}:{detail}" if detail else rule
    head = f"{detector}:{rule}"
    if detail:
        sub, _, rest = detail.partition(":")
        r = BY_ID.get(f"{head}:{sub}")
        if r is not None:
            return r, rest
    return BY_ID.get(head), detail


def rules_of_detector(name: str) -> tuple[Rule, ...]:
    """The rules whose ids start with ``name:``, in catalogue order."""
    return tuple(r for r in RULES if r.detector == name)


#: The ``lists/`` files read outside the detectors' rules and shared tables: module -> files.
#: (``tests/test_rules.py`` checks that each module names each file, through its stem.)
OTHER_READERS: dict[str, tuple[str, ...]] = {
    "deid_core.lists": ("titles.txt", "name_particles.txt", "name_cues.txt", "credentials.txt",
                        "relations.txt", "abbreviations.txt", "id_label_words.tsv"),
    "deid_core.calendars": ("holidays.tsv",),
    "deid_core.detectors.patterns": ("units.txt",),
    "deid_core.detectors.ages": ("number_words.tsv",),
    "deid_core.ensemble": ("abbreviations.txt", "non_names.txt", "relations.txt", "street_words.txt",
                           "ward_words.txt", "departments.txt", "generic_service_words.txt"),
    "deid_core.surrogate.places": ("surrogate_place_words.txt", "hospital_words.txt", "departments.txt",
                                   "professions.txt"),
    "deid_core.surrogate.names": ("relations.txt", "titles.txt", "name_cues.txt"),
    "deid_core.surrogate.particles": ("name_particles.txt", "particle_phrases.txt"),
    "deid_core.resolve": ("name_particles.txt",),
    "deid_core.surrogate.core": ("id_label_words.tsv",),
    "deid_core.knowledge": ("facility_name_words.txt", "organisation_shapes.txt", "care_chains.txt"),
    "scripts/build_lists.py": ("eponym_followers_handwritten.txt", "clinical_nouns_handwritten.txt",
                               "facility_name_words.txt", "company_legal_words.txt",
                               "zip3_hhs_restricted.txt"),
}


def list_readers() -> dict[str, tuple[str, ...]]:
    """Every ``lists/`` file the catalogue names -> who reads it (rule ids, ``<detector> tables``
    for a detector's shared tables, module names), sorted by file name."""
    out: dict[str, list[str]] = {}
    for r in RULES:
        for name in r.lists:
            out.setdefault(name, []).append(r.id)
        for e in r.evidence:
            if e.list:
                out.setdefault(e.list, []).append(f"evidence {e.word}")
    for det, shared in SHARED_LISTS.items():
        for name in shared:
            out.setdefault(name, []).append(f"{det} tables")
    for module, names_ in OTHER_READERS.items():
        for name in names_:
            out.setdefault(name, []).append(module)
    return {k: tuple(dict.fromkeys(v)) for k, v in sorted(out.items())}


def handwritten_lists() -> tuple[str, ...]:
    """The hand-written files among those :func:`list_readers` names (their header says
    ``source: hand-written ...``), sorted: the registration of the hand-written lists.

    Raises:
        FileNotFoundError: a named file is missing from ``lists/``.
    """
    return tuple(name for name in list_readers()
                 if lists.read_list(name).header.get("source", "").startswith("hand-written"))
