"""The online protocol: one loop for every online learner of graphsel.

Protocol (gu2013 Sec. 3.3 and 4.1, yang2016 Sec. III–IV): the nodes of a graph
arrive one per round in a random order. In round ``t = 1..T`` the learner sees
the feature vector ``m_t`` of the node (a column of ``M``, e.g.
``spectral_embedding(S, d).M``), predicts a label, may *query* the true label
and, if it did, may update its state. Mistakes are counted on every round,
queried or not.

Learner interface
-----------------
An online learner is any object with one class attribute and four methods;
only :func:`run` and :class:`~graphsel_lib.online.session.Session` call them::

    multiclass: bool
        False: labels are -1/+1 (binary). True: labels are 0..K-1.

    reset(d, n_classes, rng) -> None
        Forget everything: fresh state for d-dimensional inputs and
        ``n_classes`` classes (2 for a binary learner). ``rng`` is a
        ``numpy.random.Generator`` owned by this pass: a randomised learner
        draws from it (unless it was built with its own ``seed``), so that the
        same ``run(..., seed=s)`` gives the same trace.

    predict(x) -> (label, info)
        ``x``: (d,) float64 array, read only (possibly a view of the caller's M).
        ``label``: -1/+1 (binary) or 0..K-1 (multiclass).
        ``info``: a ``dict`` with at least ``"score"`` (float for a binary
        learner, the (K,) score vector for a multiclass one) and whatever the
        learner computed on the way (``"r"``, ``"theta"``, ...). The same
        dict is passed to ``wants_label`` and ``update`` of this round, so
        work done in ``predict`` (e.g. ``A^{-1} m_t``) can be reused there;
        :func:`run` can record any of its keys per round (``record=``).

    wants_label(x, t, info) -> bool
        The query rule, called once per round, ``t`` the 1-based round
        index (gu2013 writes the SSLGC threshold as ``t^{-κ}``). A fully
        supervised learner returns True. A randomised rule draws from the rng
        given to ``reset``. It may add keys to ``info``.

    update(x, y, label, info) -> None
        Called only on queried rounds, with the true label ``y`` and the
        learner's own prediction ``label``. The learner decides what to do:
        a conservative learner changes state only if ``label != y``, an
        aggressive one (yang2016 MSG) may update on a correct prediction too.

Ties: a binary learner predicts ``+1`` when its score is exactly 0
(``sign(0) := +1``); a multiclass learner predicts the smallest index among
the maximal scores (``numpy.argmax``). Every learner of the package follows
these two rules.

Optional members:

    record_keys: tuple of str
        ``info`` keys that :func:`run` always records (``OneVsRest`` records
        its binary predictions and queries this way).
    selective: bool
        True if ``update`` needs the learner's own ``wants_label`` of the round
        (a selective sampler: MSG, BBQ, BBQ_ε, DGS, SSLGC). A query rule
        (``MarginSampling``, ``RandomQueries``) replaces ``wants_label``, so it
        refuses such a learner at construction.
    one_vs_rest() -> multiclass learner or None
        A binary learner may offer a "stacked" multiclass learner that runs K
        class-vs-rest copies of itself at once, equal round by round to K
        separate copies; :class:`~graphsel_lib.online.OneVsRest` uses it.
    compiled_pass(X, order, y, keys, progress) -> (predictions, scores, queried, elapsed, records) or None
        After ``reset``, :func:`run` offers the whole pass to a learner that
        can play it without the Python loop (rows ``X[i] = m_i``, ``order``
        and the labels ``y`` in round order, the ``info`` keys to record,
        and None or a callable to tell the number of rounds just played);
        None means "play it round by round". The compiled learners do this
        (the stacked one-vs-rest forms, CMOG/MSG/BBQ/BBQ_ε/DGS, the
        relaxation learner's push kernel).
    compiled_form() -> CompiledRule or None
        How a learner with compiled rounds reaches them: a
        :class:`CompiledRule`, the loop's ``play`` function and the record of
        the learner's rule and parameters (a ``StackRule`` of ``stacked_loop``,
        a ``MulticlassRule`` of ``multiclass_loop``, the ``PushKernel`` of
        ``relaxation_loop``, the ``WTARule`` of ``wta_loop``; no loop imports a learner), or None (numba
        missing, a subclass with other rules). :class:`CompiledPass` plays
        it: ``compiled_pass`` and ``pass_releases_gil`` from
        ``compiled_form``, ``compiled_state`` and ``take_compiled_state``.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_real_matrix, check_integer

try:  # BLAS threads only slow down the d ≈ 100 operations of one round
    from threadpoolctl import threadpool_limits
except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
    threadpool_limits = None

__all__ = [
    "CompiledPass",
    "CompiledRule",
    "Info",
    "Learner",
    "Seed",
    "Trace",
    "run",
    "check_learner",
    "learner_rng",
]

_METHODS = ("reset", "predict", "wants_label", "update")

#: A seed: an int, a generator (used as is) or None (fresh entropy, or the generator ``run`` hands to ``reset``).
Seed: TypeAlias = int | np.random.Generator | None
#: The per-round ``info`` dict of a learner (module docstring).
Info: TypeAlias = dict[str, Any]


class Learner(Protocol):
    """The online-learner interface of the module docstring, for type checkers."""

    multiclass: bool

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None: ...

    def predict(self, x: np.ndarray) -> tuple[int, Info]: ...

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool: ...

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None: ...


L = TypeVar("L")
PROGRESS_EVERY = 1000  # rounds between two updates of run's progress bar


class CompiledRule(NamedTuple):
    """What ``compiled_form()`` returns: the loop function that plays a pass and the record of the learner's rule.

    ``play(rule, state, rng, X, order, y, keys, progress)`` plays every round
    of ``order``, updates ``state`` in place and returns ``(predictions,
    scores, queried, elapsed, records)``, or None, ``state`` untouched, if it
    cannot play these inputs (``run`` then plays the rounds in Python);
    ``rule`` is the loop's record of the learner's rule and parameters (a
    namedtuple, which numba compiles).
    """

    play: Callable[..., Any]
    rule: tuple


class CompiledPass:
    """Mixin: a learner's whole pass played by the loop of its :meth:`compiled_form`.

    A learner defines ``compiled_form()`` (a :class:`CompiledRule` or None),
    ``compiled_state()`` (the loop's state record, built from its own state)
    and, if the loop updated copies, ``take_compiled_state(state)``; a
    learner with query coins returns their generator from ``compiled_coin()``.
    ``_compiled_keys`` are the ``info`` keys the loop records (``_recorded_keys`` reads them; a learner whose
    keys depend on its form overrides it).
    """

    _compiled_keys: frozenset[str] = frozenset({"score"})

    def _recorded_keys(self, form: CompiledRule) -> frozenset[str]:
        """The ``info`` keys the loop of ``form`` records: ``_compiled_keys``."""
        return self._compiled_keys

    def compiled_form(self) -> CompiledRule | None:
        return None

    def compiled_state(self) -> tuple:
        raise NotImplementedError

    def take_compiled_state(self, state: tuple) -> None:
        """Set the learner's state from the record a pass updated (nothing if it updated the learner's arrays)."""

    def compiled_coin(self) -> Any:
        """What the compiled pass draws query coins from (here: a generator it never draws from)."""
        return np.random.default_rng(0)

    @property
    def pass_releases_gil(self) -> bool:
        """True if ``run`` plays the pass compiled, without the GIL (threads can share a process)."""
        return self.compiled_form() is not None

    def compiled_pass(
        self,
        X: np.ndarray,
        order: np.ndarray,
        y: np.ndarray,
        keys: tuple[str, ...],
        progress: Callable[[int], object] | None = None,
    ) -> tuple | None:
        """Play every round of ``order`` compiled, or None (no compiled form, or a key it does not record).

        ``run`` then plays the rounds in Python. The learner's state ends as
        the per-round methods leave it.
        """
        form = self.compiled_form()
        if form is None or not set(keys) <= self._recorded_keys(form):
            return None
        state = self.compiled_state()
        out = form.play(form.rule, state, self.compiled_coin(), X, order, y, keys, progress)
        if out is not None:
            self.take_compiled_state(state)
        return out


@dataclass(eq=False)
class Trace:
    """What happened in one online pass, per round in round order.

    Attributes
    ----------
    order : ndarray of int, shape (T,)
        ``order[t]`` is the node shown in round ``t + 1``.
    labels : ndarray of int, shape (T,)
        True label of the node of each round.
    predictions : ndarray of int, shape (T,)
        The learner's label.
    scores : ndarray of float, shape (T,) or (T, K)
        ``info["score"]`` of each round.
    mistakes, queried : ndarray of bool, shape (T,)
        ``predictions != labels``; whether the label was revealed.
    elapsed : ndarray of float, shape (T,)
        Cumulative wall time in seconds from the start of the pass to the end
        of each round (``elapsed[-1]`` is the time of the pass). A compiled
        pass reads the clock every 256 rounds and interpolates linearly in
        between (:func:`~graphsel_lib.online._kernels.play_in_chunks`).
    records : dict of str -> ndarray
        Per-round values of the ``info`` keys asked for with ``record=`` (and
        the learner's ``record_keys``), stacked along axis 0.
    learner : str
        ``repr`` of the learner.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import MSG
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])
    >>> trace = run(MSG(h=0.1, seed=0), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.n_mistakes, trace.error_rate, trace.n_queried, trace.query_rate
    (0, 0.0, 3, 0.5)
    >>> trace.scores.shape, trace.elapsed.shape  # a row of class scores and a cumulative time per round
    ((6, 2), (6,))
    """

    order: np.ndarray
    labels: np.ndarray
    predictions: np.ndarray
    scores: np.ndarray
    mistakes: np.ndarray
    queried: np.ndarray
    elapsed: np.ndarray
    records: dict = field(default_factory=dict)
    learner: str = ""

    @property
    def n_rounds(self) -> int:
        return int(self.order.shape[0])

    @property
    def n_mistakes(self) -> int:
        return int(self.mistakes.sum())

    @property
    def error_rate(self) -> float:
        """Mistakes on all rounds (queried or not) divided by ``T``."""
        return float(self.mistakes.mean())

    @property
    def n_queried(self) -> int:
        """Number of rounds whose label was revealed."""
        return int(self.queried.sum())

    @property
    def query_rate(self) -> float:
        return float(self.queried.mean())

    @property
    def time(self) -> float:
        """Wall time of the whole pass in seconds."""
        return float(self.elapsed[-1]) if self.elapsed.size else 0.0

    # --- one-vs-rest quantities (gu2013 Table 2 may report either) -------------
    def _binary(self, key):
        if key not in self.records:
            raise AttributeError(f"{key!r} is only recorded by OneVsRest learners (learner: {self.learner})")
        return self.records[key]

    @property
    def binary_errors(self) -> np.ndarray:
        """(K,) error rate of the k-th binary learner on its class-k-vs-rest problem."""
        pred = self._binary("binary_predictions")
        K = pred.shape[1]
        target = np.where(self.labels[:, None] == np.arange(K), 1, -1)
        return (pred != target).mean(axis=0)

    @property
    def binary_error_rate(self) -> float:
        """Mean over the K binary learners of their class-k-vs-rest error rate."""
        return float(self.binary_errors.mean())

    @property
    def binary_n_queried(self) -> float:
        """Mean over the K binary learners of their number of queried labels."""
        return float(self._binary("binary_queried").sum(axis=0).mean())

    def cumulative(self, what: str = "mistakes") -> np.ndarray:
        """Running count of ``"mistakes"`` or ``"queried"`` after each round."""
        return np.cumsum(getattr(self, what))

    def __repr__(self):
        return (
            f"Trace({self.learner}, T={self.n_rounds}, error_rate={self.error_rate:.4f}, "
            f"n_queried={self.n_queried}, time={self.time:.3f}s)"
        )


def check_learner(learner: L) -> L:
    """Raise TypeError unless ``learner`` has the online-learner interface; return it.

    Parameters
    ----------
    learner : object
        An instance with ``reset``, ``predict``, ``wants_label``, ``update`` and a ``multiclass`` attribute.

    Returns
    -------
    The same ``learner``.

    Examples
    --------
    >>> from graphsel_lib.online import CMOG
    >>> check_learner(CMOG())
    CMOG(gamma=1.0, targets='definition1')
    >>> check_learner(object())
    Traceback (most recent call last):
    ...
    TypeError: object is not an online learner: missing reset, predict, wants_label, update, multiclass attribute
    """
    if isinstance(learner, type):
        raise TypeError(f"{learner.__name__} is a class, not an online learner: pass an instance, e.g. GPA()")
    missing = [m for m in _METHODS if not callable(getattr(learner, m, None))]
    if missing or not hasattr(learner, "multiclass"):
        what = ", ".join(missing + ([] if hasattr(learner, "multiclass") else ["multiclass attribute"]))
        raise TypeError(f"{type(learner).__name__} is not an online learner: missing {what}")
    return learner


def learner_rng(seed: Seed, fallback: np.random.Generator) -> np.random.Generator:
    """The generator a randomised learner uses: its own ``seed`` if given, else ``fallback``."""
    return fallback if seed is None else np.random.default_rng(seed)


#: Largest and smallest non-zero ``max_t ||m_t||²`` a pass accepts: beyond, the learners' products
#: (``m mᵀ``, ``A⁻¹ m``, scores) overflow or underflow double precision (NaN scores, class 0 everywhere).
FEATURE_NORM2_RANGE = (1e-100, 1e100)


def _check_matrix(M):
    """``M`` as a finite real (d, n) array with d, n ≥ 1, its squared column norms within :data:`FEATURE_NORM2_RANGE`."""
    if not hasattr(M, "shape") and not isinstance(M, (list, tuple)):
        raise TypeError(f"M must be a 2-D array of shape (d, n), got {type(M).__name__}")
    M = as_real_matrix(M, "M (shape (d, n), column t is m_t)", sparse=False, copy=False)
    if M.shape[0] == 0 or M.shape[1] == 0:
        raise ValueError(f"M must be non-empty, got shape {M.shape}")
    scale = float(np.max(np.abs(M)))
    if (
        scale > 0.0
    ):  # log10 max_t ||m_t||^2 = 2 log10(scale) + log10 max_t ||m_t / scale||^2: no overflow here
        Z = M / scale
        log_top = 2.0 * np.log10(scale) + np.log10(float(np.max(np.einsum("ij,ij->j", Z, Z))))
        lo, hi = FEATURE_NORM2_RANGE
        if not np.log10(lo) <= log_top <= np.log10(hi):
            large = log_top > np.log10(hi)
            raise ValueError(
                f"the features are too {'large' if large else 'small'} for double precision: the largest "
                f"||m_t||^2 is about 1e{log_top:.0f}, outside [{lo:g}, {hi:g}], so the learners' products would "
                f"{'overflow' if large else 'underflow'} (NaN or zero scores); rescale M, e.g. "
                "M / np.linalg.norm(M, axis=0).max()"
            )
    return M


_EVERY_LABEL = (
    "an online pass scores every round against the true label, so it needs every label. For a partially "
    "labelled graph, predict the unlabelled nodes offline (graphsel_lib.transductive.harmonic(S, y, labelled)), "
    "let a person answer the learner's questions (graphsel_lib.online.Session, or python -m graphsel_lib.label), "
    "or run on the labelled nodes only"
)


def _check_labels(y, multiclass, n_classes, name="y", unlabelled_hint=_EVERY_LABEL):
    """Integer labels ``y`` (1-D) as int64 and K: -1/+1 (K = 2) or 0..K-1 (K = ``n_classes`` or max + 1)."""
    if not (np.issubdtype(y.dtype, np.integer) or np.issubdtype(y.dtype, np.floating) or y.dtype == bool):
        raise TypeError(f"{name} must be numeric labels, got dtype {y.dtype}")
    if y.dtype != bool and np.isnan(y).any():
        raise ValueError(f"{name} holds NaN, the mark of an unlabelled node: {unlabelled_hint}")
    if y.dtype == bool or not np.all(np.isfinite(y)) or not np.all(y == np.round(y)):
        raise ValueError(f"{name} must hold integer labels")
    y = y.astype(np.int64)
    if multiclass:
        if y.size and y.min() == -1 and np.isin(y, (-1, 1)).all():
            raise ValueError(
                "a multiclass learner needs labels 0..K-1, found -1/+1 (a binary learner's labels: use "
                "(y + 1) // 2); if -1 marks unlabelled nodes instead: " + unlabelled_hint
            )
        if y.size and y.min() == -1:
            k = int(np.count_nonzero(y == -1))
            raise ValueError(
                f"{name} holds -1, the mark of an unlabelled node ({k} of {y.size}): {unlabelled_hint}"
            )
        if y.min() < 0:
            raise ValueError(f"a multiclass learner needs labels 0..K-1, found {y.min()}")
        K = int(y.max()) + 1 if n_classes is None else check_integer(n_classes, "n_classes")
        if K < 2:
            raise ValueError(f"a multiclass learner needs at least 2 classes, got K = {K}")
        if y.max() >= K:
            raise ValueError(f"labels must be in 0..{K - 1}, found {y.max()}")
    else:
        bad = ~np.isin(y, (-1, 1))
        if bad.any():
            raise ValueError(
                f"a binary learner needs labels -1/+1, found {np.unique(y[bad])[:5].tolist()}; "
                "use 2*y-1 for 0/1 labels or OneVsRest for classes 0..K-1"
            )
        K = 2
    return y, K


def _check_order(order, n, seed):
    """The node of each round: ``order`` checked as a permutation of 0..n-1, or one drawn from ``seed``."""
    if order is None:
        return np.random.default_rng(seed).permutation(n)
    order = np.asarray(order)
    if order.ndim != 1 or not np.issubdtype(order.dtype, np.integer):
        raise ValueError(f"order must be a 1-D integer array, got shape {order.shape}, dtype {order.dtype}")
    if order.shape[0] != n or not np.array_equal(np.sort(order), np.arange(n)):
        raise ValueError(f"order must be a permutation of 0..{n - 1} (each node exactly once)")
    return order.astype(np.intp)


def _check_rounds(rounds, n):
    """Number of rounds to play: all ``n`` by default, else an int in 1..n."""
    if rounds is None:
        return n
    T = check_integer(rounds, "rounds")
    if not 1 <= T <= n:
        raise ValueError(f"rounds must be in 1..n = 1..{n} (M has {n} columns, one node per round), got {T}")
    return T


def _check_inputs(M, y, order, multiclass, n_classes, seed):
    M = _check_matrix(M)
    n = M.shape[1]
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}")
    if y.shape[0] != n:
        raise ValueError(f"M has n = {n} columns (nodes) but y has length {y.shape[0]}")
    y, K = _check_labels(y, multiclass, n_classes)
    order = _check_order(order, n, seed)
    return M, y, order, K


#: learner -> weak reference to the Session that plays it (set by the Session, read by every pass's set-up).
#: A Session registers its learner and every learner inside it (the learner a wrapper such as
#: MarginSampling holds), so a pass on either one is refused while the session is live.
SESSION_OF: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def nested_learners(learner):
    """``learner`` and every learner it holds as a parameter (a wrapped learner, a list of them), recursively."""
    from ._params import is_learner, learner_params

    out, todo, seen = [], [learner], set()
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        out.append(obj)
        try:
            params = learner_params(obj, deep=False)
        except Exception:  # noqa: BLE001 - a learner whose parameters cannot be read holds none we know of
            continue
        for value in params.values():
            values = value if isinstance(value, (list, tuple)) else [value]
            todo.extend(v for v in values if is_learner(v))
    return out


def _live_owner(learner, claimant):
    """The live Session other than ``claimant`` that plays ``learner`` or a learner inside it: ``(session, part)``."""
    for part in nested_learners(learner):
        try:
            ref = SESSION_OF.get(part)
        except TypeError:  # pragma: no cover - a learner that cannot be weakly referenced is not tracked
            continue
        owner = ref() if ref is not None else None
        if owner is not None and owner is not claimant and not owner.done:
            return owner, part
    return None, None


def _start(learner, M, K, seed, record, claimant=None):
    """Set up a pass: read-only rows of ``M``, the keys to record, and ``learner`` reset.

    Returns ``(X, keys, rng)``: ``X[i] = m_i``, the ``info`` keys recorded each
    round, and the generator handed to ``learner.reset`` (from ``seed``,
    independent of the default order). Refuses a learner that a live
    :class:`~graphsel_lib.online.Session` (other than ``claimant``) still plays,
    also through a wrapper (``run(inner)`` while ``Session(MarginSampling(inner))``
    is live, or the other way round): resetting it would change that
    session's predictions without a word.
    """
    owner, part = _live_owner(learner, claimant)
    if owner is not None:
        inside = "" if part is learner else f" (the {type(part).__name__} inside it)"
        raise RuntimeError(
            f"{type(learner).__name__}{inside} belongs to a live Session ({owner.n_done}/{owner.n_rounds} rounds, "
            f"playing {type(owner.learner).__name__}): running it here would reset it under that session. Pass a "
            "new learner (or copy.deepcopy of this one)."
        )
    # X[i] = m_i as a contiguous row (what BLAS wants); free if M is Fortran-ordered
    X = np.ascontiguousarray(M.T).view()
    X.flags.writeable = False  # learners get read-only rows (possibly views of the caller's M)
    keys = tuple(dict.fromkeys(tuple(getattr(learner, "record_keys", ())) + tuple(record)))
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    learner.reset(M.shape[0], K, rng)
    return X, keys, rng


def _unknown_record(learner, key, info):
    """The error for ``record=(key, ...)`` when the learner's ``info`` has no such key."""
    known = ", ".join(repr(k) for k in sorted(info) if not str(k).startswith("_"))
    return ValueError(
        f"record: {type(learner).__name__} reports no {key!r} in its per-round info; it has {known}"
    )


def _progress_bar(T, learner):
    from tqdm.auto import tqdm

    return tqdm(total=T, desc=type(learner).__name__, unit="round", mininterval=1.0)


def _make_trace(learner, order, labels, predictions, scores, mistakes, queried, elapsed, recorded):
    """The :class:`Trace` of per-round Python lists (``predictions`` already an int64 array)."""
    return Trace(
        order=order,
        labels=labels,
        predictions=predictions,
        scores=np.asarray(scores, dtype=float),
        mistakes=mistakes,
        queried=np.asarray(queried, dtype=bool),
        elapsed=np.asarray(elapsed, dtype=float),
        records={k: np.asarray(v) for k, v in recorded.items()},
        learner=repr(learner),
    )


def run(
    learner: Learner,
    M: ArrayLike,
    y: ArrayLike,
    order: ArrayLike | None = None,
    seed: int | None = 0,
    *,
    rounds: int | None = None,
    n_classes: int | None = None,
    record: tuple[str, ...] | list[str] = (),
    blas_threads: int | None = 1,
    progress: bool = False,
) -> Trace:
    """Run one online pass of ``learner`` over the nodes and return its :class:`Trace`.

    Parameters
    ----------
    learner : online learner
        Any object with the interface of this module's docstring (it is
        ``reset`` first, so the same object can be run again).
    M : array of shape (d, n)
        Column ``t`` is the feature vector ``m_t`` of node ``t``. Passing
        it in Fortran order (``np.asfortranarray(M)``) saves one copy per
        call when running many orders.
    y : array of int, shape (n,)
        True labels: -1/+1 for a binary learner, 0..K-1 for a multiclass one.
    order : array of int, shape (n,), optional
        The node of each round, a permutation of ``0..n-1``. Default:
        ``np.random.default_rng(seed).permutation(n)``.
    seed : int, default 0
        Seeds the default order and, independently, the generator handed
        to ``learner.reset`` (so randomised query rules are reproducible).
    rounds : int, optional
        Play only the first ``rounds`` rounds of ``order`` (1..n; default all
        n), e.g. on a very large graph. The trace is then the first
        ``rounds`` entries of the full pass's trace.
    n_classes : int, optional
        K for a multiclass learner (default ``max(y) + 1``).
    record : tuple of str
        ``info`` keys to store per round in ``trace.records``.
    blas_threads : int or None, default 1
        Limit on BLAS threads during the pass (small d: threads only add
        overhead). None leaves the setting alone.
    progress : bool, default False
        Show a progress bar of the rounds (tqdm, updated every
        :data:`PROGRESS_EVERY` rounds), e.g. for a long pass on a large graph.

    Returns
    -------
    Trace

    Raises
    ------
    TypeError
        If ``learner`` lacks the interface, or ``M``/``y`` are not numeric.
    ValueError
        If ``M`` is not 2-D or not finite, ``y`` has the wrong length or
        labels outside -1/+1 (binary) or 0..K-1 (multiclass), ``order`` is
        not a permutation of the nodes, or ``rounds`` is not in 1..n.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import GPA, run
    >>> M = np.array([[1.0, 1.0, -1.0, -1.0]])
    >>> trace = run(GPA(), M, np.array([1, 1, -1, -1]), order=[0, 2, 1, 3])
    >>> trace.predictions.tolist()  # sign(0) = +1 until the first mistake
    [1, 1, 1, -1]
    >>> trace.mistakes.tolist(), trace.error_rate, trace.n_queried
    ([False, True, False, False], 0.25, 4)
    """
    check_learner(learner)
    multiclass = bool(learner.multiclass)
    Mx, yx, ox, K = _check_inputs(M, y, order, multiclass, n_classes, seed)
    T = _check_rounds(rounds, Mx.shape[1])
    nodes = ox[:T]
    X, keys, _ = _start(learner, Mx, K, seed, record)
    olist = nodes.tolist()
    yo = yx[nodes]
    ylist = yo.tolist()  # Python ints: cheap to index in the loop

    # per-round results go into Python lists (cheaper to set than numpy items)
    predictions = [0] * T
    scores = [None] * T
    queried = [False] * T
    elapsed = [0.0] * T
    recorded = {k: [None] * T for k in keys}
    predict, wants_label, update = learner.predict, learner.wants_label, learner.update
    clock = time.perf_counter

    limit = threadpool_limits(limits=blas_threads) if (threadpool_limits and blas_threads) else nullcontext()
    bar = _progress_bar(T, learner) if progress else None
    try:
        compiled = getattr(learner, "compiled_pass", None)
        if callable(compiled):
            with limit:
                out = compiled(X, nodes, yo, keys, None if bar is None else bar.update)
            if out is not None:
                pred, scores, queried, elapsed, records = out
                return _make_trace(learner, nodes, yo, pred, scores, pred != yo, queried, elapsed, records)
        with limit:
            t0 = clock()
            for t in range(T):
                x = X[olist[t]]
                label, info = predict(x)
                predictions[t] = label
                if wants_label(x, t + 1, info):
                    queried[t] = True
                    update(x, ylist[t], label, info)
                elapsed[t] = clock() - t0
                scores[t] = info["score"]
                for k in keys:
                    try:
                        recorded[k][t] = info[k]
                    except KeyError:
                        raise _unknown_record(learner, k, info) from None
                if bar is not None and (t + 1) % PROGRESS_EVERY == 0:
                    bar.update(PROGRESS_EVERY)
        if bar is not None:
            bar.update(T - bar.n)
    finally:
        if bar is not None:
            bar.close()

    labels = np.asarray(predictions, dtype=np.int64)
    return _make_trace(learner, nodes, yo, labels, scores, labels != yo, queried, elapsed, recorded)
