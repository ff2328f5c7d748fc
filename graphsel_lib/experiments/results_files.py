"""The files of the results cache of :func:`graphsel_lib.experiments.evaluate`: rows, their checksum, curves.

One JSON file of rows per configuration (one row per order, sealed by a checksum: rows edited by hand
are refused) and, on request, an ``.npz`` of the per-round arrays of the same passes beside it.
"""

from __future__ import annotations

import hashlib
import json
import math
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._atomic import atomic_path, atomic_write

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Mapping
    from pathlib import Path

    from numpy.typing import ArrayLike

CACHE_VERSION = 3  # 1: repr(learner); 2: learner_key + all of online/; 3: learner_key + the code it runs

#: The per-round arrays :func:`evaluate_curves` keeps: name -> dtype (``binary_*``: one-vs-rest only).
CURVES = {
    "mistakes": np.bool_,  # the multiclass prediction was wrong
    "queried": np.bool_,  # the label was asked for (by any learner)
    "elapsed": np.float64,  # seconds since the pass began, after each round
    "binary_mistakes": np.uint16,  # how many of the K binary learners were wrong
    "binary_queried": np.uint16,  # how many of the K binary learners asked for the label
}


def digest(*arrays_and_text: str | ArrayLike) -> str:
    """SHA-256 of text and arrays (dtype, shape and bytes): the key of a configuration, the seal of its curves."""
    h = hashlib.sha256()
    for a in arrays_and_text:
        if isinstance(a, str):
            h.update(a.encode())
        else:
            a = np.ascontiguousarray(a)
            h.update(str((a.dtype.str, a.shape)).encode())
            h.update(a.tobytes())
    return h.hexdigest()


def cached_rows_problem(rows: object, n_orders: int) -> str | None:
    """What is wrong with cached ``rows`` for ``n_orders`` orders (one row per order, finite metrics), or None."""
    if not isinstance(rows, list) or len(rows) != n_orders:
        return f"holds {len(rows) if isinstance(rows, list) else 'no list of'} rows for {n_orders} orders"
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not {"error_rate", "n_queried", "time"} <= row.keys():
            return f"has a row {i} without error_rate, n_queried and time"
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in row.values()):
            return f"has a row {i} with a value that is not a finite number"
    return None


def rows_checksum(rows: list[dict[str, Any]]) -> str:
    """SHA-256 of the cached rows as canonical JSON (floats round-trip through JSON exactly)."""
    return hashlib.sha256(json.dumps(rows, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_rows(path: str | os.PathLike[str], name: str, rows: list[dict[str, Any]], method: str) -> None:
    """Store ``rows`` with their checksum (a cache edited by hand is refused and recomputed); warn if unwritable."""
    try:
        with atomic_write(path) as fh:
            json.dump(
                {"version": CACHE_VERSION, "learner": name, "rows": rows, "checksum": rows_checksum(rows)},
                fh,
            )
    except OSError as exc:
        warnings.warn(
            f"results of {method} not cached: cannot write {path} ({exc}); returning them anyway",
            RuntimeWarning,
            stacklevel=3,
        )


def curves_path(path: Path) -> Path:
    return path.with_name(path.stem + ".curves.npz")


# ``arrays``: name -> array; Any, as mypy cannot rule out a key that is ``savez``'s ``allow_pickle: bool``
def write_curves(path: Path, arrays: Mapping[str, Any]) -> None:
    """Store the per-round arrays beside the rows at ``path`` with their digest; warn if unwritable."""
    names = sorted(arrays)
    try:
        with atomic_path(curves_path(path)) as tmp:
            # uncompressed: 0.04 s for 20 passes on PubMed (5.5 MB), where compressing takes 1.2 s for 3 MB
            np.savez(tmp, digest=digest(*names, *(arrays[k] for k in names)), **arrays)
    except OSError as exc:
        warnings.warn(f"curves not cached: cannot write {curves_path(path)} ({exc})", RuntimeWarning, 3)


def read_curves(path: Path, shape: Iterable[int]) -> dict[str, np.ndarray] | None:
    """The per-round arrays cached beside the rows at ``path`` (each of ``shape``), or None if absent or bad."""
    try:
        with np.load(curves_path(path), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files if k != "digest"}
            names = sorted(arrays)
            ok = (
                {"mistakes", "queried", "elapsed"} <= set(names)
                and set(names) <= set(CURVES)
                and all(a.shape == tuple(shape) and a.dtype == CURVES[k] for k, a in arrays.items())
                and str(z["digest"]) == digest(*names, *(arrays[k] for k in names))
            )
    except Exception:  # noqa: BLE001 - absent, truncated or foreign: recomputed
        return None
    return arrays if ok else None
