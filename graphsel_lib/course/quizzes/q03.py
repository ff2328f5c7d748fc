"""Self-check quiz of chapter 03: the graph perceptron (GPA) and its mistake bound."""

import numpy as np

from ...theory import perceptron_mistake_bound
from ..quiz import Choice, Numeric, Quiz
from .small_graphs import path


def _path_slides_bound():
    """4 Phi(y) max_t K_tt on the path of 4 nodes with y = (+1, +1, -1, -1)."""
    return perceptron_mistake_bound(path(4), np.array([1, 1, -1, -1]))


def _path_margin_corrected():
    """The margin-corrected bound on the path of 4 nodes with y = (+1, -1, -1, -1)."""
    y = np.array([1, -1, -1, -1])
    return perceptron_mistake_bound(path(4), y) / (1 - abs(y.mean())) ** 2


QUIZ = Quiz(
    3,
    "The graph perceptron and its mistake bound",
    [
        Choice(
            r"You replace the features $M$ by $QM$, $Q$ orthogonal (another orthonormal basis of the"
            r" eigenspaces, or other signs). What happens to GPA's scores $w_{t-1}^\top m_t$?",
            (
                r"Nothing: they depend on $M$ only through $M^\top M = L^+$",
                r"They are multiplied by $\det Q = \pm 1$",
                r"They change, but the mistakes stay the same",
                r"They become the scores of the rank-$d$ kernel",
            ),
            0,
            r"The score is $\sum_{s\in\mathcal M_{<t}} y_s\,m_s^\top m_t = \sum_s y_s K_{st}$, and"
            r" $(QM)^\top QM = M^\top M$: GPA is the kernel perceptron, blind to the factor of $L^+$.",
            {
                1: r"The scores are sums of inner products $m_s^\top m_t$, which $Q$ leaves unchanged.",
                2: r"Not even the scores change (beyond rounding), since only the inner products enter.",
                3: r"The rank is set by how many eigenpairs $M$ keeps; an orthogonal $Q$ keeps them all.",
            },
        ),
        Numeric(
            r"Path of 4 nodes (unit weights), $y = (+1, +1, -1, -1)$: what is the slides' bound"
            r" $4\,\Phi(y)\max_t K_{tt}$?",
            3.5,
            1e-9,
            r"One edge is cut, so $4\Phi = 4$, and the end nodes are the most remote: $K_{11} = K_{44} = 7/8$."
            r" The bound is $3.5$: at most 3 mistakes in one pass, whatever the order (and $\bar y = 0$, so it is"
            r" a theorem).",
            _path_slides_bound,
        ),
        Numeric(
            r"Same path, now $y = (+1, -1, -1, -1)$: what is the margin-corrected bound"
            r" $4\,\Phi(y)\max_t K_{tt}/(1 - |\bar y|)^2$?",
            14.0,
            1e-9,
            r"Still one cut edge and $\max_t K_{tt} = 7/8$, so $4\Phi\max_t K_{tt} = 3.5$; but $\bar y = -1/2$,"
            r" the margin of $y - \bar y\mathbb 1$ on the larger class is $1/2$, and dividing the comparator by it"
            r" costs the factor $4$: $14$, far above the $n = 4$ rounds.",
            _path_margin_corrected,
        ),
        Choice(
            r"Why does a learner on the features $m_t$ alone do badly on a class-vs-rest problem with a small"
            r" class?",
            (
                r"Its scores always sum to zero over the graph, so it has no intercept",
                r"The features of the small class are shorter",
                r"The perceptron cannot learn unbalanced labels at all",
                r"The kernel $L^+$ is not positive semi-definite",
            ),
            0,
            r"$M\mathbb 1 = 0$, so $\sum_t f_t = \mathbb 1^\top M^\top w = 0$ for every $w$: the learner cannot"
            r" encode the prior 'most nodes are negative', and every corrected false positive pushes the rest"
            r" of the graph up. The bias feature $\sqrt b$ adds the missing intercept.",
            {
                1: r"$\|m_t\|^2 = K_{tt}$ measures remoteness, not class membership.",
                2: r"It learns them, with the bias feature (or within the margin-corrected bound without it).",
                3: r"$L^+$ is positive semi-definite; the trouble is its null direction $\mathbb 1$.",
            },
        ),
        Choice(
            r"Cora's smallest class has the share $\pi = 0.053$. By about what factor does the margin"
            r" correction $(1 - |\bar y|)^{-2}$ multiply the slides' bound for its class-vs-rest problem?",
            (r"about 90", r"about 19", r"about 1.1", r"exactly 4"),
            0,
            r"$1 - |\bar y| = 2\pi = 0.105$ and $0.105^{-2} \approx 90$. The bias bound avoids that factor: it"
            r" adds $\bar y^2/b$ and $b$ instead of dividing.",
            {
                1: r"That is $1/\pi$; the margin is $2\pi$ and the factor is its inverse **squared**.",
                2: r"That would be the factor for an almost balanced problem.",
                3: r"That is the factor of a class of share $1/4$.",
            },
        ),
        Choice(
            r"In the slides' noisy-label bound the leading term is $2|\mathcal M\cap\mathcal M_u|$. Where does"
            r" the constant 2 come from?",
            (
                r"The hinge loss of a $\pm1$ comparator on a round where it errs: $1 - (-1) = 2$",
                r"The two classes",
                r"Each cut edge contributes $(1 - (-1))^2/2$",
                r"The perceptron updates twice on a flipped label",
            ),
            0,
            r"The general bound $(\ast)$ pays the comparator's hinge loss $\ell_{\mathcal M}(u)$ on the learner's"
            r" mistakes; a $\pm1$ labelling has margin $-1$, so loss 2, on exactly the flipped rounds.",
            {
                1: r"The constant is a loss per mistake, not a count of classes.",
                2: r"A cut edge contributes 4 to $\|u\|^2$; that enters the other terms.",
                3: r"The perceptron updates once per mistake; the runs show about two **mistakes** per flipped"
                r" mistake, which is what the constant predicts.",
            },
        ),
    ],
)
