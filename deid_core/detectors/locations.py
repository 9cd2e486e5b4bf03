"""LOCATION detector: street addresses, cities, states, ZIP codes, countries, hospitals,
organisations, rooms, departments and landmarks, by pattern, word list and context.

Finds (source ``locations:<rule>``):

* ``street`` (STREET, certain): number + capitalised street name + suffix + optional unit, also
  across a line break (``12 Elm Street\\nApt 3``, ``800 Orange Street, 4th Floor``); ``po_box``;
  ``route`` (``Route 9``); ``street_no_number`` (review): ``Elm Street``; ``street_lower``
  (review, lower-case notes only): ``88 cutler st``.
* ``city_state_zip`` / ``city_state_name``: ``Springfield, IL 62704``, ``Boston, MA 02118-1234``,
  ``Boston, Massachusetts``. Certain when the city/state pair is in the place list or a ZIP
  follows; an unknown city before an unambiguous abbreviation is review; nothing for
  abbreviations that are also clinical or credential words (``Smith, MD``, ``Head, CT``).
  ``city_zip`` (``Chicago 60630``), ``city_country`` (``Lisbon, Portugal``), ``city_after``
  (``2284 Granite Street, Bangor``; ``Maple Court Nursing Home, Dayton``).
* ``place_context``: a city, state or country after a context word. Residence and travel words
  (``lives in``, ``moved to``, ``born in``) make it certain; a bare preposition (``in``, ``to``,
  ``at``) is certain only for multi-word or large (>= 100,000) cities, states and countries.
  Place names that are ordinary words (``Mobile``, ``Buffalo``, ``Orange``) or given names
  (``Charlotte``, ``Chad``) are review at best. An unknown capitalised place after a residence
  word is review (``relocating to Winooski``).
* ``zip_context``: ``zip code 94103``.
* ``hospital`` (HOSPITAL): capitalised words ending with a hospital word (``Mercy General
  Hospital``, ``St. Luke's Medical Center``, ``Lakeside Clinic``), certain unless every name word
  is generic (``General Hospital``: review; ``Cardiology Clinic``: nothing). ``practice``:
  a distinctive name before a specialty (``Cobalt Bay Urology``, ``Mill Pond Primary Care``).
  ``saint_possessive`` (review): ``St. Jude's``. ``facility_context`` and ``at_capitalised``
  (review): capitalised words after ``seen at``, ``admitted to``, ``at`` (``Cedar Crest``).
* ``organization`` (ORGANIZATION): company and business suffixes (``Acme Logistics Inc``,
  ``Quarry Hill Pharmacy``), schools and universities, employer context (``works at ...``).
* ``room`` (ROOM): the identifier after ``Room``/``Rm``/``Bed``/``Bay``/``Suite``/``Chair``/``Pod``
  (``Room 412`` gives ``412``; ``room ED-14``), ``OR 7``.
* ``department`` (DEPARTMENT): ``5 West``, ``Glenview 5 West``, ``Ward 7B``, ``Ellison 12 MICU``,
  ``Blackwood 9`` before a room, ``Wexford Chest Pain Unit``, ``Ferris Digestive Health Pavilion``.
* ``landmark`` (LOCATION-OTHER): ``Bellwether Mall``, ``Kettle Pond State Park``, ``Lucky Peak Dam``.

Not PHI here: ``the hospital``, ``ICU``, ``ED``, ``OR`` alone, ``IN 2 weeks``, ``Orange juice``,
``Glasgow Coma Scale``, ``St. John's wort``, ``room air``, ``POD 1``, plain ``cardiology``.

Word lists (``deid_core.lists``): ``us_places()``, ``us_states()``, ``countries()``,
``given_names()``, ``handwritten("hospital_words" | "departments" | "street_suffixes")``. A small
built-in core of each hand-written list below keeps the detector working where a list file is
absent; the files extend it. List-dependent regexes are compiled once, on the first call.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from .. import lists
from ..document import Document
from ..spans import CERTAIN, REVIEW, Span

# --------------------------------------------------------------------------------------------
# Data: built-in cores of the hand-written lists, context words and collision sets.
# --------------------------------------------------------------------------------------------

#: Street suffixes (lower-case). Extended by ``handwritten("street_suffixes")``.
STREET_SUFFIXES_CORE = frozenset("""
street st avenue ave av road rd boulevard blvd lane ln drive dr way court ct place pl terrace ter
highway hwy parkway pkwy circle cir square sq trail trl turnpike tpke alley row crescent plaza
expressway expy freeway route rte pike loop path walk run crossing xing ridge heights
""".split())

#: Full-word street suffixes that may follow a street name without a house number (review).
STREET_SUFFIX_WORDS = ("Street", "Avenue", "Road", "Boulevard", "Lane", "Drive", "Terrace",
                       "Parkway", "Highway", "Court", "Place")

#: Upper-case suffix abbreviations that are clinical words in capitals (``Head CT``, ``PL``).
_SUFFIX_CAPS_EXCLUDED = frozenset({"CT", "PL", "PT", "CIR", "RUN", "WALK", "PATH", "POINT", "ROW",
                                   "LOOP", "TER", "SQ", "AV", "WAY", "RIDGE", "RTE", "CV", "ALY"})

#: Words that end a hospital or clinic name (lower-case). Extended by
#: ``handwritten("hospital_words")``.
HOSPITAL_WORDS_CORE = frozenset({
    "hospital", "hospitals", "hosp", "medical center", "medical centre", "med center", "med ctr",
    "med. center", "med. ctr", "medical ctr", "health center", "health centre", "health system",
    "healthcare", "health care", "health", "clinic", "clinics", "infirmary", "sanatorium",
    "hospice", "hospice house", "nursing home", "nursing facility", "nursing center",
    "skilled nursing", "nursing and rehabilitation", "rehabilitation center",
    "rehabilitation hospital", "rehab center", "rehab", "care center", "medical group",
    "surgical center", "surgery center", "cancer center", "heart center", "heart institute",
    "institute", "memorial", "general", "gen", "center", "centre", "children's",
    "senior center", "assisted living", "urgent care", "manor", "va", "vamc",
    "va medical center", "health sciences center", "medical campus", "birthing center",
    "patient service center",
})

#: Single hospital words that also start other phrases (``General Appearance``): they end a
#: name only when no capitalised word follows.
_WEAK_HOSPITAL_WORDS = frozenset({"general", "gen", "health", "center", "centre", "memorial",
                                  "institute", "va", "manor", "children's", "rehab", "healthcare"})

#: Specialties and practice words that, after a distinctive name, make a practice's name
#: (``Cobalt Bay Urology``, ``Westbrook Family Medicine``). Extended by the non-ward entries
#: of ``handwritten("departments")``.
PRACTICE_WORDS_CORE = frozenset({
    "pediatrics", "family medicine", "family practice", "internal medicine", "primary care",
    "urology", "orthopedics", "orthopaedics", "dermatology", "cardiology", "oncology",
    "gastroenterology", "neurology", "ob/gyn", "obgyn", "women's health", "family health",
    "spine and sports", "spine & sports", "allergy and asthma", "allergy & asthma",
    "heart and vascular", "heart & vascular", "physical therapy", "eye care", "eye associates",
    "dental", "dentistry", "chiropractic", "associates", "medical associates", "physicians",
    "medical practice", "surgery", "surgeons", "imaging", "radiology", "dialysis",
    "behavioral health associates", "psychiatry", "ophthalmology", "optometry", "audiology",
    "podiatry", "endocrinology", "nephrology", "pulmonology", "rheumatology", "ent",
})

#: Department entries that name a ward rather than a specialty (used as unit words).
DEPARTMENT_UNIT_WORDS_CORE = frozenset({
    "unit", "icu", "micu", "sicu", "ccu", "cicu", "cvicu", "nicu", "picu", "ticu", "nsicu",
    "pavilion", "building", "wing", "tower", "suite", "program", "ward", "intensive care unit",
    "step-down unit", "burn unit", "newborn intensive care unit", "neonatal intensive care unit",
    "telemetry unit",
})

#: Generic service and department words: a facility "name" made only of these is no name
#: (``Cardiology Clinic``, ``Pain Clinic``, ``Mental Health``, ``Chest Pain Unit``). Extended by
#: the words of ``handwritten("departments")``.
GENERIC_SERVICE_WORDS = frozenset("""
cardiology cardiac heart oncology cancer hematology pain anticoagulation coumadin warfarin diabetes
diabetic endocrine endocrinology memory sleep wound care primary family internal medicine medical
pediatric pediatrics peds surgery surgical surgeons orthopedic orthopedics ortho neurology neuro
neurosurgery psychiatry psychiatric psych behavioral mental health public home occupational student
employee women's womens men's mens kids infusion dialysis renal nephrology kidney transplant liver
hepatology gi gastroenterology pulmonary pulmonology lung chest thoracic vascular urology urologic
dermatology derm skin eye ophthalmology optometry ent ear nose throat allergy immunology
rheumatology infectious disease id hiv tb std sti travel vaccine vaccination immunization walk-in
walk free outpatient inpatient ambulatory urgent emergency trauma burn stroke spine sports
rehabilitation rehab physical speech therapy respiratory imaging radiology x-ray mri
ct lab laboratory pathology blood donor transfusion genetics genetic prenatal obstetric obstetrics
ob gyn ob-gyn obgyn gynecology maternity fertility ivf breast bone joint foot podiatry hand plastic
weight bariatric nutrition lipid hypertension heart-failure failure arrhythmia device pacemaker
coagulation thrombosis vein smoking cessation addiction substance recovery methadone detox
geriatric geriatrics senior palliative hospice comfort continuing follow-up followup follow
discharge preop pre-op preoperative postop post-op procedure procedures endoscopy colonoscopy
cath catheterization echo ecg ekg eeg emg pft nuclear stress hearing audiology dental oral
maxillofacial community general memorial university regional county city state veterans veteran
national federal children's childrens children medical clinic clinics center centre hospital
health healthcare unit service services department dept division program team
day night weekend after-hours evening express minute retail teaching academic main central north
south east west downtown local nearby outside new old previous prior current same other another
attorney surgeon major brigadier lieutenant secretary inspector consul review systems exam
physical constitutional appearance impression assessment plan history bedside home term risk
baseline room floor bed ward icu micu sicu ccu night noon midnight rest times least most first
last all present bedtime hs work school church goal onset admission discharge time
survivorship mother baby newborn nursery maternal fetal maternal-fetal observation short stay
clinical decision transitional acute subacute progressive intermediate special marrow stem cell
coronary cardiothoracic neuroscience epilepsy monitoring chemo chemotherapy geri post-anesthesia
holding electrophysiology ep eps apheresis bank intensive critical step-down stepdown telemetry
tele digestive movement disorders disorder management loss residency fellowship research study
trial grade stage type class level phase cycle step zone lead group specialty retail mail-order
compounding reference illicit street recreational prescription answering scheduling billing
financial patient patients nurse nursing nurses physician physicians provider providers doctor
doctors pharmacy pharmacist visiting anesthesia anesthesiology labor delivery postpartum
antepartum birthing pcp pediatrician midwife midwifery wellness integrative functional
""".split())

#: Generic words that, alone, still look like an institution (``General Hospital``,
#: ``City Hospital``): such a name gives review instead of nothing.
GENERIC_INSTITUTION_WORDS = frozenset("""
general memorial university regional county city state veterans veteran community national
children's childrens children central main downtown teaching academic
""".split())

#: Acronyms that are services or clinical words, never a facility name (``ENT Clinic``).
GENERIC_ACRONYMS = frozenset("""
ENT GI ID HIV TB STD STI ICU MICU SICU CCU CICU NICU PICU ED ER OR PACU OB GYN OBGYN PCP HF CHF COPD
CF MS ALS IBD PT OT ST MRI CT EKG ECG EEG EMG PFT VA DM CKD ESRD ICD LVAD IR NP PA MD RN LPN
OD OS OU SNF LTAC LTACH ALF IRF NH HH ICF EP EPS IV US UA CBC BMP CMP INR PCA PICC AM PM
""".split())

#: Stop words: a capitalised run's candidate name starts after the last of these.
_LEADING_STOP = frozenset("""
the our a an at in to from call contact see seen visit visited follow return per via with and or by
for please refer referred discharged transferred admitted patient pt he she his her this that these
those outside local nearby previous prior current he's she's was is has had will then also
if when while after before since until on of as up down out over go went going
consult consulted appreciate recommend recommended discussed called paged notified spoke d/w defer
deferred request requested needs need schedule scheduled arrange arranged obtain obtained order
ordered start started continue continued check checked cleared signed evaluated ask asked inform
informed plan admit admitting disposition dispo location loc unit floor dept department from:
to: cc: re: attn
""".split())

#: Titles, months and weekdays: a run starting with one is a name or a date, not a facility.
_NOT_FACILITY_FIRST = frozenset("""
dr dr. doctor mr mrs ms miss mx prof professor rev nurse
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
today tomorrow yesterday tonight christmas thanksgiving easter
""".split())

#: Ward words that, with a number or letter, name a unit (``Ward 7B``, ``MICU 3``).
WARD_WORDS = ("Ward", "WARD", "ward", "Unit", "UNIT", "Wing", "WING", "Tower", "TOWER", "Pavilion",
              "PAVILION", "Floor", "FLOOR", "MICU", "SICU", "CCU", "CICU", "CVICU", "NICU", "PICU",
              "TICU", "NSICU", "NeuroICU", "ICU")

#: Company suffixes: certain after any non-generic name.
_COMPANY_SUFFIXES = (
    "Inc", "LLC", "L.L.C", "Corp", "Corporation", "Ltd", "LLP", "PLLC", "GmbH", "Company", "Co",
    "Industries", "Enterprises", "Holdings", "Logistics", "Pharmacy", "Pharmacies", "Apothecary",
    "Drug", "Drugs", "Laboratories", "Laboratory", "Labs", "Bakery", "Bistro", "Cantina",
    "Restaurant", "Cafe", "Café", "Diner", "Grill", "Courier", "Ambulance", "Consultants",
    "Alliance", "Mutual", "Association", "Visiting Nurses", "Visiting Nurse Association",
    "Home Care", "Home Health", "Insurance", "Bank", "Credit Union", "Foundation", "Agency",
    "Airlines", "Motors", "Construction", "Farms", "Foods", "Market", "Supermarket", "Warehouse",
    "Trucking", "Transit", "Answering Service", "Partnership",
)
_COMPANY_SUFFIXES_UPPER = tuple(s.upper() for s in _COMPANY_SUFFIXES if len(s) > 3)

#: School and university words.
_SCHOOL_WORDS = ("University", "College", "Community College", "High School", "Middle School",
                 "Elementary School", "Elementary", "Junior High", "Academy", "School",
                 "Institute of Technology", "Seminary", "School District",
                 "Unified School District")

#: Landmark words (LOCATION-OTHER) after a distinctive name.
_LANDMARK_WORDS = ("Mall", "State Park", "National Park", "Park", "Reservoir", "Dam", "Fairgrounds",
                   "Golf Club", "Country Club", "Golf Course", "Stadium", "Arena", "Airport",
                   "Bus Station", "Train Station", "Station", "Campground", "Marina", "Beach",
                   "Library", "Zoo", "Museum", "Casino", "Shopping Center", "Ski Area", "Resort",
                   "Trailhead", "Church", "Cathedral", "Mosque", "Synagogue", "YMCA", "Shelter")

#: Place names that are ordinary words in notes (``Mobile unit``, ``Orange juice``): never
#: certain, only review after a residence word.
PLACE_COMMON_WORDS = frozenset("""
mobile buffalo orange normal reading independence surprise liberty union hope eagle commerce
enterprise mission industry paradise sunrise university college center centre valley park
beach lake river spring springs bay harbor harbour garden gardens plains plain lakes pines
temple riverside stanford home bend mentor sandy vista delta american fort national west east
north south central midland highland hollywood corona golden green crystal holiday imperial
prosper humble converse pace bear savage plum badger walker derby pearl laurel sterling fountain
vineyard brick sparks flint marina alamo woodland overland vestal revere rye dyer winder granger
banning wheeling boardman garner mesa clay bell
""".split())

#: Common short forms of large cities: alias -> (list name, state).
PLACE_ALIASES = {"nyc": ("new york city", "NY"), "philly": ("philadelphia", "PA"),
                 "san fran": ("san francisco", "CA")}

#: Country names as people write them, beside the list's official names.
COUNTRY_ALIASES = frozenset({
    "bosnia", "herzegovina", "czech republic", "congo", "burma", "korea", "macedonia",
    "palestine", "netherlands", "holland", "england", "scotland", "wales", "northern ireland",
    "great britain", "britain", "usa", "u.s.a.", "the philippines", "philippines", "the bahamas",
    "the gambia", "east timor", "cape verde", "swaziland", "the uk", "the us",
})

#: States and countries that are also given names or common words: review unless a residence
#: word precedes them.
PLACE_NAME_COLLISIONS = frozenset({
    "georgia", "virginia", "washington", "montana", "indiana", "dakota", "carolina", "florida",
    "nevada", "chad", "jordan", "india", "israel", "turkey", "guinea", "niger", "mali", "peru",
    "cuba", "china", "jersey", "victoria", "lebanon", "chile", "oman", "togo", "england",
})

#: Ambiguous two-letter state abbreviations: clinical, credential or ordinary words in capitals.
_AMBIGUOUS_STATE_ABBR = frozenset({
    "MD", "PA", "CT", "MS", "OR", "IN", "ME", "MA", "DE", "SC", "GA", "LA", "AR", "VA", "CO", "ID",
    "OK", "HI", "AL", "NE", "MO", "MT", "ND", "SD", "NC", "WA", "OH", "PR", "IA", "UT", "NV", "WV",
    "AS", "MI", "GU", "VI",
})

#: Credential abbreviations that are also states: ``Smith, MD`` is a doctor, not Maryland.
_CREDENTIAL_ABBR = frozenset({"MD", "PA", "MS", "DO"})

#: Built-in state names -> abbreviation (used where ``lists.us_states()`` is absent).
US_STATES_CORE = {
    "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA",
    "colorado": "CO", "connecticut": "CT", "delaware": "DE", "district of columbia": "DC",
    "florida": "FL", "georgia": "GA", "hawaii": "HI", "idaho": "ID", "illinois": "IL",
    "indiana": "IN", "iowa": "IA", "kansas": "KS", "kentucky": "KY", "louisiana": "LA",
    "maine": "ME", "maryland": "MD", "massachusetts": "MA", "michigan": "MI", "minnesota": "MN",
    "mississippi": "MS", "missouri": "MO", "montana": "MT", "nebraska": "NE", "nevada": "NV",
    "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY",
    "north carolina": "NC", "north dakota": "ND", "ohio": "OH", "oklahoma": "OK", "oregon": "OR",
    "pennsylvania": "PA", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD",
    "tennessee": "TN", "texas": "TX", "utah": "UT", "vermont": "VT", "virginia": "VA",
    "washington": "WA", "west virginia": "WV", "wisconsin": "WI", "wyoming": "WY",
    "puerto rico": "PR", "guam": "GU",
}

#: Residence and travel words: a place after one of these is certain.
_STRONG_CONTEXT = frozenset("""
lives living lived resides residing resided resident native born raised grew moved moving
relocated relocating immigrated emigrated traveled travelled traveling travelling returned
returning vacationing vacation vacationed visiting trip originally fled deployed stationed
hometown flying flew headed heading from
""".split())

#: Large-city threshold for a bare preposition (``in Dallas``): population.
_BIG_CITY = 100_000

# --------------------------------------------------------------------------------------------
# Shared regex pieces (plain strings; compiled below or in _tables()).
# --------------------------------------------------------------------------------------------

_UP = "A-ZÀ-ÖØ-Þ"
#: A capitalised word: Title case or capitals, with internal apostrophes and hyphens, or one of
#: a few abbreviations with a period (``St.``, ``Mt.``, ``Med.``).
_CAPW = (rf"(?:(?:St|ST|Mt|MT|Ft|FT|Med|MED|Gen|GEN|Univ|UNIV|Hosp|HOSP|Ctr|CTR)\.|"
         rf"[{_UP}][^\W_]*(?:['’][^\W_]+)*(?:-[^\W_]+(?:['’][^\W_]+)*)*(?:['’]s?)?)")
#: Between words of a name: spaces, ``and``, ``&``, ``of``, ``for`` (no line break).
_CONNECT = r"(?:[ \t]+(?:and|&|of|for|de|del|la|du|van|von)[ \t]+|[ \t]*&[ \t]*|[ \t]+)"
#: A run of up to six capitalised words.
_NAMERUN = rf"{_CAPW}(?:{_CONNECT}{_CAPW}){{0,5}}"
_SHORTRUN = rf"{_CAPW}(?:[ \t]+{_CAPW}){{0,2}}"
_PLACERUN = rf"{_CAPW}(?:[ \t]+{_CAPW}){{0,3}}"
_SP = r"[ \t]+"
#: Spaces, or one line break with spaces around it.
_GAP = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
_DIRECTION = r"(?:North|South|East|West|NORTH|SOUTH|EAST|WEST)"


def _case_forms(phrases: Iterable[str]) -> set[str]:
    """Each lower-case phrase in Title case (``children's hospital`` -> ``Children's Hospital``)
    and in capitals; acronyms (``icu``, ``snf``) in capitals only."""
    out = set()
    for p in phrases:
        if p in _ACRONYM_WORDS:
            out.add(p.upper())
            continue
        out.add(" ".join(w if w in ("and", "of", "for", "&") else w[:1].upper() + w[1:]
                         for w in p.split()))
        out.add(p.upper())
    return out


_ACRONYM_WORDS = frozenset({"icu", "micu", "sicu", "ccu", "cicu", "cvicu", "nicu", "picu", "ticu",
                            "nsicu", "snf", "va", "vamc", "ent", "ob/gyn", "obgyn", "ed", "er", "or",
                            "pacu"})


def _alt(words: Iterable[str], gap: str = _GAP) -> str:
    """Regex alternation of literal phrases, longest first, a space inside a phrase matching ``gap``."""
    parts = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(gap.join(re.escape(p) for p in w.split()) for w in parts)


# Patterns that do not depend on lists: compiled at import.

#: After a ward or room number, a duration or quantity word means it is not a place
#: (``in ICU 3 days``, ``head of bed 30 degrees``).
_NOT_AFTER_NUMBER = (r"(?![ \t]*(?i:days?\b|d\b|nights?|hours?|hrs?|h\b|weeks?|wks?|months?|mos?\b|"
                     r"years?|yrs?|x\b|times|min\b|minutes?|mg\b|units?|doses?|degrees?|deg\b|°|%))")
_PO_BOX_RE = re.compile(
    r"(?<![\w])(?i:p\.?[ \t]?o\.?[ \t]*box|post[ \t]+office[ \t]+box)[ \t]*#?[ \t]*\d{1,7}(?!\w)")
_ROUTE_RE = re.compile(
    r"(?<![\w])(?:Route|ROUTE|Rte\.?|Highway|HIGHWAY|Hwy\.?|Interstate|State Route|US Route)"
    r"[ \t]+\d{1,3}[A-Z]?(?![\w])")
_ROOM_ID = r"[A-Za-z]{1,3}-\d{1,4}[A-Za-z]?|\d{1,4}[A-Za-z]?(?:-[A-Za-z0-9]{1,4})?|[A-HJ-Z](?:-?\d{1,3})?"
_ROOM_RE = re.compile(
    rf"(?<![\w])(?P<kw>(?i:room|rm\.?|bed|bay|suite|ste\.?|chair|cubicle|stretcher)|Pod|POD"
    rf"|OR)[ \t]*(?:#|(?i:no\.?|number))?[ \t]*:?[ \t]*(?:\r?\n[ \t]*)?(?P<id>{_ROOM_ID})(?![\w])"
    + _NOT_AFTER_NUMBER)
_DEPT_DIR_RE = re.compile(
    rf"(?<![\w/.])(?:(?P<name>{_SHORTRUN})[ \t]+)?(?P<core>\d{{1,2}}[A-Z]?[ \t]?{_DIRECTION})(?![\w])")
_DEPT_WARD_RE = re.compile(
    rf"(?<![\w])(?:(?P<name>{_SHORTRUN})[ \t]+)?(?P<core>(?:{_alt(WARD_WORDS, _SP)})[ \t]*#?[ \t]*"
    rf"(?:\d{{1,2}}[A-Z]?|[A-Z]\d{{0,2}})(?:[ \t]?{_DIRECTION})?)(?![\w]){_NOT_AFTER_NUMBER}")
_DEPT_NUMBER_UNIT_RE = re.compile(
    rf"(?<![\w])(?P<name>{_SHORTRUN})[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]+(?:[A-Za-z-]+[ \t]+){{0,2}}"
    rf"(?:ICU|MICU|SICU|CCU|CICU|NICU|PICU|Unit|unit|Ward|ward|Floor|floor)(?![\w]))")
_DEPT_BEFORE_ROOM_RE = re.compile(
    rf"(?<![\w])(?P<name>{_SHORTRUN}|[a-z]{{3,}})[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]?{_DIRECTION})?"
    rf"(?=[ \t]*,?[ \t]*(?i:rm|room|bed)\b)")
_DEPT_AFTER_ROOM_RE = re.compile(
    rf"(?<![\w])(?i:bed|room|rm)[ \t]*#?[ \t]*[A-Za-z0-9-]{{1,6}},[ \t]*(?P<d>(?P<name>{_SHORTRUN})"
    rf"[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]?{_DIRECTION})?)(?![\w])")
_DEPT_ON_AT_RE = re.compile(
    rf"(?<![\w])(?:on|to|from)[ \t]+(?P<d>(?P<name>{_CAPW})[ \t]+\d{{1,2}}[A-Z]?)(?=[ \t]+at[ \t]+\d{{3,4}})")
_SAINT_RE = re.compile(
    r"(?<![\w])(?:St\.?|Saint|ST\.?|SAINT)[ \t]+[A-Z][A-Za-z]+(?:'s|’s|'S|’S)"
    r"(?![ \t]+(?i:wort|day|dance|disease|fire))")
_ZIP_CONTEXT_RE = re.compile(
    r"(?i:zip(?:[ \t]*code)?|postal[ \t]+code)[ \t]*(?:#|:|is)?[ \t]*(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")
_ORG_CONTEXT_RE = re.compile(
    rf"(?<![\w])(?i:works?|working|worked|employed|employee|job|retired|volunteers?|volunteering)"
    rf"[ \t]+(?:(?i:full|part)[- ]time[ \t]+)?(?:(?i:as)[ \t]+(?:an?[ \t]+)?[a-z-]+(?:[ \t]+[a-z-]+){{0,2}}[ \t]+)?"
    rf"(?i:at|for|by|with|from)(?:[ \t]+|[ \t]*\r?\n[ \t]*)(?:the[ \t]+)?(?P<o>{_NAMERUN})")
_ORG_LABEL_RE = re.compile(
    rf"(?<![\w])(?i:employer|company|school|workplace|place[ \t]+of[ \t]+employment|agency)[ \t]*:[ \t]*"
    rf"(?:the[ \t]+)?(?P<o>{_NAMERUN})")
_UNIVERSITY_OF_RE = re.compile(
    rf"(?<![\w])(?:University|UNIVERSITY|College|COLLEGE)[ \t]+(?:of|OF)[ \t]+(?:the[ \t]+)?"
    rf"{_CAPW}(?:[ \t]+{_CAPW}){{0,2}}")
_SCHOOL_RE = re.compile(
    rf"(?<![\w])(?P<name>{_NAMERUN})[ \t]+(?P<kw>{_alt(_SCHOOL_WORDS)})(?![\w])")
_COMPANY_RE = re.compile(
    rf"(?<![\w])(?P<name>{_NAMERUN}),?{_GAP}(?P<kw>{_alt(_COMPANY_SUFFIXES + _COMPANY_SUFFIXES_UPPER)})"
    rf"(?![\w])")
#: Company words that also start other phrases (``Drug: warfarin``, ``Drug Screen``).
_COMPANY_WEAK = frozenset({"Drug", "Drugs", "Co", "Market", "Bank", "Agency", "Company", "DRUG",
                           "DRUGS", "MARKET", "BANK", "AGENCY", "COMPANY"})
_LANDMARK_RE = re.compile(
    rf"(?<![\w])(?P<name>{_NAMERUN}){_GAP}(?P<kw>{_alt(_LANDMARK_WORDS)})(?![\w])"
    rf"(?:{_GAP}(?:boat[ \t]+launch|parking[ \t]+lot|trailhead|entrance))?")
_FACILITY_CONTEXT_RE = re.compile(
    rf"(?<![\w])(?i:seen|treated|admitted|evaluated|presented|presenting|transferred|followed|"
    rf"visited|visit|hospitali[sz]ed|discharged|operated|managed|diagnosed|checked[ \t]+in|"
    rf"consulted|referred|surgery|replacement|procedure|biopsy|appointment|follow-up|f/u|"
    rf"dialysis|rehab|care|delivered|tx'd|dx'd|reviewed|assessed|examined|"
    rf"monitored|observed|hospitalization|admission|stay|stayed|scan|imaging|therapy|notes|"
    rf"records|report|results|transfer|referral|labs)"
    rf"(?:[ \t]+(?i:last|previously|recently|initially|originally|currently|again)){{0,2}}"
    rf"[ \t]+(?:at|to|from|@){_GAP}(?:(?i:the|our)[ \t]+)?(?P<run>{_NAMERUN})")
#: Capitalised words after a bare ``at`` (``seen by Dr. Adams at Cedar Sinai``): review.
_AT_RUN_RE = re.compile(
    rf"(?<![\w])(?:at|AT|At|@){_GAP}(?:(?i:the|our)[ \t]+)?(?P<run>{_NAMERUN})")
_CITY_FACILITY_RE = re.compile(
    rf"(?<![\w])(?i:our|the)[ \t]+(?P<run>{_PLACERUN})[ \t]+(?:clinic|office|branch|location|"
    rf"campus|site|practice|VA|downtown)(?![\w])")
_CITY_AFTER_RE = re.compile(
    rf"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?(?P<city>{_PLACERUN})(?=[ \t]*(?:[;.,)\r\n]|$))")
_CITY_ZIP_RE = re.compile(
    rf"(?<![\w])(?P<city>{_PLACERUN})[ \t]+(?P<zip>\d{{5}}(?:-\d{{4}})?)(?![\w-])")
_CITY_COUNTRY_RE = re.compile(
    rf"(?<![\w])(?P<city>{_PLACERUN}),[ \t]*(?:\r?\n[ \t]*)?(?P<country>{_PLACERUN})")
_LOWER_CSZ_RE = re.compile(
    r"(?<![\w])(?P<city>[a-z]+(?:[ \t][a-z]+){0,2}),[ \t]*(?P<st>[a-z]{2})[ \t]+"
    r"(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")
_LOWER_WORD = r"[a-z][a-z'’-]*"


@dataclass(frozen=True)
class _Tables:
    """Lists and the regexes that embed them, built once by :func:`_tables`."""

    places: dict              # lower-case city -> max population
    person_places: frozenset  # one-word city keys that are also given names (Austin, Charlotte)
    place_pairs: frozenset    # (lower-case city, state abbreviation)
    states: dict              # lower-case state name -> abbreviation
    abbrs: frozenset          # state abbreviations
    countries: frozenset      # lower-case country names
    surnames: frozenset       # lower-case surnames (unknown places that are surnames are skipped)
    generic: frozenset        # generic service words (lower-case)
    hospital_words: frozenset
    street_re: re.Pattern
    street_bare_re: re.Pattern
    street_lower_re: re.Pattern
    hospital_re: re.Pattern
    hospital_lowerhw_re: re.Pattern
    hospital_lower_re: re.Pattern
    org_lower_re: re.Pattern
    practice_re: re.Pattern
    dept_unit_re: re.Pattern
    csz_re: re.Pattern
    city_state_name_re: re.Pattern
    context_re: re.Pattern
    context_lower_re: re.Pattern
    max_place_words: int


def _optional(getter, *args, default):
    """Call a list accessor, returning ``default`` when the list file or accessor is absent."""
    fn = getattr(lists, getter, None)
    if fn is None:
        return default
    try:
        return fn(*args)
    except FileNotFoundError:
        return default


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """Load the word lists and compile the list-dependent regexes (once per process)."""
    places: dict[str, int] = {}
    pairs = set()
    for row in _optional("us_places", default=()):
        city, state = row[0], row[1]
        pop = int(row[2]) if len(row) > 2 and str(row[2]).isdigit() else 0
        key = _key(city)
        places[key] = max(places.get(key, 0), pop)
        pairs.add((key, state.upper()))
    for key in [k for k in places if k.startswith("the ")]:
        places.setdefault(key[4:], places[key])   # "the bronx" -> also "bronx"
    for alias, (city, st) in PLACE_ALIASES.items():
        places.setdefault(alias, places.get(city, 0))
        pairs.add((alias, st))
    states = {_key(k): v.upper()
              for k, v in dict(_optional("us_states", default={}) or US_STATES_CORE).items()}
    abbrs = frozenset(states.values()) | frozenset(US_STATES_CORE.values())
    countries = frozenset(_key(c) for c in _optional("countries", default=())) | frozenset(
        _key(c) for c in COUNTRY_ALIASES)
    surnames = frozenset(_optional("surnames", default={}))
    hospital_words = HOSPITAL_WORDS_CORE | _optional("handwritten", "hospital_words", default=frozenset())
    depts = _optional("handwritten", "departments", default=frozenset())
    generic = GENERIC_SERVICE_WORDS | frozenset(w for d in depts for w in d.lower().split())
    unit_words = DEPARTMENT_UNIT_WORDS_CORE | frozenset(
        d for d in depts if d.split()[-1] in ("unit", "ward", "icu") or d in DEPARTMENT_UNIT_WORDS_CORE
        or (len(d) <= 5 and d.endswith("icu")))
    practice_words = PRACTICE_WORDS_CORE | frozenset(
        d for d in depts if d not in unit_words and len(d) > 3)
    suffixes = STREET_SUFFIXES_CORE | frozenset(
        s.lower().rstrip(".") for s in _optional("handwritten", "street_suffixes", default=frozenset()))

    suffix_forms = set()
    for s in suffixes:
        suffix_forms.add(s.title())
        suffix_forms.add(s)
        if len(s) > 4 or s.upper() not in _SUFFIX_CAPS_EXCLUDED:
            suffix_forms.add(s.upper())
    suffix_alt = _alt(suffix_forms, r"[ \t]+")
    num = r"\d{1,6}(?:-\d{1,5})?[A-Za-z]?"
    direction = r"(?:North|South|East|West|NORTH|SOUTH|EAST|WEST|[NSEW]\.?|[NS][EW]\.?)"
    name_w = rf"(?:{_CAPW}|\d{{1,3}}(?:st|nd|rd|th|ST|ND|RD|TH))"
    unit = (r"(?:[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?(?:(?:(?i:apt|apartment|unit|suite|ste|fl|floor|bldg|"
            r"building|rm|room|lot|trlr)\.?[ \t]*#?[ \t]*|#[ \t]*)[A-Za-z0-9][A-Za-z0-9-]{0,5}"
            r"|\d{1,3}(?:st|nd|rd|th)[ \t]+(?i:floor|fl)\.?)(?![\w]))")
    street_re = re.compile(
        rf"(?<![\w.,/-]){num}[ \t]+(?:{direction}\.?[ \t]+)?{name_w}(?:{_GAP}{name_w}){{0,3}}"
        rf"{_GAP}(?:{suffix_alt})\.?(?![\w])(?:[ \t]+{direction}(?![\w])\.?)?{unit}?")
    street_bare_re = re.compile(
        rf"(?<![\w])(?P<name>{_CAPW}(?:[ \t]+{_CAPW}){{0,2}})[ \t]+(?:{_alt(STREET_SUFFIX_WORDS)})(?![\w])")
    lower_suffixes = _alt((s for s in suffixes if len(s) >= 2), r"[ \t]+")
    street_lower_re = re.compile(
        rf"(?<![\w.,/-])\d{{1,6}}[a-z]?[ \t]+(?P<name>{_LOWER_WORD}(?:[ \t]+{_LOWER_WORD}){{0,2}})"
        rf"[ \t]+(?:{lower_suffixes})\.?(?![\w])")
    strong_hw = [w for w in hospital_words if w not in _WEAK_HOSPITAL_WORDS]
    weak_hw = [w for w in hospital_words if w in _WEAK_HOSPITAL_WORDS]
    hospital_re = re.compile(
        rf"(?<![\w])(?P<name>{_NAMERUN}){_GAP}(?P<hw>(?:{_alt(_case_forms(strong_hw))})(?![\w'’])"
        rf"|(?:{_alt(_case_forms(weak_hw))})(?![\w'’])(?![ \t]+[{_UP}][a-z])"
        rf"(?!{_GAP}(?:{_alt(_case_forms(strong_hw))})(?![\w'’])))(?![ \t]*:)"
        rf"(?P<tail>[ \t]+(?:Associates|Group|Partners|Network|System|ASSOCIATES|GROUP))?"
        rf"(?P<of>[ \t]+(?:of|for|OF|FOR)[ \t]+(?:the[ \t]+)?{_CAPW}(?:[ \t]+{_CAPW}){{0,3}})?")
    hospital_lowerhw_re = re.compile(
        rf"(?<![\w])(?P<name>{_NAMERUN})[ \t]+(?P<hw>hospital|clinic|medical[ \t]+center|health[ \t]+center)"
        rf"(?![\w'’])")
    lower_hw = _alt(("hospital", "medical center", "clinic", "health center", "nursing home",
                     "assisted living", "surgery center", "service center", "patient service center",
                     "family practice", "family health", "family medicine", "primary care",
                     "heart & vascular", "heart and vascular", "rehabilitation center", "birthing center"))
    org_lower_re = re.compile(
        rf"(?<![\w])(?P<name>{_LOWER_WORD}(?:(?:[ \t]+|[ \t]*\r?\n[ \t]*|[ \t]+&[ \t]+){_LOWER_WORD}){{0,3}})"
        rf"{_GAP}(?P<kw>{_alt(s.lower() for s in _COMPANY_SUFFIXES + _SCHOOL_WORDS if len(s) > 4)})(?![\w])")
    hospital_lower_re = re.compile(
        rf"(?<![\w])(?P<name>{_LOWER_WORD}(?:(?:[ \t]+|[ \t]*\r?\n[ \t]*|[ \t]+&[ \t]+){_LOWER_WORD}){{0,4}})"
        rf"{_GAP}(?P<hw>{lower_hw})(?![\w])")
    practice_re = re.compile(
        rf"(?<![\w])(?P<name>{_NAMERUN})[ \t]+(?P<hw>{_alt(_case_forms(practice_words), _SP)})"
        rf"(?![\w'’])(?![ \t]*:)")
    dept_unit_re = re.compile(
        rf"(?<![\w])(?P<name>{_NAMERUN})[ \t]+(?P<hw>{_alt(_case_forms(unit_words), _SP)})(?![\w'’])"
        rf"(?:[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]?{_DIRECTION})?(?![\w]))?")
    abbr_alt = "|".join(sorted(abbrs))
    csz_re = re.compile(
        rf"(?<![\w])(?P<city>{_PLACERUN})(?P<sep>,[ \t]*|[ \t]+)(?P<st>{abbr_alt})(?![\w-])"
        rf"(?:(?:,?[ \t]+|,)(?P<zip>\d{{5}}(?:-\d{{4}})?)(?![\w-]))?")
    state_name_forms = set()
    for s in states:
        state_name_forms.add(s.title())
        state_name_forms.add(s.upper())
    city_state_name_re = re.compile(
        rf"(?<![\w])(?P<city>{_PLACERUN}),[ \t]*(?P<st>{_alt(state_name_forms, _SP)})(?![\w])"
        rf"(?:,?[ \t]+(?P<zip>\d{{5}}(?:-\d{{4}})?)(?![\w-]))?")
    ctx = (r"(?P<ctx>(?i:(?:lives|living|lived|resides|residing|resided|born|raised|"
           r"grew[ \t]+up|moved|moving|relocated|relocating|immigrated|emigrated|traveled|travelled|"
           r"traveling|travelling|returned|returning|vacationing|vacationed|vacation|visiting|trip|"
           r"originally|fled|deployed|stationed|flying|flew|headed|heading)"
           r"(?:[ \t]+(?:here|back|home|recently|originally))?(?:[ \t]+(?:in|to|from|at|near|of))?"
           r"|resident[ \t]+of|native[ \t]+of|hometown(?:[ \t]+(?:is|of))?|from|in|near"
           r"|outside(?:[ \t]+of)?|to|at|of))")
    context_re = re.compile(rf"(?<![\w]){ctx}{_GAP}(?:the[ \t]+)?(?P<run>{_PLACERUN})")
    context_lower_re = re.compile(
        rf"(?<![\w]){ctx}{_GAP}(?P<run>{_LOWER_WORD}(?:[ \t]+{_LOWER_WORD}){{0,3}})")
    given = _optional("given_names", default={})
    person_places = frozenset(k for k in places if " " not in k and k in given)
    max_words = max([len(k.split()) for k in list(places) + list(states) + list(countries)] or [1])
    return _Tables(places, person_places, frozenset(pairs), states, abbrs, countries, surnames,
                   generic, frozenset(hospital_words), street_re, street_bare_re, street_lower_re,
                   hospital_re, hospital_lowerhw_re, hospital_lower_re, org_lower_re, practice_re, dept_unit_re, csz_re,
                   city_state_name_re, context_re, context_lower_re, min(max_words, 4))


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------

_WORD_SPLIT_RE = re.compile(r"[^\s&]+|&")
Word = tuple[int, int, str]


@dataclass(frozen=True)
class _Note:
    """The text and document-level facts the rules share."""

    text: str
    caps: bool    # mostly capitals (an ALL-CAPS note)
    lower: bool   # almost no capitals (an all-lower-case note)


def _note(text: str) -> _Note:
    sample = text[:4000]
    letters = sum(c.isalpha() for c in sample)
    upper = sum(c.isupper() for c in sample)
    return _Note(text, letters > 0 and upper > 0.6 * letters, letters > 0 and upper < 0.02 * letters)


def _words(text: str, offset: int) -> list[Word]:
    """Whitespace-separated words of ``text`` with absolute offsets."""
    return [(offset + m.start(), offset + m.end(), m.group()) for m in _WORD_SPLIT_RE.finditer(text)]


def _norm(word: str) -> str:
    """Lower-case a word, straighten its apostrophe and drop a trailing period."""
    return word.lower().replace("’", "'").rstrip(".")


_ABBREV_EXPANSIONS = {"st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount"}


def _key(phrase: str) -> str:
    """Lookup key of a place name: words lower-cased, periods dropped, ``St``/``Ft``/``Mt``
    spelled out (``St. Louis`` and ``Saint Louis`` give ``saint louis``)."""
    words = [_norm(w) for w in phrase.replace(".", ". ").split()]
    words = [w for w in words if w]
    if words and words[0] in _ABBREV_EXPANSIONS:
        words[0] = _ABBREV_EXPANSIONS[words[0]]
    return " ".join(words)


_CONNECTOR_WORDS = frozenset({"and", "&", "of", "for", "de", "del", "la", "du", "van", "von"})


def _strip_leading(words: list[Word]) -> list[Word]:
    """Keep the part of a capitalised run after its last stop word (``The``, ``Our``, ``Call``,
    ``FOLLOW UP IN`` ...), then drop leading connectors: what remains is the candidate name."""
    cut = 0
    for i, (_, _, w) in enumerate(words):
        n = _norm(w)
        if (n in _LEADING_STOP or w.lower() in _LEADING_STOP) and n not in _CONNECTOR_WORDS:
            cut = i + 1
    while cut < len(words) and words[cut][2] in _CONNECTOR_WORDS:
        cut += 1
    return words[cut:]


def _name_kind(words: list[Word], generic: frozenset) -> str:
    """Classify a facility name's words: ``"distinct"`` (at least one non-generic word),
    ``"institution"`` (only generic words, one of them institution-like), ``"generic"`` or
    ``"none"`` (no words, or a title/month/weekday first)."""
    content = [w for w in words if not (w[2].islower() and w[2] in _CONNECTOR_WORDS | {"the"})
               and w[2] != "&"]
    if not content or _norm(content[0][2]) in _NOT_FACILITY_FIRST:
        return "none"
    distinct = False
    institution = False
    for _, _, w in content:
        n = _norm(w)
        bare = n[:-2] if n.endswith("'s") else n
        if w.isupper() and len(w) > 1 and w.rstrip(".") in GENERIC_ACRONYMS:
            continue
        if n in generic or bare in generic:
            institution = institution or n in GENERIC_INSTITUTION_WORDS or bare in GENERIC_INSTITUTION_WORDS
            continue
        distinct = True
    if distinct:
        return "distinct"
    return "institution" if institution else "generic"


def _distinct_count(words: list[Word], generic: frozenset) -> int:
    return sum(1 for w in words if _norm(w[2]) not in generic and _norm(w[2]) not in _CONNECTOR_WORDS
               and not (w[2].isupper() and w[2] in GENERIC_ACRONYMS))


def _sentence_initial(text: str, pos: int) -> bool:
    """True when ``pos`` starts a line or follows sentence punctuation (``. ``, ``: ``)."""
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i >= 0 and text[i] in "\r\n":
        # A wrapped line continues a sentence when the previous line ends mid-sentence.
        while i >= 0 and text[i].isspace():
            i -= 1
        return i < 0 or not (text[i].islower() or text[i] in ",&")
    return i < 0 or text[i] in ".!?:;|·—-("


def _after_title(text: str, pos: int) -> bool:
    """True when a personal title (``Dr.``, ``Mr``) stands right before ``pos``."""
    before = text[max(0, pos - 6):pos].rstrip().lower()
    return before.endswith(("dr.", "dr", "mr.", "mr", "mrs.", "mrs", "ms.", "ms"))


def _trim_end(end: int, text: str, start: int) -> int:
    """Drop trailing apostrophes and hyphens from a span end."""
    while end > start + 1 and text[end - 1] in "'’-":
        end -= 1
    return end


def _lookup_place(t: _Tables, words: list[Word]):
    """Longest prefix of ``words`` (up to 4) that is a state, a country or a known city.

    Returns ``(n_words, label, population)`` or ``None``.
    """
    for n in range(min(len(words), t.max_place_words), 0, -1):
        key = _key(" ".join(w[2] for w in words[:n]))
        if key in t.states:
            return n, "STATE", 10**7
        if key in t.countries:
            return n, "COUNTRY", 10**7
        if key in t.places:
            return n, "CITY", t.places[key]
    return None


def _known_city_suffix(words: list[Word], t: _Tables) -> list[Word]:
    """Longest suffix of ``words`` (at most 4) that is a known city; returns the word list or []."""
    for k in range(min(4, len(words)), 0, -1):
        key = _key(" ".join(w[2] for w in words[-k:]))
        if key in t.places:
            return words[-k:]
    return []


def _city_words_after_facility(words: list[Word], t: _Tables) -> list[Word]:
    """Drop words up to and including the last hospital, stop or generic word in a city run."""
    cut = 0
    for i, (_, _, w) in enumerate(words):
        n = _norm(w)
        if n in t.hospital_words or n in _LEADING_STOP or n in _NOT_FACILITY_FIRST or n in t.generic:
            cut = i + 1
    return words[cut:]


def _plain_city(words: list[Word], t: _Tables) -> bool:
    """An unknown capitalised run that may be a city name: 1-3 words, none generic, a stop
    word, a hospital word, a title, month or weekday."""
    return 0 < len(words) <= 3 and _city_words_after_facility(words, t) == words and all(
        w[2][0].isupper() for w in words)


# --------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------


def _streets(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in t.street_re.finditer(text):
        end = m.end()
        if text[end - 1] == "." and not re.search(r"(?i)\b(?:st|ave|rd|dr|blvd|ln|ct|pl|hwy|pkwy|ter)\.$",
                                                  text[m.start():end]):
            end -= 1
        yield Span(m.start(), end, "STREET", CERTAIN, "locations:street")
    for m in _PO_BOX_RE.finditer(text):
        yield Span(m.start(), m.end(), "STREET", CERTAIN, "locations:po_box")
    for m in _ROUTE_RE.finditer(text):
        yield Span(m.start(), m.end(), "STREET", CERTAIN, "locations:route")
    for m in t.street_bare_re.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        if not words or _norm(words[0][2]) in _NOT_FACILITY_FIRST:
            continue
        yield Span(words[0][0], m.end(), "STREET", REVIEW, "locations:street_no_number")
    if n.lower:
        for m in t.street_lower_re.finditer(text):
            words = _words(m.group("name"), m.start("name"))
            if any(_norm(w[2]) in _LEADING_STOP or _norm(w[2]) in t.generic for w in words):
                continue
            yield Span(m.start(), m.end(), "STREET", REVIEW, "locations:street_lower")


def _city_state(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in t.csz_re.finditer(text):
        st, zip_ = m.group("st"), m.group("zip")
        comma = m.group("sep").startswith(",")
        words = _words(m.group("city"), m.start("city"))
        city = _known_city_suffix(words, t)
        key = _key(" ".join(w[2] for w in city))
        if city and (key, st) in t.place_pairs:
            tier = CERTAIN
        elif zip_:
            tier = CERTAIN
            if not city:
                city = _city_words_after_facility(words, t)[-3:]
        elif city and comma and st not in _CREDENTIAL_ABBR:
            tier = REVIEW if st in _AMBIGUOUS_STATE_ABBR else CERTAIN
        elif comma and st not in _AMBIGUOUS_STATE_ABBR:
            tier = REVIEW
            city = _city_words_after_facility(words, t)[-2:]
        else:
            continue
        if city and _norm(city[0][2]) not in _NOT_FACILITY_FIRST:
            yield Span(city[0][0], city[-1][1], "CITY", tier, "locations:city_state_zip")
        yield Span(m.start("st"), m.end("st"), "STATE", tier, "locations:city_state_zip")
        if zip_:
            yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:city_state_zip")
    for m in t.city_state_name_re.finditer(text):
        st_key = _key(m.group("st"))
        words = _words(m.group("city"), m.start("city"))
        city = _known_city_suffix(words, t)
        key = _key(" ".join(w[2] for w in city))
        abbr = t.states.get(st_key, "")
        if city and (key, abbr) in t.place_pairs:
            tier = CERTAIN
        elif m.group("zip") or (st_key not in PLACE_NAME_COLLISIONS and (city or len(words) <= 3)):
            tier = CERTAIN
        else:
            tier = REVIEW
        if not city:
            city = _city_words_after_facility(words, t)[-3:]
            city_tier = REVIEW if tier == CERTAIN and not m.group("zip") else tier
        else:
            city_tier = tier
        if city and _norm(city[0][2]) not in _NOT_FACILITY_FIRST:
            yield Span(city[0][0], city[-1][1], "CITY", city_tier, "locations:city_state_name")
        yield Span(m.start("st"), m.end("st"), "STATE", tier, "locations:city_state_name")
        if m.group("zip"):
            yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:city_state_name")
    for m in _ZIP_CONTEXT_RE.finditer(text):
        yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:zip_context")
    for m in _CITY_ZIP_RE.finditer(text):
        city = _known_city_suffix(_words(m.group("city"), m.start("city")), t)
        if city:
            yield Span(city[0][0], city[-1][1], "CITY", CERTAIN, "locations:city_zip")
            yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:city_zip")
    for m in _CITY_COUNTRY_RE.finditer(text):
        cwords = _words(m.group("country"), m.start("country"))
        found = _lookup_place(t, cwords)
        if not found or found[1] != "COUNTRY":
            continue
        k = found[0]
        if _key(" ".join(w[2] for w in cwords[:k])) in PLACE_NAME_COLLISIONS:
            continue  # "Smith, Jordan" is a name
        yield Span(cwords[0][0], cwords[k - 1][1], "COUNTRY", CERTAIN, "locations:city_country")
        words = _city_words_after_facility(_words(m.group("city"), m.start("city")), t)
        if _plain_city(words, t):
            yield Span(words[0][0], words[-1][1], "CITY", CERTAIN, "locations:city_country")
    if n.lower:
        for m in _LOWER_CSZ_RE.finditer(text):
            if m.group("st").upper() not in t.abbrs:
                continue
            words = [w for w in _words(m.group("city"), m.start("city"))
                     if _norm(w[2]) not in _LEADING_STOP]
            if words:
                yield Span(words[0][0], words[-1][1], "CITY", CERTAIN, "locations:city_state_zip")
            yield Span(m.start("st"), m.end("st"), "STATE", CERTAIN, "locations:city_state_zip")
            yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:city_state_zip")


def _context_tier(t: _Tables, key: str, label: str, n_words: int, pop: int, ctx_first: str,
                  followed: bool) -> str | None:
    """Tier of a place found after a context word, or ``None`` to skip it."""
    strong = ctx_first in _STRONG_CONTEXT
    if key in PLACE_COMMON_WORDS and n_words == 1:
        return REVIEW if strong and ctx_first != "from" and not followed else None
    person = key in PLACE_NAME_COLLISIONS or (label == "CITY" and key in t.person_places)
    if followed:
        # Another capitalised word right after: ``Ohio River``, ``Alice Brown``.
        if person or n_words == 1 and label == "CITY" and pop < _BIG_CITY:
            return None
        return REVIEW
    if person:
        # ``from Charlotte`` / ``spoke to Austin`` may be a person; ``lives in Austin`` is not.
        if (strong and ctx_first != "from") or (ctx_first in ("in", "near", "outside") and pop >= _BIG_CITY):
            return CERTAIN
        return REVIEW
    if strong:
        return CERTAIN
    if label == "CITY" and n_words == 1 and pop < _BIG_CITY:
        return REVIEW
    return CERTAIN


def _place_context(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in t.context_re.finditer(text):
        words = _words(m.group("run"), m.start("run"))
        ctx_first = m.group("ctx").split()[0].lower()
        found = _lookup_place(t, words)
        if not found:
            # An unknown capitalised place after a residence word: review.
            if ctx_first in _STRONG_CONTEXT and ctx_first != "from" and len(words) <= 2 and \
                    _plain_city(words, t) and not any(w[2].isupper() for w in words) and \
                    words[0][2].lower() not in t.surnames and \
                    not (len(words) < len(_words(m.group("run"), 0))):
                yield Span(words[0][0], _trim_end(words[-1][1], text, words[0][0]), "CITY", REVIEW,
                           "locations:place_context:unknown")
            continue
        k, label, pop = found
        start, end = words[0][0], _trim_end(words[k - 1][1], text, words[0][0])
        if text[end - 1] == "." and not words[k - 1][2].lower().startswith(("st.", "ft.", "mt.")):
            end -= 1
        key = _key(" ".join(w[2] for w in words[:k]))
        followed = k < len(words)
        tier = _context_tier(t, key, label, k, pop, ctx_first, followed)
        if tier:
            yield Span(start, end, label, tier, f"locations:place_context:{label.lower()}")
    if n.lower:
        for m in t.context_lower_re.finditer(text):
            words = _words(m.group("run"), m.start("run"))
            found = _lookup_place(t, words)
            if not found:
                continue
            k, label, pop = found
            key = _key(" ".join(w[2] for w in words[:k]))
            ctx_first = m.group("ctx").split()[0].lower()
            tier = _context_tier(t, key, label, k, pop, ctx_first, False)
            if tier == CERTAIN and not (ctx_first in _STRONG_CONTEXT and (k > 1 or pop >= _BIG_CITY)):
                tier = REVIEW
            if tier:
                yield Span(words[0][0], words[k - 1][1], label, tier,
                           f"locations:place_context_lower:{label.lower()}")
    for m in _CITY_FACILITY_RE.finditer(text):
        words = _words(m.group("run"), m.start("run"))
        city = _known_city_suffix(words, t)
        if city and not (len(city) == 1 and _norm(city[0][2]) in PLACE_COMMON_WORDS):
            yield Span(city[0][0], city[-1][1], "CITY", CERTAIN, "locations:city_facility")


def _city_after(n: _Note, t: _Tables, anchors: list[Span]) -> Iterator[Span]:
    """A city right after an address or a facility: ``2284 Granite Street, Bangor;``."""
    text = n.text
    for a in anchors:
        m = _CITY_AFTER_RE.match(text, a.end)
        if not m:
            continue
        words = _words(m.group("city"), m.start("city"))
        found = _lookup_place(t, words)
        if found and found[0] == len(words):
            label = found[1]
            key = _key(m.group("city"))
            tier = REVIEW if key in PLACE_COMMON_WORDS or key in PLACE_NAME_COLLISIONS else CERTAIN
            yield Span(words[0][0], words[-1][1], label, tier, f"locations:{label.lower()}_after")
        elif _plain_city(words, t) and not any(w[2].isupper() and len(w[2]) <= 3 for w in words):
            yield Span(words[0][0], words[-1][1], "CITY", REVIEW, "locations:city_after")


def _hospitals(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in t.hospital_re.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        kind = _name_kind(words, t.generic)
        hw = m.group("hw")
        if kind in ("none", "generic"):
            continue
        end = max(m.end("hw"), m.end("tail"), m.end("of"))
        if kind == "distinct":
            all_caps = all(w[2].isupper() for w in words) and hw.isupper()
            acronym = all(w[2].isupper() for w in words) and len(words) == 1 and len(words[0][2]) <= 3
            tier = REVIEW if acronym or (all_caps and not n.caps) or _after_title(text, words[0][0]) \
                else CERTAIN
        elif kind == "institution" and m.group("of"):
            tier = CERTAIN   # University Hospital of Fort Wayne
        else:
            tier = REVIEW
        yield Span(words[0][0], end, "HOSPITAL", tier, f"locations:hospital:{kind}")
    for m in t.hospital_lowerhw_re.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        if _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0][0]):
            continue
        yield Span(words[0][0], m.end("hw"), "HOSPITAL", REVIEW, "locations:hospital:lower_case_word")
    for m in t.practice_re.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        if _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0][0]):
            continue
        hw = m.group("hw")
        single = _distinct_count(words, t.generic) < 2 and _sentence_initial(text, words[0][0])
        all_caps = all(w[2].isupper() for w in words) and hw.isupper() and not n.caps
        tier = REVIEW if single or all_caps else CERTAIN
        yield Span(words[0][0], m.end("hw"), "HOSPITAL", tier, "locations:practice")
    if n.lower:
        for m in t.hospital_lower_re.finditer(text):
            words = _strip_leading(_words(m.group("name"), m.start("name")))
            if _name_kind(words, t.generic) != "distinct":
                continue
            yield Span(words[0][0], m.end("hw"), "HOSPITAL", REVIEW, "locations:hospital_lower")
    for m in _SAINT_RE.finditer(text):
        yield Span(m.start(), m.end(), "HOSPITAL", REVIEW, "locations:saint_possessive")
    for rx, source in ((_FACILITY_CONTEXT_RE, "facility_context"), (_AT_RUN_RE, "at_capitalised")):
        for m in rx.finditer(text):
            words = _strip_leading(_words(m.group("run"), m.start("run")))
            if not words or _name_kind(words, t.generic) != "distinct":
                continue
            if n.caps and all(w[2].isupper() for w in words):
                continue
            found = _lookup_place(t, words)
            if found and found[0] == len(words):
                continue  # a bare city/state/country: the place rules label it
            end = _trim_end(words[-1][1], text, words[0][0])
            yield Span(words[0][0], end, "HOSPITAL", REVIEW, f"locations:{source}")


def _departments(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text

    def with_name(m: re.Match, core_start: int, end: int, source: str, tier: str = CERTAIN):
        start = core_start
        if m.group("name"):
            words = _strip_leading(_words(m.group("name"), m.start("name")))
            if words and _name_kind(words, t.generic) == "distinct" and not _after_title(text, words[0][0]):
                start = words[0][0]
        return Span(start, end, "DEPARTMENT", tier, f"locations:department:{source}")

    for m in _DEPT_DIR_RE.finditer(text):
        yield with_name(m, m.start("core"), m.end(), "direction")
    for m in _DEPT_WARD_RE.finditer(text):
        yield with_name(m, m.start("core"), m.end(), "ward")
    for m in t.dept_unit_re.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        if _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0][0]):
            continue
        hw = m.group("hw")
        tier = REVIEW if all(w[2].isupper() for w in words) and not n.caps and hw.isupper() and \
            len(words) == 1 and len(words[0][2]) <= 3 else CERTAIN
        yield Span(words[0][0], m.end(), "DEPARTMENT", tier, "locations:department:named_unit")
    for rx, source in ((_DEPT_NUMBER_UNIT_RE, "building_number_unit"),
                       (_DEPT_BEFORE_ROOM_RE, "building_number_room")):
        for m in rx.finditer(text):
            words = _strip_leading(_words(m.group("name"), m.start("name")))
            if not words or _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0][0]):
                continue
            if words[0][2].islower() and not n.lower:
                continue
            yield Span(words[0][0], m.end(), "DEPARTMENT", CERTAIN, f"locations:department:{source}")
    for rx, source, tier in ((_DEPT_AFTER_ROOM_RE, "after_room", CERTAIN),
                             (_DEPT_ON_AT_RE, "on_number_at", REVIEW)):
        for m in rx.finditer(text):
            words = _strip_leading(_words(m.group("name"), m.start("name")))
            if not words or _name_kind(words, t.generic) != "distinct":
                continue
            yield Span(words[0][0], m.end("d"), "DEPARTMENT", tier, f"locations:department:{source}")


def _organizations(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in _COMPANY_RE.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        if _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0][0]):
            continue
        kw = m.group("kw")
        if kw in _COMPANY_WEAK and re.match(rf"[ \t]*:|[ \t]+[{_UP}][a-z]", text[m.end():m.end() + 3]):
            continue
        if kw in ("Co", "Market", "Bank", "Agency") and len(words) == 1 and \
                _sentence_initial(text, words[0][0]):
            continue
        all_caps = all(w[2].isupper() for w in words) and kw.isupper() and not n.caps
        tier = REVIEW if all_caps else CERTAIN
        yield Span(words[0][0], m.end("kw"), "ORGANIZATION", tier, "locations:organization:company")
    if n.lower:
        for m in t.org_lower_re.finditer(text):
            words = _strip_leading(_words(m.group("name"), m.start("name")))
            if _name_kind(words, t.generic) != "distinct":
                continue
            yield Span(words[0][0], m.end("kw"), "ORGANIZATION", REVIEW, "locations:organization:lower_case")
    for m in _UNIVERSITY_OF_RE.finditer(text):
        yield Span(m.start(), m.end(), "ORGANIZATION", CERTAIN, "locations:organization:university")
    for m in _SCHOOL_RE.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        if _name_kind(words, t.generic) != "distinct":
            continue
        yield Span(words[0][0], m.end("kw"), "ORGANIZATION", CERTAIN, "locations:organization:school")
    for rx, source in ((_ORG_CONTEXT_RE, "employer_context"), (_ORG_LABEL_RE, "employer_label")):
        for m in rx.finditer(text):
            words = _strip_leading(_words(m.group("o"), m.start("o")))
            if not words or _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0][0]):
                continue
            end = _trim_end(words[-1][1], text, words[0][0])
            yield Span(words[0][0], end, "ORGANIZATION", CERTAIN, f"locations:organization:{source}")


def _landmarks(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in _LANDMARK_RE.finditer(text):
        words = _strip_leading(_words(m.group("name"), m.start("name")))
        if _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0][0]):
            continue
        before = text[max(0, words[0][0] - 12):words[0][0]].lower().split()
        context = bool(before) and before[-1] in ("near", "at", "in", "on", "by", "from", "to", "outside",
                                                  "behind", "the")
        yield Span(words[0][0], m.end(), "LOCATION-OTHER", CERTAIN if context else REVIEW,
                   "locations:landmark")


def _rooms(n: _Note) -> Iterator[Span]:
    text = n.text
    for m in _ROOM_RE.finditer(text):
        kw = m.group("kw")
        ident = m.group("id")
        if kw in ("OR", "POD", "Pod"):
            if kw == "OR" and (n.caps or not ident[0].isdigit() or
                               re.search(r"\d[ \t]*$", text[max(0, m.start() - 4):m.start()])):
                continue  # "1 OR 2 tablets", ALL-CAPS prose
            if kw in ("POD", "Pod") and not ident.isalpha():
                continue  # POD 1 is post-operative day 1
        if ident.isalpha() and kw.islower() and re.match(r"[ \t]+[a-z]", text[m.end():m.end() + 2]):
            continue  # "in bed A few ..." lower-case keyword, letter, then prose
        yield Span(m.start("id"), m.end("id"), "ROOM", CERTAIN, "locations:room")


def detect(doc: Document) -> Iterable[Span]:
    """Find location candidates in ``doc.text``.

    Args:
        doc: the note (:class:`~deid_core.document.Document`); only ``doc.text`` is read.

    Returns:
        A list of :class:`~deid_core.spans.Span` candidates (labels STREET, CITY, STATE, ZIP,
        COUNTRY, HOSPITAL, ORGANIZATION, ROOM, DEPARTMENT, LOCATION-OTHER), possibly
        overlapping; the resolver merges them. Sources are ``locations:<rule>``.
    """
    text = doc.text
    if not text:
        return []
    t = _tables()
    n = _note(text)
    out: list[Span] = []
    for rule in (_streets, _city_state, _place_context, _hospitals, _departments, _organizations,
                 _landmarks):
        out.extend(rule(n, t))
    out.extend(_rooms(n))
    anchors = [s for s in out if s.tier == CERTAIN and s.label in (
        "STREET", "HOSPITAL", "ORGANIZATION", "LOCATION-OTHER", "DEPARTMENT")]
    out.extend(_city_after(n, t, anchors))
    return out
