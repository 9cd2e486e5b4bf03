"""One helper for tests that swap a word list: forget what the engine derived from it."""
from __future__ import annotations

import sys


def clear_engine_caches() -> None:
    """``cache_clear()`` on every ``functools`` cache of the loaded ``deid_core`` modules, so
    tables built from a monkeypatched list (a stand-in place or name list) do not outlive the
    test that patched it. Raises nothing."""
    for name, module in list(sys.modules.items()):
        if name == "deid_core" or name.startswith("deid_core."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
