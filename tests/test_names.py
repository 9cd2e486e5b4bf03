"""Name detector (deid_core.detectors.names): what must be found, with label and tier, and what
must be left alone. All names and notes are invented."""
from __future__ import annotations

import time

import pytest

from deid_core.detectors import names
from deid_core.document import Document
from deid_core.resolve import resolve
from deid_core.spans import CERTAIN, REVIEW

C, R = CERTAIN, REVIEW


def found(text: str) -> list[tuple[str, str, str]]:
    """Resolved name-detector spans as (covered text, label, tier)."""
    spans = resolve(names.detect(Document(text)), text)
    return [(text[s.start:s.end], s.label, s.tier) for s in spans]


# (text, expected spans (substring, label, tier)); every expected span must be present exactly.
FOUND = [
    # titles: the title is outside the span; rare and non-US names after a title
    ("Dr. Anne Whitcombe saw the patient.", [("Anne Whitcombe", "DOCTOR", C)]),
    ("Seen with Dr. Okonkwo-Adeyemi today.", [("Okonkwo-Adeyemi", "DOCTOR", C)]),
    ("Spoke with Mrs. Thao about discharge.", [("Thao", "PATIENT", C)]),
    ("Mr. Hope was seen. Hope reports less pain.", [("Hope", "PATIENT", C)] * 2),
    ("Ms Lindqvist denies chest pain.", [("Lindqvist", "PATIENT", C)]),
    ("Referred to Prof. Haraldsen for a second opinion.", [("Haraldsen", "DOCTOR", C)]),
    ("Evaluation by Dr. Kenji A. McAllister next week.", [("Kenji A. McAllister", "DOCTOR", C)]),
    ("Mr Ó Murchú is a 71-year-old man.", [("Ó Murchú", "PATIENT", C)]),
    ("Dr. J. Pruett reviewed the films.", [("J. Pruett", "DOCTOR", C)]),
    ("Called Dr. Saoirse Ní Bhriain at the clinic.", [("Saoirse Ní Bhriain", "DOCTOR", C)]),
    ("Report given to day RN Chiara Bellweather at 07:15.", [("Chiara Bellweather", "DOCTOR", C)]),
    ("Nurse Kowalczyk checked the pump.", []),  # weak title + unlisted word: not on sight
    ("Patient: Hortensia Villalobos de la Cruz    Age: 93", [("Hortensia Villalobos de la Cruz", "PATIENT", C)]),
    ("MR. SMITH DENIES PAIN.", [("SMITH", "PATIENT", C)]),
    # a name split over a line break: one span per part (the resolver joins them)
    ("Dr. Anne\nWhitcombe", [("Anne\nWhitcombe", "DOCTOR", C)]),
    # relations (relatives are PATIENT in i2b2)
    ("Lives with his wife Mary in a house.", [("Mary", "PATIENT", C)]),
    ("Daughter Ana called this morning.", [("Ana", "PATIENT", C)]),
    ("Her son, Kevin, drove her here.", [("Kevin", "PATIENT", C)]),
    ("Family: wife Johanna and brother Pieter Achterberg at bedside.",
     [("Johanna", "PATIENT", C), ("Pieter Achterberg", "PATIENT", C)]),
    ("HCP is her daughter, Ana Lopez.", [("Ana Lopez", "PATIENT", C)]),
    # labels
    ("Patient: SMITH, JOHN C", [("SMITH, JOHN C", "PATIENT", C)]),
    ("Name: Wojciechowski, Teresa   MRN 0771239", [("Wojciechowski, Teresa", "PATIENT", C)]),
    ("Pt name: Delia Okafor", [("Delia Okafor", "PATIENT", C)]),
    ("Attending: Rhiannon Vasquez-Tull", [("Rhiannon Vasquez-Tull", "DOCTOR", C)]),
    ("Electronically signed by Anne Whitcombe, MD", [("Anne Whitcombe", "DOCTOR", C)]),
    ("cc: Robert Chen, MD", [("Robert Chen", "DOCTOR", C)]),
    ("PCP: Dr. Sarah Kim", [("Sarah Kim", "DOCTOR", C)]),
    ("Referring physician: Helen Achterberg", [("Helen Achterberg", "DOCTOR", C)]),
    ("Co-signed: Rao, Venkatesh (MD)", [("Rao, Venkatesh", "DOCTOR", C)]),
    ("Dictated by: Lorcan Osterberg", [("Lorcan Osterberg", "DOCTOR", C)]),
    ("Later identified as Kestutis Baranauskas by his wallet.", [("Kestutis Baranauskas", "PATIENT", C)]),
    ("Pt Achterberg, Willem, post-op day 2", [("Achterberg, Willem", "PATIENT", C)]),
    # usernames
    ("user: jsmith12", [("jsmith12", "USERNAME", C)]),
    ("Login: op_kwells", [("op_kwells", "USERNAME", C)]),
    ("Result confirmed (tech ID dfeeney).", [("dfeeney", "USERNAME", C)]),
    # credentials and signatures
    ("—Anne Whitcombe, MD", [("Anne Whitcombe", "DOCTOR", C)]),
    ("John Smith, RN", [("John Smith", "DOCTOR", C)]),
    ("T. Ngata, RN", [("T. Ngata", "DOCTOR", C)]),
    ("Nikolai Ashdown, LICSW", [("Nikolai Ashdown", "DOCTOR", C)]),
    ("Okonkwo, M.D.", [("Okonkwo", "DOCTOR", R)]),
    ("Plan discussed.\n-- JS", [("JS", "DOCTOR", C)]),
    ("Dictated by AB/cd", [("AB", "DOCTOR", C), ("cd", "DOCTOR", C)]),
    ("signed\n/js", [("js", "DOCTOR", C)]),
    # list names
    ("Seen with Anna S. in clinic.", [("Anna S.", "PATIENT", C)]),
    ("Mary A. Johnson was admitted.", [("Mary A. Johnson", "PATIENT", C)]),
    ("Follow-up with J. Smith next week.", [("J. Smith", "PATIENT", C)]),
    ("Records sent for Maria Okonkwo.", [("Maria Okonkwo", "PATIENT", C)]),
    ("The note from Garcia was reviewed.", [("Garcia", "PATIENT", C)]),
    ("Nguyen reports improvement.", [("Nguyen", "PATIENT", C)]),
    ("Records from Jose Nguyễn and O’Sullivan-Reyes.",
     [("Jose Nguyễn", "PATIENT", C), ("O’Sullivan-Reyes", "PATIENT", C)]),
    ("Brought in by O'Brien.", [("O'Brien", "PATIENT", C)]),
    ("Mary Smith was seen. Later Mary Smith left.", [("Mary Smith", "PATIENT", C)] * 2),
    ("Lab comment for Wexley, Cornelius (MRN 3206731)", [("Wexley, Cornelius", "PATIENT", C)]),
    ("Copy sent to Wexley, Cornelius today.", [("Wexley, Cornelius", "PATIENT", R)]),
    ("Ngozi W. Okafor, 80 yo, on warfarin", [("Ngozi W. Okafor", "PATIENT", C)]),
    ("Mother: Folasade Adeyemi-Clarke, MRN M6620194", [("Folasade Adeyemi-Clarke", "PATIENT", C)]),
    ("dispo: home tomorrow with wife ngozi if eating well", [("ngozi", "PATIENT", C)]),
    ("Osvaldo K. Oyelaran, 86 yo, on warfarin", [("Osvaldo K. Oyelaran", "PATIENT", C)]),
    ("Kevin Veitonen II arrived.", [("Kevin Veitonen II", "PATIENT", C)]),
    ("Talked with Krisztián Szöllösy.", [("Krisztián Szöllösy", "PATIENT", R)]),
    # collisions give review, not certain
    ("Message left for Parkinson about results.", [("Parkinson", "PATIENT", R)]),
    ("Results discussed with Patel on the phone.", [("Patel", "PATIENT", R)]),
    ("Foley catheter placed.", [("Foley", "PATIENT", R)]),
    ("Swan-Ganz catheter removed.", [("Swan-Ganz", "PATIENT", R)]),
    # document consistency: a confident name makes later lone mentions certain
    ("Dr. Patel called. Patel agrees with the plan.", [("Patel", "DOCTOR", C)] * 2),
    # ALL CAPS and lower-case notes: lists + context
    ("PATIENT: SMITH, JOHN C\nSEEN BY DR. OKAFOR. HIS WIFE MARY AT BEDSIDE.",
     [("SMITH, JOHN C", "PATIENT", C), ("OKAFOR", "DOCTOR", C), ("MARY", "PATIENT", C)]),
    ("JOHN SMITH VISITED TODAY.", [("JOHN SMITH", "PATIENT", R)]),
    ("ANNE WHITCOMBE, MD", [("ANNE WHITCOMBE", "DOCTOR", C)]),
    ("patient: smith, john c\nseen by dr. okafor. his wife mary at bedside.",
     [("smith, john c", "PATIENT", C), ("okafor", "DOCTOR", C), ("mary", "PATIENT", C)]),
    ("d/w attending dr. uzoma today", [("uzoma", "DOCTOR", C)]),
    ("reviewed by c. whitcombe, md, clinical chemistry", [("c. whitcombe", "DOCTOR", C)]),
    ("pt raymond dufresne | mrn 66104725", [("raymond dufresne", "PATIENT", C)]),
    ("spoke with nguyen about the plan", [("nguyen", "PATIENT", R)]),
    ("Tech: dferreiral2", [("dferreiral2", "USERNAME", C)]),
    ("Patient portal user kgrimsby47 reset.", [("kgrimsby47", "USERNAME", C)]),
    ("Guarantor: Delacroix, Osvaldo (sister of the patient)", [("Delacroix, Osvaldo", "PATIENT", C)]),
    ("Name | WEXLEY, ARJUN N\nAge | 54", [("WEXLEY, ARJUN N", "PATIENT", C)]),
    ("calling about his father BENEDETTI, GIANCARLO F (DOB on file)",
     [("BENEDETTI, GIANCARLO F", "PATIENT", C)]),
    ("Seen by Dr. Smith at 09:00; d/w attending dr. uzoma.", [("Smith", "DOCTOR", C), ("uzoma", "DOCTOR", C)]),
    ("d/w attending. -- jkm pgy2, pager 555-0162", [("jkm", "DOCTOR", C)]),
    ("/bki /yhm cc: Helen Achterberg, MD",
     [("bki", "DOCTOR", C), ("yhm", "DOCTOR", C), ("Helen Achterberg", "DOCTOR", C)]),
    # professions
    ("He works as a carpenter.", [("carpenter", "PROFESSION", C)]),
    ("She is a retired teacher.", [("teacher", "PROFESSION", C)]),
    ("Occupation: plumber", [("plumber", "PROFESSION", C)]),
    ("He is a mechanic by trade.", [("mechanic", "PROFESSION", C)]),
    ("42 yo line cook at a diner", [("line cook", "PROFESSION", C)]),
    ("a 67 yo retired court stenographer", [("court stenographer", "PROFESSION", C)]),
    ("Former tobacco farmer, widowed.", [("tobacco farmer", "PROFESSION", C)]),
    ("Works as a sous-chef at a bistro.", [("sous-chef", "PROFESSION", C)]),
    ("She was a piano teacher for 50 years.", [("piano teacher", "PROFESSION", R)]),
]


@pytest.mark.parametrize("text,expected", FOUND, ids=[t[:40] for t, _ in FOUND])
def test_found(text, expected):
    got = found(text)
    for item in expected:
        assert item in got, f"{item} not in {got}"
    if expected:
        assert len([g for g in got if g in expected]) >= len(expected)


# Texts where the name detector must give NO span at all.
NOTHING = [
    "History of Parkinson disease, on carbidopa.",
    "Crohn's disease in remission.",
    "Glasgow Coma Scale 15.",
    "Bell's palsy on the left.",
    "Hodgkin lymphoma treated in 2010.",
    "Babinski sign negative bilaterally.",
    "Homans sign negative.",
    "Will continue current medications.",
    "May 5 labs reviewed.",
    "Mark the site before surgery.",
    "Hope to discharge tomorrow.",
    "Warfarin 5 mg daily; Lasix 40 mg PO BID.",
    "Started Vancomycin and Zosyn.",
    "Assessment and Plan: stable.",
    "Impression: no acute process.",
    "History: hypertension.",
    "Parkinson\ndisease progression noted.",
    "Graves' disease, treated.",
    "Hoehn and Yahr stage 2.5.",
    "Apgar 8/9.",
    "Gleason 3+4.",
    "Epley maneuver performed.",
    "Kernig sign absent.",
    "Braden score 14.",
    "Guillain-Barre syndrome suspected.",
    "Wolff-Parkinson-White syndrome on ECG.",
    "Roux-en-Y gastric bypass in 2015.",
    "Mallampati II airway.",
    "Brown sputum noted.",
    "Father: deceased, CAD. Mother: alive.",
    "Brother with DM.",
    "Lines: R radial arterial line.",
    "I'm feeling better, she said.",
    "Impedances stable at 0.4 ms. Sensing normal.",
    "MR CONDITIONAL DEVICE PROTOCOL",
    "WILL CONTINUE SINEMET. MARK THE SITE.",
    "will continue lasix, walks 2 miles daily.",
    "cc: facial droop",
    "Stage III lung cancer.",
    "He is a former smoker.",
    "Discussed with patient and daughter at bedside.",
    "Monday follow-up. June labs pending.",
]


@pytest.mark.parametrize("text", NOTHING, ids=[t[:40] for t in NOTHING])
def test_nothing(text):
    assert found(text) == []


# Texts where a name-shaped clinical word may only be a review candidate, never certain.
REVIEW_ONLY = [
    ("Foley catheter to gravity.", "Foley"),
    ("Jackson-Pratt drain with serous output.", "Jackson-Pratt"),
    ("Message for Parkinson.", "Parkinson"),
    ("HOLTER MONITOR REPORT", "HOLTER"),
]


@pytest.mark.parametrize("text,word", REVIEW_ONLY)
def test_review_only(text, word):
    for covered, _label, tier in found(text):
        if word in covered:
            assert tier == REVIEW


def test_title_not_in_span():
    text = "Dr. Anne Whitcombe"
    [span] = resolve(names.detect(Document(text)), text)
    assert (span.start, span.end) == (4, len(text))
    assert span.source.startswith("names:title")


def test_sources_explain_each_rule():
    text = "Pt name: Delia Okafor. Foley catheter. Message for Parkinson. -- JS"
    sources = {s.source for s in names.detect(Document(text))}
    assert "names:label:pt name" in sources
    assert "names:surname_list+clinical_noun" in sources
    assert "names:surname_list+medical_collision" in sources
    assert "names:signature_initials" in sources


def test_possessive_not_in_span():
    text = "Dr. Patel's note was reviewed."
    assert found(text) == [("Patel", "DOCTOR", C)]


def test_english_collision_mid_sentence_is_review_not_certain():
    assert found("Results sent to Young today.") == [("Young", "PATIENT", R)]
    assert found("Young adult with asthma.") == []


def test_empty_and_odd_input():
    for text in ("", " ", "\n\n", "12345", "—", "Dr.", "Mr.", "user:", "-- ", "/", "Smith,"):
        spans = list(names.detect(Document(text)))
        for s in spans:
            assert 0 <= s.start < s.end <= len(text)


def test_lexicon_flags_collisions():
    lex = names.lexicon()
    assert lex.flags("smith") & names.SUR
    assert lex.flags("john") & names.GIV
    assert lex.flags("parkinson") & names.MED
    assert lex.flags("will") & names.ENG
    assert lex.flags("palsy") & names.FOL
    assert lex.flags("catheter") & names.CLN
    assert lex.flags("o’brien") & names.SUR          # curly apostrophe dropped for look-up
    assert lex.flags("josé") & names.GIV             # accent dropped for look-up
    assert lex.flags("i'm") & names.NON              # contractions are not names
    assert not lex.flags("okonkwo-adeyemi") & names.SUR


def test_speed_one_kilobyte_notes():
    note = ("HPI: 67 yo M with Parkinson disease seen by Dr. Anne Whitcombe. Lives with his wife "
            "Mary. Foley catheter placed. Glasgow Coma Scale 15. Will continue levodopa. "
            "Patient: SMITH, JOHN C. cc: Robert Chen, MD. He works as a carpenter. ") * 4
    assert 900 < len(note) < 1300
    n = 150
    t0 = time.perf_counter()
    for _ in range(n):
        names.detect(Document(note))
    per_second = n / (time.perf_counter() - t0)
    assert per_second > 400, per_second


def test_long_adversarial_input_is_fast():
    text = ("A" * 100_000 + " " + "Smith " * 20_000 + "Dr. " * 10_000 + "x" * 50_000)
    t0 = time.perf_counter()
    spans = list(names.detect(Document(text)))
    assert time.perf_counter() - t0 < 5
    assert all(0 <= s.start < s.end <= len(text) for s in spans)


from hypothesis import given, settings, strategies as st  # noqa: E402

_PIECES = ["Dr.", "Mr", "Smith", "SMITH", "john", "John", ",", ":", "MD", "RN", "-- ", "/", "wife",
           "Patient:", "user:", "works as a", "Will", "Parkinson", "disease", "A.", "\n", "O'Brien",
           "de la", "Foley", "cc:", "|", "pgy2", "I'm", "M.D.", "Jr", "retired", "Tech:", "ab/cd",
           "Coma", "Scale", "Anna", "S", ".", "Ó", "’s", "\t", "  "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30), st.sampled_from([" ", "", "\n", ", "]))
def test_any_mix_of_name_pieces_gives_spans_in_bounds(pieces, sep):
    text = sep.join(pieces)
    for s in names.detect(Document(text)):
        assert 0 <= s.start < s.end <= len(text)
        assert text[s.start:s.end].strip() == text[s.start:s.end]
        assert s.source.startswith("names:")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_unicode_string(text):
    for s in names.detect(Document(text)):
        assert 0 <= s.start < s.end <= len(text)
