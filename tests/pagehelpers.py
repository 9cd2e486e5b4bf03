"""Driving the built page in a browser: shared by the page tests and ``scripts/screenshots.py``.

Where Debian's Chromium is, the flags it runs headless with, how it is launched, and how to wait
on the page's ``data-*`` signals (never on sleeps: the page's CSP forbids Playwright's
``wait_for_function``, so expressions are polled). Standard library only: importing this module
never needs Playwright; the caller passes its own Playwright objects.
"""
from __future__ import annotations

import time

__all__ = ["CHROMIUM", "FLAGS", "MINIMAL_FLAGS", "launch_chromium", "poll", "run_started", "run_ended",
           "wait_run"]

#: Debian's Chromium (``apt-get install chromium``).
CHROMIUM = "/usr/bin/chromium"
#: Headless Chromium in a container with nothing reaching out: no sandbox, no GPU, no background
#: networking, component updates, sync, first-run UI or QUIC.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
#: Only what a headless box needs, for a browser that should behave like a user's normal one.
MINIMAL_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]


def launch_chromium(playwright, args: list[str] | None = None):
    """Launch :data:`CHROMIUM` headless through Playwright.

    Args:
        playwright: the object ``sync_playwright()`` yields.
        args: command-line flags; :data:`FLAGS` when ``None``.

    Returns:
        Playwright's ``Browser``.
    """
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=FLAGS if args is None else args)


def poll(page, expression: str, timeout: float = 60.0, interval: float = 0.05):
    """Evaluate the JavaScript ``expression`` in ``page`` until it is truthy and return its value.

    Args:
        page: anything with ``evaluate(str)``: a Playwright page, or the Firefox and WebKit
            drivers of ``tests/test_page_browsers.py``.
        expression: a JavaScript expression.
        timeout: seconds before giving up.
        interval: seconds between two evaluations.

    Raises:
        AssertionError: the expression stayed falsy for ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression!r}")
        time.sleep(interval)


def run_started(page) -> int:
    """The sequence number of the page's latest De-identify run (0 before the first)."""
    return int(page.evaluate("document.body.dataset.runStarted || '0'"))


def run_ended(after: int) -> str:
    """A JavaScript expression giving the ``data-run`` of the page's latest De-identify run
    ("done", "error", "cancelled") once a run started after run number ``after`` is the latest
    and has ended, and ``""`` before."""
    return (f"""(b => {{ const s = Number(b.dataset.runStarted || 0), d = Number(b.dataset.runDone || 0);
        return s > {after} && d === s && b.dataset.run !== 'working' ? b.dataset.run : ''; }})(document.body)""")


def wait_run(page, after: int, timeout: float = 120.0, interval: float = 0.05) -> str:
    """Wait for :func:`run_ended` (``after``) in ``page`` and return that ``data-run``; the
    page's own signal, never a sleep or a status text. Raises ``AssertionError`` on timeout."""
    return poll(page, run_ended(after), timeout, interval)
