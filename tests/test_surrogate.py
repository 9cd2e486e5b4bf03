"""Surrogates and the linkage key (deid_core.surrogate, deid_core.keys and helpers).

Spans are built by hand (no detector behaviour is assumed) and the word lists are small invented
stand-ins installed with monkeypatch, so these tests check the surrogate rules, not list contents.
"""
import datetime as dt
import re

import pytest
from hypothesis import given, settings, strategies as st

import hashlib

import deid_core.lists as lists
from deid_core import keys
from deid_core.analyze import Analysis
from deid_core.keys import OFFSET_MAX_DAYS, OFFSET_MIN_DAYS, LinkageKey, as_key
from deid_core.spans import LABELS, Span
from deid_core.surrogate import names as surrogate_names
from deid_core.surrogate import surrogate
from deid_core.surrogate.shapes import is_age_category
from enginecaches import clear_engine_caches

MALE = ["adam", "brian", "carl", "dennis", "edgar", "frank", "glen", "harold", "ivan", "john",
        "kevin", "louis", "martin", "neil", "oscar", "paul", "ralph", "steven", "todd", "victor"]
FEMALE = ["alice", "betty", "carol", "diana", "emma", "fiona", "grace", "helen", "irene", "julia",
          "karen", "laura", "mary", "nora", "olive", "paula", "rita", "sarah", "tina", "vera"]
BOTH = ["jamie", "jordan", "kelly", "robin", "taylor"]
FEMALE_POOL = FEMALE + ["jamie"]  # jamie is listed for both sexes but far more often female
SURNAMES = ["smith", "jones", "brown", "miller", "davis", "garcia", "wilson", "moore", "taylor",
            "clark", "lewis", "walker", "hall", "young", "king", "wright", "lopez", "hill", "scott",
            "green", "adams", "baker", "nelson", "carter", "mitchell", "perez", "roberts", "turner",
            "phillips", "campbell", "parker", "evans", "edwards", "collins", "stewart", "morris",
            "obrien", "reyes", "nguyen", "kowalski"]
PLACES = [("Springfield", "IL", 900), ("Riverton", "WY", 800), ("Lakewood", "CO", 700),
          ("Fairview", "TN", 600), ("San Marcos", "TX", 500), ("Greenville", "SC", 400),
          ("Salem", "OR", 300), ("Franklin", "TN", 200), ("Madison", "WI", 150),
          ("Clinton", "IA", 100)]
STATES = {"illinois": "IL", "wyoming": "WY", "colorado": "CO", "tennessee": "TN", "texas": "TX",
          "south carolina": "SC", "oregon": "OR", "wisconsin": "WI", "iowa": "IA", "ohio": "OH"}
HANDWRITTEN = {
    "hospital_words": frozenset({"general hospital", "medical center", "clinic", "memorial hospital"}),
    "street_suffixes": frozenset({"street", "st", "avenue", "ave", "road", "rd"}),
    "professions": frozenset({"teacher", "carpenter", "plumber", "truck driver", "librarian"}),
    "departments": frozenset({"cardiology", "radiology"}),
}


REAL_ITERATIONS = keys.STRETCH_ITERATIONS


@pytest.fixture(autouse=True)
def cheap_stretch(monkeypatch):
    """These tests make hundreds of keys: stretch with 1,000 iterations instead of 600,000
    (the tests of the stretch itself put the real count back)."""
    monkeypatch.setattr(keys, "STRETCH_ITERATIONS", 1000)


@pytest.fixture(autouse=True, scope="module")
def _forget_stand_in_lists():
    """Tables built from the stand-in lists below must not outlive this module."""
    yield
    clear_engine_caches()


@pytest.fixture(autouse=True)
def fake_lists(monkeypatch):
    given_names = {n: "M" for n in MALE} | {n: "F" for n in FEMALE} | {n: "MF" for n in BOTH}
    monkeypatch.setattr(lists, "given_names", lambda: given_names, raising=False)
    monkeypatch.setattr(lists, "surnames", lambda: {n: i for i, n in enumerate(SURNAMES)}, raising=False)
    monkeypatch.setattr(lists, "us_places", lambda: tuple(PLACES), raising=False)
    monkeypatch.setattr(lists, "us_states", lambda: dict(STATES), raising=False)
    monkeypatch.setattr(lists, "countries", lambda: frozenset({"france", "peru", "kenya", "japan"}),
                        raising=False)
    monkeypatch.setattr(lists, "handwritten", lambda name: HANDWRITTEN[name], raising=False)
    monkeypatch.setattr(lists, "english_collisions", lambda: ENGLISH, raising=False)
    monkeypatch.setattr(lists, "medical_collisions", lambda: MEDICAL, raising=False)
    monkeypatch.setattr(surrogate_names, "given_name_percents", lambda: PERCENTS)


#: Invented stand-ins: surnames that are ordinary words / medical words (never picked as fakes).
ENGLISH = frozenset({"green", "hall", "king", "young", "hill", "baker", "carter", "turner", "wright",
                     "kind", "moore"})
MEDICAL = frozenset({"parker", "campbell"})


PERCENTS = {"jamie": {"M": 0.02, "F": 0.2}}  # jamie: far more often female -> counts as F


def build(text, *marks):
    """Analysis with spans for (substring, label[, occurrence]) marks."""
    spans = []
    for mark in marks:
        sub, label = mark[0], mark[1]
        nth = mark[2] if len(mark) > 2 else 0
        i = -1
        for _ in range(nth + 1):
            i = text.index(sub, i + 1)
        spans.append(Span(i, i + len(sub), label, mark[3] if len(mark) > 3 else "certain", "test"))
    return Analysis(text, tuple(sorted(spans)), tuple(sorted(spans)))


def outs(rendered):
    """Replacement text of each placed span, in order."""
    return [rendered.text[p.out_start:p.out_end] for p in rendered.placed]


# ---------------------------------------------------------------------------------- keys ---
def test_same_key_same_offset_and_range():
    a, b = LinkageKey.from_user("ward 7 study"), LinkageKey.from_user("ward 7 study")
    assert a == b and a.date_offset_days() == b.date_offset_days()
    off = a.date_offset_days()
    assert OFFSET_MIN_DAYS <= abs(off) <= OFFSET_MAX_DAYS and off % 7 != 0


def test_different_keys_give_spread_offsets():
    offsets = [LinkageKey(f"key-{i}".encode()).date_offset_days() for i in range(200)]
    assert len(set(offsets)) > 120  # 576 possible values
    assert sum(o > 0 for o in offsets) in range(70, 131)  # both signs used


def test_no_key_is_a_fresh_random_secret():
    keys = [as_key(None), as_key(""), LinkageKey.random()]
    assert len({k.digest("p", "v") for k in keys}) == 3
    assert "secret" in repr(keys[0]) and repr(keys[0]) == "LinkageKey(<secret>)"


def test_key_pick_is_hmac_of_purpose_and_value_under_the_stretched_key(monkeypatch):
    import hmac
    monkeypatch.setattr(keys, "STRETCH_ITERATIONS", REAL_ITERATIONS)
    k = LinkageKey.from_user("k")
    secret = hashlib.pbkdf2_hmac("sha256", b"k", keys.STRETCH_SALT, 600_000)
    assert k.digest("surname", "smith") == hmac.new(secret, b"surname\x00smith", hashlib.sha256).digest()
    assert k.digest("surname", "smith", 1) != k.digest("surname", "smith")
    assert k != LinkageKey(b"k")  # issue 11 item 4: the key string is no longer the HMAC key


def test_stretch_is_pbkdf2_with_at_least_600000_iterations(monkeypatch):
    monkeypatch.setattr(keys, "STRETCH_ITERATIONS", REAL_ITERATIONS)
    assert keys.STRETCH_ITERATIONS >= 600_000
    assert keys.stretch("study-4711") == hashlib.pbkdf2_hmac(
        "sha256", b"study-4711", keys.STRETCH_SALT, keys.STRETCH_ITERATIONS)


@pytest.mark.parametrize("password", [b"k", b"study-4711", "Nguy\u1ec5n \u00e9t\u00e9".encode(), b"x" * 65])
def test_pure_python_pbkdf2_matches_hashlib(monkeypatch, password):
    """Pyodide's hashlib has no pbkdf2_hmac: the fallback gives the same bytes."""
    want = hashlib.pbkdf2_hmac("sha256", password, keys.STRETCH_SALT, 2000)
    monkeypatch.delattr(hashlib, "pbkdf2_hmac")
    assert keys._pbkdf2_sha256(password, keys.STRETCH_SALT, 2000) == want


def test_a_key_is_stretched_once_per_process(monkeypatch):
    calls = []
    real = keys._pbkdf2_sha256
    monkeypatch.setattr(keys, "_STRETCHED", {})
    monkeypatch.setattr(keys, "_pbkdf2_sha256", lambda *a: calls.append(a) or real(a[0], a[1], 10))
    for _ in range(5):
        LinkageKey.from_user("batch key")
    assert len(calls) == 1
    for i in range(40):  # the cache stays bounded
        keys.stretch(f"other {i}")
    assert len(keys._STRETCHED) <= 16


def test_a_natively_stretched_secret_can_be_handed_over(monkeypatch):
    monkeypatch.setattr(keys, "_STRETCHED", {})
    secret = hashlib.pbkdf2_hmac("sha256", b"page key", keys.STRETCH_SALT, keys.STRETCH_ITERATIONS)
    keys.remember_stretched("page key", secret)
    monkeypatch.setattr(keys, "_pbkdf2_sha256", lambda *a: pytest.fail("stretched again"))
    assert LinkageKey.from_user("page key") == LinkageKey(secret)
    with pytest.raises(ValueError):
        keys.remember_stretched("page key", b"short")


@pytest.mark.parametrize("key,verdict,ok", [
    ("", "empty", False),
    ("study-4711", "weak", False),          # under 12 characters
    ("aaaaaaaaaaaaaaaa", "weak", False),    # long but one repeated letter
    ("abcdefghijklmnop", "weak", False),    # a run of consecutive letters
    ("ward seven cardiology 2026", "strong", True),
    ("Zq8#mP2!vL9@xR4", "strong", True),
])
def test_key_strength_hint(key, verdict, ok):
    got = keys.key_strength(key)
    assert (got["verdict"], got["ok"], got["length"]) == (verdict, ok, len(key))
    assert got["message"]


@pytest.mark.parametrize("bad", [b"", 5])
def test_key_rejects_bad_secrets(bad):
    with pytest.raises((TypeError, ValueError)):
        LinkageKey(bad)
    with pytest.raises(TypeError):
        as_key(3.5)


# --------------------------------------------------------------------------------- names ---
NOTE = ("John Smith was seen today. SMITH, JOHN C was admitted. Mr. Smith denies pain. "
        "J. Smith agreed. His wife Mary Smith visited. Dr. Kowalski reviewed.")
NOTE_MARKS = [("John Smith", "PATIENT"), ("SMITH, JOHN C", "PATIENT"), ("Smith", "PATIENT", 1),
              ("J. Smith", "PATIENT"), ("Mary Smith", "PATIENT"), ("Kowalski", "DOCTOR")]


def test_person_keeps_one_fake_name_and_layout():
    r = surrogate(build(NOTE, *NOTE_MARKS), "key-a")
    full, caps, alone, initial, wife, doctor = outs(r)
    given, sur = full.split(" ")
    assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+", full)
    m = re.fullmatch(r"([A-Z]+), ([A-Z]+) ([A-Z])", caps)
    assert m and m.group(1) == sur.upper() and m.group(2) == given.upper() and m.group(3) != "C"
    assert alone == sur
    assert initial == f"{given[0]}. {sur}"  # J. follows John's fake given name
    assert wife.endswith(" " + sur) and wife.split()[0].lower() in FEMALE_POOL
    assert given.lower() in MALE
    assert doctor != "Kowalski" and doctor.lower() in SURNAMES


def test_same_name_same_fake_across_notes_and_different_keys_differ():
    a1 = outs(surrogate(build("Seen by Paul Nelson.", ("Paul Nelson", "DOCTOR")), "k1"))
    a2 = outs(surrogate(build("NELSON, PAUL signed; Paul Nelson called.", ("NELSON, PAUL", "DOCTOR"),
                              ("Paul Nelson", "DOCTOR")), "k1"))
    assert a2[1] == a1[0]
    assert a2[0] == ", ".join(reversed(a1[0].upper().split()))
    fakes = {outs(surrogate(build("Seen by Paul Nelson.", ("Paul Nelson", "DOCTOR")), f"k{i}"))[0]
             for i in range(12)}
    assert len(fakes) > 6


@pytest.mark.parametrize("name,shape", [
    ("mary jones", r"[a-z]+ [a-z]+"),
    ("MARY JONES", r"[A-Z]+ [A-Z]+"),
    ("Jones-Garcia", r"[A-Z][a-z]+-[A-Z][a-z]+"),
    ("O'Brien", r"[A-Z][a-z]+"),
    ("José Nguyễn", r"[A-Z][a-z]+ [A-Z][a-z]+"),
    ("Smith, Mary A.", r"[A-Z][a-z]+, [A-Z][a-z]+ [A-Z]\."),
    ("John Smith Jr.", r"[A-Z][a-z]+ [A-Z][a-z]+ Jr\."),
    ("J.S.", r"[A-Z]\.[A-Z]\."),
    ("van der Berg", r"[a-z]+ [a-z]+ [A-Z][a-z]+"),   # particles replaced by particles
    ("Dr. Frank", r"Dr\. [A-Z][a-z]+"),
    ("DE LA CRUZ, MARIA", r"[A-Z]+ [A-Z]+ [A-Z]+, [A-Z]+"),
    ("Smith\nJohn", r"[A-Z][a-z]+\n[A-Z][a-z]+"),
])
def test_name_case_and_layout_kept(name, shape):
    out = outs(surrogate(build(f"Pt {name} here", (name, "PATIENT")), "k"))[0]
    assert re.fullmatch(shape, out), out
    assert out.casefold() != name.casefold()


def test_given_name_keeps_sex_for_many_keys():
    for i in range(30):
        m, f = outs(surrogate(build("Frank and Helen", ("Frank", "PATIENT"), ("Helen", "PATIENT")), f"s{i}"))
        assert m.lower() in MALE and m != "Frank"
        assert f.lower() in FEMALE_POOL and f != "Helen"


@pytest.mark.parametrize("name,listed,expected", [
    ("jamie", "MF", "F"), ("jordan", "MF", "MF"), ("frank", "M", "M"), ("carol", "F", "F"),
])
def test_usual_sex(name, listed, expected):
    assert surrogate_names.usual_sex(name, listed, PERCENTS) == expected


def test_mostly_female_name_gets_a_female_fake():
    for i in range(10):
        out = outs(surrogate(build("Jamie came", ("Jamie", "PATIENT")), f"j{i}"))[0]
        assert out.lower() in FEMALE and out != "Jamie"


def test_no_original_name_left_in_output():
    text = "Carter and Baker saw Scott Green; Green's brother Adam Carter came."
    marks = [("Carter", "DOCTOR"), ("Baker", "DOCTOR"), ("Scott Green", "PATIENT"),
             ("Green", "PATIENT", 1), ("Adam Carter", "PATIENT")]
    for i in range(25):
        out = surrogate(build(text, *marks), f"leak{i}").text
        for word in ("Carter", "Baker", "Scott", "Green", "Adam"):
            assert not re.search(rf"\b{word}\b", out), (i, out)


# ------------------------------------------------------------------------------- numbers ---
@pytest.mark.parametrize("value,label,shape", [
    ("(617) 555-0142", "PHONE", r"\(\d{3}\) \d{3}-\d{4}"),
    ("617.555.0142 x204", "PHONE", r"\d{3}\.\d{3}\.\d{4} x\d{3}"),
    ("123-45-6789", "SSN", r"\d{3}-\d{2}-\d{4}"),
    ("MRN 0045-2231", "MEDICALRECORD", r"MRN \d{4}-\d{4}"),
    ("AB12cd34", "IDNUM", r"[A-Z]{2}\d{2}[a-z]{2}\d{2}"),
    ("1HGCM82633A004352", "VEHICLE", r"\d[A-Z]{4}\d{5}[A-Z]\d{6}"),
    ("02115-1234", "ZIP", r"\d{5}-\d{4}"),
    ("jdoe42", "USERNAME", r"[a-z]{4}\d{2}"),
    ("Room 5B", "ROOM", r"Room \d[A-Z]"),
])
def test_numbers_keep_shape(value, label, shape):
    for i in range(5):
        out = outs(surrogate(build(f"x {value} y", (value, label)), f"n{i}"))[0]
        assert re.fullmatch(shape, out), out
        assert out != value


def test_ssn_surrogates_are_issuable():
    for i in range(40):
        out = outs(surrogate(build("SSN 123-45-6789", ("123-45-6789", "SSN")), f"ssn{i}"))[0]
        assert out[:3] not in ("000", "666") and out[0] != "9" and out[4:6] != "00"


def test_same_number_same_fake_in_any_layout():
    text = "call 617-555-0142 or (617) 555-0142"
    a, b = outs(surrogate(build(text, ("617-555-0142", "PHONE"), ("(617) 555-0142", "PHONE")), "k"))
    assert re.sub(r"\D", "", a) == re.sub(r"\D", "", b)


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[0-9A-Za-z]{1,6}([-./ ][0-9A-Za-z]{1,6}){0,3}", fullmatch=True))
def test_shape_property(value):
    out = outs(surrogate(build(f"id {value}.", (value, "IDNUM")), "prop"))[0]
    if out == "[ID]":  # only label words: nothing to change
        return
    assert len(out) == len(value) and out.casefold() != value.casefold()
    for a, b in zip(value, out):
        if a.isdigit():
            assert b.isdigit()
        elif a.isalpha():
            assert b.isalpha() and a.isupper() == b.isupper()
        else:
            assert a == b


def test_contacts_are_valid_fakes():
    text = "mail Ann.Lee77@Hospital.org web https://www.mercy-clinic.org/pt/8812 ip 192.168.14.201 v6 fe80::1ff:fe23:4567:890a"
    email, url, ip4, ip6 = outs(surrogate(build(
        text, ("Ann.Lee77@Hospital.org", "EMAIL"), ("https://www.mercy-clinic.org/pt/8812", "URL"),
        ("192.168.14.201", "IPADDR"), ("fe80::1ff:fe23:4567:890a", "IPADDR")), "c"))
    assert re.fullmatch(r"[a-z]+\d{2}@example\.(org|com|net)", email)
    assert re.fullmatch(r"https://www\.example\.(org|com|net)/[a-z]{2}/\d{4}", url)
    octets = ip4.split(".")
    assert octets[0] == "10" and len(octets) == 4 and all(0 <= int(o) <= 255 for o in octets)
    assert re.fullmatch(r"2001:db8(:[0-9a-f]{1,4}){6}", ip6)


# --------------------------------------------------------------------------- dates, ages ---
def test_dates_move_by_one_offset_and_keep_format():
    text = "Admitted 03/05/2014, discharged March 12th, 2014; follow-up 2014-04-01."
    key = LinkageKey.from_user("dates")
    off = key.date_offset_days()
    a, b, c = outs(surrogate(build(text, ("03/05/2014", "DATE"), ("March 12th, 2014", "DATE"),
                                   ("2014-04-01", "DATE")), key))
    da = dt.datetime.strptime(a, "%m/%d/%Y").date()
    m = re.fullmatch(r"([A-Z][a-z]+) (\d{1,2})(st|nd|rd|th), (\d{4})", b)
    db = dt.datetime.strptime(f"{m.group(1)} {m.group(2)} {m.group(4)}", "%B %d %Y").date()
    dc = dt.date.fromisoformat(c)
    assert da == dt.date(2014, 3, 5) + dt.timedelta(days=off)
    assert (db - da).days == 7 and (dc - da).days == 27


def test_unreadable_date_gets_neutral_fake():
    out = outs(surrogate(build("on Hanukkah we met", ("Hanukkah", "DATE")), "k"))[0]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", out)


@pytest.mark.parametrize("value,expected", [
    ("92", "90+"), ("92 yo", "90+ yo"), ("90", "90+"), ("101", "90+"), ("119", "90+"),
    ("ninety-four", "90+"), ("NINETY FOUR", "90+"), ("one hundred and two", "90+"),
    ("Ninety", "90+"),
])
def test_ages_over_89_become_the_safe_harbor_category(value, expected):
    """Issue 24: Surrogate never writes a specific fake age over 89, only ``90+``."""
    for i in range(6):
        assert outs(surrogate(build(f"age {value}", (value, "AGE")), f"age{i}"))[0] == expected


@pytest.mark.parametrize("value,shape", [
    ("89", r"(?:[1-7]\d|8[0-8])"), ("45", r"[1-8]\d"), ("7", r"[1-9]"),
    ("forty-five", r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty)(?:-[a-z]+)?|ten|eleven|twelve|"
                   r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"),
])
def test_ages_under_90_stay_under_90(value, shape):
    for i in range(8):
        out = outs(surrogate(build(f"age {value}", (value, "AGE")), f"young{i}"))[0]
        assert re.fullmatch(shape, out) and out != value, out


# -------------------------------------------------------------------------------- places ---
def test_places_from_lists_and_case_kept():
    text = "Lives at 12 Elm Street, Salem OR 97301. Seen at Mercy General Hospital. Works as a teacher. From PERU."
    street, city, state, zipc, hosp, prof, country = outs(surrogate(build(
        text, ("12 Elm Street", "STREET"), ("Salem", "CITY"), ("OR", "STATE"), ("97301", "ZIP"),
        ("Mercy General Hospital", "HOSPITAL"), ("teacher", "PROFESSION"), ("PERU", "COUNTRY")), "p"))
    assert re.fullmatch(r"\d\d [A-Z][a-z]+ Street", street) and "Elm" not in street
    assert city in [p[0] for p in PLACES] and city != "Salem"
    assert state in STATES.values() and state != "OR"
    assert re.fullmatch(r"\d{5}", zipc) and zipc != "97301"
    assert re.fullmatch(r"[A-Z][a-z]+( [A-Z][a-z]+)? General Hospital", hosp) and "Mercy" not in hosp
    assert prof in HANDWRITTEN["professions"] and prof != "teacher"
    assert country in ("FRANCE", "KENYA", "JAPAN")


def test_generic_only_institution_gets_a_place_in_front():
    out = outs(surrogate(build("at General Hospital", ("General Hospital", "HOSPITAL")), "g"))[0]
    assert out.endswith(" General Hospital") and out.split(" General")[0] in [p[0] for p in PLACES]


# ------------------------------------------------------------------------ whole document ---
def test_determinism_and_review_tier():
    text = "Paul Nelson seen 3/5/2014 by Dr. Hall, phone 555-0142."
    a = build(text, ("Paul Nelson", "PATIENT"), ("3/5/2014", "DATE"), ("Hall", "DOCTOR", 0, "review"),
              ("555-0142", "PHONE"))
    r1, r2 = surrogate(a, "same"), surrogate(a, LinkageKey.from_user("same"))
    assert r1 == r2
    kept = surrogate(a, "same", include_review=False)
    assert "Dr. Hall," in kept.text and [p.replaced for p in kept.placed] == [True, True, False, True]
    assert "Hall" not in r1.text and all(p.replaced for p in r1.placed)
    # text outside the spans is unchanged
    assert r1.text.startswith(outs(r1)[0] + " seen ")


def test_punctuation_only_span_gets_the_tag():
    assert outs(surrogate(build("id: -- end", ("--", "IDNUM")), "k")) == ["[ID]"]


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=30), st.sampled_from(sorted(LABELS)))
def test_any_span_text_any_label_gives_a_different_value(value, label):
    text = f"<{value}>"
    a = Analysis(text, (Span(1, 1 + len(value), label),), ())
    r = surrogate(a, "fuzz")
    new = r.text[1:-1]
    assert r.text[0] == "<" and r.text[-1] == ">"
    if label == "AGE" and is_age_category(value):  # "90s", "90+": a band, written as is
        assert new == value
    else:
        assert new != value
    assert r.placed[0].replaced


# ------------------------------------------------------------- new-user findings (rows) ---
CITIES = "|".join(p[0] for p in PLACES)


@pytest.mark.parametrize("value,label,shape,gone", [
    ("St. Agnes Women's Hospital", "HOSPITAL", rf"(?:{CITIES}) Women's Hospital", ("St", "Agnes")),
    ("St. Mary's Hospital", "HOSPITAL", rf"(?:{CITIES}) Hospital", ("St", "Mary")),
    ("ST. MARY'S HOSPITAL", "HOSPITAL", rf"(?:{CITIES.upper()}) HOSPITAL", ("ST", "MARY")),
    ("Brigham and Women's", "HOSPITAL", rf"(?:{CITIES}) Women's Hospital", ("Brigham", " and")),
    ("Brigham and Women's Hospital", "HOSPITAL", rf"(?:{CITIES}) Women's Hospital", ("Brigham",)),
    ("Children's Hospital of Boston", "HOSPITAL", rf"Children's Hospital of (?:{CITIES})", ("Boston",)),
    ("Mayo Clinic Rochester", "HOSPITAL", rf"(?:{CITIES}) Hospital", ("Mayo", "Rochester")),
    ("Acme Medical Group", "ORGANIZATION", rf"(?:{CITIES}) Medical Group", ("Acme",)),
    ("St. Jude Cardiology", "DEPARTMENT", rf"(?:{CITIES}) Cardiology", ("St", "Jude")),
    # not changed: the generic words themselves
    ("Mercy General Hospital", "HOSPITAL", rf"(?:{CITIES}) General Hospital", ("Mercy",)),
])
def test_institution_is_a_whole_fake_name(value, label, shape, gone):
    for i in range(8):
        out = outs(surrogate(build(f"seen at {value}.", (value, label)), f"inst{i}"))[0]
        assert re.fullmatch(shape, out), out
        assert ". " not in out and all(g not in out for g in gone), out


@pytest.mark.parametrize("value,expected", [
    ("90s", "90s"), ("90's", "90's"), ("100s", "100s"), ("nineties", "nineties"),
    ("NINETIES", "NINETIES"), ("90+", "90+"), ("over 89", "over 89"), ("90 or older", "90 or older"),
])
def test_decade_or_band_over_89_is_kept(value, expected):
    for i in range(5):
        out = outs(surrogate(build(f"In her {value}.", (value, "AGE")), f"dec{i}"))[0]
        assert out == expected


def test_a_9x_age_with_an_s_is_no_decade_and_becomes_the_category():
    assert outs(surrogate(build("in his 93s.", ("93s", "AGE")), "band"))[0] == "90+s"


@pytest.mark.parametrize("value,shape,low,high", [
    ("40s", r"[1-8]0s", 10, 80), ("60's", r"[1-8]0's", 10, 80),
])
def test_ages_stay_in_band(value, shape, low, high):
    seen = set()
    for i in range(12):
        out = outs(surrogate(build(f"in his {value}.", (value, "AGE")), f"band{i}"))[0]
        assert re.fullmatch(shape, out), out
        n = int(re.match(r"\d+", out).group())
        assert low <= n <= high and out != value
        seen.add(out)
    assert len(seen) > 2


def test_decade_words_under_90_stay_decade_words():
    out = outs(surrogate(build("in her Forties", ("Forties", "AGE")), "w"))[0]
    assert out in ("Teens", "Twenties", "Thirties", "Fifties", "Sixties", "Seventies", "Eighties")


NANP = r"[2-9][0-8]\d"  # area code: first digit 2-9, middle 0-8 (N9X is reserved)


@pytest.mark.parametrize("value,shape", [
    ("+1 617 555 0100", rf"\+1 ({NANP}) 555 01\d\d"),
    ("+1 (617) 555-0100", rf"\+1 \(({NANP})\) 555-01\d\d"),
    ("+16175550100", rf"\+1({NANP})55501\d\d"),
    ("1-800-555-0199", rf"1-({NANP})-555-01\d\d"),
    ("(011) 555-0123", rf"\(({NANP})\) 555-01\d\d"),
    ("617-555-0199", rf"({NANP})-555-01\d\d"),
    ("617.555.0142 x204", rf"({NANP})\.555\.01\d\d x\d{{3}}"),
    ("tel: 617 555 0142", rf"tel: ({NANP}) 555 01\d\d"),
    ("555-0142", r"555-01\d\d()"),
    ("+44 20 7946 0958", r"\+44 \d\d \d{4} \d{4}()"),  # not NANP: country code kept, digits shaped
])
@pytest.mark.parametrize("label", ["PHONE", "FAX"])
def test_phone_keeps_country_code_and_nanp_shape(value, shape, label):
    for i in range(30):
        out = outs(surrogate(build(f"call {value} now", (value, label)), f"tel{i}"))[0]
        m = re.fullmatch(shape, out)
        assert m, out
        area = m.group(1)
        assert not area or area[1:] != "11", out  # no N11 area codes
        assert out != value


def test_same_phone_same_fake_with_or_without_plus_one():
    text = "call +1 617 555 0142 or (617) 555-0142"
    a, b = outs(surrogate(build(text, ("+1 617 555 0142", "PHONE"), ("(617) 555-0142", "PHONE")), "k"))
    assert re.sub(r"\D", "", a)[1:] == re.sub(r"\D", "", b)


@pytest.mark.parametrize("text,value,shape", [
    ("Thanks. -- JS", "JS", r"[A-Z]{2}"),
    ("cc: RMT", "RMT", r"[A-Z]{3}"),
    ("signed ABCD", "ABCD", r"[A-Z]{4}"),
    ("-- J.S.", "J.S.", r"[A-Z]\.[A-Z]\."),
    # a listed surname in capitals stays a surname, not initials
    ("cc: HALL", "HALL", r"[A-Z]{3,}"),
])
def test_initials_stay_initials(text, value, shape):
    for i in range(10):
        out = outs(surrogate(build(text, (value, "DOCTOR")), f"ini{i}"))[0]
        assert re.fullmatch(shape, out) and out != value, out
        if value == "HALL":
            assert out.lower() in SURNAMES


def test_initials_follow_the_persons_fake_name():
    text = "Seen by John Smith. -- JS"
    for i in range(10):
        full, ini = outs(surrogate(build(text, ("John Smith", "DOCTOR"), ("JS", "DOCTOR")), f"jsf{i}"))
        given, sur = full.split()
        assert ini == given[0] + sur[0] or (ini != "JS" and given[0] + sur[0] == "JS"), (full, ini)


@pytest.mark.parametrize("text,name,pool", [
    ("her husband Tomasz visited", "Tomasz", MALE),
    ("His wife, Zofia, called", "Zofia", FEMALE_POOL),
    ("Daughter\nHelga brought meds", "Helga", FEMALE_POOL),
    ("her son Robin came", "Robin", MALE),  # listed for both sexes: the relation decides
    ("her brother-in-law Jurgen", "Jurgen", MALE),
    ("the granddaughter Paula", "Paula", FEMALE_POOL),
    ("First name: Tomasz", "Tomasz", MALE + FEMALE + BOTH),
    ("his partner Frank", "Frank", MALE),  # no sex in the relation: the list's sex
])
def test_lone_first_name_after_relation_gets_a_given_name(text, name, pool):
    for i in range(12):
        out = outs(surrogate(build(text, (name, "PATIENT")), f"rel{i}"))[0]
        assert out.lower() in pool and out != name, out


def test_relation_named_person_keeps_one_fake_given_name():
    text = "Husband Tomasz visited. Tomasz Nowak signed. Tomasz left."
    marks = [("Tomasz", "PATIENT"), ("Tomasz Nowak", "PATIENT"), ("Tomasz", "PATIENT", 2)]
    for i in range(8):
        first, full, last = outs(surrogate(build(text, *marks), f"one{i}"))
        assert full.split()[0] == first == last and first.lower() in MALE


def test_relation_source_marks_a_first_name():
    text = "Tomasz (husband) visited"
    a = Analysis(text, (Span(0, 6, "PATIENT", "certain", "names:relation:husband"),), ())
    out = surrogate(a, "src").text.split()[0]
    assert out.lower() in MALE


def test_title_still_makes_a_surname():
    out = outs(surrogate(build("her husband Mr. Tomasz", ("Tomasz", "PATIENT")), "t"))[0]
    assert out.lower() in SURNAMES


def test_fakes_are_never_english_or_medical_words():
    text = "Mr. Kind and Dr. Smith; Paul Jones."
    marks = [("Kind", "PATIENT"), ("Smith", "DOCTOR"), ("Paul Jones", "PATIENT")]
    picked = set()
    for i in range(60):
        for out in outs(surrogate(build(text, *marks), f"eng{i}")):
            picked |= {w.lower() for w in out.split()}
    assert picked & set(SURNAMES)
    assert not picked & (ENGLISH | MEDICAL), picked & (ENGLISH | MEDICAL)


def test_tiny_name_lists_are_used_whole(monkeypatch):
    # a stand-in list made only of collisions: still yields fakes rather than failing
    monkeypatch.setattr(lists, "surnames", lambda: {n: i for i, n in enumerate(sorted(ENGLISH))},
                        raising=False)
    out = outs(surrogate(build("Mr. Kind", ("Kind", "PATIENT")), "tiny"))[0]
    assert out.lower() in ENGLISH and out != "Kind"


@pytest.mark.parametrize("text,value,source,shape", [
    ("-- jkm", "jkm", "names:signature_initials", r"[a-z]{3}"),
    ("-- mo", "mo", "names:signature_initials", r"[a-z]{2}"),  # listed name, but the source says initials
    ("JTW James T. Walker", "JTW James T. Walker", "names:signature_initials",
     r"[A-Z]{3} [A-Z][a-z]+ [A-Z]\. [A-Z][a-z]+"),
    ("Maria DE LA CRUZ", "Maria DE LA CRUZ", "names:given+surname", r"[A-Z][a-z]+ [A-Z]+ [A-Z]+ [A-Z]+"),
    ("-- mo", "mo", "names:surname_list", r"[a-z]{3,}"),  # no initials evidence: a name
])
def test_initials_by_source_and_inside_names(text, value, source, shape, monkeypatch):
    given_names = {n: "M" for n in MALE} | {n: "F" for n in FEMALE} | {n: "MF" for n in BOTH + ["mo"]}
    monkeypatch.setattr(lists, "given_names", lambda: given_names, raising=False)
    i = text.index(value)
    a = Analysis(text, (Span(i, i + len(value), "DOCTOR", "certain", source),), ())
    for k in range(6):
        r = surrogate(a, f"src{k}")
        out = r.text[r.placed[0].out_start:r.placed[0].out_end]
        assert re.fullmatch(shape, out) and out.casefold() != value.casefold(), out
        if value.startswith("JTW"):  # initials of the same person's fake name
            first, given, mid, sur = out.split()
            assert first == given[0] + mid[0] + sur[0]


def test_relation_sex_applies_to_a_full_name():
    for i in range(12):
        out = outs(surrogate(build("his wife Margarethe Farouk came", ("Margarethe Farouk", "PATIENT")),
                             f"full{i}"))[0]
        assert out.split()[0].lower() in FEMALE_POOL, out
        out = outs(surrogate(build("her son Declan Whitby came", ("Declan Whitby", "PATIENT")), f"full{i}"))[0]
        assert out.split()[0].lower() in MALE, out


@pytest.mark.parametrize("value,shape", [
    ("1-800-555-0123", r"1-800-555-01\d\d"), ("(888) 555-0100", r"\(888\) 555-01\d\d"),
])
def test_toll_free_area_code_kept(value, shape):
    for i in range(10):
        out = outs(surrogate(build(f"call {value}", (value, "PHONE")), f"tf{i}"))[0]
        assert re.fullmatch(shape, out) and out != value, out


@pytest.mark.parametrize("value,label", [("9" * 5000, "AGE"), ("9" * 5000 + "0s", "AGE"),
                                         (" " * 50000 + "5", "PHONE"), ("1" * 20000, "PHONE")])
def test_huge_values_do_not_crash(value, label):
    out = outs(surrogate(build(f"<{value}>", (value, label)), "big"))[0]
    assert out != value and len(out) == len(value)


def test_issue_day_first_notes_keep_their_intervals_and_decades_stay():
    """A note writing dates day first (14.02.2019) is shifted as day first; a decade is kept."""
    text = "Smoked in the 1990s. Seen 14.02.2019 and 20.02.2019 by Dr. Ann Lee."
    spans = tuple(Span(text.index(v), text.index(v) + len(v), "DATE") for v in ("1990s", "14.02.2019", "20.02.2019"))
    out = surrogate(Analysis(text, spans, spans), "day-first-key").text
    assert "1990s" in out
    found = re.findall(r"(\d\d)\.(\d\d)\.(\d{4})", out)
    assert len(found) == 2
    a, b = (dt.date(int(y), int(m), int(d)) for d, m, y in found)
    assert (b - a).days == 6
    assert "14.02.2019" not in out and "20.02.2019" not in out


def test_surrogates_are_a_package_of_their_own():
    """Issue 7 step 4: ``deid_core.surrogate`` is a package (names, places, shapes, core) with the
    same public names as the old module."""
    import importlib
    import deid_core.surrogate as pkg
    assert hasattr(pkg, "__path__")
    for sub in ("core", "names", "places", "shapes"):
        importlib.import_module(f"deid_core.surrogate.{sub}")
    assert pkg.surrogate is importlib.import_module("deid_core.surrogate.core").surrogate
    assert {"surrogate", "Surrogator"} <= set(pkg.__all__)


# Issue 11 item 2: no real name part survives inside a replaced name span.
WORD_RE = re.compile(r"[^\W\d_]+")


@pytest.mark.parametrize("text,marks", [
    ("Patient: Le, Al. seen", [("Le, Al", "PATIENT")]),
    ("Seen by Dr. Della Johnson today", [("Della Johnson", "DOCTOR")]),
    ("Patient: Van Young. YOUNG, VAN signed.", [("Van Young", "PATIENT"), ("YOUNG, VAN", "PATIENT")]),
    ("Her spouse Di Rivers came. Mr. Rivers called.", [("Di Rivers", "PATIENT"), ("Rivers", "PATIENT", 1)]),
    ("Her spouse Rivers came. Di Rivers called.", [("Rivers", "PATIENT"), ("Di Rivers", "PATIENT")]),
    ("Dr. Grace Do saw him", [("Grace Do", "DOCTOR")]),
    ("Maria de la Cruz and DE LA CRUZ, MARIA", [("Maria de la Cruz", "PATIENT"), ("DE LA CRUZ, MARIA", "PATIENT")]),
    ("van der Berg, Pieter", [("van der Berg, Pieter", "PATIENT")]),
    ("Seen by Smith, John MD", [("Smith, John MD", "DOCTOR")]),
])
@pytest.mark.parametrize("key", ["a", "b", "c"])
def test_no_real_name_part_survives(text, marks, key):
    a = build(text, *marks)
    r = surrogate(a, key)
    originals = {w.casefold() for s in a.spans for w in WORD_RE.findall(text[s.start:s.end])}
    originals -= {"md", "do"} if "MD" in text else set()
    for p in r.placed:
        new = {w.casefold() for w in WORD_RE.findall(r.text[p.out_start:p.out_end])}
        assert not new & originals, (text, r.text)


def test_the_same_name_gets_the_same_fake_in_every_layout():
    text = "Patient: Van Young. YOUNG, VAN signed. Van Young called."
    out = outs(surrogate(build(text, ("Van Young", "PATIENT"), ("YOUNG, VAN", "PATIENT"),
                               ("Van Young", "PATIENT", 1)), "k"))
    first, last = out[0].split()
    assert out[1] == f"{last.upper()}, {first.upper()}" and out[2] == out[0]


def test_a_surname_after_a_relation_word_is_faked_as_that_surname():
    text = "Her spouse Rivers came. Di Rivers called."
    lone, full = outs(surrogate(build(text, ("Rivers", "PATIENT"), ("Di Rivers", "PATIENT")), "k"))
    assert full.split()[-1] == lone


def test_credential_do_in_capitals_is_kept():
    assert outs(surrogate(build("Jane Roe, DO", ("Jane Roe, DO", "DOCTOR")), "k"))[0].endswith(", DO")
