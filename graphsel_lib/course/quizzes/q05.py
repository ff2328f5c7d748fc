"""Self-check quiz of chapter 05: online LLGC, Sherman–Morrison, regret and mistake bounds."""

import numpy as np

from ...online import OLLGC, RidgeState, run
from ...theory import ollgc_bounds
from ..quiz import Choice, Numeric, Quiz
from .small_graphs import path_features


def _first_r(mu=1.0):
    """r_1 of the end node of the path of 3 nodes: A_0 = mu I, so v_1 = (L^+)_11 / mu."""
    M = path_features()
    _, v = RidgeState(M.shape[0], mu).variance(M[:, 0])
    return v / (1 + v)


def _one_mistake_bound(mu=1.0):
    """2 J* + sum_M r_t of OLLGC on the path of 3 nodes, labels (-1, +1, +1), order 1, 2, 3."""
    M = path_features()
    y = np.array([-1, 1, 1])
    trace = run(OLLGC(mu=mu), M, y, order=np.arange(3))
    res = ollgc_bounds(M, trace, mu=mu, u=np.zeros(M.shape[0]))
    assert res.n_mistakes == 1  # only round 1 errs (score 0 predicts +1)
    return res.cor5_data


QUIZ = Quiz(
    5,
    "Online LLGC (OLLGC)",
    [
        Choice(
            r"OLLGC errs in round $t$ (score $w_{t-1}^\top m_t$, label $y_t$). With $a = A_{t-1}^{-1}m_t$ and"
            r" $v_t = m_t^\top a$, what is $w_t$?",
            (
                r"$w_{t-1} + \dfrac{y_t - w_{t-1}^\top m_t}{1 + v_t}\,a$",
                r"$w_{t-1} + y_t\,m_t$",
                r"$w_{t-1} + (y_t - w_{t-1}^\top m_t)\,a$",
                r"$w_{t-1} - \dfrac{a a^\top}{1 + v_t}\,m_t$",
            ),
            0,
            r"Sherman–Morrison applied to $A_t = A_{t-1} + m_tm_t^\top$ and $b_t = b_{t-1} + y_tm_t$: the residual"
            r" $\xi_t$ is shrunk by $1 + v_t$, because $m_t$ now sits inside $A_t$.",
            {
                1: r"That is the perceptron's step; OLLGC's step is second order (it goes through $A^{-1}$).",
                2: r"The factor $1/(1 + v_t)$ is missing: this would be the step with $A_{t-1}$ instead of $A_t$.",
                3: r"That is the change of $A^{-1}$ applied to $m_t$, not the change of $w$.",
            },
        ),
        Numeric(
            r"The path 1 – 2 – 3 (unit weights), exact kernel ($d = 2$), $\mu = 1$. Round 1 shows the end node 1."
            r" What is $r_1 = v_1/(1 + v_1)$? (Hint: $A_0 = \mu I$, so $v_1 = (L^+)_{11}/\mu$.)",
            5 / 14,
            1e-9,
            r"$L^+ = \sum_i v_iv_i^\top/\sigma_i$ with $\sigma = 1, 3$ and $v = (1, 0, -1)/\sqrt2$, $(1, -2, 1)/\sqrt6$,"
            r" so $(L^+)_{11} = \tfrac12 + \tfrac1{18} = \tfrac59$ and $r_1 = \frac{5/9}{14/9} = \frac5{14}$.",
            _first_r,
        ),
        Numeric(
            r"Same path, $\mu = 1$, labels $y = (-1, +1, +1)$, order 1, 2, 3. OLLGC errs only in round 1 (score 0"
            r" predicts $+1$). What is the data-dependent mistake bound $2J^\star + \sum_{\mathcal M}r_t$?",
            1.0,
            1e-9,
            r"By the lemma $J^\star = \tfrac12\xi_1^2(1 - r_1)$ with $\xi_1 = -1$: $2J^\star = 1 - r_1$, so the bound is"
            r" exactly $1 = |\mathcal M|$. Its slack $\sum_{\mathcal M}(\xi_t^2 - 1)(1 - r_t)$ vanishes when every"
            r" mistaken score is 0.",
            _one_mistake_bound,
        ),
        Choice(
            r"Why can OLLGC's regret summed over **all** $T$ rounds exceed the Theorem 4 bound?",
            (
                r"Because the bound uses $\xi^2_{\max}$, which can be small",
                r"Because the lemma only covers the rounds that enter $A$; a correct round's squared loss is bounded"
                r" by nothing",
                r"Because the comparator $u = MLy$ is not optimal",
                r"It cannot: the theorem covers every round",
            ),
            1,
            r"The identity $\sum\tfrac12\xi_t^2(1 - r_t) = J^\star$ is a statement about the update rounds"
            r" $\mathcal M$. A correct round (say a score of 3 on a label $+1$) adds loss and leaves $A$ unchanged.",
            {
                0: r"$\xi^2_{\max}$ only enters the last, looser form; the first form already covers $\mathcal M$ only.",
                2: r"Theorem 4 holds for every $u$, optimal or not.",
                3: r"The chapter counts runs in which it does: the theorem is stated over $\mathcal M$.",
            },
        ),
        Choice(
            r"By the matrix determinant lemma, $\sum_{t\in\mathcal M}\ln(1 + v_t)$ equals",
            (
                r"$\sum_{i=1}^d \ln(1 + \nu_i/\mu)$, with $\nu_i$ the eigenvalues of $\sum_{\mathcal M}m_tm_t^\top$",
                r"$\sum_{t\in\mathcal M} r_t$",
                r"$d\ln(1 + |\mathcal M|R^2/(d\mu))$",
                r"$\ln|\mathcal M|$",
            ),
            0,
            r"$\det A_t = (1 + v_t)\det A_{t-1}$ on every mistake, so the product telescopes to"
            r" $\det A_T/\det(\mu I) = \prod_i(1 + \nu_i/\mu)$.",
            {
                1: r"$r_t \le \ln(1 + v_t)$: the sum of $r_t$ is bounded by it, not equal to it.",
                2: r"That is its worst case (equal $\nu_i$, concavity of $\ln$), an upper bound.",
                3: "The determinant grows with the features, not just with the count of mistakes.",
            },
        ),
        Choice(
            r"What does one round of OLLGC cost with the Sherman–Morrison step ($d$ features)?",
            (
                r"$O(d^3)$ on every round",
                r"$O(d^2)$ on a mistake, $O(d)$ on a correct round",
                r"$O(d^2)$ on every round",
                r"$O(d)$ on every round",
            ),
            1,
            r"A correct round computes one score $w^\top m_t$; a mistake adds $a = A^{-1}m_t$ and the rank-one"
            r" update of $A^{-1}$, both $O(d^2)$.",
            {
                0: r"That is a fresh solve of $Aw = b$, which Sherman–Morrison avoids.",
                2: r"A correct round changes nothing, so it needs no product with $A^{-1}$.",
                3: r"A mistake updates the $d\times d$ matrix $A^{-1}$: $O(d^2)$.",
            },
        ),
    ],
)
