"""Redaction with category tags (deid_core.write.redact, Span.tag)."""
import pytest
from hypothesis import given, settings, strategies as st

from deid_core.analyze import Analysis
from deid_core.spans import Span
from deid_core.write import redact


def A(text, *spans):
    return Analysis(text, tuple(spans), tuple(spans))


@pytest.mark.parametrize("analysis,expected", [
    (A("John Smith seen 3/5/2014.", Span(0, 10, "PATIENT"), Span(16, 24, "DATE")),
     "[NAME] seen [DATE]."),
    (A("Lives in Boston, MA 02115", Span(9, 15, "CITY"), Span(17, 19, "STATE"), Span(20, 25, "ZIP")),
     "Lives in [LOCATION], [LOCATION] [LOCATION]"),
    (A("Age 92, call 555-0142, MRN 12345", Span(4, 6, "AGE"), Span(13, 21, "PHONE"), Span(27, 32, "MEDICALRECORD")),
     "Age [AGE], call [CONTACT], MRN [ID]"),
    (A("works as a welder", Span(11, 17, "PROFESSION")), "works as a [PROFESSION]"),
    (A("nothing here"), "nothing here"),
    (A("Parkinson disease, Foley catheter", Span(0, 9, "PATIENT", "review")), "[NAME] disease, Foley catheter"),
])
def test_redact_table(analysis, expected):
    assert redact(analysis).text == expected


def test_review_spans_kept_when_excluded():
    a = A("Dr. Foley placed it on 3/5", Span(4, 9, "DOCTOR", "review"), Span(23, 26, "DATE"))
    r = redact(a, include_review=False)
    assert r.text == "Dr. Foley placed it on [DATE]"
    assert [p.replaced for p in r.placed] == [False, True]
    assert r.text[r.placed[0].out_start:r.placed[0].out_end] == "Foley"


def test_tag():
    assert Span(0, 1, "IPADDR").tag == "[CONTACT]" and Span(0, 1, "VEHICLE").tag == "[ID]"
    assert Span(0, 1, "DOCTOR").tag == "[NAME]" and Span(0, 1, "ZIP").tag == "[LOCATION]"


def test_overlapping_spans_rejected():
    with pytest.raises(ValueError):
        redact(A("abcdef", Span(0, 3, "DATE"), Span(2, 4, "DATE")))


plain = st.text(alphabet="abc XYZ.,\n\t", max_size=8)
phi = st.text(alphabet="0123456789-/", min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(plain, phi), max_size=6), plain)
def test_redacted_output_contains_no_span_text(pieces, tail):
    text, spans, expected = "", [], ""
    for before, secret in pieces:
        text += before
        spans.append(Span(len(text), len(text) + len(secret), "IDNUM"))
        text += secret
        expected += before + "[ID]"
    text += tail
    expected += tail
    r = redact(A(text, *spans))
    assert r.text == expected
    assert not any(c.isdigit() for c in r.text)
    for p in r.placed:
        assert r.text[p.out_start:p.out_end] == "[ID]"
