"""Write the small example graph of notebook 50: ``example_edges.csv`` and ``example_labels.csv``.

    python notebooks/data/make_example.py    # rewrites both files beside this script

Seeded: every run writes the same bytes. The graph is synthetic (a planted
partition), made to look like a file a researcher brings, with the usual
blemishes that :meth:`graphsel_lib.Graph.read_csv` cleans up and reports:

* 240 nodes in three classes ``red``, ``green``, ``blue`` (100, 80 and 60
  nodes), named ``n0``..``n245`` in random order with the six nodes of the
  two small parts below; an edge joins two nodes of one class with
  probability 0.06 and of two classes with probability 0.006, with a weight
  between 0.5 and 2 (one decimal);
* about 15 % of the edges written in both directions (same weight), one
  self-loop, a separate path of three nodes without any label and a separate
  triangle with one node labelled ``green``;
* **partially labelled**, as a user's graph is: a label row for 20 % of the
  240 nodes (two of them with an empty label), none for the others, and one
  label row for a node that is in no edge.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

SEED = 2024
CLASSES = {"red": 100, "green": 80, "blue": 60}
P_IN, P_OUT = 0.06, 0.006
HERE = Path(__file__).resolve().parent


def make_example(seed=SEED):
    """Rows of the two files: ``(edge_rows, label_rows)``, each a list of string tuples."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(len(CLASSES)), list(CLASSES.values()))
    n = y.size
    names = np.array([f"n{k}" for k in rng.permutation(n + 6)])  # 6 more for the path and the triangle
    prob = np.where(y[:, None] == y[None, :], P_IN, P_OUT)
    i, j = np.nonzero(np.triu(rng.random((n, n)) < prob, k=1))
    w = np.round(rng.uniform(0.5, 2.0, size=i.size), 1)
    rows = [(names[a], names[b], f"{c:.1f}") for a, b, c in zip(i, j, w, strict=True)]
    rows += [(b, a, c) for a, b, c in rows if rng.random() < 0.15]  # the same edge, reversed
    loop = names[rng.integers(n)]
    rows.append((loop, loop, "1.0"))
    path, triangle = names[n : n + 3], names[n + 3 :]
    rows += [(path[0], path[1], "1.0"), (path[1], path[2], "1.0")]
    rows += [
        (triangle[0], triangle[1], "1.0"),
        (triangle[1], triangle[2], "1.0"),
        (triangle[2], triangle[0], "1.0"),
    ]
    rows = [rows[k] for k in rng.permutation(len(rows))]
    class_names = list(CLASSES)
    rows_for = np.sort(rng.choice(n, size=n // 5, replace=False))  # 20 % of the nodes have a label row
    labels = [(names[k], class_names[y[k]]) for k in rows_for] + [(triangle[0], "green")]
    labels = [labels[k] for k in rng.permutation(len(labels))]
    blank = {names[k] for k in rng.choice(rows_for, size=2, replace=False)}  # a row with an empty label
    labels = [(v, "" if v in blank else lab) for v, lab in labels]
    labels.append(("n999", "red"))
    return rows, labels


def write(folder=HERE, seed=SEED):
    """Write ``example_edges.csv`` and ``example_labels.csv`` into ``folder``; return their paths."""
    rows, labels = make_example(seed)
    out = []
    for name, header, body in (
        ("example_edges.csv", ("source", "target", "weight"), rows),
        ("example_labels.csv", ("node", "label"), labels),
    ):
        path = Path(folder) / name
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(body)
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write():
        print("wrote", p)
