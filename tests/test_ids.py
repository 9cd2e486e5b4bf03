"""Tables for the ID detector: labelled identifiers (label outside the span), SSN and VIN
shapes, bare long numbers (review), and clinical codes that must stay. All numbers invented."""
from __future__ import annotations


import pytest
import ruletable

from deid_core.detectors import ids
from deid_core.detectors.patterns import luhn_ok, ssn_plausible, vin_check_ok
from deid_core.document import Document
from deid_core.spans import CERTAIN, REVIEW

C, R = CERTAIN, REVIEW


found = ruletable.finder(ids.detect)


FOUND = [
    ("SSN 923-45-6789", [("923-45-6789", "SSN", C)]),
    ("923-45-6789", [("923-45-6789", "SSN", C)]),
    ("SSN: 923 45 6789", [("923 45 6789", "SSN", C)]),
    ("social security number 923456789", [("923456789", "SSN", C)]),
    ("MRN: 4471203", [("4471203", "MEDICALRECORD", C)]),
    # session 6: insurance and policy need no number word; HBN and EMR are labels
    ("her insurance is KT-553812, verified", [("KT-553812", "HEALTHPLAN", C)]),
    ("insurance policy WB-771204 on file", [("WB-771204", "HEALTHPLAN", C)]),
    ("seen 3/2, HBN: 552-019-887", [("552-019-887", "HEALTHPLAN", C)]),
    ("EMR: 771203498 reviewed", [("771203498", "MEDICALRECORD", C)]),
    ("MRN4471203", [("4471203", "MEDICALRECORD", C)]),
    ("MR# 88-1204", [("88-1204", "MEDICALRECORD", C)]),
    ("MR #881204.", [("881204", "MEDICALRECORD", C)]),
    ("Med Rec No. 00451", [("00451", "MEDICALRECORD", C)]),
    ("medical record number 1234567", [("1234567", "MEDICALRECORD", C)]),
    ("Unit No: 223-11-09", [("223-11-09", "MEDICALRECORD", C)]),
    ("Patient ID: P0045231", [("P0045231", "MEDICALRECORD", C)]),
    ("Acct# A99812", [("A99812", "ACCOUNT", C)]),
    ("Account No. 5566778", [("5566778", "ACCOUNT", C)]),
    ("billing account 77120934", [("77120934", "ACCOUNT", C)]),
    ("Member ID XJ4410029", [("XJ4410029", "HEALTHPLAN", C)]),
    ("Policy # P-22918", [("P-22918", "HEALTHPLAN", C)]),
    ("Medicare 1EG4-TE5-MK73", [("1EG4-TE5-MK73", "HEALTHPLAN", C)]),
    ("Medicaid ID: 99312331", [("99312331", "HEALTHPLAN", C)]),
    ("Health plan 4455-22", [("4455-22", "HEALTHPLAN", C)]),
    ("subscriber #ZQ88120", [("ZQ88120", "HEALTHPLAN", C)]),
    ("License # C12345", [("C12345", "LICENSE", C)]),
    ("DEA: AB1234563", [("AB1234563", "LICENSE", C)]),
    ("NPI 1234567893", [("1234567893", "LICENSE", C)]),
    ("driver's license S530-4421-8890", [("S530-4421-8890", "LICENSE", C)]),
    ("VIN 1HGCM82633A004352", [("1HGCM82633A004352", "VEHICLE", C)]),
    ("car 1HGCM82633A004352 parked", [("1HGCM82633A004352", "VEHICLE", C)]),
    ("license plate 4XYZ921", [("4XYZ921", "VEHICLE", C)]),
    ("plate 7ABC123", [("7ABC123", "VEHICLE", C)]),
    ("pacemaker serial PM22310", [("PM22310", "DEVICE", C)]),
    ("S/N: AB-4471", [("AB-4471", "DEVICE", C)]),
    ("device ID D99-3321", [("D99-3321", "DEVICE", C)]),
    ("lot # 4471-B", [("4471-B", "DEVICE", C)]),
    ("fingerprint ID FP-20031", [("FP-20031", "BIOID", C)]),
    ("accession S14-2231", [("S14-2231", "IDNUM", C)]),
    ("specimen #SP-0043", [("SP-0043", "IDNUM", C)]),
    ("order # 5510231", [("5510231", "IDNUM", C)]),
    ("case no. 14-0033", [("14-0033", "IDNUM", C)]),
    ("ID: 55412", [("55412", "IDNUM", C)]),
    ("claim 88120991", [("88120991", "IDNUM", C)]),
    ("ref #A77102", [("A77102", "IDNUM", C)]),
    ("#44512", [("44512", "IDNUM", C)]),
    ("called back re 88120991", [("88120991", "IDNUM", R)]),
    ("AB1234567", [("AB1234567", "IDNUM", R)]),
    ("re 6175550199 left", [("6175550199", "IDNUM", R)]),
    ("MRN RM 008-331-62", [("RM 008-331-62", "MEDICALRECORD", C)]),
    ("| MRN             | 4400172", [("4400172", "MEDICALRECORD", C)]),
    ("TIBIAL TRAY SERIAL\nTB-99310528 (RECORDED)", [("TB-99310528", "DEVICE", C)]),
    ("leads SN PJN7721094\nand PJN7720841.", [("PJN7721094", "DEVICE", C), ("PJN7720841", "DEVICE", C)]),
    ("dexcom sensor DWB242927E", [("DWB242927E", "DEVICE", C)]),
    ("ENC: E-2019-0441870", [("E-2019-0441870", "ACCOUNT", C)]),
    ("(member 7hq2-wd4-ny61)", [("7hq2-wd4-ny61", "HEALTHPLAN", C)]),
    ("Medicare A/B, 2XJ7-PL3-QA55;", [("2XJ7-PL3-QA55", "HEALTHPLAN", C)]),
    ("Ins: ANT-900417723", [("ANT-900417723", "HEALTHPLAN", C)]),
    ("CLIA 22D0987714.", [("22D0987714", "LICENSE", C)]),
    ("(GMC 7034112)", [("7034112", "LICENSE", C)]),
    ("plate NH 4KX-772, VIN", [("NH 4KX-772", "VEHICLE", C)]),
    ("plate IL DV 48213;", [("IL DV 48213", "VEHICLE", C)]),
    ("patient SSN ending in 8550.", [("8550", "SSN", C)]),
    ("units W0419 23 118776 and", [("W0419 23 118776", "IDNUM", C)]),
    ("UBRN 0004 7719 2208", [("0004 7719 2208", "IDNUM", C)]),
    ("order RX-99018273.", [("RX-99018273", "IDNUM", C)]),
    ("armband BB-4417-K", [("BB-4417-K", "IDNUM", C)]),
    ("Flow cytometry (FC23-0277): no", [("FC23-0277", "IDNUM", R)]),
    ("mrn 41-88-0273", [("41-88-0273", "MEDICALRECORD", C)]),
    ("IBAN GB82 WEST 1234 5698 7654 32.", [("GB82 WEST 1234 5698 7654 32", "ACCOUNT", C)]),
    ("iban gb82west12345698765432", [("gb82west12345698765432", "ACCOUNT", C)]),
    ("card 4111 1111 1111 1111 on file", [("4111 1111 1111 1111", "ACCOUNT", C)]),
    ("card 4111-1111-1111-1112 (fails Luhn)", [("4111-1111-1111-1112", "IDNUM", R)]),
    ("MRN: 4471203   Acct# A99812",
     [("4471203", "MEDICALRECORD", C), ("A99812", "ACCOUNT", C)]),
    # label punctuation in any order: "#", ":", ".", "No.", "-" and spaces
    ("MRN#:1234567 seen", [("1234567", "MEDICALRECORD", C)]),
    ("MRN#: 12-34-56 seen", [("12-34-56", "MEDICALRECORD", C)]),
    ("MRN#:A1234567", [("A1234567", "MEDICALRECORD", C)]),
    ("MRN #: 1234567", [("1234567", "MEDICALRECORD", C)]),
    ("MRN No.: 12-34-56", [("12-34-56", "MEDICALRECORD", C)]),
    ("MRN.:  #0045123", [("0045123", "MEDICALRECORD", C)]),
    ("MRN-1234567", [("1234567", "MEDICALRECORD", C)]),
    ("MRN: #12345", [("12345", "MEDICALRECORD", C)]),
    ("Acct.#:A99812", [("A99812", "ACCOUNT", C)]),
    ("Acct :# 5566778", [("5566778", "ACCOUNT", C)]),
    # insurer name + plan word: certain HEALTHPLAN
    ("BCBS policy XGH884512301", [("XGH884512301", "HEALTHPLAN", C)]),
    ("Aetna ID: W123456789", [("W123456789", "HEALTHPLAN", C)]),
    ("Cigna #: 88123401", [("88123401", "HEALTHPLAN", C)]),
    ("UnitedHealthcare member ID 9981-22341", [("9981-22341", "HEALTHPLAN", C)]),
    ("Humana Medicare Advantage member 77120934", [("77120934", "HEALTHPLAN", C)]),
    ("Kaiser Permanente member number 00112233", [("00112233", "HEALTHPLAN", C)]),
    ("Medicare policy 123456789A", [("123456789A", "HEALTHPLAN", C)]),
    ("MassHealth ID 100200300400", [("100200300400", "HEALTHPLAN", C)]),
    ("Medicaid # YQ44120983", [("YQ44120983", "HEALTHPLAN", C)]),
    ("MRN#:\n\n4471203", [("4471203", "IDNUM", R)]),      # a blank line ends the label
    # a bare 8-digit number: review, not certain (a valid compact date needs a date label)
    ("20140305", [("20140305", "IDNUM", R)]),
]

NOTHING = [
    "catheter placed with opening # PA 70/38 PWP 40",   # a pressure after "#"
    "no insurance for 30 days",          # a count after "insurance" is no identifier
    "EMR down for 2 hrs this am",
    "HbA1c 7.4",
    "C3 and C4 low",
    "CD4 450",
    "B12 deficiency",
    "K+ 4.1",
    "pH 7.4",
    "ICD-10 I10, E11.9",
    "LOINC 4548-4",
    "2345-7",
    "metoprolol 25 mg",
    "penicillin G 2400000 units",
    "03/05/2014",
    "617-555-0199",
    "(617) 555-0199",
    "phone # 617-555-0199",
    "ZIP 02115-1234",
    "plate 3.5 mm",
    "plate and 6 screws",
    "ID consult",
    "ID f/u in 2 weeks",
    "Room #1234",
    "bed #12",
    "Pt #2",
    "platelets 250000",
    "WBC 12,300",
    "order placed",
    "case discussed",
    "ID: 12",
    "GCS 3/15",
    "social history negative",
    "Cart: MAC 5500 HD",
    "NOTE 1900-0700",
    "Ref CRP\t6.1",
    "ID:\n123 Main St",
    "COVID-19 PCR",
    "PHQ-9 12",
    "CA-125 35",
    "ICD-10-CM",
    "Will order 1000 mL NS bolus",
    "lost his job 1990",
    "NDC 0093-7180-01",
    "CPT 99213",
    "Aetna policy updated",
    "BCBS plan covers PT",
    "Medicaid 2019 coverage",
    "Cigna # 12",
    "MRN#: none on file",
]


test_found = ruletable.found_test(found, FOUND)
test_nothing = ruletable.nothing_test(found, NOTHING)


def test_label_not_in_span():
    text = "MRN: 4471203"
    (span,) = ids.detect(Document(text))
    assert (span.start, span.end) == (5, 12)
    assert span.source == "ids:label:MEDICALRECORD"


test_sources_named = ruletable.sources_test(
    ids.detect, "SSN 923-45-6789; VIN 1HGCM82633A004352; car 1HGCM82633A004352; 88120991",
    ["ids:ssn_shape", "ids:label:VEHICLE", "ids:vin", "ids:bare_number"])


def test_iban_ok():
    assert ids.iban_ok("GB82 WEST 1234 5698 7654 32")
    assert not ids.iban_ok("GB83 WEST 1234 5698 7654 32")
    assert not ids.iban_ok("GB82") and not ids.iban_ok("1234WEST12345698765432")


def test_validators():
    assert luhn_ok("808401234567893") and not luhn_ok("808401234567894")
    assert luhn_ok("4111111111111111") and not luhn_ok("") and not luhn_ok("12a")
    assert vin_check_ok("1HGCM82633A004352") and not vin_check_ok("1HGCM82643A004352")
    assert not vin_check_ok("1HGCM82633A00435")
    assert ssn_plausible("123", "45", "6789")
    assert not ssn_plausible("000", "45", "6789") and not ssn_plausible("923", "45", "6789")
    assert not ssn_plausible("123", "00", "6789") and not ssn_plausible("666", "45", "6789")


# Shapes other tools' tests expect (issue 11 item 10; invented values), and what must stay.
SHAPES_11 = [
    ("SSN 219.09.9999 on file", [("219.09.9999", "SSN", C)]),
    ("ref 219.09.9999", [("219.09.9999", "SSN", C)]),
    ("ssn 219 09 9999", [("219 09 9999", "SSN", C)]),
    ("wrote 219 09 9999 on the form", [("219 09 9999", "SSN", R)]),
    ("SSN: 21909-9999", [("21909-9999", "SSN", C)]),
    ("Boston MA 21909-9999", []),                      # a ZIP+4 without an SSN label
    ("theme colour #aa00ff", []),
    ("hex #FA0 used", []),
    ("order #123456", [("123456", "IDNUM", C)]),
]


@pytest.mark.parametrize("text,expected", SHAPES_11)
def test_issue11_shapes(text, expected):
    assert found(text) == expected


# Nurse-note values after a generic "ID:" (the infectious-disease heading) or "#" label, and
# doses after an IDNUM label: not identifiers (issue 8; invented values).
NOT_IDS_NURSE = [
    "ID: T 101.8 on arrival",
    "ID: TMAX 101.2 PO, ON VANCO",
    "ID: WBC 18.4 today",
    "ID: 98.9 po",
    "foley #20fr placed",
    "intubated #8ETT 22cm",
    "transfuse #4PRBC tonight",
    "PA #- 35/18, CVP 8",
    "Order 5cc bolus",
    "FLUID GOAL TODAY 750-1500CC NEGATIVE",      # a range of amounts, unit glued on
    "vols up to 800-1200ml at times",
    "NPO 2230-0600AM for cath",                  # a range of clock times
    "BP 100-180/50-90, HR-95-128, ON NEO",        # a vital's abbreviation glued to its range
    "stable; SR, BP120-150/60's",
]


@pytest.mark.parametrize("text", NOT_IDS_NURSE)
def test_nurse_values_are_not_ids(text):
    assert found(text) == []


@pytest.mark.parametrize("text,expected", [
    ("ID: 4471203", [("4471203", "IDNUM", C)]),
    ("Order # 551 sent", [("551", "IDNUM", C)]),
])
def test_ids_after_generic_labels_still_found(text, expected):
    assert found(text) == expected
