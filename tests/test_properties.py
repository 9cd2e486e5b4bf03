"""Property tests: any Unicode string is handled, and outputs keep the original outside spans.

The default run uses a small profile; the ``*_full`` copies, marked ``slow`` (run by ``-m ""``:
``.ci/run``, ``scripts/test.sh --all``), run :data:`FULL_SCALE` times as many examples per
property (the CI-sized run, with ``tests/test_fuzz_surrogate.py``); ``DEID_FUZZ=full`` makes
the default copies full too.
"""
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from deid_core import analyze
from deid_core.api import process
from deid_core.write import redact

#: How many times the default example counts the full profile runs.
FULL_SCALE = 20
_DEFAULT_SCALE = FULL_SCALE if os.environ.get("DEID_FUZZ") == "full" else 1
#: property -> (its strategies, default example count); the tests are built at the end.
PROPERTIES: dict = {}


def _examples(n: int, *strategies):
    """Register the decorated property with ``strategies`` and ``n`` default examples."""
    def register(fn):
        PROPERTIES[fn.__name__] = (fn, strategies, n)
        return fn
    return register

# Text biased towards what detectors look at: digits, separators, capitals, clinical words.
PIECES = st.sampled_from([
    "Dr. ", "Mr ", "Smith", "JOHN", "Mary", "O'Brien", "Nguyễn", " ", "\n", "\r\n", "\t", "/", "-",
    ".", ",", ":", "MRN:", "03/05/2014", "3/4", "2019", "617-555-0199", "(617)", "@", "x12",
    "March", "5th", "Parkinson", "Foley", "catheter", "92 yo", "Apt 4", "Street", "MA", "02118",
    "Hospital", "\u200b", "\x00", "👩‍⚕️", "\ud7ff", "ß", "İ",
])
NOTES = st.one_of(st.text(max_size=300), st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=60).map("".join))


@_examples(300, NOTES)
def _any_string_gives_valid_spans(text):
    a = analyze(text)
    prev_end = 0
    for s in a.spans:
        assert 0 <= s.start < s.end <= len(text)
        assert s.start >= prev_end, "final spans overlap or are unsorted"
        prev_end = s.end
    for c in a.candidates:
        assert 0 <= c.start < c.end <= len(text)
        assert c.source


@_examples(200, NOTES)
def _redacted_output_keeps_the_rest_and_hides_span_text(text):
    a = analyze(text)
    out = redact(a)
    # Rebuild the output from the original: gaps are copied verbatim, spans become tags.
    pos, pieces = 0, []
    for p in out.placed:
        pieces.append(text[pos:p.span.start])
        pieces.append(out.text[p.out_start:p.out_end])
        assert p.replaced
        assert out.text[p.out_start:p.out_end] == f"[{p.span.category}]"
        pos = p.span.end
    pieces.append(text[pos:])
    assert "".join(pieces) == out.text
    for s in a.spans:
        detected = text[s.start:s.end]
        if text.count(detected) == 1 and detected.strip() and detected not in f"[{s.category}]":
            assert detected not in out.text


@_examples(100, NOTES, st.sampled_from(["redact", "surrogate", "review"]))
def _every_mode_keeps_the_text_outside_its_spans(text, mode):
    result = process(text, mode=mode, key="property-test-key")
    out = result["output"]
    pos = out_pos = 0
    for s in result["spans"]:      # in text order, each placed after the one before
        assert pos <= s["start"] < s["end"] <= len(text)
        assert out_pos <= s["out_start"] <= s["out_end"] <= len(out)
        assert out[out_pos:s["out_start"]] == text[pos:s["start"]]   # the text between spans as written
        piece = out[s["out_start"]:s["out_end"]]
        if not s["replaced"]:
            assert piece == s["text"] == text[s["start"]:s["end"]]     # a kept amber span as written
        elif mode != "surrogate":
            assert piece == f"[{s['category']}]"
        pos, out_pos = s["end"], s["out_end"]
    assert out[out_pos:] == text[pos:]


# Any code point, lone surrogates (category Cs) included, mixed with shapes detectors find.
ANY_CODE_POINT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF,
                                                blacklist_categories=()), max_size=6)
NOTES_WITH_SURROGATES = st.lists(st.one_of(PIECES, ANY_CODE_POINT, st.just("http://x.org/"),
                                           st.just("\ud800")), max_size=40).map("".join)


@_examples(100, NOTES_WITH_SURROGATES, st.sampled_from(["k", "", "k\udc00"]))
def _surrogate_mode_accepts_lone_surrogates(text, key):
    result = process(text, mode="surrogate", key=key)
    assert isinstance(result["output"], str)


def _settings(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


for _name, (_fn, _strategies, _n) in PROPERTIES.items():
    globals()["test" + _name] = _settings(_n * _DEFAULT_SCALE)(given(*_strategies)(_fn))
    globals()["test" + _name + "_full"] = pytest.mark.slow(
        _settings(_n * FULL_SCALE)(given(*_strategies)(_fn)))
