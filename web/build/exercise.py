"""Build-time run of every request the page makes (``web/build/precompile.mjs`` runs it in the
Pyodide the page embeds, under Node): whatever standard-library module this imports is kept in the
page's cut-down standard library, the rest is left out. Not part of the page.

``ROOT`` (a global the caller sets): the folder the page's archives were unpacked into. Every note
here is invented.
"""
import importlib
import json

import deid_page

# Modules the standard library imports lazily inside functions the engine may call on some notes
# only (date parsing, text codecs, error formatting): kept whatever this run happens to touch.
LAZY = ("_strptime", "calendar", "locale", "traceback", "linecache", "tokenize", "codecs",
        "encodings.ascii", "encodings.latin_1", "encodings.utf_8_sig", "encodings.utf_16",
        "encodings.utf_16_le", "encodings.utf_16_be", "encodings.utf_32", "encodings.cp1252",
        "encodings.unicode_escape", "encodings.raw_unicode_escape", "copy", "random", "secrets",
        "hashlib", "hmac", "base64", "struct", "bisect", "heapq", "string", "textwrap",
        "unicodedata")
for name in LAZY:
    importlib.import_module(name)

deid_page.start(ROOT)


def ask(op, **fields):
    reply = json.loads(deid_page.handle(json.dumps(dict(fields, op=op))))
    if not reply["ok"]:
        raise SystemExit(f"exercise: {op} failed: {reply['error']}")
    return reply["result"]


NOTE = ("ADMISSION 03/05/2014: Mrs. Adaeze Okonkwo, 67, retired teacher from Springfield, MA, "
        "seen by Dr. Helen Achterberg at Saint Brigid Infirmary. MRN 00781245. Call 617-555-0144, "
        "fax 617-555-0145, a.okonkwo@example.org. Called Will about the results. Seen Monday.\n"
        "12 Elm Street, Apt 4, Springfield, IL 62704. SSN 123-45-6789. DOB 1950-03-02.")
info = ask("info")
for mode in ("redact", "surrogate", "review"):
    result = ask("process", text=NOTE, mode=mode, key="exercise-key")
    decisions = {c["id"]: True for c in result["review"]}
    ask("process", text=NOTE, mode=mode, key=None, decisions=decisions, mask_review=True,
        known={"names": ["Adaeze Okonkwo"], "mrns": ["00781245"], "addresses": ["12 Elm Street"],
               "birth_dates": ["1950-03-02"]})
params = ask("key_params")
ask("stretch", key="exercise-key-2", secret="00" * 32)
ask("lists")
if info["corpus_notes"]:
    ask("corpus")
    ask("benchmark")
from deid_core.harvest import HarvestRules, Template  # noqa: E402  (the page loads it for rules.json)
rules = HarvestRules(sentences=["Called Will about the results."], templates=[
    Template(1, ("seen", "by", "<W>", "<W>"), (("DOCTOR", 0), ("DOCTOR", 0)), 5, 3, "review")])
ask("rules", text=rules.to_json(), name="rules.json")
ask("process", text=NOTE, mode="review")
ask("rules", text=None)
if info["model"]:
    prepared = ask("ner_prepare", text=NOTE)
    b, t = prepared["dims"]
    labels = len(info["model"]["labels"])
    ask("ner_finish", text=NOTE, logits=[0.0] * (b * t * labels), dims=[b, t, labels])
