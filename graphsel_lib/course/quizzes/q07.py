"""Self-check quiz of chapter 07: the low-rank kernel L_d^+, Eckart–Young, lambda_2 and the spectrum."""

import numpy as np

from ...graph import laplacian_pinv
from ...spectral import spectral_embedding
from ..quiz import Choice, Numeric, Quiz
from .small_graphs import path


def _path_error(d=1):
    """||L^+ - L_d^+||_2 on the path of 5 nodes, measured on the error matrix."""
    S = path(5)
    emb = spectral_embedding(S, 4, cache=False)
    return np.linalg.norm(laplacian_pinv(S) - emb.truncate(d).kernel(), 2)


def _path_logdet(d=2, mu=1.0):
    """sum_i ln(1 + nu_i / mu) over the eigenvalues nu_i of M M^T, rank d, path of 5 nodes."""
    M = spectral_embedding(path(5), d, cache=False).M
    return float(np.sum(np.log1p(np.linalg.eigvalsh(M @ M.T) / mu)))


QUIZ = Quiz(
    7,
    "The low-rank kernel",
    [
        Choice(
            r"What is the spectral-norm error $\|L^+ - L_d^+\|_2$ of the rank-$d$ kernel, with"
            r" $\sigma_1 \le \sigma_2 \le \dots$ the non-zero Laplacian eigenvalues?",
            (r"$1/\sigma_{d+1}$", r"$1/\sigma_d$", r"$\sigma_{d+1}$", r"$\sum_{i>d} 1/\sigma_i$"),
            0,
            r"$L^+ - L_d^+ = \sum_{i>d}\sigma_i^{-1}v_iv_i^\top$, whose largest eigenvalue is the first dropped"
            r" kernel eigenvalue $1/\sigma_{d+1}$; Eckart–Young says no rank-$d$ matrix does better.",
            {
                1: r"$1/\sigma_d$ is the smallest eigenvalue the kernel *keeps*, not one it drops.",
                2: r"That is an eigenvalue of $L$; the error is measured on $L^+$, whose eigenvalues are the"
                r" $1/\sigma_i$.",
                3: r"That is the trace (nuclear) norm of the error, exercise 3; the spectral norm is only the"
                r" largest term.",
            },
        ),
        Numeric(
            r"The path of 5 nodes has the non-zero Laplacian eigenvalues $2 - 2\cos(k\pi/5)$, $k = 1..4$."
            r" What is $\|L^+ - L_1^+\|_2$ (three decimals)?",
            0.7236,
            5e-4,
            r"The first dropped eigenvalue is $\sigma_2 = 2 - 2\cos(2\pi/5) = 1.382$, so the error is"
            r" $1/\sigma_2 = 0.724$.",
            _path_error,
        ),
        Numeric(
            r"Same path, rank $d = 2$, $\mu = 1$: what is the worst-case log-determinant term"
            r" $\sum_{i\le d}\ln(1 + \nu_i/\mu)$, with $\nu_i$ the eigenvalues of $\sum_t m_tm_t^\top$"
            r" (two decimals)?",
            1.83,
            5e-3,
            r"$\sum_t m_tm_t^\top = MM^\top = \operatorname{diag}(1/\sigma_1, 1/\sigma_2)$, so the term is"
            r" $\ln(1 + 1/0.382) + \ln(1 + 1/1.382) = 1.286 + 0.544 = 1.83$: a property of the graph alone.",
            _path_logdet,
        ),
        Choice(
            r"Why does the truncated kernel keep the algebraic connectivity $\lambda_2$ for every $d \ge 1$?",
            (
                r"Because $(L_d^+)^+ = \sum_{i\le d}\sigma_iv_iv_i^\top$ keeps the smallest non-zero"
                r" eigenvalue $\sigma_1 = \lambda_2$ among its eigenvalues",
                r"Because truncation adds $1/\lambda_2$ to the diagonal",
                r"Because Eckart–Young makes every eigenvalue of $L_d^+$ equal to one of $L$",
                r"It does not: $\lambda_2$ is only kept at $d = n - 1$",
            ),
            0,
            r"The pseudo-inverse inverts each non-zero eigenvalue on the same eigenvectors; the pair"
            r" $(\sigma_1, v_1)$ is the first one every truncation keeps.",
            {
                1: r"Truncation removes terms $\sigma_i^{-1}v_iv_i^\top$; it adds nothing.",
                2: r"The eigenvalues of $L_d^+$ are the $1/\sigma_i$, inverses of those of $L$, and Eckart–Young is"
                r" about the approximation error, not about $\lambda_2$.",
                3: r"$\sigma_1 = \lambda_2$ is kept from $d = 1$ on: it is the smoothest pair.",
            },
        ),
        Choice(
            r"How does $\|m_t\|^2 = (L_d^+)_{tt}$ change as the rank $d$ grows?",
            (
                r"It never decreases, and reaches $K_{tt} = (L^+)_{tt}$ at $d = n - 1$",
                r"It decreases towards 0",
                r"It does not depend on $d$",
                r"It can go up or down",
            ),
            0,
            r"$(L_d^+)_{tt} = \sum_{i\le d}(v_i)_t^2/\sigma_i$: each new pair adds a non-negative term. A larger"
            r" rank gives a more faithful kernel and a larger $R^2$ in the bounds of chapters 05–06.",
            {
                1: "Every added term is non-negative, so the sum cannot shrink.",
                2: r"Each pair with $(v_i)_t \ne 0$ adds $(v_i)_t^2/\sigma_i > 0$.",
                3: r"Only terms $\ge 0$ are added: the diagonal is monotone in $d$.",
            },
        ),
        Choice(
            r"A rank $d$ keeps $k$ of the $c > k$ copies of a repeated eigenvalue $\sigma$. Which of these is"
            r" *not* fixed by the graph alone?",
            (
                r"The kernel $L_d^+$ itself",
                r"Its error $\|L^+ - L_d^+\|_2$",
                r"The eigenvalues of $L_d^+$",
                r"The trace of $L_d^+$",
            ),
            0,
            r"Every $k$-dimensional subspace of the eigenspace gives an equally good kernel, and two of them"
            r" can differ by up to $1/\sigma$ in the spectral norm: a rule (the canonical basis) must pick one.",
            {
                1: r"The error is $1/\sigma_{d+1}$ for every choice of the subspace.",
                2: r"Every choice has the eigenvalues $1/\sigma_1, \dots, 1/\sigma_d$ (and zeros).",
                3: r"The trace is the sum of the eigenvalues, the same for every choice.",
            },
        ),
    ],
)
