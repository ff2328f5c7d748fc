"""Label a partially labelled graph by hand: the learner asks, a person answers.

One core, :class:`Labelling`, and two front ends: the terminal
(``python -m graphsel_lib.label --edges E --labels L --session S``) and an
ipywidgets panel (:class:`LabellingPanel`). In the terminal an answer is a
class name as written in the labels file (``red``, or ``1`` for a class
named 1), or ``#n`` for the n-th class of the list shown with each question;
``:s`` skips the question (you do not know), ``:q`` saves and quits; a class
named ``s`` is typed ``s`` (a class whose name starts with ``:`` or ``#`` by
its ``#n``). The core plays an online pass of
the margin-sampling relaxation learner (notebooks 34, 35 and 50) as a
:class:`~graphsel_lib.online.Session` over every node of the graph:

* a round whose label the learner does not want is closed with ``tell(None)``;
* a round whose label it wants and the labels file knows is told that label;
* a round whose label it wants and no one knows yet is a **question** for the
  person, who answers a class, or skips (does not know).

The prediction shown with a question is made from every label known then (the
file's and the answers): the harmonic function with class mass normalisation
under the class prior that notebook 50 chooses
(:func:`graphsel_lib.partial_labels.choose_prior`, ``prior="auto"``: chosen
by cross-validation once, at the start, and kept in the session file), so
it follows the node's edges however skewed the labels given are. The
online learner decides which nodes to ask about; a known label it does not
ask for is not told to it, as in the online protocol.

Answers count as known labels from then on. :meth:`Labelling.save` writes the
session (one checksummed data file, never a pickle; the answers and the
graph's fingerprint ride in its ``notes``) and, beside it, the answers as a
CSV ``node,label`` in the user's node names and label strings (the format of
the labels file, so it can be appended to it)::

    lab = Labelling.from_csv("edges.csv", "labels.csv", "session.npz")
    while (q := lab.next_question()) is not None:
        lab.answer(input(f"{q.name}? "))   # or lab.skip()
        lab.save()
    lab = Labelling.resume("session.npz")  # later: the same question again
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import html
import os
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import partial_labels
from ._atomic import atomic_write
from ._validation import is_missing_label
from .online import MarginSampling, Relaxation, Session, node_ids, session_file
from .online.relaxation import kernel_for
from .readers import read_label_csv

__all__ = ["UNLABELLED", "Labelling", "LabellingPanel", "Question", "answers_path", "headless", "main"]

UNLABELLED = -1
"""The label code of a node whose class no one has given (as in :class:`~graphsel_lib.Graph`)."""

B = 0.1  # margin rule: query with probability b / (b + margin)
BETA_PER_NODE = 0.1  # relaxation: beta = 0.1 n
N_NEIGHBOURS = 5  # neighbours shown with a question
_NOTES_KEY = "graphsel_label"
_NOTES_VERSION = 1


@dataclass(frozen=True)
class Question:
    """A round that needs a person: the node, what its neighbours are, what the labels known so far predict."""

    node: int  # row of the graph
    name: object  # the user's name of the node
    neighbours: list  # [(name, class name or None, weight)]: heaviest first (labelled first on ties), a few
    n_neighbours: int  # all of them
    prediction: str  # the class the labels known now give the node (harmonic with CMN under the prior)
    probability: float | None  # the learner's probability of asking (None: it always asks)
    round: int  # 1-based
    n_rounds: int
    predicted_by: str = ""  # how `prediction` was made
    learner_prediction: str = ""  # the online learner's class for the node (its margin decides what to ask)


def answers_path(session_path) -> Path:
    """Where the answers CSV of a session file goes: ``S.answers.csv`` beside ``S`` (suffix dropped)."""
    p = Path(session_path)
    return p.with_name(f"{p.stem if p.suffix else p.name}.answers.csv")


def fingerprint(graph) -> str:
    """SHA-256 of the graph's weights, node names and class names (what a session must be resumed on)."""
    S = graph.adjacency
    h = hashlib.sha256()
    for a in (S.indptr.astype(np.int64), S.indices.astype(np.int64), S.data.astype(np.float64)):
        h.update(np.ascontiguousarray(a).tobytes())
    h.update("\x1f".join(map(str, graph.node_names)).encode())
    h.update(b"\x1e" + "\x1f".join(graph.class_names).encode())
    return h.hexdigest()


def _known(graph, known):
    """Known label codes (``-1`` unknown): ``graph.labels`` by default, or ``known`` checked against it."""
    n, K = graph.n_nodes, graph.n_classes
    codes = np.asarray(graph.labels if known is None else known)
    if codes.shape != (n,) or not np.issubdtype(codes.dtype, np.integer):
        raise ValueError(
            f"known labels must be {n} integers (-1: unknown), got {codes.dtype} of shape {codes.shape}"
        )
    if codes.size and (codes.min() < UNLABELLED or codes.max() >= K):
        raise ValueError(f"known labels must be in -1..{K - 1} (-1: unknown)")
    return codes.astype(np.int64).copy()


def _read(edges, labels):
    """``(graph, notes)``: :meth:`Graph.read_csv`, its warnings (what it dropped) as strings.

    A labels file that labels no node is refused naming it (the classes come from it).
    """
    from .graph import Graph

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            g = Graph.read_csv(edges, labels)
        except ValueError as err:
            if not str(err).startswith("no node has a label"):
                raise
            raise ValueError(
                f"the labels file {str(labels)!r} gives no node of {str(edges)!r} a label, and the classes to "
                "choose from are the labels found there: add rows node,label for nodes of at least two classes "
                "(in Python, Labelling(Graph.read_csv(edges, labels, class_names=[...])) starts from no label)"
            ) from None
    return g, [str(w.message) for w in caught]


def _learner(graph, b=B):
    """The default learner: margin sampling around the relaxation learner, beta = 0.1 n."""
    n = graph.n_nodes
    return MarginSampling(Relaxation(graph.adjacency, beta=BETA_PER_NODE * n, kernel=kernel_for(n)), b=b)


class Labelling:
    """A graph, an online session of the learner on it, the known labels and the person's answers.

    Parameters
    ----------
    graph : Graph
        Nodes with ``labels == -1`` have no known class.
    known : array of int, optional
        Known label codes (``-1`` unknown); default ``graph.labels``. Codes
        index ``graph.class_names``.
    path : str or Path, optional
        The session file :meth:`save` writes (the answers CSV goes beside it).
    seed : int, default 0
        The order of the nodes and the learner's coins.
    budget : int, optional
        Ask the person at most this many answers (skips do not count).
    b : float, default 0.1
        The margin rule's query parameter: larger, more questions.
    sources : (edges, labels) paths, optional
        The CSV files the graph was read from, kept so :meth:`resume` can re-read them.
    prior : {"auto", "labelled", "uniform", "none"}, array or dict, default "auto"
        The class prior of the prediction shown with a question
        (:func:`graphsel_lib.partial_labels.choose_prior`; ``"auto"`` is
        chosen at the start by cross-validation on the known labels).
    """

    def __init__(
        self,
        graph,
        known=None,
        *,
        path=None,
        seed=0,
        budget=None,
        b=B,
        sources=None,
        prior="auto",
        _session=None,
    ):
        if graph.n_classes < 2:
            named = f" ({graph.class_names[0]!r})" if graph.n_classes else ""
            raise ValueError(
                f"the graph {graph.name!r} has {graph.n_classes} class{named}: a person needs at least two classes "
                "to choose from; give a node of another class a label (a row node,label in the labels file)"
            )
        self.graph = graph
        self.known = _known(graph, known)
        self.path = None if path is None else Path(path)
        self.budget = _check_budget(budget)
        self.sources = None if sources is None else tuple(str(Path(p).resolve()) for p in sources)
        seed_of_prior = seed if _session is None else _session.seed
        self.prior = _json_prior(partial_labels.choose_prior(prior, graph, self.known, seed=seed_of_prior))
        n = graph.n_nodes
        if _session is None:
            _session = Session(_learner(graph, b), node_ids(n), seed=seed, n_classes=graph.n_classes)
            fresh = True
        else:
            fresh = False
        self.session = _session
        self.answers = {}  # node -> code given by the person, in the order given
        self._answered_rounds = []
        self._question = None
        self.read_notes = []
        if not fresh:
            self._restore()

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_csv(cls, edges, labels, path=None, *, seed=0, budget=None, b=B, prior="auto"):
        """Read the graph with :meth:`Graph.read_csv` (nodes without a label are unknown) and start.

        The classes are the labels found in ``labels``: at least two are needed
        (a ValueError naming the file says so otherwise).
        """
        g, read_notes = _read(edges, labels)
        if g.n_classes < 2:
            named = f" ({g.class_names[0]!r})" if g.n_classes else ""
            raise ValueError(
                f"the labels file {str(labels)!r} names {g.n_classes} class{named}: a person needs at least two "
                "classes to choose from; add a row node,label for a node of another class"
            )
        lab = cls(g, path=path, seed=seed, budget=budget, b=b, sources=(edges, labels), prior=prior)
        lab.read_notes = read_notes
        return lab

    @classmethod
    def resume(cls, path, graph=None, known=None, *, budget=None):
        """Continue the labelling saved at ``path``: the same round, the same answers.

        ``graph`` (and ``known``) default to re-reading the CSV files the
        labelling was started from. ``budget`` replaces the saved budget.

        Raises
        ------
        ValueError
            A damaged or edited file, a session that is not a labelling, or a
            graph that differs from the one the session was started on.
        """
        session = Session.load(path)
        notes = session.notes.get(_NOTES_KEY)
        if not isinstance(notes, dict) or notes.get("version") != _NOTES_VERSION:
            raise ValueError(
                f"{path} is a saved Session but not a labelling session (no graphsel_lib.label notes): "
                "give another --session path to start a new labelling"
            )
        read_notes = []
        if graph is None:
            if not notes.get("sources"):
                raise ValueError(
                    f"{path} was started from a Graph, not CSV files: pass the graph to resume()"
                )
            graph, read_notes = _read(*notes["sources"])
        if fingerprint(graph) != notes["fingerprint"]:
            raise ValueError(
                f"the graph is not the one {path} was started on (its weights, node names or classes differ): "
                "give the edge and label files of that session, or another --session path to start anew"
            )
        lab = cls(
            graph,
            known,
            path=path,
            budget=notes.get("budget") if budget is None else budget,
            sources=notes.get("sources"),
            prior=notes.get("prior", "auto"),  # a session saved before the prior was kept: chosen again
            _session=session,
        )
        lab.read_notes = read_notes
        return lab

    @classmethod
    def open(cls, edges, labels, path, *, seed=None, budget=None, b=B, prior="auto"):
        """Resume the labelling at ``path`` if the file exists, else start one from the CSV files.

        Returns ``(labelling, resumed)``. A resumed labelling keeps its saved ``prior``.
        """
        if not Path(path).exists():
            return cls.from_csv(
                edges, labels, path, seed=0 if seed is None else seed, budget=budget, b=b, prior=prior
            ), False
        session_file.read(path)  # a damaged file is refused (checksum) before the graph is read
        g, read_notes = _read(edges, labels)
        lab = cls.resume(path, g, budget=budget)
        lab.sources = tuple(str(Path(p).resolve()) for p in (edges, labels))
        lab.read_notes = read_notes
        return lab, True

    def _restore(self):
        """Answers from the session's notes: the told label of each round the person answered."""
        notes = self.session.notes[_NOTES_KEY]
        labels = self.session.trace.labels
        order = self.session.order
        for t in notes["answered_rounds"]:
            node, code = int(order[t]), int(labels[t])
            self.answers[node] = code
            self.known[node] = code
            self._answered_rounds.append(t)

    # ------------------------------------------------------------------ state
    @property
    def n_answers(self) -> int:
        return len(self.answers)

    @property
    def n_skipped(self) -> int:
        return len(self.session.skipped)

    @property
    def skipped_nodes(self) -> list:
        """The nodes the person skipped (did not know), in order."""
        return [int(self.session.order[t]) for t in self.session.skipped]

    @property
    def budget_left(self):
        return None if self.budget is None else max(self.budget - self.n_answers, 0)

    @property
    def question(self):
        """The pending :class:`Question`, or None (call :meth:`next_question`)."""
        return self._question

    @property
    def done(self) -> bool:
        """True once every round is played, or the budget is spent and a person would be asked."""
        return self.session.done or (
            self._question is None and self._needs_person() and self.budget_left == 0
        )

    def progress(self) -> str:
        """One line: answers, skips, rounds played, labels known."""
        s = self.session
        budget = "" if self.budget is None else f" of {self.budget}"
        return (
            f"{self.n_answers} answers{budget}, {self.n_skipped} skipped, round {s.n_done} of {s.n_rounds} played, "
            f"{int(np.count_nonzero(self.known != UNLABELLED))} of {self.graph.n_nodes} labels known"
        )

    def labels(self):
        """Known label codes after the answers (``-1``: still unknown)."""
        return self.known.copy()

    # ------------------------------------------------------------------ rounds
    def _needs_person(self):
        """Whether the pending round (if any) asks for a label no one knows."""
        q = self.session.question
        return q is not None and q[2] and self.known[q[0]] == UNLABELLED

    def next_question(self):
        """Play the rounds that need no person; return the first :class:`Question` that does, or None.

        None when the pass is over or the budget is spent. Asking again before
        an answer returns the same question.
        """
        if self._question is not None:
            return self._question
        s = self.session
        while not s.done:
            node, prediction, wants = s.ask()
            if not wants:
                s.tell(None)
            elif self.known[node] != UNLABELLED:
                s.tell(int(self.known[node]))
            elif self.budget_left == 0:
                return None
            else:
                self._question = self._make_question(node, prediction)
                return self._question
        return None

    def _make_question(self, node, prediction):
        g = self.graph
        S = g.adjacency
        lo, hi = S.indptr[node], S.indptr[node + 1]
        nbrs, w = S.indices[lo:hi], S.data[lo:hi]
        top = np.lexsort((nbrs, self.known[nbrs] == UNLABELLED, -w))[:N_NEIGHBOURS]  # labelled first on ties
        names = g.node_names
        shown = [(_plain(names[nbrs[i]]), self.class_name(self.known[nbrs[i]]), float(w[i])) for i in top]
        prob = self.session.question_info.get("prob")
        predicted, how = self._predict(node, prediction)
        return Question(
            node=int(node),
            name=_plain(names[node]),
            neighbours=shown,
            n_neighbours=int(hi - lo),
            prediction=g.class_names[predicted],
            probability=None if prob is None else float(prob),
            round=self.session.n_done + 1,
            n_rounds=self.session.n_rounds,
            predicted_by=how,
            learner_prediction=g.class_names[prediction],
        )

    def _predict(self, node, learner_prediction):
        """``(class code, how)``: the harmonic prediction from the labels known now, under :attr:`prior`.

        The learner's own class when no label is known yet (nothing to propagate).
        """
        known = self.known != UNLABELLED
        if not known.any():
            return int(learner_prediction), "the learner's guess: no label is known yet"
        F = partial_labels.harmonic_scores(self.graph, self.known, self.prior)
        p = partial_labels.harmonic_cmn(self.prior)
        if not partial_labels.eligible(p, self.graph, known)[0]:
            p = partial_labels.harmonic_cmn("none")  # CMN on one unlabelled node would predict the prior
        how = f"{p.method}, {p.setting}, from {int(known.sum())} known labels"
        return int(np.argmax(F[node])), how

    def class_name(self, code):
        """The label string of a code, None for ``-1``."""
        return None if code == UNLABELLED else self.graph.class_names[int(code)]

    def class_code(self, label) -> int:
        """The code of a class given by its name (exact, else case-insensitive) or as a code int."""
        names = self.graph.class_names
        if isinstance(label, (int, np.integer)) and not isinstance(label, bool):
            if 0 <= label < len(names):
                return int(label)
            raise ValueError(f"class index {label} is not in 0..{len(names) - 1}")
        text = str(label).strip()
        if text in names:
            return names.index(text)
        folded = [i for i, c in enumerate(names) if c.casefold() == text.casefold()]
        if len(folded) == 1:
            return folded[0]
        raise ValueError(f"{text!r} is not a class; the classes are {', '.join(names)}")

    def _pending(self, what):
        if self._question is None:
            raise RuntimeError(f"{what}: no question is pending; call next_question() first")
        return self._question

    def answer(self, label):
        """Answer the pending question with a class (its name, or its code as an int)."""
        q = self._pending("answer()")
        code = self.class_code(label)
        t = self.session.n_done
        self.session.tell(code)
        self.answers[q.node] = code
        self.known[q.node] = code
        self._answered_rounds.append(t)
        self._question = None

    def skip(self):
        """Close the pending question without a label (the person does not know it)."""
        self._pending("skip()")
        self.session.skip()
        self._question = None

    def answer_from(self, answers, *, save=True, **csv_options):
        """Answer every question from ``answers`` (``{node name: class name}`` or a ``node,label`` CSV).

        A node that ``answers`` does not label is skipped. For notebooks run
        headless and for tests: the same calls as a person answering. Saves at
        the end when the labelling has a path. Returns the number of answers given.
        A CSV is read as a labels file is (``csv_options``: ``node``, ``label``,
        ``header``, ``sep`` of :func:`graphsel_lib.readers.read_label_csv`).
        """
        lookup = _answers_lookup(answers, csv_options)
        given = 0
        while (q := self.next_question()) is not None:
            label = lookup.get(str(q.name))
            if label is None:
                self.skip()
            else:
                self.answer(label)
                given += 1
        if save and self.path is not None:
            self.save()
        return given

    # ------------------------------------------------------------------ files
    def answer_rows(self):
        """``[(node name, label string)]`` of the person's answers, in the order given."""
        names = self.graph.node_names
        return [(_plain(names[node]), self.graph.class_names[code]) for node, code in self.answers.items()]

    def save(self, path=None) -> Path:
        """Write the session file (atomically) and the answers CSV beside it; returns the session path."""
        path = Path(path) if path is not None else self.path
        if path is None:
            raise ValueError(
                "save(): this labelling has no file; pass save(path) or Labelling(..., path=...)"
            )
        self.session.notes[_NOTES_KEY] = {
            "version": _NOTES_VERSION,
            "fingerprint": fingerprint(self.graph),
            "answered_rounds": [int(t) for t in self._answered_rounds],
            "budget": self.budget,
            "sources": None if self.sources is None else list(self.sources),
            "prior": self.prior,
        }
        self.session.save(path)
        with atomic_write(answers_path(path), newline="", encoding="utf-8") as fh:
            out = csv.writer(fh, lineterminator="\n")
            out.writerow(["node", "label"])
            out.writerows(self.answer_rows())
        self.path = path
        return path

    def __repr__(self):
        return f"Labelling({self.graph.name!r}: {self.progress()})"

    def panel(self):
        """An ipywidgets :class:`LabellingPanel` on this labelling."""
        return LabellingPanel(self)


def _json_prior(prior):
    """A prior as JSON can hold it in the session's notes (an array as a list of floats)."""
    if isinstance(prior, (str, dict)):
        return {str(k): float(v) for k, v in prior.items()} if isinstance(prior, dict) else prior
    return [float(v) for v in np.asarray(prior, dtype=float).ravel()]


def _plain(v):
    """A numpy scalar as the Python value (names print as the user wrote them)."""
    return v.item() if hasattr(v, "item") else v


def _check_budget(budget):
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 0:
        raise ValueError(f"budget must be a number of answers >= 0, got {budget!r}")
    return int(budget)


def _answers_lookup(answers, csv_options):
    """``{str(node name): class name}`` from a mapping, or from a ``node,label`` CSV.

    The CSV is read as :func:`graphsel_lib.readers.read_label_csv` reads a labels file (UTF-8, a header
    row; an empty file is an error). A missing label (empty, or a marker of
    :data:`graphsel_lib.readers.MISSING_LABELS` such as ``NaN`` or ``-1``, as in the labels file) is no
    answer: that node is skipped.
    """
    if isinstance(answers, (str, Path)):
        nodes, labels, _ = read_label_csv(answers, what="answers file", **csv_options)
        pairs = zip(nodes.tolist(), labels.tolist(), strict=True)
    else:
        if csv_options:
            raise TypeError(f"answer_from: {sorted(csv_options)} apply to a CSV file, not to a mapping")
        pairs = [(str(_plain(k)), v) for k, v in dict(answers).items()]
    return {k: v.strip() if isinstance(v, str) else v for k, v in pairs if not is_missing_label(v)}


# ---------------------------------------------------------------------------- ipywidgets panel
class LabellingPanel:
    """Buttons in Jupyter: the node asked, its neighbours, the prediction; one button per class, skip, save.

    ``LabellingPanel(labelling)`` or ``LabellingPanel("session.npz")`` (resumes
    the saved labelling). Each answer is saved at once when the labelling has
    a path. Headless (:func:`headless`: ``$GRAPHSEL_HEADLESS`` set, ipywidgets
    missing, or a notebook executed by papermill or ``jupyter nbconvert
    --execute``, where no one can click) the panel prints the pending question
    as text when displayed and never waits: answer from a mapping or file
    with :meth:`answer_from`. ipywidgets is imported here only (without it,
    the panel has no buttons and shows text).
    """

    def __init__(self, labelling, *, autosave=True):
        self.labelling = labelling if isinstance(labelling, Labelling) else Labelling.resume(labelling)
        self.autosave = autosave
        try:
            import ipywidgets as w
        except ImportError:  # text only: headless() is True without ipywidgets
            self.buttons, self.widget = {}, None
            self.labelling.next_question()
            return
        names = self.labelling.graph.class_names
        self.buttons = {c: w.Button(description=c, tooltip=f"label: {c}") for c in names}
        self.skip_button = w.Button(description="skip", tooltip="I do not know this label", icon="forward")
        self.save_button = w.Button(
            description="save", tooltip="save the session and the answers", icon="save"
        )
        for c, button in self.buttons.items():
            button.on_click(lambda _, c=c: self._act(self.labelling.answer, c))
        self.skip_button.on_click(lambda _: self._act(self.labelling.skip))
        self.save_button.on_click(lambda _: self._save())
        self.title = w.HTML()
        self.card = w.HTML()
        self.status = w.Label()
        self.message = w.HTML()
        self.widget = w.VBox(
            [
                self.title,
                self.card,
                w.HBox(list(self.buttons.values())),
                w.HBox([self.skip_button, self.save_button]),
                self.status,
                self.message,
            ]
        )
        self.labelling.next_question()
        self.refresh()

    @classmethod
    def resume(cls, path, graph=None, known=None, **kwargs):
        """A panel on the labelling saved at ``path`` (see :meth:`Labelling.resume`)."""
        return cls(Labelling.resume(path, graph, known), **kwargs)

    def _act(self, action, *args):
        try:
            action(*args)
            self.labelling.next_question()
            if self.autosave and self.labelling.path is not None:
                self.labelling.save()
            self.message.value = ""
        except (ValueError, RuntimeError, OSError) as err:
            self.message.value = f"<span style='color:#b00'>{html.escape(str(err))}</span>"
        self.refresh()

    def _save(self):
        try:
            path = self.labelling.save()
            self.message.value = f"saved {html.escape(str(path))} and {html.escape(str(answers_path(path)))}"
        except (ValueError, TypeError, OSError) as err:
            self.message.value = f"<span style='color:#b00'>{html.escape(str(err))}</span>"

    def refresh(self):
        """Redraw from the labelling's state (nothing to draw without ipywidgets)."""
        if self.widget is None:
            return
        lab = self.labelling
        q = lab.question
        self.title.value = f"<b>Labelling {html.escape(lab.graph.name)}</b>"
        self.card.value = _question_html(q) if q is not None else _done_html(lab)
        for c, button in self.buttons.items():
            button.disabled = q is None
            button.button_style = "info" if q is not None and c == q.prediction else ""
        self.skip_button.disabled = q is None
        self.status.value = lab.progress()

    def answer_from(self, answers, *, save=True, **csv_options):
        """Answer every question from a mapping or ``node,label`` CSV (skip the rest), then redraw."""
        given = self.labelling.answer_from(answers, save=save, **csv_options)
        self.refresh()
        return given

    def text(self) -> str:
        """The pending question as plain text (what a headless run shows)."""
        q = self.labelling.question
        return (
            (_question_text(q, self.labelling) if q is not None else "done")
            + "\n"
            + self.labelling.progress()
        )

    def _ipython_display_(self):
        if headless() or self.widget is None:
            print(self.text())
        else:
            from IPython.display import display

            display(self.widget)


def headless() -> bool:
    """True when no one can click the panel's buttons: then it prints text.

    :func:`graphsel_lib.course.display.is_headless` (``$GRAPHSEL_HEADLESS`` set,
    or ipywidgets missing), or a notebook executed from start to end by
    papermill or ``jupyter nbconvert --execute`` (``nbclient``): the kernel's
    requests then do not allow standard input, which a person at JupyterLab,
    VS Code or a console always has. Voilà runs notebooks the same way but
    shows their widgets: it is not headless.
    """
    try:
        from .course.display import is_headless
    except ImportError:  # pragma: no cover - the course package ships with the library
        from .collection.explore import is_headless
    if is_headless():
        return True
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - no IPython, no notebook
        return False
    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None or os.environ.get("SERVER_SOFTWARE", "").startswith("voila"):
        return False
    return getattr(kernel, "_allow_stdin", True) is False


def _question_html(q):
    rows = "".join(
        f"<tr><td>{html.escape(str(name))}</td><td>{weight:g}</td><td>{html.escape(label or '?')}</td></tr>"
        for name, label, weight in q.neighbours
    )
    prob = "" if q.probability is None else f"; asked with probability {q.probability:.2f}"
    return (
        f"<div>Round {q.round} of {q.n_rounds}: what is node <b>{html.escape(str(q.name))}</b>?</div>"
        f"<div>Predicted: <b>{html.escape(q.prediction)}</b> ({html.escape(q.predicted_by)}){prob}.</div>"
        f"<div>Neighbours ({len(q.neighbours)} of {q.n_neighbours}, heaviest first):</div>"
        f"<table><tr><th>node</th><th>weight</th><th>label</th></tr>{rows}</table>"
    )


def _done_html(lab):
    why = "every round is played" if lab.session.done else "the budget of answers is spent"
    return f"<div><b>Done</b>: {why}. Answers: {html.escape(str(answers_path(lab.path)) if lab.path else '(not saved)')}</div>"


def _question_text(q, lab):
    prob = "" if q.probability is None else f"; asked with probability {q.probability:.2f}"
    lines = [
        f"round {q.round} of {q.n_rounds}: node {q.name!s}",
        f"  predicted: {q.prediction} ({q.predicted_by}){prob}",
        f"  neighbours ({len(q.neighbours)} of {q.n_neighbours}, heaviest first):",
    ]
    width = max((len(str(name)) for name, _, _ in q.neighbours), default=4)
    lines += [
        f"    {name!s:<{width}}  weight {weight:<6g} {label or '?'}" for name, label, weight in q.neighbours
    ]
    lines.append("  classes: " + "  ".join(f"#{i} {c}" for i, c in enumerate(lab.graph.class_names, 1)))
    return "\n".join(lines)


# ---------------------------------------------------------------------------- terminal
_PROMPT = "label (a class name, or #n for the n-th class listed; :s = skip, :q = save and quit) > "
_COMMANDS = {":s": "skip", ":skip": "skip", ":q": "quit", ":quit": "quit"}
_HELP = (
    "answer with a class name as written in the labels file (also a class named 1, s or q), or #n for the n-th "
    "class listed; :s skips a node you do not know, :q saves and quits (a class whose name starts with ':' or "
    "'#' is typed as its #n)"
)


class _Exit(Exception):
    """A clean stop of the terminal front end with an exit code."""


def _parse(lab, line):
    """``("answer", code)``, ``("skip",)``, ``("quit",)`` from a line; ValueError with what to type.

    A command starts with ``:`` (``:s``, ``:q``), a menu number with ``#`` (``#2``); anything else is a class
    name (exact, else ignoring case), so a class named ``1``, ``s`` or ``q`` is answered by typing its name.
    """
    text = line.strip()
    names = lab.graph.class_names
    k = len(names)
    if text.startswith(":") and text.casefold() in _COMMANDS:
        return (_COMMANDS[text.casefold()],)
    if text.startswith("#") and text[1:].isdigit():
        if 1 <= int(text[1:]) <= k:
            return ("answer", int(text[1:]) - 1)
        raise ValueError(f"{text!r}: the classes are numbered #1..#{k}")
    if text and not text.startswith((":", "#")):
        try:
            return ("answer", lab.class_code(text))
        except ValueError:
            pass
    hint = ""
    if text.casefold() in ("s", "q", "skip", "quit"):
        hint = (
            f" (to {'skip' if text.casefold().startswith('s') else 'save and quit'}, type :{text[0].lower()})"
        )
    elif text.isdigit() and 1 <= int(text) <= k:
        hint = f" (for the class listed as #{text}, {names[int(text) - 1]!r}, type #{text})"
    shown = ", ".join(names[:8]) + (", ..." if k > 8 else "")
    raise ValueError(
        f"{text!r} is not a class{hint}; type a class name ({shown}), #1..#{k} for one of the list, "
        ":s to skip or :q to save and quit"
    )


def _say(*lines):
    print(*lines, sep="\n", flush=True)


def _check_session_path(session):
    """_Exit(2) unless ``--session`` can be written: its folder exists, is a folder and is writable.

    Checked before any question, so that no answer is given and then lost to a path that cannot be saved.
    """
    path = Path(session)
    if path.is_dir():
        _fail(f"--session {session} is a folder; give a file name, e.g. {path / 'session.npz'}")
    folder = path.parent
    for above in [folder, *folder.parents]:  # the first part of the path that exists
        if above.exists():
            break
    if not above.is_dir():
        _fail(
            f"--session {session}: {str(above)!r} is a file, not a folder, so the session cannot be saved there; "
            "give a path in a folder, e.g. session.npz"
        )
    if above != folder:
        _fail(
            f"--session {session}: the folder {str(folder)!r} does not exist; create it or give another path"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        _fail(
            f"--session {session}: the folder {str(folder)!r} is not writable; give a path in a writable folder"
        )


def _start(args):
    """Open (resume or start) the labelling, or _Exit(2) with a one-line message and the fix."""
    _check_session_path(args.session)
    if Path(args.session).exists():
        try:
            session_file.read(args.session)
        except (ValueError, OSError) as err:
            _fail(f"{err}; delete it to start a new session there, or give another --session path")
    try:
        lab, resumed = Labelling.open(
            args.edges,
            args.labels,
            args.session,
            seed=args.seed,
            budget=args.budget,
            prior=args.prior or "auto",
        )
    except FileNotFoundError as err:
        _fail(f"{err}; check the path given to --edges or --labels")
    except (ValueError, TypeError, RuntimeError, OSError) as err:
        text = str(err)
        named = any(str(f) in text for f in (args.edges, args.labels, args.session))
        _fail(text if named else f"{text} (reading --edges {args.edges} and --labels {args.labels})")
    for note in getattr(lab, "read_notes", []):
        _say(f"note: {note}")
    s = lab.session
    if resumed:
        if args.seed is not None and args.seed != s.seed:
            _say(f"note: --seed {args.seed} ignored: the session was started with seed {s.seed}")
        if args.prior is not None and args.prior != lab.prior:
            _say(f"note: --prior {args.prior} ignored: the session was started with prior {lab.prior}")
        _say(
            f"resumed {args.session}: {s.n_done} of {s.n_rounds} rounds, {lab.n_answers} answers and "
            f"{lab.n_skipped} skipped restored"
        )
    else:
        unknown = int(np.count_nonzero(lab.known == UNLABELLED))
        _say(
            f"new session {args.session}: {lab.graph.n_nodes} nodes, {lab.graph.n_classes} classes, "
            f"{unknown} nodes without a label; predictions under the prior {lab.prior!r}"
            + (" (chosen by cross-validation)" if (args.prior or "auto") == "auto" else "")
        )
    _say(_HELP)
    return lab


def _fail(message):
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr, flush=True)
    raise _Exit(2)


def _save(lab):
    try:
        return lab.save()
    except OSError as err:
        _fail(f"cannot save the session: {err}; free space or give a writable --session path")


def _loop(lab, stdin):
    """Ask until done; return "done", "quit" or "eof"."""
    while (q := lab.next_question()) is not None:
        _say("", _question_text(q, lab))
        while True:
            print(_PROMPT, end="", flush=True)
            line = stdin.readline()
            if line == "":
                print(flush=True)
                return "eof"
            try:
                act = _parse(lab, line)
            except ValueError as err:
                _say(str(err))
                continue
            break
        if act[0] == "quit":
            return "quit"
        lab.skip() if act[0] == "skip" else lab.answer(act[1])
        lab.next_question()  # play on to the next question, so that a kill loses at most that one
        _save(lab)
    return "done"


def main(argv=None, stdin=None) -> int:
    """The terminal front end; returns the exit code (0, or 2 on an error)."""
    parser = argparse.ArgumentParser(
        prog="python -m graphsel_lib.label",
        description=(
            "Label the nodes of a graph by hand, where the learner is unsure. Resumes --session if it exists. "
            "Answer each question with a class name (as in the labels file), or #n for the n-th class listed; "
            ":s skips a node, :q saves and quits."
        ),
    )
    parser.add_argument("--edges", required=True, help="edges CSV: source,target[,weight] with a header row")
    parser.add_argument(
        "--labels", required=True, help="labels CSV: node,label; a missing or empty label is unknown"
    )
    parser.add_argument(
        "--session", required=True, help="session file (resumed if it exists); answers go beside it"
    )
    parser.add_argument("--budget", type=int, default=None, help="ask for at most this many answers in all")
    parser.add_argument(
        "--seed", type=int, default=None, help="order of the nodes of a new session (default 0)"
    )
    parser.add_argument(
        "--prior",
        choices=["auto", *partial_labels.AUTO_PRIORS],
        default=None,
        help="class prior of the prediction shown with a question, for a new session (default auto: chosen by "
        "cross-validation on the labels, as notebook 50 does)",
    )
    args = parser.parse_args(argv)
    stdin = sys.stdin if stdin is None else stdin
    try:
        if args.budget is not None and args.budget < 0:
            _fail(f"--budget must be >= 0, got {args.budget}")
        if args.seed is not None and args.seed < 0:
            _fail(f"--seed must be >= 0, got {args.seed}")
        lab = _start(args)
        how = _loop(lab, stdin)
        path = _save(lab)
    except _Exit as stop:
        return stop.args[0]
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    if how == "done":
        why = "every round is played" if lab.session.done else f"the budget of {lab.budget} answers is spent"
        _say("", f"done: {why}.")
    else:
        why = "end of input" if how == "eof" else "quit"
        _say("", f"saved ({why}); run the same command again to continue.")
    _say(
        lab.progress(),
        f"session: {path}",
        f"answers: {answers_path(path)} ({lab.n_answers} rows, node,label)",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
