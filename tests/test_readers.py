"""Graph.read_csv / read_graphml: your own graph from files, names and labels kept, everything dropped reported."""

import re
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import graphsel_lib as gs
from graphsel_lib.readers import read_edge_csv, read_label_csv


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def _read(edges, labels, **kwargs):
    """read_csv with every warning recorded; returns (graph, list of DataWarning messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = gs.Graph.read_csv(edges, labels, **kwargs)
    return g, [str(w.message) for w in caught if issubclass(w.category, gs.DataWarning)]


def _dense_by_name(g):
    """{(name_i, name_j): weight} of every edge, independent of the node numbering."""
    A = sp.triu(g.adjacency).tocoo()
    names = list(g.node_names)
    return {tuple(sorted((names[i], names[j]))): w for i, j, w in zip(A.row, A.col, A.data, strict=True)}


# --------------------------------------------------------------------------- names and labels
def test_string_names_and_labels_are_kept(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\nn3,n1\nn1,n2\nn2,n10\n")
    lab = _write(tmp_path / "l.csv", "node,label\nn1,red\nn2,blue\nn3,red\nn10,green\n")
    g, msgs = _read(e, lab)
    assert msgs == []
    assert list(g.node_names) == ["n1", "n10", "n2", "n3"]  # sorted names, not file order
    assert all(isinstance(v, str) for v in g.node_names)
    assert g.class_names == ["blue", "green", "red"]
    by_name = dict(zip(g.node_names, (g.class_names[c] for c in g.labels), strict=True))
    assert by_name == {"n1": "red", "n2": "blue", "n3": "red", "n10": "green"}
    assert _dense_by_name(g) == {("n1", "n3"): 1.0, ("n1", "n2"): 1.0, ("n10", "n2"): 1.0}
    assert g.node_names is g.node_ids
    assert g.name == "e"


def test_integer_names_sorted_by_value_and_matched_by_value(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\n10,2\n2,1\n1,10\n")
    lab = _write(tmp_path / "l.csv", "node,label\n1,a\n2,b\n10,a\n")
    g, _ = _read(e, lab)
    assert g.node_names.dtype == np.int64
    assert list(g.node_names) == [1, 2, 10]  # by value: 10 after 2
    assert [g.class_names[c] for c in g.labels] == ["a", "b", "a"]


def test_padded_integers_stay_strings(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\n007,8\n8,9\n")
    lab = _write(tmp_path / "l.csv", "node,label\n007,x\n8,y\n9,x\n")
    g, _ = _read(e, lab)
    assert list(g.node_names) == ["007", "8", "9"]


def test_minus_zero_is_not_zero(tmp_path):
    """'-0' and '0' are two names (were merged into one node without a word, while '007' and '7' stayed apart)."""
    e = _write(tmp_path / "e.csv", "source,target\n-0,0\n0,1\n1,-0\n")
    lab = _write(tmp_path / "l.csv", "node,label\n-0,a\n0,b\n1,a\n")
    g, _ = _read(e, lab)
    assert g.n_nodes == 3 and sorted(g.node_names) == ["-0", "0", "1"]
    by_name = dict(zip(g.node_names, (g.class_names[c] for c in g.labels), strict=True))
    assert by_name == {"-0": "a", "0": "b", "1": "a"}


def test_integer_labels_sort_numerically_and_minus_one_is_unlabelled(tmp_path):
    """-1 marks an unlabelled node in a CSV too (one definition everywhere); a warning says how to keep a class -1."""
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\nc,d\n")
    lab = _write(tmp_path / "l.csv", "node,label\na,10\nb,2\nc,2\nd,10\n")
    g, _ = _read(e, lab)
    assert g.class_names == ["2", "10"]
    lab2 = _write(tmp_path / "l2.csv", "node,label\na,-1\nb,1\nc,1\nd,-1\ne,x\n")
    g2, msgs = _read(e, lab2)
    assert g2.n_nodes == 4 and g2.class_names == ["1"] and g2.labels.tolist() == [-1, 0, 0, -1]
    text = " ".join(msgs)
    assert "2 nodes labelled -1 are unlabelled" in text and "rename it in the file" in text


@pytest.mark.parametrize("marker", ["NaN", "nan", "NA", "None", "null", "N/A", "<NA>"])
def test_missing_value_markers_mean_unlabelled(tmp_path, marker):
    """'NaN', 'None', ... in a label cell were turned into classes without a word; they mean 'no label'."""
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\nc,d\na,d\n")
    lab = _write(tmp_path / "l.csv", f"node,label\na,x\nb,{marker}\nc,y\nd,x\n")
    g, msgs = _read(e, lab)
    assert marker not in g.class_names and g.class_names == ["x", "y"]
    assert g.info["read"]["unlabelled_nodes"] == 1
    assert any("1 of them a missing-value marker such as NaN" in m for m in msgs)


def test_class_names_fix_the_order_of_the_classes(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\n")
    lab = _write(tmp_path / "l.csv", "node,label\na,red\nb,blue\nc,red\n")
    g, _ = _read(e, lab, class_names=["red", "blue", "green"])
    assert g.class_names == ["red", "blue", "green"] and g.labels.tolist() == [0, 1, 0]
    with pytest.raises(ValueError, match=r"label\(s\) \['blue'\] that are not in class_names"):
        gs.Graph.read_csv(e, lab, class_names=["red"])


# --------------------------------------------------------------------------- edges
def test_both_directions_give_the_same_graph_as_one(tmp_path):
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\nc,x\nd,y\n")
    one = _write(tmp_path / "one.csv", "source,target,weight\na,b,2\nb,c,0.5\nc,d,1\n")
    both = _write(tmp_path / "both.csv", "source,target,weight\na,b,2\nb,a,2\nc,b,0.5\nb,c,0.5\nd,c,1\n")
    g1, m1 = _read(one, lab)
    g2, m2 = _read(both, lab)
    assert list(g1.node_names) == list(g2.node_names)
    assert (g1.adjacency != g2.adjacency).nnz == 0  # not doubled
    assert g2.adjacency[0, 1] == 2.0
    assert m1 == [] and any("both directions" in m and "'a'" in m for m in m2)


def test_weights_column_third_column_and_ignored(tmp_path):
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\nc,x\n")
    named = _write(tmp_path / "w.csv", "weight,target,source\n2.5,b,a\n0.25,c,b\n")
    g, _ = _read(named, lab)
    assert _dense_by_name(g) == {("a", "b"): 2.5, ("b", "c"): 0.25}
    third = _write(tmp_path / "w3.csv", "from,to,strength\na,b,3\nb,c,4\n")
    g3, _ = _read(third, lab, source="from", target="to")
    assert _dense_by_name(g3) == {("a", "b"): 3.0, ("b", "c"): 4.0}
    g4, _ = _read(third, lab, source="from", target="to", weight=False)
    assert _dense_by_name(g4) == {("a", "b"): 1.0, ("b", "c"): 1.0}
    gephi = _write(
        tmp_path / "gephi.csv", "Source,Target,Type,Id,Weight\na,b,Undirected,0,7\nb,c,Undirected,1,1\n"
    )
    g5, _ = _read(gephi, lab)
    assert _dense_by_name(g5) == {("a", "b"): 7.0, ("b", "c"): 1.0}


def test_repeated_rows_add_their_weights_as_from_edges(tmp_path):
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\n")
    e = _write(tmp_path / "e.csv", "source,target\na,b\na,b\n")
    g, msgs = _read(e, lab)
    assert g.adjacency[0, 1] == 2.0
    assert any("more than once" in m and "{'a', 'b'}" in m for m in msgs)


def test_directed_rows_take_the_max(tmp_path):
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\n")
    e = _write(tmp_path / "e.csv", "source,target,weight\na,b,1\nb,a,3\n")
    g, _ = _read(e, lab, directed=True)
    assert g.adjacency[0, 1] == 3.0 and g.adjacency[1, 0] == 3.0


def test_no_header(tmp_path):
    e = _write(tmp_path / "e.csv", "1,2,0.5\n2,3,1.5\n")
    lab = _write(tmp_path / "l.csv", "1,a\n2,b\n3,a\n")
    g, _ = _read(e, lab, header=False)
    assert list(g.node_names) == [1, 2, 3]
    assert _dense_by_name(g) == {(1, 2): 0.5, (2, 3): 1.5}
    with pytest.raises(ValueError, match="pass header=False"):
        gs.Graph.read_csv(e, lab)


def test_tabs_blank_lines_and_spaces(tmp_path):
    e = _write(tmp_path / "e.tsv", "source\ttarget\n a\t b\n\nb\tc\n")
    lab = _write(tmp_path / "l.tsv", "node\tlabel\na\tx\nb\ty \nc\tx\n")
    g, _ = _read(e, lab, sep="\t")
    assert list(g.node_names) == ["a", "b", "c"] and g.class_names == ["x", "y"]


# --------------------------------------------------------------------------- dropped and reported
def test_unlabelled_nodes_are_kept_and_reported(tmp_path):
    """Nodes without a label row or with an empty label were dropped, and their edges with them."""
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\nc,a\nc,d\n")
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,\nc,y\n")  # b empty, d without a row
    g, msgs = _read(e, lab)
    assert list(g.node_names) == ["a", "b", "c", "d"] and g.class_names == ["x", "y"]
    assert g.n_edges == 4
    np.testing.assert_array_equal(g.labels, [0, -1, 1, -1])
    text = " ".join(msgs)
    assert "2 of 4 nodes are unlabelled (1 without a label row, 1 with an empty label)" in text
    assert "kept" in text and "dropped" not in text
    assert g.info["read"]["unlabelled_nodes"] == 2 and g.info["read"]["nodes"] == 4


def test_dropped_component_self_loops_and_unknown_label_rows_are_reported(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\nc,a\nc,c\nx,y\n")
    lab = _write(
        tmp_path / "l.csv", "node,label\na,red\nb,blue\nc,red\nx,blue\ny,green\nghost,red\nghost2,red\n"
    )
    g, msgs = _read(e, lab)
    text = " ".join(msgs)
    assert list(g.node_names) == ["a", "b", "c"] and g.class_names == ["blue", "red"]
    assert "dropped 1 self-loop" in text
    assert "ignored 2 label rows naming nodes that are in no edge (e.g. 'ghost', 'ghost2')" in text
    assert "largest of 2 connected components: dropped 2 of 5 nodes" in text
    assert "['green']" in text  # the class that vanished with the small component
    assert g.info["read"] == {
        "edges_path": str(e),
        "labels_path": str(lab),
        "edge_rows": 5,
        "self_loops": 1,
        "nodes_in_edges": 5,
        "label_rows": 7,
        "unknown_label_rows": 2,
        "repeated_label_rows": 0,
        "unlabelled_nodes": 0,
        "outside_lcc": 2,
        "nodes": 3,
        "unlabelled_kept": 0,
    }
    with pytest.warns(gs.DataWarning, match="self-loop"), pytest.raises(ValueError, match="disconnected"):
        gs.Graph.read_csv(e, lab, lcc=False)


def test_read_csv_components_keeps_every_component(tmp_path):
    """Every node of the file in some part, the classes shared; a part may have no label or one class."""
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\nc,a\nx,y\np,q\nq,r\nz,z\n")
    lab = _write(tmp_path / "l.csv", "node,label\na,red\nb,blue\nx,green\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = gs.Graph.read_csv_components(e, lab)
    text = " ".join(str(w.message) for w in caught)
    assert "1 node(s) have no edge" in text and "largest" not in text
    assert [list(p.node_names) for p in parts] == [["a", "b", "c"], ["p", "q", "r"], ["x", "y"]]
    assert all(p.class_names == ["blue", "green", "red"] for p in parts)
    np.testing.assert_array_equal(parts[0].labels, [2, 0, -1])
    assert parts[1].n_labelled == 0 and parts[2].n_labelled == 1
    assert [p.info["component"] for p in parts] == [0, 1, 2]
    assert parts[0].info["read"]["outside_lcc"] == 1  # z: only a self-loop
    with pytest.raises(TypeError, match="do not pass lcc"):
        gs.Graph.read_csv_components(e, lab, lcc=True)


def test_repeated_label_rows(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\na,b\n")
    same = _write(tmp_path / "same.csv", "node,label\na,x\nb,y\na,x\n")
    _, msgs = _read(e, same)
    assert any("ignored 1 repeated label row" in m for m in msgs)
    clash = _write(tmp_path / "clash.csv", "node,label\na,x\nb,y\na,y\n")
    with pytest.raises(ValueError, match=r"node 'a' has two labels, 'x' \(line 2\) and 'y' \(line 4\)"):
        gs.Graph.read_csv(e, clash)


# --------------------------------------------------------------------------- errors
def test_errors_name_the_problem(tmp_path):
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\n")
    e = _write(tmp_path / "e.csv", "source,target\na,b\n")
    with pytest.raises(FileNotFoundError, match="edge file .*nope.csv"):
        gs.Graph.read_csv(tmp_path / "nope.csv", lab)
    with pytest.raises(FileNotFoundError, match="label file .*nope.csv"):
        gs.Graph.read_csv(e, tmp_path / "nope.csv")
    with pytest.raises(ValueError, match="labels_path is required"):
        gs.Graph.read_csv(e)
    cases = {
        "": "is empty",
        "source,target\n": "holds no edges",
        "src,dst\na,b\n": r"no column 'source'; its columns are \['src', 'dst'\]",
        "source,target,weight\na,b,heavy\n": r"line 2: weight 'heavy' is not a number",
        "source,target,weight\na,b,1\nb,a,-2\n": r"line 3: negative weight '-2'",
        "source,target,weight\na,b,nan\n": "not a finite number",
        "source,target\na,\n": "line 2: empty node name",
        "source,target,w,time\na,b,1,5\n": "name the weight column",
    }
    for i, (text, match) in enumerate(cases.items()):
        with pytest.raises(ValueError, match=match):
            gs.Graph.read_csv(_write(tmp_path / f"bad{i}.csv", text), lab)
    with pytest.raises(ValueError, match="no column 'label'"):
        gs.Graph.read_csv(e, _write(tmp_path / "l2.csv", "node,class\na,x\n"))
    with pytest.raises(ValueError, match="label file .* is empty"):
        gs.Graph.read_csv(e, _write(tmp_path / "l3.csv", ""))
    with (
        pytest.warns(gs.DataWarning, match="2 of 2 nodes are unlabelled"),
        pytest.raises(ValueError, match="no node has a label"),
    ):
        gs.Graph.read_csv(e, _write(tmp_path / "l4.csv", "node,label\n"))


def test_read_edge_csv_for_an_unlabelled_graph(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\nb,a\na,a\nc,b\n")
    edges, w, names, loops = read_edge_csv(e)
    assert list(names) == ["a", "b", "c"] and loops == 1
    assert edges.tolist() == [[1, 0], [2, 1]] and w.tolist() == [1.0, 1.0]


# --------------------------------------------------------------------------- GraphML
def test_read_graphml_keeps_ids_and_unlabelled_nodes(tmp_path):
    G = nx.Graph()
    G.add_edge("u", "v", weight=2.0)
    G.add_edge("v", "w", weight=1.0)
    G.add_edge("w", "w", weight=1.0)
    G.add_edge("w", "z", weight=1.0)
    nx.set_node_attributes(G, {"u": "red", "v": "blue", "w": "red"}, "label")  # z unlabelled
    path = tmp_path / "g.graphml"
    nx.write_graphml(G, path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = gs.Graph.read_graphml(path)
    text = " ".join(str(w.message) for w in caught)
    assert "dropped 1 self-loop" in text and "1 of 4 nodes have no 'label'" in text
    assert list(g.node_names) == ["u", "v", "w", "z"] and g.class_names == ["blue", "red"]
    assert g.labels[3] == -1
    assert g.adjacency[0, 1] == 2.0 and g.adjacency.diagonal().sum() == 0
    with pytest.raises(FileNotFoundError):
        gs.Graph.read_graphml(tmp_path / "missing.graphml")


def test_rows_longer_than_the_header_are_refused(tmp_path):
    """A header source,target with rows a,b,2 dropped every weight with only a pandas ParserWarning."""
    e = _write(tmp_path / "e.csv", "source,target\na,b,2\nb,c,3\n")
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\nc,x\n")
    with pytest.raises(ValueError, match="more fields than its header has columns: name every column"):
        gs.Graph.read_csv(e, lab)


@pytest.mark.parametrize(
    "edges, labels, pair",
    [("1,2\n2,3\n", "01,x\n02,y\n03,x\n", "'01' in the label file is '1' in the edge file"),
     ("1.0,2.0\n2.0,3.0\n", "1,x\n2,y\n3,x\n", "'1' in the label file is '1.0' in the edge file")],
)  # fmt: skip
def test_names_equal_only_as_numbers_are_pointed_out(tmp_path, edges, labels, pair):
    """'01' vs 1 or '1' vs '1.0' said 'no node has a label' without saying why."""
    e = _write(tmp_path / "e.csv", "source,target\n" + edges)
    lab = _write(tmp_path / "l.csv", "node,label\n" + labels)
    with pytest.raises(ValueError, match="names them differently: " + pair):
        gs.Graph.read_csv(e, lab)


def test_the_readers_build_through_the_class_they_are_given(tmp_path):
    """readers never import graph (graph imports readers): the Graph class is passed by Graph.read_csv."""
    from graphsel_lib import readers

    e = _write(tmp_path / "e.csv", "source,target\na,b\n")
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\n")
    with pytest.raises(TypeError, match="Graph.read_csv"):
        readers.read_csv(e, lab)
    assert readers.read_csv(e, lab, graph_cls=gs.Graph).n_nodes == 2


def test_unlabelled_count_said_once_and_drops_still_said(tmp_path):
    """read_csv counts unlabelled nodes by kind; the Graph's own count is not repeated, its drops are not hidden."""
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\nx,y\n")
    lab = _write(tmp_path / "l.csv", "node,label\na,red\nx,blue\n")
    g, msgs = _read(e, lab)
    text = " | ".join(msgs)
    assert text.count("are unlabelled") == 1 and "largest of 2 connected components" in text
    assert g.n_nodes == 3 and g.n_labelled == 1


# --------------------------------------------------------------------------- issue 34: one definition of "no label"
@pytest.mark.parametrize("marker", ["NONE", "Nan", "NAN", "Null", "N/a", "nil", "-1.0", "#n/a"])
def test_missing_value_markers_in_any_case_mean_unlabelled(tmp_path, marker):
    """'NONE', 'Nan', 'NAN', 'Null', ... (other spellings than pandas' own) became classes in a label CSV."""
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\nc,d\na,d\n")
    lab = _write(tmp_path / "l.csv", f"node,label\na,x\nb,{marker}\nc,y\nd,x\n")
    g, msgs = _read(e, lab)
    assert g.class_names == ["x", "y"] and g.labels.tolist() == [0, -1, 1, 0]
    assert g.info["read"]["unlabelled_nodes"] == 1


def test_readme_lists_every_missing_label_marker():
    """The README's sentence on what 'unlabelled' means lists the markers the readers use, all of them."""
    from pathlib import Path

    from graphsel_lib.readers import MISSING_LABELS

    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    start = text.index("means *unlabelled*, everywhere")
    sentence = text[start : text.index("A `gs.Graph` keeps its", start)]
    shown = {m.casefold() for m in re.findall(r"`([^`]*)`", sentence)}
    assert {m for m in MISSING_LABELS if m} <= shown and '""' in shown


def test_graphml_markers_and_text_weights(tmp_path):
    """GraphML: a label 'NaN' or '-1' (attr.type string) became a class; a weight of attr.type string a dtype error."""
    G = nx.Graph()
    G.add_edge("u", "v", weight=2.0)
    G.add_edge("v", "w", weight=1.0)
    G.add_edge("w", "z", weight=1.0)
    nx.set_node_attributes(G, {"u": "red", "v": "NaN", "w": "-1", "z": "blue"}, "label")
    path = tmp_path / "g.graphml"
    nx.write_graphml(G, path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = gs.Graph.read_graphml(path)
    assert g.class_names == ["blue", "red"] and g.labels.tolist() == [1, -1, -1, 0]
    assert any("2 of 4 nodes have no 'label'" in str(w.message) for w in caught)
    text = path.read_text().replace(
        'attr.name="weight" attr.type="double"', 'attr.name="weight" attr.type="string"'
    )
    path.write_text(text)
    with pytest.raises(
        TypeError, match=r"GraphML file .*weight attribute 'weight' must hold numbers.*attr\.type"
    ):
        gs.Graph.read_graphml(path)


def test_lookalike_node_names_and_labels_in_one_file_are_pointed_out(tmp_path):
    """Nodes '2' and '2.0', '7' and '007', labels '1' and '1.0' stayed distinct without a word: kept, and said."""
    from graphsel_lib._validation import LookalikeNamesWarning

    e = _write(tmp_path / "e.csv", "source,target\n2,2.0\n2.0,7\n7,007\n")
    lab = _write(tmp_path / "l.csv", "node,label\n2,1\n2.0,1.0\n7,1\n007,x\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = gs.Graph.read_csv(e, lab)
    look = [str(w.message) for w in caught if issubclass(w.category, LookalikeNamesWarning)]
    assert sorted(g.node_names) == ["007", "2", "2.0", "7"] and g.class_names == ["1", "1.0", "x"]
    assert any(
        "node names '2' and '2.0', '007' and '7'" in m for m in look
    )  # in the sorted order of the nodes
    assert any("class names '1' and '1.0'" in m for m in look)


def test_weights_written_with_separators_are_refused(tmp_path):
    """Python's float() reads '1_000' as 1000: a weight so written was taken silently."""
    lab = _write(tmp_path / "l.csv", "node,label\na,x\nb,y\nc,x\n")
    for weight, fix in (
        ("1_000", "; write it with digits only, 1000 .* "),
        ("1 000", "; .*1000 .* "),
        ("١", " "),
    ):
        e = _write(tmp_path / "e.csv", f"source,target,weight\na,b,2\nb,c,{weight}\n")
        with pytest.raises(
            ValueError, match=rf"line 3: weight '{weight}' is not a number{fix}\(weights are read"
        ):
            gs.Graph.read_csv(e, lab)
    e = _write(tmp_path / "e.csv", "source,target,weight\na,b,inf\n")
    with pytest.raises(ValueError, match="not a finite number"):
        gs.Graph.read_csv(e, lab)


@pytest.mark.parametrize("sep, shown", [(";", "';'"), ("\t", "'\\\\t'"), ("|", "'|'")])
def test_other_separators_get_a_hint_about_sep(tmp_path, sep, shown):
    """A ';'- or tab-separated file said only that the column 'source' is missing."""
    e = _write(tmp_path / "e.csv", f"source{sep}target\na{sep}b\nb{sep}c\n")
    lab = _write(tmp_path / "l.csv", f"node{sep}label\na{sep}x\nb{sep}y\n")
    with pytest.raises(ValueError, match=rf"looks separated by {shown}.*pass sep="):
        gs.Graph.read_csv(e, lab)
    with pytest.raises(ValueError, match=rf"looks separated by {shown}.*pass sep="):
        gs.Graph.read_csv(e, lab, header=False)
    assert gs.Graph.read_csv(e, lab, sep=sep).n_nodes == 3


def test_two_missing_markers_for_one_node_are_not_two_labels(tmp_path):
    """'' and 'NaN' for one node were called 'two labels'; a label and a marker are said as such."""
    e = _write(tmp_path / "e.csv", "source,target\na,b\nb,c\n")
    same = _write(tmp_path / "same.csv", "node,label\na,x\nb,\nb,NaN\nc,y\n")
    g, msgs = _read(e, same)
    assert g.labels.tolist() == [0, -1, 1] and any("ignored 1 repeated label row" in m for m in msgs)
    mixed = _write(tmp_path / "mixed.csv", "node,label\na,x\nb,NaN\nb,y\nc,y\n")
    with pytest.raises(
        ValueError, match=r"node 'b' has a label, 'y' \(line 4\), and a row without one, 'NaN'"
    ):
        gs.Graph.read_csv(e, mixed)


def test_class_names_equal_but_for_case_are_pointed_out(tmp_path):
    """Labels 'Red' and 'red' in one file became two classes without a word (the CLI then could not tell
    them apart by a case-insensitive name); node names are case-sensitive and get no such warning."""
    from graphsel_lib._validation import LookalikeNamesWarning

    edges = tmp_path / "e.csv"
    edges.write_text("source,target\na,A\nA,c\nc,d\n")
    labels = tmp_path / "l.csv"
    labels.write_text("node,label\na,red\nA,Red\nc,blue\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = gs.Graph.read_csv(edges, labels)
    look = [str(w.message) for w in caught if issubclass(w.category, LookalikeNamesWarning)]
    assert g.class_names == ["Red", "blue", "red"]  # kept apart, as written
    assert len(look) == 1 and "class names 'Red' and 'red' are equal but for case" in look[0]


def test_a_label_file_that_is_not_utf8_names_the_file_the_byte_and_the_fix(tmp_path):
    e = _write(tmp_path / "e.csv", "source,target\na,b\n")
    lab = tmp_path / "l.csv"
    lab.write_bytes(b"\xef\xbb\xbf" + "node,label\na,caf\xe9\n".encode("latin-1"))  # a BOM, then Latin-1
    with pytest.raises(
        ValueError, match=r"label file .*l.csv' is not UTF-8 text \(.* at byte 19\): save it as UTF-8"
    ):
        gs.Graph.read_csv(e, lab)
    lab.write_bytes(
        b"\xef\xbb\xbfnode,label\na,x\nb,y\n"
    )  # the BOM of a spreadsheet's UTF-8 export is dropped
    nodes, labels, lines = read_label_csv(lab)
    assert nodes.tolist() == ["a", "b"] and labels.tolist() == ["x", "y"] and lines.tolist() == [2, 3]
