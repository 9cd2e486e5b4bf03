"""LOCATION rules for terse nursing notes (ALL CAPS, abbreviations): wards named by a building
and a number, hospital abbreviations after a transfer word and their other mentions, places
inside capitalised runs, and what must stay (clinical abbreviations, wards, vent settings,
transfusions, drugs). Every example is invented."""
import pytest

from deid_core.detectors import locations
from deid_core.document import Document

C, R = "certain", "review"

CASES = [
    # session 6: cardiac ST, a Foley catheter, an AV block and RML are no addresses or rooms
    ("PT HAD 4 EPISODES ST IN 120'S, SHORT RUNS ST 130S", []),
    ("lives at 12 OAK ST IN BOSTON", [("12 OAK ST", "STREET", C), ("BOSTON", "CITY", C)]),
    ("GU- GOOD DIURESIS FROM FOLEY CATH.", []),
    ("pt. remains in 1 degree av block with pr .42", []),
    ("Chest x-ray positive for RML pneumonia", []),
    # a place-shaped eponym before a clinical noun is a device or disease, not a place
    ("Hx of Foley catheter placement; GCS 15.", []),
    ("Daughter is a native of Foley and visits weekly.", [("Foley", "CITY", C)]),
    ("Last seen in Boston clinic in May.", [("Boston", "CITY", C)]),
    # a smaller listed city right after "in" is certain too (session 6: every such span on the
    # real notes and the corpus was PHI)
    ("SPOKE WITH HER SON IN SOUTHLAKE BY PHONE.", [("SOUTHLAKE", "CITY", C)]),
    ("met him at the church in Southlake", [("Southlake", "CITY", C)]),
    # an unlisted Title-case town after a residence word: certain with lower case around it
    ("Husband just started a new job in Larkfield and visits daily.", [("Larkfield", "CITY", C)]),
    ("HUSBAND STARTED NEW JOB IN LARKFIELD.", []),   # ALL CAPS: an unlisted word says nothing
    # in an all-lower-case note: certain after a residence word, review after "in" alone
    ("social: pt married, lives in southlake, son visits", [("southlake", "CITY", C)]),
    ("pt was seen in southlake er last week", [("southlake", "CITY", R)]),
    # --- ward = building name + number, after a transfer word --------------------------------
    ("PT ADMITTED TO HARTWELL 4 FROM ER. STABLE.", [("HARTWELL", "DEPARTMENT", C)]),
    ("pt doing well, transfer to lindqvist 7 today", [("lindqvist", "DEPARTMENT", C)]),
    ("Pt transfered from Ostrander 3 this am for SOB.", [("Ostrander", "DEPARTMENT", C)]),
    ("PLAN: TRANSFER TO HARTWELL 4 WHEN BED AVAIL. PER HARTWELL 4 RN OK.",
     [("HARTWELL", "DEPARTMENT", C), ("HARTWELL", "DEPARTMENT", C)]),
    ("READY TO GO BACK TO HARTWELL 4.", [("HARTWELL", "DEPARTMENT", C)]),
    ("Admitted 9/30 to lindqvist 7 with chf.", [("lindqvist", "DEPARTMENT", C)]),
    ("calmer.Transfer to Ostrander 3 today", [("Ostrander", "DEPARTMENT", C)]),
    # --- a hospital named by institution words only: certain right after a word of
    # transferring, capitalised and without an article; review otherwise
    ("was transferred from Memorial Hospital after a fall", [("Memorial Hospital", "HOSPITAL", C)]),
    ("PT WAS CONFUSED AND TAKEN TO MEMORIAL HOSPITAL. THERE", [("MEMORIAL HOSPITAL", "HOSPITAL", C)]),
    ("sent to the General Hospital for CT", [("General Hospital", "HOSPITAL", R)]),
    ("went to a Community Hospital nearby", [("Community Hospital", "HOSPITAL", R)]),
    # after a facility verb, the name with a lower-case hospital word and the name alone
    ("seen at Mt. Sinai hospital last week",
     [("Mt. Sinai hospital", "HOSPITAL", C), ("Mt. Sinai", "HOSPITAL", C)]),
    ("lives near General Hospital", [("General Hospital", "HOSPITAL", R)]),
    ("had a knee replacement at County General on 4/2", [("County General", "HOSPITAL", C)]),
    ("last seen at General Hospital on 1/15", [("General Hospital", "HOSPITAL", C)]),
    ("Knows she is in General Hospital today.", [("General Hospital", "HOSPITAL", C)]),
    ("IN GENERAL HOSPITAL COURSE WAS OK", [("GENERAL HOSPITAL", "HOSPITAL", R)]),   # ALL CAPS
    # a capitalised name and a lower-case hospital word, after "in" or a facility verb
    ("in march pt was in St Mary hospital with fever", [("St Mary hospital", "HOSPITAL", C)]),
    ("thought he was at Kernan hospital again", [("Kernan hospital", "HOSPITAL", C)]),
    # common misspellings of hospital count as the hospital word
    ("58 YR OLD ADMITTED TO CALVERT HOSPIATAL AFTER A FALL", [("CALVERT HOSPIATAL", "HOSPITAL", C)]),
    # punctuation glued before a transfer word does not hide it
    ("resp status, ?transfer to St. Mary's tomorrow", [("St. Mary's", "HOSPITAL", C)]),
    # a bare "at" before a proper-shaped name in a note with lower case: certain
    ("seen by Dr. Harris at UWMC on 05/02.", [("UWMC", "HOSPITAL", C)]),
    ("diagnosed with AF in March at Cedar Sinai?", [("Cedar Sinai", "HOSPITAL", C)]),
    ("Works as a welder at Northgate Steel Works.", [("Northgate Steel Works", "ORGANIZATION", C)]),
    ("PAIN AT REST. AT CEDAR SINAI NOW.", []),   # an ALL-CAPS note: capitals say nothing
    # service and place-in-hospital words in Title case after at/to are no hospital
    ("Evaluated at Triage, then Admitted to Hospitalist Service.", []),
    ("Pain at Rest, seen at Bedside, Transferred to Step Down unit.", []),
    # "our <place> clinic": a state of two words is the state, not its last word (York)
    ("who visited our New York clinic on 9/1", [("New York", "STATE", C)]),
    ("seen at our Boston clinic today", [("Boston", "CITY", C)]),
    # --- hospital abbreviations after a transfer word, then every mention ----------------------
    ("REFERRED TO SMH. ARRIVED AT SMH 2300.", [("SMH", "HOSPITAL", C), ("SMH", "HOSPITAL", C)]),
    ("pt is followed at gmc by dr x. came to gmc w/ son.",
     [("gmc", "HOSPITAL", C), ("gmc", "HOSPITAL", C)]),
    ("MED FLIGHTED TO BVMC FOR CATH.", [("BVMC", "HOSPITAL", C)]),
    ("Pt is followed at gmc for CHF, sent to bld bank.", [("gmc", "HOSPITAL", C)]),
    ("WILL BE W/U BY BVMC FOR TRANSPLANT.", [("BVMC", "HOSPITAL", C)]),
    # --- the name word before a campus word (the campus word left out): certain for a compass
    # word or a name-list word, else review
    ("Went for a scan on North Campus at noon.",
     [("North", "HOSPITAL", C)]),
    ("came over by ambulance from the hartwell campus ed.", [("hartwell", "HOSPITAL", C)]),
    ("transferred from er quillton campus today", []),   # lower case: a name-list word only
    ("the Main Campus lot is full; Medical Campus shuttle.", []),
    ("Entire Campus wifi is down.", [("Entire", "HOSPITAL", R)]),   # no name word: review
    ("walked around campus with wife. the hospital campus, main campus, on campus, medical "
     "campus, a smoke free campus, entire campus, the east campus", []),
    # --- a hospital abbreviation without a transfer word: review ------------------------------
    ("HIS DIALYSIS IS DONE AT SMH. MAY HAVE TO LEAVE SMH FOR REHAB.",
     [("SMH", "HOSPITAL", R), ("SMH", "HOSPITAL", R)]),
    ("Oriented, says she is in SMH. Pt: I'm in SMH today.",
     [("SMH", "HOSPITAL", R), ("SMH", "HOSPITAL", R)]),
    ("At PMD check last week labs ok. SEEN AT MN. IN NS. AT HS. is in NSR. pt is in CHB. he is in SVT. "
     "pts are in PTS. LEAVE PRN.", []),
    # --- a hospital abbreviation before a staff word: review ----------------------------------
    ("VISITED BY SMH NURSE ABOUT HOME CARE.", [("SMH", "HOSPITAL", R)]),
    ("SEEN BY PT TEAM. PER ICU RN. SEEN BY NP STAFF. SEEN BY CCU TEAM. SEEN BY GI TEAM. "
     "PER MD TEAM, SEEN BY ENT TEAM, PER CT STAFF, SEEN BY PCP TEAM, SEEN BY CHF TEAM.", []),
    # --- a ward without a transfer word: certain, with a name-list word or a ward follower ---
    # (a building word, a floor number and a name-list word or a ward follower); after "on"
    # with neither it stays review: a plural drug class reads the same
    ("INTUBATED ON HARTWELL 4 FOR RESP FAILURE.", [("HARTWELL", "DEPARTMENT", C)]),
    ("INTUBATED ON QUILLBRACK 4 FOR RESP FAILURE.", [("QUILLBRACK", "DEPARTMENT", R)]),
    ("PER OSTRANDER 3 RN, UO 20CC/HR.", [("OSTRANDER", "DEPARTMENT", C)]),
    ("Per Tillbrook 3 RN, uo low.", [("Tillbrook", "DEPARTMENT", C)]),
    ("ON LASIX 2 FOR DIURESIS. PER MD 3 RN AWARE.", []),
    ("ON PRESSORS 2 NOW.", [("PRESSORS", "DEPARTMENT", R)]),
    ("bed alarm on, Braden 15, turned q2h. ON LEVOPHED 2 MCG.", []),
    ("CODED ON QUILLBRACK 4 LAST WEEK.", [("QUILLBRACK", "DEPARTMENT", R)]),
    ("glasses sent up from quillbrack 5. wife aware", [("quillbrack", "DEPARTMENT", C)]),
    ("wallet recovered from quillbrack 5. wife aware", [("quillbrack", "DEPARTMENT", R)]),
    ("DISPO: QUILLBRACK 4 WHEN BED READY.", [("QUILLBRACK", "DEPARTMENT", C)]),
    ("CONT ON METOPROLOL 50 TID. ON HEPARIN 12U/KG. Comfortable on Morphine 2-4mg/hr.", []),
    ("on levophed 7 now, weaned from neo 5.", []),
    # --- a choice of two wards, a number glued on --------------------------------------------
    ("may transfer to quillbrack 2/3 tomorrow", [("quillbrack", "DEPARTMENT", C)]),
    ("ok to transfer to quillbrack2 today", [("quillbrack2", "DEPARTMENT", C)]),
    ("TRANSFER TO QUILLBRACK 4. QUILLBRACK4 RN AWARE.",
     [("QUILLBRACK", "DEPARTMENT", C), ("QUILLBRACK4", "DEPARTMENT", C)]),
    ("TRANSFERRED TO FIO2 40% MASK. ADMITTED 2/3 TO MICU. SENT TO ECHO 2/3. SENT TO ECHO2.", []),
    # --- universities named by a state; denominational hospitals ------------------------------
    ("WAS SEEN AT U OF MD MED CENTER LAST WEEK.", [("U OF MD", "ORGANIZATION", C)]),
    ("insulin drip per U Maryland scale.", [("U Maryland", "ORGANIZATION", C)]),
    ("pt recieved from university of vermont hospital.",
     [("university of vermont", "ORGANIZATION", C), ("vermont", "STATE", R),
      ("university of vermont hospital", "HOSPITAL", R)]),
    ("GIVEN 10 U OF NPH AND 5 U INSULIN.", []),
    # in an ALL-CAPS note a university of a listed place ends at the place or its hospital words
    ("SEEN AT UNIVERSITY OF VERMONT MEDICAL LAST WEEK FOR RASH.",
     [("UNIVERSITY OF VERMONT", "ORGANIZATION", C)]),
    ("SEEN AT UNIVERSITY OF VERMONT MEDICAL CENTER FOR RASH.",
     [("UNIVERSITY OF VERMONT", "ORGANIZATION", C), ("VERMONT MEDICAL CENTER", "HOSPITAL", C)]),
    ("Admitted from Kestrel Adventist for cath.", [("Kestrel Adventist", "HOSPITAL", C)]),
    # --- places inside an ALL-CAPS run, after "of" inside a run, a state code -----------------
    ("SPOKE WITH SISTER WHO LIVES IN SPOKANE, PLANS TO COME.", [("SPOKANE", "CITY", C)]),
    ("Nephew, Ivo Brandt of Tacoma visited today.", [("Tacoma", "CITY", C)]),
    # a small town after a relative's name and "of": certain; without the relative review
    ("Visited by daughter Ines of Chillicothe today.", [("Chillicothe", "CITY", C)]),
    ("Spoke with nephew, Ivo Brandt of Chillicothe, by phone.", [("Chillicothe", "CITY", C)]),
    ("Seen by Ines Brandt of Chillicothe today.", [("Chillicothe", "CITY", R)]),
    ("a photo of Chillicothe hangs there", [("Chillicothe", "CITY", R)]),
    ("son Ivo of Dilaudid fame called. wife Ines of Lasix drip notes.", []),
    ("proxy is her sister who lives in DC.", [("DC", "STATE", C)]),
    # --- a capitalised name after a transfer word in a mixed-case note: review ---------------
    ("Wants to go to Greywater and wait for a heart.", [("Greywater", "HOSPITAL", C)]),
    ("he lives nearby in Duluth with his son", [("Duluth", "CITY", C)]),
    # --- hospital names: after a transfer word in capitals, saints, other mentions -----------
    ("EKG POS. TAKEN TO FENWICK REGIONAL WHERE CK POS.", [("FENWICK REGIONAL", "HOSPITAL", C)]),
    ("TPN OFF. PLAN TO GO TO ST. BRIGID IN AM.", [("ST. BRIGID", "HOSPITAL", C)]),
    ("Plan: transfer to St. Brigid's once a bed opens.", [("St. Brigid's", "HOSPITAL", C)]),
    ("hopes to go back to St Brigid's when stable", [("St Brigid's", "HOSPITAL", C)]),
    ("reads St Brigid's leaflet. prayed to St. Jude's medal.", [("St Brigid's", "HOSPITAL", R),
                                                              ("St. Jude's", "HOSPITAL", R)]),
    ("CAME FROM OSTRANDER HOSPITAL WITH LOW BP. 3/11 AT OSTRANDER- 1 UNIT PLT.",
     [("OSTRANDER HOSPITAL", "HOSPITAL", C), ("OSTRANDER", "HOSPITAL", C),
      ("OSTRANDER", "HOSPITAL", C)]),
    # a dash right after another mention (``3/4 OSTRANDER- 1 UNIT``) ends it; a hyphenated
    # compound (``OSTRANDER-LYLE SCORE``) is another word
    ("CAME FROM OSTRANDER HOSPITAL WITH LOW BP. 3/4 OSTRANDER- 1 UNIT PRBC. OSTRANDER-LYLE SCORE 3.",
     [("OSTRANDER HOSPITAL", "HOSPITAL", C), ("OSTRANDER", "HOSPITAL", C),
      ("OSTRANDER", "HOSPITAL", C)]),
    ("TRANSFER TO QUILLBRACK 4. BACK FROM QUILLBRACK- STABLE. QUILLBRACK-LYLE 3.",
     [("QUILLBRACK", "DEPARTMENT", C), ("QUILLBRACK", "DEPARTMENT", C)]),
    ("NO REGIONAL WALL MOTION ABNORMALITY. WILL REQUIRE REHAB.", []),
    ("PT WENT TO OUR LADY OF MERCY FOR REHAB. STABLE.", [("OUR LADY OF MERCY", "HOSPITAL", C)]),
    ("HX CABG AT U OF M 2001.", [("U OF M", "ORGANIZATION", C)]),
    ("PT LIVES IN NAPERVILLE WITH DAUGHTER.", [("NAPERVILLE", "CITY", C)]),
    ("DC TO HOME TO NAPERVILLE WITH SON.", [("NAPERVILLE", "CITY", C)]),
    # --- must stay: clinical words, wards, settings, doses ------------------------------------
    ("GIVEN 10 U OF R INSULIN. PT TO OR IN AM.", []),
    ("received 1 unit prbc, given 1 unit ffp. sent to CT Scan.", []),
    ("Received 1 unit PRBC. Given 2 units FFP.", []),
    ("TRANSFERRED TO MICU. FOLEY TO GRAVITY. TRANSFUSED 2 UNITS PRBC.", []),
    ("WEANED TO PS 10/5. SENT TO CT. BACK FROM IR.", []),
    ("TRANSFERRED FROM OSH. SENT TO EW. TAKEN TO CATH LAB.", []),
    ("received percocet 2 tabs at 8am and tylenol 2 x2.", []),
    ("ADMITTED FROM HOME. RETURNED TO BASELINE. SENT TO LAB.", []),
    ("TRANSFERRED TO CCU 2 DAYS AGO. ON PROPOFOL 20 MCG.", []),
    ("REPORT GIVEN TO RN. TRANSFER TO TCU. D/C TO HOME WITH VNA.", []),
    ("LIVES IN NURSING HOME. MOVED TO CHAIR X2.", []),
]


# ALL-CAPS notes: facility phrases need a name-list or place word before them, or a
# two-word practice phrase; streets hold no stop words; no "at R" facility.
CAPS_CASES = [
    ("PT WAITING FOR A BED AT OSTRANDER REHAB. VSS. WILL NEED REHAB.",
     [("OSTRANDER REHAB", "HOSPITAL", C)]),
    ("HR 80-100 SR TO ST. FENTANYL INC TO 50. WILL MONITOR LABS. CO STABLE.", []),
    ("GIVEN ONE UNIT PRBC. 3 WAY FOLEY DRAINING WELL. OR IN AM.", []),
    ("F/U WITH STONEBRIDGE PHYSICAL THERAPY IN 2 WEEKS.", [("STONEBRIDGE PHYSICAL THERAPY", "HOSPITAL", C)]),
    ("Pt was seen at R and given tylenol at MN.", []),
    # a weak institution word (MEMORIAL) after one unlisted word right after AT/FROM: review
    ("SON SAYS THAT AT QUILLTON MEMORIAL, SHE HAD A RASH.",
     [("QUILLTON MEMORIAL", "HOSPITAL", R)]),
    ("DECLINE FROM POOR HEALTH. SEEN AT PULMONARY REHAB. BACK FROM CARDIAC REHAB. AT RISK CENTER.", []),
    ("FICK CO 4.2, TD CO 3.9. BEST PLACE FOR LINE IS LEFT.", []),
    ("Hemodynamics: FICK CO 4.1, CI 2.2.", []),
    # a verb form before a hospital word in an ALL-CAPS note is no name
    ("GOT CONFUSED, SEEN PACING HOSPITAL HALLS AT NIGHT.", []),
    ("STARTED MEDICAL CENTER PROTOCOL. KEEPING HOSPITAL GOWN ON.", []),
    ("TAKEN TO FENWICK REGIONAL FOR CATH.", [("FENWICK REGIONAL", "HOSPITAL", C)]),
]


def _find_all(text: str, sub: str, n: int) -> tuple[int, int]:
    i = -1
    for _ in range(n + 1):
        i = text.find(sub, i + 1)
        assert i >= 0, f"{sub!r} (#{n}) not in {text!r}"
    return i, i + len(sub)


@pytest.mark.parametrize("text,expected", CASES + CAPS_CASES, ids=[c[0][:40] for c in CASES + CAPS_CASES])
def test_terse_location_table(text, expected):
    cands = list(locations.detect(Document(text)))
    got = {(c.start, c.end, c.label, c.tier) for c in cands}
    want_chars: set[int] = set()
    seen: dict[str, int] = {}
    for sub, label, tier in expected:
        k = seen.get(sub, 0)
        seen[sub] = k + 1
        s, e = _find_all(text, sub, k)
        assert (s, e, label, tier) in got, f"missing {sub!r} {label} {tier}; got " + repr(
            sorted((text[a:b], lab, tr) for a, b, lab, tr in got))
        want_chars |= set(range(s, e))
    covered = {i for c in cands for i in range(c.start, c.end)}
    assert covered == want_chars, "extra: " + repr(sorted({text[c.start:c.end] for c in cands
                                                         if not set(range(c.start, c.end)) <= want_chars}))


def test_terse_sources():
    text = "SENT TO HARTWELL 4. PER HARTWELL RN. REFERRED TO SMH."
    sources = {(text[c.start:c.end], c.source) for c in locations.detect(Document(text))}
    assert ("HARTWELL", "locations:ward_number") in sources
    assert ("HARTWELL", "locations:ward_number:same_note") in sources
    assert ("SMH", "locations:facility_abbreviation") in sources
