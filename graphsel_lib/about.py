"""Versions and machine facts, printed at the end of every notebook (STYLE: "a versions cell")."""

from __future__ import annotations

import os
import platform
from importlib import metadata

__all__ = ["DISTRIBUTION", "distribution_version", "show_versions", "versions"]

#: The name the library is installed under (``pip install graphsel-lib``); it is imported as ``graphsel_lib``.
DISTRIBUTION = "graphsel-lib"

_PACKAGES = ("numpy", "scipy", "networkx", "matplotlib", "pandas", "scikit-learn", "pyamg", "joblib")


def distribution_version() -> str:
    """The installed version of :data:`DISTRIBUTION`, or ``"0+unknown"`` in a source tree never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree without installing
        return "0+unknown"


def versions() -> dict:
    """``{name: version}`` for Python, graphsel-lib and the packages it uses, plus the machine."""
    out = {"python": platform.python_version(), DISTRIBUTION: distribution_version()}
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
