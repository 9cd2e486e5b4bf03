"""Generated notes of 13 note types for the NER model (issue 21): the training text of real variety.

``generate(n, seed) -> list[dict]``: ``n`` notes ``{"text", "spans": [{"start", "end", "label"}],
"type"}`` with the i2b2 subtypes of :data:`training.generate.LABELS`; deterministic for a seed.

Each note has a cast (a patient with given name, middle initial, surname and nickname; care
providers; relatives; two facilities with their full and short names and initials; a town; an
organisation) drawn from :mod:`training.gazetteer`, and is written from the templates of
:mod:`training.notetemplates` for its type (ICU nursing in capitals, ED, discharge summary,
radiology, pathology, clinic letter, psychiatry, portal message, social work, pediatrics,
operative, hospice, tables): a header block (``Name: LAST, FIRST M``, ``RE:``, ``cc:``,
``Attending:``), sections, a signature. The same person appears in several forms in one note
(``LAST, FIRST``, the surname after a title, the given name alone, a quoted nickname).

What the model must learn from it, beyond :mod:`training.generate` and :mod:`training.nursing`:

* names: rare and non-Anglo surnames (the whole census list, not its top), invented names of many
  cultures, nicknames, names that are English words, ``LAST, FIRST M`` order, initials + surname,
  signature initials, names in capitals, lower case and mixed case, names glued to punctuation;
* places: facilities with and without a head word and their short forms and initials
  (``Saint Brigid Medical Center`` / ``St. Brigid's`` / ``SBMC``), nursing homes, hospices, home
  health agencies, wards with a name (the name only, the floor number outside), towns, streets;
* organisations: employers, pharmacies, churches, schools, day cares, EMS agencies, insurers;
* hard negatives (all unmarked): ordinary English words in every case and position (from the
  English frequency list, so the model meets thousands of them, not the few a template names),
  clinical abbreviations, MeSH terms (diseases, drugs, anatomy, procedures), eponyms, drug names,
  services and units after ``to``/``at``/``from``, relation and role words with no name;
* noise: typos in ordinary words and in some names, shorthand, tables with pipes and tabs.

Everything is invented or comes from lists with provenance; no text of any real note is used.
"""
from __future__ import annotations

import random
import re
import sys
from collections import Counter

from . import gazetteer as Z
from . import generate as _G
from . import nursing as _N
from .notetemplates import NOTE_TYPES

#: slot -> i2b2 subtype (absent: the slot's text stays unmarked)
LABELLED = {
    "PAT": "PATIENT", "PATLF": "PATIENT", "PATSI": "PATIENT", "PATS": "PATIENT", "PATG": "PATIENT",
    "PATNICK": "PATIENT", "DOC": "DOCTOR", "DOCS": "DOCTOR", "DOCLF": "DOCTOR", "DOCU": "DOCTOR",
    "DOCG": "DOCTOR", "DOCI": "DOCTOR", "DOCINIT": "DOCTOR", "REL": "PATIENT", "RELFULL": "PATIENT",
    "HOSP": "HOSPITAL", "HOSPS": "HOSPITAL", "WARD": "DEPARTMENT", "CITY": "CITY", "STATE": "STATE",
    "STREET": "STREET", "STREETNAME": "STREET", "ZIP": "ZIP", "ORG": "ORGANIZATION",
    "PLAN": "ORGANIZATION", "AGE": "AGE", "PROF": "PROFESSION", "USER": "USERNAME",
    "DEPT": "DEPARTMENT", "LOCO": "LOCATION-OTHER", "COUNTY": "LOCATION-OTHER",
}
_SLOT = re.compile(r"\{([A-Z][A-Z0-9]*)\}")
SAINTS = ("St.", "St", "Saint")
QUALS = ("Regional", "General", "Memorial", "Community", "Baptist", "Methodist", "Presbyterian",
         "Lutheran", "Adventist", "Mercy", "Valley", "County", "University", "Good Samaritan")
TYPES = ("Hospital", "Medical Center", "Health Center", "Hospital Center", "Health System",
         "Clinic", "Medical Group", "Healthcare")
LTC = ("Manor", "Rehabilitation and Nursing Center", "Nursing Home", "Senior Living", "Assisted Living",
       "Hospice", "Home Health", "Dialysis Center", "Care Center", "Health and Rehab", "Gardens",
       "Skilled Nursing Facility", "House")
TYPO_HEADS = {"Hospital": ("Hosptial", "Hospial", "Hosp", "Hosp."), "Medical": ("Medcial", "Med"),
              "Memorial": ("Memroial", "Mem"), "Center": ("Ctr", "Cntr", "Centre"), "Regional": ("Reg",)}
ORG_KINDS = ("Freight", "Logistics", "Roofing", "Construction", "Plumbing", "Auto Body", "Foods",
             "Manufacturing", "Insurance", "Credit Union", "Bank", "Realty", "Landscaping", "Dairy",
             "Textiles", "Software", "Trucking", "Steel", "Printing", "Electric", "Farms", "Bakery")
CENTERS = ("Heart Center", "Cancer Center", "Comprehensive Cancer Center", "Pavilion", "Wing",
           "Stroke & Neuroscience Center", "Women's Center", "Transplant Institute", "Tower",
           "Outpatient Behavioral Health", "Birthing Center", "Burn Unit", "Children's Pavilion")
WINGS = ("North", "South", "East", "West", "Tower", "Annex")
LOCO_KINDS = ("Men's Shelter", "Women's Shelter", "Residential Group Home", "Park", "Mall",
              "Correctional Facility", "State Prison", "County Jail", "Village", "Heights",
              "Recovery Center", "Cemetery", "Plaza", "Trailer Park", "Marina", "Bus Station")
AGENCIES = ("Home Care", "Home Health", "Visiting Nurse Association", "Caring Hands LLC",
            "Hospice", "Medical Supply", "Oxygen", "Air Link", "Ambulance", "Senior Services",
            "Human Services", "WIC Office", "Vet Center", "Community Services", "Adult Day Center",
            "Transportation", "Meals on Wheels", "Housing Authority")
DENOMS = ("Baptist", "Methodist", "Lutheran", "Presbyterian", "Pentecostal", "Catholic", "AME")
CREDS = ("MD", "DO", "NP", "PA-C", "RN", "MSW", "LICSW", "PharmD", "CNM", "FNP", "DPT", "RRT",
         "LCSW", "APRN", "CRNA", "MD PhD")
ROLES = ("NP", "PA", "HO", "RN", "resident", "fellow", "intern", "attending", "RT", "charge RN")
SERVS = ("cardiology", "neurology", "GI", "renal", "surgery", "ortho", "ID", "oncology", "psych",
         "palliative care", "the ICU", "MICU", "CCU", "medicine", "hospitalist service", "urology")
UNITS_NEG = ("CT", "MRI", "OR", "PACU", "IR", "the floor", "the unit", "rehab", "HD", "cath lab",
             "ED", "EW", "CCU", "MICU", "SICU", "step down", "tele", "radiology", "endo")
RELW = ("wife", "husband", "daughter", "son", "mother", "father", "sister", "brother", "niece",
        "nephew", "friend", "partner", "dtr", "grandson", "granddaughter", "aunt", "HCP", "fiance",
        "cousin", "neighbor", "stepson", "guardian", "sis", "bro", "mom", "dad")
BODY = ("liver", "right lower lobe", "left kidney", "colon", "skin, left forearm", "breast, right",
        "prostate", "thyroid", "lumbar spine", "pelvis", "brain", "chest", "abdomen", "gallbladder")
FINDINGS = ("pneumothorax", "effusion", "consolidation", "mass", "fracture", "hemorrhage",
            "adenocarcinoma", "chronic inflammation", "atelectasis", "cardiomegaly", "stenosis")
IMAGING = ("CT abdomen/pelvis with contrast", "CXR PA/LAT", "MRI brain w/wo", "US RUQ",
           "CT head without contrast", "Portable chest", "CTA chest", "Echo TTE")
COMPLAINTS = ("chest pain", "SOB", "abdominal pain", "fall", "AMS", "fever", "headache", "syncope",
              "weakness", "cough", "back pain", "N/V")
VISITS = ("follow up", "new patient", "telehealth", "urgent", "post-op")
MARITAL = ("married", "single", "divorced", "widowed")
SHELTERS = ("men's shelter", "women's shelter", "family shelter", "group home")
PORTAL_SUBJ = ("refill", "question about my meds", "test results", "appointment", "pain", "forms")


def _word_filter(words, suffixes):
    return tuple(w for w in words if len(w) > 4 and w.endswith(suffixes))


class Cast:
    """The people, places and organisation of one note (each field a plain string)."""

    def __init__(self, f: "Filler") -> None:
        r = f.r
        self.sex = r.choice("MF")
        self.given = f.given()
        self.middle = r.choice("ABCDEFGHJKLMNPRSTW")
        self.surname = f.surname()
        self.nick = f.nickname(self.given)
        self.docs = [(f.given(), f.surname()) for _ in range(3)]
        self.rels = [(f.given(), self.surname if r.random() < 0.4 else f.surname()) for _ in range(2)]
        self.facilities = [f.facility() for _ in range(2)]
        self.city = f.city()
        self.org = f.organisation()


class Filler:
    """Slot fillers bound to one Random (each returns the text to insert)."""

    def __init__(self, rng: random.Random) -> None:
        self.r = rng
        self.common, self.rare = Z.surnames()
        self.givens, _ = Z.given_names()
        self.nicks: dict[str, list[str]] = {}
        for g, n in Z.nickname_pairs():
            self.nicks.setdefault(g, []).append(n)
        self.words = Z.english_words(30000)
        top = self.words[:12000]
        self.adj = _word_filter(top, ("ous", "ful", "ive", "able", "al", "ic", "less", "ent", "ant", "ible")) or top
        self.adv = _word_filter(top, ("ly",)) or top
        self.verbed = _word_filter(top, ("ed",)) or top
        self.verbing = _word_filter(top, ("ing",)) or top
        self.mesh = Z.mesh_terms()
        self.abbr = Z.abbreviations()
        self.places = Z.places()
        self.states = Z.states()
        self.facilities_real = Z.facility_names()
        self.orgs_real = Z.organisation_names()
        self.gen = _G._Gen(rng)
        self.drugs = tuple(sorted(set(_G.DRUGS) | set(_N.DRUGS)))
        self.stop = _G.EPONYM_WORDS | frozenset(self.abbr) | frozenset(w.lower() for w in _N.DRUGS + _G.DRUGS)

    # -- names -------------------------------------------------------------------------------
    def surname(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.3:
            s = r.choice(self.common).capitalize()
        elif k < 0.7:
            s = r.choice(self.rare).capitalize()
        elif k < 0.88:
            s = self.gen.surname()
        else:
            s = r.choice(_G.WORD_SURNAME)
        if "-" not in s and r.random() < 0.05:
            s = f"{s}-{r.choice(self.rare).capitalize()}"
        s = re.sub(r"(?<=[-'])([a-z])", lambda m: m.group(1).upper(), s)
        if s.startswith(("Mc", "Mac")) and len(s) > 4 and r.random() < 0.5:
            n = 2 if s.startswith("Mc") else 3
            s = s[:n] + s[n].upper() + s[n + 1:]
        return s if s.lower() not in self.stop else self.gen.surname()

    def given(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.65:
            g = r.choice(self.givens).capitalize()
        elif k < 0.88:
            g = self.gen.given()
        else:
            g = r.choice(_G.WORD_GIVEN)
        return g if g.lower() not in self.stop else self.gen.given()

    def nickname(self, given: str) -> str:
        options = self.nicks.get(given.lower())
        if options:
            return self.r.choice(options).capitalize()
        first = re.split(r"[\s\-']", given)[0] or given
        return first[:max(2, min(4, len(first) - 1))] + self.r.choice(("", "y", "ie"))

    # -- places ------------------------------------------------------------------------------
    def _initials(self, name: str) -> str:
        words = [w for w in re.split(r"[\s\-]+", name) if w and w[0].isupper() and w not in ("Of", "The")]
        return "".join(w[0] for w in words).upper()

    def _typo_head(self, name: str) -> str:
        if self.r.random() < 0.06:
            for w, alts in TYPO_HEADS.items():
                if w in name:
                    return name.replace(w, self.r.choice(alts), 1)
        return name

    def facility(self) -> tuple[str, str, str]:
        """``(full name, short form, initials)`` of an invented (or, when listed, real) facility."""
        r = self.r
        k = r.random()
        place = r.choice(self.places) if r.random() < 0.5 else self.gen.place_word()
        if self.facilities_real and k < 0.3:
            full = _proper(r.choice(self.facilities_real))
            words = [w for w in full.split() if w.lower() not in ("hospital", "medical", "center",
                                                                   "health", "the", "of", "inc")]
            short = " ".join(words[:2]) or full
        elif k < 0.45:
            saint = f"{r.choice(SAINTS)} {self.given()}"
            full = f"{saint}{r.choice(('', chr(39) + 's'))} {r.choice(TYPES)}"
            short = r.choice((saint, saint + "'s"))
        elif k < 0.7:
            qual = r.choice(QUALS)
            full = f"{place} {qual} {r.choice(TYPES)}"
            short = r.choice((f"{place} {qual}", place))
        elif k < 0.82:
            sur = self.surname()
            full = f"{sur} {r.choice(('Memorial Hospital', 'Hospital', 'Medical Center', 'Clinic'))}"
            short = sur
        elif k < 0.86:
            st = r.choice(self.states)[0].title()
            full = f"University of {st} Medical Center"
            short = r.choice((f"U of {st}", f"U {st}", f"{st} University"))
        elif k < 0.9:
            city = r.choice(self.places)
            full = r.choice((f"{city} Children's Hospital", f"Children's Hospital of {city}",
                             f"{city} VA Medical Center", f"{place} Internal Medicine Associates",
                             f"{place} Medical Partners Pediatrics", f"{city} {r.choice(QUALS)} Campus"))
            short = r.choice((f"{city} Children's", f"the {city} VA", place, city))
        else:
            base = r.choice((place, self.surname(), f"The {place}"))
            full = f"{base} {r.choice(LTC)}"
            short = base.replace("The ", "")
        full = self._typo_head(full)
        return full, short, self._initials(full)

    def city(self) -> str:
        r = self.r
        return r.choice(self.places) if r.random() < 0.75 else self.gen.city()

    def organisation(self) -> str:
        r = self.r
        k = r.random()
        if self.orgs_real and k < 0.3:
            return _proper(r.choice(self.orgs_real))
        if k < 0.45:
            return f"{r.choice((self.surname(), self.gen.place_word()))} {r.choice(ORG_KINDS)}"
        if k < 0.58:
            return r.choice((f"{self.surname()} Pharmacy", f"{self.gen.place_word()} Drug #{r.randint(2, 999)}",
                             f"{self.surname()}'s Pharmacy"))
        if k < 0.68:
            return r.choice((f"St. {self.given()} Church", f"First {r.choice(DENOMS)} Church",
                             f"{self.gen.place_word()} {r.choice(DENOMS)} Church"))
        if k < 0.76:
            return f"{self.gen.place_word()} {r.choice(('Elementary', 'Middle School', 'High School', 'Academy', 'Daycare', 'Montessori'))}"
        if k < 0.84:
            return f"{self.city()} {r.choice(('Fire Rescue', 'EMS', 'Ambulance', 'Fire Department'))}"
        if k < 0.88:
            return f"{r.choice(('UA', 'IBEW', 'SEIU', 'Teamsters'))} Local {r.randint(2, 999)}"
        if k < 0.96:
            base = r.choice((self.gen.place_word(), self.city(), self.surname(), f"{self.city()} County"))
            return f"{base} {r.choice(AGENCIES)}"
        return self.gen.organization()

    def department(self) -> str:
        """A named department or unit (i2b2 DEPARTMENT, the whole name: ``Lindqvist Heart Center``,
        ``4 West``, ``Tower 6``, ``7B``)."""
        r = self.r
        k = r.random()
        if k < 0.45:
            return f"{r.choice((self.surname(), self.gen.place_word(), self.given()))} {r.choice(CENTERS)}"
        if k < 0.65:
            return f"{r.randint(2, 19)} {r.choice(WINGS)}"
        if k < 0.8:
            return f"{r.choice(('Tower', 'Wing', 'Pod', 'Unit'))} {r.choice((str(r.randint(1, 12)), r.choice('ABCDE')))}"
        return f"{r.randint(2, 12)}{r.choice('ABCDEFNSW')}"

    def other_location(self) -> str:
        """A named place that is neither a facility nor a town (LOCATION-OTHER)."""
        r = self.r
        if r.random() < 0.2:
            return f"{r.choice(('east', 'west', 'north', 'south', 'East', 'West'))} {self.city()}"
        return f"{r.choice((self.gen.place_word(), self.surname(), self.city()))} {r.choice(LOCO_KINDS)}"

    def street(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.5:
            return self.gen.street()
        n = r.randint(1, 99)
        ordinal = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
        base = r.choice((ordinal, self.surname(), self.gen.place_word(), r.choice(self.places)))
        kind = r.choice(("St", "Ave", "Rd", "Blvd", "Dr", "Hwy", "Street", "Avenue", "Cir", "Ln", "Pkwy"))
        d = r.choice(("", "", "E ", "W ", "N ", "S ", "NE ", "SW "))
        if k < 0.85:
            return f"{r.randint(1, 9999)} {d}{base} {kind}" + r.choice(("", "", ", Apt 4", f", Suite {r.randint(100, 900)}", f" #{r.randint(1, 40)}"))
        if k < 0.93:
            return f"{base} {kind}"
        return f"{ordinal.upper()} & {self.surname().upper()}"

    # -- hard negatives ----------------------------------------------------------------------
    def word(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.5:
            return r.choice(self.words[:8000])
        if k < 0.75:
            return r.choice(self.words)
        if k < 0.9 and self.mesh:
            return r.choice(self.mesh).split()[0].lower()
        return r.choice(self.abbr)

    def clin(self) -> str:
        return self.r.choice(self.mesh).lower() if self.mesh else self.r.choice(_G.CONDITIONS)

    def drug(self) -> str:
        r = self.r
        if self.mesh and r.random() < 0.3:
            cands = [t for t in (r.choice(self.mesh) for _ in range(30))
                     if t.lower().endswith(("ol", "ine", "pril", "sartan", "statin", "mab", "cillin",
                                            "mycin", "azole", "pam", "one", "ide", "ate", "in"))
                     and " " not in t]
            if cands:
                return cands[0] if r.random() < 0.5 else cands[0].lower()
        return r.choice(self.drugs)


_UPPER_WORDS = {"llc", "lp", "pc", "pllc", "inc", "va", "cvs", "ii", "iii", "us", "usa"}


def _proper(name: str) -> str:
    """A lower-case listed name written as a note would (``1st choice hospice llc`` ->
    ``1st Choice Hospice LLC``)."""
    return " ".join(w.upper() if w in _UPPER_WORDS else w[:1].upper() + w[1:] for w in name.split())


def _typo(word: str, r: random.Random) -> str:
    if len(word) < 4 or not word.isalpha():
        return word
    i = r.randrange(1, len(word) - 1)
    k = r.random()
    if k < 0.4:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if k < 0.7:
        return word[:i] + word[i + 1:]
    return word[:i] + word[i] + word[i:]


class Writer:
    """Writes one note of one type from the templates (see the module docstring)."""

    def __init__(self, f: Filler, cast: Cast, sloppy: float) -> None:
        self.f, self.c, self.r, self.sloppy = f, cast, f.r, sloppy

    def _person(self, given: str, surname: str, middle: str | None = None) -> str:
        r = self.r
        k = r.random()
        if k < 0.45:
            return f"{given} {surname}"
        if k < 0.6 and middle:
            return f"{given} {middle}. {surname}"
        if k < 0.75:
            return f"{given[0]}. {surname}"
        if k < 0.85:
            return surname
        return f"{given} {surname}".upper()

    def fill(self, slot: str) -> tuple[str, str | None]:
        f, c, r = self.f, self.c, self.r
        doc = r.choice(c.docs)
        rel = r.choice(c.rels)
        fac = r.choice(c.facilities)
        v: str
        if slot == "PAT":
            v = self._person(c.given, c.surname, c.middle)
        elif slot == "PATLF":
            v = r.choice((f"{c.surname.upper()}, {c.given.upper()} {c.middle}", f"{c.surname}, {c.given}",
                          f"{c.surname.upper()}, {c.given.upper()}", f"{c.surname}, {c.given} {c.middle}."))
        elif slot == "PATSI":
            v = f"{c.surname}, {c.given[0]}"
        elif slot == "PATS":
            v = c.surname
        elif slot == "PATG":
            v = c.given if r.random() < 0.85 else c.nick
        elif slot == "PATNICK":
            v = c.nick
        elif slot == "DOC":
            v = self._person(*doc, middle=r.choice("ABCDEJKLMRST"))
        elif slot == "DOCS":
            v = doc[1]
        elif slot == "DOCLF":
            v = f"{doc[1]}, {doc[0]}"
        elif slot == "DOCU":
            v = f"{doc[0]} {doc[1]}".upper()
        elif slot == "DOCG":
            v = doc[0]
        elif slot == "DOCI":
            v = f"{doc[0][0]}{r.choice(('.', '', '.'))} {doc[1]}"
        elif slot == "DOCINIT":
            v = (doc[0][0] + r.choice("ABCDEJKLMRST") + doc[1][0])
            v = v.lower() if r.random() < 0.5 else v
        elif slot == "REL":
            v = rel[0]
        elif slot == "RELFULL":
            v = f"{rel[0]} {rel[1]}"
        elif slot == "HOSP":
            v = fac[0]
        elif slot == "HOSPS":
            v = r.choice((fac[1], fac[1], fac[2])) if len(fac[2]) > 1 else fac[1]
        elif slot == "WARD":
            v = f.surname() if r.random() < 0.7 else f.gen.place_word()
        elif slot == "CITY":
            v = c.city if r.random() < 0.7 else f.city()
        elif slot == "STATE":
            st = r.choice(f.states)
            v = st[1] if r.random() < 0.5 else st[0].title()
        elif slot == "STREET":
            v = f.street()
        elif slot == "STREETNAME":
            v = f"{r.choice((f.surname(), f.gen.place_word(), 'Main', 'Elm', 'Oak'))} {r.choice(('St', 'Ave', 'Rd', 'Street', 'Blvd'))}"
        elif slot == "DEPT":
            v = f.department()
        elif slot in ("LOCO", "COUNTY"):
            v = f.other_location() if slot == "LOCO" else f"{r.choice(f.places)} County"
        elif slot == "ZIP":
            v = f.gen.zip()
        elif slot == "ORG":
            v = c.org if r.random() < 0.6 else f.organisation()
        elif slot == "PLAN":
            v = r.choice(("Blue Cross", "Aetna", "Medicaid", "Medicare", "Humana", "Cigna", "Tufts", "Kaiser"))
            return v, (None if v in ("Medicaid", "Medicare") else "ORGANIZATION")
        elif slot == "AGE":
            v = str(r.randint(90, 104))
        elif slot == "AGEANY":
            a = r.randint(18, 104) if r.random() < 0.8 else r.randint(90, 104)
            return str(a), ("AGE" if a > 89 else None)
        elif slot == "PROF":
            v = r.choice(f.gen.professions)
        elif slot == "USER":
            v = f.gen.username()
        elif slot == "HOMEPLACE":
            if r.random() < 0.5:
                return r.choice(("home", "her apartment", "his daughter's house", "the group home",
                                 "a bus stop", "work")), None
            return fac[0], "HOSPITAL"
        else:
            v = self.negative(slot)
            if self.sloppy and r.random() < 2 * self.sloppy:   # misspelt shorthand and words (NEICE)
                v = " ".join(_typo(w, r) for w in v.split(" "))
            return v, None
        if slot in LABELLED and self.sloppy and r.random() < self.sloppy / 3:
            v = " ".join(_typo(w, r) for w in v.split(" "))
        return v, LABELLED.get(slot)

    def negative(self, slot: str) -> str:
        f, r = self.f, self.r
        simple = {"CRED": CREDS, "ROLE": ROLES, "SERV": SERVS, "UNIT": UNITS_NEG, "RELW": RELW,
                  "BODY": BODY, "FINDING": FINDINGS, "IMAGING": IMAGING, "COMPLAINT": COMPLAINTS,
                  "SYMPTOM": COMPLAINTS, "VISIT": VISITS, "MARITAL": MARITAL, "SHELTER": SHELTERS,
                  "PORTALSUBJ": PORTAL_SUBJ, "EPO": _G.EPO_DX, "EPOS": _G.EPO_SIGN, "EPOX": _G.EPO_DEV,
                  "DEVICE": _N.DEVICES, "VENT": _N.VENTS, "O2": _N.O2S, "PROC": _N.PROCS, "LAB": _N.LABS,
                  "LABNAME": _N.LABS, "SEX": ("M", "F", "male", "female"), "SHIFT": ("DAY", "NIGHT", "EVE", "7A-7P"),
                  "RHYTHM": ("NSR", "SR", "ST", "AFIB", "SB", "PACED"), "LUNG": ("CLEAR", "COARSE", "DIM BASES", "RHONCHI"),
                  "SEC": ("THICK TAN", "THIN WHITE", "BLOODY", "MOD AMT"), "DX": _G.CONDITIONS}
        if slot in simple:
            return r.choice(simple[slot])
        if slot == "ADJ":
            return r.choice(f.adj)
        if slot == "ADV":
            return r.choice(f.adv)
        if slot in ("VERBED", "VERB"):
            w = r.choice(f.verbed if slot == "VERBED" else f.verbing)
            return w
        if slot == "WORD":
            return f.word()
        if slot == "CLIN":
            return f.clin()
        if slot == "DRUG":
            return f.drug()
        if slot == "ABBR":
            return r.choice(f.abbr)
        if slot == "DATE":
            m, d, y = r.randint(1, 12), r.randint(1, 28), r.randint(1990, 2030)
            return r.choice((f"{m}/{d}/{y}", f"{m}/{d}", f"{m:02d}/{d:02d}/{y % 100:02d}", f"{y}-{m:02d}-{d:02d}"))
        if slot == "TIME":
            return r.choice(("0700", "1900", "3pm", "14:30", "2200", "0400", "noon"))
        if slot in ("MRN", "ROOMNO"):
            return str(r.randint(100, 99999999)) if slot == "MRN" else f"{r.randint(1, 12)}{r.randint(0, 40):02d}"
        if slot == "PHONE":
            return f.gen.phone()
        if slot in ("NUM", "HR", "SBP", "SAT", "WNUM"):
            lo, hi = {"NUM": (1, 40), "HR": (50, 130), "SBP": (80, 180), "SAT": (88, 100), "WNUM": (1, 12)}[slot]
            return str(r.randint(lo, hi))
        if slot == "LAB1":
            return f"{r.uniform(2.8, 5.5):.1f}"
        if slot == "ABG":
            return f"7.{r.randint(20, 50)}/{r.randint(28, 70)}/{r.randint(55, 400)}"
        if slot in ("RATE", "DOSE"):
            return r.choice(("5mg", "2 mg", "40mg IV", "1 gm", "0.5 mg", "10 units", "20 mcg/kg/min", "50 cc/hr"))
        if slot in ("VITALS", "LABS"):
            return r.choice(("T 98.6 HR 88 BP 132/78 RR 16 98% RA", "Na 138 K 4.1 Cr 1.2 WBC 11.2",
                             "Hgb 9.8, Plt 210, INR 1.1", "Trop <0.01, BNP 420", "BP 90/50 HR 120 T 101.2"))
        raise KeyError(slot)

    def render(self, template: str) -> tuple[str, list[dict]]:
        r = self.r
        if self.sloppy:
            template = re.sub(r"(?<![{A-Za-z])[A-Za-z]{4,}(?![}A-Za-z])",
                              lambda m: _typo(m.group(), r) if r.random() < self.sloppy else m.group(), template)
        return _G.render_template(template, self.fill, _SLOT)


def _word_salad(f: Filler, r: random.Random) -> str:
    words = [f.word() for _ in range(r.randint(3, 9))]
    if r.random() < 0.3:
        words[r.randrange(len(words))] = f.clin()
    return " ".join(words) + r.choice((".", "", ",", " -"))


def _heading(h: str, r: random.Random) -> str:
    if not h:
        return ""
    style = r.random()
    if style < 0.4:
        return h.upper() + ": "
    if style < 0.7:
        return h.title() + ": "
    if style < 0.85:
        return h.upper() + "- "
    return h.upper() + ":\n"


def _note(f: Filler, kind: str) -> tuple[str, list[dict]]:
    r = f.r
    spec = NOTE_TYPES[kind]
    w = Writer(f, Cast(f), r.choice((0.0, 0.0, 0.01, 0.03, 0.06)))
    pieces: list[tuple[str, list[dict]]] = []
    n_head = r.choice((0, 1, 2, 3, 4)) if kind != "icu_nursing" else r.choice((0, 0, 1))
    heads = [r.choice(spec["header"])] + [r.choice(_HEADERS_ALL) for _ in range(n_head)]
    for h in heads:
        pieces.append(w.render(h))
    for heading, pool, (lo, hi) in spec["sections"]:
        k = r.randint(lo, hi)
        if k == 0:
            continue
        lines = [w.render(r.choice(pool)) for _ in range(k)]
        if r.random() < 0.25:
            lines.insert(r.randrange(len(lines) + 1), (_word_salad(f, r), []))
        sep = r.choice((" ", " ", "\n"))
        body, spans = "", []
        for t, ss in lines:
            off = len(body) + (len(sep) if body else 0)
            body = body + sep + t if body else t
            spans += [{**s, "start": s["start"] + off, "end": s["end"] + off} for s in ss]
        h = _heading(heading, r)
        pieces.append((h + body, [{**s, "start": s["start"] + len(h), "end": s["end"] + len(h)} for s in spans]))
    sign = r.choice(spec["sign"])
    if sign:
        pieces.append(w.render(sign))
    text, spans = "", []
    joiner = r.choice(("\n", "\n", "\n\n", " \n"))
    for t, ss in pieces:
        off = len(text) + (len(joiner) if text else 0)
        text = text + joiner + t if text else t
        spans += [{**s, "start": s["start"] + off, "end": s["end"] + off} for s in ss]
    return text, spans


from .notetemplates import HEADERS as _HEADERS_ALL  # noqa: E402


def _recase(text: str, spans: list[dict], mode: str, r: random.Random) -> str:
    if mode == "upper":
        new = text.upper()
    elif mode == "lower":
        new = text.lower()
    else:   # natural: a line start is capitalised, a few lines are in capitals
        lines = text.split("\n")
        out = []
        for ln in lines:
            if r.random() < 0.08:
                ln = ln.upper()
            elif ln[:1].islower() and r.random() < 0.7:
                ln = ln[0].upper() + ln[1:]
            out.append(ln)
        new = "\n".join(out)
    if len(new) != len(text) or any(new[s["start"]:s["end"]].lower() != text[s["start"]:s["end"]].lower()
                                    for s in spans):
        return text
    return new


def generate(n: int, seed: int, kinds: tuple[str, ...] | None = None) -> list[dict]:
    """``n`` generated notes, deterministic for ``seed``, note types in turn (``kinds``, default
    every type of :data:`training.notetemplates.NOTE_TYPES`): ``{"text", "spans", "type"}``.

    Raises:
        ValueError: (from :func:`training.generate.validate`) on an invalid example (a bug).
    """
    r = random.Random(seed)
    f = Filler(r)
    kinds = kinds or tuple(NOTE_TYPES)
    out = []
    while len(out) < n:
        kind = kinds[len(out) % len(kinds)]
        text, spans = _note(f, kind)
        if len(text) > 2400:
            cut = text.rfind("\n", 0, 2400)
            text = text[:cut if cut > 200 else 2400].rstrip()
            spans = [s for s in spans if s["end"] <= len(text)]
        natural, upper, _ = NOTE_TYPES[kind]["case"]
        c = r.random()
        mode = "natural" if c < natural else "upper" if c < natural + upper else "lower"
        ex = {"text": _recase(text, spans, mode, r), "spans": spans, "type": kind}
        _G.validate(ex)
        out.append(ex)
    return out


if __name__ == "__main__":  # pragma: no cover
    exs = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 26, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    print(Counter(s["label"] for e in exs for s in e["spans"]))
    for e in exs[:26]:
        print(f"--- {e['type']}\n{e['text']}")
        print([(s["label"], e["text"][s["start"]:s["end"]]) for s in e["spans"]])
