"""The dataset registry: every raw file (URL at a pinned commit, SHA-256, size) and every dataset
(its files, parser, licence, citation and expected size after preprocessing).

Data files are never part of the repository; the DBLP four-area data
(``coauthor``) in particular may be used for academic purposes only and must
not be redistributed: it is downloaded for the user from its public location.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Callable

from .fetch import RawFile
from .parsers import (
    _parse_citeseer,
    _parse_coauthor,
    _parse_cora,
    _parse_digits,
    _parse_digits_3_8,
    _parse_epinions,
    _parse_karate,
    _parse_planted_partition,
    _parse_polblogs,
    _parse_pubmed,
    _parse_uci,
    _parse_usps,
    _parse_webkb,
)

__all__ = ["RAW_FILES", "REGISTRY", "DatasetSpec", "Expected", "dataset_info", "list_datasets"]


@dataclass(frozen=True)
class Expected:
    """Size of the graph after preprocessing (LCC), asserted by the loader.

    ``None`` fields are not checked (e.g. the edge count of a random graph).

    Parameters
    ----------
    n_nodes, n_edges, n_classes : int or None
        Nodes, undirected edges and classes of the loaded graph.
    """

    n_nodes: int | None
    n_edges: int | None
    n_classes: int | None


@dataclass(frozen=True)
class DatasetSpec:
    """A registry entry: raw files, parser, provenance and expected size.

    ``params`` holds the keyword arguments the loader accepts and their
    defaults (k of a k-NN graph, seed of a generator, ...). ``expected`` is
    checked only when the parameters are the defaults.

    Parameters
    ----------
    name, description : str
        The name :func:`~graphsel_lib.load_dataset` takes, and one line on what the graph is.
    files : tuple of str
        Keys of :data:`RAW_FILES` (paths relative to the data folder) the parser reads.
    parser : callable
        ``parser(files, **params)`` with ``files`` mapping each key to its verified local path;
        returns the graph's arrays and an ``info`` dict.
    licence, citation, original_url : str
        Where the data come from and under which terms.
    expected : Expected or None
        The size the loader asserts (with the default ``params`` only).
    params : dict, default {}
        The loader's keyword arguments and their defaults.
    notes : str, default ""
        What a user should know about the data (preprocessing, caveats).
    redistributable : bool, default True
        Whether the licence lets the raw files be redistributed (recorded in the graph's provenance).
    """

    name: str
    description: str
    files: tuple  # of relpaths into RAW_FILES
    parser: Callable
    licence: str
    citation: str
    original_url: str
    expected: Expected | None
    params: dict = field(default_factory=dict)
    notes: str = ""
    redistributable: bool = True


# =========================================================================== raw files
# Commits: the snapshot HEADs recorded in ../shared/data/MANIFEST.md. Where the
# full 40-hex id could be confirmed (same prefix) it is used with
# raw.githubusercontent.com; otherwise the manifest's 12-hex abbreviation is
# used through github.com/<repo>/raw/<commit>/<path>, which resolves
# abbreviated ids and redirects to the raw file. Either way the SHA-256 is the
# authority: a file with other bytes is rejected.
_COMMITS = {
    "kimiyoung/planetoid": "af6abf468a772cc055bec88c52e4d6f51b7c37e3",
    "shchur/gnn-benchmark": "1e72912a0810cdf27ae54fd589a3b43358a2b161",
    "baojian/FastONL": "035cbf7ff3de421aef833cab626d59b671cf42c3",
    "Jhy1993/HAN": "71bac29a07fb",
    "PanShi2016/Community_Detection": "d348af339f0e",
    "tdhock/2023-08-deep-learning": "27722edd4db5",
    "sgmq0/CIS-2450-Final-Project": "6c68f6b0bc71",
    "jbrownlee/Datasets": "d20fcb6402ae",
    "Clarique/DSCI-100-Project": "2b0a26d3c2da",
    "Potya/LazyFCA": "8d11e3765b29",
    "teriolx/machine-learning-datatsets": "ed432c8a7e6c",
}


def _github_url(repo, commit, path):
    if len(commit) == 40:
        return f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    return f"https://github.com/{repo}/raw/{commit}/{path}"


def _raw(subdir, filename, size, sha256, repo, repo_path):
    commit = _COMMITS[repo]
    return RawFile(
        subdir, filename, sha256, size, _github_url(repo, commit, repo_path), repo, commit, repo_path
    )


_PLANETOID = {
    # (name, part): (size, sha256)
    ("citeseer", "allx"): (595021, "2ac30345d95c9ec933a817ee0bdd6a5f077f8c184a20e696910192d534414668"),
    ("citeseer", "ally"): (55623, "f704b2d986dde6c2669934de1f3ae5696a6cf9455c0f6b2646a2d135ea0a1c95"),
    ("citeseer", "graph"): (61987, "d79a4ef9d3e7169aee8946145f6b7306e35bc79bffad26346cfb94e10e9912a7"),
    ("citeseer", "test.index"): (5000, "2af990671580b6b2df5d158d1038f8292e30c9cd821b5453f399659b25b723d4"),
    ("citeseer", "tx"): (260321, "539a8906a2da97628d212f2fdd668c109a8b3f0d36574b59e5d3fd5b5303da21"),
    ("citeseer", "ty"): (24135, "55e5bd1ba1e733a04598753ad1a8d57957f4b8f89e74519f41f4f4938767e4ce"),
    ("pubmed", "ally"): (224739, "0c37bbe3b5014ec365e9d393cf4791925e5ed94fb194305d74f064a8d7b50f0e"),
    ("pubmed", "graph"): (471808, "5b89f0036ca22909471f1e6558eb42fa06e0c730a577bde5b058b40638f81dc9"),
    ("pubmed", "test.index"): (6000, "b101d421688bbaecbd82e8a18f1e282378d6830f3a37666f28ebc47f844341b5"),
    ("pubmed", "ty"): (12135, "ee2e0d4819d9fbcc403689c3bf2e49face401b605932f093bc58ab6461130fdd"),
}

_WEBKB = {
    "cornell.cites": (30824, "9b553733f8621bde1e149b2570da31701d6c41ac1263a4d1e94bc9fd08054a13"),
    "cornell.content": (676692, "28d1a6593981e47859965341735b2b9e1b42ea96502dad3c0857b3bf8967e960"),
    "texas.cites": (24174, "c7b6cc42170870e4470dafd9ad9330422d42ae2a1f3a746aba93039dc8b41710"),
    "texas.content": (645878, "b56017ff6e0097218f238c6dafa5265e0bbe70c0cae39b3a5a4d862611d36b98"),
    "washington.cites": (40624, "7aa0e59b0dcba44f63fe2248671bb4c551e7322ecb512284732a08a968759223"),
    "washington.content": (796102, "89a63171f394529849da1319b3d55426582c04dc9cdb196c29c5335931269e60"),
    "wisconsin.cites": (41900, "f5b60f45a277d93f4e883d8845b4e81fda632818ba0fe8ab8d118d9d2a9e9c73"),
    "wisconsin.content": (915830, "bca4574c8f77db5bda3ad9fc734f67ea87b06c43e239b9bb77725ea58d0315d6"),
}


_UCI = {
    # filename: (size, sha256, repo) -- path in the repo = filename
    "cmc.data": (
        31114,
        "e944dd136545920a8e64009f25fb626e7b7c747e17bcee3d39176982a251ecec",
        "teriolx/machine-learning-datatsets",
    ),
    "glass.data": (
        11903,
        "dd67373f4baf2807345df02cbfef2093d342e61ad0d82a4fb79af43ef8ce449d",
        "jbrownlee/Datasets",
    ),
    "housing.data": (
        49081,
        "e3e36f7b9e5435f9eb8320e106aebad00031fefa3064527da0c71dec59e49b76",
        "jbrownlee/Datasets",
    ),
    "ionosphere.csv": (
        76466,
        "fd6dd7864b55d56dac0a1e6e24af9ccc35bf2555ac79af8ab9f3d1daa065ab83",
        "jbrownlee/Datasets",
    ),
    "pima-indians-diabetes.data.csv": (
        23278,
        "6bfe5d0f379d17a0e0819b996407e3c09bf80febd4287f2ed212190dfff154af",
        "jbrownlee/Datasets",
    ),
    "processed.cleveland.data": (
        18461,
        "a74b7efa387bc9d108d7d0115d831fe9b414b29ae7124f331b622b4efa0427c8",
        "Clarique/DSCI-100-Project",
    ),
    "sonar.csv": (
        87775,
        "3079c09b5d2789a0f96aff82c28e5164fafe2495c5f8da96c6c256c1bd25763f",
        "jbrownlee/Datasets",
    ),
    "tic-tac-toe.data": (
        25900,
        "a099e9018db833d03ada8a6c62a5cc37ef1ac8bf749181d546841aa414757caa",
        "Potya/LazyFCA",
    ),
}


def _build_raw_files():
    files = [
        _raw(
            "cora",
            "cora.npz",
            540580,
            "068e22d90c3849b4057dfb05851741428992af058efcd4e7ebb4186f3d581de2",
            "shchur/gnn-benchmark",
            "data/npz/cora.npz",
        ),
        _raw(
            "fastonl",
            "political-blog.npz",
            417094,
            "84009995b87ab92b3efaafb3dc2bac4094e52eed87e6e79190902522406f3ac5",
            "baojian/FastONL",
            "datasets/political-blog.npz",
        ),
        _raw(
            "dblp_four_area",
            "author_label.txt",
            94905,
            "0930fc9116caccc64e6a07a54164dfc9d2e21c9ed6e620f464a2b687b6e88281",
            "Jhy1993/HAN",
            "data/DBLP_four_area/author_label.txt",
        ),
        _raw(
            "dblp_four_area",
            "paper_author.txt",
            547418,
            "8d5e93dd298b4ab5ac9e800405599a0ccad250f16028efe78b3e7e1ac16fde74",
            "Jhy1993/HAN",
            "data/DBLP_four_area/paper_author.txt",
        ),
        _raw(
            "usps",
            "zip.train.gz",
            1829071,
            "66ebf231ab51f2cf6ac1a892d0f98ccffee1079d7a5db638c1f11f366046ca16",
            "tdhock/2023-08-deep-learning",
            "data/zip.train.gz",
        ),
        _raw(
            "usps",
            "zip.test.gz",
            439208,
            "8dacc3c6e136af6c3488de9e5113a7daf140c8c2f1f0b61c54ee02f03f1a962f",
            "tdhock/2023-08-deep-learning",
            "data/zip.test.gz",
        ),
    ]
    files.append(
        _raw(
            "epinions",
            "soc-Epinions1.txt.zip",
            1631533,
            "e0582df5f923c47789f8b99dbe89e78de82034a7141a355c125544e514f269e4",
            "sgmq0/CIS-2450-Final-Project",
            "data/soc-Epinions1.txt",
        )
    )
    for fn, (size, digest, repo) in _UCI.items():
        files.append(_raw("uci", fn, size, digest, repo, fn))
    for (name, part), (size, digest) in _PLANETOID.items():
        fn = f"ind.{name}.{part}"
        files.append(_raw("planetoid", fn, size, digest, "kimiyoung/planetoid", f"data/{fn}"))
    for fn, (size, digest) in _WEBKB.items():
        files.append(
            _raw(
                "webkb",
                fn,
                size,
                digest,
                "PanShi2016/Community_Detection",
                f"Datasets/Real_Data/Original_Data/WebKB/{fn}",
            )
        )
    return {f.relpath: f for f in files}


#: Every raw file the loaders read, keyed by ``"<subdir>/<filename>"``.
RAW_FILES: dict[str, RawFile] = _build_raw_files()

# =========================================================================== the registry
_LINQS_LICENCE = (
    "LINQS gives no formal licence: research use, with citation (Sen et al. 2008). "
    "The GitHub copy's repository licence (MIT) covers its code, not the data."
)
_SEN2008 = "Sen, Namata, Bilgic, Getoor, Gallagher, Eliassi-Rad. Collective classification in network data. AI Magazine 29(3), 2008."
_PLANETOID_CITE = (
    "Yang, Cohen, Salakhutdinov. Revisiting semi-supervised learning with graph embeddings. ICML 2016 "
    "(Planetoid split files)."
)
_DBLP_LICENCE = (
    "ACADEMIC USE ONLY. The DBLP four-area readme: 'Permission to use the data is granted for academic and "
    "education uses only ... The user may not redistribute any part of the package without separate "
    "permission.' graphsel downloads it for the user from its public location and never redistributes it."
)


def _webkb_spec(univ, n_nodes, n_edges):
    return DatasetSpec(
        name=f"webkb-{univ}",
        description=(
            f"WebKB {univ} (LINQS subset, 5 classes): pages linked by hyperlinks, symmetrised; "
            "features = 1703 binary word indicators. Smaller than gaertner2005's CMU co-link graph."
        ),
        files=(f"webkb/{univ}.content", f"webkb/{univ}.cites"),
        parser=lambda files, _u=univ, **kw: _parse_webkb(files, _u, **kw),
        licence="None stated; research use with citation (LINQS).",
        citation=(
            "Craven et al. Learning to extract symbolic knowledge from the World Wide Web. AAAI 1998; "
            + _SEN2008
        ),
        original_url="https://linqs-data.soe.ucsc.edu/public/lbc/WebKB.tgz (LINQS); http://www.cs.cmu.edu/~webkb/",
        expected=Expected(n_nodes, n_edges, 5),
        params={"graph": "links"},
        notes=(
            "The LINQS subset drops the 'other' class; gaertner2005 used 8275 pages and 7 classes. "
            "graph='colinks' gives gaertner2005's co-link graph instead (S = A A^T + A^T A, weighted "
            "by the number of shared out- and in-links; LCC)."
        ),
    )


_UCI_SETS = {
    # name: (files, citation of the donors, expected nodes, classes)
    "heart": (("processed.cleveland.data",), "Detrano et al. (Cleveland Clinic), 1988", 297, 2),
    "housing": (
        ("housing.data",),
        "Harrison, Rubinfeld. Hedonic prices and the demand for clean air, 1978",
        506,
        2,
    ),
    "ionosphere": (("ionosphere.csv",), "Sigillito et al. (Johns Hopkins APL), 1989", 351, 2),
    "pima": (("pima-indians-diabetes.data.csv",), "Smith et al. (NIDDK), 1988", 768, 2),
    "sonar": (("sonar.csv",), "Gorman, Sejnowski, 1988", 208, 2),
    "glass": (("glass.data",), "German (Home Office Forensic Science Service), 1987", 214, 6),
    "tictactoe": (("tic-tac-toe.data",), "Aha, 1991", 958, 2),
    "cmc": (("cmc.data",), "Lim (1987 Indonesia Contraceptive Prevalence Survey), 1997", 1473, 3),
    "wine": ((), "Forina et al., PARVUS, 1988 (scikit-learn's copy)", 178, 3),
    "breast-cancer": ((), "Wolberg, Street, Mangasarian. WDBC, 1995 (scikit-learn's copy)", 569, 2),
}


def _uci_spec(name, files, donors, n_nodes, n_classes):
    return DatasetSpec(
        name=f"uci-{name}",
        description=(
            f"UCI {name} (gaertner2005 Table 1): rows -> symmetrised unweighted k-NN graph on the "
            "z-scored features, LCC; features = the raw attributes."
        ),
        files=tuple(f"uci/{fn}" for fn in files),
        parser=lambda fs, _n=name, **kw: _parse_uci(fs, _n, **kw),
        licence="UCI Machine Learning Repository (CC BY 4.0); cite Dua & Graff and the donors.",
        citation=f"Dua, Graff. UCI Machine Learning Repository; {donors}.",
        original_url="https://archive.ics.uci.edu/",
        expected=Expected(n_nodes, None, n_classes),
        params={"k": 10},
        notes=(
            "The graph is our choice (gaertner2005 does not say how it builds graphs for these sets); the "
            "features are returned so that an RBF kernel can be used instead."
        ),
    )


def _build_registry():
    specs = [
        DatasetSpec(
            name="coauthor",
            description=(
                "DBLP four-area co-author graph (gu2013/yang2016 'Coauthor'): nodes = the 4057 "
                "labelled authors, S_ij = number of papers shared, LCC."
            ),
            files=("dblp_four_area/author_label.txt", "dblp_four_area/paper_author.txt"),
            parser=_parse_coauthor,
            licence=_DBLP_LICENCE,
            citation=(
                "Ji, Sun, Danilevsky, Han, Gao. Graph regularized transductive classification on "
                "heterogeneous information networks. ECML-PKDD 2010; Gao, Liang, Fan, Sun, Han. "
                "Graph-based consensus maximization among multiple supervised and unsupervised models. "
                "NIPS 2009."
            ),
            original_url="http://ews.uiuc.edu/~jinggao3/doc/BGCM.zip (original labelled data, per the readme)",
            expected=Expected(1711, 2898, 4),
            notes="gu2013 Table 1 'links' 7507 = nnz (5796) + diagonal (1711 authors' paper counts).",
            redistributable=False,
        ),
        DatasetSpec(
            name="cora",
            description=(
                "Cora (LINQS): 2708 papers, 5429 citation links, symmetrised, LCC; features = 1433 "
                "binary words (gnn-benchmark's cora.npz = LINQS cora.content + cora.cites)."
            ),
            files=("cora/cora.npz",),
            parser=_parse_cora,
            licence=_LINQS_LICENCE + " gnn-benchmark asks to cite Shchur et al. 2018.",
            citation=(
                "McCallum, Nigam, Rennie, Seymore. Automating the construction of internet portals with "
                "machine learning. Information Retrieval 3, 2000; " + _SEN2008 + " Shchur et al. Pitfalls "
                "of graph neural network evaluation. 2018 (cora.npz)."
            ),
            original_url="https://linqs-data.soe.ucsc.edu/public/lbc/cora.tgz",
            expected=Expected(2485, 5069, 7),
        ),
        DatasetSpec(
            name="pubmed",
            description=(
                "PubMed-Diabetes citation graph with Planetoid's labels (ind.pubmed.graph): 19717 "
                "papers, 44324 undirected links after dropping 3 self-loops; connected. No features."
            ),
            files=tuple(f"planetoid/ind.pubmed.{p}" for p in ("ally", "ty", "graph", "test.index")),
            parser=_parse_pubmed,
            licence=_LINQS_LICENCE,
            citation=(
                "Namata, London, Getoor, Huang. Query-driven active surveying for collective "
                "classification. MLG 2012; " + _PLANETOID_CITE
            ),
            original_url="https://linqs-data.soe.ucsc.edu/public/Pubmed-Diabetes.tgz; https://github.com/kimiyoung/planetoid",
            expected=Expected(19717, 44324, 3),
            notes=(
                "gu2013 Table 1 'links' 88651 = nnz 88648 + 3 self-loops. Planetoid's graph has the same "
                "degree sequence as the LINQS edge file; the LINQS labels (NODE file) are unavailable, "
                "hence Planetoid."
            ),
        ),
        DatasetSpec(
            name="citeseer",
            description=(
                "CiteSeer with Planetoid's labels and features (3327 nodes; the 15 nodes without a "
                "label are dropped, then 124 self-loops, then the LCC); features = 3703 binary words."
            ),
            files=tuple(
                f"planetoid/ind.citeseer.{p}" for p in ("ally", "ty", "graph", "test.index", "allx", "tx")
            ),
            parser=_parse_citeseer,
            licence=_LINQS_LICENCE,
            citation=(
                "Giles, Bollacker, Lawrence. CiteSeer: an automatic citation indexing system. DL 1998; "
                + _SEN2008
                + " "
                + _PLANETOID_CITE
            ),
            original_url="https://linqs-data.soe.ucsc.edu/public/lbc/citeseer.tgz; https://github.com/kimiyoung/planetoid",
            expected=Expected(2110, 3668, 6),
            notes=(
                "The 15 unlabelled Planetoid nodes are not isolated (degree 1-2) and 10 of them lie in the "
                "LCC of the full graph, which has 2120 nodes / 3679 edges (the Planetoid files). A labelled "
                "graph cannot keep them: dropping them first gives 2110 / 3668, the same graph (size, "
                "degree sequence, class sizes) as FastONL's citeseer.npz."
            ),
        ),
        DatasetSpec(
            name="polblogs",
            description=(
                "Political blogs (Adamic & Glance 2005), the 1222-node LCC as stored by FastONL; "
                "unweighted, 2 classes (0 = liberal, 1 = conservative)."
            ),
            files=("fastonl/political-blog.npz",),
            parser=_parse_polblogs,
            licence="None stated (FastONL redistributes Adamic & Glance's data); research use with citation.",
            citation=(
                "Adamic, Glance. The political blogosphere and the 2004 U.S. election: divided they blog. "
                "LinkKDD 2005; Zhou, Sun, Babanezhad Harikandeh. Fast online node labeling for very large "
                "graphs. ICML 2023 (preprocessed file)."
            ),
            original_url="http://www-personal.umich.edu/~mejn/netdata/polblogs.zip",
            expected=Expected(1222, 16714, 2),
            notes="3 diagonal entries in the file are dropped; class sizes 586/636.",
        ),
        _webkb_spec("cornell", 183, 277),
        _webkb_spec("texas", 183, 279),
        _webkb_spec("washington", 215, 365),
        _webkb_spec("wisconsin", 251, 450),
        DatasetSpec(
            name="usps",
            description=(
                "USPS handwritten digits (ESL distribution, 7291 train + 2007 test = 9298 x 256, values "
                "in [-1, 1]) -> symmetrised unweighted k-NN graph (Euclidean, S = max(A, A^T), ties to the "
                "smaller index), LCC; features = the pixels."
            ),
            files=("usps/zip.train.gz", "usps/zip.test.gz"),
            parser=_parse_usps,
            licence="None stated; research use with citation.",
            citation=(
                "Hull. A database for handwritten text recognition research. IEEE PAMI 16(5), 1994; "
                "Hastie, Tibshirani, Friedman. The Elements of Statistical Learning (data distribution)."
            ),
            original_url="https://hastie.su.domains/ElemStatLearn/datasets/zip.train.gz (and zip.test.gz)",
            expected=Expected(9298, 68817, 10),
            params={"k": 10},
            notes=(
                "k-NN graph choice: unweighted and symmetrised by 'or' (an edge if either point is among the "
                "other's k nearest), as in herbster2006's digit graphs; k = 10 by default."
            ),
        ),
        DatasetSpec(
            name="karate",
            description="Zachary's karate club (networkx), unweighted; labels = the club each member joined.",
            files=(),
            parser=_parse_karate,
            licence="Public data from Zachary (1977), distributed with networkx (BSD-3-Clause).",
            citation=(
                "Zachary. An information flow model for conflict and fission in small groups. Journal of "
                "Anthropological Research 33(4), 1977."
            ),
            original_url="networkx.karate_club_graph()",
            expected=Expected(34, 78, 2),
        ),
        DatasetSpec(
            name="digits",
            description=(
                "scikit-learn's 8x8 digits (1797 x 64, values 0..16) -> symmetrised unweighted k-NN "
                "graph, LCC; features = the pixels."
            ),
            files=(),
            parser=_parse_digits,
            licence="UCI Optical Recognition of Handwritten Digits (CC BY 4.0), shipped with scikit-learn (BSD-3-Clause).",
            citation="Alpaydin, Kaynak. Optical Recognition of Handwritten Digits. UCI Machine Learning Repository, 1998.",
            original_url="sklearn.datasets.load_digits()",
            expected=Expected(1797, 12339, 10),
            params={"k": 10},
        ),
        DatasetSpec(
            name="digits-3-8",
            description=(
                "scikit-learn digits, classes 3 and 8 only (183 + 174 images) -> symmetrised unweighted "
                "k-NN graph (k = 3, as the Herbster-Pontil slides' 3 vs 8 picture), LCC."
            ),
            files=(),
            parser=_parse_digits_3_8,
            licence="UCI Optical Recognition of Handwritten Digits (CC BY 4.0), shipped with scikit-learn (BSD-3-Clause).",
            citation=(
                "Alpaydin, Kaynak. Optical Recognition of Handwritten Digits. UCI Machine Learning Repository, "
                "1998; Herbster, Pontil. Prediction on a graph with a perceptron (slides)."
            ),
            original_url="sklearn.datasets.load_digits()",
            expected=Expected(357, 781, 2),
            params={"k": 3},
        ),
        DatasetSpec(
            name="planted-partition",
            description=(
                "Planted-partition random graph (networkx.planted_partition_graph): n_blocks blocks of "
                "block_size nodes, edge probability p_in inside a block and p_out across; labels = "
                "blocks; LCC."
            ),
            files=(),
            parser=_parse_planted_partition,
            licence="Generated (networkx, BSD-3-Clause).",
            citation=(
                "Condon, Karp. Algorithms for graph partitioning on the planted partition model. Random "
                "Structures and Algorithms 18(2), 2001."
            ),
            original_url="networkx.planted_partition_graph()",
            expected=Expected(200, None, 4),  # the edge count depends on networkx's sampler
            params={"n_blocks": 4, "block_size": 50, "p_in": 0.3, "p_out": 0.02, "seed": 0},
        ),
        DatasetSpec(
            name="epinions",
            description=(
                "SNAP soc-Epinions1 who-trusts-whom network, symmetrised, LCC. No node labels "
                "(labels are all 0): for scaling experiments only."
            ),
            files=("epinions/soc-Epinions1.txt.zip",),
            parser=_parse_epinions,
            licence="None stated; SNAP data are freely available for research, with citation.",
            citation=(
                "Richardson, Agrawal, Domingos. Trust management for the Semantic Web. ISWC 2003; "
                "Leskovec, Krevl. SNAP Datasets, 2014."
            ),
            original_url="https://snap.stanford.edu/data/soc-Epinions1.txt.gz",
            expected=Expected(75877, 405739, 1),
            notes=(
                "75,888 ids (75,879 used), 508,837 directed edges, 405,740 undirected; the second component "
                "is a single edge, so the LCC has 75,877 nodes and 405,739 edges (the 405,740 often quoted counts "
                "the whole graph)."
            ),
        ),
        *(_uci_spec(name, *v) for name, v in _UCI_SETS.items()),
    ]
    return {s.name: s for s in specs}


#: Every dataset ``load_dataset`` knows, keyed by name.
REGISTRY: dict[str, DatasetSpec] = _build_registry()


def list_datasets() -> list[str]:
    """Sorted names accepted by :func:`load_dataset`.

    Returns
    -------
    list of str

    Examples
    --------
    >>> "karate" in list_datasets() and list_datasets() == sorted(list_datasets())
    True
    """
    return sorted(REGISTRY)


def dataset_info(name: str) -> DatasetSpec:
    """The registry entry of ``name``: raw files, parser, licence, citation, parameters, expected size.

    Parameters
    ----------
    name : str
        A name of :func:`list_datasets`.

    Returns
    -------
    DatasetSpec

    Raises
    ------
    ValueError
        Unknown name (the message suggests the closest valid name and lists them all).

    Examples
    --------
    >>> dataset_info("karate").expected
    Expected(n_nodes=34, n_edges=78, n_classes=2)
    """
    if not isinstance(name, str) or name not in REGISTRY:
        close = difflib.get_close_matches(str(name), list(REGISTRY), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown dataset {name!r}.{hint} Valid names: {', '.join(list_datasets())}")
    return REGISTRY[name]
