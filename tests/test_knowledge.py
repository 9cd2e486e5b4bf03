"""Tests for deid_core.knowledge: the look-ups in the knowledge lists of lists/ (issue 20).

Facility and organisation names here are invented (Saint Brigid Medical Center, Quarry Lane
Logistics) except where a test asserts a fact of a public list (the Census's commonest surname,
an SEC-listed company, a chain of care_chains.txt).
"""
from __future__ import annotations

import pytest

from deid_core import frequencies as F
from deid_core import knowledge as K
from deid_core import providers as P


# ------------------------------------------------------------------------------ English
@pytest.mark.parametrize("word, low, high", [
    ("the", 7.0, 8.0), ("The", 7.0, 8.0), ("restless", 3.0, 4.5), ("decrease", 3.5, 5.0),
    ("high", 5.0, 6.5), ("catheter", 3.0, 4.0), ("hospital's", 4.0, 6.0),
])
def test_zipf_of_ordinary_words(word, low, high):
    assert low <= F.zipf(word) <= high


@pytest.mark.parametrize("word", ["zorvathine", "kvo", "", "  ", "qxw-17", "Brennavik"])
def test_zipf_absent_is_zero(word):
    assert F.zipf(word) == 0.0 and not F.is_common_word(word)


@pytest.mark.parametrize("word, common", [
    ("Restless", True), ("FAST", True), ("Decrease", True), ("Tuesday", True),
    ("catheter", True), ("zorvathine", False), ("Rimkaitis", False), ("Lindqvist", False),
])
def test_is_common_word(word, common):
    assert F.is_common_word(word) is common


def test_is_common_word_threshold():
    assert F.is_common_word("catheter", threshold=3.0)
    assert not F.is_common_word("catheter", threshold=5.0)


# ---------------------------------------------------------------------- clinical shorthand
@pytest.mark.parametrize("word", ["KVO", "kvo", "TLC", "NBP", "PND", "s/p", "PO.", "prn"])
def test_known_clinical_abbreviations(word):
    a = K.clinical_abbreviation(word)
    assert a is not None and a.form == word.lower().rstrip(".")
    assert a.sources and a.senses >= 1 and K.is_clinical_abbreviation(word)


@pytest.mark.parametrize("word", ["Rimkaitis", "zorvathine", "", ".", "Saint Brigid"])
def test_not_clinical_abbreviations(word):
    assert K.clinical_abbreviation(word) is None and not K.is_clinical_abbreviation(word)


def test_abbreviation_sources_and_counts():
    tlc = K.clinical_abbreviation("TLC")
    assert {"vanderbilt1", "vanderbilt2", "berman"} <= set(tlc.sources) and tlc.count > 0
    # a word only the hand-written list has is known too, marked so
    perrl = K.clinical_abbreviation("perrl")
    assert perrl is not None and "hand-written" in perrl.sources


# -------------------------------------------------------------------------------- names
def test_surname_count_and_rank():
    assert F.surname_rank("SMITH") == 1 and F.surname_count("smith") == 2_442_977
    assert F.surname_rank("Johnson") == 2
    rare = F.surname_count("rimkaitis")  # rare surnames: a count of 100+ or absent
    assert rare == 0 or rare >= 100


@pytest.mark.parametrize("word", ["zorvathine", "", "Brennavikstrom", "the quick"])
def test_surname_absent(word):
    assert F.surname_count(word) == 0 and F.surname_rank(word) is None


def test_surname_ranks_rise_with_rarer_names():
    assert F.surname_rank("smith") < F.surname_rank("garcia") < F.surname_rank("mendoza")


def test_tied_surnames_share_a_rank():
    from deid_core.lists import iter_rows
    rows = list(iter_rows("surnames_census2010.tsv"))[-3:]  # the last rows: 100 bearers each
    assert len({r[1] for r in rows}) == 1
    assert len({F.surname_rank(r[0]) for r in rows}) == 1


@pytest.mark.parametrize("word, female_at_least, female_at_most", [
    ("Margaret", 95, 100), ("James", 0, 5), ("Dakota", 10, 60), ("Peg", 90, 100),
])
def test_given_name_sex_share(word, female_at_least, female_at_most):
    g = F.given_name(word)
    assert g is not None and g.living >= 20
    assert female_at_least <= g.female <= female_at_most and 0 <= g.adult <= 100


def test_given_name_frequencies_and_adult_weighting():
    assert F.given_name("mary").living > F.given_name("gwen").living > F.given_name("peg").living
    # a name given mostly after 2000 is mostly children; one of the 1940s mostly adults
    assert F.given_name("jayden").adult < 20 < 80 < F.given_name("margaret").adult


@pytest.mark.parametrize("word", ["zorvathine", "", "Brennavikstrom"])
def test_given_name_absent(word):
    assert F.given_name(word) is None


@pytest.mark.parametrize("name, nick", [
    ("Margaret", "peg"), ("elizabeth", "betsy"), ("Robert", "bobby"), ("Thomas", "tom"),
])
def test_nicknames_both_ways(name, nick):
    assert nick in K.nicknames_of(name)
    assert name.lower() in K.canonicals_of(nick.upper())


@pytest.mark.parametrize("word", ["zorvathine", "", "Moose"])
def test_nicknames_absent(word):
    assert K.nicknames_of(word) == frozenset()
    assert K.canonicals_of(word) == frozenset() or word == "Moose"


# ---------------------------------------------------------------------- care facilities
@pytest.mark.parametrize("name, short, initials", [
    ("Saint Brigid Medical Center", "saint brigid", "sbmc"),
    ("St. Brigid Medical Center", "saint brigid", "sbmc"),
    ("Quarry Hill Medical Center North", "quarry hill", "qhmc"),
    ("University of Ridgefield Medical Center", "university of ridgefield", "urmc"),
    ("Wilkes-Ashdown General Hospital", "wilkes-ashdown", "wagh"),
    ("North Larkfield Hospital", "north larkfield", "nlh"),
    ("Hospice #2 of Tarrow County", "tarrow county", "htc"),
    ("Hospital", None, None),
    ("Larkfield", "larkfield", None),
])
def test_facility_forms_rule(name, short, initials):
    assert K.facility_forms(name) == (short, initials)


def test_facility_forms_takes_its_words():
    words = {"clinic": "generic", "of": "joiner"}
    assert K.facility_forms("Clinic of Marrowby Falls", words) == ("marrowby falls", "cmf")


def test_facilities_named():
    rows = P.facilities_named("memorial hospital")
    assert len(rows) > 1 and all(f.name == "memorial hospital" for f in rows)
    assert {f.kind for f in rows} <= {"acute care", "critical access", "psychiatric",
                                      "childrens", "va", "hospice"}
    assert P.facilities_named("Saint Brigid Zorvathine Medical Center") == ()
    assert P.facilities_named("") == ()


def test_facility_form_short_and_initials():
    mercy = {f.kind: f for f in K.facility_form("Mercy")}
    assert mercy["short"].facilities > 10
    assert mercy["short"].ambiguous  # an ordinary English word too
    mh = {f.kind: f for f in K.facility_form("MH")}
    assert mh["initials"].facilities > 10 and mh["initials"].abbreviation  # also shorthand
    assert mh["initials"].ambiguous


def test_facility_form_absent():
    assert K.facility_form("Zorvathine Brennavik") == ()
    assert K.facility_form("") == ()


def test_unambiguous_initials_exist():
    from deid_core.lists import iter_rows
    clean = [r for r in iter_rows("facility_short_forms.tsv")
             if r[1] == "initials" and r[4] == "-" and float(r[3]) < K.ZIPF_COMMON]
    assert len(clean) > 3000
    f = K.facility_form(clean[0][0])
    assert any(x.kind == "initials" and not x.ambiguous for x in f)


# ------------------------------------------------------------------------- organisations
@pytest.mark.parametrize("name, kind", [
    ("costco wholesale", "company"), ("Walgreens", "pharmacy"), ("quest diagnostics", "laboratory"),
    ("Kindred at Home", "home_health"), ("DaVita", "dialysis"), ("spdr gold trust", "fund"),
])
def test_organisation_kinds(name, kind):
    assert P.organisation(name) == kind


@pytest.mark.parametrize("name", ["Quarry Lane Logistics", "zorvathine", ""])
def test_organisation_absent(name):
    assert P.organisation(name) is None


def test_organisation_shapes():
    after = {r[0] for r in K.organisation_shapes(position="after")}
    assert {"elementary school", "fire department", "day care", "church"} <= after
    assert ("local", "union", "before_number") in K.organisation_shapes("union")
    assert all(r[1] == "fire" for r in K.organisation_shapes("fire"))
    with pytest.raises(ValueError):
        K.organisation_shapes("restaurant")
    with pytest.raises(ValueError):
        K.organisation_shapes(position="inside")


def test_lookups_load_once():
    F.zipf("the")
    F.surname_count("smith")
    before = (F._zipf_table.cache_info().misses, F._surnames.cache_info().misses)
    for w in ("Restless", "Garcia", "Quarry"):
        F.zipf(w)
        F.surname_rank(w)
    assert (F._zipf_table.cache_info().misses, F._surnames.cache_info().misses) == before
