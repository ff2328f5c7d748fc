"""Notebook 50 on a graph of the user's own: CSV in, predictions in the user's names and labels out.

The graph is generated here with the blemishes of real files (string node names, string labels,
edges in both directions, a self-loop, a small second component) and the notebook is run the way
its introduction tells a user to, with papermill on the command line.
"""

import csv
import os
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from graphsel_lib.paths import project_root

ROOT = project_root()
NOTEBOOK = ROOT / "notebooks" / "50_your_own_graph.ipynb"
EXAMPLE = ROOT / "notebooks" / "data"


def _make_graph(folder, seed=7):
    """Two planted classes 'red'/'blue' on nodes 'n0'..'n59', plus a separate triangle 'x0'..'x2'.

    Returns the edge and label paths, the expected label of every node of the main part and the
    names of the triangle (which the notebook must drop as outside the largest component).
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
    triangle = ["x0", "x1", "x2"]
    rows += both + [(names[0], names[0])] + [("x0", "x1"), ("x1", "x2"), ("x2", "x0")]
    rows = [rows[k] for k in rng.permutation(len(rows))]
    edges, labels = folder / "my_edges.csv", folder / "my_labels.csv"
    with open(edges, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["source", "target"])
        w.writerows(rows)
    with open(labels, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["node", "label"])
        w.writerows(zip(names, y, strict=True))
        w.writerows((v, "blue") for v in triangle)
    return edges, labels, dict(zip(names, y, strict=True)), triangle, len(both)


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
    edges, labels, truth, triangle, n_both = _make_graph(tmp_path)
    out_dir, executed = tmp_path / "results", tmp_path / "out.ipynb"
    env = {
        **os.environ,
        "MPLBACKEND": "agg",
        "GRAPHSEL_CACHE": str(tmp_path / "cache"),
        "GRAPHSEL_FIGURES": str(tmp_path / "figures"),  # nothing may land there: out_dir is given
    }
    cmd = [sys.executable, "-m", "papermill", str(NOTEBOOK), str(executed), "--no-progress-bar"]
    cmd += ["-p", "edges_path", str(edges), "-p", "labels_path", str(labels), "-p", "out_dir", str(out_dir)]
    cmd += ["-p", "profile", "smoke"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]

    # predictions.csv: the user's node names and label strings, every kept node once
    with open(out_dir / "predictions.csv", newline="") as fh:
        reader = csv.reader(fh)
        assert next(reader) == ["node", "prediction", "queried"]
        rows = list(reader)
    nodes = [r[0] for r in rows]
    assert sorted(nodes) == sorted(truth), "every node of the main part, and only those"
    assert not set(triangle) & set(nodes)
    assert {r[1] for r in rows} <= {"red", "blue"}
    assert {r[2] for r in rows} <= {"True", "False"} and "True" in {r[2] for r in rows}
    # aligned with the user's names: on the nodes whose label was never asked for, the predictions
    # agree with the true labels far above chance (a shuffled alignment would give about one half)
    unasked = [(truth[node], pred) for node, pred, q in rows if q == "False"]
    assert len(unasked) > 10
    assert np.mean([t == p for t, p in unasked]) > 0.8

    # what was dropped is said, with counts and names
    text = _outputs(nbformat.read(executed, as_version=4))
    assert "dropped 1 self-loop" in text
    assert f"{n_both} edge(s) are listed in both directions" in text
    assert "kept the largest of 2 connected components: dropped 3 of 63 nodes" in text
    assert "3 nodes outside the largest connected component" in text
    assert "saved after" in text and "the same predictions" in text  # the ask/tell session ran

    # the figure and the table went to out_dir, nothing to the figures folder
    assert {p.name for p in out_dir.iterdir()} >= {
        "predictions.csv",
        "results.csv",
        "results.md",
        "error_vs_labels.png",
        "error_vs_labels.pdf",
    }
    assert not (tmp_path / "figures").exists() or not any((tmp_path / "figures").iterdir())


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
