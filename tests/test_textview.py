"""Detection on a normalised view (issue 11 item 9): invisible characters, look-alike dashes
and spaces, percent-encoding and upper-case schemes do not hide an identifier, and spans cover
the original characters exactly. Invented values."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from deid_core import analyze
from deid_core.textview import normalised_view

ZW, SHY, NBSP, NBH, EN, EM = "\u200b", "\u00ad", "\u00a0", "\u2011", "\u2013", "\u2014"


@pytest.mark.parametrize("text,value,label", [
    (f"Email r.ta{ZW}naka@example.net today", f"r.ta{ZW}naka@example.net", "EMAIL"),
    (f"Call 617{ZW}-555-0142 now", f"617{ZW}-555-0142", "PHONE"),
    (f"Patient Wil{SHY}helm Smith seen", f"Wil{SHY}helm Smith", "PATIENT"),
    (f"Call 617{NBH}555{NBH}0142", f"617{NBH}555{NBH}0142", "PHONE"),
    (f"Call 617{NBSP}555{NBSP}0142", f"617{NBSP}555{NBSP}0142", "PHONE"),
    (f"Call 617{EM}555{EM}0142", f"617{EM}555{EM}0142", "PHONE"),
    (f"SSN 123{EN}45{EN}6789", f"123{EN}45{EN}6789", "SSN"),
    (f"DOB 3{EN}5{EN}2014", f"3{EN}5{EN}2014", "DATE"),
    ("Email a.lee%40example.com today", "a.lee%40example.com", "EMAIL"),
    ("Call 617%2D555%2D0142", "617%2D555%2D0142", "PHONE"),
    ("See HTTPS://EXAMPLE.ORG/chart", "HTTPS://EXAMPLE.ORG/chart", "URL"),
])
def test_obfuscated_identifier_is_found_whole(text, value, label):
    got = [(text[s.start:s.end], s.label) for s in analyze(text).spans]
    assert (value, label) in got


@pytest.mark.parametrize("text", [
    f"Foley{NBSP}catheter 16 Fr, Glasgow Coma Scale 15, Parkinson{EN}like tremor",
    f"metoprolol 25{NBSP}mg, PEEP 5, 100%{EM}saturation",
    "discount 50%2D off",  # not joined by letters or digits on both sides: left alone
])
def test_clinical_text_with_look_alikes_gains_no_span(text):
    plain = text.replace(NBSP, " ").replace(EN, "-").replace(EM, "-")
    assert [(s.start, s.end, s.label) for s in analyze(text).spans] == \
        [(s.start, s.end, s.label) for s in analyze(plain).spans]


def test_plain_text_is_its_own_view():
    text = "Seen 03/05/2014 by Dr. Ann Lee at 617-555-0199, https://example.org/a%20b"
    view = normalised_view(text)
    assert view.identity and view.text == text


PIECES = st.sampled_from(["a", "Z", "1", "-", " ", "@", ".", "%40", "%2D", "%2d", "HTTPS://", "Http://",
                          ZW, SHY, NBSP, NBH, EN, EM, "\u2060", "\ufeff", "\u3000", "x%4", "%"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=40).map("".join))
def test_view_maps_back_onto_the_original(text):
    view = normalised_view(text)
    n = len(view.text)
    for i in range(n):
        s, e = view.to_original(i, i + 1)
        assert 0 <= s < e <= len(text)
        if i:
            assert view.to_original(i - 1, i)[1] <= s  # monotone, non-overlapping
    if n:
        assert view.to_original(0, n)[1] <= len(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["617-555-0142", "a.lee@example.com", "123-45-6789"]),
       st.lists(st.tuples(st.integers(0, 20), st.sampled_from([ZW, SHY, "\u2060", "\ufeff"])), max_size=3))
def test_invisible_characters_do_not_cut_an_identifier(value, inserts):
    chars = list(value)
    for pos, ch in sorted(inserts, reverse=True):
        chars.insert(1 + pos % (len(chars) - 1), ch)  # strictly inside the value
    hidden = "".join(chars)
    text = f"Contact: {hidden} today"
    spans = analyze(text).spans
    start = text.index(hidden)
    assert any(s.start <= start and s.end >= start + len(hidden) for s in spans), (hidden, spans)
