"""Issue 20, names from knowledge and structure: header fields in LAST, FIRST MIDDLE order,
titles and credentials with any surname (and credentials that take only name-shaped words by
Zipf and census/SSA frequency), quoted nicknames, lists of relatives, document consistency
that spreads no ordinary word, and the page's engine calls (issue 23 item 9). Every name and
note here is invented."""
from __future__ import annotations

import pytest
import ruletable

from deid_core.detectors import names, professions
from deid_core.detectors.names.lexicon import name_zipf, ordinary_word
from deid_core.document import Document
from deid_core.resolve import resolve
from deid_core.spans import CERTAIN, REVIEW

C, R = CERTAIN, REVIEW

found = ruletable.finder(names.detect, professions.detect, resolved=True)


@pytest.mark.parametrize("word", ["given", "restless", "decrease", "high", "fast", "low", "stays",
                                  "kcl", "will", "coarse"])
def test_an_ordinary_word_or_shorthand_is_not_name_shaped(word):
    assert ordinary_word(word)


@pytest.mark.parametrize("word", ["mark", "grace", "baker", "smith", "ng", "foley", "rimkaitis",
                                  "pellas", "lulu", "catheterless"])
def test_a_name_more_common_than_the_word_or_an_unknown_word_is_name_shaped(word):
    assert not ordinary_word(word)


def test_name_zipf_reads_the_census_and_ssa_counts():
    assert name_zipf("smith") > 6.5 > name_zipf("low") > 4.0
    assert name_zipf("qzxv") == 0.0


# (text, spans that must be among the resolved spans: (text, label, tier))
FOUND = [
    # header fields, LAST, FIRST MIDDLE and LAST, INITIAL
    ("Name: MENDOZA, RAFAEL ANTONIO\nDOB: 1/2/1950", [("MENDOZA, RAFAEL ANTONIO", "PATIENT", C)]),
    ("RE: TRAN, THI HOA", [("TRAN, THI HOA", "PATIENT", C)]),
    ("PATIENT: LOPEZ, MARIA ELENA    DOB 3/3/1960", [("LOPEZ, MARIA ELENA", "PATIENT", C)]),
    ("Patient: Okafor, Amara Grace, 44 yo", [("Okafor, Amara Grace", "PATIENT", C)]),
    ("Pt: Adeyinka, F", [("Adeyinka, F", "PATIENT", C)]),
    ("Patient: KOWALCZYK, T.\nAllergies: none", [("KOWALCZYK, T.", "PATIENT", C)]),
    ("Client: Lio Ferreira-Banks", [("Lio Ferreira-Banks", "PATIENT", C)]),
    ("Client: Odalys Brandvold, seen for intake.", [("Odalys Brandvold", "PATIENT", C)]),
    ("COPY TO: Priya Venkataraman\nFrom: clinic", [("Priya Venkataraman", "DOCTOR", C)]),
    ("Copies to: Halvard Nysether", [("Halvard Nysether", "DOCTOR", C)]),
    # titles and credentials with any surname
    ("per Dr. Rimkaitis today", [("Rimkaitis", "DOCTOR", C)]),
    ("Mrs. Rimkaitis called back.", [("Rimkaitis", "PATIENT", C)]),
    ("DR. VALKENOSIS AWARE OF K 3.1", [("VALKENOSIS", "DOCTOR", C)]),
    ("R. PELLAS PA AWARE", [("R. PELLAS", "DOCTOR", C)]),
    ("T. Okafor PT aware of plan", [("T. Okafor", "DOCTOR", C)]),
    ("h. quispe pa notified of labs", [("h. quispe", "DOCTOR", C)]),
    ("-> K. Lau NP in to assess", [("K. Lau", "DOCTOR", C)]),
    ("CALLED JOHN LOW RN", [("JOHN LOW", "DOCTOR", C)]),
    # nicknames and quoted names
    ('Robert aka "Bobby" Szabo called.', [("Bobby", "PATIENT", C)]),
    ('son "danny" called', [("danny", "PATIENT", C)]),
    ('PT MARCUS LYLE ("MOOSE") AWAKE', [("MARCUS LYLE", "PATIENT", C), ("MOOSE", "PATIENT", C)]),
    ('Patient: Reed, Thomas ("Tom") seen today.', [("Reed, Thomas", "PATIENT", C), ("Tom", "PATIENT", C)]),
    ("Patient: Haldora Vinterberg “Dora”, 71", [("Dora", "PATIENT", C)]),
    # relatives in lists
    ("Daughters Lulu, Frances and Gwen at bedside.",
     [("Lulu", "PATIENT", C), ("Frances", "PATIENT", C), ("Gwen", "PATIENT", C)]),
    ("SISTERS MAEVE, ORLA & NIAMH CALLED", [("MAEVE", "PATIENT", C), ("ORLA", "PATIENT", C),
                                           ("NIAMH", "PATIENT", C)]),
    ("Grandchildren Tobiah, Wrenna, and Caspian visited.",
     [("Tobiah", "PATIENT", C), ("Wrenna", "PATIENT", C), ("Caspian", "PATIENT", C)]),
    # the page's engine calls (issue 23 item 9)
    ("Pt seen by Foley this morning, plan unchanged.", [("Foley", "DOCTOR", R)]),
    ("Message left for Bill regarding the results.", [("Bill", "PATIENT", R)]),
    ("Left message for Grace Okafor to call back.", [("Grace Okafor", "PATIENT", C)]),
    ("Voicemail left for Anselm Drury.", [("Anselm Drury", "PATIENT", C)]),
    ("Mark placed the IV at 0900.", [("Mark", "PATIENT", R)]),
    ("Grace gave the 0900 dose.", [("Grace", "PATIENT", R)]),
]

test_found = ruletable.found_test(found, FOUND, subset=True)

# (text, a word that no span may touch)
NOT_COVERED = [
    ("KCL GIVEN, RN TO RECHECK", "GIVEN"),
    ("BP STAYS LOW MD AWARE", "STAYS LOW"),
    ("WITH GARBLED SPEECH MD NOTIFIED", "SPEECH"),
    ("LUNGS COARSE, RN TO SUCTION", "COARSE"),
    ("PAIN MEDS GIVEN MD AWARE", "GIVEN"),
    ("MD AWARE. PT AMBULATED IN HALL", "AMBULATED"),
    ("Dr. Down syndrome was discussed with the family.", "Down"),
    ("Per Dr. Graves disease is stable.", "Graves"),
    ("Mr. Colitis", "Colitis"),
    ("Seen by Foley catheter team", "Foley"),
    ("seen by Pain team", "Pain"),
    ("Message left for pharmacy.", "pharmacy"),
    ("Will placed a call to pharmacy.", "Will"),
    ("Art line placed.", "Art"),
    ("Foley placed at 0900.", "Foley"),
    ("PT ACHTERBERG, WILLEM ADMITTED FROM ED.", "ADMITTED"),
    ("Patient: Smith, John MRN 4471203", "MRN"),
    ("Client reports improved mood.", "reports"),
    ('pt states "tired" today', "tired"),
    ("Daughters Home and Away", "Home"),
    ("Children at bedside and nurse aware.", "nurse"),
    ("Pt: stable, A", "stable"),
]


@pytest.mark.parametrize("text,word", NOT_COVERED, ids=[t[:40] for t, _ in NOT_COVERED])
def test_not_covered(text, word):
    start = text.index(word)
    doc = Document(text)
    for s in resolve([*names.detect(doc), *professions.detect(doc)], text):
        assert s.end <= start or s.start >= start + len(word), (text[s.start:s.end], s.source)


@pytest.mark.parametrize("text,word", [
    ("SON HIGH AT BEDSIDE. BP HIGH OVERNIGHT. HR HIGH.", "HIGH"),
    ("WIFE RESTLESS TODAY. PT RESTLESS OVERNIGHT, RESTLESS AT 0200.", "RESTLESS"),
    ("DAUGHTER FAST ASLEEP. HR FAST, FAST AF ON TELE.", "FAST"),
])
def test_consistency_spreads_no_ordinary_word_in_capitals(text, word):
    """Found once (rightly or not) next to a relation word, an ordinary English word is not
    masked all through a capitals note."""
    first = text.index(word)
    spans = resolve(names.detect(Document(text)), text)
    assert not any(s.start > first + len(word) and text[s.start:s.end] == word for s in spans), spans


def test_consistency_still_spreads_a_name():
    text = "PT: MARY BAKER. BAKER STABLE. HIGH BP."
    assert [t for t, _l, _t in found(text)] == ["MARY BAKER", "BAKER"]
