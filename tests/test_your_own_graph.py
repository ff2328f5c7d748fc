"""Notebook 50 on a graph of the user's own: CSV in, predictions in the user's names and labels out.

The graph is generated here with the blemishes of real files (string node names, string labels,
edges in both directions, a self-loop, a small second component) and the notebook is run the way
its introduction tells a user to, with papermill on the command line.
"""

import csv
import os
import re
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from graphsel_lib.paths import project_root

ROOT = project_root()
NOTEBOOK = ROOT / "notebooks" / "50_your_own_graph.ipynb"
EXAMPLE = ROOT / "notebooks" / "data"


def _make_graph(folder, seed=7, share=0.15):
    """Two planted classes 'red'/'blue' on nodes 'n0'..'n59' (15 % of them in the label file), a separate
    triangle 'x0'..'x2' without any label and a separate pair 'p0', 'p1' with one label.

    Returns the edge and label paths, the true label of every node of the main part, the names with a
    label row, and the number of edges also listed the other way round.
    """
    rng = np.random.default_rng(seed)
    n = 60
    y = np.repeat(["red", "blue"], n // 2)
    names = [f"n{k}" for k in rng.permutation(n)]
    pairs = {
        (i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < (0.25 if y[i] == y[j] else 0.01)
    }
    # a ring through the nodes in class order keeps the main part connected (two edges cross classes)
    pairs |= {tuple(sorted((i, (i + 1) % n))) for i in range(n)}
    rows = [(names[i], names[j]) for i, j in sorted(pairs)]
    both = [(b, a) for a, b in rows[::4]]  # every fourth edge also listed the other way round
    rows += both + [(names[0], names[0])] + [("x0", "x1"), ("x1", "x2"), ("x2", "x0"), ("p0", "p1")]
    rows = [rows[k] for k in rng.permutation(len(rows))]
    given = sorted(rng.choice(n, size=round(share * n), replace=False).tolist())
    given = sorted(set(given) | {0, n - 1})  # a label of each class
    edges, labels = folder / "my_edges.csv", folder / "my_labels.csv"
    with open(edges, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["source", "target"])
        w.writerows(rows)
    with open(labels, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["node", "label"])
        w.writerows((names[i], y[i]) for i in given)
        w.writerow(("p0", "blue"))
    return edges, labels, dict(zip(names, y, strict=True)), {names[i] for i in given}, len(both)


def _outputs(nb):
    """All text the executed notebook shows (streams and rendered Markdown)."""
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                out.append(o["text"])
            elif "data" in o:
                out.append(o["data"].get("text/markdown", ""))
    return "\n".join(out)


@pytest.mark.slow
def test_notebook_50_on_a_users_csv(tmp_path):
    """15 % of the nodes in labels.csv: every other node predicted, in the user's names and labels."""
    edges, labels, truth, given, n_both = _make_graph(tmp_path)
    out_dir, executed = tmp_path / "results", tmp_path / "out.ipynb"
    env = {
        **os.environ,
        "MPLBACKEND": "agg",
        "GRAPHSEL_CACHE": str(tmp_path / "cache"),
        "GRAPHSEL_FIGURES": str(tmp_path / "figures"),  # nothing may land there: out_dir is given
        "GRAPHSEL_HEADLESS": "1",  # the labelling panel answers from the labels file
    }
    cmd = [sys.executable, "-m", "papermill", str(NOTEBOOK), str(executed), "--no-progress-bar"]
    cmd += ["-p", "edges_path", str(edges), "-p", "labels_path", str(labels), "-p", "out_dir", str(out_dir)]
    cmd += ["-p", "profile", "smoke"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]

    # predictions.csv: every node of the file once, in the user's names and label strings
    with open(out_dir / "predictions.csv", newline="") as fh:
        reader = csv.DictReader(fh)
        assert reader.fieldnames == ["node", "prediction", "confidence", "given", "part", "note"]
        rows = {r["node"]: r for r in reader}
    assert sorted(rows) == sorted([*truth, "x0", "x1", "x2", "p0", "p1"])
    for node, r in rows.items():
        assert (r["given"] != "") == (node in given or node == "p0"), node
        assert r["given"] in ("", truth.get(node, "blue"))
    hidden = [node for node in truth if node not in given]
    assert len(hidden) >= 45 and all(rows[v]["prediction"] in {"red", "blue"} for v in hidden)
    # aligned with the user's names: far above chance (a shuffled alignment would give about one half)
    assert np.mean([rows[v]["prediction"] == truth[v] for v in hidden]) > 0.8
    assert all(0.5 <= float(rows[v]["confidence"]) <= 1 for v in hidden)
    assert all(
        rows[v]["prediction"] == "" and "no labelled node" in rows[v]["note"] for v in ("x0", "x1", "x2")
    )
    assert rows["p1"]["prediction"] == "blue" and "only class 'blue'" in rows["p1"]["note"]

    # to_label.csv: every unlabelled node, the main part's ranked by the sampler's query probability
    with open(out_dir / "to_label.csv", newline="") as fh:
        ranked = list(csv.DictReader(fh))
    assert sorted(r["node"] for r in ranked) == sorted([*hidden, "x0", "x1", "x2", "p1"])
    prob = [float(r["query_probability"]) for r in ranked if r["part"] == "1"]
    assert len(prob) == len(hidden) and prob == sorted(prob, reverse=True) and 0 < min(prob) <= max(prob) <= 1

    # what was read, kept and dropped is said, with counts and names
    text = _outputs(nbformat.read(executed, as_version=4))
    assert "dropped 1 self-loop" in text
    assert f"{n_both} edge(s) are listed in both directions" in text
    assert f"{len(hidden) + 4} of 65 nodes are unlabelled" in text and "kept with their edges" in text
    assert "chosen:" in text and "cross-validated error" in text
    # headless, the panel showed its first question, then answered from the labels file to the last round
    assert re.search(r"0 answers, \d+ skipped, round (\d+) of \1 played", text), text[-2000:]

    # the files went to out_dir, nothing to the figures folder
    assert {p.name for p in out_dir.iterdir()} >= {
        "predictions.csv",
        "to_label.csv",
        "results.csv",
        "results.md",
        "error_vs_labels.png",
        "error_vs_labels.pdf",
    }
    assert not (tmp_path / "figures").exists() or not any((tmp_path / "figures").iterdir())


@pytest.mark.slow
def test_notebook_50_when_the_largest_part_has_one_labelled_class(tmp_path):
    """A clear message, files written, no traceback (it failed deep inside tune -> evaluate -> run)."""
    edges, labels, truth, given, _ = _make_graph(tmp_path)
    with open(labels, "w", newline="") as fh:
        fh.write("node,label\n" + "".join(f"{v},red\n" for v in sorted(given) if truth[v] == "red"))
    out_dir, executed = tmp_path / "results", tmp_path / "out.ipynb"
    cmd = [sys.executable, "-m", "papermill", str(NOTEBOOK), str(executed), "--no-progress-bar"]
    cmd += ["-p", "edges_path", str(edges), "-p", "labels_path", str(labels), "-p", "out_dir", str(out_dir)]
    cmd += ["-p", "profile", "smoke"]
    env = {**os.environ, "MPLBACKEND": "agg", "GRAPHSEL_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = _outputs(nbformat.read(executed, as_version=4))
    assert "labels of one class only ('red')" in text and "no cross-validation" in text
    with open(out_dir / "predictions.csv", newline="") as fh:
        assert {r["prediction"] for r in csv.DictReader(fh) if r["part"] == "1"} == {"red"}


def _run_notebook_50(tmp_path, edges_rows, label_rows):
    """Write the two CSV files (a weight column when an edge has three entries), run notebook 50 on them
    (smoke, headless); return (predictions by node, text)."""
    edges, labels = tmp_path / "edges.csv", tmp_path / "labels.csv"
    edge_header = ["source", "target", "weight"][: len(edges_rows[0])]
    for path, header, rows in (
        (edges, edge_header, edges_rows),
        (labels, ["node", "label"], label_rows),
    ):
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(header)
            w.writerows(rows)
    out_dir, executed = tmp_path / "results", tmp_path / "out.ipynb"
    cmd = [sys.executable, "-m", "papermill", str(NOTEBOOK), str(executed), "--no-progress-bar"]
    cmd += ["-p", "edges_path", str(edges), "-p", "labels_path", str(labels), "-p", "out_dir", str(out_dir)]
    cmd += ["-p", "profile", "smoke"]
    env = {
        **os.environ,
        "MPLBACKEND": "agg",
        "GRAPHSEL_CACHE": str(tmp_path / "cache"),
        "GRAPHSEL_HEADLESS": "1",
    }
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out_dir / "predictions.csv", newline="") as fh:
        rows = {r["node"]: r for r in csv.DictReader(fh)}
    return rows, _outputs(nbformat.read(executed, as_version=4))


@pytest.mark.slow
def test_notebook_50_skewed_labelled_shares(tmp_path):
    """Labels drawn mostly from the minority class (8 of 10): predicted as the edges say (0.157 right before)."""
    import networkx as nx

    sizes = [60, 60, 30]
    G = nx.stochastic_block_model(sizes, [[0.15, 0.01, 0.01], [0.01, 0.15, 0.01], [0.01, 0.01, 0.15]], seed=0)
    classes = ["big", "large", "minority"]
    y = np.repeat(classes, sizes)
    rng = np.random.default_rng(0)
    per_class = {
        "big": 1,
        "large": 1,
        "minority": 8,
    }  # the labelled shares: 0.1, 0.1, 0.8 (true: 0.4, 0.4, 0.2)
    given = [int(v) for c in classes for v in rng.choice(np.flatnonzero(y == c), per_class[c], replace=False)]
    rows, text = _run_notebook_50(
        tmp_path, [(f"v{a}", f"v{b}") for a, b in G.edges], [(f"v{v}", y[v]) for v in given]
    )
    hidden = [v for v in range(y.size) if v not in given]
    assert np.mean([rows[f"v{v}"]["prediction"] == y[v] for v in hidden]) >= 0.9
    assert "chosen: harmonic + CMN (prior: uniform)" in text and "tied with" in text
    assert "optimistic" in text and "nested cross-validation" in text


@pytest.mark.slow
def test_notebook_50_one_unlabelled_node(tmp_path):
    """Karate with every label but node 33's: predictions.csv said `33,Mr. Hi,0.5152`; its edges say Officer.

    Node 33's row says `NaN` (unlabelled): the headless panel, answering from the labels file, raised
    "'NaN' is not a class" on it."""
    import networkx as nx

    G = nx.karate_club_graph()
    labels = [(v, G.nodes[v]["club"]) for v in G if v != 33] + [(33, "NaN")]
    rows, text = _run_notebook_50(tmp_path, list(G.edges(data="weight")), labels)  # networkx's weights
    assert rows["33"]["prediction"] == "Officer" and rows["33"]["given"] == ""
    assert "not eligible: harmonic + CMN (prior: uniform)" in text
    assert re.search(r"over 33 folds.*each fold hiding 1 of the labels", text)


def test_bundled_example_is_what_its_script_writes(tmp_path):
    """notebooks/data/example_*.csv are regenerated byte for byte by make_example.py (seeded)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, runpy; m = runpy.run_path(sys.argv[1]); m['write'](sys.argv[2])",
            str(EXAMPLE / "make_example.py"),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    for name in ("example_edges.csv", "example_labels.csv"):
        assert (tmp_path / name).read_bytes() == (EXAMPLE / name).read_bytes(), name
