"""Self-check quiz of chapter 02: the Laplacian kernel L^+ and the bounds behind the graph perceptron."""

import numpy as np

from ...graph import effective_resistance, kernel_diagonal
from ..quiz import Choice, Numeric, Quiz


def _adjacency(n, edges):
    """The unweighted adjacency (CSR) of the graph on ``n`` nodes with the given edges."""
    import scipy.sparse as sp

    i, j = np.array(edges).T
    S = sp.coo_matrix((np.ones(len(edges)), (i, j)), shape=(n, n))
    return (S + S.T).tocsr()


def _complete_graph_ktt(n=4):
    """K_tt on the complete graph with ``n`` nodes (every node alike)."""
    S = _adjacency(n, [(a, c) for a in range(n) for c in range(a + 1, n)])
    return kernel_diagonal(S).max()


def _diamond_resistance():
    """r_eff(1, 3) on the 4-cycle 0-1-2-3-0 with the chord {0, 2}."""
    S = _adjacency(4, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)])
    return effective_resistance(S, np.array([[1, 3]]))[0]


QUIZ = Quiz(
    2,
    "The Laplacian kernel and its bounds",
    [
        Choice(
            r"For a vector $g$ that does **not** sum to zero, what is $\langle K_s, g\rangle = K_s^\top L g$?",
            (r"$g_s$", r"$g_s - \bar g$", r"$K_{ss}\,g_s$", r"$0$"),
            1,
            r"$K_s^\top L g = e_s^\top L^+L g = e_s^\top(I - \tfrac1n\mathbb 1\mathbb 1^\top)g = g_s - \bar g$: the"
            r" kernel cannot see the constant direction, which is why unequal classes need a bias.",
            {
                0: r"Only for $g \in \mathcal H$, where $\bar g = 0$: the reproducing property.",
                2: r"$K_{ss}$ enters only for $g = K_s$, where $\langle K_s, K_s\rangle = K_{ss}$.",
                3: r"$L^+L$ is the projector onto $\mathcal H$, not zero: only the constant part of $g$ is lost.",
            },
        ),
        Numeric(
            r"On the complete graph with 4 nodes (unit weights), what is $K_{tt} = (L^+)_{tt}$?",
            3 / 16,
            1e-9,
            r"$L = 4I - \mathbb 1\mathbb 1^\top = 4(I - \tfrac14\mathbb 1\mathbb 1^\top)$, four times the projector"
            r" onto $\mathcal H$, so $L^+ = \tfrac14(I - \tfrac14\mathbb 1\mathbb 1^\top)$ and"
            r" $K_{tt} = \tfrac14\cdot\tfrac34 = 3/16$, below $1/\lambda_2 = 1/4$ and $\rho_t = 1$.",
            _complete_graph_ktt,
        ),
        Numeric(
            r"The 4-cycle $0-1-2-3-0$ with the chord $\{0, 2\}$, unit weights: what is $r_{\rm eff}(1, 3)$?",
            1.0,
            1e-9,
            r"By symmetry nodes 0 and 2 sit at the same potential when a current flows from 1 to 3, so the chord"
            r" carries no current: two paths of 2 ohms in parallel, $r_{\rm eff}(1, 3) = 1$.",
            _diamond_resistance,
        ),
        Choice(
            r"On the path with 100 nodes, which half of $\min(1/\lambda_2, \rho_t)$ binds?",
            (
                r"$1/\lambda_2$ at every node",
                r"$\rho_t$ at every node",
                r"$1/\lambda_2$ at the ends, $\rho_t$ in the middle",
                r"the two halves are equal",
            ),
            1,
            r"$\lambda_2 = 2 - 2\cos(\pi/100) \approx \pi^2/100^2$, so $1/\lambda_2 \approx 1013$, while every"
            r" eccentricity is between 50 and 99: on long thin graphs $1/\lambda_2$ grows like $n^2$, $\rho_t$"
            r" only like $n$.",
            {
                0: r"$1/\lambda_2$ binds on well-connected graphs; on a long path it is about $n^2/\pi^2$.",
                2: r"Even the ends have $\rho_t = 99$, far below $1/\lambda_2 \approx 1013$.",
                3: r"They grow at different rates: $n^2$ against $n$.",
            },
        ),
        Choice(
            r"The rank-$d$ kernel $L_d^+ = M^\top M$ keeps the $d$ smallest non-zero eigenpairs. What is"
            r" $\|L^+ - L_d^+\|_2$?",
            (r"$1/\sigma_{d+1}$", r"$1/\sigma_d$", r"$\sigma_{d+1}$", r"$\sum_{i>d} 1/\sigma_i$"),
            0,
            r"$L^+ - L_d^+ = \sum_{i>d}\sigma_i^{-1}v_iv_i^\top$ and the $\sigma_i^{-1}$ decrease with $i$, so its"
            r" largest eigenvalue is the first discarded one, $1/\sigma_{d+1}$.",
            {
                1: r"$1/\sigma_d$ is the smallest term that is **kept**.",
                2: r"The error is in $L^+$, whose eigenvalues are the inverses $\sigma_i^{-1}$.",
                3: r"That is the trace of the error (its nuclear norm), not its spectral norm.",
            },
        ),
        Choice(
            r"The perceptron bound $4\,\Phi(y)\max_t K_{tt}$ is above $n$ on the karate club (45.6 against 34)"
            r" but below it on the planted partition (114.5 against 200), which cuts far more edges. Why?",
            (
                r"The planted partition has balanced classes",
                r"Its nodes are all close to the rest of the graph: $\max_t K_{tt}$ is small",
                r"The bound grows with $n$",
                r"Karate is weighted",
            ),
            1,
            r"The bound is a product: a small cut is not enough, it also needs no remote node. Karate has a"
            r" pendant member with $K_{tt} = 1.037$; the planted partition's largest $K_{tt}$ is 0.134.",
            {
                0: r"Both labellings are balanced ($\sum_t y_t = 0$ in both).",
                2: r"Neither factor $\Phi(y)$ nor $\max_t K_{tt}$ grows with $n$ as such; it is compared with $n$.",
                3: r"The karate club of this collection is unweighted.",
            },
        ),
    ],
)
