"""Graph core: Laplacians, pseudo-inverse, cut size, validation."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import graphsel_lib as gs
from conftest import random_connected_graph
from graphsel_lib.graph import n_components


def _nx(S):
    return nx.from_scipy_sparse_array(sp.csr_matrix(S))


def test_laplacian_matches_networkx(random_graphs):
    for S in random_graphs:
        ours = gs.laplacian(S).toarray()
        ref = nx.laplacian_matrix(_nx(S), nodelist=range(S.shape[0]), weight="weight").toarray()
        np.testing.assert_allclose(ours, ref, atol=1e-12)


def test_normalized_laplacian_matches_networkx(random_graphs):
    for S in random_graphs:
        ours = gs.normalized_laplacian(S).toarray()
        ref = nx.normalized_laplacian_matrix(_nx(S), nodelist=range(S.shape[0]), weight="weight").toarray()
        np.testing.assert_allclose(ours, ref, atol=1e-12)


def test_quadratic_form_is_half_sum_of_squared_differences(random_graphs, rng):
    for S in random_graphs:
        f = rng.standard_normal(S.shape[0])
        A = S.toarray()
        direct = 0.5 * np.sum(A * (f[:, None] - f[None, :]) ** 2)
        assert f @ (gs.laplacian(S) @ f) == pytest.approx(direct, rel=1e-10)


def test_laplacian_pinv_matches_numpy(random_graphs):
    for S in random_graphs:
        L = gs.laplacian(S).toarray()
        np.testing.assert_allclose(gs.laplacian_pinv(S), np.linalg.pinv(L, hermitian=True), atol=1e-8)


def test_pinv_reproduces_functions_with_zero_mean(random_graphs, rng):
    """<K_i, g> = (K L g)_i = g_i for every g with sum(g) = 0 (reproducing property)."""
    for S in random_graphs:
        K, L = gs.laplacian_pinv(S), gs.laplacian(S).toarray()
        g = rng.standard_normal(S.shape[0])
        g -= g.mean()
        np.testing.assert_allclose(K @ L @ g, g, atol=1e-8)


def test_cut_size_matches_networkx(random_graphs, rng):
    for S in random_graphs:
        n = S.shape[0]
        f = rng.choice([-1, 1], size=n)
        G = _nx(S)
        side = {i for i in range(n) if f[i] == 1}
        assert gs.cut_size(S, f) == pytest.approx(nx.cut_size(G, side, weight="weight"), abs=1e-10)
        # f^T L f = 4 Φ(f) for f in {±1}^n (gu2013 writes 2Φ: see notebook 01)
        assert f @ (gs.laplacian(S) @ f) == pytest.approx(4 * gs.cut_size(S, f), rel=1e-10)


def test_multiplicity_of_zero_is_number_of_components(rng):
    blocks = [np.ones((k, k)) - np.eye(k) for k in (3, 4, 5)]
    S = sp.block_diag(blocks).tocsr()
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    assert np.sum(np.abs(w) < 1e-10) == 3 == n_components(S)


def test_inputs_not_modified(random_graphs):
    S = random_graphs[0]
    before = S.copy()
    gs.laplacian(S), gs.normalized_laplacian(S), gs.laplacian_pinv(S), gs.cut_size(S, np.ones(S.shape[0]))
    assert (S != before).nnz == 0


def test_dense_and_sparse_agree(random_graphs):
    S = random_graphs[3]
    np.testing.assert_allclose(gs.laplacian(S.toarray()).toarray(), gs.laplacian(S).toarray())


@pytest.mark.parametrize(
    "S, match",
    [
        (np.ones((2, 3)), "square"),
        (np.array([[0, 1], [0, 0]]), "not symmetric"),
        (np.array([[0, -1], [-1, 0]]), "negative"),
        (np.array([[0, np.nan], [np.nan, 0]]), "non-finite"),
        (np.array([[0, np.inf], [np.inf, 0]]), "non-finite"),
        (np.zeros((0, 0)), "empty"),
    ],
)
def test_bad_adjacency_raises(S, match):
    with pytest.raises(ValueError, match=match):
        gs.laplacian(S)


def test_non_numeric_adjacency_raises():
    with pytest.raises(TypeError, match="real numbers"):
        gs.laplacian(np.array([["a", "b"], ["b", "a"]]))
    with pytest.raises(TypeError, match="real numbers"):
        gs.laplacian(np.array([[0, 1j], [1j, 0]]))


def test_disconnected_raises_where_connectivity_is_needed():
    S = sp.block_diag([np.ones((3, 3)) - np.eye(3)] * 2).tocsr()
    with pytest.raises(ValueError, match="disconnected"):
        gs.laplacian_pinv(S)
    with pytest.raises(ValueError, match="disconnected"):
        gs.Graph(S, np.zeros(6, dtype=int))


def test_normalized_laplacian_isolated_node_raises():
    with pytest.raises(ValueError, match="isolated"):
        gs.normalized_laplacian(np.zeros((3, 3)))


def test_cut_size_bad_length():
    with pytest.raises(ValueError, match="length"):
        gs.cut_size(np.ones((3, 3)) - np.eye(3), [1, -1])


# --------------------------------------------------------------------------- Graph
def test_from_edges_lcc_and_label_remap():
    edges = [[0, 1], [1, 2], [3, 4]]
    g = gs.Graph.from_edges(edges, ["b", "a", "b", "c", "c"], name="toy")
    assert (g.n_nodes, g.n_edges, g.n_classes) == (3, 2, 2)
    assert g.class_names == ["a", "b"]
    np.testing.assert_array_equal(g.labels, [1, 0, 1])
    with pytest.raises(ValueError, match="disconnected"):
        gs.Graph.from_edges(edges, [0, 0, 0, 1, 1], lcc=False)


def test_from_edges_validation():
    with pytest.raises(ValueError, match=r"shape \(m, 2\)"):
        gs.Graph.from_edges([[0, 1, 2]], [0, 1, 0])
    with pytest.raises(ValueError, match="endpoints"):
        gs.Graph.from_edges([[0, 5]], [0, 1])
    with pytest.raises(ValueError, match="non-negative"):
        gs.Graph.from_edges([[0, 1]], [0, 1], weights=[-1.0])
    with pytest.raises(TypeError, match="integer"):
        gs.Graph.from_edges([[0.5, 1.0]], [0, 1])


def test_from_edges_directed_symmetrises_with_max():
    g = gs.Graph.from_edges([[0, 1], [1, 0], [1, 2]], [0, 0, 1], weights=[2.0, 3.0, 1.0], directed=True)
    assert g.adjacency[0, 1] == g.adjacency[1, 0] == 3.0


def test_from_networkx_roundtrip():
    G = nx.karate_club_graph()
    for v in G:
        G.nodes[v]["label"] = G.nodes[v]["club"]
    g = gs.Graph.from_networkx(G, "label", weight=None)
    assert (g.n_nodes, g.n_edges, g.n_classes) == (34, 78, 2)
    H = g.to_networkx()
    assert nx.is_isomorphic(G, H)
    with pytest.raises(ValueError, match="no node has the label attribute 'label'.*pass label_attr"):
        gs.Graph.from_networkx(nx.path_graph(3), "label")
    P = nx.path_graph(3)
    P.nodes[0]["label"] = "a"
    P.nodes[2]["label"] = "b"
    with pytest.warns(gs.DataWarning, match=r"1 of 3 node\(s\) lack the label attribute 'label'.*unlabelled"):
        g = gs.Graph.from_networkx(P, "label")  # a node without the attribute is unlabelled, kept
    np.testing.assert_array_equal(g.labels, [0, -1, 1])
    assert "label" not in g.to_networkx().nodes[1]
    with pytest.raises(ValueError, match="directed"):
        gs.Graph.from_networkx(nx.DiGraph([(0, 1)]), "label")


@pytest.mark.parametrize(
    "labels, match",
    [([0, 1], "length 3"), ([0, -2, 1], "only -1 marks"), ([0, 1, 2.5], "integers"), ([0, 1, 5], "0..1")],
)
def test_graph_bad_labels(labels, match):
    S = np.ones((3, 3)) - np.eye(3)
    with pytest.raises(ValueError, match=match):
        gs.Graph(S, np.asarray(labels), class_names=["x", "y"])


def test_graph_rejects_self_loops():
    with pytest.raises(ValueError, match="zero diagonal"):
        gs.Graph(np.ones((3, 3)), np.array([0, 1, 0]))


def test_bfs_ball_is_nested_connected_and_checked():
    rng = np.random.default_rng(11)
    S = random_connected_graph(rng, 60, p=0.05)
    prev = np.array([], dtype=int)
    for size in (1, 5, 20, 60):
        nodes = gs.bfs_ball(S, size, root=7)
        assert nodes.size == size and 7 in nodes and np.all(np.diff(nodes) > 0)
        assert np.isin(prev, nodes).all()  # nested
        assert n_components(S[nodes][:, nodes]) == 1  # connected
        prev = nodes
    with pytest.raises(ValueError, match="size must be in 1..60"):
        gs.bfs_ball(S, 61, root=0)
    with pytest.raises(ValueError, match="root must be a node"):
        gs.bfs_ball(S, 3, root=60)


# --------------------------------------------------------------------------- no silent wrong answers (issue 12)
PATH4 = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]], dtype=float)


@pytest.mark.parametrize("mark", [-1, np.nan, None])
def test_from_adjacency_keeps_unlabelled_nodes(mark):
    """-1, NaN and None mean "unlabelled"; such nodes are kept with their edges (they were dropped)."""
    labels = np.array([0, 1, 1, mark], dtype=object if mark is None else float)
    with pytest.warns(gs.DataWarning, match=r"1 of 4 nodes are unlabelled \(-1, NaN or None\): kept"):
        g = gs.Graph.from_adjacency(PATH4, labels)
    assert g.n_nodes == 4 and g.n_edges == 3 and g.class_names == ["0", "1"]
    np.testing.assert_array_equal(g.labels, [0, 1, 1, -1])
    np.testing.assert_array_equal(g.labelled, [True, True, True, False])
    assert g.n_labelled == 3 and not g.fully_labelled and g.info["unlabelled"] == 1
    assert "n_labelled=3" in repr(g)


def test_string_labels_with_none_are_unlabelled():
    g = gs.Graph.from_edges([[0, 1], [1, 2], [2, 3]], ["a", "b", "a", None])
    assert g.class_names == ["a", "b"] and g.n_nodes == 4 and g.labels[3] == -1


def test_classes_renumber_over_labelled_nodes_of_the_kept_component():
    """An unlabelled node in the kept component, a class only outside it: renumbered over what is left."""
    edges = [[0, 1], [1, 2], [3, 4]]
    with pytest.warns(gs.DataWarning, match=r"every labelled node of class\(es\) \['c'\]"):
        g = gs.Graph.from_edges(edges, ["b", None, "d", "c", None])
    assert g.class_names == ["b", "d"]
    np.testing.assert_array_equal(g.labels, [0, -1, 1])


def test_no_label_at_all_needs_class_names():
    with pytest.raises(ValueError, match="no node has a label.*class_names"):
        gs.Graph.from_edges([[0, 1], [1, 2]], [None, None, None])
    g = gs.Graph.from_edges([[0, 1], [1, 2]], [-1, -1, -1], class_names=["x", "y"])
    assert g.n_labelled == 0 and g.n_classes == 2


@pytest.mark.parametrize("bad", [0.5, 2.7, -2, np.inf])
def test_from_adjacency_refuses_non_integer_labels(bad):
    """0.5 used to become a class "0.5"; now the error names the value and the node."""
    with pytest.raises(ValueError, match=rf"{bad!r}.*node\(s\) 2"):
        gs.Graph.from_adjacency(PATH4, np.array([0, 1, bad, 1], dtype=float))


def test_check_labels_needs_every_label_but_a_graph_does_not():
    g = gs.Graph(PATH4, np.array([0, -1, 1, 0]))
    assert g.n_labelled == 3
    with pytest.raises(ValueError, match=r"every node a class.*unlabelled.*node\(s\) 1"):
        gs.check_labels(g.labels, 4)
    with pytest.raises(ValueError, match="unlabelled"):
        gs.check_labels([0, np.nan, 1], 3)


def test_edge_list_in_both_directions_counts_each_edge_once():
    """np.argwhere(A) / PyG give i j and j i: each weight used to be doubled."""
    A = np.array([[0, 2.0, 0], [2.0, 0, 3.0], [0, 3.0, 0]])
    edges = np.argwhere(A)
    with pytest.warns(gs.DataWarning, match=r"2 edge\(s\) are listed in both directions.*kept one weight"):
        g = gs.Graph.from_edges(edges, [0, 1, 0], weights=A[edges[:, 0], edges[:, 1]])
    np.testing.assert_array_equal(g.adjacency.toarray(), A)
    with pytest.warns(gs.DataWarning, match="both directions"):
        g = gs.Graph.from_edges(edges, [0, 1, 0])
    assert set(g.adjacency.data) == {1.0}


def test_repeated_edges_are_summed_with_a_warning():
    with pytest.warns(
        gs.DataWarning, match=r"1 edge\(s\) are listed more than once \(e.g. \{0, 1\}\).*added"
    ):
        g = gs.Graph.from_edges([[0, 1], [0, 1], [1, 2]], [0, 1, 0])
    assert g.adjacency[0, 1] == 2.0 and g.adjacency[1, 2] == 1.0
    # both directions with different weights: the same undirected edge twice, summed
    with pytest.warns(gs.DataWarning, match="more than once"):
        g = gs.Graph.from_edges([[0, 1], [1, 0], [1, 2]], [0, 1, 0], weights=[2.0, 3.0, 1.0])
    assert g.adjacency[0, 1] == g.adjacency[1, 0] == 5.0
    with pytest.warns(gs.DataWarning, match="directed edge"):
        gs.Graph.from_edges([[0, 1], [0, 1], [1, 2]], [0, 1, 0], directed=True)


def test_edge_list_without_duplicates_gives_no_warning(rng):

    S = random_connected_graph(rng, 30)
    C = sp.triu(S, k=1).tocoo()
    flip = rng.random(C.nnz) < 0.5  # any mix of directions
    edges = np.where(flip[:, None], np.c_[C.col, C.row], np.c_[C.row, C.col])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = gs.Graph.from_edges(edges, np.arange(30) % 3, weights=C.data)
    assert (g.adjacency != S).nnz == 0


def test_tiny_one_directional_weights_are_not_symmetric():
    """The symmetry tolerance is relative: before, weights <= 1e-10 given one way passed."""
    S = np.array([[0, 1e-12, 0], [0, 0, 1e-12], [0, 0, 0]])
    with pytest.raises(ValueError, match=r"not symmetric.*S\[0, 1\] = 1e-12 but S\[1, 0\] = 0"):
        gs.check_adjacency(S)
    with pytest.raises(ValueError, match="not symmetric"):
        gs.Graph.from_adjacency(S, [0, 1, 0])
    gs.check_adjacency(S + S.T)  # tiny but symmetric: fine
    gs.check_adjacency(np.array([[0, 1.0], [1.0 + 1e-13, 0]]))  # rounding in the last bits: fine


def test_complex_matrix_is_refused_not_truncated():
    """Before: from_adjacency dropped the imaginary part with only a ComplexWarning."""
    S = (PATH4 * (1 + 1j)).astype(complex)
    with pytest.raises(TypeError, match="complex"):
        gs.Graph.from_adjacency(S, [0, 1, 1, 0])
    with pytest.raises(TypeError, match="complex"):
        gs.check_adjacency(sp.csr_matrix(S))


def test_graph_passed_for_a_matrix_says_pass_adjacency():
    g = gs.load_dataset("karate")
    for f in (gs.laplacian, gs.check_adjacency, gs.cut_size):
        with pytest.raises(TypeError, match=r"Graph object; pass .*g\.adjacency"):
            f(g) if f is not gs.cut_size else f(g, g.labels)
    with pytest.raises(TypeError, match=r"g\.adjacency"):
        gs.Graph.from_adjacency(g, g.labels)


def test_from_edges_checks_sizes_before_allocating():
    """n_nodes=10**9+1 used to allocate ~24 GB before the label length was checked."""
    with pytest.raises(ValueError, match=r"n_nodes=1000000001 but labels has length 3"):
        gs.Graph.from_edges([[0, 1], [1, 2]], [0, 1, 0], n_nodes=10**9 + 1)
    with pytest.raises(TypeError, match="n_nodes must be an integer"):
        gs.Graph.from_edges([[0, 1], [1, 2]], [0, 1, 0], n_nodes=3.0)


def test_too_few_labels_is_named():
    """Before: "edge endpoints must be in 0..2", with no word about the labels."""
    with pytest.raises(ValueError, match=r"found node 3 \(labels has length 3: give one label per node\)"):
        gs.Graph.from_edges([[0, 1], [1, 2], [2, 3]], [0, 1, 0])


def test_features_with_wrong_rows_is_named():
    """Before: an IndexError from features[keep]."""
    with pytest.raises(ValueError, match=r"features must have 4 rows \(one per node\), got shape \(3, 2\)"):
        gs.Graph.from_adjacency(PATH4, [0, 1, 1, 0], features=np.zeros((3, 2)))
    with pytest.raises(ValueError, match="features must have 4 rows"):
        gs.Graph.from_adjacency(PATH4, [0, 1, 1, 0], features=np.zeros((5, 2)), lcc=False)


def test_lcc_reduction_warns_with_counts_and_vanished_classes():
    """Before: nodes and whole classes disappeared without a word."""
    S = sp.block_diag(
        [nx.to_scipy_sparse_array(nx.path_graph(5)), nx.to_scipy_sparse_array(nx.path_graph(2))]
    )
    labels = ["a", "b", "a", "b", "a", "c", "c"]
    with pytest.warns(
        gs.DataWarning, match=r"largest of 2 connected components: dropped 2 of 7 nodes.*\['c'\]"
    ):
        g = gs.Graph.from_adjacency(S, labels, name="toy")
    assert g.n_nodes == 5 and g.class_names == ["a", "b"]
    # one zero-weight edge is no edge: the graph falls apart, and says so
    A = nx.to_numpy_array(nx.path_graph(6))
    A[2, 3] = A[3, 2] = 0.0
    with pytest.warns(gs.DataWarning, match="dropped 3 of 6 nodes"):
        gs.Graph.from_adjacency(A, [0, 0, 0, 1, 1, 1])
    with pytest.raises(ValueError, match="disconnected"):
        gs.Graph.from_adjacency(A, [0, 0, 0, 1, 1, 1], lcc=False)


def test_n_classes_must_be_an_integer():
    """``n_classes=2.7`` used to be truncated to 2 without a word."""
    with pytest.raises(TypeError, match="n_classes"):
        gs.check_labels([0, 1, 1], 3, n_classes=2.7)
    with pytest.raises(ValueError, match="n_classes"):
        gs.check_labels([0, 1, 1], 3, n_classes=0)
    assert gs.check_labels([0, 1, 1], 3, n_classes=np.int64(2)).tolist() == [0, 1, 1]


def test_a_networkx_graph_passed_as_a_matrix_says_what_to_pass():
    """It said 'S must be a 2-D matrix, got 1 dimension(s)'."""
    import networkx as nx

    G = nx.karate_club_graph()
    with pytest.raises(TypeError, match="got a networkx Graph; pass networkx.to_scipy_sparse_array"):
        gs.laplacian(G)
    with pytest.raises(TypeError, match="from_networkx"):
        gs.spectral_embedding(G, 2, cache=False)


def test_a_graph_without_an_edge_is_refused():
    """All-zero weights, only self-loops or sbm(avg_degree=1e-3) returned a 1-node graph with warnings."""
    with pytest.raises(ValueError, match="at least one edge of positive weight"):
        gs.Graph.from_edges(np.array([[0, 1], [1, 2]]), [0, 1, 0], weights=np.array([0.0, 0.0]))
    with pytest.raises(ValueError, match="at least one edge of positive weight"):
        gs.datasets.sbm(100, n_blocks=2, avg_degree=1e-3, mixing=0.2, seed=0)


# --------------------------------------------------------------------------- issue 34: missing-value markers, names
MISSING_STRINGS = [
    "NaN",
    "nan",
    "None",
    "-1",
    "",
    "NONE",
    "Nan",
    "NAN",
    "Null",
    "null",
    "NA",
    "n/a",
    " -1.0 ",
]


@pytest.mark.parametrize("marker", MISSING_STRINGS)
def test_missing_value_strings_are_unlabelled_in_from_edges_and_from_networkx(marker):
    """'NaN', 'None', '-1', '', 'NONE', ... became classes of their own in from_edges and from_networkx."""
    edges = np.array([[0, 1], [1, 2], [2, 3]])
    labels = np.array(["red", marker, "blue", "red"], dtype=object)
    with pytest.warns(gs.DataWarning, match="1 of 4 nodes are unlabelled"):
        g = gs.Graph.from_edges(edges, labels)
    assert g.class_names == ["blue", "red"] and g.labels.tolist() == [1, -1, 0, 1]
    with pytest.warns(gs.DataWarning, match="1 of 4 nodes are unlabelled"):
        g2 = gs.Graph.from_edges(edges, labels.astype(str))  # a numpy string array
    assert g2.class_names == ["blue", "red"]
    G = nx.path_graph(4)
    nx.set_node_attributes(G, dict(enumerate(labels)), "label")
    with pytest.warns(gs.DataWarning, match="1 of 4 nodes are unlabelled"):
        g3 = gs.Graph.from_networkx(G)
    assert g3.class_names == ["blue", "red"] and g3.labels[1] == -1


def test_numeric_missing_labels_among_strings_or_numbers_stay_unlabelled():
    """Numeric -1 / NaN / None keep meaning unlabelled, also mixed with marker strings in an object array."""
    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 4]])
    mixed = np.array([0, "NaN", 2, None, -1], dtype=object)
    with pytest.warns(gs.DataWarning, match="3 of 5 nodes are unlabelled"):
        g = gs.Graph.from_edges(edges, mixed)
    assert g.class_names == ["0", "2"] and g.labels.tolist() == [0, -1, 1, -1, -1]


def test_lookalike_names_are_kept_apart_with_a_warning():
    """Node names '2' and '2.0', '7' and '007', labels '1' and '1.0' stayed distinct without a word."""
    G = nx.Graph([("2", "2.0"), ("2.0", "7"), ("7", "007")])
    nx.set_node_attributes(G, {"2": "1", "2.0": "1.0", "7": "1", "007": "x"}, "label")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = gs.Graph.from_networkx(G)
    look = [str(w.message) for w in caught if issubclass(w.category, gs._validation.LookalikeNamesWarning)]
    assert issubclass(gs._validation.LookalikeNamesWarning, gs.DataWarning)
    assert g.n_nodes == 4 and g.class_names == ["1", "1.0", "x"]  # kept as written
    assert any("node names '2' and '2.0', '7' and '007'" in m for m in look)
    assert any("class names '1' and '1.0'" in m for m in look)


def test_from_networkx_refuses_an_empty_graph_and_text_weights():
    """nx.Graph() raised networkx's own error; a weight '2.5' (text) gave scipy's dtype error."""
    with pytest.raises(ValueError, match="G has no nodes"):
        gs.Graph.from_networkx(nx.Graph())
    G = nx.Graph()
    G.add_edge("a", "b", weight="2.5")
    G.add_edge("b", "c", weight=1.0)
    nx.set_node_attributes(G, {"a": "x", "b": "y", "c": "x"}, "label")
    with pytest.raises(
        TypeError, match=r"weight attribute 'weight' must hold numbers.*'2\.5' \(str\) on edge"
    ):
        gs.Graph.from_networkx(G)
    assert gs.Graph.from_networkx(G, weight=None).adjacency[0, 1] == 1.0  # the fix the message names


def test_without_self_loops_is_setdiag_zero_then_eliminate_zeros():
    """The fast removal of the diagonal leaves what ``setdiag(0); eliminate_zeros()`` leaves, array by array."""
    rng = np.random.default_rng(0)
    for trial in range(60):
        n = int(rng.integers(1, 30))
        A = sp.random(n, n, density=rng.random() * 0.5, random_state=int(rng.integers(10**9)), format="csr")
        A = (A + A.T).tocsr()
        if trial % 3 == 0:
            A.setdiag(rng.random(n) * (rng.random(n) < 0.5))  # some loops, some explicit zeros
        if trial % 5 == 0:
            A.data[rng.random(A.nnz) < 0.2] = 0.0
        A.sort_indices()
        slow = A.copy()
        slow.setdiag(0)
        slow.eliminate_zeros()
        fast = gs.graph.without_self_loops(A.copy())
        for field in ("indptr", "indices", "data"):
            np.testing.assert_array_equal(getattr(fast, field), getattr(slow, field))
    S = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
    assert gs.graph.without_self_loops(S) is S  # nothing to remove: no copy


def test_symmetry_check_refuses_what_it_refused_before():
    """The exact-equality shortcut of the symmetry check accepts only symmetric input; last-bit rounding passes."""
    S = sp.csr_matrix(np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]))
    assert gs.check_adjacency(S).nnz == 4
    near = S.toarray()
    near[0, 1] *= 1 + 1e-13  # rounding in a symmetric computation
    assert gs.check_adjacency(near).nnz == 4
    directed = S.toarray()
    directed[2, 0] = 0.0
    with pytest.raises(ValueError, match="not symmetric"):
        gs.check_adjacency(directed)
