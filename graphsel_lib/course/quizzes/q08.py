"""Self-check quiz of chapter 08: CMOG, conservative multiclass online learning on graphs."""

import numpy as np

from ...graph import laplacian
from ...online import CMOG, run
from ...online.cmog_msg import definition1_target
from ...spectral import spectral_embedding
from ..quiz import Choice, Numeric, Quiz


def _margin(f=(0.2, 0.5, 0.1), y=0):
    """f_t . y_t with Definition 1's target (the library's) for the scores f and the label y."""
    return float(np.dot(f, definition1_target(list(f), y)))


def _edge_second_score():
    """f_2(0) of CMOG (gamma = 1) on one edge, exact kernel, nodes 0 then 1 with labels 1 and 0."""
    import scipy.sparse as sp

    S = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
    M = spectral_embedding(S, 1, cache=False).M
    return float(run(CMOG(gamma=1.0), M, np.array([1, 0]), order=[0, 1]).scores[1, 0])


def _graph_comparator_trace():
    """tr(U_0^T U_0) for U_0 = M L Y on the path of 4 nodes labelled (0, 0, 1, 1), exact kernel."""
    import scipy.sparse as sp

    S = sp.diags([np.ones(3), np.ones(3)], [-1, 1], format="csr")
    M = spectral_embedding(S, 3, cache=False).M
    U0 = M @ (laplacian(S) @ np.eye(2)[[0, 0, 1, 1]])
    return float(np.trace(U0.T @ U0))


QUIZ = Quiz(
    8,
    "CMOG",
    [
        Choice(
            r"CMOG's scores are $f_t = (0.2, 0.5, 0.1)$ and the true class is $y_t = 0$. What is Definition 1's"
            r" target $\mathbf y_t$?",
            (r"$(1, -1, 0)$", r"$(1, 0, 0)$", r"$(1, 0, -1)$", r"$(0, -1, 0)$"),
            0,
            r"$\mathbf y_t = e_{y_t} - e_{j_t}$ with $j_t$ the highest-scoring *wrong* class, here class 1 (0.5).",
            {
                1: r"That is the one-hot target $e_{y_t}$; Definition 1 also puts $-1$ on the strongest rival.",
                2: r"The $-1$ goes to the highest-scoring other class, class 1, not the lowest.",
                3: r"The true class gets $+1$; the target sums to zero.",
            },
        ),
        Numeric(
            r"Same scores and label: what is the margin $f_t\cdot\mathbf y_t$?",
            -0.3,
            1e-9,
            r"$f_t\cdot\mathbf y_t = f_t(y_t) - \max_{j\ne y_t}f_t(j) = 0.2 - 0.5 = -0.3 < 0$: a mistake, as it"
            r" should be (the margin is negative iff the prediction is wrong).",
            _margin,
        ),
        Numeric(
            r"One edge of weight 1, exact kernel ($d = 1$): $\sigma_1 = 2$, so $m_t = \pm\tfrac12$ with opposite"
            r" signs. CMOG with $\gamma = 1$ sees node 1 (label 1), then node 2 (label 0); round 1 predicts"
            r" class 0 (all scores 0, ties to the smallest index). What is the score $f_2(0)$ in round 2"
            r" (VAW form)?",
            1 / 6,
            1e-9,
            r"Round 1 is a mistake with target $(-1, +1)$: $A_1 = 1 + \tfrac14$, $B_1 = m_1(-1, +1)$. Then"
            r" $f_2 = B_1^\top(A_1 + m_2^2)^{-1}m_2 = (-1, +1)\,m_1m_2/\tfrac32 = (\tfrac16, -\tfrac16)$ since"
            r" $m_1m_2 = -\tfrac14$ (whatever the sign of $v_1$): round 2 predicts class 0, correctly.",
            _edge_second_score,
        ),
        Choice(
            r"Why can CMOG predict with the plain scores $W_{t-1}^\top m_t$ instead of the VAW scores"
            r" $B_{t-1}^\top(A_{t-1} + m_tm_t^\top)^{-1}m_t$?",
            (
                r"The VAW scores are $W_{t-1}^\top m_t/(1 + v_t)$, a positive factor common to all classes, so the"
                r" argmax is the same",
                r"The two are equal",
                r"Because $A_{t-1}$ is diagonal",
                r"It cannot: the predictions differ",
            ),
            0,
            r"Sherman–Morrison gives $(A + mm^\top)^{-1}m = A^{-1}m/(1 + v_t)$; the factor $1/(1+v_t) > 0$"
            r" rescales every class score alike.",
            {
                1: r"They differ by the factor $1/(1 + v_t)$; only their argmax agrees.",
                2: r"$A_{t-1} = \gamma I + \sum m_sm_s^\top$ is not diagonal in general.",
                3: r"Every prediction and every update is the same (§3 checks it).",
            },
        ),
        Choice(
            r"Which step of Theorem 1's proof fails for one-hot targets $\mathbf y_t = e_{y_t}$?",
            (
                r"$\mathbf y_t\cdot f_t \le 0$ on a mistake",
                r"Lemma 2's telescoping",
                r"$r_t \le \ln(1 + v_t)$",
                r"The choice of the best $h$",
            ),
            0,
            r"$e_{y_t}\cdot f_t = f_t(y_t)$ can be positive on a mistake (another class scored higher still), so"
            r" the brace $(1 + v_t)\|f_t\|^2 - 2\,\mathbf y_t\cdot f_t$ can be negative.",
            {
                1: r"Lemma 2 holds for any target; only its constant $\|\mathbf y_t\|^2$ changes.",
                2: r"That inequality is about $v_t$ alone, whatever the targets.",
                3: r"Optimising $h$ is the same calculation for every target.",
            },
        ),
        Numeric(
            r"The path of 4 nodes labelled $(0, 0, 1, 1)$, exact kernel: what is $\operatorname{tr}(U_0^\top U_0)$"
            r" for the graph comparator $U_0 = MLY$?",
            2.0,
            1e-8,
            r"$\operatorname{tr}(U_0^\top U_0) = \operatorname{tr}(Y^\top LL^+LY) = \operatorname{tr}(Y^\top LY) ="
            r" 2\Phi(y)$: the one cut edge counts once in each of the two class columns.",
            _graph_comparator_trace,
        ),
        Choice(
            r"At the best $h$ the printed bound for $cU_0$ is $\sum_t[1 - c\beta_t]_+ + c\psi$. When does some"
            r" $c > 0$ beat the trivial bound $T$?",
            (
                r"Iff $\psi < \sum_t\beta_t$",
                r"Iff $\psi < T$",
                r"Iff the cut $\Phi(y)$ is small",
                r"Always, for $c$ small enough",
            ),
            0,
            r"The bound is convex in $c$, equals $T$ at $c = 0$, and its slope there is $\psi - \sum_t\beta_t$"
            r" (exercise 3).",
            {
                1: r"With margins near 1 this is roughly right, but the exact condition compares $\psi$ with the"
                r" total margin, which can be far below $T$.",
                2: r"A small cut is not enough: $\psi$ also grows with $\sum_t r_t$ (§5, the exact graph comparator"
                r" on Coauthor).",
                3: r"If $\psi \ge \sum_t\beta_t$ the slope at 0 is non-negative and convexity keeps the bound"
                r" at or above $T$.",
            },
        ),
    ],
)
