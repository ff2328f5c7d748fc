"""Packaging: environment.yml and pyproject.toml list the same packages; README drives CI."""

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# conda-forge splits dask[distributed] into two packages
CONDA_ALIASES = {"dask[distributed]": {"dask", "distributed"}}


def _name(req):
    return re.split(r"[<>=!~ ;]", req.strip(), maxsplit=1)[0].lower()


def _meta():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _extra(name, meta=None):
    """The packages of one extra, its references to other extras (``graphsel-lib[notebooks]``) resolved."""
    meta = meta or _meta()
    names = set()
    for r in meta["optional-dependencies"][name]:
        if _name(r).startswith(meta["name"] + "["):
            for other in _name(r).split("[", 1)[1].rstrip("]").split(","):
                names |= _extra(other.strip(), meta)
        else:
            names |= CONDA_ALIASES.get(_name(r), {_name(r)})
    return names


def _pyproject_packages():
    """The core and every extra."""
    meta = _meta()
    names = {_name(r) for r in meta["dependencies"]}
    for extra in meta["optional-dependencies"]:
        names |= _extra(extra, meta)
    return names


def _environment_packages():
    names = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        # conda packages at two spaces; packages only on PyPI in the pip: list (not the "-e ." line)
        m = re.match(r"^  - ([A-Za-z0-9_.\-\[\]]+)", line) or re.match(
            r"^      - ([A-Za-z0-9][A-Za-z0-9_.\-\[\]]*)", line
        )
        if m and m.group(1) not in ("pip", "python"):
            names.add(_name(m.group(1)))
    return names


def test_one_name_for_the_distribution_and_the_package():
    """Installed as ``graphsel-lib``, imported as ``graphsel_lib`` (one name, as PyPI normalises it); the
    extras name the distribution (``graphsel-lib[notebooks]``) and ``__version__`` reads its metadata."""
    from graphsel_lib import about

    meta = _meta()
    assert meta["name"] == about.DISTRIBUTION == "graphsel-lib"
    assert re.sub(r"[-_.]+", "_", meta["name"]) == "graphsel_lib"
    refs = [r for reqs in meta["optional-dependencies"].values() for r in reqs if "[" in r]
    own = [r for r in refs if re.split(r"[\[<>=!~ ;]", r, maxsplit=1)[0].startswith("graphsel")]
    assert own and all(r.startswith(meta["name"] + "[") for r in own), own


def test_environment_yml_matches_pyproject():
    assert _environment_packages() == _pyproject_packages()


def test_readme_has_two_setup_commands_and_ci_uses_the_test_one():
    readme = (ROOT / "README.md").read_text()
    block = re.search(
        r"<!-- test-command -->\s*```bash\n(.+?)\n\s*```\s*<!-- /test-command -->", readme, re.S
    )
    assert block, "README must mark the test command"
    assert "pytest" in block.group(1)
    assert 'pip install -e ".[book]" && python -m graphsel_lib.reproduce --book' in readme
    # .ci/run extracts the same command (it once ran the ``` fence lines as shell)
    out = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run"), "--print-command"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == block.group(1).strip()


def test_import_is_light_and_the_version_comes_from_the_metadata():
    """``import graphsel_lib`` loads neither pandas nor the experiment engine; the version is the installed one."""
    import subprocess
    import sys
    from importlib import metadata

    code = (
        "import sys, graphsel_lib as gs; "
        "print(sorted(m for m in ('pandas', 'graphsel_lib.experiments', 'matplotlib') if m in sys.modules)); "
        "print(gs.__version__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == metadata.version("graphsel-lib")
    import graphsel_lib as gs

    assert gs.experiments.evaluate is not None  # still reachable, on first use


def test_no_module_imports_the_package_above_it():
    """about reads the version itself; readers do not import graph back (graph -> readers only)."""
    import ast

    import graphsel_lib

    root = Path(graphsel_lib.__file__).parent
    for name, forbidden in (("about.py", "from . import"), ("readers.py", "from .graph import")):
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        imports = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [i for i in imports if i.startswith(forbidden)], f"{name}: {imports}"


NOT_CORE = ("matplotlib", "IPython", "ipykernel", "ipywidgets", "jupyterlab", "papermill", "nbformat",
            "nbconvert", "sphinx", "myst_nb", "nbgrader", "pytest", "dask", "playwright")  # fmt: skip


def test_the_core_is_what_the_algorithms_need_and_test_installs_every_extra():
    meta = _meta()
    core = {_name(r) for r in meta["dependencies"]}
    assert core == {"numpy", "scipy", "networkx", "scikit-learn", "pyamg", "numba", "threadpoolctl",
                    "tqdm", "pandas", "joblib"}  # fmt: skip
    assert not {m.lower().replace("_", "-") for m in NOT_CORE} & core
    extras = set(meta["optional-dependencies"]) - {"test", "dev"}
    assert extras == {"notebooks", "book", "teach"}
    assert set().union(*(_extra(e, meta) for e in extras)) <= _extra("test", meta)  # .ci/run installs all
    assert "nbgrader" in _extra("teach", meta) and "nbgrader" not in core


def test_console_scripts_are_the_python_m_entry_points():
    import importlib

    scripts = _meta()["scripts"]
    assert set(scripts) == {"graphsel-reproduce", "graphsel-book"}
    for target, shim in zip(scripts.values(), ("graphsel_lib.reproduce", "graphsel_lib.book"), strict=True):
        module, func = target.split(":")
        assert getattr(importlib.import_module(module), func) is importlib.import_module(shim).main


def test_the_core_imports_and_runs_an_online_learner_without_the_extras():
    """What ``pip install -e .`` gives: the notebook, book and test packages made unimportable."""
    import subprocess
    import sys

    code = f"""
import importlib.abc, sys
class NoExtras(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {NOT_CORE!r}:
            raise ImportError(f"{{name}} is an extra, not in the core")
sys.meta_path.insert(0, NoExtras())
import numpy as np, graphsel_lib as gs
S = gs.graph.random_connected_graph(np.random.default_rng(0), 40, 0.2)
M = gs.spectral_embedding(S, 5, cache=False).M
y = np.where(M[0] > 0, 1, -1)
tr = gs.online.run(gs.online.SSLGC(mu=1.0, kappa=0.3), gs.add_bias(M), y, seed=0)
F = gs.transductive.harmonic(S, (y > 0).astype(int), [0, 1, 2, 3])
print(tr.n_rounds, F.shape, sorted(m for m in {NOT_CORE!r} if m in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["40", "(40,", "2)", "[]"]
