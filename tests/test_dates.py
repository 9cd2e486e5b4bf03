"""Tables for the DATE detector: what must be found (exact span text, label, tier) and what must
yield nothing. Every note fragment here is invented."""
from __future__ import annotations


import pytest
import ruletable

from deid_core.detectors import dates
from deid_core.document import Document
from deid_core.spans import CERTAIN, REVIEW


found = ruletable.finder(dates.detect)


C, R = CERTAIN, REVIEW

FOUND = [
    # AM/PM after a/b makes it a date even after a lab value; vent settings stay out
    ("HCT DRIFTING DOWN TO 28.7 FROM 30 3/9 AM, AFTER BLEEDS", [("3/9", C)]),
    ("labs 4/2 pm show K 3.1", [("4/2", C)]),
    # a decade after a history word on its line is certain; otherwise review
    ("82 YO WITH HX OF POSSIBLE MI IN 1980S AFTER CHOLE", [("1980S", C)]),
    ("THINKS BACK IN 1940S, REORIENTED", [("1940S", R)]),
    # a history word right after an apostrophe year, or redo/pacer before it
    ("NIDDM (needs teaching) , '09 PTCA to LCX", [("09", C)]),
    ("CABG X3 '92, REDO '95, DDD PACER '95", [("92", C), ("95", C), ("95", C)]),
    # session 6: a clinical event or a unit before a fraction-shaped m/d makes it a date
    ("IN CCU 3/6, DEV RESP DISTRESS", [("3/6", C)]),
    ("S/P EXTUBATION 3/8. DIURESED WELL", [("3/8", C)]),
    ("ADMITTED C PNA AND MI 3/6 . STENT TO LAD", [("3/6", C)]),
    # numeric with / - . and 2- or 4-digit years
    ("Admitted 03/05/2014 for CHF.", [("03/05/2014", C)]),
    ("seen 3/5/14 in clinic", [("3/5/14", C)]),
    ("Date: 3-5-2014", [("3-5-2014", C)]),
    ("DOS 05.03.2014", [("05.03.2014", C)]),
    ("drawn 31/12/2013 (day first)", [("31/12/2013", C)]),
    ("labs 03/05/2014 14:30 reviewed", [("03/05/2014", C)]),          # time stays out
    ("Tuesday, 3/5/2014 visit", [("Tuesday, 3/5/2014", C)]),
    ("Sat 3/8/14", [("Sat 3/8/14", C)]),
    ("Seen thus, 03/05/2014 in clinic", [("03/05/2014", C)]),         # "thus" is no weekday
    ("Thurs, 03/05/2014", [("Thurs, 03/05/2014", C)]),
    ("Thu 03/05/2014", [("Thu 03/05/2014", C)]),
    # ISO 8601
    ("2014-03-05", [("2014-03-05", C)]),
    ("at 2014-03-05T14:30:00-05:00 the", [("2014-03-05T14:30:00-05:00", C)]),
    ("ts 2014-03-05T14:30Z.", [("2014-03-05T14:30Z", C)]),
    ("2014-03-05 14:30 arrival", [("2014-03-05", C)]),
    ("2014/3/5", [("2014/3/5", C)]),
    # month names and abbreviations
    ("on March 5th, 2014 she", [("March 5th, 2014", C)]),
    ("Tuesday, March 5, 2014", [("Tuesday, March 5, 2014", C)]),
    ("Tue, Mar. 5 follow-up", [("Tue, Mar. 5", C)]),
    ("Sept. 12, 2019", [("Sept. 12, 2019", C)]),
    ("seen Jan 5", [("Jan 5", C)]),
    ("on the 12th of March", [("12th of March", C)]),
    ("5 March 2014", [("5 March 2014", C)]),
    ("05-MAR-2014", [("05-MAR-2014", C)]),
    ("5MAR2014", [("5MAR2014", C)]),
    ("Jan-2019", [("Jan-2019", C)]),
    ("Jan 2019", [("Jan 2019", C)]),
    ("since March of 2019", [("March of 2019", C)]),
    ("Dec '19", [("Dec '19", C)]),
    ("MARCH 5, 2014", [("MARCH 5, 2014", C)]),
    ("march 5, 2014", [("march 5, 2014", C)]),
    ("May 5 appointment", [("May 5", C)]),
    ("June 3-5, 2014", [("June 3-5, 2014", C)]),
    ("Feb 29, 2016", [("Feb 29, 2016", C)]),
    # numeric month/year, compact after a label
    ("since 03/2014", [("03/2014", C)]),
    ("2014-03 report", [("2014-03", C)]),
    ("DOB: 19500302", [("19500302", C)]),
    # month/day without a year
    ("seen 3/4 in clinic", [("3/4", C)]),
    ("on 3/4 she fell", [("3/4", C)]),
    ("CT 11/23 negative", [("11/23", C)]),
    ("3/4 labs", [("3/4", R)]),
    ("last visit 5/17.", [("5/17", C)]),
    # a denominator of 15 or more under a numerator of 3 or more: no fraction one writes, a
    # date, unless a score word is on the line (GCS); 1/15, 2/20 stay review
    ("RESUME HEPARIN ON 11/17 IF STABLE.", [("11/17", C)]),
    ("ECHO REPEATED 11/17, EF 40%.", [("11/17", C)]),
    ("Stress test 4/16 was negative", [("4/16", C)]),
    ("NO FEVER BETWEEN 8/13 AND 8/20.", [("8/13", C), ("8/20", C)]),
    ("K 3.9 (noon 12/18) stable", [("12/18", C)]),
    ("GCS E3 V2 M2 7/15 today", []),
    ("GCS: EYES OPEN, 7/15 TODAY", [("7/15", R)]),
    ("note 2/20 copied", [("2/20", R)]),
    # holidays
    ("Christmas 2019", [("Christmas 2019", C)]),
    ("Thanksgiving of 2021", [("Thanksgiving of 2021", C)]),
    ("fell on Christmas", [("Christmas", C)]),
    ("New Year's Eve 2018", [("New Year's Eve 2018", C)]),
    ("christmas", [("christmas", R)]),
    # years alone in date context
    ("CABG in 2012.", [("2012", C)]),
    ("since 2008", [("2008", C)]),
    ("cath (2015) showed", [("2015", C)]),
    ("summer of 2019", [("2019", C)]),
    ("class of '98", [("98", C)]),     # the apostrophe stays out (as after the year: MI 93')
    # a two-digit year after an apostrophe in a history (history words within 20 characters)
    ("HX: CVA '03, PTCA '08, GOUT", [("03", C), ("08", C)]),
    ("s/p knee surgery '77; lives alone", [("77", C)]),
    ("Hx: DM2, OSA, CABGx2 '88, BPH", [("88", C)]),
    ("he said '98 was a good year", [("98", R)]),
    ("pt's wife's car, 'ok' per RN", []),
    ("from 2008-2012", [("2008", C), ("2012", C)]),
    ("between 1995 and 2001", [("1995", C), ("2001", C)]),
    ("surgery 2011, no issues", [("2011", C)]),
    # a four-digit year after an event of the history (MI, CVA, CA, stent): certain
    ("Hx: HTN, s/p MI 1987, on ASA", [("1987", C)]),
    ("HX: TIA 2011, GOUT, HERNIA REPAIR 2006", [("2011", C), ("2006", C)]),
    ("breast ca 1983, s/p lumpectomy", [("1983", C)]),
    ("trop peak 2060 overnight.", [("2060", R)]),   # a lab word: bare, review
    ("EF normal; 2011 echo", [("2011", R)]),
    ("mitral valve (On-X, 2015)", [("2015", C)]),
    ("diagnosed\n2003", [("2003", C)]),
    ("in the 1990s", [("1990s", R)]),
    # weekdays and months alone
    ("seen Tuesday", [("Tuesday", C)]),
    ("in March", [("March", C)]),
    ("since May", [("May", C)]),
    ("early August", [("August", C)]),
    ("November", [("November", R)]),
    # weekday with a numeric date, ranges, line breaks, trailing full stops
    ("Day -5 (Fri 11/10): last dose", [("Fri 11/10", C)]),
    ("10/27/2020-10/28/2020", [("10/27/2020", C), ("10/28/2020", C)]),
    ("except 10-12 January (family)", [("10-12 January", C)]),
    ("Next visit 22nd of November.", [("22nd of November", C)]),
    ("on the 12th of march.", [("12th of march", C)]),
    ("flying to jordan on dec 14 to", [("dec 14", C)]),
    ("ON SATURDAY.", [("SATURDAY", C)]),
    ("returns to work friday.", [("friday", C)]),
    ("(returned 8/6).", [("8/6", C)]),
    ("SVG-PDA) on\r\n9/15. A", [("9/15", C)]),
    ("room 22, 5/6 14:30", [("5/6", C)]),
    ("LMP 1/5", [("1/5", C)]),
    ("Jan 9th '23 (MRN", [("Jan 9th '23", C)]),
    ("catheter out 3/4 at 06:00,", [("3/4", C)]),
    ("followed since\n2009.", [("2009", C)]),
    ("(2017, 2021)", [("2017", C), ("2021", C)]),
    ("Hx CAD (CABG 2004), AF", [("2004", C)]),
    # a model year is at most a review candidate, whatever precedes it; a time word still wins
    ("Owned 2012 pickup", [("2012", R)]),
    ("struck by 2012 pickup truck", [("2012", R)]),
    ("rollover of 2019 Honda Civic", [("2019", R)]),
    ("in 2012 cars were", [("2012", C)]),
    ("diagnosed 2012 with CHF", [("2012", C)]),
    # several in one note
    ("Admit 3/4/2014, d/c 3/9/2014, f/u Apr 2", [("3/4/2014", C), ("3/9/2014", C), ("Apr 2", C)]),
    # a capitalised month name alone, with no date context: a review candidate only
    ("April showers", [("April", R)]),
]

NOTHING = [
    "PS 10/5 AM, TOLERATING",
    "CPAP 5/5 AM WITH GOOD SATS",
    "s/p 1/2 tab of ativan",
    "ICU 1/2 full tonight",
    "1/2 tab of lisinopril",
    "epinephrine 1:1000",
    "24 2/7 weeks gestation",
    "10-12 beers a week",
    "3-4 times daily",
    "GCS 3/15",
    "GCS 15/15",
    "strength 4/5 in the left arm",
    "4/5 strength",
    "5/5 strength bilaterally",
    "BP 132/84",
    "BP 98/60 HR 92",
    "at 14:30",
    "2:30 pm",
    "pH 7.4",
    "Cr 1.1 K 4.1",
    "version 2.3.1",
    "v1.2.10",
    "Tylenol x2",
    "q4h prn",
    "INR goal 2-3",
    "may be discharged",
    "she may go home",
    "to march down the hall",
    "2/3 of the dose",
    "3/4 strength formula",
    "pain 7/10",
    "2/6 systolic murmur",
    "for 3/7",
    "heparin 5000 units",
    "metoprolol 25 mg PO BID",
    "NS 1000 mL",
    "WBC 12.3",
    "G2P1",
    "POD 3",
    "HbA1c 7.4",
    "LOINC 2345-7",
    "ICD E11.9 I48.91",
    "ratio 3:1",
    "the MAR was reviewed",
    "at 2000 hours",
    "temp 99.1 F",
    "x 3 days",
    "123-45-6789",
    "617-555-0199",
    "Sat 98% on RA",
    "GCS | 9/15",
    "Pain            | 6/10 chest pressure",
    "BPP 8/8",
    "blood cultures 2/2 bottles",
    "(3+2+2 = 7/9)",
    "NOTE 1900-0700",
    "shift 0700-1900",
    "D5 1/2 NS at 75",
    "vision 20/20",
    "$2000 copay",
    "2030 hrs",
    "2/4 pulses",
    "1/2 ppd",
    "HIV 1/2 Ab",
    "a 3/4 inch laceration",
    "FY2019 budget",
    "FY2019 pickup",
]


test_found = ruletable.found_test(found, FOUND, label="DATE")
test_nothing = ruletable.nothing_test(found, NOTHING)
test_sources_named = ruletable.sources_test(
    dates.detect, "Seen on March 5th, 2014 and 3/4; CABG in 2012; seen Tuesday.",
    ["dates:month_name_day_year", "dates:month_day", "dates:year_context", "dates:weekday"])


def test_offsets_in_crlf_note():
    text = "Line one\r\nAdmitted: 03/05/2014\r\nDischarged: March 9, 2014\r\n"
    spans = list(dates.detect(Document(text)))
    assert [text[s.start:s.end] for s in spans] == ["03/05/2014", "March 9, 2014"]


def test_month_number_and_valid_date():
    assert dates.month_number("Sept.") == 9
    assert dates.month_number("december") == 12
    assert dates.month_number("Foo") is None
    assert dates.valid_date(2, 29) and not dates.valid_date(2, 30)
    assert not dates.valid_date(13, 1) and not dates.valid_date(4, 31)
    assert not dates.valid_date(1, 1, 1850) and dates.valid_date(1, 1, 14)


# Nurse-note shapes (invented): day/month without a year, month/two-digit year, two-digit years in
# a history, ranges, dates glued to punctuation; and the vent settings, scores, fractions and
# doses that must stay.
NURSE = [
    ("ARRIVED 2300 9/14 FROM OSH", [("9/14", C)]),
    ("labs drawn at 0330 3/7 ok", [("3/7", C)]),
    ("WBC 16.0 8/22 afebrile", [("8/22", C)]),
    ("ECHO 3/91 EF 30%", [("3/91", C)]),
    ("Today 1/30: INR 3.2", [("1/30", C)]),            # 30 can be a day: month/day
    ("s/p fx 6/98, doing well", [("6/98", C)]),
    ("PMH: CAD/MI 8/84; HTN", [("8/84", C)]),
    ("PMH MI 93, HTN", [("93", C)]),
    ("CVA 81', DM", [("81", C)]),
    ("AAA REPAIR IN 96' COMPLICATED BY PNA", [("96", C)]),
    ("HR in 80's, SBP in 90's", []),
    ("HR remains in 70 a paced overnight", []),
    ("abx 9/12-9/14 then stopped", [("9/12", C), ("9/14", C)]),
    ("XRT 10/02/10/03 and due again", [("10/02/10/03", C)]),
    ("seen,4/17,and again", [("4/17", C)]),
    ("LITHIUM TOXICITY-9/2/92. ", [("9/2/92", C)]),
    ("MI IN 1980S AFTER SURGERY", [("1980S", C)]),   # a history word before it (session 6)
    ("DOB:\t05/02/1950", [("05/02/1950", C)]),
    ("Labor Day 2019 fall", [("Labor Day 2019", C)]),
    ("SEEN IN ED ON 2/31/14 WITH FEVER", [("2/31/14", C)]),           # a day the month lacks
    ("cath 4/31/2019, stent to LAD", [("4/31/2019", C)]),
    ("fell on Christmas Eve 2020 at home", [("Christmas Eve 2020", C)]),
    # must not be masked
    ("PS 10/5 with 40% FiO2", []),
    ("weaned to CPAP 5/5 40%", []),
    ("on bipap 10/5 overnight", []),
    ("PEEP 5, RR 14", []),
    ("BP 120/80 HR 70", []),
    ("1/2 NS running at 75cc/hr", []),
    ("GCS 3/15 on arrival", []),
    ("2/4 PULSES BILAT", []),
    ("rales 1/3 up bilaterally", []),
    ("crackles 1/3-1/2 up", []),
    ("c/o pain 5/10", []),
    ("given 1/2 amp D50", []),
    ("MI 12 hours ago", []),
    ("in 14 days", []),
    ("RESP: trialed on 5/5 x 1 hr, did well", []),
    ("Abg acceptable on 5/5.", []),
    ("TEAM FEELS IT MAY BE FROM PROPOFOL", []),
    ("INC RR AND DEC FIO2", []),
    ("bp 120-140'2/70's", []),
    ("ratio 13/32/14 noted", []),
    ("NPN 1900>>0700: PT RESTED", []),
    ("GOOD 10/5 ABG THIS AM", []),                                 # the setting of a blood gas
    ("ON 3/4 ABG SHOWED ACIDOSIS", [("3/4", C)]),                 # not vent-shaped: a date                             # a shift in clock times
    ("nursing note 1900->0700", []),
    ("back from x-ray ~ 2030, no changes", []),                    # about a clock time                                   # no month 13, no day 32
    ("PS 12/31/40% overnight", []),
]


@pytest.mark.parametrize("text,expected", NURSE)
def test_nurse_shapes(text, expected):
    assert [(t, tier) for t, _label, tier in found(text)] == expected


@pytest.mark.parametrize("text,expected", [
    ("on PS 10/5/40% today", []),                      # vent settings written as three numbers
    ("BIPAP 10/5/12 bpm", []),
    ("mask ventilation 5/10/40 then", []),
    ("seen 10/5/14 in clinic", [("10/5/14", C)]),
])
def test_vent_triples_are_not_dates(text, expected):
    assert [(t, tier) for t, _label, tier in found(text)] == expected


@pytest.mark.parametrize("text,expected", [
    ("#20 LH, #16 RA-11/4 placed", [("11/4", C)]),     # a line site, a hyphen, the day it went in
    ("RIJ-3/14", [("3/14", C)]),
    ("PEEP-5/5", []),                                  # a vent setting after a hyphen stays out
    ("HR 80-3/4", []),                                 # a number, a hyphen: a range, no date
    ("ps 10- 5/5", []),
])
def test_date_glued_to_a_word_by_a_hyphen(text, expected):
    assert [(t, tier) for t, _label, tier in found(text)] == expected


# --- speed: month and weekday patterns tried only at the anchors that can start them ---

from deid_core.detectors.patterns import Emitter, run  # noqa: E402


def _every_anchor(doc):
    """The date spans with every month, weekday and holiday anchor tried for every anchored
    pattern (the form before the anchors were split by kind)."""
    starts = [t.start for t in doc.tokens if t.word[:3] in dates._ANCHOR3_VARIANTS]
    return list(run(dates.PATTERNS, doc.text, Emitter(), starts, {"month": starts, "weekday": starts}))


@pytest.mark.parametrize("text", [
    "Seen Mon 3/4, Tues March 5th, 2019; Christmas 2019; MAR 2014; Sun. Jan 7; mon 5; Sat",
    "St Patrick's Day, Xmas, X-mas 2020, Mardi Gras, Labor Day, June 3-5, 2014, 12th of march",
    "Monitor the Marshall; Satur, Wedge, Sunday; Decadron Dec. 5; may 2019; MAY BE; Thurs 11/10",
    "5MAR2014, 05-Mar-14, Jan-2019, Sept '19, in March, THIS MAY BE, Fri, Frida, FRI 3/4",
])
def test_split_anchors_find_what_every_anchor_finds(text):
    doc = Document(text)
    assert list(dates.detect(doc)) == _every_anchor(doc)


def test_anchor_starts_are_lower_case():   # the kind subsets hold the variants of lower-case starts
    assert all(w == w.lower() for w in dates._ANCHOR3)
    assert dates._MONTH3_VARIANTS | dates._WEEKDAY3_VARIANTS <= dates._ANCHOR3_VARIANTS
