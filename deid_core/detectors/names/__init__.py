"""Names: PATIENT, DOCTOR and USERNAME (and HOSPITAL for a hospital named after people).

One pass over :attr:`Document.tokens` computes a bit mask of word-list facts per token (a
dictionary look-up, memoised per distinct word), then a few cheap passes apply the rules:

1. Context (certain): a title (``Dr.``, ``Mrs.``) or a relation (``his wife``) or a label
   (``Patient:``, ``Electronically signed by``, ``cc:``) before name-shaped words; a credential
   after them (``Anne Whitcombe, MD``); signature initials (``-- JS``, ``/js``); ``user: jsmith12``.
   The title, label and credential are never inside the span.
2. Lists: ``LAST, FIRST M``; a given name followed by a capitalised word or an initial; an
   initial followed by a surname; a lone word in the Census surname or given-name list. The tier
   follows the collision rules: a MeSH word (``Parkinson``) goes to review, an ordinary English
   word (``Will``, ``Hope``) holds fire at the start of a sentence and goes to review elsewhere,
   a word followed by an eponym follower (``Bell's palsy``, ``Glasgow Coma Scale``) is a
   diagnosis and gives no span, one followed by a clinical noun (``Foley catheter``) goes to
   review. In an ALL-CAPS note or line, in a (nearly) all-lowercase note and in a lower-case
   line or sentence of a note that has capitals elsewhere, capitalisation is no evidence:
   lone English-word names give nothing (review before a person's verb: ``kim saw``), other
   lone list names go to review only next to a person word (``seen by``, ``called``), two-word
   list names go to review, and a name stops before a verb or adverb (``gonzalez agrees``).
   A hyphenated pair of eponyms before a clinical noun (``Swan-Ganz catheter``) gives nothing;
   a hospital named after people (``Johns Hopkins``) is a HOSPITAL.
   Heads of lines: a name opening a line and followed by an age or an identifier label
   (``leopold fairweather, 96,``, ``Grimsby, Dmitri | MRN``), or after ``pt`` / ``name:``;
   ``LAST, FIRST`` before an identifier anywhere; the subject of ``X is a 42 yo``; a name in
   brackets after a service (``Neurosurgery (Okwu)``, review unless listed); a surname before
   ``family`` (``the Lindqvist family``). Initials after
   dictation words (``transcribed by m.o.``, ``Transcriptionist: mlr``, ``Tech ZQ /``).
   Lone eponyms that name a test or antigen (``Kell``, ``Holter``, ``Morse``) and a
   collision word before a model code (``Azure XT``) give nothing.
3. Coordination: a Capitalised word after a certain name and ``and`` (``Suzette and Hank``).
   Document consistency: a word of a name found with high confidence is certain wherever it
   appears again as a name-shaped word (``Mr. Hope ... Hope reports``), and a review candidate
   made only of such words becomes certain.
   A lower-case word made of a name found in the note plus up to three letters or digits
   (``gasamoahb`` after ``Asamoah-Brandt``) is that person's log-in (USERNAME).
Occupations (PROFESSION) are their own detector, :mod:`deid_core.detectors.professions`,
which reads the same :class:`.scan.Scan` (it needs to know which words are names).

Modules: :mod:`.lexicon` (word facts, :class:`.lexicon.Word`), :mod:`.words` (the context
words from ``lists/``), :mod:`.scan` (per-note state and shared predicates), :mod:`.runs`
(the name after a context word, service words), :mod:`.context`,
:mod:`.signatures`, :mod:`.heads`, :mod:`.list_rules`, :mod:`.consistency`, :mod:`.usernames`
(the rules, in the order :func:`scan_note` runs them).

Data: :mod:`deid_core.lists` (Census 2000 surnames, Census 1990 given names, MeSH/English
collisions, eponym followers, clinical nouns, hand-written titles, relations, professions and
note headings, credentials, label phrases, particles, non-names and cue words: see
:mod:`.words`).
"""
from __future__ import annotations

from collections.abc import Iterable

from ...document import Document
from ...spans import Span
from .consistency import consistency_pass, coordination_pass
from .context import context_pass
from .heads import family_name, head_pass, institution_pass, phone_owner, role_in_brackets
from .lexicon import Lexicon, Word, lexicon, set_lexicon
from .list_rules import list_pass
from .scan import Scan
from .usernames import username_pass

__all__ = ["Lexicon", "Scan", "Word", "detect", "lexicon", "scan_note", "set_lexicon"]


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
    institution_pass(sc)
    context_pass(sc)
    head_pass(sc)
    role_in_brackets(sc)
    phone_owner(sc)
    family_name(sc)
    list_pass(sc)
    coordination_pass(sc)
    consistency_pass(sc)
    username_pass(sc)
    return sc


def detect(doc: Document) -> Iterable[Span]:
    """Find names in ``doc``.

    Args:
        doc: the note (:class:`~deid_core.document.Document`).

    Returns:
        A list of candidate spans with labels PATIENT, DOCTOR or USERNAME (and HOSPITAL for a
        hospital named after a person, ``Johns Hopkins``), tiers ``certain`` or ``review``,
        sources ``names:<rule>[:<context word>]``; they may overlap (the resolver merges
        them). Titles, labels and credentials are outside the spans.

    Raises:
        FileNotFoundError: if a word list is missing.
    """
    if not doc.tokens:
        return []
    return list(scan_note(doc).spans)
