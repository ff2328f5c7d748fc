"""SSLGC's query decisions at a large rank without K matrix-vector products a round, certified by Woodbury.

SSLGC (gu2013 Alg. 2) asks at every round, for each of its K class-vs-rest learners, whether
``r_k = v_k/(1 + v_k) > t^{-κ}`` (or ``v_k > t^{-κ}``) with ``v_k = xᵀ A_k^{-1} x``. The stacked loop
(:mod:`~graphsel_lib.online.stacked_loop`) keeps every ``A_k^{-1}`` (d × d) and computes ``u_k = A_k^{-1} x``
for every k: K d² numbers read a round, 56 MB for Cora's 7 classes at d = 1000, from main memory. A learner
needs ``u_k`` itself only when it updates (told the label and wrong), under half a learner a round there.

With ``A_k = µI + P_k P_kᵀ``, the columns of ``P_k`` the ``m_k`` instances learner k updated on, Woodbury's
identity gives::

    v_k = (‖x‖² − ‖z_k‖²)/µ,    R_k z_k = P_kᵀ x,    R_k R_kᵀ = µI + P_kᵀ P_k   (Cholesky, m_k × m_k),

at the cost of the dot products ``P_kᵀ x`` (one per instance any learner updated on, shared by the K learners)
and a triangular solve: O(m d + m²) instead of O(d²) while ``m ≪ d``. An update appends one row to the factor,
``[z_kᵀ, sqrt(µ + ‖x‖² − ‖z_k‖²)]``, from the ``z_k`` of its own round.

This ``v_k`` sums in another order than the loop's ``x · u_k``, so it is not the loop's number to the last bit.
It only *certifies* the decision: when it lies farther than :data:`CERT_MARGIN` (relative to ``‖x‖²/µ``, the
largest ``v_k`` can be) from the threshold, the loop's own ``v_k`` lies on the same side and the decision is
taken without ``u_k``; within the margin the loop computes ``u_k`` as before. A learner that updates computes
``u_k`` then, by the same code, so a pass (predictions, queries, ``w_k``, ``A_k^{-1}``) is the same bit for bit
with or without certificates (tests; the two ``v_k`` differ by at most 2.6e-15 of ``‖x‖²/µ`` on Cora at d = 1000,
100 nodes after a pass at µ = 1 and 0.1: far inside the margin). A learner whose factor reaches ``cap`` rows (:func:`new_certificate`) leaves the
certificate and computes ``u_k`` every round again.

This module imports numba and no learner.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numba
import numpy as np

from ._kernels import fixed_order_dot

__all__ = ["CERT_MARGIN", "CERT_MIN_D", "Certificate", "certified_v", "extend", "new_certificate", "off"]

CERT_MARGIN = 1e-7  #: a decision is certified if v_k is farther than this times ‖x‖²/µ from the threshold
#: certificates from this rank: below it the K products cost little (one SSLGC pass on Cora: d = 100 0.03 s either
#: way; d = 250 0.36 -> 0.13 s; d = 1000 4.8 -> 1.0 s; one thread)
CERT_MIN_D = 200

Certificate = namedtuple(
    "Certificate", ["active", "R", "m", "rows", "union", "n_union", "slot", "g", "z", "zz"]
)
Certificate.__doc__ = """The Woodbury factors of a pass (module docstring): ``active`` (K,) learners certified;
``R`` (K, cap, cap) their Cholesky factors (lower), ``m`` (K,) their sizes, ``rows`` (K, cap) the union slot of each
update's instance; ``union`` (K·cap,) the instance (row of X) of each slot, ``n_union`` (1,) slots used, ``slot``
(n,) each instance's slot or −1; this round's ``g`` (dot products with the slots), ``z`` (K, cap), ``zz`` (K,).
"""


def new_certificate(K: int, d: int, n: int, cap: int | None = None) -> Certificate:
    """A certificate for K learners on d features and n instances, every learner with room for ``cap`` updates.

    ``cap`` defaults to d // 3: a learner's solve then costs at most d²/18, and the shared dot products at most a
    third of the K products they replace.
    """
    cap = max(d // 3, 1) if cap is None else int(cap)
    return Certificate(
        np.ones(K, dtype=np.bool_), np.zeros((K, cap, cap)), np.zeros(K, dtype=np.int64),
        np.zeros((K, cap), dtype=np.int64), np.zeros(K * cap, dtype=np.int64), np.zeros(1, dtype=np.int64),
        np.full(n, -1, dtype=np.int64), np.zeros(K * cap), np.zeros((K, cap)), np.zeros(K),
    )  # fmt: skip


def off(K: int) -> Certificate:
    """No certificate: every learner computes ``u_k`` every round."""
    return Certificate(
        np.zeros(K, dtype=np.bool_), np.zeros((K, 0, 0)), np.zeros(K, dtype=np.int64),
        np.zeros((K, 0), dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64),
        np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros((K, 0)), np.zeros(K),
    )  # fmt: skip


@numba.njit(cache=True)
def shared_dots(cert, X, x):
    """``g[s] = X[union[s]] · x`` for every slot used; returns ``‖x‖²``."""
    for s in range(cert.n_union[0]):
        cert.g[s] = fixed_order_dot(X[cert.union[s]], x)
    return fixed_order_dot(x, x)


@numba.njit(cache=True)
def certified_v(cert, k, xx, mu):
    """Woodbury's ``v_k`` for learner k (``cert.z[k]``, ``cert.zz[k]`` filled), from this round's ``g``."""
    m, R, z, rows, g = cert.m[k], cert.R[k], cert.z[k], cert.rows[k], cert.g
    zz = 0.0
    for i in range(m):
        acc = g[rows[i]]
        Ri = R[i]
        for j in range(i):
            acc -= Ri[j] * z[j]
        z[i] = acc / Ri[i]
        zz += z[i] * z[i]
    cert.zz[k] = zz
    return (xx - zz) / mu


@numba.njit(cache=True)
def decide(v, xx, mu, thr, include_current):
    """+1 (asked) or −1 (not asked) if ``v`` certifies the decision ``r > thr``, 0 if it is within the margin."""
    if include_current:
        if thr >= 1.0:
            return -1  # r = v/(1 + v) < 1
        boundary = thr / (1.0 - thr)
    else:
        boundary = thr
    margin = CERT_MARGIN * (xx / mu)
    if v > boundary + margin:
        return 1
    if v < boundary - margin:
        return -1
    return 0


@numba.njit(cache=True)
def extend(cert, k, node, xx, mu):
    """Learner k updated on instance ``node``: one row more in its factor, from this round's ``z[k]``."""
    cap = cert.R.shape[1]
    m = cert.m[k]
    s = cert.slot[node]
    if s < 0:
        s = cert.n_union[0]
        cert.union[s] = node
        cert.slot[node] = s
        cert.n_union[0] = s + 1
    pivot = mu + xx - cert.zz[k]
    if pivot <= 0.0:  # cannot happen in exact arithmetic (it is µ(1 + v_k) >= µ): leave the certificate
        cert.active[k] = False
        return
    R = cert.R[k]
    for j in range(m):
        R[m, j] = cert.z[k, j]
    R[m, m] = math.sqrt(pivot)
    cert.rows[k, m] = s
    cert.m[k] = m + 1
    if m + 1 == cap:
        cert.active[k] = False
