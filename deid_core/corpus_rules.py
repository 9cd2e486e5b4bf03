"""Harvested corpus rules (a ``rules.json`` from ``deid harvest``): the one loader every caller
uses (``deid batch``, ``redact``, ``surrogate``, ``review``, ``detect``, ``eval``, the page).

:func:`parse` reads the JSON text, :func:`read` a file (its text, checked); applying loaded rules
to a note is :func:`deid_core.harvest.analyze_harvested`, which :func:`deid_core.api.process`
and :class:`deid_core.batch.engine.Engine` both call, so every front end skips the same PHI-free
sentences and runs the same template rules. Standard library only (the page loads it).
"""
from __future__ import annotations

import os

from .harvest import HarvestRules

__all__ = ["RulesError", "parse", "read", "load", "summary"]


class RulesError(ValueError):
    """A rules file that cannot be read or is no ``deid harvest`` file; the message starts with
    where it came from (the path, or the name the page gave)."""


def parse(text: str, where: str = "rules.json") -> HarvestRules:
    """The :class:`~deid_core.harvest.HarvestRules` of a ``rules.json`` text.

    Args:
        text: the file's content (a ``str``).
        where: the name used in error messages.

    Raises:
        RulesError: not a string, not JSON, not a deid-harvest version 1 file, a malformed template.
    """
    if not isinstance(text, str):
        raise RulesError(f"{where}: expected the file's text, not {type(text).__name__}")
    try:
        return HarvestRules.from_json(text)
    except ValueError as e:
        raise RulesError(f"{where}: {e}") from None


def read(path: str | os.PathLike) -> str:
    """The UTF-8 text of the rules file at ``path``, checked by :func:`parse` (the form
    :class:`deid_core.batch.engine.Config` carries to worker processes).

    Raises:
        RulesError: the file cannot be read, is not UTF-8, or is no rules file.
    """
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RulesError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise RulesError(f"{path}: not UTF-8 (byte {e.start})") from None
    parse(text, str(path))
    return text


def load(path: str | os.PathLike | None) -> HarvestRules | None:
    """The rules in the file at ``path`` (None: no rules, None back).

    Raises:
        RulesError: as :func:`read`.
    """
    return None if path is None else parse(read(path), str(path))


def summary(rules: HarvestRules) -> dict:
    """``{"sentences": int, "templates": int, "notes": int}``: what a rules file holds (the page
    shows it once loaded)."""
    return {"sentences": len(rules.sentences), "templates": len(rules.templates),
            "notes": rules.notes}
