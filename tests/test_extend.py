"""Post-resolution candidates (deid_core.extend): other copies of a certain identifier are
masked too (issue 11 item 6). Invented values; what must stay unmasked is listed as well."""
import pytest

from deid_core import analyze
from deid_core.write import redact


@pytest.mark.parametrize("text,value,count", [
    ("SSN 123-45-6789, re-entered as 123-45-6789-", "123-45-6789", 2),
    ("Call 617-555-0142 or Dr.617-555-0142", "617-555-0142", 2),
    ("Email a.lee@example.com; cc:a.lee@example.com", "a.lee@example.com", 2),
    ("MRN: 4471203. Specimen ref4471203x", "4471203", 2),
])
def test_redact_leaves_no_second_copy_of_a_certain_value(text, value, count):
    a = analyze(text)
    assert sum(text[s.start:s.end].find(value) >= 0 for s in a.spans) >= count
    assert value not in redact(a).text


@pytest.mark.parametrize("text,kept", [
    ("On a Foley catheter 16 Fr, Glasgow Coma Scale 15; Foley catheter 16 Fr again", "Glasgow Coma Scale 15"),
    ("Metoprolol 25 mg twice daily; metoprolol 25 mg at night", "25 mg"),   # doses are no ids
])
def test_repeats_add_nothing_to_clinical_text(text, kept):
    a = analyze(text)
    assert not any("repeat_of_certain" in s.source for s in a.spans)
    assert kept in redact(a).text


def test_a_short_value_is_not_searched_again():
    text = "Room 12345 then 12345 steps"   # under MIN_REPEAT_CHARS
    a = analyze(text)
    assert not any("repeat_of_certain" in s.source for s in a.spans)
