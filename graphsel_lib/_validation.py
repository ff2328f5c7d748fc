"""Input validation shared by the whole library: each rule is written once, here.

* :func:`as_real_matrix` — a real, 2-D array or scipy sparse matrix (no complex
  values, no strings or objects, no ``Graph`` where a matrix is expected),
  optionally finite and square; :func:`check_symmetric` — symmetry with a
  *relative* tolerance; :func:`as_symmetric_matrix` — both, as a canonical CSR
  copy (:func:`graphsel_lib.check_adjacency` adds non-negative weights).
* :func:`check_number`, :func:`check_positive`, :func:`check_probability`,
  :func:`check_integer`, :func:`check_seed` — scalar parameters. Booleans are
  refused where a number is expected, and an integer parameter given ``2.7``
  raises instead of being truncated.
* :func:`as_generator`, :func:`independent_generators` — a ``seed: int | Generator | None``
  (:data:`Seed`) as one generator or ``k`` independent ones; an integer draws what
  ``default_rng(seed)`` (or ``SeedSequence(seed).spawn(k)``) always drew.
* :func:`renamed_parameter`, :class:`RenamedKeys` — a renamed keyword or result key answers under
  its old name for one release, with a ``DeprecationWarning``.
* :func:`check_class_labels`, :func:`encode_labels` — class labels, with one
  convention for **unlabelled** nodes everywhere in the library:

  ``-1``, ``NaN`` and ``None`` mean "no label"; every other entry must be an
  integer class ``0..K-1`` (``0.5``, ``2.7``, ``-2`` or ``inf`` raise, naming
  the offending values and nodes). Where labels are text (class names: a
  CSV, a GraphML attribute, an array of strings), the same three and the
  missing-value markers of :data:`MISSING_LABELS` (``""``, ``"-1"``,
  ``"NaN"``, ``"None"``, ``"null"``, ``"NA"``, ``"n/a"``, ..., in any case)
  mean "no label": :func:`is_missing_label` is the one test every reader and
  constructor uses.

  What an unlabelled node does depends on the API and is documented there:
  the transductive methods ignore the labels outside ``labelled`` anyway and
  predict every node; a :class:`~graphsel_lib.Graph` keeps unlabelled nodes
  with their edges (``labels`` -1; ``g.labelled``), as a user's graph is
  partially labelled, while ``load_dataset`` drops them (a benchmark scores
  every node); an online pass (``online.run``), which scores every round,
  refuses them and names the alternatives.
"""

from __future__ import annotations

import functools
import numbers
import operator
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import numpy as np
import scipy.sparse as sp

__all__ = [
    "Seed",
    "UNLABELLED",
    "MISSING_LABELS",
    "is_missing_label",
    "UnlabelledNodesWarning",
    "DataWarning",
    "LookalikeNamesWarning",
    "lookalike_pairs",
    "check_weight_attribute",
    "as_real_array",
    "as_real_matrix",
    "check_symmetric",
    "as_symmetric_matrix",
    "check_number",
    "check_positive",
    "check_probability",
    "check_integer",
    "check_seed",
    "check_labelled",
    "check_class_labels",
    "encode_labels",
    "read_utf8",
    "renamed_parameter",
    "RenamedKeys",
    "as_generator",
    "independent_generators",
]

#: What a ``seed`` parameter takes: an integer (the same numbers every run), a generator (its stream
#: continues) or None (fresh entropy); :func:`as_generator` turns it into a ``numpy.random.Generator``.
Seed = int | np.random.Generator | None

#: The code of an unlabelled node in validated label arrays (``-1``, as scikit-learn).
UNLABELLED = -1

_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$", re.ASCII)  # no '1_000', no 'inf', no '١'


class DataWarning(UserWarning):
    """Input data were dropped or merged, or part of a result is undetermined.

    Raised, e.g., when a graph loses nodes or classes to its largest connected
    component, when an edge list gives each edge in both directions, or when a
    transductive method cannot reach some nodes or classes from the labels.

    Examples
    --------
    >>> import warnings
    >>> from graphsel_lib.graph import Graph
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     g = Graph.from_edges([[0, 1], [2, 3], [3, 4]], [0, 1, 0, 1, 1])  # two components
    >>> g.n_nodes, caught[0].category.__name__
    (3, 'DataWarning')
    """


class UnlabelledNodesWarning(DataWarning):
    """A graph keeps nodes without a label (how many is in the message); the file readers say it by kind instead."""


class LookalikeNamesWarning(DataWarning):
    """Two names that differ as text but are equal as numbers (``2`` and ``2.0``, ``7`` and ``007``), or two
    class names equal but for case (``Red`` and ``red``), were kept apart.

    The user's names are kept as written (two nodes, or two classes); the
    warning names the pairs, in case one thing was written two ways.
    """


def renamed_parameter(old: str, new: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A decorator: the keyword ``old`` still reaches the parameter ``new``, with a ``DeprecationWarning``.

    For one release after a rename (``labeled`` became ``labelled``); positional calls are untouched.
    Passing both names is a ``TypeError``.
    """

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def renamed(*args: P.args, **kwargs: P.kwargs) -> R:
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{func.__name__}() got {old}= and {new}=: pass {new}= only")
                warnings.warn(
                    f"{func.__name__}(): the keyword {old}= is renamed {new}=; {old}= goes in the next release",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return renamed

    return wrap


P = ParamSpec("P")
R = TypeVar("R")


class RenamedKeys(dict):
    """A result ``dict`` whose renamed keys still answer under their old names, with a ``DeprecationWarning``.

    ``RenamedKeys(where, {"unlabeled": "unlabelled"}, items)``: ``d["unlabeled"]`` warns and returns
    ``d["unlabelled"]`` (for one release after the rename, as :func:`renamed_parameter` for keywords).
    """

    def __init__(self, where: str, renamed: dict[str, str], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._where = where
        self._renamed = dict(renamed)

    def __missing__(self, key):
        new = self._renamed.get(key) if isinstance(key, str) else None
        if new is None:
            raise KeyError(key)
        warnings.warn(
            f"{self._where}: the key {key!r} is renamed {new!r}; {key!r} goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return self[new]


_BOM = b"\xef\xbb\xbf"


def read_utf8(path, what, *, fix="save it as UTF-8") -> str:
    """The text of the file ``path``, read as UTF-8 (a leading byte-order mark dropped, newlines kept).

    The one reader of the library's text files (label files, answers files, tables). A file that is
    not UTF-8 is a ``ValueError`` naming ``what`` and the file, the byte offset of the first bad byte
    and ``fix``.
    """
    data = Path(path).read_bytes()
    skip = len(_BOM) if data.startswith(_BOM) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{what} {str(path)!r} is not UTF-8 text ({err.reason} at byte {err.start + skip}): {fix}"
        ) from None


#: Label text that means "no label", compared after stripping blanks and ignoring case (``"NONE"``,
#: ``"Nan"`` and ``"n/a"`` too): empty, ``-1`` (the library's code of an unlabelled node, also when written
#: as text) and the missing-value markers of pandas and spreadsheets. One definition for every reader
#: (CSV, GraphML) and constructor (:meth:`Graph.from_edges <graphsel_lib.Graph.from_edges>`,
#: ``from_networkx``, ``from_adjacency``); a class really named so must be renamed (e.g. ``"neg"`` for -1).
MISSING_LABELS = frozenset(
    {"", "-1", "nan", "-nan", "none", "null", "nil", "na", "n/a", "<na>", "#n/a", "#n/a n/a", "#na",
     "-1.#ind", "-1.#qnan", "1.#ind", "1.#qnan"}
)  # fmt: skip


def is_missing_label(value) -> bool:
    """True if ``value`` marks an unlabelled node: ``None``, a float NaN, pandas' ``NA``, the number ``-1``
    (not ``True``), or text in :data:`MISSING_LABELS` (any case, blanks stripped)."""
    if value is None:
        return True
    if isinstance(value, (str, np.str_)):
        text = value.strip()
        return text.casefold() in MISSING_LABELS or _numeric_value(text) == UNLABELLED  # '-1.0' too
    if isinstance(value, (bytes, np.bytes_)):
        return is_missing_label(value.decode("utf-8", "replace"))
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, numbers.Real):
        v = float(value)
        return v != v or v == UNLABELLED
    return type(value).__name__ == "NAType"  # pandas.NA, without importing pandas


def check_weight_attribute(G, weight, *, where="G", fix=None):
    """Raise ``TypeError`` if the edge attribute ``weight`` of the networkx graph ``G`` holds non-numbers.

    A weight given as text (``"2.5"``, e.g. a GraphML key of ``attr.type="string"``) gave scipy's
    dtype error; the message names an edge, the value and ``fix`` (default: convert, or ``weight=None``).
    """
    if weight is None:
        return
    bad = [
        (u, v, d[weight])
        for u, v, d in G.edges(data=True)
        if weight in d
        and (not isinstance(d[weight], numbers.Real) or isinstance(d[weight], (bool, np.bool_)))
    ]
    if bad:
        u, v, w = bad[0]
        fix = fix or (
            f"convert them to numbers (for u, v, d in G.edges(data=True): d[{weight!r}] = float(d[{weight!r}])), "
            "or pass weight=None for an unweighted graph"
        )
        raise TypeError(
            f"{where}: the edge weight attribute {weight!r} must hold numbers, but {len(bad)} edge(s) hold "
            f"other values, e.g. {w!r} ({type(w).__name__}) on edge ({u!r}, {v!r}); {fix}"
        )


def _numeric_value(text):
    """The float a plain decimal number written as ``text`` stands for, or None (words such as 'inf' excluded)."""
    if not _DECIMAL.match(text):
        return None
    return float(text)


def lookalike_pairs(values, k=3, *, ignore_case=False):
    """Up to ``k`` pairs of distinct texts among ``values`` that are equal as numbers (``'2'`` and ``'2.0'``).

    Only values written as plain decimal numbers count (``007``, ``-0``, ``1e3``; not ``inf`` or ``0x1f``).
    With ``ignore_case``, texts equal but for case (``'Red'`` and ``'red'``) pair too.
    """
    first = {}
    pairs = []
    for v in dict.fromkeys(str(x).strip() for x in values):
        x = _numeric_value(v)
        if x is None:
            if not ignore_case:
                continue
            x = ("text", v.casefold())
        if x in first:
            pairs.append((first[x], v))
            if len(pairs) == k:
                break
        else:
            first[x] = v
    return pairs


def warn_lookalikes(values, what, where, *, stacklevel=3, ignore_case=False):
    """Warn (:class:`LookalikeNamesWarning`) if ``values`` hold texts equal as numbers (or but for case,
    with ``ignore_case``); they stay distinct."""
    pairs = lookalike_pairs(values, ignore_case=ignore_case)
    if pairs:
        kinds = {
            "equal as numbers" if _numeric_value(a) is not None else "equal but for case" for a, _ in pairs
        }
        shown = ", ".join(f"{a!r} and {b!r}" for a, b in pairs)
        warnings.warn(
            f"{where}: {what} {shown} are {' or '.join(sorted(kinds))} but written differently; they are kept "
            "apart, as written (if each pair is one name, write it the same way everywhere)",
            LookalikeNamesWarning,
            stacklevel=stacklevel,
        )
    return pairs


# --------------------------------------------------------------------------- matrices
def _is_graph(obj):
    return hasattr(obj, "adjacency") and hasattr(obj, "labels") and not sp.issparse(obj)


def _reject_graph(obj, name):
    if _is_graph(obj):
        raise TypeError(
            f"{name} must be a matrix, got a {type(obj).__name__} object; pass its weight matrix, e.g. g.adjacency"
        )
    if type(obj).__module__.split(".")[0] == "networkx":  # a networkx graph reads as a 0-D object array
        raise TypeError(
            f"{name} must be a matrix, got a networkx {type(obj).__name__}; pass "
            "networkx.to_scipy_sparse_array(G, weight='weight'), or build a labelled graph with "
            "graphsel_lib.Graph.from_networkx(G, label_attr=...)"
        )


def as_real_array(A, name, *, ndim=2, sparse=None, finite=True, square=False, dtype=np.float64, copy=True):
    """Validate a real array (by default a 2-D matrix, dense or sparse) and return it as ``dtype``.

    Parameters
    ----------
    A : array-like or scipy sparse matrix
    name : str
        Used in error messages.
    ndim : int, default 2
        Required number of dimensions (sparse input only for 2).
    sparse : {None, True, False}
        ``None``: keep the kind of ``A`` (CSR for sparse input, ndarray
        otherwise); ``True``: return CSR; ``False``: return a dense ndarray.
    finite : bool, default True
        Refuse NaN and infinite entries.
    square : bool, default False
        Refuse non-square and empty matrices.
    dtype : numpy dtype or None, default float64
        ``None`` keeps the (real) dtype of ``A``.
    copy : bool, default True
        Always return a new array (never a view of ``A``).

    Raises
    ------
    TypeError
        ``A`` is a ``Graph`` (pass ``g.adjacency``), holds complex numbers
        (refused rather than truncated to their real part), strings or
        objects, or is not array-like.
    ValueError
        ``A`` has the wrong number of dimensions, is not square or is empty
        (``square=True``), or has non-finite entries (``finite=True``).
    """
    _reject_graph(A, name)
    if sp.issparse(A):
        if ndim != 2:
            raise TypeError(f"{name} must be a {ndim}-D array, got a sparse matrix")
        M = sp.csr_matrix(A)  # may share data with A; copied below before any change
    else:
        try:
            M = np.asarray(A)
        except Exception as exc:  # ragged nested lists and the like
            raise TypeError(f"{name} must be a {ndim}-D array of real numbers ({exc})") from exc
    kind = M.dtype
    if np.issubdtype(kind, np.complexfloating):
        raise TypeError(
            f"{name} must hold real numbers, got complex values (dtype {kind}); "
            "pass the real part or the modulus explicitly"
        )
    if kind.kind not in "biuf":  # bool, integers, floats
        raise TypeError(f"{name} must hold real numbers (a numeric array), got dtype {kind}")
    if M.ndim != ndim:
        what = "matrix" if ndim == 2 else "array"
        raise ValueError(f"{name} must be a {ndim}-D {what}, got {M.ndim} dimension(s) (shape {M.shape})")
    if square:
        if M.shape[0] != M.shape[1]:
            raise ValueError(f"{name} must be square (an adjacency matrix), got shape {M.shape}")
        if M.shape[0] == 0:
            raise ValueError(f"{name} is empty: the graph has no nodes")
    if sparse is None:
        sparse = sp.issparse(M)
    if sparse:
        M = sp.csr_matrix(M, dtype=M.dtype if dtype is None else dtype, copy=copy)
        values = M.data
    else:
        M = M.toarray() if sp.issparse(M) else M
        M = np.array(M, dtype=M.dtype if dtype is None else dtype, copy=copy or None)
        values = M
    if finite and not np.all(np.isfinite(values)):
        raise ValueError(f"{name} has non-finite (NaN or infinite) entries")
    return M


def as_real_matrix(A, name, **kwargs):
    """:func:`as_real_array` of a 2-D matrix (dense or scipy sparse)."""
    return as_real_array(A, name, ndim=2, **kwargs)


def check_symmetric(S, name, *, tol=1e-10):
    """Raise ``ValueError`` unless the CSR matrix ``S`` is symmetric up to a relative ``tol``.

    Entry by entry: ``|S_ij - S_ji| <= tol * max(|S_ij|, |S_ji|)``. The
    tolerance is relative to each pair, so a weight given in one direction
    only is refused however small it is (an absolute tolerance let a directed
    graph with weights <= 1e-10 pass), while rounding in the last bits of a
    symmetric computation is accepted.
    """
    T = S.T.tocsr()  # sorted indices: equal arrays iff S is exactly symmetric (S canonical)
    if (
        np.array_equal(T.indptr, S.indptr)
        and np.array_equal(T.indices, S.indices)
        and np.array_equal(T.data, S.data)
    ):
        return
    D = (S - T).tocoo()
    if D.nnz == 0:
        return
    A = abs(S).tocsr()
    scale = np.maximum(np.asarray(A[D.row, D.col]).ravel(), np.asarray(A[D.col, D.row]).ravel())
    bad = np.abs(D.data) > tol * scale
    if np.any(bad):
        k = int(np.flatnonzero(bad)[0])
        i, j = int(D.row[k]), int(D.col[k])
        raise ValueError(
            f"{name} is not symmetric (a directed graph?): {name}[{i}, {j}] = {S[i, j]:.6g} but "
            f"{name}[{j}, {i}] = {S[j, i]:.6g} ({int(bad.sum()) // 2 or 1} such pair(s)); "
            "symmetrise it first, e.g. S = S.maximum(S.T) as gu2013 does"
        )


def as_symmetric_matrix(A, name, *, tol=1e-10):
    """A real, finite, square, symmetric matrix as a canonical CSR float64 copy.

    Canonical: explicit zeros dropped, duplicates summed, indices sorted.
    :func:`graphsel_lib.check_adjacency` adds non-negativity (and
    connectivity) to this; an inverse kernel (which has negative entries)
    uses it as is.
    """
    S = as_real_matrix(A, name, sparse=True, square=True)
    S.eliminate_zeros()
    S.sum_duplicates()
    S.sort_indices()
    check_symmetric(S, name, tol=tol)
    return S


# --------------------------------------------------------------------------- scalars
def check_number(value, name, *, kind="a number"):
    """``value`` as a float; ``TypeError`` for booleans, strings, complex and other non-numbers."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        if isinstance(value, np.ndarray) and value.ndim == 0 and np.issubdtype(value.dtype, np.number):
            return check_number(value.item(), name, kind=kind)
        raise TypeError(f"{name} must be {kind}, got {value!r} of type {type(value).__name__}")
    return float(value)


def check_positive(value, name, *, allow_zero=False):
    """A finite number ``> 0`` (``>= 0`` with ``allow_zero``), as a float."""
    what = "non-negative" if allow_zero else "positive"
    x = check_number(value, name, kind=f"a {what} number")
    if not np.isfinite(x) or x < 0 or (x == 0 and not allow_zero):
        raise ValueError(f"{name} must be a {what} finite number, got {x!r}")
    return x


def check_probability(value, name, *, low_open=False, high_open=False):
    """A number in ``[0, 1]``; ``low_open`` / ``high_open`` exclude 0 / 1. Returns a float."""
    interval = f"{'(' if low_open else '['}0, 1{')' if high_open else ']'}"
    x = check_number(value, name, kind=f"a number in {interval}")
    lo_ok = x > 0 if low_open else x >= 0
    hi_ok = x < 1 if high_open else x <= 1
    if not (lo_ok and hi_ok):  # NaN fails both
        raise ValueError(f"{name} must be in {interval}, got {x!r}")
    return x


def check_integer(value, name, *, minimum=None, maximum=None):
    """An integer (Python or numpy; not a bool, not a float such as 2.0 or 2.7) within bounds, as int."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(
            f"{name} must be an integer, got {value!r} of type {type(value).__name__} "
            "(non-integers are refused, not truncated)"
        ) from None
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {v}")
    return int(v)


def check_seed(seed, name="seed", *, allow_none=True):
    """A seed accepted by ``numpy.random.default_rng``; returned unchanged.

    ``None`` (fresh entropy, or the caller's generator) only with
    ``allow_none``; booleans and floats are refused.
    """
    if seed is None:
        if allow_none:
            return None
        raise TypeError(f"{name} must be an integer, got None")
    if isinstance(seed, (bool, np.bool_, float, np.floating)):
        raise TypeError(f"{name} must be an integer (or a numpy SeedSequence/Generator), got {seed!r}")
    try:
        np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{name} is not a usable random seed: {seed!r} ({exc})") from exc
    return seed


def as_generator(seed: Seed | np.random.SeedSequence, name: str = "seed") -> np.random.Generator:
    """The random generator a ``seed: int | numpy.random.Generator | None`` parameter stands for.

    A ``Generator`` is used as given (its stream continues); an integer, a ``SeedSequence`` or ``None``
    (fresh entropy) goes to ``numpy.random.default_rng``, so an integer seed draws the same numbers as
    ``default_rng(seed)`` always did. Booleans and floats are refused (:func:`check_seed`).

    >>> int(as_generator(7).integers(100)) == int(np.random.default_rng(7).integers(100))
    True
    >>> g = np.random.default_rng(0); as_generator(g) is g
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(check_seed(seed, name))


def independent_generators(
    seed: Seed | np.random.SeedSequence, k: int, name: str = "seed"
) -> list[np.random.Generator]:
    """``k`` independent generators from one ``seed: int | numpy.random.Generator | None``.

    An integer (or ``SeedSequence``, or ``None``) is spawned as ``numpy.random.SeedSequence(seed).spawn(k)``,
    the streams it always gave; a ``Generator`` spawns ``k`` children (``Generator.spawn``), which advances
    nothing the caller draws from it afterwards.

    >>> a, b = independent_generators(3, 2)
    >>> int(b.integers(1000)) == int(np.random.default_rng(np.random.SeedSequence(3).spawn(2)[1]).integers(1000))
    True
    """
    if isinstance(seed, np.random.Generator):
        return list(seed.spawn(k))
    seed = check_seed(seed, name)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return [np.random.default_rng(s) for s in ss.spawn(k)]


# --------------------------------------------------------------------------- labels
_CONVENTION = "integers 0..K-1, or -1 / NaN / None for an unlabelled node"


def _show(values, k=5):
    vals = [v.item() if hasattr(v, "item") else v for v in values[:k]]
    return ", ".join(repr(v) for v in vals) + (", ..." if len(values) > k else "")


def _label_array(y, n, name, length):
    _reject_graph(y, name)
    if sp.issparse(y):
        raise TypeError(f"{name} must be a 1-D array of labels, got a sparse matrix")
    arr = np.asarray(y)
    if arr.ndim != 1 or (n is not None and arr.shape[0] != n):
        raise ValueError(f"{name} must be a 1-D array of length {length}, got shape {arr.shape}")
    return arr


def _split_object(arr, name):
    """Object labels -> (mask of unlabelled entries, float array of the numeric ones); ValueError otherwise."""
    missing = np.array([is_missing_label(v) for v in arr], dtype=bool)
    vals = np.zeros(arr.shape[0])
    for i, v in enumerate(arr):
        if missing[i]:
            continue
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise ValueError(
                f"{name} must hold {_CONVENTION}; found {v!r} of type {type(v).__name__} at node {i}"
            )
        vals[i] = float(v)
    return missing, vals


def _codes(arr, name):
    """Validated numeric labels -> int64 codes with -1 for unlabelled (no upper bound checked)."""
    if arr.dtype == bool:
        raise ValueError(f"{name} must hold {_CONVENTION}, got dtype bool")
    if arr.dtype == object:
        missing, vals = _split_object(arr, name)
    elif np.issubdtype(arr.dtype, np.integer):
        return _check_codes(arr.astype(np.int64), name)
    elif np.issubdtype(arr.dtype, np.floating):
        vals = arr.astype(np.float64)
        missing = np.isnan(vals)
    else:
        raise ValueError(f"{name} must hold {_CONVENTION}, got dtype {arr.dtype}")
    with np.errstate(invalid="ignore"):
        whole = np.isfinite(vals) & (vals == np.round(vals)) & (np.abs(vals) <= 2.0**53)
    bad = np.flatnonzero(~missing & ~whole)
    if bad.size:
        raise ValueError(
            f"{name} must hold {_CONVENTION}; found non-integer value(s) {_show(arr[bad])} "
            f"at node(s) {_show(bad)}"
        )
    codes = np.where(missing, UNLABELLED, vals).astype(np.int64)
    return _check_codes(codes, name)


def _check_codes(codes, name):
    bad = np.flatnonzero(codes < UNLABELLED)
    if bad.size:
        raise ValueError(
            f"{name} must hold {_CONVENTION}; found negative value(s) {_show(codes[bad])} "
            f"at node(s) {_show(bad)} (only -1 marks an unlabelled node)"
        )
    return codes


def check_labelled(labelled, n):
    """Validate ``labelled`` (integer indices or a boolean mask) -> sorted int indices.

    Raises
    ------
    TypeError
        If ``labelled`` is neither integer nor boolean.
    ValueError
        If a mask has the wrong length, an index is out of ``0..n-1`` (negative
        indices are refused rather than wrapped around), an index is repeated,
        or no node is labelled.
    """
    arr = np.asarray(labelled)
    if arr.ndim != 1:
        raise ValueError(
            f"labelled must be a 1-D array of node indices or a boolean mask, got shape {arr.shape}"
        )
    if arr.dtype == bool:
        if arr.shape[0] != n:
            raise ValueError(f"boolean mask labelled must have length n_nodes={n}, got {arr.shape[0]}")
        idx = np.flatnonzero(arr)
    elif arr.size == 0:
        idx = np.zeros(0, dtype=np.int64)
    elif np.issubdtype(arr.dtype, np.integer):
        idx = arr.astype(np.int64)
        bad = idx[(idx < 0) | (idx >= n)]
        if bad.size:
            raise ValueError(f"labelled indices must be in 0..{n - 1}, found {bad[0]}")
        idx = np.sort(idx)
        dup = idx[1:][idx[1:] == idx[:-1]]
        if dup.size:
            hint = " (a 0/1 mask must have dtype bool)" if np.all((arr == 0) | (arr == 1)) else ""
            raise ValueError(f"labelled indices must be distinct, node {dup[0]} appears twice{hint}")
    else:
        raise TypeError(
            f"labelled must hold integer node indices or be a boolean mask, got dtype {arr.dtype}"
        )
    if idx.size == 0:
        raise ValueError("no node is labelled: labelled is empty")
    return idx


def check_class_labels(y, n, *, n_classes=None, name="labels", length=None, require_all=False):
    """Validate class labels under the library's convention; return int64 codes, ``-1`` = unlabelled.

    Parameters
    ----------
    y : array-like of shape (n,)
        Integers ``0..K-1``; ``-1``, ``NaN`` and ``None`` mark unlabelled
        nodes. Integer-valued floats (``2.0``) are accepted.
    n : int
        Required length.
    n_classes : int, optional
        ``K``: every labelled entry must be ``< K``.
    name, length : str
        For messages (``length`` defaults to ``n``).
    require_all : bool, default False
        Raise if some node is unlabelled (for a ground-truth vector).

    Raises
    ------
    ValueError
        Wrong shape; a value that is neither an integer ``>= 0`` nor an
        unlabelled marker (``0.5``, ``2.7``, ``-2``, ``inf``, a string);
        a label ``>= n_classes``; an unlabelled node with ``require_all``.
    """
    if n_classes is not None:
        n_classes = check_integer(n_classes, "n_classes", minimum=1)
    codes = _codes(_label_array(y, n, name, n if length is None else length), name)
    if require_all and np.any(codes == UNLABELLED):
        miss = np.flatnonzero(codes == UNLABELLED)
        raise ValueError(
            f"{name} must give every node a class in 0..K-1, but {miss.size} node(s) are unlabelled "
            f"(-1, NaN or None), e.g. node(s) {_show(miss)}"
        )
    if n_classes is not None and codes.size and codes.max() >= n_classes:
        bad = np.flatnonzero(codes >= n_classes)
        raise ValueError(
            f"{name} must be in 0..{n_classes - 1}, found {codes.max()} "
            f"(value(s) {_show(codes[bad])} at node(s) {_show(bad)})"
        )
    return codes


def encode_labels(labels, n, *, class_names=None, name="labels"):
    """Labels of any kind -> ``(codes, class_names)``: int64 codes (``-1`` = unlabelled) and one name per class.

    With ``class_names``, ``labels`` must already be codes ``0..len(class_names)-1``
    (or unlabelled markers). Without, the classes are the distinct labelled
    values in sorted order and are named ``str(value)``: numbers must be
    integers (``-1``/``NaN``/``None`` unlabelled, as in :func:`check_class_labels`;
    ``2.0`` is class ``"2"``);
    strings and other objects are categories, with the markers of
    :func:`is_missing_label` unlabelled (``None``, ``NaN``, ``-1``, and text
    such as ``""``, ``"-1"``, ``"NaN"``, ``"None"``, ``"null"``, ``"NA"`` in
    any case: :data:`MISSING_LABELS`); booleans are two categories.
    """
    if class_names is not None:
        names = [str(c) for c in class_names]
        return check_class_labels(labels, n, n_classes=len(names), name=name), names
    arr = _label_array(labels, n, name, n)
    numeric = lambda v: isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))  # noqa: E731
    if arr.dtype == bool:  # two categories; no unlabelled marker
        missing = np.zeros(arr.shape[0], dtype=bool)
    elif arr.dtype.kind in "USO":  # text or objects: the markers of is_missing_label are unlabelled
        missing = np.array([is_missing_label(v) for v in arr], dtype=bool)
        if arr.dtype == object and all(numeric(v) for v in arr[~missing]):
            # numbers (with markers among them): the integer convention of check_class_labels
            plain = np.array([None if m else v for m, v in zip(missing, arr, strict=True)], dtype=object)
            arr = _codes(plain, name)
            missing = arr == UNLABELLED
    else:  # numbers: the integer convention of check_class_labels; classes named by the integer
        codes = _codes(arr, name)
        missing = codes == UNLABELLED
        arr = codes
    values = arr[~missing]
    try:
        uniq, inv = np.unique(values, return_inverse=True)
    except TypeError as exc:
        kinds = sorted({type(v).__name__ for v in values})
        raise TypeError(
            f"{name} mix values that cannot be ordered ({', '.join(kinds)}); use one type of class label"
        ) from exc
    codes = np.full(arr.shape[0], UNLABELLED, dtype=np.int64)
    codes[~missing] = np.asarray(inv).ravel()
    return codes, [str(u) for u in uniq]
