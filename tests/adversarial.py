"""Adversarial inputs shared by the tests: strings built to trigger catastrophic regex
backtracking or quadratic scans (deterministic; nothing random at import)."""
from __future__ import annotations

import base64
import random

#: Repeated shapes, each about 100,000 characters, that sit near what some detector matches.
ADVERSARIAL: dict[str, str] = {
    "ones": "1" * 100_000,
    "slashes": "a/" * 50_000,
    "ninety": "92 " * 33_000,
    "age_words": "ninety " * 15_000,
    "digit_runs": ("1234567890" * 10 + " ") * 1000,
    "date_like": "1/2/3/4/5/6/7/8/9/" * 5000,
    "months": "March " * 20000,
    "ats": "a@" * 50_000,
    "dots": "a." * 50_000,
    "colons": "1:" * 50_000,
    "url": "http://" + "a" * 100_000,
    "phone_like": "617-555-" * 12_000,
    "hashes": "#1" * 50_000,
    "labels": "MRN: " * 20_000,
    "dashes": "1-" * 50_000,
    "alnum": "A1" * 50_000,
    "iban_like": "GB82" + "A" * 100_000,
    "card_like": "4111 " * 20_000,
    "mrn_words": "MRN " * 25_000,          # issue 11: joined adjacent spans grew their source
    "zero_width": "a\u200b" * 50_000,      # the normalised view drops every other character
    "spaced_dates": "3 / 5 / 2014 " * 7_700,
    "repeats": "SSN 123-45-6789 " * 6_250,  # one value, 6,250 copies
    "caps_and_names": "A" * 100_000 + " " + "Smith " * 20_000 + "Dr. " * 10_000 + "x" * 50_000,
}


def one_megabyte_note() -> str:
    """A 1 MB adversarial note: a base64 blob, 100,000 repeated characters, ``a/`` runs, long
    digit runs and date-, phone- and label-like debris."""
    rng = random.Random(0)
    parts = [
        base64.b64encode(rng.randbytes(300_000)).decode(),
        "1" * 100_000,
        "a/" * 50_000,
        "12345678901234567890 " * 5_000,
        "x" * 100_000,
        "1/2/3/4/5-6-7.8.9:" * 5_000,
        "Seen 3/4/2014 MRN: 4471203 ph 617-555-0142 92 yo, jo@example.org. " * 1_000,
    ]
    return ("\n".join(parts) + "\n" + "9/" * 50_000)[:1_000_000]
