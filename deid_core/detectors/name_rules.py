"""Hand-written context data for the name detector (:mod:`deid_core.detectors.names`).

Everything here is hand-written by the project (no external source) and small. The large,
derived word lists (Census surnames and given names, MeSH and English collisions, eponym
followers, clinical nouns) live in ``lists/`` and are read through :mod:`deid_core.lists`;
the sets below only *supplement* them (the ``*_EXTRA`` sets are unioned with the derived or
hand-written list of the same job) so the detector keeps its core behaviour if a list file
is shorter than expected. All words are lower-case; apostrophes are ASCII ``'``.
"""
from __future__ import annotations

#: Titles that make the next name a care provider (label DOCTOR). The title is not in the span.
DOCTOR_TITLES: frozenset[str] = frozenset({
    "dr", "dra", "drs", "doctor", "doc", "prof", "professor", "nurse", "np", "rn", "pa", "pa-c",
    "attending", "resident", "intern", "fellow", "surgeon", "physician", "pcp", "cnm",
    "midwife", "therapist", "dietitian", "pharmacist", "chaplain", "provider", "psychologist",
    # other members of the care team named by role (``per the aide Gloria``)
    "aide", "interpreter", "translator", "scribe", "doula", "sitter", "navigator", "coordinator",
    "technician", "technologist", "counselor", "counsellor", "paramedic", "caseworker",
})

#: Titles that make the next name a patient or relative (label PATIENT in i2b2).
PATIENT_TITLES: frozenset[str] = frozenset({
    "mr", "mrs", "ms", "miss", "mister", "mx", "master", "madam", "mme", "mlle", "sra",
    "srta", "herr", "frau", "rev", "reverend", "pastor", "rabbi", "imam", "capt", "captain",
    "sgt", "sergeant", "lt", "col", "gen", "officer", "judge", "patient", "pt",
    # people outside the care team named by role (``adjuster Tamsin Greaves``) and greetings
    # (``hi Yusuf``); the greeting word itself is in NON_NAMES
    "adjuster", "attorney", "lawyer", "advocate", "landlord", "supervisor",
    "hi", "hello", "hey", "dear",
})

#: Possessives before a relation word (``his partner Thu``): then the relation is a strong
#: context even in a lower-case or ALL-CAPS note, where capitals give no evidence.
POSSESSIVES: frozenset[str] = frozenset({"his", "her", "their", "my", "your", "our", "pt's",
                                         "patient's", "pt’s", "patient’s"})

#: Calendar words that are also given names (``his partner Thu``, ``her daughter June``):
#: non-names on their own, names right after a possessive and a relation word.
CALENDAR_NAMES: frozenset[str] = frozenset(
    "mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov "
    "dec june april august".split())

#: Words that end a name being collected: identifier labels of a header line
#: (``Mrs Philippa Ashdown-Reyes   DOB: ...``).
ID_LABEL_WORDS: frozenset[str] = frozenset(
    "dob mrn age sex dos nhs ssn acct id room rm bed phone tel fax dob# mrn# gender".split())

#: Eponyms that, standing alone (no title, no given name next to them), name a test, score,
#: blood-group antigen or device rather than a person (``anti-K (Kell)``, ``Holter not
#: needed``, ``Morse fall score``). With a title or a given name they are still names.
TEST_EPONYMS: frozenset[str] = frozenset("""
kell duffy kidd gleason holter morse braden apgar glasgow mallampati fazekas valsalva
trendelenburg romberg babinski homans kernig brudzinski epley hallpike barthel karnofsky
ringer ringers
""".split())

#: Labels after which a lone 2-4 letter word is a person's initials (``Tech ZQ /``,
#: ``Transcriptionist: mlr``, ``transcribed: ks``).
INITIALS_LABELS: frozenset[str] = frozenset({
    "tech", "technologist", "scribe", "transcriptionist", "dictated", "transcribed", "typed",
    "signed", "entered", "reviewed", "verified", "cosigned", "co-signed", "author", "by",
})

#: Relationship words: the name-shaped word(s) after one are a relative's name (PATIENT).
RELATIONS: frozenset[str] = frozenset({
    "wife", "husband", "spouse", "partner", "son", "daughter", "mother", "father", "mom", "mum",
    "dad", "brother", "sister", "sibling", "child", "kid", "fiance", "fiancee", "fiancé",
    "fiancée", "girlfriend", "boyfriend", "friend", "niece", "nephew", "aunt", "uncle",
    "cousin", "grandson", "granddaughter", "grandchild", "grandmother", "grandfather",
    "grandma", "grandpa", "granny", "stepson", "stepdaughter", "stepmother", "stepfather",
    "stepbrother", "stepsister", "guardian", "caregiver", "carer", "neighbor", "neighbour",
    "roommate", "companion", "sister-in-law", "brother-in-law", "mother-in-law",
    "father-in-law", "son-in-law", "daughter-in-law", "widow", "widower", "ex-wife",
    "ex-husband", "poa", "proxy", "hcp",
})

#: Credentials written after a provider's name (``Anne Whitcombe, MD``): the name is DOCTOR.
#: ``AMBIGUOUS_CREDENTIALS`` count only after a comma (``Smith, DO``), not after a space.
CREDENTIALS: frozenset[str] = frozenset({
    "md", "do", "rn", "np", "pa", "pa-c", "phd", "dds", "dmd", "lpn", "lvn", "cna", "msw",
    "lcsw", "lmsw", "lisw", "pharmd", "rph", "crna", "fnp", "fnp-c", "fnp-bc", "aprn", "dnp",
    "cnp", "cns", "mbbs", "mbchb", "facp", "facc", "facs", "faap", "facog", "bsn", "msn",
    "ot", "otr", "pt", "dpt", "slp", "ccc-slp", "rd", "rdn", "ld", "dpm", "od", "mph", "frcp",
    "frcpc", "frcs", "cnm", "mft", "lmft", "lpc", "psyd", "rrt", "emt", "emt-p", "paramedic",
    "agacnp", "acnp", "anp", "pnp", "whnp", "pmhnp", "cpnp", "rnfa", "mhs", "ms", "ma",
    "licsw", "ccds", "ct", "mls", "mt", "bcps", "cdces", "cde", "ibclc", "rdms", "rvt", "cpht",
    "atc", "dc", "lac", "au.d", "aud", "ccrn", "cen", "ocn", "cnrn", "rnc",
})
AMBIGUOUS_CREDENTIALS: frozenset[str] = frozenset({
    "do", "pa", "pt", "ot", "od", "rd", "ld", "ms", "ma", "mhs", "emt", "ct", "mt", "dc", "atc",
    "lac", "cen", "cde", "aud",
})

#: Label phrases (as lower-case word tuples) whose following name is PATIENT / DOCTOR /
#: USERNAME, and whether a colon (or dash) must follow the phrase (``Patient: Smith`` but not
#: ``Patient reports``). Phrases are matched on word tokens, so ``Pt. name`` works too.
LABELS: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("patient",), "PATIENT", True),
    (("name",), "PATIENT", True),
    (("pt", "name"), "PATIENT", True),
    (("patient", "name"), "PATIENT", True),
    (("full", "name"), "PATIENT", True),
    (("legal", "name"), "PATIENT", True),
    (("preferred", "name"), "PATIENT", True),
    (("last", "name"), "PATIENT", True),
    (("first", "name"), "PATIENT", True),
    (("surname",), "PATIENT", True),
    (("pt",), "PATIENT", True),
    (("re",), "PATIENT", True),
    (("contact",), "PATIENT", True),
    (("emergency", "contact"), "PATIENT", True),
    (("next", "of", "kin"), "PATIENT", True),
    (("nok",), "PATIENT", True),
    (("informant",), "PATIENT", True),
    (("accompanied", "by"), "PATIENT", False),
    (("name", "is"), "PATIENT", False),
    (("named",), "PATIENT", False),
    (("i'm",), "PATIENT", False),
    (("i’m",), "PATIENT", False),
    (("goes", "by"), "PATIENT", False),
    (("attending",), "DOCTOR", True),
    (("attending", "physician"), "DOCTOR", False),
    (("attending", "md"), "DOCTOR", False),
    (("signed",), "DOCTOR", True),
    (("signed", "by"), "DOCTOR", False),
    (("electronically", "signed", "by"), "DOCTOR", False),
    (("e-signed", "by"), "DOCTOR", False),
    (("cosigned", "by"), "DOCTOR", False),
    (("co-signed", "by"), "DOCTOR", False),
    (("countersigned", "by"), "DOCTOR", False),
    (("authenticated", "by"), "DOCTOR", False),
    (("verified", "by"), "DOCTOR", False),
    (("reviewed", "by"), "DOCTOR", False),
    (("dictated", "by"), "DOCTOR", False),
    (("transcribed", "by"), "DOCTOR", False),
    (("interpreted", "by"), "DOCTOR", False),
    (("performed", "by"), "DOCTOR", False),
    (("read", "by"), "DOCTOR", False),
    (("seen", "by"), "DOCTOR", False),
    (("examined", "by"), "DOCTOR", False),
    (("referred", "by"), "DOCTOR", False),
    (("ordered", "by"), "DOCTOR", False),
    (("entered", "by"), "DOCTOR", False),
    (("author",), "DOCTOR", True),
    (("cc",), "DOCTOR", True),
    (("pcp",), "DOCTOR", False),
    (("primary", "care"), "DOCTOR", True),
    (("primary", "care", "physician"), "DOCTOR", False),
    (("primary", "care", "provider"), "DOCTOR", False),
    (("primary", "physician"), "DOCTOR", False),
    (("referring",), "DOCTOR", True),
    (("referring", "physician"), "DOCTOR", False),
    (("referring", "provider"), "DOCTOR", False),
    (("referring", "doctor"), "DOCTOR", False),
    (("ordering", "physician"), "DOCTOR", False),
    (("ordering", "provider"), "DOCTOR", False),
    (("consulting", "physician"), "DOCTOR", False),
    (("consultant",), "DOCTOR", True),
    (("physician",), "DOCTOR", True),
    (("provider",), "DOCTOR", True),
    (("surgeon",), "DOCTOR", True),
    (("assistant",), "DOCTOR", True),
    (("anesthesiologist",), "DOCTOR", True),
    (("anesthesia",), "DOCTOR", True),
    (("resident",), "DOCTOR", True),
    (("fellow",), "DOCTOR", True),
    (("intern",), "DOCTOR", True),
    (("nurse",), "DOCTOR", True),
    (("rn",), "DOCTOR", True),
    (("np",), "DOCTOR", True),
    (("md",), "DOCTOR", True),
    (("clinician",), "DOCTOR", True),
    (("therapist",), "DOCTOR", True),
    (("pharmacist",), "DOCTOR", True),
    (("case", "manager"), "DOCTOR", True),
    (("social", "worker"), "DOCTOR", True),
    (("co-signed",), "DOCTOR", True),
    (("cosigned",), "DOCTOR", True),
    (("dictated",), "DOCTOR", True),
    (("transcribed",), "DOCTOR", True),
    (("reviewed",), "DOCTOR", True),
    (("verified",), "DOCTOR", True),
    (("confirmed", "by"), "DOCTOR", False),
    (("scribe",), "DOCTOR", False),
    (("tech",), "DOCTOR", True),
    (("technologist",), "DOCTOR", True),
    (("identified", "as"), "PATIENT", False),
    (("baby", "girl"), "PATIENT", False),
    (("baby", "boy"), "PATIENT", False),
    (("tech", "id"), "USERNAME", False),
    (("operator",), "USERNAME", False),
    (("portal", "account"), "USERNAME", False),
    (("portal", "user"), "USERNAME", False),
    (("guarantor",), "PATIENT", True),
    (("recipient",), "PATIENT", True),
    (("subscriber",), "PATIENT", True),
    (("insured",), "PATIENT", True),
    (("transcriptionist",), "DOCTOR", True),
    (("user",), "USERNAME", True),
    (("username",), "USERNAME", True),
    (("user", "name"), "USERNAME", True),
    (("user", "id"), "USERNAME", True),
    (("userid",), "USERNAME", True),
    (("login",), "USERNAME", True),
    (("login", "id"), "USERNAME", True),
    (("logon",), "USERNAME", True),
)

#: Labels that also mean something else (``cc:`` chief complaint, ``re:`` regarding): a
#: lower-case word after one must be a name-list word that is not an English word.
AMBIGUOUS_LABELS: frozenset[str] = frozenset({"cc", "re", "contact", "pt", "name"})

#: Words never taken as a name without a title/label/relation context (hand-written): pronouns
#: and function words, note and section words, units, clinical abbreviations that also occur
#: in the Census lists (``TIA``, ``ED``, ``ROS``), departments and common capitalised note words.
NON_NAMES: frozenset[str] = frozenset("""
the a an and or but if of in on at to for from by with without within into onto per via as
he she his her hers him they them their we our us you your i me my it its this that these those
who whom whose which what when where why how there here then than so not no yes none all any
some each every both either neither is are was were be been being has have had do does did
would shall should might must can could also again since until after before during
patient patients pt pts mg mcg ml kg cm mm dl min hr hrs sec day days week weeks month months
year years yr yrs am pm hi hello hey dear
plan history assessment impression exam examination labs lab vitals vital signs diagnosis
diagnoses procedure procedures medications medication meds allergies allergy social family
past present illness review systems physical general skin head neck eyes ears nose throat
chest heart lungs lung abdomen extremities neuro neurologic psych psychiatric musculoskeletal
discharge admission admit admitted course hospital clinic center centre medical medicine
surgery surgical cardiology neurology oncology radiology pathology pediatrics obstetrics
gynecology urology nephrology psychiatry dermatology orthopedics emergency department unit
floor ward room bed icu ccu micu sicu nicu picu pacu er ed or ob gyn ent gi gu id
note notes report summary findings result results impression recommendations recommendation
subjective objective data reason chief complaint followup follow-up disposition condition
instructions signature addendum attestation comment comments problem problems list
normal abnormal stable unstable alert oriented awake denies reports states pain fever cough
nausea vomiting blood pressure pulse rate temp temperature weight height oxygen saturation
left right bilateral upper lower anterior posterior lateral medial proximal distal
positive negative deceased alive living unknown healthy noncontributory died passed
male female man woman boy girl baby infant child adult elderly
mri ct cxr ekg ecg eeg emg echo us xr bmp cbc cmp inr ptt pt hgb hct wbc plt bun cr
tia ros im iv po pr ng og sl sq sc prn bid tid qid qd qhs hs ac pc npo dnr dni
mi pe dvt chf cad copd htn dm ckd esrd uti cva afib hpi pmh psh fh sh nad rrr wnl vss
dr mr mrs ms md rn np pa do dds phd
monday tuesday wednesday thursday friday saturday sunday
mon tue tues wed thu thur thurs fri sat sun
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
today tomorrow yesterday tonight morning afternoon evening night noon midnight
christmas easter thanksgiving
god lord jesus christ
street st avenue ave road rd drive boulevard blvd lane ln suite apt
north south east west northeast northwest southeast southwest
ok okay newborn nursery neonate stage class grade type phase level step tier valley river lake mount mountain county city
metro park bay beach island harbor harbour village town service services
inpatient outpatient consult consults consultation pending
american african asian hispanic latino caucasian white black english spanish
""".split())

#: Words after a sentence-initial English-word name that show the ordinary reading
#: (``Hope to discharge``, ``Will continue``): document consistency does not apply there.
VERB_READING_NEXT: frozenset[str] = frozenset({
    "to", "that", "for", "of", "as", "at", "in", "on", "you", "we", "this", "it", "so", "not", "the", "a", "an", "be",
    "continue", "follow", "start", "stop", "check", "call", "consider", "discuss", "obtain",
    "monitor", "need", "needs", "have", "get", "see", "send", "recheck", "repeat", "order",
})

#: Month names and abbreviations (also given names: May, June, April, August, Jan).
MONTHS: frozenset[str] = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split())

#: Supplement to ``lists.eponym_followers()``: words that, after a name-shaped word, make it
#: part of an eponymous term (``Bell's palsy``, ``Babinski sign``, ``Apgar score``).
FOLLOWERS_EXTRA: frozenset[str] = frozenset("""
syndrome syndromes disease diseases disorder palsy sign signs scale scales score scores test
tests maneuver manoeuvre maneuvers reflex reflexes phenomenon lymphoma sarcoma tumor tumour
carcinoma leukemia anemia criteria classification classifications stage staging procedure
operation repair fracture fractures node nodes cell cells body bodies ulcer ulcers cyst cysts
triad murmur law laws index incision point position test's fundoplication bypass shunt
ratio rule rules equation formula method technique block stain staining cycle loop duct ducts
canal canals capsule corpuscle corpuscles gland glands ligament membrane space spaces
pouch line lines nodule nodules disc disk effect curve reaction phase angle tube tubes
hernia aneurysm anomaly deformity dystrophy ataxia chorea dementia encephalopathy neuralgia
neuroma contracture esophagus diverticulum tear tears thyroiditis glomerulonephritis ileus
classification questionnaire inventory grading grade type negative positive equivocal
monitor
protocol protocols pattern patterns solution solutions screen screens screening respiration
respirations breathing drain drains technique techniques approach view views wave waves
regimen regimens pupil pupils hump sump paralysis
""".split())

#: Word endings of procedures and diagnoses (``Ivor Lewis esophagectomy``, ``Hashimoto
#: thyroiditis``): a word with one of them that is in no name list is an eponym follower.
FOLLOWER_SUFFIXES: tuple[str, ...] = (
    "ectomy", "otomy", "ostomy", "plasty", "pexy", "rrhaphy", "oscopy", "itis", "osis",
    "opathy", "algia", "plegia", "paresis", "emia",
)

#: Followers that also count two words on (``Ramsay sedation scale``, ``Beck depression
#: inventory``): measures named after a person with a word between.
MEASURE_FOLLOWERS: frozenset[str] = frozenset("""
scale scales score scores criteria inventory questionnaire classification index protocol
""".split())

#: Words after a hyphenated pair of eponyms that make it a clinical term (``Child-Pugh class
#: B``), besides eponym followers and clinical nouns.
HYPHEN_EPONYM_NEXT: frozenset[str] = frozenset("class stage grade type".split())

#: Supplement to ``lists.clinical_nouns()``: bedside objects after which a name-shaped word is
#: only a candidate for review (``Foley catheter``, ``Swan-Ganz catheter``).
CLINICAL_NOUNS_EXTRA: frozenset[str] = frozenset("""
catheter catheters drain drains stocking stockings bag bags needle needles forceps retractor
stent stents pump pumps mask masks splint splints boot boots collar collars frame frames
valve valves clamp clamps dressing dressings bandage bandages cannula cannulas device
devices brace braces filter filters balloon balloons electrode electrodes hose lead leads
""".split())

#: Supplement to ``lists.medical_collisions()``: names that are also common medical words.
MEDICAL_EXTRA: frozenset[str] = frozenset("""
parkinson parkinsons hodgkin hodgkins crohn crohns alzheimer alzheimers addison cushing graves
bell wilson huntington tourette raynaud sjogren kawasaki hashimoto guillain barre marfan
turner klinefelter down paget wernicke korsakoff bright foley swan ganz apgar glasgow braden
gleason whipple nissen babinski homans murphy kernig romberg trendelenburg valsalva
holter fazekas kell morse barlow ortolani mallampati
""".split())

#: Supplement to ``handwritten("professions")``: occupations (single words or phrases).
PROFESSIONS_EXTRA: frozenset[str] = frozenset({
    "teacher", "nurse", "engineer", "lawyer", "attorney", "accountant", "farmer", "carpenter",
    "electrician", "plumber", "mechanic", "truck driver", "driver", "bus driver", "firefighter",
    "police officer", "officer", "soldier", "veteran", "pilot", "chef", "cook", "waiter",
    "waitress", "bartender", "cashier", "clerk", "secretary", "salesman", "manager",
    "construction worker", "factory worker", "welder", "painter", "janitor", "custodian",
    "physician", "doctor", "dentist", "pharmacist", "professor", "student", "librarian",
    "programmer", "software engineer", "banker", "miner", "coal miner", "fisherman",
    "landscaper", "roofer", "machinist", "musician", "artist", "writer", "journalist",
    "hairdresser", "barber", "realtor", "real estate agent", "social worker", "paramedic",
    "housekeeper", "nanny", "babysitter", "homemaker", "pastor", "minister", "priest",
    "architect", "scientist", "chemist", "dental hygienist", "nursing assistant",
    "home health aide", "security guard", "warehouse worker", "laborer", "rancher",
    "stenographer", "postmistress", "postmaster", "mail carrier", "beekeeper", "conductor",
    "typesetter", "biologist", "trucker", "organist", "paralegal", "gardener", "operator",
})

#: Words after which a short noun phrase ending in an occupational suffix is an occupation
#: (``retired court stenographer``, ``former tobacco farmer``, ``works as a sous-chef``).
PROFESSION_OPENERS: frozenset[str] = frozenset({"retired", "former", "formerly", "occupation",
                                                "profession"})
#: Occupational endings (hand-written).
PROFESSION_SUFFIXES: tuple[str, ...] = (
    "er", "or", "ist", "ian", "man", "woman", "wright", "smith", "ess", "chef", "cook", "aide",
    "clerk", "agent", "pilot", "guard", "nurse", "tech", "technician", "analyst", "consultant",
    "assistant", "attendant", "student", "hygienist", "medic", "officer", "teller", "maid",
)
#: Words ending like an occupation that are not one (``former smoker``).
NOT_PROFESSIONS: frozenset[str] = frozenset({
    "smoker", "drinker", "user", "abuser", "patient", "member", "partner", "resident", "other",
    "number", "order", "water", "paper", "counter", "cancer", "disorder", "tumor", "tumour",
    "donor", "factor", "monitor", "ulcer", "fever", "liver", "bladder", "center", "shoulder",
    "finger", "player", "layer", "filter", "diameter", "catheter", "marker", "pacemaker",
    "weather", "winter", "summer", "consumer", "customer", "owner", "sister", "brother",
    "mother", "father", "daughter", "another", "after", "later", "ever", "never", "over",
    "under", "manner", "matter", "letter", "for", "or", "hour", "floor", "door", "favor",
    "behavior", "behaviour", "error", "floor", "major", "minor", "prior", "senior", "junior",
    "interior", "exterior", "posterior", "anterior", "superior", "inferior", "tremor", "vapor",
    "smokers", "man", "woman", "human", "german", "veteran",
})
#: Words that end an occupation phrase being collected.
PROFESSION_STOP: frozenset[str] = frozenset({
    "a", "an", "the", "at", "for", "in", "on", "with", "and", "or", "who", "since", "from", "of",
    "to", "by", "until", "but", "she", "he", "his", "her", "yo", "y", "o", "old", "year-old",
    "now", "currently", "previously", "still",
})

#: Subjects of ``... is a`` / ``... was a`` that make the occupation after it certain
#: (``he is a plumber``, ``She was a piano teacher``); a name found before counts too.
PROFESSION_SUBJECTS: frozenset[str] = frozenset({
    "he", "she", "i", "who", "patient", "pt", "husband", "wife", "father", "mother", "son",
    "daughter", "brother", "sister", "partner", "spouse",
})

#: Words before an occupation (within a few words) that say it *is* the person's occupation.
PROFESSION_CONTEXT: frozenset[str] = frozenset({
    "works", "worked", "working", "work", "retired", "occupation", "profession", "employed",
    "yo", "year-old", "yr-old",
    "employment", "job", "career", "trade", "former", "formerly", "vocation", "employer",
})


def _inflect(bases: str, past: bool = True) -> frozenset[str]:
    """Third-person and -ing forms of verbs, and with ``past`` the regular past (``agree``
    -> ``agrees``, ``agreeing``, ``agreed``)."""
    out: set[str] = set()
    for b in bases.split():
        cy = len(b) > 2 and b[-1] == "y" and b[-2] not in "aeiou"
        out.add(b[:-1] + "ies" if cy else b + "es" if b.endswith(("s", "sh", "ch", "x", "z", "o"))
                else b + "s")
        out.add(b[:-1] + "ing" if b.endswith("e") and not b.endswith("ee") else b + "ing")
        if past:
            out.add(b[:-1] + "ied" if cy else b + "d" if b.endswith("e") else b + "ed")
    return frozenset(out)


#: Hand-written: verbs that follow a person's name in a note (``gonzalez agrees``, ``kim
#: saw``, ``jessica lives``), in their third-person, past and -ing forms. After a lone
#: surname or given name in text without capitals they make it read as a person; and a name
#: being collected in such text stops before one. Verbs that are also given names (will,
#: hope, mark, bill, sue, pat, grant) are left out of the bases on purpose.
PERSON_VERBS: frozenset[str] = _inflect("""
accompany acknowledge administer agree answer appear arrange arrive ask assist attend believe
call cancel care check complain confirm fall consent continue cry decline demonstrate deny describe
discuss display endorse expect explain express follow help live look manage mention need note
notify participate pick present provide receive recommend refuse remain reply report request
reschedule reside respond return seem sign smoke state stay talk try use verbalize visit voice
walk want weigh wish wonder work worry
""") | _inflect("""
bring drink drive feel find give go hear keep know leave make plan prefer say see sleep
speak stand take teach tell think understand write
""", past=False) | frozenset("""
saw seen said told came went gone gave given took taken brought drove driven felt found heard
kept knew known left made spoke spoken thought understood got gotten getting gets sat sitting
sits stood ate drank slept wrote taught planned preferred admits admitting admitted stopped sent paid met does
did has had is was are were fell ran rode woke broke hit lost won threw wore fed led bled held
hurt put quit set spent read
""".split())

#: Hand-written: words at which a name being collected in text without capitals stops
#: (``dr jones will call``, ``son david visits weekly``, ``dr. ashworth aware``): the verbs
#: above, modal verbs, adverbs of time and place and a few predicate adjectives. Unlisted
#: words ending in -ed, -ing or -ly stop it too.
NAME_STOP_WORDS: frozenset[str] = PERSON_VERBS | frozenset("""
will would can could may might shall should must do
today tonight yesterday tomorrow now here there nearby weekly daily monthly nightly again
also already still too only just never always often usually recently currently yet well
aware unaware agreeable available unavailable concerned comfortable present absent
""".split())

#: Hand-written: hospitals and health systems named after people, written without a hospital
#: word (``transferred from Johns Hopkins``, ``seen at NYU Langone``): the words are in the
#: name lists, but the phrase is a HOSPITAL, not a person. Lower-case word tuples.
INSTITUTIONS: frozenset[tuple[str, ...]] = frozenset(tuple(p.split()) for p in """
johns hopkins
john hopkins
nyu langone
beth israel
md anderson
sloan kettering
memorial sloan kettering
mount sinai
mt sinai
henry ford
kaiser permanente
baylor scott
cedars-sinai
""".strip().split("\n"))
