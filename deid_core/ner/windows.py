"""Windowing long token sequences for a fixed-length encoder, and merging predictions back.

A note longer than the model's input is cut into overlapping windows of token positions.
Each window becomes one model input ``[CLS] + ids[start:end] + [SEP]``, so a window holds at
most ``max_len - 2`` note tokens.

Windows: the first starts at token 0; each next one starts ``stride`` tokens later; the last
one is pushed back so that it ends exactly at the last token (every window is full length when
the note has at least ``max_len - 2`` tokens). Consecutive windows overlap by
``max_len - 2 - stride`` tokens or more. The default stride is half a window, so every token
away from the note's ends lies in two windows, at least a quarter window from the edge of one.

Merge rule (:func:`merge`): a token seen by several windows takes its prediction from the window
in which it has the most context, i.e. where its distance to the nearest window EDGE is largest.
An edge that is also the start or end of the note does not count as an edge (there is no missing
context beyond it). Distance from the left edge of window ``[s, e)`` for token ``t`` is
``t - s``, from the right edge ``e - 1 - t``. Ties go to the earlier window. Probabilities are
never averaged across windows: one window's row is taken whole, so the decoder sees a row some
model run actually produced.
"""
from __future__ import annotations

from typing import Sequence

DEFAULT_MAX_LEN = 128


def windows(n_tokens: int, max_len: int = DEFAULT_MAX_LEN,
            stride: int | None = None) -> list[tuple[int, int]]:
    """Split ``n_tokens`` token positions into overlapping windows.

    Args:
        n_tokens: number of note tokens (without special tokens), ``>= 0``.
        max_len: model input length INCLUDING ``[CLS]`` and ``[SEP]``, ``>= 3``.
        stride: tokens between the starts of consecutive windows, ``1 <= stride <= max_len - 2``;
            default ``(max_len - 2) // 2``.

    Returns:
        ``[(start, end), ...]`` half-open token ranges, increasing, covering ``0..n_tokens``;
        ``[]`` when ``n_tokens == 0``; ``[(0, n_tokens)]`` when it fits in one window.

    Raises:
        ValueError: on a negative ``n_tokens``, ``max_len < 3`` or a stride out of range.
    """
    if n_tokens < 0:
        raise ValueError(f"n_tokens must be >= 0, got {n_tokens}")
    if max_len < 3:
        raise ValueError(f"max_len must be >= 3 (room for [CLS], [SEP] and a token), got {max_len}")
    size = max_len - 2
    if stride is None:
        stride = max(1, size // 2)
    if not 1 <= stride <= size:
        raise ValueError(f"stride must be between 1 and {size}, got {stride}")
    if n_tokens == 0:
        return []
    if n_tokens <= size:
        return [(0, n_tokens)]
    out: list[tuple[int, int]] = []
    start = 0
    while start + size < n_tokens:
        out.append((start, start + size))
        start += stride
    out.append((n_tokens - size, n_tokens))
    return out


def owner_windows(n_tokens: int, wins: Sequence[tuple[int, int]]) -> list[int]:
    """For each token, the index of the window whose prediction it keeps (the merge rule above).

    Raises:
        ValueError: if some token lies in no window, or a window is out of ``0..n_tokens``.
    """
    best = [-1] * n_tokens
    best_dist = [-1] * n_tokens
    big = n_tokens + 1
    for k, (s, e) in enumerate(wins):
        if not 0 <= s < e <= n_tokens:
            raise ValueError(f"window {k} = {(s, e)} is not inside 0..{n_tokens}")
        for t in range(s, e):
            left = t - s if s > 0 else big
            right = e - 1 - t if e < n_tokens else big
            d = left if left < right else right
            if d > best_dist[t]:
                best_dist[t] = d
                best[t] = k
    if -1 in best:
        raise ValueError(f"token {best.index(-1)} is in no window")
    return best


def merge(n_tokens: int, wins: Sequence[tuple[int, int]],
          window_rows: Sequence[Sequence[Sequence[float]]]) -> list[Sequence[float]]:
    """Merge per-window, per-token prediction rows into one row per note token.

    Args:
        n_tokens: number of note tokens.
        wins: the windows, as returned by :func:`windows`.
        window_rows: for window ``k = (s, e)``, its rows (e.g. label probabilities), either
            ``e - s`` rows (note tokens only) or ``e - s + 2`` rows (the model's full output;
            the ``[CLS]`` and ``[SEP]`` rows are dropped).

    Returns:
        ``n_tokens`` rows; token ``t`` gets its row from the window chosen by
        :func:`owner_windows`.

    Raises:
        ValueError: on a window count mismatch or a window with the wrong number of rows.
    """
    if len(wins) != len(window_rows):
        raise ValueError(f"{len(wins)} windows but {len(window_rows)} row sets")
    bodies: list[Sequence[Sequence[float]]] = []
    for k, ((s, e), rows) in enumerate(zip(wins, window_rows)):
        if len(rows) == e - s + 2:
            rows = rows[1:-1]
        elif len(rows) != e - s:
            raise ValueError(f"window {k} covers {e - s} tokens but has {len(rows)} rows "
                             f"(expected {e - s} or {e - s + 2})")
        bodies.append(rows)
    owners = owner_windows(n_tokens, wins)
    return [bodies[k][t - wins[k][0]] for t, k in enumerate(owners)]
