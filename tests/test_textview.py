"""Detection on a normalised view (issue 11 item 9): invisible characters, look-alike dashes
and spaces, percent-encoding and upper-case schemes do not hide an identifier, and spans cover
the original characters exactly. Invented values."""
import re

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


# --- ASCII twins (speed): on a plain ASCII note a regex compiled with re.ASCII finds the same ---

from deid_core.document import WORD_RE, Document  # noqa: E402
from deid_core.detectors import contact, dates, ids  # noqa: E402
from deid_core.textview import ascii_twin, plain_ascii  # noqa: E402

#: Invented ASCII text of the kinds the detectors read: dates, numbers, labels, contact, case.
TWIN_TEXTS = [
    "Seen 3/4/2014 by Dr. O'Brien-Hale; MRN# 0045-2231, SSN 123-45-6789, ph (617) 555-0199 x12.",
    "ADMITTED MARCH 5TH, 2019. BP 132/84, HR 88, PS 10/5 40%, GCS 3/15, Tues 11/10 @ 14:30.",
    "email a.lee@example.org  www.example.com/x?y=1  ip 10.0.0.1/24 fe80::1%eth0 K k s S i I",
    "  \t\n\r\x0b\x0c tabs and feeds; _under_score_ 12_34 x2 q4h CABG X2 99' MI 93 in 80's",
    "Christmas 2019, 05-MAR-2014, 12th of march, Sept '19, 19500302, 2014-03-05T14:30:00-05:00",
]
TWIN_REGEXES = [WORD_RE] + [p.regex for p in dates.PATTERNS + ids.PATTERNS + contact.PATTERNS]


@pytest.mark.parametrize("text", TWIN_TEXTS)
@pytest.mark.parametrize("rx", TWIN_REGEXES, ids=lambda rx: rx.pattern[:30])
def test_ascii_twin_finds_what_the_regex_finds_on_plain_ascii(rx, text):
    assert plain_ascii(text)
    twin = ascii_twin(rx)
    assert [(m.span(), m.groups()) for m in twin.finditer(text)] == \
        [(m.span(), m.groups()) for m in rx.finditer(text)]
    for i in range(0, len(text), 7):
        a, b = twin.match(text, i), rx.match(text, i)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))


@pytest.mark.parametrize("text,plain", [
    ("", True), ("BP 120/80\n", True), ("Nguyễn", False), ("a\u2019b", False),
    ("a\x1cb", False), ("a\x1fb", False), ("a\x1bb", True),
])
def test_plain_ascii(text, plain):
    assert plain_ascii(text) is plain


def test_the_separators_are_why_plain_ascii_excludes_them():
    rx = re.compile(r"a\sb")
    assert rx.search("a\x1cb") and not ascii_twin(rx).search("a\x1cb")


@pytest.mark.parametrize("src,flags", [
    ("(?i)\u017fsh", 0), (r"\u017f", re.I), (r"[\x00-\xff]", 0), (r"\N{LATIN SMALL LETTER E WITH ACUTE}", 0),
])
def test_no_twin_when_the_source_could_reach_ascii_from_outside(src, flags):
    rx = re.compile(src, flags)
    assert ascii_twin(rx) is rx


def test_a_twin_keeps_the_other_flags():
    rx = re.compile(r"(?m)^mrn\b", re.I)
    twin = ascii_twin(rx)
    assert twin is not rx and twin.flags & re.ASCII and twin.flags & re.I and twin.flags & re.M
    assert twin.findall("x\nMRN 1\nmrn") == rx.findall("x\nMRN 1\nmrn") == ["MRN", "mrn"]


_GREEDY_WORD_RE = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")   # WORD_RE before its runs were possessive


@pytest.mark.parametrize("text", TWIN_TEXTS + [
    "O’Sullivan-Reyes, Nguyễn; don't -x- a--b a'-b 'quoted' end-", "x'", "-'-", "Roux-en-Y", ""])
def test_word_re_finds_the_greedy_forms_tokens(text):
    assert [m.span() for m in WORD_RE.finditer(text)] == [m.span() for m in _GREEDY_WORD_RE.finditer(text)]
    assert [t.word for t in Document(text).tokens] == _GREEDY_WORD_RE.findall(text)


# -- issue 22 item 5: digits of any script, fullwidth forms, decomposed accents ------------------
import unicodedata  # noqa: E402

#: Digits 0-9 in other scripts, each one character per ASCII digit (so offsets agree).
DIGIT_SETS = {
    "fullwidth": "０１２３４５６７８９",
    "arabic_indic": "٠١٢٣٤٥٦٧٨٩",
    "extended_arabic_indic": "۰۱۲۳۴۵۶۷۸۹",
    "devanagari": "०१२३४५६७८९",
}
#: Invented notes whose identifiers hold digits, and clinical values that must stay as they are.
DIGIT_NOTES = [
    "DOB 03/05/1950. Seen 4/12/2019 for follow-up.",
    "SSN 456-78-9012, MRN 4471203, acct 88213047.",
    "Call 617-555-0142 or fax (617) 555-0199 today.",
    "Admitted 2014-03-05, discharged March 9, 2014; 78 yo man.",
    "Metoprolol 25 mg twice daily, BP 132/84, HR 72, Hb 12.5 g/dL.",   # nothing to mask
    "PEEP 5, FiO2 40%, GCS 15, lactate 2.1 at 0600.",                  # nothing to mask
]


def _spans(text):
    return [(s.start, s.end, s.label, s.tier) for s in analyze(text).spans]


@pytest.mark.parametrize("script", sorted(DIGIT_SETS))
@pytest.mark.parametrize("note", DIGIT_NOTES)
def test_digits_of_any_script_give_the_ascii_spans_and_tiers(note, script):
    """Fullwidth SSN, phone and MRN were amber, or not found, where the ASCII and Arabic-Indic
    ones were certain; now every digit script reads as ASCII, so spans, labels and tiers agree
    (and the clinical values stay unmasked in every script)."""
    other = note.translate(str.maketrans("0123456789", DIGIT_SETS[script]))
    assert _spans(other) == _spans(note)


@pytest.mark.parametrize("text,value,label", [
    ("DOB ０３/０５/１９５０", "０３/０５/１９５０", "DATE"),
    ("Email john.smith＠example.com today", "john.smith＠example.com", "EMAIL"),
    ("SSN ４５６－７８－９０１２ on file", "４５６－７８－９０１２", "SSN"),
    ("Call ６１７／５５５－０１４２", "６１７／５５５－０１４２", "PHONE"),
    ("Contact a.lee﹫example.org", "a.lee﹫example.org", "EMAIL"),
])
def test_fullwidth_and_small_forms_are_found_whole(text, value, label):
    got = [(text[s.start:s.end], s.label, s.tier) for s in analyze(text).spans]
    assert (value, label, "certain") in got


DECOMPOSED_NOTES = [
    "Patient Jóhn Smith seen today.",
    "Seen with her daughter Renée Dubois.",
    "Dr. Zoë Martin reviewed the films.",
    "Patient: García, José. Allergic to penicillin.",
    "Café au lait spots noted; Ménière disease history.",               # eponym stays as before
]


@pytest.mark.parametrize("note", DECOMPOSED_NOTES)
def test_a_decomposed_accent_reads_as_the_precomposed_one(note):
    """``Jo`` + U+0301 + ``hn`` used to split the name (``Jo`` found, ``hn`` kept): now the view
    composes it, so the decomposed note gets the precomposed note's spans (offsets mapped back
    over the marks) with the same labels and tiers."""
    decomposed = unicodedata.normalize("NFD", note)
    assert decomposed != note
    got = [(unicodedata.normalize("NFC", decomposed[s.start:s.end]), s.label, s.tier)
           for s in analyze(decomposed).spans]
    want = [(note[s.start:s.end], s.label, s.tier) for s in analyze(note).spans]
    assert got == want


@pytest.mark.parametrize("text", [
    "BSA 1.9 m², WBC 10³/µL, platelets 250 ×10⁹/L",    # superscripts are units: not folded
    "½ tab daily; ① see note",                          # fractions, circled digits
    "ﬁnal report: ﬂuids restricted",                     # a ligature folds to its letters
])
def test_units_and_forms_that_are_not_digits_gain_no_span(text):
    assert analyze(text).spans == ()


@pytest.mark.parametrize("text,view", [
    ("m² 10³ ½ ①", "m² 10³ ½ ①"),
    ("０３/٠٥/१९५०", "03/05/1950"),
    ("ﬁle", "file"),
    ("Jo\u0301hn", "Jóhn"),
    ("\u0301x", "x"),                          # a mark after no letter is removed
    ("a\u0301\u0331b", "á" + "b"),             # a mark with no precomposed form is dropped
    ("Ｊ\u0301", "J"),                          # after a folded letter: joins it
])
def test_fold_view_text(text, view):
    assert normalised_view(text).text == view


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["a", "Z", "1", " ", "\u0301", "\u0308", "\u0331", "０", "٣", "＠",
                                 "ﬁ", "²", "e", ZW, EN]), max_size=30).map("".join))
def test_folded_view_maps_back_onto_the_original(text):
    view = normalised_view(text)
    n = len(view.text)
    last = 0
    for i in range(n):
        s, e = view.to_original(i, i + 1)
        assert 0 <= s < e <= len(text) and s >= last - (e - s)
        if i and view.to_original(i - 1, i) != (s, e):   # a ligature's letters share a source
            assert view.to_original(i - 1, i)[1] <= s
        last = e
