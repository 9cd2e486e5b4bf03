"""The installed package is the whole engine: every Python package folder under deid_core/ is
named in pyproject's ``[tool.setuptools] packages`` (an editable install finds a folder that is
missing there, a wheel does not), and every list file the engine reads ships as package data."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONF = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_folder_is_listed():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "deid_core").rglob("__init__.py")}
    listed = set(CONF["packages"])
    assert found - listed == set(), f"add to pyproject packages: {sorted(found - listed)}"
    assert {p for p in listed if not p.startswith("deid_core._")} <= found


def test_every_list_file_ships():
    patterns = CONF["package-data"]["deid_core._lists"]
    suffixes = {p.removeprefix("*") for p in patterns}
    files = [p for p in (ROOT / "lists").iterdir() if p.is_file() and p.name != "README.md"]
    assert files and all(p.suffix in suffixes for p in files), \
        sorted(p.name for p in files if p.suffix not in suffixes)
