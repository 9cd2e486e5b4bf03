"""Residual risk: how many identifiers a release of notes like the evaluated ones would still
hold, with a 95 % upper bound, and what review costs (``deid eval``, ``--json`` field
``residual_risk``; the page's benchmark).

Definitions (from a :func:`deid_core.evaluate.evaluate` report):

* An identifier is a gold span with at least one non-whitespace character. It is **left** in a
  setting when at least one of those characters is not masked (a partly masked name counts as
  left): ``spans - spans_full`` of the report's ``per_label``.
* ``per_1000_notes`` = 1,000 x left / notes: the expected number of identifiers left in 1,000
  notes like these. ``certain`` is Redact and Surrogate on their own; ``with_review`` is every
  amber candidate accepted.
* ``upper_95_per_1000_notes``: the exact one-sided 95 % upper confidence bound for a Poisson
  count (Garwood 1936): the rate ``mu`` with ``P(X <= left | mu) = 0.05``, i.e. half the 95th
  percentile of chi-square with ``2 * left + 2`` degrees of freedom, per note, times 1,000.
  For 0 identifiers left in N notes it is 2.996 / N per note (the "rule of three"). The bound
  treats left identifiers as independent events over the notes; misses cluster (a name the
  engine does not know is missed each time a note repeats it), which makes the real spread wider.
* Per identifier kind: the same figures per Safe Harbor identifier (A-R,
  :data:`deid_core.harbor_table.GOLD_LABEL_IDENTIFIER` maps the corpus's gold labels;
  ``other``: labels that are none of the 18 or not tied to one).
* Reviewer's cost: amber marks per note and minutes per 1,000 notes at
  :data:`SECONDS_PER_MARK` seconds a mark (an assumption, not a measurement: reading the marked
  words with their line and clicking keep or mask).

How to read it: the figures hold for notes like the evaluated ones (the same kind of note,
writers and identifier mix); a different kind of note can leave more.
"""
from __future__ import annotations

import math

from .harbor_table import identifier_of_gold_label

__all__ = ["CONFIDENCE", "INTERVAL", "SECONDS_PER_MARK", "format_risk", "poisson_upper", "residual_risk"]

#: The one-sided confidence level of the upper bounds.
CONFIDENCE = 0.95
#: Seconds a reviewer spends on one amber mark (assumed, stated with the figure).
SECONDS_PER_MARK = 5.0
#: The interval, in words (reported with the figures).
INTERVAL = ("exact one-sided 95% Poisson upper bound (Garwood) on identifiers left per note: "
            "the rate mu with P(X <= left | mu) = 0.05, i.e. chi2(0.95; 2*left+2)/2")


def _poisson_cdf(k: int, mu: float) -> float:
    """``P(X <= k)`` for ``X ~ Poisson(mu)``, summed in log space (no overflow for large k)."""
    if mu <= 0.0:
        return 1.0
    logs = [-mu + i * math.log(mu) - math.lgamma(i + 1) for i in range(k + 1)]
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(v - top) for v in logs))


def poisson_upper(k: int, confidence: float = CONFIDENCE) -> float:
    """The exact one-sided upper confidence bound of a Poisson mean after observing ``k`` events:
    the ``mu`` with ``P(X <= k | mu) = 1 - confidence`` (bisection to 1e-9 relative).

    Examples: ``k = 0`` -> 2.995732 (``-ln 0.05``), 1 -> 4.743865, 2 -> 6.295794, 10 -> 16.962
    at 95 %.

    Raises:
        ValueError: when ``k`` is negative or ``confidence`` is not strictly between 0 and 1.
    """
    if k < 0 or isinstance(k, bool) or int(k) != k:
        raise ValueError(f"k must be a whole number >= 0, not {k!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    alpha = 1.0 - confidence
    k = int(k)
    if k == 0:
        return -math.log(alpha)
    lo, hi = float(k), k + 10.0 * math.sqrt(k) + 10.0
    while _poisson_cdf(k, hi) > alpha:
        hi *= 2.0
    while hi - lo > 1e-9 * hi:
        mid = (lo + hi) / 2.0
        if _poisson_cdf(k, mid) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def _figures(gold: int, left: int, notes: int) -> dict:
    per_note = left / notes if notes else 0.0
    upper = poisson_upper(left) / notes if notes else 0.0
    return {"gold": gold, "left": left,
            "identifiers_per_note": round(gold / notes, 6) if notes else 0.0,
            "per_1000_notes": round(1000.0 * per_note, 3),
            "upper_95_per_1000_notes": round(1000.0 * upper, 3),
            "miss_rate": round(left / gold, 6) if gold else 0.0}


def _setting(per_label: dict, notes: int, identifier_of) -> dict:
    gold = left = 0
    kinds: dict[str, list[int]] = {}
    for label, row in per_label.items():
        g, full = int(row["spans"]), int(row["spans_full"])
        gold += g
        left += g - full
        kind = identifier_of(label) or "other"
        acc = kinds.setdefault(kind, [0, 0])
        acc[0] += g
        acc[1] += g - full
    out = _figures(gold, left, notes)
    out["per_identifier"] = {k: _figures(g, l, notes) for k, (g, l) in sorted(kinds.items())}
    return out


def residual_risk(report: dict, seconds_per_mark: float = SECONDS_PER_MARK) -> dict:
    """The residual-risk figures of an evaluation report (module doc).

    Args:
        report: a :func:`deid_core.evaluate.evaluate` report (``documents``, ``certain`` and
            ``with_review`` with ``per_label``, ``amber``).
        seconds_per_mark: reviewer's seconds per amber mark.

    Returns:
        ``{"interval", "confidence", "notes", "unit", "certain": {...}, "with_review": {...},
        "review": {"amber_per_note", "seconds_per_mark", "minutes_per_1000_notes"}}``; each
        setting holds ``gold``, ``left``, ``identifiers_per_note``, ``per_1000_notes``,
        ``upper_95_per_1000_notes``, ``miss_rate`` and ``per_identifier`` (the same per Safe
        Harbor identifier letter, and ``other``).

    Raises:
        KeyError: when the report lacks those fields.
    """
    notes = int(report["documents"])
    amber = float(report["amber"]["per_note"])
    return {
        "interval": INTERVAL,
        "confidence": CONFIDENCE,
        "notes": notes,
        "unit": "gold identifier (span) with a non-whitespace character left unmasked",
        "certain": _setting(report["certain"]["per_label"], notes, identifier_of_gold_label),
        "with_review": _setting(report["with_review"]["per_label"], notes,
                                identifier_of_gold_label),
        "review": {"amber_per_note": round(amber, 6), "seconds_per_mark": seconds_per_mark,
                   "minutes_per_1000_notes": round(1000.0 * amber * seconds_per_mark / 60.0, 3)},
    }


def format_risk(risk: dict) -> list[str]:
    """Lines of text for :func:`deid_core.evaluate.format_report`."""
    lines = [f"residual risk ({risk['notes']} notes; {risk['interval']}):"]
    for name in ("certain", "with_review"):
        s = risk[name]
        lines.append(f"  [{name}] identifiers left per 1,000 notes {s['per_1000_notes']:.1f} "
                     f"(95% upper bound {s['upper_95_per_1000_notes']:.1f}); {s['left']} of "
                     f"{s['gold']} left")
        kinds = ", ".join(f"{k} {v['per_1000_notes']:.1f} (<= {v['upper_95_per_1000_notes']:.1f})"
                          for k, v in s["per_identifier"].items())
        lines.append(f"    per identifier, per 1,000 notes: {kinds}")
    r = risk["review"]
    lines.append(f"  review: {r['amber_per_note']:.3f} amber marks per note, "
                 f"{r['minutes_per_1000_notes']:.1f} minutes per 1,000 notes at "
                 f"{r['seconds_per_mark']:g} s a mark")
    return lines
