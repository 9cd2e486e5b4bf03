"""The rule catalogue (deid_core.rules, deid_core.detectors.catalogue): every source the engine
gives is a declared rule with declared labels, tiers and evidence; every rule is explained from
its own declaration; the hand-written lists are the ones the catalogue names; docs/rules.md is
what scripts/rules_doc.py writes. The corpora are the project corpus (always) and the shared
ones when present."""
from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from ruletable import source_problems

from deid_core import analyze, lists, readers
from deid_core.detectors import REGISTRY, catalogue
from deid_core.detectors.catalogue import BY_ID, EVIDENCE, NER, RULES
from deid_core.explain import explain
from deid_core.rules import Evidence, Rule
from deid_core.spans import CERTAIN, REVIEW, Span

ROOT = Path(__file__).resolve().parent.parent


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)   # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


rules_doc = _script("rules_doc")
PRESENT = [n for n, (p, _) in rules_doc.CORPORA.items() if p.exists()]


@pytest.fixture(scope="module")
def analyses():
    """Corpus name -> note text -> its rules-only analysis (each corpus analysed once)."""
    return {n: {d.text: analyze(d.text) for d in readers.read("auto", rules_doc.CORPORA[n][0])}
            for n in PRESENT}


@pytest.mark.parametrize("name", rules_doc.CORPORA)
def test_every_source_on_the_corpora_is_a_declared_rule(analyses, name):
    if name not in analyses:
        pytest.skip(f"{rules_doc.CORPORA[name][0]} absent")
    bad = set()
    for a in analyses[name].values():
        bad.update(source_problems(a.candidates, a.spans))
    assert sorted(bad) == []


def test_problems_are_seen():
    # the check above can fail: an undeclared rule, a wrong tier, an undeclared evidence word
    good = Span(0, 3, "DATE", CERTAIN, "dates:iso")
    assert source_problems([good], [good]) == []
    assert source_problems([Span(0, 3, "DATE", CERTAIN, "dates:nothing_of_the_kind")], [])
    assert source_problems([Span(0, 3, "DATE", REVIEW, "dates:iso")], [])
    assert source_problems([Span(0, 3, "PATIENT", CERTAIN, "names:title:dr+mystery")], [])
    assert source_problems([Span(0, 3, "DATE", CERTAIN, "dates:iso:detail")], [])


def test_catalogue_holds_every_detector_and_unique_ids():
    assert len(BY_ID) == len(RULES)
    assert {r.detector for r in RULES} == {d.name for d in REGISTRY} | {"ner", "harvest"}
    for d in REGISTRY:
        module = catalogue._MODULES[d.name]
        assert module.RULES and all(r.detector == d.name for r in module.RULES), d.name
        for p in getattr(module, "PATTERNS", ()):    # a shape detector's rows name its own rules
            assert all(r in module.RULES for r in p.rules)


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_every_rule_is_explained_from_its_declaration(rule):
    for tier in rule.tiers:
        span = rule.span(0, 4, rule.labels[0], tier, detail="xy" if rule.detail else "")
        got = explain(span)
        assert got["text"].startswith("Found by ") and got["text"].endswith(".")
        if rule is NER:
            continue   # the model's clause names its model and confidence (test_review.py)
        finds = rule.finds.format(detail="xy")
        assert finds in got["text"] and catalogue.DETECTORS[rule.detector] in got["text"]
        assert got["rule"] == rule.name and got["list"] == rule.list
        assert got["why_amber"] == (rule.amber if tier == REVIEW else None)


def test_every_evidence_word_is_explained():
    for word, e in EVIDENCE.items():
        rule = next(r for r in RULES if e in r.evidence)
        got = explain(rule.span(0, 4, rule.labels[0], REVIEW if REVIEW in rule.tiers else CERTAIN,
                                detail="xy" if rule.detail else "", evidence=(e,)))
        assert e.adds in got["text"]
        if e.amber and REVIEW in rule.tiers:
            assert got["why_amber"] == e.amber


@pytest.mark.parametrize("bad", [
    dict(id="Dates:x"), dict(id="dates"), dict(labels=("WHATEVER",)), dict(tiers=("maybe",)),
    dict(tiers=(REVIEW,)), dict(amber="why not"), dict(finds="a {detail}"), dict(list="surnames"),
    dict(finds=" "),
])
def test_a_malformed_rule_is_refused(bad):
    args = dict(id="dates:x", labels=("DATE",), tiers=(CERTAIN,), finds="a thing")
    args.update(bad)
    with pytest.raises(ValueError):
        Rule(**args)


def test_rule_span_and_source():
    r = Rule("dates:x", ("DATE",), (CERTAIN, REVIEW), "a thing", amber="maybe not", detail="the word")
    e = Evidence("near", "near a word")
    assert r.source() == "dates:x" and r.source("w", (e,)) == "dates:x:w+near"
    assert r.span(2, 5, tier=REVIEW, detail="w") == Span(2, 5, "DATE", REVIEW, "dates:x:w")
    with pytest.raises(ValueError):
        r.span(2, 5)                       # two tiers: name one
    assert e.add_to(Span(2, 5, "DATE", REVIEW, "dates:x"), "DATE", CERTAIN).source == "dates:x+near"


def test_a_validator_chooses_only_among_its_patterns_rules():
    from deid_core.detectors.patterns import Emitter, Hit, Pattern, run
    mine = Rule("dates:x", ("DATE",), (CERTAIN,), "a thing")
    other = Rule("dates:y", ("DATE",), (CERTAIN,), "another thing")
    ok = Pattern((mine, other), re.compile(r"\d+"), "DATE", validator=lambda m: Hit(m.start(), m.end(), rule=other))
    assert [s.source for s in run([ok], "12", Emitter())] == ["dates:y"]
    bad = Pattern(mine, re.compile(r"\d+"), "DATE", validator=lambda m: Hit(m.start(), m.end(), rule=other))
    with pytest.raises(ValueError):
        run([bad], "12", Emitter())
    with pytest.raises(ValueError):
        Pattern("x", re.compile("x"), "DATE")       # a row names its rule, not a string


_SOURCE_LITERAL = re.compile(r"(?:%s):" % "|".join(d.name for d in REGISTRY))


def _engine_files():
    return sorted((ROOT / "deid_core" / "detectors").rglob("*.py")) + [ROOT / "deid_core" / "extend.py"]


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_is_written_outside_a_rule(path):
    """A span's source comes from a Rule value: no string in the detectors starts like a source
    (``"names:..."``, ``f"locations:{...}"``) but a rule's id, and no Span is built with a
    written-out source."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Rule" and node.args:
            ids.add(id(node.args[0]))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in ids \
                and _SOURCE_LITERAL.match(node.value):
            bad.append((node.lineno, node.value))
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
                and _SOURCE_LITERAL.match(str(node.values[0].value)):
            bad.append((node.lineno, "f-string"))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Span":
            source = node.args[4] if len(node.args) > 4 else next(
                (k.value for k in node.keywords if k.arg == "source"), None)
            if isinstance(source, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                bad.append((node.lineno, "Span with a written source"))
    assert bad == []


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_rule_hides_an_imported_name(path):
    """A module-level name (a rule's, say) never rebinds a name the module imports: a rule
    ``DIRECTION`` would hide the regex piece ``text.DIRECTION`` that a lazily built pattern
    reads, and change what it matches without a test of that pattern failing."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {a.asname or a.name for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names}
    assigned = {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
    assert imported & assigned == set()


# --- the lists the catalogue names are the registration of the hand-written lists ---

def _handwritten_files() -> set[str]:
    return {p.name for p in (ROOT / "lists").iterdir() if p.suffix in (".txt", ".tsv")
            and lists.read_list(p.name).header.get("source") == lists.HANDWRITTEN_SOURCE}


def test_every_hand_written_list_is_named_by_the_catalogue():
    assert set(catalogue.handwritten_lists()) == _handwritten_files()
    assert tuple(_script("build_lists").HANDWRITTEN_FILES) == catalogue.handwritten_lists()


def test_every_list_the_catalogue_names_exists():
    for name in catalogue.list_readers():
        assert (ROOT / "lists" / name).is_file(), name


@pytest.mark.parametrize("module", sorted(catalogue.OTHER_READERS))
def test_other_readers_read_what_they_say(module):
    path = ROOT / (module if module.endswith(".py") else module.replace(".", "/") + ".py")
    source = path.read_text(encoding="utf-8")
    for name in catalogue.OTHER_READERS[module]:
        assert name.rsplit(".", 1)[0] in source, (module, name)


def test_lists_readme_has_one_row_per_file():
    readme = (ROOT / "lists" / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+\.(?:txt|tsv))` \|", readme, re.M)
    files = sorted(p.name for p in (ROOT / "lists").iterdir() if p.suffix in (".txt", ".tsv"))
    assert sorted(rows) == files


# --- docs/rules.md ---

def test_docs_rules_catalogue_part_is_current():
    doc = rules_doc.DOC.read_text(encoding="utf-8")
    assert doc.partition(rules_doc.HITS_MARK)[0] == rules_doc.catalogue_part(), \
        "docs/rules.md is not current: run python scripts/rules_doc.py"


@pytest.mark.parametrize("name", rules_doc.CORPORA)
def test_docs_rules_hits_are_current(analyses, name):
    if name not in PRESENT:
        pytest.skip(f"{rules_doc.CORPORA[name][0]} absent")
    written = rules_doc.sections(rules_doc.DOC.read_text(encoding="utf-8"))
    assert name in written, f"docs/rules.md has no hits for {name}: run python scripts/rules_doc.py"
    assert written[name] == rules_doc.hits_section(name, analyses[name].__getitem__), \
        f"the hits of {name} in docs/rules.md are not current: run python scripts/pin_spans.py --write"
