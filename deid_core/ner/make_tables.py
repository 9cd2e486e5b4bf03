"""Developer script: regenerate :mod:`deid_core.ner._tables` from HuggingFace ``tokenizers``.

Not used at run time. Run ``python -m deid_core.ner.make_tables PATH/tokenizer.json`` with the
``tokenizers`` package installed; it rewrites ``deid_core/ner/_tables.py``.

Why tables instead of :mod:`unicodedata`: ``tokenizers`` decides "control", "non-spacing mark"
and "punctuation" from its own, older Unicode tables, while CPython 3.11 ships Unicode 14 and
Pyodide's CPython 3.14 Unicode 16. Characters assigned since the library's tables were made are
ordinary word characters to ``tokenizers`` but marks or punctuation to :mod:`unicodedata`. So the
behaviour is measured once, per code point, on the library itself: each code point ``c`` is
encoded inside ``"a" + c + "b"`` and sorted into

* ``GONE``: ``c`` vanishes (controls, format characters, private use, non-spacing marks);
* ``ALONE``: ``c`` becomes a token of its own (punctuation; CJK ideographs are left out, they
  are a fixed list of blocks in :mod:`deid_core.ner.wordpiece`).

The page and the CLI then agree with each other and with ``tokenizers`` whatever Unicode version
their Python has (except for lowercasing and NFD of characters new since Unicode 14).
"""
from __future__ import annotations

import sys
from pathlib import Path


def _ranges(cps: list[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for c in cps:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return [(a, b) for a, b in out]


def classify(tokenizer) -> tuple[list[int], list[int]]:
    """Return the code points ``tokenizers`` drops (GONE) and isolates (ALONE, CJK excluded).

    Args:
        tokenizer: a path to a ``tokenizer.json``, or a ``tokenizers.Tokenizer``.
    Raises:
        ImportError: without the ``tokenizers`` package.
    """
    from tokenizers import Tokenizer  # dev-only dependency

    from .wordpiece import _is_cjk

    tk = Tokenizer.from_file(str(tokenizer)) if isinstance(tokenizer, (str, Path)) else tokenizer
    tk.no_truncation()
    tk.no_padding()
    tk.encode_special_tokens = True
    cps = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    gone: list[int] = []
    alone: list[int] = []
    step = 50_000
    for k in range(0, len(cps), step):
        chunk = cps[k:k + step]
        encs = tk.encode_batch(["a" + chr(c) + "b" for c in chunk], add_special_tokens=False)
        for c, e in zip(chunk, encs):
            if e.tokens == ["ab"]:
                gone.append(c)
            elif e.word_ids == [0, 1, 2] and tuple(e.offsets[1]) == (1, 2) and not _is_cjk(c):
                alone.append(c)
    return gone, alone


def render(gone: list[int], alone: list[int], origin: str) -> str:
    """Python source of the ``_tables`` module."""
    def fmt(cps: list[int]) -> str:
        parts = [f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in _ranges(cps)]
        lines, line = [], ""
        for p in parts:
            if len(line) + len(p) + 1 > 92:
                lines.append(line)
                line = ""
            line += p + " "
        lines.append(line)
        return "\n".join('    "' + ln + '"' for ln in lines)

    return (
        '"""Code-point tables for :mod:`deid_core.ner.wordpiece` (generated, do not edit).\n\n'
        f"Made by ``python -m deid_core.ner.make_tables`` from {origin}: hexadecimal ranges\n"
        "``first-last`` (or a single code point) separated by spaces. GONE: characters the BERT\n"
        "normalizer removes (controls, format, private use, non-spacing marks). ALONE: characters\n"
        "split off as tokens of their own (punctuation), CJK ideographs excluded.\n"
        '"""\n\n'
        f"GONE = (\n{fmt(gone)}\n)\n\nALONE = (\n{fmt(alone)}\n)\n"
    )


def main(argv: list[str] | None = None) -> int:
    """CLI entry: ``make_tables TOKENIZER_JSON [ORIGIN_TEXT]``; rewrites ``_tables.py``."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m deid_core.ner.make_tables PATH/tokenizer.json [origin text]",
              file=sys.stderr)
        return 2
    import tokenizers

    origin = args[1] if len(args) > 1 else f"tokenizers {tokenizers.__version__}"
    gone, alone = classify(args[0])
    out = Path(__file__).with_name("_tables.py")
    out.write_text(render(gone, alone, origin), encoding="utf-8")
    print(f"wrote {out}: {len(gone)} GONE, {len(alone)} ALONE code points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
