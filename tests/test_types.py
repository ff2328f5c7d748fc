"""The typed public API: every public function and method of the typed modules is annotated, and mypy passes.

Typed so far: ``graph``. Next: ``online``, ``transductive``, ``spectral``, ``datasets``, ``active``.
"""

import importlib.util
import inspect
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from graphsel_lib import graph

ROOT = Path(__file__).resolve().parent.parent
TYPED = (graph,)


def _defined_in(obj, module):
    """``obj`` is defined in ``module`` or, for a package, in one of its submodules."""
    return obj.__module__ == module.__name__ or obj.__module__.startswith(module.__name__ + ".")


def _source(module):
    """The path mypy is given for ``module``: its file, or its package's directory."""
    path = Path(module.__file__).relative_to(ROOT)
    return (path.parent if path.name == "__init__.py" else path).as_posix()


def _public_callables(module):
    """``(name, function)`` for each function of ``__all__`` and each public method of its classes."""
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj) and _defined_in(obj, module):
            out.append((name, obj))
        elif inspect.isclass(obj) and _defined_in(obj, module):
            for attr, member in vars(obj).items():
                func = member.__func__ if isinstance(member, classmethod | staticmethod) else member
                func = func.fget if isinstance(func, property) else func
                if inspect.isfunction(func) and not attr.startswith("_"):
                    out.append((f"{name}.{attr}", func))
    return out


@pytest.mark.parametrize("module", TYPED, ids=lambda m: m.__name__)
def test_the_public_api_is_annotated(module):
    missing = []
    for name, func in _public_callables(module):
        sig = inspect.signature(func)
        params = [p for p in sig.parameters.values() if p.name not in ("self", "cls")]
        if sig.return_annotation is inspect.Signature.empty or any(
            p.annotation is inspect.Parameter.empty for p in params
        ):
            missing.append(name)
    assert len(_public_callables(module)) >= 20
    assert not missing, f"{module.__name__}: public functions without full annotations: {missing}"


def test_mypy_checks_the_typed_modules():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["files"] == [_source(m) for m in TYPED]
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
