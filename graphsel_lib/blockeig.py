"""Block LOBPCG whose time goes to sparse products: a Chebyshev–Jacobi polynomial preconditioner.

The solver behind ``spectral_embedding(..., method="lobpcg-chebyshev")``. It is the block LOBPCG of
Knyazev (SIAM J. Sci. Comput. 23, 2001) with guard vectors and soft locking, as ``"lobpcg-jacobi"``,
with the changes below, which move the cost from the dense Rayleigh–Ritz algebra (O(n k²) per iteration for
a block of k vectors) to sparse products (O(nnz · k)):

* **the preconditioner** is a degree-``m`` Chebyshev polynomial in the Jacobi-scaled Laplacian,
  ``T = p_m(D⁻¹L) D⁻¹`` with ``p_m(x) ≈ 1/x`` on ``[a, b]`` (``m`` steps of the Chebyshev
  semi-iteration for ``L w = r`` preconditioned by ``D``; Saad, *Iterative Methods for Sparse
  Linear Systems*, 2nd ed., Alg. 12.1). The spectrum of ``D⁻¹L`` lies in ``[0, 2]``; ``p_m > 0`` on
  ``(0, 2]``, so ``T`` is symmetric positive definite on the complement of the constant vector, and
  a fixed linear operator (unlike inner CG). ``m = 0`` is the Jacobi preconditioner ``D⁻¹``. A
  better preconditioner needs fewer outer iterations, hence fewer Rayleigh–Ritz steps. Unlike a
  Chebyshev filter in ``L`` itself (Zhou & Saad 2007), whose rate is set by ``λ_max(L)`` (the largest
  degree: 12,312 on the 10⁶-node ``datasets.sbm``), the polynomial here is in ``D⁻¹L``, whose
  spectrum stays in ``[0, 2]`` whatever the degrees. It runs in float32 (it only steers the
  search), each step one fused compiled pass over the rows (``_chebyshev_step``: the product with
  ``L``, the residual and the two updates, no n x k temporary);
* **mixed precision** (``block_lobpcg(..., mixed=True)``, what ``"lobpcg-chebyshev"`` uses): the
  iterations run in float32 until float32's rounding stops them, then in float64 to the tolerance.
  On ``datasets.sbm`` (d = 100) float32 ran 29 of 42 iterations at 10⁶ nodes (its floor, about
  ε₃₂·λ_max, is higher where the largest degree is); 1.1–1.25x faster than float64 alone from 10⁴
  to 3·10⁵ nodes (``benchmarks/bench_spectral.py``);
* **the same memory every iteration**: the n x k work blocks (residuals, search directions, their
  products with ``L``, the preconditioner's) are kept between iterations (:class:`_Blocks`), and
  column norms and projections are taken by chunks of rows, so an iteration allocates no new n x k
  block: at 10⁶ nodes each new one cost 0.5-3.5 s of page faults here (see :class:`_Blocks`);
* **one projection pass** against the block (Gram–Schmidt), repeated only for the columns that lost
  more than 99.9 % of their norm in it ("twice is enough" where it is needed);
* **sparse-times-block products** by a compiled CSR kernel run on every core (``spmm``; scipy's is
  single-threaded).
"""

from __future__ import annotations

from contextlib import nullcontext

import numba
import numpy as np
import scipy.linalg as sla
from threadpoolctl import threadpool_limits

__all__ = ["spmm", "chebyshev_jacobi", "block_lobpcg", "DENSE_THREADS"]

# BLAS threads of the dense algebra. One: on 2 cores, while ``spmm`` uses both and other work runs
# (load ~8), OpenBLAS on 2 threads was 2-9x slower than on one for the n x k products and 40x for the
# eigh of the small Rayleigh-Ritz matrix (benchmarks/bench_spectral.py docstring, 2026-11-28).
DENSE_THREADS = 1


@numba.njit(parallel=True, cache=True)
def _csr_mm(indptr, indices, data, X, out):  # pragma: no cover - compiled
    n, k = out.shape
    for i in numba.prange(n):
        for c in range(k):
            out[i, c] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            a = data[p]
            for c in range(k):
                out[i, c] += a * X[j, c]
    return out


def spmm(A, X, out=None):
    """``A @ X`` for a CSR matrix ``A`` and a dense block ``X`` (C order), rows split over the cores;
    into ``out`` (C order, ``X``'s dtype) if given.

    >>> import numpy as np, scipy.sparse as sp
    >>> A = sp.csr_matrix(np.array([[2.0, -1.0], [-1.0, 1.0]]))
    >>> spmm(A, np.eye(2)).tolist()
    [[2.0, -1.0], [-1.0, 1.0]]
    """
    X = np.ascontiguousarray(X)
    if X.ndim != 2 or X.shape[0] != A.shape[1]:
        raise ValueError(f"X must have shape ({A.shape[1]}, k), got {X.shape}")
    if out is None:
        out = np.empty((A.shape[0], X.shape[1]), dtype=X.dtype)
    elif out.shape != (A.shape[0], X.shape[1]) or out.dtype != X.dtype or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-ordered {X.dtype} array of shape {(A.shape[0], X.shape[1])}")
    return _csr_mm(A.indptr, A.indices, A.data.astype(X.dtype, copy=False), X, out)


@numba.njit(parallel=True, cache=True)
def _chebyshev_step(indptr, indices, data, dinv, old, res, new, W, a, b):  # pragma: no cover - compiled
    """One step of the Chebyshev semi-iteration, fused and in place: ``res -= D⁻¹ L old``;
    ``new = a·old + b·res``; ``W += new`` (row by row, no n x k temporary)."""
    n, k = old.shape
    for i in numba.prange(n):
        di = dinv[i]
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            w = di * data[p]
            for c in range(k):
                res[i, c] -= w * old[j, c]
        for c in range(k):
            s = a * old[i, c] + b * res[i, c]
            new[i, c] = s
            W[i, c] += s


def chebyshev_jacobi(L, m, a=None, b=2.0, dtype=np.float32):
    """The preconditioner ``R ↦ p_m(D⁻¹L) D⁻¹ R``, ``p_m(x) ≈ 1/x`` on ``[a, b]`` (Saad Alg. 12.1).

    ``m`` steps of the Chebyshev semi-iteration for ``L W = R`` preconditioned by ``D = diag(L)``
    from ``W = 0``: ``m`` products with ``L``. ``a`` defaults to ``2 / (m + 1)²``, the scale a degree-``m``
    polynomial resolves near 0. ``m = 0`` gives ``D⁻¹ R``. The returned function ``apply(R, out=None)``
    computes in ``dtype`` and answers in ``R``'s dtype, into ``out`` if given (any layout); it keeps its
    work blocks between calls (see :class:`_Blocks`), so one ``apply`` must not run in two threads at once.
    """
    L = L.tocsr()
    dinv = (1.0 / L.diagonal()).astype(dtype)
    if m == 0:
        return lambda R, out=None: _answer(dinv[:, None] * R, R, out)
    a = 2.0 / (m + 1) ** 2 if a is None else a
    if not 0 < a < b:
        raise ValueError(f"need 0 < a < b for the Chebyshev interval, got a={a}, b={b}")
    Lc = L.astype(dtype)
    theta, delta = (b + a) / 2, (b - a) / 2
    sigma = theta / delta
    scalar = np.dtype(dtype).type
    blocks = _Blocks(L.shape[0], dtype)

    def apply(R, out=None):
        k = R.shape[1]
        res, step, W, new = (blocks(name, k) for name in ("res", "step", "W", "new"))
        np.multiply(dinv[:, None], R, out=res, dtype=dtype, casting="same_kind")
        np.divide(res, scalar(theta), out=step)
        np.copyto(W, step)
        rho = 1.0 / sigma
        for _ in range(m - 1):
            rho_new = 1.0 / (2.0 * sigma - rho)
            coef = (scalar(rho_new * rho), scalar(2.0 * rho_new / delta))
            _chebyshev_step(Lc.indptr, Lc.indices, Lc.data, dinv, step, res, new, W, *coef)
            step, new = new, step
            rho = rho_new
        return _answer(W, R, out)

    return apply


def _answer(W, R, out):
    """``W`` in ``R``'s dtype: copied into ``out`` if given, else a new array (``W`` may be a work block)."""
    if out is None:
        return W.astype(R.dtype, copy=True)
    np.copyto(out, W)  # no temporary, whatever out's layout
    return out


class _Blocks:
    """Work blocks of ``n`` rows kept between the iterations: ``blocks(name, m)`` is a C-ordered n x m
    view of the buffer ``name``, grown when ``m`` exceeds what it holds.

    At 10⁶ nodes a fresh n x 150 block is 0.6-1.2 GB of new pages: its first touch cost 0.5-3.5 s
    here (page faults, and the kernel compacting memory for huge pages), and an iteration made about
    ten. Keeping them (with the chunked norms and projections) took a 10⁵-node run from 54.5 to 42.3 s
    (the whole process, median of 3 paired runs; system time 10.0 -> 2.2 s) and the 10⁶-node solve to
    1.5e-7 from 928 to 588 s (``benchmarks/bench_spectral.py`` docstring), for ~20 % more peak memory.
    """

    def __init__(self, n, dtype):
        self.n, self.dtype, self._buffers = n, np.dtype(dtype), {}

    def __call__(self, name, m):
        buf = self._buffers.get(name)
        if buf is None or buf.size < self.n * m:
            buf = self._buffers[name] = np.empty(self.n * m, dtype=self.dtype)
        return buf[: self.n * m].reshape(self.n, m)


STALL_AFTER, STALL_WINDOW = 8, 3  # mixed precision: float32 stops when it no longer gains (block_lobpcg)
ROWS = 8192  # rows per chunk of the n x k products made in place (a chunk of 300 columns: 20 MB)


def _row_chunks(n):
    """The slices of ``ROWS`` rows that cover ``n`` rows: the chunks every n x k pass below walks."""
    return (slice(start, start + ROWS) for start in range(0, n, ROWS))


def _by_rows(out, fn, *blocks):
    """``out[r] = fn(B₁[r], B₂[r], …)`` for chunks ``r`` of ``ROWS`` rows; ``out`` may be one of the blocks.

    An n x k product without an n x k temporary (at 10⁶ nodes a block of 150 columns is 1.2 GB,
    and every new one costs its page faults): ``fn`` must act on each row independently.
    """
    for r in _row_chunks(out.shape[0]):
        out[r] = fn(*(B[r] for B in blocks))
    return out


def _gram(A, B):
    """``AᵀB`` in float64; for float32 blocks summed by chunks of ``ROWS`` rows in float64 (rounding error
    ``ε₃₂·√ROWS`` instead of ``ε₃₂·√n``: the float32 phase's floor)."""
    if A.dtype == np.float64:
        return A.T @ B
    G = np.zeros((A.shape[1], B.shape[1]))
    for r in _row_chunks(A.shape[0]):
        G += A[r].T @ B[r]
    return G


def _column_norms(Z):
    """The Euclidean norm of each column: sums of squares by chunks of ``ROWS`` rows (in ``Z``'s precision),
    added in float64 (no n x k temporary)."""
    sq = np.zeros(Z.shape[1])
    for r in _row_chunks(Z.shape[0]):
        sq += np.einsum("ij,ij->j", Z[r], Z[r])
    return np.sqrt(sq)


def _normalize_columns(Z):
    """``Z`` with its zero columns dropped and the others scaled to unit norm (in place if none is)."""
    norms = _column_norms(Z)
    keep = norms > 0
    if not keep.all():
        Z, norms = Z[:, keep], norms[keep]
    Z /= norms.astype(Z.dtype)
    return Z


def _subtract_projection(Z, B):
    """``Z − B (Bᵀ Z)`` in place (``B`` orthonormal)."""
    if B.shape[1]:
        C = _gram(B, Z).astype(Z.dtype)
        for r in _row_chunks(Z.shape[0]):
            Z[r] -= B[r] @ C if B.shape[1] > 1 else B[r] * C  # one column: a broadcast, not a GEMM
    return Z


# Relative thresholds by precision: a Gram eigenvalue below ``drop`` times the largest is a dependent
# direction; a column left with less than ``lost`` of its unit norm after projection is rounding.
_DROP = {np.dtype(np.float64): 1e-12, np.dtype(np.float32): 1e-5}
_LOST = {np.dtype(np.float64): 1e-10, np.dtype(np.float32): 1e-4}


def _svqb(Z):
    """Orthonormal columns spanning ``Z`` (unit columns): ``Z U s^{-1/2}`` from ``ZᵀZ = U s Uᵀ``.

    The small eigenproblem is solved in float64 whatever the precision of ``Z``.
    """
    s, U = np.linalg.eigh(_gram(Z, Z))
    keep = s > _DROP[Z.dtype] * s.max()
    T = (U[:, keep] / np.sqrt(s[keep])).astype(Z.dtype)
    out = Z if keep.all() else np.empty((Z.shape[0], T.shape[1]), dtype=Z.dtype)
    return _by_rows(out, lambda z: z @ T, Z)


def _project(Z, Y, X):
    """``Z`` orthonormal and orthogonal to the orthonormal ``Y`` and ``X``; a second pass where needed.

    ``Z`` is overwritten.
    """
    Z = _normalize_columns(Z)
    _subtract_projection(Z, Y)
    _subtract_projection(Z, X)
    after = _column_norms(Z)
    weak = after < 1e-3  # lost > 99.9 % of the (unit) norm: rounding left in it is not small
    if weak.any():
        Z[:, weak] = _subtract_projection(_subtract_projection(Z[:, weak], Y), X)
    strong = after > _LOST[Z.dtype]
    Z = _normalize_columns(Z if strong.all() else Z[:, strong])
    return _svqb(Z)


def block_lobpcg(
    L, X, Y, n_wanted, maxiter, rtol, precond, matmul=spmm, callback=None, timer=None, mixed=False
):  # fmt: skip
    """LOBPCG for the smallest eigenpairs of ``L`` (CSR) on the complement of the orthonormal ``Y``.

    ``precond(R, out)`` writes the search directions for a block of residuals into ``out`` (e.g.
    :func:`chebyshev_jacobi`); ``matmul(L, Z, out=None)`` is the product with ``L`` (:func:`spmm`).
    Rayleigh–Ritz on ``[X, Z]`` with ``Z = [T R_active, P_active]`` (soft locking: converged columns
    get no new directions); stops when the first ``n_wanted`` columns have
    ``‖Lx − θx‖ ≤ max(rtol · θ_max, floor)``. Returns Ritz values (ascending), vectors, residual
    norms, the iteration count and the number of products with ``L`` (in columns).
    ``callback(it, theta, res)``, if given, sees every iteration (progress of a long run);
    ``timer(phase)``, if given, returns a context manager wrapped around each phase (profiling).

    **Mixed precision** (``mixed=True``): the iteration first runs in float32 (every n x k block,
    the products with ``L`` and the preconditioner; Gram matrices summed in float64 by chunks of
    rows, small eigenproblems in float64) until the wanted residuals stop falling (after at least
    ``STALL_AFTER`` iterations, no gain of 10 % on the best of the last ``STALL_WINDOW``: float32's
    rounding floor, about 10⁻⁵ θ_max on the block-model graphs of the benchmark), then goes on in
    float64 from its vectors and search directions. Half the memory traffic and twice the flops
    per cycle while the residuals are large; the stopping test and the answer are float64's.
    Iterations are counted over both phases; the callback sees the float64 phase start again at
    the iteration where float32 stopped.
    """
    with threadpool_limits(limits=DENSE_THREADS, user_api="blas"):
        P, it0, cols0 = None, 0, 0
        if mixed:
            _, X, _, it0, cols0, P = _block_lobpcg(
                L.astype(np.float32), X.astype(np.float32), Y.astype(np.float32), n_wanted, maxiter,
                rtol, precond, matmul, callback, timer, single=True,
            )  # fmt: skip
            X, P = X.astype(np.float64), P.astype(np.float64)
        theta, X, res, it, cols, _ = _block_lobpcg(
            L, X, Y, n_wanted, maxiter - it0, rtol, precond, matmul, callback, timer, P=P, it0=it0
        )
        return theta, X, res, it, cols + cols0


def _block_lobpcg(
    L, X, Y, n_wanted, maxiter, rtol, precond, matmul, callback, timer, P=None, it0=0, single=False
):  # fmt: skip
    """The iteration of :func:`block_lobpcg` in the precision of ``X``, from the search directions ``P``;
    ``single``: the float32 phase, which also stops when the residuals stall. Returns what
    :func:`block_lobpcg` does, plus the last search directions."""
    timer = timer or (lambda phase: nullcontext())
    k, dtype = X.shape[1], X.dtype
    floor = 100 * np.finfo(float).eps * float(abs(L).sum(axis=1).max())
    with timer("setup: project"):
        X = _project(np.array(X, dtype=dtype), Y, np.empty((X.shape[0], 0), dtype=dtype))
    with timer("products L·block"):
        LX = matmul(L, X)
    with timer("setup: Rayleigh-Ritz"):
        theta, C = np.linalg.eigh(_gram(X, LX))
        C = C.astype(dtype)
        X = _by_rows(X, lambda x: x @ C, X)
        LX = _by_rows(LX, lambda lx: lx @ C, LX)
    n = X.shape[0]
    blocks = _Blocks(n, dtype)  # R, Z, LZ and ZC: the same memory every iteration
    P = np.empty((n, 0), dtype=dtype) if P is None else P
    columns = k
    history = []
    for it in range(it0, it0 + maxiter + 1):
        with timer("residuals"):
            theta_x = theta.astype(dtype)
            R = _by_rows(blocks("R", k), lambda lx, x, t=theta_x: lx - x * t, LX, X)
            res = _column_norms(R)
        tol = max(rtol * theta[-1], floor)
        if callback is not None:
            callback(it, theta, res)
        worst = float(res[:n_wanted].max())
        if worst <= tol or it == it0 + maxiter:
            break
        if single and len(history) >= STALL_AFTER and worst > 0.9 * min(history[-STALL_WINDOW:]):
            break
        history.append(worst)
        active = np.flatnonzero(res > tol)
        n_active, n_p = len(active), P.shape[1]
        Z = blocks("Z", n_active + n_p)
        with timer("preconditioner"):
            if n_active < k:  # the active columns first, in place (a view with R's row stride)
                R = _by_rows(R[:, :n_active], lambda r, a=active: r[:, a], R)
            precond(R, out=Z[:, :n_active])
            np.copyto(Z[:, n_active:], P)
            R = P = None
        with timer("project/orthonormalise"):
            Z = _project(Z, Y, X)
        with timer("products L·block"):
            LZ = matmul(L, Z, out=blocks("LZ", Z.shape[1]))
        columns += Z.shape[1]
        with timer("Rayleigh-Ritz: Gram"):
            XLZ, ZLZ = _gram(LX, Z), _gram(Z, LZ)
            H = np.block([[np.diag(theta), XLZ], [XLZ.T, ZLZ]])
        with timer("Rayleigh-Ritz: eigh"):
            theta, C = sla.eigh((H + H.T) / 2, subset_by_index=[0, k - 1])
            C = C.astype(dtype, copy=False)
        with timer("Rayleigh-Ritz: update"):
            Cx, Cz = C[:k], C[k:]
            ZC = _by_rows(blocks("ZC", k), lambda z, c=Cz: z @ c, Z)
            X = _by_rows(X, lambda x, zc, c=Cx: x @ c + zc, X, ZC)
            del Z
            LX = _by_rows(LX, lambda lx, lz, a=Cx, b=Cz: lx @ a + lz @ b, LX, LZ)
            del LZ
            # the next search directions: the active columns of ZC, in place (a view with ZC's row stride)
            P = ZC if n_active == k else _by_rows(ZC[:, :n_active], lambda zc, a=active: zc[:, a], ZC)
    return theta, X, res, it, columns, P
