"""KNOWN detector: the caller's own identifiers and their variants, with what must stay.
Every name, number, address and date here is invented."""

import pytest

from deid_core.detectors import known
from deid_core.document import Document, Known

C, R = "certain", "review"

JOHN = Known(names=("John C Smith",))
ANA = Known(names=("Ana Sofía Nguyễn-Reyes",))
OBRIEN = Known(names=("O'Brien, Margaret",))
MRN = Known(mrns=("0045-2231",))
ADDR = Known(addresses=("12 Elm Street Apt 3, Springfield, IL 62704",))
DOB = Known(birth_dates=("1950-03-02",))

CASES = [
    # --- names: order, case, punctuation, initials ----------------------------------------------
    (JOHN, "John C Smith seen today.", [("John C Smith", "PATIENT", C)]),
    (JOHN, "SMITH, JOHN C  MRN pending", [("SMITH, JOHN C", "PATIENT", C)]),
    (JOHN, "Pt: Smith, John", [("Smith, John", "PATIENT", C)]),
    (JOHN, "Signed J. Smith", [("J. Smith", "PATIENT", C)]),
    (JOHN, "Smith, J. called back", [("Smith, J.", "PATIENT", C)]),
    (JOHN, "Mr. Smith declined.", [("Smith", "PATIENT", C)]),
    (JOHN, "John reports less pain.", [("John", "PATIENT", C)]),
    (JOHN, "called john smith at home", [("john smith", "PATIENT", C)]),
    (JOHN, "JOHN SMITH", [("JOHN SMITH", "PATIENT", C)]),
    (JOHN, "Smith's daughter visited", [("Smith", "PATIENT", C)]),
    (JOHN, "Initials JCS on the consent", [("JCS", "PATIENT", R)]),
    (JOHN, "Witness: J.S.", [("J.S.", "PATIENT", R)]),
    (JOHN, "Lab: smith antibody panel drawn", [("smith", "PATIENT", R)]),  # lower-case part
    (ANA, "Ana Sofía Nguyễn-Reyes, 34 F", [("Ana Sofía Nguyễn-Reyes", "PATIENT", C)]),
    (ANA, "NGUYEN-REYES, ANA", [("NGUYEN-REYES, ANA", "PATIENT", C)]),
    (ANA, "Ms. Nguyen Reyes arrived", [("Nguyen Reyes", "PATIENT", C)]),
    (ANA, "Sofia will call", [("Sofia", "PATIENT", C)]),
    (ANA, "Reyes family at bedside", [("Reyes", "PATIENT", C)]),
    (OBRIEN, "Margaret O’Brien", [("Margaret O’Brien", "PATIENT", C)]),
    (OBRIEN, "OBRIEN, MARGARET", [("OBRIEN, MARGARET", "PATIENT", C)]),
    (OBRIEN, "M. O'Brien", [("M. O'Brien", "PATIENT", C)]),
    # --- names: must not mask -------------------------------------------------------------------
    (JOHN, "Johnson and Smithers", []),
    (JOHN, "St. John's wort daily", [("John", "PATIENT", R)]),                # eponym: review
    (Known(names=("Mark Foley",)), "Foley catheter removed; Mr. Foley ambulating",
     [("Foley", "PATIENT", R), ("Foley", "PATIENT", C, 1)]),
    (JOHN, "C-reactive protein and J point", []),
    (Known(names=("Al Lee",)), "Al reports; albumin low; Leeds trip", []),    # 2-letter given alone
    (Known(names=("Al Lee",)), "Lee and Al Lee", [("Lee", "PATIENT", C), ("Al Lee", "PATIENT", C)]),
    # --- MRNs -----------------------------------------------------------------------------------
    (MRN, "MRN 0045-2231", [("0045-2231", "MEDICALRECORD", C)]),
    (MRN, "MRN: 00452231.", [("00452231", "MEDICALRECORD", C)]),
    (MRN, "record 45 2231 reviewed", [("45 2231", "MEDICALRECORD", C)]),
    (MRN, "mrn#452231", [("452231", "MEDICALRECORD", C)]),
    (Known(mrns=("HH-0771239",)), "MRN hh0771239", [("hh0771239", "MEDICALRECORD", C)]),
    (MRN, "acct 1452231 and 4522310 differ", []),
    (Known(mrns=("012",)), "given 12 mg", []),                                # too short to search
    # --- addresses ------------------------------------------------------------------------------
    (ADDR, "Lives at 12 Elm St., Apt. 3 in Springfield, IL 62704.",
     [("12 Elm St., Apt. 3", "STREET", C), ("Springfield", "CITY", C), ("IL", "STATE", C),
      ("62704", "ZIP", C)]),
    (ADDR, "Returned home to 12 ELM STREET", [("12 ELM STREET", "STREET", C)]),
    (ADDR, "moved out of Illinois", [("Illinois", "STATE", C)]),
    (ADDR, "IL-6 level; illness; springfield", []),
    (Known(addresses=("88 Cutler Road\nFairmount, WV 26554",)), "88 cutler rd, fairmount",
     [("88 cutler rd", "STREET", C)]),
    # --- birth dates ----------------------------------------------------------------------------
    (DOB, "DOB 3/2/1950", [("3/2/1950", "DATE", C)]),
    (DOB, "born March 2nd, 1950", [("March 2nd, 1950", "DATE", C)]),
    (DOB, "DOB: 02-Mar-50", [("02-Mar-50", "DATE", C)]),
    (DOB, "2 March 1950", [("2 March 1950", "DATE", C)]),
    (DOB, "dob 1950-03-02", [("1950-03-02", "DATE", C)]),
    (DOB, "DOB 03.02.50", [("03.02.50", "DATE", C)]),
    (DOB, "DOB 19500302", [("19500302", "DATE", C)]),
    (DOB, "European 02/03/1950", [("02/03/1950", "DATE", C)]),                # day-first reading
    (DOB, "seen 3/2/1951 and 1950 and 3/2 and March 3, 1950", []),
    (Known(birth_dates=("March 2, 1950",)), "DOB 1950-03-02", [("1950-03-02", "DATE", C)]),
]


def _find(text: str, sub: str, occurrence: int = 0) -> tuple[int, int]:
    """Offsets of the ``occurrence``-th (0-based) ``sub`` in ``text``."""
    i = -1
    for _ in range(occurrence + 1):
        i = text.find(sub, i + 1)
        assert i >= 0, f"{sub!r} #{occurrence} not in {text!r}"
    return i, i + len(sub)


@pytest.mark.parametrize("kn,text,expected", CASES, ids=[c[1][:40] for c in CASES])
def test_known_table(kn, text, expected):
    cands = list(known.detect(Document(text, kn)))
    for c in cands:
        assert 0 <= c.start < c.end <= len(text)
        assert c.source.startswith("known:")
    got = {(c.start, c.end, c.label, c.tier) for c in cands}
    want_chars: set[int] = set()
    for sub, label, tier, *occurrence in expected:
        s, e = _find(text, sub, *occurrence)
        assert (s, e, label, tier) in got, f"missing {sub!r}; got " + repr(
            sorted((text[a:b], lab, tr) for a, b, lab, tr in got))
        want_chars |= set(range(s, e))
    covered = {i for c in cands for i in range(c.start, c.end)}
    assert covered == want_chars, "extra: " + repr(sorted({text[c.start:c.end] for c in cands}))


@pytest.mark.parametrize("text,day", [
    ("1950-03-02", (1950, 3, 2)), ("3/2/1950", (1950, 3, 2)), ("25/12/1950", (1950, 12, 25)),
    ("March 2nd, 1950", (1950, 3, 2)), ("2 Mar 50", (1950, 3, 2)), ("19500302", (1950, 3, 2)),
    ("Feb 29, 2000", (2000, 2, 29)), ("1/1/05", (2005, 1, 1)),
])
def test_parse_date(text, day):
    assert known.parse_date(text) == {day}


@pytest.mark.parametrize("text", ["", "garbage", "13/13/2020", "1950"])
def test_parse_date_unreadable(text):
    assert known.parse_date(text) == set()


def test_empty_known_costs_nothing():
    assert known.detect(Document("John Smith 0045-2231", Known())) == []


def test_sources():
    kn = Known(names=("John Smith",), mrns=("0045-2231",), addresses=("12 Elm Street",),
               birth_dates=("1950-03-02",))
    text = "John Smith, MRN 0045-2231, 12 Elm Street, DOB 3/2/1950; Smith"
    sources = {text[c.start:c.end]: c.source for c in known.detect(Document(text, kn))}
    assert sources == {"John Smith": "known:name", "0045-2231": "known:mrn",
                       "12 Elm Street": "known:address", "3/2/1950": "known:birth_date",
                       "Smith": "known:name_part"}


def test_adversarial_input():
    # Runs of names, zeros and separators (the "0 0 0 ..." run once made the MRN pattern
    # quadratic: a match now starts only where a run of zeros starts). No timing asserted here;
    # speed is measured by the benchmarks. Checked: what is found is still right.
    kn = Known(names=("Ann Lee",), mrns=("0045-2231",), addresses=("12 Elm Street",),
               birth_dates=("1950-03-02",))
    text = ("Ann " * 2000 + "0" * 5000 + " 1/" * 2000 + "Lee, " * 2000 + "A. " * 2000
            + "0 " * 20000 + "MRN 0 0045-2231")
    spans = known.detect(Document(text, kn))
    mrn = [text[s.start:s.end] for s in spans if s.label == "MEDICALRECORD"]
    assert mrn == ["0 0045-2231"]
