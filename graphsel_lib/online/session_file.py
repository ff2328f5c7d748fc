"""A saved :class:`~graphsel_lib.online.Session` is data, not code: ``.npz`` arrays, JSON answers, a checksum.

Session files travel between annotators, so loading one must never run code
from it (as unpickling would). A file is two text lines and a NumPy ``.npz``
archive (read with ``allow_pickle=False``)::

    graphsel session 3
    sha256 <the SHA-256 digest of the archive's bytes>
    <the .npz archive>

The archive holds ``meta``, a JSON document (the learner as the name of a
library class and its parameters, the seed, the labels told, the predictions
and queries, the skipped rounds, the pending question, the generator's state,
the caller's notes), and the arrays:
``M``, ``order``, the scores, the per-round times and records, and any array
parameter of the learner (e.g. the graph of
:class:`~graphsel_lib.online.Relaxation`, stored as CSR parts). The digest is
verified before the archive is opened, so a file edited by hand (any flipped
byte) is refused.

The learner is rebuilt from a fixed list of the library's learner classes
(:data:`LEARNER_CLASSES`), with parameters that are numbers, strings, arrays,
nested learners or factories (a class, or ``functools.partial`` of one with
keyword arguments). A learner outside the library, or built from a lambda,
cannot be saved: the error says what to use instead.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._atomic import atomic_path
from ._params import is_learner, learner_params

__all__ = ["FORMAT_VERSION", "LEARNER_CLASSES", "learner_from_spec", "learner_spec", "read", "write"]

FORMAT_VERSION = 3  # 1 was a pickle (refused: loading it would run code); 3 adds skipped rounds and notes


#: The learner classes a session file may name, by class name (filled by :mod:`graphsel_lib.online`'s
#: ``__init__``, which imports the learners; this module imports none of them).
LEARNER_CLASSES: dict = {}


def _registry() -> dict:
    return LEARNER_CLASSES


def _class_name(cls, where):
    name = cls.__name__
    if _registry().get(name) is not cls:
        known = ", ".join(sorted(_registry()))
        raise TypeError(
            f"cannot save the session: {where} is {cls.__module__}.{cls.__qualname__}, not one of the library's "
            f"learners ({known}); a session file names a library class and its parameters, never code"
        )
    return name


def _encode(value, arrays, where):
    """``value`` as JSON, arrays moved into ``arrays`` (``{"array": key}``)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        key = f"param{len(arrays)}"
        arrays[key] = value
        return {"array": key}
    if sp.issparse(value):
        m = sp.csr_matrix(value)
        keys = [f"param{len(arrays) + i}" for i in range(3)]
        arrays.update(zip(keys, (m.data, m.indices, m.indptr), strict=True))
        return {"csr": keys, "shape": list(m.shape)}
    if isinstance(value, (list, tuple)):
        return {"list": [_encode(v, arrays, f"{where}[{i}]") for i, v in enumerate(value)]}
    if is_learner(value):
        return learner_spec(value, arrays, where)
    if isinstance(value, type):
        return {"class": _class_name(value, where)}
    if isinstance(value, functools.partial) and isinstance(value.func, type) and not value.args:
        kwargs = {k: _encode(v, arrays, f"{where}.{k}") for k, v in value.keywords.items()}
        return {"partial": _class_name(value.func, where), "keywords": kwargs}
    raise TypeError(
        f"cannot save the session: {where} = {value!r} is not a number, string, array, library learner or "
        "factory (a library class, or functools.partial of one with keyword arguments; not a lambda)"
    )


def learner_spec(learner: Any, arrays: dict | None = None, where: str = "the learner") -> dict:
    """``{"learner": class name, "params": {...}}``: what rebuilds ``learner`` (arrays go into ``arrays``)."""
    arrays = {} if arrays is None else arrays
    name = _class_name(type(learner), where)
    params = {k: _encode(v, arrays, f"{where}.{k}") for k, v in learner_params(learner, deep=False).items()}
    return {"learner": name, "params": params}


def _decode(value, arrays):
    if not isinstance(value, dict):
        return value
    if "array" in value:
        return arrays[value["array"]]
    if "csr" in value:
        data, indices, indptr = (arrays[k] for k in value["csr"])
        return sp.csr_matrix((data, indices, indptr), shape=tuple(value["shape"]))
    if "list" in value:
        return [_decode(v, arrays) for v in value["list"]]
    if "learner" in value:
        return learner_from_spec(value, arrays)
    if "class" in value:
        return _lookup(value["class"])
    if "partial" in value:
        kwargs = {k: _decode(v, arrays) for k, v in value["keywords"].items()}
        return functools.partial(_lookup(value["partial"]), **kwargs)
    raise ValueError(f"unknown parameter encoding {sorted(value)}")


def _lookup(name):
    try:
        return _registry()[name]
    except KeyError:
        raise ValueError(
            f"a session file names the learner class {name!r}, which the library does not have"
        ) from None


def learner_from_spec(spec: dict, arrays: dict | None = None) -> Any:
    """The learner :func:`learner_spec` described (only library classes; no code from the file runs)."""
    params = {k: _decode(v, arrays or {}) for k, v in spec["params"].items()}
    cls = _lookup(spec["learner"])
    return cls(**params)


_HEADER = b"graphsel session %d\n"


def write(path: str | os.PathLike[str], meta: dict, arrays: dict) -> Path:
    """Write ``meta`` (JSON-ready) and ``arrays`` to ``path`` atomically, behind the header and digest."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(
            f"cannot save the session to {path}: it is a folder; give a file name, e.g. {path / 'session.npz'}"
        )
    meta_bytes = json.dumps(meta, sort_keys=True).encode()
    payload: dict[str, Any] = {f"a_{k}": np.asarray(v) for k, v in arrays.items()}
    if any(a.dtype == object for a in payload.values()):
        raise TypeError("cannot save the session: a stored array holds Python objects")
    buf = io.BytesIO()
    np.savez(buf, meta=np.frombuffer(meta_bytes, dtype=np.uint8), **payload)
    archive = buf.getvalue()
    with atomic_path(path) as tmp:
        Path(tmp).write_bytes(_HEADER % FORMAT_VERSION + b"sha256 " + _sha256(archive) + b"\n" + archive)
    return path


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).hexdigest().encode()


def read(path: str | os.PathLike[str]) -> tuple[dict, dict]:
    """``(meta, arrays)`` of a file :func:`write` wrote; ValueError if it is not one, damaged or edited."""
    path = Path(path)
    data = path.read_bytes()
    head = _HEADER % FORMAT_VERSION
    if not data.startswith(head):
        if data.startswith(b"graphsel session "):
            version = data.split(b"\n", 1)[0][17:].decode(errors="replace")
            raise ValueError(
                f"{path}: unsupported Session file format {version!r} (expected {FORMAT_VERSION})"
            )
        raise ValueError(f"{path} is not a saved Session (it lacks the session header)")
    line, _, archive = data[len(head) :].partition(b"\n")
    if line != b"sha256 " + _sha256(archive):
        raise ValueError(
            f"{path} is a damaged or edited Session file: its checksum does not match its contents"
        )
    try:
        with np.load(io.BytesIO(archive), allow_pickle=False) as z:
            files = dict(z.items())
        meta = json.loads(files.pop("meta").tobytes())
    except (
        OSError,
        ValueError,
        EOFError,
        zipfile.BadZipFile,
        KeyError,
    ) as err:  # pragma: no cover - digest ok
        raise ValueError(f"{path}: unreadable Session contents ({type(err).__name__}: {err})") from err
    return meta, {k[2:]: v for k, v in files.items()}
