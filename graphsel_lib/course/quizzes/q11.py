"""Self-check quiz of chapter 11: harmonic functions, class mass normalisation, MinEnt and LOOHL."""

import numpy as np
import scipy.sparse as sp

from ...transductive import harmonic
from ..quiz import Choice, Numeric, Quiz


def _triangle_f2():
    """The class-1 harmonic score of node 2: triangle 0-1-2, pendant node 3 on node 2; node 0 class 1, node 3 class 0."""
    edges = np.array([(0, 1), (1, 2), (0, 2), (2, 3)]).T
    S = sp.coo_matrix((np.ones(4), (edges[0], edges[1])), shape=(4, 4))
    return harmonic((S + S.T).tocsr(), np.array([1, -1, -1, 0]), [0, 3])[2, 1]


def _star():
    """The star of chapter 11 §2: seven leaves around node 0 (class 0), a path 7-8-9 to node 9 (class 1)."""
    edges = [(0, i) for i in range(1, 8)] + [(7, 8), (8, 9)]
    rows, cols = np.array(edges).T
    S = sp.coo_matrix((np.ones(len(edges)), (rows, cols)), shape=(10, 10))
    return (S + S.T).tocsr(), np.array([0] + [-1] * 8 + [1])


def _star_f7():
    """The class-1 harmonic score of node 7 on the star, without CMN."""
    S, y = _star()
    return harmonic(S, y, [0, 9])[7, 1]


def _star_cmn_class1_mass():
    """How many unlabelled nodes of the star CMN gives to class 1."""
    S, y = _star()
    F = harmonic(S, y, [0, 9], cmn=True)
    return float(np.sum(F[1:9].argmax(1) == 1))


QUIZ = Quiz(
    11,
    "Harmonic functions, CMN, MinEnt and LOOHL",
    [
        Choice(
            r"Which property defines the harmonic function $f$ on the unlabelled nodes?",
            (
                r"$f_i = \sum_j P_{ij}f_j$: each value is the weighted mean of its neighbours' values",
                r"$f_i$ is the label of the nearest labelled node",
                r"$f$ is the eigenvector of $L$ with the smallest non-zero eigenvalue",
                r"$f_i = \bar y$, the mean label, on every unlabelled node",
            ),
            0,
            r"$(Lf)_U = 0$ reads $d_if_i = \sum_jS_{ij}f_j$: the mean-value property, which gives the maximum"
            r" principle and the random-walk reading (the probability of hitting a positive label first).",
            {
                1: "That is nearest-neighbour labelling; the harmonic value averages over every path of the walk.",
                2: r"The Fiedler vector does not take the labels into account; $f$ is clamped to them.",
                3: "The mean label is LLGC's limit for a large weight (chapter 04), not the harmonic function.",
            },
        ),
        Numeric(
            r"A triangle on the nodes 0, 1, 2 and a fourth node 3 joined to node 2 only, all weights 1. Node 0"
            r" is labelled class 1, node 3 class 0. What is the harmonic class-1 score $f_2$ of node 2?",
            0.6,
            1e-9,
            r"The mean-value property: $f_1 = (1 + f_2)/2$ and $f_2 = (1 + f_1 + 0)/3$. Substituting,"
            r" $3f_2 = \tfrac32 + \tfrac12 f_2$, so $f_2 = 0.6$ and $f_1 = 0.8$: both between the labels 0 and 1.",
            _triangle_f2,
        ),
        Numeric(
            r"On the star of §2 (node 0 of class 0 with seven leaves $1..7$, the path $7 - 8 - 9$, node 9 of"
            r" class 1), what is the class-1 harmonic score $F_{7,1}$ of node 7 without CMN?",
            1 / 3,
            1e-9,
            r"The leaves $1..6$ have only node 0 as neighbour: score 0. Then $f_7 = (0 + f_8)/2$ and"
            r" $f_8 = (f_7 + 1)/2$, so $f_8 = 2/3$ and $f_7 = 1/3$: node 7 goes to class 0 without CMN.",
            _star_f7,
        ),
        Numeric(
            r"Same star, now with CMN and the prior $\pi = (\tfrac12, \tfrac12)$ of the two labels: how many of"
            r" the eight unlabelled nodes are given to class 1?",
            2.0,
            0.5,
            r"The class-1 mass on $V_U$ is $\tfrac13 + \tfrac23 = 1$, the class-0 mass $6 + \tfrac23 + \tfrac13 = 7$;"
            r" after rescaling node 7 has $\tfrac12\cdot\tfrac{2/3}{7} \approx 0.048$ against"
            r" $\tfrac12\cdot\tfrac{1/3}{1} \approx 0.167$: nodes 7 and 8 go to class 1.",
            _star_cmn_class1_mass,
        ),
        Choice(
            r"Why must the smoothing $\varepsilon_P$ of $\tilde P = (\varepsilon_P/n)\mathbb 1\mathbb 1^\top"
            r" + (1-\varepsilon_P)P$ be small on a sharp (small-$\omega$) graph?",
            (
                r"The walk needs many steps to reach a label, and each step jumps uniformly with probability"
                r" $\varepsilon_P$, which washes the scores out to the global label average",
                r"A large $\varepsilon_P$ makes $Z_{UU}$ singular",
                r"A large $\varepsilon_P$ makes the entropy of MinEnt infinite",
                r"$\varepsilon_P$ only changes the speed of the solver, not the scores",
            ),
            0,
            r"§3: the chance of reaching a label before the first jump falls with the number of steps needed,"
            r" so a sharp graph is washed out first; §6 calls such nodes stranded.",
            {
                1: r"Any $\varepsilon_P > 0$ makes $Z_{UU}$ strictly diagonally dominant, hence invertible.",
                2: r"The opposite: $\varepsilon_P > 0$ keeps every score positive, so the entropy stays finite.",
                3: "It changes the scores: see the table of §3.",
            },
        ),
        Choice(
            r"With $S_{ij} = \exp(-\sum_p (x_{ip}-x_{jp})^2/\omega_p^2)$, what is"
            r" $\partial\log S_{ij}/\partial\log\omega_p$, the factor that makes every partial derivative of"
            r" MinEnt and $Q_{\rm LOO}$ one $C$-sum?",
            (
                r"$2(x_{ip}-x_{jp})^2/\omega_p^2$",
                r"$-2(x_{ip}-x_{jp})^2/\omega_p^2$",
                r"$(x_{ip}-x_{jp})^2/\omega_p$",
                r"$2(x_{ip}-x_{jp})/\omega_p$",
            ),
            0,
            r"$\log S_{ij} = -\sum_p(x_{ip}-x_{jp})^2\omega_p^{-2}$ and $d\omega_p^{-2}/d\log\omega_p = -2\omega_p^{-2}$:"
            r" a larger bandwidth makes every weight larger. The factor does not depend on the class or the"
            r" adjoint, so one matrix $C$ serves all 64 pixels (§4).",
            {
                1: "The sign: widening a bandwidth shrinks the distance term and so raises the weight.",
                2: r"Differentiate in $\log\omega_p$, not in $\omega_p$, and keep the power $-2$.",
                3: "The pixel difference enters squared, as in the Gaussian weight.",
            },
        ),
        Choice(
            r"Pure LOOHL reaches a leave-one-out loss near 0 on few labels and yet errs far more than HEM"
            r" at $\omega_0$. Why does $Q_{\rm LOO}$ not see the problem?",
            (
                r"It scores only the held-out labelled nodes; unlabelled nodes cut off from every label"
                r" (stranded) never enter it",
                r"Its gradient is wrong for 64 bandwidths",
                r"It measures the entropy, which is low on a degenerate graph",
                r"The quasi-Newton search cannot minimise it",
            ),
            0,
            r"$Q_{\rm LOO} = \sum_{t\in V_L}\ell(f^t_t)$ depends on the unlabelled nodes only as stepping stones;"
            r" the reach probability of §6 is what detects stranded nodes.",
            {
                1: "The gradient is checked against a naive twin and finite differences (§5).",
                2: r"That is MinEnt's objective; $Q_{\rm LOO}$ is a loss of the held-out labelled scores.",
                3: "It minimises it very well: that is the problem.",
            },
        ),
        Choice(
            r"How do the $n_L$ leave-one-out systems $Z_t f = \cdots$ cost only $O(n_U^3 + n_Ln_U^2)$ in all?",
            (
                r"$Z_t$ is $Z_{UU}$ bordered by one row and column: one LU factorisation of $Z_{UU}$ and the Schur"
                r" complement $\beta_t$ give every $f^t_t$",
                r"Each $Z_t$ is inverted from scratch in $O(n_U^2)$",
                r"The systems are solved by conjugate gradients",
                r"The systems do not depend on $t$",
            ),
            0,
            r"§5: with $g_t = Z_{UU}^{-1}Z_{Ut}$ and $\beta_t = Z_{tt} - Z_{tU}g_t$ the bordered system is solved"
            r" from $F_U$ and $g_t$; two solves with $n_L$ right-hand sides do all of them.",
            {
                1: r"Inverting an $(n_U+1)\times(n_U+1)$ matrix from scratch costs $O(n_U^3)$ each: that is the"
                r" naive Algorithm 1.",
                2: "The library factorises once; iterations would not share work across the held-out nodes.",
                3: "They differ in the held-out node's row and column.",
            },
        ),
    ],
)
