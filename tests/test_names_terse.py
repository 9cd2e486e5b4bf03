"""Name detector on terse nursing notes (session 6 classes): the whole resolved output of the name
and profession detectors for each invented text, so what must not be masked is checked as well."""
from __future__ import annotations

import ruletable

from deid_core.detectors import names, professions
from deid_core.spans import CERTAIN, REVIEW

C, R = CERTAIN, REVIEW


#: Resolved name- and profession-detector spans as (covered text, label, tier).
found = ruletable.finder(names.detect, professions.detect, resolved=True)


# (text, every span expected: (covered text, label, tier)), all names invented.
CASES = [
    # a weak title in lower case before a listed name that is also an ordinary word: review
    ("talked w/the intern last noc re: lasix gtt", [("last", "DOCTOR", R)]),
    ("family reports major post op agitation", [("post", "PATIENT", R)]),
    # ... and certain where the name is no ordinary word, or the title is capitalised
    ("talked w/the intern nadia re: lasix gtt", [("nadia", "DOCTOR", C)]),
    ("Major Post visited his wife today.", [("Post", "PATIENT", C)]),
    ("Dr. Post aware of the rate.", [("Post", "DOCTOR", C)]),
    # clinical shorthand that is also in the census name lists: no name on its own
    ("his Na has been drifting down, Na 129 this am", []),
    ("An 18F Cude was placed after two failed tries.", []),
    ("Dr. Na aware of the sodium.", [("Na", "DOCTOR", C)]),
    # a social heading, then a given name that is also an ordinary word and a person's verb
    ("social: bob visited this eve, updated by rn", [("bob", "PATIENT", C)]),
    ("SOCIAL- JOE CALLED TWICE FOR UPDATE", [("JOE", "PATIENT", C)]),
    # ... without the heading the same words stay a review candidate
    ("tolerated well. bob visited this eve", [("bob", "PATIENT", R)]),
    # ... and a non-name after the heading stays unmasked
    ("social: will call back tomorrow", []),
    # a specialty word before a credential is no name; a name with the same credential is
    ("INTEG: Stoma RN following for the ostomy.", []),
    ("Integument: Skincare CNS in to evaluate the sacrum", []),
    ("seen by Ostomy RN Greta Holm", [("Greta Holm", "DOCTOR", C)]),
    ("dressing changed. Ilse Varga, RN", [("Ilse Varga", "DOCTOR", C)]),
    # clinical abbreviations that are census names: aspirin, Fick output, the LIMA graft
    ("MEDS: LOPRESSOR, ISORDIL, NTG SPRAY, ASA, COLACE.", []),
    ("Dr. Asa Lindqvist aware of the INR", [("Asa Lindqvist", "DOCTOR", C)]),
    # MOM in capitals in a note with lower case is milk of magnesia, not a mother
    ("no BM today, received MOM enema with no results", []),
    ("SOCIAL: MOM GRETA CALLED, UPDATED.", [("GRETA", "PATIENT", C)]),
    ("her mom Greta called twice", [("Greta", "PATIENT", C)]),
    # a surname before "family" names the family
    ("KEEP OKAFOR FAMILY AWARE OF PLAN.", [("OKAFOR", "PATIENT", C)]),
    ("met with the halvorsen family today", [("halvorsen", "PATIENT", C)]),
    ("Keep the Lindqvist family updated.", [("Lindqvist", "PATIENT", C)]),
    ("KEEP ROMERO FAMILY AWARE", [("ROMERO", "PATIENT", R)]),   # also an English word (web2)
    # ... clinical, service, function and ordinary words before it do not
    ("KEEP PT FAMILY AWARE", []),
    ("ICU family meeting held at noon", []),
    ("Support family through the night.", []),
    ("LONG FAMILY MEETING TODAY", []),
    ("KEEP BRANDVOLD FAMILY AWARE", []),   # unlisted, in capitals: no evidence
    # a hospital's common nickname made of name-list words is a HOSPITAL, not a person
    ("69 yo male transferred from Good Sam s/p MI.", [("Good Sam", "HOSPITAL", C)]),
    ("Sam Good called twice.", [("Sam Good", "PATIENT", C)]),   # the other order is a person
    # a Capitalised word after a certain name and "and" is a name with the same label
    ("Both Suzette and Hank are his appointed proxies.",
     [("Suzette", "PATIENT", C), ("Hank", "PATIENT", C)]),
    ("Family meeting held with Margaret and Bram today.",
     [("Margaret", "PATIENT", C), ("Bram", "PATIENT", C)]),
    # ... not a clinical word, a service or an eponym before a clinical noun
    ("Dr. Lund and Cardiology agree on the plan.", [("Lund", "DOCTOR", C)]),
    ("Margaret and Foley catheter care reviewed.", [("Margaret", "PATIENT", C)]),
    ("MARGARET AND BRAM VISITED.", []),   # ALL CAPS: no capitals to go by
    # verbs that things do too (remains, presents, appears) make no ordinary word a name
    ("TEMP WIRE REMAINS INTACT VIA L GROIN", []),
    ("site where tap was done remains dry and intact", []),
    ("cough fair presents more as clearing", []),
    ("tolerated well. bob visited this eve", [("bob", "PATIENT", R)]),   # a person's verb: review
    # a relative's name glued by a hyphen to the next word of the sentence: only the name
    ("SOCIAL-phone call from son Bram-who states he will come", [("Bram", "PATIENT", C)]),
    ("DTR LISA-WILL CALL BACK", [("LISA", "PATIENT", C)]),
    # ... a hyphenated name stays whole
    ("his wife Mary-Ann called", [("Mary-Ann", "PATIENT", C)]),
    ("son Jean-Paul visited", [("Jean-Paul", "PATIENT", C)]),
]


test_terse_names = ruletable.found_test(found, CASES)
