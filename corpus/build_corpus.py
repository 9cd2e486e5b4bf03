"""Build the annotated corpus ``corpus/notes.jsonl`` from hand-written sources and templates.

Inputs:

* ``corpus/src/*.notes`` (UTF-8, LF line ends), read in sorted file-name order. Each note
  starts with a header line ``=== id: <id> | type: <note_type>``, optionally followed by
  ``| crlf`` (the note's line ends become CRLF in the output). The note text is every line up
  to the next header or the end of the file, with exactly one trailing ``"\\n"`` removed. Lines
  before the first header must be empty or start with ``#`` (comments). PHI is marked inline as
  ``⟦LABEL|text⟧`` (U+27E6, U+27E7); the markup may span a line break. LABEL is an i2b2 2014
  subtype, a key of :data:`deid_core.spans.LABELS`.
* ``corpus/generate.py`` if present: its ``generate() -> list[dict]`` returns template notes,
  each ``{"id", "note_type", "text", "spans"}`` with spans ``{"start", "end", "label"}``.

Output: ``corpus/notes.jsonl``, one JSON object a line, keys in the order
``id, note_type, text, spans, origin`` (``origin`` is ``"hand-written"`` or ``"template"``),
spans sorted by offset with keys ``start, end, label``. Hand-written notes come first (file
order, then order in the file), then template notes in ``generate()`` order. The output is
deterministic: the same sources give the same bytes.

Command line::

    python corpus/build_corpus.py          # write corpus/notes.jsonl
    python corpus/build_corpus.py --check  # exit 1 if notes.jsonl is not what the sources give
    python corpus/build_corpus.py --varied [--check]   # the same for corpus/varied/ (see VARIED_DIR)
"""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent
SRC_DIR = CORPUS_DIR / "src"
OUT_PATH = CORPUS_DIR / "notes.jsonl"
GENERATOR_PATH = CORPUS_DIR / "generate.py"
#: The varied development set (``corpus/varied/``): invented notes of other note types from many
#: hospitals, written from a description of the note types and of Safe Harbor only, by writers who
#: had not read the engine's rules. For measuring: never trained on, no templates.
VARIED_DIR = CORPUS_DIR / "varied"
VARIED_SRC_DIR = VARIED_DIR / "src"
VARIED_OUT_PATH = VARIED_DIR / "notes.jsonl"

try:  # the repository root on the path when run as a script
    from deid_core.spans import LABELS
except ImportError:  # pragma: no cover - running from a checkout without `pip install -e .`
    sys.path.insert(0, str(CORPUS_DIR.parent))
    from deid_core.spans import LABELS

OPEN, SEP, CLOSE = "\u27e6", "|", "\u27e7"
MARKUP_CHARS = (OPEN, CLOSE)

HEADER_RE = re.compile(r"^=== id: (?P<id>[A-Za-z0-9_.\-]+) \| type: (?P<type>[a-z][a-z0-9_]*)"
                       r"(?P<crlf> \| crlf)?[ \t]*$")
LABEL_RE = re.compile(r"[A-Z][A-Z\-]*\Z")
NOTE_TYPE_RE = re.compile(r"[a-z][a-z0-9_]*\Z")

#: Note types the hand-written corpus must cover (the test checks each is present).
REQUIRED_NOTE_TYPES: tuple[str, ...] = (
    "progress_note", "discharge_summary", "emergency", "telephone", "radiology", "pathology",
    "ecg", "lab_comment", "anticoagulation", "nursing", "referral_letter", "signature_block",
)


class CorpusError(ValueError):
    """A source note or generated note breaks the corpus format; the message says where and why."""


def parse_markup(marked: str, where: str = "<note>") -> tuple[str, list[dict]]:
    """Strip ``⟦LABEL|text⟧`` markup.

    Args:
        marked: note text with inline markup.
        where: a name for error messages (note id, file and line).

    Returns:
        ``(plain_text, spans)``; spans are ``{"start", "end", "label"}`` dicts with half-open
        character offsets into ``plain_text``, in text order.

    Raises:
        CorpusError: unbalanced or nested brackets, a missing ``|``, an unknown label, an empty span.
    """
    out: list[str] = []
    spans: list[dict] = []
    pos = 0  # length of plain text so far
    i = 0
    n = len(marked)
    while i < n:
        j = marked.find(OPEN, i)
        k = marked.find(CLOSE, i)
        if k != -1 and (j == -1 or k < j):
            raise CorpusError(f"{where}: closing {CLOSE} without opening at char {k}")
        if j == -1:
            out.append(marked[i:])
            break
        out.append(marked[i:j])
        pos += j - i
        bar = marked.find(SEP, j + 1)
        end = marked.find(CLOSE, j + 1)
        nxt = marked.find(OPEN, j + 1)
        if end == -1:
            raise CorpusError(f"{where}: unclosed {OPEN} at char {j}")
        if nxt != -1 and nxt < end:
            raise CorpusError(f"{where}: nested {OPEN} at char {nxt}")
        if bar == -1 or bar > end:
            raise CorpusError(f"{where}: markup at char {j} has no '|' after its label")
        label = marked[j + 1:bar]
        if not LABEL_RE.match(label) or label not in LABELS:
            raise CorpusError(f"{where}: unknown label {label!r} at char {j}")
        body = marked[bar + 1:end]
        if not body:
            raise CorpusError(f"{where}: empty {label} span at char {j}")
        out.append(body)
        spans.append({"start": pos, "end": pos + len(body), "label": label})
        pos += len(body)
        i = end + 1
    return "".join(out), spans


def parse_notes(text: str, source: str = "<string>") -> list[dict]:
    """Parse the contents of one ``.notes`` file.

    Args:
        text: the file's contents (str, LF line ends).
        source: file name for error messages.

    Returns:
        list of ``{"id", "note_type", "text", "spans", "origin": "hand-written"}`` in file order.

    Raises:
        CorpusError: a CR character, text before the first header, a malformed header, bad markup.
    """
    if "\r" in text:
        raise CorpusError(f"{source}: carriage return found; source files use LF (mark a note '| crlf')")
    lines = text.split("\n")
    if lines and lines[-1] == "":  # the file's final "\n" ends the last note's last line
        lines.pop()
    notes: list[dict] = []
    current: dict | None = None
    body: list[str] = []

    def finish() -> None:
        if current is None:
            return
        # Joining the lines drops the line break before the next header: exactly one "\n".
        raw = "\n".join(body)
        if current["crlf"]:
            raw = raw.replace("\n", "\r\n")
        where = f"{source}:{current['line']} ({current['id']})"
        plain, spans = parse_markup(raw, where)
        notes.append({"id": current["id"], "note_type": current["type"], "text": plain,
                      "spans": spans, "origin": "hand-written"})

    for lineno, line in enumerate(lines, 1):
        if line.startswith("==="):
            m = HEADER_RE.match(line)
            if not m:
                raise CorpusError(f"{source}:{lineno}: malformed header {line!r}")
            finish()
            current = {"id": m["id"], "type": m["type"], "crlf": bool(m["crlf"]), "line": lineno}
            body = []
        elif current is None:
            if line.strip() and not line.startswith("#"):
                raise CorpusError(f"{source}:{lineno}: text before the first header")
        else:
            body.append(line)
    finish()
    return notes


def validate_note(note: dict) -> None:
    """Check one note dict against the corpus rules.

    Raises:
        CorpusError: missing keys, empty text, markup characters left in the text, a bad note
            type, or a span that is out of bounds, empty, unknown-labelled, unsorted,
            overlapping, or starts or ends with whitespace.
    """
    for key in ("id", "note_type", "text", "spans"):
        if key not in note:
            raise CorpusError(f"note {note.get('id')!r}: missing key {key!r}")
    nid, text = note["id"], note["text"]
    if not isinstance(nid, str) or not nid:
        raise CorpusError(f"note id must be a non-empty string, got {nid!r}")
    if not isinstance(text, str) or not text.strip():
        raise CorpusError(f"note {nid}: empty text")
    if not isinstance(note["note_type"], str) or not NOTE_TYPE_RE.match(note["note_type"]):
        raise CorpusError(f"note {nid}: bad note_type {note['note_type']!r}")
    for ch in MARKUP_CHARS:
        if ch in text:
            raise CorpusError(f"note {nid}: markup character {ch!r} left in text at {text.index(ch)}")
    prev_end = 0
    for sp in note["spans"]:
        s, e, label = sp.get("start"), sp.get("end"), sp.get("label")
        if not (isinstance(s, int) and isinstance(e, int) and 0 <= s < e <= len(text)):
            raise CorpusError(f"note {nid}: span {sp} out of bounds (text length {len(text)})")
        if label not in LABELS:
            raise CorpusError(f"note {nid}: span {sp} has unknown label")
        if s < prev_end:
            raise CorpusError(f"note {nid}: span {sp} overlaps or is out of order")
        piece = text[s:e]
        if piece != piece.strip():
            raise CorpusError(f"note {nid}: span {sp} {piece!r} has leading/trailing whitespace")
        prev_end = e


def _load_generator():
    """Import ``corpus/generate.py`` by path (None when absent)."""
    if not GENERATOR_PATH.exists():
        return None
    if str(CORPUS_DIR) not in sys.path:
        sys.path.insert(0, str(CORPUS_DIR))
    spec = importlib.util.spec_from_file_location("corpus_generate", GENERATOR_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_notes(src_dir: Path | None = None, with_templates: bool = True) -> list[dict]:
    """All corpus notes, validated, in output order.

    Args:
        src_dir: folder of ``*.notes`` files (default ``corpus/src``).
        with_templates: include ``generate.py``'s notes when that file exists.

    Returns:
        list of note dicts with keys ``id, note_type, text, spans, origin``.

    Raises:
        CorpusError: any invalid note, or an id used twice.
    """
    src_dir = SRC_DIR if src_dir is None else Path(src_dir)
    notes: list[dict] = []
    for path in sorted(src_dir.glob("*.notes"), key=lambda p: p.name):
        notes.extend(parse_notes(path.read_text(encoding="utf-8"), source=path.name))
    if with_templates:
        gen = _load_generator()
        if gen is not None:
            for item in gen.generate():
                spans = sorted(({"start": int(s["start"]), "end": int(s["end"]), "label": s["label"]}
                                for s in item["spans"]), key=lambda s: (s["start"], s["end"]))
                notes.append({"id": item["id"], "note_type": item["note_type"], "text": item["text"],
                              "spans": spans, "origin": "template"})
    seen: set[str] = set()
    for note in notes:
        validate_note(note)
        if note["id"] in seen:
            raise CorpusError(f"duplicate note id {note['id']!r}")
        seen.add(note["id"])
    return [{"id": n["id"], "note_type": n["note_type"], "text": n["text"],
             "spans": [{"start": s["start"], "end": s["end"], "label": s["label"]} for s in n["spans"]],
             "origin": n["origin"]} for n in notes]


def render_jsonl(notes: list[dict]) -> str:
    """Serialise notes to JSONL text (UTF-8 characters kept, one note a line, final newline)."""
    return "".join(json.dumps(n, ensure_ascii=False, sort_keys=False) + "\n" for n in notes)


def load_corpus(path: str | Path | None = None) -> list[dict]:
    """Read a corpus JSONL file (default ``corpus/notes.jsonl``).

    Returns:
        list of note dicts ``{"id", "note_type", "text", "spans", "origin"}`` in file order.

    Raises:
        FileNotFoundError: the file is missing. json.JSONDecodeError: a line is not JSON.
    """
    path = OUT_PATH if path is None else Path(path)
    with open(path, encoding="utf-8", newline="") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` verify) ``corpus/notes.jsonl`` (with ``--varied``:
    ``corpus/varied/notes.jsonl`` from ``corpus/varied/src``, no templates); returns the exit
    status."""
    argv = sys.argv[1:] if argv is None else argv
    if "--varied" in argv:
        notes, out_path = build_notes(VARIED_SRC_DIR, with_templates=False), VARIED_OUT_PATH
    else:
        notes, out_path = build_notes(), OUT_PATH
    data = render_jsonl(notes)
    hand = sum(n["origin"] == "hand-written" for n in notes)
    if "--check" in argv:
        current = out_path.read_bytes() if out_path.exists() else b""
        if current != data.encode("utf-8"):
            again = "python corpus/build_corpus.py" + (" --varied" if "--varied" in argv else "")
            print(f"{out_path} is out of date; run {again}", file=sys.stderr)
            return 1
        print(f"{out_path}: up to date ({len(notes)} notes, {hand} hand-written)")
        return 0
    out_path.write_bytes(data.encode("utf-8"))
    nspans = sum(len(n["spans"]) for n in notes)
    print(f"wrote {out_path}: {len(notes)} notes ({hand} hand-written), {nspans} spans")
    return 0


if __name__ == "__main__":
    sys.exit(main())
