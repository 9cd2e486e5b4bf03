"""The ensemble (deid_core.ensemble) and its use by the API: hand-made model spans joined with
the rules' candidates."""
from __future__ import annotations

import json

import pytest

from deid_core import api
from deid_core.analyze import analyze
from deid_core.ensemble import adapt_model_spans, spans_from_dicts
from deid_core.spans import Span


def ner(text: str, piece: str, label: str, tier: str = "certain", p: float = 0.9, nth: int = 0) -> Span:
    """A model span over the ``nth`` occurrence of ``piece`` in ``text``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(piece, start + 1)
    return Span(start, start + len(piece), label, tier, f"ner:test:p={p:.2f}")


def final(text: str, spans) -> list[tuple[str, str, str]]:
    return [(text[s.start:s.end], s.label, s.tier) for s in spans]


def rules_final(text: str) -> list[tuple[str, str, str]]:
    return final(text, analyze(text).spans)


NOTES = [
    "Seen on 03/05/2014 by Dr. Smith.",
    "Lives in Springfield, IL 62704 with wife.",
    "Mr. Brown was seen. Works as a welder at Acme Corp.",
    "Hx of Foley catheter placement; GCS 15.",
    "Referred by Tran to Lakeside.",
    "Smith was seen",
]


@pytest.mark.parametrize("text", NOTES)
def test_no_model_spans_is_exactly_the_rules(text):
    assert analyze(text, model=[]) == analyze(text)
    assert analyze(text, model=None) == analyze(text)


@pytest.mark.parametrize("text", NOTES)
def test_rules_spans_are_kept_whatever_the_model_adds(text):
    # the model marks every word as a review NAME: no rules character may be lost or downgraded
    import re
    model = [Span(m.start(), m.end(), "PATIENT", "review", "ner:test:p=0.30")
             for m in re.finditer(r"\w+", text)]
    got = analyze(text, model=model).spans
    for r in analyze(text).spans:
        covering = [s for s in got if s.start <= r.start and r.end <= s.end]
        assert covering, (r, got)
        if r.tier == "certain":
            assert covering[0].tier == "certain" and covering[0].label == r.label


# (text, model spans as (piece, model label, tier), expected final spans, comment)
TABLE = [
    # model-only spans keep the model's label; tier from the model's threshold
    ("Smith was seen", [("Smith", "PATIENT", "certain")], [("Smith", "PATIENT", "certain")]),
    ("Smith was seen", [("Smith", "PATIENT", "review")], [("Smith", "PATIENT", "review")]),
    ("Lives with her sister in Brackenfold now.", [("Brackenfold", "LOCATION-OTHER", "certain")],
     [("Brackenfold", "LOCATION-OTHER", "certain")]),
    # ... but where the rules already hold the word, their label stays (here a surname-list hit)
    ("Lives with her sister in Dunmore now.", [("Dunmore", "LOCATION-OTHER", "certain")],
     rules_final("Lives with her sister in Dunmore now.")),
    ("She is a ward clerk at the plant.", [("ward clerk", "PROFESSION", "review")],
     [("ward clerk", "PROFESSION", "review")]),
    # overlap: the rules' label wins, the model's certain tier promotes a rules review candidate
    ("Referred by Tran to Lakeside.", [("Lakeside", "LOCATION-OTHER", "certain")],
     [("Tran", "DOCTOR", "certain"), ("Lakeside", "CITY", "certain")]),
    ("Seen on 03/05/2014 by Dr. Smith.", [("03/05", "PATIENT", "certain"),
                                          ("Smith", "PATIENT", "certain")],
     [("03/05/2014", "DATE", "certain"), ("Smith", "DOCTOR", "certain")]),
    # a model span wider than the rules' takes the rules' label over the union
    ("Admitted to Lakeside General Hospital West.",
     [("Lakeside General Hospital West", "ORGANIZATION", "certain")],
     [("Lakeside General Hospital West", "HOSPITAL", "certain")]),
    # punctuation the rules left out does not make a model span new: covered, dropped
    ("Mr. Brown was seen. Works as a welder at Acme Corp.", [("Acme Corp.", "HOSPITAL", "certain")],
     [("Brown", "PATIENT", "certain"), ("welder", "PROFESSION", "certain"),
      ("Acme Corp", "ORGANIZATION", "certain")]),
    # a model span fully covered by certain rules spans adds nothing: CITY, STATE, ZIP stay apart
    ("Lives in Springfield, IL 62704 with wife.", [("Springfield, IL 62704", "LOCATION-OTHER", "certain")],
     [("Springfield", "CITY", "certain"), ("IL", "STATE", "certain"), ("62704", "ZIP", "certain")]),
    # a model review span never weakens a certain rules span
    ("Seen on 03/05/2014 by Dr. Smith.", [("Smith", "PATIENT", "review")],
     [("03/05/2014", "DATE", "certain"), ("Smith", "DOCTOR", "certain")]),
    # a rules review candidate the model does not confirm stays review; clinical words the model
    # leaves alone stay unmasked
    ("Called Will about the results; GCS 15.", [],
     [("Will", "PATIENT", "review")]),
    ("Hx of Foley catheter placement; GCS 15.", [], []),
]


@pytest.mark.parametrize("text,model,want", TABLE)
def test_ensemble_table(text, model, want):
    spans = [ner(text, piece, label, tier, 0.9 if tier == "certain" else 0.3)
             for piece, label, tier in model]
    got = analyze(text, model=spans)
    assert final(text, got.spans) == want
    # a span the rules did not have at all comes from the model and says so
    rules = analyze(text).candidates
    for s in got.spans:
        if not any(r.overlaps(s) for r in rules):
            assert s.source.startswith("ner:test:p=")


def test_rules_output_these_tables_rely_on():
    # if the rules change, the table above needs new expectations: say so plainly
    assert ("Lakeside", "CITY", "review") in rules_final("Referred by Tran to Lakeside.")
    assert rules_final("Smith was seen") == []
    assert rules_final("Admitted to Lakeside General Hospital West.") == [
        ("Lakeside General Hospital West", "HOSPITAL", "certain")]   # (facility_context, session 6)
    assert rules_final("Lives with her sister in Brackenfold now.") == []
    assert rules_final("Lives with her sister in Dunmore now.") != []
    assert [x[1] for x in rules_final("Lives in Springfield, IL 62704 with wife.")] == ["CITY", "STATE", "ZIP"]


def test_label_priority_most_overlap_then_rank():
    text = "Seen on 03/05/2014 by Dr. Smith."
    rules = [Span(8, 18, "DATE", "certain", "r"), Span(26, 31, "DOCTOR", "certain", "r")]
    m = Span(15, 31, "PATIENT", "certain", "ner:x:p=0.99")     # "2014 by Dr. Smith"
    (out,) = adapt_model_spans([m], rules, text)
    assert (out.start, out.end, out.label, out.tier, out.source) == (15, 31, "DOCTOR", "certain", "ner:x:p=0.99")
    # a certain rules candidate beats a review one with more overlap
    rules1 = [Span(8, 18, "DATE", "certain", "r"), Span(19, 31, "DOCTOR", "review", "r")]
    assert adapt_model_spans([m], rules1, text)[0].label == "DATE"
    # equal overlap and tier: the resolver's label rank decides (DATE before DOCTOR)
    m2 = Span(16, 29, "PATIENT", "certain", "ner:x:p=0.99")
    rules2 = [Span(14, 18, "DATE", "review", "r"), Span(27, 31, "DOCTOR", "review", "r")]
    assert adapt_model_spans([m2], rules2, text)[0].label == "DATE"


def test_spans_from_dicts_and_errors():
    text = "Smith was seen"
    d = {"start": 0, "end": 5, "label": "PATIENT", "tier": "review", "source": "ner:m:p=0.40"}
    assert spans_from_dicts([d], text) == [Span(0, 5, "PATIENT", "review", "ner:m:p=0.40")]
    assert spans_from_dicts(None, text) == []
    for bad, msg in [("x", "list"), ([1], "object"), ([{**d, "start": "0"}], "integer"),
                     ([{**d, "end": 99}], "past the text"), ([{**d, "label": "NAME"}], "unknown label"),
                     ([{**d, "tier": "maybe"}], "unknown tier")]:
        with pytest.raises(ValueError, match=msg):
            spans_from_dicts(bad, text)
    with pytest.raises(ValueError, match="past the text"):
        analyze(text, model=[Span(0, 20, "PATIENT")])


def test_api_process_with_model_spans():
    text = "Smith was seen by Dr. Whitfield."
    m = [{"start": 0, "end": 5, "label": "PATIENT", "tier": "certain", "source": "ner:m:p=0.95"}]
    plain = api.process(text)
    with_model = api.process(text, model_spans=m)
    assert plain == api.process(text, model_spans=None)
    assert "Smith" in plain["output"] and "Smith" not in with_model["output"]
    assert with_model["output"].startswith("[NAME] was seen")
    first = with_model["spans"][0]
    assert (first["text"], first["label"], first["tier"], first["source"]) == \
        ("Smith", "PATIENT", "certain", "ner:m:p=0.95")
    review = api.process(text, model_spans=[{**m[0], "tier": "review", "source": "ner:m:p=0.40"}])
    assert [(r["id"], r["label"]) for r in review["review"]][:1] == [("0:5", "PATIENT")]
    kept = api.process(text, mode="review", decisions={"0:5": False},
                       model_spans=[{**m[0], "tier": "review"}])
    assert kept["output"].startswith("Smith was seen")
    # the JSON entry point passes them through, and rejects bad ones
    out = json.loads(api.process_json(json.dumps({"text": text, "model_spans": m})))
    assert out == with_model
    err = json.loads(api.process_json(json.dumps({"text": text, "model_spans": [{"start": 0}]})))
    assert "error" in err


@pytest.mark.parametrize("text,piece,label,keep", [
    ("a 45-year-old man", "45-year-old", "AGE", False),   # ages up to 89 stay in the record
    ("a 92-year-old man", "92-year-old", "AGE", True),
    ("she is ninety-four", "ninety-four", "AGE", True),
    ("she is sixty-four", "sixty-four", "AGE", False),
    ("aged 89", "89", "AGE", False),
    ("the , here", ",", "PATIENT", False),                 # punctuation alone is no span
    ("pt d here", "d", "PATIENT", False),                  # one letter is no span
    ("Ann Lee", "Ann Lee", "PATIENT", True),
    ("Can I prescribe Losartan", "Losartan", "PATIENT", False),  # one word outside the name lists
    ("seen by Smith today", "Smith", "PATIENT", True),           # one word in the census lists
    ("Thandiwe Mthembu was seen", "Thandiwe Mthembu", "PATIENT", True),
    ("O'Brien-Okafor came", "O'Brien-Okafor", "PATIENT", True),  # one hyphen part in the lists
    ("travel to Mthembu", "Mthembu", "LOCATION-OTHER", True),     # the list rule is for names only
    # numbers of 90 or more need an age cue (terse nursing notes)
    ("HR 90'S, SBP 100-120", "90", "AGE", False),
    ("SATS 95% ON 2L", "95", "AGE", False),
    ("PMH: MI '92, CABG", "92", "AGE", False),
    ("PLT 94-99 TODAY", "94", "AGE", False),
    ("92 yo F admitted", "92", "AGE", True),
    ("92YO MAN", "92", "AGE", True),
    ("AGE: 93", "93", "AGE", True),
    ("Ann Lee, 96, lives alone", "96", "AGE", True),
    ("with her sister (92) in town", "92", "AGE", True),
    ("a 92-year-old man", "92", "AGE", True),
    # nursing shorthand, units, devices and body sites alone are never PHI
    ("NEURO: A+OX3, MAE, PERRL", "MAE", "PATIENT", False),
    ("R RAD ALINE PLACED", "R RAD ALINE", "PATIENT", False),
    ("TRANSFERRED TO MICU", "MICU", "LOCATION-OTHER", False),
    ("to cath lab for PCI", "cath lab", "ORGANIZATION", False),
    ("dsg to R GROIN", "R GROIN", "LOCATION-OTHER", False),
    ("GU: FOLEY DRAINING", "GU", "PATIENT", False),
    ("SAO2 96% ON 2L", "SAO2", "PATIENT", False),                  # a word with digits
    ("L ANTECUBE PIV", "L ANTECUBE", "PATIENT", False),
    ("ADMITTED TO HARTWELL 4", "HARTWELL 4", "LOCATION-OTHER", True),   # a ward with a name
    ("TRANSFER TO MICU/HARTWELL", "MICU/HARTWELL", "LOCATION-OTHER", True),
    # ALL-CAPS or lower-case names need one census name that is not shorthand
    ("BS DIMINISHED AT BASES", "BS DIMINISHED", "PATIENT", False),
    ("AMIO BOLUS GIVEN", "AMIO BOLUS", "PATIENT", False),
    ("DTR MARISOL CALLED", "MARISOL", "PATIENT", True),
    ("DR HALVARD OKONKWO AWARE", "HALVARD OKONKWO", "PATIENT", True),
    ("spoke w/ karen lindqvist", "karen lindqvist", "PATIENT", True),
    ("Thandiwe Mthembu was seen", "Thandiwe Mthembu", "PATIENT", True),  # Capitalised: no list rule
    # real-notes style (invented): one shorthand or English word alone is no name
    ("NEURO: PEARL, MAE, FOLLOWS.", "PEARL", "PATIENT", False),
    ("ng asp green, heme neg", "green", "PATIENT", False),
    ("Aline waveform dampened", "Aline", "PATIENT", False),
    ("CALLED CASE MGMT (HOPE IS AWAY)", "HOPE", "PATIENT", True),       # a bracket before it
    ("DR. FOLEY AWARE", "FOLEY", "PATIENT", True),                      # after a title
    # decades and numbers glued to a word are no ages
    ("HR 100s ALL SHIFT", "100s", "AGE", False),
    ("rate 110this evening", "110this", "AGE", False),
])
def test_model_span_validators(text, piece, label, keep):
    from deid_core.ensemble import plausible
    start = text.index(piece)
    assert plausible(Span(start, start + len(piece), label, "certain", "ner:test:p=0.99"), text) is keep


@pytest.mark.parametrize("text,kept", [
    ("the Ohio River Valley", "Ohio River Valley"),
    ("lupus,", "lupus"),
    ("(Ann Lee)", "Ann Lee"),
    ("Ann Lee", "Ann Lee"),
    ("...", None),
])
def test_model_spans_are_trimmed_of_edge_punctuation_and_articles(text, kept):
    from deid_core.ensemble import trimmed
    got = trimmed(Span(0, len(text), "PATIENT", "certain", "ner:test:p=0.99"), text)
    assert (None if got is None else text[got.start:got.end]) == kept


# real-notes style (invented): a model-only span (no rules candidate under it) as it comes out
# of adapt_model_spans: NAME spans cut to the name, places kept only with place evidence
@pytest.mark.parametrize("text,piece,label,kept", [
    ("PT AGITATED, DR. VARGAS-NUNN AWARE.", "VARGAS-NUNN AWARE", "DOCTOR", "VARGAS-NUNN"),
    ("SOCIAL: DTR WILHELMINA CALLED", "DTR WILHELMINA", "PATIENT", "WILHELMINA"),
    ("vent checked.\n  Oskar Brandvold RRT\n", "Oskar Brandvold RRT", "DOCTOR", "Oskar Brandvold"),
    ("BP 80/40, HO Margaret notified", "HO Margaret", "DOCTOR", "Margaret"),
    ("per Dr. Quayle\nA: stable", "Quayle\nA", "DOCTOR", "Quayle"),
    ("REMAINS IN FLUTTER, RATE 140", "FLUTTER", "LOCATION-OTHER", None),
    ("AIRBED MATTRESS ORDERED", "AIRBED", "LOCATION-OTHER", None),
    ("took pills in pudding", "pudding", "LOCATION-OTHER", None),
    ("TO OR AT 1130 FOR WASHOUT", "1130", "LOCATION-OTHER", None),
    ("events 11p to 7a:", "7a", "LOCATION-OTHER", None),
    ("SON FLYING IN FROM TUCSON TOMORROW", "TUCSON", "LOCATION-OTHER", "TUCSON"),
    ("husband works in Glenmorrow now", "Glenmorrow", "LOCATION-OTHER", "Glenmorrow"),
    ("TRANSFER TO QUILLAN 5 WHEN BED READY", "QUILLAN 5", "LOCATION-OTHER", "QUILLAN 5"),
    ("lives at the birches, apt 4c.", "4c", "LOCATION-OTHER", "4c"),
    ("went camping at fernvale state park", "fernvale state park", "LOCATION-OTHER", "fernvale state park"),
    ("staying at a church shelter", "church shelter", "LOCATION-OTHER", None),
    ("PT BLADDR SCANNED, 300CC", "BLADDR SCANNED", "PATIENT", None),   # "PT" is no title
    ("seen at Oakmere Clinic, IA last week", "IA", "LOCATION-OTHER", "IA"),
    ("DAUGHTER LIVES IN VT, CALLS DAILY.", "VT", "LOCATION-OTHER", None),
    # a one-word model hospital needs a hospital's look (issue 8: clinical words read as one)
    ("NEW DX OF NIDDM THIS MONTH, NO METER YET", "NIDDM", "HOSPITAL", None),
    ("quadriplegic from mva in 1990", "mva", "HOSPITAL", None),
    ("amio stopped per pulm team", "pulm", "HOSPITAL", None),
    ("PT NOTED TO GRIMACE WHEN TURNED", "GRIMACE", "HOSPITAL", None),
    ("ADMITTED FROM QMH LAST NIGHT", "QMH", "HOSPITAL", "QMH"),                 # no vowel: an abbreviation
    ("came over from Larchmere yesterday", "Larchmere", "HOSPITAL", "Larchmere"),   # Capitalised
    ("TRANSFERRED FROM DENVER AFTER CATH", "DENVER", "HOSPITAL", "DENVER"),     # a listed place
    ("sent from fernhill general", "fernhill general", "HOSPITAL", "fernhill general"),  # two words
    # shorthand and positions of lists/abbreviations.txt are no PHI on their own
    ("Neuro: A&O to TPP, MAE", "TPP", "HOSPITAL", None),
    ("VS PER CARE VUE FLOWSHEET", "VUE", "PATIENT", None),
    ("placed in Trendelenberg for line", "Trendelenberg", "LOCATION-OTHER", None),
    # session 6: more ICU shorthand (amounts, magnesium, no acute distress, gravity drainage, a Coude catheter, sodium, a wedge pressure)
    ("suctioned for thick tan sputum in sm to mod amts.", "mod amts", "HOSPITAL", None),
    ("no stool yet. Await Mag citrate from pharmacy", "Await Mag", "PATIENT", None),
    ("GEN: NAD, A+OX3", "NAD", "PATIENT", None),
    ("FOLEY TO GD, UO 30CC/HR", "GD", "HOSPITAL", None),
    ("14F Coude placed by urology", "Coude", "PATIENT", None),
    ("his Na 131 this am", "Na", "PATIENT", None),
    ("WEDGE 14 AFTER LASIX", "WEDGE", "PATIENT", None),
    # "dia" (diastolic) is left out of the shorthand: a shorthand word is cut from a name span
    # even after a relation word, and Dia is a given name
    ("DAUGHTER DIA CALLED", "DIA", "PATIENT", "DIA"),
    # a function word in lower case at a NAME span's edge is cut off; the rest needs the lists
    ("labs at 4am.. may extubate later.", "may extubate", "PATIENT", None),
    ("awake and calm, no complaints voiced", "no complaints", "PATIENT", None),
    ("son in, may okafor called twice", "may okafor", "PATIENT", "okafor"),
    ("May Okafor called twice", "May Okafor", "PATIENT", "May Okafor"),      # Capitalised: kept
    # an English word that opens a sentence is no name without a title or a person's verb
    ("Pressures down. Cuff was 18 today.", "Cuff", "PATIENT", None),
    ("Seen. Ann Lee visited.", "Ann Lee", "PATIENT", "Ann Lee"),   # two words: a name's shape
    ("Quiet night. Ginger tea given.", "Ginger", "PATIENT", None),
    ("Seen. Rose called twice.", "Rose", "PATIENT", "Rose"),
    ("Levels ok. Heather was here at noon.", "Heather", "PATIENT", "Heather"),
    ("Seen. Rose Okafor visited.", "Rose Okafor", "PATIENT", "Rose Okafor"),
])
def test_model_only_spans_cut_and_checked(text, piece, label, kept):
    start = text.index(piece)
    out = adapt_model_spans([Span(start, start + len(piece), label, "certain", "ner:test:p=0.99")], [], text)
    assert [text[s.start:s.end] for s in out] == ([] if kept is None else [kept])


# Issue 23 item 5: no span crosses a line break unless the rules read a multi-line name or address.
# (text, the model's span, its label, the final spans' texts and labels with the model)
@pytest.mark.parametrize("text,piece,label,want", [
    # the model reads a place and the next line's heading as one span: cut at the line break
    ("Pt transferred from Bedford Falls\nUnit: MICU West, stable.", "Bedford Falls\nUnit",
     "LOCATION-OTHER", "Pt transferred from [LOCATION]\nUnit: MICU West, stable."),
    ("Moved in from Glenmorrow\nAllergies: penicillin.", "Glenmorrow\nAllergies",
     "LOCATION-OTHER", "Moved in from [LOCATION]\nAllergies: penicillin."),
    ("Seen at Harrowgate Clinic\nPlan: Foley out, GCS 15.", "Harrowgate Clinic\nPlan",
     "HOSPITAL", "Seen at [LOCATION]\nPlan: Foley out, GCS 15."),
    ("Daughter Ingrid Solberg\nVitals stable on metoprolol.", "Ingrid Solberg\nVitals",
     "PATIENT", "Daughter [NAME]\nVitals stable on metoprolol."),
    # the rules read this name of a place over two lines: it stays one span, model or not
    ("Discharged to Willow Creek\nNursing Home, stable.", "Willow Creek\nNursing Home",
     "HOSPITAL", "Discharged to [LOCATION], stable."),
])
def test_no_model_span_crosses_a_line_break(text, piece, label, want):
    start = text.index(piece)
    model = [Span(start, start + len(piece), label, "certain", "ner:test:p=0.99")]
    got = api.process(text, mode="redact", model_spans=model)
    assert got["output"] == want
    crossing = [s["text"] for s in got["spans"] if "\n" in s["text"]]
    rules = [s for s in analyze(text).spans if "\n" in text[s.start:s.end]]
    assert len(crossing) == len(rules)   # only the rules' own multi-line spans cross a line break


def test_a_multi_line_address_the_rules_read_stays_one_span():
    text = "Discharged to Willow Creek\nNursing Home, stable."
    rules = [(text[s.start:s.end], s.label) for s in analyze(text).spans]
    assert rules == [("Willow Creek\nNursing Home", "HOSPITAL")]
    start = text.index("Willow")
    model = [Span(start, text.index(","), "HOSPITAL", "certain", "ner:test:p=0.99")]
    assert [(text[s.start:s.end], s.label) for s in analyze(text, model=model).spans] == rules


# ... and a place the model reads wrapped over two lines (no heading in it) keeps the model's
# reading: its evidence is the whole ("state park"), which neither line has alone.
@pytest.mark.parametrize("text,piece,label", [
    ("Found by hikers near cedar hollow state\npark after a fall, GCS 15.", "cedar hollow state\npark",
     "LOCATION-OTHER"),
    ("Bloods drawn at the birch\nbend patient service center; Foley in place.", "birch\nbend patient service center",
     "HOSPITAL"),
    ("Fell while fishing at Ostler Reservoir\nboat launch, on warfarin.", "Ostler Reservoir\nboat launch",
     "LOCATION-OTHER"),
])
def test_a_place_wrapped_over_two_lines_stays_masked(text, piece, label):
    start = text.index(piece)
    model = [Span(start, start + len(piece), label, "certain", "ner:test:p=0.99")]
    got = analyze(text, model=model).spans
    covered = {i for s in got for i in range(s.start, s.end)}
    assert all(i in covered for i in range(start, start + len(piece)) if not text[i].isspace()), final(text, got)
    for kept in ("GCS 15", "Foley", "warfarin"):
        if kept in text:
            assert not any(i in covered for i in range(text.index(kept), text.index(kept) + len(kept)))


@pytest.mark.parametrize("text,piece,kept", [
    # a field label on the next line (before a colon) is never part of the place
    ("Arrived from Quillfeather Falls\nDept: cardiology follow-up.", "Quillfeather Falls\nDept", "\nDept: cardiology"),
    ("Came in from Ostler Reservoir\nAllergies: penicillin.", "Ostler Reservoir\nAllergies", "\nAllergies: penicillin"),
    ("Lives near Harrow Glen\nPlan: Foley out.", "Harrow Glen\nPlan", "\nPlan: Foley out"),
])
def test_the_next_lines_heading_is_never_part_of_a_model_place(text, piece, kept):
    start = text.index(piece)
    model = [Span(start, start + len(piece), "LOCATION-OTHER", "certain", "ner:test:p=0.99")]
    out = api.process(text, mode="redact", model_spans=model)["output"]
    assert kept in out, out
    assert all("\n" not in s["text"] for s in api.process(text, mode="redact", model_spans=model)["spans"])
