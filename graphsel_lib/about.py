"""Versions and machine facts, printed at the end of every notebook (STYLE: "a versions cell")."""

from __future__ import annotations

import os
import platform
from importlib import metadata

__all__ = ["show_versions", "versions"]

_PACKAGES = ("numpy", "scipy", "networkx", "matplotlib", "pandas", "scikit-learn", "pyamg", "joblib")


def versions() -> dict:
    """``{name: version}`` for Python, graphsel and the packages it uses, plus the machine."""
    try:  # read here, not from the package's __init__ (a lower module never imports the one above it)
        version = metadata.version("graphsel")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree without installing
        version = "0+unknown"
    out = {"python": platform.python_version(), "graphsel": version}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    out["machine"] = (
        f"{platform.machine()} {platform.processor() or ''}".strip() + f", {os.cpu_count()} cores"
    )
    return out


def show_versions() -> None:
    """Print :func:`versions`, one per line (the last cell of every notebook)."""
    for name, value in versions().items():
        print(f"{name:13s}{value}")
