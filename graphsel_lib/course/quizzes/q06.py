"""Self-check quiz of chapter 06: selective sampling with LLGC (SSLGC), its query rule and label complexity."""

import numpy as np

from ...online import SSLGC, run
from ...theory import sslgc_bias_variance
from ..quiz import Choice, Numeric, Quiz
from .small_graphs import path_features


def _queries_on_the_path(mu=1.0, kappa=1.0):
    """N_T of SSLGC on the path of 3 nodes in the order 1, 2, 3 (labels +1, +1, -1)."""
    M = path_features()
    trace = run(SSLGC(mu=mu, kappa=kappa), M, np.array([1, 1, -1]), order=np.arange(3))
    return trace.n_queried


def _r_after_one_update(mu=1.0):
    """r_3 of the end node 3 once node 1 has entered A (A_{t-1} = mu I + m_1 m_1^T)."""
    M = path_features()
    A = mu * np.eye(2) + np.outer(M[:, 0], M[:, 0])
    return sslgc_bias_variance(A, M, mu=mu, u=np.zeros(2), nodes=[2]).r[0]


QUIZ = Quiz(
    6,
    "Selective sampling with LLGC (SSLGC)",
    [
        Choice(
            r"SSLGC queries round $t$ iff $r_t > t^{-\kappa}$, with $r_t = v_t/(1 + v_t)$. Why is round 1 never"
            r" queried, whatever $\kappa$ and the node?",
            (
                r"Because $A_0 = \mu I$ is too large",
                r"Because $r_1 < 1 = 1^{-\kappa}$",
                r"Because $w_0 = 0$ predicts $+1$",
                r"It is queried when $\kappa$ is large",
            ),
            1,
            r"With the current node inside $A$, $r_t = v_t/(1 + v_t) < 1$ for every $t$, and the threshold of"
            r" round 1 is $1^{-\kappa} = 1$.",
            {
                0: r"Any $\mu > 0$ gives the same conclusion; what matters is $r_t < 1$.",
                2: "The query rule does not look at the prediction.",
                3: r"$1^{-\kappa} = 1$ for every $\kappa$.",
            },
        ),
        Numeric(
            r"The path 1 – 2 – 3 (unit weights), exact kernel ($d = 2$), $\mu = 1$, $\kappa = 1$, rounds in the order"
            r" 1, 2, 3. How many labels does SSLGC query? (Hint: $(L^+)_{22} = 2/9$ and $(L^+)_{33} = 5/9$.)",
            1.0,
            0.5,
            r"Round 1 never queries. Nothing entered $A$, so $v_t = (L^+)_{tt}/\mu$: round 2 has $r_2 = 2/11 < 1/2$,"
            r" round 3 has $r_3 = 5/14 > 1/3$. One query.",
            _queries_on_the_path,
        ),
        Numeric(
            r"Same path and $\mu = 1$. SSLGC has updated once, on node 1, so $A_{t-1} = \mu I + m_1m_1^\top$."
            r" Node 3 arrives: what is its $r_3$? ($\|m_1\|^2 = \|m_3\|^2 = 5/9$, $m_1^\top m_3 = -4/9$.)",
            0.3,
            1e-9,
            r"Sherman–Morrison: $v_3 = \|m_3\|^2 - (m_1^\top m_3)^2/(1 + \|m_1\|^2) = \tfrac59 - \tfrac{16/81}{14/9}"
            r" = \tfrac37$, so $r_3 = \frac{3/7}{10/7} = 0.3$: the update on node 1 made node 3 less uncertain"
            r" (it was $5/14$ before).",
            _r_after_one_update,
        ),
        Choice(
            r"Under gu2013's label model, why is $\operatorname{Var}[\hat\Delta_t] \le r_t$?",
            (
                r"Because every label has variance at most 1 and $X_{\mathcal U}X_{\mathcal U}^\top \preceq \bar A_t$",
                r"Because $\hat\Delta_t$ is unbiased",
                r"Because $r_t < 1$",
                r"Because SSLGC queries when $r_t$ is large",
            ),
            0,
            r"With $\bar A_t = A_{t-1} + m_tm_t^\top$: $\operatorname{Var}[\hat\Delta_t] = \sum_{s\in\mathcal U}"
            r"(m_t^\top \bar A_t^{-1}m_s)^2(1 - {\Delta^\star_s}^2) \le m_t^\top \bar A_t^{-1}X_{\mathcal U}X_{\mathcal U}^\top"
            r" \bar A_t^{-1}m_t \le m_t^\top \bar A_t^{-1}m_t = r_t$.",
            {
                1: r"It is not: its bias is $\operatorname{bias}_t$, bounded through $r_t$ as well.",
                2: r"$r_t < 1$ says nothing about the variance by itself.",
                3: "The query rule uses the bound; it does not prove it.",
            },
        ),
        Choice(
            r"Which premise of the log-determinant step $(\ast)$ of gu2013's label-complexity proof does SSLGC"
            r" break?",
            (
                r"The threshold $t^{-\kappa}$ must be at least $T^{-\kappa}$",
                r"Every queried round must enter $A$, but SSLGC adds only its queried mistakes",
                r"The labels must be noise-free",
                r"$\mu$ must be at least 1",
            ),
            1,
            r"The lemma bounds $\sum r_t$ over the rounds that entered $A$. A queried round that SSLGC predicted"
            r" correctly keeps its $r_t$ in $\sum_{\mathcal Q}r_t$ but never grows $A$: the term $\sum_C r_t$.",
            {
                0: r"$t^{-\kappa} \ge T^{-\kappa}$ holds for every $t \le T$: that step is fine.",
                2: "The proof of the label complexity uses no label model.",
                3: r"$\mu$ only enters through $\ln(1 + N_T/(\mu d))$.",
            },
        ),
        Choice(
            r"On Cora with $d = 100$ both label-complexity bounds exceed $T$ once $\kappa$ is moderate. Which factor"
            r" makes every bound of the form $T^\kappa d\ln(1 + TR^2/(\mu d))$ vacuous as $\kappa$ grows?",
            (r"$T^\kappa$, from bounding $t^\kappa \le T^\kappa$", r"The logarithm", r"$R^2$", r"$\mu$"),
            0,
            r"The bound exceeds $T$ as soon as $T^{1-\kappa} < d\ln(1 + TR^2/(\mu d))$: the worst-case step"
            r" $t^\kappa \le T^\kappa$ and the factor $d$ decide, the logarithm grows slowly.",
            {
                1: r"The logarithm grows slowly in $T$; it is the polynomial $T^\kappa$ that wins.",
                2: r"$R^2$ sits inside the logarithm.",
                3: r"$\mu$ sits inside the logarithm too.",
            },
        ),
    ],
)
