"""Templates of the generated notes of :mod:`training.notetypes`: 13 note types, written for this
project from a description of each note type (no text of any real note).

A template is a line with slots ``{SLOT}``; :data:`training.notetypes.LABELLED` says which slots are
PHI (and their i2b2 subtype), every other slot is filled with text that must stay unmarked. Each
note type is ``{"header": [...], "sections": [(heading, [templates], (min, max))], "sign": [...],
"case": (natural, upper, lower)}``; a heading ``""`` writes no heading.
"""
from __future__ import annotations

HEADERS = (
    "Name: {PATLF}", "Patient: {PAT}", "PATIENT: {PATLF}", "Pt: {PATSI}", "Patient Name: {PATLF}",
    "RE: {PATLF}", "Re: {PAT}", "Client: {PAT}", "Name: {PAT} (\"{PATNICK}\")", "MRN: {MRN}",
    "DOB: {DATE}", "Date of service: {DATE}", "Admit date: {DATE}", "Attending: {DOC}, MD",
    "PCP: Dr. {DOCS}", "Primary care: {DOC}, {CRED}", "Referring physician: {DOC}, MD",
    "Referring: Dr. {DOCLF}", "cc: {DOC}, MD", "COPY TO: {DOCU}, MD", "Location: {HOSP}",
    "Facility: {HOSP}", "Unit: {WARD} {WNUM}", "Service: {SERV}", "Room: {ROOMNO}",
    "Accession #: {MRN}", "Encounter: {MRN}", "Provider: {DOC}, {CRED}", "Author: {DOC}, {CRED}",
    "Insurance: {PLAN}", "Emergency contact: {RELFULL} ({RELW}) {PHONE}", "Age: {AGEANY}",
    "Sex: {SEX}", "Visit type: {VISIT}", "Clinic: {HOSP}", "Ordering provider: {DOCLF}",
    "Department: {DEPT}", "{HOSP}\n{DEPT}\n{STREET}, {CITY}, {STATE} {ZIP}", "Address: {STREET}, {CITY} {STATE}",
    "{HOSP} | {DEPT} | {PHONE}", "Location: {DEPT}, {HOSP}", "County: {COUNTY}",
)
SIGNS = (
    "{DOC}, MD", "{DOC}, {CRED}", "Electronically signed by {DOC}, MD on {DATE} {TIME}",
    "Signed: {DOC} {CRED}", "-- {DOCG} {DOCS}, {CRED}", "/{DOCINIT}", "{DOCINIT}/{DOCINIT}",
    "Dictated by: {DOC}, MD. Transcribed by: {DOCINIT}", "Attending: {DOCLF}", "{DOCU} RN",
    "{DOCI} {CRED}", "Thanks, {DOCG}", "Sincerely,\n{DOC}, MD\n{HOSP}", "{DOC}, MD / {WARD} {WNUM}",
    "Reviewed and signed by Dr. {DOCS} {DATE}", "Resident: {DOC}, MD. Attending: {DOC}, MD.",
    "{DOCG} {DOCS} LICSW", "Note by {USER}", "{DOCS}, {DOCG} {CRED}",
)

ICU = {
    "header": ("NURSING PROGRESS NOTE {TIME}-{TIME}", "{SHIFT} SHIFT NOTE", "MICU NSG NOTE",
               "CCU NURSING ADMIT NOTE"),
    "sections": (
        ("NEURO", ("{ADJ}, MAE, FOLLOWS COMMANDS.", "SEDATED ON {DRUG} {RATE}.", "PERRL, {ADV} {VERBED}.",
                   "{WORD} AND {ADJ} OVERNIGHT, {DRUG} {DOSE} GIVEN.", "OOB TO CHAIR WITH ASSIST."), (1, 2)),
        ("CV", ("HR {HR} {RHYTHM}, SBP {SBP}-{SBP}.", "{DRUG} GTT AT {RATE}, WEANED.", "K {LAB1}, REPLETED.",
                "{DEVICE} IN PLACE, DSG D+I.", "PULSES +DOPP, EXT WARM."), (1, 3)),
        ("RESP", ("LS {LUNG}, SATS {SAT}% ON {O2}.", "ON {VENT}, ABG {ABG}.", "SX FOR {SEC} SECRETIONS.",
                  "{ABBR} {ABBR} PER RT.", "WEANED TO {O2}."), (1, 2)),
        ("GI/GU", ("ABD SOFT, +BS, {ABBR}.", "TF AT {NUM}CC/HR VIA {DEVICE}.", "FOLEY DRAINING {NUM}CC/HR.",
                   "BM X{NUM}, GUAIAC NEG."), (1, 2)),
        ("SOCIAL", ("{RELW} {REL} CALLED, UPDATED BY RN.", "{RELW} {REL} AND {RELW} {REL} IN TO VISIT.",
                    "{RELW} IN, QUESTIONS ANSWERED.", "FAMILY FROM {CITY} TO ARRIVE AM.",
                    "{REL} ({RELW}) IS HCP, {PHONE}.", "PT LIVES IN {CITY} WITH {RELW}.",
                    "{RELW} AWARE OF PLAN.", "NO CALLS FROM FAMILY."), (1, 2)),
        ("PLAN", ("TRANSFER TO {WARD} {WNUM} WHEN BED AVAILABLE.", "? TO {WARD} {WNUM} IN AM.",
                  "DR {DOCS} AWARE, NO NEW ORDERS.", "{ROLE} {DOCS} PAGED RE {LAB}.", "MD AWARE.",
                  "CONT TO MONITOR, {VERB} AS TOL.", "F/U {LAB}, {ABBR} PRN.", "{ROLE} AWARE.",
                  "SCREENED BY {HOSPS} FOR REHAB.", "D/C TO {HOSPS} VS HOME.", "TO {UNIT} FOR {PROC}."), (1, 3)),
    ),
    "sign": ("{DOCU} RN", "{DOCI} RN", "{DOCG}, RN", "", ""),
    "case": (0.15, 0.75, 0.10),
}
ED = {
    "header": ("ED PHYSICIAN NOTE", "Emergency Department Note", "ED Triage", "EMERGENCY ROOM RECORD"),
    "sections": (
        ("CC", ("{COMPLAINT}", "{COMPLAINT} x {NUM} days"), (1, 1)),
        ("HPI", ("{AGEANY} yo {SEX} BIBA from {HOMEPLACE} with {COMPLAINT}.",
                 "Pt brought in by {ORG} after a fall at {HOMEPLACE}.", "Per {RELW} {REL}, pt was {ADJ} this am.",
                 "Seen at {HOSP} {DATE}, sent here for {PROC}.", "Transferred from {HOSPS} for {SERV} eval.",
                 "{PATG} reports {ADJ} pain since {DATE}.", "Denies {SYMPTOM}, {SYMPTOM}.",
                 "Pt states {WORD} {WORD} {WORD}.", "Hx of {DX}, on {DRUG}.",
                 "Found down at {LOCO} by {ORG}.", "Brought by {ORG} from {LOCO}.", "Lives near {LOCO} in {CITY}."), (2, 4)),
        ("Exam", ("VS: {VITALS}", "Gen: {ADJ}, NAD.", "{EPOS} negative.", "Ext: {WORD} edema."), (1, 3)),
        ("MDM", ("Labs: {LABS}", "CT {BODY}: {FINDING}.", "Discussed with Dr. {DOCS} ({SERV}).",
                 "Case d/w {DOCI}, who accepts.", "Poison control called.", "{DRUG} {DOSE} given."), (1, 3)),
        ("Dispo", ("Admit to {SERV}, {WARD} {WNUM}.", "Transfer to {HOSP}.", "D/c home with {RELW}.",
                   "Follow up with PCP Dr. {DOCS} at {HOSPS}.", "Admitted to {UNIT}."), (1, 2)),
    ),
    "sign": SIGNS, "case": (0.7, 0.2, 0.1),
}
DISCHARGE = {
    "header": ("DISCHARGE SUMMARY", "Discharge Summary", "HOSPITAL COURSE SUMMARY"),
    "sections": (
        ("Admission Diagnosis", ("{DX}", "{DX}; {DX}"), (1, 1)),
        ("History of Present Illness", (
            "{PAT} is a {AGEANY} year old {SEX} with {DX} who presented to {HOSP} with {COMPLAINT}.",
            "Mr. {PATS} was transferred from {HOSP} in {CITY}, {STATE}.", "{PATG} lives with her {RELW} {REL} in {CITY}.",
            "She was seen by Dr. {DOC} of {SERV} on {DATE}.", "The patient was {ADV} {VERBED} on {DRUG}.",
            "He works as a {PROF} at {ORG}.", "She is a retired {PROF}.", "Ms. {PATS} is {AGE} and lives at {HOMEPLACE}."), (2, 4)),
        ("Hospital Course", (
            "{DX}: treated with {DRUG} {DOSE}, {ADV} improved.", "{SERV} was consulted; {EPO} was ruled out.",
            "{CLIN} was noted and {DRUG} was started.", "She was transferred to {WARD} {WNUM} on {DATE}.",
            "Echo showed EF {NUM}%. Dr. {DOCS} recommended {PROC}.", "Family meeting held with {RELW} {RELFULL}.",
            "{PATG} tolerated {PROC} without complication.", "Physical therapy recommended {HOSPS}.",
            "She was seen in the {DEPT} on {DATE}.", "He was moved to {DEPT} for telemetry.",
            "Home care through {ORG} was arranged; equipment from {ORG}."), (2, 5)),
        ("Discharge Medications", ("{DRUG} {DOSE}", "{DRUG} {DOSE}\n{DRUG} {DOSE}"), (1, 2)),
        ("Disposition", ("Discharged to {HOSP}.", "Home with {ORG} services.", "Home with {RELW}.",
                         "Follow up with Dr. {DOCS} at {HOSPS} in {NUM} weeks.", "Discharged to {HOMEPLACE}."), (1, 2)),
    ),
    "sign": SIGNS, "case": (0.8, 0.15, 0.05),
}
RADIOLOGY = {
    "header": ("RADIOLOGY REPORT", "EXAM: {IMAGING}", "{IMAGING}", "Procedure: {IMAGING}"),
    "sections": (
        ("CLINICAL HISTORY", ("{DX}.", "{COMPLAINT}, r/o {DX}.", "{AGEANY} yo with {DX}."), (1, 1)),
        ("COMPARISON", ("{DATE}.", "None.", "Outside study from {HOSP} dated {DATE}.", "Prior {IMAGING} {DATE}."), (1, 1)),
        ("FINDINGS", ("{FINDING} in the {BODY}.", "No {FINDING}.", "{CLIN} is unchanged.", "The {BODY} is {ADJ}.",
                      "There is {ADJ} {FINDING} of the {BODY}.", "{EPO} is not seen."), (2, 4)),
        ("IMPRESSION", ("{FINDING}.", "No acute {BODY} process.", "Findings discussed with Dr. {DOCS} at {TIME} on {DATE}.",
                        "Recommend {IMAGING}. Results called to {DOC}, {CRED}."), (1, 2)),
    ),
    "sign": ("{DOC}, MD, Radiologist", "Read by: Dr. {DOCLF}", "Dictated by {DOC}, MD {DATE}"),
    "case": (0.6, 0.35, 0.05),
}
PATHOLOGY = {
    "header": ("SURGICAL PATHOLOGY REPORT", "Pathology Report", "CYTOLOGY REPORT"),
    "sections": (
        ("SPECIMEN", ("{BODY}, biopsy.", "A. {BODY}, excision. B. {BODY}, margin."), (1, 1)),
        ("CLINICAL INFORMATION", ("{DX}.", "Submitted by Dr. {DOCS}, {HOSP}."), (1, 1)),
        ("GROSS DESCRIPTION", ("Received in formalin labeled with the name {PATLF} and \"{BODY}\".",
                               "The specimen consists of a {ADJ} tan fragment measuring {NUM} cm.",
                               "Received fresh from {HOSPS} labeled {PATS}.", "Entirely submitted in {NUM} cassettes."), (1, 3)),
        ("DIAGNOSIS", ("{FINDING}.", "{EPO}.", "Negative for malignancy.", "{CLIN}, {ADJ}."), (1, 2)),
        ("COMMENT", ("Case reviewed with Dr. {DOC}, who concurs.", "Outside slides from {HOSP} reviewed.",
                     "{EPOS} performed."), (0, 1)),
    ),
    "sign": ("{DOC}, MD, Pathologist", "Pathologist: {DOCLF}", "{DOCI}, MD / {DOCINIT}"),
    "case": (0.55, 0.4, 0.05),
}
CLINIC_LETTER = {
    "header": ("Dear Dr. {DOCS},", "Dear {DOCG},", "To: {DOC}, MD\nFrom: {DOC}, {CRED}", "Dear Colleague,"),
    "sections": (
        ("", ("Thank you for referring {PAT}, a {AGEANY}-year-old {SEX}, whom I saw today at {HOSP}.",
              "I saw your patient Mrs. {PATS} in the {SERV} clinic on {DATE}.",
              "{PATG} was accompanied by her {RELW}, {REL}.", "As you know, {PATG} has {DX} and {DX}.",
              "She works as a {PROF} for {ORG} in {CITY}.", "He was recently at {HOSP} for {COMPLAINT}.",
              "Her {CLIN} is {ADV} controlled on {DRUG} {DOSE}.", "On examination, {EPOS} was negative.",
              "I have asked {PATG} to see {DOC} at {HOSPS}.", "I will see {PATG} again in {NUM} months.",
              "Please do not hesitate to call me at {PHONE}.", "{PATG} is {AGE} and still drives."), (3, 6)),
    ),
    "sign": ("Sincerely,\n{DOC}, MD", "Yours sincerely,\n{DOC}, {CRED}\n{HOSP}", "Best regards,\n{DOCG} {DOCS}"),
    "case": (0.95, 0.03, 0.02),
}
PSYCH = {
    "header": ("PSYCHIATRY PROGRESS NOTE", "Behavioral Health Intake", "Psychiatric Evaluation"),
    "sections": (
        ("Identifying data", ("{PAT} is a {AGEANY} yo {SEX}, {MARITAL}, lives in {CITY} with {RELW} {REL}.",
                              "Pt referred by {DOC}, {CRED}, from {HOSP}."), (1, 1)),
        ("Subjective", ("Pt reports mood as \"{WORD}\".", "Sleeping {NUM} hrs, appetite {ADJ}.",
                        "States {RELW} {REL} \"{WORD} {WORD}\" her.", "Was at {HOSP} last year after an overdose.",
                        "Attends meetings at {ORG}.", "Lost job at {ORG} in {DATE}.", "Denies SI/HI, AVH."), (2, 4)),
        ("MSE", ("Appearance: {ADJ}, {ADJ}.", "Mood: {WORD}. Affect: {ADJ}.", "Thought process: linear, {ADJ}.",
                 "Insight/judgment: {ADJ}."), (1, 3)),
        ("Plan", ("Continue {DRUG} {DOSE}.", "Refer to {HOSP} IOP.", "Safety plan reviewed; crisis line {PHONE}.",
                  "F/u with therapist {DOC}, LCSW, in {NUM} wks."), (1, 2)),
    ),
    "sign": SIGNS, "case": (0.85, 0.1, 0.05),
}
PORTAL = {
    "header": ("Subject: {PORTALSUBJ}", "MyChart message from {PAT}", "Patient message", "Re: {PORTALSUBJ}"),
    "sections": (
        ("", ("hi dr {DOCS}, this is {PATG} {PATS}.", "Hello, my {RELW} {REL} has been {ADJ} since {DATE}.",
              "can you send my {DRUG} refill to {ORG} on {STREETNAME}?", "i saw {DOCG} at {HOSPS} last week and she said {WORD} {WORD}.",
              "we are driving up from {CITY} on {DATE}.", "my number is {PHONE}.", "thanks so much!! - {PATNICK}",
              "Is it ok to take {DRUG} with {DRUG}?", "I work at {ORG} and can't come before 5.",
              "{REL} will bring me, she is my {RELW}.", "the {ABBR} results came back {WORD}?"), (2, 4)),
        ("", ("Reply: Hi {PATG}, {WORD} {WORD}. -{DOCG}, {CRED}", "Staff reply: refill sent to {ORG}. {DOCG} RN"), (0, 1)),
    ),
    "sign": ("{PATG}", "{PAT}", "{PATNICK}", ""), "case": (0.6, 0.05, 0.35),
}
SOCIAL_WORK = {
    "header": ("SOCIAL WORK NOTE", "Case Management Assessment", "SW Progress Note"),
    "sections": (
        ("", ("SW met with pt and {RELW} {RELFULL} at bedside.", "Pt lives at {STREET}, {CITY}, {STATE} {ZIP}.",
              "Pt receives services from {ORG}.", "Spoke with {DOC}, case manager at {HOSP}, re: placement.",
              "Referral faxed to {HOSP} and {HOSP}.", "{RELW} {REL} works as a {PROF} and is available evenings.",
              "Pt is a {PROF}, insured through {ORG}.", "Pt was staying at the {SHELTER} in {CITY}.",
              "Transportation via {ORG} arranged for {DATE}.", "Pt's landlord {RELFULL} can be reached at {PHONE}.",
              "Pt's church, {ORG}, has offered meals.", "Pt {ADV} {VERBED} with {WORD} {WORD}.",
              "Pt has been staying at {LOCO}.", "Referral to {ORG} for home visits.", "Pt's case worker at {ORG} is {RELFULL}."), (3, 6)),
    ),
    "sign": ("{DOC}, LICSW", "{DOC}, MSW", "{DOCG} {DOCS}, CM RN", "{DOCI}, LCSW {PHONE}"),
    "case": (0.75, 0.15, 0.10),
}
PEDS = {
    "header": ("PEDIATRIC PROGRESS NOTE", "Well Child Visit", "NICU Daily Note", "Peds Clinic"),
    "sections": (
        ("", ("{PATG} is a {NUM} mo old ex-{NUM}wk infant here with mom {REL} and dad {REL}.",
              "Baby {PATS} (\"{PATNICK}\") seen for {COMPLAINT}.", "{PATLF} BG B, twin B, in isolette.",
              "Attends {ORG} daycare {NUM} days a week.", "Older sibling {REL} has {DX}.",
              "Mom works as a {PROF} at {ORG}.", "Transferred from {HOSP} NICU on {DATE}.",
              "Wt {NUM} kg ({NUM}%ile), {EPOS} normal.", "Apgars {NUM} and {NUM}.", "Feeding {ADJ}, {DRUG} {DOSE}.",
              "Grandmother {RELFULL} is the legal guardian.", "Lives in {CITY} with {RELW} {REL}.",
              "Seen in the {DEPT} at {HOSP}.", "Goes to {ORG} for {ABBR}."), (3, 6)),
    ),
    "sign": SIGNS, "case": (0.8, 0.15, 0.05),
}
OPERATIVE = {
    "header": ("OPERATIVE REPORT", "Operative Note", "BRIEF OP NOTE"),
    "sections": (
        ("Surgeon", ("{DOC}, MD", "Dr. {DOCLF}"), (1, 1)),
        ("Assistant", ("{DOC}, PA-C", "{DOC}, MD (resident)"), (0, 1)),
        ("Anesthesia", ("General, {DOC}, MD", "MAC", "Spinal, Dr. {DOCS}"), (1, 1)),
        ("Procedure", ("{PROC}.", "{EPOX} placement.", "{PROC} of the {BODY}."), (1, 1)),
        ("Findings", ("{FINDING}.", "{CLIN} of the {BODY}.", "{EPO} noted."), (1, 2)),
        ("Description", ("The patient was brought to OR {NUM} at {HOSP} and placed supine.",
                         "A {ADJ} incision was made over the {BODY}.", "{EPOX} was placed without difficulty.",
                         "Counts were correct x2. Dr. {DOCS} was present for the key portions.",
                         "EBL {NUM} mL. Specimens to pathology.", "Patient to {UNIT} in stable condition."), (2, 4)),
    ),
    "sign": SIGNS, "case": (0.7, 0.28, 0.02),
}
HOSPICE = {
    "header": ("HOSPICE NURSING VISIT", "Hospice Interdisciplinary Note", "Palliative Care Consult"),
    "sections": (
        ("", ("Visited pt at {HOMEPLACE}; {RELW} {REL} present.", "Pt {ADJ}, resting, {ADV} {VERBED}.",
              "Pain {NUM}/10, {DRUG} {DOSE} q4h prn.", "Chaplain {DOC} visited; pt's pastor at {ORG} informed.",
              "{RELFULL} ({RELW}) is HCP, cell {PHONE}.", "Family from {CITY} arriving {DATE}.",
              "Pt is {AGE}, DNR/DNI, comfort focused.", "Discussed with Dr. {DOCS} of {HOSP} hospice.",
              "Equipment from {ORG} delivered.", "Pt wishes to die at home in {CITY}.",
              "{RELW} {REL} asking about {WORD} {WORD}."), (3, 5)),
    ),
    "sign": ("{DOC}, RN, CHPN", "{DOCG} {DOCS} RN", "{DOC}, MD, palliative care"),
    "case": (0.75, 0.15, 0.10),
}
TABLE = {
    "header": ("CONTACTS", "Care team", "Medication list", "LAB RESULTS"),
    "sections": (
        ("", ("| {RELFULL} | {RELW} | {PHONE} |", "{RELFULL}\t{RELW}\t{PHONE}", "| Dr. {DOC} | {SERV} | {PHONE} |",
              "PCP\t{DOC}, MD\t{HOSP}", "| {DRUG} | {DOSE} | {DATE} |", "{LABNAME}\t{NUM}\t{NUM}-{NUM}",
              "| {LABNAME} | {NUM} | {ABBR} |", "Pharmacy: {ORG}\t{PHONE}", "Name\t{PATLF}\tMRN {MRN}",
              "{PATLF} | {DATE} | {MRN}", "| {HOSPS} | {WARD} {WNUM} | {ROOMNO} |", "Employer: {ORG}"), (3, 7)),
    ),
    "sign": ("", ""), "case": (0.6, 0.35, 0.05),
}

#: note type -> its templates (13 types; ICU nursing also comes from :mod:`training.nursing`)
NOTE_TYPES = {"icu_nursing": ICU, "ed": ED, "discharge": DISCHARGE, "radiology": RADIOLOGY,
              "pathology": PATHOLOGY, "clinic_letter": CLINIC_LETTER, "psychiatry": PSYCH,
              "portal": PORTAL, "social_work": SOCIAL_WORK, "pediatrics": PEDS,
              "operative": OPERATIVE, "hospice": HOSPICE, "table": TABLE}
