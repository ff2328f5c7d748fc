"""Ask/tell labelling sessions: the online protocol of :func:`run`, one round at a time.

:func:`run` reads the true labels from an array ``y``. A :class:`Session`
plays the same rounds but gets each label from whoever answers the question,
e.g. a person labelling nodes one by one::

    s = Session(learner, M, seed=0, n_classes=K)
    while not s.done:
        node, prediction, wants = s.ask()  # node of this round, the learner's label, query?
        s.tell(label_of(node) if wants else None)  # or s.skip(): asked, but no one knows the label
    s.trace  # a Trace, as run() returns

``ask`` does the ``predict`` and ``wants_label`` of the round, ``tell`` the
``update`` (only when the label was asked for). Seeds, order and calls are
those of :func:`run`, so answering with ``y[node]`` gives run's trace: the
same predictions, queries, coins and mistakes. :meth:`~Session.skip` closes a
round whose label was asked for without one (the person does not know it):
the learner is not updated and the round is kept in ``skipped``. Where ``run`` plays the whole
pass compiled (CMOG, MSG, BBQ, BBQ_ε, DGS, the relaxation learner's push
kernel) and a session the learner's Python rounds, scores and other float
records agree to the last bits only (sums in another order); the stacked
one-vs-rest learners share their compiled rounds with the session, bit for bit.
``save``/``load`` stop and resume a session with nothing lost; a saved session
is data (arrays, JSON, a checksum), never code (:mod:`.session_file`).
"""

from __future__ import annotations

import copy
import json
import os
import time
import weakref
from contextlib import nullcontext, suppress
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_integer
from . import session_file
from .protocol import (
    SESSION_OF,
    Info,
    Learner,
    Trace,
    _check_labels,
    _check_matrix,
    _check_order,
    _check_rounds,
    _make_trace,
    _start,
    _unknown_record,
    check_learner,
    nested_learners,
)

try:
    from threadpoolctl import ThreadpoolController
except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
    ThreadpoolController = None

__all__ = ["UNKNOWN", "Session"]

UNKNOWN = -2
"""``trace.labels`` of a round whose label was not told (never a label: those are ±1 or 0..K-1)."""

_VERSION = 2  # 2: skipped rounds and notes

_NOT_KNOWN = "tell the node's class (0..K-1); when nobody knows it, end the round with skip()"


class Session:
    """An online pass driven from outside: :meth:`ask` for the node of a round, :meth:`tell` its label.

    Plays the rounds of :func:`~graphsel_lib.online.run` (same order, same
    generator for the learner, same calls): ``ask`` shows round t's node
    ``m_t`` to the learner (``predict``, then ``wants_label``); ``tell`` gives
    the label when the learner asked for it (``update``), or None when it did
    not. Answering ``y[node]`` reproduces ``run(learner, M, y, order, seed)``.

    Parameters
    ----------
    learner : online learner
        Reset here and owned by the session from then on: until the session is
        done, :func:`run` or another session refuses it (resetting it would
        change this session's predictions).
    M : array of shape (d, n)
        Column ``i`` is the feature vector of node ``i``.
    order : array of int, shape (n,), optional
        The node of each round; default ``np.random.default_rng(seed).permutation(n)``.
    seed : int, default 0
        As for :func:`run`: the default order and the learner's generator.
    n_classes : int, optional
        K: required for a multiclass learner (labels 0..K-1), as the labels
        are not known in advance. A binary learner takes labels -1/+1 (K = 2).
    rounds : int, optional
        Stop after this many rounds (1..n; default all n).
    record : tuple of str
        ``info`` keys stored per round in ``trace.records`` (as :func:`run`).
    blas_threads : int or None, default 1
        Limit on BLAS threads inside the learner's calls; None leaves it alone.

    Attributes
    ----------
    learner, order, seed, n_classes, n_rounds
        As given (``order`` drawn if None; ``n_rounds`` the number of rounds).
    n_done : int
        Rounds finished (told or skipped).
    done : bool
        True once ``n_done == n_rounds``.
    question : tuple or None
        ``(node, prediction, wants)`` asked and not yet answered.
    question_info : dict or None
        A copy of the learner's ``info`` for the pending question (e.g.
        :class:`~graphsel_lib.online.MarginSampling`'s ``"prob"``).
    skipped : list of int
        The rounds (0-based) closed by :meth:`skip`, in order.
    notes : dict
        Free JSON data saved and loaded with the session (numbers, strings,
        lists, dicts); the session never reads it. A front end keeps there
        what it needs to resume (e.g. :mod:`graphsel_lib.label`).

    Notes
    -----
    ``trace.labels`` holds :data:`UNKNOWN` (-2) on rounds whose label was
    not told, and ``trace.mistakes`` is True only on told rounds where the
    prediction was wrong: the told rounds are exactly ``trace.queried`` (a
    skipped round, asked but not told, has ``queried`` False). So
    ``trace.n_mistakes`` counts mistakes among queried rounds only, and
    ``trace.error_rate`` (over all rounds) is a lower bound on the true one;
    the one-vs-rest ``binary_*`` summaries, which read ``labels``, are
    meaningful only when every round was told.
    ``trace.elapsed`` is the cumulative time spent in the learner's calls
    (not the wait for the labels), carried over by :meth:`save`/:meth:`load`.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import CMOG
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])
    >>> session = Session(CMOG(), M, order=range(6), n_classes=2)
    >>> session.ask()  # (node, predicted class, wants its label)
    (0, 0, True)
    >>> session.tell(0)
    >>> session.ask(), session.n_done
    ((1, 0, True), 1)
    """

    def __init__(
        self,
        learner: Learner,
        M: ArrayLike,
        order: ArrayLike | None = None,
        seed: int | None = 0,
        *,
        n_classes: int | None = None,
        rounds: int | None = None,
        record: tuple[str, ...] | list[str] = (),
        blas_threads: int | None = 1,
    ) -> None:
        check_learner(learner)
        multiclass = bool(learner.multiclass)
        features = _check_matrix(M)
        n = features.shape[1]
        if multiclass:
            if n_classes is None:
                raise ValueError(
                    f"{type(learner).__name__} is multiclass: pass n_classes=K (labels are 0..K-1), "
                    "the labels are not known in advance"
                )
            K = check_integer(n_classes, "n_classes")
            if K < 2:
                raise ValueError(f"a multiclass learner needs at least 2 classes, got n_classes = {K}")
        else:
            if n_classes is not None and check_integer(n_classes, "n_classes") != 2:
                raise ValueError(
                    f"a binary learner has labels -1/+1 (2 classes), got n_classes = {n_classes}"
                )
            K = 2
        T = _check_rounds(rounds, n)
        self._setup(learner, features, _check_order(order, n, seed), seed, K, T, tuple(record), blas_threads)

    def _setup(self, learner, M, order, seed, K, T, record, blas_threads):
        """Reset ``learner`` through protocol's set-up, empty the per-round lists."""
        self.learner, self.M, self.order, self.seed = learner, M, order, seed
        self.n_classes, self.n_rounds, self.record, self.blas_threads = K, T, record, blas_threads
        self._multiclass = bool(learner.multiclass)
        use_controller = ThreadpoolController is not None and blas_threads
        self._controller = ThreadpoolController() if use_controller else None
        with self._limit():
            self._X, self._keys, self._rng = _start(learner, M, K, seed, record, claimant=self)
        for part in nested_learners(learner):  # the learner and those inside it (a wrapper's learner)
            with suppress(TypeError):  # a learner that cannot be weakly referenced is not tracked
                SESSION_OF[part] = weakref.ref(self)  # run() and other sessions refuse it while live
        self._labels, self._predictions, self._scores, self._queried, self._elapsed = [], [], [], [], []
        self._recorded = {k: [] for k in self._keys}
        self._skipped = []  # rounds closed by skip()
        if not hasattr(self, "notes"):
            self.notes = {}
        self._busy = 0.0  # seconds spent in the learner's calls
        self._pending = None  # (node, int prediction, wants, info, prediction) between ask and tell

    def _limit(self):
        if self._controller is None:
            return nullcontext()
        return self._controller.limit(limits=self.blas_threads)

    # ------------------------------------------------------------------ state
    @property
    def n_done(self) -> int:
        return len(self._predictions)

    @property
    def done(self) -> bool:
        return self.n_done == self.n_rounds

    @property
    def question(self) -> tuple[int, int, bool] | None:
        return None if self._pending is None else self._pending[:3]

    @property
    def question_info(self) -> Info | None:
        return None if self._pending is None else dict(self._pending[3])

    @property
    def skipped(self) -> list[int]:
        return list(self._skipped)

    def _refuse_if_done(self, what):
        if self.done:
            raise RuntimeError(
                f"{what}: the session is done (all {self.n_rounds} rounds played); read .trace"
            )

    # ------------------------------------------------------------------ one round
    def ask(self) -> tuple[int, int, bool]:
        """Show the next node to the learner: its ``predict`` and ``wants_label``.

        Returns
        -------
        node : int
            The node of this round (``order[n_done]``).
        prediction : int
            The learner's label (-1/+1, or 0..K-1).
        wants : bool
            Whether the learner queries the label: then :meth:`tell` it,
            else tell None.

        Asking again before :meth:`tell` returns the same question (the
        learner is not called twice). RuntimeError once the session is done.
        """
        self._refuse_if_done("ask()")
        if self._pending is None:
            t = self.n_done
            node = int(self.order[t])
            x = self._X[node]
            clock = time.perf_counter
            with self._limit():
                t0 = clock()
                label, info = self.learner.predict(x)
                wants = bool(self.learner.wants_label(x, t + 1, info))
                self._busy += clock() - t0
            missing = [k for k in self._keys if k not in info]
            if missing:  # refused before the round is open: nothing changes
                raise _unknown_record(self.learner, missing[0], info)
            self._pending = (node, int(label), wants, info, label)
        return self._pending[:3]

    def tell(self, label: int | None) -> None:
        """Answer the pending question: the node's label if the learner asked for it, else None.

        The learner's ``update`` runs only on a told label. Nothing changes when
        the answer is refused, so it can be given again.

        Raises
        ------
        RuntimeError
            Before :meth:`ask`, or once the session is done.
        ValueError
            A label when the learner did not ask for one, None when it did, a
            label not in -1/+1 (binary) or 0..K-1 (multiclass).
        TypeError
            A label that is not a number.
        """
        self._refuse_if_done("tell()")
        if self._pending is None:
            raise RuntimeError(
                f"tell() before ask(): call ask() for the node of round {self.n_done + 1} first"
            )
        node, _, wants, info, prediction = self._pending  # the label as the learner gave it, as in run
        t = self.n_done
        if not wants:
            if label is not None:
                raise ValueError(
                    f"the learner did not ask for the label of node {node} (round {t + 1}): tell(None)"
                )
            y = UNKNOWN
        else:
            if label is None:
                raise ValueError(
                    f"the learner asked for the label of node {node} (round {t + 1}): tell it, not None"
                )
            y = self._check_label(label, node, t)
            clock = time.perf_counter
            with self._limit():
                t0 = clock()
                self.learner.update(self._X[node], y, prediction, info)
                self._busy += clock() - t0
        self._close(y)

    def skip(self) -> None:
        """Close the pending round without its label: the learner asked for it, no one knows it.

        The learner is not updated (as if it had not asked); the trace records
        the round as not told (label :data:`UNKNOWN`, ``queried`` False) and
        :attr:`skipped` keeps its index. Nothing changes when refused.

        Raises
        ------
        RuntimeError
            Before :meth:`ask`, or once the session is done.
        ValueError
            If the learner did not ask for the label: then ``tell(None)``.
        """
        self._refuse_if_done("skip()")
        if self._pending is None:
            raise RuntimeError(
                f"skip() before ask(): call ask() for the node of round {self.n_done + 1} first"
            )
        node, _, wants = self._pending[:3]
        if not wants:
            raise ValueError(
                f"skip(): the learner did not ask for the label of node {node} (round {self.n_done + 1}); "
                "close the round with tell(None)"
            )
        self._skipped.append(self.n_done)
        self._close(UNKNOWN)

    def _close(self, y):
        """Record the pending round with label ``y`` (UNKNOWN when not told) and clear it."""
        _, _, wants, info, prediction = self._pending
        self._pending = None
        self._labels.append(y)
        self._predictions.append(prediction)
        self._queried.append(wants)
        self._scores.append(info["score"])
        self._elapsed.append(self._busy)
        for k in self._keys:
            self._recorded[k].append(info[k])

    def _check_label(self, label, node, t):
        a = np.asarray(label)
        try:
            if a.ndim != 0:
                raise ValueError(f"one label expected, got shape {a.shape}")
            y, _ = _check_labels(
                a.reshape(1), self._multiclass, self.n_classes, name="the label", unlabelled_hint=_NOT_KNOWN
            )
        except (TypeError, ValueError) as err:
            raise type(err)(f"tell({label!r}) for node {node} (round {t + 1}): {err}") from None
        return int(y[0])

    # ------------------------------------------------------------------ results
    @property
    def trace(self) -> Trace:
        """The :class:`~graphsel_lib.online.Trace` of the rounds done (see Notes for untold labels)."""
        t = self.n_done
        labels = np.asarray(self._labels, dtype=np.int64)
        predictions = np.asarray(self._predictions, dtype=np.int64)
        queried = np.asarray(self._queried, dtype=bool)
        queried[self._skipped] = False  # asked, not told
        scores = self._scores if t else np.zeros((0, self.n_classes) if self._multiclass else 0)
        mistakes = (predictions != labels) & queried
        return _make_trace(
            self.learner,
            self.order[:t].copy(),
            labels,
            predictions,
            scores,
            mistakes,
            queried,
            self._elapsed,
            self._recorded,
        )

    def __repr__(self):
        if self.done:
            where = "done"
        elif self._pending is not None:
            node, _, wants = self.question
            where = f"asked node {node}, {'label wanted' if wants else 'no label wanted'}"
        else:
            where = "next: ask()"
        n_told = sum(self._queried) - len(self._skipped)
        skipped = f", {len(self._skipped)} skipped" if self._skipped else ""
        return (
            f"Session({self.learner!r}, {self.n_done}/{self.n_rounds} rounds, {n_told} labels told{skipped}, "
            f"{where})"
        )

    # ------------------------------------------------------------------ stop and resume
    def __getstate__(self):
        """What :meth:`save` stores: the set-up, the answers given and the trace so far."""
        return {
            "version": _VERSION,
            "learner": self.learner,
            "M": self.M,
            "order": self.order,
            "seed": self.seed,
            "n_classes": self.n_classes,
            "n_rounds": self.n_rounds,
            "record": self.record,
            "blas_threads": self.blas_threads,
            "labels": list(self._labels),
            "predictions": list(self._predictions),
            "queried": list(self._queried),
            "scores": list(self._scores),
            "elapsed": list(self._elapsed),
            "recorded": {k: list(v) for k, v in self._recorded.items()},
            "busy": self._busy,
            "question": self.question,
            "rng_state": self._rng.bit_generator.state,
            "skipped": list(self._skipped),
            "notes": copy.deepcopy(self.notes),
        }

    def __copy__(self):
        """A deep copy: two sessions cannot share one learner."""
        return copy.deepcopy(self)

    def __setstate__(self, state):
        """Reset the learner and replay the answers given: the learner's state is rebuilt, not unpickled.

        (A pickled learner may lose arrays shared between its parts, e.g. the
        rows of a stacked one-vs-rest ``W``; replaying rebuilds them.)
        """
        self.notes = copy.deepcopy(state.get("notes", {}))
        self._setup(
            state["learner"],
            state["M"],
            state["order"],
            state["seed"],
            state["n_classes"],
            state["n_rounds"],
            state["record"],
            state["blas_threads"],
        )
        saved = list(zip(state["labels"], state["predictions"], state["queried"], strict=True))
        skipped = set(state.get("skipped", ()))
        with self._limit():
            for t, (y, prediction, wants) in enumerate(saved):
                node, p, w = self.ask()
                if (p, w) != (prediction, wants):
                    raise RuntimeError(
                        f"cannot resume: replaying round {t + 1} (node {node}) gives prediction {p}, "
                        f"query {w}, the saved session has {prediction}, {wants}; the learner is not "
                        "deterministic or its code changed since the save"
                    )
                if t in skipped:
                    if not wants:
                        raise RuntimeError(
                            f"cannot resume: round {t + 1} is saved as skipped but its label was not asked for"
                        )
                    self.skip()
                else:
                    self.tell(y if wants else None)
            if state["question"] is not None and self.ask() != tuple(state["question"]):
                raise RuntimeError(
                    f"cannot resume: the pending question replays as {self.question}, "
                    f"the saved session has {tuple(state['question'])}"
                )
        if self._rng.bit_generator.state != state["rng_state"]:
            raise RuntimeError(
                "cannot resume: the replay did not draw the same random numbers as the saved session"
            )
        # what was observed stays as observed (scores, records, learner time)
        self._scores = list(state["scores"])
        self._elapsed = list(state["elapsed"])
        self._recorded = {k: list(v) for k, v in state["recorded"].items()}
        self._busy = state["busy"]

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the session to ``path`` atomically; resume it with :meth:`load`.

        A session file is data, not code (:mod:`graphsel_lib.online.session_file`):
        the learner as the name of a library class and its parameters, ``M``,
        the order and the trace so far as arrays, the labels told, the
        skipped rounds and :attr:`notes` as JSON, a format version and a checksum. May be called at any time, also between
        :meth:`ask` and :meth:`tell`.

        Returns
        -------
        pathlib.Path

        Raises
        ------
        TypeError
            If the learner is not built from the library's learner classes (e.g.
            ``OneVsRest(lambda: …)``: use a class or ``functools.partial`` instead),
            or if :attr:`notes` holds something JSON cannot store.
        IsADirectoryError
            If ``path`` is a folder.
        """
        arrays: dict[str, np.ndarray] = {}
        spec = session_file.learner_spec(self.learner, arrays)
        meta = {
            "session_version": _VERSION,
            "learner": spec,
            "seed": self.seed,
            "n_classes": self.n_classes,
            "n_rounds": self.n_rounds,
            "record": list(self.record),
            "blas_threads": self.blas_threads,
            "labels": [int(v) for v in self._labels],
            "predictions": [int(v) for v in self._predictions],
            "queried": [bool(v) for v in self._queried],
            "busy": self._busy,
            "question": None if self.question is None else list(self.question),
            "rng_state": self._rng.bit_generator.state,
            "skipped": [int(t) for t in self._skipped],
            "notes": _check_notes(self.notes),
        }
        arrays.update(M=self.M, order=self.order, scores=np.asarray(self._scores, dtype=float),
                      elapsed=np.asarray(self._elapsed, dtype=float))  # fmt: skip
        arrays.update({f"record_{k}": np.asarray(v) for k, v in self._recorded.items()})
        meta["record_keys"] = list(self._recorded)
        return session_file.write(path, meta, arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Session:
        """Resume a session written by :meth:`save`: the same state, the same remaining rounds.

        The file is checked (format version, checksum) and read without running
        any code from it; the learner is rebuilt from its class name and
        parameters and the told labels are replayed through it (checked
        against the saved predictions, queries and generator state).

        Raises
        ------
        ValueError
            If ``path`` is not a session file, a damaged or edited one, or one of
            an older format.
        RuntimeError
            If the replay does not reproduce the saved rounds.
        """
        meta, arrays = session_file.read(path)
        if meta.get("session_version") != _VERSION:
            raise ValueError(
                f"{path}: unsupported Session version {meta.get('session_version')!r} (expected {_VERSION})"
            )
        _check_saved_state(path, meta, arrays)
        M = _check_matrix(arrays["M"])
        state = {
            "learner": session_file.learner_from_spec(meta["learner"], arrays),
            "M": M,
            "order": _check_order(arrays["order"], M.shape[1], meta["seed"]),
            "scores": list(arrays["scores"]),
            "elapsed": list(arrays["elapsed"]),
            "recorded": {k: list(arrays[f"record_{k}"]) for k in meta["record_keys"]},
        }
        state.update({k: meta[k] for k in ("seed", "n_classes", "n_rounds", "blas_threads", "labels",
                                           "predictions", "queried", "busy", "question", "rng_state",
                                           "skipped", "notes")})  # fmt: skip
        state["record"] = tuple(meta["record"])
        session = cls.__new__(cls)
        session.__setstate__(state)
        return session


_META_KEYS = {  # field -> the JSON type(s) it must have
    "learner": dict, "seed": (int, type(None), list), "n_classes": int, "n_rounds": int, "record": list,
    "blas_threads": (int, type(None)), "labels": list, "predictions": list, "queried": list, "busy": (int, float),
    "question": (list, type(None)), "rng_state": dict, "skipped": list, "notes": dict, "record_keys": list,
}  # fmt: skip


def _check_saved_state(path, meta, arrays):
    """ValueError naming the field when a session file (checksum valid) lacks one or holds inconsistent rounds.

    The checksum proves the file is as written, not that it was written complete (another version, or a
    hand-edited file re-signed): a missing field gave a bare KeyError, a short ``labels`` list zip()'s message.
    """
    fix = "it cannot be resumed; start a new session (or restore the file as saved)"
    for key, kind in _META_KEYS.items():
        if key not in meta:
            raise ValueError(f"{path}: the session file lacks the field {key!r}; {fix}")
        if not isinstance(meta[key], kind) or isinstance(meta[key], bool) and kind is int:
            raise ValueError(
                f"{path}: the field {key!r} of the session file is {type(meta[key]).__name__}, not what a "
                f"session stores; {fix}"
            )
    needed = ["M", "order", "scores", "elapsed"] + [f"record_{k}" for k in meta["record_keys"]]
    missing = [k for k in needed if k not in arrays]
    if missing:
        raise ValueError(f"{path}: the session file lacks the array {missing[0]!r}; {fix}")
    t = len(meta["predictions"])
    sizes = {"labels": len(meta["labels"]), "queried": len(meta["queried"]), "scores": len(arrays["scores"]),
             "elapsed": len(arrays["elapsed"])}  # fmt: skip
    sizes.update({f"record_{k}": len(arrays[f"record_{k}"]) for k in meta["record_keys"]})
    for key, size in sizes.items():
        if size != t:
            raise ValueError(
                f"{path}: the session file is inconsistent: {key!r} holds {size} rounds but 'predictions' holds "
                f"{t}; {fix}"
            )
    if not 0 <= t <= meta["n_rounds"]:
        raise ValueError(
            f"{path}: the session file holds {t} rounds played of n_rounds = {meta['n_rounds']}; {fix}"
        )
    if any(not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < t for r in meta["skipped"]):
        raise ValueError(
            f"{path}: the session file's 'skipped' rounds are not rounds played (0..{t - 1}); {fix}"
        )
    if meta["question"] is not None and len(meta["question"]) != 3:
        raise ValueError(
            f"{path}: the session file's pending 'question' is not (node, prediction, wants); {fix}"
        )


def _check_notes(notes):
    """``notes`` if JSON stores it unchanged (a dict with string keys of JSON values), else TypeError."""
    if not isinstance(notes, dict):
        raise TypeError(f"cannot save the session: notes must be a dict, got {type(notes).__name__}")
    try:
        same = json.loads(json.dumps(notes, allow_nan=False)) == notes
    except (TypeError, ValueError) as err:
        raise TypeError(
            f"cannot save the session: notes hold a value JSON cannot store ({err}); keep numbers, strings, "
            "lists and dicts with string keys there"
        ) from None
    if not same:
        raise TypeError(
            "cannot save the session: notes do not survive JSON unchanged (tuples or non-string keys?); "
            "keep numbers, strings, lists and dicts with string keys there"
        )
    return notes
