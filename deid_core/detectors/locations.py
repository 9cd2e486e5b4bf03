"""LOCATION detector: street addresses, cities, states, ZIP codes, countries, hospitals,
organisations, rooms, departments and landmarks, by pattern, word list and context.

Finds (source ``locations:<rule>``):

* ``street`` (STREET, certain): number + capitalised street name + suffix + optional unit, also
  across a line break (``12 Elm Street\\nApt 3``, ``800 Orange Street, 4th Floor``); ``po_box``;
  ``route`` (``Route 9``); ``street_no_number`` (review): ``Elm Street``; ``street_lower``
  (review, lower-case notes only): ``88 cutler st``.
* ``city_state_zip`` / ``city_state_name``: ``Springfield, IL 62704``, ``Boston, MA 02118-1234``,
  ``Boston, Massachusetts``. Certain when the city/state pair is in the place list, a ZIP
  follows, or a Title-case town precedes an unambiguous abbreviation (``Tarrytown, NY``);
  review for a listed city before an abbreviation that is also a word; nothing for
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

import bisect
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
    "patient service center", "regional medical center", "regional hospital",
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
antepartum birthing pcp pediatrician midwife midwifery wellness integrative functional rm rm. bay
suite ste chair pod apt apartment stretcher cubicle tumor board conference rounds meeting huddle
committee professor associate assistant chief director chairman attending fellow resident instructor
lecturer dean head manager coordinator vice president
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
to: cc: re: attn md do rn np pa phd dds lpn pa-c aprn crnp notify notified page paged await awaiting
awaits pending
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


#: Residence and travel words: a place after one of these is certain.
_STRONG_CONTEXT = frozenset("""
lives living lived resides residing resided resident native born raised grew moved moving
relocated relocating immigrated emigrated traveled travelled traveling travelling returned
returning vacationing vacation vacationed visiting trip originally fled deployed stationed
hometown flying flew headed heading from travel travels trips move moves live
""".split())

#: Large-city threshold for a bare preposition (``in Dallas``): population.
_BIG_CITY = 100_000

# --------------------------------------------------------------------------------------------
# Regex pieces. Every pattern is linear: words have bounded length, runs a bounded number of
# words, and a run can only start where no word character, apostrophe or hyphen precedes it.
# --------------------------------------------------------------------------------------------

_UP = "A-ZÀ-ÖØ-Þ"
#: A capitalised word: Title case or capitals, with internal apostrophes and hyphens, or one of
#: a few abbreviations with a period (``St.``, ``Mt.``, ``Med.``).
_CAPW = (rf"(?:(?:St|ST|Mt|MT|Ft|FT|Med|MED|Gen|GEN|Univ|UNIV|Hosp|HOSP|Ctr|CTR)\.|"
         rf"[{_UP}][^\W\d_]{{0,30}}(?:['’][^\W\d_]{{1,20}}){{0,2}}"
         rf"(?:-[^\W\d_]{{1,20}}(?:['’][^\W\d_]{{1,20}}){{0,2}}){{0,3}}(?:['’]s?)?)(?![^\W_])")
_SP = r"[ \t]+"
#: Spaces, or one line break with spaces around it.
_GAP = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
_DIRECTION = r"(?:North|South|East|West|NORTH|SOUTH|EAST|WEST)"
_START = r"(?<![\w'’.-])"
#: A capitalised run: capitalised words joined by one or two spaces, one line break, ``and``,
#: ``&``, ``of``, ``for``, ``the`` (at most 12 words; a longer run continues as the next run).
#: Tabs and wider gaps separate table columns, so they end a run.
_RUN_RE = re.compile(
    rf"{_START}{_CAPW}(?:(?:(?: (?:and|&|of|for|the|de|del|la|du|van|von)){{1,2}} "
    rf"| ?& ?| {{1,2}}| *\r?\n[ \t]*){_CAPW}){{0,11}}")
_RUN_WORD_RE = re.compile(r"[^\s&]+|&")
_LOWER_WORD = r"[a-z][a-z'’-]{0,30}"


def _alt(words: Iterable[str], gap: str = _GAP) -> str:
    """Regex alternation of literal phrases, longest first, a space inside a phrase matching ``gap``."""
    parts = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(gap.join(re.escape(p) for p in w.split()) for w in parts)


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
_DEPT_DIR_RE = re.compile(rf"(?<![\w/.])\d{{1,2}}[A-Z]?[ \t]?{_DIRECTION}(?![\w])")
_WARD_ALT = _alt(WARD_WORDS, _SP)
_DEPT_WARD_RE = re.compile(
    rf"(?<![\w])(?:{_WARD_ALT})[ \t]*#?[ \t]*(?:\d{{1,2}}[A-Z]?|[A-Z]\d{{0,2}})(?:[ \t]?{_DIRECTION})?"
    rf"(?![\w]){_NOT_AFTER_NUMBER}")
_DEPT_NUMBER_UNIT_RE = re.compile(
    r"(?<![\w/.:-])\d{1,2}[A-Z]?[ \t]+(?:[A-Za-z-]{1,20}[ \t]+){0,2}"
    r"(?:ICU|MICU|SICU|CCU|CICU|NICU|PICU|Unit|unit|Ward|ward|Floor|floor)(?![\w])")
_DEPT_BEFORE_ROOM_RE = re.compile(
    rf"(?<![\w/.:-])\d{{1,2}}[A-Z]?(?:[ \t]?{_DIRECTION})?(?=[ \t]*,?[ \t]*(?i:rm|room|bed)\b)")
_DEPT_AFTER_ROOM_RE = re.compile(
    rf"(?<![\w])(?i:bed|room|rm)[ \t]*#?[ \t]*[A-Za-z0-9-]{{1,6}},[ \t]*(?P<name>{_CAPW}(?:[ \t]+{_CAPW}){{0,2}})"
    rf"[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]?{_DIRECTION})?(?![\w])")
_DEPT_ON_AT_RE = re.compile(
    rf"(?<![\w])(?:on|to|from)[ \t]+(?P<name>{_CAPW})[ \t]+\d{{1,2}}[A-Z]?(?=[ \t]+at[ \t]+\d{{3,4}})")
_SAINT_RE = re.compile(
    r"(?<![\w])(?:St\.?|Saint|ST\.?|SAINT)[ \t]+[A-Z][A-Za-z]{1,30}(?:'s|’s|'S|’S)"
    r"(?![ \t]+(?i:wort|day|dance|disease|fire))")
_ZIP_CONTEXT_RE = re.compile(
    r"(?i:zip(?:[ \t]*code)?|postal[ \t]+code)[ \t]*(?:#|:|is)?[ \t]*(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")
_ZIP_AFTER_WORD_RE = re.compile(r"(?<=[^\W\d_])[ \t]+(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")
_ABBR_RE = re.compile(
    r"(?<=[^\W\d_])(?P<sep>,[ \t]*|[ \t]+)(?P<st>[A-Z]{2})(?![\w-])"
    r"(?:(?:,?[ \t]+|,)(?P<zip>\d{5}(?:-\d{4})?)(?![\w-]))?")
_ORG_CONTEXT_RE = re.compile(
    r"(?<![\w])(?i:works?|working|worked|employed|employee|job|retired|volunteers?|volunteering)"
    r"[ \t]+(?:(?i:full|part)[- ]time[ \t]+)?(?:(?i:as)[ \t]+(?:an?[ \t]+)?[a-z-]{1,20}(?:[ \t]+[a-z-]{1,20}){0,2}[ \t]+)?"
    r"(?i:at|for|by|with|from)(?:[ \t]+|[ \t]*\r?\n[ \t]*)(?:the[ \t]+)?(?=[A-Z])")
_ORG_LABEL_RE = re.compile(
    r"(?<![\w])(?i:employer|company|school|workplace|place[ \t]+of[ \t]+employment|agency)[ \t]*:[ \t]*"
    r"(?:the[ \t]+)?(?=[A-Z])")
_LOWER_CSZ_RE = re.compile(
    r"(?<![\w])(?P<city>[a-z]{1,30}(?:[ \t][a-z]{1,30}){0,2}),[ \t]*(?P<st>[a-z]{2})[ \t]+"
    r"(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])")

_CITY_FACILITY_AFTER_RE = re.compile(
    r"[ \t]+(?:clinic|office|branch|location|campus|site|practice|VA|downtown)(?![\w])")
_LOWER_HW_AFTER_RE = re.compile(r"[ \t]+(?:hospital|clinic|medical[ \t]+center|health[ \t]+center)(?![\w'’])")
_COMMA_GAP_RE = re.compile(r"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?")
_BOAT_RE = re.compile(rf"{_GAP}(?:boat[ \t]+launch|parking[ \t]+lot|trailhead|entrance)(?![\w])")
_UNIT_NUMBER_AFTER_RE = re.compile(rf"[ \t]+\d{{1,2}}[A-Z]?(?:[ \t]?{_DIRECTION})?(?![\w])")
_LABEL_AFTER_RE = re.compile(r"[ \t]*(?:(?:No|NO|no|Number|NUMBER|ID|Id|#)\b\.?[ \t]*[:#]?|#)")
_TAIL_WORDS = frozenset({"Associates", "Group", "Partners", "Network", "System", "ASSOCIATES", "GROUP"})
_COMPANY_WEAK = frozenset({"drug", "drugs", "co", "market", "bank", "agency", "company"})


# --------------------------------------------------------------------------------------------
# Word lists, loaded once.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tables:
    """Word lists and the list-dependent regexes, built once by :func:`_tables`."""

    places: dict              # place key -> max population
    person_places: frozenset  # one-word city keys that are also given names (Austin, Charlotte)
    place_pairs: frozenset    # (place key, state abbreviation)
    states: dict              # state key -> abbreviation
    abbrs: frozenset          # state abbreviations
    countries: frozenset      # country keys
    generic: frozenset        # generic service words (lower-case)
    hospital_words: frozenset
    phrases: dict             # lower-case phrase -> frozenset of kinds
    max_phrase: int
    street_re: re.Pattern
    street_lower_re: re.Pattern
    hospital_lower_re: re.Pattern
    org_lower_re: re.Pattern
    context_lower_re: re.Pattern
    max_place_words: int


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """Load the word lists and compile the list-dependent regexes (once per process)."""
    places: dict[str, int] = {}
    pairs = set()
    for row in lists.us_places():
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
    states = {_key(k): v.upper() for k, v in lists.us_states_and_territories().items()}
    abbrs = frozenset(states.values())
    countries = frozenset(_key(c) for c in lists.countries()) | frozenset(
        _key(c) for c in COUNTRY_ALIASES)
    hospital_words = frozenset(HOSPITAL_WORDS_CORE | lists.handwritten("hospital_words"))
    depts = lists.handwritten("departments")
    generic = GENERIC_SERVICE_WORDS | frozenset(w for d in depts for w in d.lower().split())
    unit_words = DEPARTMENT_UNIT_WORDS_CORE | frozenset(
        d for d in depts if d.split()[-1] in ("unit", "ward", "icu") or (len(d) <= 5 and d.endswith("icu")))
    practice_words = PRACTICE_WORDS_CORE | frozenset(
        d for d in depts if d not in unit_words and len(d) > 3)
    suffixes = STREET_SUFFIXES_CORE | frozenset(
        s.lower().rstrip(".") for s in lists.handwritten("street_suffixes"))

    phrases: dict[str, set] = {}

    def add(words: Iterable[str], kind: str) -> None:
        for w in words:
            phrases.setdefault(_phrase_key(w), set()).add(kind)

    add((w for w in hospital_words if w not in _WEAK_HOSPITAL_WORDS), "hosp")
    add((w for w in hospital_words if w in _WEAK_HOSPITAL_WORDS), "hosp_weak")
    add(practice_words, "practice")
    add(unit_words, "unit")
    add((s.lower() for s in _COMPANY_SUFFIXES), "company")
    add((s.lower() for s in _SCHOOL_WORDS), "school")
    add((s.lower() for s in _LANDMARK_WORDS), "landmark")
    add((s.lower() for s in STREET_SUFFIX_WORDS), "street")
    frozen = {k: frozenset(v) for k, v in phrases.items()}

    suffix_forms = set()
    for s in suffixes:
        suffix_forms.add(s.title())
        suffix_forms.add(s)
        if len(s) > 4 or s.upper() not in _SUFFIX_CAPS_EXCLUDED:
            suffix_forms.add(s.upper())
    num = r"\d{1,6}(?:-\d{1,5})?[A-Za-z]?"
    direction = r"(?:North|South|East|West|NORTH|SOUTH|EAST|WEST|[NSEW]\.?|[NS][EW]\.?)"
    name_w = rf"(?:{_CAPW}|\d{{1,3}}(?:st|nd|rd|th|ST|ND|RD|TH))"
    unit = (r"(?:[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?(?:(?:(?i:apt|apartment|unit|suite|ste|fl|floor|bldg|"
            r"building|rm|room|lot|trlr)\.?[ \t]*#?[ \t]*|#[ \t]*)[A-Za-z0-9][A-Za-z0-9-]{0,5}"
            r"|\d{1,3}(?:st|nd|rd|th)[ \t]+(?i:floor|fl)\.?)(?![\w]))")
    street_re = re.compile(
        rf"(?<![\w.,/-]){num}[ \t]+(?:{direction}\.?[ \t]+)?{name_w}(?:{_GAP}{name_w}){{0,3}}"
        rf"{_GAP}(?:{_alt(suffix_forms, _SP)})\.?(?![\w])(?:[ \t]+{direction}(?![\w])\.?)?{unit}?")
    street_lower_re = re.compile(
        rf"(?<![\w.,/-])\d{{1,6}}[a-z]?[ \t]+(?P<name>{_LOWER_WORD}(?:[ \t]+{_LOWER_WORD}){{0,2}})"
        rf"[ \t]+(?:{_alt((s for s in suffixes if len(s) >= 2), _SP)})\.?(?![\w])")
    lower_hw = _alt(("hospital", "medical center", "clinic", "health center", "nursing home",
                     "assisted living", "surgery center", "service center", "patient service center",
                     "family practice", "family health", "family medicine", "primary care",
                     "heart & vascular", "heart and vascular", "rehabilitation center", "birthing center"))
    lower_name = rf"{_LOWER_WORD}(?:(?:[ \t]+|[ \t]*\r?\n[ \t]*|[ \t]+&[ \t]+){_LOWER_WORD}){{0,4}}"
    hospital_lower_re = re.compile(rf"(?<![\w])(?P<name>{lower_name}){_GAP}(?P<hw>{lower_hw})(?![\w])")
    org_lower_re = re.compile(
        rf"(?<![\w])(?P<name>{lower_name}){_GAP}"
        rf"(?P<kw>{_alt(s.lower() for s in _COMPANY_SUFFIXES + _SCHOOL_WORDS if len(s) > 4)})(?![\w])")
    context_lower_re = re.compile(
        rf"(?<![\w])(?P<ctx>from|in|near|to|at|of|visiting){_GAP}"
        rf"(?=(?P<run>{_LOWER_WORD}(?:[ \t]+{_LOWER_WORD}){{0,3}}))")
    given = lists.given_names()
    person_places = frozenset(k for k in places if " " not in k and k in given)
    max_words = max([len(k.split()) for k in list(places) + list(states) + list(countries)] or [1])
    return _Tables(places, person_places, frozenset(pairs), states, abbrs, countries, generic,
                   hospital_words, frozen, max(len(k.split()) for k in frozen), street_re,
                   street_lower_re, hospital_lower_re, org_lower_re, context_lower_re,
                   min(max_words, 4))


# --------------------------------------------------------------------------------------------
# Words, runs and small helpers
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Word:
    """A word of a capitalised run: offsets, text, and whether a line break precedes it."""

    start: int
    end: int
    text: str
    nl: bool = False


@dataclass(frozen=True, slots=True)
class _Run:
    start: int
    end: int
    words: tuple


@dataclass
class _Note:
    """The text, its capitalised runs and document-level facts the rules share."""

    text: str
    caps: bool            # mostly capitals (an ALL-CAPS note)
    lower: bool           # almost no capitals (an all-lower-case note)
    runs: list
    run_starts: list


def _note(text: str) -> _Note:
    sample = text[:4000]
    letters = sum(map(str.isalpha, sample))
    upper = sum(map(str.isupper, sample))
    runs = []
    for m in _RUN_RE.finditer(text):
        words = []
        prev_end = m.start()
        for w in _RUN_WORD_RE.finditer(m.group()):
            s, e = m.start() + w.start(), m.start() + w.end()
            words.append(Word(s, e, w.group(), "\n" in text[prev_end:s]))
            prev_end = e
        runs.append(_Run(m.start(), m.end(), tuple(words)))
    return _Note(text, letters > 0 and upper > 0.6 * letters, letters > 0 and upper < 0.02 * letters,
                 runs, [r.start for r in runs])


def _words(text: str, offset: int) -> list[Word]:
    """Whitespace-separated words of ``text`` with absolute offsets."""
    return [Word(offset + m.start(), offset + m.end(), m.group()) for m in _RUN_WORD_RE.finditer(text)]


def _norm(word: str) -> str:
    """Lower-case a word, straighten its apostrophe and drop a trailing period."""
    return word.lower().replace("’", "'").rstrip(".")


def _phrase_key(phrase: str) -> str:
    return " ".join(w.lower().replace("’", "'") for w in phrase.split())


_ABBREV_EXPANSIONS = {"st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount"}


def _key(phrase: str) -> str:
    """Lookup key of a place name: words lower-cased, periods dropped, ``St``/``Ft``/``Mt``
    spelled out (``St. Louis`` and ``Saint Louis`` give ``saint louis``)."""
    words = [_norm(w) for w in phrase.replace(".", ". ").split()]
    words = [w for w in words if w]
    if words and words[0] in _ABBREV_EXPANSIONS:
        words[0] = _ABBREV_EXPANSIONS[words[0]]
    return " ".join(words)


_CONNECTOR_WORDS = frozenset({"and", "&", "of", "for", "the", "de", "del", "la", "du", "van", "von"})


def _is_connector(w: Word) -> bool:
    return w.text == "&" or (w.text.islower() and w.text in _CONNECTOR_WORDS)


def _strip_leading(words: Iterable[Word]) -> list[Word]:
    """Keep the part of a capitalised run after its last stop word (``The``, ``Our``, ``Call``,
    ``FOLLOW UP IN`` ...), then drop leading connectors: what remains is the candidate name."""
    words = list(words)
    cut = 0
    for i, w in enumerate(words):
        n = _norm(w.text)
        if (n in _LEADING_STOP or w.text.lower() in _LEADING_STOP) and not _is_connector(w):
            cut = i + 1
    while cut < len(words) and _is_connector(words[cut]):
        cut += 1
    return words[cut:]


def _name_kind(words: list[Word], generic: frozenset) -> str:
    """Classify a facility name's words: ``"distinct"`` (at least one non-generic word),
    ``"institution"`` (only generic words, one of them institution-like), ``"generic"`` or
    ``"none"`` (no words, or a title/month/weekday first)."""
    content = [w for w in words if not _is_connector(w)]
    if not content or _norm(content[0].text) in _NOT_FACILITY_FIRST:
        return "none"
    distinct = False
    institution = False
    for w in content:
        n = _norm(w.text)
        bare = n[:-2] if n.endswith("'s") else n
        if w.text.isupper() and len(w.text) > 1 and w.text.rstrip(".") in GENERIC_ACRONYMS:
            continue
        if n in generic or bare in generic or ("-" in bare and all(p in generic for p in bare.split("-"))):
            institution = institution or n in GENERIC_INSTITUTION_WORDS or bare in GENERIC_INSTITUTION_WORDS
            continue
        distinct = True
    if distinct:
        return "distinct"
    return "institution" if institution else "generic"


def _sentence_initial(text: str, pos: int) -> bool:
    """True when ``pos`` starts a line or follows sentence punctuation (``. ``, ``: ``); a
    wrapped line (the previous line ends in a lower-case letter or a comma) does not count."""
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i >= 0 and text[i] in "\r\n":
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


def _segment(words: tuple, i: int, j: int) -> list[Word]:
    """Words ``i..j-1`` of a run, cut after the last line break inside them."""
    out = list(words[i:j])
    for k in range(len(out) - 1, 0, -1):
        if out[k].nl:
            return out[k:]
    return out


def _lookup_place(t: _Tables, words: list[Word]):
    """Longest prefix of ``words`` (up to 4) that is a state, a country or a known city.

    Returns ``(n_words, label, population)`` or ``None``.
    """
    for n in range(min(len(words), t.max_place_words), 0, -1):
        if any(w.nl for w in words[1:n]):
            continue
        key = _key(" ".join(w.text for w in words[:n]))
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
        if _key(" ".join(w.text for w in words[-k:])) in t.places:
            return words[-k:]
    return []


def _city_words_after_facility(words: list[Word], t: _Tables) -> list[Word]:
    """Drop words up to and including the last hospital, stop or generic word in a city run."""
    cut = 0
    for i, w in enumerate(words):
        n = _norm(w.text)
        if n in t.hospital_words or n in _LEADING_STOP or n in _NOT_FACILITY_FIRST or n in t.generic \
                or _phrase_key(w.text) in t.phrases:
            cut = i + 1
    return words[cut:]


def _plain_city(words: list[Word], t: _Tables) -> bool:
    """An unknown capitalised run that may be a city name: 1-3 words, none generic, a stop
    word, a hospital word, a title, month or weekday."""
    return 0 < len(words) <= 3 and _city_words_after_facility(words, t) == words and all(
        w.text[0].isupper() for w in words)


def _words_before(n: _Note, pos: int) -> list[Word]:
    """The capitalised words (one line) that end right before ``pos``, separated from it by
    spaces or tabs only; ``[]`` when none."""
    i = bisect.bisect_left(n.run_starts, pos) - 1
    if i < 0:
        return []
    run = n.runs[i]
    words = [w for w in run.words if w.end <= pos]
    if not words or n.text[words[-1].end:pos].strip(" \t"):
        return []
    return _segment(tuple(words), 0, len(words))


def _run_at(n: _Note, pos: int):
    """The run that starts exactly at ``pos``, or ``None``."""
    i = bisect.bisect_left(n.run_starts, pos)
    return n.runs[i] if i < len(n.runs) and n.runs[i].start == pos else None


# --------------------------------------------------------------------------------------------
# Rules over runs
# --------------------------------------------------------------------------------------------


def _run_rules(n: _Note, t: _Tables) -> Iterator[Span]:
    """Facility, practice, unit, company, school, landmark and bare-street names inside
    capitalised runs, and places right after context words or commas."""
    text = n.text
    for r in n.runs:
        words = r.words
        nw = len(words)
        for j in range(nw):
            for length in range(1, min(t.max_phrase, j + 1) + 1):
                i = j - length + 1
                if _is_connector(words[i]):
                    continue
                kinds = t.phrases.get(_phrase_key(" ".join(w.text for w in words[i:j + 1])))
                if kinds:
                    yield from _phrase_rules(n, t, r, i, j, kinds)
        yield from _lowercase_facility_after(n, t, r)
        yield from _place_rules(n, t, r)
        yield from _facility_context(n, t, r)


def _phrase_rules(n: _Note, t: _Tables, r: _Run, i: int, j: int, kinds: frozenset) -> Iterator[Span]:
    text = n.text
    words = r.words
    if any(words[k].nl for k in range(i + 1, j + 1)) and not kinds & {"hosp", "hosp_weak"}:
        return
    phrase_end = words[j].end
    nxt = words[j + 1] if j + 1 < len(words) and not words[j + 1].nl else None
    if words[i].nl and (not kinds & {"hosp", "hosp_weak"} or (i != j and all(
            w.text.isupper() for w in words[max(0, i - 3):i]) and not n.caps)):
        name = []   # a name on the line above, except after a capitals heading (DISCHARGE SUMMARY)
    else:
        name = _strip_leading(_segment(words, max(0, i - 6), i))
    if _LABEL_AFTER_RE.match(text, phrase_end):
        return  # "Unit No: 123", "Insurance ID": a field label, not a name
    if not name:
        if "school" in kinds and nxt and nxt.text.lower() == "of":
            pass  # University of X
        else:
            return
    kind = _name_kind(name, t.generic) if name else "none"
    title = bool(name) and _after_title(text, name[0].start)
    colon = text[phrase_end:phrase_end + 2].lstrip(" \t").startswith(":")
    all_caps = bool(name) and all(w.text.isupper() for w in name) and words[j].text.isupper() and not n.caps

    if kinds & {"hosp", "hosp_weak"} and kind not in ("none", "generic") and not colon:
        weak_block = "hosp" not in kinds and nxt is not None and (
            re.match(rf"[{_UP}][a-z]", nxt.text) or t.phrases.get(_phrase_key(nxt.text), frozenset()) & {"hosp"})
        if not weak_block:
            end, k = phrase_end, j
            if nxt is not None and nxt.text in _TAIL_WORDS:
                end, k = nxt.end, j + 1
            if k + 2 < len(words) and words[k + 1].text.lower() == "of" and not words[k + 2].nl:
                seg = []
                for w in words[k + 2:k + 7]:
                    if w.nl:
                        break
                    seg.append(w)
                if seg:
                    end = seg[-1].end
            if kind == "distinct":
                acronym = all(w.text.isupper() for w in name) and len(name) == 1 and len(name[0].text) <= 3
                tier = REVIEW if acronym or all_caps or title else CERTAIN
            elif kind == "institution" and end > phrase_end and nxt is not None and \
                    nxt.text.lower() in ("of", "for"):
                tier = CERTAIN   # University Hospital of Fort Wayne
            else:
                tier = REVIEW
            yield Span(name[0].start, end, "HOSPITAL", tier, f"locations:hospital:{kind}")
    if "practice" in kinds and kind == "distinct" and not title and not colon:
        yield Span(name[0].start, phrase_end, "HOSPITAL", REVIEW if all_caps else CERTAIN,
                   "locations:practice")
    if "unit" in kinds and kind == "distinct" and not title:
        end = phrase_end
        m = _UNIT_NUMBER_AFTER_RE.match(text, end)
        if m:
            end = m.end()
        tier = REVIEW if all_caps and len(name) == 1 and len(name[0].text) <= 3 else CERTAIN
        yield Span(name[0].start, end, "DEPARTMENT", tier, "locations:department:named_unit")
    if "company" in kinds and kind == "distinct" and not title:
        low = _phrase_key(words[i].text) if i == j else ""
        weak = low in _COMPANY_WEAK
        if not (weak and (colon or (nxt is not None and re.match(rf"[{_UP}][a-z]", nxt.text)))) and \
                not (low in ("co", "market", "bank", "agency") and len(name) == 1
                     and _sentence_initial(text, name[0].start)):
            yield Span(name[0].start, phrase_end, "ORGANIZATION", REVIEW if all_caps else CERTAIN,
                       "locations:organization:company")
    if "school" in kinds:
        if nxt is not None and nxt.text.lower() == "of" and words[i].text.lower() in ("university", "college"):
            seg = []
            for w in words[j + 2:j + 6]:
                if w.nl:
                    break
                seg.append(w)
            seg = [w for w in seg if not _is_connector(w)] and seg
            if seg:
                start = name[0].start if kind == "distinct" else words[i].start
                yield Span(start, seg[-1].end, "ORGANIZATION", CERTAIN, "locations:organization:university")
        elif kind == "distinct" and not title:
            yield Span(name[0].start, phrase_end, "ORGANIZATION", CERTAIN, "locations:organization:school")
    if "landmark" in kinds and kind == "distinct" and not title:
        end = phrase_end
        m = _BOAT_RE.match(text, end)
        if m:
            end = m.end()
        before = text[max(0, name[0].start - 12):name[0].start].lower().split()
        context = bool(before) and before[-1] in ("near", "at", "in", "on", "by", "from", "to",
                                                  "outside", "behind", "the")
        yield Span(name[0].start, end, "LOCATION-OTHER", CERTAIN if context else REVIEW,
                   "locations:landmark")
    if "street" in kinds and kind != "none" and name and not title:
        yield Span(name[0].start, phrase_end, "STREET", REVIEW, "locations:street_no_number")


def _lowercase_facility_after(n: _Note, t: _Tables, r: _Run) -> Iterator[Span]:
    """``Mt. Sinai hospital``, ``Cedars-Sinai clinic``: a capitalised name, then a lower-case
    hospital word (review)."""
    m = _LOWER_HW_AFTER_RE.match(n.text, r.end)
    if not m:
        return
    name = _strip_leading(_segment(r.words, max(0, len(r.words) - 6), len(r.words)))
    found = _lookup_place(t, name) if name else None
    if found and found[0] == len(name):
        return  # "our Chicago clinic": the city rule labels the city
    if name and _name_kind(name, t.generic) == "distinct" and not _after_title(n.text, name[0].start):
        yield Span(name[0].start, m.end(), "HOSPITAL", REVIEW, "locations:hospital:lower_case_word")


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


def _place_rules(n: _Note, t: _Tables, r: _Run) -> Iterator[Span]:
    """A place at the start of a run: after a context word (``lives in Boston``), after a city
    and a comma (``Boston, Massachusetts``; ``Lisbon, Portugal``), or ``our Chicago clinic``."""
    text = n.text
    words = list(r.words)
    if words[0].text.isupper() and len(words[0].text) == 2:
        return  # a state abbreviation: handled by _city_state
    found = _lookup_place(t, words)
    tail = _tail_words(text, r.start)
    ctx_first = _place_context_word(tail)
    if ctx_first:
        if found:
            k, label, pop = found
            end = _trim_end(words[k - 1].end, text, words[0].start)
            if text[end - 1] == "." and not words[k - 1].text.lower().startswith(("st.", "ft.", "mt.")):
                end -= 1
            key = _key(" ".join(w.text for w in words[:k]))
            followed = k < len(words) and not words[k].nl and not _is_connector(words[k])
            tier = _context_tier(t, key, label, k, pop, ctx_first, followed)
            if tier:
                yield Span(words[0].start, end, label, tier, f"locations:place_context:{label.lower()}")
        elif ctx_first in _STRONG_CONTEXT and ctx_first != "from":
            words = [words[0]] + list(_takewhile_same_line(words[1:]))
            if len(words) <= 2 and _plain_city(words, t) and not any(w.text.isupper() for w in words):
                yield Span(words[0].start, _trim_end(words[-1].end, text, words[0].start), "CITY",
                           REVIEW, "locations:place_context:unknown")
    if found:
        k, label, pop = found
        prev = _words_before_comma(n, r.start)
        if prev and label in ("STATE", "COUNTRY"):
            yield from _city_then_state_or_country(n, t, prev, words, k, label)
    if tail and tail[-1] in ("our", "the") and _CITY_FACILITY_AFTER_RE.match(text, r.end):
        city = _known_city_suffix(list(r.words), t)
        if city and not (len(city) == 1 and _norm(city[0].text) in PLACE_COMMON_WORDS):
            yield Span(city[0].start, city[-1].end, "CITY", CERTAIN, "locations:city_facility")


_PREPOSITIONS = frozenset({"in", "to", "from", "at", "near", "of", "outside"})
_ADVERBS = frozenset({"here", "back", "home", "recently", "originally", "up", "last", "previously",
                      "initially", "currently", "again"})
_PLACE_VERBS = frozenset("""
lives living lived resides residing resided born raised grew moved moving relocated relocating
immigrated emigrated traveled travelled traveling travelling returned returning vacationing
vacationed vacation visiting trip originally fled deployed stationed flying flew headed heading
resident native hometown travel travels trip trips move moves live
""".split())
_FACILITY_VERBS = frozenset("""
seen treated admitted evaluated presented presenting transferred followed visited visit hospitalized
hospitalised discharged operated managed diagnosed in consulted referred surgery replacement procedure
biopsy appointment follow-up f/u dialysis rehab care delivered tx'd dx'd reviewed assessed examined
monitored observed hospitalization admission stay stayed scan imaging therapy notes records report
results transfer referral labs
""".split())


def _tail_words(text: str, pos: int) -> list[str]:
    """The last few whitespace-separated words before ``pos``, lower-cased (a leading article
    ``the``/``our`` kept as the last item); ``[]`` when punctuation ends the text before ``pos``."""
    start = max(0, pos - 48)
    chunk = text[start:pos]
    if chunk and not chunk[-1].isspace():
        return []
    words = chunk.lower().split()
    if start > 0 and chunk and not chunk[0].isspace() and words:
        words = words[1:]   # a cut-off word
    return words[-5:]


def _place_context_word(tail: list[str]) -> str:
    """The context word that makes a following place likely (``in``, ``lives``, ``from``), or ``""``."""
    words = tail[:-1] if tail and tail[-1] == "the" else tail
    if not words:
        return ""
    last = words[-1]
    if last in _PREPOSITIONS:
        for w in reversed(words[-4:-1]):
            if w in _PLACE_VERBS:
                return w
            if w not in _ADVERBS:
                break
        return last
    return last if last in ("visiting", "hometown") else ""


def _facility_context_word(tail: list[str]) -> str:
    """``"facility_context"`` after ``seen at``/``admitted to``..., ``"at_capitalised"`` after a
    bare ``at``, else ``""``."""
    words = tail[:-1] if tail and tail[-1] in ("the", "our") else tail
    if not words or words[-1] not in ("at", "to", "from", "@"):
        return ""
    for w in reversed(words[-4:-1]):
        if w in _FACILITY_VERBS:
            return "facility_context"
        if w not in _ADVERBS:
            break
    return "at_capitalised" if words[-1] in ("at", "@") else ""


def _words_before_comma(n: _Note, pos: int) -> list[Word]:
    """The capitalised words ending right before ``, `` that precedes ``pos``."""
    i = bisect.bisect_left(n.run_starts, pos) - 1
    if i < 0:
        return []
    prev = n.runs[i]
    if not _COMMA_GAP_RE.fullmatch(n.text, prev.end, pos):
        return []
    return _segment(prev.words, 0, len(prev.words))


def _city_then_state_or_country(n: _Note, t: _Tables, prev: list[Word], words: list[Word], k: int,
                                label: str) -> Iterator[Span]:
    text = n.text
    key = _key(" ".join(w.text for w in words[:k]))
    if label == "COUNTRY":
        if key in PLACE_NAME_COLLISIONS:
            return  # "Smith, Jordan" is a name
        yield Span(words[0].start, words[k - 1].end, "COUNTRY", CERTAIN, "locations:city_country")
        city = _city_words_after_facility(prev, t)
        if _plain_city(city, t):
            yield Span(city[0].start, city[-1].end, "CITY", CERTAIN, "locations:city_country")
        return
    abbr = t.states.get(key, "")
    city = _known_city_suffix(prev, t)
    zip_m = re.compile(r",?[ \t]+(\d{5}(?:-\d{4})?)(?![\w-])").match(text, words[k - 1].end)
    ckey = _key(" ".join(w.text for w in city))
    if city and (ckey, abbr) in t.place_pairs:
        tier = CERTAIN
    elif zip_m or (key not in PLACE_NAME_COLLISIONS and (city or len(prev) <= 3)):
        tier = CERTAIN
    else:
        tier = REVIEW
    city_tier = tier
    if not city:
        city = _city_words_after_facility(prev, t)[-3:]
        city_tier = REVIEW if tier == CERTAIN and not zip_m else tier
    if city and _norm(city[0].text) not in _NOT_FACILITY_FIRST:
        yield Span(city[0].start, city[-1].end, "CITY", city_tier, "locations:city_state_name")
    yield Span(words[0].start, words[k - 1].end, "STATE", tier, "locations:city_state_name")
    if zip_m:
        yield Span(zip_m.start(1), zip_m.end(1), "ZIP", CERTAIN, "locations:city_state_name")


def _facility_context(n: _Note, t: _Tables, r: _Run) -> Iterator[Span]:
    """Capitalised words after ``seen at``, ``admitted to`` or a bare ``at`` (review)."""
    text = n.text
    source = _facility_context_word(_tail_words(text, r.start))
    if not source:
        return
    first_line = [r.words[0]]
    for w in _takewhile_same_line(r.words[1:]):
        if w.text in ("for", "the"):
            break   # "Calloway Rehabilitation Center for LSVT BIG"
        first_line.append(w)
    words = _strip_leading(first_line)
    if len(words) > 6:
        words = words[:6]
    if not words or _name_kind(words, t.generic) != "distinct":
        return
    if n.caps and all(w.text.isupper() for w in words):
        return
    found = _lookup_place(t, words)
    if found and found[0] == len(words):
        return  # a bare city/state/country: the place rules label it
    end = _trim_end(words[-1].end, text, words[0].start)
    yield Span(words[0].start, end, "HOSPITAL", REVIEW, f"locations:{source}")


def _takewhile_same_line(words) -> Iterator[Word]:
    for w in words:
        if w.nl:
            return
        yield w


# --------------------------------------------------------------------------------------------
# Rules anchored on numbers, abbreviations and keywords
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
    if n.lower:
        for m in t.street_lower_re.finditer(text):
            words = _words(m.group("name"), m.start("name"))
            if any(_norm(w.text) in _LEADING_STOP or _norm(w.text) in t.generic for w in words):
                continue
            yield Span(m.start(), m.end(), "STREET", REVIEW, "locations:street_lower")


def _city_state(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in _ABBR_RE.finditer(text):
        st, zip_ = m.group("st"), m.group("zip")
        if st not in t.abbrs:
            continue
        comma = m.group("sep").startswith(",")
        words = _words_before(n, m.start())
        if not words:
            continue
        city = _known_city_suffix(words, t)
        key = _key(" ".join(w.text for w in city))
        if city and (key, st) in t.place_pairs:
            tier = CERTAIN
        elif zip_:
            tier = CERTAIN
            if not city:
                city = _city_words_after_facility(words, t)[-3:]
        elif city and comma and st not in _CREDENTIAL_ABBR:
            tier = REVIEW if st in _AMBIGUOUS_STATE_ABBR else CERTAIN
        elif comma and st not in _AMBIGUOUS_STATE_ABBR:
            # "Tarrytown, NY": an unlisted town before an unambiguous abbreviation.
            city = _city_words_after_facility(words, t)[-2:]
            tier = CERTAIN if city and all(w.text[:1].isupper() and not w.text.isupper() for w in city) \
                else REVIEW
        else:
            continue
        if city and _norm(city[0].text) not in _NOT_FACILITY_FIRST:
            yield Span(city[0].start, city[-1].end, "CITY", tier, "locations:city_state_zip")
        yield Span(m.start("st"), m.end("st"), "STATE", tier, "locations:city_state_zip")
        if zip_:
            yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:city_state_zip")
    for m in _ZIP_CONTEXT_RE.finditer(text):
        yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:zip_context")
    for m in _ZIP_AFTER_WORD_RE.finditer(text):
        city = _known_city_suffix(_words_before(n, m.start()), t)
        if city:
            yield Span(city[0].start, city[-1].end, "CITY", CERTAIN, "locations:city_zip")
            yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:city_zip")
    if n.lower:
        for m in _LOWER_CSZ_RE.finditer(text):
            if m.group("st").upper() not in t.abbrs:
                continue
            words = [w for w in _words(m.group("city"), m.start("city")) if _norm(w.text) not in _LEADING_STOP]
            if words:
                yield Span(words[0].start, words[-1].end, "CITY", CERTAIN, "locations:city_state_zip")
            yield Span(m.start("st"), m.end("st"), "STATE", CERTAIN, "locations:city_state_zip")
            yield Span(m.start("zip"), m.end("zip"), "ZIP", CERTAIN, "locations:city_state_zip")


def _lower_case_rules(n: _Note, t: _Tables) -> Iterator[Span]:
    """All-lower-case notes: places after context words, facilities and businesses (review
    unless a residence word precedes a large city)."""
    text = n.text
    for m in t.context_lower_re.finditer(text):
        words = _words(m.group("run"), m.start("run"))
        found = _lookup_place(t, words)
        if not found:
            continue
        k, label, pop = found
        key = _key(" ".join(w.text for w in words[:k]))
        ctx_first = _place_context_word(_tail_words(text, m.start("ctx")) + [m.group("ctx")])
        if not ctx_first:
            continue
        tier = _context_tier(t, key, label, k, pop, ctx_first, False)
        if tier == CERTAIN and not (ctx_first in _STRONG_CONTEXT and (k > 1 or pop >= _BIG_CITY)):
            tier = REVIEW
        if tier:
            yield Span(words[0].start, words[k - 1].end, label, tier,
                       f"locations:place_context_lower:{label.lower()}")
    for rx, label, source in ((t.hospital_lower_re, "HOSPITAL", "hospital_lower"),
                              (t.org_lower_re, "ORGANIZATION", "organization:lower_case")):
        for m in rx.finditer(text):
            words = _strip_leading(_words(m.group("name"), m.start("name")))
            if _name_kind(words, t.generic) != "distinct":
                continue
            yield Span(words[0].start, m.end(), label, REVIEW, f"locations:{source}")


def _departments(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text

    def name_before(pos: int) -> list[Word]:
        words = _strip_leading(_words_before(n, pos))
        if words and _name_kind(words, t.generic) == "distinct" and not _after_title(text, words[0].start):
            return words
        return []

    for rx, source in ((_DEPT_DIR_RE, "direction"), (_DEPT_WARD_RE, "ward")):
        for m in rx.finditer(text):
            name = name_before(m.start())
            yield Span(name[0].start if name else m.start(), m.end(), "DEPARTMENT", CERTAIN,
                       f"locations:department:{source}")
    for rx, source in ((_DEPT_NUMBER_UNIT_RE, "building_number_unit"),
                       (_DEPT_BEFORE_ROOM_RE, "building_number_room")):
        for m in rx.finditer(text):
            name = name_before(m.start())
            if not name and n.lower:
                lw = re.search(r"([a-z]{3,})[ \t]+$", text[max(0, m.start() - 32):m.start()])
                if lw and _norm(lw.group(1)) not in t.generic | _LEADING_STOP:
                    name = [Word(m.start() - len(lw.group()), m.start(), lw.group(1))]
            if name:
                yield Span(name[0].start, m.end(), "DEPARTMENT", CERTAIN, f"locations:department:{source}")
    for rx, source, tier in ((_DEPT_AFTER_ROOM_RE, "after_room", CERTAIN),
                             (_DEPT_ON_AT_RE, "on_number_at", REVIEW)):
        for m in rx.finditer(text):
            words = _strip_leading(_words(m.group("name"), m.start("name")))
            if not words or _name_kind(words, t.generic) != "distinct":
                continue
            yield Span(words[0].start, m.end(), "DEPARTMENT", tier, f"locations:department:{source}")


def _organizations_context(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for rx, source in ((_ORG_CONTEXT_RE, "employer_context"), (_ORG_LABEL_RE, "employer_label")):
        for m in rx.finditer(text):
            r = _run_at(n, m.end())
            if r is None:
                continue
            words = _strip_leading([r.words[0]] + list(_takewhile_same_line(r.words[1:6])))
            if not words or _name_kind(words, t.generic) != "distinct" or _after_title(text, words[0].start):
                continue
            end = _trim_end(words[-1].end, text, words[0].start)
            yield Span(words[0].start, end, "ORGANIZATION", CERTAIN, f"locations:organization:{source}")


def _saints_and_rooms(n: _Note, t: _Tables) -> Iterator[Span]:
    text = n.text
    for m in _SAINT_RE.finditer(text):
        yield Span(m.start(), m.end(), "HOSPITAL", REVIEW, "locations:saint_possessive")
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


_CITY_AFTER_RE = re.compile(r"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?")


def _city_after(n: _Note, t: _Tables, anchors: list[Span]) -> Iterator[Span]:
    """A city right after an address or a facility: ``2284 Granite Street, Bangor;``."""
    text = n.text
    for a in anchors:
        m = _CITY_AFTER_RE.match(text, a.end)
        if not m:
            continue
        r = _run_at(n, m.end())
        if r is None:
            continue
        words = [r.words[0]] + list(_takewhile_same_line(r.words[1:]))
        if not re.match(r"[ \t]*(?:[;.,)\r\n]|$)", text[words[-1].end:words[-1].end + 2]):
            continue
        found = _lookup_place(t, words)
        if found and found[0] == len(words):
            label = found[1]
            key = _key(" ".join(w.text for w in words))
            tier = REVIEW if key in PLACE_COMMON_WORDS or key in PLACE_NAME_COLLISIONS else CERTAIN
            yield Span(words[0].start, words[-1].end, label, tier, f"locations:{label.lower()}_after")
        elif _plain_city(words, t) and not any(w.text.isupper() and len(w.text) <= 3 for w in words):
            yield Span(words[0].start, words[-1].end, "CITY", REVIEW, "locations:city_after")


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
    for rule in (_run_rules, _streets, _city_state, _departments, _organizations_context,
                 _saints_and_rooms):
        out.extend(rule(n, t))
    if n.lower:
        out.extend(_lower_case_rules(n, t))
    anchors = [s for s in out if s.tier == CERTAIN and s.label in (
        "STREET", "HOSPITAL", "ORGANIZATION", "LOCATION-OTHER", "DEPARTMENT")]
    out.extend(_city_after(n, t, anchors))
    return out
