"""Labelling by hand (graphsel_lib.label): the core, the terminal front end, resume after a kill, the panel."""

import os
import select
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import graphsel_lib as gs
from graphsel_lib.label import Labelling, LabellingPanel, answers_path, main

CLASSES = ["red", "green", "blue"]
PROMPT = "label (a class name, or #n"


@pytest.fixture(scope="module")
def graph():
    """A generated graph (195 nodes, 3 classes) with 15 % of its labels known to the annotator."""
    with pytest.warns(gs.DataWarning):
        g = gs.datasets.sbm(200, n_blocks=3, avg_degree=8, mixing=0.1, seed=0)
    rng = np.random.default_rng(0)
    known = np.full(g.n_nodes, -1)
    shown = rng.choice(g.n_nodes, int(0.15 * g.n_nodes), replace=False)
    known[shown] = g.labels[shown]
    return g, known


def truth_of(g):
    return {name: g.class_names[c] for name, c in zip(g.node_names.tolist(), g.labels, strict=True)}


# --------------------------------------------------------------------------- the core


def test_next_question_plays_the_rounds_that_need_no_person(graph):
    g, known = graph
    lab = Labelling(g, known)
    q = lab.next_question()
    assert lab.next_question() is q  # asking again: the same question
    assert known[q.node] == -1 and q.name == g.node_names[q.node] and q.round == lab.session.n_done + 1
    tr = lab.session.trace  # the rounds before: not wanted, or told the known label
    told = tr.queried
    np.testing.assert_array_equal(tr.labels[told], known[tr.order[told]])
    assert q.prediction in g.class_names and 0 < q.probability <= 1
    row = g.adjacency[q.node]
    assert q.n_neighbours == row.nnz and len(q.neighbours) == min(5, row.nnz)
    weights = [w for _, _, w in q.neighbours]
    assert weights == sorted(weights, reverse=True)
    for name, label, _ in q.neighbours:
        node = g.node_names.tolist().index(name)
        assert row[0, node] > 0 and label == (None if known[node] == -1 else g.class_names[known[node]])

    lab.answer(g.class_names[g.labels[q.node]])
    assert lab.answers == {q.node: g.labels[q.node]} and lab.labels()[q.node] == g.labels[q.node]
    with pytest.raises(RuntimeError, match="next_question"):
        lab.answer("block 0")
    q2 = lab.next_question()
    with pytest.raises(ValueError, match="not a class"):
        lab.answer("purple")
    assert lab.question is q2
    lab.skip()
    assert lab.skipped_nodes == [q2.node] and lab.n_skipped == 1 and lab.n_answers == 1
    assert lab.labels()[q2.node] == -1
    q3 = lab.next_question()
    lab.answer(int(g.labels[q3.node]))  # a code works as well
    assert lab.n_answers == 2


def test_answers_count_as_known_labels(graph):
    """A person's answer is told to the learner and shown as the neighbour's label afterwards."""
    g, known = graph
    lab = Labelling(g, known)
    truth = truth_of(g)
    seen = False
    for _ in range(40):
        q = lab.next_question()
        if q is None:
            break
        for name, label, _ in q.neighbours:
            node = g.node_names.tolist().index(name)
            if node in lab.answers:
                assert label == g.class_names[lab.answers[node]]
                seen = True
        lab.answer(truth[q.name])
    assert seen


def test_budget_and_done(graph):
    g, known = graph
    lab = Labelling(g, known, budget=3)
    assert lab.answer_from(truth_of(g), save=False) == 3
    assert lab.next_question() is None and lab.done and not lab.session.done and lab.budget_left == 0
    lab.budget = None
    assert lab.next_question() is not None and not lab.done


def test_save_resume_and_the_answers_file(graph, tmp_path):
    g, known = graph
    path = tmp_path / "s.npz"
    lab = Labelling(g, known, path=path, seed=3)
    truth = truth_of(g)
    for i in range(6):
        q = lab.next_question()
        lab.skip() if i == 2 else lab.answer(truth[q.name])
    pending = lab.next_question()
    assert lab.save() == path and answers_path(path) == tmp_path / "s.answers.csv"
    back = Labelling.resume(path, g, known)
    assert back.next_question() == pending and back.answers == lab.answers
    assert back.skipped_nodes == lab.skipped_nodes and back.progress() == lab.progress()
    rows = answers_path(path).read_text().splitlines()
    assert rows[0] == "node,label" and rows[1:] == [f"{n},{c}" for n, c in lab.answer_rows()]
    assert len(rows) == 6  # five answers, one skip
    back.answer_from(truth, save=False)
    lab.answer_from(truth, save=False)
    np.testing.assert_array_equal(back.session.trace.labels, lab.session.trace.labels)

    other = gs.Graph.from_edges(np.array([[0, 1], [1, 2]]), np.array([0, 1, 1]))
    with pytest.raises(ValueError, match="not the one"):
        Labelling.resume(path, other)
    with pytest.raises(ValueError, match="not a labelling session"):
        plain = gs.online.Session(gs.online.GPA(), np.eye(3))
        Labelling.resume(plain.save(tmp_path / "plain.npz"), g)


# --------------------------------------------------------------------------- the terminal


@pytest.fixture
def files(tmp_path, graph):
    """edges.csv and labels.csv in the user's names (strings) with only the known labels; the truth."""
    g, known = graph
    names = [f"n{i}" for i in range(g.n_nodes)]
    S = g.adjacency.tocoo()
    edges = ["source,target"] + [f"{names[r]},{names[c]}" for r, c in zip(S.row, S.col, strict=True) if r < c]
    (tmp_path / "edges.csv").write_text("\n".join(edges) + "\n")
    rows = ["node,label"] + [f"{names[i]},{CLASSES[known[i]]}" for i in np.flatnonzero(known != -1)]
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    truth = {names[i]: CLASSES[g.labels[i]] for i in range(g.n_nodes)}
    return tmp_path, truth


def cli(tmp_path, *extra):
    args = ["--edges", "edges.csv", "--labels", "labels.csv", "--session", "s.npz", *extra]
    return [sys.executable, "-m", "graphsel_lib.label", *args]


def questions(out):
    """The node names asked in a terminal transcript, in order."""
    return [line.split("node ")[1].strip() for line in out.splitlines() if line.startswith("round ")]


def test_cli_by_name_and_number_bad_answer_skip_and_eof(files):
    tmp, truth = files
    # the classes are listed in sorted order: #1 blue #2 green #3 red
    feed = "red\n#2\nbogus\nblue\n:s\n"
    r = subprocess.run(cli(tmp), cwd=tmp, input=feed, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "new session s.npz" in r.stdout and "'bogus' is not a class; type a class name" in r.stdout
    assert "classes: #1 blue  #2 green  #3 red" in r.stdout and ":s skips a node you do not know" in r.stdout
    asked = questions(r.stdout)
    assert len(asked) == 5  # red, #2 (green), bogus then blue (asked again: the same node), :s, then EOF
    assert r.stdout.count(f"node {asked[2]}") == 1 and r.stdout.count(PROMPT) == 6
    assert "saved (end of input)" in r.stdout and "answers: s.answers.csv (3 rows" in r.stdout
    rows = (tmp / "s.answers.csv").read_text().splitlines()
    assert rows == ["node,label", f"{asked[0]},red", f"{asked[1]},green", f"{asked[2]},blue"]
    back = Labelling.resume(tmp / "s.npz")
    assert back.skipped_nodes == [back.graph.node_names.tolist().index(asked[3])]
    assert back.next_question().name == asked[4]


def read_until(proc, buf, count, timeout=30):
    """Read the process's stdout until it has printed the prompt ``count`` times; returns the text."""
    end = time.monotonic() + timeout
    while buf[0].count(PROMPT) < count:
        ready, _, _ = select.select([proc.stdout], [], [], max(end - time.monotonic(), 0))
        if not ready:
            raise AssertionError(f"no prompt #{count} within {timeout} s:\n{buf[0]}")
        chunk = os.read(proc.stdout.fileno(), 65536).decode()
        if not chunk:
            raise AssertionError(f"the process ended early:\n{buf[0]}")
        buf[0] += chunk
    return buf[0]


def interact(tmp, truth, n_answers, *extra, kill=False):
    """Run the terminal front end on a pipe, answer ``n_answers`` questions by the truth as they come.

    ``kill``: then SIGKILL it while it waits on stdin for the next question. Returns (stdout, returncode).
    """
    proc = subprocess.Popen(cli(tmp, *extra), cwd=tmp, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    buf = [""]
    try:
        for k in range(1, n_answers + 1):
            asked = questions(read_until(proc, buf, k))
            proc.stdin.write(f"{truth[asked[-1]]}\n".encode())
            proc.stdin.flush()
        if kill:
            read_until(proc, buf, n_answers + 1)  # the next question waits on stdin
            proc.send_signal(signal.SIGKILL)
        else:
            proc.stdin.close()  # EOF, or the end of the budget
            buf[0] += proc.stdout.read().decode()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        if not proc.stdin.closed:
            proc.stdin.close()
    return buf[0], proc.returncode


def rounds(out):
    return [line for line in out.splitlines() if line.startswith("round ")]


def test_cli_resumes_after_being_killed(files):
    tmp, truth = files
    killed, code = interact(tmp, truth, 3, "--budget", "6", kill=True)
    assert code == -signal.SIGKILL
    before = questions(killed)
    assert len(before) == 4  # three answered, the fourth killed while waiting

    out, code = interact(tmp, truth, 3)  # the budget (6) is kept in the session file
    assert code == 0
    assert "resumed s.npz:" in out and "3 answers and 0 skipped restored" in out
    after = questions(out)
    assert after[0] == before[3] and rounds(out)[0] == rounds(killed)[-1]  # the same round, the same node
    assert "done: the budget of 6 answers is spent" in out
    rows = (tmp / "s.answers.csv").read_text().splitlines()
    assert rows[0] == "node,label" and len(rows) == 7
    assert [row.split(",")[0] for row in rows[1:]] == before[:3] + after[:3]  # the earlier answers kept
    assert all(truth[n] == c for n, c in (row.split(",") for row in rows[1:]))


def test_cli_refuses_a_damaged_session_and_missing_files(files, capsys):
    tmp, _ = files
    r = subprocess.run(cli(tmp), cwd=tmp, input="red\n:q\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "saved (quit)" in r.stdout
    data = bytearray((tmp / "s.npz").read_bytes())
    data[len(data) // 2] ^= 0x01
    (tmp / "s.npz").write_bytes(bytes(data))
    r = subprocess.run(cli(tmp), cwd=tmp, input="", capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and "damaged" in r.stderr and "delete it" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1

    os.chdir(tmp)
    assert main(["--edges", "missing.csv", "--labels", "labels.csv", "--session", "new.npz"]) == 2
    err = capsys.readouterr().err
    assert "missing.csv" in err and "check the path" in err and len(err.strip().splitlines()) == 1
    (tmp / "broken.csv").write_text("source,target\na\n")
    assert main(["--edges", "broken.csv", "--labels", "labels.csv", "--session", "new.npz"]) == 2
    assert "broken.csv" in capsys.readouterr().err
    assert not (tmp / "new.npz").exists()


# --------------------------------------------------------------------------- the panel


def test_headless_panel_answers_like_a_person(graph, tmp_path, monkeypatch):
    pytest.importorskip("ipywidgets")
    monkeypatch.setenv("GRAPHSEL_HEADLESS", "1")
    g, known = graph
    truth = truth_of(g)
    lookup = {k: v for k, v in truth.items() if k % 4}  # the person does not know every fourth node

    auto = LabellingPanel(Labelling(g, known, path=tmp_path / "a.npz"))
    assert auto.answer_from(lookup) > 0
    hand = LabellingPanel(Labelling(g, known))  # by hand: the panel's buttons
    while (q := hand.labelling.question) is not None:
        assert not hand.buttons[g.class_names[0]].disabled
        (hand.buttons[lookup[q.name]] if q.name in lookup else hand.skip_button).click()
    assert all(b.disabled for b in hand.buttons.values()) and "Done" in hand.card.value
    a, b = auto.labelling.session.trace, hand.labelling.session.trace
    for key in ("order", "labels", "predictions", "queried"):
        np.testing.assert_array_equal(getattr(a, key), getattr(b, key), err_msg=key)
    assert auto.labelling.session.skipped == hand.labelling.session.skipped
    assert auto.labelling.answers == hand.labelling.answers

    resumed = LabellingPanel(Labelling.resume(tmp_path / "a.npz", g, known))  # saved by answer_from
    assert resumed.labelling.answers == auto.labelling.answers and resumed.status.value == auto.status.value
    csv = tmp_path / "truth.csv"
    csv.write_text("node,label\n" + "".join(f"{k},{v}\n" for k, v in lookup.items()))
    from_file = Labelling(g, known)
    from_file.answer_from(csv, save=False)
    assert from_file.answers == auto.labelling.answers


def test_panel_buttons_save_and_show_the_next_question(graph, tmp_path):
    pytest.importorskip("ipywidgets")
    g, known = graph
    panel = Labelling(g, known, path=tmp_path / "p.npz").panel()
    q = panel.labelling.question
    assert str(q.name) in panel.card.value and q.prediction in panel.card.value
    assert panel.buttons[q.prediction].button_style == "info"
    panel.buttons[g.class_names[g.labels[q.node]]].click()
    assert panel.labelling.question.node != q.node and (tmp_path / "p.npz").exists()  # saved at once
    assert panel.status.value.startswith("1 answers")
    panel.save_button.click()
    assert "saved" in panel.message.value
    again = LabellingPanel.resume(tmp_path / "p.npz", g, known)  # from the saved path
    assert again.labelling.question == panel.labelling.question


# --------------------------------------------------------------------------- issue 34: the CLI's answers and errors


def small_files(tmp, classes, labelled=None):
    """edges.csv (a cycle of 12 nodes n0..n11) and labels.csv giving ``labelled`` ({node: class}) only."""
    n = 12
    (tmp / "edges.csv").write_text("source,target\n" + "".join(f"n{i},n{(i + 1) % n}\n" for i in range(n)))
    labelled = {0: classes[0], 6: classes[-1]} if labelled is None else labelled
    (tmp / "labels.csv").write_text("node,label\n" + "".join(f"n{i},{c}\n" for i, c in labelled.items()))


def run_main(tmp, feed, capsys, *extra, session="s.npz"):
    import io

    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp)
        args = ["--edges", "edges.csv", "--labels", "labels.csv", "--session", session, *extra]
        code = main(args, stdin=io.StringIO(feed))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_class_named_1_is_typed_1_and_the_menu_is_hash_n(tmp_path, capsys):
    """With classes '0' and '1', typing the menu number 1 recorded class '1': a name is a name, #n the n-th entry."""
    small_files(tmp_path, ["0", "1"])
    code, out, _ = run_main(tmp_path, "1\n#1\n", capsys)
    assert code == 0 and "classes: #1 0  #2 1" in out and "#n for the n-th class listed" in out
    rows = (tmp_path / "s.answers.csv").read_text().splitlines()[1:]
    assert [r.split(",")[1] for r in rows] == [
        "1",
        "0",
    ]  # "1": the class named 1; "#1": the first listed, "0"


def test_cli_classes_named_s_and_q_are_labels_and_skip_is_colon_s(tmp_path, capsys):
    """A class named 's' or 'q' was read as skip / quit; commands are :s and :q."""
    small_files(tmp_path, ["q", "s"])
    code, out, _ = run_main(tmp_path, "s\nQ\n:s\n:q\n", capsys)
    assert code == 0 and "saved (quit)" in out
    back = Labelling.resume(tmp_path / "s.npz")
    assert [back.graph.class_names[c] for c in back.answers.values()] == ["s", "q"] and back.n_skipped == 1
    small_files(tmp_path, ["red", "blue"])
    code, out, _ = run_main(tmp_path, "s\n3\n:q\n", capsys, session="t.npz")
    assert "'s' is not a class (to skip, type :s)" in out and "#1..#2" in out


def test_cli_one_class_or_no_label_names_the_labels_file(tmp_path, capsys):
    """One class said 'fix the file named above' naming none; no label offered class_names=, not a CLI option."""
    small_files(tmp_path, ["red"], {0: "red", 3: "red"})
    code, _, err = run_main(tmp_path, "", capsys)
    assert code == 2 and "'labels.csv' names 1 class ('red')" in err and "named above" not in err
    small_files(tmp_path, ["red"], {0: ""})
    code, _, err = run_main(tmp_path, "", capsys)
    assert code == 2 and "'labels.csv' gives no node" in err and "add rows node,label" in err
    assert "pass class_names" not in err and not (tmp_path / "s.npz").exists()


def test_cli_checks_the_session_path_before_asking(tmp_path, capsys):
    """--session under a regular file failed after the first answer, and the answer was lost."""
    small_files(tmp_path, ["red", "blue"])
    (tmp_path / "notes.txt").write_text("a file\n")
    code, out, err = run_main(tmp_path, "red\n", capsys, session="notes.txt/s.npz")
    assert code == 2 and "'notes.txt' is a file, not a folder" in err and "round " not in out
    code, out, err = run_main(tmp_path, "red\n", capsys, session="nowhere/s.npz")
    assert code == 2 and "the folder 'nowhere' does not exist" in err and "round " not in out


def test_panel_prints_text_under_papermill(graph, monkeypatch, capsys):
    """papermill (no $GRAPHSEL_HEADLESS) showed a dead widget although the panel promises text headless."""
    pytest.importorskip("ipywidgets")
    import IPython

    from graphsel_lib import label

    monkeypatch.delenv("GRAPHSEL_HEADLESS", raising=False)

    class Kernel:  # an nbclient run (papermill, nbconvert --execute): no standard input for the request
        _allow_stdin = False

    class Shell:
        kernel = Kernel()

    monkeypatch.setattr(IPython, "get_ipython", lambda: Shell())
    g, known = graph
    panel = LabellingPanel(Labelling(g, known))
    assert label.headless()
    panel._ipython_display_()
    out = capsys.readouterr().out
    assert out.startswith("round ") and "classes: #1" in out and "VBox" not in out
    Kernel._allow_stdin = True  # JupyterLab: a person can click
    assert not label.headless()


# --------------------------------------------------------------------------- the prediction shown
def _write_graph(tmp_path, edges, labels):
    (tmp_path / "e.csv").write_text("source,target\n" + "".join(f"{a},{b}\n" for a, b in edges))
    (tmp_path / "l.csv").write_text("node,label\n" + "".join(f"{v},{c}\n" for v, c in labels))
    return ["--edges", str(tmp_path / "e.csv"), "--labels", str(tmp_path / "l.csv")]


def _shown(out):
    """``[(node, predicted class)]`` of the questions a CLI run printed."""
    nodes = [line.split("node ", 1)[1] for line in out.splitlines() if line.startswith("round ")]
    preds = [
        line.split("predicted: ", 1)[1].split(" (")[0] for line in out.splitlines() if "predicted: " in line
    ]
    return list(zip(nodes, preds, strict=True))


def test_cli_skewed_labelled_shares_are_predicted_as_the_edges_say(tmp_path, capsys):
    """Labels drawn mostly from the minority class (8 of 10): the learner's guess was right on 0.34 of the nodes
    asked (0.16 once it had seen every given label); the harmonic prediction under the prior chosen as in
    notebook 50 (uniform here) is right on 0.99."""
    import io

    import networkx as nx

    sizes = [60, 60, 30]
    G = nx.stochastic_block_model(sizes, [[0.15, 0.01, 0.01], [0.01, 0.15, 0.01], [0.01, 0.01, 0.15]], seed=0)
    classes = ["big", "large", "minority"]
    y = np.repeat(classes, sizes)
    rng = np.random.default_rng(0)
    given = [
        int(v)
        for c, k in zip(classes, (1, 1, 8), strict=True)
        for v in rng.choice(np.flatnonzero(y == c), k, False)
    ]
    args = _write_graph(tmp_path, [(f"v{a}", f"v{b}") for a, b in G.edges], [(f"v{v}", y[v]) for v in given])
    assert main([*args, "--session", str(tmp_path / "s.npz")], stdin=io.StringIO(":s\n" * 200)) == 0
    out = capsys.readouterr().out
    assert "predictions under the prior 'uniform' (chosen by cross-validation)" in out
    shown = _shown(out)
    assert len(shown) >= 50
    assert np.mean([pred == y[int(node[1:])] for node, pred in shown]) >= 0.9
    assert "harmonic + CMN, prior: uniform, from 10 known labels" in out
    lab = Labelling.resume(tmp_path / "s.npz")
    assert lab.prior == "uniform"  # kept in the session file, not chosen again


def test_cli_one_unlabelled_node_is_predicted_from_its_edges(tmp_path, capsys):
    """Karate with every label but node 33's: CMN would make its row the prior (Mr. Hi); its edges say Officer."""
    import io

    import networkx as nx

    G = nx.karate_club_graph()
    args = _write_graph(tmp_path, G.edges, [(v, G.nodes[v]["club"]) for v in G if v != 33])
    for prior in ("auto", "labelled", "uniform", "none"):
        session = tmp_path / f"{prior}.npz"
        lab = Labelling.from_csv(tmp_path / "e.csv", tmp_path / "l.csv", b=1e9, prior=prior)
        q = lab.next_question()
        assert (q.name, q.prediction) == (33, "Officer"), prior
        assert q.predicted_by.startswith("harmonic, no CMN, from 33 known labels")
        assert main([*args, "--session", str(session), "--prior", prior], stdin=io.StringIO(":s\n")) == 0
        out = capsys.readouterr().out
        assert all(pred == "Officer" for node, pred in _shown(out) if node == "33")


def test_labelling_prior_is_notebook_50s_choice_and_checked():
    """The prior the labelling predicts under is partial_labels' cross-validated choice; a bad one is refused."""
    from graphsel_lib import partial_labels as pl

    with pytest.warns(gs.DataWarning):
        g = gs.datasets.sbm(120, n_blocks=2, avg_degree=8, mixing=0.1, seed=1)
    known = np.where(np.random.default_rng(1).random(g.n_nodes) < 0.3, g.labels, -1)
    h = gs.Graph(g.adjacency, known, g.class_names, "g", None, None)
    predictors = pl.harmonic_predictors("auto")
    cv = pl.cross_validate(predictors, h, seed=3)
    assert Labelling(h, seed=3).prior == pl.chosen_prior(cv, predictors) == pl.choose_prior("auto", h, seed=3)
    assert Labelling(h, prior=[1, 3]).prior == [1.0, 3.0]
    with pytest.raises(ValueError, match="prior"):
        Labelling(h, prior="unifrom")


def test_cli_a_negative_seed_is_named(tmp_path, capsys):
    """--seed -1 said numpy's 'expected non-negative integer' and blamed the reading of --edges and --labels."""
    import io

    args = _write_graph(tmp_path, [("a", "b"), ("b", "c")], [("a", "x"), ("c", "y")])
    assert main([*args, "--session", str(tmp_path / "s.npz"), "--seed", "-1"], stdin=io.StringIO("")) == 2
    err = capsys.readouterr().err
    assert "--seed must be >= 0, got -1" in err and "reading --edges" not in err


@pytest.mark.parametrize("marker", ["NaN", "-1", "null", "N/A", " "])
def test_answers_with_a_missing_label_marker_are_skipped_not_a_crash(tmp_path, marker):
    """Notebook 50 answers the panel from the labels file: a row `node,NaN` (unlabelled, as documented) raised
    "'NaN' is not a class" in answer_from."""
    import networkx as nx

    S = nx.to_scipy_sparse_array(nx.path_graph(8), format="csr", dtype=float)
    g = gs.Graph(S, np.array([0, -1, -1, -1, -1, -1, -1, 1]), ["x", "y"], "g", None, None)
    answers = tmp_path / "a.csv"
    answers.write_text("node,label\n" + "".join(f"{v},{marker}\n" for v in range(1, 7)) + "3,y\n")
    lab = Labelling(g, b=1e9)
    assert lab.answer_from(answers, save=False) == 1 and lab.n_skipped == 5
    assert lab.answers == {3: 1}
    lab = Labelling(g, b=1e9)
    assert lab.answer_from({1: marker, 2: None, 3: float("nan"), 4: 1}, save=False) == 1  # 4: class code 1
    assert lab.answers == {4: 1}


def test_answers_file_that_is_not_utf8_is_named(tmp_path):
    import networkx as nx

    S = nx.to_scipy_sparse_array(nx.path_graph(4), format="csr", dtype=float)
    g = gs.Graph(S, np.array([0, -1, -1, 1]), ["x", "é"], "g", None, None)
    answers = tmp_path / "a.csv"
    answers.write_bytes("node,label\n1,é\n".encode("latin-1"))
    with pytest.raises(
        ValueError, match=r"answers file .* is not UTF-8 text \(.* at byte 13\): save it as UTF-8"
    ):
        Labelling(g, b=1e9).answer_from(answers, save=False)


def test_answers_file_is_read_as_a_labels_file_empty_and_headerless_are_errors(tmp_path):
    """An empty answers file gave no answers, silently; a file without a header row lost its first row.
    Both are read as Graph.read_csv reads a labels file: errors that say so, header=False for no header."""
    import networkx as nx

    S = nx.to_scipy_sparse_array(nx.path_graph(4), format="csr", dtype=float)
    g = gs.Graph(S, np.array([0, -1, -1, 1]), ["x", "y"], "g", None, None)
    answers = tmp_path / "a.csv"
    answers.write_text("")
    with pytest.raises(ValueError, match="answers file .*a.csv' is empty"):
        Labelling(g, b=1e9).answer_from(answers, save=False)
    answers.write_text("1,y\n2,x\n")
    with pytest.raises(ValueError, match="no column 'node'.*pass header=False"):
        Labelling(g, b=1e9).answer_from(answers, save=False)
    lab = Labelling(g, b=1e9)
    assert lab.answer_from(answers, save=False, header=False) == 2 and lab.answers == {1: 1, 2: 0}
    answers.write_text("label;node\ny;1\n")
    lab = Labelling(g, b=1e9)
    assert lab.answer_from(answers, save=False, sep=";") == 1 and lab.answers == {1: 1}
    with pytest.raises(TypeError, match="apply to a CSV file"):
        Labelling(g, b=1e9).answer_from({1: "y"}, header=False)
