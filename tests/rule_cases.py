"""The rule cases: at least one invented note fragment per rule of the catalogue, grouped by rule
id: the text, every final span the engine gives on it (covered text, label, tier; nothing else is
masked) and words that must stay as written. ``tests/test_rule_cases.py`` runs them; a rule
without a case here fails there. Add a row under a new rule's id when you add the rule
(``ARCHITECTURE.md``). Every fragment here is invented."""
from __future__ import annotations

from ruletable import Case

C, R = "certain", "review"

#: Rule id -> its cases, detector by detector in the catalogue's order.
CASES: dict[str, list[Case]] = {
    # --- dates ---
    "dates:numeric_range": [
        Case("Stayed 10/27/2020-10/28/2020 on 2L NC.",
             [("10/27/2020", "DATE", C), ("10/28/2020", "DATE", C)],
             keep=("2L",)),
    ],
    "dates:iso": [
        Case("Labs drawn 2014-03-05, K 3.9.", [("2014-03-05", "DATE", C)], keep=("3.9",)),
    ],
    "dates:numeric_mdy": [
        Case("Admitted 03/05/2014 for CHF.", [("03/05/2014", "DATE", C)], keep=("CHF",)),
    ],
    "dates:month_name_day": [
        Case("Seen Apr 2 in clinic, BP 132/84.", [("Apr 2", "DATE", C)], keep=("132/84",)),
    ],
    "dates:month_name_day_year": [
        Case("Surgery on March 5th, 2014 went well.",
             [("March 5th, 2014", "DATE", C)],
             keep=("Surgery",)),
    ],
    "dates:day_month_name": [
        Case("Seen on the 12th of March for 10 mg.", [("12th of March", "DATE", C)], keep=("10 mg",)),
    ],
    "dates:day_month_name_year": [
        Case("Biopsy 5 March 2014, ratio 1:1000.", [("5 March 2014", "DATE", C)], keep=("1:1000",)),
    ],
    "dates:month_name_year": [
        Case("Quit smoking Jan 2019, 20 pack-years.",
             [("Jan 2019", "DATE", C)],
             keep=("20 pack-years",)),
    ],
    "dates:numeric_month_year": [
        Case("On insulin since 03/2014, A1c 7.2.", [("03/2014", "DATE", C)], keep=("7.2",)),
    ],
    "dates:holiday": [
        Case("Fell at home on Christmas 2019, no LOC.", [("Christmas 2019", "DATE", C)], keep=("LOC",)),
    ],
    "dates:compact": [
        Case("DOB 19500302, allergies none.", [("19500302", "DATE", C)], keep=("allergies",)),
    ],
    "dates:month_day_range": [
        Case("Held 9/12-9/14 for the procedure.",
             [("9/12", "DATE", C), ("9/14", "DATE", C)],
             keep=("procedure",)),
        Case("Rehab stay 4/15-4/20; crackles 1/3-1/2 up.", [("4/15", "DATE", C), ("4/20", "DATE", C)],
             keep=("1/3", "1/2")),
    ],
    "dates:month_year2": [
        Case("ECHO 3/91 EF 30%.", [("3/91", "DATE", C)], keep=("EF 30%",)),
    ],
    "dates:month_day": [
        Case("Seen 3/4 in clinic; strength 4/5.", [("3/4", "DATE", C)], keep=("4/5",)),
        Case("Tmax 102.3 8/14, blood cx x 2 8/15 pending.", [("8/14", "DATE", C), ("8/15", "DATE", C)],
             keep=("102.3",)),
        Case("Hx: s/p stent x1 11/3, cath lab.", [("11/3", "DATE", C)], keep=("stent",)),
        Case("Lactate + 1/6 on repeat.", [("1/6", "DATE", R)], keep=("Lactate",)),
        Case("PEEP 5, FiO2 40%.\nOvernight weaned to 10/5, tolerating; SBT 3/28.",
             [("3/28", "DATE", C)], keep=("10/5",)),
        Case("Now 11/5 on PSV, ABG ok; 2 1/2 tabs; 1/2 ST saline; seen 6/2.",
             [("6/2", "DATE", C)], keep=("11/5", "1/2 ST", "2 1/2")),
    ],
    "dates:year_bare": [
        Case("Old films, 1998, reviewed with family.", [("1998", "DATE", R)], keep=("films",)),
        Case("Restless until 2045, then slept.", [("2045", "DATE", R)], keep=("Restless",)),
        Case("Agitated around 1930; heparin off at 2015; asleep 1900 to 0600; old films 1997.",
             [("1930", "DATE", R), ("1997", "DATE", R)], keep=("2015", "1900", "0600")),
    ],
    "dates:decade": [
        Case("HX OF MI IN 1980S, STABLE.", [("1980S", "DATE", C)], keep=("MI",)),
    ],
    "dates:year_model": [
        Case("Struck by a 2012 pickup while walking.", [("2012", "DATE", R)], keep=("pickup",)),
    ],
    "dates:year_context": [
        Case("Diabetic since 2008, on metformin 500 mg.", [("2008", "DATE", C)], keep=("metformin",)),
    ],
    "dates:year_paren": [
        Case("Cath (2015) showed LAD disease.", [("2015", "DATE", C)], keep=("LAD",)),
    ],
    "dates:year_apostrophe": [
        Case("s/p AVR '07, doing well.", [("07", "DATE", C)], keep=("AVR",)),
    ],
    "dates:year2_history": [
        Case("PMH: MI 93, CVA 81', DM2.", [("93", "DATE", C), ("81", "DATE", C)], keep=("DM2",)),
        Case("Stents: PTCA in 97 and 03, no angina.", [("97", "DATE", C), ("03", "DATE", C)],
             keep=("angina",)),
        Case("CVA 88, 02; on ASA 81 mg.", [("88", "DATE", C), ("02", "DATE", C)], keep=("81 mg",)),
    ],
    "dates:month_alone": [
        Case("Last colonoscopy in March, clear.", [("March", "DATE", C)], keep=("colonoscopy",)),
        Case("Walking with a cane since mid-August.", [("August", "DATE", C)], keep=("cane",)),
        Case("HbA1c 6.8 Nov, up from 6.1.", [("Nov", "DATE", C)], keep=("6.8",)),
        Case("Gout flares Jun/Jul each year; may need allopurinol.",
             [("Jun", "DATE", C), ("Jul", "DATE", C)], keep=("may", "allopurinol")),
    ],
    "dates:weekday": [
        Case("Family will visit on Saturday.", [("Saturday", "DATE", C)], keep=("Family",)),
    ],
    "dates:weekday_abbr": [
        Case("Dialysis missed Fri; O2 sat 93%.", [("Fri", "DATE", R)], keep=("sat",)),
        Case("Plan OR TUES, home on Sat.", [("TUES", "DATE", R), ("Sat", "DATE", R)], keep=("OR",)),
        Case("next visit thurs, out of the sun.", [("thurs", "DATE", R)], keep=("sun",)),
    ],
    "dates:ordinal_day": [
        Case("Cath planned on the 23rd, NPO after midnight.", [("23rd", "DATE", C)], keep=("NPO",)),
        Case("Stool cx sent on the 9th and still pending.", [("9th", "DATE", C)], keep=("pending",)),
        Case("Family will call by the 3rd.", [("3rd", "DATE", C)], keep=("Family",)),
        Case("Moved to the 5th floor on the 2nd; 3rd metatarsal fracture.", [("2nd", "DATE", C)],
             keep=("5th", "3rd")),
    ],
    # --- ages ---
    "ages:digits_suffix": [
        Case("92 yo woman with a hip fracture.", [("92", "AGE", C)], keep=("hip fracture",)),
    ],
    "ages:age_label": [
        Case("Age: 101, lives alone.", [("101", "AGE", C)], keep=("alone",)),
    ],
    "ages:subject_is": [
        Case("Her mother is 94.", [("94", "AGE", C)], keep=("mother",)),
    ],
    "ages:article_sex": [
        Case("Pt is a 96 female with CHF.", [("96", "AGE", C)], keep=("CHF",)),
    ],
    "ages:decade": [
        Case("A woman in her late nineties, alert.", [("nineties", "AGE", C)], keep=("alert",)),
    ],
    "ages:years_review": [
        Case("He is 92 years.", [("92", "AGE", R)]),
    ],
    "ages:apposition_review": [
        Case("Her dad, 91, has dementia.", [("91", "AGE", R)], keep=("dementia",)),
    ],
    "ages:words": [
        Case("A ninety-four year old man, afebrile.", [("ninety-four", "AGE", C)], keep=("afebrile",)),
    ],
    "ages:words_cue": [
        Case("He turned ninety-one last week.", [("ninety-one", "AGE", C)], keep=("week",)),
    ],
    # --- contact ---
    "contact:email": [
        Case("Send the report to j.alvarez@example.org today.",
             [("j.alvarez@example.org", "EMAIL", C)],
             keep=("report",)),
    ],
    "contact:url": [
        Case("Portal at https://portal.example.org/login for results.",
             [("https://portal.example.org/login", "URL", C)],
             keep=("results",)),
    ],
    "contact:url_domain": [
        Case("Records at sub.example.co.uk for review.",
             [("sub.example.co.uk", "URL", C)],
             keep=("review",)),
    ],
    "contact:ipv6": [
        Case("Pump bound to fe80::1ff:fe23:4567:890a only.",
             [("fe80::1ff:fe23:4567:890a", "IPADDR", C)],
             keep=("Pump",)),
    ],
    "contact:ipv4": [
        Case("Telemetry box at 192.0.2.44 offline.", [("192.0.2.44", "IPADDR", C)], keep=("Telemetry",)),
    ],
    "contact:phone_us": [
        Case("Call (617) 555-0199 with questions.",
             [("(617) 555-0199", "PHONE", C)],
             keep=("questions",)),
        Case("Wife's number 412 730-1186 on the board.", [("412 730-1186", "PHONE", C)], keep=("board",)),
        Case("Daughter at 508 6641920 evenings.", [("508 6641920", "PHONE", R)], keep=("evenings",)),
        Case("Cell 617448-2093 (text ok).", [("617448-2093", "PHONE", C)], keep=("text",)),
    ],
    "contact:phone_intl": [
        Case("Daughter abroad: +44 20 7946 0958.",
             [("+44 20 7946 0958", "PHONE", C)],
             keep=("Daughter",)),
    ],
    "contact:pager": [
        Case("Resident pgr #4412 aware.", [("4412", "PHONE", C)], keep=("aware",)),
    ],
    "contact:phone_trunk": [
        Case("Cell 07700 900461 (mobile).", [("07700 900461", "PHONE", C)], keep=("Cell",)),
    ],
    "contact:phone_local": [
        Case("Nurse line ph 555-0144 after hours.", [("555-0144", "PHONE", C)], keep=("hours",)),
    ],
    "contact:phone_spaced": [
        Case("Son asks to call 4 1 2 7 3 0 1 1 8 6 after 6 pm.", [("4 1 2 7 3 0 1 1 8 6", "PHONE", C)],
             keep=("6 pm",)),
        Case("Home phone: 7 3 0 1 1 8 6.", [("7 3 0 1 1 8 6", "PHONE", C)]),
        Case("Digits 5 0 8 6 6 4 1 9 2 0 on the card.", [("5 0 8 6 6 4 1 9 2 0", "PHONE", R)],
             keep=("card",)),
        Case("Apgars 8 9, GCS 4 5 6; ph 6 1 7 5 5 5 0 1 4 2.", [("6 1 7 5 5 5 0 1 4 2", "PHONE", C)],
             keep=("8 9", "4 5 6")),
    ],
    "contact:phone_vanity": [
        Case("Son's shop: 1-800-FLOWERS, call after 5.", [("1-800-FLOWERS", "PHONE", R)], keep=("shop",)),
        Case("Pharmacy refill line 1-888-RX-REFIL.", [("1-888-RX-REFIL", "PHONE", C)], keep=("Pharmacy",)),
        Case("Phone 412-730-CARE for the home nurse.", [("412-730-CARE", "PHONE", C)], keep=("nurse",)),
        Case("Gave 1-800 mg of ibuprofen; CBC-DIFF sent; 1-866-GO-RIVER.",
             [("1-866-GO-RIVER", "PHONE", R)], keep=("CBC-DIFF", "1-800 mg")),
    ],
    "contact:phone_typo": [
        Case("Home (617 555 01993) per wife.", [("617 555 01993", "PHONE", C)]),
    ],
    "contact:extension": [
        Case("Call x4412 with results.", [("x4412", "PHONE", C)], keep=("results",)),
        Case("Please call back at x317 for the report.", [("x317", "PHONE", C)], keep=("report",)),
        Case("Paged renal fellow x5520, KCl 20 meq x3 given.", [("x5520", "PHONE", C)],
             keep=("x3", "20 meq")),
    ],
    # --- ids ---
    "ids:ssn_shape": [
        Case("SSN 123-45-6789 on file.", [("123-45-6789", "SSN", C)], keep=("file",)),
    ],
    "ids:ssn_last4": [
        Case("Patient SSN ending in 8550.", [("8550", "SSN", C)]),
    ],
    "ids:ssn_context": [
        Case("ssn 219 09 9999 verified.", [("219 09 9999", "SSN", C)], keep=("verified",)),
    ],
    "ids:ssn_split": [
        Case("SSN: 21909-9999 per registration.", [("21909-9999", "SSN", C)], keep=("registration",)),
    ],
    "ids:ssn_spaced": [
        Case("Card shows 219 09 9999 at the top.", [("219 09 9999", "SSN", R)], keep=("Card",)),
    ],
    "ids:label": [
        Case("MRN: 4471203, HbA1c 7.1.", [("4471203", "MEDICALRECORD", C)], keep=("HbA1c",)),
    ],
    "ids:vin": [
        Case("His car 1HGCM82633A004352 was towed.",
             [("1HGCM82633A004352", "VEHICLE", C)],
             keep=("towed",)),
    ],
    "ids:iban": [
        Case("Refund to GB82 WEST 1234 5698 7654 32.",
             [("GB82 WEST 1234 5698 7654 32", "ACCOUNT", C)],
             keep=("Refund",)),
    ],
    "ids:card": [
        Case("Paid with 4111 1111 1111 1111 today.",
             [("4111 1111 1111 1111", "ACCOUNT", C)],
             keep=("Paid",)),
    ],
    "ids:mbi": [
        Case("Letter shows 1EG4-TE5-MK73 at top.",
             [("1EG4-TE5-MK73", "HEALTHPLAN", C)],
             keep=("Letter",)),
    ],
    "ids:isbt_unit": [
        Case("Unit W0419 23 118776 transfused, no reaction.",
             [("W0419 23 118776", "IDNUM", C)],
             keep=("reaction",)),
    ],
    "ids:code_shape": [
        Case("Flow cytometry (FC23-0277): no blasts.", [("FC23-0277", "IDNUM", R)], keep=("blasts",)),
    ],
    "ids:bare_number": [
        Case("Tube 55512345 sent to lab, ICD-10 I10.", [("55512345", "IDNUM", R)], keep=("I10",)),
    ],
    # --- locations ---
    "locations:hospital:distinct": [
        Case("Transferred from Mercy General Hospital on heparin.",
             [("Mercy General Hospital", "HOSPITAL", C)],
             keep=("heparin",)),
    ],
    "locations:hospital:institution": [
        Case("Transferred from Memorial Hospital yesterday.",
             [("Memorial Hospital", "HOSPITAL", C)],
             keep=("yesterday",)),
    ],
    "locations:practice": [
        Case("Follows with Cobalt Bay Urology for BPH.",
             [("Cobalt Bay Urology", "HOSPITAL", C)],
             keep=("BPH",)),
    ],
    "locations:department:named_unit": [
        Case("Moved to the Wexford Chest Pain Unit.", [("Wexford Chest Pain Unit", "DEPARTMENT", C)]),
    ],
    "locations:organization:company": [
        Case("Husband drives for Acme Logistics Inc.",
             [("Acme Logistics Inc", "ORGANIZATION", C)],
             keep=("Husband",)),
    ],
    "locations:organization:university": [
        Case("A graduate of the University of Vermont.",
             [("University of Vermont", "ORGANIZATION", C)],
             keep=("graduate",)),
    ],
    "locations:organization:school": [
        Case("Teaches at Northgate Elementary School.",
             [("Northgate Elementary School", "ORGANIZATION", C)]),
    ],
    "locations:landmark": [
        Case("Fell near Bellwether Mall on ice.",
             [("Bellwether Mall", "LOCATION-OTHER", C)],
             keep=("ice",)),
    ],
    "locations:street_no_number": [
        Case("Walks on Maple Drive daily.", [("Maple Drive", "STREET", R)], keep=("daily",)),
    ],
    "locations:hospital:lower_case_word": [
        Case("Was transferred from Mt. Sinai hospital overnight.",
             [("Mt. Sinai hospital", "HOSPITAL", C)],
             keep=("overnight",)),
    ],
    "locations:place_context": [
        Case("She lives in Boston with her husband.", [("Boston", "CITY", C)], keep=("husband",)),
    ],
    "locations:place_context:code": [
        Case("Her sister lives in DC.", [("DC", "STATE", C)], keep=("sister",)),
    ],
    "locations:place_context:unknown": [
        Case("Relocating to Winooski next month.", [("Winooski", "CITY", C)], keep=("month",)),
    ],
    "locations:city_facility": [
        Case("Seen at our Boston clinic today.", [("Boston", "CITY", C)], keep=("clinic",)),
    ],
    "locations:city_country": [
        Case("Visiting family in Lisbon, Portugal.",
             [("Lisbon", "CITY", C), ("Portugal", "COUNTRY", C)],
             keep=("family",)),
    ],
    "locations:city_state_name": [
        Case("Moved to Boston, Massachusetts last year.",
             [("Boston", "CITY", C), ("Massachusetts", "STATE", C)]),
    ],
    "locations:facility_context": [
        Case("Transferred to Cedar Crest for rehab.", [("Cedar Crest", "HOSPITAL", C)], keep=("rehab",)),
        Case("Arrived from Halvorsen Pines; cx sent from LLE wound.",
             [("Halvorsen Pines", "HOSPITAL", C)], keep=("LLE", "wound")),
        Case("Admitted to Brightwater yesterday, then diuresed from LASIX drip.",
             [("Brightwater", "HOSPITAL", C)], keep=("LASIX", "drip")),
    ],
    "locations:at_capitalised": [
        Case("She volunteers at Riverbend twice a week.",
             [("Riverbend", "HOSPITAL", C)],
             keep=("week",)),
        Case("PICC at RUE; her daughter studies at Farrowgate.",
             [("Farrowgate", "HOSPITAL", C)], keep=("RUE", "PICC")),
        Case("NS @ KVO; she works at Tamarind Vale on weekends.",
             [("Tamarind Vale", "HOSPITAL", C)], keep=("KVO",)),
    ],
    "locations:care_chain": [
        Case("Home PT via Brightpath; O2 via Lincare, walker via Apria.",
             [("Lincare", "ORGANIZATION", C), ("Apria", "ORGANIZATION", C)], keep=("Brightpath", "walker")),
        Case("home health from amedisys twice weekly.", [("amedisys", "HOSPITAL", C)], keep=("weekly",)),
        Case("Dialysis MWF at DaVita; CVS: RRR, no murmur.", [("DaVita", "HOSPITAL", C)], keep=("CVS", "RRR")),
        Case("Please send the refill to CVS by the mall.", [("CVS", "ORGANIZATION", R)], keep=("mall",)),
    ],
    "locations:facility_short_name": [
        Case("Transferred from mercy hosp for a higher level of care.",
             [("mercy hosp", "HOSPITAL", R)], keep=("care",)),
        Case("PRIOR ADMIT AT GOOD SHEPHERD HOSP. IN MAY",
             [("GOOD SHEPHERD HOSP.", "HOSPITAL", C)], keep=("ADMIT",)),
        Case("After the county hospital she went to Saint Agnes Rehab.",
             [("Saint Agnes Rehab", "HOSPITAL", C)], keep=("county", "hospital")),
        Case("Seen by Mental Health; old records requested from mayo clinic.",
             [("mayo clinic", "HOSPITAL", R)], keep=("Mental", "records")),
    ],
    "locations:organisation_shape": [
        Case("Retired, was with UA Local 290 for years, lives alone.",
             [("UA Local 290", "ORGANIZATION", C)], keep=("years",)),
        Case("Son is in 2nd grade at Quarry Hollow Elementary School.",
             [("Quarry Hollow Elementary School", "ORGANIZATION", C)], keep=("grade",)),
        Case("Her pastor from Grace Fellowship Church visited; the fire department was called.",
             [("Grace Fellowship Church", "ORGANIZATION", C)], keep=("fire", "department")),
        Case("Volunteers with the Church of the Nazarene food bank; given a local anesthetic.",
             [("Church of the Nazarene", "ORGANIZATION", C)], keep=("local", "anesthetic")),
    ],
    "locations:street": [
        Case("Lives at 12 Elm Street with her son.", [("12 Elm Street", "STREET", C)], keep=("son",)),
    ],
    "locations:po_box": [
        Case("Mail to PO Box 4471, no visits.", [("PO Box 4471", "STREET", C)], keep=("visits",)),
    ],
    "locations:route": [
        Case("Accident on Route 9 this morning.", [("Route 9", "STREET", C)], keep=("Accident",)),
    ],
    "locations:street_lower": [
        Case("pt lives at 88 cutler rd with her son. no falls.",
             [("88 cutler rd", "STREET", R)],
             keep=("falls",)),
    ],
    "locations:city_state_zip": [
        Case("Moved to Springfield, IL 62704 last year.",
             [("Springfield", "CITY", C), ("IL", "STATE", C), ("62704", "ZIP", C)],
             keep=("year",)),
    ],
    "locations:zip_context": [
        Case("Zip code 94103 on the form.", [("94103", "ZIP", C)], keep=("form",)),
    ],
    "locations:city_zip": [
        Case("Chicago 60630 is where she lives.", [("Chicago", "CITY", C), ("60630", "ZIP", C)]),
    ],
    "locations:department:direction": [
        Case("Moved to 5 West after the cath.", [("5 West", "DEPARTMENT", C)], keep=("cath",)),
    ],
    "locations:department:ward": [
        Case("Admitted to Ward 7B overnight.", [("Ward 7B", "DEPARTMENT", C)], keep=("overnight",)),
    ],
    "locations:department:building_number_unit": [
        Case("Transferred to Ellison 12 MICU.", [("Ellison 12 MICU", "DEPARTMENT", C)]),
    ],
    "locations:department:building_number_room": [
        Case("Now on Blackwood 9, room 4.", [("Blackwood 9", "DEPARTMENT", C), ("4", "ROOM", C)]),
    ],
    "locations:department:after_room": [
        Case("Now in room 4, Ellison 12 after the move.",
             [("4", "ROOM", C), ("Ellison 12", "DEPARTMENT", C)],
             keep=("move",)),
    ],
    "locations:department:on_number_at": [
        Case("Pt was on Hale 5 at 0800 per report.", [("Hale 5", "DEPARTMENT", R)], keep=("report",)),
    ],
    "locations:organization:employer_context": [
        Case("She is employed by Quarry Hill.",
             [("Quarry Hill", "ORGANIZATION", C)],
             keep=("employed",)),
    ],
    "locations:organization:employer_label": [
        Case("Employer: Harbor Freightways", [("Harbor Freightways", "ORGANIZATION", C)]),
    ],
    "locations:saint_possessive": [
        Case("Chart from St. Mary's reviewed.", [("St. Mary's", "HOSPITAL", R)], keep=("Chart",)),
    ],
    "locations:room": [
        Case("Moved to Room 412 at noon.", [("412", "ROOM", C)], keep=("noon",)),
    ],
    "locations:ward_number": [
        Case("TRANSFERRED TO HARTWELL 4 LAST NIGHT.", [("HARTWELL", "DEPARTMENT", C)]),
        # a name that is medical vocabulary only as one eponym (Zollinger-Ellison) names a building
        Case("transferred to ellison 12 overnight, then changed to lasix 40.",
             [("ellison", "DEPARTMENT", C)], keep=("lasix", "40")),
    ],
    "locations:ward_number:weak_context": [
        Case("Per Tillbrook 3 RN, uo low.", [("Tillbrook", "DEPARTMENT", C)], keep=("uo",)),
        Case("pt to ellison 11 this am, weaned to 40%.", [("ellison", "DEPARTMENT", C)], keep=("weaned",)),
        Case("Pt back to Ellison 9 after IR; dose up to 2 tabs.", [("Ellison", "DEPARTMENT", C)], keep=("tabs",)),
    ],
    "locations:department:ward_after_on": [
        Case("CODED ON QUILLFEN 4 LAST WEEK.", [("QUILLFEN", "DEPARTMENT", R)]),
    ],
    "locations:facility_abbreviation": [
        Case("REFERRED TO SMH FOR DIALYSIS.", [("SMH", "HOSPITAL", C)], keep=("DIALYSIS",)),
    ],
    "locations:hospital:abbreviation_after_at": [
        Case("DIALYSIS IS DONE AT SMH.", [("SMH", "HOSPITAL", R)], keep=("DIALYSIS",)),
    ],
    "locations:hospital:abbreviation_staff": [
        Case("VISITED BY SMH NURSE ABOUT HOME CARE.", [("SMH", "HOSPITAL", R)], keep=("HOME CARE",)),
    ],
    "locations:department:ward_before_staff": [
        Case("DISPO: HARTWELL 4 WHEN BED READY.", [("HARTWELL", "DEPARTMENT", C)]),
    ],
    "locations:ward_number:same_note": [
        Case("TRANSFERRED TO HARTWELL 4. HARTWELL RN AWARE.",
             [("HARTWELL", "DEPARTMENT", C), ("HARTWELL", "DEPARTMENT", C)]),
    ],
    "locations:facility_abbreviation:same_note": [
        Case("REFERRED TO SMH. ARRIVED AT SMH AT 1400.",
             [("SMH", "HOSPITAL", C), ("SMH", "HOSPITAL", C)]),
    ],
    "locations:organization:university_place": [
        Case("Seen at U OF MD last week.", [("U OF MD", "ORGANIZATION", C)]),
    ],
    "locations:saint_after_transfer": [
        Case("PLAN TO GO TO ST. BRIGID IN AM.", [("ST. BRIGID", "HOSPITAL", C)]),
    ],
    "locations:our_lady": [
        Case("Transferred from Our Lady of Lourdes on Monday.",
             [("Our Lady of Lourdes", "HOSPITAL", C), ("Monday", "DATE", C)]),
    ],
    "locations:region": [
        Case("Son lives on the West Coast.", [("West Coast", "LOCATION-OTHER", C)], keep=("Son",)),
    ],
    "locations:hospital:campus": [
        Case("CT scan done on North Campus.", [("North", "HOSPITAL", C)], keep=("CT",)),
    ],
    "locations:place_context_lower": [
        Case("pt moved from boston last year, no family here.",
             [("boston", "CITY", C)],
             keep=("family",)),
    ],
    "locations:hospital_lower": [
        Case("pt seen at kettering valley medical center for a fall.",
             [("kettering valley medical center", "HOSPITAL", R)],
             keep=("fall",)),
    ],
    "locations:organization:lower_case": [
        Case("pt works at quarry hill pharmacy part time.",
             [("quarry hill pharmacy", "ORGANIZATION", R)],
             keep=("part time",)),
        Case("he works for northline logistics as a driver.",
             [("northline logistics", "ORGANIZATION", R), ("driver", "PROFESSION", C)], keep=("works",)),
        Case("wife employed by sable creek roofing since may.",
             [("sable creek roofing", "ORGANIZATION", R)], keep=("employed", "wife")),
    ],
    "locations:hospital:same_note": [
        Case("Came from Briarwood Hospital. Back at Briarwood by 3.",
             [("Briarwood Hospital", "HOSPITAL", C), ("Briarwood", "HOSPITAL", C)]),
    ],
    "locations:city_after": [
        Case("Lives at 2284 Granite Street, Bangor; INR 2.4.",
             [("2284 Granite Street", "STREET", C), ("Bangor", "CITY", C)],
             keep=("INR",)),
    ],
    "locations:state_after": [
        Case("Lives at 2284 Granite Street, Ohio; INR 2.4.",
             [("2284 Granite Street", "STREET", C), ("Ohio", "STATE", C)],
             keep=("INR",)),
    ],
    "locations:country_after": [
        Case("Treated at Mercy General Hospital, Portugal; INR 2.4.",
             [("Mercy General Hospital", "HOSPITAL", C), ("Portugal", "COUNTRY", C)],
             keep=("INR",)),
    ],
    # --- names ---
    "names:institution": [
        Case("Transferred to Johns Hopkins for a second opinion.",
             [("Johns Hopkins", "HOSPITAL", C)],
             keep=("opinion",)),
    ],
    "names:title": [
        Case("Seen by Dr. Anne Whitcombe today.", [("Anne Whitcombe", "DOCTOR", C)], keep=("today",)),
        Case("per Dr. Rimkaitis today", [("Rimkaitis", "DOCTOR", C)], keep=("today",)),
        Case("Mrs. Rimkaitis called back.", [("Rimkaitis", "PATIENT", C)], keep=("called",)),
        Case("DR. VALKENOSIS AWARE OF K 3.1", [("VALKENOSIS", "DOCTOR", C)], keep=("AWARE",)),
    ],
    "names:relation": [
        Case("His wife Mary called about the Foley catheter.",
             [("Mary", "PATIENT", C)],
             keep=("Foley",)),
    ],
    "names:label": [
        Case("Patient: Smith, stable.", [("Smith", "PATIENT", C)], keep=("stable",)),
        Case("Name: MENDOZA, RAFAEL ANTONIO", [("MENDOZA, RAFAEL ANTONIO", "PATIENT", C)], keep=("Name",)),
        Case("Pt: Adeyinka, F", [("Adeyinka, F", "PATIENT", C)], keep=("Pt",)),
        Case("Client: Lio Ferreira-Banks", [("Lio Ferreira-Banks", "PATIENT", C)], keep=("Client",)),
        Case("Pt seen by Foley this morning.", [("Foley", "DOCTOR", R)], keep=("morning",)),
        Case("Message left for Bill regarding results.", [("Bill", "PATIENT", R)], keep=("results",)),
    ],
    "names:credential": [
        Case("Note by Anne Whitcombe, MD.", [("Anne Whitcombe", "DOCTOR", C)]),
        Case("R. PELLAS PA AWARE", [("R. PELLAS", "DOCTOR", C)], keep=("AWARE",)),
        Case("CALLED JOHN LOW RN", [("JOHN LOW", "DOCTOR", C)], keep=("CALLED",)),
        Case("Kim Low, RN", [("Kim Low", "DOCTOR", C)]),
    ],
    "names:signature_initials": [
        Case("Tolerating diet.\n-- JS", [("JS", "DOCTOR", C)], keep=("diet",)),
    ],
    "names:initials_after": [
        Case("Transcribed by m.o.\nplan: wean", [("m.o.", "DOCTOR", C)], keep=("wean",)),
    ],
    "names:sign_off": [
        Case("labs pending thx-Oyelaran", [("Oyelaran", "DOCTOR", C)], keep=("labs",)),
    ],
    "names:head": [
        Case("Grimsby, Dmitri | MRN 5518830\nStable overnight.",
             [("Grimsby, Dmitri", "PATIENT", C), ("5518830", "MEDICALRECORD", C)]),
    ],
    "names:subject_of_age": [
        Case("Ines Moreau is a 42 yo line cook.",
             [("Ines Moreau", "PATIENT", C), ("line cook", "PROFESSION", C)]),
    ],
    "names:service_contact": [
        Case("Neurosurgery (Okwu) to see today.", [("Okwu", "DOCTOR", R)], keep=("Neurosurgery",)),
    ],
    "names:role_in_brackets": [
        Case("IMKE VANTERPOOL (DAUGHTER) CALLED.", [("IMKE VANTERPOOL", "PATIENT", C)]),
    ],
    "names:capitalised": [
        Case("At this time, Radka wishes to go home.", [("Radka", "PATIENT", C)], keep=("home",)),
    ],
    "names:family_name": [
        Case("Met with the Lindqvist family today.", [("Lindqvist", "PATIENT", C)], keep=("family",)),
    ],
    "names:last_first": [
        Case("Lab comment for Wexley, Cornelius (MRN 3206731).",
             [("Wexley, Cornelius", "PATIENT", C), ("3206731", "MEDICALRECORD", C)],
             keep=("Lab",)),
    ],
    "names:given": [
        Case("Maria Okonkwo came with her son.", [("Maria Okonkwo", "PATIENT", R)], keep=("son",)),
    ],
    "names:initial": [
        Case("J. Smith adjusted the drip.", [("J. Smith", "PATIENT", C)], keep=("drip",)),
    ],
    "names:accented_capitalised": [
        Case("Spoke with Krisztián Szöllösy about the plan.",
             [("Krisztián Szöllösy", "PATIENT", R)],
             keep=("plan",)),
    ],
    "names:surname_list": [
        Case("Voicemail for Parkinson, will call back.", [("Parkinson", "PATIENT", R)]),
    ],
    "names:given_list": [
        Case("Jamie came in with her mother.", [("Jamie", "PATIENT", C)], keep=("mother",)),
    ],
    "names:relation_list": [
        Case("Daughters Lulu, Frances and Gwen at bedside.",
             [("Lulu", "PATIENT", C), ("Frances", "PATIENT", C), ("Gwen", "PATIENT", C)],
             keep=("Daughters", "bedside")),
        Case("SONS TEODOR & MIKAEL CALLED", [("TEODOR", "PATIENT", C), ("MIKAEL", "PATIENT", C)],
             keep=("SONS",)),
        Case("Grandchildren Tobiah, Wrenna, and Caspian visited.",
             [("Tobiah", "PATIENT", C), ("Wrenna", "PATIENT", C), ("Caspian", "PATIENT", C)]),
    ],
    "names:quoted_nickname": [
        Case('Patient: Reed, Thomas ("Tom") seen today.',
             [("Reed, Thomas", "PATIENT", C), ("Tom", "PATIENT", C)], keep=("seen",)),
        Case('Robert aka "Bobby" Szabo called.',
             [("Robert", "PATIENT", C), ("Bobby", "PATIENT", C), ("Szabo", "PATIENT", C)], keep=("aka",)),
        Case('PT MARCUS LYLE ("MOOSE") AWAKE', [("MARCUS LYLE", "PATIENT", C), ("MOOSE", "PATIENT", C)],
             keep=("AWAKE",)),
        Case('son "danny" called', [("danny", "PATIENT", C)], keep=("son",)),
    ],
    "names:coordinated": [
        Case("Family meeting held with Margaret and Bram today.",
             [("Margaret", "PATIENT", C), ("Bram", "PATIENT", C)],
             keep=("meeting",)),
    ],
    "names:document_consistency": [
        Case("DR VOSSBERG AWARE.\nVOSSBERG AT BEDSIDE.",
             [("VOSSBERG", "DOCTOR", C), ("VOSSBERG", "DOCTOR", C)]),
    ],
    "names:username_from_name": [
        Case("Gideon W. Asamoah-Brandt, MD (gasamoahb)",
             [("Gideon W. Asamoah-Brandt", "DOCTOR", C), ("gasamoahb", "USERNAME", C)]),
    ],
    # --- professions ---
    "professions:list": [
        Case("He works as a welder, retired last year.", [("welder", "PROFESSION", C)]),
    ],
    "professions:after": [
        Case("She is a retired tugboat dispatcher.", [("tugboat dispatcher", "PROFESSION", C)]),
    ],
    # --- known ---
    "known:name": [
        Case("Seen with SMITH, JOHN today.",
             [("SMITH, JOHN", "PATIENT", C)],
             keep=("today",),
             known={"names": ["John Smith"]}),
    ],
    "known:name_part": [
        Case("Smith was seen today.",
             [("Smith", "PATIENT", C)],
             keep=("today",),
             known={"names": ["John Smith"]}),
    ],
    "known:name_part_lowercase": [
        Case("will mark the site; John Mark Smith agreed.",
             [("mark", "PATIENT", R), ("John Mark Smith", "PATIENT", C)],
             keep=("site",),
             known={"names": ["John Mark Smith"]}),
    ],
    "known:name_part_eponym": [
        Case("Foley catheter placed for Ann Foley.",
             [("Foley", "PATIENT", R), ("Ann Foley", "PATIENT", C)],
             keep=("catheter",),
             known={"names": ["Ann Foley"]}),
    ],
    "known:initials": [
        Case("Pt JS resting, plan unchanged.",
             [("JS", "PATIENT", R)],
             keep=("plan",),
             known={"names": ["John Smith"]}),
    ],
    "known:mrn": [
        Case("Chart 0045-2231 reviewed.",
             [("0045-2231", "MEDICALRECORD", C)],
             keep=("reviewed",),
             known={"mrns": ["452231"]}),
    ],
    "known:address": [
        Case("Lives at 12 Elm St with her son.",
             [("12 Elm St", "STREET", C)],
             keep=("son",),
             known={"addresses": ["12 Elm Street, Springfield, IL 62704"]}),
    ],
    "known:address_city": [
        Case("Moving back to springfield soon, then SPRINGFIELD clinic.",
             [("SPRINGFIELD", "CITY", C)],
             keep=("clinic",),
             known={"addresses": ["12 Elm Street, Springfield, IL 62704"]}),
    ],
    "known:address_state": [
        Case("Family in Illinois will visit.",
             [("Illinois", "STATE", C)],
             keep=("visit",),
             known={"addresses": ["12 Elm Street, Springfield, IL 62704"]}),
    ],
    "known:address_zip": [
        Case("Form lists 62704 as the zip.",
             [("62704", "ZIP", C)],
             keep=("Form",),
             known={"addresses": ["12 Elm Street, Springfield, IL 62704"]}),
    ],
    "known:birth_date": [
        Case("Born 2 Mar 1950 per chart.",
             [("2 Mar 1950", "DATE", C)],
             keep=("chart",),
             known={"birth_dates": ["1950-03-02"]}),
    ],
    # --- dates ---
    "dates:whole_date": [
        Case("Seen 3 / 5 / 2014 by cardiology.", [("3 / 5 / 2014", "DATE", R)], keep=("cardiology",)),
    ],
    # --- ids ---
    "ids:repeat_of_certain": [
        Case("MRN: 4471203. Specimen ref4471203x sent.",
             [("4471203", "MEDICALRECORD", C), ("ref4471203x", "IDNUM", C)],
             keep=("Specimen",)),
    ],
    # --- contact ---
    "contact:repeat_of_certain": [
        Case("Call 617-555-0142; left msg Dr.617-555-0142 tonight.",
             [("617-555-0142", "PHONE", C), ("617-555-0142", "PHONE", C)],
             keep=("tonight",)),
    ],
}
