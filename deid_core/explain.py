"""Structured explanations: for a span, which detector and rule found it, from which word list,
and why it is amber, in a form Review shows without parsing strings.

A span's ``source`` is written by its detector as ``DETECTOR:RULE[:DETAIL][+EVIDENCE...]``
(``"names:surname_list+medical_collision"``, ``"names:relation:wife"``, ``"dates:year_bare"``);
the model writes ``"ner:<model name>:p=<confidence>"``; the resolver joins the sources of merged
candidates with ``" + "``. :func:`parse_source` is the one place that reads that grammar, and
the tables below are the one place that says what each part means:

* :data:`DETECTORS` -- detector -> the words a clinician reads (``"the name finder"``);
* :data:`RULES` -- ``"detector:rule"`` -> (what the rule saw, the list it used or ``None``);
* :data:`EVIDENCE` -- an ``+EVIDENCE`` word -> (what it adds, its list or ``None``, why it makes
  the span amber or ``None``);
* :data:`AMBER` -- ``"detector:rule"`` -> why that rule's candidates are amber when no
  evidence word says it.

A source the tables do not know is still explained (its words with ``_`` read as spaces), so a
new detector works before its rows are added; ``tests/test_review.py`` checks that every rule the
engine emits on the project corpus has a row.
"""
from __future__ import annotations

from dataclasses import dataclass

from .spans import REVIEW, Span

__all__ = ["Part", "parse_source", "explain", "AMBER", "DETECTORS", "EVIDENCE", "RULES"]

#: Detector (the part of a source before the first ``:``) -> words for a clinician.
DETECTORS: dict[str, str] = {
    "names": "the name finder",
    "professions": "the occupation finder",
    "dates": "the date patterns",
    "ages": "the age patterns",
    "contact": "the contact patterns (phone, e-mail, web address, IP address)",
    "ids": "the identifier-number patterns",
    "locations": "the place and address finder",
    "known": "the identifiers you supplied for this patient",
    "ner": "the NER model",
    "harvest": "the corpus rules (rules.json from deid harvest)",
}

#: ``"detector:rule"`` -> (what the rule saw, the word list it used or ``None``). Lists are the
#: file names in ``lists/``; ``{detail}`` stands for the source's third part (the title, relation
#: word or label that fired), which is otherwise added in brackets.
RULES: dict[str, tuple[str, str | None]] = {
    "names:surname_list": ("a word in the surname list", "surnames.tsv"),
    "names:given_list": ("a word in the given-name list", "given_names.tsv"),
    "names:given": ("a given name followed by another name part", "given_names.tsv"),
    "names:initial": ("an initial and a name", None),
    "names:capitalised": ("capitalised words in a name position", None),
    "names:accented_capitalised": ("a capitalised word with accented letters, as names often are",
                                   None),
    "names:last_first": ("a name written last name, first name", None),
    "names:title": ("a name after the title '{detail}'", "titles.txt"),
    "names:relation": ("a name after the relation word '{detail}'", "relations.txt"),
    "names:label": ("a name after the field label '{detail}'", None),
    "names:credential": ("a name before the credential '{detail}'", None),
    "names:head": ("a name at the head of the note", None),
    "names:initials_after": ("initials after the word '{detail}'", None),
    "names:signature_initials": ("initials in a signature line", None),
    "names:subject_of_age": ("a name before an age (Smith is 45)", None),
    "names:service_contact": ("a name given as the {detail} service's contact", None),
    "names:document_consistency": ("a name found elsewhere in this note", None),
    "names:username_from_name": ("a user name made from a name in this note", None),
    "names:institution": ("a name that is part of an institution's name", None),
    "names:family_name": ("a surname before the word 'family'", "surnames.tsv"),
    "names:coordinated": ("a capitalised word after a name and 'and' (Margaret and Bram)", None),
    "professions:list": ("an occupation from the professions list", "professions.txt"),
    "dates:year_bare": ("a four-digit number that reads as a year", None),
    "dates:year_model": ("a year next to a make or model word", None),
    "dates:year_apostrophe": ("a year written with an apostrophe ('98)", None),
    "dates:year_context": ("a year after a date word (in, since)", None),
    "dates:year_paren": ("a year in brackets", None),
    "dates:month_alone": ("a month name on its own", None),
    "dates:month_day": ("a month/day number pair", None),
    "dates:weekday": ("a weekday", None),
    "dates:holiday": ("a holiday", None),
    "ages:years_review": ("a number of years that may be an age", None),
    "ages:apposition_review": ("a number beside a name that may be an age", None),
    "ages:age_label": ("a number after an age label", None),
    "ages:words": ("an age written in words", None),
    "contact:phone_us": ("a US phone number", None),
    "contact:phone_local": ("a seven-digit phone number", None),
    "contact:phone_trunk": ("a phone number with a trunk prefix", None),
    "ids:bare_number": ("a long number with no label", None),
    "ids:code_shape": ("a code of letters and digits", None),
    "ids:label": ("a number after an identifier label (MRN, account)", None),
    "locations:place_context": ("a {detail} name after a place word (lives in, from)",
                                "us_places.tsv"),
    "locations:place_context_lower": ("a {detail} name in lower case after a place word",
                                      "us_places.tsv"),
    "locations:city_after": ("a city before a state", "us_places.tsv"),
    "locations:city_state_zip": ("a city, state and ZIP code", "us_states.tsv"),
    "locations:hospital": ("a hospital or clinic name", "hospital_words.txt"),
    "locations:hospital_lower": ("a hospital name in lower case", "hospital_words.txt"),
    "locations:department": ("a ward, unit or department name", "departments.txt"),
    "locations:organization": ("a company, school or employer name", None),
    "locations:facility_context": ("a name after a facility word (admitted to, transferred to)",
                                   None),
    "locations:at_capitalised": ("capitalised words after 'at'", None),
    "locations:landmark": ("a landmark name", None),
    "locations:region": ("a region named by a compass word and a place noun (the Western Shore)",
                         "facility_cues.txt"),
    "locations:saint_possessive": ("a Saint's name (St. Mary's)", None),
    "locations:ward_number": ("a ward named by a building word and a floor number (HARTWELL 4)",
                              "transfer_words.txt"),
    "locations:facility_abbreviation": ("a hospital abbreviation after a transfer word (to SMH)",
                                        "transfer_words.txt"),
    "locations:saint_after_transfer": ("a Saint's name after a transfer word (to St. Brigid)",
                                       "transfer_words.txt"),
    "locations:street": ("a street address", "street_suffixes.txt"),
    "locations:street_lower": ("a street address in lower case", "street_suffixes.txt"),
    "locations:street_no_number": ("a street name without a house number", "street_suffixes.txt"),
    "known:name_part_lowercase": ("a part of the patient's name, in lower case", None),
    "known:name_part_eponym": ("a part of the patient's name, next to an eponym word", None),
    "known:initials": ("the patient's initials", None),
}

#: ``+EVIDENCE`` word -> (what it adds, its list or ``None``, why it makes a span amber or
#: ``None`` when it is supporting evidence only).
EVIDENCE: dict[str, tuple[str, str | None, str | None]] = {
    "medical_collision": ("also a medical term (MeSH)", "medical_collisions.txt",
                          "the word is also a medical term, so it is not masked on sight"),
    "english_collision": ("also an ordinary English word", "english_collisions.txt",
                          "the word is also an ordinary English word"),
    "clinical_noun": ("followed by a clinical noun", "clinical_nouns.txt",
                      "it is followed by a clinical noun (as in 'Foley catheter'), so it may "
                      "name a device or test"),
    "state_name": ("also a US state's name", "us_states.tsv",
                   "the word is also the name of a US state"),
    "person_verb": ("followed by a verb people do", None,
                    "the word is ordinary English and only the verb after it suggests a person"),
    "no_case_evidence": ("in a note without capitals to go by", None,
                         "the note is all one case, so capitals cannot show it is a name"),
    "capitalised": ("next to a capitalised word", None, None),
    "initial": ("next to an initial", None, None),
    "surname": ("next to a surname", "surnames.tsv", None),
    "preceding_word": ("with the capitalised word before it", None, None),
    "document_consistency": ("found as a name elsewhere in this note", None, None),
    "identifier": ("next to an identifier", None, None),
    "age_or_identifier": ("next to an age or an identifier", None, None),
    "social_heading": ("after a heading about family and visitors (Social:)", "name_cues.txt", None),
    "glued": ("glued by a hyphen to the next word of the sentence", None, None),
    "coordinated": ("after a name and 'and'", None, None),
}

#: ``"detector:rule"`` -> why its candidates are amber when no evidence word says why.
AMBER: dict[str, str] = {
    "dates:year_bare": "a four-digit number may be a count, a dose or a code rather than a year",
    "dates:year_model": "a year beside a model word may be part of a product's name",
    "dates:year_apostrophe": "a number with an apostrophe may not be a year",
    "dates:month_alone": "a month on its own may be an ordinary word (May, March)",
    "dates:month_day": "a number pair may be a ratio, a score or a setting rather than a date",
    "ages:years_review": "the number may be a duration rather than the patient's age",
    "ages:apposition_review": "the number may not be an age",
    "contact:phone_us": "the digits may be another kind of number",
    "contact:phone_local": "seven digits may be another kind of number",
    "contact:phone_trunk": "the digits may be another kind of number",
    "ids:bare_number": "a number with no label may be a lab value or an order number",
    "ids:code_shape": "a code may be a product or lab code rather than an identifier",
    "names:credential": "the word before a credential may not be a name",
    "names:accented_capitalised": "the word is on no name list; only its shape suggests a name",
    "names:relation": "the word after a relation word may not be a name",
    "names:service_contact": "the word may name the service rather than a person",
    "names:last_first": "the words may not be a name",
    "names:given": "the words may not be a name",
    "names:initial": "the words may not be a name",
    "known:name_part_lowercase": "a part of the name in lower case may be an ordinary word",
    "known:name_part_eponym": "a part of the name next to an eponym word may be a disease or sign",
    "known:initials": "the letters may be an abbreviation",
}
_AMBER_PLACE = "only the words around it suggest a place"
_AMBER_DEFAULT = "the pattern also matches text that is not an identifier"


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
    saw, lst = RULES.get(f"{part.detector}:{part.rule}", (_words(part.rule), None))
    if "{detail}" in saw:
        saw = saw.format(detail=_words(part.detail).lower() or "?")
    elif part.detail:
        saw += f" ({_words(part.detail).lower()})"
    extra = []
    for e in part.evidence:
        what, e_list, _ = EVIDENCE.get(e, (_words(e), None, None))
        extra.append(what)
        lst = lst or e_list
    clause = f"{who}: {saw}" if saw else who
    if extra:
        clause += ", " + ", ".join(extra)
    return clause, lst


def _why_amber(parts: tuple[Part, ...]) -> str:
    for part in parts:
        for e in part.evidence:
            why = EVIDENCE.get(e, ("", None, None))[2]
            if why:
                return why
    for part in parts:
        if part.detector == "ner":
            p = _confidence(part)
            return ("the model's confidence" + (f" ({p})" if p else "")
                    + " is below the level at which its finds are masked on sight")
        why = AMBER.get(f"{part.detector}:{part.rule}")
        if why:
            return why
        if part.detector == "locations":
            return _AMBER_PLACE
    return _AMBER_DEFAULT


def explain(span: Span) -> dict:
    """The structured explanation of one span.

    Returns:
        ``{"detector", "rule", "list", "why_amber", "text"}``: ``detector`` and ``rule`` of the
        span's first source part (``""`` when the source is empty; for the model ``"ner"`` and
        its model name), ``list`` the ``lists/`` file the finding rests on or ``None``,
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
    return {"detector": first.detector, "rule": first.rule, "list": lst, "why_amber": why,
            "text": text}
