"""The typed public API: every public function and method of the typed modules is annotated, and mypy passes.

Typed so far: ``graph``, ``spectral`` (and the solvers of ``eigensolvers``), ``datasets``, ``active``,
``transductive``; in ``online`` the protocol (``run``, ``Trace``, the ``Learner`` protocol), the learner modules,
``Session`` and its file format, ``push``, ``scores``, ``ranking`` and the parameters of a learner (``_params``:
``get_params``, ``learner_description``); ``course.gp_em``, which chapter 12 took out of ``transductive`` typed
(not yet the compiled loops, whose arguments
numba types, nor the naive twins of ``reference``); ``experiments`` (the orders, ``evaluate``, ``sweep``, the
tuning, the comparison, the cache key and the results files).
"""

import importlib.util
import inspect
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from graphsel_lib import active, datasets, eigensolvers, experiments, graph, spectral, transductive
from graphsel_lib.course import gp_em
from graphsel_lib.online import (
    _params,
    bbq_dgs,
    cmog_msg,
    ollgc_sslgc,
    one_vs_rest,
    perceptron,
    protocol,
    push,
    query_wrappers,
    ranking,
    relaxation,
    ridge_state,
    scores,
    session,
    session_file,
    wta,
)

ROOT = Path(__file__).resolve().parent.parent
TYPED = (
    graph,
    spectral,
    datasets,
    active,
    protocol,
    ridge_state,
    perceptron,
    ollgc_sslgc,
    one_vs_rest,
    cmog_msg,
    bbq_dgs,
    query_wrappers,
    relaxation,
    wta,
    session,
    push,
    scores,
    ranking,
    session_file,
    _params,
    transductive,
    gp_em,
    experiments,
)
#: Public functions typed ahead of their modules (mypy checks their modules' files).
TYPED_FUNCTIONS = (eigensolvers.complement_probe,)


def _defined_in(obj, module):
    """``obj`` is defined in ``module`` or, for a package, in one of its submodules."""
    return obj.__module__ == module.__name__ or obj.__module__.startswith(module.__name__ + ".")


def _source(module):
    """The path mypy is given for ``module``: its file, or its package's directory."""
    path = Path(module.__file__).relative_to(ROOT)
    return (path.parent if path.name == "__init__.py" else path).as_posix()


def _public_callables(module):
    """``(name, function)`` for each function of ``__all__`` and each public method (and ``__init__``) of its classes."""
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj) and _defined_in(obj, module):
            out.append((name, obj))
        elif inspect.isclass(obj) and _defined_in(obj, module):
            for attr, member in vars(obj).items():
                func = member.__func__ if isinstance(member, classmethod | staticmethod) else member
                func = func.fget if isinstance(func, property) else func
                if inspect.isfunction(func) and (
                    (attr == "__init__" and func.__module__ == obj.__module__) or not attr.startswith("_")
                ):  # constructors too
                    out.append((f"{name}.{attr}", func))
    return out


@pytest.mark.parametrize("module", TYPED, ids=lambda m: m.__name__)
def test_the_public_api_is_annotated(module):
    missing = [name for name, func in _public_callables(module) if not _is_annotated(func)]
    smallest = {graph: 20, scores: 2, ranking: 1, gp_em: 3}.get(module, 4)  # the finder finds them
    assert len(_public_callables(module)) >= smallest
    assert not missing, f"{module.__name__}: public functions without full annotations: {missing}"


def _is_annotated(func):
    sig = inspect.signature(func)
    params = [p for p in sig.parameters.values() if p.name not in ("self", "cls")]
    return sig.return_annotation is not inspect.Signature.empty and all(
        p.annotation is not inspect.Parameter.empty for p in params
    )


@pytest.mark.parametrize("func", TYPED_FUNCTIONS, ids=lambda f: f.__name__)
def test_the_typed_functions_are_annotated(func):
    assert _is_annotated(func), f"{func.__module__}.{func.__name__} is not fully annotated"


def test_mypy_checks_the_typed_modules():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    typed = [*TYPED, *(sys.modules[f.__module__] for f in TYPED_FUNCTIONS)]
    assert config["files"] == [_source(m) for m in typed]
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
