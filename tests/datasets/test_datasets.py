"""Dataset loaders: exact sizes, invariants, lookup order, checksums, determinism.

The raw files come from ``$GRAPHSEL_DATA`` or ``../shared/data`` (never the
network: every real load here uses ``download=False``); a dataset whose files
are not available locally is skipped, not downloaded.
"""

import hashlib
import pickle
import shutil

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import graphsel_lib as gs
from graphsel_lib import datasets, paths
from graphsel_lib.datasets import parsers
from graphsel_lib.knn import knn_adjacency

# Expected sizes after preprocessing (LCC), written independently of the
# registry: real data from ../shared/data/MANIFEST.md (CiteSeer:
# see test_citeseer_unlabelled_nodes), generated sets measured once with the
# default parameters.
EXPECTED = {
    "coauthor": (1711, 2898, 4),
    "cora": (2485, 5069, 7),
    "pubmed": (19717, 44324, 3),
    "citeseer": (2110, 3668, 6),
    "polblogs": (1222, 16714, 2),
    "webkb-cornell": (183, 277, 5),
    "webkb-texas": (183, 279, 5),
    "webkb-washington": (215, 365, 5),
    "webkb-wisconsin": (251, 450, 5),
    "usps": (9298, 68817, 10),
    "karate": (34, 78, 2),
    "digits": (1797, 12339, 10),
    "digits-3-8": (357, 781, 2),
    "planted-partition": (200, 1725, 4),
    # epinions: MANIFEST (75,877-node LCC; the other component is one edge); uci-*: rows from MANIFEST
    # and scikit-learn, edges of the k = 10 graph measured once
    "epinions": (75877, 405739, 1),
    "uci-heart": (297, 2125, 2),
    "uci-housing": (506, 3447, 2),
    "uci-ionosphere": (351, 2843, 2),
    "uci-pima": (768, 5430, 2),
    "uci-sonar": (208, 1585, 2),
    "uci-glass": (214, 1538, 6),
    "uci-tictactoe": (958, 8209, 2),
    "uci-cmc": (1473, 9886, 3),
    "uci-wine": (178, 1231, 3),
    "uci-breast-cancer": (569, 4277, 2),
}


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Never read or write the user's download cache; start with empty memo caches."""
    monkeypatch.setenv("GRAPHSEL_CACHE", str(tmp_path / "cache"))
    datasets.clear_cache()
    yield
    datasets.clear_cache()


def _load(name, **kwargs):
    try:
        return gs.load_dataset(name, download=False, **kwargs)
    except FileNotFoundError as exc:  # pragma: no cover - only without ../shared/data
        pytest.skip(f"raw data for {name!r} not available locally: {exc}")


def _shared_file(relpath):
    for d in paths.local_data_dirs():
        p = d / relpath
        if p.is_file():
            return p
    pytest.skip(f"{relpath} not available locally")  # pragma: no cover


def test_registry_lists_every_dataset():
    assert gs.list_datasets() == sorted(EXPECTED)


def test_registry_entries_are_complete():
    for name in gs.list_datasets():
        spec = datasets.dataset_info(name)
        assert spec.licence and spec.citation and spec.description and spec.original_url
        for rp in spec.files:
            rf = datasets.RAW_FILES[rp]
            assert len(rf.sha256) == 64 and int(rf.sha256, 16) >= 0
            assert rf.size > 0 and rf.url.startswith("https://") and rf.commit in rf.url
    assert datasets.dataset_info("coauthor").redistributable is False


def test_data_readme_documents_the_registry():
    readme = (paths.project_root() / "data" / "README.md").read_text(encoding="utf-8")
    for name in gs.list_datasets():
        assert f"`{name}`" in readme, name
    for rp, rf in datasets.RAW_FILES.items():
        assert rf.sha256 in readme and rf.url in readme, rp


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_dataset_sizes_and_invariants(name):
    g = _load(name)
    assert isinstance(g, gs.Graph)
    assert (g.n_nodes, g.n_edges, g.n_classes) == EXPECTED[name]
    S = g.adjacency
    assert sp.issparse(S) and S.format == "csr" and S.dtype == np.float64
    assert abs(S - S.T).nnz == 0, "not symmetric"
    assert not S.diagonal().any(), "non-zero diagonal"
    assert S.data.min() > 0 and np.all(np.isfinite(S.data))
    assert csgraph.connected_components(S, directed=False)[0] == 1
    assert g.labels.dtype.kind == "i" and g.labels.shape == (g.n_nodes,)
    assert set(np.unique(g.labels)) == set(range(g.n_classes)), "labels must be exactly 0..K-1"
    assert len(g.class_names) == g.n_classes and all(isinstance(c, str) for c in g.class_names)
    if g.features is not None:
        assert g.features.shape[0] == g.n_nodes
    assert g.node_ids is not None and g.node_ids.shape == (g.n_nodes,)
    assert g.info["dataset"] == name and g.info["licence"] and g.info["citation"]
    assert set(g.info["source"]) == set(datasets.dataset_info(name).files)


def test_coauthor_matches_gu2013_table1():
    g = _load("coauthor")
    assert g.info["nnz_plus_diagonal"] == 7507  # gu2013 Table 1 "links"
    assert g.adjacency.nnz == 5796
    W = sp.triu(g.adjacency, k=1)
    assert W.sum() == 5615 and W.max() == 28  # S_ij = number of shared papers
    assert g.class_names == ["Database", "Data Mining", "AI/ML", "Information Retrieval"]
    assert np.bincount(g.labels).tolist() == [618, 326, 350, 417]
    assert g.info["redistributable"] is False and "academic" in g.info["licence"].lower()


def test_cora_classes_and_features():
    g = _load("cora")
    assert g.class_names[0] == "Case_Based" and g.class_names[-1] == "Theory"
    assert np.bincount(g.labels).tolist() == [285, 406, 726, 379, 214, 131, 344]
    assert g.features.shape == (2485, 1433)
    assert set(np.unique(g.features.data)) == {1.0}


def test_pubmed_labels_and_self_loops():
    g = _load("pubmed")
    assert np.bincount(g.labels).tolist() == [4103, 7739, 7875]
    assert g.info["self_loops_dropped"] == 3  # 88651 gu2013 "links" = 88648 + 3


def test_citeseer_unlabelled_nodes():
    """The 15 unlabelled Planetoid nodes are dropped before the LCC.

    10 of them lie in the LCC of the full graph (2120 nodes / 3679 edges, the
    MANIFEST's number); without them the LCC has 2110 / 3668, the same size
    and degree sequence as FastONL's preprocessed citeseer.npz.
    """
    g = _load("citeseer")
    assert g.info["unlabelled_nodes_dropped"] == 15
    assert g.info["self_loops_dropped"] == 124
    assert g.features.shape == (2110, 3703)
    z = np.load(_shared_file("fastonl/citeseer.npz"))
    F = sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
    assert F.shape == g.adjacency.shape
    deg = np.sort(np.asarray(g.adjacency.sum(axis=1)).ravel())
    assert np.array_equal(deg, np.sort(np.asarray(F.sum(axis=1)).ravel()))
    assert sorted(np.bincount(g.labels)) == sorted(np.bincount(z["labels"]))


def test_uci_class_counts_match_the_manifest():
    counts = {
        "uci-heart": [160, 137],  # num > 0 over the 297 complete rows
        "uci-ionosphere": [126, 225],  # b, g
        "uci-pima": [500, 268],
        "uci-sonar": [111, 97],  # M, R
        "uci-glass": [70, 76, 17, 13, 9, 29],
        "uci-tictactoe": [332, 626],
        "uci-cmc": [629, 333, 511],
    }
    for name, want in counts.items():
        g = gs.load_dataset(name, download=False)
        assert np.bincount(g.labels).tolist() == want, name
        assert g.features.shape[0] == g.n_nodes
    housing = gs.load_dataset("uci-housing", download=False)
    assert abs(int(housing.labels.sum()) - 253) <= 3  # binarised at the median


def test_epinions_has_no_labels():
    g = gs.load_dataset("epinions", download=False)
    assert g.n_classes == 1 and not g.labels.any()
    assert g.info["directed_edges"] == 508837


def test_polblogs_classes():
    g = _load("polblogs")
    assert np.bincount(g.labels).tolist() == [586, 636]
    assert set(np.unique(g.adjacency.data)) == {1.0}


def test_unknown_dataset_lists_valid_names():
    with pytest.raises(ValueError, match="Valid names") as err:
        gs.load_dataset("coraa")
    msg = str(err.value)
    assert "'coraa'" in msg and "cora" in msg and "pubmed" in msg and "Did you mean 'cora'" in msg


def test_unknown_keyword_is_rejected():
    with pytest.raises(TypeError, match="accepts: k"):
        gs.load_dataset("digits", seed=3)
    with pytest.raises(TypeError, match="none"):
        gs.load_dataset("karate", k=3)


def test_checksum_mismatch_in_graphsel_data_shadows_the_good_copy(tmp_path, monkeypatch):
    relpath = "webkb/cornell.cites"
    good = _shared_file(relpath)
    # Without $GRAPHSEL_DATA the good shared copy is found and loads.
    monkeypatch.delenv("GRAPHSEL_DATA", raising=False)
    assert _load("webkb-cornell").n_nodes == 183
    # A corrupted copy in $GRAPHSEL_DATA comes first in the lookup order: it
    # must be used, and rejected, although a good copy exists further down.
    bad_dir = tmp_path / "data"
    (bad_dir / "webkb").mkdir(parents=True)
    raw = bytearray(good.read_bytes())
    raw[100] ^= 0x01
    (bad_dir / relpath).write_bytes(bytes(raw))
    shutil.copy(_shared_file("webkb/cornell.content"), bad_dir / "webkb" / "cornell.content")
    monkeypatch.setenv("GRAPHSEL_DATA", str(bad_dir))
    assert paths.local_data_dirs()[0] == bad_dir and len(paths.local_data_dirs()) >= 2
    expected = datasets.RAW_FILES[relpath].sha256
    with pytest.raises(ValueError, match="checksum mismatch") as err:
        gs.load_dataset("webkb-cornell", download=False)
    msg = str(err.value)
    actual = hashlib.sha256(bytes(raw)).hexdigest()
    assert relpath in msg and expected in msg and actual in msg and str(bad_dir) in msg
    # Repairing the file (new mtime) makes it load again, now from $GRAPHSEL_DATA.
    shutil.copy(good, bad_dir / relpath)
    g = gs.load_dataset("webkb-cornell", download=False)
    assert g.info["source"][relpath]["path"] == str(bad_dir / relpath)


def test_missing_file_without_download(tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("GRAPHSEL_DATA", str(empty))
    monkeypatch.setattr(paths, "local_data_dirs", lambda: [empty])  # hide ../shared/data
    with pytest.raises(FileNotFoundError, match="cora/cora.npz") as err:
        gs.load_dataset("cora", download=False)
    assert str(empty) in str(err.value) and str(tmp_path / "cache") in str(err.value)
    with pytest.raises(FileNotFoundError, match="planetoid/ind.pubmed"):
        datasets.fetch_dataset("pubmed", download=False)


def test_expected_size_mismatch_is_an_error(monkeypatch):
    import dataclasses

    spec = datasets.dataset_info("karate")
    monkeypatch.setitem(
        datasets.REGISTRY, "karate", dataclasses.replace(spec, expected=datasets.Expected(34, 77, 2))
    )
    with pytest.raises(ValueError, match=r"edges 78 \(expected 77\)"):
        gs.load_dataset("karate")


def test_generated_sets_are_deterministic():
    a = gs.load_dataset("planted-partition", seed=7)
    datasets.clear_cache()  # rebuild from scratch, not from the in-process memo
    b = gs.load_dataset("planted-partition", seed=7)
    assert (a.adjacency != b.adjacency).nnz == 0 and np.array_equal(a.labels, b.labels)
    c = gs.load_dataset("planted-partition", seed=8)
    assert c.adjacency.shape != a.adjacency.shape or (c.adjacency != a.adjacency).nnz > 0
    assert a.name != c.name and a.info["params"]["seed"] == 7 and "seed=7" in a.name
    small = gs.load_dataset("planted-partition", n_blocks=3, block_size=20, p_in=0.5, p_out=0.05, seed=1)
    assert small.n_classes == 3 and small.n_nodes <= 60


def test_knn_parameter_is_part_of_the_identity():
    g3 = _load("digits-3-8")
    g5 = _load("digits-3-8", k=5)
    assert g3.name == "digits-3-8[k=3]" and g5.name == "digits-3-8[k=5]"
    assert g5.info["params"] == {"k": 5} and g5.n_edges > g3.n_edges
    datasets.clear_cache()
    again = _load("digits-3-8", k=5)
    assert (again.adjacency != g5.adjacency).nnz == 0


def test_loads_return_independent_copies():
    g = _load("karate")
    g.labels[:] = 0
    g.adjacency.data[:] = 5.0
    h = _load("karate")
    assert np.bincount(h.labels).tolist() == [17, 17] and set(h.adjacency.data) == {1.0}


def test_lcc_false():
    assert _load("polblogs", lcc=False).n_nodes == 1222  # already connected
    with pytest.raises(ValueError, match="disconnected"):
        _load("cora", lcc=False)


def _naive_knn(X, k):
    n = X.shape[0]
    A = np.zeros((n, n))
    for i in range(n):
        d = ((X - X[i]) ** 2).sum(axis=1)
        order = sorted((d[j], j) for j in range(n) if j != i)  # ties -> smaller index
        for _, j in order[:k]:
            A[i, j] = 1
    return np.maximum(A, A.T)


def test_knn_adjacency_matches_naive_with_ties():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(60, 4)).astype(float)  # many exact ties
    for k in (1, 3, 7):
        got = knn_adjacency(X, k, block_size=16).toarray()
        assert np.array_equal(got, _naive_knn(X, k))
    with pytest.raises(ValueError, match="k must be"):
        knn_adjacency(X, 60)
    with pytest.raises(TypeError):
        knn_adjacency(X, 2.0)


def test_planetoid_unpickler_refuses_foreign_globals(tmp_path):
    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    p = tmp_path / "evil.pkl"
    p.write_bytes(pickle.dumps(Evil(), protocol=2))
    with pytest.raises(pickle.UnpicklingError, match="refusing"):
        parsers._load_planetoid_pickle(p)


def test_webkb_colink_graph_counts_shared_links():
    import networkx as nx

    g = gs.load_dataset("webkb-cornell", graph="colinks", download=False)
    assert g.name == "webkb-cornell[graph=colinks]"
    # independent reference: common out- and in-neighbours in the directed link graph
    files = datasets.fetch_dataset("webkb-cornell", download=False)
    raw = parsers._parse_webkb(files, "cornell")
    D = nx.DiGraph(sp.coo_matrix(raw["S"]).toarray().astype(bool) & ~np.eye(raw["S"].shape[0], dtype=bool))
    pos = {u: i for i, u in enumerate(raw["node_ids"])}
    rng = np.random.default_rng(0)
    for i, j in rng.choice(g.n_nodes, size=(40, 2)):
        if i == j:
            continue
        a, b = pos[g.node_ids[i]], pos[g.node_ids[j]]
        want = len(set(D.successors(a)) & set(D.successors(b))) + len(
            set(D.predecessors(a)) & set(D.predecessors(b))
        )
        assert g.adjacency[i, j] == want
    with pytest.raises(ValueError, match="graph must be"):
        gs.load_dataset("webkb-cornell", graph="words", download=False)


# --------------------------------------------------------------------------- no silent wrong answers (issue 12)
def test_lcc_that_loses_classes_warns():
    """A planted partition with p_out = 0 used to come back as one class, without a word."""
    with pytest.warns(
        gs.DataWarning, match=r"dropped 150 of 200 nodes.*class\(es\) \['block 1', 'block 2', 'block 3'\]"
    ):
        g = gs.load_dataset("planted-partition", p_out=0.0)
    assert g.n_classes == 1 and g.info["nodes_dropped"] == {"unlabelled": 0, "outside_lcc": 150}


def test_registry_load_records_what_it_dropped_without_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", gs.DataWarning)  # the registry's checked preprocessing: no warning
        g = gs.load_dataset("karate")
    assert g.info["nodes_dropped"] == {"unlabelled": 0, "outside_lcc": 0}


def _toy_spec(monkeypatch, labels):
    import dataclasses

    def parser(files):
        S = sp.csr_matrix(np.diag(np.ones(3), 1) + np.diag(np.ones(3), -1))  # the path 0-1-2-3
        return dict(S=S, labels=labels, class_names=["x", "y"])

    spec = dataclasses.replace(datasets.dataset_info("karate"), name="toy", parser=parser, expected=None)
    monkeypatch.setitem(datasets.REGISTRY, "toy", spec)


@pytest.mark.parametrize("mark", [-1, np.nan, None])
def test_loader_uses_the_library_label_convention(monkeypatch, mark):
    """-1, NaN and None are unlabelled in load_dataset as in Graph.from_* and the transductive methods."""
    _toy_spec(monkeypatch, np.array([0, 1, 1, mark], dtype=object if mark is None else float))
    with pytest.warns(gs.DataWarning, match="dropped 1 of 4 nodes that have no label"):
        g = gs.load_dataset("toy")
    assert g.n_nodes == 3 and g.labels.tolist() == [0, 1, 1]


def test_loader_refuses_non_integer_labels(monkeypatch):
    """A parser's 0.5 used to be truncated to class 0."""
    _toy_spec(monkeypatch, np.array([0, 1, 0.5, 1]))
    with pytest.raises(ValueError, match=r"labels of 'toy' must hold integers.*0\.5 at node\(s\) 2"):
        gs.load_dataset("toy")


def test_knn_adjacency_refuses_complex_features():
    """Before: the imaginary part was dropped with only a ComplexWarning."""
    X = np.arange(10.0).reshape(5, 2) * (1 + 1j)
    with pytest.raises(TypeError, match="complex"):
        knn_adjacency(X, 2)
