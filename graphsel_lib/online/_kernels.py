"""Numba primitives shared by the compiled loops (``stacked_loop``, ``multiclass_loop``, ``relaxation_loop``).

Rounding. Every sum is a loop with a fixed order, so learners with equal
states get equal numbers (the tie rules need it) and a pass gives the same
bits on every run: :func:`fixed_order_dot` adds in four interleaved partial
sums, :func:`symmetric_matvec` computes ``A x`` as ``Σ_j x_j A[j, :]`` (the
symmetry of ``A``: contiguous rows) and :func:`rank_one_downdate` subtracts
``c (u_i u_j)``, which keeps ``A`` exactly symmetric.

Timing. A compiled loop cannot read the clock every round cheaply:
:func:`play_in_chunks` calls it on chunks of :data:`CHUNK_ROUNDS` rounds,
reads the clock between chunks and interpolates each round's ``elapsed``.

This module imports numba and no learner: the learners import the loop
modules (and through them this one) only when asked for their compiled form.
"""

from __future__ import annotations

import time

import numba
import numpy as np

__all__ = [
    "CHUNK_ROUNDS",
    "downdate_then_matvec",
    "fixed_order_dot",
    "play_in_chunks",
    "rank_one_downdate",
    "record_round",
    "symmetric_matvec",
]

CHUNK_ROUNDS = 256  # rounds per compiled call of a pass; the clock is read between calls


@numba.njit(cache=True, inline="always")
def fixed_order_dot(a, b):
    """``a · b`` in four interleaved partial sums, combined as (s0 + s1) + (s2 + s3)."""
    n = a.shape[0]
    s0 = s1 = s2 = s3 = 0.0
    j = 0
    while j + 4 <= n:
        s0 += a[j] * b[j]
        s1 += a[j + 1] * b[j + 1]
        s2 += a[j + 2] * b[j + 2]
        s3 += a[j + 3] * b[j + 3]
        j += 4
    while j < n:
        s0 += a[j] * b[j]
        j += 1
    return (s0 + s1) + (s2 + s3)


@numba.njit(cache=True, inline="always")
def symmetric_matvec(A, x, u):
    """``u = A x`` for a symmetric ``A``, as ``Σ_j x_j A[j, :]`` (contiguous rows, vectorised)."""
    d = x.shape[0]
    for i in range(d):
        u[i] = 0.0
    for j in range(d):
        xj = x[j]
        row = A[j]
        for i in range(d):
            u[i] += xj * row[i]


@numba.njit(cache=True, inline="always")
def rank_one_downdate(A, u, c):
    """``A −= c u uᵀ`` as ``c (u_i u_j)`` (Sherman–Morrison's rank-one term; keeps ``A`` exactly symmetric)."""
    d = u.shape[0]
    for i in range(d):
        ui = u[i]
        row = A[i]
        for j in range(d):
            row[j] -= c * (ui * u[j])


@numba.njit(cache=True, inline="always")
def downdate_then_matvec(A, u, c, x, out):
    """:func:`rank_one_downdate` ``A −= c u uᵀ``, then ``out = A x`` as :func:`symmetric_matvec`, in one sweep.

    Row ``i`` is downdated and then added, ``x_i`` times, to ``out``: the same products in the same order as
    the two calls one after the other (the same bits), reading ``A`` once instead of twice.
    """
    d = u.shape[0]
    for j in range(d):
        out[j] = 0.0
    for i in range(d):
        ui = u[i]
        xi = x[i]
        row = A[i]
        for j in range(d):
            a = row[j] - c * (ui * u[j])
            row[j] = a
            out[j] += xi * a


@numba.njit(cache=True, inline="always")
def record_round(record, t, value):
    """``record[t] = value`` unless the record is not kept (length 0)."""
    if record.shape[0] > 0:
        record[t] = value


def play_in_chunks(step, T, chunk=CHUNK_ROUNDS, progress=None):
    """Call ``step(start, stop)`` on consecutive chunks of ``range(T)``; cumulative seconds per round.

    The clock is read before the first chunk and after each one; rounds inside
    a chunk get times interpolated linearly between the two readings around it.
    ``progress(n)``, if given, is called after each chunk of ``n`` rounds
    (outside the timed span). ``step(0, 0)`` is called first, before the
    clock starts: it plays no round but compiles the loop for these argument
    types (or loads it from numba's on-disk cache), a one-off cost of up to
    a second that no round should be charged with.
    """
    step(0, 0)
    elapsed = np.empty(T)
    clock = time.perf_counter
    t0 = clock()
    before = 0.0
    for start in range(0, T, chunk):
        stop = min(start + chunk, T)
        step(start, stop)
        now = clock() - t0
        elapsed[start:stop] = before + (now - before) * np.arange(1, stop - start + 1) / (stop - start)
        if progress is not None:
            progress(stop - start)
            t0 += clock() - t0 - now  # the bar's own time is not the learner's
        before = now
    return elapsed
