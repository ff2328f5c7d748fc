"""Self-check quiz of chapter 09: MSG, multiclass selective sampling with a randomized, aggressive query."""

import numpy as np

from ...online import MSG, run
from ...spectral import spectral_embedding
from ...theory import msg_aggressive_threshold
from ..quiz import Choice, Numeric, Quiz


def _path_first_round():
    """MSG (gamma = 1, K = 2) on the path of 3 nodes, exact kernel, node 0 first: its v_1 and Theta_1."""
    import scipy.sparse as sp

    S = sp.diags([np.ones(2), np.ones(2)], [-1, 1], format="csr")
    M = spectral_embedding(S, 2, cache=False).M
    trace = run(
        MSG(gamma=1.0, h=0.01), M, np.array([0, 1, 0]), order=[0, 1, 2], seed=0, record=("v", "theta")
    )
    return float(trace.records["v"][0]), float(trace.records["theta"][0])


def _first_theta():
    """Theta_1 of that first round."""
    return _path_first_round()[1]


def _first_threshold():
    """Delta_agg(K = 2, r_1) for the r_1 = v_1/(1 + v_1) of that first round (the library's threshold)."""
    v = _path_first_round()[0]
    return float(msg_aggressive_threshold(2, v / (1 + v)))


QUIZ = Quiz(
    9,
    "MSG",
    [
        Numeric(
            r"MSG with $\gamma = 1$ on the path of 3 nodes, exact kernel ($m_t^\top m_t = (L^+)_{tt}$), $K = 2$"
            r" classes; node 1 (an end of the path) comes first. No update yet, so $f_1 = 0$ and $\Delta_1 = 0$."
            r" What is $\Theta_1$ (three decimals)?",
            -0.714,
            5e-4,
            r"$v_1 = m_1^\top m_1/\gamma = (L^+)_{11} = \tfrac12 + \tfrac1{18} = \tfrac59$ (eigenpairs $\sigma = 1, 3$),"
            r" so $r_1 = 5/14$ and $\Theta_1 = -Kr_1 = -5/7 = -0.714 < 0$: the first round is always aggressive,"
            r" hence queried.",
            _first_theta,
        ),
        Numeric(
            r"Same round: below which top-two margin would a round with this $r_1 = 5/14$ be aggressive, i.e."
            r" what is $\Delta_{\rm agg}(2, r_1)$ (three decimals)?",
            0.330,
            5e-4,
            r"$\Theta_t < 0 \iff \Delta_t < 2\sqrt{1 + Kr_t/2} - 2 = 2\sqrt{19/14} - 2 = 0.330$, the positive root"
            r" of $\tfrac12\Delta^2 + 2\Delta - Kr_t$.",
            _first_threshold,
        ),
        Choice(
            r"Why does MSG query with probability $p_t = 2h/(2h + \Theta_t)$ when $\Theta_t \ge 0$?",
            (
                r"So that $p_t(\Theta_t + 2h) = 2h$: every mistake is worth $2h$ in expectation",
                r"So that confident rounds are never queried",
                r"Because it is the probability that the prediction is wrong",
                r"To make the expected number of queries equal to $h$",
            ),
            0,
            r"The proof collects $Q_t(P_t + 2h) \ge Q_t(\Theta_t + 2h)$ on a mistake; with this $p_t$ its"
            r" conditional expectation is exactly $2h$, whatever $\Theta_t$.",
            {
                1: r"Confident rounds are queried rarely, not never: $p_t > 0$ for every finite $\Theta_t$.",
                2: r"$\Theta_t$ is a lower bound on the progress of an update, not a probability of error.",
                3: r"The expected number of queries is $|\mathcal D| + \sum_{\mathcal S}p_t$, not $h$.",
            },
        ),
        Choice(
            r"What does MSG become as $h \to 0$?",
            (
                r"A deterministic rule: query and update iff $\Delta_t < \Delta_{\rm agg}(K, r_t)$",
                r"CMOG: it queries every label",
                r"A learner that never queries",
                r"The conservative sampler of Theorem 3",
            ),
            0,
            r"For $\Theta_t > 0$, $p_t \to 0$; the rounds with $\Theta_t < 0$ are still queried, and MSG"
            r" updates on them.",
            {
                1: r"That is the limit $h \to \infty$, where $p_t \to 1$ (with aggressive updates added).",
                2: r"The aggressive rounds ($\Theta_t < 0$) are queried for every $h$.",
                3: r"The conservative sampler updates only on mistakes; MSG keeps its aggressive updates.",
            },
        ),
        Choice(
            r"One sentence of yang2016 writes the coin as $h/(h + \Theta_t)$. What is that rule?",
            (
                r"MSG's $2h$ rule at $h/2$",
                r"MSG's $2h$ rule at $2h$",
                r"A different learner with another bound",
                r"The same as the $2h$ rule at the same $h$",
            ),
            0,
            r"$h/(h + \Theta) = 2(h/2)/(2(h/2) + \Theta)$: only the grid on which $h$ is tuned shifts by a"
            r" factor 2.",
            {
                1: r"Solve $2h'/(2h' + \Theta) = h/(h + \Theta)$ for $h'$: $h' = h/2$.",
                2: r"It is the same family of rules, reparametrised.",
                3: r"At the same $h$ it queries less: it is MSG at half the $h$.",
            },
        ),
        Choice(
            r"In §4 MSG's bound (Thm 5) lies above the conservative sampler's (Thm 3) although MSG errs less."
            r" Why?",
            (
                r"Each aggressive correct round earns $-1$ but costs $\frac1{2h}\,2Kr_t$, which is larger here",
                r"MSG makes more mistakes",
                r"The bound of Thm 5 is wrong",
                r"Thm 3 uses a better comparator",
            ),
            0,
            r"The reward $-\mathbb E|\mathcal V|$ is paid for by $2Kr_t/(2h)$ per aggressive correct round; only"
            r" when $2h > 2Kr_t$ on average would MSG's bound be lower.",
            {
                1: r"MSG errs less than the conservative sampler in every setting of §4.",
                2: r"Both bounds hold on every run (checked); they are loose, not wrong.",
                3: r"Both are evaluated with the same offline ridge comparator $U_0$.",
            },
        ),
    ],
)
