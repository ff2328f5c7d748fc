"""Code style is part of the build: ruff's lint rules and formatter (pyproject.toml [tool.ruff])."""

import subprocess
import sys

import pytest

from graphsel_lib.paths import project_root

TARGETS = ["graphsel_lib", "benchmarks", "tests"]


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff_is_clean(command):
    pytest.importorskip("ruff")
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", *command, *TARGETS],
        cwd=project_root(),
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, f"ruff {' '.join(command)} failed:\n{proc.stdout}\n{proc.stderr}"
