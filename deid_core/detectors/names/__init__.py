"""Names: PATIENT, DOCTOR and USERNAME (and HOSPITAL for a hospital named after people).

One pass over :attr:`Document.tokens` computes a bit mask of word-list facts per token (a
dictionary look-up, memoised per distinct word: :mod:`.lexicon`), then the passes of
:data:`PASSES` apply the rules in order, each pass naming the :class:`~deid_core.rules.Rule`
values it may give (what each finds, its tiers, lists and evidence: ``docs/rules.md``). A pass
marks the tokens it takes (``used``), so a later pass does not read them again; the context
word of a rule (a title, a relation, a label, a credential) is never inside the span. The tier
follows the collision rules: a MeSH word (``Parkinson``) goes to review, an ordinary English
word (``Will``, ``Hope``) holds fire at the start of a sentence and goes to review elsewhere, a
word followed by an eponym follower (``Bell's palsy``) is a diagnosis and gives no span, one
followed by a clinical noun (``Foley catheter``) goes to review. Where capitals are no evidence
(an ALL-CAPS note or line, a lower-case note, line or sentence: :mod:`.scan`) lone names need a
person word next to them and pairs go to review.

Occupations (PROFESSION) are their own detector, :mod:`deid_core.detectors.professions`,
which reads the same :class:`.scan.Scan` (it needs to know which words are names).

Modules: :mod:`.lexicon` (word facts, :class:`.lexicon.Word`), :mod:`.words` (the context
words from ``lists/``), :mod:`.evidence` (the evidence words), :mod:`.scan` (per-note state and
shared predicates), :mod:`.runs` (the name after a context word, service words), and the rules:
:mod:`.context`, :mod:`.signatures`, :mod:`.heads`, :mod:`.list_rules`, :mod:`.nicknames`
(lists after a plural relation word, quoted nicknames), :mod:`.consistency`, :mod:`.usernames`.
"""
from __future__ import annotations

from collections.abc import Iterable

from ...document import Document
from ...rules import Pass, rules_of
from ...spans import Span
from .consistency import CONSISTENCY_PASS, COORDINATION_PASS
from .context import CONTEXT_PASS
from .heads import FAMILY_PASS, HEAD_PASS, INSTITUTION_PASS, PHONE_OWNER_PASS, ROLE_PASS
from .lexicon import Lexicon, Word, lexicon, set_lexicon
from .list_rules import LIST_PASS
from .nicknames import NICKNAME_PASS, RELATION_LIST_PASS
from .scan import Scan
from .usernames import USERNAME_PASS

__all__ = ["Lexicon", "PASSES", "RULES", "SHARED_LISTS", "Scan", "Word", "detect", "lexicon", "scan_note",
           "set_lexicon"]

#: The passes of :func:`scan_note`, in the order they run; each module declares its passes and
#: the rules each may give beside its code.
PASSES: tuple[Pass, ...] = (INSTITUTION_PASS, CONTEXT_PASS, HEAD_PASS, ROLE_PASS, PHONE_OWNER_PASS,
                            FAMILY_PASS, RELATION_LIST_PASS, LIST_PASS, NICKNAME_PASS,
                            COORDINATION_PASS, CONSISTENCY_PASS, USERNAME_PASS)
#: Every rule of the name detector, in the order the passes meet them.
RULES = rules_of(PASSES)
#: The lists the word facts of every token read (:mod:`.lexicon`, :mod:`.words`), whatever the rule.
SHARED_LISTS = ("surnames.tsv", "given_names.tsv", "medical_collisions.txt", "medical_eponyms.txt",
                "english_collisions.txt", "eponym_followers.txt", "clinical_nouns.txt", "titles.txt",
                "relations.txt", "credentials.txt", "name_particles.txt", "name_labels.txt",
                "non_names.txt", "note_headings.txt", "abbreviations.txt", "professions.txt",
                "us_states.tsv", "departments.txt", "eponymous_institutions.txt", "name_cues.txt",
                "generic_service_words.txt", "number_words.tsv")


def scan_note(doc: Document) -> Scan:
    """Run every name rule over ``doc`` once and return the :class:`Scan` (its ``spans`` and
    which tokens are names, ``used``); cached on the document, so the name and the profession
    detectors share one run.

    Raises:
        FileNotFoundError: if a word list is missing.
    """
    return doc.memo("names.scan", _run)


def _run(doc: Document) -> Scan:
    sc = Scan(doc, lexicon())
    for p in PASSES:
        p.run(sc)
    return sc


def detect(doc: Document) -> Iterable[Span]:
    """Find names in ``doc``.

    Args:
        doc: the note (:class:`~deid_core.document.Document`).

    Returns:
        A list of candidate spans with labels PATIENT, DOCTOR or USERNAME (and HOSPITAL for a
        hospital named after a person, ``Johns Hopkins``), tiers ``certain`` or ``review``,
        sources ``names:<rule>[:<context word>][+<evidence>]`` (:data:`RULES`); they may
        overlap (the resolver merges
        them). Titles, labels and credentials are outside the spans.

    Raises:
        FileNotFoundError: if a word list is missing.
    """
    if not doc.tokens:
        return []
    return list(scan_note(doc).spans)
