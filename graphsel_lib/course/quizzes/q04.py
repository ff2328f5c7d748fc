"""Self-check quiz of chapter 04: LLGC as ridge regression on the columns of M."""

import warnings

import numpy as np

from ...graph import laplacian
from ...transductive import llgc
from ..quiz import Choice, Numeric, Quiz
from .small_graphs import path


def _two_node_f2(mu=1.0):
    """f_2 of LLGC on one edge with y = (1, 0) (the library's exact solve)."""
    import scipy.sparse as sp

    S = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
    with warnings.catch_warnings():  # class 0 has no labelled node: its column is 0, as intended
        warnings.simplefilter("ignore")
        return llgc(S, np.array([1, 0]), [0], mu=mu, n_classes=2)[1, 1]


def _path_sum(mu=0.5):
    """1^T f* on the path of 5 nodes with y = e_1: LLGC conserves the sum of y."""
    S = path(5)
    y = np.zeros(5)
    y[0] = 1.0
    f = np.linalg.solve(np.eye(5) + mu * laplacian(S).toarray(), y)
    return f.sum()


QUIZ = Quiz(
    4,
    "LLGC as ridge regression",
    [
        Choice(
            r"LLGC solves $(I + \mu L)f^\star = y$. In the eigenbasis of $L$, by what factor is the component"
            r" of $y$ along the eigenvector $v_i$ (eigenvalue $\sigma_i$) multiplied?",
            (
                r"$1/(1 + \mu\sigma_i)$",
                r"$\sigma_i/(\sigma_i + \mu)$",
                r"$1/\sigma_i$",
                r"$e^{-\mu\sigma_i}$",
            ),
            0,
            r"$(I + \mu L)$ has the eigenvalue $1 + \mu\sigma_i$ on $v_i$, so its inverse divides that component"
            r" by it: a low-pass filter.",
            {
                1: r"That is the ridge filter of the kernel $L^+$ written with $\sigma_i^{-1}$; LLGC's is"
                r" $1/(1+\mu\sigma_i)$.",
                2: r"That is $L^+$ itself, not the LLGC solve.",
                3: r"That is the heat kernel, another graph filter; LLGC's is rational, not exponential.",
            },
        ),
        Numeric(
            r"On the path of 5 nodes with $y = e_1$ and $\mu = 0.5$, what is $\mathbb 1^\top f^\star$?",
            1.0,
            1e-9,
            r"$\mathbb 1^\top(I + \mu L) = \mathbb 1^\top$ because $L\mathbb 1 = 0$, so $\mathbb 1^\top f^\star ="
            r" \mathbb 1^\top y = 1$ for every $\mu$: LLGC never shrinks the mean.",
            _path_sum,
        ),
        Choice(
            r"The ridge form $\min_w \tfrac12\|M^\top w - y\|^2 + \tfrac\mu2\|w\|^2$ with the exact kernel"
            r" returns $M^\top w^\star$. How does it differ from $f^\star$?",
            (
                r"It equals $f^\star$.",
                r"It misses the constant $\bar y\,\mathbb 1$.",
                r"It is $f^\star$ scaled by $1/(1+\mu)$.",
                r"It misses the component along the Fiedler vector.",
            ),
            1,
            r"Every $M^\top w$ is orthogonal to $\mathbb 1$, while $f^\star$ has mean $\bar y$:"
            r" $f^\star = \bar y\,\mathbb 1 + M^\top w^\star$.",
            {
                0: r"Only when $\bar y = 0$.",
                2: r"No: the non-constant part is exactly LLGC's.",
                3: r"The Fiedler vector $v_1$ is a column direction of $M$; it is kept.",
            },
        ),
        Numeric(
            r"One edge of weight 1, $y = (1, 0)$, node 1 labelled: what is $f^\star_2$ at $\mu = 1$?",
            1 / 3,
            1e-9,
            r"$f^\star = (1 + \mu, \mu)/(1 + 2\mu)$, so $f^\star_2 = 1/3$ at $\mu = 1$; it tends to the mean"
            r" label $1/2$ as $\mu \to \infty$.",
            _two_node_f2,
        ),
        Choice(
            r"With the bias feature $\sqrt b$ appended to every $m_t$, how much of the mean $\bar y$ does the"
            r" ridge solution still miss?",
            (r"All of it", r"$\mu\bar y/(nb + \mu)$", r"$b\,\bar y$", r"None, for every $b$"),
            1,
            r"The extra weight $w_{d+1}$ minimises $\tfrac n2(\sqrt b\,w_{d+1} - \bar y)^2 + \tfrac\mu2 w_{d+1}^2$,"
            r" so $\sqrt b\,w_{d+1} = \bar y\,nb/(nb+\mu)$: the miss $\mu\bar y/(nb + \mu)$ vanishes as $b \to \infty$.",
            {
                0: "The bias weight recovers most of it.",
                2: "The miss shrinks as b grows, it does not grow with b.",
                3: r"The bias weight is penalised too, so a fraction $\mu/(nb+\mu)$ remains.",
            },
        ),
        Choice(
            r"Replacing $L^+$ by the rank-$d$ kernel $L_d^+$ in the ridge form does what to LLGC's filter?",
            (
                r"It damps every direction more",
                r"It cuts off the directions $i > d$ instead of damping them",
                r"It changes nothing when $d \ge 2$",
                r"It removes the constant direction",
            ),
            1,
            r"$\hat f_d = \bar y\mathbb 1 + \sum_{i\le d} \frac{v_i^\top y}{1 + \mu\sigma_i}v_i$: the smooth"
            r" directions keep LLGC's factor, the rough ones are dropped.",
            {
                0: "The kept directions keep exactly LLGC's factor.",
                2: r"Only $d = n - 1$ is exact.",
                3: r"The constant is added back as $\bar y\mathbb 1$ in both forms.",
            },
        ),
    ],
)
