"""Shared test set-up: the helpers in this folder (``adversarial``) become importable, and the
slow and training tests are marked so the default run skips them.

Markers (declared in ``pyproject.toml``): ``slow`` (whole corpora, the built page in a browser,
megabyte inputs) and ``training`` (needs torch in ``.venv-train``). ``pytest`` and
``bash scripts/test.sh`` run neither (``addopts``: ``-m "not slow and not training"``);
``bash scripts/test.sh --all`` and ``.ci/run`` run everything (``-m ""``). A test is marked either
with ``@pytest.mark.slow`` where it is defined or, for a whole module, in :data:`SLOW_MODULES` /
:data:`TRAINING_MODULES` below (one table, so a module's owner need not edit it). Skip reasons
are printed at the end of every run (``-rs``), and so is the number of tests left out by marker.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: Whole modules marked ``slow``, with why.
SLOW_MODULES: dict[str, str] = {
    "test_page.py": "drives the built page (python build.py) in Chromium, with and without the model",
}
#: Whole modules marked ``training``, with why.
TRAINING_MODULES: dict[str, str] = {
    "test_training_smoke.py": "trains a tiny model with torch (runs in .venv-train)",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    marked = 0
    for item in items:
        name = item.path.name
        if name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if name in TRAINING_MODULES:
            item.add_marker(pytest.mark.training)
        marked += bool(item.get_closest_marker("slow") or item.get_closest_marker("training"))
    config.stash[_MARKED] = marked


_MARKED = pytest.StashKey[int]()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    marked = config.stash.get(_MARKED, 0)
    expr = config.getoption("markexpr", "")
    if marked and "not slow" in expr:
        terminalreporter.write_line(
            f"{marked} slow or training test(s) left out by -m {expr!r}; run them with "
            f"-m slow, -m training, or -m '' for everything (bash scripts/test.sh --all)")
