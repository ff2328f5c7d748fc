"""A learner's parameters, read from its ``__init__`` signature: one ``get_params``, one ``repr``, one key.

As in scikit-learn, a learner stores every ``__init__`` argument under the
argument's name (``self.mu = mu``, checked or converted), so that
:meth:`Params.get_params` can read them back and ``repr`` can show them:
``SSLGC(mu=1.0, kappa=0.4)``. A boolean switch left at its default is not
shown (``CMOG(gamma=1.0, targets='definition1')``, not ``…, conservative=True``)
and a wrapped learner in first place is shown bare
(``MarginSampling(CMOG(…), b=0.1, seed=None)``).

:func:`learner_description` turns a learner into a canonical, JSON-ready description for
cache keys (:func:`graphsel_lib.experiments.evaluate`): its class (module and
qualified name of every class of its MRO), its parameters (recursively:
nested learners, arrays by digest, factories such as ``functools.partial``),
and, for every class or function defined outside ``graphsel_lib`` and outside
installed packages (a notebook, a test file, a user module), its code: the
bytecode, constants and names of every method, the defaults and closures, and
the globals it reads. So a subclass that changes one method, or a notebook
learner edited and re-run, gets a new key. (Compiled code rather than source
text: a class defined in a notebook has no source file, and one sent to a
joblib worker by cloudpickle keeps its code but not its source.)
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import pickle
import sys
import sysconfig
import types
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

__all__ = ["Params", "format_params", "is_learner", "learner_description", "learner_params"]

_LIBRARY = __name__.split(".")[0]  # "graphsel_lib"
_LEARNER_METHODS = ("reset", "predict", "wants_label", "update")
_VAR_KINDS = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


class Params:
    """Mixin: :meth:`get_params` and ``repr`` derived from ``__init__``'s signature.

    ``_factory_examples`` maps a parameter that is a learner *factory* (e.g.
    :class:`~graphsel_lib.online.OneVsRest`'s ``make_binary_learner``) to the
    attribute holding a learner it built: ``repr``, ``get_params(deep=True)``
    and cache keys show that learner in place of the callable.
    """

    _factory_examples: dict[str, str] = {}

    def get_params(self, deep: bool = True) -> dict:
        """``{name: value}`` of the ``__init__`` parameters; with ``deep``, also ``name__sub`` of nested learners."""
        return learner_params(self, deep=deep)

    def __repr__(self):
        return format_params(self)


def _parameters(cls) -> list[inspect.Parameter]:
    """The ``__init__`` parameters of ``cls``; TypeError if ``*args``/``**kwargs`` hide some (as scikit-learn)."""
    if cls.__init__ is object.__init__:
        return []
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]  # without self
    if any(p.kind in _VAR_KINDS for p in params):
        raise TypeError(
            f"{cls.__qualname__}.__init__ takes *args or **kwargs: its parameters cannot be read from its signature"
        )
    return params


def _read(obj, name):
    try:
        return getattr(obj, name)
    except AttributeError:
        raise AttributeError(
            f"{type(obj).__qualname__} does not keep its __init__ parameter {name!r} as self.{name}, "
            "so its parameters cannot be read back"
        ) from None


def _shown(obj, name, value):
    """The learner a factory parameter built (``_factory_examples``), else ``value``."""
    attr = getattr(type(obj), "_factory_examples", {}).get(name)
    return value if attr is None else getattr(obj, attr)


def is_learner(obj: Any) -> bool:
    """True for an instance with the online-learner interface (``reset, predict, wants_label, update``)."""
    return not isinstance(obj, type) and all(callable(getattr(obj, m, None)) for m in _LEARNER_METHODS)


def learner_params(obj: Any, deep: bool = True) -> dict:
    """The ``__init__`` parameters of ``obj`` read back from its attributes (scikit-learn's ``get_params``)."""
    out = {}
    for p in _parameters(type(obj)):
        value = _read(obj, p.name)
        out[p.name] = value
        shown = _shown(obj, p.name, value)
        if deep and callable(getattr(shown, "get_params", None)) and not isinstance(shown, type):
            out.update({f"{p.name}__{k}": v for k, v in shown.get_params(deep=True).items()})
    return out


def format_params(obj: Any) -> str:
    """``ClassName(a=1, b=2)`` from the ``__init__`` parameters (see the module docstring).

    Never raises: a parameter not kept under its name shows as ``name=?``; with
    ``*args``/``**kwargs`` in ``__init__``, the public attributes are shown instead.
    """
    try:
        params = _parameters(type(obj))
    except (TypeError, ValueError):
        public = {k: v for k, v in vars(obj).items() if not k.startswith("_")}
        return f"{type(obj).__name__}({', '.join(f'{k}={_format_value(v)}' for k, v in public.items())})"
    parts = []
    for i, p in enumerate(params):
        try:
            value = _shown(obj, p.name, _read(obj, p.name))
        except AttributeError:
            parts.append(f"{p.name}=?")
            continue
        if isinstance(p.default, bool) and isinstance(value, bool) and value == p.default:
            continue  # a switch at its default
        text = _format_value(value)
        parts.append(text if i == 0 and is_learner(value) else f"{p.name}={text}")
    return f"{type(obj).__name__}({', '.join(parts)})"


def _format_value(value) -> str:
    if isinstance(value, type):
        return value.__name__
    if isinstance(value, functools.partial):
        args = [_format_value(a) for a in value.args]
        args += [f"{k}={_format_value(v)}" for k, v in value.keywords.items()]
        return f"partial({', '.join([_format_value(value.func), *args])})"
    if isinstance(value, types.FunctionType):
        return value.__qualname__
    if isinstance(value, np.ndarray):
        shape = "x".join(map(str, value.shape))
        return f"<array {shape} {value.dtype}, sha256:{_digest_arrays(value)[:12]}>"
    if sp.issparse(value):
        shape = "x".join(map(str, value.shape))
        return f"<sparse {shape}, nnz={value.nnz}, sha256:{_sparse_digest(value)[:12]}>"
    return repr(value)


# --------------------------------------------------------------------------- cache-key descriptions


def _digest_arrays(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _sparse_digest(m) -> str:
    m = sp.csr_matrix(m, copy=True)
    m.sum_duplicates()
    m.sort_indices()
    return _digest_arrays(np.asarray(m.shape), m.indptr, m.indices, m.data)


@functools.cache
def _installed_roots() -> tuple[Path, ...]:
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    paths = sysconfig.get_paths()
    return tuple({Path(paths[n]).resolve() for n in names if n in paths})


def _is_library(module: str) -> bool:
    return module == _LIBRARY or module.startswith(_LIBRARY + ".")


@functools.cache
def _is_user_module(module: str) -> bool:
    """Code whose edits a cache must see: not graphsel_lib, not the standard library, not installed packages."""
    if _is_library(module) or module in ("builtins", "__builtin__"):
        return False
    if module == "__main__":  # a notebook, a script
        return True
    mod = sys.modules.get(module)
    if mod is None:  # a dynamic module, e.g. a class rebuilt by cloudpickle
        return True
    path = getattr(mod, "__file__", None)
    if path is None:  # built in
        return False
    path = Path(path).resolve()
    return not any(root == path or root in path.parents for root in _installed_roots())


class _Describer:
    """Canonical description of a value; ``active`` breaks cycles (a method whose closure holds its class)."""

    def __init__(self):
        self.active: set[int] = set()
        self.classes: dict[type, str] = {}

    def __call__(self, v):  # noqa: C901 - one dispatch on the type
        if v is None or isinstance(v, (bool, int, float, complex, str, bytes)):
            return [type(v).__name__, repr(v)]
        if isinstance(v, np.generic):
            return [type(v).__name__, repr(v.item())]
        if isinstance(v, (list, tuple)):
            return [type(v).__name__, [self(x) for x in v]]
        if isinstance(v, dict):
            return ["dict", sorted(([self(k), self(x)] for k, x in v.items()), key=repr)]
        if isinstance(v, (set, frozenset)):
            return [type(v).__name__, sorted((self(x) for x in v), key=repr)]
        if isinstance(v, np.ndarray) and v.dtype != object:
            return ["ndarray", _digest_arrays(v)]
        if sp.issparse(v):
            return ["sparse", _sparse_digest(v)]
        if isinstance(v, type):
            return ["class", self.class_id(v)]
        if isinstance(v, functools.partial):
            return ["partial", self(v.func), self(v.args), self(v.keywords)]
        if isinstance(v, types.FunctionType):
            return ["function", self.function(v)]
        if isinstance(v, types.MethodType):
            return ["method", self(v.__self__), self(v.__func__)]
        if isinstance(v, types.ModuleType):
            return ["module", v.__name__]
        if isinstance(v, types.CodeType):
            return ["code", self.code(v)]
        if isinstance(v, (types.BuiltinFunctionType, np.ufunc)):
            return ["builtin", getattr(v, "__module__", None) or "", getattr(v, "__qualname__", v.__name__)]
        return self.instance(v)

    def instance(self, v):
        cls = type(v)
        if id(v) in self.active:
            return ["recursive", cls.__module__, cls.__qualname__]
        self.active.add(id(v))
        try:
            if is_learner(v) or _is_user_module(cls.__module__):
                try:  # the learner's parameters, nested learners in place of their factories
                    params = {p.name: _shown(v, p.name, _read(v, p.name)) for p in _parameters(cls)}
                    return ["params", self.class_id(cls), {k: self(x) for k, x in params.items()}]
                except (AttributeError, TypeError, ValueError):
                    if hasattr(v, "__dict__"):  # no readable parameters: the fresh object's whole state
                        return ["state", self.class_id(cls), {k: self(x) for k, x in sorted(vars(v).items())}]
            try:
                blob = pickle.dumps(v, protocol=5)
            except Exception:  # noqa: BLE001 - anything unpicklable is described by its repr
                return ["repr", self.class_id(cls), repr(v)]
            return ["pickle", self.class_id(cls), hashlib.sha256(blob).hexdigest()]
        finally:
            self.active.discard(id(v))

    def class_id(self, cls):
        """Module and qualified name of each class of the MRO, with the code of those written by the user."""
        out = []
        for c in cls.__mro__:
            if c is object:
                continue
            entry = [c.__module__, c.__qualname__]
            if _is_user_module(c.__module__):
                entry.append(self.class_code(c))
            out.append(entry)
        return out

    def class_code(self, cls) -> str:
        if cls in self.classes:
            return self.classes[cls]
        if id(cls) in self.active:
            return "recursive"
        self.active.add(id(cls))
        try:
            members = []
            for name, value in sorted(vars(cls).items()):
                if name in ("__dict__", "__weakref__", "__module__", "__qualname__", "__firstlineno__"):
                    continue
                if isinstance(value, (staticmethod, classmethod)):
                    value = value.__func__
                if isinstance(value, property):
                    value = (value.fget, value.fset, value.fdel)
                members.append([name, self(value)])
            digest = hashlib.sha256(repr(members).encode()).hexdigest()
        finally:
            self.active.discard(id(cls))
        self.classes[cls] = digest
        return digest

    def function(self, f):
        if id(f) in self.active:
            return ["recursive", f.__module__, f.__qualname__]
        self.active.add(id(f))
        try:
            out = {
                "name": [f.__module__, f.__qualname__],
                "code": self.code(f.__code__),
                "defaults": self(f.__defaults__),
                "kwdefaults": self(f.__kwdefaults__),
                "closure": [self(_cell(c)) for c in f.__closure__ or ()],
            }
            if _is_user_module(f.__module__ or ""):
                g = f.__globals__
                out["globals"] = {n: self(g[n]) for n in sorted(_global_names(f.__code__)) if n in g}
            return out
        finally:
            self.active.discard(id(f))

    def code(self, code):
        return [
            hashlib.sha256(code.co_code).hexdigest(),
            [self.code(c) if isinstance(c, types.CodeType) else self(c) for c in code.co_consts],
            list(code.co_names),
            list(code.co_varnames),
            list(code.co_freevars),
            [code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags],
        ]


def _cell(cell):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return "<empty cell>"


def _global_names(code) -> set[str]:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _global_names(c)
    return names


def learner_description(value: Any) -> Any:
    """Canonical, JSON-ready description of ``value`` (a learner, a factory, an array, ...) for cache keys.

    Parameters
    ----------
    value : object
        A learner (its class along the MRO and its ``get_params``, nested learners recursively), a
        class, ``functools.partial`` or function (code written outside the library by its code), an
        array (by digest), or a plain value.

    Returns
    -------
    list
        Nested lists of strings: equal descriptions for equal configurations, whatever the order of
        a ``dict``'s or a ``set``'s entries.

    Examples
    --------
    >>> from graphsel_lib.online import OLLGC
    >>> learner_description(1.5)
    ['float', '1.5']
    >>> learner_description(OLLGC(mu=0.5))[2]
    {'mu': ['float', '0.5']}
    >>> learner_description(OLLGC(mu=0.5)) == learner_description(OLLGC(mu=1.0))
    False
    """
    return _Describer()(value)
