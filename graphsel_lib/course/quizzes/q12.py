"""Self-check quiz of chapter 12: the multiclass transductive GP of gaertner2005."""

import numpy as np

from ...transductive import balance_epsilon, gp_kernel_inverse, solve_balanced_q
from ..quiz import Choice, Numeric, Quiz


def _eps_bal():
    """The tail-bound half-width for 100 labelled and 900 unlabelled nodes, 2 classes, delta = 0.05."""
    return balance_epsilon(100, 900, 2, delta=0.05)


def _path_kernel_top():
    """The largest eigenvalue of K^-1 = L~ + 0.01 I on the path of 3 nodes."""
    import scipy.sparse as sp

    S = sp.diags([np.ones(2), np.ones(2)], [-1, 1], format="csr")
    return np.linalg.eigvalsh(gp_kernel_inverse(S, 0.01).toarray()).max()


def _dual_gap():
    """zeta_0 - zeta_1 when two nodes with scores (2, 0) must split their mass half and half."""
    F = np.array([[2.0, 0.0], [2.0, 0.0]])
    _, zeta = solve_balanced_q(F, np.array([0.0, 0.5]), np.array([0.5, 1.0]))
    return zeta[0] - zeta[1]


QUIZ = Quiz(
    12,
    "Multiclass transductive GP",
    [
        Choice(
            r"Why does the GP of §1, written in the latent scores $F = \mathcal K\alpha$, need only $\mathcal K^{-1}$?",
            (
                r"Because the prior term is $\frac{1}{2\eta^2}\operatorname{tr}F^\top\mathcal K^{-1}F$ and the likelihood"
                r" depends on $F$ alone",
                r"Because $\mathcal K$ is diagonal on a graph",
                r"Because the softmax likelihood cancels $\mathcal K$",
                r"Because Newton–CG needs the Cholesky factor of $\mathcal K$",
            ),
            0,
            r"With $F = \mathcal K\alpha$ the prior $\alpha^\top\mathcal K\alpha$ becomes"
            r" $F^\top\mathcal K^{-1}F$, and the softmax reads $F$ directly: a sparse $\mathcal K^{-1}$"
            r" (a regularised Laplacian) is then all the method touches.",
            {
                1: r"It is $\mathcal K^{-1} = \tilde L + \varepsilon_K I$ that is sparse; $\mathcal K$ itself is dense.",
                2: r"The likelihood never contained $\mathcal K$; the prior did, as $\mathcal K^{-1}$ once"
                r" written in $F$.",
                3: "Newton–CG needs only products with the sparse inverse kernel, no factorisation.",
            },
        ),
        Numeric(
            r"On the path of 3 nodes with $\varepsilon_K = 0.01$, what is the largest eigenvalue of"
            r" $\mathcal K^{-1} = \tilde L + \varepsilon_K I$?",
            2.01,
            1e-9,
            r"The eigenvalues of $\tilde L$ lie in $[0, 2]$, and 2 is reached exactly on a bipartite graph (a path is"
            r" one), so the spectrum of $\mathcal K^{-1}$ ends at $2 + \varepsilon_K$.",
            _path_kernel_top,
        ),
        Choice(
            r"Without any balance constraint, what does the $q$-step return on an unlabelled node?",
            (
                r"$q_i = \pi_i = \operatorname{softmax}(F_i)$, and the transductive GP is the plain GP",
                r"$q_i = e_{\arg\max_j F_{ij}}$, a hard label",
                r"The uniform distribution",
                r"The labelled class fractions $\hat p$",
            ),
            0,
            r"The bracket of an unlabelled node is $\mathrm{KL}(q_i\|\pi_i) \ge 0$, zero exactly at $q_i = \pi_i$: the"
            r" unlabelled nodes then enter only through the kernel.",
            {
                1: r"That is hard EM, which drops the entropy term $\sum_j q_{ij}\log q_{ij}$ (§5b).",
                2: r"The KL bracket pulls $q_i$ to $\pi_i$, not to the uniform distribution.",
                3: r"$\hat p$ centres the balance interval; without the constraint it plays no role.",
            },
        ),
        Numeric(
            r"Two unlabelled nodes both have scores $F_i = (2, 0)$, and class 0 may hold at most half of their mass"
            r" ($p^+_0 = 0.5$, $p^-_1 = 0.5$). At the balanced $q$, what is $\zeta_0 - \zeta_1$?",
            2.0,
            1e-6,
            r"$q_{i0} = 1/(1 + e^{-(2 - (\zeta_0 - \zeta_1))})$ must equal $1/2$ on both nodes, so the dual"
            r" shift cancels the score gap: $\zeta_0 - \zeta_1 = 2$. One number per class moves every node's $q$ at once.",
            _dual_gap,
        ),
        Numeric(
            r"What is the tail-bound half-width $\varepsilon_{\rm bal}$ for $n_L = 100$, $n_U = 900$, $K = 2$ and"
            r" $\delta = 0.05$ (three decimals)?",
            0.156,
            5e-4,
            r"$\varepsilon_{\rm bal} = \sqrt{n\log(2K/\delta)/(2n_Ln_U)} = \sqrt{1000\log 80/180000} \approx 0.156$.",
            _eps_bal,
        ),
        Choice(
            r"However many of Cora's $n$ nodes are labelled, $\varepsilon_{\rm bal}$ stays above"
            r" $\sqrt{2\log(2K/\delta)/n}$. Why?",
            (
                r"The sum of squared ranges $n/(n_Ln_U)$ is smallest at $n_L = n_U = n/2$, where it is $4/n$",
                r"The union bound over $K$ classes grows with $n_L$",
                r"Hoeffding's inequality needs $n_L \le n_U$",
                r"$\delta$ shrinks as $n_L$ grows",
            ),
            0,
            r"Labelling more nodes shrinks the unlabelled side: $n_Ln_U$ peaks at $n^2/4$, so the width can never fall"
            r" below $\sqrt{2\log(2K/\delta)/n}$.",
            {
                1: r"The union bound contributes $\log(2K/\delta)$, which does not depend on $n_L$.",
                2: "The inequality holds for any split; the two sides enter symmetrically.",
                3: r"$\delta$ is fixed by the user (0.05 here).",
            },
        ),
        Choice(
            r"In §5b, why can *soft* naive EM (the bound with the entropy of $q$) not collapse $q$ onto one class?",
            (
                r"Its fixed point is the plain GP, so $q$ is never more concentrated than the plain GP's $\pi$",
                r"Because the balance interval forbids it",
                r"Because it stops after one round",
                r"Because a one-class labelling has a higher bound than the true labels",
            ),
            0,
            r"With the entropy the $q$-step is $q = \operatorname{softmax}(F)$, the bound is tight, and EM"
            r" decreases the plain-GP objective $\varphi_0$ to its minimum: the plain GP.",
            {
                1: "Naive EM has no balance constraint at all; that is the point of the test.",
                2: "Soft EM crawls for many rounds (60 in the full profile); hard EM is the one that stops early.",
                3: "The opposite: among one-hot q the best one-class labelling has the lower bound, which is why hard EM"
                " is the dangerous reading.",
            },
        ),
    ],
)
