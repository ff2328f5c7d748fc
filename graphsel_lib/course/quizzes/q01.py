"""Self-check quiz of chapter 01: the graph Laplacian."""

import numpy as np
import scipy.sparse as sp

from ...graph import cut_size, laplacian, normalized_laplacian
from ..quiz import Choice, Numeric, Quiz
from .small_graphs import path


def _path_quadratic_form():
    """f^T L f on the path of 4 nodes for f = (+1, +1, -1, -1)."""
    f = np.array([1.0, 1.0, -1.0, -1.0])
    value = f @ (laplacian(path(4)) @ f)
    assert np.isclose(value, 4 * cut_size(path(4), f))
    return value


def _zero_multiplicity():
    """The number of zero eigenvalues of L for two disjoint triangles and an isolated node."""
    triangle = sp.csr_matrix(np.ones((3, 3)) - np.eye(3))
    S = sp.block_diag([triangle, triangle, sp.csr_matrix((1, 1))], format="csr")
    return int(np.sum(np.linalg.eigvalsh(laplacian(S).toarray()) < 1e-9))


def _triangle_normalized_max():
    """The largest eigenvalue of the normalized Laplacian of the triangle K_3."""
    triangle = sp.csr_matrix(np.ones((3, 3)) - np.eye(3))
    return np.linalg.eigvalsh(normalized_laplacian(triangle).toarray()).max()


QUIZ = Quiz(
    1,
    "the graph Laplacian",
    [
        Numeric(
            r"On the path $1 - 2 - 3 - 4$ with unit weights, what is $f^\top L f$ for $f = (+1, +1, -1, -1)$?",
            4.0,
            1e-9,
            r"One edge, $\{2, 3\}$, joins different labels and contributes $(1 - (-1))^2 = 4$; the other two"
            r" contribute 0. So $f^\top L f = 4 = 4\,\Phi(f)$ with $\Phi(f) = 1$.",
            _path_quadratic_form,
        ),
        Choice(
            r"For labels $f \in \{-1, +1\}^n$ and the cut size $\Phi(f)$ counting each cut edge once,"
            r" $f^\top L f$ equals",
            (r"$4\,\Phi(f)$", r"$2\,\Phi(f)$", r"$\Phi(f)$", r"$8\,\Phi(f)$"),
            0,
            r"Each cut edge contributes $S_{ij}(f_i - f_j)^2 = 4 S_{ij}$ to $\sum_{\{i,j\}\in E}$, each uncut"
            r" edge 0. Labels $a, b$ give $(a - b)^2\,\Phi$ in general.",
            {
                1: r"That is gu2013's (15); it holds with the ordered-pair cut (each edge counted twice) or"
                r" with labels $\pm 1/\sqrt 2$, not with $\pm 1$ and the once-per-edge cut.",
                2: r"That is the value for 0/1 labels, where a cut edge contributes $(1 - 0)^2 = 1$.",
                3: r"That is the double sum $\sum_{i,j}$ without the factor $\tfrac12$: every edge twice.",
            },
        ),
        Numeric(
            r"A graph consists of two disjoint triangles and one isolated node. How many times does the"
            r" eigenvalue 0 occur in its Laplacian $L$?",
            3,
            0.5,
            r"The multiplicity of 0 is the number of connected components: the two triangles and the isolated"
            r" node, whose row of $L$ is zero. The null space is spanned by the three component indicators.",
            _zero_multiplicity,
        ),
        Numeric(
            r"What is the largest eigenvalue of the normalized Laplacian $\tilde L$ of the triangle $K_3$?",
            1.5,
            1e-9,
            r"$\tilde L = I - S/2$ and $S = \mathbb 1\mathbb 1^\top - I$ has eigenvalues $2, -1, -1$, so"
            r" $\tilde L$ has $0, 1.5, 1.5$. It stays below 2 because the triangle is an odd cycle:"
            r" not bipartite.",
            _triangle_normalized_max,
        ),
        Choice(
            r"The multiplicity of the eigenvalue 1 of the normalized Laplacian $\tilde L$ equals",
            (
                r"$\dim\ker S$",
                r"the number of connected components",
                r"the number of degree-1 nodes",
                r"the number of bipartite components",
            ),
            0,
            r"$\tilde L x = x \iff D^{-1/2}SD^{-1/2}x = 0 \iff S(D^{-1/2}x) = 0$, and $D^{-1/2}$ is invertible."
            r" Twins (nodes with the same neighbours) are one source of null vectors of $S$.",
            {
                1: r"That is the multiplicity of the eigenvalue 0.",
                2: r"Leaves sharing a neighbour give null vectors of $S$, but a single leaf does not, and most"
                r" of Cora's null vectors come from elsewhere.",
                3: r"That is the multiplicity of the eigenvalue 2.",
            },
        ),
        Choice(
            r"A self-loop of weight $w$ is added at node $i$ and counted in the degree $d_i$. What happens to"
            r" $L = D - S$?",
            (
                r"Nothing: $w$ is added to $D_{ii}$ and to $S_{ii}$ and cancels",
                r"$L_{ii}$ grows by $w$",
                r"$L_{ii}$ grows by $2w$",
                r"$L$ loses positive semi-definiteness",
            ),
            0,
            r"The loop's term in $\tfrac12\sum_{ij}S_{ij}(f_i - f_j)^2$ is $w(f_i - f_i)^2 = 0$, so $f^\top Lf$"
            r" and $L$ are unchanged (the normalized Laplacian would change: $D^{-1/2}$ sees the new degree).",
            {
                1: r"$S_{ii}$ grows by $w$ too, and $L_{ii} = d_i - S_{ii}$.",
                2: r"Neither entry doubles; the two changes cancel.",
                3: r"$f^\top Lf$ is still a sum of non-negative terms.",
            },
        ),
    ],
)
