"""deid_core: an offline de-identifier for clinical notes (HIPAA Safe Harbor identifiers).

Pure standard-library Python; runs unchanged in CPython 3.11+ and in Pyodide.
Entry points: :func:`analyze` (find spans), :mod:`deid_core.api` (redact, surrogate, review).
"""
from .spans import CATEGORIES, LABELS, TIERS, Span
from .analyze import Analysis, Known, analyze

__all__ = ["Analysis", "CATEGORIES", "Known", "LABELS", "Span", "TIERS", "analyze"]
__version__ = "0.1.0"
