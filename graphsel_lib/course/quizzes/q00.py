"""Self-check quiz of chapter 00: the online protocol and the datasets."""

import numpy as np

from ...datasets import load_dataset
from ...online import Trace
from ..quiz import Choice, Numeric, Quiz


def _mixed_pass_error_rate():
    """Error rate of a 20-round pass: 5 queried rounds (2 mistakes), 15 unqueried ones (3 mistakes)."""
    T = 20
    queried = np.zeros(T, bool)
    queried[:5] = True
    mistakes = np.zeros(T, bool)
    mistakes[[0, 1, 5, 6, 7]] = True  # 2 of the queried rounds, 3 of the others
    labels = np.ones(T, int)
    predictions = np.where(mistakes, -1, 1)
    trace = Trace(
        np.arange(T), labels, predictions, predictions.astype(float), mistakes, queried, np.zeros(T)
    )
    return trace.error_rate


def _karate_links():
    """gu2013's "links" of the karate club: the non-zero entries of S, its diagonal included."""
    S = load_dataset("karate").adjacency
    return S.nnz + np.count_nonzero(S.diagonal())


def _karate_mean_degree():
    """The mean (unweighted) degree 2|E|/n of the karate club."""
    g = load_dataset("karate")
    return 2 * g.n_edges / g.n_nodes


QUIZ = Quiz(
    0,
    "the protocol and the datasets",
    [
        Choice(
            r"In round $t$ a selective sampler does not query ($Q_t = 0$) and its prediction $\hat y_t$ is"
            r" wrong. What does this round add to the error rate of the pass?",
            (
                r"$1/T$, like any other mistake",
                r"Nothing: the label was never seen",
                r"$1/N_T$, since only queried rounds count",
                r"Nothing now; it counts once the label is queried",
            ),
            0,
            r"The error rate is $\frac1T\sum_t \mathbb 1[\hat y_t \ne y_t]$ over **all** rounds, queried or not:"
            r" a selective sampler saves labels, never mistakes.",
            {
                1: "The protocol scores every prediction against the true label, seen by the learner or not.",
                2: r"The denominator is $T$, every round of the pass, not the number of queried rounds.",
                3: r"A node is presented once; if $Q_t = 0$ its label is never revealed, and the mistake stands.",
            },
        ),
        Numeric(
            r"A pass has $T = 20$ rounds. The sampler queried 5 of them and erred on 2 of those, and on 3 of"
            r" the 15 rounds it did not query. What is its error rate?",
            0.25,
            1e-9,
            r"$(2 + 3)/20 = 0.25$: mistakes are counted on every round. The error rate on the queried rounds"
            r" alone ($2/5$) or on the others ($3/15$) is a different number.",
            _mixed_pass_error_rate,
        ),
        Numeric(
            r"The karate club has 78 undirected edges and no self-weights. How many *links* does gu2013's"
            r" Table 1 convention count for it?",
            156,
            0.5,
            r"Links are the non-zero entries of $S$ counting its diagonal: each undirected edge twice"
            r" ($S_{ij}$ and $S_{ji}$), each self-weight once. $2 \times 78 + 0 = 156$.",
            _karate_links,
        ),
        Numeric(
            r"What is the mean (unweighted) degree $2|E|/n$ of the karate club (34 nodes, 78 edges)?",
            156 / 34,
            0.005,
            r"Every edge adds 1 to the degree of both its ends, so the degrees add up to $2|E| = 156$ and the"
            r" mean degree is $156/34 \approx 4.59$.",
            _karate_mean_degree,
        ),
        Choice(
            r"Why does every loader keep only the largest connected component of a graph?",
            (
                r"The kernel $L^+$ and the features $m_t$ of the learners need a connected graph",
                r"To drop the nodes without a label",
                r"To make a directed graph undirected",
                r"To balance the classes",
            ),
            0,
            r"On a connected graph the eigenvalue 0 of $L$ is simple, with eigenvector $\mathbb 1$ (chapter 01),"
            r" and $L^+$ with the features $M^\top M = L^+$ is the kernel every online learner uses (chapter 02).",
            {
                1: "Unlabelled nodes are a separate step; the LCC is about connectivity.",
                2: r"That is the step $S \leftarrow \max(S, S^\top)$, done before the LCC is taken.",
                3: "Taking the LCC can even unbalance the classes; balance is reported, not enforced.",
            },
        ),
        Choice(
            r"A directed citation graph becomes undirected by $S \leftarrow \max(S, S^\top)$. Two papers that"
            r" cite each other: which weight does their edge get, and how many undirected edges is that?",
            (r"Weight 1, one edge", r"Weight 2, one edge", r"Weight 1, two edges", r"Weight 2, two edges"),
            0,
            r"$\max(1, 1) = 1$: a pair cited both ways is one undirected edge of weight 1, so the undirected"
            r" edges are fewer than the directed links (PubMed has 11 such pairs).",
            {
                1: r"That would be $S + S^\top$; the maximum does not add the two directions.",
                2: r"An undirected edge is a pair $\{i, j\}$: both directions give the same pair.",
                3: r"Neither: the maximum keeps weight 1, and the pair is one edge.",
            },
        ),
    ],
)
