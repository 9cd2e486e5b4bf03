"""Surrogates: the "replace" step of find -> resolve -> replace (see :mod:`.core` for the table
of which fake each label gets).

Modules: :mod:`.core` (:func:`surrogate`, :class:`Surrogator`: one fake per span, per note),
:mod:`.names` (person names; :mod:`.particles`: their particles), :mod:`.places` (places,
institutions, professions), :mod:`.shapes` (identifiers, phones, ages, emails, URLs, IP
addresses). Dates are shifted by :mod:`deid_core.dateshift`.
"""
from .core import ID_LABEL_WORDS, NAME_CONTEXT_CHARS, Surrogator, surrogate

__all__ = ["surrogate", "Surrogator", "ID_LABEL_WORDS", "NAME_CONTEXT_CHARS"]
