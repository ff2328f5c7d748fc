"""Versions and machine facts, printed at the end of every notebook (STYLE: "a versions cell")."""

from __future__ import annotations

import os
import platform
from importlib import metadata

__all__ = ["show_versions", "versions"]

_PACKAGES = ("numpy", "scipy", "networkx", "matplotlib", "pandas", "scikit-learn", "pyamg", "joblib")


def versions() -> dict:
    """``{name: version}`` for Python, graphsel and the packages it uses, plus the machine."""
    from . import __version__

    out = {"python": platform.python_version(), "graphsel": __version__}
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
