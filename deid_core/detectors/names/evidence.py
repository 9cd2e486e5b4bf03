"""The evidence words the name rules add to a span's source (``names:surname_list+medical_collision``):
each a :class:`~deid_core.rules.Evidence` value, declared once here and named by the rules that
add it (their :attr:`~deid_core.rules.Rule.evidence`)."""
from __future__ import annotations

from ...rules import Evidence

MEDICAL_COLLISION = Evidence(
    "medical_collision", "also a medical term (MeSH)",
    amber="the word is also a medical term, so it is not masked on sight",
    list="medical_collisions.txt")
ENGLISH_COLLISION = Evidence(
    "english_collision", "also an ordinary English word",
    amber="the word is also an ordinary English word", list="english_collisions.txt")
CLINICAL_NOUN = Evidence(
    "clinical_noun", "followed by a clinical noun",
    amber="it is followed by a clinical noun (as in 'Foley catheter'), so it may name a device or test",
    list="clinical_nouns.txt")
STATE_NAME = Evidence("state_name", "also a US state's name",
                      amber="the word is also the name of a US state", list="us_states.tsv")
PERSON_VERB = Evidence(
    "person_verb", "followed by a verb people do",
    amber="the word is ordinary English and only the verb after it suggests a person")
NO_CASE_EVIDENCE = Evidence(
    "no_case_evidence", "in a note without capitals to go by",
    amber="the note is all one case, so capitals cannot show it is a name")
CAPITALISED = Evidence("capitalised", "next to a capitalised word")
INITIAL = Evidence("initial", "next to an initial")
SURNAME = Evidence("surname", "next to a surname", list="surnames.tsv")
PRECEDING_WORD = Evidence("preceding_word", "with the capitalised word before it")
DOCUMENT_CONSISTENCY = Evidence("document_consistency", "found as a name elsewhere in this note")
IDENTIFIER = Evidence("identifier", "next to an identifier")
AGE_OR_IDENTIFIER = Evidence("age_or_identifier", "next to an age or an identifier")
SOCIAL_HEADING = Evidence("social_heading", "after a heading about family and visitors (Social:)",
                          list="name_cues.txt")
GLUED = Evidence("glued", "glued by a hyphen to the next word of the sentence")
COORDINATED = Evidence("coordinated", "after a name and 'and'")
AND = Evidence("and", "after another name and 'and' under the same title (Dr. Rask and Velde)")
PERSON_WORD = Evidence("person_word", "next to a word that goes with a person (per, aware, ordered)",
                       list="name_cues.txt")
SPEAKER_VERB = Evidence("speaker_verb", "before a verb only a person does (wishes, verbalizes)",
                        list="name_cues.txt")
PHONE_LABEL = Evidence("phone_label", "before a phone label and its number (cell# 555-0144)",
                       list="name_cues.txt")
NOTE_END = Evidence("note_end", "alone at the end of the note, as a writer signs off")

#: What the later passes add to a review candidate they make certain (every name rule that
#: gives review spans may carry them).
UPGRADES = (DOCUMENT_CONSISTENCY, COORDINATED)
