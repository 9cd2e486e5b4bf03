"""The name rules' context words, read from the hand-written lists in ``lists/``.

Every set here has its one home in a list file (this module holds no words of its own):

=========================  ======================================================================
``titles.txt``             ``DOCTOR_TITLES``, ``PATIENT_TITLES``, ``STRONG_TITLES``, ``WORD_TITLES``
``relations.txt``          ``RELATIONS`` (one-word entries used by ``names``), ``RELATION_PHRASES``
                           (the others, as word tuples) and ``RELATION_PHRASE_ENDS`` (their last words)
``credentials.txt``        ``CREDENTIALS``, ``AMBIGUOUS_CREDENTIALS`` (count only after a comma)
``name_particles.txt``     ``PARTICLES`` (rows used by ``names``)
``name_labels.txt``        ``LABELS``: ``(words, label, needs_colon)``
``non_names.txt``          ``NON_NAMES``
``medical_eponyms.txt``    ``MEDICAL_EPONYMS``
``eponymous_institutions`` ``INSTITUTIONS``: word tuples
``name_cues.txt``          one set per cue: ``POSSESSIVES`` (cue ``possessive``), ``PERSON_VERBS``,
                           ``NAME_STOP_WORDS`` (``person_verb`` or ``name_stop``) ... see ``_CUES``
``deid_core.calendars``    ``MONTHS``: month names and their abbreviations
=========================  ======================================================================

The sets are loaded on first attribute access (module ``__getattr__``), so importing the
detector reads no file; after that they are plain module globals. All words are lower-case.

Raises (on first access):
    FileNotFoundError: a list file is missing.
"""
from __future__ import annotations

from ... import calendars, lists

#: Module attribute -> cue names in ``lists/name_cues.txt`` whose words make up the set.
_CUES: dict[str, tuple[str, ...]] = {
    "POSSESSIVES": ("possessive",),
    "CALENDAR_NAMES": ("calendar_name",),
    "ID_LABEL_WORDS": ("id_label",),
    "TEST_EPONYMS": ("test_eponym",),
    "INITIALS_LABELS": ("initials_label",),
    "AMBIGUOUS_LABELS": ("ambiguous_label",),
    "VERB_READING_NEXT": ("verb_reading_next",),
    "MEASURE_FOLLOWERS": ("measure_follower",),
    "HYPHEN_EPONYM_NEXT": ("hyphen_eponym_next",),
    "PROFESSION_OPENERS": ("profession_opener",),
    "NOT_PROFESSIONS": ("not_profession",),
    "PROFESSION_STOP": ("profession_stop",),
    "PROFESSION_SUBJECTS": ("profession_subject",),
    "PROFESSION_CONTEXT": ("profession_context",),
    "PERSON_VERBS": ("person_verb",),
    "NAME_STOP_WORDS": ("person_verb", "name_stop"),
    "PERSON_BEFORE": ("person_before",),
    "EPONYM_PERSON_BEFORE": ("person_before", "eponym_person_before"),
    "INITIAL_BEFORE": ("initial_before",),
    "SPEAKER_VERBS": ("speaker_verb",),
    "PHONE_LABELS": ("phone_label",),
    "ENG_PERSON_AFTER": ("english_person_after",),
    "PERSON_AFTER": ("person_after", "english_person_after"),
    "SUFFIXES": ("generational_suffix",),
    "UNITS": ("unit",),
    "HEAD_PREFIXES": ("head_prefix",),
    "CONTRACTIONS": ("contraction",),
    "SEVERITY_WORDS": ("severity",),
    "CLINICIAN_AFTER": ("clinician_after",),
    "SOCIAL_HEADINGS": ("social_heading",),
    "FAMILY_WORDS": ("family_word",),
    "SIGN_OFFS": ("sign_off",),
    "RELATION_PLURALS": ("relation_plural",),
    "NICKNAME_BEFORE": ("nickname_before",),
}
#: Module attribute -> cue whose words are word endings (a tuple, for ``str.endswith``).
_ENDINGS: dict[str, str] = {
    "FOLLOWER_SUFFIXES": "follower_ending",
    "PROFESSION_SUFFIXES": "profession_ending",
}

#: Month names and abbreviations (also given names: May, June, April, August, Jan), from the one
#: calendar (:mod:`deid_core.calendars`: the full names and the abbreviations it reads).
MONTHS: frozenset[str] = frozenset(calendars.MONTHS) | frozenset(calendars.MONTH_NUMBERS)


def _rows(name: str) -> tuple[tuple[str, ...], ...]:
    return lists.read_list(f"{name}.txt").rows


def _load() -> None:
    g = globals()
    titles = _rows("titles")
    g["DOCTOR_TITLES"] = frozenset(r[0] for r in titles if r[1] == "doctor")
    g["PATIENT_TITLES"] = frozenset(r[0] for r in titles if r[1] == "patient")
    g["STRONG_TITLES"] = frozenset(r[0] for r in titles if r[2] == "strong")
    g["WORD_TITLES"] = frozenset(r[0] for r in titles if r[3] == "ends-sentence")
    g["RELATIONS"] = frozenset(r for r in lists.relations("names") if " " not in r)
    g["RELATION_PHRASES"] = frozenset(tuple(r.split()) for r in lists.relations("names") if " " in r)
    g["RELATION_PHRASE_ENDS"] = frozenset(p[-1] for p in g["RELATION_PHRASES"])
    creds = _rows("credentials")
    g["CREDENTIALS"] = frozenset(r[0] for r in creds)
    g["AMBIGUOUS_CREDENTIALS"] = frozenset(r[0] for r in creds if r[1] == "comma")
    g["PARTICLES"] = lists.name_particles("names")
    g["LABELS"] = tuple((tuple(r[0].split()), r[1], r[2] == "yes") for r in _rows("name_labels"))
    g["NON_NAMES"] = frozenset(r[0] for r in _rows("non_names"))
    g["MEDICAL_EPONYMS"] = frozenset(r[0] for r in _rows("medical_eponyms"))
    g["INSTITUTIONS"] = frozenset(tuple(r[0].split()) for r in _rows("eponymous_institutions"))
    by_cue: dict[str, set[str]] = {}
    for word, cues in _rows("name_cues"):
        for cue in cues.split():
            by_cue.setdefault(cue, set()).add(word)
    for attr, cues in _CUES.items():
        g[attr] = frozenset().union(*(by_cue.get(c, ()) for c in cues))
    for attr, cue in _ENDINGS.items():
        g[attr] = tuple(sorted(by_cue.get(cue, ())))


def __getattr__(name: str):
    if name.isupper() and "DOCTOR_TITLES" not in globals():
        _load()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
