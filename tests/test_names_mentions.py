"""Later mentions of a found name and the name parts around ``LAST, FIRST`` (issue 22 items
2 and 3, the detector round): document consistency spreads a found name to its other cases
(``BAKER``, ``patel``, ``WU``) and to the full name written again (``Faith Okafor tolerated``),
never to a given name that is an ordinary word in lower case (``hope for``, ``will mark``), a clinical use
(``NG tube``) or a part of an address; ``LAST, FIRST`` takes its particles (``de la Cruz,
Maria``), not a relation word (``Son, Marcus``); a given name before an identifier label
(``RAYMOND MRN``) is a name without the label. Every name here is invented.
"""
import pytest

from deid_core import analyze
from deid_core.api import process


def _out(text: str, review: bool = False) -> str:
    return process(text, "redact", mask_review=review)["output"]


def _touched(text: str, word: str, names_only: bool = False) -> bool:
    """A span (a name span, with ``names_only``) touches the first ``word`` of ``text``."""
    a = text.index(word)
    return any(s.start < a + len(word) and a < s.end for s in analyze(text).spans
               if not names_only or s.category == "NAME")


@pytest.mark.parametrize("text,gone", [
    ("Patient: Ilse Baker.\nBAKER AMBULATING IN HALL.", "BAKER"),
    ("Name: Tariq Haddad, MRN 5510284.\nlater haddad asked for water.", "haddad"),
    ("Pt: Lan Wu, MRN 2208817.\nPERRL.\nWU RESTING COMFORTABLY.", "WU"),
    ("Patient: Mei Ng.\nNG STABLE OVERNIGHT.", "NG STABLE"),
    ("Pt: Faith Okonjo, MRN 3307125.\nFaith Okonjo tolerated the dressing change.", "Faith"),
    ("Pt: Will Ferrante, MRN 6641022.\nWill Ferrante walked 50 feet.", "Will"),
])
def test_a_later_mention_in_another_case_is_masked(text, gone):
    assert gone not in _out(text).split("\n", 1)[1]


@pytest.mark.parametrize("text,stay", [
    ("Patient: Hope Rivera.\nWe hope for discharge tomorrow.", "hope for"),
    ("will mark the site; John Mark Smith agreed.", "mark the site"),
    ("Pt: Mei Ng, MRN 2208817.\nNG tube to low suppression.", "NG tube"),
    ("Pt: Eamon Rourke, MRN 4417730.\nWill follow up in clinic.", "Will follow"),
    ("Dr. Wendell Dunleavy signed.\nwendell.dunleavy@example.org", "wendell.dunleavy"),
    ("Patient: Mark Osei.\nplease mark the left knee.", "mark the"),
])
def test_an_ordinary_word_is_not_spread(text, stay):
    assert not _touched(text, stay.split()[0].split(".")[0], names_only=True)


@pytest.mark.parametrize("text,gone", [
    ("Patient: de la Cruz, Maria. 44 yo on metformin.", ["de la", "Cruz", "Maria"]),
    ("DE LOS SANTOS, MARIA MRN 3302917", ["DE LOS", "SANTOS", "MARIA"]),
    ("Seen: van der Berg, Anouk (MRN 7720034).", ["van der", "Berg", "Anouk"]),
    ("SMITH, JOHN MRN 4471203. Smith reports pain.", ["SMITH", "JOHN", "Smith"]),
])
def test_last_first_takes_its_particles(text, gone):
    out = _out(text)
    assert [g for g in gone if g in out] == []


@pytest.mark.parametrize("text,stay,name", [
    ("Son, Marcus at bedside.", "Son", "Marcus"),
    ("Daughter, Ines called twice.", "Daughter", "Ines"),
    ("Brother, Tobias updated by phone.", "Brother", "Tobias"),
])
def test_a_relation_word_before_a_comma_is_no_surname(text, stay, name):
    assert not _touched(text, stay) and name not in _out(text)


@pytest.mark.parametrize("text,gone,stay", [
    ("PATIENT: TWO BULLS, RAYMOND      SSN: 900-23-6618", "RAYMOND", "SSN"),
    ("Ó BRIAIN, MARGARET MRN 3302917.", "MARGARET", "MRN"),
    ("pt: bautista, rosa elena   mrn mc00382914", "elena", "mrn"),
])
def test_a_given_name_before_an_identifier_label(text, gone, stay):
    out = _out(text, review=True)
    assert gone not in out and stay in out and not _touched(text, stay)


@pytest.mark.parametrize("text,stay", [
    ("Pharmacy who will fax MAR today.", "will fax"),
    ("Glasgow Coma Scale 15; Foley catheter MRN label checked.", "Foley catheter"),
    ("Parkinson disease; plan per neurology.", "Parkinson disease"),
])
def test_no_name_before_an_identifier_label_word(text, stay):
    assert not _touched(text, stay.split()[0])


@pytest.mark.parametrize("text,gone", [
    ("|Okonjo|Faith|5510284|", ["Okonjo", "Faith"]),
    ("| Haddad | Tariq | 2208817 |", ["Haddad", "Tariq"]),
    ("Lindqvist,Ebba,6641022\nFerrante,Luca,4417730", ["Lindqvist", "Ebba", "Ferrante", "Luca"]),
    ("Name\tMRN\nKowalczyk, Tomasz\t3302917", ["Kowalczyk", "Tomasz"]),
])
def test_a_table_row_of_a_record_is_a_name(text, gone):
    out = _out(text)
    assert [g for g in gone if g in out] == [] and out.count("|") == text.count("|")


@pytest.mark.parametrize("text", [
    "|Metoprolol|25 mg|BID|",
    "|Lasix|Foley|12345|",
    "Tylenol,Motrin,Advil",
    "| Parkinson | Graves | 20931 |",
    "| Rehab | Rhonda Tillman | declined |",
])
def test_a_table_row_without_a_record_is_not_a_last_first(text):
    assert not any(s.source.startswith("names:last_first") for s in analyze(text).spans)


@pytest.mark.parametrize("text,gone", [
    ("Sons Ravi and Dev at bedside.", ["Ravi", "Dev"]),
    ("DAUGHTERS NIAMH AND ART VISITED.", ["NIAMH", "ART"]),
    ("Grandsons Tobias and Will called the unit.", ["Tobias", "Will"]),
])
def test_a_relation_list_takes_a_given_name_that_is_a_word_last(text, gone):
    """Issue 20: after the list's ``and`` an ordinary word that is a given name is a name."""
    out = _out(text)
    assert [g for g in gone if g in out] == []


@pytest.mark.parametrize("text,stay", [
    ("Sons Ravi and Will follow up in clinic.", "Will follow"),
    ("Sons at home and well.", "home"),
    ("Daughters Rose and Hope visited; Foley catheter in place.", "Foley catheter"),
])
def test_a_relation_list_leaves_a_verb_reading(text, stay):
    assert not any(s.source.startswith("names:relation_list") and text[s.start:s.end] in stay
                   for s in analyze(text).spans)
