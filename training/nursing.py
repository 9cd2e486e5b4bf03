"""Generated ICU nursing notes for the NER model, in the style of real bedside notes (issue 8).

``generate(n, seed) -> list[dict]``: ``n`` examples ``{"text": str, "spans": [{"start", "end",
"label"}]}`` with the i2b2 subtype labels of :mod:`training.generate` (PATIENT, DOCTOR,
HOSPITAL, DEPARTMENT, CITY, LOCATION-OTHER, AGE, DATE, PHONE). Deterministic for a seed.

Real ICU nursing notes are terse, mostly ALL CAPS, organised by system (``NEURO:``, ``CV:``,
``RESP:``, ``GI/GU:``, ``ID:``, ``SOCIAL:``, ``PLAN:``), dense with abbreviations, drugs, devices,
vent settings and numbers, and carry little PHI (under one span per note): the doctor who was
paged (``DR OKAFOR AWARE``), relatives by first name (``DTR MARISOL CALLED``), ward names
(``TRANSFER TO HARTWELL 4``), hospital abbreviations (``FROM SMH``) and towns. What the model
must learn here:

* The PHI of that style: a surname after a title without a period (``DR X``, ``MR X``), a
  relative's first name after a relation word (``DTR``, ``SON``, ``HUSBAND``), ward names
  (invented surname or place word, DEPARTMENT, then a floor number left outside the span as
  the real notes' gold does), hospital abbreviations and short names (HOSPITAL), towns (CITY).
* The same PHI in weaker context (issue 8, kinds missed on the real notes): staff named
  without a title after a role word (``HOUSE STAFF X Y``, ``NP X``) or as an initial and a
  surname (``per K. Varga``), names in lists (``Drs X and Y``), relatives by first name alone
  (``unable to reach X``), wards after ``on``/``to go to``, hospital abbreviations after
  ``at``/``and``, towns after ``home is in``, regions (``the Upper Valley``), employers.
* Hard negatives, all O: nursing shorthand (MAE, PERRL, A-LINE, FOLEY, PS 10/5, 2 UNITS PRBC),
  unit names that are not PHI (MICU, CCU, CSRU), drugs, devices and eponyms (SWAN, QUINTON,
  DOBHOFF), body sites, scores and numbers of 90 or more that are not ages (HR 90-110, SATS 95%,
  BS 180), relation words with no name after them (``HUSBAND IN TO VISIT``), the charting
  system (``see CareVue``), languages (``speaks only Farsi``) and capitalised clinical words
  at a sentence start (``Faint BS``, ``Wedge 14``, ``if pt spikes``).

Casing: each note is written once in its natural case (names Capitalised, abbreviations upper),
then kept, upper-cased or lower-cased (:data:`CASE_SHARES`), so the model sees the same words
with and without the case cue (the case feature of :mod:`deid_core.ner.case`).

Everything is invented: names come from the census name lists (``lists/``) and from the
syllable names of :mod:`training.generate`; wards and hospitals are built from invented place
words. No text of any real note is used.
"""
from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

try:
    from deid_core import lists as _lists
except ImportError:  # pragma: no cover - run as a script from training/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from deid_core import lists as _lists

try:
    from . import generate as _G
except ImportError:  # pragma: no cover - imported as a top-level module (tests)
    import generate as _G  # type: ignore

MIN_CHARS, MAX_CHARS = 80, 700
#: chance of keeping the natural case, of ALL CAPS, of lower case
CASE_SHARES = (0.3, 0.5, 0.2)
#: chance that a note carries no PHI at all
NEGATIVE_SHARE = 0.35

# ----------------------------------------------------------------------------------------------
# never-PHI vocabulary of ICU nursing notes

DRUGS = ("Lopressor", "metoprolol", "Lasix", "heparin", "propofol", "fentanyl", "Versed",
         "morphine", "Levophed", "neo", "Neosynephrine", "dopamine", "dobutamine", "insulin",
         "vanco", "Zosyn", "Flagyl", "levofloxacin", "Protonix", "Colace", "senna", "Tylenol",
         "Ativan", "Haldol", "Dilaudid", "nitro", "NTG", "amio", "digoxin", "captopril",
         "Kayexalate", "albuterol", "Atrovent", "Flovent", "Coumadin", "ASA", "Plavix",
         "Integrilin", "Nipride", "esmolol", "diltiazem", "ceftriaxone", "cefepime", "meropenem",
         "fluconazole", "acyclovir", "Pepcid", "Reglan", "Zofran", "lactulose", "Keppra",
         "Dilantin", "Solumedrol", "hydrocortisone", "vasopressin", "Precedex", "Narcan",
         "Bactrim", "Cipro", "Maalox", "nystatin", "Miralax", "Lovenox", "argatroban", "Seroquel",
         "KCl", "MgSO4", "calcium gluconate", "bicarb", "D50", "NS", "LR", "D5W", "albumin",
         "Zantac", "Vasotec", "hydralazine", "labetalol", "Ancef", "Unasyn", "Combivent")
DEVICES = ("Foley", "Swan", "Swan-Ganz", "Quinton", "Dobhoff", "Salem sump", "Flexiseal",
           "rectal tube", "pneumoboots", "Venodynes", "Bair Hugger", "IABP", "PA line", "Cordis",
           "introducer", "chest tube", "Pleurevac", "Yankauer", "trach collar", "Shiley",
           "Passy-Muir", "JP drain", "Hemovac", "Kangaroo pump", "art line", "A-line", "aline",
           "PICC", "TLC", "R IJ", "L SC", "PIV x2", "ETT", "OGT", "NGT", "PEG", "Trendelenburg",
           "Hickman", "Groshong", "Doppler", "Ambu", "BiPAP mask", "NRB", "face tent")
UNITS = ("MICU", "CCU", "SICU", "CSRU", "TSICU", "the unit", "the floor", "ED", "EW", "OR",
         "PACU", "cath lab", "IR", "CT", "MRI", "step down", "rehab", "HD", "the ICU")
SITES = ("coccyx", "sacrum", "groin", "R groin", "L femoral", "radial", "brachial", "pedal",
         "heels", "buttocks", "perineum", "flank", "RLL", "LLL", "RUL", "bases", "LUQ", "RUQ",
         "abd", "elbows", "scrotum", "chest wall", "R arm", "L hand", "both feet", "back")
ROLES = ("MD", "team", "HO", "NP", "PA", "resident", "fellow", "RT", "PT", "SW", "CM", "RN",
         "charge RN", "night RN", "CCU team", "MICU team", "renal", "cards", "neuro", "surgery",
         "ID", "GI", "pharmacy", "nutrition", "IV team", "covering MD")
RELS = ("dtr", "daughter", "son", "husband", "wife", "sister", "brother", "niece", "nephew",
        "mother", "father", "friend", "HCP", "grandson", "granddaughter", "son-in-law", "fiance",
        "partner", "cousin", "aunt")
TITLES_DOC = ("Dr", "DR", "Dr.", "dr")
TITLES_PAT = ("Mr", "Mrs", "Ms", "MR", "MRS", "Mr.", "Mrs.")

# system-by-system lines; {SLOT} fillers below. All O unless a slot is labelled.
NEURO = ("A&Ox3, MAE, PERRL 3mm brisk.", "alert, oriented x2, MAE weakly.", "sedated on {DRUG} @ {RATE}, "
         "opens eyes to voice.", "PERRLA, follows commands, {DRUG} prn for agitation.",
         "lethargic, arousable, no purposeful movement noted.", "GCS {GCS}, pupils {PUP}.",
         "restless overnight, {DRUG} {DOSE} IV with good effect.", "speaks only {LANG}, family interprets.",
         "slow to wake, intermittent twitching of hands.", "neuro checks q{Q}h, unchanged.",
         "c/o pain {PAIN}/10 at {SITE}, medicated with {DRUG}.", "MAE's, speech clear, HOH.")
CV = ("HR {HR} NSR, no ectopy. SBP {SBP}.", "HR {HR} ST, occ PVC's. BP stable on {DRUG} gtt.",
      "afib {HR}, {DRUG} {DOSE} IV x1.", "SBP {SBP}'s, MAP > 60, {DRUG} weaned to {RATE}.",
      "CVP {SMALL}, PAD {SMALL}, CO/CI {CO}/{CI}.", "pedal pulses +dopp, extremities warm.",
      "K {K} repleted with {N}0 meq KCl.", "Hct {HCT}, transfused {N} units PRBC.",
      "{DEVICE} d/c'd, site clean.", "{N} units FFP given for INR {INR}.", "SR {HR} with 1st degree AVB.",
      "SB {LOWHR}-{HR}, asymptomatic.", "Wedge {SMALL}, PAD {SMALL}.", "run of bigeminy, MD aware.", "echo done, EF {EF}%.", "{DEVICE} in place, dressing D&I.")
RESP = ("LS clear, dim at bases.", "on {VENT}, ABG {ABG}.", "weaned to PS {SMALL}/5, FiO2 {FIO}%.",
        "sats {SAT}% on {O2}.", "suctioned for thick tan secretions.", "RR {RR}, nonlabored.",
        "CXR shows {CXR}.", "extubated to {O2}, sats {SAT}%.", "coarse BS, cough weak.",
        "{VENT}, TV {TV}, RSBI {RSBI}.", "on BiPAP {SMALL}/5 overnight.")
GIGU = ("abd soft, BS +, no BM yet.", "TF @ {RATE} via {DEVICE}, residuals {SMALL}cc.", "NPO except meds.", "Faint hypoactive BS.",
        "{DEVICE} draining yellow urine, u/o {UO}cc/hr.", "BS {BS}, covered with RISS.",
        "lg loose BM, guaiac neg.", "FSBS {BS}-{BS2}, {N} units reg insulin.", "Cr {CR}, BUN {BUN}.",
        "{DEVICE} to LIWS, {SMALL}0cc bilious output.", "I/O +{IO}, LOS +{N}L.", "HD today via {DEVICE}.")
SKIN = ("stage {N} decubitus on {SITE}, duoderm applied.", "skin intact, turned q2h.", "Profuse serous drainage from {SITE}.",
        "{SITE} dsg changed, sm serous drainage.", "ecchymosis at {SITE}.", "groin site soft, no hematoma.")
ID = ("Tmax {TEMP}, pan cultured.", "on {DRUG} and {DRUG}, WBC {WBC}.", "afebrile, cx pending.", "if pt spikes, pan culture.",
      "ID: MRSA screen sent, on contact precautions.", "Tmax {TEMP}, {DRUG} given.")
NEG_SOCIAL = ("family in to visit, updated by RN.", "{REL} called, updated on condition.",
              "{REL} in to visit this evening.", "{REL} at bedside, questions answered.",
              "no calls from family.", "{REL} and {REL} in, aware of plan.", "full code.", "DNR/DNI.",
              "{ROLE} aware.", "{ROLE} notified of {LAB}.", "{ROLE} in to see pt.", "SW following.")
NEG_PLAN = ("cont to monitor, wean vent as tol.", "f/u labs, replete lytes prn.", "? transfer to floor.",
            "plan for {PROC} in am.", "cont {DRUG}, check {LAB} at {TIME}.", "support pt and family.",
            "possible transfer to {UNIT} when bed available.", "to {UNIT} for {PROC}.",
            "pt seen by {ROLE}, rec {DRUG}.", "rpt labs at {TIME}.", "VS and I/O charted in CareVue.",
            "VS per CareVue flowsheet.")
# lines that carry PHI (labelled slots)
PHI_LINES = (
    "Dr {DOCS} aware.", "{DTITLE} {DOCS} in to see pt, aware of {LAB}.", "paged {DTITLE} {DOCS} re {LAB}.",
    "{DTITLE} {DOCS} notified, {DRUG} {DOSE} ordered.", "{ROLE} {DOCS} aware, no new orders.",
    "discussed w/ {DTITLE} {DOCFULL}.", "{DOCS} (renal) to see pt in am.", "{DTITLE} {DOCS} and {DTITLE} {DOCS} aware.",
    "{REL} {RELG} called, updated.", "{REL} {RELG} in to visit, questions answered.",
    "{REL} {RELG} at bedside.", "spoke with {REL} {RELG} ({PHONE}).", "{RELG} ({REL}) called x2.",
    "{REL} {RELG} and {REL} {RELG} in this evening.", "{REL} {RELG} is HCP.", "{REL} {RELFULL} called from {CITY}.",
    "{PTITLE} {PATS} had a good night.", "{PTITLE} {PATS} c/o pain at {SITE}.", "{PATG} states she is tired.",
    "admitted to {WARD} {WNUM} from {HOSP}.", "transfer to {WARD} {WNUM} when bed available.", "tx'd to {WARD} {WNUM} at {TIME}.",
    "pt from {HOSP}, transferred for {PROC}.", "seen at {HOSP} {DATE}, tx'd here.",
    "referred to {HOSP} for rehab.", "OSH ({HOSP}) records in chart.", "pt lives in {CITY} with {REL}.",
    "{REL} driving in from {CITY}.", "{REL} {RELG} from {CITY} to arrive {DATE}.", "family from {CITY}.",
    "d/c planning: {HOSP} vs home.", "PCP is {DTITLE} {DOCS} at {HOSP}.", "{AGE} yo F adm with {COND}.",
    "{AGE} y/o M from {HOSP} with {COND}.", "R. {DOCS} RN", "{DOCG} RN aware.", "RN {DOCG} covering.",
    "{DTITLE} {DOCS}/{DTITLE} {DOCS} in, plan {PROC}.", "to {WARD} {WNUM} after {PROC}.", "{DOCS} NP aware.",
    # staff named without a title: after a role word, as an initial + surname, in lists
    "{ROLE2} {DOCFULL} aware of {LAB}.", "{ROLE2} {DOCFULL} notified, will see pt.",
    "{SITE} seen by {ROLE2} {DOCFULL} today.", "{ROLE2} {DOCG} ordered {DRUG}.",
    "{DRUG} titrated per {DOCI}.", "cash counted with {DOCI} and {DOCI} RN.",
    "{DOCI} in to reposition {DEVICE}.", "{DOCI} reviewed film, {CXR}.", "{DOCFULL} of case mgmt paged.",
    "Drs {DOCS} and {DOCS} in to see pt.", "{DTITLE} {DOCS}-{DOCS} met with family.",
    "family mtg w/ {DTITLE} {DOCFULL}, {DTITLE} {DOCS} and RN.", "{DOCFULL} from {ROLE2} called back.",
    # relatives and contacts by first name, without a relation word right before
    "{RELG} and {RELG} are HCPs.", "unable to reach {RELG}, will try again.", "{REL} {RELG} phoned at {TIME}, will visit in am.",
    "{DTITLE} {DOCS} reviewed goals of care with {RELG}; {RELG} wants DNR.", "{RELG}, pt's significant other, stayed overnight.",
    "legal guardian {RELFULL} to sign consent.", "{RELFULL} cell {PHONE}.", "{RELG} ({REL}) is the family spokesperson.",
    # wards, hospitals and places in weak context
    "pt was on {WARD} {WNUM} before intubation.", "to go to {WARD} {WNUM} once a bed opens.",
    "{WARD} {WNUM} RN called re pt's glasses.", "? {WARD} {WNUM} tomorrow.", "tx to {WARD}{WNUM} in am.",
    "oriented to self and {HOSPABBR}.", "gets cardiology f/u at {HOSPABBR}.",
    "had similar episode at {HOSP} last yr.", "home is in {CITY}, lives alone.", "{REL} is local, in {CITY}.",
    "{REL} coming up from the {REGION} tonight.", "had been staying on the {REGION} when sx began.",
    "{REL} works for {ORG}.", "sent over from the VA clinic in {CITY}.",
)
REGION_HEADS = ("Western", "Northern", "Southern", "Upper", "Lower", "Central", "Inner")
REGION_NOUNS = ("Valley", "Hills", "Coast", "Ridge", "Highlands", "Lakes", "Plains", "Peninsula")
ROLES2 = ("house staff", "HO", "NP", "PA", "MD", "wound nurse", "clinical RN specialist", "resident",
          "fellow", "case manager", "SW", "psych MD", "chaplain", "nurse", "covering MD", "attending")
#: languages and nationalities: not PHI ("speaks only Farsi")
LANGS = ("Spanish", "Greek", "Farsi", "Russian", "Portuguese", "Mandarin", "Korean", "Haitian Creole",
         "Italian", "Polish", "Vietnamese", "Arabic")
CONDS = ("CHF", "COPD flare", "GI bleed", "sepsis", "PNA", "UGIB", "MI", "CABG", "ARF", "DKA", "AMS",
         "SAH", "CVA", "PE", "ESRD", "ETOH withdrawal", "hypotension", "resp failure", "urosepsis")
PROCS = ("cath", "CT abd", "bronch", "EGD", "TEE", "IR drain", "PEG", "trach", "HD", "colonoscopy",
         "MRI", "LP", "line change", "CVVH", "CABG", "pacer")
LABS = ("K", "Hct", "lactate", "ABG", "INR", "PTT", "Mg", "Ca", "BS", "trop", "CK", "lytes", "WBC")
HOSP_TYPES = ("Hospital", "Medical Center", "General", "Rehab", "Nursing Home", "Manor", "Regional",
              "Memorial", "Hosp")
WARD_SUFFIX = ("", "", " North", " West", " East", " South", "A", "B")
VENTS = ("AC 600x12", "AC 500x14 +5 PEEP", "SIMV 600x10 PS 10", "CPAP 5/5", "PS 10/5", "PS 15 PEEP 5",
         "AC 700x10 50%", "PRVC 450x16", "IMV 8")
O2S = ("RA", "2L NC", "4L NC", "40% FM", "NRB", "50% face tent", "100% NRB", "6L NC", "trach mask 40%")
CXRS = ("RLL infiltrate", "no change", "ETT in good position", "bilat effusions", "CHF", "improved aeration")


class _Nursing:
    """Slot fillers bound to one Random (each returns the text to insert)."""

    def __init__(self, rng: random.Random):
        self.r = rng
        sur = _lists.surnames()
        self.surnames = [s for s in list(sur)[:12000] if s.isascii() and s.isalpha()]
        self.given_names = sorted(g for g in _lists.given_names() if g.isascii() and g.isalpha())
        self.places = [p[0] for p in _lists.us_places() if p[0].isascii()][:4000]
        self.gen = _G._Gen(rng)
        self.stop = _G.EPONYM_WORDS | frozenset(w.lower() for w in
                                                  (*DRUGS, *DEVICES, *UNITS, *ROLES, *RELS))

    def _name(self, pool: list[str], invented) -> str:
        r = self.r
        while True:
            w = r.choice(pool).capitalize() if r.random() < 0.7 else invented()
            if w.isascii() and w.lower() not in self.stop and len(w) > 1:
                return w

    def surname(self) -> str:
        return self._name(self.surnames, self.gen.surname)

    def given(self) -> str:
        return self._name(self.given_names, self.gen.given)

    def full(self) -> str:
        return f"{self.given()} {self.surname()}"

    def ward(self) -> str:
        """The ward's name only: the gold of real notes leaves its number out (``{WNUM}``)."""
        return self.surname() if self.r.random() < 0.6 else self.gen.place_word()

    def initial_surname(self) -> str:
        r = self.r
        return f"{r.choice('ABCDEFGHJKLMNPRSTW')}{r.choice(('.', '.', ''))} {self.surname()}"

    def hospital_abbreviation(self) -> str:
        r = self.r
        return "".join(r.choice("ABCDEFGHJKLMNPRSTW") for _ in range(r.choice((0, 1, 1, 2)))) + \
            r.choice(("MH", "MC", "GH", "CH", "RH", "MMC", "BH", "UH"))

    def region(self) -> str:
        return f"{self.r.choice(REGION_HEADS)} {self.r.choice(REGION_NOUNS)}"

    def organization(self) -> str:
        return self.gen.organization()

    def hospital(self) -> str:
        r = self.r
        k = r.random()
        if k < 0.4:   # abbreviation: SMH, GMC, BGH, UMMC
            return "".join(r.choice("ABCDEFGHJKLMNPRSTW") for _ in range(r.choice((1, 1, 2)))) + \
                r.choice(("MH", "MC", "GH", "CH", "H", "RH", "MMC"))
        if k < 0.6:
            return f"{self.gen.place_word()} {r.choice(HOSP_TYPES)}"
        if k < 0.7:
            return f"St {self.given()}'s"
        if k < 0.8:
            return f"{r.choice(self.places)} {r.choice(HOSP_TYPES)}"
        if k < 0.9:
            return f"Our Lady of {self.gen.place_word()}"
        return f"{self.surname()} {r.choice(HOSP_TYPES)}"

    def city(self) -> str:
        return self.r.choice(self.places) if self.r.random() < 0.7 else self.gen.city()

    def age(self) -> str:
        return str(self.r.randint(90, 101))

    def date(self) -> str:
        r = self.r
        m, d, y = r.randint(1, 12), r.randint(1, 28), r.randint(0, 99)
        return r.choice((f"{m}/{d}", f"{m}/{d}/{y:02d}", f"{m}/{y:02d}", f"{m}-{d}"))

    def phone(self) -> str:
        return self.gen.phone()


_NUM = {  # numeric slot -> (low, high) or a callable over the Random
    "HR": (60, 130), "LOWHR": (40, 59), "SBP": (80, 180), "SMALL": (2, 20), "K": None,
    "HCT": None, "INR": None, "N": (1, 4), "EF": (15, 65), "SAT": (88, 100), "RR": (12, 32),
    "TV": (350, 700), "RSBI": (40, 140), "UO": (20, 200), "BS": (90, 320), "BS2": (150, 400),
    "CR": None, "BUN": (10, 120), "IO": (200, 3000), "TEMP": None, "WBC": None, "GCS": (3, 15),
    "PAIN": (0, 10), "Q": (1, 4), "FIO": (30, 100), "CO": None, "CI": None,
}
_FLOATS = {"K": (2.8, 5.9), "HCT": (19.0, 38.0), "INR": (1.0, 4.5), "CR": (0.6, 6.0),
           "TEMP": (98.0, 103.5), "WBC": (2.0, 28.0), "CO": (2.5, 8.0), "CI": (1.5, 4.0)}
_LABELLED = {"DOCS": ("DOCTOR", "surname"), "DOCG": ("DOCTOR", "given"), "DOCFULL": ("DOCTOR", "full"),
             "RELG": ("PATIENT", "given"), "RELFULL": ("PATIENT", "full"), "PATS": ("PATIENT", "surname"),
             "PATG": ("PATIENT", "given"), "WARD": ("DEPARTMENT", "ward"), "HOSP": ("HOSPITAL", "hospital"),
             "CITY": ("CITY", "city"), "AGE": ("AGE", "age"), "DATE": ("DATE", "date"),
             "PHONE": ("PHONE", "phone"), "DOCI": ("DOCTOR", "initial_surname"),
             "HOSPABBR": ("HOSPITAL", "hospital_abbreviation"),
             "REGION": ("LOCATION-OTHER", "region"), "ORG": ("ORGANIZATION", "organization")}
_POOLS = {"DRUG": DRUGS, "DEVICE": DEVICES, "UNIT": UNITS, "SITE": SITES, "ROLE": ROLES, "REL": RELS,
          "DTITLE": TITLES_DOC, "PTITLE": TITLES_PAT, "COND": CONDS, "PROC": PROCS, "LAB": LABS,
          "VENT": VENTS, "O2": O2S, "CXR": CXRS, "ROLE2": ROLES2, "LANG": LANGS}
_SLOT_RE = re.compile(r"\{([A-Z0-9]+)\}")


def _fill(nz: _Nursing, slot: str) -> tuple[str, str | None]:
    r = nz.r
    if slot in _LABELLED:
        label, meth = _LABELLED[slot]
        return getattr(nz, meth)(), label
    if slot in _POOLS:
        return r.choice(_POOLS[slot]), None
    if slot in _FLOATS:
        lo, hi = _FLOATS[slot]
        return f"{r.uniform(lo, hi):.1f}", None
    if slot in _NUM:
        lo, hi = _NUM[slot]
        return str(r.randint(lo, hi)), None
    if slot == "WNUM":
        return f"{r.randint(1, 12)}{r.choice(WARD_SUFFIX)}", None
    if slot == "RATE":
        return r.choice((f"{r.randint(10, 100)}mcg/kg/min", f"{r.randint(20, 150)}cc/hr",
                         f"{r.randint(1, 20)} units/hr", f"{r.randint(25, 200)}mcg/hr")), None
    if slot == "DOSE":
        return r.choice(("5mg", "2mg", "40mg", "1gm", "25mcg", "0.5mg", "10 units", "20meq", "100mg")), None
    if slot == "ABG":
        return f"7.{r.randint(20, 50)}/{r.randint(28, 70)}/{r.randint(55, 400)}", None
    if slot == "PUP":
        return r.choice(("3mm brisk", "2mm sluggish", "pinpoint", "equal and reactive")), None
    if slot == "TIME":
        return r.choice(("0400", "2200", "midnoc", "noon", "1800", "6am", "4pm", "0600")), None
    raise KeyError(slot)


def _render(nz: _Nursing, template: str) -> tuple[str, list[dict]]:
    return _G.render_template(template, lambda slot: _fill(nz, slot), _SLOT_RE)


_SECTIONS = (("Neuro", NEURO), ("CV", CV), ("Resp", RESP), ("GI/GU", GIGU), ("Skin", SKIN),
             ("ID", ID), ("Social", NEG_SOCIAL), ("Plan", NEG_PLAN))


def _note(nz: _Nursing) -> tuple[str, list[dict]]:
    r = nz.r
    positive = r.random() >= NEGATIVE_SHARE
    sections = [s for s in _SECTIONS if r.random() < 0.6] or [r.choice(_SECTIONS)]
    n_phi = r.choice((1, 1, 1, 2, 2, 3)) if positive else 0
    phi_at = {r.randrange(len(sections)) for _ in range(n_phi)}
    heading_style = r.random()
    joiner = r.choice(("\n", "\n", " \n \n", " "))
    text, spans = "", []
    for k, (head, pool) in enumerate(sections):
        lines = [r.choice(pool) for _ in range(r.choice((1, 2, 2, 3)))]
        if k in phi_at:
            lines.insert(r.randrange(len(lines) + 1), r.choice(PHI_LINES))
        body, body_spans = "", []
        for t in lines:
            piece, ss = _render(nz, t)
            sep = "" if not body else r.choice((" ", " ", "  ", ". " if not body.endswith(".") else " "))
            off = len(body) + len(sep)
            body += sep + piece
            body_spans.extend({**s, "start": s["start"] + off, "end": s["end"] + off} for s in ss)
        if r.random() < 0.35:   # terse: drop final periods
            body = body.rstrip(".")
        label = (f"{head}: " if heading_style < 0.6 else f"{head.upper()}- " if heading_style < 0.8 else "")
        prefix = (joiner if text else "") + label
        off = len(text) + len(prefix)
        text += prefix + body
        spans.extend({**s, "start": s["start"] + off, "end": s["end"] + off} for s in body_spans)
    return text, spans


def _recase(text: str, spans: list[dict], mode: str) -> str:
    new = text.upper() if mode == "upper" else text.lower() if mode == "lower" else text
    if len(new) != len(text) or any(new[s["start"]:s["end"]].lower() != text[s["start"]:s["end"]].lower()
                                    for s in spans):
        return text
    return new


def generate(n: int, seed: int) -> list[dict]:
    """``n`` generated nursing notes, deterministic for ``seed``: ``{"text", "spans": [{"start",
    "end", "label"}]}``, :data:`MIN_CHARS`..:data:`MAX_CHARS` characters, labels from
    :data:`training.generate.LABELS`; about :data:`NEGATIVE_SHARE` of them without spans.

    Raises:
        ValueError: (from :func:`training.generate.validate`) on an invalid example (a bug)."""
    nz = _Nursing(random.Random(seed))
    out = []
    while len(out) < n:
        text, spans = _note(nz)
        if len(text) > MAX_CHARS:
            cut = text.rfind("\n", 0, MAX_CHARS)
            cut = cut if cut > MIN_CHARS else text.rfind(" ", 0, MAX_CHARS)
            text = text[:cut].rstrip()
            spans = [s for s in spans if s["end"] <= len(text)]
        if len(text) < MIN_CHARS:
            continue
        c = nz.r.random()
        mode = "" if c < CASE_SHARES[0] else "upper" if c < CASE_SHARES[0] + CASE_SHARES[1] else "lower"
        ex = {"text": _recase(text, spans, mode), "spans": spans}
        _G.validate(ex)
        out.append(ex)
    return out


if __name__ == "__main__":  # pragma: no cover
    exs = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, 1)
    print(Counter(s["label"] for e in exs for s in e["spans"]))
    for e in exs[:4]:
        print("---\n" + e["text"])
        print([(s["label"], e["text"][s["start"]:s["end"]]) for s in e["spans"]])
