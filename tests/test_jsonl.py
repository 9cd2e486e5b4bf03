"""The one JSONL reader and writer (deid_core.jsonl): lines split on \\n only, strict JSON."""
import io
import json

import pytest

from deid_core import jsonl
from deid_core.readers import parse_jsonl


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c", "\r"])
def test_line_separators_inside_strings_do_not_split(sep):
    rows = [{"id": 1, "text": f"a{sep}b"}, {"id": 2, "text": "c"}]
    text = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n"
    assert jsonl.parse(text) == rows
    assert [l.value for l in jsonl.read_file(io.BytesIO(text.encode("utf-8")))] == rows
    assert [d.text for d in parse_jsonl(text)] == [f"a{sep}b", "c"]


def test_crlf_bom_and_blank_lines():
    text = '\ufeff{"a": 1}\r\n\r\n   \n{"a": 2}'
    assert [(l.number, l.value) for l in jsonl.records([text])] == [(1, {"a": 1}), (4, {"a": 2})]
    assert [l.value for l in jsonl.records([text.encode("utf-8")])] == [{"a": 1}, {"a": 2}]


@pytest.mark.parametrize("line,needle", [
    ('{"a": NaN}', "NaN"), ('{"a": -Infinity}', "Infinity"), ("{broken", "not JSON"),
])
def test_strict_json_errors_are_per_line(line, needle):
    got = list(jsonl.records([f'{line}\n{{"ok": 1}}\n']))
    assert needle in got[0].error and got[0].value is None and got[1].value == {"ok": 1}
    with pytest.raises(ValueError, match=":1: "):
        jsonl.parse(line)


@pytest.mark.parametrize("line, error", [
    ('{"id": "n1", "text": "Seen by Dr. Ha',
     "not JSON: Unterminated string starting at column 22; the line ends early (cut off?)"),
    ('{"id": "n1", "text": "ok"', "not JSON: Expecting ',' delimiter at column 26; the line ends "
                                  "early (cut off?)"),
    ('{"id": "n1" "text": "ok"}', "not JSON: Expecting ',' delimiter at column 13"),
    ('{"id": "n1", "text": "ok"} x', "not JSON: Extra data at column 28"),
])
def test_a_bad_line_says_where_and_whether_it_is_cut_off(line, error):
    assert [l.error for l in jsonl.records([line])] == [error]


def test_bad_utf8_is_reported_not_raised():
    got = list(jsonl.records([b'\xff\n{"ok": 1}\n']))
    assert "not UTF-8" in got[0].error and got[1].value == {"ok": 1}


def test_dumps_is_strict_and_always_encodable():
    assert jsonl.dumps({"t": "é\u2028"}) == '{"t": "é\u2028"}'
    assert jsonl.dumps({"t": "\ud800"}) == '{"t": "\\ud800"}'
    with pytest.raises(ValueError):
        jsonl.dumps({"x": float("nan")})
