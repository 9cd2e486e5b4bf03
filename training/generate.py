"""Generated training sentences for the NER model (issue 4).

``generate(n, seed) -> list[dict]`` returns ``n`` examples ``{"text": str, "spans": [{"start",
"end", "label"}]}`` with i2b2 subtype labels (PATIENT, DOCTOR, USERNAME, PROFESSION, HOSPITAL,
ORGANIZATION, STREET, CITY, STATE, COUNTRY, ZIP, ROOM, DEPARTMENT, LOCATION-OTHER, AGE, DATE,
PHONE). Deterministic for a given seed (one ``random.Random(seed)``).

Aimed at what the rules miss: names outside census lists (invented syllable names from many
cultures), names without titles, names that are English words, names in lower-case or ALL CAPS
sentences, invented hospitals/organisations/places, professions and ages over 89 in context.
About 40% of sentences carry clinical content that must stay O (eponyms, drugs, doses, lab codes,
scores, ages <= 89, generic services, care-team roles). Conventions follow
``corpus/GUIDELINE.md`` (titles, credentials, articles and 'years' outside spans).

Everything is invented; no real person's data. Run ``python training/generate.py`` for label counts.
"""
from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

try:  # the package is importable when run from the repository root or installed
    from deid_core import lists as _lists
except ImportError:  # pragma: no cover - run as a script from training/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from deid_core import lists as _lists

LABELS = ("PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "HOSPITAL", "ORGANIZATION", "STREET",
          "CITY", "STATE", "COUNTRY", "ZIP", "ROOM", "DEPARTMENT", "LOCATION-OTHER", "AGE", "DATE",
          "PHONE")
NAME_LABELS = ("PATIENT", "DOCTOR", "USERNAME")
MIN_CHARS, MAX_CHARS = 60, 400

# ----------------------------------------------------------------------------------------------
# Never-PHI vocabulary (negative material)

EPO_DX = (
    "Parkinson disease", "Parkinson's disease", "Bell's palsy", "Hodgkin lymphoma",
    "non-Hodgkin lymphoma", "Crohn's disease", "Crohn disease", "Wolff-Parkinson-White",
    "Hashimoto thyroiditis", "Graves disease", "Cushing syndrome", "Addison disease",
    "Alzheimer dementia", "Down syndrome", "Mobitz type I block", "Lyme disease", "West Nile virus",
    "Guillain-Barre syndrome", "Barrett esophagus", "Raynaud phenomenon", "Sjogren syndrome",
    "Meniere disease", "Baker cyst", "Colles fracture", "Boutonniere deformity",
    "Dupuytren contracture", "Osgood-Schlatter disease", "Kaposi sarcoma", "Wilms tumor",
    "Ewing sarcoma", "Hirschsprung disease", "Paget disease", "Tourette syndrome",
    "Marfan syndrome", "Wernicke encephalopathy", "Bell palsy", "Peyronie disease",
    "Kawasaki disease", "Huntington disease", "Creutzfeldt-Jakob disease", "Takotsubo cardiomyopathy",
)
EPO_DEV = (
    "Foley catheter", "Foley", "Swan-Ganz catheter", "Whipple procedure", "Jackson-Pratt drain",
    "JP drain", "Holter monitor", "Nissen fundoplication", "Roux-en-Y gastric bypass",
    "Hartmann procedure", "Tenckhoff catheter", "Hickman line", "Groshong catheter",
    "Heimlich maneuver", "Epley maneuver", "Valsalva maneuver", "Doppler ultrasound", "Pap smear",
    "Bruce protocol stress test", "Billroth II", "Ilizarov frame", "Hartmann pouch", "Miami J collar",
    "Steri-Strips", "Kirschner wire", "Blakemore tube", "Ommaya reservoir", "Mayo stand",
)
EPO_SIGN = (
    "Glasgow Coma Scale 14", "Babinski sign", "Apgar score", "Cheyne-Stokes respirations",
    "Gleason score 3+4", "Murphy's sign", "Romberg", "Homans sign", "Kernig sign", "Breslow depth",
    "Tinel sign", "Phalen test", "Lachman test", "McMurray test", "Trendelenburg gait",
    "Kussmaul breathing", "Bishop score", "Wells score", "Ranson criteria", "Child-Pugh class B",
    "Mallampati II", "Tanner stage 3", "Bence Jones protein", "Howell-Jolly bodies",
    "Reed-Sternberg cells", "Auer rods", "Ziehl-Neelsen stain", "Gram stain", "Korotkoff sounds",
    "Austin Flint murmur", "Brudzinski sign", "Chvostek sign", "Trousseau sign", "Kehr sign",
    "Rovsing sign", "McBurney point tenderness", "Virchow node", "Bouchard nodes",
    "Heberden nodes", "Hunt and Hess grade 2", "Fisher grade 3", "Spetzler-Martin grade",
    "Rankin score 2", "Bristol stool type 6", "Braden score 14", "Morse fall score 45",
    "Richmond Agitation-Sedation Scale -1", "Ramsay score 3", "Glasgow-Blatchford score 6",
)
EPONYMS = EPO_DX + EPO_DEV + EPO_SIGN
#: Words of the eponyms above (lower case, also without ``'s``): generated names and places
#: never contain one. ``lists/medical_eponyms.txt`` is not added on purpose: it holds common
#: surnames (Wilson, Turner) that the model must still see as names.
EPONYM_WORDS = frozenset(
    v for e in EPONYMS for w in re.split(r"[\s\-']+", e) if len(w) > 2
    for v in (w.lower(), w.lower().rstrip("'s"))
)

DRUGS = ("metoprolol", "lisinopril", "apixaban", "Eliquis", "warfarin", "Coumadin", "furosemide",
         "Lasix", "atorvastatin", "metformin", "insulin glargine", "Lantus", "amlodipine",
         "levothyroxine", "Synthroid", "gabapentin", "sertraline", "Zoloft", "prednisone",
         "vancomycin", "piperacillin-tazobactam", "Zosyn", "ceftriaxone", "azithromycin",
         "omeprazole", "pantoprazole", "hydrochlorothiazide", "tamsulosin", "Flomax", "donepezil",
         "carbidopa-levodopa", "Sinemet", "oxycodone", "acetaminophen", "Tylenol", "ondansetron",
         "Zofran", "heparin", "enoxaparin", "Lovenox", "clopidogrel", "Plavix", "digoxin",
         "amiodarone", "spironolactone", "mesalamine", "infliximab", "Humira", "allopurinol")
DOSES = ("25 mg PO BID", "5 mg daily", "40 mg IV q12h", "500 mg PO TID", "10 units SC qHS",
         "0.5 mg PO qAM", "1 g IV q24h", "81 mg daily", "2.5 mg twice daily", "5 mg/kg",
         "12.5 mg PO daily", "100 mcg daily", "300 mg qHS", "4 mg IV q6h PRN", "20 mEq PO x1",
         "7.5 mg Mon/Fri", "1:1000", "2 puffs q4h PRN", "650 mg q6h PRN", "0.4 mg SL q5min x3")
LABS = ("HbA1c 7.9%", "BMP", "CBC with diff", "TSH 3.2", "LOINC 2345-7", "ICD-10 I48.91",
        "E11.9", "CPT 99214", "BNP 812", "troponin <0.01", "creatinine 1.4", "INR 2.6",
        "K 3.3", "Na 131", "WBC 14.2", "Hgb 8.9", "lactate 2.1", "ALT 56", "lipase 40",
        "eGFR 48", "PSA 6.1", "LDL 131", "ferritin 12", "D-dimer 0.4", "procalcitonin 0.3",
        "UA negative", "ESR 44", "CRP 12", "A1c 6.8", "magnesium 1.7")
SCORES = ("GCS 15", "GCS 3/15", "NIHSS 4", "Apgar 8 and 9", "PHQ-9 12", "MoCA 22/30",
          "CHA2DS2-VASc 4", "HAS-BLED 2", "MMSE 24", "pain 6/10", "ECOG 1", "NYHA class III",
          "CURB-65 of 2", "Wells score 4", "TIMI 3", "ASA class II", "Braden 16", "GAD-7 9")
SERVICES = ("cardiology", "nephrology", "the ICU", "the emergency department", "GI clinic",
            "radiology", "physical therapy", "social work", "palliative care", "neurology",
            "the MICU", "orthopedics", "the cath lab", "interventional radiology", "oncology",
            "infectious disease", "the step-down unit", "pharmacy", "dermatology", "urology",
            "the OR", "endocrinology", "pulmonology", "general surgery", "the wound care team")
ROLES = ("the attending", "the pharmacist", "the charge nurse", "the radiologist", "the resident",
         "the covering physician", "nursing", "the on-call fellow", "the hospitalist",
         "the case manager", "the dietitian", "the interpreter", "the PT")
RELATIONS = ("wife", "husband", "daughter", "son", "mother", "father", "sister", "brother",
             "niece", "nephew", "granddaughter", "grandson", "partner", "neighbor", "friend",
             "aunt", "uncle", "cousin", "stepdaughter", "caregiver")
CONDITIONS = ("atrial fibrillation", "CHF exacerbation", "COPD", "type 2 diabetes",
              "community-acquired pneumonia", "cellulitis of the left leg", "UTI", "CKD stage 3",
              "hypertension", "GERD", "a fall at home", "syncope", "DVT", "acute kidney injury",
              "chest pain", "hyperkalemia", "delirium", "sepsis", "a COPD flare", "osteoarthritis")

# ----------------------------------------------------------------------------------------------
# Invented names, many cultures (syllable combinations)

CULTURES = {
    "yoruba": (("Ade", "Olu", "Fola", "Oye", "Bo", "Ayo", "Ife", "Tolu", "Kay", "Femi", "Dami"),
               ("wale", "mide", "kunle", "tola", "seun", "yemi", "dayo", "lade", "bisi", "nike"),
               ("Ogun", "Ola", "Ade", "Ako", "Oni", "Faj", "Bam", "Oye", "Adeb", "Olan"),
               ("banjo", "tunji", "deyi", "wunmi", "yemi", "bode", "dipe", "lowo", "sanya", "gbade")),
    "vietnamese": (("Thi ", "Van ", "Minh ", "Ngoc ", "Duc ", "Thanh ", "Quoc ", "Bao "),
                   ("Lan", "Hoa", "Tuan", "Anh", "Thu", "Linh", "Quang", "Hai", "Phuong", "Khoa"),
                   ("Ngu", "Tr", "Ph", "Ho", "D", "Bu", "Vu", "Ng", "Du", "L"),
                   ("yen", "an", "am", "ang", "ong", "i", "uong", "o", "uy", "ieu")),
    "polish": (("Jad", "Mał", "Zbig", "Krzy", "Agn", "Grze", "Ew", "Dor", "Stan", "Wies"),
               ("wiga", "gorzata", "niew", "sztof", "ieszka", "gorz", "elina", "ota", "isław", "ława"),
               ("Kow", "Wiśn", "Ziel", "Szym", "Wojc", "Kam", "Lew", "Dąbr", "Kozł", "Jank", "Pawl",
                "Grab", "Sobcz", "Brzez"),
               ("alski", "ewski", "owicz", "czyk", "iak", "ińska", "arek", "owska", "ecki", "uszko")),
    "irish": (("Sio", "Nia", "Ci", "Aoi", "Oi", "Cia", "Eo", "Saoi", "Pad", "Grai", "Ro", "Dea"),
              ("bhan", "mh", "an", "fe", "sin", "ran", "in", "rse", "raig", "nne", "isin", "rbhla"),
              ("O'Donn", "O'Fenn", "Mac Giol", "McKeev", "O'Brann", "Mac Dhon", "O'Dúl", "McGarr",
               "O'Sull", "Ni Chonn"),
              ("ell", "ey", "la", "ihan", "agh", "ach", "ivan", "aill", "ery", "an")),
    "arabic": (("Ha", "Sa", "Ka", "Fa", "Na", "Ra", "Ya", "Ta", "Mu", "Za", "Abdul ", "Nou"),
               ("mid", "lim", "rim", "tima", "dia", "sser", "sin", "rek", "na", "hra", "lah", "ra"),
               ("Al-Rash", "Al-Zah", "Al-Qas", "El-Hadd", "Bin Sa", "Mans", "Khal", "Hadd", "Nas",
                "Qur", "Abu Sh"),
               ("idi", "rani", "imi", "awi", "our", "il", "ad", "ouri", "ash", "ein")),
    "indian": (("Pra", "Anu", "Sun", "Vik", "Dee", "Ra", "Shre", "Kav", "Har", "Nee", "Aj", "Lak"),
               ("kash", "radha", "ita", "ram", "pika", "jesh", "ya", "ya", "preet", "lam", "ay", "shmi"),
               ("Venkat", "Rag", "Chat", "Kri", "Bhat", "Subra", "Desh", "Iyen", "Kul", "Mukh",
                "Sriniv", "Pad"),
               ("araman", "havan", "urvedi", "shnan", "nagar", "maniam", "pande", "gar", "karni",
                "erjee", "asan", "manabhan")),
    "chinese": (("Xiao", "Wei", "Jia", "Li", "Zhi", "Hui", "Yu", "Mei", "Jun", "Qing"),
                ("ming", "hua", "lin", "ying", "qiang", "fang", "jie", "ting", "hao", "yan"),
                ("Zh", "Li", "X", "Q", "Ch", "Sh", "Y", "G", "H", "T"),
                ("ang", "u", "iao", "en", "ong", "ui", "ao", "eng", "uo", "an")),
    "spanish": (("Guad", "Xim", "Leon", "Itz", "Mar", "Ros", "Esper", "Cons", "Nar", "Ebo"),
                ("alupe", "ena", "ardo", "el", "isol", "aura", "anza", "uelo", "ciso", "ny"),
                ("Villa", "Ech", "Bar", "Zúñ", "Cast", "Ibar", "Olm", "Ver", "Quint", "Arr"),
                ("verde", "everría", "rientos", "iga", "añeda", "guren", "edo", "dugo", "anilla", "ieta")),
    "korean": (("Ji", "Min", "Seo", "Hye", "Dong", "Eun", "Sung", "Yeon"),
               ("-woo", "-jun", "-yeon", "-jin", "hee", "-ho", "-ah", "su"),
               ("Ky", "Ju", "Ch", "Hw", "Gw", "Se"),
               ("ung", "oh", "eon", "ang", "ak", "ong")),
    "somali": (("Ay", "Hod", "Faa", "Ab", "Sag", "Ilh", "Xa", "Mag"),
               ("aan", "an", "duma", "dirahman", "al", "aan", "mza", "ool"),
               ("Warsa", "Fara", "Cil", "Xirs", "Gu", "Ducaa"),
               ("me", "h", "mi", "i", "leed", "le")),
    "finnish": (("Aino", "Eero", "Ilk", "Tuu", "Sirk", "Vei", "Pää", "Kaar"),
                ("", "", "ka", "likki", "ku", "kko", "vo", "ina"),
                ("Häm", "Kurk", "Vaini", "Ojan", "Lehti", "Saari", "Mäki", "Tuom"),
                ("äläinen", "inen", "ola", "perä", "mäki", "nen", "vaara", "isto")),
    "greek": (("Kon", "Deme", "Evan", "Ele", "Stav", "Pana", "Kal", "Ath"),
              ("stantinos", "tra", "gelia", "ni", "ros", "giota", "liope", "ena"),
              ("Papa", "Karag", "Theod", "Chrys", "Ioann", "Vasil"),
              ("dopoulos", "iannis", "orakis", "ostomou", "idis", "akos")),
    "anglo": (("Whit", "Ash", "Bren", "Cal", "Del", "Ever", "Gwen", "Har", "Lin", "Mar", "Tam"),
              ("ney", "ley", "dan", "vin", "ores", "ett", "dolyn", "low", "nea", "lowe", "sin"),
              ("Whit", "Ash", "Brook", "Thorn", "Hal", "Pem", "Crad", "Lind", "Wex", "Fenw", "Quill",
               "Harr", "Dunm", "Kettle"),
              ("combe", "ley", "wick", "ford", "more", "bury", "dock", "qvist", "ton", "sby", "well",
               "ingham", "ore", "thwaite")),
}
# Given names and surnames that are also English words
WORD_GIVEN = ("Hope", "Will", "Rose", "Mark", "Grace", "Bill", "Faith", "Joy", "June", "April",
              "May", "Dawn", "Amber", "Autumn", "Hunter", "Rich", "Sunny", "Summer", "Crystal",
              "Iris", "Ivy", "Pearl", "Ruby", "Violet", "Chase", "Drew", "Gene", "Guy", "Lance",
              "Miles", "Pat", "Ray", "Rob", "Sandy", "Sue", "Art", "Frank", "Sterling", "Penny",
              "Bob", "Carol", "Destiny", "Heather", "Holly", "Hazel", "Jack", "Max", "Patience",
              "Precious", "Honor", "River", "Sky", "Storm", "Trinity", "Victory", "Rocky", "Dusty")
WORD_SURNAME = ("Young", "Brown", "Black", "Green", "King", "Long", "Short", "Hall", "Wood",
                "Stone", "Hill", "Rice", "Cook", "Fox", "Bird", "Lamb", "Page", "Price", "Small",
                "Strong", "Sharp", "Swift", "Wise", "Hale", "Rivers", "Banks", "Church", "Mann",
                "Gay", "Love", "Moody", "Bush", "Frost", "Snow", "Winter", "Day", "Noble", "Marsh",
                "Lake", "Field", "Ward", "Wolf", "Crane", "Hart", "Sparks", "Pool", "Walker",
                "Best", "Little", "Rich", "Cross", "Sweet", "Hunter", "Carpenter", "Mason",
                "Gardner", "Fisherman", "Brooks", "May", "North", "West", "Bright", "Golden")
INITIALS = "ABCDEFGHJKLMNPRSTVWY"
SUFFIXES = ("Jr.", "Sr.", "II", "III")

PLACE_A = ("Ash", "Birch", "Cedar", "Elm", "Fern", "Hazel", "Lark", "Maple", "Oak", "Pine",
           "Raven", "Stone", "Willow", "Wren", "Clear", "Fair", "Green", "Red", "North", "South",
           "Briar", "Crane", "Heron", "Quill", "Thistle", "Alder", "Juniper", "Copper", "Silver",
           "Amber", "Holly", "Marigold", "Osprey", "Kestrel", "Bramble", "Sorrel", "Tansy")
PLACE_B = ("brook", "field", "ford", "haven", "hill", "mont", "moor", "ridge", "vale", "view",
           "wood", "water", "dale", "crest", "stead", "bury", "well", "gate", "port", "wick")
FOREIGN_CITY_A = ("Kar", "Ol", "Bur", "San ", "Nova ", "Port ", "Ven", "Tal", "Ibad", "Mer",
                  "Ząb", "Bình ", "Dar ", "Kis", "Lu", "Vil", "Sai", "Qar", "Ban", "Mok")
FOREIGN_CITY_B = ("ovo", "ubeni", "gaz", "Isidro", "Aurora", "Esperanza", "dora", "linna",
                  "anpur", "ida", "kowice", "Phước", "el Rahma", "umu", "sana", "lanueva",
                  "ibara", "aqin", "jarmasin", "opane")
HOSP_TYPES = ("General Hospital", "Medical Center", "Regional Medical Center", "Community Hospital",
              "Family Practice", "Health Center", "Rehabilitation Hospital", "Nursing Home",
              "Memorial Hospital", "Children's Hospital", "Cancer Institute", "Urgent Care",
              "Skilled Nursing Facility", "Behavioral Health Center", "Surgical Associates",
              "Women's Clinic", "Dialysis Center", "Heart Institute", "Clinic", "Care Center",
              "Hospice", "Orthopedic Group", "Eye Institute", "Infirmary", "Health System")
ORG_TYPES = ("Freight", "Pharmacy", "Elementary School", "High School", "Credit Union",
             "Logistics", "Labs", "Insurance", "Roofing", "Construction", "Bakery", "Auto Body",
             "Dairy", "Textiles", "Software", "Community College", "Baptist Church", "Lutheran Church",
             "Mosque", "Temple", "Foods", "Manufacturing", "Landscaping", "Plumbing", "Bank",
             "Transit Authority", "Public Library", "Veterinary Clinic", "Law Group", "Diner",
             "Hardware", "Realty", "Mills", "Steelworks", "Shipping", "Academy", "Casino")
STREET_TYPES = ("Lane", "Street", "St.", "Road", "Rd", "Avenue", "Ave", "Drive", "Dr.", "Court",
                "Way", "Place", "Terrace", "Circle", "Boulevard", "Pike", "Trail", "Row")
LOC_OTHER = ("Park", "Men's Shelter", "Women's Shelter", "Correctional Facility", "State Prison",
             "Reservoir", "Trailhead", "Campground", "Community Garden", "County Jail",
             "Recreation Center", "Marina", "Fairgrounds", "Mall", "Bus Terminal", "Quarry")
DEPT_NAMED = ("{P} Cardiac Care Unit", "{P} Wing", "{N} West", "{N} North", "{N} East",
              "{N} South", "{P} Pavilion", "{S} Burn Unit", "{S} Tower", "{P} Birthing Center",
              "{S} Neuro ICU", "{P} Building")
PROFESSIONS = (
    "machinist", "school bus driver", "accountant", "welder", "electrician", "teacher",
    "carpenter", "farmer", "truck driver", "software engineer", "librarian", "plumber", "chef",
    "line cook", "cashier", "janitor", "firefighter", "police officer", "mail carrier",
    "hairdresser", "dental hygienist", "graphic designer", "lawyer", "paralegal", "stockbroker",
    "barista", "construction worker", "roofer", "fisherman", "mechanic", "pastor", "homemaker",
    "data analyst", "forklift operator", "landscaper", "bank teller", "real estate agent",
    "security guard", "seamstress", "tailor", "warehouse worker", "veterinarian", "dairy farmer",
    "nanny", "home health aide", "bartender", "waitress", "airline pilot", "flight attendant",
    "coal miner", "longshoreman", "translator", "journalist", "nurse", "registered nurse",
    "professor of chemistry", "high school math teacher", "auto mechanic", "bricklayer",
    "housekeeper", "night watchman", "crane operator", "dentist", "architect", "pharmacist",
    "hospice chaplain", "Uber driver", "delivery driver", "sous chef", "tattoo artist",
    "ironworker", "lineman", "oil rig worker", "nail technician", "preschool teacher",
    "civil engineer", "insurance adjuster", "court reporter", "sheet metal worker", "HVAC technician",
    "butcher", "baker", "pipefitter", "lab technician", "surveyor", "sculptor", "musician",
    "bus mechanic", "shipping clerk", "postal worker", "corrections officer", "social worker",
    "daycare worker", "painter", "stonemason", "beekeeper", "pastry chef", "loan officer",
)
NUM_WORDS = {90: "ninety", 100: "one hundred"}
UNITS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
MON3 = tuple(m[:3] for m in MONTHS)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SMALL_WORDS = frozenset({"and", "of", "the", "da", "de", "du", "es", "la"})


def _title_country(name: str) -> str:
    words = name.split(" ")
    words = [w if (i and w in SMALL_WORDS) else w[:1].upper() + w[1:] for i, w in enumerate(words)]
    return re.sub(r"-([a-z])", lambda m: "-" + m.group(1).upper(), " ".join(words))


class _Gen:
    """Slot fillers bound to one Random; each returns the text to insert (labels come from the
    template)."""

    def __init__(self, rng: random.Random):
        self.r = rng
        self.us_places = [p for p in _lists.us_places()
                          if not any(w.lower() in EPONYM_WORDS for w in p[0].split())]
        self.countries = sorted(_title_country(c) for c in _lists.countries())
        self.states = sorted(_lists.us_states().items())
        try:
            extra = sorted(_lists.handwritten("professions"))
        except Exception:  # pragma: no cover - list missing
            extra = []
        self.professions = tuple(PROFESSIONS) + tuple(extra)

    # -- names -----------------------------------------------------------------------------
    def _ok(self, name: str) -> bool:
        return not any(w.lower().strip(".,'") in EPONYM_WORDS
                       for w in re.split(r"[\s\-']+", name) if w)

    def given(self) -> str:
        r = self.r
        while True:
            k = r.random()
            if k < 0.2:
                g = r.choice(WORD_GIVEN)
            else:
                c = CULTURES[r.choice(sorted(CULTURES))]
                g = r.choice(c[0]) + r.choice(c[1])
                g = g.strip()
                g = g[:1].upper() + g[1:]
            if self._ok(g) and len(g) > 1:
                return g

    def surname(self) -> str:
        r = self.r
        while True:
            if r.random() < 0.2:
                s = r.choice(WORD_SURNAME)
            else:
                c = CULTURES[r.choice(sorted(CULTURES))]
                s = (r.choice(c[2]) + r.choice(c[3])).strip()
                s = s[:1].upper() + s[1:]
            if r.random() < 0.05:
                s2 = self.surname()
                s = s + "-" + s2
            if self._ok(s) and len(s) > 1:
                return s

    def full_name(self, allow_single: bool = True) -> str:
        r = self.r
        k = r.random()
        if k < 0.38:
            return f"{self.given()} {self.surname()}"
        if k < 0.50:
            return f"{self.given()} {r.choice(INITIALS)}. {self.surname()}"
        if k < 0.58:
            return f"{r.choice(INITIALS)}. {self.surname()}"
        if k < 0.64:
            g, s = self.given(), self.surname()
            return f"{s.upper()}, {g.upper()}" + (f" {r.choice(INITIALS)}" if r.random() < .5 else "")
        if k < 0.68:
            return f"{self.surname()}, {self.given()}"
        if k < 0.72:
            return f"{self.given()} {self.surname()} {r.choice(SUFFIXES)}"
        if k < 0.75:
            return f"{self.given()} {self.given()} {self.surname()}"
        if allow_single and k < 0.88:
            return self.surname()
        if allow_single:
            return self.given()
        return f"{self.given()} {self.surname()}"

    def username(self) -> str:
        r = self.r
        g, s = self.given(), self.surname()
        s = re.sub(r"[^A-Za-z]", "", s).lower() or "x"
        g = re.sub(r"[^A-Za-z]", "", g).lower() or "y"
        k = r.random()
        if k < 0.4:
            return f"{g[0]}{s[:7]}{r.randint(1, 99)}"
        if k < 0.7:
            return f"{g[:3]}{s[:3]}{r.randint(0, 9)}"
        return f"{s[:6]}{g[0]}"

    def initials(self) -> str:
        r = self.r
        n = r.choice((2, 3))
        s = "".join(r.choice(INITIALS) for _ in range(n))
        return s.lower() if r.random() < 0.5 else (".".join(s) + "." if r.random() < .5 else s)

    # -- places ----------------------------------------------------------------------------
    def place_word(self) -> str:
        r = self.r
        if r.random() < 0.7:
            return r.choice(PLACE_A) + r.choice(PLACE_B)
        return f"{r.choice(PLACE_A)} {r.choice(('Hill', 'Valley', 'Creek', 'Harbor', 'Falls', 'Springs', 'Point', 'Grove', 'Meadows', 'Bend'))}"

    def city(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.45:
            return r.choice(self.us_places)[0]
        if k < 0.75:
            return self.place_word()
        return (r.choice(FOREIGN_CITY_A) + r.choice(FOREIGN_CITY_B)).strip()

    def state(self) -> str:
        name, code = self.r.choice(self.states)
        return code if self.r.random() < 0.5 else _title_country(name)

    def country(self) -> str:
        return self.r.choice(self.countries)

    def zip(self) -> str:
        z = f"{self.r.randint(1000, 99999):05d}"
        return z + (f"-{self.r.randint(0, 9999):04d}" if self.r.random() < 0.15 else "")

    def street(self) -> str:
        r = self.r
        base = r.choice((self.place_word, self.surname, lambda: r.choice(PLACE_A)))()
        s = f"{r.randint(1, 9899)} {base} {r.choice(STREET_TYPES)}"
        if r.random() < 0.2:
            s += f", {r.choice(('Apt', 'Unit', '#', 'Apt.'))} {r.randint(1, 40)}{r.choice(('', 'A', 'B', 'C'))}"
        if r.random() < 0.06:
            s = f"PO Box {r.randint(10, 9999)}"
        return s

    def hospital(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.4:
            return f"{self.place_word()} {r.choice(HOSP_TYPES)}"
        if k < 0.55:
            return f"{self.surname()} {r.choice(HOSP_TYPES)}"
        if k < 0.67:
            return f"St. {self.given()}'s {r.choice(('Hospital', 'Medical Center', 'Infirmary', 'Regional'))}"
        if k < 0.77:
            return f"{r.choice(self.us_places)[0]} {r.choice(HOSP_TYPES)}"
        if k < 0.85:
            return f"Willows at {self.place_word()}"
        if k < 0.93:
            return f"{self.place_word()} {r.choice(('Pediatrics', 'Cardiology Associates', 'Primary Care', 'Dermatology', 'Internal Medicine'))}"
        return f"{self.surname()}-{self.surname()} Clinic"

    def organization(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.4:
            return f"{self.surname()} {r.choice(ORG_TYPES)}"
        if k < 0.7:
            return f"{self.place_word()} {r.choice(ORG_TYPES)}"
        if k < 0.8:
            return f"{self.surname()} & Sons {r.choice(('Roofing', 'Plumbing', 'Hardware', 'Masonry'))}"
        if k < 0.9:
            return f"First {r.choice(('Baptist', 'Methodist', 'Presbyterian'))} Church of {self.place_word()}"
        return f"{self.surname()}{r.choice(('Tech', 'Corp', ' Inc', ' LLC', 'Soft', 'Works'))}"

    def room(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.5:
            return str(r.randint(1, 999)) + r.choice(("", "", "A", "B"))
        if k < 0.75:
            return f"{r.choice(('ED', 'PACU', 'ICU', 'W'))}-{r.randint(1, 40)}"
        return f"{r.randint(100, 999)}-{r.choice('ABCD')}"

    def department(self) -> str:
        r = self.r
        t = r.choice(DEPT_NAMED)
        return t.replace("{P}", self.place_word()).replace("{S}", self.surname()).replace(
            "{N}", str(r.randint(2, 12)))

    def loc_other(self) -> str:
        return f"{self.place_word()} {self.r.choice(LOC_OTHER)}"

    def profession(self) -> str:
        return self.r.choice(self.professions)

    # -- ages, dates, phones ---------------------------------------------------------------
    def age_num(self) -> int:
        r = self.r
        return r.randint(90, 99) if r.random() < 0.85 else r.randint(100, 108)

    def age(self) -> str:
        return str(self.age_num())

    def age_words(self) -> str:
        a = self.age_num()
        if a < 100:
            w = "ninety" + ("-" + UNITS[a - 90] if a > 90 else "")
        else:
            w = "one hundred" + ((" and " if self.r.random() < .5 else " ") + UNITS[a - 100]
                                 if a > 100 else "")
        return w.capitalize() if self.r.random() < 0.1 else w

    def decade(self) -> str:
        return self.r.choice(("90s", "nineties", "100s"))

    def low_age(self) -> str:
        return str(self.r.randint(18, 89))

    def date(self) -> str:
        r = self.r
        y, m, d = r.randint(1995, 2026), r.randint(1, 12), r.randint(1, 28)
        k = r.random()
        if k < 0.3:
            return f"{m}/{d}/{y}"
        if k < 0.45:
            return f"{m:02d}/{d:02d}/{y % 100:02d}"
        if k < 0.6:
            return f"{MONTHS[m - 1]} {d}, {y}"
        if k < 0.7:
            return f"{m}/{d}"
        if k < 0.8:
            return f"{y}-{m:02d}-{d:02d}"
        if k < 0.9:
            return f"{d} {MON3[m - 1]} {y}"
        return r.choice(WEEKDAYS)

    def phone(self) -> str:
        r = self.r
        a, x = r.randint(201, 989), r.randint(0, 99)
        return r.choice((f"({a}) 555-01{x:02d}", f"{a}-555-01{x:02d}", f"{a}.555.01{x:02d}",
                         f"555-01{x:02d}"))


# Slot name -> (label or None, filler method name)
SLOTS = {
    "PAT": ("PATIENT", "full_name"), "PATG": ("PATIENT", "given"), "PATS": ("PATIENT", "surname"),
    "PATFULL": ("PATIENT", "_full2"), "WPAT": ("PATIENT", "word_name"), "DOC": ("DOCTOR", "full_name"), "DOCS": ("DOCTOR", "surname"),
    "DOCFULL": ("DOCTOR", "_full2"), "DOCG": ("DOCTOR", "given"), "INIT": ("DOCTOR", "initials"),
    "USER": ("USERNAME", "username"), "CITY": ("CITY", "city"), "STATE": ("STATE", "state"),
    "COUNTRY": ("COUNTRY", "country"), "ZIP": ("ZIP", "zip"), "STREET": ("STREET", "street"),
    "HOSP": ("HOSPITAL", "hospital"), "ORG": ("ORGANIZATION", "organization"),
    "ROOM": ("ROOM", "room"), "DEPT": ("DEPARTMENT", "department"),
    "LOCO": ("LOCATION-OTHER", "loc_other"), "PROF": ("PROFESSION", "profession"),
    "AGE": ("AGE", "age"), "AGEW": ("AGE", "age_words"), "DECADE": ("AGE", "decade"),
    "DATE": ("DATE", "date"), "PHONE": ("PHONE", "phone"),
    # unlabelled (negative) fillers
    "EPO": (None, "eponym"), "EPOX": (None, "eponym_dev"),
    "EPOS": (None, "eponym_sign"), "DRUG": (None, "drug"), "DOSE": (None, "dose"), "LAB": (None, "lab"),
    "SCORE": (None, "score"), "SERV": (None, "service"), "ROLE": (None, "role"),
    "REL": (None, "relation"), "LOWAGE": (None, "low_age"), "COND": (None, "condition"),
    "N": (None, "small_num"),
}


def _add_simple(cls):
    r = lambda seq: (lambda self: self.r.choice(seq))  # noqa: E731
    cls.eponym = r(EPO_DX)
    cls.eponym_dev = r(EPO_DEV)
    cls.eponym_sign = r(EPO_SIGN)
    cls.drug = r(DRUGS)
    cls.dose = r(DOSES)
    cls.lab = r(LABS)
    cls.score = r(SCORES)
    cls.service = r(SERVICES)
    cls.role = r(ROLES)
    cls.relation = r(RELATIONS)
    cls.condition = r(CONDITIONS)
    cls.small_num = lambda self: str(self.r.randint(2, 14))
    cls._full2 = lambda self: self.full_name(allow_single=False)
    cls.word_name = lambda self: (self.r.choice(WORD_GIVEN) + " " + self.surname()
                                  if self.r.random() < 0.7 else self.r.choice(WORD_GIVEN))
    return cls


_add_simple(_Gen)

# ----------------------------------------------------------------------------------------------
# Templates. {SLOT} is filled; positive templates contain at least one labelled slot.

POSITIVE = (
    # progress notes / HPI
    "{PAT} is a {AGE}-year-old woman with {COND} who presents with worsening dyspnea.",
    "{PATG} is a {AGE} yo man admitted from {HOSP} for {COND}.",
    "Pt is a {AGEW} year old retired {PROF} from {CITY}, {STATE}.",
    "{PATG} reports that her knee pain improved after starting {DRUG} {DOSE}.",
    "{PATG} denies chest pain, fever or chills; she continues {DRUG}.",
    "{PATS} states he has been taking {DRUG} as prescribed.",
    "Seen today with his {REL} {PATG}, who helps with his medications.",
    "Mr. {PATS} was transferred from {HOSP} with {COND}.",
    "Ms. {PATS} tolerated the {EPOX} placement without complication.",
    "{PATG} will follow up with Dr. {DOCS} in {N} weeks.",
    "Patient {PAT} was seen in room {ROOM} on {DEPT}.",
    "{PAT} was admitted on {DATE} to {DEPT} at {HOSP}.",
    "Ms. {PATS} is {AGE} and lives alone in {CITY}.",
    "This {AGE}-year-old with {EPO} was found down at home by her {REL} {PATG}.",
    "Patient is {AGEW} years old and still walks daily at {LOCO}.",
    "She is in her {DECADE} and has {EPO}.",
    "{PATG} was brought in by EMS from {LOCO} after a fall.",
    "{PATG} and her {REL} {PATG} were updated at the bedside.",
    "Transferred to {HOSP} for {EPO} evaluation; accepting physician Dr. {DOC}.",
    "Case discussed with Dr. {DOCFULL} of {HOSP}, who agrees with the plan.",
    "Per {PATG}, the swelling began after the flight back from {COUNTRY}.",
    "Recently returned from {CITY}, {COUNTRY}, where she was visiting family.",
    "Born in {COUNTRY}; moved to {CITY} in {DATE}.",
    "{PAT} called stating that {PATG}'s sugars have been above 300.",
    "{WPAT} is a pleasant {AGE} year old seen for follow up.",
    # telephone notes
    "Telephone note: spoke with {PAT}'s {REL}, {PATG}, at {PHONE} regarding {LAB} results.",
    "Called {PATG} back at {PHONE}; left message to call the clinic.",
    "{PATG} called to report dizziness after increasing {DRUG} to {DOSE}.",
    "Message from {PAT}: asking for refill of {DRUG} to {ORG}.",
    "Spoke to pharmacist at {ORG} about the {DRUG} interaction.",
    "Returned call to Mrs. {PATS}; she will bring her {REL} {PATG} to the visit.",
    "Her {REL} {PAT} (HCP) can be reached at {PHONE}.",
    # discharge text
    "Discharged to {HOSP} in stable condition on {DATE}.",
    "Discharged home to {STREET}, {CITY}, {STATE} {ZIP} with VNA services.",
    "Follow up with Dr. {DOC} at {HOSP} in {N} days.",
    "Disposition: {HOSP}, {DEPT}, room {ROOM}.",
    "She was discharged to the care of her {REL}, {PAT}, who lives in {CITY}.",
    "Please fax records to {HOSP}, attention Dr. {DOCS}.",
    "The patient will be followed by {DOCFULL}, NP, at the {HOSP} clinic.",
    # signatures
    "Electronically signed by {DOCFULL}, MD on {DATE}.",
    "{DOCFULL}, RN / {INIT}",
    "Dictated by: {DOC}, PA-C. Transcribed by {USER}.",
    "Signed: {DOCFULL} MD, {HOSP}, {DEPT}.",
    "Attending: {DOCFULL}. Resident: {DOC}. Pager {PHONE}.",
    "Note written by {DOC}, MSW, {ORG}.",
    "Cosigned by Dr. {DOCS} / {INIT}",
    "Last edited by {USER} on {DATE}.",
    "{DOCFULL}, PharmD, reviewed the {DRUG} dosing.",
    # social history
    "Social history: works as a {PROF} at {ORG}; lives with her {REL} {PATG} in {CITY}.",
    "SH: retired {PROF}, former smoker, lives at {STREET} with his {REL}.",
    "He is a {PROF} and drinks 2-3 beers on weekends.",
    "Works part-time as a {PROF}; previously a {PROF} for {N} years.",
    "Patient is employed by {ORG} as a {PROF}.",
    "She used to work as a {PROF} in {COUNTRY} before moving to {CITY}.",
    "Lives in a group home in {CITY}; attends {ORG} on weekdays.",
    "Her {REL} {PATG} is a {PROF} and is her health care proxy.",
    "Occupation: {PROF}. Insurance through {ORG}.",
    "He volunteers at {LOCO} and attends {ORG}.",
    "Moved from {CITY}, {STATE} to be closer to her {REL} {PAT}.",
    "Homeless, stays at {LOCO} most nights.",
    # family history
    "Family history: mother {PATG} had {EPO}; father died at {AGE}.",
    "FH: grandmother lived to {AGEW}; sister {PATG} with breast cancer.",
    "Her father, {PAT}, was treated at {HOSP} for {EPO}.",
    # lower / caps register
    "pt {PATG} states she ran out of {DRUG} last week",
    "spoke w/ {REL} {PATG} who says pt is confused",
    "PT {PATS} SEEN IN {DEPT}, ROOM {ROOM}",
    "ADMITTED FROM {HOSP} WITH {COND}",
    "{PATG} knows the plan and agrees.",
    "{PATG} walked {N} laps in the hallway with PT.",
    "{PATG} wants to go home to {CITY} tomorrow.",
    "{PATG} asked whether she can fly to {COUNTRY} next month.",
    "{WPAT} is doing well on {DRUG}.",
    "{WPAT} and {WPAT} accompanied the patient.",
    "Dr. {DOCS} and Dr. {DOCS} discussed the {EPO} findings with {PATG}.",
    "Referred to Dr. {DOCFULL} ({HOSP}) for {EPO} management.",
    "Outside records from {HOSP} in {CITY} were reviewed.",
    "Prior colonoscopy at {HOSP} showed {EPO}.",
    "Age: {AGE}",
    "{AGE} y/o F with {COND} and {EPO}.",
    "{AGE}M with {COND}, here with {REL} {PAT}.",
    "Nonagenarian ({AGE}) admitted with {COND}.",
    "Interpreter {DOCFULL} present for the visit.",
    "{PATG} works for {ORG} in {CITY} and is on her feet all day.",
    "Patient's {REL} is a {PROF} at {HOSP}.",
    "MRI performed at {HOSP}, {CITY}, read by Dr. {DOCS}.",
    "User {USER} accessed the chart on {DATE}.",
    "{PATG} has {EPO}, followed by Dr. {DOCS} at {HOSP}.",
    "Exam by Dr. {DOCS}: {EPOS}; {EPOS}.",
    "{PATS}, {PATG} - {EPOX} removed on {DATE}.",
    "{PAT} ({LOWAGE} yo) lives in {CITY} with her {REL}.",
    "Spoke with {PATG}'s {REL} {PATG}, a {PROF}, about hospice at {HOSP}.",
    "{WPAT} reports improved sleep on {DRUG} {DOSE}.",
    "MR. {PATS} IS A {AGE} YO FROM {CITY}, {COUNTRY}.",
    "{PATG} went to {COUNTRY} to visit her {REL} and returned on {DATE}.",
    "{PATG} tolerated {EPOX} well per Dr. {DOC}.",
    "Seen at {HOSP} urgent care in {CITY} and given {DRUG}.",
    "{DOC} from {ORG} called with critical {LAB}.",
    "Lives on a farm outside {CITY}, {STATE}; raises goats.",
    "{PATG} is a {PROF} who lifts heavy boxes at {ORG}.",
    "Ambulance from {LOCO} to {HOSP} ED, bay {ROOM}.",
    "the pt ({AGEW} yrs) was seen w/ granddaughter {PATG} today",
    "{PATG} says {PATG} stopped taking {DRUG} in {DATE}.",
)

NEGATIVE = (
    "Patient is a {LOWAGE}-year-old man with {EPO} and {COND}.",
    "{LOWAGE} yo F with {COND}, on {DRUG} {DOSE}.",
    "Age {LOWAGE}. History of {EPO}.",
    "{EPO} noted; {DRUG} {DOSE} started.",
    "Exam notable for positive {EPOS}; no {EPOS}.",
    "{EPOX} placed; will remove in {N} days.",
    "Labs: {LAB}, {LAB}, {LAB}.",
    "Scores: {SCORE}, {SCORE}.",
    "Continue {DRUG} {DOSE} and {DRUG} {DOSE}.",
    "Consult {SERV} for {COND}; discussed with {ROLE}.",
    "Seen by {SERV}, who recommend {DRUG}.",
    "Plan reviewed with {ROLE} and {ROLE}.",
    "Transferred to {SERV} for monitoring; {EPOX} ordered.",
    "History of {EPO}, s/p {EPOX}.",
    "{SCORE} on arrival; {EPOS} negative.",
    "Holter monitor showed runs of SVT; {DRUG} increased to {DOSE}.",
    "Known Wolff-Parkinson-White, s/p ablation; {LAB}.",
    "Cheyne-Stokes respirations noted overnight; {SCORE}.",
    "Jackson-Pratt drain with 30 mL serosanguinous output.",
    "Gleason score 3+4=7 on biopsy; PSA 6.2.",
    "Foley catheter removed; voiding without difficulty.",
    "GCS 14, Babinski sign absent bilaterally.",
    "Apgar 8 and 9; birth weight 3.2 kg.",
    "Swan-Ganz catheter placed; PCWP 18.",
    "Whipple procedure in 2011 for pancreatic mass.",
    "Bell's palsy on the right, started prednisone {DOSE}.",
    "Crohn's disease on infliximab, last dose 6 weeks ago.",
    "Hodgkin lymphoma in remission since chemotherapy.",
    "Parkinson disease on carbidopa-levodopa {DOSE}.",
    "Glasgow Coma Scale 15 on arrival to the ED.",
    "Will follow up with {SERV} in {N} weeks.",
    "Will continue {DRUG} and recheck {LAB} in the morning.",
    "Will need {EPOX} follow up; hope to discharge tomorrow.",
    "Mark the site before the procedure; grace period for the prior authorization is {N} days.",
    "Patient has faith in the plan and hopes to go home.",
    "Young adult with {COND}; brown sputum, no hemoptysis.",
    "Rose-colored rash on the trunk; bill to insurance pending.",
    "Denies chest pain, palpitations, syncope.",
    "ROS otherwise negative except as noted in HPI.",
    "BP 128/76, HR 88, RR 16, SpO2 97% on RA.",
    "ICD-10 E11.9, I48.91; CPT 99214.",
    "{DRUG} {DOSE} x {N} days, then taper.",
    "Given {DRUG} {DOSE} in {SERV}.",
    "Ambulating with walker; cleared by PT.",
    "No acute distress; alert and oriented x3.",
    "PAST MEDICAL HISTORY: {COND}, {EPO}, {COND}.",
    "ASSESSMENT AND PLAN: {COND}. CONTINUE {DRUG} {DOSE}.",
    "impression: {COND}, likely {EPO}. cont {DRUG}.",
    "Discussed code status; patient remains full code.",
    "Exam: {EPOS}; echo EF 35%, moderate MR.",
    "Admitted to the ICU, then transferred to the floor.",
    "Admitted to cardiology; telemetry overnight.",
    "Follow-up in GI clinic and with dermatology.",
    "Seen in the emergency department for {COND}.",
    "Nursing notes reviewed; the charge nurse was updated.",
    "Pharmacy recommends {DRUG} {DOSE} renally dosed.",
    "Tanner stage 3; growth along the 50th percentile.",
    "Bruce protocol stress test, 9 METs, no ischemia.",
    "{SCORE}; {LAB}; {EPOS} documented.",
    "Grace period ends at the end of the month; no changes made.",
    "Patient will call if symptoms worsen.",
    "Rose from chair without assistance; gait steady.",
    "She is in her 80s and independent with ADLs.",
    "Age 89, lives independently, {EPO}.",
    "67 yo with {EPO}, here for {LAB} review.",
    "Father died at {LOWAGE} of MI; mother with {EPO}.",
    "Family history of {EPO} and {COND}.",
    "Former smoker, 20 pack-years; no alcohol or drug use.",
    "Works full time; independent in ADLs and IADLs.",
)

_SLOT_RE = re.compile(r"\{([A-Z]+)\}")


def render_template(template: str, fill, slot_re: re.Pattern[str] = _SLOT_RE) -> tuple[str, list[dict]]:
    """Write ``template`` with each slot (``{NAME}``, as ``slot_re`` finds it; group 1 is the
    slot's name) replaced by ``fill(name) -> (value, label or None)``.

    Returns:
        ``(text, spans)``: the text, and ``{"start", "end", "label"}`` (character offsets) of
        each filled value that has a label, in order. Shared by every note generator here.
    """
    out: list[str] = []
    spans: list[dict] = []
    pos = 0
    last = 0
    for m in slot_re.finditer(template):
        lit = template[last:m.start()]
        out.append(lit)
        pos += len(lit)
        value, label = fill(m.group(1))
        out.append(value)
        if label is not None:
            spans.append({"start": pos, "end": pos + len(value), "label": label})
        pos += len(value)
        last = m.end()
    out.append(template[last:])
    return "".join(out), spans


def _render(gen: _Gen, template: str) -> tuple[str, list[dict]]:
    def fill(slot: str) -> tuple[str, str | None]:
        label, meth = SLOTS[slot]
        value = getattr(gen, meth)()
        if label in ("PATIENT", "DOCTOR") and gen.r.random() < 0.05:
            value = value.lower()  # lower-cased name in an otherwise normal sentence
        return value, label
    return render_template(template, fill)


def _case(text: str, mode: str) -> str:
    new = text.lower() if mode == "lower" else text.upper() if mode == "upper" else text
    # keep offsets valid: only accept length-preserving, char-by-char case changes
    if len(new) != len(text):
        return text
    return new


def _example(gen: _Gen, negative_share: float) -> dict:
    r = gen.r
    for _ in range(50):
        k = r.choice((1, 1, 2, 2, 2, 3))
        parts: list[tuple[str, list[dict]]] = []
        for _i in range(k):
            pool = NEGATIVE if r.random() < negative_share else POSITIVE
            parts.append(_render(gen, r.choice(pool)))
        sep = r.choice((" ", " ", " ", "\n", "  "))
        text, spans = "", []
        for t, ss in parts:
            if text:
                # a template without final punctuation ends its line (signatures, terse lines)
                ends_in_span = bool(spans) and spans[-1]["end"] == len(text)
                text += sep if text[-1] in ".;:!?)" and not ends_in_span else "\n"
            off = len(text)
            text += t
            spans.extend({"start": s["start"] + off, "end": s["end"] + off, "label": s["label"]}
                         for s in ss)
        if not (MIN_CHARS <= len(text) <= MAX_CHARS):
            continue
        c = r.random()
        mode = "lower" if c < 0.1 else "upper" if c < 0.18 else ""
        if mode:
            cased = _case(text, mode)
            if all(cased[s["start"]:s["end"]].lower() == text[s["start"]:s["end"]].lower()
                   for s in spans):
                text = cased
        return {"text": text, "spans": spans}
    # fallback: a fixed-length-safe sentence pair (practically unreachable)
    t, ss = _render(gen, "{PAT} is a {AGE}-year-old patient followed at {HOSP} for {EPO}.")
    return {"text": t, "spans": ss}


def validate(example: dict) -> None:
    """Raise ValueError when an example's spans are not valid (bounds, order, overlap, label,
    whitespace at an edge, empty span)."""
    text = example["text"]
    prev_end = 0
    for s in sorted(example["spans"], key=lambda s: s["start"]):
        a, b, lab = s["start"], s["end"], s["label"]
        if lab not in LABELS:
            raise ValueError(f"bad label {lab!r}")
        if not (0 <= a < b <= len(text)) or a < prev_end:
            raise ValueError(f"bad offsets {s} in {text!r}")
        seg = text[a:b]
        if seg != seg.strip():
            raise ValueError(f"whitespace at span edge {seg!r}")
        prev_end = b


def generate(n: int, seed: int, *, negative_share: float = 0.33) -> list[dict]:
    """``n`` generated examples, deterministic for ``seed``: ``{"text", "spans": [{"start",
    "end", "label"}]}`` with i2b2 subtype labels (see ``LABELS``); 1-3 sentences, 60-400 chars.

    ``negative_share``: chance that a sentence comes from the all-O templates (default 0.33;
    a further ~34% of the labelled templates also carry O clinical material: mixed)."""
    gen = _Gen(random.Random(seed))
    out = []
    for _ in range(n):
        ex = _example(gen, negative_share)
        validate(ex)
        out.append(ex)
    return out


def label_counts(examples: list[dict]) -> Counter:
    return Counter(s["label"] for e in examples for s in e["spans"])


if __name__ == "__main__":  # pragma: no cover
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    exs = generate(n, seed)
    for lab, c in sorted(label_counts(exs).items(), key=lambda kv: -kv[1]):
        print(f"{lab}\t{c}")
    print("examples", len(exs), "without spans", sum(not e["spans"] for e in exs))
