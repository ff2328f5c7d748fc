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


def _pyproject_packages():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {_name(r) for r in meta["dependencies"]}
    for r in meta["optional-dependencies"]["test"]:
        names |= CONDA_ALIASES.get(_name(r), {_name(r)})
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


def test_environment_yml_matches_pyproject():
    assert _environment_packages() == _pyproject_packages()


def test_readme_has_two_setup_commands_and_ci_uses_the_test_one():
    readme = (ROOT / "README.md").read_text()
    block = re.search(
        r"<!-- test-command -->\s*```bash\n(.+?)\n\s*```\s*<!-- /test-command -->", readme, re.S
    )
    assert block, "README must mark the test command"
    assert "pytest" in block.group(1)
    assert "pip install -e . && python -m graphsel_lib.reproduce" in readme
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
    assert out[1] == metadata.version("graphsel")
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
