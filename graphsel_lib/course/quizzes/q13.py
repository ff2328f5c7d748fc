"""Self-check quiz of chapter 13: random spanning trees and the weighted tree algorithm (WTA)."""

import numpy as np

from ...theory import edge_in_tree_probability, expected_tree_cut, spanning_tree_count
from ..quiz import Choice, Numeric, Quiz


def _cycle(n):
    """The adjacency of the cycle on ``n`` nodes, unit weights."""
    S = np.zeros((n, n))
    idx = np.arange(n)
    S[idx, (idx + 1) % n] = S[(idx + 1) % n, idx] = 1.0
    return S


def _k4_trees():
    """The number of spanning trees of the complete graph on 4 nodes (matrix-tree theorem)."""
    return spanning_tree_count(np.ones((4, 4)) - np.eye(4))


def _triangle_edge():
    """Pr(e in T) for one edge of the triangle: w_e R_e."""
    return edge_in_tree_probability(_cycle(3)).probability[0]


def _square_cut():
    """E[Phi_T] on the 4-cycle labelled 0, 0, 1, 1: two cut edges with R_e = 3/4 each."""
    return expected_tree_cut(_cycle(4), np.array([0, 0, 1, 1]))


QUIZ = Quiz(
    13,
    "Random spanning trees and WTA",
    [
        Numeric(
            r"How many spanning trees does the complete graph on 4 nodes have?",
            16.0,
            1e-6,
            r"Any cofactor of its Laplacian is $\det(4I_3 - \mathbb 1\mathbb 1^\top) = 16 = 4^{4-2}$: Cayley's"
            r" formula $n^{n-2}$.",
            _k4_trees,
        ),
        Numeric(
            r"A triangle with unit weights: what is the probability that a given edge is in a uniform random spanning"
            r" tree?",
            2 / 3,
            1e-9,
            r"Kirchhoff: $\Pr(e\in\mathcal T) = w_eR_e$, and the edge in parallel with the two-edge path has"
            r" $R_e = (1\cdot 2)/(1 + 2) = 2/3$. Check with Foster: the three edges sum to $n - 1 = 2$.",
            _triangle_edge,
        ),
        Numeric(
            r"The cycle on 4 nodes is labelled $0, 0, 1, 1$ around the cycle. What is $\mathbb E[\Phi_{\mathcal T}]$,"
            r" the expected number of cut edges in a uniform random spanning tree?",
            1.5,
            1e-9,
            r"Two edges are cut, each with $R_e = (1\cdot 3)/4 = 3/4$: $\mathbb E[\Phi_{\mathcal T}] = 3/2$, against"
            r" $\Phi = 2$. Every spanning tree drops one edge of the cycle, so it keeps one or two cut edges.",
            _square_cut,
        ),
        Choice(
            r"Why does $\sum_e w_eR_e = n - 1$ hold on every connected graph (Foster's theorem)?",
            (
                r"$w_eR_e$ is the probability that $e$ is in the random tree, and every tree has $n - 1$ edges",
                r"Because $R_e \le 1/w_e$ for every edge",
                r"Because $L^+$ has trace $n - 1$",
                r"Because the graph has at least $n - 1$ edges",
            ),
            0,
            r"Sum the indicators $[e\in\mathcal T]$ over the edges: $n - 1$ for every tree, so their expectations,"
            r" the $w_eR_e$, sum to $n - 1$ too.",
            {
                1: r"That gives $w_eR_e \le 1$ for each edge, an inequality, not the sum.",
                2: r"The trace of $L^+$ is $\sum_i 1/\sigma_i$, not $n - 1$ in general.",
                3: "A count of edges bounds nothing here: the sum is exactly n - 1 however many edges there are.",
            },
        ),
        Choice(
            r"Why does the depth-first line satisfy $\Phi_L \le 2\Phi_{\mathcal T}$?",
            (
                r"Consecutive first visits are joined by disjoint stretches of the walk, which crosses each tree edge"
                r" twice, so each cut tree edge is charged by at most two label changes",
                r"Because the line has $n - 1$ edges and the tree $n - 1$ too",
                r"Because a random tree has at most twice the cut of the graph",
                r"Because nearest-neighbour prediction makes at most two mistakes per cut edge",
            ),
            0,
            r"A label change between consecutive first visits $u, v$ needs a cut edge on the tree path $u\to v$, a"
            r" stretch of the walk; the walk uses each tree edge twice, so each cut edge pays for at most two changes.",
            {
                1: "Equal edge counts say nothing about which edges are cut.",
                2: r"A random tree cuts *fewer* edges than the graph on average ($\mathbb E[\Phi_{\mathcal T}] \le \Phi$).",
                3: "That mixes the line's cut with the mistake bound, which costs a log n per change.",
            },
        ),
        Choice(
            r"The published theorem bounds $\mathbb E\lvert\mathcal M\rvert$ by $O(\mathbb E[\Phi_{\mathcal T}]\log n)$."
            r" Over what is the expectation taken?",
            (
                r"Over the spanning tree the learner draws, with the labelling and the order fixed beforehand",
                r"Over random labellings of the graph",
                r"Over random orders of the nodes",
                r"Over the labelled set of a transductive learner",
            ),
            0,
            r"WTA's only randomness is its tree. The bound holds for every labelling and order that do not depend on"
            r" that tree; an adversary who saw the tree could aim at its line.",
            {
                1: "The labelling can be arbitrary (adversarial), as long as it is fixed before the tree is drawn.",
                2: "The order can be arbitrary too; our derivation holds for every order.",
                3: "WTA is an online learner: every label is revealed after its prediction.",
            },
        ),
        Choice(
            r"On the political blogs, $\mathbb E[\Phi_{\mathcal T}] / \Phi$ is about 0.076. What makes it so small?",
            (
                r"The two camps are joined by many parallel edges, each with a small resistance, so a random tree keeps"
                r" few of them",
                r"The graph has few edges between the camps",
                r"Most cut edges are bridges",
                r"Wilson's algorithm avoids cut edges",
            ),
            0,
            r"$\mathbb E[\Phi_{\mathcal T}] = \sum_{\rm cut} R_e$, and an edge with many parallel paths has a small"
            r" $R_e$: a boundary crossed by many edges is crossed by few tree edges.",
            {
                1: "The opposite: Phi is large (1,575 edges); the ratio is small because those edges are parallel.",
                2: r"A bridge has $R_e = 1$ and is in every tree: bridges would make the ratio 1.",
                3: r"Wilson's algorithm draws every tree with probability $\propto\prod w_e$; it favours no edge.",
            },
        ),
        Choice(
            r"S² on a path with one cut edge: two nodes at distance $\ell$ are known to carry different labels. How"
            r" many bisection queries at most does S² need before both ends of the cut edge are labelled?",
            (r"$\lceil\log_2\ell\rceil$", r"$\ell - 1$", r"$\ell/2$", r"$\log_2 n$ whatever $\ell$"),
            0,
            r"Each query at the middle of the shortest path between different labels halves the stretch that holds"
            r" the cut; after $\lceil\log_2\ell\rceil$ halvings it is a single edge.",
            {
                1: "That is a linear scan along the path; the midpoint query halves the stretch instead.",
                2: "Halving once leaves a stretch of length l/2, not a finished search.",
                3: r"The bisection works on the stretch between the two known labels, at most $n$ long but often"
                r" shorter, as the runs of §6 show.",
            },
        ),
    ],
)
