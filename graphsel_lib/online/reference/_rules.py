"""Tie rules shared by the naive twins, written out plainly."""

from __future__ import annotations

import numpy as np


def sign(s):
    return 1 if s >= 0 else -1


def second(f, first):
    """argmax over ``j != first`` (smallest index on ties)."""
    g = np.array(f, dtype=float)
    g[first] = -np.inf
    return int(np.argmax(g))
